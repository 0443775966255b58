"""Zones of control: which hexes lie in a side's ZOC, given where its units stand.

Games differ on who exerts a ZOC (Island of Death 5.1: a hex whose non-artillery units total at
least 3 attack; Sideshow 6.71: German stacks of 12+ SP, Allied of 25+) and on what stops it
(Island of Death 5.0: not across all-ocean hexsides; Sideshow 6.72: not into mountain, forest
or swamp, nor across rivers except at bridges). Both are hooks here; the result is a map the
movement and supply searches query through `in_zoc`.

A hook may answer `Unknown` (a hidden unit's strength, missing terrain): such hexes are in ZOC
"possibly", and the map says which data would settle it.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar, Union

from vlog.engine.judge import Unknown

H = TypeVar("H", bound=Hashable)
U = TypeVar("U")
Flag = Union[bool, Unknown]


@dataclass(slots=True)
class ZocMap(Generic[H]):
    """The ZOC of one side: hexes certainly in it, hexes possibly in it, and their sources."""

    certain: dict[H, set[H]] = field(default_factory=dict)      # hex -> exerting hexes
    possible: dict[H, set[str]] = field(default_factory=dict)   # hex -> data that would decide

    def in_zoc(self, hex_: H) -> Flag:
        """True, False or `Unknown` naming the data; usable as a movement/supply hook."""
        if hex_ in self.certain:
            return True
        data = self.possible.get(hex_)
        if data:
            return Unknown(*sorted(data))
        return False

    __call__ = in_zoc

    def sources(self, hex_: H) -> frozenset[H]:
        """Hexes whose units certainly project ZOC into `hex_` (Sideshow 6.75 needs them)."""
        return frozenset(self.certain.get(hex_, ()))

    def hexes(self) -> frozenset[H]:
        """Every hex certainly in the ZOC."""
        return frozenset(self.certain)


def zoc_map(positions: Mapping[H, Sequence[U]], neighbours: Callable[[H], Iterable[H]], *,
            exerts: Callable[[H, Sequence[U]], Flag],
            extends: Callable[[H, H, Sequence[U]], Flag] | None = None,
            includes_own_hex: bool = False) -> ZocMap[H]:
    """The ZOC projected by the units in `positions` (one side's units, grouped by hex).

    `exerts(hex, units)` says whether the units in a hex exert a ZOC at all; `extends(src, dst,
    units)` whether it reaches the adjacent hex dst (terrain, hexsides). `includes_own_hex`
    puts the exerting hex itself in the zone (most games leave it out: units are not in their
    own ZOC, and an enemy cannot be there).
    """
    zone: ZocMap[H] = ZocMap()
    for src, units in positions.items():
        if not units:
            continue
        exerting = exerts(src, units)
        if exerting is False:
            continue
        src_data = exerting.data if isinstance(exerting, Unknown) else frozenset()
        targets = list(neighbours(src))
        if includes_own_hex:
            targets.append(src)
        for dst in targets:
            reach: Flag = True if (extends is None or dst == src) else extends(src, dst, units)
            if reach is False:
                continue
            data = set(src_data)
            if isinstance(reach, Unknown):
                data |= reach.data
            if data:
                if dst not in zone.certain:
                    zone.possible.setdefault(dst, set()).update(data)
            else:
                zone.certain.setdefault(dst, set()).add(src)
                zone.possible.pop(dst, None)
    return zone


def strength_at_least(threshold: float, strength: Callable[[U], float | Unknown | None]
                      ) -> Callable[[H, Sequence[U]], Flag]:
    """An `exerts` hook: the hex's units total at least `threshold` (None strengths count 0).

    Island of Death 5.1 (attack strength >= 3) and Sideshow 6.71 (12 or 25 SP) are this with
    their own strength functions; unknown strengths give `Unknown` unless the known part
    already reaches the threshold.
    """

    def exerts(_hex: H, units: Sequence[U]) -> Flag:
        known = 0.0
        data: set[str] = set()
        upper: float | None = 0.0
        for unit in units:
            value = strength(unit)
            if value is None:
                continue
            if isinstance(value, Unknown):
                data |= value.data
                known += value.at_least
                upper = None if (upper is None or value.at_most is None) else upper + value.at_most
            else:
                known += value
                if upper is not None:
                    upper += value
        if known >= threshold:
            return True
        if not data or (upper is not None and upper < threshold):
            return False
        return Unknown(*sorted(data))

    return exerts
