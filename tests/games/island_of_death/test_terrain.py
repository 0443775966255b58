"""Island of Death zones of control and movement hooks (terrain.py) on small positions, with the
shipped data (no map: everything the map decides stays possible) and the SYNTHETIC overlay
(fixtures/island-of-death/synthetic-data, not the published charts)."""
from __future__ import annotations

from dataclasses import replace

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import check_move
from vlog.kit.board import Board

from vlog.games.island_of_death.checks.stacking import weight
from vlog.games.island_of_death.terrain import ClassTerrain, exerts_zoc, movement_rules, overrunnable, zoc_of
from vlog.games.island_of_death.units import make_unit

from tests.games.island_of_death.replays import shipped_data, synthetic_data


def unit(counter, hex_, level=None, data=None):
    made = make_unit(data or synthetic_data(), counter, level)
    return replace(made, id=f"{counter}@{hex_}", name=counter, hex=hex_)


def test_5_1_attack_three_or_more_exerts_a_zoc_and_a_remnant_alone_does_not():
    assert exerts_zoc([unit("ax-1-34", "1110")]) is True                  # 6 attack
    assert exerts_zoc([unit("al-1k", "1309", "remnant")]) is False        # a 2-6 remnant
    assert exerts_zoc([unit("al-1k", "1309", "remnant"), unit("al-strongpoint", "1309")]) is True  # 16.21


def test_5_1_leaders_and_coastal_guns_exert_none_and_prepared_artillery_rests_on_ammunition():
    assert exerts_zoc([unit("al-beak", "1311"), unit("al-coastal-gun-2-6", "1311")]) is False
    gun = exerts_zoc([unit("ax-28-art", "1107", "prepared")])
    assert isinstance(gun, Unknown) and any("ammunition" in d for d in gun.data)
    assert exerts_zoc([unit("ax-28-art", "1107", "hitched")]) is False    # hitched: attack 1 (synthetic)


def test_an_unknown_attack_strength_leaves_the_zoc_possible_on_the_shipped_data():
    found = exerts_zoc([unit("al-a-1c", "1311", data=shipped_data())])
    assert isinstance(found, Unknown) and any("al-a-1c" in d for d in found.data)


def test_5_0_no_zoc_across_an_all_ocean_hexside_and_unknown_hexsides_make_it_possible():
    board = Board(synthetic_data())
    zoc = zoc_of({"1110": [unit("ax-1-34", "1110")]}, board)
    assert zoc.in_zoc("1209") is True and zoc.in_zoc("1309") is False
    coast = zoc_of({"1915": [unit("ax-1-34", "1915")]}, board)
    assert coast.in_zoc("2014") is True and coast.in_zoc("2015") is False   # all-ocean 1915/2015
    shipped = zoc_of({"1110": [unit("ax-1-34", "1110", data=shipped_data())]}, Board(shipped_data()))
    assert isinstance(shipped.in_zoc("1209"), Unknown)                    # the hexside is not transcribed


def test_6_52_only_leaders_coastal_guns_and_defense_zero_are_overrun():
    assert overrunnable([unit("al-beak", "1311"), unit("al-coastal-gun-2-4", "1311")]) is True
    assert overrunnable([unit("ax-1-34", "1210")]) is False
    assert isinstance(overrunnable([unit("al-strongpoint", "1309", data=shipped_data())]), Unknown)


def test_road_zoc_and_one_hex_minimum_in_the_search():
    data = synthetic_data()
    board = Board(data)
    foot = movement_rules(data, ClassTerrain(data, board, "foot"), enemies={}, zoc=zoc_of({}, board))
    assert check_move(foot, "1312", "1712", 5).ruling is Ruling.LEGAL     # road 1+1+1, clear 2
    assert check_move(foot, "1311", "1711", 6).ruling is Ruling.PROVEN    # four clear hexes: 8
    assert check_move(foot, "1409", "1410", 1).ruling is Ruling.LEGAL     # woods 3: the one hex allowed
    enemy = {"1110": [unit("ax-1-34", "1110")]}
    rules = movement_rules(data, ClassTerrain(data, board, "foot"), enemies=enemy, zoc=zoc_of(enemy, board))
    assert check_move(rules, "1311", "1210", 4).ruling is Ruling.LEGAL    # town 2 + ZOC 2, stops
    assert check_move(rules, "1311", "1109", 6).ruling is Ruling.PROVEN   # through 1209/1210: both ZOC
    mech = movement_rules(data, ClassTerrain(data, board, "mechanized"), enemies={}, zoc=zoc_of({}, board))
    assert check_move(mech, "1409", "1410", 8).ruling is Ruling.PROVEN    # woods prohibited (synthetic)


def test_7_1_stacking_weights():
    assert weight(unit("al-8m", "1311")) == 1
    assert weight(unit("al-a-1c", "1311")) == 0.5                         # a company (synthetic size)
    assert weight(unit("al-1k", "1309", "remnant")) == 0.5
    assert weight(unit("al-beak", "1311")) is None and weight(unit("al-militia", "1711")) is None
    assert isinstance(weight(unit("al-strongpoint", "1309")), Unknown)
