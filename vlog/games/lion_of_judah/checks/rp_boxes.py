"""RP storage boxes, what is in them and the RP routes that reach them (7.3, 10.3.1; PB 13.5.2.1,
14.2): the boxes and their USS hexes from map.json, the RPs a marker shows, the trucks in a box,
and an HQ's RP route (HQ-02). checks/logistics.py keeps the RPs of each box through the log.
"""
from __future__ import annotations

import heapq
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.state import GameState, Unit, build_state

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.board import Board
    from vlog.table import Table

__all__ = ["BASE_RP_ROUTE", "MAX_BOX_TRUCKS", "RpBox", "rp_boxes", "rp_value", "rp_in_box", "trucks_in_box",
           "rp_route_cost", "boxes_reached", "datum_value", "judge_rp_route"]
BASE_RP_ROUTE = 4
"""7.3.2: the base RP route is four hexes."""
MAX_BOX_TRUCKS = 3
"""7.3.2: up to three trucks per box, each +1 hex of RP route."""
_RP_LEVEL = re.compile(r"^(\d+)rp$")


@dataclass(frozen=True, slots=True)
class RpBox:
    """An RP storage box: whose it is, in which scenario, and its USS hexes (map.json)."""

    id: str
    name: str
    side: str | None
    scenario: str | None
    uss: tuple[str, ...]


_BOXES_CACHE: dict[int, tuple["GameData", dict[str, RpBox]]] = {}


def rp_boxes(data: "GameData") -> dict[str, RpBox]:
    """Box id -> RpBox for every box of type rp-storage in map.json."""
    cached = _BOXES_CACHE.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    out: dict[str, RpBox] = {}
    for raw_map in data.documents["map"]["maps"]:
        for box in raw_map.get("boxes") or ():
            if datum_value(box.get("type")) != "rp-storage":
                continue
            props = box.get("properties") or {}
            uss = datum_value(props.get("uss"))
            out[box["id"]] = RpBox(box["id"], str(datum_value(box.get("name")) or box["id"]),
                                   datum_value(props.get("side")), datum_value(props.get("scenario")),
                                   tuple(uss) if isinstance(uss, list) else ())
    if len(_BOXES_CACHE) > 16:
        _BOXES_CACHE.clear()
    _BOXES_CACHE[id(data)] = (data, out)
    return out


def datum_value(datum: Any) -> Any:
    return datum.get("value") if isinstance(datum, dict) else None


def rp_value(unit: Unit) -> int:
    """RPs a marker shows (7.3.1), from its face level `<n>rp`; 0 for anything else."""
    if unit.kind != "rp" or unit.level is None:
        return 0
    match = _RP_LEVEL.match(unit.level)
    return int(match.group(1)) if match else 0


def rp_in_box(where: "GameState | Table", box_id: str, data: "GameData | None" = None, *,
              side: str | None = None) -> int:
    """RPs the markers in a box show (of one side's markers when `side` is given). `where` is a
    game state, or a table read with `data`."""
    state = where if isinstance(where, GameState) else None
    if state is None:
        if data is None:
            raise ValueError("rp_in_box on a table needs the game data")
        state = build_state(where, data)  # type: ignore[arg-type]
    return sum(rp_value(u) for u in state.units.values()
               if u.kind == "rp" and u.box == box_id and (side is None or u.side == side))


def trucks_in_box(state: GameState, box_id: str) -> list[Unit]:
    return [u for u in state.units.values() if u.kind == "truck" and u.box == box_id]


def _hex_cost(board: "Board", a: str, b: str, roads: frozenset[str]) -> tuple[Fraction, Fraction, tuple[str, ...]]:
    """(lowest, highest, unknown data) the RP route counts for entering b from a: 0 along
    contiguous road or rail hexes (built roads, 10.2.2.1, included), 1/2 along a dirt track,
    else 1."""
    if a in roads and b in roads:
        return Fraction(0), Fraction(0), ()
    kinds = board.line_kinds(a, b)
    if isinstance(kinds, Unknown):
        return Fraction(0), Fraction(1), tuple(kinds.data)
    if kinds & {"rail", "road"}:
        return Fraction(0), Fraction(0), ()
    if "dirt-track" in kinds:
        return Fraction(1, 2), Fraction(1, 2), ()
    return Fraction(1), Fraction(1), ()


def rp_route_cost(board: "Board", state: GameState, side: str, start: str, goal: str,
                  limit: Fraction) -> tuple[Fraction | None, Fraction | None, tuple[str, ...]]:
    """(lowest, highest) RP route counts from `start` (a USS, not counted) to `goal` (counted)
    within `limit`, never entering a hex of enemy units (7.3.2); None for no route within the
    limit. The unknown map data the lowest reading assumed are returned too."""
    enemy = {u.hex for u in state.units.values() if u.hex is not None and u.side is not None
             and u.side != side and u.kind != "air"}
    roads = frozenset(u.hex for u in state.units.values()
                      if u.hex is not None and u.counter == "road-marker" and u.level == "road")
    found: list[Fraction | None] = []
    unknown: set[str] = set()
    for pick in (0, 1):
        best: dict[str, Fraction] = {start: Fraction(0)}
        queue: list[tuple[Fraction, str]] = [(Fraction(0), start)]
        result: Fraction | None = None
        while queue:
            cost, here = heapq.heappop(queue)
            if cost > best.get(here, cost):
                continue
            if here == goal:
                result = cost
                break
            for nxt in board.neighbours(here):
                if nxt in enemy and nxt != goal:
                    continue
                low, high, data = _hex_cost(board, here, nxt, roads)
                step = (low, high)[pick]
                if pick == 0 and data:
                    unknown.update(data)
                total = cost + step
                if total <= limit and total < best.get(nxt, limit + 1):
                    best[nxt] = total
                    heapq.heappush(queue, (total, nxt))
        found.append(result)
    return found[0], found[1], tuple(sorted(unknown))


