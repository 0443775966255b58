"""Judging with incomplete information: unknown values and three-way verdicts.

A VASSAL log shows where pieces went, not why; the game data lacks many printed charts. A check
therefore asks "is there any legal way to explain this?" and answers one of three ways:

* LEGAL    – some reading of the rules and the known data explains what the log shows;
* POSSIBLE – only a reading that relies on an unknown datum or a hidden fact explains it
             (the verdict names those data, so a user knows what would settle it);
* PROVEN   – no reading explains it: the action is illegal whatever the missing data say.

`Unknown` is a value that stands for a missing datum. It propagates through arithmetic, and
comparisons go through `at_most` and the three-valued `Tri`, so a cost, an odds ratio or a
table cell that rests on missing data carries the names of what is missing all the way to the
verdict; an `Unknown` refuses to act as a plain bool, so it cannot be dropped by accident.
"""
from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Union

Number = Union[int, Fraction, float]


class Unknown:
    """A value the engine cannot know: a missing datum (table cell, terrain, hidden strength).

    `data` names what is missing ("tec: foot cost of swamp", "hex 1213 terrain"); `at_least` is
    a lower bound the rules guarantee (a hex costs at least 1 MP), used for optimistic searches;
    `at_most` an upper bound when one is known (a stacking limit of 3 or 4). Arithmetic with
    numbers or other unknowns gives an `Unknown` naming all the data involved.
    """

    __slots__ = ("data", "at_least", "at_most")

    def __init__(self, *data: str, at_least: Number = 0, at_most: Number | None = None):
        if not data:
            raise ValueError("Unknown needs the name of at least one missing datum")
        names: set[str] = set()
        for item in data:
            if not isinstance(item, str) or not item:
                raise ValueError(f"Unknown datum names must be non-empty strings, not {item!r}")
            names.add(item)
        if at_most is not None and at_most < at_least:
            raise ValueError(f"Unknown bounds run backwards: {at_least} .. {at_most}")
        self.data: frozenset[str] = frozenset(names)
        self.at_least: Number = at_least
        self.at_most: Number | None = at_most

    @classmethod
    def _merge(cls, data: frozenset[str], at_least: Number,
               at_most: Number | None = None) -> "Unknown":
        new = cls.__new__(cls)
        new.data = data
        new.at_least = at_least
        new.at_most = at_most
        return new

    @property
    def datum(self) -> str:
        """The missing data as one readable string, sorted for stable messages."""
        return ", ".join(sorted(self.data))

    def _combine(self, other: object, op) -> "Unknown":
        if isinstance(other, Unknown):
            try:
                bound = op(self.at_least, other.at_least)
            except (ArithmeticError, TypeError):
                bound = 0
            return Unknown._merge(self.data | other.data, bound)
        if isinstance(other, (int, float, Fraction)):
            try:
                bound = op(self.at_least, other)
            except (ArithmeticError, TypeError):
                bound = 0
            return Unknown._merge(self.data, bound)
        return NotImplemented

    def __add__(self, other: object) -> "Unknown":
        result = self._combine(other, lambda a, b: a + b)
        if result is NotImplemented or self.at_most is None:
            return result
        if isinstance(other, Unknown):
            if other.at_most is not None:
                result.at_most = self.at_most + other.at_most
        else:
            result.at_most = self.at_most + other  # type: ignore[operator]
        return result

    __radd__ = __add__

    def __sub__(self, other: object) -> "Unknown":
        # a lower bound minus anything is no longer a bound: keep only the data
        result = self._combine(other, lambda a, b: a + b)
        if result is NotImplemented:
            return result
        return Unknown._merge(result.data, 0)

    __rsub__ = __sub__

    def __mul__(self, other: object) -> "Unknown":
        result = self._combine(other, lambda a, b: a * b)
        if result is NotImplemented:
            return result
        return Unknown._merge(result.data, 0)

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> "Unknown":
        result = self._combine(other, lambda a, b: a + b)
        if result is NotImplemented:
            return result
        return Unknown._merge(result.data, 0)

    __rtruediv__ = __truediv__
    __floordiv__ = __truediv__
    __rfloordiv__ = __truediv__

    def __neg__(self) -> "Unknown":
        return Unknown._merge(self.data, 0)

    def __bool__(self) -> bool:
        raise TypeError(f"the truth of a value that depends on {self.datum} is unknown; "
                        "use is_known() or Tri logic")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Unknown) and other.data == self.data
                and other.at_least == self.at_least and other.at_most == self.at_most)

    def __hash__(self) -> int:
        return hash((self.data, self.at_least, self.at_most))

    def __repr__(self) -> str:
        bound = f", at_least={self.at_least!r}" if self.at_least else ""
        if self.at_most is not None:
            bound += f", at_most={self.at_most!r}"
        return f"Unknown({', '.join(repr(d) for d in sorted(self.data))}{bound})"


