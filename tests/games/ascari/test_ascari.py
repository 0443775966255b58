"""Ascari judged end to end on logs written by vlog's own writers (fixtures/ascari/rules/, on the
SYNTHETIC overlay fixtures/ascari/synthetic-data: not the published charts), the rulebook's and
FAQ's examples with the game's terrain rules, and the shipped data judging without guessing."""
from __future__ import annotations

import dataclasses

import pytest

import vlog
from tests.games.ascari.cases import EXPECTED, RULES, module, replay, synthetic_data
from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import check_move
from vlog.findings import Basis
from vlog.gamedata import load_game_data
from vlog.games.ascari.chat import Fire, Flag, parse_fire, parse_flag
from vlog.games.ascari.melee_table import OVERRUN, RETREAT, RETREAT_HIT, TIE, results, side_values
from vlog.games.ascari.fire_table import AFRICAN_COLUMN, DOUBLE, MISS, SINGLE, Drms, column, readings
from vlog.games.ascari.movement import mover, movement_rules
from vlog.games.ascari.rules import INVENTORY, REGISTRY, Ascari
from vlog.games.ascari.terrain import Terrain
from vlog.games.ascari.units import make_unit
from vlog.replay import replay_log


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_log_yields_exactly_its_planted_findings(name):
    rep, game = replay(name)
    got = [(f.check, f.step) for f in rep.findings]
    assert got == [(f"ascari/{c}", step) for c, step, _ in EXPECTED[name]], [f.message for f in rep.findings]
    for finding, (check, _, evidence) in zip(rep.findings, EXPECTED[name]):
        assert finding.rule == INVENTORY.item(check).rule
        assert finding.basis is (Basis.POSSIBLE if "depends_on" in evidence else Basis.PROVEN), (name, check)
        assert finding.when and "(inferred)" in finding.when      # the player-turn is followed from play
        for key, value in evidence.items():
            assert finding.evidence[key] == value, (name, key)


def test_scripts_say_what_they_plant():
    for name in EXPECTED:
        first = (RULES / f"{name}.vscript").read_text(encoding="utf-8").splitlines()[1]
        plants = len(EXPECTED[name])
        check = "-".join(name.split("-")[:2])          # MOV-12-limbered plants MOV-12
        assert first.startswith("# CLEAN" if name.startswith("clean-") else
                                f"# PLANTS {check} {'once' if plants == 1 else 'twice'}"), name


def test_every_registered_item_is_implemented_and_every_implemented_item_reports_or_folds():
    notes = INVENTORY.implemented()
    assert REGISTRY.ids() <= set(notes)
    for short, note in notes.items():
        assert short in REGISTRY.ids() or "findings under" in note or "no finding of its own" in note, short


def test_the_scenario_and_its_map_come_from_the_start():
    for name, scenario in (("clean-s1-open-fire", "s1"), ("MEL-12", "s1"), ("clean-s2", "s2"), ("clean-s3", "s3"),
                           ("clean-s4", "s4"), ("clean-s5", "s5")):
        rep, game = replay(name)
        assert game.scenario == scenario
        assert game.terrain.board.map_id == game.data.scenario(scenario)["map"].value


def test_a_log_whose_scenario_is_not_known_is_not_judged_and_says_so():
    """A start that tells no scenario: every check is reported not judged, naming the scenario
    (how to give it), not passed in silence; given the scenario, the same log is judged."""
    from vlog.games.ascari.rules import NO_SCENARIO
    game = Ascari(synthetic_data())
    game.detect_scenario = lambda units: None
    rep = replay_log(vlog.read(RULES / "FDR-16.vlog"), module=module(), game=game)
    assert game.scenario is None and not [f for f in rep.findings if f.check.startswith("ascari/")]
    for short in INVENTORY.implemented():
        status = rep.tally.status(f"ascari/{short}")
        assert status.judgement.value == "not-judged" and status.needs == (NO_SCENARIO,), short
    given = Ascari(synthetic_data(), scenario="s1")
    given.detect_scenario = lambda units: None
    rep = replay_log(vlog.read(RULES / "FDR-16.vlog"), module=module(), game=given)
    assert [f.check for f in rep.findings] == ["ascari/FDR-16", "ascari/FDR-16"]


