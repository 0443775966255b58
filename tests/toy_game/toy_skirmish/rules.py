"""The Toy Skirmish rules engine: each drag on the map is one unit's move, judged against the
table before it (MV-01 path within the movement factor, MV-02 no lake) and after it (ST-01
stacking). The game is a declaration on the kit's rules engine (vlog/kit/engine.py): its units,
and three checks registered with the inventory items they report, whose occasions in the
inventory name the event they judge (`Moved`); the engine reads the units of each position and
calls the checks. Everything a check
says about a rule (its reference, whether it is implemented, why not) comes from
data/inventory.json.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.engine.movement import MovementRules, check_move
from vlog.kit.engine import RulesEngine
from vlog.kit.inventory import load_inventory
from vlog.kit.registry import Registry
from vlog.kit.steps import Moved, StepView

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.gamedata import GameData

GAME = "toy-skirmish"
INVENTORY = load_inventory(GAME)
REGISTRY = Registry(GAME, INVENTORY)
STACKING_LIMIT = 2
"""T2.1: units of one side in a hex."""


@dataclass(frozen=True, slots=True)
class Unit:
    """A counter on the map as the rules see it (vlog.kit.units fills in id, name and place)."""

    id: str
    name: str
    counter: str
    side: str
    movement: int
    hex: str | None = None
    box: str | None = None
    level: str | None = None
    steps: int = 1


class ToySkirmish(RulesEngine):
    id = GAME
    inventory = INVENTORY
    registry = REGISTRY

    def make_unit(self, data: "GameData", counter: str, level: str | None) -> Unit:
        record = data.counter(counter)
        return Unit(counter, record["name"].value, counter, record["side"].value,
                    record["levels"]["full"]["movement"].value, level=level)

    def neighbours(self, hex_: str) -> list[str]:
        """The hexes of the field next to `hex_`."""
        layout = self.data.layout()
        names = [layout.name(h) for h in layout.neighbours(layout.parse(hex_)) if min(h.col, h.row) > 0]
        return [n for n in names if self.data.hex(n) is not None]

    def cost(self, hex_: str) -> int | None:
        """What entering a hex costs, None where the TEC prohibits it."""
        if self.data.hex(hex_) is None:
            return None
        cell = self.data.lookup("tec", self.data.terrain(hex_).value, "movement").value
        return None if cell == "P" else cell


@REGISTRY.check("MV-01")
def judge_allowance(game: ToySkirmish, moved: Moved, view: StepView) -> list["Finding"]:
    """T1.1: some path over the TEC costs, within the movement factor, reaches the new hex."""
    unit, to = moved.before, moved.after.hex
    if unit.hex is None or to is None or game.cost(to) is None:
        return []                                          # off the map, or MV-02's
    rules = MovementRules(neighbours=game.neighbours, enter_cost=game.cost)
    result = check_move(rules, unit.hex, to, unit.movement)
    if result.ruling is Ruling.LEGAL:
        return []
    return [game.finding("MV-01", result.ruling, step=moved.step,
                         message=f"{unit.name} moved {unit.hex} -> {to}: no path costs {unit.movement} or less",
                         subjects=(unit.name,), evidence={"from": unit.hex, "to": to, "movement_factor": unit.movement})]


@REGISTRY.check("MV-02")
def judge_lake(game: ToySkirmish, moved: Moved, view: StepView) -> list["Finding"]:
    """T1.2: no unit enters a lake hex."""
    unit, to = moved.before, moved.after.hex
    if to is None or game.data.hex(to) is None or game.cost(to) is not None:
        return []
    return [game.finding("MV-02", Ruling.PROVEN, step=moved.step, message=f"{unit.name} entered the lake hex {to}",
                         subjects=(unit.name,), evidence={"hex": to, "terrain": game.data.terrain(to).value})]


@REGISTRY.check("ST-01")
def judge_stacking(game: ToySkirmish, moved: Moved, view: StepView) -> list["Finding"]:
    """T2.1: at most two units of one side in the hex a move ends in."""
    unit, to = moved.before, moved.after.hex
    there = Counter(u.side for u in game.units(view.after).values() if u.hex == to and to is not None)
    if there[unit.side] <= STACKING_LIMIT:
        return []
    return [game.finding("ST-01", Ruling.PROVEN, step=moved.step,
                         message=f"{there[unit.side]} {unit.side} units in {to} after {unit.name} moved there "
                                 f"(at most {STACKING_LIMIT})", subjects=(unit.name,),
                         evidence={"hex": to, "units": there[unit.side], "limit": STACKING_LIMIT})]
