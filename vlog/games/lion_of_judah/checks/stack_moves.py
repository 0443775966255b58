"""Moving stacks (11.3): MV-08.

Each unit or stack finishes its movement before another begins (the opponent may allow a change);
a stack moves together only if it began the movement segment stacked; a unit dropped off a moving
stack moves no further that segment.

How a log shows it (the VASSAL reading): a stack dragged at once moves its pieces in one step; a
stack moved piece by piece moves them one after another, each following the same hop. Within a
movement segment the moving stack is the units that began the segment in one hex; a unit from
another hex starts the next move and ends that stack's movement (`vlog.kit.movement.StackMoves`
keeps that account). Air markers, RP markers, trucks (carriers with their own rules, 10.3) and
other markers are left out.

* A unit moving again after another stack began moving: POSSIBLE, naming the opponent's permission.
* Units moved in one step from one hex that began the segment in different hexes: PROVEN (a
  stack formed on the way moved on together).
* Two units that made the same hop together, when one goes on and the other later leaves that hex
  for another: PROVEN (it was dropped off).

MV-09 needs no check of its own: each member of a stack is judged by its own MF from where it
began (movement.py), so none outruns the slowest while they move together, and those dropping
the slowest go on with their own MF less what they have spent.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, GameLedger, finding
from vlog.games.lion_of_judah.step_events import PhaseTurned
from vlog.games.lion_of_judah.state import Unit
from vlog.kit import movement as kit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.steps import StepView

__all__ = ["StackMoves", "PERMISSION"]

LEFT_OUT = ("air", "rp", "truck", "marker")
PERMISSION = "the opponent's permission to change the order of moves (11.3)"


@dataclass(slots=True)
class StackMoves(GameLedger):
    """The moves of one movement segment, as stacks."""

    board: Board
    moves: kit.StackMoves = field(default_factory=kit.StackMoves)

    def phase(self, change: PhaseTurned, view: "StepView") -> list[Finding]:
        self.reset()
        return []

    def reset(self) -> None:
        """A new phase: every unit begins its movement afresh."""
        self.moves.reset()

    @REGISTRY.reports("MV-08")
    def move(self, unit: Unit, start: str, to: str, *, step: int, when: str | None) -> list[Finding]:
        """Judge one unit's hop from `start` to `to` in a movement segment."""
        if unit.kind in LEFT_OUT:
            return []
        return [self._finding(b, step=step, when=when) for b in self.moves.move(unit, start, to, step=step)]

    def _finding(self, b: kit.StackBreach, *, step: int, when: str | None) -> Finding:
        name, at = b.unit.name, (lambda hex_: hex_label(hex_, self.board))
        if b.kind == "again":
            return finding(
                "MV-08", Ruling.POSSIBLE, step=step, when=when, subjects=(name, b.other),
                message=f"{name} moved again (from {at(b.start)}) after {b.other} began its move at step "
                        f"{b.at}: each unit or stack finishes its movement before another begins (11.3)",
                evidence={"unit": name, "from": b.start, "to": b.to, "other_began_at_step": b.at,
                          "other": b.other}, depends_on=(PERMISSION,))
        if b.kind == "apart":
            return finding(
                "MV-08", Ruling.PROVEN, step=step, when=when, subjects=(name, b.other),
                message=f"{name} and {b.other} moved together from {at(b.start)} to {at(b.to)}, but began "
                        f"the segment apart ({at(b.origin)} and {at(b.other_origin)}): a stack moves "
                        "together only if it began the movement segment stacked (11.3)",
                evidence={"units": [name, b.other], "from": b.start, "to": b.to,
                          "began_at": {name: b.origin, b.other: b.other_origin}})
        return finding(
            "MV-08", Ruling.PROVEN, step=step, when=when, subjects=(name, b.other),
            message=f"{name} moved on from {at(b.start)} to {at(b.to)} after {b.other}, with which it had "
                    f"moved, went on to {at(b.went)}: a unit dropped off a moving stack moves no further "
                    "that segment (11.3)",
            evidence={"unit": name, "dropped_at": b.start, "stack_went_to": b.went, "to": b.to,
                      "other": b.other})
