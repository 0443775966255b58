"""What one fire attack's die gives (4.34, 4.41, 4.5, 4.61-4.63): its DRMs, the table it reads and
the hit it scores, as far as the log and the data tell.

The DRMs a log settles are summed (SUPPORT, SIZE, the opportunity-fire penalty, the terrain and
leader DRMs the data gives). Some it cannot settle are known in size but not in presence: the
MOVED and COMBAT markers (not in the game data, so not read from the table) and SUPPORT from an
adjacent Officer or battery (inventory 6.2 item 9: "another Italian unit" may or may not mean
them); each such DRM is a choice, and the fire is read under every combination. A DRM whose value
the data lacks (a terrain's, a leader's F) leaves the result open and names the datum.

Reading the tables: a modified roll at least the lowest number listed for the range hits (the
FAQ's modified 6); the Fire Combat Table's double hits are the table `fire-double-hits` (the
bold print, lost in the text: Unknown where the data lacks it); a modified roll above 6 is read
as a 6 or as beyond the table (inventory 6.2 item 3: either a single or a double hit); the
Artillery Combat Table gives its effect by range band.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Unknown

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.ascari.rules import Ascari
    from vlog.games.ascari.units import Unit

__all__ = ["Drms", "Reading", "drms", "readings", "column", "leader_drm", "MISS", "SINGLE", "DOUBLE"]

MISS, SINGLE, DOUBLE = "miss", "single", "double"

SUPPORT_GIVERS = frozenset({"infantry", "foot-cavalry"})
"""4.34/4.41 + FAQ: the Italian units that give SUPPORT (not Mobile Militia, not Bande)."""
SUPPORT_RECEIVERS = SUPPORT_GIVERS | {"mobile-militia"}
"""S3.52: Mobile Militia receive SUPPORT; the Bande are not Italian (4.34)."""
SUPPORT_MAYBE = frozenset({"officer", "artillery"})
"""Whether an adjacent Officer or battery is 'another Italian unit' is not stated (6.2 item 9)."""
AFRICAN_COLUMN = "dervishes-ethiopians-bands"
"""4.5; Mobile Militia fire as Bande (S3.52)."""


@dataclass(frozen=True, slots=True)
class Drms:
    """A fire's DRMs: `fixed` (name -> value, summed), `choices` (name -> the values it may take:
    a marker or a reading the log cannot settle) and `unknown` (the data naming a DRM's value
    the data lacks)."""

    fixed: dict[str, int]
    choices: dict[str, tuple[int, ...]]
    unknown: tuple[str, ...]

    def totals(self) -> list[tuple[int, tuple[tuple[str, int], ...]]]:
        """Each total the DRMs may reach, with the choices taken to reach it."""
        base = sum(self.fixed.values())
        names = sorted(self.choices)
        return [(base + sum(values), tuple(zip(names, values)))
                for values in itertools.product(*(self.choices[n] for n in names))]


@dataclass(frozen=True, slots=True)
class Reading:
    """One way of reading the die: the modified roll, its result (MISS, SINGLE, DOUBLE, or
    Unknown naming the table cell) and the choices it rests on."""

    modified: int
    result: str | Unknown
    choices: tuple[tuple[str, int], ...]


def column(firer: "Unit") -> str:
    """The Fire Combat Table's column of a rifle firer (4.5)."""
    return "italians" if firer.side == "italian" and firer.type in SUPPORT_RECEIVERS - {"mobile-militia"} \
        else AFRICAN_COLUMN


def _value(datum_value: object, name: str) -> int | Unknown:
    return datum_value if isinstance(datum_value, int) else Unknown(name)


def leader_drm(game: "Ascari", leader: "Unit", key: str) -> int | Unknown:
    """The DRM printed on the leader's visible side (`fire_drm` F or `melee_drm` C, 1.2)."""
    record = game.data.counter(leader.counter)
    levels = record["levels"] if "levels" in record else None
    side = levels[leader.level] if levels is not None and leader.level in levels else None
    datum = side[key] if side is not None and key in side else None
    value = datum.value if datum is not None else None
    return _value(value, f"counters.json {leader.counter} {leader.level} {key}")


