"""HQ movement (10.2, 10.2.1; HQ-09 by truck, 10.3.3): an HQ on its M side moves one hex, or its
M-side MF along a continuous route of dirt-track, rail or road hexes, or by truck (+1 MP per
truck beyond the first); a route the log shows hop by hop must hold to that.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import MovementRules, best_of, check_move, follow_route
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import MOTORIZED_MIN_COST, Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding, plain_number as _num
from vlog.games.lion_of_judah.checks.movement_costs import movement_rules
from vlog.games.lion_of_judah.checks.movement_facts import CORRECTIONS, MoveFacts
from vlog.games.lion_of_judah.state import GameState
from vlog.kit.movement import tec_cost
from vlog.kit.routes import corrections, hop_by_hop

__all__ = ["judge_hq_route"]


@REGISTRY.reports("MV-29", "HQ-09")
def judge_hq_route(board: Board, state: GameState, facts: MoveFacts, *, step: int | None,
                    when: str | None) -> list[Finding]:
    """10.2.1: one hex; or the M-side MF along track/rail/road hexes; or by truck."""
    unit, start, goal = facts.unit, facts.start, facts.goal
    if goal in board.neighbours(start):
        return []
    mf = unit.movement
    if facts.after_level == "m" and unit.level != "m" and unit.counter is not None:
        levels = board.data.counter(unit.counter)["levels"]
        if "m" in levels and "movement" in levels["m"]:
            mf = levels["m"]["movement"].value
    if mf is None:
        mf = Unknown(f"{unit.name} M-side movement factor")
    if isinstance(mf, Unknown):
        return []
    rules = movement_rules(board, state, unit, motorized=True, scenario=facts.scenario, goal=facts.goal,
                           minimum_move=False, rainy=facts.rainy)
    original_enter = rules.enter_cost

    def along_lines_only(hex_: str) -> Any:      # no terrain route: only lines
        return None

    line_rules = MovementRules(**{**{f: getattr(rules, f) for f in rules.__dataclass_fields__},
                                  "enter_cost": along_lines_only})
    line_rules.line_cost = _any_line_cost(board, rules)
    checks = [check_move(line_rules, start, goal, mf)]
    if facts.trucks > 0:
        rules.enter_cost = original_enter
        checks.append(check_move(rules, start, goal, mf + facts.trucks - 1))
    verdict = best_of(*checks)
    logged: dict[str, Any] = {}
    depends_on = set(verdict.verdict.depends_on)
    if verdict.ruling is Ruling.LEGAL and hop_by_hop(board.neighbours, facts.path):
        # 11.1: the route the log shows hop by hop holds to the lines (or fits the trucks' MPs)
        walks = [follow_route(line_rules, facts.path, mf).check]
        if facts.trucks > 0:
            walks.append(follow_route(rules, facts.path, mf + facts.trucks - 1).check)
        verdict = best_of(*walks)
        if verdict.ruling is Ruling.LEGAL:
            return []
        reading = corrections(facts.path, CORRECTIONS)
        depends_on = set(verdict.verdict.depends_on) | ({reading} if reading else set())
        if reading:
            verdict = replace(verdict, verdict=replace(verdict.verdict, ruling=Ruling.POSSIBLE))
        logged = {"logged_route": list(facts.path)}
    if verdict.ruling is Ruling.LEGAL:
        return []
    where = f"{hex_label(start, board)} to {hex_label(goal, board)}"
    along = (" along " + " -> ".join(hex_label(h, board) for h in facts.path)) if logged else ""
    return [finding("HQ-09" if facts.trucks else "MV-29", verdict.ruling, step=step, when=when,
                    subjects=(unit.name,),
                    message=f"HQ {unit.name} moved from {where}{along}, {board.distance(start, goal)} hexes, "
                            f"neither one hex nor along a continuous track, rail or road route within "
                            f"{_num(mf)} MPs" + (f" nor by {facts.trucks} truck(s)" if facts.trucks else ""),
                    evidence={"from": start, "to": goal, "distance": board.distance(start, goal),
                              "movement_factor": _num(mf), "trucks": facts.trucks, **logged},
                    depends_on=depends_on)]


def _any_line_cost(board: Board, rules: MovementRules[str]) -> Callable[[str, str], Any]:
    """An HQ moving along dirt tracks, rail and roads: tracks count as route hexes (10.2.1),
    paying the hex's terrain cost; roads 1/2 MP (10.2.2.2)."""

    def cost(a: str, b: str) -> Any:
        kinds = board.line_kinds(a, b)
        side = rules.hexside_cost(a, b) if rules.hexside_cost else 0
        if side is None:
            return None
        if isinstance(kinds, Unknown):
            return Unknown(*kinds.data, at_least=MOTORIZED_MIN_COST)
        if not kinds:
            return None
        if "road" in kinds:
            return tec_cost(board.tec("road", "movement-motorized"), MOTORIZED_MIN_COST) + side
        terrain = rules.enter_cost(b)
        if terrain is None:
            return None
        return terrain + side

    return cost
