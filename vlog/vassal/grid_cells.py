"""The cell of a map's grid around a point: its centre, outline and neighbours, for drawing.

A report draws a map excerpt from the module's own grid where there is no game data (a log of a
game vlog has no rules for). Naming stays with `grids.py`, which follows VASSAL; this module only
says where a grid's hexes or squares are, in map pixels, so that each can be named through
`MapDef.location_name` like any other point. A region grid has no outlines: its cells are the
named points themselves; a zone with no grid of its own is one cell, its polygon.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from vlog.vassal import grids as G

__all__ = ["Cell", "cell_at"]


@dataclass(frozen=True)
class Cell:
    """A grid cell in map pixels: centre, outline (empty for a region point), neighbours' centres,
    and its size (centre to corner) for scaling a drawing."""

    centre: tuple[float, float]
    outline: tuple[tuple[float, float], ...]
    neighbours: tuple[tuple[float, float], ...]
    radius: float


def _hex_cell(grid: G.HexGrid, x: int, y: int) -> tuple[tuple, tuple, tuple, float]:
    rot = grid._rot
    dx, dy = grid.dx, grid.dy
    # the hex VASSAL names the point after (getRawColumn/getRawRow), not the one it snaps to:
    # near a hex's slanted sides the two differ, and the drawing rings the location reported
    ux, uy = grid._center_from_raw(grid.raw_column(x, y), grid.raw_row(x, y))
    r = 2 * dx / 3
    corners = ((ux - r, uy), (ux - r / 2, uy - dy / 2), (ux + r / 2, uy - dy / 2),
               (ux + r, uy), (ux + r / 2, uy + dy / 2), (ux - r / 2, uy + dy / 2))
    near = [(ux, uy - dy), (ux, uy + dy)] + [(ux + sx * dx, uy + sy * dy / 2) for sx in (-1, 1) for sy in (-1, 1)]
    return rot(ux, uy), tuple(rot(*c) for c in corners), tuple(rot(*c) for c in near), max(r, dy / 2)


def _square_cell(grid: G.SquareGrid, x: int, y: int) -> tuple[tuple, tuple, tuple, float]:
    dx, dy = grid.dx, grid.dy
    ux = grid.x0 + round((x - grid.x0) / dx) * dx
    uy = grid.y0 + round((y - grid.y0) / dy) * dy
    corners = ((ux - dx / 2, uy - dy / 2), (ux + dx / 2, uy - dy / 2), (ux + dx / 2, uy + dy / 2), (ux - dx / 2, uy + dy / 2))
    near = tuple((ux + i * dx, uy + j * dy) for i in (-1, 0, 1) for j in (-1, 0, 1) if i or j)
    return (ux, uy), corners, near, max(dx, dy) / 2


REGION_RADIUS = 24.0
"""Pixels a region point is drawn as (a region has no outline)."""
REGION_NEAR = 6
REGION_REACH = 400
"""A region's neighbours for a drawing: the REGION_NEAR nearest others within REGION_REACH pixels."""


def _nearest_regions(grid: G.RegionGrid, region: G.Region) -> list[G.Region]:
    others = [(r.x - region.x) ** 2 + (r.y - region.y) ** 2 for r in grid.regions]
    ranked = sorted((d, i) for i, d in enumerate(others) if 0 < d <= REGION_REACH ** 2)
    return [grid.regions[i] for _, i in ranked[:REGION_NEAR]]


def _grid_at(grid: object, x: int, y: int) -> object:
    """What places a board point: a zone's own grid (or the background) inside a zoned grid, or
    the zone itself when it has no grid (the whole zone is one location)."""
    if isinstance(grid, G.ZonedGrid):
        zone = grid.find_zone(x, y)
        if zone is None:
            return grid.background
        return zone.active_grid() or zone
    return grid


def _zone_cell(zone: G.Zone, x: int, y: int) -> tuple[tuple, tuple, tuple, float]:
    """The zone's polygon, centred where the zone names the point: its centroid, unless the zone
    is concave there or an earlier zone covers it (then the point itself)."""
    xs, ys = [p[0] for p in zone.points], [p[1] for p in zone.points]
    centre: tuple[float, float] = (sum(xs) / len(xs), sum(ys) / len(ys))
    if zone.parent is None or zone.parent.find_zone(*centre) is not zone:
        centre = (x, y)
    return centre, tuple(zone.points), (), max(max(xs) - min(xs), max(ys) - min(ys)) / 2 or 1.0


def cell_at(board: G.PlacedBoard, x: int, y: int) -> Cell | None:
    """The cell holding map point (x, y) of a placed board, in map pixels (None: no grid there, or
    a grid with no geometry)."""
    lx, ly = board.local(x, y)
    grid = _grid_at(board.grid, lx, ly)
    if isinstance(grid, G.HexGrid) and grid.dx > 0 and grid.dy > 0:
        centre, outline, near, radius = _hex_cell(grid, lx, ly)
    elif isinstance(grid, G.SquareGrid) and grid.dx > 0 and grid.dy > 0:
        centre, outline, near, radius = _square_cell(grid, lx, ly)
    elif isinstance(grid, G.Zone) and grid.points:
        centre, outline, near, radius = _zone_cell(grid, lx, ly)
    elif isinstance(grid, G.RegionGrid) and grid.regions:
        region = grid._nearest(lx, ly)
        near = tuple((r.x, r.y) for r in _nearest_regions(grid, region))
        centre, outline = (region.x, region.y), ()
        # drawn a third of the way to the nearest other region, so that the picture stays readable
        radius = max([REGION_RADIUS] + [math.dist(centre, p) / 3 for p in near[:1]])
    else:
        return None
    if isinstance(board.grid, G.ZonedGrid) and board.grid.find_zone(*centre) is not board.grid.find_zone(lx, ly):
        centre = (lx, ly)     # a region origin or hex centre outside the point's zone names another place
    inside = [p for p in near if 0 <= p[0] < board.width and 0 <= p[1] < board.height]
    return Cell(centre=board.to_map(*centre), outline=tuple(board.to_map(*p) for p in outline),
                neighbours=tuple(board.to_map(*p) for p in inside), radius=radius)
