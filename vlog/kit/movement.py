"""Movement bound to a game's data: the TEC's movement columns as the engine's cost hooks, and the
bookkeeping of the stacks a movement segment moves.

* `tec_cost` reads a TEC movement entry (2, "+1", "1/2", "prohibited"); `TerrainCosts` is one
  movement class's column of the TEC (`tables.json` effect labels such as "movement-foot",
  "movement_mech" or "movement"), and `terrain_hooks` turns it and a map view into the
  `enter_cost`, `hexside_cost` and `line_cost` of `vlog.engine.movement.MovementRules`: a hex's
  terrain row, hexside features that block or add a row's cost, roads and rails as the cheapest
  of their rows. What differs between games comes as data (which row a terrain reads, which
  hexside features block) or as hooks: `modify` (a weather that doubles costs) and `surcharge`
  (entering an enemy's hex).
* `StackMoves` follows one movement segment's moves as stacks, the way a VASSAL log shows them
  (a stack dragged at once moves its pieces in one step; moved piece by piece they follow the same
  hop one after another): where each unit began the segment, the stack moving now, the units that
  made each hop together. It reports `StackBreach`es; the game says which rule each breaks.
* `LoggedRoutes` keeps the route each unit's drags show in a segment (for
  `vlog.engine.movement.follow_route`): the hexes, the rolls logged before each drag, the undo of
  the last drag taken back off the route.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, Protocol

from vlog.engine.judge import Unknown, is_known, unknowns

__all__ = ["LoggedRoutes", "MapView", "StackBreach", "StackMoves", "TerrainCosts", "tec_cost", "terrain_hooks"]


def tec_cost(value: Any, floor: Any) -> Any:
    """A TEC entry as a cost: numbers as is, '+1' -> 1, 'prohibited' -> None, other text or an
    unknown -> Unknown at least `floor`."""
    if isinstance(value, Unknown):
        return Unknown(*value.data, at_least=floor)
    if isinstance(value, bool):
        return Unknown("TEC entry", at_least=floor)
    if isinstance(value, (int, Fraction)):
        return value
    if isinstance(value, float):
        return Fraction(value).limit_denominator(8)
    if isinstance(value, str):
        text = value.strip()
        if text == "prohibited":
            return None
        try:
            return Fraction(text.lstrip("+"))
        except ValueError:
            return Unknown(f"TEC {text!r}", at_least=floor)
    return Unknown("TEC entry", at_least=floor)


class MapView(Protocol):
    """What the hooks read of a game's map (each answer may be `Unknown`)."""

    def terrain(self, hex_: str) -> Any: ...
    def hexside_has(self, a: str, b: str, feature: str) -> Any: ...
    def line_kinds(self, a: str, b: str) -> Any: ...


@dataclass(frozen=True, slots=True)
class TerrainCosts:
    """One movement class's column of the TEC: `tec(row, effect)` gives an entry (as the game's
    board reads it, `Unknown` when the data lacks it); `floor` is the least any entry costs."""

    tec: Callable[[str, str], Any]
    effect: str
    floor: Any = 1

    @classmethod
    def from_data(cls, data: Any, effect: str, floor: Any = 1, table: str = "tec") -> "TerrainCosts":
        """The column `effect` of a `GameData`'s terrain-effects table (each entry read once)."""
        @cache
        def entry(row: str, column: str) -> Any:
            datum = data.lookup(table, row, column)
            return Unknown(f"TEC {row} {column}") if datum.value is None else datum.value
        return cls(entry, effect, floor)

    def of(self, row: str, floor: Any = None) -> Any:
        """The row's cost: None when prohibited, `Unknown` (at least the floor) when not known."""
        return tec_cost(self.tec(row, self.effect), self.floor if floor is None else floor)


