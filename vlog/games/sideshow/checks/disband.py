"""German disbanding (4.0 phase 1E, 5.26): from the January 1917 turn, in the Replacement/
Reinforcement Availability Phase, the German may disband FK, SK and ErK units worth 2 or more
SPs, anywhere on the map but not within three hexes of an Allied combat unit, for 1 OP each.
Disbanded units never return.

The German says `disband`; the units he then takes off the map in that phase are disbanded. The
`Disbands` ledger credits each one OP to his account (checks/operations.py) and remembers them.
SEQ-07 judges the declaration's turn and phase; OPS-07 each unit disbanded (its kind, the Allied
units within three hexes) and that none comes back. Its SPs are on the paper OB sheets (2.3):
the 2 SP minimum is not judged.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Placed, Removed

from ..events import DisbandDeclared
from ..registry import REGISTRY
from .common import ALLIED, GERMAN, known_turn, limit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, PhaseChanged, StepView

    from ..rules import Sideshow

__all__ = ["Disbands", "DISBANDABLE"]

AVAILABILITY = "reinforcement-availability"
FIRST_YEAR = 1917
DISBANDABLE = ("de-fk-", "de-sk-", "de-erk-")
"""The counters 5.26 lets the German disband: Field, Rifle and Ersatz companies."""
NOT_COMBAT = frozenset({"air"})
"""Allied units that are not combat units: the air squadrons (11.0: no combat), the only Allied
counters that are not infantry, cavalry, machine guns, artillery or armoured cars (2.2); the data
types both, so a counter of a type it does not give is a combat unit."""


class Disbands(Ledger):
    """Whether a `disband` is open (until the phase changes) and the units disbanded so far."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.open = False
        self.disbanded: dict[str, int | None] = {}
        """Counter -> the step it was disbanded at."""

    def phase(self, change: "PhaseChanged", view: "StepView") -> Iterable["Finding"]:
        self.open = False
        return ()

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, DisbandDeclared) and event.side == GERMAN:
            self.open = True
        elif isinstance(event, Removed) and self.open and event.unit.side == GERMAN:
            self.disbanded[event.unit.counter] = event.step
            self.game.operation_points[GERMAN].gain(limit(self.game.data, "disband_op_per_unit"))
        return ()


def first_turn(game: "Sideshow") -> int | None:
    """The January 1917 turn (the turn track's labels), None when they are not known."""
    labels = game.sequence.labels if game.sequence else {}
    years = [t for t, label in sorted(labels.items()) if label.split()[-1].isdigit()
             and int(label.split()[-1]) >= FIRST_YEAR]
    return years[0] if years else None


@REGISTRY.check("SEQ-07", event=DisbandDeclared)
def judge_disband_declared(game: "Sideshow", said: DisbandDeclared, view: "StepView") -> list["Finding"]:
    """4.0 phase 1E, 5.26: only the German disbands, only in phase 1 from January 1917."""
    turn, first, phase = known_turn(game), first_turn(game), game.phase
    problem = None
    if said.side != GERMAN:
        problem = "only the German player disbands units"
    elif turn is not None and first is not None and turn < first:
        label = game.sequence.labels.get(turn, f"turn {turn}")
        problem = f"it is {label}; disbanding begins with the January {FIRST_YEAR} turn"
    elif phase is not None and not phase.inferred and phase.name != AVAILABILITY:
        problem = f"it is the {phase.name} phase, not the Replacement/Reinforcement Availability Phase (1E)"
    if problem is None:
        return []
    return [game.finding("SEQ-07", Ruling.PROVEN, step=said.step,
                         message=f"a disbanding was declared: {problem} (4.0 phase 1E, 5.26)",
                         evidence={"side": said.side, "turn": turn, "first_turn": first,
                                   "phase": phase.name if phase else None})]


@REGISTRY.check("OPS-07", event=Removed)
def judge_disbanded_unit(game: "Sideshow", removed: Removed, view: "StepView") -> list["Finding"]:
    """5.26: an FK, SK or ErK, and no Allied combat unit within three hexes."""
    unit = removed.unit
    if not game.disbands.open or unit.side != GERMAN or unit.hex is None:
        return []
    evidence = {"unit": unit.name, "hex": unit.hex}
    if not unit.counter.startswith(DISBANDABLE):
        return [game.finding("OPS-07", Ruling.PROVEN, step=removed.step,
                             message=f"{unit.name} was disbanded; only FK, SK and ErK units are (5.26)",
                             subjects=(unit.name,), evidence=evidence)]
    reach, board = limit(game.data, "disband_min_distance"), game.battles.board
    near = sorted((board.distance(unit.hex, u.hex), u.name) for u in game.units(view.before).values()
                  if u.side == ALLIED and u.hex is not None and u.type not in NOT_COMBAT
                  and board.distance(unit.hex, u.hex) <= reach)
    if not near:
        return []
    shown = ", ".join(f"{n} ({d} hex{'es' if d > 1 else ''})" for d, n in near)
    return [game.finding("OPS-07", Ruling.PROVEN, step=removed.step,
                         message=f"{unit.name} was disbanded in {unit.hex} within {reach} hexes of the Allied "
                                 f"combat unit(s) {shown} (5.26)",
                         subjects=(unit.name,), evidence={**evidence, "allied": [n for _, n in near]})]


@REGISTRY.check("OPS-07", event=Placed)
def judge_return(game: "Sideshow", placed: Placed, view: "StepView") -> list["Finding"]:
    """5.26: units disbanded may not return later in the game."""
    step = game.disbands.disbanded.get(placed.unit.counter, False)
    if step is False:
        return []
    unit = placed.unit
    return [game.finding("OPS-07", Ruling.PROVEN, step=placed.step,
                         message=f"{unit.name}, disbanded at step {step}, came back onto the map in {unit.hex} (5.26)",
                         subjects=(unit.name,), evidence={"unit": unit.name, "hex": unit.hex, "disbanded_step": step})]
