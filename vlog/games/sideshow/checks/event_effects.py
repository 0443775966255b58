"""What the Random Events do, where a log shows it (16.2). The players name the event a roll gave
(`event E`, checks/random_events.py); the Random Events Table itself is not in the data.

Events that take units out of play at once, which the table shows:
* EVT-06, Other Theater Demands (16.2 E): every unit in the Delayed Box is removed from play
  permanently: none is still there when the phase ends, and none comes back (onto the map, or
  into the Available Box);
* EVT-14, The Mad Mullah Strikes (16.2 N, rolled by the German; no event when the Allied player
  rolls it): 28th RA Battery (28 MtRA), 101st Grenadiers (101 Grn), 1/1 and 1/2 KAR leave the
  map, the Replacement Track and the Available and Delayed Boxes: none is still there when the
  phase ends. They may come back 1d6 turns later; their return is not judged;
* EVT-07, South Africans Go Home (16.2 F, from January 1917, once): every South African unit
  leaves play for good;
* EVT-13, Ojo Provincial Uprising (16.2 M, once): every Nigerian unit leaves the map, the
  Replacement Track and the Available and Delayed Boxes, and none enters the Available Box in
  this month or the next;
* EVT-16, The Ba-HoloHolo Revolt (16.2 P, rolled by the German while the Allies have not taken
  Lake Tanganyika, event H; once): the Rhodesian units and 2/1 KAR leave the map, the track and
  the boxes; their return 1d6 turns later is not judged.

Whether F, M and P take effect is checks/occurrences.py's (roller, month, once; P before H); a
unit is South African, Nigerian or Rhodesian where counters.json says so (a nationality the
data reads from an abbreviation, `partial`, makes the verdict POSSIBLE); the others are not judged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import BoxMoved, Moved, PhaseChanged, Placed, put_in_box

from ..events import EventNamed
from ..registry import REGISTRY
from .common import GERMAN, known_turn
from .occurrences import MAYBE, effective

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, StepView

    from ..rules import Sideshow

__all__ = ["EventEffects", "REMOVALS"]

AVAILABLE = "available"
RETURNING = frozenset("NP")
"""Events whose units come back to the Available Box 1d6 turns later (16.2 N, P)."""
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
    nationality: str | None = None
    """All units of this nationality (counters.json), besides `names`."""
    by_occurrence: bool = False
    """Whether it takes effect is checks/occurrences.py's (16.2: months, once only)."""


REMOVALS = {
    "E": Removal("EVT-06", "Other Theater Demands", "16.2 E", frozenset({"delayed"}), permanent=True),
    "N": Removal("EVT-14", "The Mad Mullah Strikes", "16.2 N",
                 frozenset({MAP, AVAILABLE, "delayed", "replacement-track"}),
                 names=frozenset({"28 MtRA", "101 Grn", "1/1 KAR", "1/2 KAR"}), roller=GERMAN),
    "F": Removal("EVT-07", "South Africans Go Home", "16.2 F", frozenset({MAP, AVAILABLE, "delayed", "replacement-track"}),
                 names=frozenset(), permanent=True, nationality="south-african", by_occurrence=True),
    "M": Removal("EVT-13", "Ojo Provincial Uprising", "16.2 M", frozenset({MAP, AVAILABLE, "delayed", "replacement-track"}),
                 names=frozenset(), nationality="nigerian", by_occurrence=True),
    "P": Removal("EVT-16", "The Ba-HoloHolo Revolt", "16.2 P", frozenset({MAP, AVAILABLE, "delayed", "replacement-track"}),
                 names=frozenset({"2/1 KAR"}), nationality="rhodesian", by_occurrence=True),
}


