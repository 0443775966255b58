"""Attack Operations (8.2, 8.21, 8.23): an attack is declared on one hex an enemy holds, by units
in hexes next to it, who move into it (there is no attrition for that move). Which hexside lies
between is not in the data: an attack across an impassable hexside is not judged (the map's
hexsides would settle it). Units from a second hex attack only on a Multiple Attack roll of 1-5,
from a third on 1-4, and so on; a failed roll stops that hex and every hex not yet rolled for.

CBT-01 judges the declared target (`op attack HEX`: enemy units there when it is paid for) and
each attacker's move into it, from a hex next to it; CBT-05, when the battle is over
(checks/battle.py), that the hexes the attackers came from had their `multiple` rolls.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.engine.dice import parse_range
from vlog.kit.sequence import side_name
from vlog.kit.steps import Moved

from ..events import AmbushRolled, OperationPaid
from ..registry import REGISTRY
from .battle import when_over
from .common import GERMAN

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import StepView

    from ..rules import Sideshow

__all__ = ["adjacent"]


def adjacent(game: "Sideshow", a: str, b: str) -> bool:
    """Whether two hexes of the map are next to each other (the map's layout)."""
    layout = game.data.layout()
    return b in {layout.name(h) for h in layout.neighbours(layout.parse(a))}


@REGISTRY.check("CBT-01", event=OperationPaid)
def judge_attack_target(game: "Sideshow", paid: "OperationPaid", view: "StepView") -> list["Finding"]:
    """8.2: the declared target holds enemy units."""
    if paid.op.kind != "attack" or paid.op.hex is None:
        return []
    enemies = [u for u in game.units(view.after).values()
               if u.hex == paid.op.hex and u.side not in (None, paid.side)]
    if enemies:
        return []
    return [game.finding("CBT-01", Ruling.PROVEN, step=paid.step,
                         message=f"the {side_name(paid.side)} player declared an Attack on {paid.op.hex}, "
                                 "which holds no enemy unit (8.2: units enter an adjacent enemy-occupied hex)",
                         evidence={"side": paid.side, "target": paid.op.hex})]


@REGISTRY.check("CBT-01", event=Moved)
def judge_attacker_move(game: "Sideshow", moved: "Moved", view: "StepView") -> list["Finding"]:
    """8.21: the attackers come from the hexes next to the target."""
    unit, new = moved.before, moved.after
    current = game.operations.current.get(unit.side) if unit.side else None
    if current is None or current.op.kind != "attack" or current.op.hex is None or new.hex != current.op.hex \
            or unit.hex is None or unit.hex == new.hex or adjacent(game, unit.hex, new.hex):
        return []
    return [game.finding("CBT-01", Ruling.PROVEN, step=moved.step,
                         message=f"{unit.name} attacked {new.hex} from {unit.hex}, which is not next to it "
                                 f"(8.21; the Attack of step {current.step})",
                         subjects=(unit.name,),
                         evidence={"unit": unit.name, "from": unit.hex, "target": new.hex,
                                   "operation_step": current.step})]


MULTIPLE = "multiple-attack"


@when_over("CBT-05")
def judge_multiple_attack(game: "Sideshow", step: int | None) -> list["Finding"]:
    """8.23: units from the second and later hexes attack only after passing rolls."""
    battle = game.battles.closed
    if battle is None or battle.withdrawal or len(battle.origins) < 2:
        return []
    passed, failed = 0, None
    for n, roll in enumerate(battle.multiple, start=2):
        cell = game.data.lookup(MULTIPLE, str(n)).value
        if not isinstance(cell, str) or roll.total is None or roll.roll.n_dice != 1:
            return []
        if roll.total not in parse_range(cell):
            failed = (n, roll, cell)
            break
        passed += 1
    hexes = list(battle.origins.items())
    if len(hexes) <= 1 + passed:
        return []
    origin, (unit, entered) = hexes[1 + passed]
    evidence = {"target": battle.target, "hexes": [h for h, _ in hexes], "rolls": [r.total for r in battle.multiple],
                "hex": origin, "unit": unit, "attack_step": battle.step}
    if failed is not None:
        n, roll, cell = failed
        why = f"the Multiple Attack roll of {roll.total} for hex {n} (step {roll.step}) needed {cell}"
    elif battle.other_rolls == 0:
        why = f"no Multiple Attack roll was made for hex {2 + passed}"
    else:
        return []                                   # an unlabelled roll may have been it
    return [game.finding("CBT-05", Ruling.PROVEN, step=entered,
                         message=f"{unit} attacked {battle.target} from {origin}, attacking hex {2 + passed} of "
                                 f"{len(hexes)}; {why} (8.23)",
                         subjects=(unit,), evidence=evidence)]


@REGISTRY.check("CBT-04", event=AmbushRolled)
def judge_ambush_roll(game: "Sideshow", roll: "AmbushRolled", view: "StepView") -> list["Finding"]:
    """8.22 type 2: the German Ambush is one die, rolled once by the German in a withdrawal with
    ambush (its result is an SP on the OB sheets, its modifiers rest on nationalities the data lacks)."""
    current = game.operations.current.get(GERMAN)
    problem = None
    if roll.side != GERMAN:
        problem = f"the {side_name(roll.side) if roll.side else 'unknown'} player rolled it; the German ambushes"
    elif current is None or current.op.kind != "withdraw2":
        problem = "no withdrawal with ambush (`op withdraw2`) is under way"
    elif roll.roll.n_dice != 1:
        problem = f"it is {roll.dice}; the ambush is one die"
    else:
        current.ambushes += 1
        if current.ambushes > 1:
            problem = f"it is ambush roll {current.ambushes} in the withdrawal of step {current.step}; one is made"
    if problem is None:
        return []
    return [game.finding("CBT-04", Ruling.PROVEN, step=roll.step,
                         message=f"an Ambush roll at step {roll.step}: {problem} (8.22 type 2)",
                         evidence={"side": roll.side, "dice": roll.dice,
                                   "operation": current.op.kind if current is not None else None})]
