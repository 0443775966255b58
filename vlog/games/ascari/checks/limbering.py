"""Changing an artillery unit's formation in its movement phase (MOV-12, 3.6, 3.61): the flip
costs 1 MP, and a battery flipped to its limbered side has 1 MP left for the rest of the phase.

The MPs spent before the flip are the cheapest path from where the unit began the phase to the
flip's hex (movement.py's rules); its allowance is the printed one (counters.json). After
limbering, a move from the flip's hex is judged within 1 MP, one hex always allowed (3.1 lets a
unit of allowance 1 move one hex; whether that holds for 1 MP left the text does not say, so the
favourable reading is taken). A hex whose cost the map data lacks gives POSSIBLE, naming it; an
allowance it lacks leaves the flip not judged, naming it. The MOVED marker a battery receives
after unlimbering is not in the game data (MOV-08)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.games.ascari.movement import mover, over_allowance
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.steps import Flipped, Moved

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.games.ascari.units import Unit
    from vlog.kit.steps import StepView

FLIP_COST = 1
"""3.6: flipping an artillery unit costs 1 MP."""
LEFT_AFTER_LIMBERING = 1
"""3.61: battery -> limbered, its residual MA becomes 1 MP."""


def _battery_side(game: "Ascari", unit: "Unit") -> str | None:
    """The battery side (the counter's first level) of an artillery unit with formations, else None."""
    if unit.type != "artillery":
        return None
    record = game.data.counter(unit.counter)
    props = record["properties"] if "properties" in record else {}
    if "formations" not in props or props["formations"].value is not True or "levels" not in record:
        return None
    levels = list(record["levels"])
    return levels[0] if levels else None


def _own_movement(game: "Ascari", unit: "Unit") -> bool:
    phase = game.phase
    return (game.terrain is not None and phase is not None and "movement" in phase.kinds
            and unit.side == phase.phasing and unit.hex is not None)


@REGISTRY.check("MOV-12", event=Flipped)
def judge_flip_cost(game: "Ascari", event: Flipped, view: "StepView") -> list:
    """3.6: the MPs spent before the flip and 1 MP for each flip this phase are within the allowance."""
    old, new = event.before, event.after
    battery = _battery_side(game, old)
    if battery is None or not _own_movement(game, old) or old.level == new.level:
        return []
    limbered = game.play.limbered
    if new.level != battery:
        limbered[old.id] = (old.hex, event.step)
    else:
        limbered.pop(old.id, None)
    flips = game.play.flips[old.id] = game.play.flips.get(old.id, 0) + 1
    path = game.play.paths.get(old.id)
    start = path.hexes[0] if path is not None and path.hexes else old.hex
    if start == old.hex and flips * FLIP_COST <= 1:
        return []                                   # not moved yet: one flip's 1 MP is within any allowance
    allowance = old.movement
    if allowance is None or isinstance(allowance, Unknown):
        game.unsettled("MOV-12", event.step, allowance.data if isinstance(allowance, Unknown)
                       else (f"counters.json {old.counter} movement",))
        return []
    others = [u for u in game.units(view.before).values() if u.id != old.id]
    judged = over_allowance(game.terrain, mover(old, others), start, old.hex, allowance - flips * FLIP_COST)
    if judged is None:
        return []
    result, cheapest = judged
    cost = cheapest.route.cost if cheapest.route is not None else None
    evidence = {"unit": old.name, "from": start, "hex": old.hex, "to_side": new.level,
                "allowance": allowance, "flips": flips, "flip_cost": FLIP_COST, "spent": cost}
    proven = result.ruling is Ruling.PROVEN
    return [game.finding("MOV-12", Ruling.PROVEN if proven else Ruling.POSSIBLE, step=event.step,
                         message=f"{old.name} flipped to its {new.level} side in {old.hex} after moving from "
                                 f"{start} (cheapest path {cost} MP): with {flips} flip(s) this phase at {FLIP_COST} MP "
                                 f"each that is more than its allowance of {allowance} (3.6)"
                                 + ("" if proven else ", if the map is as the missing data may have it"),
                         subjects=(old.name,), evidence=evidence,
                         depends_on=() if proven else result.verdict.depends_on)]


@REGISTRY.check("MOV-12", event=Moved)
def judge_after_limbering(game: "Ascari", event: Moved, view: "StepView") -> list:
    """3.61: after limbering the battery moves on with 1 MP left."""
    unit = event.before
    flip = game.play.limbered.get(unit.id)
    if flip is None or event.after.hex is None or not _own_movement(game, unit) \
            or game.play.is_retreat(unit, event.after):
        return []
    hex_, step = flip
    others = [u for u in game.units(view.before).values() if u.id != unit.id]
    judged = over_allowance(game.terrain, mover(unit, others, minimum_move=True), hex_, event.after.hex,
                            LEFT_AFTER_LIMBERING)
    if judged is None:
        return []
    result, cheapest = judged
    cost = cheapest.route.cost if cheapest.route is not None else None
    proven = result.ruling is Ruling.PROVEN
    return [game.finding("MOV-12", Ruling.PROVEN if proven else Ruling.POSSIBLE, step=event.step,
                         message=f"{unit.name} was limbered in {hex_} at step {step} and moved on to "
                                 f"{event.after.hex} (cheapest path {cost} MP): after limbering its residual MA is "
                                 f"{LEFT_AFTER_LIMBERING} MP (3.61)"
                                 + ("" if proven else ", within it only if the map is as the missing data may have it"),
                         subjects=(unit.name,),
                         evidence={"unit": unit.name, "limbered_in": hex_, "limbered_step": step,
                                   "to": event.after.hex, "cost": cost, "left": LEFT_AFTER_LIMBERING},
                         depends_on=() if proven else result.verdict.depends_on)]
