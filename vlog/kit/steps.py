"""One view of a logged step, built once by the driver (`vlog.replay`) and handed to the game.

The driver applies each step's commands once, to a copy of the table as it stood before the
step, and hands the game both tables in a `StepView`; a game reads them and never copies and
re-applies a step itself. Both tables are read-only: the table after one step is the table
before the next. What a game derives from a table (its units, its phase) is kept with the table
in a `Position` (`Position.derived`), so the next step's `before` finds what this step's `after`
computed and the game's view of each position is built once.

The end of a log is a view of its own (`StepView.end`): no step, the final table before and
after, so a game closes what is still open (a combat, a move) on the path every step takes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Hashable, Sequence, TypeVar

from vlog.vassal.commands import Chat

if TYPE_CHECKING:  # pragma: no cover
    from vlog.dicestats import DiceRoll
    from vlog.table import Table
    from vlog.vassal.savefile import Step

__all__ = ["Position", "StepView"]

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
