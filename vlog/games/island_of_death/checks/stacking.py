"""Stacking (7.1, 7.2, 16.2, 16.51, 16.72), judged at the end of each phase: units may pass
through a hex during a phase, so the count is taken on the table as it stands when the phase
ends (the step that moves the turn tracker on, or the end of the log when the tracker shows a
phase).

Counting (7.1): a battalion 1, a company or remnant 1/2; one HQ per hex is not counted;
leaders, coastal guns, militia, markers and warships are not counted. Whether a strongpoint
counts is not said (A-9): it counts 0 to 1/2. A unit whose size the data does not give counts
1/2 to 1, so the verdict names the datum.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Sequence

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.stacking import check_stacking, count_limit, weight_limit
from vlog.kit.steps import PhaseChanged

from vlog.games.island_of_death.rules import GAME, REGISTRY
from vlog.games.island_of_death.units import Unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

LIMIT = 4
"""7.1: four battalions a hex."""
FREE = frozenset({"leader", "coastal-gun", "militia", "marker", "warship"})
HALF = Fraction(1, 2)


def weight(unit: Unit) -> Any:
    """What a unit counts toward the four-battalion limit (7.1); None: not counted."""
    if unit.kind in FREE or unit.kind == "hq":
        return None
    if unit.kind == "strongpoint":
        return Unknown("A-9: whether a strongpoint counts toward stacking (7.1 is silent)", at_least=0, at_most=HALF)
    if unit.remnant or unit.size == "company":
        return HALF
    if unit.size == "battalion":
        return 1
    return Unknown(f"counters.json {unit.counter} size", at_least=HALF, at_most=1)


def _hq_weight(units: Sequence[Unit]) -> Any:
    hqs = [u for u in units if u.kind == "hq"]
    return len(hqs) - 1 if len(hqs) > 1 else 0


def _battalions(hex_: str, units: Sequence[Unit]):
    extra = _hq_weight(units)
    rule = weight_limit("7.1", weight, lambda _h: LIMIT - extra)
    return rule(hex_, units)


RULES_STK_02 = (
    ("coastal guns", "coastal-gun", 2, "16.51"),
    ("strongpoints", "strongpoint", 1, "16.2"),
    ("warships", "warship", 2, "16.72"),
)


def _number(value: Any) -> Any:
    """A count as evidence shows it: 4.5 for 9/2, the bounds of an unknown one."""
    if isinstance(value, Unknown):
        return [_number(value.at_least), _number(value.at_most)]
    return float(value) if isinstance(value, Fraction) and value.denominator != 1 else int(value)


def _positions(units: dict[str, Unit]) -> dict[str, dict[str, list[Unit]]]:
    """Side -> hex -> its units, for the hexes holding two or more: no limit of 7.1, 16.2, 16.51
    or 16.72 is below one piece (even the lone HQ counts nothing)."""
    out: dict[str, dict[str, list[Unit]]] = {}
    for unit in units.values():
        if unit.hex is not None:
            out.setdefault(unit.side, {}).setdefault(unit.hex, []).append(unit)
    return {side: {h: us for h, us in hexes.items() if len(us) > 1} for side, hexes in out.items()}


def _violations(hexes: dict[str, list[Unit]]) -> tuple[list, list[list]]:
    """One side's stacks over 7.1's limit, and over each limit of `RULES_STK_02`."""
    return (list(check_stacking(hexes, [_battalions])),
            [list(check_stacking(hexes, [count_limit(what, lambda u, k=kind: u.kind == k, most)]))
             for what, kind, most, _rule in RULES_STK_02])


@REGISTRY.check("STK-01", "STK-02")
def judge_stacking(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """7.2: at the end of the phase that ended, no hex over the limits."""
    if event.old is None:
        return []
    return _judge(game, view, event.step, game.when_of(event.old))


def _judge(game: "IslandOfDeath", view: "StepView", step: int | None, when: str | None) -> list["Finding"]:
    out = []
    said = game.timeline.possible_stacks
    for side, hexes in _positions(game.units(view.before)).items():
        battalions, others = game.recalled((GAME, "stacking", side), hexes, lambda: _violations(hexes))
        for violation in battalions:
            key = (violation.hex, frozenset(u.id for u in violation.units))
            if violation.ruling is not Ruling.PROVEN:
                if key in said:
                    continue                           # a possible excess said once, not every phase
                said.add(key)
            out.append(game.finding(
                "STK-01", violation.ruling, step=step,
                message=f"{side.title()} units in {violation.hex} at the end of the phase, in battalions: "
                        f"{violation.message} (the excess is eliminated, 7.2)",
                subjects=tuple(u.name for u in violation.units),
                evidence={"hex": violation.hex, "battalions": _number(violation.count),
                          "limit": _number(violation.limit),
                          "units": [u.counter for u in violation.units]},
                depends_on=tuple(sorted(violation.depends_on))))
        for (what, kind, most, rule), found in zip(RULES_STK_02, others):
            for violation in found:
                out.append(game.finding(
                    "STK-02", violation.ruling, step=step,
                    message=f"{violation.count} {what} in {violation.hex} at the end of the phase "
                            f"(at most {most}, {rule})",
                    subjects=tuple(u.name for u in violation.units),
                    evidence={"hex": violation.hex, "kind": kind, "count": violation.count, "limit": most}))
    return [replace(f, when=when) for f in out]
