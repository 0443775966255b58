"""Combat checks on the pieces and the order of a combat: step mechanics (CB-21), gassed
attackers (CB-08), dummies in combat and out of it (CB-38, FW-06), revealing before the die
(CB-05).

Positions are made up; the tables and the counters' factors are the SYNTHETIC overlay
fixtures/lion-of-judah/synthetic-data ("synthetic test value (not the published chart)"): a
clear map, the regular CRT 1:1 die 4 = 1/1, the Ethiopian CRT 1:1 die 2 = 2/0 and 2:1 die 2 =
2/1, and every dummy's reverse showing 'Dummy'."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from vlog.findings import Basis
from vlog.gamedata import load_game_data
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.combat import GASSED_COUNTER, CombatFacts, gassed_readings, judge_combat
from vlog.games.lion_of_judah.checks.combat_fog import (counter_guerrilla_applies, counter_guerrilla_drms,
                                                        judge_dummy_flip, true_dummy)
from vlog.games.lion_of_judah.state import unit_from_counter

from .synthetic import shipped_board, state, unit

ROOT = Path(__file__).resolve().parents[3]
OVERLAY = ROOT / "fixtures" / "lion-of-judah" / "synthetic-data"


@pytest.fixture(scope="module")
def board() -> Board:
    return Board(load_game_data("lion-of-judah", overlays=[OVERLAY]))


def checks(findings):
    return [f.check.split("/")[1] for f in findings]


def it(id, hex_, attack=4, defense=4, steps=4, **kw):
    return unit(id, hex_, name=kw.pop("name", id), attack=attack, defense=defense, steps=steps, **kw)


def et(id, hex_, combat=2, **kw):
    return unit(id, hex_, name=kw.pop("name", id), side="ethiopian", attack=combat, defense=combat,
                steps=1, unit_class="ethiopian-shoa", size=None, **kw)


def gas(id, hex_):
    return replace(unit(id, hex_, name="Gassed", side=None, kind="marker", attack=None, defense=None,
                        steps=0, unit_class=None, size=None), counter=GASSED_COUNTER)


# -- CB-21 (2.3.9) ---------------------------------------------------------------------------


def test_a_reduced_unit_flipped_back_to_full_strength_is_cb21_not_a_wrong_result(board):
    """1:1, die 4 = 1/1: the attacker's loss taken by a one-step-left unit whose Step layer
    wrapped round to its 4-step side; the count is the one owed, the pieces are wrong."""
    a, d = it("a", "1603", steps=1), et("d", "1604", combat=4)
    facts = CombatFacts("1604", (a,), (d,), 4, {}, {"d": 1}, removed=frozenset({"d"}),
                        raised={"a": (1, 4)})
    found = judge_combat(board, state(a, d), facts, step=9, when=None)
    assert checks(found) == ["CB-21"]
    f = found[0]
    assert f.basis is Basis.PROVEN and f.rule == "2.3.9" and f.subjects == ("a",)
    assert f.evidence == {"target": "1604", "unit": "a", "steps_before": 1, "steps_shown_after": 4}
    assert f.message.startswith("a went from its 1-step side to its 4-step side in the attack on 1604")


def test_a_unit_removed_with_steps_left_is_cb21(board):
    """1:1, die 4 = 1/1: the 4-step attacker taken off the map for its side's one step."""
    a, d = it("a", "1603"), et("d", "1604", combat=4)
    s = state(a, d)
    wrong = CombatFacts("1604", (a,), (d,), 4, {"a": 4}, {"d": 1}, removed=frozenset({"a", "d"}))
    found = judge_combat(board, s, wrong, step=9, when=None)
    assert checks(found) == ["CB-21"]
    assert found[0].evidence == {"target": "1604", "side": "attacker", "owed": 1, "removal_took": 4,
                                 "removed": {"a": 4}}
    assert "a (4 steps) was removed from the map in the attack on 1604, where the attacker owed 1" \
        in found[0].message
    right = CombatFacts("1604", (a,), (d,), 4, {"a": 1}, {"d": 1}, removed=frozenset({"d"}),
                        advanced=("a",))
    assert judge_combat(board, s, right, step=9, when=None) == []