class EventEffects(Ledger):
    """The units an event must take out before the phase ends, and those it took for good."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.due: dict[str, tuple[str, Removal, int | None, list[str]]] = {}
        """Unit id -> its name, the event, the step it was named at and what would settle it (none: PROVEN)."""
        self.away: dict[str, tuple[int, int | None, Removal, list[str]]] = {}
        """Counter -> the turn and step of the event N or P that took it out, the event, the doubts:
        it comes back through the Available Box 1d6 turns later (16.2 N, P)."""
        self.barred: dict[str, tuple[int, int | None, list[str]]] = {}
        """Counter -> the last turn it may not enter the Available Box in, and the event's step (16.2 M)."""
        self.taken: dict[str, int | None] = {}
        """Counter -> the step of the event that took it out of play for good."""

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        removal = REMOVALS.get(event.letter) if isinstance(event, EventNamed) else None
        if removal is None:
            return ()
        doubts: list[str] = []
        if removal.by_occurrence:
            status = next((s for n, s in effective(self.game, event.letter) if n.step == event.step), None)
            if status is None:
                return ()                           # no event (16.2: its month, its roller, once only)
            if status == MAYBE:
                doubts.append(f"whether event {event.letter} of step {event.step} took effect (16.2: its roller, its month)")
        elif removal.roller is not None:
            rolled = [side for side, letter in self.game.random_events.month().events if letter == event.letter]
            if not rolled or rolled[-1] != removal.roller:
                return ()                           # no event, or a roll whose player the log does not say
        turn = known_turn(self.game)
        for unit_id, unit in self.game.units(view.after).items():
            place = unit.box if unit.hex is None else MAP
            if place not in removal.places:
                continue
            member = removal.names is None or unit.name in removal.names
            nationality = _nationality(self.game, unit.counter) if removal.nationality else None
            if nationality is not None and nationality.value == removal.nationality:
                member = True
                if nationality.partial:
                    doubts_here = [*doubts, f"counters.json nationality of {unit.name}"]
                else:
                    doubts_here = doubts
            else:
                doubts_here = doubts
            if member:
                self.due[unit_id] = (unit.name, removal, event.step, doubts_here)
                if removal.permanent:
                    self.taken[unit.counter] = event.step
                elif event.letter in RETURNING and turn is not None:
                    self.away[unit.counter] = (turn, event.step, removal, doubts_here)
        if event.letter == "M" and turn is not None and not doubts:
            for counter in self.game.data.counter_ids:
                nationality = _nationality(self.game, counter)
                if nationality is not None and nationality.value == "nigerian":
                    self.barred[counter] = (turn + 1, event.step,
                                            [f"counters.json nationality of {counter}"] if nationality.partial else [])
        return ()


def _nationality(game: "Sideshow", counter: str):
    """The counter's nationality datum (None where counters.json gives none)."""
    try:
        record = game.data.counter(counter)
    except KeyError:
        return None
    return record["nationality"] if "nationality" in record else None


@REGISTRY.check("EVT-06", "EVT-07", "EVT-13", "EVT-14", "EVT-16", event=PhaseChanged)
def judge_removed_by_the_event(game: "Sideshow", change: PhaseChanged, view: "StepView") -> list["Finding"]:
    """16.2 E, N: the units go at once, in the phase the event was rolled in."""
    ledger, units, found = game.effects, game.units(view.before), []
    left: dict[tuple[Removal, int | None], list[str]] = {}
    for unit_id, (name, removal, step, doubts) in ledger.due.items():
        unit = units.get(unit_id)
        if unit is not None and (unit.box if unit.hex is None else MAP) in removal.places:
            left.setdefault((removal, step, tuple(doubts)), []).append(f"{name} ({unit.hex or unit.box})")
    ledger.due = {}
    for (removal, step, doubts), names in left.items():
        names.sort()
        found.append(game.finding(removal.check, Ruling.POSSIBLE if doubts else Ruling.PROVEN, step=change.step,
                                  depends_on=doubts,
                                  message=f"{', '.join(names)} still in play when the phase ended: {removal.title} "
                                          f"(step {step}) removes {'them' if len(names) > 1 else 'it'} at once ({removal.rule})",
                                  subjects=tuple(names), evidence={"units": names, "event_step": step}))
    return found


def _into_available(event: "Event") -> object | None:
    """The unit an event put in the Available Box (from the map, another box, or the palette)."""
    unit = put_in_box(event)
    return unit if unit is not None and unit.box == AVAILABLE else None


