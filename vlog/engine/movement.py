"""Movement search: could a unit have gone from A to B, and by which cheapest path?

VASSAL logs record where a piece started and where it ended, never the path. A move is legal
when *some* path within the rules reaches the new hex, so the check is a cheapest-path search
(Dijkstra over states (hex, stopped)) whose costs come from per-game hooks:

* `enter_cost(hex)`           terrain cost for this unit's class: a number, None (prohibited) or
                              `Unknown` when the datum is missing;
* `hexside_cost(a, b)`        added for the hexside crossed (river +1); None = impassable;
* `line_cost(a, b)`           cost of the step when a road/rail/track joins a and b (replaces the
                              terrain + hexside cost when cheaper); None = no line there;
* `may_enter(hex)`            hex-level bans that no line overrides (enemy units, areas not in play);
* `in_enemy_zoc(hex)`         with `zoc_enter_cost`, `zoc_exit_cost`, `stop_on_zoc_entry` and
                              `zoc_to_zoc`;
* `stops_after(a, b)`         steps after which the unit must stop (a ravine climbed, a melée hex);
* `forced_march` and `forced_march_into(hex)`: extra allowance, each hex entered beyond the
                              printed allowance being a forced-march hex (one roll each);
                              `forced_march_costs` the extra MPs the logged rolls added to the
                              1st, 2nd ... forced-march hex (Lion of Judah 11.5.3: "1/A" = +1);
* `secondary_cost(a, b)`      a second currency accumulated along the path and used to break ties
                              (attrition points, fuel), reported per step;
* `minimum_move`              the unit may always move exactly one hex it could otherwise enter.

`follow_route` judges the route a log shows instead (a drag to each adjacent hex, paying for each
hex entered; a drag to a hex further away is searched as a leg of its own), with each
forced-march roll belonging to the hop it was logged before.

Unknown data are judged, not guessed: a first search uses only known data (unknown costs are
impassable, unknown ZOC counts as ZOC); if it fails, a second, optimistic search takes each
unknown at its lower bound and remembers which data it relied on. The verdict is LEGAL,
POSSIBLE (naming those data) or PROVEN.
"""
from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Generic, TypeVar, Union

from vlog.engine.judge import Ruling, Unknown, Verdict
from vlog.errors import GameDataError

H = TypeVar("H", bound=Hashable)
Number = Union[int, Fraction, float]
Cost = Union[int, Fraction, float, None, Unknown]
Flag = Union[bool, Unknown]

_EMPTY: frozenset[str] = frozenset()


@dataclass(slots=True)
class MovementRules(Generic[H]):
    """The hooks one unit's movement obeys; build one per game and unit class (see module doc)."""

    neighbours: Callable[[H], Iterable[H]]
    enter_cost: Callable[[H], Cost]
    hexside_cost: Callable[[H, H], Cost] | None = None
    line_cost: Callable[[H, H], Cost] | None = None
    may_enter: Callable[[H], Flag] | None = None
    in_enemy_zoc: Callable[[H], Flag] | None = None
    zoc_enter_cost: Number = 0
    zoc_exit_cost: Number = 0
    stop_on_zoc_entry: bool = False
    zoc_to_zoc: bool = True
    stops_after: Callable[[H, H], Flag] | None = None
    forced_march: Number = 0
    forced_march_into: Callable[[H], Flag] | None = None
    forced_march_costs: tuple[Number, ...] | None = None
    secondary_cost: Callable[[H, H], Number | Unknown] | None = None
    minimum_move: bool = False
    steps: dict | None = None
    """A dict the searches keep each step's answer in (what entering b from a costs), shared by
    the caller between searches whose hooks are all the same (one movement class's units on one
    position, from different hexes); None: each search works them out."""


_UNSEEN = object()


@dataclass(frozen=True, slots=True)
class Step(Generic[H]):
    """One hex entered: what it cost and why (the evidence behind a verdict)."""

    frm: H
    to: H
    cost: Number
    via: str                                  # "terrain", "line" or "minimum move"
    parts: tuple[tuple[str, Number], ...]     # ("terrain", 2), ("hexside", 1), ("zoc enter", 2)
    total: Number                             # cumulative cost after this step
    secondary: Number = 0
    forced_march: bool = False
    stops: bool = False
    depends_on: frozenset[str] = _EMPTY