def test_a_removal_that_takes_more_steps_than_any_reading_allows_stays_cb19(board):
    """Two units removed where the side owed one step: the count itself is wrong (CB-19)."""
    a, b, d = it("a", "1603", attack=2), it("b", "1603", attack=2), et("d", "1604", combat=4)
    facts = CombatFacts("1604", (a, b), (d,), 4, {"a": 4, "b": 4}, {"d": 1},
                        removed=frozenset({"a", "b", "d"}))
    assert checks(judge_combat(board, state(a, b, d), facts, step=9, when=None)) == ["CB-19"]


def test_a_removed_unit_of_one_step_is_no_step_finding(board):
    a, d = it("a", "1603", steps=1), et("d", "1604", combat=4)
    facts = CombatFacts("1604", (a,), (d,), 4, {"a": 1}, {"d": 1}, removed=frozenset({"a", "d"}))
    assert judge_combat(board, state(a, d), facts, step=9, when=None) == []


# -- CB-08 (PB 13.6.5.1) -----------------------------------------------------------------------


def test_gassed_readings_one_marker_per_affected_unit():
    a, b, c = et("a", "1603"), et("b", "1603"), et("c", "1603")
    both = gassed_readings(state(a, b, gas("g1", "1603"), gas("g2", "1603")), (a, b))
    assert both == (frozenset({"a", "b"}),)
    # one marker, three units, two attacking: none, a or b gassed
    some = gassed_readings(state(a, b, c, gas("g1", "1603")), (a, b))
    assert set(some) == {frozenset(), frozenset({"a"}), frozenset({"b"})}
    assert gassed_readings(state(a, b), (a, b)) is None


def test_gassed_attackers_at_full_strength_are_cb08(board):
    """Two 2-factor levies attack a 2-factor defender, each under a Gassed marker: 2 vs 2 is 1:1
    (die 2 = 2/0); at full strength 4 vs 2 would be 2:1 (2/1), which the log shows."""
    a, b, d = et("a", "1603"), et("b", "1603"), it("d", "1604", defense=2)
    s = state(a, b, d, gas("g1", "1603"), gas("g2", "1603"), scenario="1935-36")
    readings = gassed_readings(s, (a, b))
    wrong = CombatFacts("1604", (a, b), (d,), 2, {"a": 1, "b": 1}, {"d": 1},
                        removed=frozenset({"a", "b"}), gassed=readings[0], gassed_readings=readings)
    found = judge_combat(board, s, wrong, step=12, when=None)
    assert checks(found) == ["CB-08"]
    f = found[0]
    assert f.basis is Basis.PROVEN and f.rule == "PB 13.6.5.1"
    assert f.evidence["attack"] == 2 and f.evidence["gassed"] == ["a", "b"]
    assert f.evidence["full_strength_reading"] == {"column": "2:1", "modified_roll": 2, "cell": "2/1"}
    right = replace(wrong, defender_losses={})
    assert judge_combat(board, s, right, step=12, when=None) == []


def test_one_marker_for_two_attackers_tries_either(board):
    """One Gassed marker in a hex of two attackers: one of them is halved (3 vs 2, 1:1)."""
    a, b, d = et("a", "1603"), et("b", "1603"), it("d", "1604", defense=2)
    s = state(a, b, d, gas("g1", "1603"), scenario="1935-36")
    readings = gassed_readings(s, (a, b))
    facts = CombatFacts("1604", (a, b), (d,), 2, {"a": 1, "b": 1}, {}, removed=frozenset({"a", "b"}),
                        gassed=frozenset.intersection(*readings), gassed_readings=readings)
    assert judge_combat(board, s, facts, step=12, when=None) == []
    wrong = replace(facts, defender_losses={"d": 1})
    assert checks(judge_combat(board, s, wrong, step=12, when=None)) == ["CB-08"]


# -- CB-38, FW-06 (PB 14.6.5) --------------------------------------------------------------------


def dummy(board, level="front", hex_="1604"):
    return unit_from_counter(board.data, "al-dummy", id="dm", name="Dummy", hex_=hex_, level=level)


def test_true_dummy_from_the_data(board):
    assert true_dummy(board, dummy(board)) is False
    assert true_dummy(board, dummy(board, "reverse")) is True
    shipped = shipped_board()
    unknown = true_dummy(shipped, dummy(shipped, "reverse"))
    assert unknown.data == {"counters.json al-dummy level reverse face"}


