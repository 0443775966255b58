"""Which roll was for what: a player's roll belongs to the last label he typed
(vlog/games/sideshow/declarations.py), `initiative` labelling the next roll of each player.

The engine asks `labelled(view)` for a step's rolls, as typed events (events.py); they are
worked out once per step, from the labels of the steps before it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared

from ..events import ROLLED, Rolled
from .common import ALLIED, GERMAN, side_of

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, StepView

__all__ = ["Rolls"]

BOTH_PLAYERS = frozenset({"initiative"})
"""Labels that say what the next roll of each player is for (both roll, 5.12)."""


class Rolls(Ledger):
    """The labels typed and not yet used, by side, and each step's labelled rolls."""

    def __init__(self) -> None:
        self._pending: dict[str | None, str] = {}
        self._step: int | None = None
        self._labelled: list[Rolled] = []

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, Declared) and event.grammar == "label":
            label = event.declaration
            if label.purpose in BOTH_PLAYERS:
                self._pending.update({ALLIED: label.purpose, GERMAN: label.purpose})
            else:
                self._pending[side_of(view.after.table, label.speaker)] = label.purpose
        return ()

    def labelled(self, view: "StepView") -> list[Rolled]:
        """The step's rolls that a label says the purpose of, in order (worked out once)."""
        if view.index != self._step:
            self._step = view.index
            self._labelled = []
            for roll in view.rolls:
                side = side_of(view.before.table, roll.player)
                purpose = self._pending.pop(side, None)
                if purpose is not None:
                    self._labelled.append(ROLLED[purpose](view.index, side, roll))
        return self._labelled
