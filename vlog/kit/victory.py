"""Victory: VP tallies that may be ranges, victory-level tables, and claims made in chat.

* `VPTerm` is one line of a tally: its points, or the range they may take when the log cannot
  settle them (`depends_on` names what would); `VPTally` adds them up as a range.
* `held_hex_terms`: one term per VP hex of a table held by a unit of the scoring side, worth
  its VP when some unit there is in supply, a range when supply rests on data vlog lacks;
* `levels_for` reads a victory-level table of `tables.json` (a list axis `level` whose cells are
  [low, high] VP ranges, an open end null) and says which levels a VP total falls in, and which
  levels' ranges the data lacks.
* `judge_level` says whether a level declared with a VP total is the one the table gives, and
  `judge_total` whether a declared total is the tally's (PROVEN outside its range, POSSIBLE
  inside a range its open terms leave);
* `ClaimReader` reads a result declared in chat, as PBEM players announce it: a VP total and a
  level in one line ("Italian 24 VP: Italian tactical victory"). Its sides are the scenarios'
  sides in `scenarios.json` and its kinds of victory the level labels' ("italian-tactical" ->
  "tactical"), so a game writes neither again.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from vlog.engine.judge import Ruling

__all__ = ["ClaimReader", "LevelReading", "LevelVerdict", "TotalVerdict", "VPTally", "VPTerm", "VictoryClaim",
           "held_hex_terms", "judge_level", "judge_total", "level_name", "levels_for"]


@dataclass(frozen=True, slots=True)
class VPTerm:
    """One line of the tally: its points, or the range they may take when the log cannot settle
    them (`depends_on` then names what would)."""

    check: str
    rule: str
    what: str
    low: int
    high: int
    evidence: Mapping[str, object] = field(default_factory=dict)
    depends_on: tuple[str, ...] = ()

    @property
    def known(self) -> bool:
        return self.low == self.high

    @property
    def shown(self) -> str:
        """Its points as a report shows them: "+2", or "-4 to +0" when open."""
        return f"{self.low:+d}" if self.known else f"{self.low:+d} to {self.high:+d}"

    def as_evidence(self) -> dict[str, object]:
        points: object = self.low if self.known else [self.low, self.high]
        return {"check": self.check, "rule": self.rule, "what": self.what, "points": points,
                **self.evidence}


@dataclass(frozen=True, slots=True)
class VPTally:
    """The VP a side has, term by term (`scenario`: the scenario it is counted for)."""

    scenario: str
    terms: tuple[VPTerm, ...]

    @property
    def low(self) -> int:
        return sum(t.low for t in self.terms)

    @property
    def high(self) -> int:
        return sum(t.high for t in self.terms)

    @property
    def open_terms(self) -> tuple[VPTerm, ...]:
        return tuple(t for t in self.terms if not t.known)

    def listing(self, empty: str = "nothing scored") -> str:
        """The terms that score (or may), as "what points; ..."."""
        return "; ".join(f"{t.what} {t.shown}" for t in self.terms if t.low != 0 or t.high != 0) or empty

    def points_of(self, check: str) -> tuple[int, int]:
        """The range of the terms reported under one check."""
        terms = [t for t in self.terms if t.check == check]
        return sum(t.low for t in terms), sum(t.high for t in terms)


def held_hex_terms(table: Any, check: str, rule: str, occupants: Callable[[str], list[Any]],
                   supply: Callable[[Any], Any], label: Callable[[str], str], *,
                   unknown_most: int = 99) -> list[VPTerm]:
    """A term per VP hex of `table` (a list axis `hex`, cells its VP) that `occupants(hex)` holds:
    its VP when `supply(unit)` (a trace result with `ruling` and `depends_on`, None when not
    judged) is LEGAL for one of them, 0 to its VP when a trace is only POSSIBLE or not judged,
    0 when every one is out of supply; 0 to `unknown_most` when the data lacks the hex's VP."""
    out: list[VPTerm] = []
    for hex_ in table.labels("hex").value or ():
        datum = table.lookup(hex_)
        value = datum.value if datum.known else None
        if value == 0:
            continue
        units = occupants(hex_)
        if not units:
            continue
        supplied, maybe, reasons = [], [], []
        for unit in units:
            result = supply(unit)
            if result is None:
                maybe.append(unit.name)
                reasons.append(f"supply of {unit.name} (not judged)")
            elif result.ruling is Ruling.LEGAL:
                supplied.append(unit.name)
                break
            elif result.ruling is Ruling.POSSIBLE:
                maybe.append(unit.name)
                reasons.extend(result.depends_on)
        shown = label(hex_)
        if value is None:
            out.append(VPTerm(check, rule, f"{shown} held", 0, unknown_most,
                              {"hex": hex_, "units": [u.name for u in units]},
                              (f"tables.json {table.id} cell {hex_}",)))
        elif supplied:
            out.append(VPTerm(check, rule, f"{shown} held by {supplied[0]} in supply", value, value,
                              {"hex": hex_, "unit": supplied[0], "vp": value}))
        elif maybe:
            out.append(VPTerm(check, rule, f"{shown} held by {', '.join(maybe)}, in supply only if "
                                           "data vlog lacks allow a trace", 0, value,
                              {"hex": hex_, "units": maybe, "vp": value}, tuple(sorted(set(reasons)))))
        else:
            out.append(VPTerm(check, rule, f"{shown} held only by units out of supply "
                                           f"({', '.join(u.name for u in units)})", 0, 0,
                              {"hex": hex_, "units_out_of_supply": [u.name for u in units], "vp": 0}))
    return out


