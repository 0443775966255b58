"""Retreats (8.26, 8.27): the side that loses a battle leaves the target hex and retreats as
many hexes from it as one die gives, at most 4 (a 5 or 6 counts 4). A unit that cannot retreat
the whole way loses 1 SP for each hex it could not (8.27), so it may end nearer; none ends
farther.

CBT-17 judges, when the battle is over, the hex each retreating unit ended in: no farther from
the target hex than the retreating player's `retreat` roll allows, or than 4 hexes where no
roll is labelled. The path's cost and direction (8.27: least AP, towards a controlled town or
North/South) rest on the map's terrain and are not judged.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from .battle import when_over

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import StepView

    from ..rules import Sideshow

__all__: list[str] = []

TABLE = "retreat-length"


@when_over("CBT-17")
def judge_retreat(game: "Sideshow", step: int | None) -> list["Finding"]:
    """8.26: when the battle is over, no retreating unit stands farther away than its roll."""
    battle = game.battles.closed
    loser = battle.loser() if battle is not None and battle.rolls else None
    if loser is None:
        return []
    table = game.data.table(TABLE)
    roll = battle.retreat if battle.retreat is not None and battle.retreat.side == loser \
        and battle.retreat.roll.n_dice == 1 else None
    if roll is not None and roll.total is not None:
        hexes, why = table.lookup(str(roll.total)).value, f"the retreat roll of {roll.total} (step {roll.step})"
    else:
        hexes, why = table["properties"]["max_hexes"].value, "at most 4 hexes, with no retreat roll labelled"
    if not isinstance(hexes, int):
        return []
    board, found = game.battles.board, []
    for unit_id, unit in sorted(battle.fought.items(), key=lambda kv: kv[1].name):
        where = battle.where.get(unit_id)
        if unit.side != loser or where is None:
            continue
        distance = board.distance(battle.target, where)
        if distance <= hexes:
            continue
        found.append(game.finding(
            "CBT-17", Ruling.PROVEN, step=step,
            message=f"{unit.name} retreated from {battle.target} to {where}, {distance} hexes away; "
                    f"{why} allows {hexes} (8.26)",
            subjects=(unit.name,),
            evidence={"unit": unit.name, "side": loser, "target": battle.target, "to": where,
                      "distance": distance, "allowed": hexes,
                      "roll": roll.total if roll is not None else None, "attack_step": battle.step}))
    return found
