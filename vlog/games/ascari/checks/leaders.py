"""Leaders (1.2): they have no strength and make no melée, so a leader never enters a hex held by
an enemy combat unit unless a combat unit of its side is there (it follows the unit that
attacks). Their two steps (Toselli one) are read by the fire results (checks/fire_results.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.steps import Moved

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView


@REGISTRY.check("LDR-01", event=Moved)
def judge_leader_attacks(game: "Ascari", event: Moved, view: "StepView") -> list:
    unit, to = event.before, event.after.hex
    if not unit.leader or unit.hex is None or to is None or game.play.is_retreat(unit, event.after):
        return []
    there = [u for u in game.units(view.after).values() if u.hex == to and u.combat]
    enemies = [u for u in there if u.side != unit.side]
    if not enemies or any(u.side == unit.side for u in there):
        return []
    return [game.finding("LDR-01", Ruling.PROVEN, step=event.step,
                         message=f"{unit.name} ({unit.type}) entered {to}, held by {', '.join(u.name for u in enemies)}, "
                                 f"with no unit of its side there: a leader has no strength and makes no melée (1.2)",
                         subjects=(unit.name,), evidence={"from": unit.hex, "to": to,
                                                          "enemies": [u.name for u in enemies]})]
