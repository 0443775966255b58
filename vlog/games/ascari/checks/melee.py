"""Melée as the positions show it (3.2, 5.0-5.4): a melée is over when its attacker moves on, when
another unit of its side moves, or when the phase ends (a log that stops in the middle of one may
be continued by the next, so its end judges nothing). Then the two sides no longer
share the hex (STK-05); an attacker moves on only from a melée it won, its enemy gone (MOV-15);
leaders caught alone in the hex a unit entered are eliminated (MEL-08); and artillery never
retreats (RET-06). The dice and the DRMs behind each result are not judged here yet."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.steps import Moved, PhaseChanged

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.play import Melee
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import Position, StepView


def _both_sides(game: "Ascari", position: "Position", hex_: str) -> list:
    units = [u for u in game.units(position).values() if u.hex == hex_ and u.combat]
    return units if len({u.side for u in units}) > 1 else []


def _close(game: "Ascari", melees: Iterable["Melee"], lone: dict, position: "Position",
           step: int | None, keep: str | None = None) -> list:
    """STK-05 and MEL-08 for the melées and lone-leader hexes now over (all but `keep`'s)."""
    found = []
    for melee in melees:
        if melee.closed or melee.attacker == keep:
            continue
        melee.closed = True
        units = _both_sides(game, position, melee.hex)
        if units:
            found.append(game.finding("STK-05", Ruling.PROVEN, step=step,
                                      message=f"the melée in {melee.hex} (step {melee.step}) is over and "
                                              f"{', '.join(u.name for u in units)} still share the hex: the "
                                              f"loser retreats or is eliminated (5.2)",
                                      subjects=tuple(u.name for u in units),
                                      evidence={"hex": melee.hex, "melee_step": melee.step,
                                                "units": [u.name for u in units]}))
    units = game.units(position)
    for hex_, (mover, leaders, entered) in list(lone.items()):
        if mover == keep:
            continue
        del lone[hex_]
        still = [units[i] for i in leaders if i in units and units[i].hex == hex_]
        if still:
            found.append(game.finding("MEL-08", Ruling.PROVEN, step=step,
                                      message=f"{', '.join(u.name for u in still)}, caught alone in {hex_} by an "
                                              f"enemy unit at step {entered}, stayed on the map: a leader caught "
                                              f"alone is eliminated at once (5.11)",
                                      subjects=tuple(u.name for u in still),
                                      evidence={"hex": hex_, "entered_step": entered,
                                                "leaders": [u.name for u in still]}))
    return found


@REGISTRY.check("STK-05", "MEL-08", "MOV-15", event=Moved)
def judge_melee_over(game: "Ascari", event: Moved, view: "StepView") -> list:
    phase, unit = game.phase, event.before
    if phase is None or "movement" not in phase.kinds or unit.side != phase.phasing \
            or unit.hex is None or event.after.hex is None or game.play.is_retreat(unit, event.after):
        return []
    play = game.play
    found = []
    melee = play.melees.get(unit.hex)
    if melee is not None and melee.attacker == unit.id and not melee.closed:
        melee.closed = True
        left = [u for u in game.units(view.after).values()
                if u.hex == unit.hex and u.combat and u.side != unit.side]
        if left:
            found.append(game.finding("MOV-15", Ruling.PROVEN, step=event.step,
                                      message=f"{unit.name} moved on from the melée in {unit.hex} to "
                                              f"{event.after.hex} with {', '.join(u.name for u in left)} still "
                                              f"there: only the winner moves on (5.42), a loser or a tie retreats "
                                              f"to {melee.came_from}",
                                      subjects=(unit.name,),
                                      evidence={"hex": unit.hex, "to": event.after.hex, "came_from": melee.came_from,
                                                "enemy_left": [u.name for u in left]}))
    others = [m for m in play.melees.values() if m.hex != event.after.hex]
    found += _close(game, others, play.lone_leaders, view.before, event.step, keep=unit.id)
    return found


@REGISTRY.check("STK-05", "MEL-08", event=PhaseChanged)
def judge_melee_at_phase_end(game: "Ascari", event: PhaseChanged, view: "StepView") -> list:
    melees, lone = game.play.ended
    return _close(game, melees, dict(lone), view.before, event.step)


@REGISTRY.check("RET-06", event=Moved)
def judge_artillery_retreat(game: "Ascari", event: Moved, view: "StepView") -> list:
    """5.4: artillery never retreats; a battery with a retreat result is eliminated."""
    unit = event.before
    if unit.type != "artillery" or unit.hex is None or event.after.hex is None \
            or not game.play.is_retreat(unit, event.after):
        return []
    return [game.finding("RET-06", Ruling.PROVEN, step=event.step,
                         message=f"{unit.name} retreated from the melée in {unit.hex} to {event.after.hex}: "
                                 f"artillery never retreats, it is eliminated instead (5.4)",
                         subjects=(unit.name,), evidence={"from": unit.hex, "to": event.after.hex})]
