"""Dismantling strongpoints (16.25): the British engineer companies enter play only in place of
dismantled strongpoints.

In the Initial Segment of 30 June and of each later day the Allied player may remove
strongpoints and place one British engineer company for every four removed, in the hex of one
of them; there are two such companies. An engineer company placed on the map once play has begun
(the turn tracker has moved) is judged: in an Initial Segment of 30 June or later, in a hex a
strongpoint was removed from in that segment, with four strongpoints removed in it for each
company placed. Placements before the tracker first moves are the set-up, not judged here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Placed, Removed

from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

ENGINEERS = "al-engineer-coy"
STRONGPOINTS_PER_ENGINEER = 4
"""16.25: one engineer company for every four strongpoints removed."""
NO_DISMANTLING_DAY = "29 June"
"""16.25: from the Initial Segment of 30 June."""


class Dismantling(Ledger):
    """The ledger of the current Initial Segment's dismantling, and whether play has begun."""

    def __init__(self) -> None:
        self.started = False
        self.removed: list[str] = []
        """The hexes strongpoints were removed from in the current Initial Segment."""
        self.placed = 0
        """Engineer companies placed in the current Initial Segment."""

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.started = self.started or change.old is not None
        self.removed, self.placed = [], 0
        return ()


@REGISTRY.check("SPU-07", event=Removed)
def note_dismantled(game: "IslandOfDeath", event: Removed, view: "StepView") -> list["Finding"]:
    """Remembers the strongpoints removed in an Initial Segment."""
    phase = game.phase
    if event.unit.kind == "strongpoint" and phase is not None and phase.name == "initial-segment":
        game.dismantling.removed.append(event.unit.hex)
    return []


@REGISTRY.check("SPU-07", event=Placed)
def judge_engineers(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """16.25: an engineer company comes in for four strongpoints dismantled, in one's hex."""
    unit, phase, ledger = event.unit, game.phase, game.dismantling
    if unit.counter != ENGINEERS or phase is None or not ledger.started:
        return []
    label = phase.sequence.labels.get(phase.turn, "")
    evidence = {"unit": unit.counter, "hex": unit.hex, "phase": phase.name, "turn": phase.turn,
                "removed_hexes": list(ledger.removed)}

    def finding(message: str, more: dict[str, Any] | None = None) -> list["Finding"]:
        return [game.finding("SPU-07", Ruling.PROVEN, step=event.step,
                             message=f"{unit.label()} placed in {unit.hex}: {message} (16.25)",
                             subjects=(unit.name,), evidence={**evidence, **(more or {})})]

    if phase.name != "initial-segment" or label.startswith(NO_DISMANTLING_DAY):
        return finding(f"engineer companies enter only for dismantled strongpoints, in an Initial Segment from "
                       f"30 June, not in {game.when_of(phase)}")
    ledger.placed += 1
    needed = STRONGPOINTS_PER_ENGINEER * ledger.placed
    if len(ledger.removed) < needed:
        return finding(f"{len(ledger.removed)} strongpoints were removed in this Initial Segment; company "
                       f"{ledger.placed} needs {needed}", {"removed": len(ledger.removed), "needed": needed})
    if unit.hex not in ledger.removed:
        return finding(f"not the hex of a strongpoint removed in this Initial Segment "
                       f"({', '.join(ledger.removed)})")
    return []
