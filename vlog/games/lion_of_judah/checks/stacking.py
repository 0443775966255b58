"""Stacking (rule 8, PB 13.6.1): checked at the end of the MAP, of each movement segment and of
each combat phase (8.1, ST-01); any number of units may pass through a hex meanwhile.

* 8.2 (ST-02, ST-03): all units but the 1935-36 Ethiopians: at most 3 divisions or equivalents
  per hex, 4 when the hex is clear and/or holds a town, capital or amba; a non-division unit
  counts 1/2; each side is counted apart (PB 14.6.4.1 guerrillas with Italians);
* 8.2, 10.2 (ST-04): HQs do not count, but at most one HQ per hex; trucks, RPs, markers free;
* 8.2, PB 13.6.1 (ST-05): (35) at most 8 Ethiopian units per hex — 8.2 counts leaders, PB 13.6.1
  does not: more than 8 without leaders is PROVEN, more only with them is POSSIBLE;
* PB 13.6.1, 13.6.2.2 (ST-06): (35) no two tribal factions in a hex (Negus units excepted), and
  no two leaders unless one is the Negus.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.stacking import Violation, count_limit, exclusive, weight_limit
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding, show_number
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["division_weight", "stacking_limit", "judge_stacking", "ETHIOPIAN_LIMIT"]

ETHIOPIAN_LIMIT = 8
NEGUS_CLASSES = frozenset({"imperial-guard"})


def division_weight(unit: Unit) -> Fraction | int | Unknown | None:
    """8.2: a division counts 1, any other unit 1/2; HQs, trucks, RPs and air count nothing."""
    if unit.kind in ("hq", "truck", "rp", "air"):
        return None
    if unit.size == "division":
        return 1
    if unit.size is None:
        return Unknown(f"size of {unit.name} (unit key)", at_least=Fraction(1, 2), at_most=1)
    return Fraction(1, 2)


def stacking_limit(board: Board, hex_: str) -> int | Unknown:
    """8.2: 3 divisions, 4 in clear hexes and hexes with a town, capital or amba."""
    if any(board.has_feature(hex_, f) is True for f in ("town", "capital", "amba")):
        return 4
    features = board.features(hex_)
    terrain = board.terrain(hex_)
    if isinstance(terrain, Unknown):
        return Unknown(*terrain.data, at_least=3, at_most=4)
    value = board.tec(terrain, "stacking")
    if isinstance(value, Unknown):
        return Unknown(*value.data, at_least=3, at_most=4)
    if isinstance(features, Unknown) and value == 3:
        return Unknown(*features.data, at_least=3, at_most=4)
    return int(value)


def _ethiopian_1935(unit: Unit, scenario: str | None) -> bool:
    return unit.side == "ethiopian" and scenario != "1940-41"


def _faction(unit: Unit) -> str | None:
    if unit.unit_class in NEGUS_CLASSES or unit.name == "Negus" or unit.counter == "et-negus":
        return None
    return unit.faction or (unit.unit_class or "").removeprefix("ethiopian-") or None


@REGISTRY.reports("ST-04")
def judge_stacking(board: Board, state: GameState, *, step: int | None, when: str | None,
                   sides: tuple[str, ...] | None = None, hexes: set[str] | None = None
                   ) -> list[Finding]:
    """Findings for every over-stacked hex (of `sides`, in `hexes` when given)."""
    scenario = state.scenario
    by_hex_side: dict[tuple[str, str], list[Unit]] = {}
    for unit in state.units.values():
        if unit.hex is None or unit.side is None or unit.kind == "air":
            continue
        if sides is not None and unit.side not in sides:
            continue
        if hexes is not None and unit.hex not in hexes:
            continue
        by_hex_side.setdefault((unit.hex, unit.side), []).append(unit)
    out: list[Finding] = []
    for (hex_, side), units in by_hex_side.items():
        where = hex_label(hex_, board)
        ethiopian = [u for u in units if _ethiopian_1935(u, scenario)]
        others = [u for u in units if not _ethiopian_1935(u, scenario)]
        if others:
            rule = weight_limit("8.2", division_weight, lambda h: stacking_limit(board, h))
            for v in rule(hex_, [u for u in others if u.kind != "hq"]):
                out.append(_weight_finding(v, where, step, when))
            for v in count_limit("8.2 HQ", lambda u: u.kind == "hq", 1)(hex_, others):
                names = [u.name for u in v.units]
                out.append(finding("ST-04", Ruling.PROVEN, step=step, when=when, subjects=names,
                                   message=f"{len(names)} HQs ({', '.join(names)}) in {where}; "
                                           "at most one HQ may be in a hex",
                                   evidence={"hex": hex_, "hqs": names, "limit": 1}))
        if ethiopian:
            out.extend(_ethiopian(hex_, where, ethiopian, step, when))
    return out


@REGISTRY.reports("ST-02")
def _weight_finding(v: Violation[str], where: str, step: int | None, when: str | None) -> Finding:
    names = [u.name for u in v.units]
    count = _num(v.count)
    limit = _num(v.limit)
    return finding("ST-02", v.ruling, step=step, when=when, subjects=names,
                   message=f"{where} holds {show_number(v.count)} divisions or equivalents "
                           f"({', '.join(names)}); the limit there is {show_number(v.limit)}",
                   evidence={"hex": v.hex, "divisions": count, "limit": limit, "units": names},
                   depends_on=v.depends_on)


@REGISTRY.reports("ST-05", "ST-06")
def _ethiopian(hex_: str, where: str, units: list[Unit], step: int | None, when: str | None
               ) -> list[Finding]:
    out: list[Finding] = []
    non_leaders = [u for u in units if u.kind != "leader"]
    names = [u.name for u in units]
    if len(non_leaders) > ETHIOPIAN_LIMIT or len(units) > ETHIOPIAN_LIMIT:
        proven = len(non_leaders) > ETHIOPIAN_LIMIT
        out.append(finding(
            "ST-05", Ruling.PROVEN if proven else Ruling.POSSIBLE, step=step, when=when,
            subjects=names,
            message=f"{where} holds {len(units)} Ethiopian units ({len(non_leaders)} without leaders); "
                    f"at most {ETHIOPIAN_LIMIT} may stack",
            evidence={"hex": hex_, "units": len(units), "without_leaders": len(non_leaders),
                      "limit": ETHIOPIAN_LIMIT},
            depends_on=() if proven else ("whether leaders count (8.2 says they do, PB 13.6.1 "
                                          "says they do not)",)))
    rule = exclusive("PB 13.6.1", _faction)
    for v in rule(hex_, units):
        factions = sorted({f for f in (_faction(u) for u in units) if f})
        out.append(finding("ST-06", Ruling.PROVEN, step=step, when=when, subjects=names,
                           message=f"units of different tribal factions ({', '.join(factions)}) "
                                   f"share {where}",
                           evidence={"hex": hex_, "factions": factions}))
    leaders = [u for u in units if u.kind == "leader" and _faction(u) is not None]
    if len(leaders) > 1:
        lnames = [u.name for u in leaders]
        out.append(finding("ST-06", Ruling.PROVEN, step=step, when=when, subjects=lnames,
                           message=f"leaders {', '.join(lnames)} share {where}; only the Negus "
                                   "may stack with another leader",
                           evidence={"hex": hex_, "leaders": lnames}))
    return out


def _num(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, Unknown):
        return {"at_least": _num(value.at_least), "at_most": _num(value.at_most)}
    return value