def _usable_boxes(hq: Unit, boxes: Mapping[str, RpBox], scenario: str | None) -> list[RpBox]:
    return [b for b in boxes.values() if b.side == hq.side and b.uss
            and (scenario is None or b.scenario in (None, scenario))]


def _box_reach(board: "Board", state: GameState, hq: Unit, box: RpBox) -> tuple[Ruling, set[str], list[dict[str, Any]]]:
    """Whether an RP route from the box's USS reaches the HQ (7.3.2): LEGAL on every reading of
    the map, POSSIBLE on some (with the data that would settle it), PROVEN not; and the routes
    tried, as evidence."""
    trucks = min(len(trucks_in_box(state, box.id)), MAX_BOX_TRUCKS)
    limit = Fraction(BASE_RP_ROUTE + trucks)
    tried: list[dict[str, Any]] = []
    unknown: set[str] = set()
    for uss in box.uss:
        low, high, data = rp_route_cost(board, state, hq.side or "", uss, hq.hex or "", limit)
        if high is not None:
            return Ruling.LEGAL, set(), []
        if low is not None:
            unknown.update(data)
        tried.append({"box": box.id, "uss": uss, "trucks": trucks, "route_limit": int(limit),
                      "distance": board.distance(uss, hq.hex)})
    return (Ruling.POSSIBLE if unknown else Ruling.PROVEN), unknown, tried


def boxes_reached(board: "Board", state: GameState, hq: Unit, boxes: Mapping[str, RpBox], *,
                  scenario: str | None) -> tuple[frozenset[str], frozenset[str]]:
    """The RP boxes of the HQ's side whose USS an RP route surely reaches it from, and those it
    may reach on some reading of the map (HQ-02 per box)."""
    sure, maybe = set(), set()
    if hq.hex is None or hq.side is None:
        return frozenset(), frozenset()
    for box in _usable_boxes(hq, boxes, scenario):
        ruling, _, _ = _box_reach(board, state, hq, box)
        if ruling is Ruling.LEGAL:
            sure.add(box.id)
        elif ruling is Ruling.POSSIBLE:
            maybe.add(box.id)
    return frozenset(sure), frozenset(maybe)


@REGISTRY.reports("HQ-02")
def judge_rp_route(board: "Board", state: GameState, hq: Unit, boxes: Mapping[str, RpBox], *,
                   scenario: str | None, rps_shown: bool, step: int | None,
                   when: str | None, target: str) -> list[Finding]:
    """HQ-02 (7.3.2; 10.2.3): an HQ that supports a combat spends an RP from a box of its side
    whose USS it reaches by an RP route of 4 hexes, +1 per truck in that box (at most 3).
    `rps_shown`: the log shows this side's RP markers, so a box without markers holds no RPs."""
    if hq.hex is None or hq.side is None:
        return []
    usable = _usable_boxes(hq, boxes, scenario)
    if not usable:
        return []
    tried: list[dict[str, Any]] = []
    unknown: set[str] = set()
    possible = False
    for box in usable:
        rps = rp_in_box(state, box.id, side=hq.side)
        if rps_shown and rps == 0:
            tried.append({"box": box.id, "rps": 0})
            continue
        ruling, data, routes = _box_reach(board, state, hq, box)
        if ruling is Ruling.LEGAL:
            return []                           # a route every reading of the map allows
        if ruling is Ruling.POSSIBLE:
            possible = True
            unknown.update(data)
        tried.extend({"box": box.id, "rps": rps if rps_shown else None, **r} for r in routes)
    ruling = Ruling.POSSIBLE if possible else Ruling.PROVEN
    reachable = [t for t in tried if "uss" in t]
    if reachable:
        nearest = min(reachable, key=lambda t: t["distance"])
        why = (f"no RP route of at most {nearest['route_limit']} hexes "
               f"({BASE_RP_ROUTE} + {nearest['trucks']} truck{'s' if nearest['trucks'] != 1 else ''} "
               f"in the box) reaches it from {hex_label(nearest['uss'], board)}, "
               f"{nearest['distance']} hexes away")
        if len(reachable) > 1:
            why += " or another USS of its side with RPs"
    else:
        why = "no RP storage box of its side holds an RP"
    return [finding("HQ-02", ruling, step=step, when=when, subjects=(hq.name,),
                    message=f"HQ {hq.name} at {hex_label(hq.hex, board)} supports the combat on "
                            f"{hex_label(target, board)}, but {why}",
                    evidence={"hq_hex": hq.hex, "target": target, "boxes": tried},
                    depends_on=sorted(unknown) if possible else ())]