def test_a_true_dummy_left_on_the_map_is_cb38(board):
    a, dm = it("a", "1603"), dummy(board)
    s = state(a, dm, scenario="1940-41")
    left = CombatFacts("1604", (a,), (dm,), 3, advanced=("a",),
                       revealed={"dm": (5, dummy(board, "reverse"))}, roll_step=5, declared_step=5)
    found = judge_combat(board, s, left, step=5, when=None)
    assert checks(found) == ["CB-38"]
    assert found[0].basis is Basis.PROVEN and found[0].rule == "PB 14.6.5"
    assert found[0].message == ("Dummy at 1604 was revealed as a true Dummy and left on the map; it is "
                                "removed and treated as a defenseless unit (PB 14.6.5)")
    removed = replace(left, removed=frozenset({"dm"}), defender_losses={"dm": 1})
    assert judge_combat(board, s, removed, step=5, when=None) == []


def test_a_dummy_attacked_and_never_flipped_is_cb38(board):
    a, dm = it("a", "1603"), dummy(board)
    facts = CombatFacts("1604", (a,), (dm,), 3, roll_step=5, declared_step=5)
    found = judge_combat(board, state(a, dm, scenario="1940-41"), facts, step=5, when=None)
    assert "CB-38" in checks(found)
    assert [f.message for f in found if f.check.endswith("CB-38")] == [
        "Dummy at 1604 was attacked and not flipped; a dummy is revealed once the attacker has "
        "declared all attacking units (PB 14.6.5)"]


def test_with_the_shipped_data_a_revealed_dummy_left_is_possible():
    shipped = shipped_board()
    a, dm = it("a", "1603"), dummy(shipped)
    facts = CombatFacts("1604", (a,), (dm,), None, revealed={"dm": (6, dummy(shipped, "reverse"))})
    found = [f for f in judge_combat(shipped, state(a, dm, scenario="1940-41"), facts, step=5, when=None)
             if f.check.endswith("CB-38")]
    assert len(found) == 1 and found[0].basis is Basis.POSSIBLE
    assert found[0].evidence["depends_on"] == ["counters.json al-dummy level reverse face"]


def test_a_true_dummy_with_a_unit_leaves_the_fight_without_loss(board):
    """A true Dummy stacked with a 4-defence unit: 4 vs 4 is 1:1, die 4 = 1/1, the Dummy removed
    counts for no step."""
    a, dm, d = it("a", "1603"), dummy(board), it("d", "1604", side="allied", unit_class="commonwealth")
    facts = CombatFacts("1604", (a,), (dm, d), 4, {"a": 1}, {"d": 1, "dm": 1}, removed=frozenset({"dm"}),
                        revealed={"dm": (5, dummy(board, "reverse"))}, roll_step=5)
    assert judge_combat(board, state(a, dm, d, scenario="1940-41"), facts, step=5, when=None) == []


def test_flipping_a_dummy_outside_combat_is_fw06(board):
    dm = dummy(board)
    [f] = judge_dummy_flip(board, dm, "reverse", entered=False, step=3, when="Turn 1")
    assert f.check == "lion-of-judah/FW-06" and f.basis is Basis.PROVEN and f.rule == "PB 14.6.5"
    assert f.evidence == {"hex": "1604", "level_before": "front", "level_after": "reverse"}
    assert judge_dummy_flip(board, dm, "reverse", entered=True, step=3, when=None) == []
    [back] = judge_dummy_flip(board, dummy(board, "reverse"), "front", entered=True, step=3, when=None)
    assert "turned back to its front side" in back.message


# -- CB-05 (12.4) -------------------------------------------------------------------------------


