"""The dice that follow a declaration: which rolls of a log answer which chat line.

A VASSAL log shows a roll's faces and who rolled, not what it was for. Many rules tie a roll to
what a player has just said (a ship's fire, an air attack on a gun, a communications roll): the
dice rolled after the line and before the next line of the same business are its dice. A
`FollowingDice` keeps the declaration open and gathers the faces of every later roll until it
is closed (by the next declaration, the end of a phase, or the log's end); it is told of each
step's rolls by its owner (a ledger's `step` hook, which runs before the step's events).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Iterable, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from vlog.dicestats import DiceRoll

__all__ = ["Answered", "FollowingDice", "faces_of"]

T = TypeVar("T")


def faces_of(roll: "DiceRoll") -> tuple[int, ...]:
    """A roll's single dice: its faces, or its total when it is one die that shows no faces
    (a roll of several dice that shows only a total gives none: which die was which is unknown)."""
    if roll.faces:
        return tuple(roll.faces)
    if roll.n_dice == 1 and isinstance(roll.total, int):
        return (roll.total,)
    return ()


@dataclass(slots=True)
class Answered(Generic[T]):
    """One declaration and the dice rolled after it: (face, step) in order, and the rolls
    themselves (a roll whose faces are not shown counts there, not among the faces)."""

    declaration: T
    step: int | None
    faces: list[tuple[int, int | None]] = field(default_factory=list)
    rolls: list["DiceRoll"] = field(default_factory=list)

    @property
    def dice(self) -> int:
        """How many dice were rolled after it (shown or not)."""
        return sum(r.n_dice for r in self.rolls)

    @property
    def values(self) -> list[int]:
        return [f for f, _ in self.faces]


class FollowingDice(Generic[T]):
    """The open declaration and the dice rolled since: `open` starts one (closing the one before),
    `rolled` adds a step's rolls, `close` ends it. Rolls of the declaration's own step are not its
    (VASSAL logs a chat line and a roll as two steps)."""

    def __init__(self) -> None:
        self.current: Answered[T] | None = None

    def open(self, declaration: T, step: int | None) -> Answered[T] | None:
        """Start answering `declaration`; the one it ends, if any."""
        ended = self.close()
        self.current = Answered(declaration, step)
        return ended

    def close(self) -> Answered[T] | None:
        ended, self.current = self.current, None
        return ended

    def rolled(self, step: int | None, rolls: Iterable["DiceRoll"], *, player: Any = None) -> None:
        """A step's rolls (of `player` only, when given: a roll naming no player is counted)."""
        current = self.current
        if current is None or step == current.step:
            return
        for roll in rolls:
            if player is not None and roll.player is not None and roll.player != player:
                continue
            current.rolls.append(roll)
            current.faces.extend((f, step) for f in faces_of(roll))
