"""When battalions break down and reform (13.1, 13.2, 18.7, 19.6).

A battalion breaks down at the start of its side's Movement Phase: its piece goes from its hex to
the Disbandment Box (13.1), before any unit of that side has moved in the phase. It reforms at the
end of a friendly Movement Phase, after the beach move of the Amphibious Landing Phase (18.7) or
the rally move of the Airborne Landing Phase (19.6): its piece comes from the Disbandment Box
onto the map, and no unit of that side moves after it in that Movement Phase. The Battalion
Breakdown Chart (which companies) is not in the data: which companies come or go is not judged.
A battalion that goes from a hex to the Disbandment Box is read as broken down (the box holds
disbanded units, not eliminated ones, 3.0b).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Moved

from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

DISBANDMENT = "disbandment"
REFORM_PHASES = ("amphibious-landing", "airborne-landing")
"""18.7, 19.6: the Axis landing phases end with a move and a reformation."""


class Breakdown(Ledger):
    """What the current phase saw: the units of the phasing side that moved on the map, and the
    battalions that reformed in it (unit id -> step)."""

    def __init__(self) -> None:
        self.moved: dict[str, int | None] = {}
        self.reformed: dict[str, tuple[str, int | None]] = {}

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.moved, self.reformed = {}, {}
        return ()


def _movement_phase(phase: Any, side: str) -> bool:
    return phase is not None and "movement" in phase.kinds and phase.phasing == side


@REGISTRY.check("SEQ-05")
def judge_breakdown_time(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """13.1, 13.2: breakdown at the start of the friendly Movement Phase, reformation at its end
    (or at the end of a landing phase's move)."""
    unit, after, phase = event.before, event.after, game.phase
    if phase is None or not unit.is_ground_unit:
        return []
    ledger: Breakdown = game.breakdown
    battalion = unit.size == "battalion"
    if battalion and unit.hex is not None and after.box == DISBANDMENT:
        if not _movement_phase(phase, unit.side):
            return [_finding(game, event, unit, f"broke down in {unit.hex} in the {phase.name} phase: battalions "
                                                 f"break down at the start of the friendly Movement Phase (13.1)",
                             {"hex": unit.hex, "phase": phase.name})]
        earlier = {k: s for k, s in ledger.moved.items() if k != unit.id}
        if earlier:
            first = min(earlier.items(), key=lambda kv: kv[1] if kv[1] is not None else -1)
            mover = game.units(view.before).get(first[0])
            return [_finding(game, event, unit, f"broke down in {unit.hex} after "
                                                 f"{mover.label() if mover else first[0]} moved (step {first[1]}): "
                                                 f"battalions break down at the start of the Movement Phase (13.1)",
                             {"hex": unit.hex, "phase": phase.name, "after_step": first[1]})]
        return []
    if battalion and unit.box == DISBANDMENT and after.hex is not None:
        if _movement_phase(phase, unit.side):
            ledger.reformed[unit.id] = (after.hex, event.step)
            return []
        if phase.name in REFORM_PHASES and unit.side == "axis":
            return []
        return [_finding(game, event, after, f"reformed in {after.hex} in the {phase.name} phase: battalions reform "
                                              f"at the end of a friendly Movement Phase (13.2)",
                         {"hex": after.hex, "phase": phase.name})]
    if unit.hex is None or after.hex is None or not _movement_phase(phase, unit.side) or unit.is_leader:
        return []
    ledger.moved.setdefault(unit.id, event.step)
    reformed = {k: v for k, v in ledger.reformed.items() if k != unit.id}
    if not reformed:
        return []
    first_id, (hex_, step) = min(reformed.items(), key=lambda kv: kv[1][1] if kv[1][1] is not None else -1)
    ledger.reformed.clear()                               # one finding for the reformation
    battalion_unit = game.units(view.before).get(first_id)
    return [_finding(game, event, unit, f"moved {unit.hex} -> {after.hex} after "
                                         f"{battalion_unit.label() if battalion_unit else first_id} reformed in "
                                         f"{hex_} (step {step}): battalions reform at the end of the Movement Phase (13.2)",
                     {"from": unit.hex, "to": after.hex, "reformed": first_id, "reformed_step": step})]


def _finding(game: "IslandOfDeath", event: Moved, unit: Any, what: str, evidence: dict[str, Any]) -> "Finding":
    return game.finding("SEQ-05", Ruling.PROVEN, step=event.step, message=f"{unit.label()} {what}",
                        subjects=(unit.name,), evidence={"unit": unit.counter, **evidence})
