"""A moving unit that loses a step to opportunity fire stops at once (3.3, 4.5): it makes no
further move this phase (a melée retreat aside). The step lost is read from the table when the
fire is resolved (fires.py), so this needs no die: the log shows the loss and the move."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.games.ascari.fires import FireResolved
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.steps import Moved

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView


def _moved_on(game: "Ascari", name: str, from_: str, to: str, hit_at: int | None, step: int | None) -> list:
    return [game.finding("MOV-06", Ruling.PROVEN, step=step,
                         message=f"{name} lost a step to opportunity fire in {from_} (declared at step {hit_at}) "
                                 f"and moved on to {to}: a moving unit hit stops at once (3.3, 4.5)",
                         subjects=(name,), evidence={"hex": from_, "to": to, "fire_step": hit_at})]


@REGISTRY.check("MOV-06", event=FireResolved)
def judge_hit_then_moved(game: "Ascari", event: FireResolved, view: "StepView") -> list:
    """The step that resolves the fire moves the unit it hit."""
    hit = game.fires.hit_mover(event.shot, view)
    if hit is None:
        return []
    before, after = game.units(view.before).get(hit.id), game.units(view.after).get(hit.id)
    if before is None or after is None or after.hex in (None, before.hex) or game.play.is_retreat(before, after):
        return []
    game.fires.stopped.pop(hit.id, None)            # reported once
    return _moved_on(game, hit.name, before.hex, after.hex, event.shot.step, event.step)


@REGISTRY.check("MOV-06", event=Moved)
def judge_stopped_unit_moves(game: "Ascari", event: Moved, view: "StepView") -> list:
    """A later move in the same phase of a unit an opportunity fire cost a step."""
    unit = event.before
    if unit.id not in game.fires.stopped or unit.hex is None or event.after.hex is None \
            or game.play.is_retreat(unit, event.after):
        return []
    hit_at = game.fires.stopped.pop(unit.id)
    return _moved_on(game, unit.name, unit.hex, event.after.hex, hit_at, event.step)