def test_chat_declarations():
    assert parse_flag("flag Italian") == Flag("italian")
    assert parse_flag("Flag: ethiopian") == Flag("ethiopian")
    assert parse_fire("fire 1 II at 2706") == Fire("1 II", "2706", False)
    assert parse_fire("OpFire 5 Rifle RA at 1805") == Fire("5 Rifle RA", "1805", True)
    assert parse_fire("opportunity fire D Batt battery at 2410") == Fire("D Batt battery", "2410", True)
    assert parse_fire("fire at will") is None


# -- the rulebook's and the FAQ's examples ---------------------------------------------------------

def _move(scenario: str, counter: str, path: tuple[str, ...], data=None):
    data = data or synthetic_data()
    terrain = Terrain(data, data.scenario(scenario)["map"].value, scenario)
    unit = dataclasses.replace(make_unit(data, counter, None), hex=path[0])
    return terrain, unit, movement_rules(terrain, mover(unit, []))


def test_faq_coatit_a_ravine_climbed_stops_the_unit():
    """FAQ Coatit: from 2715 a unit moves 2714, 2713 and must stop in 2712 (ravine upwards)."""
    terrain, unit, rules = _move("s3", "et-rifle-4-coatit", ("2715",))
    assert terrain.side("2713", "2712")[1] is True
    assert terrain.side("2712", "2713")[1] is False                    # going down it does not stop
    assert check_move(rules, "2715", "2712", unit.movement).ruling is Ruling.LEGAL
    assert rules.stops_after("2713", "2712") is True


def test_faq_amba_alagi_multiple_slopes():
    """FAQ: 2210 -> 2211 costs 1 MP (same level); 2210 -> 2109 (multiple slopes with track) stops."""
    terrain, unit, rules = _move("s4", "it-1-iv", ("2210",))
    assert terrain.hex_cost("2211") == 1 and rules.stops_after("2210", "2211") is False
    assert rules.stops_after("2210", "2109") is True
    assert terrain.hex_cost("2109") == 1                                # the trail: 1 MP, not the slope cost
    beyond = check_move(rules, "2210", "2008", unit.movement)          # 2109 is on the cheapest way only
    assert beyond.route is None or "2109" not in beyond.route.hexes[1:-1]


def test_faq_metemma_zeriba_costs_the_whole_allowance_and_the_road_does_not_bypass_it():
    terrain, unit, rules = _move("s5", "dv-rifle-1-ib", ("2405",))
    assert rules.enter_cost("2305") == unit.movement == 5
    assert terrain.hex_cost("2007") == "allowance"                     # on the road through the zeriba
    assert check_move(rules, "2405", "2305", unit.movement).ruling is Ruling.LEGAL
    assert check_move(rules, "2504", "2305", unit.movement).ruling is Ruling.PROVEN   # water: no way round


def test_s3_creek_costs_italian_units_only():
    _, italian, rules_it = _move("s3", "it-5-mm", ("2307",))
    _, ethiopian, rules_et = _move("s3", "et-rifle-4-coatit", ("2307",))
    assert rules_it.hexside_cost("2307", "2306") == 1
    assert rules_et.hexside_cost("2307", "2306") == 0


def test_faq_agordat_river_barka_hexes():
    terrain = Terrain(synthetic_data(), "agordat", "s2")
    assert [terrain.impassable(h) for h in ("1501", "1701", "1901", "2101")] == [True, True, False, False]


def test_faq_agordat_1810_is_a_slope_hex_on_the_shipped_data():
    """FAQ (General): 'hex 1810 (Agordat) ... A: 1810 is a slope hex': on the rulebook's data alone it
    costs 1 MP to enter (TER-01) and blocks a line of sight through it (4.2, LOS-02); its elevation
    is not in the text, so it is Unknown, named, not guessed."""
    terrain = Terrain(load_game_data("ascari"), "agordat", "s1")
    assert terrain.hex_cost("1810") == 1
    assert terrain.blocks_sight("1810") is True
    assert isinstance(terrain.elevation("1810"), Unknown)


