"""The Sideshow rules engine: a declaration on the kit's rules engine (vlog/kit/engine.py).

Sideshow has no movement allowances: each month the players roll for weather and initiative,
and each buys Operations with Operation Points in his own segment (4.0, 5.0). The engine reads
the units through the bindings (units.py), the phase from the module's turn tracker, and what
the log cannot show from the players' chat (declarations.py), told as the game's own events
(events.py: a labelled roll, the weather read, the segment taken, an Operation paid for, a
Committed Strength, a loss, a disbanding, a Random Event named). The ledgers of checks/ keep the
labels, the weather, the initiative, each side's Operation Points and Operation under way, the
battle under way, the Random Events and what they take out of play, disbanded and raised units;
the checks judge the events their items' occasions name (data/inventory.json).

Where the table shows no phase, the phase is inferred from who acts: an Initial OP roll begins
that player's Operations Segment (5.21), and the inference is said in each finding's `when`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from vlog.kit.engine import RulesEngine
from vlog.kit.sequence import side_name
from vlog.kit.steps import Declared

from . import GAME
from .checks import combat, crt, eliminated, rail, retreat, setup  # noqa: F401  (their checks register)
from .checks.disband import Disbands
from .checks.event_arrivals import EventArrivals
from .checks.event_effects import EventEffects
from .checks.raising import Raising
from .checks.battle import Battles
from .checks.arrivals import Arrivals
from .checks.common import ALLIED, GERMAN, side_of
from .checks.initiative import Initiative
from .checks.movement import Operations
from .checks.operations import OperationPoints
from .checks.phase_order import PhaseOrder
from .checks.random_events import RandomEvents
from .checks.rolls import Rolls
from .checks.schnee import Schnee
from .checks.weather import Weather
from .declarations import GRAMMARS
from .events import DisbandDeclared, EventNamed, InitialOpsRolled, LossDeclared, OperationPaid, SegmentChosen, StrengthDeclared, WeatherRead
from .registry import INVENTORY, REGISTRY
from .units import make_unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.ledger import Ledger
    from vlog.kit.sequence import Position
    from vlog.kit.steps import Event, StepView

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
        self.weather = Weather(self)
        self.initiative = Initiative(self)
        self.operation_points = {side: OperationPoints(self, side) for side in (ALLIED, GERMAN)}
        self.operations = Operations(self)
        self.random_events = RandomEvents(self)
        self.arrivals = Arrivals(self)
        self.battles = Battles(self)
        self.disbands = Disbands(self)
        self.effects = EventEffects(self)
        self.raising = Raising(self)
        self.event_arrivals = EventArrivals(self)
        self.schnee = Schnee(self)
        self.phase_order = PhaseOrder()
        return (self.rolls, self.weather, self.initiative, *self.operation_points.values(), self.operations,
                self.random_events, self.arrivals, self.battles, self.disbands, self.effects, self.raising,
                self.event_arrivals, self.schnee, self.phase_order)

    def more_events(self, view: "StepView", events: Sequence["Event"]) -> list["Event"]:
        """The step's labelled rolls, and the weather read, segment taken and Operations paid
        for that its chat declares, each with the side of the player."""
        out: list[Event] = list(self.rolls.labelled(view))
        table = view.after.table
        for event in events:
            if not isinstance(event, Declared):
                continue
            said, side = event.declaration, side_of(table, getattr(event.declaration, "speaker", None))
            if event.grammar == "weather":
                out.append(WeatherRead(event.step, side, said.rain))
            elif side is not None and event.grammar == "segment":
                out.append(SegmentChosen(event.step, side, said.segment))
            elif side is not None and event.grammar == "operation":
                out.append(OperationPaid(event.step, side, said))
            elif event.grammar == "event-letter":
                out.append(EventNamed(event.step, side, said.letter))
            elif side is not None and event.grammar == "disband":
                out.append(DisbandDeclared(event.step, side))
            elif side is not None and event.grammar == "points":
                out.append((StrengthDeclared if said.what == "strength" else LossDeclared)(event.step, side, said.sp))
        return out

    def infer_phase(self, view: "StepView", current: "Position | None") -> "Position | None":
        """With no turn tracker on the table: a player's Initial OP roll begins his segment."""
        base = current if current is not None else (self.sequence.first() if self.sequence else None)
        if base is None:
            return current
        for roll in self.rolls.labelled(view):
            if isinstance(roll, InitialOpsRolled) and roll.side is not None:
                found = base.infer(roll.side, "operations", f"the {side_name(roll.side)} player rolled his Initial OPs (5.21)")
                return found if found is not None else current
        return current
