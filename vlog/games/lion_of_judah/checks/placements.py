"""A unit placed on the map as Lion of Judah judges it (the `Appear` event: the "appear" occasions).

An air marker taken from its box flies a mission: its range and front (AR-01, AR-02), one a turn
(AR-03), the missions of the segment (AR-06, AR-11), air supply (SP-15, AR-09), combat support
and bombing (AR-07, AR-08) and the events that forbid it (EV-06). Any other unit is a
reinforcement, a rebuilt unit, a recruit or an event's placement: judged in the Mutual
Administration Phase the turn track shows (RR-01 and the rest, RR-15, SC-05, RR-23), or where
its rule says (EV-04, RR-18, RR-20, RR-27, CB-28, FW-04); before play begins it is set up
(`setting_up`), which no event or reinforcement check judges: its set-up area does
(SU-01, SU-02, SU-05, checks/setup.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.findings import Finding
from vlog.games.lion_of_judah.checks.air import (GASSED_COUNTER, judge_air_mission, judge_gassed,
                                                 judge_mission_segment, judge_second_mission)
from vlog.games.lion_of_judah.checks.common import REGISTRY
from vlog.games.lion_of_judah.checks.fronts import judge_air_front, judge_air_supply_front
from vlog.games.lion_of_judah.checks.fuel import starts_the_scenario
from vlog.games.lion_of_judah.checks.recruitment import GUERRILLA_HOMES, judge_recruit
from vlog.games.lion_of_judah.checks.reinforcements import (EA_BRIGADES, judge_event_irregulars,
                                                            judge_placement)
from vlog.games.lion_of_judah.checks.replacements import judge_breakdown_return, judge_kar_regiment
from vlog.games.lion_of_judah.checks.sequence_of_play import judge_hidden_entry
from vlog.games.lion_of_judah.checks.setup import judge_set_up
from vlog.games.lion_of_judah.checks.supply import AIR_SUPPLIED
from vlog.games.lion_of_judah.interpret import units_named
from vlog.games.lion_of_judah.sequence import Phase
from vlog.games.lion_of_judah.state import GameState
from vlog.games.lion_of_judah.step_events import Appear

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.steps import StepView

AIR_SUPPLY_STEPS = 2
"""PB 13.6.5.2: up to two steps of Northern Front units are supplied by an air marker."""


@REGISTRY.check("AR-01", event=Appear)
def judge_placed(game: Any, action: Appear, view: "StepView") -> list[Finding]:
    """Reinforcements: judged in the Mutual Administration Phase shown by the turn track;
    air markers taken from their boxes: their range (AR-01) whenever they are placed."""
    unit = action.unit
    if unit.kind == "rp" and unit.side == "ethiopian":              # CB-28 (PB 13.6.4.1)
        open_ = game.interpreter.pending
        if open_ is not None:
            game.rp_gain.note_attack(open_.step, open_.declaration.target,
                                     units_named(open_.before, open_.declaration.attackers,
                                                 open_.side), open_.before, open_.side, open_.phase)
        return game.rp_gain.on_place(unit, action.after, game.interpreter.phase,
                                     game.interpreter.phase_bound, scenario=game.scenario,
                                     step=action.step, when=action.when)
    if unit.kind == "rp":
        return []           # RP markers leave their boxes only on trucks (checks/logistics.py)
    if unit.kind == "air":
        game.combat_air.fly(unit)                 # 10.1.3: it may support a combat of this segment
        before = action.before
        before.scenario = game.scenario
        if game.scenario is None:
            return []
        phase = game.interpreter.phase
        out = [] if not game.interpreter.phase_bound or phase is None else judge_second_mission(   # AR-03
            game.air_missions, unit, action.hex, phase.turn, step=action.step, when=action.when)
        out += _mission_segment(game, action, unit, before)
        out += _bombing_after_league(game, action, unit)
        _air_supply(game, unit, action.hex, before)
        if game.interpreter.phase_bound and phase is not None and phase.segment == "movement" \
                and phase.phasing == unit.side:          # AR-02: air supply's front (checks/fronts.py)
            out += judge_air_supply_front(game.board, before, unit, action.hex, step=action.step,
                                          when=action.when)
        _combat_air(game, unit, action, before)
        if unit.side == "italian":
            game.combat_air.air_hexes.add(action.hex)
        return out + judge_air_mission(game.board, before, unit, action.hex,
                                       step=action.step, when=action.when) \
            + judge_air_front(game.board, before, unit, action.hex, step=action.step,
                              when=action.when)               # AR-02 (checks/fronts.py)
    out: list[Finding] = game.events.on_placement(unit, action.hex, action.before,
                                                  game.interpreter.phase, game.interpreter.phase_bound,
                                                  step=action.step, when=action.when)  # EV-11
    out += judge_hidden_entry(game.board, unit, step=action.step, when=action.when)
    setup = setting_up(game)       # set up: no event, reinforcement or rebuild placed it
    if setup:                      # SU-01, SU-02, SU-05: inside its set-up area
        out += judge_set_up(game, unit.id, action.after, step=action.step, when=action.when)
    phase = game.interpreter.phase
    if game.interpreter.phase_bound and phase is not None and phase.key == "event" and not setup \
            and game.scenario == "1935-36" and unit.unit_class == "italian-colonial-irregular":
        before = action.before
        before.scenario = game.scenario
        return out + judge_event_irregulars(game.board, before, unit, turn=phase.turn,
                                            step=action.step, when=action.when)
    if setup and unit.counter in EA_BRIGADES:
        game.kar.entered.add(unit.counter)          # set up: in play from the start (RR-20 not judged)
    if game.scenario == "1940-41" and unit.counter in EA_BRIGADES and unit.counter not in game.kar.entered:
        bound = game.interpreter.phase_bound and phase is not None
        return out + game.kar.note_placed(game.board, unit, turn=phase.turn if bound else None,
                                          in_map=bound and phase.key == "map", step=action.step,
                                          when=action.when)          # RR-20 (PB 14.6.7)
    if unit.counter == GASSED_COUNTER and game.interpreter.phase_bound and phase is not None:   # AR-08
        before = action.before
        return out + judge_gassed(game.board, before, unit, action.hex, scenario=game.scenario,
                                  segment=phase.segment, phasing=phase.phasing,
                                  air_hexes=set(game.combat_air.air_hexes), step=action.step,
                                  when=action.when)
    if unit.counter in ("gb-bf", "gb-gf") and unit.counter not in game.kar_regiments:   # RR-27
        game.kar_regiments.add(unit.counter)       # placed anywhere in Sudan, not at an entry hex
        return out + judge_kar_regiment(game.board, game.formations, unit, game.scenario,
                                        len(game.kar_regiments) - 1, step=action.step,
                                        when=action.when)
    if unit.unit_type == "breakdown":               # RR-18 (2.4; PB 14.3.3), in any phase
        back = judge_breakdown_return(game.board, game.formations, unit, game.scenario, step=action.step,
                                      when=action.when)
        if back:
            return out + back
    if setup or not game.interpreter.phase_bound or phase is None or phase.key != "map":
        return out
    game.rail.placed.add((phase.turn, unit.id))     # it did not begin this MAP on a line (MV-36)
    before, after = action.before, action.after
    before.scenario = after.scenario = game.scenario
    if unit.unit_type == "breakdown" or (unit.unit_type == "column" and game.scenario == "1935-36"):
        game.formations.note_formed(unit, before, step=action.step, when=action.when)
        return out                                  # judged when the MAP ends (RR-16, RR-19)
    if game.scenario == "1940-41" and unit.counter in GUERRILLA_HOMES:    # SC-05 (PB 14.6.4.1)
        return out + judge_recruit(game.board, before, unit, game.recruits, turn=phase.turn,
                                   step=action.step, when=action.when)
    after.flags["french-somaliland-joined"] = game.events.french_somaliland_joined() is True  # RR-11
    out += game.rebuilds.judge(game.board, unit, game.scenario, step=action.step,
                               when=action.when)               # RR-15 (7.3.4)
    if game.scenario == "1940-41":                  # RR-23: two dummies a turn
        out += game.dummies.note(game.board, unit, turn=phase.turn, step=action.step, when=action.when)
    return out + judge_placement(game.board, before, after, action.unit,
                                 turn=game.events.entry_turn(unit, phase.turn),   # EV-14: D6 early
                                 step=action.step, when=action.when,
                                 gone_leaders=game.interpreter.gone_leaders)


def setting_up(game: Any) -> bool:
    """Whether play has not begun: the turn track shows turn 1 before any player phase (both
    scenarios begin at the start of the Event Phase, PB 13.1, 14.1) and no event has been drawn
    yet. A unit placed then is set up as the scenario allows (PB 13.3, 14.3; the set-up areas
    are SU-01, SU-02 and SU-05's), not placed by an event (EV-04, EV-09, EV-11, EV-14, RR-20),
    as a reinforcement, a rebuilt unit, a recruit or a dummy (RR-01 and the rest); the rules that
    hold for any placement (FW-04 hidden entry, RR-18, RR-27's cost) still apply."""
    interpreter = game.interpreter
    return interpreter.phase_bound and starts_the_scenario(interpreter.phase) and not game.events.any_draw


def _combat_air(game: Any, marker: Any, action: Appear, before: GameState) -> None:
    """AR-07: a marker placed in a combat segment the turn track tells, judged when it ends."""
    phase = game.interpreter.phase
    if game.interpreter.phase_bound and phase is not None and phase.segment == "combat":
        game.combat_air.place(marker, action.hex, before, step=action.step, when=action.when)


def _air_supply(game: Any, marker: Any, hex_: str, before: GameState) -> None:
    """SP-15 (PB 13.6.5.2): (35) an Italian marker placed in the Italian movement segment
    flies air supply to the Italian units under it, up to two steps (so never a unit of more
    steps): they count as in supply for the rest of the turn, from the segment's start."""
    phase = game.interpreter.phase
    if game.scenario != "1935-36" or marker.side != "italian" or not game.interpreter.phase_bound \
            or phase is None or phase.segment != "movement" or phase.phasing != "italian":
        return
    supplied = [u.id for u in before.at(hex_) if u.side == "italian" and u.kind not in ("air", "rp")
                and not (isinstance(u.steps, int) and u.steps > AIR_SUPPLY_STEPS)]
    if supplied:
        known = game.interpreter.flags.get(AIR_SUPPLIED, frozenset())
        game.interpreter.flags[AIR_SUPPLIED] = frozenset(known) | frozenset(supplied)
        for uid in supplied:
            game.oos_at_start.pop(uid, None)


def _mission_segment(game: Any, action: Appear, marker: Any, before: GameState) -> list[Finding]:
    """AR-06, AR-11: the missions a marker may fly in the movement segment the turn track tells."""
    phase = game.interpreter.phase
    bound = game.interpreter.phase_bound and phase is not None
    phasing = phase.phasing if bound else None
    game.mission_flown[marker.id] = (phase.segment if bound else "unknown", phasing)
    moved = [before.units[uid].name for uid in game.moves.origins
             if uid in before.units and before.units[uid].side == phasing]
    earlier = None
    if bound and game.scenario == "1935-36" and marker.side == "italian" and phase.segment == "movement" \
            and phasing == "italian":               # air supply: one marker a turn (AR-09)
        earlier = game.air_supply_flown.get(phase.turn)
        game.air_supply_flown.setdefault(phase.turn, marker.name)
    return judge_mission_segment(game.board, before, marker, action.hex,
                                 scenario=game.scenario, segment=phase.segment if bound else None,
                                 phasing=phasing, moved=moved, step=action.step,
                                 when=action.when, earlier_air_supply=earlier)


def _bombing_after_league(game: Any, action: Appear, marker: Any) -> list[Finding]:
    """EV-06 (A4): no bombing in the turn League of Nations is drawn (checks/events.py)."""
    pending = game.interpreter.pending
    return game.events.on_air_mission(marker, action.hex, game.interpreter.phase,
                                      game.interpreter.phase_bound,
                                      pending.declaration.target if pending is not None else None,
                                      step=action.step, when=action.when)
