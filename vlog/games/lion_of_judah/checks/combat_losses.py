"""The losses and the advance of one combat as the log shows them (checks/combat.py reads the
CRT): CB-19's readings of the steps each side owed, CB-20 and CB-35 (12.11, PB 14.6.4.1) how they
were taken, CB-21 (2.3.9) the pieces against the result, CB-23 (12.12) the advance after it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterable

from vlog.engine.combat import LossTaker, loss_violations, parse_result
from vlog.engine.judge import Explanation, Ruling, Unknown
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.common import REGISTRY, plain_number
from vlog.games.lion_of_judah.checks.stacking import division_weight, stacking_limit
from vlog.games.lion_of_judah.state import Unit
from vlog.kit.combat import advance_problems, cut_to_owed, loss_mismatch, steps_of, steps_owed

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.lion_of_judah.checks.combat import CombatFacts

__all__ = ["steps_due", "judge_advance", "judge_distribution", "judge_guerrilla_losses", "judge_raised",
           "loss_problems", "removed_with_steps_left", "loss_takers"]


def loss_takers(units: Iterable[Unit], defending: bool) -> list[Unit]:
    """Units that absorb step losses: never HQs (12.11), nor guerrillas defending with other
    Allied units (PB 14.6.4.1)."""
    units = [u for u in units if u.kind != "hq"]
    if defending and any(u.unit_class != "guerrilla" and u.side == "allied" for u in units):
        units = [u for u in units if u.unit_class != "guerrilla"]
    return units


def steps_due(facts: CombatFacts, cell: str) -> dict[str, int]:
    """Steps each side owes by a CRT cell, as far as its units have steps (12.11)."""
    result = parse_result(cell)
    out = {}
    for side, units, due in (("attacker", facts.attackers, result.attacker.number),
                             ("defender", facts.defenders, result.defender.number)):
        out[side] = steps_owed(due, loss_takers(units, side == "defender"))
    return out


def loss_problems(facts: CombatFacts, cell: str) -> list[str]:
    problems = []
    due = steps_due(facts, cell)
    for side, units, losses in (("attacker", facts.attackers, facts.attacker_losses),
                                ("defender", facts.defenders, facts.defender_losses)):
        taken = loss_mismatch(loss_takers(units, side == "defender"), losses, due[side],
                              removed=facts.removed, raised=facts.raised)
        if taken is not None:
            problems.append(f"the {side} lost {taken} step(s), {due[side]} due")
    return problems


@REGISTRY.reports("CB-21")
def judge_raised(facts: CombatFacts, add: Any, target: str) -> None:
    """CB-21 (2.3.9): a step loss reduces a unit (a reduced two-step unit, a one-step unit is
    eliminated); a Step layer that rose in the combat wrapped round instead."""
    for u in (*facts.attackers, *facts.defenders):
        if u.id not in facts.raised:
            continue
        was, now = facts.raised[u.id]
        add("CB-21", Ruling.PROVEN, f"{u.name} went from its {was}-step side to its {now}-step side "
            f"in the attack on {target}: a step loss reduces a unit, and a one-step (or reduced "
            "two-step) unit is eliminated and removed from the map (2.3.9)",
            {"unit": u.name, "steps_before": was, "steps_shown_after": now}, subjects=[u.name])


@REGISTRY.reports("CB-21")
def removed_with_steps_left(facts: CombatFacts, explanations: list[Explanation], add: Any,
                             target: str) -> CombatFacts:
    """CB-21 (2.3.9): units taken off the map when their side owed fewer steps than the
    removal took (every reading of the CRT that fits the log agrees). Returns the facts with
    those losses as the side owed them, so the distribution and the advance are judged on them."""
    readings = [e for e in explanations if not e.legal.false and isinstance(e.evidence.get("cell"), str)]
    if not readings:
        return facts
    adjusted = {"attacker": dict(facts.attacker_losses), "defender": dict(facts.defender_losses)}
    kept_on_map: set[str] = set()
    for side, units, losses in (("attacker", facts.attackers, facts.attacker_losses),
                                ("defender", facts.defenders, facts.defender_losses)):
        takers = loss_takers(units, side == "defender")
        removed = [u for u in takers if u.id in facts.removed and steps_of(u) > 1]
        if not removed:
            continue
        taken = sum(losses.get(u.id, 0) for u in takers)
        owed = max(steps_due(facts, e.evidence["cell"])[side] for e in readings)
        if taken <= owed:
            continue
        deps = frozenset().union(*(e.legal.depends_on for e in readings))
        ruling = Ruling.PROVEN if all(e.legal.true for e in readings) else Ruling.POSSIBLE
        adjusted[side], shown = cut_to_owed(removed, losses, taken - owed)
        kept_on_map.update(u.id for u in shown)
        add("CB-21", ruling, f"{', '.join(f'{u.name} ({steps_of(u)} steps)' for u in shown)} "
            f"{'was' if len(shown) == 1 else 'were'} removed from the map in the attack on {target}, "
            f"where the {side} owed {owed} step(s): a unit with steps left is reduced (its Step "
            "layer lowered, or a 3/4-step unit swapped for its replacement counter), not "
            "eliminated (2.3.9)",
            {"side": side, "owed": owed, "removal_took": taken,
             "removed": {u.name: steps_of(u) for u in shown}},
            subjects=[u.name for u in shown], depends_on=deps)
    if not kept_on_map:
        return facts
    # `removed` stays: the hex the log cleared is judged as cleared (CB-23), and a unit taken off
    # cannot advance
    return replace(facts, attacker_losses=adjusted["attacker"], defender_losses=adjusted["defender"])


@REGISTRY.reports("CB-35")
def judge_guerrilla_losses(facts: CombatFacts, add: Any, target: str) -> None:
    """PB 14.6.4.1 (CB-35): guerrillas defending with other Allied units cannot absorb losses,
    and are eliminated when those units are."""
    regular = [u for u in facts.defenders if u.unit_class != "guerrilla" and u.side == "allied"]
    guerrillas = [u for u in facts.defenders if u.unit_class == "guerrilla"]
    if not regular or not guerrillas:
        return
    survivors = [u for u in regular if facts.defender_losses.get(u.id, 0) < steps_of(u)]
    took = [u.name for u in guerrillas if facts.defender_losses.get(u.id, 0)]
    if took and survivors:
        add("CB-35", Ruling.PROVEN, f"guerrillas ({', '.join(took)}) absorbed losses defending {target} "
            "with other Allied units, which survived", {"guerrillas_lost": took,
                                                         "survivors": [u.name for u in survivors]})
    kept = [u.name for u in guerrillas if facts.defender_losses.get(u.id, 0) < steps_of(u)]
    if not survivors and kept:
        add("CB-35", Ruling.PROVEN, f"guerrillas ({', '.join(kept)}) stayed in {target} after the "
            "other Allied units there were eliminated", {"guerrillas_left": kept})


@REGISTRY.reports("CB-20")
def judge_distribution(facts: CombatFacts, add: Any, target: str) -> None:
    judge_guerrilla_losses(facts, add, target)
    before = []
    for side, units, losses, first_rule in (("attacker", facts.attackers, facts.attacker_losses, True),
                                            ("defender", facts.defenders, facts.defender_losses, False)):
        takers = [LossTaker(u.name, steps_of(u), losses.get(u.id, 0),
                            attack=plain_number(u.attack) if not isinstance(u.attack, Unknown) else 1)
                  for u in loss_takers(units, side == "defender")]
        taken = sum(t.lost for t in takers)
        problems = [p for p in loss_violations(takers, taken, spread_before_second=True,
                                               first_from_attacking_unit=first_rule,
                                               first_from_largest=True)
                    if "due" not in p]
        hq_losses = [u.name for u in units if u.kind == "hq" and losses.get(u.id, 0)]
        if hq_losses:
            problems.append(f"HQ {', '.join(hq_losses)} absorbed a step loss")
        if problems:
            add("CB-20", Ruling.PROVEN, f"the {side}'s losses in the attack on {target} were "
                f"distributed against 12.11: {'; '.join(problems)}",
                {"side": side, "losses": {t.name: t.lost for t in takers}, "problems": problems},
                subjects=[t.name for t in takers])
            before.append(side)


@REGISTRY.reports("CB-23")
def judge_advance(board: Board, facts: CombatFacts, add: Any, target: str,
             gone: Iterable[str] = ()) -> None:
    """12.12: a cleared hex must be entered by at least one attacker; never HQs. `gone`: true
    Dummies, off the map whether or not the log removed them (CB-38 reports those left)."""
    # defenseless defenders that stay are CB-24's finding, so they neither make an advance into
    # the hex wrong nor leave it cleared; attackers off the map, or due off it (CB-21), stay
    problems = advance_problems(facts.attackers, facts.defenders, facts.advanced,
                                attacker_losses=facts.attacker_losses, defender_losses=facts.defender_losses,
                                removed=facts.removed, raised=facts.raised, gone=gone,
                                defenseless=lambda u: u.defenseless, barred=lambda u: u.kind == "hq",
                                barred_label="HQ", stays=lambda u: u.kind in ("hq", "truck"),
                                weight=division_weight, limit=stacking_limit(board, facts.target))
    attackers = {u.id: u for u in facts.attackers}
    if problems:
        add("CB-23", Ruling.PROVEN, f"advance after the attack on {target}: {'; '.join(problems)}",
            {"advanced": [attackers[i].name if i in attackers else i for i in facts.advanced],
             "problems": problems})