@dataclass(frozen=True, slots=True)
class Route(Generic[H]):
    """A path from start to goal with its per-step breakdown."""

    hexes: tuple[H, ...]
    steps: tuple[Step[H], ...]
    cost: Number
    secondary: Number = 0
    forced_march_hexes: int = 0
    minimum_move: bool = False
    depends_on: frozenset[str] = _EMPTY

    def explain(self, name: Callable[[H], str] = str) -> str:
        """One line: '1307 -> 1308 (terrain 2, hexside 1) -> 1309 (line 1) = 4'; a step that
        rests on unknown data shows it ("at least 1, depends on terrain of 1309")."""
        if not self.steps:
            return f"{name(self.hexes[0])} (no move)"
        text = [name(self.hexes[0])]
        for step in self.steps:
            parts = ", ".join(f"{label} {value}" for label, value in step.parts)
            if step.depends_on:
                parts += ", depends on " + ", ".join(sorted(step.depends_on))
            text.append(f"{name(step.to)} ({parts})")
        return " -> ".join(text) + f" = {self.cost}"


@dataclass(frozen=True, slots=True)
class MoveCheck(Generic[H]):
    """The answer to "could the unit get from start to goal?" with the route that shows it."""

    verdict: Verdict
    route: Route[H] | None

    @property
    def ruling(self) -> Ruling:
        return self.verdict.ruling


@dataclass(slots=True)
class _Eval:
    cost: Number
    secondary: Number
    via: str
    data: frozenset[str]
    stops: bool
    parts: tuple[tuple[str, Number], ...] = ()


