"""Random Event rolls (16.0, 4.0 phase 5): two dice, read as a two-digit number, rolled only on
an initiative tie (5.13), for a Random Event Operation (5.3), or in the Auxiliary Random Event
Phase by the player with the Initiative when no Random Event was rolled earlier in the turn.

The `RandomEvents` ledger keeps each turn's Random Event rolls and the Random Event Operations
not yet rolled for; EVT-01 judges each roll's dice and trigger, SEQ-13 the Auxiliary phase. What
an event does is not judged here: the Random Events Table is not in the rulebook text.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.sequence import side_name
from vlog.kit.steps import PhaseChanged

from ..events import EventRolled, InitiativeRolled, OperationPaid
from ..registry import REGISTRY
from .common import ALLIED, GERMAN, known_turn

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, StepView

    from ..rules import Sideshow

__all__ = ["RandomEvents"]

AUXILIARY = "auxiliary-random-event"


@dataclass(slots=True)
class Month:
    """One turn's Random Event rolls (their steps), whether its initiative rolls were labelled,
    and the ties already rolled for."""

    rolls: list[int | None] = field(default_factory=list)
    labelled: bool = False
    ties_used: set[int] = field(default_factory=set)


class RandomEvents(Ledger):
    """Each turn's Random Event rolls, and the Random Event Operations paid for, by side."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.months: dict[int | None, Month] = {}
        self.operations: dict[str, int] = {ALLIED: 0, GERMAN: 0}

    def month(self) -> Month:
        return self.months.setdefault(known_turn(self.game), Month())

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, OperationPaid) and event.op.kind == "event":
            self.operations[event.side] += 1
        elif isinstance(event, InitiativeRolled):
            self.month().labelled = True
        return ()

    def phase(self, change: "PhaseChanged", view: "StepView") -> Iterable["Finding"]:
        if change.old is None or change.new.name != change.old.name:
            self.operations = {ALLIED: 0, GERMAN: 0}      # a Random Event Operation is rolled in its segment
        return ()


@REGISTRY.check("EVT-01", "SEQ-13", event=EventRolled)
def judge_event_roll(game: "Sideshow", roll: "EventRolled", view: "StepView") -> list["Finding"]:
    """16.0: two dice, on a tie, a Random Event Operation or the Auxiliary phase; 4.0 phase 5:
    the Auxiliary roll by the player with the Initiative, only if none was rolled before."""
    ledger, phase, found = game.random_events, game.phase, []
    month = ledger.month()
    earlier = list(month.rolls)
    month.rolls.append(roll.step)
    if roll.roll.n_dice != 2:
        found.append(game.finding("EVT-01", Ruling.PROVEN, step=roll.step,
                                  message=f"the Random Events roll was {roll.dice}; it is two dice read in turn (16.0)",
                                  evidence={"side": roll.side, "dice": roll.dice}))
    record = game.initiative.record()
    if record.tie_step is not None and record.tie_step not in month.ties_used:
        month.ties_used.add(record.tie_step)
        return found                                     # 5.13: the tie's roll
    if roll.side is not None and ledger.operations.get(roll.side, 0) > 0:
        ledger.operations[roll.side] -= 1
        return found                                     # 5.3: a Random Event Operation
    if phase is None or phase.inferred:
        return found                                     # the Auxiliary phase cannot be ruled out
    if phase.name == AUXILIARY:
        winner = game.initiative.winner()
        if earlier:
            found.append(game.finding("SEQ-13", Ruling.PROVEN, step=roll.step,
                                      message=f"a Random Event was rolled in the Auxiliary Random Event Phase after "
                                              f"the roll of step {earlier[0]} this turn (4.0: then the phase is ignored)",
                                      evidence={"side": roll.side, "earlier_step": earlier[0]}))
        elif winner is not None and roll.side is not None and roll.side != winner:
            found.append(game.finding("SEQ-13", Ruling.PROVEN, step=roll.step,
                                      message=f"the {side_name(roll.side)} player rolled the Auxiliary Random Event; "
                                              f"the {side_name(winner)} player has the Initiative (4.0 phase 5)",
                                      evidence={"side": roll.side, "initiative": winner}))
        return found
    found.append(game.finding("EVT-01", Ruling.PROVEN, step=roll.step,
                              message=f"the {side_name(roll.side)} player rolled on the Random Events Table in "
                                      f"{phase.name} with no initiative tie, Random Event Operation or "
                                      "Auxiliary phase to call for it (16.0)",
                              evidence={"side": roll.side, "phase": phase.name}))
    return found


@REGISTRY.check("SEQ-13", event=PhaseChanged)
def judge_auxiliary_phase(game: "Sideshow", change: "PhaseChanged", view: "StepView") -> list["Finding"]:
    """4.0 phase 5: with no Random Event rolled earlier in the turn, the Auxiliary roll is made
    (judged where the log labels its rolls: its initiative rolls were labelled)."""
    if not change.bound or change.old is None \
            or change.old.name != AUXILIARY or change.old.inferred:
        return []
    month = game.random_events.months.get(change.old.turn)
    if month is None or month.rolls or not month.labelled:
        return []
    return [game.finding("SEQ-13", Ruling.PROVEN, step=change.step,
                         message=f"turn {change.old.turn} ended with no Random Event rolled: the player with the "
                                 "Initiative rolls in the Auxiliary Random Event Phase (4.0 phase 5, 16.0)",
                         evidence={"turn": change.old.turn})]
