"""Replacement, consolidation and breakdown (2.4, 2.5, 7.3.3, PB 14.5.2.3, PB 14.5.2.5).

* RR-14 (7.3.3): a reduced unit on the map gains steps only in the Mutual Administration Phase,
  in supply, stacked with or next to a friendly HQ (not across an impassable hexside);
* RR-13 (PB 14.5.2.3): (40) Black Shirt units and the 40th and 65th divisions (black circle)
  are never replaced;
* RR-17 (2.5): consolidation (a breakdown unit absorbed in the same hex) only in supply;
* RR-16 (2.4, PB 14.5.2.5): a breakdown unit is formed in the hex of a unit of its side with at
  least 3 steps that gives up a step in the same step of the log; in 1940-41 only the 40th and
  65th divisions break down.
"""
from __future__ import annotations

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import finding
from vlog.games.lion_of_judah.checks.supply import trace
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["judge_step_gain", "judge_breakdown", "NEVER_REPLACED_1940", "BREAK_DOWN_1940"]

NEVER_REPLACED_1940 = ("it-40th", "it-65th")
BREAK_DOWN_1940 = ("it-40th", "it-65th")


def _supply_finding(board: Board, state: GameState, unit: Unit, short: str, what: str,
                    step: int | None, when: str | None) -> list[Finding]:
    result = trace(board, state, unit)
    if result is None or result.ruling is Ruling.LEGAL:
        return []
    return [finding(short, result.ruling, step=step, when=when, subjects=(unit.name,),
                    message=f"{unit.name} {what} in {hex_label(unit.hex or '', board)} "
                            + ("out of supply" if result.ruling is Ruling.PROVEN
                               else "where its supply rests on data vlog lacks"),
                    evidence={"hex": unit.hex, "reasons": list(result.verdict.reasons)},
                    depends_on=result.verdict.depends_on)]


def judge_step_gain(board: Board, state: GameState, unit: Unit, steps_after: int, *,
                    consolidated_with: list[str], phase_key: str | None, step: int | None,
                    when: str | None) -> list[Finding]:
    """A unit on the map shows more steps than before (state: the position before)."""
    gained = steps_after - unit.steps if isinstance(unit.steps, int) else None
    if phase_key is not None and phase_key != "map":
        return [finding("RR-14", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} gained {gained} step(s) outside the Mutual "
                                "Administration Phase",
                        evidence={"steps_before": unit.steps, "steps_after": steps_after,
                                  "phase": phase_key})]
    if consolidated_with:
        return _supply_finding(board, state, unit, "RR-17", "absorbed a breakdown unit", step, when)
    out: list[Finding] = []
    if state.scenario == "1940-41" and unit.side == "italian" and (
            unit.unit_class == "black-shirt" or unit.counter in NEVER_REPLACED_1940):
        out.append(finding("RR-13", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} received a replacement; Black Shirt units and the "
                                   "40th and 65th divisions are never replaced in 1940-41",
                           evidence={"counter": unit.counter, "class": unit.unit_class}))
    hqs = [u for u in state.units.values() if u.kind == "hq" and u.side == unit.side and u.hex]
    reach: list[bool | Unknown] = []       # per HQ: does it serve the unit (7.3.3)?
    for hq in hqs:
        if hq.hex == unit.hex:
            reach.append(True)
        elif unit.hex is not None and hq.hex in board.neighbours(unit.hex):
            blocked = board.hexside_has(unit.hex, hq.hex, "impassable")
            reach.append(Unknown(*blocked.data) if isinstance(blocked, Unknown) else not blocked)
    if True not in reach:
        unsure = [r for r in reach if isinstance(r, Unknown)]
        out.append(finding("RR-14", Ruling.POSSIBLE if unsure else Ruling.PROVEN, step=step, when=when,
                           subjects=(unit.name,),
                           message=f"{unit.name} received a replacement in {hex_label(unit.hex or '', board)} "
                                   "with no friendly HQ in or next to its hex (across no impassable hexside)",
                           evidence={"hex": unit.hex, "hqs": {hq.name: hq.hex for hq in hqs}},
                           depends_on=frozenset().union(*(r.data for r in unsure))))
    return out + _supply_finding(board, state, unit, "RR-14", "received a replacement", step, when)


def judge_breakdown(board: Board, before: GameState, after: GameState, formed: Unit, *,
                    step: int | None, when: str | None) -> list[Finding]:
    """A breakdown unit placed on the map: some unit of its side in that hex with 3+ steps gave
    up a step at the same time (2.4)."""
    donors = []
    for uid, was in before.units.items():
        now = after.units.get(uid)
        if now is None or was.hex != formed.hex or was.side != formed.side:
            continue
        if isinstance(was.steps, int) and was.steps >= 3 and isinstance(now.steps, int) \
                and now.steps < was.steps:
            donors.append(was)
    where = hex_label(formed.hex or "", board)
    if not donors:
        return [finding("RR-16", Ruling.PROVEN, step=step, when=when, subjects=(formed.name,),
                        message=f"{formed.name} was formed in {where}, but no unit of 3 or more steps "
                                "there gave up a step",
                        evidence={"hex": formed.hex})]
    if after.scenario == "1940-41" and formed.side == "italian" and not any(
            d.counter in BREAK_DOWN_1940 for d in donors):
        return [finding("RR-16", Ruling.PROVEN, step=step, when=when, subjects=(formed.name,),
                        message=f"{formed.name} was formed in {where}; in 1940-41 only the 40th and 65th "
                                "divisions break down", evidence={"hex": formed.hex,
                                                                  "donors": [d.name for d in donors]})]
    return _supply_finding(board, before, donors[0], "RR-16", "broke down", step, when)
