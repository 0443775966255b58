"""What the Random Events do, where a log shows it (16.2). The players name the event a roll gave
(`event E`, checks/random_events.py); the Random Events Table itself is not in the data.

EVT-06, Other Theater Demands (16.2 E): every unit in the Delayed Box when the event is named is
removed from play permanently: none is still there when the phase ends, and none comes back
(onto the map, or into the Available Box).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Moved, PhaseChanged, Placed

from ..events import EventNamed
from ..registry import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, StepView

    from ..rules import Sideshow

__all__ = ["EventEffects"]

DELAYED = "delayed"
AVAILABLE = "available"
OTHER_THEATER = "E"


class EventEffects(Ledger):
    """The units Other Theater Demands took (counter -> the step it was named), and those still
    due to leave the Delayed Box before the phase ends."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.taken: dict[str, int | None] = {}
        self.due: dict[str, str] = {}
        """Unit id -> its name, for the units in the Delayed Box when E was named."""
        self.named_at: int | None = None

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, EventNamed) and event.letter == OTHER_THEATER:
            delayed = {i: u for i, u in self.game.units(view.after).items() if u.box == DELAYED}
            self.due = {i: u.name for i, u in delayed.items()}
            self.taken.update({u.counter: event.step for u in delayed.values()})
            self.named_at = event.step
        return ()


@REGISTRY.check("EVT-06", event=PhaseChanged)
def judge_delayed_box_emptied(game: "Sideshow", change: PhaseChanged, view: "StepView") -> list["Finding"]:
    """16.2 E: the Delayed Box is emptied in the phase the event was rolled in."""
    ledger = game.effects
    if not ledger.due:
        return []
    units = game.units(view.before)
    left = sorted(name for i, name in ledger.due.items() if i in units and units[i].box == DELAYED)
    ledger.due = {}
    if not left:
        return []
    return [game.finding("EVT-06", Ruling.PROVEN, step=change.step,
                         message=f"{', '.join(left)} still stood in the Delayed Box when the phase ended; Other "
                                 f"Theater Demands (event E, step {ledger.named_at}) removes every unit in it from "
                                 "play (16.2 E)",
                         subjects=tuple(left), evidence={"units": left, "event_step": ledger.named_at})]


@REGISTRY.check("EVT-06", event=Placed)
@REGISTRY.check("EVT-06", event=Moved)
def judge_never_again(game: "Sideshow", event: "Placed | Moved", view: "StepView") -> list["Finding"]:
    """16.2 E: the units removed may never be used again."""
    unit = event.unit if isinstance(event, Placed) else event.after
    step = game.effects.taken.get(unit.counter, False)
    if step is False or (isinstance(event, Moved) and unit.box != AVAILABLE):
        return []                                   # a move onto the map is told as Placed
    where = unit.hex or "the Available Box"
    return [game.finding("EVT-06", Ruling.PROVEN, step=event.step,
                         message=f"{unit.name}, removed from play by Other Theater Demands (event E, step {step}), "
                                 f"came back in {where} (16.2 E)",
                         subjects=(unit.name,), evidence={"unit": unit.name, "to": where, "event_step": step})]