class _Search(Generic[H]):
    """One Dijkstra run, either on known data only (`certain`) or optimistic about unknowns."""

    def __init__(self, rules: MovementRules[H], certain: bool):
        self.rules = rules
        self.certain = certain
        self._zoc_cache: dict[H, tuple[bool, frozenset[str]]] = {}

    # -- value helpers -------------------------------------------------------------------------
    def _flag(self, value: Flag, pessimistic: bool) -> tuple[bool, frozenset[str]]:
        """A hook's yes/no answer; unknown becomes `pessimistic` when certain, else the
        permissive answer with the datum recorded."""
        if isinstance(value, Unknown):
            if self.certain:
                return pessimistic, _EMPTY
            return (not pessimistic), value.data
        return bool(value), _EMPTY

    def zoc(self, hex_: H) -> tuple[bool, frozenset[str]]:
        cached = self._zoc_cache.get(hex_)
        if cached is None:
            hook = self.rules.in_enemy_zoc
            cached = (False, _EMPTY) if hook is None else self._flag(hook(hex_), True)
            self._zoc_cache[hex_] = cached
        return cached

    def _number(self, value: Cost, what: str, a: object, b: object = None
                ) -> tuple[Number, frozenset[str]] | None:
        """A hook's cost as (number, data relied on), None when not allowed; bad values are a
        GameDataError naming the step (formatted only then, to keep the search fast)."""
        if value is None:
            return None
        if isinstance(value, Unknown):
            if self.certain:
                return None
            return value.at_least, value.data
        where = f"{what} {a}" if b is None else f"{what} {a}->{b}"
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            raise GameDataError(f"{where} must be a number, None or Unknown, not {value!r}")
        if value < 0:
            raise GameDataError(f"{where} is negative ({value})")
        return value, _EMPTY

    # -- one step ------------------------------------------------------------------------------
    def step(self, frm: H, to: H, explain: bool = False) -> _Eval | None:
        """Cost of moving frm -> to for an ordinary (non-minimum) move, None when not allowed."""
        steps = self.rules.steps
        if steps is None or explain:
            return self._step(frm, to, explain)
        key = (self.certain, frm, to)
        found = steps.get(key, _UNSEEN)
        if found is _UNSEEN:
            found = steps[key] = self._step(frm, to, False)
        return found  # type: ignore[return-value]

    def _step(self, frm: H, to: H, explain: bool) -> _Eval | None:
        rules = self.rules
        data: frozenset[str] = _EMPTY
        if rules.may_enter is not None:
            ok = rules.may_enter(to)
            if ok is not True:
                ok, d = self._flag(ok, False)
                if not ok:
                    return None
                data = d
        # terrain + hexside, then the line if cheaper
        cost: Number | None = None
        odata: frozenset[str] = _EMPTY
        via = "terrain"
        parts: tuple[tuple[str, Number], ...] = ()
        t = rules.enter_cost(to)
        if type(t) is int and t >= 0:
            tdata = _EMPTY
        else:
            got = self._number(t, "entry cost of", to)
            t, tdata = (None, _EMPTY) if got is None else got
        if t is not None:
            side: Number | None = 0
            sdata = _EMPTY
            if rules.hexside_cost is not None:
                side = rules.hexside_cost(frm, to)
                if not (type(side) is int and side >= 0):
                    got = self._number(side, "hexside cost", frm, to)
                    side, sdata = (None, _EMPTY) if got is None else got
            if side is not None:
                cost = t + side
                odata = tdata | sdata if (tdata or sdata) else _EMPTY
                if explain:
                    parts = (("terrain", t),) + ((("hexside", side),) if side else ())
        if rules.line_cost is not None:
            line = rules.line_cost(frm, to)
            if line is not None:
                if type(line) is int and line >= 0:
                    ldata = _EMPTY
                else:
                    got = self._number(line, "line cost", frm, to)
                    line, ldata = (None, _EMPTY) if got is None else got
                if line is not None and (cost is None or line < cost
                                         or (line == cost and len(ldata) < len(odata))):
                    cost, odata, via = line, ldata, "line"
                    if explain:
                        parts = (("line", line),)
        if cost is None:
            return None
        if odata:
            data = data | odata
        # zones of control
        stops = False
        if rules.in_enemy_zoc is not None:
            zoc_from, d_from = self.zoc(frm)
            zoc_to, d_to = self.zoc(to)
            if zoc_from and zoc_to and not rules.zoc_to_zoc:
                return None
            if zoc_from and rules.zoc_exit_cost:
                cost = cost + rules.zoc_exit_cost
                if explain:
                    parts = parts + (("zoc exit", rules.zoc_exit_cost),)
            if zoc_to:
                if rules.zoc_enter_cost:
                    cost = cost + rules.zoc_enter_cost
                    if explain:
                        parts = parts + (("zoc enter", rules.zoc_enter_cost),)
                if rules.stop_on_zoc_entry:
                    stops = True
            # an optimistic "not in ZOC" is a reading that rests on the datum
            if d_from or d_to:
                data = data | d_from | d_to
        if rules.stops_after is not None:
            must, d = self._flag(rules.stops_after(frm, to), True)
            stops = stops or must
            if d:
                data = data | d
        secondary: Number = 0
        if rules.secondary_cost is not None:
            sec = self._number(rules.secondary_cost(frm, to), "secondary cost", frm, to)
            if sec is None:
                return None
            secondary, d = sec
            if d:
                data = data | d
        return _Eval(cost, secondary, via, data, stops, parts)

    # -- the search ----------------------------------------------------------------------------
    def run(self, start: H, allowance: Number | None, goal: H | None = None,
            is_goal: Callable[[H], bool] | None = None):
        """Dijkstra from start. Returns (best labels, predecessor lists, goal state or None).

        States are (hex, stopped, forced-march hexes so far) and labels (cost, secondary,
        data). A step whose cumulative cost exceeds the printed allowance is a forced-march
        step: allowed up to allowance + forced_march, not into hexes `forced_march_into`
        refuses, and paying the next `forced_march_costs` surcharge when those are given (the
        count is kept in the state only then). A cheaper label at the same state dominates:
        it has at most as many forced-march steps ahead, and surcharges are never negative.
        """
        self.begin(start, allowance)
        return self.resume(goal, is_goal)

    def begin(self, start: H, allowance: Number | None) -> None:
        """A search from `start` within `allowance`, carried on by `resume`."""
        start_state = (start, False, 0)
        self.allowance = allowance
        self.best: dict[tuple, tuple[Number, Number, frozenset[str]]] = {start_state: (0, 0, _EMPTY)}
        self.preds: dict[tuple, list[tuple]] = {start_state: []}
        self.first: dict[H, tuple] = {}
        """Hex -> the first state popped in it (what a search for that goal would return)."""
        self._counter = itertools.count()
        self._heap: list = [(0, 0, 0, next(self._counter), start_state)]
        self._done: set[tuple] = set()
        self._held: tuple | None = None
        """The goal state `resume` last returned, with its label: not expanded yet."""

    def resume(self, goal: H | None = None, is_goal: Callable[[H], bool] | None = None):
        """Carry the search on until a state in `goal` (or one `is_goal` accepts) is popped:
        (best labels, predecessor lists, that state or None). The states already popped keep
        their labels and predecessors, so a search carried on from goal to goal pops states in
        the order a search for the last goal alone would."""
        rules = self.rules
        allowance = self.allowance
        limit = None if allowance is None else allowance + rules.forced_march
        fm_into = rules.forced_march_into
        surcharges = rules.forced_march_costs
        best, preds, first = self.best, self.preds, self.first
        counter, heap, done = self._counter, self._heap, self._done
        held, self._held = self._held, None
        while True:
            if held is not None:
                cost, ndata, secondary, state = held
                held = None
                hex_, stopped, marched = state
            else:
                if not heap:
                    break
                cost, ndata, secondary, _, state = heapq.heappop(heap)
                if state in done:
                    continue
                done.add(state)
                hex_, stopped, marched = state
                if hex_ not in first:
                    first[hex_] = state
                if (goal is not None and hex_ == goal) or (is_goal is not None and is_goal(hex_)):
                    self._held = (cost, ndata, secondary, state)
                    return best, preds, state
            if stopped:
                continue
            data = best[state][2]
            for nxt in rules.neighbours(hex_):
                ev = self.step(hex_, nxt)
                if ev is None:
                    continue
                new_cost = cost + ev.cost
                new_marched = marched
                fm_data = _EMPTY
                if limit is not None:
                    if new_cost > allowance:
                        if fm_into is not None:
                            ok, fm_data = self._flag(fm_into(nxt), False)
                            if not ok:
                                continue
                        if surcharges is not None:
                            if marched >= len(surcharges):
                                continue
                            new_cost = new_cost + surcharges[marched]
                            new_marched = marched + 1
                    if new_cost > limit:
                        continue
                new_sec = secondary + ev.secondary
                new_data = data | ev.data if ev.data else data
                if fm_data:
                    new_data = new_data | fm_data
                nstate = (nxt, ev.stops, new_marched)
                if nstate in done:
                    continue
                old = best.get(nstate)
                key = (new_cost, len(new_data), new_sec)
                if old is None or key < (old[0], len(old[2]), old[1]):
                    best[nstate] = (new_cost, new_sec, new_data)
                    preds[nstate] = [state]
                    heapq.heappush(heap, (new_cost, len(new_data), new_sec, next(counter), nstate))
                elif key == (old[0], len(old[2]), old[1]):
                    preds[nstate].append(state)
        return best, preds, None


