"""Rail movement (rule 11.7; PB 13.5.1; PB 14.5.1): a unit moved from hex to hex in the MAP.

Units do not move in the MAP except by rail (11.7; naval movement takes the unit off the map,
11.8), so a map-to-map move there is judged as rail movement:

* MV-36: only on the scenario's authorised lines and only by the side allowed them -- (35) and
  (40) the Italian player on the Massawa 1405 - Dongolaas Gorge 1104 line, (40) the Allied player
  on the Sudan line 0508 - 1001, (40) the Italian player also on the Djibouti - Addis Ababa line
  when the optional repair was declared (not shown by a log: POSSIBLE naming it); (35) the
  Ethiopian player never; from a rail hex of the line to another, through connected friendly
  rail hexes (a hex of the line holding enemy units is not friendly);
  a unit placed on the map in this MAP (reinforcements) did not begin the MAP on the line;
* MV-37: each line carries up to two RPs and one division or equivalent (two non-division units;
  HQs and trucks count 1/2 division) in one MAP.

That the unit began the MAP in supply is judged in checks/moves.py under SP-16 (checks/supply.py).
Line hexes the data does not list make the verdict POSSIBLE, naming them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.sequence import side_name
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["RAIL_LINES", "OPTIONAL_RAIL_LINES", "RailLedger", "judge_rail_move", "division_share"]

RAIL_LINES: dict[tuple[str, str], tuple[str, ...]] = {
    ("1935-36", "italian"): ("rail-massawa-dongolaas",),     # PB 13.5.1
    ("1935-36", "ethiopian"): (),                            # PB 13.5.1: no rail movement
    ("1940-41", "italian"): ("rail-massawa-dongolaas",),     # PB 14.5.1
    ("1940-41", "allied"): ("rail-sudan",),                  # PB 14.5.1
}
"""(scenario, side) -> the map.json rail lines that side may use for rail movement."""
OPTIONAL_RAIL_LINES: dict[tuple[str, str], tuple[str, ...]] = {
    ("1940-41", "italian"): ("rail-djibouti-addis",),        # PB 14.5.1 optional repair
}
"""Lines usable only under an optional rule declared at the start (not shown by a log)."""
OPTIONAL_RULE = "the optional Djibouti - Addis Ababa railroad repair declaration (PB 14.5.1)"
RP_LIMIT = 2
DIVISION_LIMIT = Fraction(1)


def division_share(unit: Unit) -> Fraction | None | Unknown:
    """11.7: the unit's share of a line's one division: a division 1, HQs, trucks and other
    units 1/2; None for an RP (counted apart); Unknown when the data lacks its size."""
    if unit.kind == "rp":
        return None
    if unit.kind in ("hq", "truck"):
        return Fraction(1, 2)
    if unit.size is None:
        return Unknown(f"counters.json size of {unit.counter or unit.name}")
    return Fraction(1) if unit.size == "division" else Fraction(1, 2)


@dataclass(slots=True)
class RailLedger:
    """What each rail line has carried in each MAP, and where each unit began that MAP."""

    origins: dict[tuple[int | None, str], str] = field(default_factory=dict)
    reported: set[tuple[int | None, str]] = field(default_factory=set)
    carried: dict[tuple[int | None, str], dict[str, Unit]] = field(default_factory=dict)
    capacity_reported: set[tuple[int | None, str]] = field(default_factory=set)
    placed: set[tuple[int | None, str]] = field(default_factory=set)
    """(turn, unit) placed on the map in that turn's MAP: they did not begin it on a line."""


def _line_hexes(board: Board, line_id: str) -> list[str] | Unknown | None:
    """The line's hexes in order; Unknown when the data does not list them, None when absent."""
    line = board.line(line_id)
    if line is None:
        return None
    hexes = line["hexes"].get("value")
    if hexes is None:
        return Unknown(f"map.json line {line_id} hexes")
    return [str(h) for h in hexes]


def _line_name(board: Board, line_id: str) -> str:
    line = board.line(line_id)
    return str(line.get("name", {}).get("value") or line_id) if line is not None else line_id


def _route_on(hexes: list[str], start: str, goal: str) -> list[str] | None:
    """The line's hexes from start to goal (both included), or None when either is off it."""
    if start not in hexes or goal not in hexes:
        return None
    a, b = hexes.index(start), hexes.index(goal)
    return hexes[a:b + 1] if a <= b else list(reversed(hexes[b:a + 1]))