def is_known(value: object) -> bool:
    """True unless the value is an `Unknown`."""
    return not isinstance(value, Unknown)


def unknowns(*values: object) -> frozenset[str]:
    """The names of every missing datum among the values (empty when all are known)."""
    out: set[str] = set()
    for value in values:
        if isinstance(value, Unknown):
            out |= value.data
    return frozenset(out)


def known_or(value: object, default: Any) -> Any:
    """The value, or `default` when it is unknown."""
    return default if isinstance(value, Unknown) else value


def lower_bound(value: Number | Unknown) -> Number:
    """The smallest the value can be: itself when known, its `at_least` when unknown."""
    return value.at_least if isinstance(value, Unknown) else value


def upper_bound(value: Number | Unknown) -> Number | None:
    """The largest the value can be: itself when known, its `at_most` (None = unbounded)."""
    return value.at_most if isinstance(value, Unknown) else value


def at_most(value: Number | Unknown, limit: Number | Unknown) -> "Tri":
    """Is value <= limit? Certain when the bounds settle it, else unknown naming the data."""
    lo_v, hi_v = lower_bound(value), upper_bound(value)
    lo_l, hi_l = lower_bound(limit), upper_bound(limit)
    if hi_v is not None and hi_v <= lo_l:
        return TRUE
    if hi_l is not None and lo_v > hi_l:
        return FALSE
    if is_known(value) and is_known(limit):
        return Tri(value <= limit)  # type: ignore[operator]
    return Tri(None, unknowns(value, limit))


def value_or_unknown(datum: Any, what: str | None = None, *, at_least: Number = 0,
                     at_most: Number | None = None) -> Any:
    """A game-data datum's value, or an `Unknown` naming it when the value is null.

    Duck-typed on `.value` (and `.file`/`.path` for the name) so the engine needs nothing from
    the game-data loader; `what` overrides the name ("TEC: foot cost of swamp").
    """
    value = getattr(datum, "value", datum)
    if value is not None:
        return value
    if what is None:
        file = getattr(datum, "file", "") or ""
        path = getattr(datum, "path", "") or ""
        what = " ".join(p for p in (file, path) if p) or "a missing datum"
    return Unknown(what, at_least=at_least, at_most=at_most)


# ---------------------------------------------------------------------------------------------
# three-valued logic


@dataclass(frozen=True, slots=True)
class Tri:
    """A truth value that may be unknown; `depends_on` names what would settle it.

    Kleene logic: `a & b` is false as soon as one side is certainly false, true only when
    both are certainly true, otherwise unknown with the union of the data involved.
    """

    value: bool | None
    depends_on: frozenset[str] = frozenset()

    @classmethod
    def of(cls, value: "bool | Unknown | Tri") -> "Tri":
        if isinstance(value, Tri):
            return value
        if isinstance(value, Unknown):
            return cls(None, value.data)
        return cls(bool(value))

    @property
    def known(self) -> bool:
        return self.value is not None

    @property
    def true(self) -> bool:
        """Certainly true."""
        return self.value is True

    @property
    def false(self) -> bool:
        """Certainly false."""
        return self.value is False

    def __and__(self, other: object) -> "Tri":
        o = Tri.of(other)  # type: ignore[arg-type]
        if self.value is False:
            return self
        if o.value is False:
            return o
        if self.value is True and o.value is True:
            return TRUE
        return Tri(None, self.depends_on | o.depends_on)

    def __or__(self, other: object) -> "Tri":
        o = Tri.of(other)  # type: ignore[arg-type]
        if self.value is True:
            return self
        if o.value is True:
            return o
        if self.value is False and o.value is False:
            return FALSE
        return Tri(None, self.depends_on | o.depends_on)

    def __invert__(self) -> "Tri":
        if self.value is None:
            return self
        return Tri(not self.value)

    def __bool__(self) -> bool:
        raise TypeError("a Tri has three values; test .true, .false or .known")


