"""Security troops (16.6, 17.42): who may absorb a Royal Navy or RAF security company.

In an Initial Segment a reduced British infantry battalion (not Maltese) or a remnant stacked
with a security company may absorb it as a replacement (17.42); whether the step came at the
right time, once and far from the enemy is SPR-03's (checks/replacements.py). SPU-15 judges who
absorbed it: an Allied unit that regains a step in an Initial Segment with a security company in
its hex, or taken off it earlier in the segment, and is not a British infantry battalion.

The variable placement of 22.39 (Royal Navy companies in Main or Minor Port hexes, RAF ones on
airfield hexes, one a hex) needs the port and airfield hexes, which the map data lacks
(map.json zones `ports`, `airfields`): not judged.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Flipped, Removed, StepsChanged

from vlog.games.island_of_death.checks.replacements import _raised
from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

class Security(Ledger):
    """(turn, hex) -> the security companies taken off that hex in that turn's Initial Segment."""

    def __init__(self) -> None:
        self.removed: dict[tuple[int, str | None], list[str]] = {}


@REGISTRY.check("SPU-15", event=Removed)
def note_security_off(game: "IslandOfDeath", event: Removed, view: "StepView") -> list["Finding"]:
    """A security company leaving the map in an Initial Segment (absorbed, 17.42)."""
    unit, phase = event.unit, game.phase
    if unit.kind == "security" and phase is not None and phase.name == "initial-segment":
        game.security.removed.setdefault((phase.turn, unit.hex), []).append(unit.counter)
    return []


@REGISTRY.check("SPU-15", event=StepsChanged)
@REGISTRY.check("SPU-15", event=Flipped)
def judge_absorbed(game: "IslandOfDeath", event: Any, view: "StepView") -> list["Finding"]:
    """17.42: the unit regaining a step with a security company in its hex is a British battalion."""
    before, unit, phase = event.before, event.after, game.phase
    if isinstance(event, Flipped) and isinstance(before.steps, int) and isinstance(unit.steps, int):
        return []                                   # told as a step change
    if phase is None or phase.name != "initial-segment" or unit.side != "allied" or unit.hex is None \
            or not _raised(before, unit):
        return []
    security = [u.counter for u in game.units(view.before).values()
                if u.hex == unit.hex and u.kind == "security" and u.side == "allied"]
    security += game.security.removed.get((phase.turn, unit.hex), [])
    if not security:
        return []                                   # no absorption: SPR-03 says whether it may regain a step
    nationality = game.data.counter(unit.counter)["nationality"].value \
        if "nationality" in game.data.counter(unit.counter) else None
    if nationality == "british" and unit.kind == "infantry" and unit.size == "battalion":
        return []
    what = f"a {nationality or 'unknown-nationality'} {unit.kind} {unit.size or 'unit'}"
    return [game.finding("SPU-15", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} in {unit.hex} regained a step ({before.level} -> {unit.level}) with "
                                 f"the security company {', '.join(sorted(set(security)))} there: {what}; only "
                                 f"British (not Maltese) infantry battalions absorb security companies (16.6, 17.42)",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "hex": unit.hex, "nationality": nationality,
                                   "kind": unit.kind, "size": unit.size, "security_units": sorted(set(security))})]
