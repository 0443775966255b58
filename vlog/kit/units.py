"""The table read into a game's units through its bindings (data/bindings.json).

A VASSAL table knows pieces, points, layers and properties; a game's rules know units with a
counter, a step level or face, and a place (a hex on one of the game's maps, or a box). The
bindings say how the module shows these: piece names or gpids -> counters, layer levels -> the
counter's level keys, location names (optionally on one VASSAL map) -> a hex of a data map or a
box; a board the module draws without a grid names its points by the calibration the bindings
record for it (vlog.calibration). Where the bindings are silent, a piece whose name is a
counter's printed name stands for that counter, a location named like a hex of the map ("1213")
is that hex and a location named like a box of map.json is that box.

Each game keeps its own unit class (the facts its rules speak of) and supplies the function that
makes one from a counter at a level; the kit finds the counter, level and place, keeps one unit
per (counter, level) as a template and a per-piece cache across the steps of a replay. Factors
the data lacks are `Unknown` naming the datum (`factor`), so a check built on them says what
would settle it.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, TypeVar, Union

from vlog.calibration import PROPOSED_NOTE, Calibration
from vlog.engine.judge import Unknown
from vlog.errors import GameDataError
from vlog.vassal.grids import find_board

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData, Record
    from vlog.table import Table, TablePiece

__all__ = ["Value", "COUNTER_ID_PROPERTY", "Bindings", "Place", "UnitCache", "value", "factor",
           "read_unit", "read_units"]

Value = Union[int, Fraction, Unknown]
"""A printed factor: a number, or Unknown naming the datum that would give it."""

COUNTER_ID_PROPERTY = "CounterId"
"""A marker property naming the counter record directly (modules vlog writes carry it)."""

UNCONFIRMED_NOTE = "matched by position only"
"""How a drafted layer mapping taken from the order of levels begins its note: to confirm."""
WRITTEN_LEVEL_LAYERS = ("Step", "Face")
"""Layers of the modules vlog writes whose level N is the counter's N-th level."""

U = TypeVar("U")
MakeUnit = Callable[["GameData", str, "str | None"], U]
"""A game's unit transform: (data, counter id, level key or None for the counter's first) -> its
unit, with `id`, `name`, `hex` and `box` (and `map` if it has one) set later per piece."""


def value(datum: Any) -> Any:
    """The value of a Datum (None for a missing or null one)."""
    return getattr(datum, "value", None) if datum is not None else None


def factor(levels: "Record | None", level: str | None, key: str, counter_id: str, *,
           also: Iterable[str] = ()) -> Value | None:
    """A counter's factor `key` at a level: the number, Unknown when the data holds null (or
    the level is not listed), None when the counter prints no such factor. `also` names keys
    that stand for it when it is absent (a single "combat" factor for attack and defense)."""
    if levels is None or level is None or level not in levels:
        return Unknown(f"counters.json {counter_id} level {level} {key}") if levels else None
    record = levels[level]
    if key not in record:
        key = next((k for k in also if k in record), "")
        if not key:
            return None
    found = value(record[key])
    if found is None:
        return Unknown(f"counters.json {counter_id} level {level} {key}")
    return found


@dataclass(frozen=True, slots=True)
class Place:
    """Where a piece stands as the rules name it: a hex of a data map, or a box, or neither."""

    hex: str | None = None
    box: str | None = None
    map: str | None = None


NOWHERE = Place()


@dataclass(frozen=True, slots=True)
class _Location:
    pattern: re.Pattern[str]
    vassal_map: str | None
    map: str | None
    hex: str | None
    box: str | None


@dataclass(frozen=True, slots=True)
class _Calibrated:
    vassal_map: str
    board: str | None
    map: str | None
    calibration: Calibration
    proposed: str | None = None
    """The record's id while its grid is as `vlog bind` proposed it, not yet confirmed (review)."""