def _build_route(search: _Search[H], hexes: list[H], allowance: Number | None,
                 minimum: bool = False) -> Route[H]:
    """Re-evaluate a found path with explanations to give the per-step breakdown."""
    surcharges = search.rules.forced_march_costs
    steps: list[Step[H]] = []
    total: Number = 0
    sec_total: Number = 0
    fm = 0
    data: frozenset[str] = _EMPTY
    for frm, to in zip(hexes, hexes[1:]):
        ev = search.step(frm, to, explain=True)
        if ev is None:  # only for a minimum move into a hex the ordinary rules refuse
            ev = _Eval(0, 0, "minimum move", _EMPTY, True, (("minimum move", 0),))
        cost, parts = ev.cost, ev.parts
        is_fm = allowance is not None and total + cost > allowance and not minimum
        step_data = ev.data
        if is_fm and search.rules.forced_march_into is not None:
            _ok, fm_data = search._flag(search.rules.forced_march_into(to), False)
            step_data = step_data | fm_data
        if is_fm and surcharges is not None and fm < len(surcharges):
            cost = cost + surcharges[fm]
            parts = parts + (("forced march", surcharges[fm]),)
        total = total + cost
        sec_total = sec_total + ev.secondary
        fm += is_fm
        data = data | step_data
        steps.append(Step(frm, to, cost, "minimum move" if minimum else ev.via, parts, total,
                          ev.secondary, is_fm, ev.stops, step_data))
    return Route(tuple(hexes), tuple(steps), total, sec_total, fm, minimum, data)


