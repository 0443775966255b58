"""Rail movement in the MAP (MV-36, MV-37; rule 11.7, PB 13.5.1, PB 14.5.1) on SYNTHETIC boards."""
from __future__ import annotations

from fractions import Fraction

import pytest

from vlog.engine.judge import Unknown
from vlog.findings import Basis, Severity
from vlog.games.lion_of_judah.checks.rail import RailLedger, division_share, judge_rail_move

from .scripted import TO_TURN_2_MAP, judge_actions
from .synthetic import shipped_board, state, synthetic_board, unit

MASSAWA_LINE = ["1405", "1305", "1205", "1104"]
SUDAN_LINE = ["0508", "0507", "0506", "0505"]
DJIBOUTI_LINE = ["1910", "1811", "1711", "1612"]


@pytest.fixture
def board(tmp_path):
    """Three rail lines with listed hexes (SYNTHETIC paths between the rulebook's ends)."""
    return synthetic_board(tmp_path, lines={"rail-massawa-dongolaas": ("rail", MASSAWA_LINE),
                                            "rail-sudan": ("rail", SUDAN_LINE),
                                            "rail-djibouti-addis": ("rail", DJIBOUTI_LINE)})


def judge(board, s, u, start, goal, *, scenario="1935-36", turn=2, ledger=None, step=5):
    return judge_rail_move(board, s, u, start, goal, scenario=scenario, turn=turn,
                           ledger=ledger if ledger is not None else RailLedger(), step=step,
                           when=f"Turn {turn}, Mutual Administration")


def only(findings, check):
    assert [f.check for f in findings] == [f"lion-of-judah/{check}"], [f.message for f in findings]
    return findings[0]


def test_italian_along_the_massawa_line_is_legal(board):
    sb = unit("sb", "1405", name="Sb")
    assert judge(board, state(sb), sb, "1405", "1104") == []
    assert judge(board, state(sb), sb, "1104", "1305") == []      # either way along the line


def test_off_the_line_is_proven(board):
    sb = unit("sb", "1405", name="Sb")
    f = only(judge(board, state(sb), sb, "1405", "1306"), "MV-36")
    assert f.basis is Basis.PROVEN and f.severity is Severity.ERROR
    assert f.rule == "11.7; PB 13.5.1; PB 14.5.1" and f.step == 5 and f.subjects == ("Sb",)
    assert f.evidence == {"from": "1405", "to": "1306", "side": "italian",
                          "lines": ["rail-massawa-dongolaas"]}
    assert f.message.startswith("Sb moved from 1405 (Massawa) to 1306 in the MAP")


def test_ethiopians_never_use_rail_in_1935(board):
    lv = unit("lv", "1405", name="Tigray", side="ethiopian", unit_class="ethiopian-levy")
    f = only(judge(board, state(lv), lv, "1405", "1305"), "MV-36")
    assert f.basis is Basis.PROVEN and f.evidence["lines"] == []
    assert "Ethiopian player may not use rail movement in the 1935-36 scenario" in f.message


def test_allied_use_only_the_sudan_line(board):
    gz = unit("gz", "0508", name="5 Ind", side="allied", unit_class="european")
    assert judge(board, state(gz), gz, "0508", "0505", scenario="1940-41") == []
    f = only(judge(board, state(gz), gz, "1405", "1104", scenario="1940-41"), "MV-36")
    assert f.basis is Basis.PROVEN and f.evidence["lines"] == ["rail-sudan"]


def test_route_through_an_enemy_hex_is_not_friendly(board):
    sb = unit("sb", "1405", name="Sb")
    foe = unit("foe", "1305", name="Tigray", side="ethiopian", unit_class="ethiopian-levy")
    f = only(judge(board, state(sb, foe), sb, "1405", "1104"), "MV-36")
    assert f.basis is Basis.PROVEN
    assert f.evidence["enemy_hexes_on_route"] == {"rail-massawa-dongolaas": ["1305"]}
    assert "passes enemy-held 1305" in f.message
    # short of the enemy the move is legal
    assert judge(board, state(sb, foe), sb, "1104", "1205") == []


def test_the_djibouti_line_depends_on_the_optional_repair(board):
    sb = unit("sb", "1711", name="Sb")
    f = only(judge(board, state(sb), sb, "1711", "1910", scenario="1940-41"), "MV-36")
    assert f.basis is Basis.POSSIBLE and f.severity is Severity.WARNING
    assert f.evidence["depends_on"] == [
        "the optional Djibouti - Addis Ababa railroad repair declaration (PB 14.5.1)"]
    # 1935-36 has no such option: proven
    assert only(judge(board, state(sb), sb, "1711", "1910"), "MV-36").basis is Basis.PROVEN


def test_unlisted_line_hexes_make_it_possible():
    """The shipped data names the lines' ends only: a move is POSSIBLE, naming the hexes."""
    sb = unit("sb", "1405", name="Sb")
    f = only(judge(shipped_board(), state(sb), sb, "1405", "1306"), "MV-36")
    assert f.basis is Basis.POSSIBLE
    assert f.evidence["depends_on"] == ["map.json line rail-massawa-dongolaas hexes"]


def test_unknown_scenario_or_side_is_not_judged(board):
    sb = unit("sb", "1405", name="Sb")
    assert judge(board, state(sb), sb, "1405", "1306", scenario=None) == []
    nobody = unit("x", "1405", side=None)
    assert judge(board, state(nobody), nobody, "1405", "1306") == []


