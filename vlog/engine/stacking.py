"""Stacking limits: what may share a hex, checked with per-game counting hooks.

The rules count differently — Lion of Judah 8.2 in divisions (a non-division unit is 1/2, HQs
free but one per hex, 3 per hex or 4 in clear/town/amba), Ethiopians by units (8 per hex) and
never two tribal factions together; Island of Death 7.1 in battalion-equivalents (companies
1/2, one HQ over the limit); Ascari 3.4 one combat unit per hex. Each is a `StackRule`; a check
returns `Violation`s with the numbers behind them, PROVEN or POSSIBLE when a count or a limit
rests on unknown data (a hidden unit's size, a hex's terrain).
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar, Union

from vlog.engine.judge import Ruling, Unknown, at_most

H = TypeVar("H", bound=Hashable)
U = TypeVar("U")
Number = Union[int, Fraction, float]


@dataclass(frozen=True, slots=True)
class Violation(Generic[H]):
    """One broken stacking rule in one hex, with the count and the limit compared."""

    hex: H
    rule: str
    message: str
    ruling: Ruling = Ruling.PROVEN
    count: Number | Unknown | None = None
    limit: Number | Unknown | None = None
    depends_on: frozenset[str] = frozenset()
    units: tuple = ()


StackRule = Callable[[H, Sequence[U]], list[Violation[H]]]


def weight_limit(name: str, weight: Callable[[U], Number | Unknown | None],
                 limit: Callable[[H], Number | Unknown]) -> StackRule:
    """Sum of `weight` over the hex's units at most `limit(hex)`; None weights don't count.

    A weight or a limit may be `Unknown` with bounds (`at_least`, `at_most`): the violation is
    PROVEN when even the smallest count exceeds the largest limit, POSSIBLE when the bounds
    overlap, and nothing when the largest count fits the smallest limit.
    """

    def rule(hex_: H, units: Sequence[U]) -> list[Violation[H]]:
        total: Number | Unknown = 0
        counted = []
        for unit in units:
            w = weight(unit)
            if w is None:
                continue
            counted.append(unit)
            total = total + w
        cap = limit(hex_)
        fits = at_most(total, cap)
        if fits.true:
            return []
        ruling = Ruling.PROVEN if fits.false else Ruling.POSSIBLE
        return [Violation(hex_, name, f"{_show(total)} counted against a limit of {_show(cap)}",
                          ruling, total, cap, fits.depends_on, tuple(counted))]

    return rule


def count_limit(name: str, counts: Callable[[U], bool], most: int) -> StackRule:
    """At most `most` units for which `counts(unit)` holds (one HQ per hex; one combat unit)."""

    def rule(hex_: H, units: Sequence[U]) -> list[Violation[H]]:
        matching = tuple(u for u in units if counts(u))
        if len(matching) <= most:
            return []
        return [Violation(hex_, name, f"{len(matching)} in the hex, at most {most} allowed",
                          Ruling.PROVEN, len(matching), most, units=matching)]

    return rule


def exclusive(name: str, group: Callable[[U], Hashable | None]) -> StackRule:
    """Units of different groups may not share a hex; `group` None means "stacks with any"
    (Lion of Judah PB 13.6.1: no two tribal factions; Negus units stack with all)."""

    def rule(hex_: H, units: Sequence[U]) -> list[Violation[H]]:
        groups = {g for g in (group(u) for u in units) if g is not None}
        if len(groups) <= 1:
            return []
        names = ", ".join(sorted(str(g) for g in groups))
        return [Violation(hex_, name, f"{names} share the hex", Ruling.PROVEN, len(groups), 1,
                          units=tuple(units))]

    return rule


def check_stacking(positions: Mapping[H, Sequence[U]], rules: Iterable[StackRule]
                   ) -> list[Violation[H]]:
    """Every violation of every rule in every hex, in hex order of `positions`."""
    rule_list = list(rules)
    out: list[Violation[H]] = []
    for hex_, units in positions.items():
        if not units:
            continue
        for rule in rule_list:
            out.extend(rule(hex_, units))
    return out


def _show(value: object) -> str:
    if isinstance(value, Unknown):
        lo, hi = value.at_least, value.at_most
        span = f"{_show(lo)}" if hi is None or hi == lo else f"{_show(lo)}-{_show(hi)}"
        return f"{span}? ({value.datum})" if hi is not None else f">= {span} ({value.datum})"
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else str(value.numerator)
    return str(value)

