"""Movement (3.0-3.1, 3.7, the scenario terrain): each move of the active side's units in its
movement phase is judged against the cheapest path from where the unit began the phase (or, after
a melée it won, from the melée hex with the MPs it had left), within its printed Movement
Allowance; impassable hexes are never entered. Retreats cost nothing and are not judged here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.games.ascari.movement import move_check, mover, over_allowance
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.steps import Moved

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView

IMPASSABLE_ITEM = {"agordat": "TER-08", "amba-alagi": "TER-13", "metemma": "TER-15"}
"""The inventory item of each map's impassable hexes (river Barka, rocks, water)."""


def _moving(game: "Ascari", event: Moved) -> bool:
    """A move the active side makes in its movement phase, on the scenario's map."""
    phase, unit = game.phase, event.before
    return (game.terrain is not None and phase is not None and "movement" in phase.kinds
            and unit.side == phase.phasing and unit.hex is not None and event.after.hex is not None)


@REGISTRY.check("TER-08", "TER-13", "TER-15", event=Moved)
def judge_impassable(game: "Ascari", event: Moved, view: "StepView") -> list:
    """No unit enters an impassable hex (S2.2 + FAQ, S4.3, S5.3); a retreat into one is RET-03's."""
    terrain, to = game.terrain, event.after.hex
    if terrain is None or to is None or terrain.impassable(to) is not True \
            or game.play.is_retreat(event.before, event.after):
        return []
    short = IMPASSABLE_ITEM.get(terrain.board.map_id)
    if short is None:
        return []
    what = terrain.terrain(to)
    features = terrain.features(to)
    return [game.finding(short, Ruling.PROVEN, step=event.step,
                         message=f"{event.before.name} entered {to}, impassable "
                                 f"({', '.join(features) or what}) on the {terrain.board.name} map",
                         subjects=(event.before.name,),
                         evidence={"hex": to, "terrain": what if isinstance(what, str) else None,
                                   "features": list(features), "map": terrain.board.map_id})]


@REGISTRY.check("MOV-02", event=Moved)
def judge_allowance(game: "Ascari", event: Moved, view: "StepView") -> list:
    """3.0/3.1: some path within the printed Movement Allowance reaches the hex."""
    if not _moving(game, event):
        return []
    unit, terrain = event.before, game.terrain
    assert terrain is not None
    path = game.play.paths.get(unit.id)
    allowance = unit.movement
    if path is None or path.last == "retreat" or not unit.combat or allowance is None \
            or terrain.impassable(event.after.hex) is True:
        return []
    if isinstance(allowance, Unknown):
        return _unknown_allowance(game, event, path.hexes, allowance)
    others = [u for u in game.units(view.before).values() if u.id != unit.id]
    who = mover(unit, others)
    origin, left = path.hexes[0], allowance
    if path.melees and path.melees[-1] < len(path.hexes) - 1:
        melee_hex = path.hexes[path.melees[-1]]
        reached = move_check(terrain, who, origin, melee_hex, allowance)
        if reached.ruling is not Ruling.LEGAL or reached.route is None:
            return []                      # judged when it entered the melée hex
        origin, left = melee_hex, allowance - reached.route.cost
        who = mover(unit, [u for u in others if u.hex != melee_hex])
    goal = event.after.hex
    judged = over_allowance(terrain, who, origin, goal, left)
    if judged is None:
        return []
    result, cheapest = judged
    cost = cheapest.route.cost if cheapest.route is not None else None
    evidence = {"from": origin, "to": goal, "path_logged": list(path.hexes), "allowance": allowance,
                "left": left, "cheapest_cost": cost,
                "cheapest_route": cheapest.route.explain() if cheapest.route is not None else None}
    if result.ruling is Ruling.PROVEN:
        reach = f"the cheapest path costs {cost}" if cost is not None else "no path reaches it"
        return [game.finding("MOV-02", Ruling.PROVEN, step=event.step,
                             message=f"{unit.name} moved {origin} -> {goal}: {reach}, "
                                     f"more than the {left} MP it had (allowance {allowance})",
                             subjects=(unit.name,), evidence=evidence)]
    return [game.finding("MOV-02", Ruling.POSSIBLE, step=event.step,
                         message=f"{unit.name} moved {origin} -> {goal} within {left} MP only if the "
                                 f"map is as the missing data may have it",
                         subjects=(unit.name,), evidence=evidence, depends_on=result.verdict.depends_on)]


def _unknown_allowance(game: "Ascari", event: Moved, hexes: list[str], allowance: Unknown) -> list:
    """The data lack the unit's allowance: one hex from where it began is always legal (3.1 lets a
    unit of allowance 1 make it); a longer move is POSSIBLE, naming the allowance."""
    if len(hexes) <= 2:
        return []
    unit = event.before
    return [game.finding("MOV-02", Ruling.POSSIBLE, step=event.step,
                         message=f"{unit.name} moved {hexes[0]} -> {event.after.hex} ({len(hexes) - 1} hexes): "
                                 f"within its Movement Allowance only if that is large enough",
                         subjects=(unit.name,), evidence={"from": hexes[0], "to": event.after.hex,
                                                          "path_logged": list(hexes)},
                         depends_on=allowance.data)]
