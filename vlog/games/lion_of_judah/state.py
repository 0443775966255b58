"""The game state the Lion of Judah rules speak of, read from the generic table.

A VASSAL table knows pieces, points, layers and properties; the rules know units with a side, a
hex, a step level or face (HQ combat-support or movement side, ?-side or revealed), factors and
a movement class. The game's bindings (data/bindings.json) say how the module shows these:
piece names or gpids -> counters, layer levels -> step levels or faces, location names -> hexes
or boxes. Where the bindings are silent, a piece whose name is a counter's printed name stands
for that counter and a location named like a hex number ("1213") is that hex.

Factors the data lacks are `Unknown` naming the datum, so a check built on them says what
would settle it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping, Union

from vlog.engine.judge import Unknown
from vlog.errors import GameDataError

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData, Record
    from vlog.table import Table, TablePiece

__all__ = ["Unit", "GameState", "UnitCache", "Value", "SIDES", "build_state", "unit_from_counter",
           "DEFENSELESS_KINDS", "HEX_NAME"]

Value = Union[int, Fraction, Unknown]
SIDES = ("italian", "ethiopian", "allied")
HEX_NAME = re.compile(r"^\d{4}$")
DEFENSELESS_KINDS = frozenset({"hq", "truck", "rp"})
"""2.3.7, 11.6, 12.13: RPs, HQs and trucks (and true dummies) are defenseless."""

_KIND_OF_TYPE = {"hq": "hq", "truck": "truck", "air": "air", "leader": "leader", "dummy": "dummy",
                 "marker": "marker", "rp": "rp"}
"""Counter type -> unit kind; a "marker" (2.6: fuel, prestige ...) is kept apart from units."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit (or RP, truck, HQ, leader, air marker) as the rules see it.

    `name` is the name the module gives the piece (messages use it); `hex` is the hex number as
    printed ("1213") or None when the piece is in a box or off the map (`box` then names it).
    `level` is the step level or face key of the counter's levels ("4", "cs", "m", "hidden").
    """

    id: str
    name: str
    side: str | None
    hex: str | None
    kind: str = "combat"            # combat, hq, truck, air, leader, dummy, rp
    counter: str | None = None
    box: str | None = None
    level: str | None = None
    unit_class: str | None = None   # italian-regular, black-shirt, eritrean-colonial-regular ...
    unit_type: str | None = None    # infantry, armour, light-armour, cavalry, breakdown ...
    size: str | None = None         # division, brigade, regiment, battalion, company
    motorized: bool | Unknown = False
    steps: int | Unknown = 1
    attack: Value | None = None
    defense: Value | None = None
    movement: Value | None = None
    faction: str | None = None
    hidden: bool = False
    properties: Mapping[str, Any] = field(default_factory=dict)

    @property
    def defenseless(self) -> bool:
        """11.6: RPs, HQs, trucks (and a revealed true Dummy) may be overrun."""
        return self.kind in DEFENSELESS_KINDS or (self.kind == "dummy" and not self.hidden
                                                  and self.level == "dummy")

    @property
    def has_combat_factor(self) -> bool:
        """2.3.7: trucks and HQs show *, CS or M in the attack position and never attack."""
        return self.kind in ("combat", "leader", "dummy") and self.attack is not None

    @property
    def is_hq(self) -> bool:
        return self.kind == "hq"

    @property
    def hq_moving(self) -> bool:
        """10.2.1: an HQ on its M side (moved or moving this turn)."""
        return self.kind == "hq" and self.level == "m"

    @property
    def ethiopian(self) -> bool:
        return self.side == "ethiopian"

    @property
    def european(self) -> bool:
        """2.3.4: Italian regulars (Black Shirts, armour and light tanks included), German,
        British Commonwealth and Free French units; never colonials, guerrillas or leaders."""
        if self.kind == "leader":
            return False
        if self.side == "allied":
            return self.unit_class != "guerrilla"
        if self.side == "italian":
            return self.unit_class not in ("eritrean-colonial-regular", "italian-colonial-irregular")
        return False

    def moved_to(self, hex_: str | None) -> "Unit":
        return replace(self, hex=hex_)


@dataclass(slots=True)
class GameState:
    """Units by piece id plus the turn, phase and scenario when known."""

    units: dict[str, Unit]
    scenario: str | None = None     # "1935-36" or "1940-41"
    turn: int | None = None
    phase: str | None = None
    control: dict[str, str] = field(default_factory=dict)
    """Hex -> side controlling it, where the log's history tells (3.2)."""
    flags: dict[str, Any] = field(default_factory=dict)
    """Facts the history establishes: "french-somaliland-joined", events drawn ..."""
    events: dict[str, Unit] = field(default_factory=dict)
    """Event markers (counter type "event", 6.1) by piece id, kept apart from the units: where
    they stand tells the event pool, draws and held events (checks/events.py)."""

    def at(self, hex_: str) -> list[Unit]:
        """Every unit in a hex, in table order."""
        return [u for u in self.units.values() if u.hex == hex_]

    def occupied(self) -> dict[str, list[Unit]]:
        out: dict[str, list[Unit]] = {}
        for unit in self.units.values():
            if unit.hex is not None:
                out.setdefault(unit.hex, []).append(unit)
        return out

    def enemies_of(self, side: str | None) -> list[Unit]:
        return [u for u in self.units.values() if u.side is not None and side is not None
                and u.side != side and u.hex is not None and u.kind != "air"]

    def enemy_hexes(self, side: str | None, *, defenseless_too: bool = True) -> set[str]:
        """Hexes holding units of the other side (air markers never count, 10.1.2)."""
        return {u.hex for u in self.enemies_of(side)  # type: ignore[misc]
                if defenseless_too or not u.defenseless}


