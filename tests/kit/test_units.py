"""vlog.kit.units on Ascari's data (four maps) and Sideshow's boxes, with SYNTHETIC bindings and
tables: the real modules' bindings are not known yet, so the overlays here say how a module
could show the pieces (a VASSAL map per data map, a step layer, a box by its printed name)."""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

import pytest

from vlog.engine.judge import Unknown
from vlog.gamedata import load_game_data
from vlog.kit.units import Bindings, Place, UnitCache, factor, read_unit, read_units
from vlog.table import Table

from tests.checks.logbuild import restore, unit

SRC = "SYNTHETIC bindings for tests"


def d(value):
    return {"value": value, "source": SRC}


@dataclass(frozen=True, slots=True)
class Piece:
    """A game's own unit class, as small as a test needs: the kit sets id, name, map, hex, box."""

    counter: str
    level: str | None
    id: str = ""
    name: str = ""
    map: str | None = None
    hex: str | None = None
    box: str | None = None
    side: str | None = None


MADE: list[tuple[str, str | None]] = []


def make(data, counter, level):
    MADE.append((counter, level))
    record = data.counter(counter)
    return Piece(counter, level, side=record["side"].value)


class Maps:
    """A module naming points as VASSAL's HexGrid would ("1704"), and one box map by zone."""

    name, version = "synthetic", "0"

    def location_name(self, map_id, x, y, layout=None):
        if map_id == "Boxes":
            return "Available Troops Box"
        if map_id == "Charts":
            return "Terrain Effects Chart"
        return f"{x // 100:02d}{y // 100:02d}"


def at(hex_):
    return int(hex_[:2]) * 100 + 50, int(hex_[2:]) * 100 + 50


def table_of(*pieces):
    table = Table(Maps())
    for cmd in restore(list(pieces)):
        table.apply(cmd)
    return table


def piece(pid, name, hex_, *, map_id, level=1):
    return unit(pid, name, *at(hex_), level=level, map_id=map_id)