@REGISTRY.reports("MV-36")
def judge_rail_move(board: Board, state: GameState, unit: Unit, start: str, goal: str, *,
                    scenario: str | None, turn: int | None, ledger: RailLedger,
                    step: int | None, when: str | None) -> list[Finding]:
    """Findings for `unit` moved from `start` (where it began the MAP) to `goal` in the MAP of
    `turn`; `state` is the position before the move. Reports each unit once a MAP."""
    key = (turn, unit.id)
    if scenario is None or unit.side is None or key in ledger.reported or start == goal:
        return []
    lines = RAIL_LINES.get((scenario, unit.side))
    if lines is None:
        return []
    optional = OPTIONAL_RAIL_LINES.get((scenario, unit.side), ())
    subject = (unit.name,)
    moved = f"{unit.name} moved from {hex_label(start, board)} to {hex_label(goal, board)} in the MAP"
    if not lines and not optional:
        ledger.reported.add(key)
        return [finding("MV-36", Ruling.PROVEN, step=step, when=when, subjects=subject,
                        message=f"{moved}; the {side_name(unit.side)} player may not use rail "
                                f"movement in the {scenario} scenario",
                        evidence={"from": start, "to": goal, "side": unit.side, "lines": []})]
    if key in ledger.placed:
        ledger.reported.add(key)
        return [finding("MV-36", Ruling.PROVEN, step=step, when=when, subjects=subject,
                        message=f"{moved}, where it was placed in this MAP; rail movement needs a "
                                "unit that began the MAP on the line",
                        evidence={"from": start, "to": goal, "side": unit.side,
                                  "placed_in_this_map": True})]
    enemy = state.enemy_hexes(unit.side)
    unknown: list[str] = []
    blocked: dict[str, list[str]] = {}
    for line_id in (*lines, *optional):
        hexes = _line_hexes(board, line_id)
        if hexes is None:
            continue
        if isinstance(hexes, Unknown):
            unknown.extend(hexes.data)
            continue
        route = _route_on(hexes, start, goal)
        if route is None:
            continue
        through_enemy = [h for h in route[1:] if h in enemy]
        if through_enemy:
            blocked[line_id] = through_enemy
            continue
        if line_id in optional:
            unknown.append(OPTIONAL_RULE)
            continue
        return _count(board, state, unit, line_id, turn, ledger, step, when)
    names = [_line_name(board, line) for line in (*lines, *optional)]
    evidence: dict[str, Any] = {"from": start, "to": goal, "side": unit.side,
                                "lines": list(lines) + list(optional)}
    if blocked:
        evidence["enemy_hexes_on_route"] = {k: v for k, v in blocked.items()}
    if unknown:
        ledger.reported.add(key)
        return [finding("MV-36", Ruling.POSSIBLE, step=step, when=when, subjects=subject,
                        message=f"{moved}, which rail movement allows only along "
                                f"the {' or the '.join(names)} through friendly rail hexes",
                        evidence=evidence, depends_on=unknown)]
    ledger.reported.add(key)
    why = (f"the route along the line passes enemy-held "
           f"{', '.join(hex_label(h, board) for v in blocked.values() for h in v)}" if blocked
           else f"rail movement goes only from a hex of the {' or the '.join(names)} to another of the same line")
    return [finding("MV-36", Ruling.PROVEN, step=step, when=when, subjects=subject,
                    message=f"{moved}; {why} (units move in the MAP only by rail or naval movement)",
                    evidence=evidence)]


@REGISTRY.reports("MV-37")
def _count(board: Board, state: GameState, unit: Unit, line_id: str, turn: int | None,
           ledger: RailLedger, step: int | None, when: str | None) -> list[Finding]:
    """MV-37: add the unit to what `line_id` carried this MAP; a finding once the load is over."""
    line_key = (turn, line_id)
    carried = ledger.carried.setdefault(line_key, {})
    carried[unit.id] = unit
    if line_key in ledger.capacity_reported:
        return []
    rps = sum(1 for u in carried.values() if u.kind == "rp")
    shares = [division_share(u) for u in carried.values() if u.kind != "rp"]
    known = sum((s for s in shares if isinstance(s, Fraction)), Fraction(0))
    sizeless = [s for s in shares if isinstance(s, Unknown)]
    low = known + Fraction(1, 2) * len(sizeless)      # a unit of unknown size: 1/2 or 1
    high = known + len(sizeless)
    missing = sorted({d for s in sizeless for d in s.data})
    name = _line_name(board, line_id)
    subjects = tuple(sorted(u.name for u in carried.values()))
    evidence: dict[str, Any] = {"line": line_id, "turn": turn, "rps": rps,
                                "division_equivalents": str(low), "units": list(subjects)}
    if rps > RP_LIMIT or low > DIVISION_LIMIT:
        ledger.capacity_reported.add(line_key)
        what = f"{rps} RPs" if rps > RP_LIMIT else f"{low} divisions or equivalent"
        return [finding("MV-37", Ruling.PROVEN, step=step, when=when, subjects=subjects,
                        message=f"the {name} carried {what} in the MAP of turn {turn} with "
                                f"{unit.name}; a line carries up to two RPs and one division or "
                                "equivalent (HQs, trucks and non-division units 1/2)",
                        evidence=evidence)]
    if high > DIVISION_LIMIT:
        ledger.capacity_reported.add(line_key)
        evidence["division_equivalents_at_most"] = str(high)
        return [finding("MV-37", Ruling.POSSIBLE, step=step, when=when, subjects=subjects,
                        message=f"the {name} may have carried more than one division or "
                                f"equivalent in the MAP of turn {turn} with {unit.name}",
                        evidence=evidence, depends_on=missing)]
    return []
