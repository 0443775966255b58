"""One Ascari unit's movement as the engine's cost hooks (vlog/engine/movement.py).

* entering a hex costs what terrain.py says for any unit; "the whole printed allowance" is the
  unit's own Movement Allowance (Metemma zeriba); a creek adds 1 for Italian units only (S3.3);
* impassable hexes (river Barka, rocks, water) are never entered;
* a unit stops in a hex it climbs into over multiple slopes or a ravine, and in a hex held by an
  enemy combat unit (the melée, 3.2); lone enemy leaders do not stop it (1.3, 5.11);
* a unit with an allowance of 1 may always move one hex (3.1).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import MoveCheck, MovementRules, check_move

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.terrain import Terrain
    from vlog.games.ascari.units import Unit

__all__ = ["Mover", "mover", "movement_rules", "move_check", "over_allowance"]


@dataclass(frozen=True, slots=True)
class Mover:
    """All a move's cost depends on besides the map: the unit's side (the creek), its printed
    allowance and counter (a zeriba costs the whole allowance), the hexes held by enemy combat
    units (a melée stops it) and whether one hex is always allowed (3.1, 3.61). Moves with the
    same Mover on the same map have the same answer, so each is searched once (`move_check`)."""

    side: str | None
    allowance: Any
    counter: str
    enemy_hexes: frozenset[str]
    minimum_move: bool


def mover(unit: "Unit", others: Iterable["Unit"], *, minimum_move: bool | None = None) -> Mover:
    """`unit`'s move among the `others` on the map (where the move began); `minimum_move` None:
    one hex is always allowed when its allowance is 1 (3.1)."""
    enemy_hexes = frozenset(u.hex for u in others if u.hex is not None and u.combat and u.side != unit.side)
    return Mover(unit.side, unit.movement, unit.counter, enemy_hexes,
                 unit.movement == 1 if minimum_move is None else minimum_move)


def move_check(terrain: "Terrain", who: Mover, start: str, goal: str, allowance: Any) -> MoveCheck:
    """`check_move` of the mover from `start` to `goal` within `allowance` (None: no limit),
    searched once per map and question (the map does not change during a log)."""
    return terrain.once(("move", who, start, goal, allowance),
                        lambda: check_move(movement_rules(terrain, who), start, goal, allowance))


def over_allowance(terrain: "Terrain", who: Mover, start: str, goal: str, allowance: Any) -> tuple[MoveCheck, MoveCheck] | None:
    """None when some path from `start` within `allowance` reaches `goal`; else that verdict and
    the cheapest path with no limit (the cost a finding names)."""
    result = move_check(terrain, who, start, goal, allowance)
    if result.ruling is Ruling.LEGAL:
        return None
    return result, move_check(terrain, who, start, goal, None)


def movement_rules(terrain: "Terrain", who: Mover) -> MovementRules[str]:
    """The movement hooks (vlog/engine/movement.py) of the mover on the map, built once per mover."""
    return terrain.once(("rules", who), lambda: _rules(terrain, who))


def _rules(terrain: "Terrain", who: Mover) -> MovementRules[str]:
    enemy_hexes, allowance = who.enemy_hexes, who.allowance

    def enter_cost(hex_: str) -> Any:
        cost = terrain.hex_cost(hex_)
        if cost == "allowance":
            return allowance if allowance is not None else Unknown(f"counters.json {who.counter} movement")
        return cost

    def hexside_cost(a: str, b: str) -> Any:
        surcharge = terrain.side(a, b)[0]
        if isinstance(surcharge, Unknown):
            return Unknown(*surcharge.data, at_least=0)
        return 1 if surcharge == "creek" and who.side == "italian" else 0

    def stops_after(a: str, b: str) -> Any:
        if b in enemy_hexes:
            return True
        return terrain.side(a, b)[1]

    return MovementRules(neighbours=terrain.neighbours, enter_cost=enter_cost, hexside_cost=hexside_cost,
                         stops_after=stops_after, minimum_move=who.minimum_move)
