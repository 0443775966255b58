"""TS-09 (PB 14.1.1, 14.6.6): no unit enters French Somaliland while it is neutral.

French Somaliland starts the 1940-41 scenario neutral and joins the Allies only on a 4-6 roll
for Event C1 (PB 14.6.6); the Italian player may never enter it while it is neutral. A unit
moving from outside French Somaliland into one of its hexes is judged against what the log
establishes: `GameState.flags["french-somaliland-joined"]` True (joined: legal), False
(neutral: PROVEN); absent (the module's pieces do not show event draws) POSSIBLE, naming the
C1 roll that would have made the entry legal.
"""
from __future__ import annotations

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["judge_neutral_entry", "C1_DATUM"]

ZONE = "french-somaliland"
C1_DATUM = "Event C1 French Somaliland drawn with a roll of 4-6 (the log shows no event draws)"


@REGISTRY.reports("TS-09")
def judge_neutral_entry(board: Board, state: GameState, unit: Unit, to: str, *,
                        step: int | None, when: str | None) -> list[Finding]:
    """TS-09 for one move of `unit` (at its hex before the step) to `to`, 1940-41 only."""
    if state.scenario != "1940-41" or unit.hex is None or unit.kind == "air":
        return []
    joined = state.flags.get("french-somaliland-joined")
    if joined is True:
        return []
    into = board.in_zone(to, ZONE)
    if into is False:
        return []
    came_from = board.in_zone(unit.hex, ZONE)
    if came_from is True:
        return []                   # already inside: leaving or moving within is not entering
    depends: list[str] = []
    for answer in (into, came_from):
        if isinstance(answer, Unknown):
            depends.extend(answer.data)
    if joined is None:
        depends.append(C1_DATUM)
    elif isinstance(joined, Unknown):       # C1 rolled 4: the IPL decides (checks/events.py)
        depends.extend(joined.data)
    ruling = Ruling.POSSIBLE if depends else Ruling.PROVEN
    return [finding("TS-09", ruling, step=step, when=when, subjects=(unit.name,),
                    message=f"{unit.name} entered French Somaliland at {hex_label(to, board)}; no unit "
                            "may enter it while it is neutral (PB 14.1.1)",
                    evidence={"from": unit.hex, "hex": to, "side": unit.side,
                              "french_somaliland_joined": joined},
                    depends_on=depends)]