def test_a_unit_with_allowance_one_may_always_move_one_hex():
    """3.1: a unit with a Movement Allowance of 1 may move 1 hex whatever the terrain costs."""
    data = synthetic_data()
    terrain, unit, rules = _move("s2", "dv-booty", ("2104",), data)
    assert unit.movement == 1
    assert check_move(rules, "2104", "2105", 1).ruling is Ruling.LEGAL       # palm trees cost 2
    assert check_move(rules, "2104", "2006", 1).ruling is Ruling.PROVEN      # two hexes away


def test_a_retreat_costs_no_mp():
    """FAQ: retreating does not cost MP; a melée retreat is not charged to the allowance (MOV-22)."""
    rep, game = replay("clean-s2")
    from vlog.games.ascari.play import Melee, Play
    play = Play(game)
    play.melees["2006"] = Melee("2006", "attacker", "1906", 1)
    defender = dataclasses.replace(make_unit(game.data, "dv-rifle-5-ra", None), id="defender", hex="2006")
    attacker = dataclasses.replace(make_unit(game.data, "it-1-ii", None), id="attacker", hex="2006")
    assert play.is_retreat(defender, dataclasses.replace(defender, hex="2106"))
    assert play.is_retreat(attacker, dataclasses.replace(attacker, hex="1906"))
    assert not play.is_retreat(attacker, dataclasses.replace(attacker, hex="2106"))   # victor advance
    from vlog.games.ascari.play import Path as MovePath
    play.paths["attacker"] = MovePath(["1706", "1806", "1906", "2006"])
    assert play.is_retreat(attacker, dataclasses.replace(attacker, hex="1706"))  # 5.2's "original starting hex"
    assert not play.is_retreat(attacker, dataclasses.replace(attacker, hex="1806"))


# -- the shipped data: no guess ---------------------------------------------------------------------

def test_the_shipped_data_proves_only_what_it_knows():
    """Judged with the rulebook's data alone (no terrain, no allowances), the planted logs give no
    PROVEN movement or line-of-sight finding: those rest on the synthetic map."""
    game = Ascari(load_game_data("ascari"))
    for name in ("clean-s4", "LOS-02", "MOV-02", "TER-13"):
        rep = replay_log(vlog.read(RULES / f"{name}.vlog"), module=module(), game=game)
        proven = [f.check for f in rep.findings if f.basis is Basis.PROVEN]
        assert not [c for c in proven if c.split("/")[1] in ("MOV-02", "LOS-01", "LOS-02", "LOS-04", "TER-13")], name
        possible = [f for f in rep.findings if f.basis is Basis.POSSIBLE]
        assert all(f.evidence.get("depends_on") for f in possible), name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_shipped_data_alone_proves_nothing_the_synthetic_data_does_not(name):
    """Every fixture log judged with the rulebook's data alone: each PROVEN finding is one the
    synthetic data gives too (same check, same step), and each POSSIBLE one names the data."""
    synthetic = {(f.check, f.step) for f in replay(name)[0].findings}
    rep = replay_log(vlog.read(RULES / f"{name}.vlog"), module=module(), game=Ascari(load_game_data("ascari")))
    for finding in rep.findings:
        if finding.basis is Basis.PROVEN:
            assert (finding.check, finding.step) in synthetic, finding
        elif finding.basis is Basis.POSSIBLE:
            assert finding.evidence.get("depends_on"), finding


def test_shipped_terrain_is_unknown_not_guessed():
    terrain = Terrain(load_game_data("ascari"), "amba-alagi", "s4")
    assert isinstance(terrain.elevation("2612"), Unknown)
    assert isinstance(terrain.blocks_sight("2612"), Unknown)
    assert isinstance(terrain.hex_cost("2612"), Unknown)
    assert terrain.blocks_sight("2210") is True           # a multiple-slope hex (FAQ): slopes block (4.2)


