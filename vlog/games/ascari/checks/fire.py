"""Fire combat as declared in chat (`fire UNIT at HEX`, `opfire UNIT at HEX`: chat.py): who may
fire (4.0, 1.2, 4.7), once per phase (4.3, 4.4), within range (4.1: rifles 4, artillery 8, 4.8),
along a clear line of sight (4.2), and opportunity fire only at a moving unit outside a melée
(4.32, 4.33; a unit moving back in a retreat may be fired at, FAQ). The line of sight is traced through the hexes strictly between firer and target
(vlog/engine/sight.py): blocking terrain (LOS-02; along a hexside only where both hexes block,
LOS-03), other combat units unless the firer stands higher than the target (LOS-01), and ground
higher than the target (LOS-04); a hex whose terrain or height the data lacks makes the verdict
POSSIBLE, naming it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.games.ascari.rules import REGISTRY
from vlog.games.ascari.sightlines import sight_blocks
from vlog.games.ascari.units import FIRING_TYPES
from vlog.kit.steps import Declared

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.games.ascari.units import Unit
    from vlog.kit.steps import StepView

RIFLE_RANGE, ARTILLERY_RANGE = 4, 8
"""4.1 and 4.8."""
RIFLE_MARKER_SCENARIOS = frozenset({"s3", "s4", "s5"})
"""S3.51, S4.41, S5.41: Ethiopian Spears and Cavalry holding a Rifle marker fire."""


def _fire(event: Declared) -> bool:
    return event.grammar == "fire"


def _firer(game: "Ascari", event: Declared, view: "StepView") -> "Unit | None":
    """The unit a fire declaration names, on the map."""
    unit = game.piece_named(view.before, event.declaration.firer)
    return unit if unit is not None and unit.hex is not None else None


def _shooter(game: "Ascari", event: Declared, view: "StepView") -> "Unit | None":
    """The firer, when it is a unit that may fire at all (FIR-01 and FIR-02 report the others)."""
    unit = _firer(game, event, view) if _fire(event) else None
    return unit if unit is not None and unit.type in FIRING_TYPES and game.terrain is not None else None


def _in_range(game: "Ascari", unit: "Unit", target: str) -> bool:
    assert game.terrain is not None and unit.hex is not None
    limit = ARTILLERY_RANGE if unit.type == "artillery" else RIFLE_RANGE
    return game.terrain.distance(unit.hex, target) <= limit


def _target(game: "Ascari", event: Declared, view: "StepView") -> list["Unit"]:
    hex_ = event.declaration.target
    return [u for u in game.units(view.before).values() if u.hex == hex_]


@REGISTRY.check("FIR-01", "FIR-02", event=Declared)
def judge_who_fires(game: "Ascari", event: Declared, view: "StepView") -> list:
    """Rifle units and artillery fire; leaders, Spears and Cavalry do not (Ethiopian Spears and
    Cavalry with a Rifle marker do, where the scenario uses the Rifle marker)."""
    if not _fire(event):
        return []
    unit = _firer(game, event, view)
    if unit is None or unit.type in FIRING_TYPES:
        return []
    name, kind = unit.name, unit.type
    if unit.leader:
        return [game.finding("FIR-02", Ruling.PROVEN, step=event.step,
                             message=f"{name} fired at {event.declaration.target}: leaders cannot fire (1.2)",
                             subjects=(name,), evidence={"firer": name, "type": kind})]
    if unit.side == "ethiopian" and kind in ("spear", "cavalry") and game.scenario in RIFLE_MARKER_SCENARIOS:
        return [game.finding("FIR-01", Ruling.POSSIBLE, step=event.step,
                             message=f"{name} ({kind}) fired at {event.declaration.target}: only with a Rifle marker (4.6)",
                             subjects=(name,), evidence={"firer": name, "type": kind},
                             depends_on=(f"whether {name} holds a Rifle marker (the module shows no Rifle markers)",))]
    if kind == "foot-cavalry":
        return [game.finding("FIR-01", Ruling.POSSIBLE, step=event.step,
                             message=f"{name} (dismounted cavalry) fired at {event.declaration.target}: cavalry "
                                     f"units only melée (4.0)",
                             subjects=(name,), evidence={"firer": name, "type": kind},
                             depends_on=("whether a dismounted Italian cavalry squadron is a rifle unit (1.1 and 4.0)",))]
    return [game.finding("FIR-01", Ruling.PROVEN, step=event.step,
                         message=f"{name} ({kind}) fired at {event.declaration.target}: Spear and Cavalry units "
                                 f"only melée (4.0)",
                         subjects=(name,), evidence={"firer": name, "type": kind})]


@REGISTRY.check("FIR-06", "FIR-07", event=Declared)
def judge_range(game: "Ascari", event: Declared, view: "StepView") -> list:
    """Count the target's hex, not the firer's: rifles 4 hexes, artillery 8."""
    unit = _shooter(game, event, view)
    if unit is None:
        return []
    target = event.declaration.target
    short, limit = ("FIR-07", ARTILLERY_RANGE) if unit.type == "artillery" else ("FIR-06", RIFLE_RANGE)
    distance = game.terrain.distance(unit.hex, target)
    if distance <= limit:
        return []
    return [game.finding(short, Ruling.PROVEN, step=event.step,
                         message=f"{unit.name} in {unit.hex} fired at {target}, {distance} hexes away "
                                 f"(range {limit})",
                         subjects=(unit.name,),
                         evidence={"firer": unit.name, "from": unit.hex, "target": target,
                                   "distance": distance, "range": limit})]


@REGISTRY.check("FIR-04", "FIR-05", event=Declared)
def judge_once(game: "Ascari", event: Declared, view: "StepView") -> list:
    """One fire per Fire Combat Phase, one opportunity fire per player-turn (the FAQ lets a unit do both)."""
    unit = _shooter(game, event, view)
    if unit is None:
        return []
    opportunity = event.declaration.opportunity
    record = game.play.opportunity if opportunity else game.play.fired
    earlier = record.get(unit.id)
    record.setdefault(unit.id, event.step)
    if earlier is None or earlier == event.step:
        return []
    short, what = ("FIR-05", "opportunity fire") if opportunity else ("FIR-04", "Fire Combat Phase")
    return [game.finding(short, Ruling.PROVEN, step=event.step,
                         message=f"{unit.name} fired again ({what}; it fired at step {earlier} of this player-turn)",
                         subjects=(unit.name,), evidence={"firer": unit.name, "first_fire_step": earlier})]


@REGISTRY.check("LOS-01", "LOS-02", "LOS-03", "LOS-04", event=Declared)
def judge_line_of_sight(game: "Ascari", event: Declared, view: "StepView") -> list:
    """4.2, judged for a shot within range (FIR-06/FIR-07 report the others)."""
    unit = _shooter(game, event, view)
    target = event.declaration.target if unit is not None else None
    if unit is None or target is None or unit.hex == target or not _in_range(game, unit, target):
        return []
    layout = game.terrain.layout
    found, possible = [], set()
    for short, sight in sight_blocks(game, unit, target, game.units(view.before).values()).items():
        if sight.blocked_by:
            hexes = [" / ".join(layout.name(h) for h in step) for step in sight.blocked_by]
            if short == "LOS-02" and all(len(step) == 2 for step in sight.blocked_by):
                short = "LOS-03"
            why = {"LOS-01": "other combat units", "LOS-02": "blocking terrain",
                   "LOS-03": "blocking terrain on both sides of the hexside it runs along",
                   "LOS-04": "ground higher than the target"}[short]
            found.append(game.finding(short, Ruling.PROVEN, step=event.step,
                                      message=f"{unit.name} in {unit.hex} fired at {target}: the line of sight "
                                              f"is blocked by {why} in {', '.join(hexes)}",
                                      subjects=(unit.name,),
                                      evidence={"firer": unit.name, "from": unit.hex, "target": target,
                                                "blocked_by": hexes}))
        elif isinstance(sight.clear, Unknown):
            possible |= sight.clear.data
    if found or not possible:
        return found
    return [game.finding("LOS-02", Ruling.POSSIBLE, step=event.step,
                         message=f"{unit.name} in {unit.hex} fired at {target}: the line of sight is clear only "
                                 f"if the hexes between are",
                         subjects=(unit.name,), evidence={"firer": unit.name, "from": unit.hex, "target": target},
                         depends_on=sorted(possible))]


@REGISTRY.check("OPP-01", "OPP-02", "OPP-04", event=Declared)
def judge_opportunity(game: "Ascari", event: Declared, view: "StepView") -> list:
    """Opportunity fire only at the moving unit, never into a melée; artillery only with an Officer."""
    if not _fire(event) or not event.declaration.opportunity:
        return []
    unit = _shooter(game, event, view)
    phase = game.phase
    if unit is None or phase is None or "movement" not in phase.kinds or unit.side == phase.phasing:
        return []
    target = event.declaration.target
    there = _target(game, event, view)
    found = []
    if unit.type == "artillery" and not any(
            u.hex == unit.hex and u.type == "officer" for u in game.units(view.before).values()):
        found.append(game.finding("OPP-04", Ruling.PROVEN, step=event.step,
                                  message=f"{unit.name} made opportunity fire with no Officer stacked with it (4.7)",
                                  subjects=(unit.name,), evidence={"firer": unit.name, "hex": unit.hex}))
    sides = {u.side for u in there if u.combat}
    if len(sides) > 1:
        found.append(game.finding("OPP-02", Ruling.PROVEN, step=event.step,
                                  message=f"{unit.name} made opportunity fire into the melée in {target} (4.33)",
                                  subjects=(unit.name,), evidence={"firer": unit.name, "target": target}))
        return found
    moving = [u for u in there if u.side == phase.phasing and u.id in game.play.paths]
    if there and not moving:
        found.append(game.finding("OPP-01", Ruling.PROVEN, step=event.step,
                                  message=f"{unit.name} made opportunity fire at {target}, where no unit has moved "
                                          f"this phase: opportunity fire is only at moving units (4.32, FAQ)",
                                  subjects=(unit.name,),
                                  evidence={"firer": unit.name, "target": target,
                                            "units_there": [u.name for u in there]}))
    return found


@REGISTRY.check("MOV-12", event=Declared)
def judge_limbered_fire(game: "Ascari", event: Declared, view: "StepView") -> list:
    """3.6: an artillery unit fires on its battery side; its limbered side is "ready for movement
    only" (the formations are the counter's levels, the battery side first: counters.json)."""
    unit = _shooter(game, event, view)
    if unit is None or unit.type != "artillery" or unit.level is None:
        return []
    record = game.data.counter(unit.counter)
    levels = list(record["levels"]) if "levels" in record else []
    props = record["properties"] if "properties" in record else {}
    if "formations" not in props or props["formations"].value is not True or not levels \
            or unit.level == levels[0]:
        return []
    kind = "opportunity fire" if event.declaration.opportunity else "fire"
    return [game.finding("MOV-12", Ruling.PROVEN, step=event.step,
                         message=f"{unit.name} ({unit.hex}) declared {kind} at {event.declaration.target} on its "
                                 f"{unit.level} side: artillery fires on its battery side, the limbered side is "
                                 f"ready for movement only (3.6)",
                         subjects=(unit.name,),
                         evidence={"firer": unit.name, "hex": unit.hex, "side_shown": unit.level,
                                   "battery_side": levels[0], "target": event.declaration.target})]
