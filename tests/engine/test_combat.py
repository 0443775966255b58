"""Every combat and odds example the four rulebooks print, reproduced by the combat functions.

Rulebook references are "rule (file:line)" into /work/shared/rulebooks/<game>.txt. Table cells,
terrain shifts and modifiers come from each game's shipped data (tests/engine/shipped.py), so a
value mistyped there fails the example that prints it; where the data does not hold a value the
example uses, the test says so and keeps the rulebook's number. Cells the text does not give are
unknown, never invented.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from vlog.engine import combat as cb
from vlog.engine.combat import (ColumnScale, CombatTable, HitTable, LossTaker, Modifier, divide,
                                final_column, halve, level_name, loss_violations, odds_columns,
                                odds_level, parse_odds, parse_result, split_hits, sum_modifiers)
from vlog.engine.dice import clamp, modified_roll, parse_range
from vlog.engine.judge import Unknown
from vlog.errors import GameDataError

from tests.engine import shipped

# ---------------------------------------------------------------------------------------------
# Lion of Judah

LOJ = "lion-of-judah"
# LoJ 12.4 step 6 (lion-of-judah.txt:764): "Attacks ending at a ratio above 7:1 are resolved on
# the 7:1 column; attacks ending at ratios lower than 1:3 are resolved on the 1:3 column."
# The printed columns are the data's CRT column labels.
_LOJ_PRINTED = shipped.labels(LOJ, "crt", "column")
LOJ_COLUMNS = odds_columns(_LOJ_PRINTED[0], _LOJ_PRINTED[-1], below="clamp")

# The regular CRT as the data holds it: the cells the text gives (inventory 3.3: 1:1 roll 5 from
# the 12.11 example, 5:1 rolls 5 and 6 and 7:1 roll 2 from the example of play); the rest unknown.
LOJ_CRT = shipped.odds_table(LOJ, "crt", title="Lion of Judah CRT")


def loj_terrain(terrain: str) -> Modifier:
    """The defender's terrain column shift from the data's TEC (12.7, 12.8)."""
    return Modifier(shipped.column_shift(LOJ, terrain), terrain)


def test_loj_printed_columns_run_one_level_apart_from_1_3_to_7_1():
    # LoJ 12.4 step 6 (lion-of-judah.txt:764): columns 1:3 ... 7:1.
    assert (_LOJ_PRINTED[0], _LOJ_PRINTED[-1]) == ("1:3", "7:1")
    assert [level_name(c) for c in LOJ_COLUMNS.columns] == _LOJ_PRINTED
    assert LOJ_CRT.columns == LOJ_COLUMNS.columns


def test_loj_initial_ratio_rounds_down_for_the_defender():
    # LoJ 12.5 (lion-of-judah.txt:774): "Example: 15 to 4 would result in 3-1; 3 to 4 would
    # result in 1-2."
    assert level_name(odds_level(15, 4)) == "3:1"
    assert level_name(odds_level(3, 4)) == "1:2"
    assert LOJ_COLUMNS.select(odds_level(15, 4)).column == parse_odds("3-1")
    assert LOJ_COLUMNS.select(odds_level(3, 4)).column == parse_odds("1-2")


def test_loj_shifts_on_an_unbounded_scale():
    # LoJ 12.4 step 6 (lion-of-judah.txt:764): "an attack at 6:1 with two column shifts to the
    # right would shift the column to 8:1 ... resolved on the 7:1 column".
    _, shifted, choice = final_column(6, 1, [Modifier(1, "air", "air"), Modifier(1, "HQ", "hq")],
                                      LOJ_COLUMNS)
    assert level_name(shifted) == "8:1"
    assert level_name(choice.column) == "7:1" and choice.clamped == "above"


def test_loj_example_1_mountain_air_hq():
    # LoJ 12.4 Example 1 (lion-of-judah.txt:768): 6 attack factors against a one-strength unit
    # in a mountain hex: 6:1; air shift and HQ shift right, mountain one left -> 7:1.
    initial, shifted, choice = final_column(
        6, 1, [Modifier(1, "air result", "air"), Modifier(1, "HQ support", "hq"),
               loj_terrain("mountain")], LOJ_COLUMNS)
    assert level_name(initial) == "6:1"
    assert level_name(choice.column) == "7:1" and choice.clamped is None


def test_loj_example_2_ten_to_one_in_rough():
    # LoJ 12.4 Example 2 (lion-of-judah.txt:770): "begins at a ratio of 10:1. The attack is
    # still resolved on the 7:1+ column (as 9:1 is still > 7:1)" with rough -1L.
    initial, shifted, choice = final_column(10, 1, [loj_terrain("rough")], LOJ_COLUMNS)
    assert level_name(initial) == "10:1"
    assert level_name(shifted) == "9:1"
    assert choice.column == parse_odds("7:1+")


def test_loj_below_one_to_three_uses_one_to_three():
    # LoJ 12.4 step 6 (lion-of-judah.txt:764): lower than 1:3 -> 1:3 column (town: 1L, errata
    # 11.4.3 & 12.8, from the data's TEC).
    _, shifted, choice = final_column(1, 5, [loj_terrain("town")], LOJ_COLUMNS)
    assert level_name(shifted) == "1:6"
    assert level_name(choice.column) == "1:3" and choice.clamped == "below"


def test_loj_zero_attack_errata():
    # LoJ errata 12.4 (lion-of-judah.txt:766): 0 vs 0 resolves on the 1:1 column; 0 vs more
    # eliminates the attackers (the level says "below everything", the game applies it).
    assert odds_level(0, 0) == parse_odds("1:1")
    assert odds_level(0, 3) == -cb.INFINITE_LEVEL


def test_loj_air_and_hq_shifts_capped_at_two_per_side():
    # LoJ 12.4 steps 4-5 (lion-of-judah.txt:758-760): "up to a two-column shift in favor of
    # each side" for air; HQ "up to a maximum of two column shifts in favor of each side".
    mods = [Modifier(1, f"air {i}", "attacker air") for i in range(3)]
    mods += [Modifier(1, f"HQ {i}", "attacker hq") for i in range(3)]
    total = sum_modifiers(mods, {"attacker air": (None, 2), "attacker hq": (None, 2)})
    assert total.total == 4
    assert set(total.capped) == {"attacker air", "attacker hq"}


def test_loj_modified_die_is_clamped_to_the_rows():
    # LoJ 12.7 (lion-of-judah.txt:794): "greater than seven is considered seven, and any result
    # modified to less than one is considered one".
    assert modified_roll(6, [1, 1], low=1, high=7) == 7
    assert modified_roll(1, [-2], low=1, high=7) == 1
    assert modified_roll(4, [1], low=1, high=7) == 5


def test_loj_one_to_one_roll_five():
    # LoJ 12.11 (lion-of-judah.txt:824): "At a 1:1 ratio with a modified die roll of 5, the
    # combat result is 2/1; two steps lost for the attacker and one for the defender."
    result = parse_result(LOJ_CRT.lookup(parse_odds("1:1"), 5))
    assert (result.attacker.number, result.defender.number) == (2, 1)


def test_loj_example_of_play_g_belu():
    # LoJ example of play (lion-of-judah.txt:1906): 16 strength against 3 = 5:1; the CAE HQ
    # gives 1R, rough terrain 1L, final 5:1; a roll of 5 gives 0/3, a six would give 0/3+R.
    initial, _, choice = final_column(16, 3, [Modifier(1, "HQ CAE", "hq"), loj_terrain("rough")],
                                      LOJ_COLUMNS)
    assert level_name(initial) == "5:1" and level_name(choice.column) == "5:1"
    roll5 = parse_result(LOJ_CRT.lookup(choice.column, modified_roll(5, [], low=1, high=7)))
    assert (roll5.attacker.number, roll5.defender.number, roll5.extras) == (0, 3, ())
    roll6 = parse_result(LOJ_CRT.lookup(choice.column, 6))
    assert (roll6.defender.number, roll6.extras) == (3, ("R",))


def test_loj_example_of_play_macalle():
    # LoJ example of play (lion-of-judah.txt:1908): 48 against five = 9:1; after the 1L for the
    # mountain still over 7:1 -> 7:1 column; +1 DRM concentric (attackers on both sides);
    # rolls a one, "becoming two due to the modification: result 0/2".
    initial, shifted, choice = final_column(48, 5, [loj_terrain("mountain")], LOJ_COLUMNS)
    assert level_name(initial) == "9:1" and level_name(shifted) == "8:1"
    assert level_name(choice.column) == "7:1"
    assert cb.concentric({0, 3})                      # "both sides": directly opposite
    roll = modified_roll(1, [1], low=1, high=7)
    assert roll == 2
    result = parse_result(LOJ_CRT.lookup(choice.column, roll))
    assert (result.attacker.number, result.defender.number) == (0, 2)


def test_loj_cells_not_in_the_text_are_unknown():
    cell = LOJ_CRT.lookup(parse_odds("3:1"), 4)
    assert isinstance(cell, Unknown)
    assert cell.data == {"Lion of Judah CRT: column 3:1, roll 4"}


def test_loj_ethiopian_crt_examples():
    # LoJ PB 13.6.4.1 (lion-of-judah.txt:1253): Ethiopian attack at 4:1, die 6 -> 0/2+R.
    # Example of play (lion-of-judah.txt:1914): 10 against 2 = 5:1, +1 DRM (mountain), modified
    # 5 "on the 4:1 table" -> 0/2+R. The "4:1 table" is the Ethiopian CRT's top column (a
    # 5:1 attack resolves on it); only these cells are known (the data's crt-ethiopian, whose
    # column labels are unknown: its columns are those its known cells name).
    eth = shipped.odds_table(LOJ, "crt-ethiopian", title="Ethiopian CRT")
    assert eth.columns == (parse_odds("4:1"),)
    eth_columns = ColumnScale(eth.columns)   # lower columns are not in the text
    assert level_name(odds_level(10, 2)) == "5:1"
    choice = eth_columns.select(odds_level(10, 2))
    assert level_name(choice.column) == "4:1" and choice.clamped == "above"
    assert parse_result(eth.lookup(choice.column, modified_roll(4, [1]))).extras == ("R",)
    assert parse_result(eth.lookup(parse_odds("4:1"), 6)).defender.number == 2


def test_loj_halving_adds_first_then_rounds_half_up():
    # LoJ 12.6 (lion-of-judah.txt:780-786) and 2.7 (lion-of-judah.txt:278): add the factors of
    # the units to halve, halve once, round 0.5 up; never halved twice.
    assert halve(3 + 4) == 4
    assert halve(2 + 4) == 3
    assert divide(3, 2, "half_up") == 2
    # 2.7 rebellion example (inventory 1.1): modified roll 3 halved -> 2 units
    assert divide(3, 2, "half_up") == 2


def test_loj_river_majority():
    # LoJ 12.8.1 (lion-of-judah.txt:804-806): 14 from 1313 and 14 across the river from 1314 ->
    # no shift; 13 or fewer from 1313 (so 14 across of 27) -> the river shift applies.
    assert not cb.majority(14, 14 + 14)
    assert cb.majority(14, 13 + 14)


def test_loj_concentric_geometry():
    # LoJ 12.9 (lion-of-judah.txt:814): two directly opposite hexes, three with one hex between
    # each, or more than three hexes.
    assert cb.concentric({1, 4})
    assert cb.concentric({0, 2, 4})
    assert cb.concentric({0, 1, 2, 3})
    assert not cb.concentric({0, 1})
    assert not cb.concentric({0, 1, 2})
    assert not cb.concentric({0, 2})


def test_loj_loss_distribution_example():
    # LoJ 12.11 example (lion-of-judah.txt:831): a four-step unit and two one-step units take
    # two step losses; "The 4-step unit must take the first step loss before either of the
    # one-step units is eliminated. The second loss could also be applied to the (now)
    # three-step unit or could be used to eliminate one of the two one-step units".
    # The example allows the 4-step unit two losses, which the rule's first bullet ("No unit
    # may take a second step loss until all units ... have absorbed at least one") forbids;
    # the example is reproduced with first_from_largest and without that bullet.
    def side(big, small1, small2):
        return [LossTaker("4-step", 4, big), LossTaker("1-step a", 1, small1),
                LossTaker("1-step b", 1, small2)]

    rule = dict(first_from_largest=True)
    assert loss_violations(side(2, 0, 0), 2, **rule) == []
    assert loss_violations(side(1, 1, 0), 2, **rule) == []
    assert loss_violations(side(0, 1, 1), 2, **rule) != []
    assert loss_violations(side(1, 0, 0), 2, **rule) == ["1 step(s) taken, 2 due"]
    # and the rule's own bullet, as a predicate:
    assert loss_violations(side(2, 0, 0), 2, spread_before_second=True) != []


def test_loj_first_attacker_loss_not_from_zero_attack_unit():
    # LoJ 12.11 (lion-of-judah.txt:829): the attacker's first loss may not be a unit with zero
    # attack strength, unless that is all they have involved.
    units = [LossTaker("0-1-6", 1, 1, attack=0), LossTaker("3-2-6", 2, 0, attack=3)]
    assert loss_violations(units, 1, first_from_attacking_unit=True)
    only_zero = [LossTaker("0-1-6", 1, 1, attack=0)]
    assert loss_violations(only_zero, 1, first_from_attacking_unit=True) == []


# ---------------------------------------------------------------------------------------------
# Island of Death

IOD = "island-of-death"
IOD_DAY_LINE = "All Other Terrains (day turns)"
IOD_ROWS_2D6 = [str(n) for n in range(2, 13)]


def test_iod_crt_and_bombardment_rows_are_two_dice():
    # IoD 9.3h (island-of-death.txt:287): "roll two dice"; the data's row labels.
    assert shipped.labels(IOD, "crt", "roll") == IOD_ROWS_2D6
    assert shipped.labels(IOD, "bombardment", "roll") == IOD_ROWS_2D6


def test_iod_basic_odds_examples():
    # IoD 9.3d (island-of-death.txt:283): "16 against ... 4 is 4:1, but 15 against 4 is only 3:1".
    assert level_name(odds_level(16, 4)) == "4:1"
    assert level_name(odds_level(15, 4)) == "3:1"


def test_iod_odds_modifier_moves_one_level():
    # IoD 9.3e (island-of-death.txt:284): "+1 ... would change 1:3 odds to 1:2, and would change
    # 3:1 odds to 4:1".
    assert level_name(parse_odds("1:3") + 1) == "1:2"
    assert level_name(parse_odds("3:1") + 1) == "4:1"


def test_iod_column_rounds_down_and_cancels_below_minimum():
    # IoD 9.3g (island-of-death.txt:286): odds between columns use the next lower column ("if
    # the final combat odds are 7:1, use the 6:1 column"); below the minimum column the attack
    # is cancelled; above the highest, the highest column is used. The only column the text
    # shows on the day line is 6:1; the other columns here are hypothetical (9:1 marks "a
    # column above 6:1 with no 7:1"), used only to exercise the selection rule.
    scale = ColumnScale((parse_odds("1:1"), parse_odds("6:1"), parse_odds("9:1")), below="cancel")
    assert level_name(scale.select(parse_odds("7:1")).column) == "6:1"
    below = scale.select(parse_odds("1:2"))
    assert below.cancelled and below.column is None
    assert level_name(scale.select(parse_odds("12:1")).column) == "9:1"


def test_iod_combat_example():
    # IoD combat example (island-of-death.txt:363): morale (6+6+6+4)/4 = 5.5 rounded up to 6;
    # odds 29 / 15 = 1.93:1 rounded down to 1:1; +2 integrity, +2 morale (6 - 4), +2 armour,
    # -1 mixed formations = +5 -> 6:1; 2d6 = 6 on the 6:1 column of "All Other Terrains (day
    # turns)" gives -/3D; the British take a step loss and retreat two hexes; standing their
    # ground would have meant three step losses.
    attacker_morale = cb.average([6, 6, 6, 4])
    assert attacker_morale == 6
    assert 6 + 6 + 6 + 1 + 5 + 5 == 29 and 6 + 6 + 3 == 15
    assert level_name(odds_level(29, 15)) == "1:1"
    # The +2/+2/-1 modifiers are the data's combat-odds-modifiers (9.9); the morale cap +3/-2
    # (9.92) is held there only as text, so it stays the rulebook's number here.
    mods = [Modifier(shipped.known(IOD, "combat-odds-modifiers", "attacker-integrity"), "attacker integrity"),
            Modifier(attacker_morale - 4, "morale", "morale"),
            Modifier(shipped.known(IOD, "combat-odds-modifiers", "armor-attacking"), "armor attacking"),
            Modifier(shipped.known(IOD, "combat-odds-modifiers", "mixed-formations"), "mixed formations")]
    total = sum_modifiers(mods, {"morale": (-2, 3)})   # 9.92: "+3 and -2" maximum
    assert total.total == 5
    assert "+3 to -2" in shipped.known(IOD, "combat-odds-modifiers", "morale")
    table = shipped.odds_table(IOD, "crt", IOD_DAY_LINE, title="IoD CRT " + IOD_DAY_LINE)
    _, shifted, choice = final_column(29, 15, mods, ColumnScale(table.columns, "cancel"),
                                      {"morale": (-2, 3)})
    assert level_name(shifted) == "6:1"
    result = parse_result(table.lookup(choice.column, 6))
    assert result.attacker.number == 0 and result.attacker.letters == ""
    assert (result.defender.number, result.defender.letters) == (3, "D")
    steps, retreat = split_hits(result.defender.number, "down")   # 9.42: defender floor(hits/2)
    assert (steps, retreat) == (1, 2)
    assert steps + retreat == 3                                    # standing ground: 3 steps
    assert isinstance(table.lookup(choice.column, 7), Unknown)


def test_iod_morale_cap():
    # IoD 9.92 (island-of-death.txt:353): "The maximum morale modifiers are +3 and -2."
    assert sum_modifiers([Modifier(5, "morale", "morale")], {"morale": (-2, 3)}).total == 3
    assert sum_modifiers([Modifier(-4, "morale", "morale")], {"morale": (-2, 3)}).total == -2


def test_iod_attacker_hits_round_up():
    # IoD 9.42 (inventory CBT-19): attacker step losses = ceil(hits/2).
    assert split_hits(3, "up") == (2, 1)
    assert split_hits(4, "up") == (2, 2)


def test_iod_bombardment_example():
    # IoD 10.12 example (island-of-death.txt:384): two artillery battalions of strength 5 = 10,
    # halved for the town to 5; "starts on column 4 ... because there is no column for 5",
    # +1 for enemy artillery -> column 6; 2d6 = 11 on the line for 4 battalions gives D.
    # Columns known from the text: 4 and 6 (the next one to the right of 4).
    # The cell and the +1 shift are the data's (bombardment, bombardment-shifts); the town
    # halving is held there only as text (combat-strength-modifiers), so it is the rulebook's.
    strength = halve(5 + 5)
    assert strength == 5
    assert "halved" in shipped.known(IOD, "combat-strength-modifiers", "town")
    scale = ColumnScale((4, 6))
    start = scale.select(strength)
    assert start.column == 4
    enemy_artillery = shipped.known(IOD, "bombardment-shifts", "enemy-artillery-in-target")
    assert scale.shift(start.column, enemy_artillery).column == 6
    cells = {(int(c), r): v.value for (b, c, r), v in shipped.game(IOD).table("bombardment").listed_cells().items()
             if b == "4" and v.known}
    line = CombatTable.build("IoD Bombardment Table, 4 battalions", (4, 6), IOD_ROWS_2D6, cells)
    assert line.lookup(6, 11) == "D"
    assert isinstance(line.lookup(6, 10), Unknown)


def test_iod_engineer_share():
    # IoD 9.92 engineers (island-of-death.txt:348): "at least half of any step losses taken by
    # the attacking side must be inflicted on the attacking engineer units, unless all
    # engineers are eliminated; round fractions up".
    eng = frozenset({"engineer"})
    ok = [LossTaker("eng", 2, 2, tags=eng), LossTaker("inf", 3, 1)]
    assert loss_violations(ok, 3, tag_share=("engineer", 1, 2)) == []
    bad = [LossTaker("eng", 3, 1, tags=eng), LossTaker("inf", 3, 2)]
    assert loss_violations(bad, 3, tag_share=("engineer", 1, 2))
    gone = [LossTaker("eng", 1, 1, tags=eng), LossTaker("inf", 3, 2)]
    assert loss_violations(gone, 3, tag_share=("engineer", 1, 2)) == []


# ---------------------------------------------------------------------------------------------
# Ascari

ASCARI = "ascari"


def _ascari_fire(firer: str) -> HitTable:
    """Ascari 4.5 Fire Combat Table (ascari.txt:235-245) from the data: rolls to hit by range;
    double hits where the data knows them (FAQ, ascari.txt:631: range 1, 5 +1 = 6 is double)."""
    data = shipped.game(ASCARI)
    ranges = [int(r) for r in shipped.labels(ASCARI, "fire", "range")]
    hits = {r: shipped.hit_rolls(shipped.known(ASCARI, "fire", str(r), firer)) for r in ranges}
    double = {(int(r), int(roll)): d.value == "double"
              for (r, f, roll), d in data.table("fire-double-hits").listed_cells().items() if f == firer and d.known}
    return HitTable(f"Ascari Fire Combat Table, {firer}", hits, double=double)


def _ascari_artillery() -> HitTable:
    """Ascari 4.61 Artillery Combat Table (ascari.txt:279-288) from the data: rolls to hit and
    the effect (all double or all single) per range band."""
    hits, double, single = {}, set(), set()
    for band in shipped.labels(ASCARI, "artillery", "range"):
        span = parse_range(band)
        effect = shipped.known(ASCARI, "artillery", band, "effect")
        for r in range(span.low, span.high + 1):
            hits[r] = shipped.hit_rolls(shipped.known(ASCARI, "artillery", band, "hits"))
            (double if effect == "double" else single).add(r)
    return HitTable("Ascari Artillery Combat Table", hits, all_double=frozenset(double),
                    all_single=frozenset(single))


ASCARI_FIRE = _ascari_fire("italians")
ASCARI_ARTILLERY = _ascari_artillery()


def test_ascari_tables_cover_the_printed_ranges():
    # 4.5 (ascari.txt:235-245): ranges 1-4 for rifles; 4.61 (ascari.txt:279-288): 1-8 for guns.
    assert sorted(ASCARI_FIRE.hits) == [1, 2, 3, 4]
    assert sorted(ASCARI_ARTILLERY.hits) == list(range(1, 9))
    assert [(r, d) for r in range(1, 5) for d in range(1, 7) if ASCARI_FIRE.is_hit(r, d)] == [
        (1, 3), (1, 4), (1, 5), (1, 6), (2, 4), (2, 5), (2, 6), (3, 5), (3, 6), (4, 5), (4, 6)]


def test_ascari_modified_roll_gives_double_hit():
    # Ascari FAQ (ascari.txt:631): Italian at 1 hex, +1 DRM (support), rolls 5 -> 6: "It is a
    # double hit".
    roll = modified_roll(5, [shipped.known(ASCARI, "fire-drms", "support")])
    assert roll == 6
    assert ASCARI_FIRE.resolve(1, roll) == "double"
    assert ASCARI_FIRE.resolve(1, 2) == "miss"
    kind = ASCARI_FIRE.resolve(1, 4)   # a hit whose kind the text lost (bold print)
    assert isinstance(kind, Unknown) and ASCARI_FIRE.is_hit(1, 4)


def test_ascari_artillery_close_range_is_miss_or_double():
    # Ascari FAQ (ascari.txt:625): "at 1-2 hexes in Artillery Fire you miss or inflict double
    # hit"; table rows (ascari.txt:284-288).
    assert {ASCARI_ARTILLERY.resolve(r, d) for r in (1, 2) for d in range(1, 7)} == {"miss", "double"}
    assert ASCARI_ARTILLERY.resolve(3, 3) == "single"
    assert ASCARI_ARTILLERY.resolve(7, 4) == "miss"
    # opportunity fire DRM -2 (4.61 table header, ascari.txt:281): a 4 at range 5 becomes 2, a miss
    opportunity = shipped.prop(ASCARI, "artillery", "opportunity_fire_drm")
    assert opportunity == -2
    assert ASCARI_ARTILLERY.resolve(5, modified_roll(4, [opportunity])) == "miss"


# ---------------------------------------------------------------------------------------------
# Sideshow


def test_sideshow_crt_example():
    # Sideshow 8.25 (sideshow.txt:415): "if the Allied Player has 25 SPs in the battle and
    # rolls a '4', the German player loses 3 SPs." The column brackets are not in the text, so
    # the column is named by the example's strength only.
    # The data's crt holds that one cell (its column and roll labels are unknown).
    lost = shipped.known("sideshow", "crt", "25", "4")
    crt = CombatTable.build("Sideshow CRT", ("25 SP",), ["1", "2", "3", "4", "5", "6"],
                            {("25 SP", "4"): str(lost)})
    assert crt.lookup("25 SP", 4) == "3"
    assert isinstance(crt.lookup("25 SP", 5), Unknown)


def test_sideshow_retreat_rolls():
    # Sideshow 8.26 (sideshow.txt:417): an adjusted roll of 4-9 makes the opponent retreat;
    # the retreat is one die of hexes, at most 4 ("treat a roll of '5' or '6' as a '4'").
    # The retreat lengths are the data's retreat-length table; the 4-9 band is not in the data.
    retreat = parse_range("4-9")
    assert 4 in retreat and 9 in retreat and 3 not in retreat and 10 not in retreat
    lengths = [shipped.known("sideshow", "retreat-length", str(r)) for r in range(1, 7)]
    assert lengths == [clamp(r, None, 4) for r in range(1, 7)] == [1, 2, 3, 4, 4, 4]


def test_sideshow_attrition_example():
    # Sideshow 6.43 (sideshow.txt:321): "if the Attrition Total is 14 and a unit's Attrition
    # rating is 11, that units suffers a 3 SP loss."
    assert cb.shortfall(14, 11) == 3
    assert cb.shortfall(10, 11) == 0


def test_sideshow_river_halving_rounds_up():
    # Sideshow 8.31 (sideshow.txt:436): "If a unit crosses a river to attack, it's strength is
    # halved, rounded up." (the data's TEC: river-hexside combat "attacker-halved").
    assert shipped.known("sideshow", "tec", "river-hexside", "combat") == "attacker-halved"
    assert halve(5) == 3 and halve(4) == 2


def test_sideshow_terrain_column_shift():
    # Sideshow 8.32-8.33 (sideshow.txt:438-440): a defender in a Mountain hex has its strength
    # doubled; in forest (or Nairobi, Mombasa, Dar es Salaam) the attacker's column moves one
    # to the left. The column brackets are not in the text: hypothetical brackets 1, 5, 10. The
    # shift and the doubling are the data's TEC.
    assert shipped.known("sideshow", "tec", "mountain", "combat") == "defender-doubled"
    forest = shipped.column_shift("sideshow", "forest")
    assert forest == -1
    scale = ColumnScale((1, 5, 10))
    assert scale.shift(scale.select(7).column, forest).column == 1
    assert scale.shift(1, -1).column == 1 and scale.shift(1, -1).clamped == "below"


# ---------------------------------------------------------------------------------------------
# generic behaviour


def test_unknown_strength_propagates_to_the_column():
    hidden = Unknown("strength of ?-6 unit")
    initial, shifted, choice = final_column(hidden + 4, 3, [], LOJ_COLUMNS)
    assert isinstance(choice, Unknown) and "strength of ?-6 unit" in choice.data
    assert isinstance(LOJ_CRT.lookup(choice, 3), Unknown)


def test_parse_result_and_odds_reject_garbage():
    for bad in ("", "x", "2-1", "1/2/3", "a/b/c", "1/+"):
        with pytest.raises(GameDataError):
            parse_result(bad)
    for bad in ("", "3", "2:3", "0:1", "x:1"):
        with pytest.raises(GameDataError):
            parse_odds(bad)
    with pytest.raises(GameDataError):
        ColumnScale((2, 1))
    with pytest.raises(GameDataError):
        parse_range("6-1")


def test_odds_level_matches_definition_exhaustively():
    for a in range(1, 40):
        for d in range(1, 40):
            level = odds_level(a, d)
            if level >= 0:
                n = level + 1
                assert n * d <= a < (n + 1) * d
            else:
                n = -level + 1
                assert (n - 1) * a < d <= n * a
    assert odds_level(Fraction(7, 2), 1) == parse_odds("3:1")


# ---------------------------------------------------------------------------------------------
# judging a logged outcome


def test_judge_outcome_with_an_open_terrain_shift():
    # The log of LoJ's example of play (lion-of-judah.txt:1906) shows 16 attacking 3, a roll of
    # 5 and three defender steps lost. If the defender's terrain were unknown (rough, 1L, as in
    # the example, or no shift), the readings are 5:1 and 6:1; 5:1 gives 0/3, so the outcome is
    # explained.
    from vlog.engine.combat import judge_outcome, readings
    from vlog.engine.judge import Ruling

    start = odds_level(16, 3) + 1                      # with the HQ's 1R
    cands = readings([(start - 1, "rough 1L"), (start, "no terrain shift")], [(0, "")],
                     LOJ_COLUMNS, 5, low=1, high=7)
    assert [(level_name(c.column), c.roll) for c in cands] == [("5:1", 5), ("6:1", 5)]

    def three_defender_steps(cell):
        return parse_result(cell).defender.number == 3

    verdict = judge_outcome(LOJ_CRT, cands, three_defender_steps)
    assert verdict.ruling is Ruling.LEGAL and verdict.best.reason == "rough 1L"
    # a logged loss of one step: 5:1 gives 0/3 (a reason), 6:1 roll 5 is not in the text
    one = judge_outcome(LOJ_CRT, cands, lambda c: parse_result(c).defender.number == 1)
    assert one.ruling is Ruling.POSSIBLE
    assert one.depends_on == {"Lion of Judah CRT: column 6:1, roll 5"}
    # only the 5:1 reading: proven wrong, and the reason quotes the cell
    proven = judge_outcome(LOJ_CRT, cands[:1], lambda c: parse_result(c).defender.number == 1)
    assert proven.ruling is Ruling.PROVEN
    assert "gives 0/3 at 5:1, roll 5" in proven.reasons[0]


def test_cancelled_reading_explains_nothing():
    from vlog.engine.combat import Reading, judge_outcome
    from vlog.engine.judge import Ruling

    table = CombatTable.build("t", (0,), ["1-6"], {(0, "1-6"): "1/1"})
    verdict = judge_outcome(table, [Reading(None, 3, "below 1:1", cancelled=True)], lambda c: True)
    assert verdict.ruling is Ruling.PROVEN and "cancelled" in verdict.reasons[0]


def test_iod_retreat_priority():
    # IoD 9.61 (inventory CBT-26): a retreating unit goes to a hex not in enemy ZOC before one
    # in enemy ZOC. On a test grid, a one-hex retreat from (5, 5) with enemy ZOC on some hexes.
    from tests.engine.gridutil import oddq_neighbours

    nb = oddq_neighbours(10, 10)
    zoc = {(5, 4), (4, 5), (6, 5)}
    enemy = {(5, 3)}

    def rank(path):
        return 1 if path[-1] in zoc else 0

    best = cb.best_retreats((5, 5), length=1, neighbours=nb, may_enter=lambda h: h not in enemy,
                            rank=rank)
    assert best and all(p[-1] not in zoc for p in best)
    assert ((5, 5), (5, 4)) not in best
    trapped = cb.best_retreats((5, 5), length=1, neighbours=nb, may_enter=lambda h: False, rank=rank)
    assert trapped == []


def test_loj_air_superiority_example():
    # LoJ 10.1.3 (lion-of-judah.txt:540): British 2 air markers roll an air shift and an air
    # superiority; the Italian 1 marker rolls an air superiority. Each superiority result is an
    # air shift for the roller and cancels one of the opponent's: "The final result is that the
    # British player obtains one column shift in their favor". Air shifts: at most two per side
    # (12.4 step 4, lion-of-judah.txt:758).
    mods = [Modifier(1, "British air shift", "british air"),
            Modifier(1, "British air superiority", "british air"),
            Modifier(-1, "cancelled by Italian air superiority", "british air"),
            Modifier(-1, "Italian air superiority", "italian air"),
            Modifier(1, "cancelled by British air superiority", "italian air")]
    caps = {"british air": (0, 2), "italian air": (-2, 0)}
    assert sum_modifiers(mods, caps).total == 1


def test_loj_halving_never_twice():
    # LoJ 12.6 (lion-of-judah.txt:784): "An OOS unit subject to a gas attack has its attack
    # factor only at 1/2, not at 1/4." Causes are collected, the factor halved once.
    causes = {"out of supply", "gassed"}
    factor = 4
    assert (halve(factor) if causes else factor) == 2
    assert halve(halve(factor)) == 1   # what the rule forbids


from hypothesis import given, strategies as st  # noqa: E402


@given(st.text(max_size=30))
def test_printed_text_readers_raise_only_game_data_error(text):
    for reader in (parse_result, parse_odds):
        try:
            reader(text)
        except GameDataError:
            pass


@given(st.integers(0, 200), st.integers(0, 200), st.integers(-6, 6))
def test_final_column_always_lands_on_a_printed_column(attack, defense, shift):
    _, _, choice = final_column(attack, defense, [Modifier(shift, "x")], LOJ_COLUMNS)
    assert choice.column in LOJ_COLUMNS.columns


def test_hostile_odds_text_and_strengths():
    with pytest.raises(GameDataError):
        parse_odds("9" * 5000 + ":1")
    with pytest.raises(GameDataError):
        odds_level(-1, 3)


def test_loj_guerrilla_in_an_amba_gets_the_mountain_shift_only():
    # LoJ PB 14.6.4.1 example (lion-of-judah.txt:1655): a guerrilla unit on top of an Italian unit
    # in Amba Aradam, attacked: "the guerrilla unit would still obtain a column shift for the
    # mountain terrain in the hex, but not the two column shifts for the amba". Both shifts are
    # the data's TEC; the 3:1 starting ratio is a test value (the example gives none).
    mountain, amba = loj_terrain("mountain"), loj_terrain("amba")
    assert (mountain.amount, amba.amount) == (-1, -2)
    _, _, guerrilla = final_column(9, 3, [mountain], LOJ_COLUMNS)
    _, _, regular = final_column(9, 3, [amba], LOJ_COLUMNS)
    assert level_name(guerrilla.column) == "2:1" and level_name(regular.column) == "1:1"


def test_iod_warships_against_coastal_guns():
    # IoD 16.79 (island-of-death.txt:542): "rolls a number of dice equal to half the offensive
    # support strength of the warship (rounding any fraction up). If any of the dice rolled is a
    # 6, the coastal gun fired upon is destroyed ... the heavy cruiser Trieste may fire at two
    # different coastal guns in the same turn, rolling two dice against one of them and one die
    # against the other" -- three dice, so Trieste's offensive support is 5 or 6 (inventory).
    hit_on = shipped.known(IOD, "limits", "warship_vs_coastal_hit_on")
    assert hit_on == 6
    assert [s for s in range(1, 10) if divide(s, 2, "up") == 2 + 1] == [5, 6]
    assert any(d >= hit_on for d in (2, 6, 1)) and not any(d >= hit_on for d in (5, 5, 1))