def test_without_flags_the_sequence_checks_say_they_were_not_judged():
    """A log with no `flag` line: SEQ-01..04 are not judged (not a silent pass), the flag lines
    named; MOV-17 is judged on the Italian moves and not on the Dervish moves of turn 1; the moves
    are judged all the same."""
    rep, _ = replay("clean-s2-noflags")
    status = {s.check.split("/")[1]: s for s in rep.tally.statuses(f"ascari/{i}" for i in
                                                                    ("SEQ-01", "SEQ-02", "SEQ-03", "SEQ-04",
                                                                     "MOV-17", "MOV-02"))}
    for short in ("SEQ-01", "SEQ-02", "SEQ-03", "SEQ-04", "MOV-17"):
        expected = "partly-judged" if short == "MOV-17" else "not-judged"
        assert status[short].judgement.value == expected, (short, status[short].reason())
        assert "`flag SIDE` chat lines" in status[short].reason()
    assert status["SEQ-01"].judged == 0 and not status["SEQ-01"].unsettled
    assert [u.step for u in status["MOV-17"].unsettled] == [7, 8]     # the Dervish move of turn 1
    assert len(status["SEQ-04"].unsettled) == 14                       # every step of a move
    assert status["MOV-02"].judgement.value == "judged"


def test_with_flags_the_sequence_checks_judge():
    rep, _ = replay("clean-s2")
    for status in rep.tally.statuses(f"ascari/{i}" for i in ("SEQ-01", "SEQ-03", "SEQ-04", "MOV-17")):
        assert status.judgement.value == "judged", status.reason()


# -- fire results ---------------------------------------------------------------------------------

def _rifle(side="italian", type_="infantry", hex_="2409", melee=3):
    return make_unit(synthetic_data(), "it-4-iv", None).__class__(
        id="x", name="x", counter="x", side=side, type=type_, organization=None, level="front", steps=2,
        movement=4, melee=melee, hex=hex_)


def test_faq_italian_range_one_five_plus_support_is_a_double_hit():
    """FAQ (General): an Italian at range 1 rolling 5 with SUPPORT +1 has a modified 6, a double
    hit: the one bold cell the shipped data knows."""
    game = Ascari(load_game_data("ascari"))
    got = readings(game, _rifle(), 1, 5, Drms({"SUPPORT": 1}, {}, ()))
    assert [(r.modified, r.result) for r in got] == [(6, DOUBLE)]
    other = readings(game, _rifle(), 1, 4, Drms({"SUPPORT": 1}, {}, ()))
    assert other[0].result == Unknown("tables.json fire-double-hits range 1 italians roll 5")


def test_faq_artillery_at_range_one_or_two_misses_or_hits_double():
    game = Ascari(load_game_data("ascari"))
    battery = dataclasses.replace(_rifle(type_="artillery"), melee=1)
    assert [r.result for r in readings(game, battery, 2, 3, Drms({}, {}, ()))] == [DOUBLE]
    assert [r.result for r in readings(game, battery, 2, 2, Drms({}, {}, ()))] == [MISS]
    assert [r.result for r in readings(game, battery, 7, 6, Drms({}, {}, ()))] == [SINGLE]
    assert readings(game, battery, 9, 6, Drms({}, {}, ())) == []      # no row: out of range


def test_fire_columns_and_rolls_beyond_the_table():
    """Mobile Militia and Bande fire on the African column (S3.52, 4.5); a modified roll above 6
    may be read as a single or a double hit (inventory 6.2 item 3)."""
    assert column(_rifle(type_="mobile-militia")) == column(_rifle(type_="band")) == AFRICAN_COLUMN
    assert column(_rifle()) == "italians" and column(_rifle(side="dervish", type_="rifle")) == AFRICAN_COLUMN
    game = Ascari(synthetic_data())
    assert {r.result for r in readings(game, _rifle(), 1, 6, Drms({"SUPPORT": 1}, {}, ()))} == {SINGLE, DOUBLE}


def test_markers_not_in_the_data_are_read_both_ways():
    """MOVED and COMBAT (and an unknown Melée Strength) are choices: each total is read."""
    found = Drms({"SUPPORT": 1}, {"MOVED marker": (0, -1), "COMBAT marker": (0, -1)}, ())
    assert sorted(t for t, _ in found.totals()) == [-1, 0, 0, 1]