@dataclass(frozen=True, slots=True)
class LevelReading:
    """A VP total read against a victory-level table: the table's levels, those whose range
    holds the total, those whose range the data lacks, and the known ranges."""

    labels: tuple[str, ...]
    matching: tuple[str, ...]
    unknown: tuple[str, ...]
    ranges: Mapping[str, Any]


def levels_for(table: Any, vp: int, axis: str = "level") -> LevelReading:
    """Which levels of a victory-level table (`gamedata.Table`) a VP total falls in."""
    labels = tuple(table.labels(axis).value or ())
    matching: list[str] = []
    unknown: list[str] = []
    ranges: dict[str, Any] = {}
    for label in labels:
        datum = table.lookup(label)
        if not datum.known:
            unknown.append(label)
            continue
        ranges[label] = datum.value
        low, high = datum.value
        if (low is None or vp >= low) and (high is None or vp <= high):
            matching.append(label)
    return LevelReading(labels, tuple(matching), tuple(unknown), ranges)


def level_name(label: str, separator: str = "-") -> str:
    """A level label as a report words it: "italian-tactical" -> "Italian tactical victory"."""
    side, kind = label.split(separator, 1)
    return f"{side.capitalize()} {kind} victory"


@dataclass(frozen=True, slots=True)
class LevelVerdict:
    """A declared level judged against the table: `why` one of "no such level" (not a level of
    the table), "another level" (`actual` holds the total), "range unknown" (the data lacks the
    range of the declared level and of every other level the total might be in), "outside its
    range" (of the declared level, no known level holding the total)."""

    ruling: Ruling
    why: str
    reading: LevelReading
    actual: str | None = None
    depends_on: tuple[str, ...] = ()


def judge_level(table: Any, vp: int, level: str, axis: str = "level") -> LevelVerdict | None:
    """Whether `level`, declared with `vp`, is what the victory-level table gives (None: it is)."""
    reading = levels_for(table, vp, axis)
    if level not in reading.labels:
        return LevelVerdict(Ruling.PROVEN, "no such level", reading)
    if level in reading.matching:
        return None
    if reading.matching:
        return LevelVerdict(Ruling.PROVEN, "another level", reading, reading.matching[0])
    if level in reading.unknown:
        return LevelVerdict(Ruling.POSSIBLE, "range unknown", reading,
                            depends_on=tuple(f"tables.json {table.id} cell {label}" for label in reading.unknown))
    return LevelVerdict(Ruling.PROVEN, "outside its range", reading)


@dataclass(frozen=True, slots=True)
class TotalVerdict:
    """A declared VP total judged against a tally: PROVEN when no reading gives it, POSSIBLE
    (naming the open terms' data) when it is one the open terms allow but not the only one."""

    ruling: Ruling
    depends_on: tuple[str, ...] = ()


def judge_total(tally: VPTally, vp: int) -> TotalVerdict | None:
    """Whether a declared total is the tally's (None: the tally gives it and no other)."""
    if tally.low == tally.high == vp:
        return None
    if not tally.low <= vp <= tally.high:
        return TotalVerdict(Ruling.PROVEN)
    return TotalVerdict(Ruling.POSSIBLE, tuple(sorted({d for t in tally.open_terms for d in t.depends_on})))


@dataclass(frozen=True, slots=True)
class VictoryClaim:
    """A VP total and the victory level declared with it."""

    vp: int
    level: str
    """The level as the table labels it, e.g. "italian-tactical"."""
    text: str


_VP = re.compile(r"(?<![\w-])(?P<vp>[-\u2212]?\d{1,4})\s*VPs?\b", re.IGNORECASE)


def _alternatives(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


@dataclass(frozen=True)
class ClaimReader:
    """Reads "<side> <kind> victory" and a VP total in one chat line; the level is labelled as
    the tables spell "<side><separator><kind>" (in lower case when no table has it)."""

    sides: tuple[str, ...]
    kinds: tuple[str, ...]
    separator: str = "-"
    labels: tuple[str, ...] = ()
    """The tables' level labels: a claim is labelled as the table spells it."""

    @classmethod
    def from_data(cls, data: Any, tables: Iterable[str], *, separator: str = "-",
                  axis: str = "level") -> "ClaimReader":
        """Sides from every scenario of `scenarios.json`; kinds from the level labels of the
        victory-level `tables` ("<side><separator><kind>")."""
        sides: list[str] = []
        for scenario in data.scenario_ids:
            sides.extend(data.scenario(scenario)["sides"].value or ())
        kinds: list[str] = []
        labels: list[str] = []
        for table in tables:
            for label in data.table(table).labels(axis).value or ():
                side, _, kind = str(label).partition(separator)
                if kind:
                    kinds.append(kind)
                    labels.append(str(label))
        return cls(tuple(dict.fromkeys(sides)), tuple(dict.fromkeys(kinds)), separator,
                   tuple(dict.fromkeys(labels)))

    def __post_init__(self) -> None:
        level = re.compile(rf"\b(?P<side>{_alternatives(self.sides)})\s+(?P<kind>{_alternatives(self.kinds)})"
                           r"\s+victory\b", re.IGNORECASE)
        object.__setattr__(self, "_level", level)
        object.__setattr__(self, "_spelled", {label.lower(): label for label in self.labels})

    def parse(self, text: str) -> VictoryClaim | None:
        """The VP total and level declared in one chat line, or None when the line has not both."""
        vp, level = _VP.search(text), self._level.search(text)      # type: ignore[attr-defined]
        if vp is None or level is None:
            return None
        total = int(vp.group("vp").replace("\u2212", "-"))
        label = f"{level.group('side').lower()}{self.separator}{level.group('kind').lower()}"
        return VictoryClaim(total, self._spelled.get(label, label), text.strip())   # type: ignore[attr-defined]