def _walk_back(preds: dict, state) -> list:
    hexes = []
    while True:
        hexes.append(state[0])
        before = preds.get(state)
        if not before:
            break
        state = before[0]
    hexes.reverse()
    return hexes


def _minimum_move(rules: MovementRules[H], start: H, goal: H, allowance: Number | None,
                  certain: bool) -> Route[H] | None:
    """A one-hex move spending the whole allowance, if the rules grant one and it is allowed.

    The hex must be adjacent, enterable (not prohibited by terrain, hexside or `may_enter`;
    a line does not help) and not a ZOC-to-ZOC step where those are banned.
    """
    if not rules.minimum_move or allowance is None or allowance <= 0:
        return None
    if goal not in set(rules.neighbours(start)):
        return None
    search = _Search(rules, certain)
    data: frozenset[str] = _EMPTY
    if rules.may_enter is not None:
        ok, d = search._flag(rules.may_enter(goal), False)
        if not ok:
            return None
        data |= d
    terrain = search._number(rules.enter_cost(goal), "entry cost of", goal)
    if terrain is None:
        return None
    data |= terrain[1]
    if rules.hexside_cost is not None:
        side = search._number(rules.hexside_cost(start, goal), "hexside cost", start, goal)
        if side is None:
            return None
        data |= side[1]
    if rules.in_enemy_zoc is not None and not rules.zoc_to_zoc:
        zf, df = search.zoc(start)
        zt, dt = search.zoc(goal)
        if zf and zt:
            return None
        data |= df | dt
    step = Step(start, goal, allowance, "minimum move", (("minimum move", allowance),), allowance,
                0, False, True, data)
    return Route((start, goal), (step,), allowance, 0, 0, True, data)


def check_move(rules: MovementRules[H], start: H, goal: H, allowance: Number | None) -> MoveCheck[H]:
    """Could the unit get from `start` to `goal` spending at most `allowance` (None = no limit)?

    LEGAL with the cheapest known route; POSSIBLE with the cheapest route that relies on
    unknown data (naming them); PROVEN when no route exists even if every unknown is as
    favourable as the rules allow.
    """
    def searched(certain: bool) -> tuple[_Search[H], dict, tuple | None]:
        search = _Search(rules, certain)
        _best, preds, state = search.run(start, allowance, goal)
        return search, preds, state

    return _check_move(rules, start, goal, allowance, searched)


class MovesFrom(Generic[H]):
    """`check_move` from one start within one allowance to goal after goal (a unit's drags in
    one phase, each judged from the hex it began the phase in), each answer the one
    `check_move` gives: the search of each reading pops its states in the same order whatever
    the goal, so one search is kept and only carried on past the goals it has reached. The
    rules must not depend on the goal."""

    def __init__(self, rules: MovementRules[H], start: H, allowance: Number | None):
        self.rules, self.start, self.allowance = rules, start, allowance
        self._searches: dict[bool, _Search[H]] = {}

    def check(self, goal: H) -> MoveCheck[H]:
        return _check_move(self.rules, self.start, goal, self.allowance,
                           lambda certain: self._searched(certain, goal))

    def _searched(self, certain: bool, goal: H) -> tuple[_Search[H], dict, tuple | None]:
        search = self._searches.get(certain)
        if search is None:
            search = self._searches[certain] = _Search(self.rules, certain)
            search.begin(self.start, self.allowance)
        state = search.first.get(goal)
        if state is None:
            _best, _preds, state = search.resume(goal)
        return search, search.preds, state