def terrain_hooks(view: MapView, costs: TerrainCosts, *,
                  row_of: Callable[[str], str] = lambda terrain: terrain,
                  blocking: Iterable[str] = (), surcharges: Mapping[str, str] | None = None,
                  lines: Mapping[str, str] | None = None,
                  line_kinds: Callable[[str, str], Any] | None = None,
                  modify: Callable[[Any, str], Any] | None = None,
                  surcharge: Callable[[str], Any] | None = None,
                  ) -> tuple[Callable[[str], Any], Callable[[str, str], Any], Callable[[str, str], Any]]:
    """(enter_cost, hexside_cost, line_cost) for `MovementRules`.

    `row_of` the TEC row a hex's terrain reads; `blocking` hexside features no move crosses;
    `surcharges` hexside feature -> the TEC row whose cost crossing it adds; `lines` line kind
    -> its TEC row (a move along a line pays the cheapest known row, and the hexside's costs);
    `line_kinds(a, b)` the kinds of line joining two hexes (default: the view's); `modify(cost,
    hex)` changes a cost paid to enter `hex` (weather); `surcharge(hex)` a cost added on entering
    it (an enemy unit there), None or 0 for none."""
    blocking = tuple(blocking)
    surcharges = dict(surcharges or {})
    lines = dict(lines or {})
    kinds_of = line_kinds or view.line_kinds
    change = modify or (lambda cost, hex_: cost)

    def extra(cost: Any, hex_: str) -> Any:
        more = surcharge(hex_) if surcharge is not None else None
        return cost + more if more else cost

    def enter_cost(hex_: str) -> Any:
        terrain = view.terrain(hex_)
        if isinstance(terrain, Unknown):
            cost: Any = Unknown(*terrain.data, at_least=costs.floor)
        else:
            cost = costs.of(row_of(terrain))
            if cost is None:
                return None
        return extra(change(cost, hex_), hex_)

    def hexside_cost(a: str, b: str) -> Any:
        parts: list[Any] = []
        for feature in blocking:
            present = view.hexside_has(a, b, feature)
            if present is True:
                return None
            if isinstance(present, Unknown):
                parts.append(present)
        added: Any = 0
        crossed = False
        for feature, row in surcharges.items():
            present = view.hexside_has(a, b, feature)
            if present is True:
                cost = costs.of(row, 0)
                if cost is None:
                    return None
                added, crossed = (added + cost if crossed else cost), True
            elif isinstance(present, Unknown):
                parts.append(present)
        if parts:
            added = Unknown(*unknowns(*parts, added), at_least=added if is_known(added) else 0)
        return change(added, b)

    def line_cost(a: str, b: str) -> Any:
        kinds = kinds_of(a, b)
        side_cost = hexside_cost(a, b)
        if side_cost is None:
            return None
        if isinstance(kinds, Unknown):
            best: Any = Unknown(*kinds.data, at_least=costs.floor)
        else:
            options = [costs.of(row) for kind, row in lines.items() if kind in kinds]
            options = [o for o in options if o is not None]
            if not options:
                return None
            known = [o for o in options if is_known(o)]
            best = min(known) if known else options[0]
        return extra(change(best, b), b) + side_cost

    return enter_cost, hexside_cost, line_cost


# ---------------------------------------------------------------------------------------------
# stacks moving together


@dataclass(frozen=True, slots=True)
class StackBreach:
    """A move that breaks how stacks move, as the log shows it.

    `kind`: "again" (`unit` moved again after `other`'s stack began moving: `at` is the step
    that stack began), "apart" (`unit` and `other` moved together from `start` to `to` in one
    step but began the segment in different hexes: `origin`, `other_origin`), "dropped" (`unit`,
    left in `start` when `other`, with which it had moved, went on to `went`, moved on)."""

    kind: str
    unit: Any
    other: str
    """The other unit's name."""
    start: str
    to: str
    at: int | None = None
    origin: str | None = None
    other_origin: str | None = None
    went: str | None = None