@pytest.fixture
def ascari(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    doc = {"kind": "bindings", "game": "ascari",
           "module": {"name": d("Ascari (synthetic)"), "version": d("0")},
           "pieces": [{"id": "rifle", "piece_name": d("Rifle 1"), "counter": d("dv-rifle-1-ib")}],
           "layers": [{"id": "steps", "layer_name": d("Step"), "levels": d({"1": "front", "2": "reduced"})}],
           "locations": [{"id": "amba", "vassal_map": d("Board 3"), "pattern": d(r"(?P<hex>\d{4})"),
                          "map": d("amba-alagi")}],
           "turn_track": []}
    (folder / "bindings.json").write_text(json.dumps(doc))
    return load_game_data("ascari", overlays=[folder])


def test_a_piece_on_a_vassal_map_named_like_a_data_map_stands_on_that_map(ascari):
    table = table_of(piece("a", "Arimondi", "1704", map_id="Agordat", level=2),
                     piece("r", "Rifle 1", "1501", map_id="Coatit"))
    units = read_units(table, ascari, make)
    assert units["a"] == Piece("it-arimondi", "reduced", "a", "Arimondi", "agordat", "1704", None, "italian")
    assert (units["r"].counter, units["r"].map, units["r"].hex, units["r"].level) == \
        ("dv-rifle-1-ib", "coatit", "1501", "front")


def test_a_location_binding_names_the_data_map_of_a_vassal_map(ascari):
    table = table_of(piece("a", "Arimondi", "2210", map_id="Board 3"))
    assert read_units(table, ascari, make)["a"].map == "amba-alagi"
    assert Bindings.of(ascari).place_of(table, table["a"]) == Place(hex="2210", map="amba-alagi")


def test_with_several_maps_an_unknown_vassal_map_names_no_data_map(ascari):
    table = table_of(piece("a", "Arimondi", "1704", map_id="Main Map"))
    found = read_units(table, ascari, make)["a"]
    assert (found.map, found.hex) == (None, "1704")          # a hex on some map: which one is open


def test_pieces_that_stand_for_no_counter_are_left_out(ascari):
    table = table_of(piece("m", "Turn marker", "1704", map_id="Agordat"))
    assert read_units(table, ascari, make) == {}


def test_templates_are_made_once_per_counter_and_level(ascari):
    MADE.clear()
    table = table_of(piece("a", "Arimondi", "1704", map_id="Agordat"),
                     piece("b", "Arimondi", "1501", map_id="Coatit"))
    read_units(table, ascari, make)
    read_units(table, ascari, make)
    assert MADE == [("it-arimondi", "front")]


def test_the_cache_keeps_a_piece_until_it_changes(ascari):
    table = table_of(piece("a", "Arimondi", "1704", map_id="Agordat"))
    cache = UnitCache()
    seen = []
    first = read_units(table, ascari, make, cache=cache, transform=lambda u: seen.append(u.id) or u)
    assert read_units(table, ascari, make, cache=cache)["a"] is first["a"] and seen == ["a"]
    from tests.checks.logbuild import move
    table.apply(replace(move("a", *at("1501"), *at("1704")), new_map="Agordat", old_map="Agordat"))
    again = read_units(table, ascari, make, cache=cache)["a"]
    assert again.hex == "1501" and again is not first["a"]


def test_a_copied_table_is_read_from_the_units_of_the_one_copied_as_a_fresh_read_gives_them(ascari):
    """The units of a copy are the last table's with only the pieces changed since the copy
    read again: the same units, in the same order, as reading the whole table; a piece coming
    onto the table or leaving it, or a table read at another revision, is read whole."""
    from vlog.vassal.commands import RemovePiece

    from tests.checks.logbuild import move

    def moved(pid, to, frm):
        return replace(move(pid, *at(to), *at(frm)), new_map="Agordat", old_map="Agordat")

    table = table_of(piece("a", "Arimondi", "1704", map_id="Agordat"),
                     piece("m", "Turn marker", "1704", map_id="Agordat"),
                     piece("r", "Rifle 1", "1501", map_id="Agordat"),
                     piece("b", "Arimondi", "1601", map_id="Agordat"))
    cache = UnitCache()
    read_units(table, ascari, make, cache=cache)
    for commands in ([moved("r", "1502", "1501")], [moved("a", "1705", "1704"), moved("m", "1502", "1704")],
                     [RemovePiece(id="b")], []):
        table = table.copy()
        table.apply_all(commands)
        fresh = read_units(table, ascari, make)
        read = read_units(table, ascari, make, cache=cache)
        assert read == fresh and list(read) == list(fresh)
    assert list(read) == ["a", "r"] and read["a"].hex == "1705" and read["r"].hex == "1502"
    table.apply(moved("r", "1503", "1502"))          # the same table changed after it was read
    assert read_units(table, ascari, make, cache=cache)["r"].hex == "1503"


def test_a_piece_is_parsed_once_per_type_and_state_and_its_place_read_at_each_point(ascari, monkeypatch):
    """A moved piece (a new table piece, its type and state unchanged) is not read again for its
    counter; a piece whose state changed (a flipped layer) is."""
    from tests.checks.logbuild import move

    table = table_of(piece("a", "Arimondi", "1704", map_id="Agordat"))
    binds = Bindings.of(ascari)
    first = read_unit(table, table["a"], ascari, make)
    table.apply(replace(move("a", *at("1501"), *at("1704")), new_map="Agordat", old_map="Agordat"))
    moved = table["a"]
    key = (moved.type, moved.state)
    assert binds.faces[key] == ("it-arimondi", "front", "Arimondi")
    counted = []
    real = Bindings.counter_of
    monkeypatch.setattr(Bindings, "counter_of", lambda self, p: counted.append(p.id) or real(self, p))
    again = read_unit(table, moved, ascari, make)
    assert (again.hex, again.map, again.level) == ("1501", "agordat", "front") and first.hex == "1704"
    assert counted == []
    flipped = table_of(piece("a", "Arimondi", "1501", map_id="Agordat", level=2))["a"]
    assert (flipped.type, flipped.state) != key
    assert read_unit(table, flipped, ascari, make).level == "reduced" and counted == ["a"]
    assert binds.places[("Agordat", "1501")] == Place(hex="1501", map="agordat")


def test_the_game_transform_applies_to_every_unit_read(ascari):
    table = table_of(piece("a", "Arimondi", "1704", map_id="Agordat"),
                     piece("r", "Rifle 1", "1501", map_id="Agordat"))
    units = read_units(table, ascari, make, transform=lambda u: None if u.side == "dervish" else
                       replace(u, side="allied"))
    assert list(units) == ["a"] and units["a"].side == "allied"


def test_factors_are_unknown_where_the_data_holds_null(ascari):
    levels = ascari.counter("it-arimondi")["levels"]
    assert factor(levels, "front", "fire_drm", "it-arimondi") == \
        Unknown("counters.json it-arimondi level front fire_drm")
    assert factor(levels, "front", "range", "it-arimondi") is None          # not printed at all
    assert factor(levels, "broken", "fire_drm", "it-arimondi") == \
        Unknown("counters.json it-arimondi level broken fire_drm")
    assert factor(None, "front", "fire_drm", "x") is None


def test_a_factor_may_stand_for_another():
    data = load_game_data("island-of-death")
    counter = next(c for c in data.counter_ids
                   if any("combat" in lvl and "attack" not in lvl for lvl in
                          (data.counter(c)["levels"][k] for k in data.counter(c)["levels"])))
    levels = data.counter(counter)["levels"]
    level = next(k for k in levels if "combat" in levels[k])
    assert factor(levels, level, "attack", counter) is None
    assert factor(levels, level, "attack", counter, also=("combat",)) == \
        factor(levels, level, "combat", counter)


def test_a_box_is_found_by_its_printed_name():
    data = load_game_data("sideshow")
    table = table_of(piece("k", "Rifle", "0101", map_id="Boxes"))
    assert Bindings.of(data).place_of(table, table["k"]) == Place(box="available")


def test_a_location_that_is_no_hex_and_no_box_is_nowhere(ascari):
    table = table_of(piece("a", "Arimondi", "1704", map_id="Charts"))
    found = read_unit(table, table["a"], ascari, make)
    assert (found.map, found.hex, found.box) == (None, None, None)