def test_fire_results_on_the_shipped_data_are_not_settled_and_name_the_data():
    """Without the synthetic TEC the terrain fire DRMs are unknown: no finding, each fire an
    occasion not settled naming the TEC entry."""
    rep = replay_log(vlog.read(RULES / "FDR-10.vlog"), module=module(), game=Ascari(load_game_data("ascari")))
    assert not [f for f in rep.findings if "/FDR-" in f.check]
    rifles, battery, losses = map(rep.tally.status, ("ascari/FDR-08", "ascari/FDR-09", "ascari/FDR-10"))
    assert [u.step for u in rifles.unsettled] == [18, 22, 27] and [u.step for u in battery.unsettled] == [25]
    assert losses.judgement.value == "not-judged" and len(losses.unsettled) == 4
    assert "map.json hex 2708 terrain" in rifles.unsettled[-1].data
    assert "counters.json it-toselli front fire_drm" in battery.unsettled[0].data


def test_legal_fire_results_stay_clean():
    """Hits applied as the tables say, misses left alone, leaders rolling under 5 untouched: the
    fires around each planted one are judged and give nothing."""
    for name in ("FDR-10", "FDR-13", "clean-s4"):
        rep, _ = replay(name)
        for status in map(rep.tally.status, ("ascari/FDR-08", "ascari/FDR-10", "ascari/FDR-13")):
            assert status.judged >= 1, (name, status.reason())


def _unsettled(rep, short):
    status = rep.tally.status(f"ascari/{short}")
    return [(u.step, u.data) for u in status.unsettled]


def test_a_fire_open_when_the_log_ends_is_an_occasion_not_settled():
    """A log cut after a fire's declaration (S1) or after its roll with the hit not applied (S4):
    not a pass and not a finding; the fires before it are judged."""
    from vlog.games.ascari.checks.fire_results import NO_DIE_AT_END, OPEN_AT_END
    rep, _ = replay("clean-s1-open-fire")
    assert _unsettled(rep, "FDR-08") == _unsettled(rep, "FDR-10") == [(8, (NO_DIE_AT_END,))]
    assert rep.tally.status("ascari/FDR-08").judged == 1                 # 1 Rifle IB's miss
    rep, _ = replay("clean-s4-open-fire-roll")
    assert _unsettled(rep, "FDR-09") == _unsettled(rep, "FDR-10") == [(16, (OPEN_AT_END,))]
    assert rep.tally.status("ascari/FDR-08").judgement.value == "judged"   # the two rifle fires before
    assert not rep.findings


def test_a_melee_open_when_the_log_ends_is_judged_on_the_final_position():
    """Cut after the attacker enters (no dice): MEL-01/MEL-02 not settled at the entry step; cut
    after the dice with the result on the table: judged, clean."""
    from vlog.games.ascari.checks.melee_results import OPEN_AT_END
    rep, _ = replay("clean-s4-open-melee")
    assert _unsettled(rep, "MEL-01") == _unsettled(rep, "MEL-02") == [(9, (OPEN_AT_END,))]
    assert rep.tally.status("ascari/MEL-12").blocked == "other scenario" and not rep.findings   # S1's Booty rule
    assert rep.tally.status("ascari/MEL-02").judged == 0
    rep, _ = replay("clean-s4-open-melee-dice")
    assert rep.tally.status("ascari/MEL-02").judgement.value == "judged" and not rep.findings


# -- melée results --------------------------------------------------------------------------------

def test_melee_bands_accept_every_reading_of_the_text():
    """5.2 and inventory 6.2 item 2: 3 against 1 is both 'superior by 2' and 'more than double';
    7 against 4 is 'higher by 3 up to double'; 8 against 3 is more than double one way (8 > 6)
    and not the other (a difference of 5 is not more than 6)."""
    assert results(3, 1) == {RETREAT, OVERRUN}
    assert results(7, 4) == {RETREAT_HIT}
    assert results(8, 3) == {RETREAT_HIT, OVERRUN}
    assert results(5, 5) == {TIE}
    assert results(2, 0) == {RETREAT, OVERRUN}


