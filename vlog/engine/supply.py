"""Supply trace: a path of at most N hexes from a unit to a source, or to a line that leads there.

Lion of Judah 9.4: at most 3 hexes to a supply source, or at most 3 hexes to a road, rail or
dirt-track hex and then any number of consecutive line hexes to the source; the path may not
enter hexes with enemy units, nor a hex adjacent to an enemy unit unless a friendly unit is
there (9.5.1). Island of Death 8.2: at most 12 hexes, not into enemy units, not into empty
hexes in enemy ZOC. Both are one search over states (hex, on the line yet?) whose cost is the
number of overland hexes; the path found is returned as evidence.

Unknown data are judged as in the movement search: a first trace on known data only, then an
optimistic one that names the data it relied on.
"""
from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace
from typing import Generic, TypeVar, Union

from vlog.engine.judge import Ruling, Unknown, Verdict

H = TypeVar("H", bound=Hashable)
Flag = Union[bool, Unknown]
_EMPTY: frozenset[str] = frozenset()


@dataclass(slots=True)
class SupplyRules(Generic[H]):
    """The hooks of one side's supply trace.

    * `is_source(hex)`: a supply source the side may use (controlled, not captured ...);
    * `max_hexes`: overland hexes allowed, the unit's own hex excluded (None: unlimited);
    * `may_enter(hex)`: hex-level bans (enemy units, all-sea, desert);
    * `may_cross(a, b)`: hexside bans (all-sea or impassable hexsides);
    * `in_enemy_zoc(hex)` and `friendly_occupied(hex)`: a ZOC hex may be entered only when a
      friendly unit is in it;
    * `line(a, b)`: a road/rail/track joins a and b; after the overland part the trace may run
      any distance along lines (and may not leave them again);
    * `line_may_enter(hex)`: extra bans on the line part (Lion of Judah 9.5.1: no enemy town);
    * `edges`: a dict the traces keep each step's answer in (whether b may be entered from a),
      shared by the caller between traces whose hooks differ only in `is_source` (one side's
      traces to several HQs on one position); None: each trace works them out.
    """

    neighbours: Callable[[H], Iterable[H]]
    is_source: Callable[[H], Flag]
    max_hexes: int | None = None
    may_enter: Callable[[H], Flag] | None = None
    may_cross: Callable[[H, H], Flag] | None = None
    in_enemy_zoc: Callable[[H], Flag] | None = None
    friendly_occupied: Callable[[H], bool] | None = None
    line: Callable[[H, H], Flag] | None = None
    line_may_enter: Callable[[H], Flag] | None = None
    edges: dict | None = None


@dataclass(frozen=True, slots=True)
class SupplyTrace(Generic[H]):
    """The verdict on "is this unit in supply?" and the path that shows it."""

    verdict: Verdict
    path: tuple[H, ...] = ()
    overland_hexes: int = 0
    line_hexes: int = 0
    depends_on: frozenset[str] = _EMPTY

    @property
    def ruling(self) -> Ruling:
        return self.verdict.ruling

    @property
    def in_supply(self) -> bool:
        """Certainly in supply (LEGAL)."""
        return self.verdict.ruling is Ruling.LEGAL


