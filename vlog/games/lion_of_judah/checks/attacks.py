"""A combat as Lion of Judah judges it, once closed (the `Combat` event: the "combat" occasions).

The combat's facts (vlog/kit/combat.py's open combat: its roll, losses and advances) are judged
by checks/combat.py (CB-01 and the rest), with what the log's history adds: units out of supply,
the HQs' supply (SP-16), gas (CB-08), RPs spent (CB-27) and gained (CB-28), the Great Offensive
(CB-32), the counter-guerrilla roll (CB-37), the Ethiopian activations (CB-30, CB-31), the air
support's front (AR-02), guerrilla support (CB-34) and the segment it was declared in (TS-02).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.checks.combat import CombatFacts, gassed_readings, judge_combat
from vlog.games.lion_of_judah.checks.combat_fog import counter_guerrilla_applies
from vlog.games.lion_of_judah.checks.common import REGISTRY
from vlog.games.lion_of_judah.checks.ethiopian_rps import judge_rp_use
from vlog.games.lion_of_judah.checks.fronts import counts_for_pressure, judge_air_support_front
from vlog.games.lion_of_judah.checks.guerrillas import judge_guerrilla_support
from vlog.games.lion_of_judah.checks.sequence_of_play import judge_attack_out_of_segment
from vlog.games.lion_of_judah.checks.supply import judge_supply_prerequisite, trace
from vlog.games.lion_of_judah.interpret import units_named
from vlog.games.lion_of_judah.sequence import scenario_rules
from vlog.games.lion_of_judah.state import GameState
from vlog.games.lion_of_judah.step_events import Combat
from vlog.kit.steps import Event

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.steps import StepView


def _other_side(scenario: str | None, side: str | None) -> str | None:
    """The side a combat's attacker fights in the scenario (None when unknown)."""
    if scenario is None or side is None:
        return None
    rules = scenario_rules(scenario)
    return {rules.first: rules.second, rules.second: rules.first}.get(side)


@REGISTRY.check("CB-01", event=Combat)
def judge_attack(game: Any, action: Combat, view: "StepView | None" = None) -> list[Finding]:
    """A combat, closed (CB-01 and the rest: see the module's docstring)."""
    pending = action.pending
    before: GameState = pending.before
    before.scenario = game.scenario
    decl = pending.declaration
    attackers = action.attackers
    defenders = action.defenders
    pressure = counts_for_pressure(game.board, before, decl.target, attackers) \
        if game.scenario == "1935-36" and pending.side == "italian" else True      # Event A1
    game.vp_history.note_attack(pending.side, pending.phase.turn if pending.phase is not None else None,
                                for_a1=pressure)
    if not attackers:
        return []      # attackers not named: nothing to judge the odds on
    phase = pending.phase           # the phase it was declared in, not the one closing it
    out = judge_attack_out_of_segment(game.board, decl.target, attackers, phase, bound=pending.phase_bound,
                                      scenario=game.scenario, step=action.step, when=action.when)
    oos = set()
    for u in (*attackers, *defenders):
        result = trace(game.board, before, u)
        if result is not None and result.ruling is Ruling.PROVEN:
            oos.add(u.id)
    game.rp_gain.note_attack(pending.step, decl.target, tuple(attackers), before, pending.side,
                             phase)                                  # CB-28
    hqs_a = units_named(before, decl.hqs, pending.side)
    for hq in hqs_a or ():                              # SP-16 (10.2.3)
        out.extend(judge_supply_prerequisite(game.board, before, hq, "hq-support", where=decl.target,
                                             step=action.step, when=action.when))
    nearby = tuple(u for u in before.units.values() if u.kind == "hq")
    facts = CombatFacts(
        decl.target, tuple(attackers), tuple(defenders), pending.roll,
        {k: v for k, v in pending.losses.items() if k in {u.id for u in attackers}},
        {k: v for k, v in pending.losses.items() if k in {u.id for u in defenders}},
        advanced=tuple(pending.advanced), out_of_supply=frozenset(oos),
        air=decl.air, attacker_hqs=hqs_a, defender_hqs=None if decl.hqs is None else (),
        nearby=nearby, removed=frozenset(pending.removed), raised=dict(pending.raised),
        revealed=dict(pending.revealed), roll_step=pending.roll_step, declared_step=pending.step)
    if decl.air is None:                          # 10.1.3: air only from markers that flew
        defending = {u.side for u in defenders} - {None, pending.side}
        there = before.at(decl.target)
        facts = replace(facts, air_limits=(
            game.combat_air.shifts_possible(pending.side, there),
            max((game.combat_air.shifts_possible(s, there) for s in defending), default=0)
            if defending else game.combat_air.shifts_possible(_other_side(game.scenario, pending.side), there)))
    gas = gassed_readings(before, attackers)                 # CB-08 (PB 13.6.5.1)
    if gas is not None:
        facts = replace(facts, gassed=frozenset.intersection(*gas), gassed_readings=gas)
    facts = replace(facts, rolls_seen=len(pending.rolls))
    rp_shift, rp_found = judge_rp_use(                          # CB-27 (PB 13.6.4.3)
        game.board, before, getattr(game.interpreter, "_after", None) or before, decl.target,
        pending.side, tuple(attackers), tuple(defenders), scenario=game.scenario,
        step=action.step, when=action.when)
    out.extend(rp_found)
    facts = replace(facts, rp_shift=rp_shift)
    if game.activation.in_offensive(phase, attackers):        # CB-32 (PB 13.6.2.4)
        facts = replace(facts, great_offensive=True)
    if counter_guerrilla_applies(game.scenario, pending.side, defenders):   # CB-37 (PB 14.6.4.5)
        first = pending.rolls[0] if pending.rolls else (None, None)
        second = pending.rolls[1] if len(pending.rolls) > 1 else (None, None)
        facts = replace(facts, counter_guerrilla=first, roll=second[0], roll_step=second[1])
    out.extend(game.activation.attack(attackers, decl.target, phase, step=action.step,
                                      when=action.when))      # CB-30, CB-31 (35)
    italians = [u for u in (attackers if pending.side == "italian" else defenders) if u.side == "italian"]
    for placed in game.combat_air.placed:            # AR-02: air support to its own front
        if placed.hex == decl.target:
            out.extend(judge_air_support_front(game.board, before, placed.marker, decl.target, italians,
                                               step=placed.step, when=placed.when))
    out.extend(judge_guerrilla_support(game.board, before, decl.target, attackers, defenders,
                                       decl.hqs, decl.air, step=action.step,
                                       when=action.when))      # CB-34
    return out + judge_combat(game.board, before, facts, step=action.step,
                              when=action.when, memory=game.combat_memory)
