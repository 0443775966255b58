"""What the Random Events do, where a log shows it (16.2). The players name the event a roll gave
(`event E`, checks/random_events.py); the Random Events Table itself is not in the data.

Two events take units out of play at once, which the table shows:
* EVT-06, Other Theater Demands (16.2 E): every unit in the Delayed Box is removed from play
  permanently: none is still there when the phase ends, and none comes back (onto the map, or
  into the Available Box);
* EVT-14, The Mad Mullah Strikes (16.2 N, rolled by the German; no event when the Allied player
  rolls it): 28th RA Battery (28 MtRA), 101st Grenadiers (101 Grn), 1/1 and 1/2 KAR leave the
  map, the Replacement Track and the Available and Delayed Boxes: none is still there when the
  phase ends. They may come back 1d6 turns later; their return is not judged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Moved, PhaseChanged, Placed

from ..events import EventNamed
from ..registry import REGISTRY
from .common import GERMAN

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, StepView

    from ..rules import Sideshow

__all__ = ["EventEffects", "REMOVALS"]

AVAILABLE = "available"
MAP = None
"""A unit on the map stands in no box."""


@dataclass(frozen=True, slots=True)
class Removal:
    """An event that takes units out of play: which (the names, or all in `places`), from where,
    who must roll it, whether for good."""

    check: str
    title: str
    rule: str
    places: frozenset[str | None]
    names: frozenset[str] | None = None
    roller: str | None = None
    permanent: bool = False


REMOVALS = {
    "E": Removal("EVT-06", "Other Theater Demands", "16.2 E", frozenset({"delayed"}), permanent=True),
    "N": Removal("EVT-14", "The Mad Mullah Strikes", "16.2 N",
                 frozenset({MAP, AVAILABLE, "delayed", "replacement-track"}),
                 names=frozenset({"28 MtRA", "101 Grn", "1/1 KAR", "1/2 KAR"}), roller=GERMAN),
}


class EventEffects(Ledger):
    """The units an event must take out before the phase ends, and those it took for good."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.due: dict[str, tuple[str, Removal, int | None]] = {}
        """Unit id -> its name, the event and the step it was named at."""
        self.taken: dict[str, int | None] = {}
        """Counter -> the step of the event that took it out of play for good."""

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        removal = REMOVALS.get(event.letter) if isinstance(event, EventNamed) else None
        if removal is None:
            return ()
        if removal.roller is not None:
            rolled = [side for side, letter in self.game.random_events.month().events if letter == event.letter]
            if not rolled or rolled[-1] != removal.roller:
                return ()                           # no event, or a roll whose player the log does not say
        for unit_id, unit in self.game.units(view.after).items():
            place = unit.box if unit.hex is None else MAP
            if place in removal.places and (removal.names is None or unit.name in removal.names):
                self.due[unit_id] = (unit.name, removal, event.step)
                if removal.permanent:
                    self.taken[unit.counter] = event.step
        return ()


@REGISTRY.check("EVT-06", "EVT-14", event=PhaseChanged)
def judge_removed_by_the_event(game: "Sideshow", change: PhaseChanged, view: "StepView") -> list["Finding"]:
    """16.2 E, N: the units go at once, in the phase the event was rolled in."""
    ledger, units, found = game.effects, game.units(view.before), []
    left: dict[tuple[Removal, int | None], list[str]] = {}
    for unit_id, (name, removal, step) in ledger.due.items():
        unit = units.get(unit_id)
        if unit is not None and (unit.box if unit.hex is None else MAP) in removal.places:
            left.setdefault((removal, step), []).append(f"{name} ({unit.hex or unit.box})")
    ledger.due = {}
    for (removal, step), names in left.items():
        names.sort()
        found.append(game.finding(removal.check, Ruling.PROVEN, step=change.step,
                                  message=f"{', '.join(names)} still in play when the phase ended: {removal.title} "
                                          f"(step {step}) removes {'them' if len(names) > 1 else 'it'} at once ({removal.rule})",
                                  subjects=tuple(names), evidence={"units": names, "event_step": step}))
    return found


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
