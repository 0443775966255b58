"""Replacements (17.4-17.42): a battalion regains a step only in an Initial Segment, once a turn,
three or more hexes from every enemy unit; the Axis only on 3 July (two Italian infantry and one
glider replacement), the Allies only by absorbing a Royal Navy or RAF security company stacked
with the battalion (17.42, 16.6): one in its hex, or removed from it earlier in the segment.

A replacement is a unit on the map whose step count rises (its level's number) or that turns
from its remnant or reduced side to its full side. Whether the battalion was Disorganized,
Demoralized or out of supply, and its nationality, are not judged here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Flipped, Removed, StepsChanged

from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

ENEMY_DISTANCE = 3
"""17.4: at least three hexes from all enemy units."""
AXIS_DAY = "3 July"
AXIS_REPLACEMENTS = {"infantry": 2, "glider": 1}
"""17.41: the Axis replacements of 3 July, by the type of battalion they go to."""
LOWER_SIDES = ("remnant", "reduced")


class Replacements(Ledger):
    """The ledger of replacements: the turn each unit last took one, the Axis ones used."""

    def __init__(self) -> None:
        self.taken: dict[str, int] = {}
        self.axis_used: dict[str, int] = {}
        self.absorbed: dict[str, list[str]] = {}
        """Hex -> the security companies removed from it in the current Initial Segment (17.42)."""

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.absorbed = {}
        return ()


@REGISTRY.check("SPR-03", event=Removed)
def note_absorbed(game: "IslandOfDeath", event: Removed, view: "StepView") -> list["Finding"]:
    """A security company leaving the map in an Initial Segment may have been absorbed (17.42)."""
    unit, phase = event.unit, game.phase
    if unit.kind == "security" and phase is not None and phase.name == "initial-segment":
        game.replacements.absorbed.setdefault(unit.hex, []).append(unit.counter)
    return []


def _raised(before: Any, after: Any) -> bool:
    if isinstance(before.steps, int) and isinstance(after.steps, int):
        return after.steps > before.steps
    return before.level in LOWER_SIDES and after.level == "full"


@REGISTRY.check("SPR-03", event=StepsChanged)
def judge_replacement_steps(game: "IslandOfDeath", event: StepsChanged, view: "StepView") -> list["Finding"]:
    return _judge(game, event, view)


@REGISTRY.check("SPR-03", event=Flipped)
def judge_replacement_side(game: "IslandOfDeath", event: Flipped, view: "StepView") -> list["Finding"]:
    if isinstance(event.before.steps, int) and isinstance(event.after.steps, int):
        return []                                   # told as a step change
    return _judge(game, event, view)


def _judge(game: "IslandOfDeath", event: Any, view: "StepView") -> list["Finding"]:
    before, unit, phase = event.before, event.after, game.phase
    if phase is None or unit.hex is None or not unit.is_ground_unit or not _raised(before, unit):
        return []
    ledger = game.replacements
    label = phase.sequence.labels.get(phase.turn, "")
    evidence = {"unit": unit.counter, "hex": unit.hex, "from_level": before.level, "to_level": unit.level,
                "phase": phase.name, "turn": phase.turn}

    def finding(message: str, more: dict[str, Any] | None = None) -> list["Finding"]:
        return [game.finding("SPR-03", Ruling.PROVEN, step=event.step,
                             message=f"{unit.label()} in {unit.hex} regained a step ({before.level} -> "
                                     f"{unit.level}): {message}", subjects=(unit.name,),
                             evidence={**evidence, **(more or {})})]

    if phase.name != "initial-segment":
        return finding(f"replacements are received only in the Initial Segment, not in {game.when_of(phase)} (17.4)")
    if unit.size == "company":
        return finding("companies receive no replacements (17.4)")
    if ledger.taken.get(unit.id) == phase.turn:
        return finding("no unit receives more than one replacement a turn (17.4)")
    ledger.taken[unit.id] = phase.turn
    units = game.units(view.before)
    near = sorted({u.hex for u in units.values() if u.side != unit.side and u.is_ground_unit and u.hex is not None
                   and u.kind not in ("leader", "coastal-gun") and game.board.distance(u.hex, unit.hex) < ENEMY_DISTANCE})
    if near:
        return finding(f"an enemy unit is within two hexes ({', '.join(near)}); a replaced battalion is at least "
                       f"{ENEMY_DISTANCE} hexes from all of them (17.4)", {"enemy_hexes": near})
    if unit.side == "axis":
        if not label.startswith(AXIS_DAY):
            return finding(f"the Axis receives replacements only in the Initial Segment of {AXIS_DAY} (17.41)",
                           {"day": label})
        limit = AXIS_REPLACEMENTS.get(unit.kind)
        if limit is None:
            return finding(f"the Axis replacements are for Italian infantry and glider battalions, not a "
                           f"{unit.kind} unit (17.41)", {"kind": unit.kind})
        used = ledger.axis_used[unit.kind] = ledger.axis_used.get(unit.kind, 0) + 1
        if used > limit:
            return finding(f"replacement {used} for a {unit.kind} battalion: the Axis has {limit} (17.41)",
                           {"used": used, "limit": limit})
        return []
    security = [u.counter for u in units.values() if u.hex == unit.hex and u.kind == "security" and u.side == unit.side]
    security += ledger.absorbed.pop(unit.hex, [])[:1]
    if not security:
        return finding("an Allied battalion is replaced only by absorbing a Royal Navy or RAF security company "
                       "stacked with it (17.42)", {"security_units": []})
    return []
