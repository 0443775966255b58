"""Stacking (3.4): one combat unit per hex at the end of any friendly movement phase; moving units
pass through friendly units but do not stop with them. Leaders and markers do not count.

A unit's move is over when another unit of its side begins to move or when the phase changes (a
log that stops in the middle of a move may be continued by the next, so its end judges nothing);
a unit whose move ends with another friendly combat unit breaks both rules at once, and is
reported once, under STK-02. (A stack the log begins with is the set-up's.)"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.steps import Moved, PhaseChanged

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import Position, StepView


def _stopped(game: "Ascari", mover: str | None, position: "Position", step: int | None) -> list:
    """STK-02 for the unit whose move is over, standing in `position`."""
    units = game.units(position)
    unit = units.get(mover) if mover is not None else None
    if unit is None or unit.hex is None or not unit.combat:
        return []
    with_it = [u for u in units.values()
               if u.id != unit.id and u.hex == unit.hex and u.combat and u.side == unit.side]
    if not with_it:
        return []
    names = [unit.name, *(u.name for u in with_it)]
    return [game.finding("STK-02", Ruling.PROVEN, step=step,
                         message=f"{unit.name} ended its move in {unit.hex} with {', '.join(names[1:])}: a unit "
                                 f"may pass through a friendly unit but not stop with it (one combat unit a hex)",
                         subjects=tuple(names), evidence={"hex": unit.hex, "units": names})]


@REGISTRY.check("STK-02", event=Moved)
def judge_stop_when_another_moves(game: "Ascari", event: Moved, view: "StepView") -> list:
    """The previous mover's move is over when another unit of its side moves."""
    previous = game.play.previous_mover
    if previous is None or game.play.mover != event.before.id:
        return []
    game.play.previous_mover = None
    return _stopped(game, previous, view.before, event.step)


@REGISTRY.check("STK-02", event=PhaseChanged)
def judge_stop_at_phase_end(game: "Ascari", event: PhaseChanged, view: "StepView") -> list:
    return _stopped(game, game.play.closing, view.before, event.step)
