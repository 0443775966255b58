"""Opportunity fire against a moving unit (3.3, 4.32, 4.5): it is resolved before the unit enters
a new hex (MOV-16: the log shows a roll between the declaration and the unit's next move), and a
unit that loses a step to it stops at once, making no further move this phase, a melée retreat
aside (MOV-06); one hit in a hex it was passing through, a friendly unit there, goes back to the
previous hex of its path and stops (MOV-07, 3.5): that move is allowed, any other is MOV-07's. The step lost is read from the table when the fire is resolved (fires.py), so
neither needs the die's value: the log shows the roll, the loss and the move."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.games.ascari.fires import FireResolved
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.steps import Moved

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView


def _moved_on(game: "Ascari", unit_id: str, name: str, from_: str, to: str, hit_at: int | None,
              step: int | None) -> list:
    """MOV-06, or MOV-07 for a unit hit in a friend's hex: nothing for its move back (3.5)."""
    back = game.fires.back.pop(unit_id, None)
    game.fires.stopped.pop(unit_id, None)           # reported once
    if back is not None:
        if to == back:
            return []
        return [game.finding("MOV-07", Ruling.PROVEN, step=step,
                             message=f"{name} lost a step to opportunity fire in {from_} (declared at step {hit_at}), "
                                     f"a hex it was passing through with a friendly unit, and moved to {to}: it goes "
                                     f"back to {back}, the previous hex of its path, and stops there (3.5)",
                             subjects=(name,), evidence={"hex": from_, "to": to, "back_to": back, "fire_step": hit_at})]
    return [game.finding("MOV-06", Ruling.PROVEN, step=step,
                         message=f"{name} lost a step to opportunity fire in {from_} (declared at step {hit_at}) "
                                 f"and moved on to {to}: a moving unit hit stops at once (3.3, 4.5)",
                         subjects=(name,), evidence={"hex": from_, "to": to, "fire_step": hit_at})]


@REGISTRY.check("MOV-06", "MOV-07", event=FireResolved)
def judge_hit_then_moved(game: "Ascari", event: FireResolved, view: "StepView") -> list:
    """The step that resolves the fire moves the unit it hit."""
    hit = game.fires.hit_mover(event.shot, view)
    if hit is None:
        return []
    before, after = game.units(view.before).get(hit.id), game.units(view.after).get(hit.id)
    if before is None or after is None or after.hex in (None, before.hex) or game.play.is_retreat(before, after):
        return []
    return _moved_on(game, hit.id, hit.name, before.hex, after.hex, event.shot.step, event.step)


@REGISTRY.check("MOV-06", "MOV-07", event=Moved)
def judge_stopped_unit_moves(game: "Ascari", event: Moved, view: "StepView") -> list:
    """A later move in the same phase of a unit an opportunity fire cost a step."""
    unit = event.before
    if unit.id not in game.fires.stopped or unit.hex is None or event.after.hex is None \
            or game.play.is_retreat(unit, event.after):
        return []
    hit_at = game.fires.stopped[unit.id]
    return _moved_on(game, unit.id, unit.name, unit.hex, event.after.hex, hit_at, event.step)


@REGISTRY.check("MOV-16", event=FireResolved)
def judge_fire_before_next_hex(game: "Ascari", event: FireResolved, view: "StepView") -> list:
    """4.32: opportunity fire is resolved before the moving unit enters a new hex: the target
    moving on with no roll in the log since the declaration (the step it moves in rolls none)."""
    shot = event.shot
    if not shot.opportunity or shot.rolls or view.rolls:
        return []
    before, after = game.units(view.before), game.units(view.after)
    for unit in shot.units.values():
        was, now = before.get(unit.id), after.get(unit.id)
        if unit.hex != shot.target or unit.side == shot.firer.side or was is None or now is None \
                or was.hex != shot.target or now.hex in (None, was.hex) or game.play.is_retreat(was, now):
            continue
        return [game.finding("MOV-16", Ruling.PROVEN, step=event.step,
                             message=f"{unit.name} moved on from {shot.target} to {now.hex} before the opportunity "
                                     f"fire {shot.firer.name} declared at it (step {shot.step}) was rolled: the fire "
                                     f"is resolved before the unit enters a new hex (4.32)",
                             subjects=(unit.name, shot.firer.name),
                             evidence={"hex": shot.target, "to": now.hex, "firer": shot.firer.name,
                                       "fire_step": shot.step})]
    return []