@dataclass(slots=True)
class StackMoves:
    """The moves of one movement segment, as stacks: the moving stack is the units that began
    the segment in one hex (or moved in one step with them); a unit from another hex starts the
    next move and ends that stack's. Each unit is reported once."""

    origin: dict[str, str] = field(default_factory=dict)
    """Unit id -> the hex it began the segment in."""
    group: set[str] = field(default_factory=set)
    """The units of the stack moving now."""
    ended: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Unit id -> (step, name of the unit that began moving) once its stack's move ended."""
    step_moves: tuple[int, list[tuple[Any, str, str]]] | None = None
    """The step in progress and its moves (unit, from, to)."""
    hops: dict[str, tuple[str, str, frozenset[str]]] = field(default_factory=dict)
    """Unit id -> its last hop (from, to) and the units that made that hop too."""
    dropped: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """Unit id -> (hex it was left in, hex its stack went on to, name of the one that went on)."""
    reported: set[str] = field(default_factory=set)

    def reset(self) -> None:
        """A new segment: every unit begins its movement afresh."""
        self.origin, self.group, self.ended, self.step_moves = {}, set(), {}, None
        self.hops, self.dropped, self.reported = {}, {}, set()

    def move(self, unit: Any, start: str, to: str, *, step: int) -> list[StackBreach]:
        """One unit's hop from `start` to `to` (the unit has `id` and `name`)."""
        if unit.id in self.reported:
            return []
        origin = self.origin.setdefault(unit.id, start)
        out = self._same_step(unit, start, to, origin, step)
        out += self._dropped_off(unit, start, to)
        if unit.id not in self.group:
            same_step = self.step_moves is not None and self.step_moves[0] == step and any(
                u.id in self.group for u, *_ in self.step_moves[1])
            if not same_step and not any(self.origin.get(m) == origin for m in self.group):
                for member in self.group:
                    self.ended.setdefault(member, (step, unit.name))
                self.group = set()
            self.group.add(unit.id)
            if unit.id in self.ended and unit.id not in self.reported:
                at, by = self.ended[unit.id]
                self.reported.add(unit.id)
                out.append(StackBreach("again", unit, by, start, to, at=at))
        self._note_hop(unit, start, to)
        return out

    def _same_step(self, unit: Any, start: str, to: str, origin: str, step: int) -> list[StackBreach]:
        """Units dragged together in one step began the segment in one hex."""
        if self.step_moves is None or self.step_moves[0] != step:
            self.step_moves = (step, [])
        moves = self.step_moves[1]
        out: list[StackBreach] = []
        others = [u for u, s, t in moves if (s, t) == (start, to) and self.origin.get(u.id) != origin]
        if others and unit.id not in self.reported:
            self.reported.add(unit.id)
            first = others[0]
            out.append(StackBreach("apart", unit, first.name, start, to, origin=origin,
                                   other_origin=self.origin[first.id]))
        moves.append((unit, start, to))
        return out

    def _dropped_off(self, unit: Any, start: str, to: str) -> list[StackBreach]:
        """A unit left behind when a companion went on moves no further (unless it follows)."""
        left = self.dropped.pop(unit.id, None)
        if left is None or left[0] != start or left[1] == to or unit.id in self.reported:
            return []
        self.reported.add(unit.id)
        where, went, by = left
        return [StackBreach("dropped", unit, by, where, to, went=went)]

    def _note_hop(self, unit: Any, start: str, to: str) -> None:
        """Companions: the units whose last hop was this one. Those that arrived at `start` with
        this unit and stay there are dropped off as it goes on."""
        companions = frozenset(uid for uid, (s, t, _) in self.hops.items()
                               if (s, t) == (start, to) and uid != unit.id)
        for uid, (s, t, with_) in list(self.hops.items()):
            if uid == unit.id or t != start or unit.id not in with_:
                continue                    # not a unit that arrived at `start` with this one
            if uid not in companions:
                self.dropped.setdefault(uid, (start, to, unit.name))
        self.hops[unit.id] = (start, to, companions)
        for uid in companions:
            s, t, with_ = self.hops[uid]
            self.hops[uid] = (s, t, with_ | {unit.id})


@dataclass(slots=True)
class LoggedRoutes:
    """The routes a movement segment's drags show, unit by unit: VASSAL logs one drag a step, and
    a unit dragged hex by hex enters each hex it is left in (the route `follow_route` judges).
    The undo of a unit's last drag takes that drag off its route (a correction, not a move)."""

    hexes: dict[str, list[str]] = field(default_factory=dict)
    """Unit id -> where it began the segment, then the hex each drag left it in."""
    rolls: dict[str, list[tuple[int, ...]]] = field(default_factory=dict)
    """Unit id -> the die rolls logged before each of those drags."""

    def reset(self) -> None:
        """A new segment."""
        self.hexes, self.rolls = {}, {}

    def drag(self, unit_id: str, frm: str, to: str, rolls: tuple[int, ...] = (), *,
             origin: str | None = None, undo: bool = False) -> None:
        """One drag from `frm` to `to` (`origin`: where the unit began the segment, by default
        `frm`); `undo`: the step is VASSAL's undo, which takes back the unit's last drag when it
        goes back to where that drag began. A unit found elsewhere than its route's end (moved
        otherwise meanwhile) gets a leg to where it is, which the log does not show hex by hex."""
        path = self.hexes.setdefault(unit_id, [origin if origin is not None else frm])
        legs = self.rolls.setdefault(unit_id, [])
        if undo and len(path) >= 2 and path[-1] == frm and path[-2] == to:
            path.pop()
            if legs:
                legs.pop()
            return
        if path[-1] != frm:
            path.append(frm)
            legs.append(())
        path.append(to)
        legs.append(tuple(rolls))

    def route(self, unit_id: str) -> tuple[str, ...]:
        return tuple(self.hexes.get(unit_id, ()))

    def route_rolls(self, unit_id: str) -> tuple[tuple[int, ...], ...]:
        return tuple(self.rolls.get(unit_id, ()))
