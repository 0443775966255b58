"""Raising Troops (9.1): the German's Troop Raising Operation draws two counters from the Unused
Pile into Tabora (four in the first four turns, October 1914 through January 1915; none while
the Allies occupy it), then one die on the New German Unit Placement Table places one counter in
that town (two rolls in the first four turns; none if an Allied combat unit is there). Only FK,
SK, ErK units and the Wangoni Kompanie are raised.

The `Raising` ledger keeps the Troop Raising Operation under way (`op raise`): the units placed
in Tabora and elsewhere, and the `placement` rolls. Judged on each unit the German places on the
map in it: REI-03 its kind, REI-01 Tabora's count and occupation, REI-02 the town of a roll. A
unit out of the Replacement Box is the Operation's other use (9.33): REI-05, one FK, placed with
German units (that their hex is a town in GEA is not in the data).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Placed

from ..events import OperationPaid, PlacementRolled
from ..registry import REGISTRY
from .common import ALLIED, GERMAN, came_from_box, limit
from .disband import DISBANDABLE
from .random_events import _month

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, PhaseChanged, StepView

    from ..rules import Sideshow

__all__ = ["Raising"]

TABORA = "Tabora"
TABLE = "german-unit-placement"
RAISED = (*DISBANDABLE, "de-wangoni")
"""The counters a Troop Raising Operation brings in (9.11, 9.12)."""
REPLACEMENTS = "german-replacement"
REBUILT = "de-fk-"
"""Only Field Companies are rebuilt (9.33)."""
FIRST_TURNS = ((1914, 10), (1915, 1))
"""'Oct 1914 thru Jan 1915' (9.13): four counters into Tabora and two placement rolls."""


class Raising(Ledger):
    """The Troop Raising Operation under way: the step it was paid for, the units placed, the placement rolls."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.opened: int | None = None
        self.open = False
        self.in_tabora = 0
        self.rolls: list[PlacementRolled] = []
        self.elsewhere: list[str] = []
        self.rebuilt: list[str] = []

    def phase(self, change: "PhaseChanged", view: "StepView") -> Iterable["Finding"]:
        self.open = False
        return ()

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, OperationPaid) and event.side == GERMAN:
            self.open, self.opened, self.in_tabora = event.op.kind == "raise", event.step, 0
            self.rolls, self.elsewhere, self.rebuilt = [], [], []
        elif isinstance(event, PlacementRolled) and self.open and event.side == GERMAN:
            self.rolls.append(event)
        return ()


def first_turns(game: "Sideshow") -> bool | None:
    """Whether this is one of the first four turns (None: the turn is not shown)."""
    month = _month(game)
    return None if month is None else FIRST_TURNS[0] <= month <= FIRST_TURNS[1]


@REGISTRY.check("REI-05", event=Placed)
def judge_rebuilt_unit(game: "Sideshow", placed: Placed, view: "StepView") -> list["Finding"]:
    """9.33: instead of raising, one FK out of the Replacement Box, placed with German units."""
    ledger, unit = game.raising, placed.unit
    if not ledger.open or unit.side != GERMAN or came_from_box(view, game, unit.id) != REPLACEMENTS:
        return []
    ledger.rebuilt.append(unit.name)
    others = sorted(u.name for u in game.units(view.before).values() if u.side == GERMAN and u.hex == unit.hex)
    problem = None
    if not unit.counter.startswith(REBUILT):
        problem = "only Field Companies (FK) are rebuilt"
    elif len(ledger.rebuilt) > 1:
        problem = f"{ledger.rebuilt[0]} was rebuilt in it already: one FK is taken"
    elif not others:
        problem = f"no German unit stands in {unit.hex}: it is placed with German units"
    if problem is None:
        return []
    return [game.finding("REI-05", Ruling.PROVEN, step=placed.step,
                         message=f"{unit.name} came out of the Replacement Box into {unit.hex} in the Troop Raising "
                                 f"Operation of step {ledger.opened}: {problem} (9.33)", subjects=(unit.name,),
                         evidence={"unit": unit.name, "hex": unit.hex, "with": others, "operation_step": ledger.opened})]


