"""One view of a logged step, built once by the driver (`vlog.replay`) and handed to the game.

The driver applies each step's commands once, to a copy of the table as it stood before the
step, and hands the game both tables in a `StepView`; a game reads them and never copies and
re-applies a step itself. Both tables are read-only: the table after one step is the table
before the next. What a game derives from a table (its units, its phase) is kept with the table
in a `Position` (`Position.derived`), so the next step's `before` finds what this step's `after`
computed and the game's view of each position is built once.

The end of a log is a view of its own (`StepView.end`): no step, the final table before and
after, so a game closes what is still open (a combat, a move) on the path every step takes.

What a step did is told in typed events (`Stepped`, `Moved`, `BoxMoved`, `Placed`, `Removed`,
`StepsChanged`, `Flipped`, `MarkerMoved`, `Declared`, `PhaseChanged`, `MoveFinished`), each naming what it
carries; `unit_events` reads the ones every game's units share from the units before and after.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, AbstractSet, Any, Callable, Hashable, Iterable, Mapping, Sequence, TypeVar

from vlog.vassal.commands import Chat

if TYPE_CHECKING:  # pragma: no cover
    from vlog.dicestats import DiceRoll
    from vlog.table import Table
    from vlog.vassal.savefile import Step

__all__ = ["Position", "StepView", "Event", "event_kind", "occasion_noun", "Stepped", "Changed", "Moved", "BoxMoved", "Placed", "Removed", "StepsChanged", "Flipped",
           "MarkerMoved", "Declared", "PhaseChanged", "MoveFinished", "unit_events", "put_in_box", "in_order"]

T = TypeVar("T")


@dataclass(eq=False, slots=True)
class Position:
    """A table as it stood at one moment of the log, with what has been derived from it."""

    table: "Table"
    _derived: dict[Hashable, object] = field(default_factory=dict, repr=False)

    def derived(self, key: Hashable, build: Callable[["Table"], T]) -> T:
        """`build(table)` computed once per position and key; later calls return the same object
        (callers must not change it: the next step reads it as its position before)."""
        try:
            return self._derived[key]   # type: ignore[return-value]
        except KeyError:
            value = self._derived[key] = build(self.table)
            return value


@dataclass(frozen=True, slots=True)
class StepView:
    """A step as the game sees it: the log step (None at the end of the log), the positions
    before and after it, and the die rolls its chat reports."""

    step: "Step | None"
    before: Position
    after: Position
    rolls: Sequence["DiceRoll"] = ()

    @classmethod
    def end(cls, final: Position) -> "StepView":
        """The end of the log: nothing more happens, the final position before and after."""
        return cls(None, final, final)

    @property
    def is_end(self) -> bool:
        return self.step is None

    def changed_pieces(self) -> frozenset[str] | None:
        """The ids of the pieces the step set or took off, when its table after is a copy of its
        table before (as the replay makes it); None when that is not known."""
        changed = self.after.table.changed_since_copy()
        return changed[1] if changed is not None and changed[0] == self.before.table.revision else None

    @property
    def index(self) -> int | None:
        """The step's index in the log (1-based, as findings give it); None at the end."""
        return self.step.index if self.step is not None else None

    @property
    def chats(self) -> tuple[Chat, ...]:
        """The step's chat lines and reports, in order."""
        if self.step is None:
            return ()
        return tuple(c for c in self.step.commands if isinstance(c, Chat))

    @property
    def messages(self) -> tuple[str, ...]:
        """What players typed in the step (reports left out), without the speaker."""
        return tuple(c.message for c in self.chats if not c.is_report)


# -- typed events ------------------------------------------------------------------------------
# What a step did, in the game's terms, each event saying what it carries (instead of a kind
# string and a dict read by key). `unit_events` reads the events every game's units share from
# the units before and after a step; a game adds its own (a declaration, a phase change, a
# unit's move finished) as it reads them.

def event_kind(cls: type) -> str:
    """An event class as the inventory's occasions name it: `StepsChanged` -> "steps-changed",
    or the `KIND` the class itself names (a game whose inventory already calls its occasions
    by other words than its class names: `KIND = "phase"`). Worked out once per class."""
    try:
        return _KINDS[cls]
    except KeyError:
        named = cls.__dict__.get("KIND")
        kind = _KINDS[cls] = named if isinstance(named, str) else _CAPITAL.sub("-", cls.__name__).lower()
        return kind


_KINDS: dict[type, str] = {}
"""Event class -> its kind (a class's name and `KIND` do not change; every event's kind is asked
for each time it is dispatched and counted)."""
_CAPITAL = re.compile(r"(?<!^)(?=[A-Z])")


_OCCASION_NOUNS = {"stepped": "step", "moved": "move", "box-moved": "move between boxes", "placed": "placement", "removed": "removal",
                   "steps-changed": "step change", "flipped": "flip", "declared": "declaration",
                   "phase-changed": "phase change", "move-finished": "finished move"}


def occasion_noun(kind: str) -> str:
    """An occasion kind as a status says it happened none ("no move or placement in the log")."""
    return _OCCASION_NOUNS.get(kind, kind.replace("-", " "))


@dataclass(frozen=True, slots=True)
class Event:
    """Something a step did; `step` is the log step it happened in (None: at the end)."""

    step: int | None

    @property
    def kind(self) -> str:
        """The event's class as the inventory's occasions name it ("moved", "steps-changed")."""
        return event_kind(type(self))


