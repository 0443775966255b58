"""Random Event rolls (16.0, 4.0 phase 5): two dice, read as a two-digit number, rolled only on
an initiative tie (5.13), for a Random Event Operation (5.3), or in the Auxiliary Random Event
Phase by the player with the Initiative when no Random Event was rolled earlier in the turn.

The `RandomEvents` ledger keeps each turn's Random Event rolls and the Random Event Operations
not yet rolled for; EVT-01 judges each roll's dice and trigger, SEQ-13 the Auxiliary phase. The
Random Events Table is not in the rulebook text: which event a roll gave is what the players say
(`event A`). Of the events' effects the ledger reads 5.25's: after A, B or S the German takes 1
off his OP rolls for the rest of the turn (`german_minus_one`, read by checks/operations.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.sequence import side_name
from vlog.kit.steps import PhaseChanged

from ..events import EventNamed, EventRolled, InitiativeRolled, OperationPaid
from ..registry import REGISTRY
from .common import ALLIED, GERMAN, known_turn

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, StepView

    from ..rules import Sideshow

__all__ = ["RandomEvents", "Named", "year_month"]

AUXILIARY = "auxiliary-random-event"


@dataclass(frozen=True, slots=True)
class Named:
    """A Random Event roll and the letter the players said it gave: who rolled, in which turn
    (None where the table shows none), at which step."""

    letter: str
    side: str | None
    turn: int | None
    step: int | None


@dataclass(slots=True)
class Month:
    """One turn's Random Event rolls (their steps), whether its initiative rolls were labelled,
    and the ties already rolled for."""

    rolls: list[int | None] = field(default_factory=list)
    labelled: bool = False
    ties_used: set[int] = field(default_factory=set)
    events: list[list] = field(default_factory=list)
    """[the side that rolled, the letter the players said or None] for each Random Event roll."""


class RandomEvents(Ledger):
    """Each turn's Random Event rolls, and the Random Event Operations paid for, by side."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.months: dict[int | None, Month] = {}
        self.operations: dict[str, int] = {ALLIED: 0, GERMAN: 0}
        self.happened: dict[str, list[int | None]] = {}
        """Letter -> the turns it was named in (events that happen only once, or count, 16.2)."""
        self.named: list[Named] = []
        """Each Random Event roll the players named, in the log's order (checks/event_arrivals.py)."""

    def month(self) -> Month:
        return self.months.setdefault(known_turn(self.game), Month())

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, OperationPaid) and event.op.kind == "event":
            self.operations[event.side] += 1
        elif isinstance(event, InitiativeRolled):
            self.month().labelled = True
        elif isinstance(event, EventRolled):
            self.month().events.append([event.side, None])
        elif isinstance(event, EventNamed):
            unnamed = [e for e in self.month().events if e[1] is None]
            if unnamed:
                unnamed[-1][1] = event.letter
                self.happened.setdefault(event.letter, []).append(known_turn(self.game))
                self.named.append(Named(event.letter, unnamed[-1][0], known_turn(self.game), event.step))
        return ()

    def unnamed(self) -> int:
        """How many Random Event rolls so far the players did not name."""
        return sum(1 for month in self.months.values() for _, letter in month.events if letter is None)

    def german_minus_one(self) -> bool | None:
        """5.25 this turn: True when an A, B or S that takes effect was rolled, False when every
        event rolled is named and none is such, None when an event's letter or its effect is not known."""
        month = self.months.get(known_turn(self.game))
        if month is None or not month.events:
            return False
        readings = [minus_one(self.game, side, letter, self.happened) for side, letter in month.events]
        if True in readings:
            return True
        return None if None in readings else False

    def phase(self, change: "PhaseChanged", view: "StepView") -> Iterable["Finding"]:
        if change.old is None or change.new.name != change.old.name:
            self.operations = {ALLIED: 0, GERMAN: 0}      # a Random Event Operation is rolled in its segment
        return ()


MINUS_ONE = {"A": ("german", (1915, 3), (1915, 5)), "B": ("german", (1916, 3), (1916, 5)),
             "S": (None, (1917, 11), None)}
"""5.25's events: who must roll it, and the months it takes effect in (16.2 A, B, S: once only)."""
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _month(game: "Sideshow") -> tuple[int, int] | None:
    return year_month(game, known_turn(game))


def year_month(game: "Sideshow", turn: int | None) -> tuple[int, int] | None:
    """(1915, 3) for a turn the track labels 'Mar 1915'; None when the turn or its label is not known."""
    label = game.sequence.labels.get(turn) if game.sequence and turn is not None else None
    words = label.split() if label else []
    if len(words) != 2 or words[0] not in MONTHS or not words[1].isdigit():
        return None
    return int(words[1]), MONTHS.index(words[0]) + 1


def minus_one(game: "Sideshow", side: str | None, letter: str | None,
              happened: dict[str, list[int | None]]) -> bool | None:
    """Whether an event rolled by `side` takes 1 off the German OP rolls this turn (5.25): False
    for an event 5.25 does not name; True for A, B or S rolled by whom and when 16.2 says, the
    first time; None otherwise (5.25 says 'the turn that one of these events is rolled', 16.2
    limits it: an A, B or S outside its months, or rolled before, is read both ways)."""
    if letter is None:
        return None
    if letter not in MINUS_ONE:
        return False
    roller, first, last = MINUS_ONE[letter]
    month, turn = _month(game), known_turn(game)
    if month is None or turn is None or (roller is not None and side != roller):
        return None
    if any(t is None or t < turn for t in happened.get(letter, ())):
        return None
    return True if month >= first and (last is None or month <= last) else None


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
