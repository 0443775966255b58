"""Lion of Judah movement costs and prohibitions as the engine's hooks (rules 11.1-11.6,
PB 13.1.1, 13.6.1, 14.6.2, 14.6.4.1): the TEC columns of foot and motorized units through the
kit's terrain hooks, the enemy hexes a unit may not enter or pays to enter, the tribal factions'
and guerrillas' hexes, the areas in play and the rainy season's doubled costs
(checks/movement.py judges moves with them).
"""
from __future__ import annotations

from typing import Any

from vlog.engine.judge import Unknown, unknowns
from vlog.engine.movement import MovementRules
from vlog.games.lion_of_judah.board import FOOT_MIN_COST, MOTORIZED_MIN_COST, Board
from vlog.games.lion_of_judah.state import GameState, Unit
from vlog.kit.movement import TerrainCosts, terrain_hooks

__all__ = ["DRY_ZONES", "IN_PLAY_1935", "RAINY_TURNS", "ROAD_TRACK_1940", "blocks_entry", "is_guerrilla",
           "movement_rules", "other_faction", "rainy_season"]

ROAD_TRACK_1940 = "track-asmara-addis"
"""PB 14.6.2.1: in 1940-41 this dirt track is a road for all purposes (MV-13)."""
IN_PLAY_1935 = ("eritrea", "ethiopia", "italian-somaliland")
"""PB 13.1.1: the only areas in play in 1935-36."""
RAINY_TURNS = (2, 3, 4)
"""PB 14.6.2.2: (40) July, August and September, turns 2-4, are the rainy season."""
DRY_ZONES = ("eritrea", "ogaden", "british-somaliland", "french-somaliland", "italian-somaliland")
"""PB 14.6.2.2: the rain does not double costs in Eritrea, the Ogaden region or the Somalilands."""


def rainy_season(scenario: str | None, turn: int | None) -> bool:
    """PB 14.6.2.2: (40) turns 2-4."""
    return scenario == "1940-41" and turn in RAINY_TURNS



# ---------------------------------------------------------------------------------------------
# enemy hexes


def _shares_hexes(mover: Unit, other: Unit) -> bool:
    """PB 14.6.4.1: guerrillas may occupy the same hex as Italian-controlled units, Italian units
    may move into or through hexes occupied by guerrillas (the guerrilla class exists only in
    1940-41, state.py)."""
    pair = {mover.side, other.side}
    if pair != {"italian", "allied"}:
        return False
    guerrilla = other if mover.side == "italian" else mover
    return guerrilla.unit_class == "guerrilla"


def blocks_entry(mover: Unit, other: Unit) -> bool:
    """11.2: True when `other`, in a hex, keeps `mover` out of it: a non-defenseless enemy unit
    (11.6) that PB 14.6.4.1 does not let share the hex."""
    return _is_enemy(mover, other) and not other.defenseless


def _is_enemy(mover: Unit, other: Unit) -> bool:
    """An enemy unit as movement sees it (air markers never count, 10.1.2)."""
    return bool(other.side and mover.side and other.side != mover.side and other.kind != "air"
                and not _shares_hexes(mover, other))


# ---------------------------------------------------------------------------------------------
# costs


def _is_motorized(unit: Unit) -> bool | Unknown:
    if unit.kind in ("hq", "truck"):
        return True
    return unit.motorized


def _tribal(unit: Unit, scenario: str | None) -> str | None:
    """The faction whose hexes bound this unit's path (PB 13.6.1), None for Negus units."""
    if scenario == "1940-41" or unit.side != "ethiopian":
        return None
    if unit.unit_class == "imperial-guard" or unit.name == "Negus" or unit.counter == "et-negus":
        return None
    return unit.faction


