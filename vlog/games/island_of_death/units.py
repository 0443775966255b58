"""Island of Death units as the rules speak of them: a counter at a level (a step level, a
battalion's full or remnant side, an artillery unit's prepared or hitched side, a leader or its
ADC), with the printed factors that level shows.

The rulebook prints few factors (most are on the counters); a factor the data lacks is an
`Unknown` naming the datum (vlog.kit.units.factor), so a check built on it says what would
settle it. What a unit *is* (its type, size and movement class) decides most rules: who exerts a
ZOC (5.1), what counts for stacking (7.1), who may never move (6.53, 16.23, 16.34, 16.53).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Unknown
from vlog.kit.units import Value, factor, value

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData

__all__ = ["Unit", "make_unit", "ARTILLERY", "NOT_UNITS", "MOVEMENT_CLASSES"]

ARTILLERY = frozenset({"artillery", "glider-artillery", "parachute-artillery"})
"""Types that prepare and hitch (2.1, 6.6, 12.1)."""
NOT_UNITS = frozenset({"marker", "warship"})
"""Types that are not ground units: drop-zone and air-support markers (2.3, 19.1), warships
(16.7), which never stack with, block or are attacked as ground units."""
MOVEMENT_CLASSES = ("foot", "motorized", "mechanized")


@dataclass(frozen=True, slots=True)
class Unit:
    """A piece on the table as the rules see it. `level` is the counter's level key ("full",
    "remnant", "prepared", "3" ...); `steps` the steps it has, where the data tells."""

    id: str
    name: str
    counter: str
    side: str
    kind: str
    """The counter's type ("infantry", "artillery", "leader", "coastal-gun", "strongpoint" ...)."""
    size: str | None
    """"battalion", "company", or None where the data does not say."""
    movement_class: str | None
    """"foot", "motorized" or "mechanized" (2.1); None where the data does not say."""
    movement: Value | None
    attack: Value | None
    defense: Value | None
    morale: Value | None
    formation: str | None = None
    hex: str | None = None
    box: str | None = None
    level: str | None = None
    steps: int | None = None

    # -- what the unit is -------------------------------------------------------------------
    @property
    def is_ground_unit(self) -> bool:
        return self.kind not in NOT_UNITS

    @property
    def is_artillery(self) -> bool:
        return self.kind in ARTILLERY

    @property
    def is_leader(self) -> bool:
        return self.kind == "leader"

    @property
    def prepared(self) -> bool:
        """An artillery unit showing its prepared (firing) side (6.6)."""
        return self.is_artillery and self.level == "prepared"

    @property
    def remnant(self) -> bool:
        return self.level == "remnant"

    def label(self) -> str:
        return f"{self.name} ({self.counter})" if self.name != self.counter else self.name


def _movement_class(record: Any, kind: str) -> str | None:
    found = value(record["movement_class"]) if "movement_class" in record else None
    if found in MOVEMENT_CLASSES:
        return found
    if kind == "tank":
        return "mechanized"
    return None


def make_unit(data: "GameData", counter: str, level: str | None) -> Unit:
    """The unit a counter shows at a level (its first level when None)."""
    record = data.counter(counter)
    levels = record["levels"] if "levels" in record else None
    order = tuple(levels) if levels else ()
    if level is None and order:
        level = order[0]
    kind = value(record["type"]) or "unknown"
    props = record["properties"] if "properties" in record else {}
    formation = value(props["formation"]) if "formation" in props else None

    def printed(key: str, *also: str) -> Value | None:
        return factor(levels, level, key, counter, also=also) if order else None

    attack, defense = printed("attack", "combat"), printed("defense", "combat")
    if kind in ARTILLERY and level == "prepared":
        # 12.11: prepared artillery is attacked with its hitched side's defense; it attacks not
        attack = None
        defense = factor(levels, "hitched", "defense", counter) if "hitched" in order else None
    steps_total = value(record["steps"])
    steps = None
    if level is not None and level.isdigit():
        steps = int(level)
    elif isinstance(steps_total, int) and len(order) <= 1:
        steps = steps_total
    return Unit(id="", name="", counter=counter, side=value(record["side"]) or "unknown", kind=kind,
                size=value(record["size"]) if "size" in record else None,
                movement_class=_movement_class(record, kind), movement=printed("movement"),
                attack=attack, defense=defense, morale=printed("morale"), formation=formation,
                level=level, steps=steps)