class _Trace(Generic[H]):
    def __init__(self, rules: SupplyRules[H], certain: bool):
        self.rules = rules
        self.certain = certain

    def flag(self, value: Flag, pessimistic: bool) -> tuple[bool, frozenset[str]]:
        if value is True or value is False:
            return value, _EMPTY
        if isinstance(value, Unknown):
            if self.certain:
                return pessimistic, _EMPTY
            return (not pessimistic), value.data
        return bool(value), _EMPTY

    def enterable(self, a: H, b: H) -> tuple[bool, frozenset[str]]:
        edges = self.rules.edges
        if edges is None:
            return self._enterable(a, b)
        key = (self.certain, a, b)
        found = edges.get(key)
        if found is None:
            found = edges[key] = self._enterable(a, b)
        return found

    def _enterable(self, a: H, b: H) -> tuple[bool, frozenset[str]]:
        rules = self.rules
        data = _EMPTY
        if rules.may_enter is not None:
            ok, d = self.flag(rules.may_enter(b), False)
            if not ok:
                return False, _EMPTY
            if d:
                data = data | d
        if rules.may_cross is not None:
            ok, d = self.flag(rules.may_cross(a, b), False)
            if not ok:
                return False, _EMPTY
            if d:
                data = data | d
        if rules.in_enemy_zoc is not None:
            zoc, d = self.flag(rules.in_enemy_zoc(b), True)
            if zoc:
                friendly = rules.friendly_occupied is not None and rules.friendly_occupied(b)
                if not friendly:
                    return False, _EMPTY
            if d:
                data = data | d
        return True, data

    def run(self, start: H, every: bool = False):
        """Search from start; returns (sources found as [(state, data)], parents).

        With `every` false the search stops at the nearest source; with it true it goes on
        and returns every source reachable, nearest first (for relays such as HQs).
        """
        rules = self.rules
        found: list[tuple[tuple, frozenset[str]]] = []
        parent: dict = {(start, False): None}
        # a unit standing on a source traces no path at all
        src, d = self.flag(rules.is_source(start), False)
        if src:
            found.append(((start, False), d))
            if not every:
                return found, parent
        limit = rules.max_hexes
        counter = itertools.count()
        start_state = (start, False)
        best = {start_state: (0, _EMPTY)}
        heap = [(0, 0, next(counter), start_state)]
        done = set()
        seen_sources: set = {start} if src else set()
        while heap:
            cost, _, _, state = heapq.heappop(heap)
            if state in done:
                continue
            done.add(state)
            hex_, on_line = state
            data = best[state][1]
            if hex_ not in seen_sources:
                src, d = self.flag(rules.is_source(hex_), False)
                if src:
                    seen_sources.add(hex_)
                    found.append((state, data | d))
                    if not every:
                        return found, parent
            for nxt in rules.neighbours(hex_):
                ok, d = self.enterable(hex_, nxt)
                if not ok:
                    continue
                moves = []
                if not on_line and (limit is None or cost + 1 <= limit):
                    moves.append(((nxt, False), cost + 1, d))
                if rules.line is not None:
                    joined, dl = self.flag(rules.line(hex_, nxt), False)
                    if joined:
                        extra = _EMPTY
                        if rules.line_may_enter is not None:
                            allowed, extra = self.flag(rules.line_may_enter(nxt), False)
                            if not allowed:
                                joined = False
                        if joined:
                            moves.append(((nxt, True), cost, d | dl | extra))
                for nstate, ncost, nd in moves:
                    if nstate in done:
                        continue
                    ndata = data | nd if nd else data
                    old = best.get(nstate)
                    if old is None or (ncost, len(ndata)) < (old[0], len(old[1])):
                        best[nstate] = (ncost, ndata)
                        parent[nstate] = state
                        heapq.heappush(heap, (ncost, len(ndata), next(counter), nstate))
        return found, parent


def _path(parent: dict, state) -> tuple[tuple, ...]:
    states = []
    while state is not None:
        states.append(state)
        state = parent.get(state)
    states.reverse()
    return tuple(states)


def _trace_of(states: tuple[tuple, ...], data: frozenset[str]) -> "SupplyTrace":
    path = tuple(s[0] for s in states)
    line_hexes = sum(1 for s in states[1:] if s[1])
    overland = len(states) - 1 - line_hexes
    if not data:
        return SupplyTrace(Verdict(Ruling.LEGAL), path, overland, line_hexes)
    return SupplyTrace(Verdict(Ruling.POSSIBLE, depends_on=data), path, overland, line_hexes, data)


def trace_supply(rules: SupplyRules[H], start: H) -> SupplyTrace[H]:
    """Is the unit at `start` in supply? LEGAL with the path, POSSIBLE naming the data the
    only paths rely on, PROVEN (out of supply) when no path exists under any reading."""
    return _traced(rules, start, _nearest(rules, start, True))


def _nearest(rules: SupplyRules[H], start: H, certain: bool) -> SupplyTrace[H] | None:
    """The trace to the nearest source on known data (`certain`) or on the optimistic reading."""
    found, parent = _Trace(rules, certain).run(start)
    if not found:
        return None
    state, data = found[0]
    return _trace_of(_path(parent, state), frozenset() if certain else data)


def _traced(rules: SupplyRules[H], start: H, known: SupplyTrace[H] | None) -> SupplyTrace[H]:
    """The trace on known data when there is one, else the optimistic one, else out of supply."""
    if known is not None:
        return known
    found = _nearest(rules, start, False)
    if found is not None:
        return found
    limit = "" if rules.max_hexes is None else f" within {rules.max_hexes} hexes"
    return SupplyTrace(Verdict(Ruling.PROVEN, reasons=(f"no supply path from {start}{limit}",)))


