"""Which roll was for what: a player's roll belongs to the last label he typed
(vlog/games/sideshow/declarations.py), `initiative` labelling the next roll of each player.

Other ledgers ask `labelled(view)` for a step's labelled rolls; they are worked out once per
step, after every declaration of the steps before it was heard.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared

from .common import ALLIED, GERMAN, side_of

if TYPE_CHECKING:  # pragma: no cover
    from vlog.dicestats import DiceRoll
    from vlog.findings import Finding
    from vlog.kit.steps import Event, StepView

__all__ = ["LabelledRoll", "Rolls"]

BOTH_PLAYERS = frozenset({"initiative"})
"""Labels that say what the next roll of each player is for (both roll, 5.12)."""


@dataclass(frozen=True, slots=True)
class LabelledRoll:
    """A roll and what it was for: `purpose` (weather, initiative, initial-ops, opgt, event)."""

    purpose: str
    side: str | None
    roll: "DiceRoll"
    step: int | None

    @property
    def total(self) -> int | None:
        return self.roll.total

    @property
    def dice(self) -> str:
        return f"{self.roll.n_dice}d{self.roll.n_sides or 6}"


class Rolls(Ledger):
    """The labels typed and not yet used, by side, and each step's labelled rolls."""

    def __init__(self) -> None:
        self._pending: dict[str | None, str] = {}
        self._step: int | None = None
        self._labelled: list[LabelledRoll] = []

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, Declared) and event.grammar == "label":
            label = event.declaration
            if label.purpose in BOTH_PLAYERS:
                self._pending.update({ALLIED: label.purpose, GERMAN: label.purpose})
            else:
                self._pending[side_of(view.after.table, label.speaker)] = label.purpose
        return ()

    def labelled(self, view: "StepView") -> list[LabelledRoll]:
        """The step's rolls that a label says the purpose of, in order (worked out once)."""
        if view.index != self._step:
            self._step = view.index
            self._labelled = []
            for roll in view.rolls:
                side = side_of(view.before.table, roll.player)
                purpose = self._pending.pop(side, None)
                if purpose is not None:
                    self._labelled.append(LabelledRoll(purpose, side, roll, view.index))
        return self._labelled
