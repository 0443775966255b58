"""vlog.kit.combat on the shipped data of several games and on SYNTHETIC units."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

import pytest

from vlog.engine.combat import parse_odds
from vlog.engine.judge import Unknown
from vlog.errors import GameDataError
from vlog.gamedata import load_game_data
from vlog.kit.combat import (
    OpenCombat, SegmentAttacks, TerrainControl, advance_problems, crt_from_table, cut_to_owed, loss_mismatch, marked_readings, modifier_sums, strength_column, zone_readings, loss_range, majority_shift, roll_bounds, steps_owed,
    strength_total, tec_shift, terrain_row_shifts, terrain_shifts,
)


@lru_cache(maxsize=None)
def data(game):
    return load_game_data(game)


@dataclass(frozen=True)
class U:
    """A SYNTHETIC unit with the fields the kit reads."""

    id: str
    name: str = ""
    hex: str | None = "0101"
    steps: object = 2
    level: object = 2
    counter: str | None = None
    side: str | None = "a"
    attack: object = 0


@dataclass(frozen=True)
class Declaration:
    target: str


# -- tables -------------------------------------------------------------------------------------

def test_roll_bounds_come_from_the_table_labels():
    assert roll_bounds(data("lion-of-judah").table("crt")) == (1, 7)          # 12.7
    assert roll_bounds(data("island-of-death").table("crt")) == (2, 12)       # two dice, 9.3 h
    assert roll_bounds(data("sideshow").table("crt")) is None                 # rows not in the text


def test_lion_of_judah_crt_known_and_unknown_cells():
    table, columns = crt_from_table(data("lion-of-judah").table("crt"), name="CRT")
    assert columns == [parse_odds(c) for c in ("1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1")]
    assert table.lookup(parse_odds("1:1"), 5) == "2/1"                        # 12.11 example
    missing = table.lookup(parse_odds("2:1"), 3)
    assert isinstance(missing, Unknown) and "CRT: column 2:1, roll 3" in missing.data


def test_island_of_death_crt_one_terrain_line_columns_from_its_cells():
    table, columns = crt_from_table(data("island-of-death").table("crt"),
                                    line="All Other Terrains (day turns)")
    assert columns is None                                      # the columns are on the charts
    assert table.columns == (parse_odds("6:1"),)
    assert table.lookup(parse_odds("6:1"), 6) == "-/3D"         # 9.95 combat example
    assert (table.rows[0].low, table.rows[-1].high) == (2, 12)


def test_sideshow_strength_crt_needs_its_rows():
    with pytest.raises(GameDataError, match="roll rows are unknown"):
        crt_from_table(data("sideshow").table("crt"), column=int)
    rows = [str(r) for r in range(1, 7)]                        # SYNTHETIC rows: the text has none
    table, _ = crt_from_table(data("sideshow").table("crt"), column=int, column_label=str, rows=rows)
    assert table.lookup(25, 4) == 3                             # 8.25 example


def test_tec_shift_across_games():
    assert tec_shift(data("lion-of-judah").lookup("tec", "rough", "combat").value) == -1
    assert tec_shift(data("sideshow").lookup("tec", "forest", "combat").value) == -1
    assert tec_shift(data("sideshow").lookup("tec", "clear", "combat").value) == 0
    assert tec_shift("2R") == 2 and tec_shift(1) == 1
    doubled = tec_shift(data("island-of-death").lookup("tec", "city", "combat").value)
    assert isinstance(doubled, Unknown)                        # a strength effect, not a shift


# -- strengths and shifts -----------------------------------------------------------------------

def test_strength_total_halves_the_group_once_rounding_up():
    units = [U("a", "A", attack=3), U("b", "B", attack=2), U("c", "C", attack=4), U("d", "D", attack=None)]
    total, shown = strength_total(units, frozenset({"a", "b"}), attrgetter("attack"))
    assert total == 4 + 3                                        # (3 + 2) / 2 = 2.5 -> 3
    assert shown == {"A": 3, "B": 2, "C": 4, "D": 0}
    unknown, shown = strength_total([U("a", "A", attack=Unknown("x", at_least=1, at_most=3))],
                                    frozenset(), attrgetter("attack"))
    assert isinstance(unknown, Unknown) and shown == {"A": None}


def test_terrain_shifts_controls_then_the_hex():
    town = TerrainControl("town", (True,), -1)
    amba = TerrainControl("amba", (Unknown("hex 0101 amba"),), -2)
    rest = lambda deps: terrain_row_shifts("rough", {"rough": -1}.get, deps)   # noqa: E731
    assert terrain_shifts([town], rest) == [(-1, frozenset(), "town")]
    readings = terrain_shifts([amba, TerrainControl("town", (False,), -1)], rest)
    assert readings == [(-2, frozenset({"hex 0101 amba"}), "amba"),
                        (-1, frozenset({"hex 0101 amba"}), "rough")]
    unknown_shift = terrain_shifts([TerrainControl("fort", (True,), Unknown("TEC fort"))], rest)
    assert [s for s, _, _ in unknown_shift] == [0, -1, -2]
    assert terrain_row_shifts(Unknown("hex 0101 terrain"), {}.get, frozenset()) == [
        (0, frozenset({"hex 0101 terrain"}), "terrain unknown (0)"),
        (-1, frozenset({"hex 0101 terrain"}), "terrain unknown (-1)")]


def test_majority_shift():
    units = [U("x", hex="0102"), U("y", hex="0103")]
    across = {"0102": True, "0103": False}
    assert majority_shift(units, {"x": 5, "y": 4}, lambda u: across[u.hex], feature="river")[0][0] == -1
    assert majority_shift(units, {"x": 4, "y": 4}, lambda u: across[u.hex], feature="river") == [
        (0, frozenset(), "river: 4 of 8 factors across")]
    open_ = majority_shift(units, {"x": 1, "y": 9}, lambda u: Unknown("hexside river"), feature="river")
    assert [s for s, _, _ in open_] == [0, -1]


# -- losses -------------------------------------------------------------------------------------

def test_loss_range_and_steps_owed():
    units = [U("a", steps=3), U("b", steps=2), U("c", steps=1)]
    assert loss_range(units, {"a": 1, "c": 1}) == (2, 2)
    assert loss_range(units, {"a": 3}, removed={"a"}) == (1, 3)             # removed: 1 to all
    assert loss_range(units, {}, raised={"b": (1, 2)}) == (1, 1)              # a wrapped layer
    assert steps_owed(4, units) == 4 and steps_owed(9, units) == 6


# -- the open combat ----------------------------------------------------------------------------

def test_open_combat_records_losses_removals_swaps_wraps_and_reveals():
    att = [U("a1", "A1", "0101", 2, 2), U("a2", "A2", "0102", 2, 2), U("a3", "A3", "0103", 3, 3, counter="x3")]
    dfn = [U("d1", "D1", "0201", 1, "?"), U("d2", "D2", "0201", 1, 1)]
    before = {u.id: u for u in att + dfn}
    after = {"a1": U("a1", "A1", "0101", 1, 1),                  # one step lost
             "a3": None, "r3": U("r3", "A3", "0103", 1, 1),      # swapped for its reduced counter
             "d1": U("d1", "D1", "0201", 2, 2),                   # revealed (and its layer rose)
             "d2": U("d2", "D2", None, 1, 1)}                     # sent off the map
    after = {k: v for k, v in after.items() if v is not None}
    after["a2"] = U("a2", "A2", "0102", 2, 2)
    combat = OpenCombat(3, None, Declaration("0201"), "a", before)
    combat.record(before, after, att, dfn, 4, hidden=lambda u: u.level == "?")
    assert combat.losses == {"a1": 1, "a3": 2, "d2": 1}
    assert combat.removed == {"d2"}
    assert combat.revealed == {"d1": (4, after["d1"])}
    assert combat.raised == {"d1": (1, 2)}


def test_open_combat_rolls_and_advances():
    combat = OpenCombat(3, None, Declaration("0201"), "a", {})
    assert combat.note_rolls([], 4) == [] and combat.roll is None
    assert combat.note_rolls([5, 2], 5) == [2]
    assert (combat.roll, combat.roll_step, combat.rolls) == (5, 5, [(5, 5), (2, 5)])
    assert combat.note_rolls([6], 6) == [6] and combat.roll == 5
    moves = [(U("a1", hex="0101"), U("a1", hex="0201")),                  # advances
             (U("a2", hex="0505"), U("a2", hex="0201")),                  # not from next to it
             (U("e1", hex="0101", side="b"), U("e1", hex="0201"))]        # the other side
    assert [u.id for u in combat.note_advances(moves, ["0101", "0202"])] == ["a1"]
    assert combat.advanced == ["a1"]


def test_advance_into_a_cleared_hex_is_due_and_into_a_held_one_is_wrong():
    a, b = U("a", "A"), U("b", "B")
    d = U("d", "D", steps=1)
    none = dict(attacker_losses={}, defender_losses={})
    assert advance_problems([a, b], [d], ["a"], attacker_losses={}, defender_losses={"d": 1}) == []
    assert advance_problems([a, b], [d], [], attacker_losses={}, defender_losses={"d": 1}) == [
        "no attacking unit advanced into the cleared hex"]
    assert advance_problems([a], [d], [], **none, removed=["d"]) == ["no attacking unit advanced into the cleared hex"]
    assert advance_problems([a], [d], [], **none, gone=["d"]) == ["no attacking unit advanced into the cleared hex"]
    assert advance_problems([a], [d], [], **none) == []                              # still held: no advance due
    assert advance_problems([a], [d], ["a"], **none) == ["units advanced into a hex still held by the defender"]
    # a defenseless defender left behind is another rule's: the hex is neither cleared nor held
    assert advance_problems([a], [d], ["a"], **none, defenseless=lambda u: True) == []
    assert advance_problems([a], [d], [], **none, defenseless=lambda u: True) == []
    # attackers that lost every step, were removed or raised owe no advance
    assert advance_problems([a], [d], [], attacker_losses={"a": 2}, defender_losses={"d": 1}) == []
    assert advance_problems([a], [d], [], **none, removed=["a", "d"]) == []
    assert advance_problems([a], [d], [], attacker_losses={}, defender_losses={"d": 1}, raised=["a"]) == []


def test_advance_by_strangers_barred_units_and_over_the_limit():
    hq, a = U("h", "H"), U("a", "A")
    d = U("d", "D", steps=1)
    lost = dict(attacker_losses={}, defender_losses={"d": 1})
    assert advance_problems([a], [d], ["x", "a"], **lost) == ["1 unit(s) that did not attack advanced"]
    barred = dict(barred=lambda u: u.name == "H", barred_label="HQ")
    assert advance_problems([hq, a], [d], ["h", "a"], **lost, **barred) == ["HQ H advanced"]
    # a barred attacker is no survivor: with only it left, no advance is due
    assert advance_problems([hq], [d], [], **lost, **barred) == []
    assert advance_problems([hq], [d], [], **lost, **barred, stays=lambda u: False) == [
        "no attacking unit advanced into the cleared hex"]
    weight = dict(weight=lambda u: 2, limit=3)
    assert advance_problems([hq, a], [d], ["a"], **lost, **weight) == []
    assert advance_problems([hq, a], [d], ["h", "a"], **lost, **weight) == [
        "4 divisions advanced, over the hex's limit of 3"]
    assert advance_problems([a], [d], ["a"], **lost, weight=lambda u: Unknown("weight"), limit=1) == []


def test_strength_columns_shift_left_and_fall_off_the_table():
    labels = ["1", "3", "6", "10"]
    assert strength_column(labels, 1) == "1" and strength_column(labels, 5) == "3"
    assert strength_column(labels, 12) == "10" and strength_column(labels, 12, 1) == "6"
    assert strength_column(labels, 2, 1) is None and strength_column(labels, 0) is None
    assert strength_column(None, 7) == "7" and strength_column(None, 7, 1) is None
    # Sideshow's shipped CRT lists no columns: a known cell is the column of that strength
    assert data("sideshow").table("crt").labels("column").value is None


def test_markers_mark_units_in_their_hex():
    assert marked_readings([(0, ["a"], 3)]) is None
    assert marked_readings([(2, ["a", "b"], 0)]) == (frozenset({"a", "b"}),)
    # one marker, two attackers and one other unit: the marker is on a, on b, or on the other
    assert set(marked_readings([(1, ["a", "b"], 1)])) == {frozenset(), frozenset({"a"}), frozenset({"b"})}
    # two markers, two attackers, one other unit: at least one attacker is marked
    assert set(marked_readings([(2, ["a", "b"], 1)])) == {frozenset({"a"}), frozenset({"b"}), frozenset({"a", "b"})}
    both = marked_readings([(1, ["a"], 0), (1, ["c", "d"], 0)])
    assert set(both) == {frozenset({"a", "c"}), frozenset({"a", "d"})}
    assert len(marked_readings([(5, [str(i) for i in range(12)], 0)], cap=10)) == 10


def test_modifier_sums():
    assert modifier_sums([]) == [0]
    assert modifier_sums([1, -2]) == [-2, -1, 0, 1]
    assert modifier_sums([1, 1]) == [0, 1, 2]


def test_segment_attacks_once_or_again_with_leave():
    seg = SegmentAttacks()
    assert not seg.hex_attacked("0101") and seg.first("a") is None and seg.attacking_again(["a"]) == []
    seg.note("0101", ["a", "b"], 4)
    assert seg.hex_attacked("0101") and seg.first("a") == ("0101", 4) and seg.times("b") == 1
    assert seg.attacking_again(["a", "b", "c"]) == ["a", "b"]
    seg.may_attack_again = {"a"}                   # a result let it attack again, once
    assert seg.attacking_again(["a", "b"]) == ["b"]
    seg.note("0102", ["a"], 5)
    assert seg.attacking_again(["a"]) == ["a"] and seg.first("a") == ("0101", 4) and seg.times("a") == 2
    assert seg.attacking_again(["a"], most=3) == []


def test_loss_mismatch_against_the_pieces():
    a, b = U("a", "A", steps=2), U("b", "B", steps=3)
    assert loss_mismatch([a, b], {"a": 1}, 1) is None
    assert loss_mismatch([a, b], {"a": 1}, 2) == 1
    # a removed unit may have meant one step to all it had
    assert loss_mismatch([a, b], {"b": 3}, 1, removed=["b"]) is None
    assert loss_mismatch([a, b], {"b": 3}, 0, removed=["b"]) == 3


def test_removals_cut_to_what_was_owed():
    a, b = U("a", "A", steps=3), U("b", "B", steps=2)
    losses, cut = cut_to_owed([a, b], {"a": 3, "b": 2, "c": 1}, 3)
    assert losses == {"a": 1, "b": 1, "c": 1} and cut == [a, b]
    losses, cut = cut_to_owed([a, b], {"a": 3, "b": 2}, 1)
    assert losses == {"a": 2, "b": 2} and cut == [a]
    assert cut_to_owed([U("c", "C", steps=1)], {"c": 1}, 2) == ({"c": 1}, [])


def test_zone_readings():
    assert zone_readings([False, True], 1, "in zone +1") == [(1, frozenset(), "in zone +1")]
    assert zone_readings([False, False], 1, "in zone +1") == [(0, frozenset(), "")]
    open_ = zone_readings([False, Unknown("zone z of 0101")], 1, "in zone +1")
    assert open_ == [(0, frozenset({"zone z of 0101"}), ""), (1, frozenset({"zone z of 0101"}), "in zone +1")]