def _check_move(rules: MovementRules[H], start: H, goal: H, allowance: Number | None,
                searched: Callable[[bool], tuple[_Search[H], dict, tuple | None]]) -> MoveCheck[H]:
    """`check_move`, the search of each reading (certain or not) as `searched` gives it."""
    if start == goal:
        return MoveCheck(Verdict(Ruling.LEGAL), Route((start,), (), 0))
    for certain in (True, False):
        search, preds, state = searched(certain)
        route: Route[H] | None = None
        if state is not None:
            route = _build_route(search, _walk_back(preds, state), allowance)
        mini = _minimum_move(rules, start, goal, allowance, certain)
        if route is None or (mini is not None and len(mini.depends_on) < len(route.depends_on)):
            route = mini or route
        if route is not None:
            if not route.depends_on:
                return MoveCheck(Verdict(Ruling.LEGAL), route)
            if not certain:
                return MoveCheck(Verdict(Ruling.POSSIBLE, depends_on=route.depends_on), route)
    limit = "any cost" if allowance is None else f"{allowance} + {rules.forced_march} forced march" \
        if rules.forced_march else str(allowance)
    reason = f"no path from {start} to {goal} within {limit}"
    return MoveCheck(Verdict(Ruling.PROVEN, reasons=(reason,)), None)


@dataclass(frozen=True, slots=True)
class Walk(Generic[H]):
    """The route a log shows, walked leg by leg (`follow_route`): the verdict, the route up to
    the goal (or up to the leg that fails, that leg excluded), and where and why it fails.

    `failure` is "entry" (the hop is not allowed: `may_enter`, terrain or hexside prohibited),
    "allowance" (beyond the allowance, forced march included), "forced march into" (a forced-march
    hop into a hex `forced_march_into` refuses), "forced march roll" (a forced-march hop with no
    roll logged before it) or "leg" (no path for a leg the log does not show hex by hex)."""

    check: MoveCheck[H]
    failed_at: int | None = None
    failure: str | None = None
    spent: Number = 0
    """What the legs before the failing one cost (the whole route when none fails)."""

    @property
    def ruling(self) -> Ruling:
        return self.check.ruling


def follow_route(rules: MovementRules[H], hexes: Sequence[H], allowance: Number,
                 marches: Sequence[Sequence[Number]] | None = None) -> Walk[H]:
    """Could the unit have moved along `hexes` (the start, then each hex a drag left it in)?

    Each drag to an adjacent hex is a hop paying for the hex entered (terrain and hexside, or
    the line joining the two when cheaper); a drag to a hex further away is a leg searched as
    `check_move` does, from what the route has spent. A hop whose cumulative cost exceeds
    `allowance` is a forced-march hop (up to `rules.forced_march` more, not into hexes
    `rules.forced_march_into` refuses). `marches[i]` are the extra MPs of the forced-march rolls
    logged before leg i (None: no rolls are needed): a forced-march hop needs one and pays the
    last, a searched leg pays them in order. No minimum move (it is a one-hex move: `check_move`).
    LEGAL, POSSIBLE (the data relied on) or PROVEN (the leg that fails and why), as `check_move`.
    """
    start = hexes[0]
    if len(hexes) < 2:
        return Walk(MoveCheck(Verdict(Ruling.LEGAL), Route((start,), (), 0)))
    last: Walk[H] | None = None
    for certain in (True, False):
        walk = _walk(rules, list(hexes), allowance, marches, certain)
        if walk.failed_at is None:
            data = walk.check.route.depends_on if walk.check.route is not None else _EMPTY
            if not data:
                return walk
            if not certain:
                return Walk(MoveCheck(Verdict(Ruling.POSSIBLE, depends_on=data), walk.check.route),
                            spent=walk.spent)
        last = walk
    assert last is not None
    return last