@REGISTRY.check("REI-01", "REI-02", "REI-03", event=Placed)
def judge_raised_unit(game: "Sideshow", placed: Placed, view: "StepView") -> list["Finding"]:
    """9.11-9.16: what a Troop Raising Operation places, and where."""
    ledger, unit = game.raising, placed.unit
    if not ledger.open or unit.side != GERMAN or unit.hex is None \
            or came_from_box(view, game, unit.id) == REPLACEMENTS:
        return []                                   # a rebuilt FK (REI-05)
    evidence = {"unit": unit.name, "hex": unit.hex, "operation_step": ledger.opened}
    if not unit.counter.startswith(RAISED):
        return [game.finding("REI-03", Ruling.PROVEN, step=placed.step,
                             message=f"{unit.name} was placed in {unit.hex} in the Troop Raising Operation of step "
                                     f"{ledger.opened}; only FK, SK, ErK units and the Wangoni Kompanie are raised (9.11)",
                             subjects=(unit.name,), evidence=evidence)]
    early = first_turns(game)
    allied_in = sorted(u.name for u in game.units(view.before).values() if u.side == ALLIED and u.hex == unit.hex
                       and u.type != "air")
    if unit.hex in game.data.hexes_named(TABORA):
        ledger.in_tabora += 1
        cap = limit(game.data, "raise_troops_tabora_counters_first_4_turns" if early
                    else "raise_troops_tabora_counters")
        if allied_in:
            problem = f"Tabora holds {', '.join(allied_in)} (9.13: then no counter is drawn)"
        elif early is not None and ledger.in_tabora > cap:
            problem = f"it is counter {ledger.in_tabora} into Tabora; {cap} are drawn (9.13)"
        else:
            return []
        return [game.finding("REI-01", Ruling.PROVEN, step=placed.step,
                             message=f"{unit.name} was placed in Tabora in the Troop Raising Operation of step "
                                     f"{ledger.opened}: {problem}", subjects=(unit.name,),
                             evidence={**evidence, "in_tabora": ledger.in_tabora, "allied": allied_in})]
    table = game.data.table(TABLE)
    towns = {str(r): table.lookup(str(r), "hex").value for r in range(1, 7)}
    used = len(ledger.elsewhere)
    ledger.elsewhere.append(unit.name)
    rolls = [r for r in ledger.rolls if r.total is not None and r.roll.n_dice == 1]
    problem = None
    if unit.hex not in towns.values():
        problem = f"{unit.hex} is no town of the New German Unit Placement Table (9.16)"
    elif allied_in:
        problem = f"{unit.hex} holds {', '.join(allied_in)} (9.13: then no unit is placed)"
    elif used < len(rolls) and towns.get(str(rolls[used].total)) != unit.hex:
        problem = f"the placement roll of {rolls[used].total} (step {rolls[used].step}) gives {towns[str(rolls[used].total)]}"
    if problem is None:
        return []
    return [game.finding("REI-02", Ruling.PROVEN, step=placed.step,
                         message=f"{unit.name} was placed in {unit.hex} in the Troop Raising Operation of step "
                                 f"{ledger.opened}: {problem}", subjects=(unit.name,),
                         evidence={**evidence, "rolls": [r.total for r in rolls]})]


@REGISTRY.check("REI-02", event=PlacementRolled)
def judge_placement_rolls(game: "Sideshow", roll: PlacementRolled, view: "StepView") -> list["Finding"]:
    """9.13 step 2: one placement roll in a Troop Raising Operation, two in the first four turns."""
    ledger = game.raising
    if not ledger.open or roll.side != GERMAN:
        return []
    early = first_turns(game)
    allowed = 2 if early else 1
    if early is None or len(ledger.rolls) <= allowed:
        return []
    return [game.finding("REI-02", Ruling.PROVEN, step=roll.step,
                         message=f"placement roll {len(ledger.rolls)} in the Troop Raising Operation of step "
                                 f"{ledger.opened}; it makes {allowed} (9.13 step 2"
                                 f"{': two in the first four turns' if early else ''})",
                         evidence={"rolls": [r.total for r in ledger.rolls], "allowed": allowed,
                                   "operation_step": ledger.opened})]
