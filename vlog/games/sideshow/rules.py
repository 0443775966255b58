"""The Sideshow rules engine: a declaration on the kit's rules engine (vlog/kit/engine.py).

Sideshow has no movement allowances: each month the players roll for weather and initiative,
and each buys Operations with Operation Points in his own segment (4.0, 5.0). The engine reads
the units through the bindings (units.py), the phase from the module's turn tracker, and what
the log cannot show from the players' chat (declarations.py); the ledgers of checks/ keep the
rolls, the weather, the initiative and each side's Operation Points, and judge as they go.

Where the table shows no phase, the phase is inferred from who acts: an Initial OP roll begins
that player's Operations Segment (5.21), and the inference is said in each finding's `when`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from vlog.kit.engine import RulesEngine
from vlog.kit.sequence import side_name

from . import GAME
from .checks.common import ALLIED, GERMAN
from .checks.initiative import Initiative
from .checks.operations import OperationPoints
from .checks.rolls import Rolls
from .checks.weather import Weather
from .declarations import GRAMMARS
from .registry import INVENTORY, REGISTRY
from .units import make_unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.ledger import Ledger
    from vlog.kit.sequence import Position
    from vlog.kit.steps import StepView

__all__ = ["Sideshow"]


class Sideshow(RulesEngine):
    id = GAME
    inventory = INVENTORY
    registry = REGISTRY
    grammars = GRAMMARS
    phase_kinds = {"reinforcement-availability": "reinforcement", "weather": "weather",
                   "initiative": "initiative", "operations-segment-1": "operations",
                   "operations-segment-2": "operations", "auxiliary-random-event": "event"}

    def make_unit(self, data, counter, level):
        return make_unit(data, counter, level)

    def new_ledgers(self) -> Sequence["Ledger"]:
        self.rolls = Rolls()
        self.weather = Weather(self, self.rolls)
        self.initiative = Initiative(self, self.rolls)
        self.operation_points = {side: OperationPoints(self, side, self.rolls, self.initiative)
                                 for side in (ALLIED, GERMAN)}
        return (self.rolls, self.weather, self.initiative, *self.operation_points.values())

    def infer_phase(self, view: "StepView", current: "Position | None") -> "Position | None":
        """With no turn tracker on the table: a player's Initial OP roll begins his segment."""
        base = current if current is not None else (self.sequence.first() if self.sequence else None)
        if base is None:
            return current
        for roll in self.rolls.labelled(view):
            if roll.purpose == "initial-ops" and roll.side is not None:
                found = base.infer(roll.side, "operations", f"the {side_name(roll.side)} player rolled his Initial OPs (5.21)")
                return found if found is not None else current
        return current