# ---------------------------------------------------------------------------------------------
# counters -> units


def _v(datum: Any) -> Any:
    return getattr(datum, "value", None) if datum is not None else None


def _factor(levels: "Record | None", level: str | None, key: str, counter_id: str) -> Value | None:
    """A factor of a counter at a level: the number, Unknown when null, None when not printed."""
    if levels is None or level is None or level not in levels:
        return Unknown(f"counters.json {counter_id} level {level} {key}") if levels else None
    record = levels[level]
    if key not in record:
        if key in ("attack", "defense") and "combat" in record:
            key = "combat"
        else:
            return None
    value = _v(record[key])
    if value is None:
        return Unknown(f"counters.json {counter_id} level {level} {key}")
    return value


def unit_from_counter(data: "GameData", counter_id: str, *, id: str, name: str, hex_: str | None,
                      level: str | None = None, box: str | None = None) -> Unit:
    """A unit standing for counter `counter_id` at a level (the counter's first level if None)."""
    record = data.counter(counter_id)
    levels = record["levels"] if "levels" in record else None
    if level is None and levels:
        level = next(iter(levels))
    unit_type = _v(record["type"]) if "type" in record else None
    kind = _KIND_OF_TYPE.get(unit_type or "", "combat")
    steps: int | Unknown
    if level is not None and level.isdigit():
        steps = int(level)
    elif kind in ("hq", "air", "leader", "truck", "marker"):
        steps = 0 if kind in ("hq", "air", "marker") else 1
    else:
        printed = _v(record["steps"]) if "steps" in record else None
        steps = printed if isinstance(printed, int) else Unknown(f"counters.json {counter_id} steps",
                                                                 at_least=1, at_most=4)
    mclass = _v(record["movement_class"]) if "movement_class" in record else None
    motorized: bool | Unknown = (mclass == "motorized") if mclass else \
        Unknown(f"counters.json {counter_id} movement_class")
    props = record["properties"] if "properties" in record else {}
    faction = _v(props["faction"]) if "faction" in props else None
    return Unit(
        id=id, name=name, side=_v(record["side"]), hex=hex_, kind=kind, counter=counter_id, box=box,
        level=level, unit_class=_v(record["class"]) if "class" in record else None,
        unit_type=unit_type, size=_v(record["size"]) if "size" in record else None,
        motorized=motorized, steps=steps,
        attack=None if kind in ("hq", "truck", "air") else _factor(levels, level, "attack", counter_id),
        defense=None if kind in ("hq", "air") else _factor(levels, level, "defense", counter_id),
        movement=_factor(levels, level, "movement", counter_id),
        faction=faction.lower() if isinstance(faction, str) else None,
        hidden=level == "hidden",
        properties={k: _v(props[k]) for k in props} if props else {})


# ---------------------------------------------------------------------------------------------
# table -> state