@dataclass(frozen=True, slots=True)
class Stepped(Event):
    """A step was made (told first, before what it did): for checks of the step as a whole."""


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """A unit changed place: `before` and `after` are the unit at either end (a hex or None
    for a box or off the map)."""

    before: Any
    after: Any


@dataclass(frozen=True, slots=True)
class BoxMoved(Event):
    """A unit off the map changed box (or came into a box from none, or left its box for none,
    still on the table): `before` and `after` are the unit at either end, neither on a hex;
    `before` is None for a unit new to the table that stands in a box (the box's `Placed`). A
    move between a box and a hex is a `Moved` (with a `Placed` or `Removed`), whose ends carry
    the box; this is no subclass of `Moved`, so what judges moves on the map never sees it."""

    before: Any
    after: Any


@dataclass(frozen=True, slots=True)
class Placed(Event):
    """A unit came onto the map (from a box, off the table or the palette): as it stands now."""

    unit: Any


@dataclass(frozen=True, slots=True)
class Removed(Event):
    """A unit left the map (deleted, or sent to a box): as it stood before."""

    unit: Any
    after: Any = None
    """The unit where it went (a box), None when it left the table."""


@dataclass(frozen=True, slots=True)
class Changed(Event):
    """Something that stood `before` the step stands as `after` it (the kinds below)."""

    before: Any
    after: Any


@dataclass(frozen=True, slots=True)
class StepsChanged(Changed):
    """A unit's step count changed where it stands."""


@dataclass(frozen=True, slots=True)
class Flipped(Changed):
    """A unit shows another face or level (a step level, a hidden side)."""


@dataclass(frozen=True, slots=True)
class MarkerMoved(Changed):
    """A marker (an event, a track marker) changed place or came or went (None)."""


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """A chat declaration of grammar `grammar` (vlog/kit/chat.py) and what it says."""

    grammar: str
    declaration: Any


@dataclass(frozen=True, slots=True)
class PhaseChanged(Event):
    """The phase changed from `old` (None before the first) to `new`; `bound` when the turn
    tracker shows it (else it is inferred from play)."""

    old: Any
    new: Any
    bound: bool = False


@dataclass(frozen=True, slots=True)
class MoveFinished(Event):
    """A unit's move is over (another unit moved, the phase changed, or the log ended);
    `step` is the step of its last move."""

    unit: Any


def in_order(ids: Iterable[str], units: Mapping[str, Any]) -> list[str]:
    """The ids among `ids` that `units` holds, in `units`' order (a position's: the table's); the
    units are walked only when there are several (a step changes one or two of them)."""
    found = [uid for uid in ids if uid in units]
    if len(found) > 1:
        wanted = set(found)
        found = [uid for uid in units if uid in wanted]
    return found


def unit_events(step: int | None, before: Mapping[str, Any], after: Mapping[str, Any],
                changed: AbstractSet[str] | None = None) -> list[Event]:
    """The moves, moves between boxes, placements, removals, step changes and flips between two
    sets of units by id (each with `hex`, `level` and `steps`, and `box` when the game has boxes):
    first those of the units before, in their order (moved or moved between boxes, removed,
    steps changed, flipped), then the placements (on the map, or into a box) in the order of the
    units after. `changed`: the only ids whose units may differ (the pieces a step set or took
    off, `Table.changed_since_copy`); every other id holds one unit read from one piece on both
    sides, which tells no event."""
    if before is after:                     # the same units (a game keeps one dict while none changes)
        return []
    olds: Iterable[str] = before if changed is None else in_order(changed, before)
    news: Iterable[str] = after if changed is None else in_order(changed, after)
    out: list[Event] = []
    for uid in olds:
        old = before[uid]
        new = after.get(uid)
        if new is old:                      # the same unit (an unchanged piece): no event
            continue
        if new is not None and new.hex != old.hex:
            out.append(Moved(step, old, new))
        elif new is not None and old.hex is None and getattr(new, "box", None) != getattr(old, "box", None):
            out.append(BoxMoved(step, old, new))
        if old.hex is not None and (new is None or new.hex is None):
            out.append(Removed(step, old, new))
        if new is None:
            continue
        if isinstance(old.steps, int) and isinstance(new.steps, int) and new.steps != old.steps:
            out.append(StepsChanged(step, old, new))
        if new.level != old.level:
            out.append(Flipped(step, old, new))
    for uid in news:
        new = after[uid]
        old = before.get(uid)
        if old is not new and new.hex is not None and (old is None or old.hex is None):
            out.append(Placed(step, new))
        elif old is None and new.hex is None and getattr(new, "box", None) is not None:
            out.append(BoxMoved(step, None, new))
    return out


def put_in_box(event: Event) -> Any:
    """The unit a `Moved` or `BoxMoved` put into a box it did not stand in (from the map, from
    another box, or new to the table), as it stands there; None for any other event: what a
    check of a box's entries reads, whichever way the unit came."""
    if not isinstance(event, (Moved, BoxMoved)):
        return None
    unit = event.after
    box = getattr(unit, "box", None) if unit is not None and unit.hex is None else None
    if box is None or (event.before is not None and getattr(event.before, "box", None) == box):
        return None
    return unit
