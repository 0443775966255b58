"""What a melée's dice give (5.1-5.4, 5.41, FAQ): each side's Melée Cumulative Value and the
results the two values allow, as far as the log and the data tell.

MCV = the unit's printed Melée Strength + the DRMs + its own d6 (5.1). The DRMs (5.3): HEIGHT +1
to the defender when the attacker came up from a lower hex; TERRAIN, the melée hex's defender DRM
(the scenario chart's zeriba, fort, camp or village, the general chart's terrain) and, in Coatit,
+1 to the defender when the attacker crossed a creek; LEADER, the C DRM of each leader of the side
in the hex (cumulative, FAQ); BAYONET CHARGE +1 to Italian units but Bande in Amba Alagi (S4.42,
FAQ); RETREAT -1 to a unit holding a RETREAT marker, which the data does not show, so it is read
both ways.

Which die is whose the log does not say: both ways are read. The bands of 5.2 overlap and "more
than double" has two readings (inventory 6.2 item 2): every band a difference falls in under either
reading is a possible result. A retreat result may end in a hit or an elimination instead (a
unit already holding a RETREAT marker, 5.41; no hex to retreat to, 5.4; artillery, 5.4).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vlog.engine.judge import Unknown
from vlog.games.ascari.fire_table import leader_drm

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.games.ascari.units import Unit

__all__ = ["Side", "side_values", "results", "TIE", "RETREAT", "RETREAT_HIT", "OVERRUN"]

TIE, RETREAT, RETREAT_HIT, OVERRUN = "tie", "retreat", "retreat and a hit", "overrun"
BAYONET_SCENARIOS = frozenset({"s4"})


@dataclass(frozen=True, slots=True)
class Side:
    """One side's MCV before its die: `fixed` (strength and DRMs settled, by name), `choices` (a
    DRM that may or may not apply) and `unknown` (data naming a value the data lacks)."""

    fixed: dict[str, int]
    choices: dict[str, tuple[int, ...]]
    unknown: tuple[str, ...]

    def totals(self) -> set[int]:
        base = sum(self.fixed.values())
        return {base + sum(v) for v in itertools.product(*self.choices.values())}


def side_values(game: "Ascari", unit: "Unit", hex_: str, came_from: str, attacking: bool,
                units: "list[Unit]") -> Side:
    """The MCV of `unit` in the melée in `hex_` entered from `came_from`, before its die."""
    terrain = game.terrain
    assert terrain is not None
    fixed: dict[str, int] = {}
    choices: dict[str, tuple[int, ...]] = {"RETREAT marker": (0, -1)}
    unknown: list[str] = []
    if isinstance(unit.melee, Unknown):
        unknown += unit.melee.data
    elif isinstance(unit.melee, int):
        fixed["strength"] = unit.melee
    if not attacking:
        low, high = terrain.elevation(came_from), terrain.elevation(hex_)
        if isinstance(low, Unknown) or isinstance(high, Unknown):
            unknown += [d for x in (low, high) if isinstance(x, Unknown) for d in x.data]
        elif low < high:
            fixed["HEIGHT"] = game.data.lookup("melee-drms", "height").value
        drm, missing = terrain.drm(hex_, "melee-drm-defender", "melee-drm-defender")
        unknown += missing
        if drm:
            fixed["TERRAIN"] = drm
        if game.scenario == "s3":
            creek = terrain.board.hexside_has(came_from, hex_, "creek")
            if creek is True:
                fixed["creek crossed"] = 1
            elif isinstance(creek, Unknown):
                choices["creek crossed"] = (0, 1)
    for leader in units:
        if leader.hex == hex_ and leader.leader and leader.side == unit.side:
            found = leader_drm(game, leader, "melee_drm")
            if isinstance(found, Unknown):
                unknown += found.data
            elif found:
                fixed[f"leader {leader.name}"] = found
    if game.scenario in BAYONET_SCENARIOS and unit.side == "italian" and unit.type != "band":
        fixed["BAYONET CHARGE"] = game.data.lookup("melee-drms", "bayonet-charge").value
    return Side(fixed, choices, tuple(dict.fromkeys(unknown)))


def results(high: int, low: int) -> set[str]:
    """What the higher MCV does to the lower under every reading of 5.2's bands."""
    if high == low:
        return {TIE}
    diff = high - low
    out = set()
    if diff <= 2:
        out.add(RETREAT)
    if high > 2 * low:                        # "more than double" the lower value (3 vs 1 too)
        out.add(OVERRUN)
    if diff >= 3:
        out.add(RETREAT_HIT if high <= 2 * low else OVERRUN)    # the higher against double the lower
        out.add(RETREAT_HIT if diff <= 2 * low else OVERRUN)    # the difference against it
    return out