def _walk(rules: MovementRules[H], hexes: list[H], allowance: Number,
          marches: Sequence[Sequence[Number]] | None, certain: bool) -> Walk[H]:
    search = _Search(rules, certain)
    limit = allowance + rules.forced_march
    fm_into = rules.forced_march_into
    steps: list[Step[H]] = []
    total: Number = 0
    fm = 0
    data: frozenset[str] = _EMPTY

    def failed(i: int, why: str, reason: str) -> Walk[H]:
        route = Route(tuple(hexes[: i + 1]), tuple(steps), total, 0, fm, False, data)
        return Walk(MoveCheck(Verdict(Ruling.PROVEN, reasons=(reason,)), route), i, why, total)

    for i, (frm, to) in enumerate(zip(hexes, hexes[1:])):
        rolls = tuple(marches[i]) if marches is not None and i < len(marches) else ()
        if frm == to:
            continue
        if to not in set(rules.neighbours(frm)):
            leg = replace(rules, minimum_move=False, forced_march_costs=rolls if marches is not None else None)
            leg_search = _Search(leg, certain)
            _best, preds, state = leg_search.run(frm, allowance - total, to)
            if state is None:
                return failed(i, "leg", f"no path from {frm} to {to} within what is left of "
                                        f"{allowance}" + (f" + {rules.forced_march} forced march"
                                                          if rules.forced_march else ""))
            sub = _build_route(leg_search, _walk_back(preds, state), allowance - total)
            for s in sub.steps:
                steps.append(Step(s.frm, s.to, s.cost, s.via, s.parts, total + s.total, s.secondary,
                                  s.forced_march, s.stops, s.depends_on))
            total, fm, data = total + sub.cost, fm + sub.forced_march_hexes, data | sub.depends_on
            continue
        ev = search.step(frm, to, explain=True)
        if ev is None:
            return failed(i, "entry", f"{to} may not be entered from {frm}")
        cost, parts, step_data = ev.cost, ev.parts, ev.data
        is_fm = total + cost > allowance
        if is_fm:
            if not rules.forced_march:
                return failed(i, "allowance", f"entering {to} brings the cost to {total + cost}, "
                                              f"beyond {allowance}")
            if fm_into is not None:
                ok, fm_data = search._flag(fm_into(to), False)
                if not ok:
                    return failed(i, "forced march into", f"a forced march into {to} is not allowed")
                step_data = step_data | fm_data
            if marches is not None:
                if not rolls:
                    return failed(i, "forced march roll", f"entering {to} is a forced march "
                                                          f"(cost {total + cost} of {allowance}) "
                                                          "with no roll logged before it")
                cost = cost + rolls[-1]
                parts = parts + (("forced march", rolls[-1]),)
            if total + cost > limit:
                return failed(i, "allowance", f"entering {to} brings the cost to {total + cost}, "
                                              f"beyond {allowance} + {rules.forced_march} forced march")
        total = total + cost
        fm += is_fm
        data = data | step_data
        steps.append(Step(frm, to, cost, ev.via, parts, total, ev.secondary, is_fm, ev.stops, step_data))
        if ev.stops and i + 2 < len(hexes):
            return failed(i + 1, "entry", f"the unit must stop in {to}")
    route = Route(tuple(hexes), tuple(steps), total, 0, fm, False, data)
    return Walk(MoveCheck(Verdict(Ruling.LEGAL), route), spent=total)


def cheapest_cost(costs: Iterable[Cost]) -> Cost:
    """The least of several costs of one step: None (prohibited) only when all are; an Unknown
    that may be below the least known one stays Unknown, bounded by it."""
    known = [c for c in costs if c is not None and not isinstance(c, Unknown)]
    unknown = [c for c in costs if isinstance(c, Unknown)]
    least = min(known) if known else None
    unknown = [u for u in unknown if least is None or u.at_least < least]
    if not unknown:
        return least
    floor = min([u.at_least for u in unknown] + ([least] if least is not None else []))
    return Unknown(*sorted(d for u in unknown for d in u.data), at_least=floor, at_most=least)


def any_class(*rules: MovementRules[H]) -> MovementRules[H]:
    """The rules of a unit that may move by any of several classes and change class in the
    middle of a move (Island of Death 14.3: leaders). Each cost is the least over the classes,
    taken part by part (terrain, hexside, line, ZOC entry and exit) -- a lower bound of the
    cheapest class per hex, so a move it calls illegal is illegal by every mix of classes.
    The hex bans, stops and ZOC rules are the first rule set's."""
    first = rules[0]

    def least(name: str) -> Callable[..., Cost] | None:
        hooks = [getattr(r, name) for r in rules if getattr(r, name) is not None]
        if not hooks:
            return None
        return lambda *hexes: cheapest_cost([hook(*hexes) for hook in hooks])

    return MovementRules(
        neighbours=first.neighbours, enter_cost=least("enter_cost"), hexside_cost=least("hexside_cost"),
        line_cost=least("line_cost"), may_enter=first.may_enter, in_enemy_zoc=first.in_enemy_zoc,
        zoc_enter_cost=min(r.zoc_enter_cost for r in rules), zoc_exit_cost=min(r.zoc_exit_cost for r in rules),
        stop_on_zoc_entry=first.stop_on_zoc_entry, zoc_to_zoc=first.zoc_to_zoc, stops_after=first.stops_after,
        minimum_move=first.minimum_move)


