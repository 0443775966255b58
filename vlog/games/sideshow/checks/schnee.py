"""A Pain in the Schnee (16.2 K): when the Allied player rolls event K while Wahle is killed or
wounded, the German may not use the Operation Point Generation Table in his next segment (OPS-14).

A killed or wounded leader leaves the map (10.22), so Wahle is inoperative when his counter, on
the map earlier in the log, is not on it when the event is named; with Wahle on the map the
event is no event. Where the log never showed Wahle on the map, or does not say who rolled, the
verdict is POSSIBLE, naming it. The German's next segment begins with his Initial OP roll (5.21)
and ends when the phase changes or the Allied player's segment begins.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger

from ..events import EventNamed, InitialOpsRolled, OpgtRolled
from ..registry import REGISTRY
from .common import ALLIED, GERMAN

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, PhaseChanged, StepView

    from ..rules import Sideshow

__all__ = ["Schnee"]

WAHLE = "de-wahle"


class Schnee(Ledger):
    """Event K waiting for the German's next segment, and that segment while it lasts."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.wahle_seen = False
        self.pending: tuple[int | None, list[str]] | None = None
        """(the event's step, what would settle it) until the German's next segment begins."""
        self.active: tuple[int | None, list[str]] | None = None
        """The same, while that segment lasts."""

    def begin(self, view: "StepView") -> Iterable["Finding"]:
        self.wahle_seen = self.wahle_seen or self._wahle_on_map(view)
        return ()

    def _wahle_on_map(self, view: "StepView") -> bool:
        return any(u.counter == WAHLE and u.hex is not None for u in self.game.units(view.after).values())

    def step(self, view: "StepView") -> Iterable["Finding"]:
        self.wahle_seen = self.wahle_seen or self._wahle_on_map(view)
        return ()

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, EventNamed) and event.letter == "K":
            roll = next((n for n in self.game.random_events.named if n.step == event.step), None)
            if roll is None or roll.side == GERMAN or self._wahle_on_map(view):
                return ()                                    # no event (16.2 K)
            doubts = [] if roll.side == ALLIED else [f"who rolled event K at step {event.step}"]
            if not self.wahle_seen:
                doubts.append("whether Wahle is killed or wounded (his counter was not on the map in the log)")
            self.pending = (event.step, doubts)
        elif isinstance(event, InitialOpsRolled) and event.side == GERMAN and self.pending is not None:
            self.active, self.pending = self.pending, None
        elif isinstance(event, InitialOpsRolled) and event.side == ALLIED:
            self.active = None
        return ()

    def phase(self, change: "PhaseChanged", view: "StepView") -> Iterable["Finding"]:
        if change.old is None or change.new.name != change.old.name or change.new.turn != change.old.turn:
            self.active = None
        return ()


@REGISTRY.check("OPS-14", event=OpgtRolled)
def judge_schnee(game: "Sideshow", roll: "OpgtRolled", view: "StepView") -> list["Finding"]:
    """16.2 K: no OPGT roll in the German segment after the Allied player's event K."""
    if roll.side != GERMAN or game.schnee.active is None:
        return []
    step, doubts = game.schnee.active
    return [game.finding("OPS-14", Ruling.POSSIBLE if doubts else Ruling.PROVEN, step=roll.step,
                         message=f"the German player rolled on the Operation Point Generation Table in the segment "
                                 f"after A Pain in the Schnee (event K, step {step}), with Wahle off the map (16.2 K)",
                         evidence={"side": roll.side, "event_step": step}, depends_on=doubts)]