@dataclass(slots=True)
class Bindings:
    """A data set's bindings, read once (`Bindings.of`), with what the pieces were found to be."""

    data: "GameData"
    by_gpid: dict[str, str]
    by_name: dict[str, str]
    layers: dict[str, list[tuple[frozenset[str] | None, dict[str, str], bool]]]
    """layer name -> [(counter ids or classes it applies to (None: all), {level: key}, confirmed)];
    not confirmed when `vlog bind` matched the levels by position only (the binding's measure
    says so; the rules read them all the same)."""
    locations: list[_Location]
    box_names: dict[str, str]
    """A box's name in map.json (the zone name modules vlog writes give it) -> the box id."""
    map_names: dict[str, str]
    """A data map's id or printed name, casefolded -> its id (a VASSAL map of that name shows it)."""
    no_counter: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    """(gpids, piece names) the bindings say stand for no counter (markers, decorations)."""
    calibrations: tuple[_Calibrated, ...] = ()
    """Hex grids for boards the module draws without one (bindings `calibrations`)."""
    counters: dict[tuple[str, str], str | None] = field(default_factory=dict)
    classes: dict[str, tuple[Any, tuple[str, ...]]] = field(default_factory=dict)
    templates: dict[tuple[Any, str, str | None], Any] = field(default_factory=dict)
    hexes: dict[tuple[str | None, str], bool] = field(default_factory=dict)
    boards_laid: dict[tuple[str, Any], tuple[Any, list[Any]]] = field(default_factory=dict)
    """(VASSAL map, board layout) -> (module, its placed boards): where calibrations apply."""
    faces: dict[tuple[str, str], tuple[str | None, str | None, str]] = field(default_factory=dict)
    """(piece type, piece state) -> (counter, level, piece name): what a piece stands for follows
    from its type and state alone, and a move changes neither (only the piece's point)."""
    places: dict[tuple[str | None, str], Place] = field(default_factory=dict)
    """(VASSAL map, location name) -> the place the bindings name it (no calibration applies)."""

    MAX_CACHED = 100_000

    @classmethod
    def of(cls, data: "GameData") -> "Bindings":
        """The bindings of a data set, read once (the data object is kept with them, so its id
        cannot be reused while cached)."""
        cached = _CACHE.get(id(data))
        if cached is not None and cached.data is data:
            return cached
        if len(_CACHE) > 64:
            _CACHE.clear()
        made = _CACHE[id(data)] = cls.read(data)
        return made

    @classmethod
    def read(cls, data: "GameData") -> "Bindings":
        b = data.bindings
        by_gpid: dict[str, str] = {}
        by_name: dict[str, str] = {}
        markers: tuple[set[str], set[str]] = (set(), set())
        for piece in b["pieces"]:
            counter = value(piece["counter"])
            for n, (key, bound) in enumerate((("gpid", by_gpid), ("piece_name", by_name))):
                found = value(piece[key]) if key in piece else None
                if not found:
                    continue
                if counter is None:
                    markers[n].add(found)
                else:
                    bound[found] = counter
        layers: dict[str, list[tuple[frozenset[str] | None, dict[str, str], bool]]] = {}
        for layer in b["layers"]:
            name, levels = value(layer["layer_name"]), value(layer["levels"])
            applies = value(layer["applies_to"]) if "applies_to" in layer else None
            if name and levels:
                confirmed = not str(layer["levels"].note or "").startswith(UNCONFIRMED_NOTE)
                layers.setdefault(name, []).append((frozenset(applies) if applies else None, dict(levels), confirmed))
        locations = []
        for loc in b["locations"]:
            pattern = value(loc["pattern"])
            if not pattern:
                continue
            try:
                compiled = re.compile(pattern)
            except re.error:
                continue
            locations.append(_Location(compiled, *(value(loc[k]) if k in loc else None
                                                   for k in ("vassal_map", "map", "hex", "box"))))
        box_names: dict[str, str] = {}
        map_names: dict[str, str] = {}
        for map_id in data.map_ids:
            board = data.map(map_id)
            map_names.setdefault(map_id.casefold(), map_id)
            shown = value(board["name"]) if "name" in board else None
            if isinstance(shown, str):
                map_names.setdefault(shown.casefold(), map_id)
            for box in board["boxes"] if "boxes" in board else ():
                shown = value(box["name"]) if "name" in box else None
                if isinstance(shown, str) and box.id is not None:
                    box_names.setdefault(shown, box.id)
        calibrations = []
        for rec in b["calibrations"] if "calibrations" in b else ():
            grid, vassal_map = value(rec["grid"]), value(rec["vassal_map"])
            if isinstance(grid, dict) and isinstance(vassal_map, str):
                proposed = str(rec["grid"].note or "").startswith(PROPOSED_NOTE)
                calibrations.append(_Calibrated(vassal_map, *(value(rec[k]) if k in rec else None
                                                              for k in ("board", "map")), Calibration.from_json(grid),
                                                rec.id if proposed else None))
        return cls(data, by_gpid, by_name, layers, locations, box_names, map_names,
                   (frozenset(markers[0]), frozenset(markers[1])), tuple(calibrations))

    # -- counter and level ---------------------------------------------------------------------
    def counter_of(self, piece: "TablePiece") -> str | None:
        """The counter a piece stands for: its CounterId, its gpid or name in the bindings, or
        the one counter printed with its name; None for markers and decorations."""
        marked = piece.properties.get(COUNTER_ID_PROPERTY)
        if marked and marked in self.data.counter_ids:
            return marked
        gpid = piece.piece.gpid
        name = piece.name
        key = (gpid or "", name)
        if key in self.counters:
            return self.counters[key]
        if gpid and gpid in self.by_gpid:
            found: str | None = self.by_gpid[gpid]
        elif name in self.by_name:
            found = self.by_name[name]
        else:
            named = self.data.counters_named(name) if name else ()
            found = named[0] if len(named) == 1 else None
        if len(self.counters) < self.MAX_CACHED:
            self.counters[key] = found
        return found

    def _class_and_levels(self, counter: str) -> tuple[Any, tuple[str, ...]]:
        known = self.classes.get(counter)
        if known is None:
            record = self.data.counter(counter)
            known = self.classes[counter] = (value(record["class"]) if "class" in record else None,
                                             tuple(record["levels"]) if "levels" in record else ())
        return known

    def face_of(self, piece: "TablePiece") -> tuple[str | None, str | None, str]:
        """(`counter_of`, `level_of`, the piece's name) of a piece, read once per piece type and
        state (the piece is parsed only then)."""
        key = (piece.type, piece.state)
        found = self.faces.get(key)
        if found is None:
            counter = self.counter_of(piece)
            found = (counter, self.level_of(piece, counter) if counter is not None else None, piece.name)
            if len(self.faces) >= self.MAX_CACHED:
                self.faces.clear()
            self.faces[key] = found
        return found

    def level_of(self, piece: "TablePiece", counter: str) -> str | None:
        """The counter level (step level or face key) the piece's layers show; None when no
        bound layer tells (the counter's first level is then taken)."""
        unit_class, order = self._class_and_levels(counter)
        for layer in piece.layers:
            for applies, levels, _ in self.layers.get(layer.name, ()):
                if applies is not None and counter not in applies and unit_class not in applies:
                    continue
                key = levels.get(str(layer.level))
                if key is not None:
                    return key
        if piece.properties.get(COUNTER_ID_PROPERTY) == counter and order:
            for layer in piece.layers:
                if layer.name in WRITTEN_LEVEL_LAYERS and 1 <= layer.level <= len(order):
                    return order[layer.level - 1]
        return None

    # -- place ---------------------------------------------------------------------------------
    def place_of(self, table: "Table", piece: "TablePiece") -> Place:
        """The hex (and data map) or box a piece stands in, from its location name (or the
        calibration of a board that has no grid)."""
        if self.calibrations:
            calibrated = self.calibrated_place(table, piece.point)
            if calibrated is not None:
                return calibrated
        name = table.location_name(piece)
        if name is None:
            return NOWHERE
        key = (piece.point[0], name)
        found = self.places.get(key)
        if found is None:
            found = self._named_place(*key)
            if len(self.places) < self.MAX_CACHED:
                self.places[key] = found
        return found

    def _named_place(self, vassal_map: str | None, name: str) -> Place:
        for loc in self.locations:
            if loc.vassal_map is not None and loc.vassal_map != vassal_map:
                continue
            match = loc.pattern.fullmatch(name)
            if not match:
                continue
            map_id = loc.map or self.map_shown(vassal_map)
            if loc.hex is not None:
                try:
                    found = match.expand(loc.hex) if "\\" in loc.hex else loc.hex
                except (re.error, IndexError):
                    return NOWHERE
                return self._hex_place(found, map_id)
            if loc.box is not None:
                return Place(box=loc.box)
            groups = match.groupdict()
            if groups.get("hex") is not None:
                return self._hex_place(groups["hex"], map_id)
        map_id = self.map_shown(vassal_map)
        if self.is_hex(name, map_id):
            return Place(hex=name, map=map_id)
        box = self.box_names.get(name)
        return Place(box=box) if box is not None else NOWHERE

    def calibrated_place(self, table: "Table", point: tuple[str | None, int, int]) -> Place | None:
        """The hex a calibration names for a point of a board without a grid (NOWHERE when it
        names no hex of the map); None when no calibration covers the point."""
        found = self._calibration_at(table, point)
        if found is None:
            return None
        cal, name = found
        return self._hex_place(name, cal.map or self.map_shown(cal.vassal_map)) if name is not None else NOWHERE

    def calibrated_name(self, table: "Table", point: tuple[str | None, int, int]
                        ) -> tuple[bool, str | None, str | None]:
        """(covered, the hex id the calibration gives the point, the calibration's id when it is
        only proposed): covered False when no calibration applies there (the module's own
        location name stands)."""
        found = self._calibration_at(table, point) if self.calibrations else None
        return (False, None, None) if found is None else (True, found[1], found[0].proposed)

    def _calibration_at(self, table: "Table", point: tuple[str | None, int, int]
                        ) -> tuple[_Calibrated, str | None] | None:
        vassal_map, x, y = point
        if vassal_map is None or table.module is None or all(c.vassal_map != vassal_map for c in self.calibrations):
            return None
        layout = table.layout(vassal_map)
        key = (vassal_map, tuple(layout) if layout is not None else None)
        known = self.boards_laid.get(key)
        if known is None or known[0] is not table.module:
            try:
                placed = table.module.find_map(vassal_map).placed_boards(layout)  # type: ignore[attr-defined]
            except Exception:  # noqa: BLE001 - a map the module cannot lay out is named as VASSAL names it
                placed = []
            known = self.boards_laid[key] = (table.module, placed)
        board = find_board(known[1], x, y)
        if board is None or board.grid is not None:
            return None   # the module's own grid names the point
        for cal in self.calibrations:
            if cal.vassal_map == vassal_map and cal.board in (None, board.name):
                px, py = board.local(x, y) if cal.board is not None else (x, y)
                return cal, cal.calibration.name(px, py)
        return None

    def map_shown(self, vassal_map: str | None) -> str | None:
        """The data map a VASSAL map shows: the one named like it, or the only one."""
        if vassal_map is not None:
            named = self.map_names.get(vassal_map.casefold())
            if named is not None:
                return named
        ids = self.data.map_ids
        return ids[0] if len(ids) == 1 else None

    def _hex_place(self, name: str, map_id: str | None) -> Place:
        return Place(hex=name, map=map_id) if self.is_hex(name, map_id) else NOWHERE

    def is_hex(self, name: str, map_id: str | None) -> bool:
        """Whether `name` is a hex of the map (of any map when `map_id` is None)."""
        key = (map_id, name)
        known = self.hexes.get(key)
        if known is None:
            maps = (map_id,) if map_id is not None else self.data.map_ids
            known = any(_on_layout(self.data, m, name) for m in maps)
            if len(self.hexes) < self.MAX_CACHED:
                self.hexes[key] = known
        return known

    # -- units ---------------------------------------------------------------------------------
    def template(self, make: MakeUnit[U], counter: str, level: str | None) -> U:
        """The unit `make` gives for a counter at a level, made once per data set."""
        key = (make, counter, level)
        found = self.templates.get(key)
        if found is None:
            found = self.templates[key] = make(self.data, counter, level)
        return found


