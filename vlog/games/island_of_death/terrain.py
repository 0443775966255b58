"""The Island of Death map as its movement and ZOC rules read it: who exerts a zone of control
(5.0, 5.1), how far it reaches (hexsides), and the movement hooks of one unit (6.1-6.53).

Everything the map data lacks stays `Unknown` (vlog.kit.board): on the shipped data, whose map
has no terrain and no hexsides, ZOC reaches "possibly" and terrain costs are at least 0, so a
move is PROVEN illegal only where no reading of the map explains it.

Readings taken where the text leaves a choice (rules inventory §6.2):
* A-2: the "total attack strength of 3 or more" is the printed attack of the non-artillery
  units in the hex;
* A-3: a fortress's own ZOC is not counted (a fort hex exerts one through its units);
* prepared artillery exerts a ZOC only with ammunition, which the log does not show (support and
  Out of Ammo markers are not bound): its ZOC is `Unknown`, naming the ammunition.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Tri, Unknown
from vlog.engine.movement import MovementRules
from vlog.engine.zoc import ZocMap, strength_at_least, zoc_map
from vlog.kit.movement import TerrainCosts, terrain_hooks

from vlog.games.island_of_death.units import Unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.kit.board import Board

__all__ = ["ZOC_FREE", "exerts_zoc", "zoc_of", "by_hex", "overrunnable", "movement_rules", "TEC_COLUMN",
           "ZOC_STRENGTH"]

ZOC_STRENGTH = 3
"""5.1: non-artillery units whose total attack strength is 3 or more."""
ZOC_FREE = frozenset({"leader", "coastal-gun", "marker", "warship"})
"""5.1, 16.53: these exert no ZOC (and add nothing to a hex's attack total)."""
TEC_COLUMN = {"foot": "movement_foot", "motorized": "movement_mot", "mechanized": "movement_mech"}
"""6.12: the TEC column each movement class pays."""
BLOCKING = ("all-ocean",)
"""5.0: no unit crosses, or exerts a ZOC across, an all-ocean hexside."""
RISE = "creek-with-rise"
"""5.0: only foot units exert a ZOC across a creek with rise, unless a road crosses it."""

_attack_total = strength_at_least(ZOC_STRENGTH, lambda u: u.attack)


def by_hex(units: Iterable[Unit], side: str | None = None) -> dict[str, list[Unit]]:
    """Ground units on the map by hex (of one side when given)."""
    out: dict[str, list[Unit]] = {}
    for unit in units:
        if unit.hex is not None and unit.is_ground_unit and (side is None or unit.side == side):
            out.setdefault(unit.hex, []).append(unit)
    return out


def exerts_zoc(units: Sequence[Unit]) -> bool | Unknown:
    """5.1: a strongpoint; non-artillery units of attack 3 or more; prepared artillery with
    ammunition (the ammunition is not shown: Unknown)."""
    if any(u.kind == "strongpoint" for u in units):
        return True
    infantry = [u for u in units if u.kind not in ZOC_FREE and not u.is_artillery]
    found = Tri.of(_attack_total("", infantry))
    guns = [u for u in units if u.prepared]
    if guns and not found.true:
        found = found | Unknown(*(f"ammunition of {u.label()} (support and Out of Ammo markers are not read)"
                                  for u in guns))
    if found.true:
        return True
    if found.false:
        return False
    return Unknown(*found.depends_on)


def zoc_of(positions: Mapping[str, Sequence[Unit]], board: "Board") -> ZocMap[str]:
    """The ZOC the units in `positions` (one side's, by hex) exert on the board."""

    def extends(src: str, dst: str, units: Sequence[Unit]) -> bool | Unknown:
        ocean = Tri.of(board.hexside_has(src, dst, BLOCKING[0]))
        if ocean.true:
            return False
        rise = Tri.of(board.hexside_has(src, dst, RISE)) & ~road_across(board, src, dst)
        reach = ~ocean
        if not rise.false:
            foot = [u for u in units if u.movement_class == "foot" or u.kind == "strongpoint"]
            by_foot = Tri.of(exerts_zoc(foot)) if foot else Tri.of(False)
            reach = reach & (~rise | by_foot)
        if reach.true:
            return True
        if reach.false:
            return False
        return Unknown(*reach.depends_on)

    return zoc_map(positions, board.neighbours, exerts=lambda _hex, units: exerts_zoc(units), extends=extends)


def overrunnable(units: Sequence[Unit]) -> bool | Unknown:
    """6.52: a hex holding only leaders, coastal guns and/or units of defense 0 may be entered
    (its units are eliminated)."""
    answers = []
    for unit in units:
        if unit.kind in ("leader", "coastal-gun"):
            continue
        defense = unit.defense
        if isinstance(defense, Unknown):
            answers.append(Unknown(*defense.data) if defense.at_least == 0 else False)
        else:
            answers.append(defense == 0 if defense is not None else False)
    if not answers:
        return True
    result = Tri.of(True)
    for a in answers:
        result = result & Tri.of(a)
    if result.known:
        return bool(result.value)
    return Unknown(*result.depends_on)


def road_across(board: "Board", a: str, b: str) -> Tri:
    """Whether a road crosses the hexside between adjacent a and b (6.51)."""
    return Tri.of(board.hexside_has(a, b, "road"))


class ClassTerrain:
    """What the map costs one movement class (6.1, 6.11): entering a hex, crossing a hexside,
    following a road across it; each answer worked out once, as the map and the TEC do not change
    during a game (searches ask the same hexes over and over)."""

    def __init__(self, data: "GameData", board: "Board", movement_class: str):
        self.costs = costs = TerrainCosts.from_data(data, TEC_COLUMN[movement_class], floor=0)
        enter, hexside, _ = terrain_hooks(board, costs, blocking=BLOCKING, surcharges={"creek": "creek", RISE: RISE})
        self.board, self.movement_class = board, movement_class
        self.enter = cache(enter)
        self.hexside = cache(hexside)
        self.line = cache(self._road)
        """6.11: across a road hexside the road's cost alone (not the hex's nor the creek's)."""

    def _road(self, a: str, b: str) -> Any:
        road = road_across(self.board, a, b)
        if road.false or Tri.of(self.board.hexside_has(a, b, BLOCKING[0])).true:
            return None
        cost = self.costs.of("road", 0)
        if road.true:
            return cost
        return Unknown(*road.depends_on, *(cost.data if isinstance(cost, Unknown) else ()), at_least=0)


def movement_rules(data: "GameData", terrain: ClassTerrain, *,
                   enemies: Mapping[str, Sequence[Unit]], zoc: ZocMap[str],
                   goal: str | None = None) -> MovementRules[str]:
    """The hooks one unit's move obeys (6.1, 6.53, 5.2): the TEC costs of its class as `terrain`
    gives them (at least 0 where unknown: a road may cost less than a hex), no enemy hex (6.52;
    the goal aside, which MOV-08 judges), the ZOC costs of its class, stop on entering an enemy
    ZOC, no ZOC to ZOC, and one hex always at the cost of the whole allowance."""

    def may_enter(hex_: str) -> Any:
        there = enemies.get(hex_)
        if not there or hex_ == goal:
            return True
        return overrunnable(there)

    enter_zoc = data.lookup("zoc-movement-cost", terrain.movement_class, "enter").value
    exit_zoc = data.lookup("zoc-movement-cost", terrain.movement_class, "exit").value
    return MovementRules(neighbours=terrain.board.neighbours, enter_cost=terrain.enter, hexside_cost=terrain.hexside,
                         line_cost=terrain.line, may_enter=may_enter, in_enemy_zoc=zoc.in_zoc,
                         zoc_enter_cost=enter_zoc, zoc_exit_cost=exit_zoc, stop_on_zoc_entry=True,
                         zoc_to_zoc=False, minimum_move=True)
