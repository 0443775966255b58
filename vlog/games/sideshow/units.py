"""A Sideshow unit as the rules see it: a counter on the map or in a box, with its printed ratings.

Sideshow counters have no step levels (strength points are kept on the Order of Battle sheets,
2.3), so a unit is its counter's one face: strength, commitment and attrition ratings (8.11), or
a leader's combat, seniority and mortality numbers (10.21). Ratings the data lacks are `Unknown`
naming the datum (vlog/kit/units.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from vlog.kit.units import Value, factor, value

__all__ = ["Unit", "make_unit"]


@dataclass(frozen=True, slots=True)
class Unit:
    """One counter on the table: where it stands (a hex of the map or a box) and its ratings."""

    id: str
    name: str
    counter: str
    side: str | None
    type: str | None
    hex: str | None = None
    box: str | None = None
    level: str | None = None
    steps: int | None = None
    strength: Value | None = None
    commitment: Value | None = None
    attrition: Value | None = None
    combat: Value | None = None
    """A German leader's Combat Rating (8.35), added to German and taken from Allied combat rolls."""
    seniority: Value | None = None
    """A German leader's Seniority, 1 the highest (10.21): with several, only the senior one counts (10.23)."""


def make_unit(data, counter: str, level: str | None) -> Unit:
    """The unit of a counter (vlog.kit.units' unit transform): its side, type and ratings."""
    record = data.counter(counter)
    levels = record["levels"] if "levels" in record else None
    key = level or (next(iter(levels)) if levels else None)
    return Unit(counter, counter, counter, value(record["side"]), value(record["type"]) if "type" in record else None,
                level=key, steps=value(record["steps"]) if "steps" in record else None,
                strength=factor(levels, key, "strength", counter),
                commitment=factor(levels, key, "commitment", counter),
                attrition=factor(levels, key, "attrition", counter),
                combat=factor(levels, key, "combat", counter),
                seniority=factor(levels, key, "seniority", counter))