def best_of(*checks: MoveCheck[H]) -> MoveCheck[H]:
    """The best of several ways the move could have been made (modes, units, assumptions).

    Lion of Judah 10.2.1: an HQ moves one hex, or its full MF along a continuous road, rail or
    track route, or by truck -- three rule sets, one logged move. LEGAL if any is legal (the
    cheapest such route), else POSSIBLE with the fewest data, else PROVEN with every reason.
    """
    if not checks:
        return MoveCheck(Verdict(Ruling.PROVEN, reasons=("no way to move",)), None)
    legal = [c for c in checks if c.ruling is Ruling.LEGAL]
    if legal:
        return min(legal, key=lambda c: c.route.cost if c.route is not None else 0)
    possible = [c for c in checks if c.ruling is Ruling.POSSIBLE]
    if possible:
        return min(possible, key=lambda c: (len(c.verdict.depends_on), sorted(c.verdict.depends_on)))
    reasons = tuple(r for c in checks for r in c.verdict.reasons)
    return MoveCheck(Verdict(Ruling.PROVEN, reasons=reasons), None)


def nearest(rules: MovementRules[H], start: H, is_goal: Callable[[H], bool],
            allowance: Number | None = None) -> MoveCheck[H]:
    """The cheapest route to any hex satisfying `is_goal` (the start counts when it does).

    Sideshow 6.44 ("end movement within three APs of Town, Depot or controlled Railroad hex",
    counted as if moving there) and 8.27 (retreat toward the nearest controlled town) ask for
    the nearest hex of a kind rather than a given hex. Verdicts as in `check_move`; minimum
    moves are not considered.
    """
    if is_goal(start):
        return MoveCheck(Verdict(Ruling.LEGAL), Route((start,), (), 0))
    for certain in (True, False):
        search = _Search(rules, certain)
        _best, preds, state = search.run(start, allowance, is_goal=is_goal)
        if state is None:
            continue
        route = _build_route(search, _walk_back(preds, state), allowance)
        if not route.depends_on:
            return MoveCheck(Verdict(Ruling.LEGAL), route)
        if not certain:
            return MoveCheck(Verdict(Ruling.POSSIBLE, depends_on=route.depends_on), route)
    limit = "any cost" if allowance is None else str(allowance)
    return MoveCheck(Verdict(Ruling.PROVEN, reasons=(f"no goal hex from {start} within {limit}",)),
                     None)


def reachable(rules: MovementRules[H], start: H, allowance: Number | None) -> dict[H, Number]:
    """Every hex the unit can certainly reach (known data only), with its cheapest cost.

    The minimum move is not included (it is per-goal; see `check_move`).
    """
    best, _, _ = _Search(rules, True).run(start, allowance)
    out: dict[H, Number] = {}
    for (hex_, _stopped, _marched), (cost, _sec, _data) in best.items():
        if hex_ not in out or cost < out[hex_]:
            out[hex_] = cost
    return out


def cheapest_routes(rules: MovementRules[H], start: H, goal: H, allowance: Number | None = None,
                    limit: int = 10) -> list[Route[H]]:
    """Up to `limit` distinct cheapest routes on known data (all tie on cost and secondary)."""
    if limit <= 0:
        return []
    search = _Search(rules, True)
    best, preds, state = search.run(start, allowance, goal)
    if state is None:
        return []
    # stopped and moving states (and forced-march counts) at the goal can tie; take them all
    goal_states = [s for s in best if s[0] == goal]
    low = min(best[s][:2] for s in goal_states)
    goal_states = [s for s in goal_states if best[s][:2] == low]
    routes: list[Route[H]] = []
    seen: set[tuple[H, ...]] = set()
    stack: list[tuple[tuple, tuple[H, ...]]] = [(s, (s[0],)) for s in goal_states]
    while stack and len(routes) < limit:
        state, suffix = stack.pop()
        before = preds.get(state)
        if not before:
            path = suffix
            if path not in seen:
                seen.add(path)
                routes.append(_build_route(search, list(path), allowance))
            continue
        for prev in before:
            stack.append((prev, (prev[0],) + suffix))
    return routes