def test_one_finding_a_unit_a_map(board):
    sb = unit("sb", "1405", name="Sb")
    ledger = RailLedger()
    only(judge(board, state(sb), sb, "1405", "1306", ledger=ledger), "MV-36")
    assert judge(board, state(sb), sb, "1405", "1307", ledger=ledger) == []
    only(judge(board, state(sb), sb, "1405", "1306", ledger=ledger, turn=3), "MV-36")


def test_a_unit_placed_in_this_map_did_not_begin_it_on_the_line(board):
    """11.7: a unit must begin the MAP on the line; a reinforcement placed in it did not."""
    pl = unit("pl", "1405", name="PL")
    ledger = RailLedger(placed={(2, "pl")})
    f = only(judge(board, state(pl), pl, "1405", "1104", ledger=ledger), "MV-36")
    assert f.basis is Basis.PROVEN and f.evidence["placed_in_this_map"] is True
    assert "placed in this MAP" in f.message
    # placed in the MAP of an earlier turn: it began this MAP on the line
    assert judge(board, state(pl), pl, "1405", "1104", ledger=RailLedger(placed={(1, "pl")})) == []


def test_division_shares():
    assert division_share(unit("a", "1405", size="division")) == 1
    assert division_share(unit("b", "1405", size="brigade")) == Fraction(1, 2)
    assert division_share(unit("c", "1405", kind="hq", size=None)) == Fraction(1, 2)
    assert division_share(unit("d", "1405", kind="truck", size=None)) == Fraction(1, 2)
    assert division_share(unit("e", "1405", kind="rp", size=None)) is None
    assert isinstance(division_share(unit("f", "1405", size=None)), Unknown)


def test_a_line_carries_one_division_a_map(board):
    """11.7: one division, or two non-division units; HQs and trucks count 1/2."""
    ledger = RailLedger()
    sb, gs = unit("sb", "1405", name="Sb"), unit("gs", "1305", name="Gavinana")
    s = state(sb, gs)
    assert judge(board, s, sb, "1405", "1104", ledger=ledger) == []
    f = only(judge(board, s, gs, "1305", "1205", ledger=ledger, step=6), "MV-37")
    assert f.basis is Basis.PROVEN and f.step == 6 and f.rule == "11.7"
    assert f.evidence["division_equivalents"] == "2" and f.evidence["units"] == ["Gavinana", "Sb"]
    assert "carried 2 divisions or equivalent in the MAP of turn 2 with Gavinana" in f.message
    # the next MAP starts afresh
    assert judge(board, s, gs, "1305", "1205", ledger=ledger, turn=3) == []


def test_two_brigades_or_a_brigade_and_an_hq_fit(board):
    ledger = RailLedger()
    a, hq = unit("a", "1405", size="brigade"), unit("hq", "1405", kind="hq", size=None)
    s = state(a, hq)
    assert judge(board, s, a, "1405", "1104", ledger=ledger) == []
    assert judge(board, s, hq, "1405", "1104", ledger=ledger) == []
    third = unit("t", "1405", kind="truck", size=None, name="Truck")
    assert only(judge(board, s, third, "1405", "1305", ledger=ledger), "MV-37") \
        .evidence["division_equivalents"] == "3/2"


def test_two_rps_a_line(board):
    ledger = RailLedger()
    rps = [unit(f"rp{i}", "1405", kind="rp", size=None, name=f"RP {i}") for i in range(3)]
    s = state(*rps)
    assert judge(board, s, rps[0], "1405", "1104", ledger=ledger) == []
    assert judge(board, s, rps[1], "1405", "1104", ledger=ledger) == []
    f = only(judge(board, s, rps[2], "1405", "1104", ledger=ledger), "MV-37")
    assert f.evidence["rps"] == 3 and "carried 3 RPs" in f.message


def test_unknown_size_makes_the_load_possible(board):
    """A unit of unknown size counts 1/2 or 1: over the limit only if it is a division."""
    ledger = RailLedger()
    sb, odd = unit("sb", "1405", name="Sb", size="brigade"), unit("o", "1405", name="Odd", size=None)
    s = state(sb, odd)
    assert judge(board, s, sb, "1405", "1104", ledger=ledger) == []
    f = only(judge(board, s, odd, "1405", "1104", ledger=ledger), "MV-37")
    assert f.basis is Basis.POSSIBLE
    assert f.evidence["division_equivalents"] == "1"
    assert f.evidence["division_equivalents_at_most"] == "3/2"
    assert f.evidence["depends_on"] == ["counters.json size of Odd"]


def test_unknown_sizes_past_the_limit_either_way_are_proven(board):
    ledger = RailLedger()
    sb = unit("sb", "1405", name="Sb", size="division")
    odd = unit("o", "1405", name="Odd", size=None)
    s = state(sb, odd)
    assert judge(board, s, sb, "1405", "1104", ledger=ledger) == []
    f = only(judge(board, s, odd, "1405", "1104", ledger=ledger), "MV-37")
    assert f.basis is Basis.PROVEN and f.evidence["division_equivalents"] == "3/2"


def test_replay_a_reinforcement_moved_by_rail_in_its_arrival_map(tmp_path):
    """Through the game: PL placed at Massawa in the turn 2 MAP and moved along the line at once
    is MV-36 (11.7: it did not begin the MAP on the line); 21A, on the map since the start and
    moving along the same line in the same MAP, is legal alone."""
    findings = judge_actions(tmp_path, TO_TURN_2_MAP + """
move "21A" along 1305
move "PL" along 1405 on "Main Map"
move "PL" along 1305 1205
turn next
""", name="rail")
    found = [(f.check, f.step, f.evidence.get("placed_in_this_map")) for f in findings
             if f.check.startswith("lion-of-judah/")]
    assert found == [("lion-of-judah/MV-36", 10, True)]