@dataclass(frozen=True, slots=True)
class _Bindings:
    by_gpid: dict[str, str]
    by_name: dict[str, str]
    layers: dict[str, list[tuple[frozenset[str] | None, dict[str, str]]]]
    """layer name -> [(counter ids or classes it applies to (None: all), {level: key})]"""
    locations: list[tuple[re.Pattern[str], str | None, str | None]]  # pattern, hex, box
    counters: dict[tuple[str, str], str | None]
    """(gpid, piece name) -> counter id, as found (a cache: pieces repeat at every step)."""
    templates: dict[tuple[str, str | None], Unit]
    """(counter, level) -> the unit it makes, before id, name and place are set."""
    box_names: dict[str, str] = field(default_factory=dict)
    """A box's name in map.json (the zone name modules vlog writes give it) -> the box id,
    for locations the bindings do not name."""


_BINDINGS_CACHE: dict[int, tuple["GameData", _Bindings]] = {}


def _bindings(data: "GameData") -> _Bindings:
    """The bindings of a data set, read once (the data object is kept with them, so its id
    cannot be reused while cached)."""
    cached = _BINDINGS_CACHE.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    if len(_BINDINGS_CACHE) > 64:
        _BINDINGS_CACHE.clear()
    binds = _read_bindings(data)
    _BINDINGS_CACHE[id(data)] = (data, binds)
    return binds


def _read_bindings(data: "GameData") -> _Bindings:
    b = data.bindings
    by_gpid: dict[str, str] = {}
    by_name: dict[str, str] = {}
    for piece in b["pieces"]:
        counter = _v(piece["counter"])
        if counter is None:
            continue
        if "gpid" in piece and _v(piece["gpid"]):
            by_gpid[_v(piece["gpid"])] = counter
        if "piece_name" in piece and _v(piece["piece_name"]):
            by_name[_v(piece["piece_name"])] = counter
    layers: dict[str, list[tuple[frozenset[str] | None, dict[str, str]]]] = {}
    for layer in b["layers"]:
        name, levels = _v(layer["layer_name"]), _v(layer["levels"])
        applies = _v(layer["applies_to"]) if "applies_to" in layer else None
        if name and levels:
            layers.setdefault(name, []).append((frozenset(applies) if applies else None, dict(levels)))
    locations = []
    for loc in b["locations"]:
        pattern = _v(loc["pattern"])
        if not pattern:
            continue
        try:
            compiled = re.compile(pattern)
        except re.error:
            continue
        locations.append((compiled, _v(loc["hex"]) if "hex" in loc else None,
                          _v(loc["box"]) if "box" in loc else None))
    box_names: dict[str, str] = {}
    for raw_map in data.documents["map"]["maps"]:
        for box in raw_map.get("boxes") or ():
            named = box.get("name")
            shown = named.get("value") if isinstance(named, dict) else None
            if isinstance(shown, str) and isinstance(box.get("id"), str):
                box_names.setdefault(shown, box["id"])
    return _Bindings(by_gpid, by_name, layers, locations, {}, {}, box_names)


COUNTER_ID_PROPERTY = "CounterId"
"""A marker property naming the counter record directly (modules vlog writes carry it)."""


def _counter_of(piece: "TablePiece", data: "GameData", binds: _Bindings) -> str | None:
    marked = piece.properties.get(COUNTER_ID_PROPERTY)
    if marked and marked in data.counter_ids:
        return marked
    gpid = piece.piece.gpid
    name = piece.name
    key = (gpid or "", name)
    if key in binds.counters:
        return binds.counters[key]
    if gpid and gpid in binds.by_gpid:
        found: str | None = binds.by_gpid[gpid]
    elif name in binds.by_name:
        found = binds.by_name[name]
    else:
        named = data.counters_named(name) if name else ()
        found = named[0] if len(named) == 1 else None
    if len(binds.counters) < 100_000:
        binds.counters[key] = found
    return found


def _where(table: "Table", piece: "TablePiece", binds: _Bindings) -> tuple[str | None, str | None]:
    """(hex, box) of a piece from its location name."""
    name = table.location_name(piece)
    if name is None:
        return None, None
    for pattern, hex_, box in binds.locations:
        match = pattern.fullmatch(name)
        if match:
            if hex_ is not None:
                try:
                    found = match.expand(hex_) if "\\" in hex_ else hex_
                except (re.error, IndexError):
                    return None, None
                return (found, None) if _is_hex(found) else (None, None)
            if box is not None:
                return None, box
            groups = match.groupdict()
            if "hex" in groups and groups["hex"] is not None:
                return (groups["hex"], None) if _is_hex(groups["hex"]) else (None, None)
    if _is_hex(name):
        return name, None
    return None, binds.box_names.get(name)


