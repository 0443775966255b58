"""Retreats from a melée (5.4, 3.4, FAQ): the inactive unit retreats one hex the active player
chooses, or two through a hex holding a friendly unit (RET-02, RET-03); never into impassable
terrain or an enemy-held hex (RET-03), nor into or through the hex the attacker entered from
(RET-04); and it ends in a hex with no friendly combat unit (RET-05, judged once the melée is over). Leaders, which do not count for stacking, are not judged.
The attacker's own retreat, to the last hex of its path, is read by play.py (a move elsewhere with
the enemy still there is MOV-15's). Each retreat hex is judged as the log shows it entered; a hex
whose terrain the data lacks leaves the occasion not settled, naming it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.games.ascari.play import MeleeResolved
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.steps import Moved

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.play import Retreat
    from vlog.games.ascari.rules import Ascari
    from vlog.games.ascari.units import Unit
    from vlog.kit.steps import StepView

OPEN_AT_END = "where the retreat ends (the log ends before the melée is over: the next log may hold it)"


def _retreat_now(game: "Ascari", event: Moved) -> "Retreat | None":
    """The inactive unit's retreat this move is a hex of (the ledger has kept it), else None."""
    unit = event.before
    retreat = game.play.retreats.get(unit.id)
    if retreat is None or not unit.combat or retreat.steps[-1] != event.step or retreat.hexes[-1] != event.after.hex \
            or retreat.melee.attacker == unit.id:
        return None
    return retreat


def _finding(game: "Ascari", item: str, unit: "Unit", retreat: "Retreat", to: str, why: str,
             step: int | None, **evidence) -> list:
    melee = retreat.melee
    return [game.finding(item, Ruling.PROVEN, step=step,
                         message=f"{unit.name} retreated from the melée in {melee.hex} (step {melee.step}) "
                                 f"by {' -> '.join(retreat.hexes)}: {why}",
                         subjects=(unit.name,),
                         evidence={"hex": melee.hex, "to": to, "retreat": list(retreat.hexes),
                                   "came_from": melee.came_from, "melee_step": melee.step, **evidence})]


@REGISTRY.check("RET-02", "RET-03", "RET-04", event=Moved)
def judge_retreat_hex(game: "Ascari", event: Moved, view: "StepView") -> list:
    retreat = _retreat_now(game, event)
    if retreat is None or game.terrain is None:
        return []
    unit, terrain, melee = event.before, game.terrain, retreat.melee
    frm, to = retreat.hexes[-2], retreat.hexes[-1]
    distance = terrain.distance(frm, to)
    if distance > 1:
        units = game.units(view.before)
        friends = {u.hex for u in units.values() if u.combat and u.side == unit.side and u.id != unit.id}
        through = [h for h in terrain.neighbours(frm) if h in friends and h != melee.came_from
                   and to in terrain.neighbours(h)] if distance == 2 and len(retreat.hexes) == 2 else []
        if not through:
            return _finding(game, "RET-02", unit, retreat, to,
                            f"{to} is {distance} hexes from {frm}; a retreat is one hex, or two through a "
                            f"hex a friendly unit holds (5.4)", event.step, distance=distance)
    blocked = terrain.impassable(to)
    if isinstance(blocked, Unknown):
        game.unsettled("RET-03", event.step, blocked.data)
    elif blocked:
        return _finding(game, "RET-03", unit, retreat, to, f"{to} is impassable (5.4)", event.step,
                        reason="impassable")
    enemies = [u.name for u in game.units(view.after).values()
               if u.hex == to and u.combat and u.side != unit.side and u.id != unit.id]
    if enemies and to != melee.hex:
        return _finding(game, "RET-03", unit, retreat, to,
                        f"{to} is held by {', '.join(enemies)}: a unit does not retreat into an enemy hex (5.4)",
                        event.step, reason="enemy", enemies=enemies)
    if to == melee.hex or to == melee.came_from:
        return _finding(game, "RET-04", unit, retreat, to,
                        f"{to} is the hex the attacker entered the melée from"
                        + (" (or the melée hex itself)" if to == melee.hex else "")
                        + ": the inactive unit may not retreat into or through it (5.4)", event.step)
    return []


@REGISTRY.check("RET-05", event=MeleeResolved)
def judge_retreat_end(game: "Ascari", event: MeleeResolved, view: "StepView") -> list:
    """Once the melée is over the unit that retreated from it stands alone of its side (3.4, 5.4)."""
    found: list = []
    units = game.units(view.before)
    for uid, retreat in event.melee.retreats.items():
        if uid == event.melee.attacker or uid not in units:
            continue
        unit = units[uid]
        if not unit.combat:            # a leader goes with its unit (3.4: leaders do not count)
            continue
        with_it = [u.name for u in units.values()
                   if u.id != uid and u.hex == unit.hex and unit.hex is not None and u.combat and u.side == unit.side]
        if not with_it:
            continue
        if event.at_end:               # the retreat's second hex may be in the next log
            game.unsettled("RET-05", event.step, (OPEN_AT_END,))
            continue
        found += _finding(game, "RET-05", unit, retreat, unit.hex,
                          f"it ended in {unit.hex} with {', '.join(with_it)}: a retreat ends in an empty hex "
                          f"(3.4, 5.4)", event.step, units=[unit.name, *with_it])
    return found
