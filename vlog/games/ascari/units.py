"""An Ascari counter as the rules read it: side, type, organization, movement allowance and
melée strength of the side it shows (vlog/kit/units.py reads the table into these).

Combat units print a Melée Strength and a Movement Allowance (1.1); leaders (Officers, Emirs,
Ras) print only F and C DRMs and count neither for stacking nor as blockers (1.2, 1.3, 3.4).
A counter shows its `front` or its `reduced` side (two steps, single-sided counters one); a
counter whose back is another side's (the Booty's Women side, S1.2: counters.json `back_side`)
belongs to that side when it shows its back; an artillery unit's sides are its formations, the
battery and the limbered side (3.6: counters.json `formations`), which change no step. Factors
the data lacks are `Unknown` naming the datum.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from vlog.kit.units import Value, factor, value

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData

__all__ = ["Unit", "make_unit", "LEADER_TYPES", "FIRING_TYPES", "MARKER"]

LEADER_TYPES = frozenset({"officer", "emir", "ras"})
"""1.2: the one level of leaders."""
FIRING_TYPES = frozenset({"infantry", "rifle", "mobile-militia", "band", "artillery"})
"""4.0: Rifle units (and artillery, 4.7/4.8) fire; Spear and Cavalry units only melée. The
Italian infantry companies, Mobile Militia and Bande fire (S3.52: MM 'fire as Bande')."""


MARKER = "marker"
"""1.0, 1.3: the informational markers' type in counters.json (Moved, Combat, Retreat, Fire,
Opportunity Fire, Rifle); they are not units and do not affect stacking (3.4)."""


@dataclass(frozen=True, slots=True)
class Unit:
    """A counter on the table: where it is and what its visible side prints."""

    id: str
    name: str
    counter: str
    side: str | None
    type: str | None
    organization: str | None
    level: str | None
    steps: int | None
    """Steps left: 2 on the front of a two-step counter, 1 on its reduced side or a one-step one."""
    movement: Value | None
    melee: Value | None
    hex: str | None = None
    box: str | None = None
    map: str | None = None

    @property
    def leader(self) -> bool:
        return self.type in LEADER_TYPES

    @property
    def combat(self) -> bool:
        """A combat unit (not a leader): counts for stacking and blocks movement (3.4, 1.3)."""
        return not self.leader

    @property
    def on_map(self) -> bool:
        return self.hex is not None


def make_unit(data: "GameData", counter: str, level: str | None) -> Unit:
    """The unit of a counter at a level (its first, `front`, when the table does not tell)."""
    record = data.counter(counter)
    levels = record["levels"] if "levels" in record else None
    order = tuple(levels) if levels is not None else ()
    shown = level if level is not None else (order[0] if order else None)
    total = value(record["steps"]) if "steps" in record else None
    props = record["properties"] if "properties" in record else {}
    formations = "formations" in props and value(props["formations"]) is True
    steps = None
    if isinstance(total, int) and shown in order:
        steps = total if formations else total - order.index(shown)
    kind = value(record["type"]) if "type" in record else None
    movement = factor(levels, shown, "movement", counter)
    melee = factor(levels, shown, "melee", counter)
    if kind in LEADER_TYPES:
        movement, melee = None, None
    side = value(record["side"])
    back = value(props["back_side"]) if "back_side" in props else None
    if isinstance(back, str) and order and shown != order[0]:
        side = back
    return Unit(id=counter, name=counter, counter=counter, side=side, type=kind,
                organization=value(props["organization"]) if "organization" in props else None,
                level=shown, steps=steps, movement=movement, melee=melee)