def test_melee_drms_bayonet_height_and_leaders():
    """S4.42 + FAQ: Italian units but Bande get the bayonet +1 in Amba Alagi; a defender up a
    slope gets HEIGHT +1 (the FAQ's 2210 above 2310 on the synthetic map); a leader's C DRM."""
    game = Ascari(synthetic_data(), scenario="s4")
    game.terrain = Terrain(game.data, "amba-alagi", "s4")
    infantry = make_unit(game.data, "it-4-iv", None)
    band = dataclasses.replace(infantry, type="band")
    assert side_values(game, infantry, "2409", "2408", True, []).fixed == {"strength": 3, "BAYONET CHARGE": 1}
    assert "BAYONET CHARGE" not in side_values(game, band, "2409", "2408", True, []).fixed
    spear = dataclasses.replace(make_unit(game.data, "et-spear-1-ma", None), hex="2210")
    leader = dataclasses.replace(make_unit(game.data, "et-maconnen-ma", None), hex="2210", name="Maconnen")
    found = side_values(game, spear, "2210", "2310", False, [leader])
    assert found.fixed == {"strength": 3, "HEIGHT": 1, "leader Maconnen": 1} and not found.unknown


def test_melee_results_on_the_shipped_data_are_not_settled_and_name_the_data():
    rep = replay_log(vlog.read(RULES / "MEL-02.vlog"), module=module(), game=Ascari(load_game_data("ascari")))
    assert not [f for f in rep.findings if "/MEL-0" in f.check]
    status = rep.tally.status("ascari/MEL-02")
    assert status.judgement.value == "not-judged" and len(status.unsettled) == 2
    assert any("melee" in d for d in status.unsettled[0].data), status.reason()


def test_legal_melees_stay_clean():
    """The legal melées around the planted ones (a retreat with a hit, an overrun) are judged."""
    for name in ("MEL-02", "MEL-11", "MOV-15"):
        rep, _ = replay(name)
        assert rep.tally.status("ascari/MEL-02").judged >= 1, name


def test_setup_outside_its_area_is_possible_when_the_log_may_begin_later():
    """A placement before the first flag by a side that already had units on the map at the
    log's start, the start not being the set-up: it may be of a later moment (POSSIBLE)."""
    game = Ascari(synthetic_data(), scenario="s5")
    rep = replay_log(vlog.read(RULES / "SET-07.vlog"), module=module(), game=game)
    assert [f.basis for f in rep.findings] == [Basis.PROVEN]
    game.sides_at_start = frozenset({"dervish"})
    from vlog.games.ascari.checks.setup import judge_setup_area
    from vlog.kit.steps import Placed
    unit = dataclasses.replace(make_unit(game.data, "dv-rifle-5-ra", None), hex="2904", name="5 Rifle RA")
    game.play.flags.clear()
    (finding,) = judge_setup_area(game, Placed(3, unit), None)
    assert finding.basis is Basis.POSSIBLE and finding.evidence["depends_on"]
    inside = dataclasses.replace(unit, hex="2805")
    assert judge_setup_area(game, Placed(3, inside), None) == []


def test_a_win_by_eliminations_counts_the_enemy_units_removed():
    """S2.3: 7 Italian units eliminated (Officers count) win for the Dervishes; 6 do not; the
    Italians need 20 Dervish units (Emirs count)."""
    from vlog.games.ascari.play import Play
    game = Ascari(synthetic_data(), scenario="s2")
    play = Play(game)
    play.eliminated["italian"] = ["it-arimondi"] + ["it-1-ii"] * 5
    play._eliminations(9)
    assert play.won is None
    play.eliminated["italian"].append("it-2-ii")
    play._eliminations(10)
    assert play.won == ("dervish", 10, ()) and play.won_item == "VIC-02"
    assert play.won_by == "eliminating 7 enemy units"
    from vlog.games.ascari.checks.sequence import _after_win
    game.play = play
    (finding,) = _after_win(game, 11, "5 Rifle RA moved 3001 -> 2902")
    assert finding.check == "ascari/VIC-02" and finding.basis is Basis.POSSIBLE      # sudden death by analogy
    assert finding.evidence["by"] == "eliminating 7 enemy units" and finding.evidence["won_at_step"] == 10
    assert _after_win(game, 12, "again") == []                                         # reported once


