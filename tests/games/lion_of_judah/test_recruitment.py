"""(40) Guerrilla recruitment (SC-05, PB 14.6.4.1): one per faction a turn, near the faction's hex,
never with Italian-controlled units or in a pro-Italian region. The country and region borders
are the fixtures' SYNTHETIC ones (not the published map) unless the test says otherwise."""
from __future__ import annotations

from dataclasses import replace


from vlog.findings import Basis
from vlog.gamedata import load_game_data
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.recruitment import RecruitLedger, judge_recruit
from vlog.games.lion_of_judah.state import GameState, unit_from_counter


def recruit(data, counter: str, hex_: str, *, ledger: RecruitLedger | None = None, turn: int = 2,
            others: tuple[tuple[str, str], ...] = ()):
    unit = replace(unit_from_counter(data, counter, id="new", name=counter, hex_=hex_), side="allied",
                   unit_class="guerrilla")
    units = {f"o{i}": unit_from_counter(data, c, id=f"o{i}", name=c, hex_=h) for i, (c, h) in enumerate(others)}
    before = GameState(units, "1940-41")
    return judge_recruit(Board(data), before, unit, ledger if ledger is not None else RecruitLedger(),
                         turn=turn, step=7, when="Turn 2, MAP")


def test_legal_recruits_of_each_faction(synthetic):
    ledger = RecruitLedger()
    for counter, hex_ in (("et-levy-shoa", "1211"), ("et-levy-gojjam-imru", "1012"), ("et-levy-beghemder", "0910")):
        assert recruit(synthetic, counter, hex_, ledger=ledger) == []


def test_sc05_one_recruit_of_each_faction_a_turn(synthetic):
    ledger = RecruitLedger()
    assert recruit(synthetic, "et-levy-shoa", "1211", ledger=ledger) == []
    [f] = recruit(synthetic, "et-levy-shoa", "1212", ledger=ledger)
    assert (f.check, f.basis, f.step) == ("lion-of-judah/SC-05", Basis.PROVEN, 7)
    assert f.evidence["recruited"] == ["et-levy-shoa", "et-levy-shoa"]
    assert recruit(synthetic, "et-levy-shoa", "1212", ledger=ledger, turn=3) == []   # a new turn


def test_sc05_too_far_from_the_factions_hex(synthetic):
    [f] = recruit(synthetic, "et-levy-gojjam-imru", "1015")
    assert f.check == "lion-of-judah/SC-05" and f.evidence == {"hex": "1015", "home": "1012", "distance": 3,
                                                               "most": 2}


def test_sc05_not_with_italian_controlled_units(synthetic):
    [f] = recruit(synthetic, "et-levy-shoa", "1213", others=(("it-sb", "1213"),))
    assert "a hex with Italian-controlled units (it-sb)" in f.message


def test_sc05_beghemder_never_in_tigray(synthetic):
    [f] = recruit(synthetic, "et-levy-beghemder", "1107")       # within two of Gondar 1009, in Tigray
    assert f.check == "lion-of-judah/SC-05" and f.evidence == {"hex": "1107", "region": "tigray"}
    assert f.basis is Basis.PROVEN


def test_without_the_region_borders_a_beghemder_recruit_is_possible_only():
    [f] = recruit(load_game_data("lion-of-judah"), "et-levy-beghemder", "1107")
    assert f.basis is Basis.POSSIBLE and f.evidence["depends_on"] == ["map.json zone tigray hexes"]
    assert recruit(load_game_data("lion-of-judah"), "et-levy-shoa", "1211") == []


def test_other_units_are_not_recruits(synthetic):
    assert recruit(synthetic, "gb-kar1", "1122") == []
