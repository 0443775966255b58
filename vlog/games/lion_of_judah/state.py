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

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Mapping

from vlog.engine.judge import Unknown
from vlog.kit.units import UnitCache, Value, factor, read_units
from vlog.kit.units import value as _v

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.table import Table, TablePiece

__all__ = ["Unit", "GameState", "UnitCache", "StateCache", "Value", "SIDES", "build_state", "unit_from_counter",
           "DEFENSELESS_KINDS"]

SIDES = ("italian", "ethiopian", "allied")
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


def changed_ids(before: GameState, after: GameState) -> list[str]:
    """The ids of `before`'s units that `after` holds as another unit or not at all, in
    `before`'s order. A unit read from an unchanged table piece is the same object from step to
    step (vlog.kit.units' cache), so what looks only at what a step changed need not walk the
    rest; without the cache every unit counts as changed. Several ledgers ask it of the same
    two positions in a step: the last answer is kept (positions' units are never changed)."""
    if before.units is after.units:             # a step that changed no unit (`build_state`)
        return []
    last = _LAST_CHANGED
    if last and last[0] is before.units and last[1] is after.units:
        return list(last[2])
    now = after.units
    found = [uid for uid, unit in before.units.items() if now.get(uid) is not unit]
    _LAST_CHANGED[:] = [before.units, after.units, tuple(found)]
    return found


_LAST_CHANGED: list = []
"""[before's units, after's units, the ids `changed_ids` found]: the last question and answer."""


# ---------------------------------------------------------------------------------------------
# counters -> units


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
        attack=None if kind in ("hq", "truck", "air") else factor(levels, level, "attack", counter_id, also=_COMBAT),
        defense=None if kind in ("hq", "air") else factor(levels, level, "defense", counter_id, also=_COMBAT),
        movement=factor(levels, level, "movement", counter_id),
        faction=faction.lower() if isinstance(faction, str) else None,
        hidden=level == "hidden",
        properties={k: _v(props[k]) for k in props} if props else {})


_COMBAT = ("combat",)
"""A counter printing one combat factor uses it for attack and defense."""


def _template(data: "GameData", counter_id: str, level: str | None) -> Unit:
    """The game's unit transform for the kit's reader: the unit a counter makes at a level."""
    return unit_from_counter(data, counter_id, id="", name="", hex_=None, level=level)


# ---------------------------------------------------------------------------------------------
# table -> state


EVENT_TYPE = "event"
"""Counter type of the event markers (6.1): in `GameState.events`, never among the units."""


def build_state(table: "Table", data: "GameData", *, scenario: str | None = None,
                turn: int | None = None, phase: str | None = None,
                control: Mapping[str, str] | None = None, cache: UnitCache | None = None) -> GameState:
    """The units on the table, by the game's bindings (vlog.kit.units); pieces that stand for
    no counter are left out (markers, the map's decorations). `cache` keeps units between calls."""
    read = read_units(table, data, _template, cache=cache,
                      transform=_under_allied_control if scenario == "1940-41" else None)
    units, events = _split(table, read, cache if isinstance(cache, StateCache) else None)
    return GameState(units, scenario, turn, phase, dict(control or {}), events=events)


class StateCache(UnitCache):
    """The kit's unit cache, with the last table's units and event markers as `build_state`
    split them: a table copied from that one whose changed pieces read as the same units gets
    the same two dicts, so a step that changed no unit shows as the same units before and
    after (`changed_ids` and the ledgers then skip it at once)."""

    def __init__(self) -> None:
        super().__init__()
        self.split: tuple[int, dict[str, Unit], dict[str, Unit], dict[str, Unit]] | None = None
        """(the table's revision, what `read_units` read from it, its units, its event markers)."""
        self._by_content: dict[tuple, Any] = {}

    def get(self, piece: "TablePiece") -> tuple[bool, Any]:
        """The unit already read from this piece, or from a piece of the same id, traits, state
        and point (a unit moved back, an HQ flipped back): the kit's reader reads a piece from
        these alone, naming a point the same way all through a replay (vlog.kit.units)."""
        found, unit = super().get(piece)
        if found:
            return found, unit
        key = _content(piece)
        if key not in self._by_content:
            return False, None
        unit = self._by_content[key]
        super().put(piece, unit)
        return True, unit

    def put(self, piece: "TablePiece", unit: Any) -> None:
        super().put(piece, unit)
        if len(self._by_content) >= self.MAX:
            self._by_content.clear()
        self._by_content[_content(piece)] = unit


def _content(piece: "TablePiece") -> tuple:
    return (piece.id, piece.type, piece.state, piece.map, piece.x, piece.y)


def _split(table: "Table", read: dict[str, Unit], cache: StateCache | None) -> tuple[dict[str, Unit], dict[str, Unit]]:
    """The units and event markers of what was read from a table (those of the table it was
    copied from when none of the pieces changed since reads as another unit)."""
    last = cache.split if cache is not None else None
    changed = table.changed_since_copy() if last is not None else None
    if last is not None and changed is not None and changed[0] == last[0] and not changed[2] \
            and len(read) == len(last[1]) and all(read.get(pid) is last[1].get(pid) for pid in changed[1]):
        units, events = last[2], last[3]
    else:
        units = {uid: u for uid, u in read.items() if u.unit_type != EVENT_TYPE}
        events = {uid: u for uid, u in read.items() if u.unit_type == EVENT_TYPE}
    if cache is not None:
        cache.split = (table.revision, read, units, events)
    return units, events


def _under_allied_control(unit: Unit) -> Unit:
    """1940-41 (PB 14.6.4, 14.6.4.4): Ethiopian levies are guerrillas and the Negus an Allied
    unit, all under Allied control."""
    if unit.side != "ethiopian":
        return unit
    if unit.kind == "combat":
        return replace(unit, side="allied", unit_class="guerrilla")
    return replace(unit, side="allied")