def test_a_camel_exit_or_every_enemy_unit_gone_wins_at_once():
    """S1.4: one Booty unit on its Camel side taken off from column 15xx wins for the Dervishes; a
    removal from elsewhere is no exit. S4.5 (and S1.4's 'all Italian units'): the win by
    eliminating every enemy unit needs none of them left on the table, placed or still to come."""
    from vlog.games.ascari.play import Play
    from vlog.kit import sequence as seq
    game = Ascari(synthetic_data(), scenario="s1")
    from vlog.games.ascari.terrain import Terrain
    game.terrain = Terrain(game.data, "agordat", "s1")
    game.sequence = seq.sequence_of(game.data, "s1", kinds=game.phase_kinds, player_turns=True)
    game.phase = game.sequence.first().infer("dervish", "movement", "test")
    play = game.play = Play(game)
    camel = dataclasses.replace(make_unit(game.data, "dv-booty", "front"), hex="2605", name="Booty")
    assert play._exit(camel, 5) is False and play.won is None                       # not column 15xx
    assert play._exit(dataclasses.replace(camel, hex="1505"), 6) is True
    assert play.won == ("dervish", 6, ()) and play.won_item == "VIC-01"
    assert play.won_by == "exiting Booty (a Camel unit) from column 15xx"
    s4 = Ascari(synthetic_data(), scenario="s4")
    play = Play(s4)
    play.control.update({"3205": "ethiopian", "2106": "ethiopian", "1501": "ethiopian"})
    toselli = dataclasses.replace(make_unit(s4.data, "it-toselli", None), hex="1907", name="Toselli")
    gone = dataclasses.replace(make_unit(s4.data, "it-1-iv", None), hex=None, name="1 IV")
    play.eliminated["italian"] = ["it-1-iv"]
    play.removed.add(gone.id)
    view = type("V", (), {"after": None})()
    s4.units = lambda position: {u.id: u for u in (toselli, gone)}
    play._eliminations(9, view)
    assert play.won is None                                                        # Toselli is still there
    s4.units = lambda position: {gone.id: gone}
    play._eliminations(10, view)
    assert play.won == ("ethiopian", 10, ("3205", "2106", "1501")) and play.won_item == "VIC-04"


def test_the_turn_counter_moves_one_turn_and_not_past_the_last(monkeypatch):
    """S4.2: 15 turns; the counter moves one turn at a time (SEQ-06): 15 -> 16 after both players
    have been active is past the last turn; 3 -> 5 skips a turn; 2 -> 1 is a correction."""
    from vlog.games.ascari.checks import turns
    from vlog.kit import sequence as seq
    from vlog.kit.steps import Stepped
    game = Ascari(synthetic_data(), scenario="s4")
    game.sequence = seq.sequence_of(game.data, "s4", kinds=game.phase_kinds, player_turns=True)
    game.started_at_setup = True
    shown: dict[str, int] = {}
    monkeypatch.setattr(turns, "turn_shown", lambda position: shown[position])
    view = type("V", (), {"before": "b", "after": "a"})()

    def advance(old, new, *sides):
        game.play.flags.extend((s, 1) for s in sides)
        shown.update(b=old, a=new)
        return turns.judge_turn_counter(game, Stepped(5), view)

    assert advance(14, 15, "ethiopian", "italian") == []
    (finding,) = advance(15, 16, "ethiopian", "italian")
    assert finding.basis is Basis.PROVEN and finding.evidence["turns"] == 15
    (finding,) = advance(3, 5, "ethiopian", "italian")
    assert "2 turns at once" in finding.message and finding.evidence["missing"] == []
    assert advance(2, 1) == []


def test_a_scenario_rule_judges_nothing_on_a_log_of_another_scenario():
    """FDR-16 (S1.2), VIC-02 (S2.3) and the other scenario-only items are 'of another scenario' on
    an S4 log; on an S1 log FDR-16 is judged and VIC-04 (S4.5) is of another scenario."""
    rep, _ = replay("clean-s4")
    for short in ("FDR-16", "VIC-02", "MOV-17", "SET-07", "VIC-01"):
        status = rep.tally.status(f"ascari/{short}")
        assert status.blocked == "other scenario" and status.judged == 0, short
    assert rep.tally.status("ascari/MOV-18").blocked is None
    rep, _ = replay("FDR-16")
    assert rep.tally.status("ascari/FDR-16").blocked is None
    assert rep.tally.status("ascari/VIC-04").blocked == "other scenario"
