"""Air markers (10.1, PB 13.6.5, PB 14.6.9): the range from an air base.

AR-01 (10.1.1): every air mission's hex is within the marker's range (4 hexes; Allied markers
in 1940-41: 5) of an air base, the base hex not counted; an air base is a friendly-controlled
town or capital hex that is itself in supply, usable the instant it is controlled.
"""
from __future__ import annotations

from typing import Any

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import finding
from vlog.games.lion_of_judah.checks.supply import controller, trace
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["air_range", "judge_air_mission"]

ALLIED_RANGE_1940 = 5   # PB 14.6.9


def air_range(board: Board, marker: Unit, scenario: str | None) -> int | Unknown:
    """The range printed on the marker (counters.json), 5 for Allied markers in 1940-41."""
    if marker.side == "allied" and scenario == "1940-41":
        return ALLIED_RANGE_1940
    if marker.counter is not None:
        levels = board.data.counter(marker.counter)["levels"] if "levels" in board.data.counter(marker.counter) else {}
        for level in levels.values():
            if "range" in level and level["range"].value is not None:
                return int(level["range"].value)
    return Unknown(f"range of air marker {marker.name}")


def judge_air_mission(board: Board, state: GameState, marker: Unit, target: str, *,
                      step: int | None, when: str | None) -> list[Finding]:
    """AR-01 for an air marker placed in `target` (state: the position it was placed in)."""
    reach = air_range(board, marker, state.scenario)
    if isinstance(reach, Unknown) or marker.side is None:
        return []
    layout = board.layout
    centre = layout.parse(target)
    unknown_hexes: list[str] = []
    for h in layout.within(centre, reach):
        if not layout.on_map(h):
            continue
        hex_ = layout.name(h)
        town = [board.has_feature(hex_, f) for f in ("town", "capital")]
        if not any(t is True for t in town):
            if any(isinstance(t, Unknown) for t in town):
                unknown_hexes.append(hex_)
            continue
        who = controller(board, state, hex_)
        if isinstance(who, Unknown):
            unknown_hexes.append(hex_)
            continue
        if who != marker.side:
            continue
        base = Unit(id=f"air-base-{hex_}", name=f"air base {hex_}", side=marker.side, hex=hex_)
        supplied = trace(board, state, base)
        if supplied is None or supplied.ruling is Ruling.POSSIBLE:
            unknown_hexes.append(hex_)
            continue
        if supplied.ruling is Ruling.LEGAL:
            return []
    where = hex_label(target, board)
    evidence: dict[str, Any] = {"hex": target, "range": reach, "hexes_unsettled": len(unknown_hexes)}
    if unknown_hexes:
        datum = (f"map.json town/capital features, control or supply of {len(unknown_hexes)} hex(es) "
                 f"within {reach} of {target}")
        return [finding("AR-01", Ruling.POSSIBLE, step=step, when=when, subjects=(marker.name,),
                        message=f"air marker {marker.name} flew to {where}; no air base is known to be "
                                f"within {reach} hexes", evidence=evidence, depends_on=(datum,))]
    return [finding("AR-01", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                    message=f"air marker {marker.name} flew to {where}, more than {reach} hexes from "
                            "any friendly-controlled, supplied town or capital",
                    evidence=evidence)]
