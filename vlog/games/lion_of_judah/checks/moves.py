"""A unit's move as Lion of Judah judges it (the `Move` event: the inventory's "move" occasions).

A move on the map is judged from where the unit began the segment, with every forced-march roll
logged for it so far (checks/movement.py, MV-03 and the rest), and with what the log's history
adds: the segment's stacks (MV-08), interdiction and ambushes (checks/movement_segment.py), the
trucks and motorization that carried it (HQ-09, MV-34), the Ethiopian activations, events and
RPs it touches. Outside a movement segment the turn track tells, a move in the MAP is rail
movement (MV-36, SP-16) and any other is out of its segment (TS-02). An air marker taken back to
its box goes where the roll after its mission says (AR-05); a unit taken off the map in the MAP
moved by sea (MV-38, MV-39).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from vlog.findings import Finding
from vlog.games.lion_of_judah.checks.air import judge_air_mission, judge_delayed_return, may_be_bombing
from vlog.games.lion_of_judah.checks.allied_1940 import judge_negus_with_gideon
from vlog.games.lion_of_judah.checks.areas import judge_neutral_entry
from vlog.games.lion_of_judah.checks.common import REGISTRY
from vlog.games.lion_of_judah.checks.fronts import judge_air_front
from vlog.games.lion_of_judah.checks.motorization import places_under
from vlog.games.lion_of_judah.checks.movement import MoveFacts, judge_move, may_force_march, within_allowance
from vlog.games.lion_of_judah.checks.movement_segment import judge_naval_move
from vlog.games.lion_of_judah.checks.placements import setting_up
from vlog.games.lion_of_judah.checks.rail import judge_rail_move
from vlog.games.lion_of_judah.checks.sequence_of_play import judge_move_out_of_segment, judge_off_side_move
from vlog.games.lion_of_judah.checks.setup import judge_set_up
from vlog.games.lion_of_judah.checks.supply import judge_supply_prerequisite
from vlog.games.lion_of_judah.state import GameState
from vlog.games.lion_of_judah.step_events import Move

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.steps import StepView


@REGISTRY.check("MV-03", event=Move)
def judge_moved(game: Any, action: Move, view: "StepView") -> list[Finding]:
    """A unit moved (MV-03 and what the log's history adds: see the module's docstring)."""
    unit = action.unit
    before: GameState = action.before
    after: GameState = action.after
    before.scenario = after.scenario = game.scenario
    when = action.when
    out: list[Finding] = []
    phase = game.interpreter.phase
    if unit.kind == "air":
        # taken from its box onto the map it also appears: judged there once (AR-01, AR-03)
        if unit.hex is not None and action.to is not None and game.scenario is not None:
            return judge_air_mission(game.board, before, unit, action.to, step=action.step, when=when) \
                + judge_air_front(game.board, before, unit, action.to, step=action.step, when=when)
        if unit.hex is not None and action.to is None:
            return out + _delayed_return(game, action, unit, after)
        return out          # air markers fly missions; they do not move (10.1)
    if unit.hex is not None and action.to is None and phase is not None \
            and game.interpreter.phase_bound and phase.key == "map":       # MV-38, MV-39 (11.8)
        gone = after.units.get(unit.id)
        return out + judge_naval_move(game.board, before, unit,
                                      game.rail.origins.get((phase.turn, unit.id), unit.hex),
                                      gone.box if gone is not None else None, scenario=game.scenario,
                                      turn=phase.turn, ledger=game.naval, step=action.step, when=when)
    if unit.hex is None or action.to is None:
        return out          # placed from or sent to a box: reinforcements, eliminations
    if setting_up(game):    # SU-01, SU-02, SU-05: put down inside its set-up area
        out.extend(judge_set_up(game, unit.id, after, step=action.step, when=when))
    out.extend(game.activation.move(unit, unit.hex, action.to, phase, step=action.step, when=when))
    if game.scenario == "1940-41" and unit.counter == "et-negus" and action.to is not None:
        out.extend(judge_negus_with_gideon(game.board, unit, action.to, after, step=action.step, when=when))
    out.extend(game.events.on_unit_move(unit, action.to, phase, game.interpreter.phase_bound,
                                        step=action.step, when=when))          # MV-46, ET-13
    before.flags["french-somaliland-joined"] = game.events.french_somaliland_joined()
    if game.scenario == "1940-41":                  # TS-09 (PB 14.1.1)
        out.extend(judge_neutral_entry(game.board, before, unit, action.to, step=action.step,
                                       when=when))
    if phase is not None and game.interpreter.phase_bound and phase.segment != "movement":
        if phase.key == "map":      # map to map in the MAP: rail movement (11.7)
            if places_under(game.board, unit, game.rail.origins.get((phase.turn, unit.id), unit.hex),
                            action.to, after):
                return out          # a truck goes under a unit next to it (10.3.2, 10.3.3)
            first = (phase.turn, unit.id) not in game.rail.origins
            origin = game.rail.origins.setdefault((phase.turn, unit.id), unit.hex)
            if first and game.map_start is not None and (phase.turn, unit.id) not in game.rail.placed:
                game.map_start.scenario = game.scenario
                out.extend(judge_supply_prerequisite(game.board, game.map_start, unit, "rail",
                                                     step=action.step, when=when))   # SP-16
            return out + judge_rail_move(game.board, before, unit, origin, action.to,
                                         scenario=game.scenario, turn=phase.turn,
                                         ledger=game.rail, step=action.step, when=when)
        return out + judge_move_out_of_segment(unit, phase, step=action.step, when=when)
    out.extend(game.rp_carry.on_move(before, after, unit, action.to, phase,   # MV-50
                                     game.interpreter.phase_bound, scenario=game.scenario,
                                     oos_at_start=game.oos_at_start.get(unit.id, False),
                                     step=action.step, when=when))
    if unit.kind == "rp":
        return out          # an RP moves with the truck carrying it (checks/logistics.py)
    in_movement = phase is not None and game.interpreter.phase_bound and phase.segment == "movement"
    if in_movement:                                  # MV-04, MV-08
        out.extend(judge_off_side_move(unit, phase, step=action.step, when=when))
        out.extend(game.stack_moves.move(unit, unit.hex, action.to, step=action.step, when=when))
    # a unit dragged hex by hex is judged from where it began the segment, along the route
    # the log shows (each roll the forced-march roll of the drag it came before, the undo of a
    # drag taking it back: vlog.kit.movement.LoggedRoutes); its supply when its movement ends (9.1).
    # The units the step moves (a stack dragged as one) go on moving.
    out.extend(game.moves.flush(before, moving=_moving_in_step(before, after), step=action.step))
    origin = game.moves.origins.setdefault(unit.id, unit.hex)
    game.moves.pending[unit.id] = (action.step, when)
    game.moves.routes.drag(unit.id, unit.hex, action.to, tuple(action.forced_march_rolls), origin=origin,
                           undo=view.step is not None and view.step.is_undo)
    # the rolls of the drags still on the route: an undone drag's roll goes with it (11.5.3)
    rolls = [r for leg in game.moves.routes.route_rolls(unit.id) for r in leg]
    path = game.moves.routes.route(unit.id)
    eligible, _ = may_force_march(unit, game.oos_at_start.get(unit.id, False))
    # a roll before a drag the route shows within the unit's MF was no forced-march roll
    fm_rolls = () if eligible and action.forced_march_rolls and within_allowance(
        game.board, before, replace(unit, hex=origin), path, oos=game.oos_at_start.get(unit.id, False),
        scenario=game.scenario, turn=phase.turn if phase is not None else None,
        rainy=game.movement.rainy) else tuple(action.forced_march_rolls)
    out.extend(game.movement.on_drag(game.board, before, unit, origin, action.to,   # MV-25, MV-26
                                     fm_rolls, eligible=eligible, step=action.step, when=when))
    if unit.id in game.moves.reported or len(path) < 2 or (origin == action.to and len(path) < 3):
        return out
    riders = game.motorization.riders(unit, origin, action.to, before, after, phase, game.trucks,
                                      step=action.step, when=when) if in_movement else set()
    start_unit = replace(unit, hex=origin, motorized=True) if riders else replace(unit, hex=origin)
    facts = MoveFacts(start_unit, origin, action.to, after_level=action.after_level,
                      forced_march_rolls=tuple(rolls), path=path,
                      path_rolls=game.moves.routes.route_rolls(unit.id),
                      out_of_supply_at_start=game.oos_at_start.get(unit.id, False),
                      scenario=game.scenario, turn=phase.turn if phase is not None else None,
                      trucks=game.trucks.hq_trucks(unit, origin, action.to, before, after, phase)
                      if unit.kind == "hq" else 0,           # HQ-09 (checks/trucks.py)
                      motorized_by=len(riders),              # MV-34 (checks/motorization.py)
                      **game.movement.facts(unit))
    judged = game.movement.judged(judge_move(game.board, before, facts, step=action.step, when=when),
                                  unit, origin)
    if judged:
        game.moves.reported.add(unit.id)
    return out + judged


def _moving_in_step(before: GameState, after: GameState) -> frozenset[str]:
    """The units whose hex the step changes: a stack dragged as one moves all of them in one
    step, and none of them ends its move because another of them moves (11.2)."""
    return frozenset(uid for uid, now in after.units.items()
                     if uid in before.units and before.units[uid].hex != now.hex)


def _delayed_return(game: Any, action: Move, marker: Any, after: GameState) -> list[Finding]:
    """AR-05 (10.1.4): the marker taken off the map goes where the last roll logged says."""
    phase = game.interpreter.phase
    if not game.interpreter.phase_bound or phase is None or game.scenario is None:
        return []
    now = after.units.get(marker.id)
    rolls = action.rolls
    if game.reader.last_roll_step is None or game.reader.last_roll_step < action.step - 1:
        rolls = ()          # 10.1.4: rolled right after the mission; an older roll was for else
    segment, phasing = game.mission_flown.get(marker.id, ("unknown", None))
    bombing = may_be_bombing(marker, game.scenario, segment, phasing) if segment != "unknown" \
        else (game.scenario == "1935-36" and marker.side == "italian")
    return judge_delayed_return(game.board, marker, roll=rolls[-1] if rolls else None,
                                box=now.box if now is not None else None, turn=phase.turn,
                                last_turn=phase.rules.turns, bombing_possible=bombing,
                                step=action.step, when=action.when)