@REGISTRY.check("EVT-13", event=BoxMoved)
@REGISTRY.check("EVT-13", event=Moved)
def judge_barred_from_the_available_box(game: "Sideshow", event: "Moved | BoxMoved", view: "StepView") -> list["Finding"]:
    """16.2 M: no Nigerian unit enters the Available Box in the month of the uprising or the next."""
    barred, unit = game.effects.barred, _into_available(event)
    if unit is None or unit.counter not in barred:
        return []
    turn = known_turn(game)
    last, step, doubts = barred[unit.counter]
    if turn is None or turn > last:
        return []
    return [game.finding("EVT-13", Ruling.POSSIBLE if doubts else Ruling.PROVEN, step=event.step,
                         depends_on=doubts,
                         message=f"{unit.name} was put in the Available Box in turn {turn}; after the Ojo "
                                 f"Provincial Uprising (event M, step {step}) no Nigerian unit enters it "
                                 f"before turn {last + 1} (16.2 M)",
                         subjects=(unit.name,),
                         evidence={"unit": unit.name, "turn": turn, "first_turn": last + 1, "event_step": step})]


@REGISTRY.check("EVT-14", "EVT-16", event=BoxMoved)
@REGISTRY.check("EVT-14", "EVT-16", event=Placed)
def judge_back_too_soon(game: "Sideshow", event: "BoxMoved | Placed", view: "StepView") -> list["Finding"]:
    """16.2 N, P: the units taken out may be placed in the Available Box a die's number of turns
    later, at least one: not in the event's turn, and not on the map before the turn after that."""
    away = game.effects.away
    unit = event.unit if isinstance(event, Placed) else _into_available(event)
    if unit is None or unit.counter not in away:
        return []                                   # not back (one still on the map is EVT-14/16's at the phase's end)
    turn = known_turn(game)
    if turn is None:
        return []
    since, step, removal, doubts = away[unit.counter]
    first = since + (1 if unit.hex is None else 2)
    if turn >= first:
        away.pop(unit.counter)
        return []
    where = unit.hex or "the Available Box"
    return [game.finding(removal.check, Ruling.POSSIBLE if doubts else Ruling.PROVEN, step=event.step,
                         depends_on=doubts,
                         message=f"{unit.name}, taken out by {removal.title} (step {step}, turn {since}), came "
                                 f"back in {where} in turn {turn}; it returns to the Available Box a die's "
                                 f"number of turns later, so {where} not before turn {first} ({removal.rule})",
                         subjects=(unit.name,),
                         evidence={"unit": unit.name, "to": where, "turn": turn, "first_turn": first,
                                   "event_step": step})]


@REGISTRY.check("EVT-06", "EVT-07", event=Placed)
@REGISTRY.check("EVT-06", "EVT-07", event=BoxMoved)
@REGISTRY.check("EVT-06", "EVT-07", event=Moved)
def judge_never_again(game: "Sideshow", event: "Placed | Moved | BoxMoved", view: "StepView") -> list["Finding"]:
    """16.2 E, F: the units removed may never be used again: none comes onto the map or into the
    Available Box, from the map, another box (the Delayed Box it was taken from) or the palette."""
    unit = event.unit if isinstance(event, Placed) else _into_available(event)
    step = game.effects.taken.get(unit.counter, False) if unit is not None else False
    if step is False:
        return []
    removal = next((r for r in REMOVALS.values() if r.permanent and r.check != "EVT-06"
                    and _nationality(game, unit.counter) is not None
                    and _nationality(game, unit.counter).value == r.nationality), REMOVALS["E"])
    where = unit.hex or "the Available Box"
    return [game.finding(removal.check, Ruling.PROVEN, step=event.step,
                         message=f"{unit.name}, removed from play by {removal.title} (step {step}), "
                                 f"came back in {where} ({removal.rule})",
                         subjects=(unit.name,), evidence={"unit": unit.name, "to": where, "event_step": step})]