_CACHE: dict[int, Bindings] = {}


def _on_layout(data: "GameData", map_id: str, name: str) -> bool:
    try:
        data.layout(map_id).parse(name)
    except GameDataError:
        return False
    return True


class UnitCache:
    """Units already read, by table piece: a replay reads the same unchanged pieces at every
    step. Table pieces are immutable and replaced when they change (a move too), and a table
    names a point the same way all through a replay (`Table.location_name` keeps one name per
    point), so the same piece object stands for the same unit; the entry holds the piece, so
    its id is not reused while the entry lives."""

    MAX = 200_000

    def __init__(self) -> None:
        self._units: dict[int, tuple["TablePiece", Any]] = {}
        self.last: tuple[int, tuple[object, ...], dict[str, Any]] | None = None
        """The last table read whole: its revision (`Table.revision`), what it was read with,
        its units. The next step's table is a copy of it with a few pieces changed
        (`Table.changed_since_copy`), so only those are read again."""

    def get(self, piece: "TablePiece") -> tuple[bool, Any]:
        hit = self._units.get(id(piece))
        if hit is not None and hit[0] is piece:
            return True, hit[1]
        return False, None

    def put(self, piece: "TablePiece", unit: Any) -> None:
        if len(self._units) >= self.MAX:
            self._units.clear()
        self._units[id(piece)] = (piece, unit)


