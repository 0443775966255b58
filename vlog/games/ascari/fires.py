"""The fire attacks a log shows, each with the dice rolled for it, until its result is on the table.

A fire is declared in chat (`fire UNIT at HEX`, `opfire UNIT at HEX`: chat.py) and resolved at
once (4.31, 4.5, 4.61): its 1d6, then the step losses and, when a leader is stacked with a
target hit, the leader's 1d6 (5 or 6: the leader takes a hit). A fire is taken to be resolved
when the next fire is declared, a unit moves (an opportunity-fire target is hit before it enters
a new hex, 4.32) or the phase changes: the engine then tells a `FireResolved` event with the fire
as declared, the table before it and the 1d6 rolls since, and the checks (checks/fire_results.py)
hold the table at that moment against the dice. A fire still open when the log ends is told at
the end (`at_end`), judged on the final position: a result the final position shows as the dice
allow is judged, anything else is an occasion not settled (the next log may hold the rest). A fire
resolved because the next fire was declared (`by` "fire") may have its result applied after that
declaration: a result not yet on the table then is not proven missing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared, Event, Moved, PhaseChanged

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView

__all__ = ["END", "FireResolved", "Fires", "Shot"]

END = "end"
"""How a fire or a melée still open when the log ends is said to be resolved (`by`)."""


@dataclass(slots=True)
class Shot:
    """One fire attack: `firer` (as it stood) at `target` from `step`, the units on the table
    before it (piece id -> unit) and the faces of the 1d6 rolls made since, in order."""

    firer: Any
    target: str
    opportunity: bool
    step: int | None
    units: dict[str, Any]
    dice: list[int] = field(default_factory=list)
    rolls: int = 0
    """Rolls of any kind seen since the declaration (its own step's included)."""


@dataclass(frozen=True, slots=True)
class FireResolved(Event):
    """A fire's result is due: `shot`, judged against the table before this step."""

    shot: Shot
    by: str = "move"
    """What resolved it: "fire" (the next fire declared), "move", "phase" or "end" (the log ended)."""

    @property
    def at_end(self) -> bool:
        """The log ended with the fire open: the final position may not hold all of its result."""
        return self.by == END


def _one_dice(view: "StepView") -> list[int]:
    """The faces of the step's single six-sided die rolls (a die of unknown sides counted)."""
    out = []
    for roll in view.rolls:
        if roll.n_dice == 1 and roll.n_sides in (0, 6):
            if roll.faces:
                out.append(roll.faces[0])
            elif roll.total is not None:
                out.append(roll.total)
    return out


class Fires(Ledger):
    """The fire being resolved (`open`), kept for `FireResolved`, and the moving units that lost
    a step to opportunity fire this phase (`stopped`: piece id -> the step the fire was declared)."""

    def __init__(self, game: "Ascari"):
        self.game = game
        self.open: Shot | None = None
        self.stopped: dict[str, int | None] = {}
        self.back: dict[str, str] = {}
        """Piece id -> the hex a unit hit while passing through a friend's hex must go back to (3.5)."""

    def hit_mover(self, shot: Shot, view: "StepView") -> Any:
        """The moving unit an opportunity fire cost a step (as it stood before), else None."""
        if not shot.opportunity:
            return None
        after = self.game.units(view.before)
        for unit in shot.units.values():
            now = after.get(unit.id)
            if unit.hex == shot.target and unit.combat and unit.side != shot.firer.side and now is not None \
                    and now.hex is not None and unit.steps is not None and now.steps is not None \
                    and now.steps < unit.steps:
                return unit
        return None

    def phase(self, change: PhaseChanged, view: "StepView") -> Iterable:
        self.stopped.clear()
        self.back.clear()
        return ()

    def resolved(self, view: "StepView", events: Sequence[Event]) -> list[Event]:
        """The engine's `more_events`: the open fire is resolved when this step declares a fire,
        moves a unit or changes the phase."""
        if self.open is None:
            return []
        if any(isinstance(e, PhaseChanged) for e in events):
            by = "phase"
        elif any(isinstance(e, Moved) for e in events):
            by = "move"
        elif any(isinstance(e, Declared) and e.grammar == "fire" for e in events):
            by = "fire"
        else:
            return []
        shot, self.open = self.open, None
        return [FireResolved(view.index, shot, by)]

    def open_at_end(self) -> list[Event]:
        """The fire still open when the log ends, told at the step it was declared."""
        if self.open is None:
            return []
        shot, self.open = self.open, None
        return [FireResolved(shot.step, shot, END)]

    def step(self, view: "StepView") -> Iterable:
        if self.open is not None and self.open.step != view.index:
            self.open.dice += _one_dice(view)
            self.open.rolls += len(view.rolls)
        return ()

    def event(self, event: Event, view: "StepView") -> Iterable:
        if isinstance(event, FireResolved):
            hit = self.hit_mover(event.shot, view)
            if hit is not None:
                self.stopped[hit.id] = event.shot.step
                path = self.game.play.paths.get(hit.id)
                friends = [u for u in event.shot.units.values() if u.hex == hit.hex and u.combat
                           and u.side == hit.side and u.id != hit.id]
                hexes = path.hexes if path is not None else []
                if hexes and hexes[-1] != hit.hex:  # it moved on in this very step
                    hexes = hexes[:-1]
                if friends and len(hexes) >= 2 and hexes[-1] == hit.hex:
                    self.back[hit.id] = hexes[-2]
        elif isinstance(event, Declared) and event.grammar == "fire":
            firer = self.game.piece_named(view.before, event.declaration.firer)
            self.open = None if firer is None or firer.hex is None else Shot(
                firer, event.declaration.target, event.declaration.opportunity, event.step,
                dict(self.game.units(view.before)), _one_dice(view), len(view.rolls))
        return ()
