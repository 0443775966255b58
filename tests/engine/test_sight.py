"""Line of sight over the hex grid (vlog/engine/sight.py): blocking hexes, hexside runs, the map
edge, unknown data and the elevation test."""
from __future__ import annotations

import dataclasses

from vlog.engine.judge import Unknown
from vlog.engine.sight import higher_than, line_of_sight
from vlog.hexes import LAYOUTS, Hex

ASCARI = LAYOUTS["ascari"]


def blocking(*names: str):
    hexes = {ASCARI.parse(n) for n in names}
    return lambda h: h in hexes


def test_a_blocking_hex_between_blocks_and_the_endpoints_never_do():
    a, b = ASCARI.parse("2005"), ASCARI.parse("2008")
    assert line_of_sight(ASCARI, a, b, blocking("2006")).clear is False
    assert line_of_sight(ASCARI, a, b, blocking("2006")).blocked_by == ((Hex(20, 6),),)
    assert line_of_sight(ASCARI, a, b, blocking("2005", "2008")).clear is True
    assert line_of_sight(ASCARI, a, b, blocking("2105")).clear is True


def test_a_hexside_run_blocks_only_when_both_hexes_block():
    # 2513 -> 2713 runs along the side of 2613 and 2614 (Ascari FAQ, Metemma)
    a, b = ASCARI.parse("2513"), ASCARI.parse("2713")
    assert line_of_sight(ASCARI, a, b, blocking("2613")).clear is True
    assert line_of_sight(ASCARI, a, b, blocking("2613", "2614")).clear is False


def test_off_the_map_blocks_when_the_game_says_so():
    bounded = dataclasses.replace(ASCARI, cols=(18, 33), rows=(4, 13))
    a, b = bounded.parse("2513"), bounded.parse("2713")
    assert line_of_sight(bounded, a, b, blocking("2613"), off_map_blocks=True).clear is False
    assert line_of_sight(bounded, a, b, blocking("2613")).clear is True


def test_unknown_data_give_unknown_unless_a_known_hex_blocks():
    a, b = ASCARI.parse("2005"), ASCARI.parse("2008")
    unknown = lambda h: Unknown(f"hex {ASCARI.name(h)} terrain")
    sight = line_of_sight(ASCARI, a, b, unknown)
    assert isinstance(sight.clear, Unknown)
    assert sight.clear.data == {"hex 2006 terrain", "hex 2007 terrain"}
    mixed = lambda h: True if ASCARI.name(h) == "2007" else Unknown("x")
    assert line_of_sight(ASCARI, a, b, mixed).clear is False


def test_higher_than():
    heights = {Hex(20, 6): 2, Hex(20, 7): Unknown("hex 2007 elevation")}
    elevation = lambda h: heights.get(h, 0)
    assert higher_than(elevation, Hex(20, 6), 1) is True
    assert higher_than(elevation, Hex(20, 5), 0) is False
    assert isinstance(higher_than(elevation, Hex(20, 7), 0), Unknown)