_PLACED_FIELDS: dict[type, bool] = {}


def read_unit(table: "Table", piece: "TablePiece", data: "GameData", make: MakeUnit[U]) -> U | None:
    """The unit a table piece stands for (None when it stands for no counter): `make`'s unit for
    its counter and level, with the piece's id, name (the counter id when unnamed) and place."""
    binds = Bindings.of(data)
    counter, level, name = binds.face_of(piece)
    if counter is None:
        return None
    template = binds.template(make, counter, level)
    place = binds.place_of(table, piece)
    kind = type(template)
    with_map = _PLACED_FIELDS.get(kind)
    if with_map is None:
        with_map = _PLACED_FIELDS[kind] = any(f.name == "map" for f in dataclasses.fields(kind))  # type: ignore[arg-type]
    changes: dict[str, Any] = {"id": piece.id, "name": name or counter, "hex": place.hex, "box": place.box}
    if with_map:
        changes["map"] = place.map
    return dataclasses.replace(template, **changes)  # type: ignore[type-var]


def read_units(table: "Table", data: "GameData", make: MakeUnit[U], *,
               transform: Callable[[U], U | None] | None = None,
               cache: UnitCache | None = None) -> dict[str, U]:
    """Every unit on the table by piece id, in table order; pieces that stand for no counter are
    left out. `transform` (the game's: a scenario's change of side ...) is applied to each unit
    read; `cache` keeps the result per piece between calls."""
    if cache is None:
        return _read_all(table, table.game_pieces(), data, make, transform, None)
    how = (id(data), make, transform)
    units = _read_changes(table, data, make, transform, cache, how)
    if units is None:
        units = _read_all(table, table.game_pieces(), data, make, transform, cache)
    cache.last = (table.revision, how, dict(units))
    return units