def test_a_defender_revealed_after_the_die_is_cb05(board):
    a = it("a", "1603")
    hidden = unit_from_counter(board.data, "et-levy-shoa", id="lv", name="Shoa levy", hex_="1604",
                               level="hidden")
    shown = replace(hidden, level="revealed", hidden=False)
    late = CombatFacts("1604", (a,), (hidden,), 4, revealed={"lv": (8, shown)}, roll_step=7, declared_step=6)
    found = [f for f in judge_combat(board, state(a, hidden, scenario="1935-36"), late, step=6, when=None)
             if f.check.endswith("CB-05")]
    assert len(found) == 1 and found[0].rule == "12.4; PB 14.6.4.1"
    assert found[0].evidence == {"target": "1604", "roll_step": 7, "revealed_at": {"Shoa levy": 8}}
    on_time = replace(late, revealed={"lv": (7, shown)})
    assert not [f for f in judge_combat(board, state(a, hidden, scenario="1935-36"), on_time, step=6,
                                        when=None) if f.check.endswith("CB-05")]


# -- CB-37, FW-08 (PB 14.6.4.5) --------------------------------------------------------------------


def guerrilla(board, id, hex_="1604"):
    return replace(unit_from_counter(board.data, "et-levy-shoa", id=id, name="Shoa guerrilla", hex_=hex_,
                                     level="hidden"), side="allied", unit_class="guerrilla")


def test_counter_guerrilla_applies_to_italian_attacks_on_guerrillas_alone(board):
    g = guerrilla(board, "g")
    assert counter_guerrilla_applies("1940-41", "italian", [g])
    assert not counter_guerrilla_applies("1935-36", "italian", [g])
    assert not counter_guerrilla_applies("1940-41", "allied", [g])
    assert not counter_guerrilla_applies("1940-41", "italian", [g, it("k", "1604", side="allied")])


def test_counter_guerrilla_modifiers_from_the_data(board):
    """Synthetic: no card modifier; the text's +1 in Tigray or the Ogaden. The shipped data lacks
    the card's list, so every reading names it."""
    assert counter_guerrilla_drms(board, "1604") == [(0, frozenset(), "")]
    tigray = next(h for h in ("1106", "1107", "1206", "1306", "1305") if board.in_zone(h, "tigray") is True)
    assert counter_guerrilla_drms(board, tigray) == [(1, frozenset(), "Tigray/Ogaden +1")]
    shipped = counter_guerrilla_drms(shipped_board(), "1604")
    assert all("tables.json counter-guerrilla modifiers (player aid card)" in deps for _d, deps, _w in shipped)


def test_escaped_guerrillas_attacked_all_the_same_is_cb37(board):
    a, g = it("a", "1603"), guerrilla(board, "g")
    s = state(a, g, scenario="1940-41")
    facts = CombatFacts("1604", (a,), (g,), 5, {}, {"g": 1}, removed=frozenset({"g"}), advanced=("a",),
                        counter_guerrilla=(2, 6), roll_step=7, rolls_seen=2)
    found = judge_combat(board, s, facts, step=5, when=None)
    assert checks(found) == ["CB-37"]
    assert found[0].basis is Basis.PROVEN and found[0].rule == "PB 14.6.4.5"
    assert found[0].evidence["counter_guerrilla_roll"] == 2 and found[0].evidence["modified"] == [2]
    assert found[0].evidence["went_on"] == ["combat die 5", "losses taken", "an advance"]
    escaped = CombatFacts("1604", (a,), (g,), None, counter_guerrilla=(2, 6), rolls_seen=1)
    assert judge_combat(board, s, escaped, step=5, when=None) == []


def test_an_attack_that_must_go_on_and_is_not_resolved_is_cb37(board):
    a, g = it("a", "1603"), guerrilla(board, "g")
    facts = CombatFacts("1604", (a,), (g,), None, counter_guerrilla=(5, 6), rolls_seen=1)
    [f] = judge_combat(board, state(a, g, scenario="1940-41"), facts, step=5, when=None)
    assert f.check == "lion-of-judah/CB-37" and "means the attack goes on, but it was not resolved" in f.message


def test_no_counter_guerrilla_roll_or_one_roll_for_both_is_cb37(board):
    a, g = it("a", "1603"), guerrilla(board, "g")
    s = state(a, g, scenario="1940-41")
    none = CombatFacts("1604", (a,), (g,), None, {}, {"g": 1}, removed=frozenset({"g"}), advanced=("a",),
                       counter_guerrilla=(None, None))
    assert "went on with no counter-guerrilla roll" in judge_combat(board, s, none, step=5, when=None)[0].message
    one = replace(none, counter_guerrilla=(6, 6), rolls_seen=1)
    found = judge_combat(board, s, one, step=5, when=None)
    assert checks(found) == ["CB-37"] and "resolved with a single die roll (6)" in found[0].message