def _is_hex(name: str) -> bool:
    """A printed hex number on the Lion of Judah grid ('1213'); anything else is not a hex."""
    if not HEX_NAME.match(name):
        return False
    from vlog.hexes import LAYOUTS

    layout = LAYOUTS["lion-of-judah"]
    try:
        return layout.on_map(layout.parse(name))
    except GameDataError:
        return False


def _level_of(piece: "TablePiece", binds: _Bindings, counter: str, unit_class: str | None,
              levels_in_order: tuple[str, ...] = ()) -> str | None:
    for layer in piece.layers:
        for applies, levels in binds.layers.get(layer.name, ()):
            if applies is not None and counter not in applies and unit_class not in applies:
                continue
            key = levels.get(str(layer.level))
            if key is not None:
                return key
    if piece.properties.get(COUNTER_ID_PROPERTY) == counter and levels_in_order:
        # modules vlog writes: a "Step" or "Face" Layer whose level N is the counter's N-th level
        for layer in piece.layers:
            if layer.name in ("Step", "Face") and 1 <= layer.level <= len(levels_in_order):
                return levels_in_order[layer.level - 1]
    return None


class UnitCache:
    """Units already read, by table piece and point: a replay reads the same unchanged pieces
    at every step (table pieces are immutable and replaced when they change)."""

    MAX = 200_000

    def __init__(self) -> None:
        self._units: dict[tuple[int, Any], tuple["TablePiece", str | None, Unit | None]] = {}

    def get(self, piece: "TablePiece", location: str | None) -> tuple[bool, Unit | None]:
        hit = self._units.get((id(piece), piece.point))
        if hit is not None and hit[0] is piece and hit[1] == location:
            return True, hit[2]
        return False, None

    def put(self, piece: "TablePiece", location: str | None, unit: Unit | None) -> None:
        if len(self._units) >= self.MAX:
            self._units.clear()
        self._units[(id(piece), piece.point)] = (piece, location, unit)


EVENT_TYPE = "event"
"""Counter type of the event markers (6.1): in `GameState.events`, never among the units."""


def build_state(table: "Table", data: "GameData", *, scenario: str | None = None,
                turn: int | None = None, phase: str | None = None,
                control: Mapping[str, str] | None = None, cache: UnitCache | None = None) -> GameState:
    """The units on the table, by the game's bindings; pieces that stand for no counter are
    left out (markers, the map's decorations). `cache` keeps units between calls."""
    binds = _bindings(data)
    units: dict[str, Unit] = {}
    events: dict[str, Unit] = {}
    for piece in table.game_pieces():
        location = table.location_name(piece) if cache is not None else None
        if cache is not None:
            found, unit = cache.get(piece, location)
            if found:
                if unit is not None:
                    (events if unit.unit_type == EVENT_TYPE else units)[piece.id] = unit
                continue
        unit = _unit_of(table, piece, data, binds)
        if unit is not None and scenario == "1940-41" and unit.side == "ethiopian":
            unit = _under_allied_control(unit)
        if cache is not None:
            cache.put(piece, location, unit)
        if unit is not None:
            (events if unit.unit_type == EVENT_TYPE else units)[piece.id] = unit
    return GameState(units, scenario, turn, phase, dict(control or {}), events=events)


def _under_allied_control(unit: Unit) -> Unit:
    """1940-41 (PB 14.6.4, 14.6.4.4): Ethiopian levies are guerrillas and the Negus an Allied
    unit, all under Allied control."""
    if unit.kind == "combat":
        return replace(unit, side="allied", unit_class="guerrilla")
    return replace(unit, side="allied")


def _unit_of(table: "Table", piece: "TablePiece", data: "GameData", binds: _Bindings) -> Unit | None:
    counter = _counter_of(piece, data, binds)
    if counter is None:
        return None
    hex_, box = _where(table, piece, binds)
    first = binds.templates.get((counter, None))
    if first is None:
        first = binds.templates[(counter, None)] = unit_from_counter(data, counter, id="", name="", hex_=None)
    record = data.counter(counter)
    order = tuple(record["levels"]) if "levels" in record else ()
    level = _level_of(piece, binds, counter, first.unit_class, order)
    template = binds.templates.get((counter, level))
    if template is None:
        template = binds.templates[(counter, level)] = unit_from_counter(
            data, counter, id="", name="", hex_=None, level=level)
    return replace(template, id=piece.id, name=piece.name or counter, hex=hex_, box=box)
