"""Coatit's awakened unit (S3.12): "the unit in 2815 starts on its Reduced side". No unit of the
historical set-up is listed at 2815 (inventory 6.2 item 13), so the sentence is read as saying
that whatever combat unit stands in 2815 when play begins (the first flag of a log that holds the
set-up) is on its reduced side; a two-step unit there on its full side is POSSIBLE, naming that
reading."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.steps import Declared

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView

READING = ("the reading of S3.12's 'the unit in 2815 starts on its Reduced side' as any unit set up in "
           "2815 (no unit is listed there: inventory 6.2 item 13)")


@REGISTRY.check("SCN-03", event=Declared)
def judge_2815_reduced(game: "Ascari", event: Declared, view: "StepView") -> list:
    if event.grammar != "flag" or game.scenario is None or len(game.play.flags) != 1:
        return []
    hex_ = game.scenario_property("reduced_at_start")
    if not hex_ or not (game.started_at_setup or "ethiopian" not in game.sides_at_start):
        return []
    return [game.finding("SCN-03", Ruling.POSSIBLE, step=event.step,
                         message=f"{u.name} stands in {hex_} on its full side as play begins: the unit in {hex_} "
                                 f"starts on its Reduced side (S3.12)",
                         subjects=(u.name,), evidence={"hex": hex_, "steps": u.steps, "level": u.level},
                         depends_on=(READING,))
            for u in game.units(view.before).values()
            if u.hex == hex_ and u.combat and u.steps == 2]