def movement_rules(board: Board, state: GameState, unit: Unit, *, motorized: bool,
                   scenario: str | None = None, minimum_move: bool = True,
                   tribal: bool = True, rainy: bool = False, goal: str | None = None,
                   relax: frozenset[str] = frozenset()) -> MovementRules[str]:
    """The engine hooks for one unit's move on the board as it stands (`tribal`: PB 13.6.1,
    no path through hexes of another Ethiopian faction, the move's end `goal` excepted: ending
    there is a stacking matter, ST-06; (40) PB 14.6.4.1 and 14.6.1.3, a guerrilla stays in
    Ethiopia and passes through no other faction's guerrilla hex, `goal` excepted as well; `rainy`: PB 14.6.2.2, costs doubled
    outside the dry zones; `relax`: prohibitions left out, "enemies" (11.2) or "areas" (PB 13.1.1),
    to find which one a move breaks)."""
    faction = _tribal(unit, scenario) if tribal else None
    guerrilla = tribal and is_guerrilla(unit, scenario)
    effect = "movement-motorized" if motorized else "movement-foot"
    floor = MOTORIZED_MIN_COST if motorized else FOOT_MIN_COST
    occupied = state.occupied()
    wet = (lambda hex_: _rain_doubles(board, hex_)) if rainy else (lambda hex_: False)

    def enemy_units(hex_: str) -> list[Unit]:
        return [u for u in occupied.get(hex_, ()) if _is_enemy(unit, u)]

    def may_enter(hex_: str) -> bool | Unknown:
        enemies = enemy_units(hex_)
        if "enemies" not in relax and any(not u.defenseless for u in enemies):
            return False                                   # 11.2
        if faction is not None and hex_ != goal and other_faction(unit, occupied.get(hex_, ()), scenario):
            return False                                   # PB 13.6.1, MV-42
        if guerrilla:                                      # PB 14.6.4.1, 14.6.1.3 (MV-43)
            if hex_ != goal and any(is_guerrilla(u, scenario) and u.faction != unit.faction
                                    for u in occupied.get(hex_, ())):
                return False
            return board.in_zone(hex_, "ethiopia")
        if scenario == "1935-36" and "areas" not in relax:     # PB 13.1.1
            return board.in_any_zone(hex_, IN_PLAY_1935)
        return True

    def enemy_entry(hex_: str) -> int | None:                  # 11.6
        enemies = [u for u in enemy_units(hex_) if u.defenseless or "enemies" not in relax]
        return 1 if enemies and not all(u.kind in ("rp", "truck") for u in enemies) else None

    def line_kinds(a: str, b: str) -> Any:
        kinds = board.line_kinds(a, b)
        if scenario == "1940-41" and not isinstance(kinds, Unknown) and ROAD_TRACK_1940 in board.line_ids(a, b):
            kinds = set(kinds) | {"road"}      # PB 14.6.2.1: the Asmara - Addis Ababa track is a road
        return kinds

    enter_cost, hexside_cost, line_cost = terrain_hooks(
        board, TerrainCosts(board.tec, effect, floor),
        row_of=lambda terrain: "mountain" if terrain == "amba" else terrain,       # 11.4.1
        blocking=("all-sea", "impassable"), surcharges={"river": "river-hexside"},
        lines={"road": "road", "rail": "rail"}, line_kinds=line_kinds,
        modify=lambda cost, hex_: _doubled(cost, wet(hex_)), surcharge=enemy_entry)     # PB 14.6.2.2

    def neighbours(hex_: str):
        return board.neighbours(hex_)

    return MovementRules(neighbours=neighbours, enter_cost=enter_cost, hexside_cost=hexside_cost,
                         line_cost=line_cost, may_enter=may_enter, minimum_move=minimum_move)


def other_faction(unit: Unit, units: Any, scenario: str | None) -> list[str]:
    """PB 13.6.1: (35) the other tribal factions among `units` that `unit` may not pass through
    (none for Negus units)."""
    faction = _tribal(unit, scenario)
    if faction is None:
        return []
    return sorted({_tribal(u, scenario) or "?" for u in units if u.side == "ethiopian"
                   and _tribal(u, scenario) not in (None, faction)})


def is_guerrilla(unit: Unit, scenario: str | None) -> bool:
    """(40) an Ethiopian guerrilla (state.py makes 1940-41 levies Allied guerrillas)."""
    return scenario == "1940-41" and unit.unit_class == "guerrilla"


def _rain_doubles(board: Board, hex_: str) -> bool | Unknown:
    """PB 14.6.2.2: True when the rainy season doubles costs in the hex (not in a dry zone)."""
    dry = board.in_any_zone(hex_, DRY_ZONES)
    return dry if isinstance(dry, Unknown) else not dry


def _doubled(cost: Any, wet: bool | Unknown) -> Any:
    """A cost doubled by the rain, or, where the rain is unknown, at least the dry cost."""
    if wet is False or cost is None:
        return cost
    if wet is True:
        return cost * 2
    return Unknown(*wet.data, *unknowns(cost), at_least=cost.at_least if isinstance(cost, Unknown) else cost)