class TracesTo(Generic[H]):
    """Supply traces from many hexes to one (an Island of Death formation's units to their HQ),
    each the very trace `trace_supply` finds with `is_source` that hex, path included; the
    search on known data runs once, back from the hex, only as far as the farthest start asked.

    Why the paths agree: on known data every hex entered costs one and the forward search pops
    states first in, first out, so it is a breadth-first search, and the path it finds is the
    shortest one that takes, hex after hex, the first neighbour (in `neighbours` order) still on
    a shortest path; the distances back from the target let each start walk that path. This
    needs `neighbours` symmetric (a hex map's) and no line part (`line` None: a line step costs
    nothing); with a line, and for the optimistic reading, each start is traced forward.
    """

    def __init__(self, rules: SupplyRules[H], target: H):
        self.rules = replace(rules, is_source=lambda h: h == target)
        self._known = _Trace(self.rules, True)
        self._distance: dict[H, int] = {target: 0}
        self._frontier: list[H] = [target]
        """The hexes farthest from the target reached so far, all at `_level`."""
        self._level = 0

    def trace(self, start: H) -> SupplyTrace[H]:
        if self.rules.line is not None:
            return trace_supply(self.rules, start)
        return _traced(self.rules, start, self._known_trace(start))

    def _known_trace(self, start: H) -> SupplyTrace[H] | None:
        distance, limit = self._distance, self.rules.max_hexes
        while start not in distance and self._frontier and (limit is None or self._level < limit):
            self._widen()
        left = distance.get(start)
        if left is None:
            return None
        path, here = [start], start
        while left:
            left -= 1
            here = next(n for n in self.rules.neighbours(here)
                        if distance.get(n) == left and self._known.enterable(here, n)[0])
            path.append(here)
        return SupplyTrace(Verdict(Ruling.LEGAL), tuple(path), len(path) - 1, 0)

    def _widen(self) -> None:
        """The hexes one more hex from the target: those from which a frontier hex may be entered."""
        distance, enterable = self._distance, self._known.enterable
        self._level += 1
        found = []
        for there in self._frontier:
            for here in self.rules.neighbours(there):
                if here not in distance and enterable(here, there)[0]:
                    distance[here] = self._level
                    found.append(here)
        self._frontier = found


def trace_via_relay(to_relay: SupplyRules[H], from_relay: SupplyRules[H], start: H, *,
                    direct: SupplyRules[H] | None = None) -> SupplyTrace[H]:
    """Supply through one relay: the unit traces to a relay hex (`to_relay.is_source`), and the
    relay traces on with `from_relay`; the path returned runs unit -> relay -> source.

    Lion of Judah 9.4 #3: a non-HQ unit may trace up to two hexes to a friendly HQ, which then
    traces as #1 or #2 ("No more than one HQ may be included in any supply trace": give
    `from_relay` no relays). Island of Death 8.1: a unit traces to its formation's HQ, which
    must itself be supplied. `direct` is tried first when the unit may also trace on its own.
    Every relay the unit reaches is tried, nearest first.
    """
    if direct is not None:
        first = trace_supply(direct, start)
        if first.in_supply:
            return first
    possible: list[SupplyTrace[H]] = []
    for certain in (True, False):
        found, parent = _Trace(to_relay, certain).run(start, every=True)
        for state, data in found:
            leg1 = _path(parent, state)
            onward = trace_supply(from_relay, state[0])
            if onward.ruling is Ruling.PROVEN:
                continue
            leg1_data = frozenset() if certain else data
            combined_data = leg1_data | onward.depends_on
            path = tuple(s[0] for s in leg1) + onward.path[1:]
            line_hexes = sum(1 for s in leg1[1:] if s[1]) + onward.line_hexes
            overland = len(leg1) - 1 - sum(1 for s in leg1[1:] if s[1]) + onward.overland_hexes
            if not combined_data:
                return SupplyTrace(Verdict(Ruling.LEGAL), path, overland, line_hexes)
            possible.append(SupplyTrace(Verdict(Ruling.POSSIBLE, depends_on=combined_data), path,
                                        overland, line_hexes, combined_data))
    if direct is not None and first.ruling is Ruling.POSSIBLE:
        possible.append(first)
    if possible:
        return min(possible, key=lambda t: (len(t.depends_on), len(t.path)))
    return SupplyTrace(Verdict(Ruling.PROVEN, reasons=(f"no supply path from {start}, directly "
                                                      "or through a relay",)))