def drms(game: "Ascari", firer: "Unit", target_hex: str, opportunity: bool,
         units: Iterable["Unit"]) -> Drms:
    """The DRMs of a fire by `firer` at `target_hex` among `units` (the table before the fire)."""
    assert game.terrain is not None and firer.hex is not None
    units = list(units)
    artillery = firer.type == "artillery"
    fixed: dict[str, int] = {}
    choices: dict[str, tuple[int, ...]] = {}
    unknown: list[str] = []
    if opportunity:
        if artillery:
            fixed["opportunity fire"] = game.data.table("artillery")["properties"]["opportunity_fire_drm"].value
        else:
            fixed["opportunity fire"] = game.data.lookup("fire-drms", "opportunity-fire").value
    choices["MOVED marker"] = (0, -1)
    if not artillery:
        choices["COMBAT marker"] = (0, -1)
        size = firer.melee
        if isinstance(size, Unknown):
            choices["SIZE (Melée Strength 0)"] = (0, -1)
        elif size == 0:
            fixed["SIZE (Melée Strength 0)"] = -1
        if firer.side == "italian" and firer.type in SUPPORT_RECEIVERS:
            support = _support(game, firer, units)
            if support == (1,):
                fixed["SUPPORT"] = 1
            elif support != (0,):
                choices["SUPPORT"] = support
    for hex_, target in ((firer.hex, False), (target_hex, True)):
        total, missing = game.terrain.drm(hex_, "fire-drm", "fire-drm-target" if target else None)
        if total:
            fixed[f"terrain {hex_}"] = total
        unknown += missing
    for leader in units:
        if leader.hex == firer.hex and leader.leader and leader.side == firer.side:
            found = leader_drm(game, leader, "fire_drm")
            if isinstance(found, Unknown):
                unknown += found.data
            elif found:
                fixed[f"leader {leader.name}"] = found
    return Drms(fixed, choices, tuple(dict.fromkeys(unknown)))


def _support(game: "Ascari", firer: "Unit", units: list["Unit"]) -> tuple[int, ...]:
    """+1 when another Italian unit (not MM, not Bande) is adjacent to the Italian firer; across
    a Coatit ravine it is negated (S3.53, FAQ). (0, 1) when only an Officer or a battery is."""
    terrain = game.terrain
    assert terrain is not None and firer.hex is not None
    near = set(terrain.neighbours(firer.hex))
    maybe = False
    for unit in units:
        if unit.id == firer.id or unit.side != "italian" or unit.hex not in near:
            continue
        if game.scenario == "s3":
            ravine = terrain.board.hexside_has(firer.hex, unit.hex, "ravine")
            if ravine is True:
                continue
            if isinstance(ravine, Unknown):
                maybe = True
                continue
        if unit.type in SUPPORT_GIVERS:
            return (1,)
        maybe = maybe or unit.type in SUPPORT_MAYBE
    return (0, 1) if maybe else (0,)


def _hit(game: "Ascari", firer: "Unit", distance: int, modified: int) -> tuple[str | Unknown, ...]:
    """What a modified roll gives at a range: one result, or the two a roll above 6 may give."""
    artillery = firer.type == "artillery"
    return game.hits(artillery, None if artillery else column(firer), distance, modified)


def read_hit(data: "GameData", artillery: bool, col: str | None, distance: int,
             modified: int) -> tuple[str | Unknown, ...]:
    """`_hit` read from the tables (the engine keeps each answer: its data do not change)."""
    if artillery:
        band = next((b for b in data.table("artillery").labels("range").value or ()
                     if _in_band(distance, b)), None)
        if band is None:
            return ()
        hits = data.lookup("artillery", band, "hits").value or []
        effect = data.lookup("artillery", band, "effect").value
        if not hits or modified < min(hits):
            return (MISS,)
        return (effect if effect in (SINGLE, DOUBLE) else Unknown(f"tables.json artillery {band} effect"),)
    hits = data.lookup("fire", str(distance), col).value or []
    if not hits:
        return ()
    if modified < min(hits):
        return (MISS,)
    if modified > 6:
        return (SINGLE, DOUBLE)
    datum = data.lookup("fire-double-hits", str(distance), col, str(modified))
    if datum.value in (SINGLE, DOUBLE):
        return (datum.value,)
    return (Unknown(f"tables.json fire-double-hits range {distance} {col} roll {modified}"),)


def _in_band(distance: int, band: str) -> bool:
    low, _, high = band.partition("-")
    return int(low) <= distance <= int(high or low)


def readings(game: "Ascari", firer: "Unit", distance: int, die: int, found: Drms) -> list[Reading]:
    """Every reading of the die under the DRMs' choices (empty when the range has no column)."""
    out = []
    for total, taken in found.totals():
        for result in _hit(game, firer, distance, die + total):
            out.append(Reading(die + total, result, taken))
    return out
