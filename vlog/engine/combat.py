"""Combat arithmetic shared by the games: odds, columns, shifts, DRMs, tables and losses.

The four rulebooks resolve combat differently (odds CRTs with column shifts in Lion of Judah and
Island of Death, strength-column CRTs in Sideshow, to-hit tables and melée differentials in
Ascari) but from the same parts, collected here so each game only states its own parameters:

* `odds_level` rounds attack:defence in the defender's favour to whole-number odds on one
  integer scale (1:1 = 0, 2:1 = 1, 1:2 = -1 ...), where column shifts are plain additions;
* `ColumnScale` turns a shifted level (or a differential, or a strength) into the column of a
  printed table, with the game's policy below the first and above the last column;
* `sum_shifts` / `sum_modifiers` add shifts and DRMs with per-group and overall caps;
* `CombatTable` looks a result up by column and die roll; a cell the rulebook does not give
  is `Unknown`, so a check can say which cell would settle it;
* `loss_violations`, `check_retreat`, `check_advance` are predicates on what the log shows
  after a combat.

Values may be `Unknown` (hidden strengths, missing factors); the functions propagate them.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar, Union

from vlog.engine.dice import DieRange, parse_range
from vlog.engine.judge import FALSE, TRUE, Explanation, Tri, Unknown, Verdict, judge
from vlog.errors import GameDataError

Number = Union[int, Fraction, float]
H = TypeVar("H", bound=Hashable)
K = TypeVar("K")

#: level standing for "infinite" odds (attack against a zero defence); clamps to the top column
INFINITE_LEVEL = 10**9


# ---------------------------------------------------------------------------------------------
# rounding helpers


def divide(value: Number, divisor: Number, rounding: str = "up") -> int:
    """value / divisor as a whole number, rounded "up", "down" or "half_up" (0.5 goes up).

    Lion of Judah 2.7 ("always round 0.5 up"), Island of Death 9.91 and Sideshow 8.31 ("round
    up") all halve this way; `halve(x)` is `divide(x, 2, "up")` for whole factors.
    """
    if divisor == 0:
        raise ZeroDivisionError("divide by zero")
    q = Fraction(value) / Fraction(divisor)
    if rounding == "up":
        return math.ceil(q)
    if rounding == "down":
        return math.floor(q)
    if rounding == "half_up":
        return math.floor(q + Fraction(1, 2))
    raise ValueError(f"unknown rounding {rounding!r}")


def halve(value: Number | Unknown, rounding: str = "up") -> int | Unknown:
    """Half of a factor total, rounded as the game says; an unknown total stays unknown."""
    if isinstance(value, Unknown):
        return Unknown._merge(value.data, 0)
    return divide(value, 2, rounding)


def average(values: Iterable[Number], rounding: str = "up") -> int:
    """Average rounded as told (Island of Death 11.1: morale averages round fractions up)."""
    items = list(values)
    if not items:
        raise ValueError("average of nothing")
    return divide(sum(Fraction(v) for v in items), len(items), rounding)


def majority(part: Number, whole: Number) -> bool:
    """More than half (Lion of Judah 12.8.1: a river counts when >50% of factors cross it)."""
    return part * 2 > whole


# ---------------------------------------------------------------------------------------------
# odds


def odds_level(attack: Number | Unknown, defense: Number | Unknown) -> int | Unknown:
    """Whole-number odds on one integer scale, rounded in the defender's favour.

    n:1 is level n-1 and 1:n is level -(n-1), so 1:1 is 0 and a column shift is +1 or -1
    (Island of Death 9.3e: "+1 ... would change 1:3 odds to 1:2, and ... 3:1 odds to 4:1").
    attack >= defence gives floor(attack/defence):1 (Lion of Judah 12.5: 15 to 4 -> 3-1);
    attack < defence gives 1:ceil(defence/attack) (3 to 4 -> 1-2). A zero defence against a
    positive attack is INFINITE_LEVEL; zero against a positive defence is -INFINITE_LEVEL;
    0 against 0 is level 0 (Lion of Judah errata 12.4 resolves it on 1:1; other games decide).
    """
    if isinstance(attack, Unknown) or isinstance(defense, Unknown):
        data = frozenset()
        for v in (attack, defense):
            if isinstance(v, Unknown):
                data |= v.data
        return Unknown._merge(data, 0)
    if attack < 0 or defense < 0:
        raise GameDataError(f"negative strength in {attack}:{defense}")
    if defense == 0:
        return INFINITE_LEVEL if attack > 0 else 0
    if attack == 0:
        return -INFINITE_LEVEL
    a, d = Fraction(attack), Fraction(defense)
    if a >= d:
        return math.floor(a / d) - 1
    return -(math.ceil(d / a) - 1)


def level_name(level: int) -> str:
    """'3:1', '1:2', '1:1' for a level; used in messages and table keys."""
    if level >= 0:
        return f"{level + 1}:1"
    return f"1:{-level + 1}"


_ODDS = re.compile(r"^\s*(\d{1,3})\s*[:\-]\s*(\d{1,3})\s*\+?\s*$")


def parse_odds(text: str) -> int:
    """The level of printed odds "3:1", "3-1", "1:2" or "7:1+"; other text is a GameDataError."""
    match = _ODDS.match(text) if isinstance(text, str) else None
    if not match:
        raise GameDataError(f"cannot read odds {str(text)[:40]!r}")
    a, d = int(match.group(1)), int(match.group(2))
    if a == 0 or d == 0 or (a != 1 and d != 1):
        raise GameDataError(f"odds {text!r} are not whole-number odds")
    return a - 1 if d == 1 else -(d - 1)


@dataclass(frozen=True, slots=True)
class ColumnChoice(Generic[K]):
    """The printed column a value lands on, or why it lands on none."""

    column: K | None
    cancelled: bool = False      # below the first column and the game cancels such attacks
    clamped: str | None = None   # "below" or "above" when the value was clamped to an end


@dataclass(frozen=True, slots=True)
class ColumnScale(Generic[K]):
    """The columns of a printed table and how out-of-range values are read.

    `columns` are sorted keys (odds levels, differentials or strength thresholds); a value
    uses the greatest column not above it ("round down to the next lower odds column",
    Island of Death 9.3g). `below` is "clamp" (Lion of Judah 12.4: lower than 1:3 resolves on
    1:3) or "cancel" (Island of Death 9.3g); above the last column always uses the last.
    """

    columns: tuple[K, ...]
    below: str = "clamp"

    def __post_init__(self) -> None:
        if not self.columns:
            raise GameDataError("a table needs at least one column")
        if list(self.columns) != sorted(self.columns):
            raise GameDataError(f"table columns are not in order: {self.columns!r}")
        if self.below not in ("clamp", "cancel"):
            raise ValueError(f"below must be 'clamp' or 'cancel', not {self.below!r}")

    def select(self, value) -> ColumnChoice[K] | Unknown:
        """The column for `value` (an `Unknown` value gives an `Unknown` column)."""
        if isinstance(value, Unknown):
            return Unknown._merge(value.data, 0)
        if value < self.columns[0]:
            if self.below == "cancel":
                return ColumnChoice(None, cancelled=True, clamped="below")
            return ColumnChoice(self.columns[0], clamped="below")
        if value > self.columns[-1]:
            return ColumnChoice(self.columns[-1], clamped="above")
        chosen = self.columns[0]
        for col in self.columns:
            if col <= value:
                chosen = col
            else:
                break
        return ColumnChoice(chosen)

    def shift(self, column: K | Unknown, by: int | Unknown) -> ColumnChoice[K] | Unknown:
        """Move `by` printed columns from `column` (right for positive).

        For tables whose shifts count printed columns rather than odds levels (Island of Death
        10.12 example: strength 5 starts on column 4, "+1 ... will be resolved on column 6").
        Off the left end follows `below`; off the right end stays on the last column.
        """
        if isinstance(column, Unknown) or isinstance(by, Unknown):
            data = frozenset()
            for v in (column, by):
                if isinstance(v, Unknown):
                    data |= v.data
            return Unknown._merge(data, 0)
        if column not in self.columns:
            raise GameDataError(f"no column {column!r}")
        index = self.columns.index(column) + by
        if index < 0:
            if self.below == "cancel":
                return ColumnChoice(None, cancelled=True, clamped="below")
            return ColumnChoice(self.columns[0], clamped="below")
        if index >= len(self.columns):
            return ColumnChoice(self.columns[-1], clamped="above")
        return ColumnChoice(self.columns[index])


def odds_columns(first: str, last: str, below: str = "clamp") -> ColumnScale[int]:
    """Every whole-number odds column from `first` to `last` ("1:3" to "7:1")."""
    lo, hi = parse_odds(first), parse_odds(last)
    if lo > hi:
        raise GameDataError(f"odds columns run backwards: {first} .. {last}")
    return ColumnScale(tuple(range(lo, hi + 1)), below)


# ---------------------------------------------------------------------------------------------
# shifts and modifiers


@dataclass(frozen=True, slots=True)
class Modifier:
    """A column shift or DRM with where it comes from; `group` shares a cap (e.g. "air")."""

    amount: int | Unknown
    source: str
    group: str | None = None


@dataclass(frozen=True, slots=True)
class ModifierTotal:
    """Summed modifiers: the capped total and, per group, what counted after capping."""

    total: int | Unknown
    by_group: Mapping[str, int]
    capped: tuple[str, ...] = ()


def sum_modifiers(modifiers: Iterable[Modifier],
                  group_caps: Mapping[str, tuple[int | None, int | None]] | None = None,
                  total_cap: tuple[int | None, int | None] = (None, None)) -> ModifierTotal:
    """Sum shifts or DRMs, capping each group then the total.

    Lion of Judah 12.4: air and HQ shifts at most two per side (group caps); Island of Death
    9.92: the morale modifier at most +3 and at least -2 (a group cap on "morale").
    """
    caps = group_caps or {}
    groups: dict[str, int] = {}
    data: frozenset[str] = frozenset()
    for mod in modifiers:
        if isinstance(mod.amount, Unknown):
            data |= mod.amount.data
            continue
        key = mod.group or ""
        groups[key] = groups.get(key, 0) + mod.amount
    capped: list[str] = []
    counted: dict[str, int] = {}
    for key, value in groups.items():
        lo, hi = caps.get(key, (None, None)) if key else (None, None)
        new = value
        if lo is not None and new < lo:
            new = lo
        if hi is not None and new > hi:
            new = hi
        if new != value:
            capped.append(key)
        counted[key] = new
    total = sum(counted.values())
    lo, hi = total_cap
    if lo is not None and total < lo:
        total, capped = lo, capped + ["total"]
    if hi is not None and total > hi:
        total, capped = hi, capped + ["total"]
    result: int | Unknown = Unknown._merge(data, 0) if data else total
    return ModifierTotal(result, counted, tuple(capped))


sum_shifts = sum_modifiers


def final_column(attack: Number | Unknown, defense: Number | Unknown, shifts: Iterable[Modifier],
                 scale: ColumnScale[int],
                 group_caps: Mapping[str, tuple[int | None, int | None]] | None = None):
    """Odds level, shifted on the unbounded scale, then read on the table's columns.

    Lion of Judah 12.4 step 6: "an attack at 6:1 with two column shifts to the right would
    shift the column to 8:1. Attacks ending at a ratio above 7:1 are resolved on the 7:1
    column". Returns (initial level, shifted level, ColumnChoice), any of which may be Unknown.
    """
    initial = odds_level(attack, defense)
    total = sum_modifiers(shifts, group_caps).total
    if isinstance(initial, Unknown) or isinstance(total, Unknown):
        data = frozenset()
        for v in (initial, total):
            if isinstance(v, Unknown):
                data |= v.data
        unknown = Unknown._merge(data, 0)
        return initial, unknown, unknown
    if abs(initial) >= INFINITE_LEVEL:
        shifted = initial
    else:
        shifted = initial + total
    return initial, shifted, scale.select(shifted)


# ---------------------------------------------------------------------------------------------
# result tables


_SIDE = re.compile(r"^\s*(-|\d+)?\s*([A-Za-z]*)\s*$")


@dataclass(frozen=True, slots=True)
class SideResult:
    """One side of a result: a number of steps or hits, and letter effects ("D", "Z", "A")."""

    number: int
    letters: str = ""


@dataclass(frozen=True, slots=True)
class CombatResult:
    """A CRT cell such as "2/1", "0/3+R" or "-/3D" read into attacker and defender parts."""

    attacker: SideResult
    defender: SideResult
    extras: tuple[str, ...] = ()
    text: str = ""


def parse_result(text: str) -> CombatResult:
    """Read "a/d[+X...]": numbers are steps or hits, "-" is none, letters are effects."""
    if not isinstance(text, str) or "/" not in text or len(text) > 40:
        raise GameDataError(f"cannot read combat result {str(text)[:40]!r}")
    head, *extras = text.split("+")
    left, _, right = head.partition("/")
    sides = []
    for part in (left, right):
        match = _SIDE.match(part)
        if not match:
            raise GameDataError(f"cannot read combat result {text!r}")
        number = 0 if match.group(1) in (None, "-") else int(match.group(1))
        sides.append(SideResult(number, match.group(2).upper()))
    cleaned = tuple(e.strip() for e in extras)
    if any(not e for e in cleaned):
        raise GameDataError(f"cannot read combat result {text!r}")
    return CombatResult(sides[0], sides[1], cleaned, text)


@dataclass(frozen=True, slots=True)
class CombatTable(Generic[K]):
    """A printed table read by column and (modified) die roll, with unknown cells as None.

    `rows` are the die ranges of the rows; `cells[(column, row_index)]` the printed text or
    None when the source does not give it. `lookup` returns the cell or an `Unknown` naming
    the cell, so a check can report "possible, depends on CRT 5:1 roll 3".
    """

    name: str
    columns: tuple[K, ...]
    rows: tuple[DieRange, ...]
    cells: Mapping[tuple[K, int], str | None] = field(default_factory=dict)
    column_label: Callable[[K], str] = str

    @classmethod
    def build(cls, name: str, columns: Sequence[K], rows: Sequence[str | int],
              cells: Mapping[tuple[K, str | int], str | None],
              column_label: Callable[[K], str] = str) -> "CombatTable[K]":
        """From row labels ("1", "2-3", "7+") and a partial cell map keyed by row label."""
        ranges = tuple(parse_range(str(r), where=f"{name} row {r!r}") for r in rows)
        index = {str(r): i for i, r in enumerate(rows)}
        out: dict[tuple[K, int], str | None] = {}
        for (col, row), text in cells.items():
            if col not in columns:
                raise GameDataError(f"{name}: no column {col!r}")
            if str(row) not in index:
                raise GameDataError(f"{name}: no row {row!r}")
            out[(col, index[str(row)])] = text
        return cls(name, tuple(columns), ranges, out, column_label)

    def row_of(self, roll: int) -> int | None:
        for i, rng in enumerate(self.rows):
            if roll in rng:
                return i
        return None

    def lookup(self, column: K | Unknown, roll: int | Unknown) -> str | Unknown:
        """The printed cell at column and roll, or `Unknown` naming what is missing."""
        if isinstance(column, Unknown) or isinstance(roll, Unknown):
            data = frozenset()
            for v in (column, roll):
                if isinstance(v, Unknown):
                    data |= v.data
            return Unknown._merge(data, 0)
        if column not in self.columns:
            raise GameDataError(f"{self.name} has no column {self.column_label(column)}")
        row = self.row_of(roll)
        if row is None:
            raise GameDataError(f"{self.name} has no row for roll {roll}")
        cell = self.cells.get((column, row))
        if cell is None:
            return Unknown(f"{self.name}: column {self.column_label(column)}, roll {self.rows[row]}")
        return cell

    def rolls_giving(self, column: K, accept: Callable[[str], bool]) -> tuple[set[int], set[int]]:
        """Rows (by roll low bound) whose cell certainly satisfies `accept`, and rows unknown.

        Used to judge a logged outcome: if no known cell fits and no cell is unknown, the
        outcome is proven wrong for that column.
        """
        fits: set[int] = set()
        unknown: set[int] = set()
        for i, rng in enumerate(self.rows):
            cell = self.cells.get((column, i))
            if cell is None:
                unknown.add(rng.low)
            elif accept(cell):
                fits.add(rng.low)
        return fits, unknown


@dataclass(frozen=True, slots=True)
class HitTable(Generic[K]):
    """A to-hit table: per column (range, firer class) the rolls that hit, and which hits are
    double. Ascari 4.5 prints the hitting rolls but marks double hits only by colour, which
    the text loses; `double` holds what is known ((column, roll) -> True/False), the rest of
    the hits are of unknown kind.
    """

    name: str
    hits: Mapping[K, DieRange]
    double: Mapping[tuple[K, int], bool] = field(default_factory=dict)
    all_double: frozenset = frozenset()   # columns whose every hit is double (stated in text)
    all_single: frozenset = frozenset()   # columns whose every hit is single

    def is_hit(self, column: K, roll: int) -> bool:
        if column not in self.hits:
            raise GameDataError(f"{self.name} has no column {column!r}")
        return roll in self.hits[column]

    def resolve(self, column: K, roll: int) -> str | Unknown:
        """"miss", "single" or "double", or `Unknown` naming the cell when the kind is lost."""
        if not self.is_hit(column, roll):
            return "miss"
        if column in self.all_double:
            return "double"
        if column in self.all_single:
            return "single"
        known = self.double.get((column, roll))
        if known is None:
            return Unknown(f"{self.name}: single or double hit at {column!r}, roll {roll}")
        return "double" if known else "single"


def shortfall(total: Number, rating: Number) -> Number:
    """How far a total exceeds a rating, never below 0 (Sideshow 6.43: "if the Attrition Total
    is 14 and a unit's Attrition rating is 11, that units suffers a 3 SP loss")."""
    return total - rating if total > rating else 0


@dataclass(frozen=True, slots=True)
class Reading(Generic[K]):
    """One way to read a logged combat: the column and modified roll it would use, and why."""

    column: K | None
    roll: int
    reason: str = ""
    cancelled: bool = False


def readings(levels: Iterable[tuple[int, str]], drms: Iterable[tuple[int, str]],
             scale: ColumnScale[int], roll: int, *, low: int | None = None,
             high: int | None = None) -> list[Reading[int]]:
    """Every (column, modified roll) pair the candidate shifted levels and DRM totals give.

    When the log leaves a shift or a DRM open (terrain unknown, air result unseen), list each
    candidate with a note; the readings feed `judge_outcome`.
    """
    from vlog.engine.dice import clamp

    out: list[Reading[int]] = []
    drm_list = list(drms)
    for level, why_level in levels:
        choice = scale.select(level)
        for drm, why_drm in drm_list:
            note = "; ".join(x for x in (why_level, why_drm) if x)
            if isinstance(choice, Unknown) or choice.cancelled:
                out.append(Reading(None, roll, note, cancelled=True))
                continue
            out.append(Reading(choice.column, clamp(roll + drm, low, high), note))
    return out


def judge_outcome(table: CombatTable[K], candidates: Iterable[Reading[K]],
                  fits: Callable[[str], bool | Unknown]) -> Verdict:
    """Does any reading of the combat give what the log shows?

    For each reading the printed cell is looked up: a known cell that `fits` the logged
    losses is a legal explanation, one that does not is a reason; an unknown cell makes the
    reading possible, naming the cell. A cancelled reading explains nothing.
    """
    explanations = []
    for reading in candidates:
        label = reading.reason or f"column {reading.column!r}, roll {reading.roll}"
        if reading.cancelled or reading.column is None:
            explanations.append(Explanation(FALSE, f"{label}: the attack is cancelled"))
            continue
        cell = table.lookup(reading.column, reading.roll)
        if isinstance(cell, Unknown):
            explanations.append(Explanation(Tri(None, cell.data), label))
            continue
        verdict = fits(cell)
        if isinstance(verdict, Unknown):
            explanations.append(Explanation(Tri(None, verdict.data), label))
        elif verdict:
            explanations.append(Explanation(TRUE, label, {"cell": cell}))
        else:
            explanations.append(Explanation(
                FALSE, f"{label}: {table.name} gives {cell} at "
                       f"{table.column_label(reading.column)}, roll {reading.roll}"))
    return judge(explanations)


# ---------------------------------------------------------------------------------------------
# hits and losses


def split_hits(hits: int, steps_rounding: str = "down") -> tuple[int, int]:
    """Hits as (step losses, retreat hexes): half the hits are steps, the rest retreat.

    Island of Death 9.42/9.43: the defender loses floor(hits/2) steps and the attacker
    ceil(hits/2); the remaining hits are hexes of retreat ("-/3D": one step, retreat two).
    """
    if hits < 0:
        raise ValueError("negative hits")
    steps = divide(hits, 2, steps_rounding)
    return steps, hits - steps


@dataclass(frozen=True, slots=True)
class LossTaker:
    """A unit as a loss check sees it: steps before, steps lost, and what the rules look at."""

    name: str
    steps: int
    lost: int
    attack: Number | None = None
    participated: bool = True
    tags: frozenset[str] = frozenset()


def loss_violations(units: Sequence[LossTaker], required: int, *,
                    spread_before_second: bool = False,
                    first_from_attacking_unit: bool = False,
                    first_from_largest: bool = False,
                    tag_share: tuple[str, int, int] | None = None) -> list[str]:
    """Why the losses taken break the rules (empty list when they fit).

    * every required step is taken, as far as the involved units have steps (extra losses are
      also wrong), and only involved units lose steps, none more than it had;
    * `spread_before_second` (Lion of Judah 12.11): "No unit may take a second step loss until
      all units involved in the combat have absorbed at least one step loss";
    * `first_from_attacking_unit` (12.11): "The first step loss taken by the attacker may not
      be a unit with zero attack strength, unless that is all they have involved";
    * `first_from_largest` (Lion of Judah 12.11 example: "The 4-step unit must take the first
      step loss before either of the one-step units is eliminated"): some unit with the most
      steps lost a step;
    * `tag_share=(tag, num, den)` (Island of Death 9.92 engineers): at least num/den of the
      losses (rounded up) fall on units with `tag`, unless every such unit is eliminated.
    """
    problems: list[str] = []
    involved = [u for u in units if u.participated]
    for u in units:
        if u.lost < 0:
            problems.append(f"{u.name} shows a negative loss")
        if u.lost > u.steps:
            problems.append(f"{u.name} lost {u.lost} steps but had {u.steps}")
        if not u.participated and u.lost > 0:
            problems.append(f"{u.name} lost {u.lost} step(s) but was not in the combat")
    available = sum(u.steps for u in involved)
    due = min(required, available)
    taken = sum(u.lost for u in involved)
    if taken != due:
        problems.append(f"{taken} step(s) taken, {due} due")
    if spread_before_second and any(u.lost >= 2 for u in involved):
        missing = [u.name for u in involved if u.lost == 0 and u.steps > 0]
        if missing:
            problems.append("a unit took a second step loss before "
                            + ", ".join(missing) + " took one")
    if first_from_attacking_unit and taken > 0:
        attackers = [u for u in involved if u.attack]
        if attackers and not any(u.lost > 0 for u in attackers):
            problems.append("the first loss came from a unit with no attack strength")
    if first_from_largest and taken > 0 and involved:
        most = max(u.steps for u in involved)
        if not any(u.lost > 0 for u in involved if u.steps == most):
            problems.append(f"the first loss must come from a unit with {most} steps")
    if tag_share is not None and taken > 0:
        tag, num, den = tag_share
        tagged = [u for u in involved if tag in u.tags]
        if tagged:
            need = divide(taken * num, den, "up")
            got = sum(u.lost for u in tagged)
            all_gone = all(u.lost >= u.steps for u in tagged)
            if got < need and not all_gone:
                problems.append(f"only {got} of the {taken} losses fell on {tag} units; "
                                f"at least {need} must")
    return problems


# ---------------------------------------------------------------------------------------------
# retreat and advance


def check_retreat(path: Sequence[H], *, length: int | tuple[int, int],
                  neighbours: Callable[[H], Iterable[H]],
                  may_enter: Callable[[H], bool],
                  distance: Callable[[H], int] | None = None,
                  revisit: bool = False) -> list[str]:
    """Why a retreat path breaks the rules (empty list when it fits).

    `path` starts at the hex retreated from. `length` is exact or (min, max) hexes; each hex
    must be adjacent to the previous, enterable (`may_enter`), not revisited, and, when
    `distance` (to the attack hex or the enemy) is given, each step must increase it.
    """
    problems: list[str] = []
    if not path:
        return ["empty retreat path"]
    lo, hi = (length, length) if isinstance(length, int) else length
    hexes = len(path) - 1
    if not lo <= hexes <= hi:
        problems.append(f"retreated {hexes} hex(es); {lo if lo == hi else f'{lo}-{hi}'} required")
    seen = {path[0]}
    for a, b in zip(path, path[1:]):
        if b not in set(neighbours(a)):
            problems.append(f"{b} is not adjacent to {a}")
        if not may_enter(b):
            problems.append(f"{b} may not be entered in a retreat")
        if not revisit and b in seen:
            problems.append(f"{b} entered twice")
        seen.add(b)
        if distance is not None and distance(b) <= distance(a):
            problems.append(f"{a} -> {b} does not move away")
    return problems


def find_retreats(start: H, *, length: int, neighbours: Callable[[H], Iterable[H]],
                  may_enter: Callable[[H], bool], distance: Callable[[H], int] | None = None,
                  limit: int = 100) -> list[tuple[H, ...]]:
    """Legal retreat paths of exactly `length` hexes (up to `limit`); [] means none exists,
    which in most games eliminates the unit."""
    out: list[tuple[H, ...]] = []
    if length < 0 or limit <= 0:
        return out

    def walk(path: tuple[H, ...]) -> None:
        if len(out) >= limit:
            return
        if len(path) - 1 == length:
            out.append(path)
            return
        here = path[-1]
        for nxt in neighbours(here):
            if nxt in path or not may_enter(nxt):
                continue
            if distance is not None and distance(nxt) <= distance(here):
                continue
            walk(path + (nxt,))

    walk((start,))
    return out


def best_retreats(start: H, *, length: int, neighbours: Callable[[H], Iterable[H]],
                  may_enter: Callable[[H], bool], rank: Callable[[tuple[H, ...]], object],
                  distance: Callable[[H], int] | None = None,
                  limit: int = 10_000) -> list[tuple[H, ...]]:
    """The legal retreat paths the rules prefer: those with the lowest `rank`.

    Island of Death 9.61 ranks destinations (not in enemy ZOC, then farther from the enemy,
    then friendly-occupied in ZOC, then empty in ZOC); a logged retreat that is legal but not
    among the best paths broke the priority. At most `limit` paths are considered.
    """
    paths = find_retreats(start, length=length, neighbours=neighbours, may_enter=may_enter,
                          distance=distance, limit=limit)
    if not paths:
        return []
    ranks = [rank(p) for p in paths]
    low = min(ranks)  # type: ignore[type-var]
    return [p for p, r in zip(paths, ranks) if r == low]


def check_advance(path: Sequence[H], *, attacked: H, max_hexes: int,
                  neighbours: Callable[[H], Iterable[H]], may_enter: Callable[[H], bool]) -> list[str]:
    """Why an advance after combat breaks the rules: it must begin by entering the attacked
    hex, go hex by hex, enter only allowed hexes and stay within `max_hexes`."""
    problems: list[str] = []
    if len(path) < 2:
        return problems  # no advance
    if path[1] != attacked:
        problems.append(f"the advance must first enter {attacked}, not {path[1]}")
    if len(path) - 1 > max_hexes:
        problems.append(f"advanced {len(path) - 1} hexes; at most {max_hexes}")
    for a, b in zip(path, path[1:]):
        if b not in set(neighbours(a)):
            problems.append(f"{b} is not adjacent to {a}")
        if not may_enter(b):
            problems.append(f"{b} may not be entered in an advance")
    return problems


def concentric(directions: Iterable[int]) -> bool:
    """Lion of Judah 12.9: attackers from two directly opposite hexes, from three hexes with
    one hex between each, or from more than three hexes (directions 0-5 around the defender)."""
    dirs = {d % 6 for d in directions}
    if len(dirs) > 3:
        return True
    if any((d + 3) % 6 in dirs for d in dirs):
        return True
    return any({d, (d + 2) % 6, (d + 4) % 6} <= dirs for d in dirs)