def _read_all(table: "Table", pieces: Iterable["TablePiece"], data: "GameData", make: MakeUnit[U],
              transform: Callable[[U], U | None] | None, cache: UnitCache | None) -> dict[str, U]:
    units: dict[str, U] = {}
    for piece in pieces:
        unit = _unit_of(table, piece, data, make, transform, cache)
        if unit is not None:
            units[piece.id] = unit
    return units


def _unit_of(table: "Table", piece: "TablePiece", data: "GameData", make: MakeUnit[U],
             transform: Callable[[U], U | None] | None, cache: UnitCache | None) -> U | None:
    if cache is not None:
        found, unit = cache.get(piece)
        if found:
            return unit
    unit = read_unit(table, piece, data, make)
    if unit is not None and transform is not None:
        unit = transform(unit)
    if cache is not None:
        cache.put(piece, unit)
    return unit


def _read_changes(table: "Table", data: "GameData", make: MakeUnit[U],
                  transform: Callable[[U], U | None] | None, cache: UnitCache,
                  how: tuple[object, ...]) -> dict[str, U] | None:
    """The units of a table copied from the one the cache read last, reading only the pieces
    changed since the copy; None when they cannot be (another table, other readers, or a unit
    that came onto the table or left it, which changes the order `read_units` keeps)."""
    last, changed = cache.last, table.changed_since_copy()
    if last is None or changed is None or changed[0] != last[0] or last[1] != how or changed[2]:
        return None
    units = dict(last[2])
    for piece_id in changed[1]:
        piece = table.pieces.get(piece_id)
        unit = None if piece is None or piece.is_container else _unit_of(table, piece, data, make, transform, cache)
        if unit is None:
            units.pop(piece_id, None)
        elif piece_id in units:
            units[piece_id] = unit
        else:                   # a piece that stood for no unit now does: its place in the order
            return None
    return units

