"""The phases in order (SEQ-02, 4.0): phases 1 to 5 each turn, the segments as chosen.

The order is read from the module's turn tracker. A tracker moved on and back again is most
often a player correcting a mis-click, so a step back by itself is never a finding, nor is one
after which nothing was played in the phases the tracker left. What the log can show is play in
a later phase (a labelled roll, an Operation paid, a unit moved, a segment taken), then the
tracker moved back and play again in the earlier phase. That is a phase played after a later
one, unless the tracker had been moved on by mistake and the earlier play belonged to the
phase moved back to: POSSIBLE, naming both. It is PROVEN only where the play in the later phase
is of a kind no phase from the one moved back to up to it holds (an Initial OP roll is an
Operations Segment's, not the weather's), so the tracker was right, and the play after the step
back is of a kind only phases before it hold (a weather roll after a segment began).

A phase the tracker skips is not judged here: each phase's own play is judged by its checks
(the weather by SEQ-09, the initiative by SEQ-10/SEQ-11, the segments by OPS-01/OPS-02); the
segment each side plays is the initiative choice's (SEQ-10, OPS-01)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.sequence import side_name
from vlog.kit.steps import Moved, PhaseChanged, Placed, Removed

from ..events import (AmbushRolled, CombatRolled, DisbandDeclared, EventNamed, EventRolled, InitialOpsRolled,
                      InitiativeRolled, LakeRolled, MultipleRolled, OperationPaid, OpgtRolled, PlacementRolled,
                      RetreatRolled, SegmentChosen, WeatherRead, WeatherRolled)
from ..registry import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.sequence import Position
    from vlog.kit.steps import Event, StepView

    from ..rules import Sideshow

__all__ = ["PhaseOrder", "PLAY_KINDS"]

PLAY_KINDS: dict[type, frozenset[str] | None] = {
    WeatherRolled: frozenset({"weather"}), WeatherRead: frozenset({"weather"}),
    InitiativeRolled: frozenset({"initiative"}), SegmentChosen: frozenset({"initiative"}),
    EventRolled: frozenset({"initiative", "operations", "event"}),       # a tie, an `op event`, the Auxiliary
    EventNamed: frozenset({"initiative", "operations", "event"}),
    InitialOpsRolled: frozenset({"operations"}), OpgtRolled: frozenset({"operations"}),
    OperationPaid: frozenset({"operations"}), MultipleRolled: frozenset({"operations"}),
    CombatRolled: frozenset({"operations"}), RetreatRolled: frozenset({"operations"}),
    AmbushRolled: frozenset({"operations"}), LakeRolled: frozenset({"operations"}),
    PlacementRolled: frozenset({"operations"}), DisbandDeclared: frozenset({"reinforcement"}),
    Moved: None, Placed: None, Removed: None,
}
"""What counts as play, and the kinds of phase (Sideshow.phase_kinds) each may happen in; None:
a unit's move, placement or removal, which several phases hold (4.0 phase 1, segments, 16.0)."""

NOT_SETTLED = ("whether the turn tracker had been moved on by mistake, so that the play shown in the later "
               "phase belonged to the phase moved back to (the log does not say)")


@dataclass(frozen=True, slots=True)
class Play:
    step: int | None
    turn: int
    index: int
    what: str
    kinds: frozenset[str] | None


@dataclass
class Back:
    """A step back of the tracker with play in the phases it left, waiting for play after it."""

    step: int | None
    left: "Position"
    to: "Position"
    later: list[Play]


@dataclass
class PhaseOrder(Ledger):
    """The play of each phase the tracker has shown, and a step back not yet followed by play."""

    plays: list[Play] = field(default_factory=list)
    back: Back | None = None

    def begin(self, view: "StepView") -> tuple:
        self.plays, self.back = [], None
        return ()


def _what(event: "Event") -> str:
    if isinstance(event, (Moved, Placed, Removed)):
        unit = event.before if isinstance(event, Moved) else event.unit
        return f"{event.kind} {unit.name}"
    side = getattr(event, "side", None)
    return f"{event.kind}" + (f" ({side_name(side)})" if side else "")


def _fits(kinds: frozenset[str] | None, phases) -> bool:
    return kinds is None or any(kinds & spec.kinds for spec in phases)


@REGISTRY.check("SEQ-02")
def judge_phase_order(game: "Sideshow", event: "Event", view: "StepView") -> list["Finding"]:
    ledger, phase = game.phase_order, game.phase
    if isinstance(event, PhaseChanged):
        old, new = event.old, event.new
        if ledger.back is not None and (new.turn, new.index) >= (ledger.back.left.turn, ledger.back.left.index):
            ledger.back = None                    # back where it was: nothing was played meanwhile
        if not event.bound or old is None or old.inferred or (new.turn, new.index) >= (old.turn, old.index):
            if new.turn > (old.turn if old is not None else new.turn):
                ledger.plays = [p for p in ledger.plays if p.turn >= new.turn - 1]
            return []
        later = [p for p in ledger.plays if (p.turn, p.index) > (new.turn, new.index)]
        ledger.plays = [p for p in ledger.plays if (p.turn, p.index) <= (new.turn, new.index)]
        if later and ledger.back is None:
            ledger.back = Back(event.step, old, new, later)
        return []
    kinds = PLAY_KINDS.get(type(event), False)
    if kinds is False or phase is None or phase.inferred:
        return []
    ledger.plays.append(Play(event.step, phase.turn, phase.index, _what(event), kinds))
    back, ledger.back = ledger.back, None
    if back is None:
        return []
    phases = phase.sequence.phases
    settling = [p for p in back.later if p.turn == back.to.turn and not _fits(p.kinds, phases[back.to.index:p.index])
                and not _fits(kinds, phases[p.index:])]
    proven = bool(settling)
    first = (settling or back.later)[-1]
    when = lambda p: f"turn {p.turn} {p.name}"  # noqa: E731
    message = (f"the turn tracker was moved back from {when(back.left)} to {when(back.to)} at step {back.step} "
               f"after play in the later phase ({first.what}, step {first.step}, in "
               f"{phases[first.index].name}), and {_what(event)} followed in {phase.name}: a phase played after a "
               f"later one breaks the order of 4.0")
    message += ("; the later play is of a kind the phases moved back over do not hold, so the tracker was "
                "right, and this play belongs to an earlier phase only" if proven else
                "; unless the tracker had been moved on by mistake and the play of the later phase belonged to "
                f"{phase.name} (the log does not say)")
    return [game.finding("SEQ-02", Ruling.PROVEN if proven else Ruling.POSSIBLE, step=event.step,
                         message=message,
                         evidence={"from": f"{back.left.turn} {back.left.name}", "to": f"{back.to.turn} {back.to.name}",
                                   "back_step": back.step, "later_play": [[p.step, p.what] for p in back.later],
                                   "play": _what(event)},
                         depends_on=() if proven else (NOT_SETTLED,))]
