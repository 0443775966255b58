"""Rebuilding eliminated units (7.3.4, PB 13.5.2.1, PB 14.5.2.3): RR-15.

A counter (combat unit or HQ) that left the map while a combat was open, or whose hex an enemy
unit holds once it is gone (an HQ overrun, 11.6), and is later placed on the map again in a
Mutual Administration Phase is a rebuilt unit. It may come back only as the
scenario allows and never when it bears a black circle:

* (35) Italian units may be rebuilt (PB 13.5.2.1); Ethiopian placements follow the faction
  reinforcement rules (RR-05 to RR-07) and are not judged here;
* (40) eliminated Italian units may not be rebuilt (PB 14.5.2.3) - PROVEN, except colonial
  regulars, which the campaign's optional rule lets the Italians rebuild after a 1935-36 strategic
  victory (PB 14.3.4): POSSIBLE naming that datum; Allied units are rebuilt normally;
* a black circle (the data's `black_circle` property when true, or the units the text names:
  Black Shirts and the 40th and 65th divisions, PB 14.5.2.3) forbids it in any scenario.

Where the rebuilt unit arrives (a reinforcement hex) is judged with every placement by RR-03 and
RR-10 (checks/reinforcements.py); its RP cost (one a step, two for an HQ) by the per-side RP
allowance (checks/logistics.py). Units removed outside a combat (withdrawn, shipped, swapped for
a replacement counter in the same hex, 2.3.9) are not counted as eliminated.
"""
from __future__ import annotations

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.checks.replacements import NEVER_REPLACED_1940
from vlog.games.lion_of_judah.state import GameState, Unit, changed_ids

__all__ = ["RebuildLedger", "REBUILT_KINDS"]

REBUILT_KINDS = ("combat", "hq")
"""Counters a log can follow back from the dead pile (trucks and dummies are interchangeable)."""
CAMPAIGN_DATUM = "campaign: Italian strategic victory in 1935-36 with the optional additional impacts (PB 14.3.4)"


def _key(unit: Unit) -> str:
    return unit.counter or unit.name


def _black_circle(unit: Unit) -> bool:
    """The data's black circle when it says so; else the units PB 14.5.2.3 names as bearing one."""
    return unit.properties.get("black_circle") is True or unit.unit_class == "black-shirt" \
        or unit.counter in NEVER_REPLACED_1940


class RebuildLedger:
    """The counters eliminated so far in the log, and the judgement of their return (RR-15)."""

    def __init__(self) -> None:
        self.eliminated: dict[str, int | None] = {}     # counter -> step it left the map

    def note_step(self, before: GameState, after: GameState, *, in_combat: bool, step: int | None) -> None:
        """Counters that left the map in this step while a combat was open, or whose hex an
        enemy unit holds once it is over (overrun, 11.6), were eliminated."""
        changed = changed_ids(before, after)
        if not changed:                             # no unit left the map
            return
        arrived = {(u.side, u.hex) for uid, u in after.units.items() if u.hex is not None
                   and (uid not in before.units or before.units[uid].hex is None)}
        for uid in changed:        # an unchanged unit is still where it was
            old = before.units[uid]
            if old.hex is None or old.kind not in REBUILT_KINDS:
                continue
            now = after.units.get(uid)
            if now is not None and now.hex is not None:
                continue
            overrun = any(u.side not in (None, old.side) and u.kind not in ("air", "marker")
                          for u in after.at(old.hex))
            if (in_combat or overrun) and (old.side, old.hex) not in arrived:   # not a swap
                self.eliminated[_key(old)] = step

    @REGISTRY.reports("RR-15")
    def judge(self, board: Board, unit: Unit, scenario: str | None, *, step: int | None,
              when: str | None) -> list[Finding]:
        """Findings about a unit placed on the map in a MAP: RR-15 when it is an eliminated one."""
        key = _key(unit)
        if unit.kind not in REBUILT_KINDS or key not in self.eliminated or unit.hex is None:
            return []
        lost_at = self.eliminated.pop(key)
        where = hex_label(unit.hex, board)
        evidence = {"hex": unit.hex, "eliminated_at_step": lost_at, "scenario": scenario}
        if _black_circle(unit):
            return [finding("RR-15", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                            message=f"{unit.name}, eliminated at step {lost_at}, was rebuilt at {where}; "
                                    "a unit with a black circle is never rebuilt (7.3.4)",
                            evidence={**evidence, "black_circle": True})]
        if scenario == "1940-41" and unit.side == "italian":
            colonial = "colonial-regular" in (unit.unit_class or "")
            ruling = Ruling.POSSIBLE if colonial else Ruling.PROVEN
            tail = "; colonial regulars only after a 1935-36 strategic victory (PB 14.3.4)" if colonial else ""
            return [finding("RR-15", ruling, step=step, when=when, subjects=(unit.name,),
                            message=f"{unit.name}, eliminated at step {lost_at}, was rebuilt at {where}; "
                                    f"eliminated Italian units may not be rebuilt in 1940-41 (PB 14.5.2.3){tail}",
                            evidence={**evidence, "unit_class": unit.unit_class},
                            depends_on=(CAMPAIGN_DATUM,) if colonial else ())]
        return []
