"""Test-only hex grids and random maps (the project's own hex layouts live in vlog.hexes)."""
from __future__ import annotations

import random
from fractions import Fraction


def oddq_neighbours(width: int, height: int):
    """Neighbours on a width x height flat-topped grid, odd columns shifted down ("odd-q")."""

    def neighbours(h):
        c, r = h
        if c % 2:
            cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
        else:
            cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
        return [(x, y) for x, y in cand if 0 <= x < width and 0 <= y < height]

    return neighbours


def oddq_distance(a, b) -> int:
    def cube(h):
        c, r = h
        x = c
        z = r - (c - (c % 2)) // 2
        return x, -x - z, z

    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def random_map(rng: random.Random, width: int, height: int, *, prohibited: float = 0.1,
               unknown: float = 0.0, roads: int = 2, half_roads: bool = False):
    """Random terrain costs, hexside costs, road lines; returns a dict of plain data."""
    neighbours = oddq_neighbours(width, height)
    hexes = [(c, r) for c in range(width) for r in range(height)]
    terrain = {}
    for h in hexes:
        x = rng.random()
        if x < prohibited:
            terrain[h] = None
        elif x < prohibited + unknown:
            terrain[h] = "?"
        else:
            terrain[h] = rng.choice([1, 1, 2, 2, 3, 4])
    sides = {}
    for h in hexes:
        for n in neighbours(h):
            key = frozenset((h, n))
            if key in sides:
                continue
            x = rng.random()
            sides[key] = None if x < 0.05 else (1 if x < 0.2 else 0)
    lines = set()
    for _ in range(roads):
        here = rng.choice(hexes)
        for _ in range(rng.randint(2, width + height)):
            nxt = rng.choice(neighbours(here))
            lines.add(frozenset((here, nxt)))
            here = nxt
    line_cost = Fraction(1, 2) if half_roads else 1
    return {"hexes": hexes, "neighbours": neighbours, "terrain": terrain, "sides": sides,
            "lines": lines, "line_cost": line_cost}
