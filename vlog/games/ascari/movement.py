"""One Ascari unit's movement as the engine's cost hooks (vlog/engine/movement.py).

* entering a hex costs what terrain.py says for any unit; "the whole printed allowance" is the
  unit's own Movement Allowance (Metemma zeriba); a creek adds 1 for Italian units only (S3.3);
* impassable hexes (river Barka, rocks, water) are never entered;
* a unit stops in a hex it climbs into over multiple slopes or a ravine, and in a hex held by an
  enemy combat unit (the melée, 3.2); lone enemy leaders do not stop it (1.3, 5.11);
* a unit with an allowance of 1 may always move one hex (3.1).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import MoveCheck, MovementRules, check_move

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.terrain import Terrain
    from vlog.games.ascari.units import Unit

__all__ = ["movement_rules", "over_allowance"]


def over_allowance(rules: MovementRules[str], start: str, goal: str, allowance: Any) -> tuple[MoveCheck, MoveCheck] | None:
    """None when some path from `start` within `allowance` reaches `goal`; else that verdict and
    the cheapest path with no limit (the cost a finding names)."""
    result = check_move(rules, start, goal, allowance)
    if result.ruling is Ruling.LEGAL:
        return None
    return result, check_move(rules, start, goal, None)


def movement_rules(terrain: "Terrain", unit: "Unit", others: Iterable["Unit"]) -> MovementRules[str]:
    """The hooks of `unit`'s move among the `others` on the map (where the move began)."""
    enemy_hexes = frozenset(u.hex for u in others if u.hex is not None and u.combat and u.side != unit.side)
    allowance = unit.movement

    def enter_cost(hex_: str) -> Any:
        cost = terrain.hex_cost(hex_)
        if cost == "allowance":
            return allowance if allowance is not None else Unknown(f"counters.json {unit.counter} movement")
        return cost

    def hexside_cost(a: str, b: str) -> Any:
        surcharge = terrain.side(a, b)[0]
        if isinstance(surcharge, Unknown):
            return Unknown(*surcharge.data, at_least=0)
        return 1 if surcharge == "creek" and unit.side == "italian" else 0

    def stops_after(a: str, b: str) -> Any:
        if b in enemy_hexes:
            return True
        return terrain.side(a, b)[1]

    rules: MovementRules[str] = MovementRules(neighbours=terrain.neighbours, enter_cost=enter_cost,
                                              hexside_cost=hexside_cost, stops_after=stops_after,
                                              minimum_move=allowance == 1)
    return rules
