"""Judging a move by the route a log shows, and the forced marches along it.

VASSAL logs one drag a step: a unit dragged hex by hex shows its route, a unit dragged once only
its start and end. These helpers hold what every game's movement check does with that
(`vlog.engine.movement` does the searching):

* `hop_by_hop`, `along`: a route shown drag by drag to adjacent hexes is walked
  (`follow_route`), anything else searched from its ends (`check_move`);
* `drags_back`, `corrections`: a route that enters a hex again may hold corrections rather than
  moves, which is what would settle a failing walk while a cheaper route fits;
* `cheapest`, `route_evidence`: the cheapest route, bounded, and a route as a finding's evidence;
* `best_walk`: of the walks of a unit whose movement class is unknown, the one to report;
* `classes`: the movement classes a unit may have (`Unknown` -> both);
* forced marches: `roll_surcharge` and `leg_surcharges` (the extra MPs of the rolls logged
  before each drag, from a table whose cells lead with a number, "1/A" -> 1) and
  `prohibited_into` (the terrain and features no unit force-marches into).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from vlog.engine.judge import Ruling, Unknown, unknowns
from vlog.engine.movement import MoveCheck, MovementRules, Walk, check_move, follow_route
from vlog.kit.numbers import plain_number

__all__ = ["CORRECTIONS", "along", "best_walk", "cheapest", "classes", "corrections", "drags_back",
           "hop_by_hop", "leg_surcharges", "prohibited_into", "roll_surcharge", "route_evidence"]

H = TypeVar("H")

CORRECTIONS = "whether the drags back ({}) were corrections, not moves"
"""What settles a move whose logged route is too long while its cheapest route fits (a game
adds its rule: `corrections(path, template)`)."""


def classes(motorized: bool | Unknown) -> list[bool]:
    """The classes to judge a move in: both when the unit's class is unknown."""
    return [True, False] if isinstance(motorized, Unknown) else [bool(motorized)]


def hop_by_hop(neighbours: Callable[[H], Iterable[H]], path: Sequence[H]) -> bool:
    """True when the log shows the move drag by drag (two drags at least), each to an adjacent
    hex: the route a move (and an exception to the usual costs) must then hold along."""
    return len(path) >= 3 and all(b in neighbours(a) for a, b in zip(path, path[1:]) if a != b)


def along(rules: MovementRules[H], path: Sequence[H], start: H, goal: H, allowance: Any) -> MoveCheck[H]:
    """The move judged along `path` when it is shown hop by hop, else searched from `start` to
    `goal`."""
    if hop_by_hop(rules.neighbours, path):
        return follow_route(rules, path, allowance).check
    return check_move(rules, start, goal, allowance)


def drags_back(path: Iterable[H]) -> list[H]:
    """The hexes a logged route enters again after leaving them (its start included)."""
    seen: set[H] = set()
    back: list[H] = []
    for hex_ in path:
        if hex_ in seen and hex_ not in back:
            back.append(hex_)
        seen.add(hex_)
    return back


def corrections(path: Iterable[str], template: str = CORRECTIONS) -> str | None:
    """What would make a failing logged route no mistake: that its drags back were corrections
    (`template` names them at "{}"; None when it never goes back)."""
    back = drags_back(path)
    return template.format(", ".join(back)) if back else None


def cheapest(rules: MovementRules[H], start: H, goal: H, allowance: Any, *, factor: int = 3,
             least: Any = 12) -> MoveCheck[H]:
    """The cheapest route ignoring the allowance (no minimum move, no forced march), sought up to
    `factor` times the allowance (at least `least` MPs): far enough to show by how much a move
    fails, bounded so a wild move stays cheap to judge."""
    free = replace(rules, minimum_move=False, forced_march=0)
    return check_move(free, start, goal, max(least, factor * allowance))


def route_evidence(check: MoveCheck[H] | None, label: Callable[[H], str] = str) -> dict[str, Any]:
    """A found route as evidence: its hexes, cost, how each hop was paid, forced-march hexes."""
    if check is None or check.route is None:
        return {}
    route = check.route
    return {"route": list(route.hexes), "route_cost": plain_number(route.cost),
            "route_explained": route.explain(label), "forced_march_hexes": route.forced_march_hexes}


def best_walk(walks: Sequence[tuple[Any, Walk[H]]]) -> tuple[Any, Walk[H]]:
    """Of (class, walk) pairs none of which is legal, the one to report: a possible one first,
    else a proven failure."""
    possible = [(c, w) for c, w in walks if w.ruling is Ruling.POSSIBLE]
    return (possible or [(c, w) for c, w in walks if w.ruling is Ruling.PROVEN] or list(walks))[0]


# -- forced marches ------------------------------------------------------------------------------

def roll_surcharge(data: Any, table: str, roll: int) -> tuple[Any, str | None]:
    """Extra MPs a forced-march roll adds: the number its cell of `table` leads with ("1/A" ->
    1); else 0 with the cell named as the datum that would settle it."""
    cell = data.table(table).lookup(str(roll))
    if cell.value is None:
        return 0, f"forced march table, roll {roll}"
    text = str(cell.value).split("/")[0].strip()
    try:
        return int(text), None
    except ValueError:
        return 0, f"forced march table, roll {roll} ({cell.value})"


def leg_surcharges(data: Any, table: str, leg_rolls: Iterable[Iterable[int]]
                   ) -> tuple[list[tuple[Any, ...]], set[str]]:
    """The extra MPs of the rolls logged before each drag (`follow_route`'s `marches`) and the
    table cells that lack a number."""
    marches: list[tuple[Any, ...]] = []
    missing: set[str] = set()
    for rolls in leg_rolls:
        extras = []
        for roll in rolls:
            extra, datum = roll_surcharge(data, table, roll)
            extras.append(extra)
            if datum:
                missing.add(datum)
        marches.append(tuple(extras))
    return marches, missing


def prohibited_into(view: Any, *, features: Sequence[str] = (), terrains: Sequence[str] = ()
                    ) -> Callable[[str], bool | Unknown]:
    """`MovementRules.forced_march_into` for a map view: no forced march into a hex with one of
    `features` or of one of `terrains`; `Unknown` where the data lack either."""

    def into(hex_: str) -> bool | Unknown:
        answers = []
        for feature in features:
            has = view.has_feature(hex_, feature)
            if has is True:
                return False
            answers.append(has)
        terrain = view.terrain(hex_)
        if terrain in terrains:
            return False
        missing = unknowns(*answers, terrain)
        return Unknown(*missing) if missing else True

    return into
