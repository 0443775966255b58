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
from vlog.kit.steps import PhaseChanged

from ..events import OperationPaid
from ..registry import REGISTRY
from .common import ALLIED, GERMAN

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import StepView

    from ..rules import Sideshow

__all__: list[str] = []

TABLE = "retreat-length"


def _judge_retreat(game: "Sideshow", step: int | None) -> list["Finding"]:
    battle = game.battles.closed
    if battle is None or not battle.rolls:
        return []
    holds = {s: battle.holds(s) for s in (ALLIED, GERMAN)}
    if holds[ALLIED] == holds[GERMAN]:
        return []
    loser = ALLIED if not holds[ALLIED] else GERMAN
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


@REGISTRY.check("CBT-17", event=OperationPaid)
@REGISTRY.check("CBT-17", event=PhaseChanged)
def judge_retreat(game: "Sideshow", event: "OperationPaid | PhaseChanged", view: "StepView") -> list["Finding"]:
    """8.26: when the battle is over, no retreating unit stands farther away than its roll."""
    return _judge_retreat(game, event.step)


@REGISTRY.check("CBT-17", on="end")
def judge_the_last_retreat(game: "Sideshow", view: "StepView") -> list["Finding"]:
    return _judge_retreat(game, None)
