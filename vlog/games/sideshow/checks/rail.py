"""Rail Movement and Rail Reaction (6.5, 8.5). A stack moves along contiguous railway hexes of a
line its player controls, never adjacent to an enemy unit (6.53); a defender reacts to an attack
in a railroad hex by moving up to 20 SPs along the railroad into the attack hex, for 1 OP (8.5).

The map data has no rail hexes (map.json lines uganda-railway, northern-railway, central-railway,
voi-moshi-railroad: hexes printed on the map only), so which hexes a line runs through, who
controls it, and the path of a rail move are not judged. What the log settles without them:
RAIL-03, that no unit ends a Rail Movement Operation's move next to an enemy unit; CBT-22, that
a Rail Reaction answers an attack under way on the reacting side, and its units end in the
attack hex.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.kit.sequence import side_name
from vlog.kit.steps import Moved

from ..events import OperationPaid
from ..registry import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import StepView

    from ..rules import Sideshow

__all__: list[str] = []


@REGISTRY.check("RAIL-03", "CBT-22", event=Moved)
def judge_rail_move(game: "Sideshow", moved: Moved, view: "StepView") -> list["Finding"]:
    """6.53: a rail move ends next to no enemy unit; 8.5: a reacting unit moves into the attack hex."""
    unit, new = moved.before, moved.after
    current = game.operations.current.get(unit.side) if unit.side else None
    if current is None or new.hex is None or unit.hex is None or unit.hex == new.hex:
        return []
    if current.op.kind == "reaction":
        battle = game.battles.current
        if battle is None or battle.defender != unit.side or new.hex == battle.target:
            return []
        return [game.finding("CBT-22", Ruling.PROVEN, step=moved.step,
                             message=f"{unit.name} moved {unit.hex} -> {new.hex} in the Rail Reaction of step "
                                     f"{current.step}; reacting units move into the attack hex {battle.target} (8.5)",
                             subjects=(unit.name,),
                             evidence={"unit": unit.name, "from": unit.hex, "to": new.hex, "target": battle.target,
                                       "operation_step": current.step})]
    if current.op.kind != "rail":
        return []
    neighbours = set(game.battles.board.neighbours(new.hex))
    enemies = sorted(f"{u.name} ({u.hex})" for u in game.units(view.after).values()
                     if u.hex in neighbours and u.side not in (None, unit.side))
    if not enemies:
        return []
    return [game.finding("RAIL-03", Ruling.PROVEN, step=moved.step,
                         message=f"{unit.name} moved by rail {unit.hex} -> {new.hex}, next to {', '.join(enemies)} "
                                 f"(6.53: a rail move may not move adjacent to an enemy unit)",
                         subjects=(unit.name,),
                         evidence={"unit": unit.name, "from": unit.hex, "to": new.hex, "enemies": enemies,
                                   "operation_step": current.step})]


@REGISTRY.check("CBT-22", event=OperationPaid)
def judge_reaction_paid(game: "Sideshow", paid: OperationPaid, view: "StepView") -> list["Finding"]:
    """8.5: a Rail Reaction is the defender's answer to an attack under way."""
    if paid.op.kind != "reaction":
        return []
    battle = game.battles.current
    if battle is not None and battle.defender == paid.side:
        return []
    why = "no attack is under way" if battle is None else \
        f"the {side_name(paid.side)} player is the attacker of step {battle.step}"
    return [game.finding("CBT-22", Ruling.PROVEN, step=paid.step,
                         message=f"the {side_name(paid.side)} player paid for a Rail Reaction; {why} "
                                 "(8.5: the defender reacts to an attack)",
                         evidence={"side": paid.side, "attack_step": battle.step if battle else None})]