def test_guerrillas_revealed_before_the_roll_or_after_escaping_are_fw08(board):
    a, g = it("a", "1603"), guerrilla(board, "g")
    s = state(a, g, scenario="1940-41")
    shown = replace(g, level="revealed", hidden=False)
    early = CombatFacts("1604", (a,), (g,), None, counter_guerrilla=(6, 7), revealed={"g": (6, shown)},
                        rolls_seen=1)
    found = [f for f in judge_combat(board, s, early, step=5, when=None) if f.check.endswith("FW-08")]
    assert len(found) == 1 and found[0].evidence == {"target": "1604", "roll_step": 7,
                                                     "revealed_at": {"Shoa guerrilla": 6}}
    escaped = CombatFacts("1604", (a,), (g,), None, counter_guerrilla=(3, 6), revealed={"g": (7, shown)},
                          rolls_seen=1)
    [f] = judge_combat(board, s, escaped, step=5, when=None)
    assert f.check == "lion-of-judah/FW-08" and f.basis is Basis.PROVEN
    assert "escaped on a counter-guerrilla roll of 3 and was revealed all the same" in f.message


def test_with_the_shipped_data_the_escape_is_only_possible():
    shipped = shipped_board()
    a, g = it("a", "1603"), guerrilla(shipped, "g")
    facts = CombatFacts("1604", (a,), (g,), None, counter_guerrilla=(6, 6), rolls_seen=1)
    [f] = judge_combat(shipped, state(a, g, scenario="1940-41"), facts, step=5, when=None)
    assert f.check == "lion-of-judah/CB-37" and f.basis is Basis.POSSIBLE
    assert "tables.json counter-guerrilla modifiers (player aid card)" in f.evidence["depends_on"]


# -- CB-18 (PB 14.6.4.1) -------------------------------------------------------------------------


def line_position(*guerrilla_hexes):
    """An Italian division at 1206 attacks 1207; its supply runs to Massawa (1405, 1940-41 USS)."""
    a = it("a", "1206")
    d = it("d", "1207", side="allied", unit_class="commonwealth")
    gs = [unit(f"g{i}", h, name="Shoa guerrilla", side="allied", unit_class="guerrilla", attack=2,
               defense=2, steps=1, size=None) for i, h in enumerate(guerrilla_hexes)]
    return a, d, state(a, d, *gs, scenario="1940-41")


def test_guerrillas_on_or_next_to_the_only_supply_lines(board):
    from vlog.games.lion_of_judah.checks.combat import guerrilla_line_modifiers
    a, d, s = line_position("1305")
    facts = CombatFacts("1207", (a,), (d,), 4)
    assert guerrilla_line_modifiers(board, s, facts) == [(0, -1, frozenset(), "a supply line next to guerrillas -1")]
    a, d, s = line_position("1305", "1306", "1205")
    assert guerrilla_line_modifiers(board, s, facts) == [(-1, 0, frozenset(), "a supply line through a guerrilla hex 1L")]
    a, d, s = line_position("1207")          # the target's guerrillas are ignored
    assert guerrilla_line_modifiers(board, s, CombatFacts("1207", (a,), (d,), 4)) == [(0, 0, frozenset(), "")]


def test_an_attack_resolved_without_the_guerrilla_shift_is_cb18(board):
    """4 vs 4 is 1:1, the guerrillas' 1L makes it 1:2: die 4 gives 2/1 there, 1/1 at 1:1."""
    a, d, s = line_position("1305", "1306", "1205")
    right = CombatFacts("1207", (a,), (d,), 4, {"a": 2}, {"d": 1}, attacker_hqs=(), defender_hqs=())
    assert judge_combat(board, s, right, step=5, when=None) == []
    wrong = replace(right, attacker_losses={"a": 1})
    found = judge_combat(board, s, wrong, step=5, when=None)
    assert checks(found) == ["CB-18"]
    assert found[0].basis is Basis.PROVEN and found[0].rule == "PB 14.6.4.1"
    assert found[0].evidence["guerrilla_shift"] == -1 and found[0].evidence["guerrilla_drm"] == 0
    assert found[0].evidence["unmodified_reading"] == {"column": "1:1", "modified_roll": 4, "cell": "1/1"}