TRUE = Tri(True)
FALSE = Tri(False)


def all_of(values: Iterable["bool | Unknown | Tri"]) -> Tri:
    """Kleene AND over many values."""
    result = TRUE
    for value in values:
        result = result & Tri.of(value)
        if result.false:
            return result
    return result


def any_of(values: Iterable["bool | Unknown | Tri"]) -> Tri:
    """Kleene OR over many values."""
    result = FALSE
    for value in values:
        result = result | Tri.of(value)
        if result.true:
            return result
    return result


# ---------------------------------------------------------------------------------------------
# verdicts


@enum.unique
class Ruling(enum.Enum):
    """What a check concluded about one logged action."""

    LEGAL = "legal"          # some legal interpretation exists with the known data
    POSSIBLE = "possible"    # legal only if unknown data or hidden facts allow it
    PROVEN = "proven"        # illegal under every interpretation

    @property
    def finding_basis(self) -> Any:
        """The `vlog.findings.Basis` of a finding raised on this ruling (None for LEGAL)."""
        from vlog.findings import Basis  # lazy: findings sits above the engine

        return {Ruling.LEGAL: None, Ruling.POSSIBLE: Basis.POSSIBLE, Ruling.PROVEN: Basis.PROVEN}[self]


@dataclass(frozen=True, slots=True)
class Explanation:
    """One candidate reading of a logged action: legal or not, and what it relies on.

    `legal` is a `Tri`: certainly legal, certainly illegal, or legal only if `depends_on`
    turns out right. `reason` says, in one sentence, why (for messages and evidence).
    """

    legal: Tri
    reason: str = ""
    evidence: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of judging all readings of one action.

    `depends_on` (POSSIBLE only) names the data that would settle the question; `reasons`
    collects why each rejected reading fails, so a PROVEN finding can explain itself.
    """

    ruling: Ruling
    depends_on: frozenset[str] = frozenset()
    reasons: tuple[str, ...] = ()
    best: Explanation | None = None

    @property
    def legal(self) -> bool:
        return self.ruling is Ruling.LEGAL

    @property
    def proven_illegal(self) -> bool:
        return self.ruling is Ruling.PROVEN

    def describe(self) -> str:
        """One line for messages: 'legal', 'possible, depends on X' or 'illegal: why'."""
        if self.ruling is Ruling.LEGAL:
            return "legal"
        if self.ruling is Ruling.POSSIBLE:
            return "possible, depends on " + ", ".join(sorted(self.depends_on))
        return "illegal: " + "; ".join(r for r in self.reasons if r) if self.reasons else "illegal"


def judge(explanations: Iterable[Explanation]) -> Verdict:
    """The verdict over every candidate reading of an action.

    LEGAL when one reading is certainly legal; otherwise POSSIBLE when some reading is legal
    given unknown data (naming the data of the reading that needs the fewest); otherwise
    PROVEN, listing the reasons each reading fails. No readings at all is PROVEN.
    """
    possible: list[Explanation] = []
    reasons: list[str] = []
    for explanation in explanations:
        if explanation.legal.true:
            return Verdict(Ruling.LEGAL, best=explanation)
        if explanation.legal.known:
            if explanation.reason:
                reasons.append(explanation.reason)
        else:
            possible.append(explanation)
    if possible:
        best = min(possible, key=lambda e: (len(e.legal.depends_on), sorted(e.legal.depends_on)))
        every = frozenset().union(*(e.legal.depends_on for e in possible))
        return Verdict(Ruling.POSSIBLE, depends_on=best.legal.depends_on or every,
                       reasons=tuple(reasons), best=best)
    return Verdict(Ruling.PROVEN, reasons=tuple(reasons))


def verdict_of(value: "bool | Unknown | Tri", reason_if_false: str = "") -> Verdict:
    """The verdict of a single reading given as a truth value."""
    return judge([Explanation(Tri.of(value), reason_if_false)])
