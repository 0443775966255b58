"""Ascari's line of sight between two hexes (4.2), for the fire checks and the First Agordat
Booty revolt (S1.2): traced through the hexes strictly between (vlog/engine/sight.py), each
criterion apart so a finding can name the one that blocks: other combat units unless the viewer
stands higher than the target hex (LOS-01), blocking terrain (LOS-02; along a hexside by the
layout's straddle rule, LOS-03) and ground higher than the target (LOS-04). A hex whose terrain
or height the map data lacks gives Unknown, naming it, never a guess."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from vlog.engine.judge import Unknown
from vlog.engine.sight import Sight, higher_than, line_of_sight

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.games.ascari.terrain import Terrain
    from vlog.games.ascari.units import Unit

__all__ = ["sight_blocks", "clear_sight"]


def sight_blocks(game: "Ascari", viewer: "Unit", target: str, units: Iterable["Unit"]) -> dict[str, Sight]:
    """LOS item -> the Sight that criterion alone gives, from the viewer's hex to `target`, with
    `units` the units on the table (the viewer's own piece never blocks). Traced once per pair
    of hexes and set of occupied hexes (the map does not change during a log)."""
    terrain = game.terrain
    assert terrain is not None and viewer.hex is not None
    occupied = frozenset(u.hex for u in units if u.hex is not None and u.combat and u.id != viewer.id)
    return dict(terrain.once(("sight", viewer.hex, target, occupied),
                             lambda: _sight_blocks(terrain, viewer.hex, target, occupied)))


def _sight_blocks(terrain: "Terrain", frm: str, target: str, occupied: frozenset[str]) -> dict[str, Sight]:
    layout = terrain.layout
    target_level = terrain.elevation(target)
    viewer_higher = higher_than(lambda h: terrain.elevation(layout.name(h)), layout.parse(frm), target_level)
    name: Callable[[Any], str] = layout.name

    def by_units(h: Any) -> Any:
        if name(h) not in occupied:
            return False
        if viewer_higher is True:
            return False
        return True if viewer_higher is False else viewer_higher

    def by_terrain(h: Any) -> Any:
        return terrain.blocks_sight(name(h))

    def by_height(h: Any) -> Any:
        return higher_than(lambda x: terrain.elevation(name(x)), h, target_level)

    a, b = layout.parse(frm), layout.parse(target)
    return {"LOS-01": line_of_sight(layout, a, b, by_units),
            "LOS-02": line_of_sight(layout, a, b, by_terrain),
            "LOS-04": line_of_sight(layout, a, b, by_height)}


def clear_sight(game: "Ascari", viewer: "Unit", target: str, units: Iterable["Unit"]) -> tuple[bool | Unknown, list[str]]:
    """Whether the line of sight is clear on every criterion: True, False (with the hexes that
    block it, named) or Unknown (naming the data that would settle it)."""
    layout = game.terrain.layout if game.terrain is not None else None
    blocked: list[str] = []
    missing: set[str] = set()
    for sight in sight_blocks(game, viewer, target, units).values():
        blocked += [" / ".join(layout.name(h) for h in step) for step in sight.blocked_by]
        if isinstance(sight.clear, Unknown):
            missing |= sight.clear.data
    if blocked:
        return False, sorted(set(blocked))
    return (Unknown(*sorted(missing)) if missing else True), []