def test_an_unflipped_dummy_leaves_the_result_open_not_wrong(board):
    """CB-38 says the dummy was not flipped; what it would have shown is unknown, so the result
    is at most possible."""
    a, dm = it("a", "1603"), dummy(board)
    facts = CombatFacts("1604", (a,), (dm,), 3, {"a": 1}, {}, roll_step=5, declared_step=5)
    found = judge_combat(board, state(a, dm, scenario="1940-41"), facts, step=5, when=None)
    assert [f.basis for f in found if f.check.endswith("CB-19")] in ([], [Basis.POSSIBLE])
    assert [f.basis for f in found if f.check.endswith("CB-38")] == [Basis.PROVEN]


def test_a_hostile_overlay_modifier_is_taken_as_unknown(tmp_path):
    """A counter-guerrilla DRM that is not a number (user overlay) is no crash: the readings
    name the datum."""
    (tmp_path / "tables.json").write_text(json.dumps({"kind": "tables", "game": "lion-of-judah", "tables": [
        {"id": "counter-guerrilla", "properties": {
            "tigray_ogaden_drm": {"value": "lots", "source": "test"},
            "modifiers": {"value": ["x", 2, True], "source": "test"}}}]}))
    hostile = Board(load_game_data("lion-of-judah", overlays=[OVERLAY, tmp_path]))
    readings = counter_guerrilla_drms(hostile, "1604")
    assert {drm for drm, _deps, _why in readings} == {0, 1, 2, 3}
    assert all("tables.json counter-guerrilla tigray_ogaden_drm" in deps for _d, deps, _w in readings)


def test_a_dummy_taken_off_the_map_outside_combat_and_the_end_of_turn_is_fw06(board):
    front = dummy(board)
    [f] = judge_dummy_flip(board, front, None, entered=False, step=4, when=None, removed=True,
                           phase_key="first-movement")
    assert f.check == "lion-of-judah/FW-06" and f.basis is Basis.PROVEN
    assert f.evidence == {"hex": "1604", "level_before": "front", "level_after": None, "phase": "first-movement"}
    assert "face-down, was taken off the map outside a combat" in f.message
    for legal in (dict(phase_key="end"), dict(phase_key=None), dict(phase_key="second-movement", entered=True)):
        kw = {"entered": False, **legal}
        assert judge_dummy_flip(board, front, None, step=4, when=None, removed=True, **kw) == []
    # a revealed true Dummy is removed whenever it shows (synthetic: every reverse is 'Dummy')
    assert judge_dummy_flip(board, dummy(board, "reverse"), None, entered=False, step=4, when=None,
                            removed=True, phase_key="first-movement") == []


def test_many_attackers_under_few_markers_stay_bounded():
    """Hostile log: 40 attackers in a hex under 20 Gassed markers; the readings are capped."""
    from vlog.games.lion_of_judah.checks.combat import GAS_READINGS_CAP
    units = [et(f"u{i}", "1603") for i in range(40)]
    markers = [gas(f"g{i}", "1603") for i in range(20)]
    readings = gassed_readings(state(*units, *markers), units)
    assert 0 < len(readings) <= GAS_READINGS_CAP


def test_a_result_against_capped_gas_readings_is_only_possible(board):
    from vlog.games.lion_of_judah.checks.combat import GAS_READINGS_CAP, GAS_UNTRIED
    units = tuple(et(f"u{i}", "1603", combat=1) for i in range(16))
    d = it("d", "1604", defense=2)
    s = state(*units, d, *[gas(f"g{i}", "1603") for i in range(8)], scenario="1935-36")
    readings = gassed_readings(s, units)
    assert len(readings) == GAS_READINGS_CAP
    facts = CombatFacts("1604", units, (d,), 2, {u.id: 1 for u in units}, {"d": 4}, removed=frozenset(u.id for u in units),
                        gassed=frozenset.intersection(*readings), gassed_readings=readings)
    found = [f for f in judge_combat(board, s, facts, step=3, when=None) if f.check.endswith(("CB-19", "CB-08"))]
    assert found and all(f.basis is Basis.POSSIBLE and GAS_UNTRIED in f.evidence["depends_on"] for f in found)
