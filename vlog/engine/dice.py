"""Die rolls as the tables read them: ranges like "1-4" or "5+", modified rolls and clamps.

Every game here rolls d6s; tables index rows by a die range, modifiers are summed with caps and
the modified roll is clamped to the table's rows (Lion of Judah 12.7: above 7 counts as 7, below
1 as 1). Keeping these in one place means each table reads its rows the same way.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from vlog.errors import GameDataError

_RANGE = re.compile(r"^\s*(-?\d+)\s*(?:(\+)|(?:-|–|to)\s*(-?\d+))?\s*$")


@dataclass(frozen=True, slots=True, order=True)
class DieRange:
    """An inclusive range of (modified) rolls; `high` None means "or more" ("5+")."""

    low: int
    high: int | None

    def __contains__(self, roll: object) -> bool:
        if not isinstance(roll, int) or isinstance(roll, bool):
            return False
        return roll >= self.low and (self.high is None or roll <= self.high)

    def __str__(self) -> str:
        if self.high is None:
            return f"{self.low}+"
        if self.high == self.low:
            return str(self.low)
        return f"{self.low}-{self.high}"


def parse_range(text: str, *, where: str | None = None) -> DieRange:
    """Read "3", "1-4", "1 – 4", "5+" or "2 to 6" as a `DieRange`; bad text is a GameDataError."""
    if not isinstance(text, str):
        raise GameDataError(f"die range must be text, not {type(text).__name__}", where=where)
    match = _RANGE.match(text) if len(text) <= 20 else None
    if not match or any(g and len(g.lstrip("-")) > 3 for g in (match.group(1), match.group(3))):
        raise GameDataError(f"cannot read die range {text[:40]!r}", where=where)
    low = int(match.group(1))
    if match.group(2):
        return DieRange(low, None)
    high = int(match.group(3)) if match.group(3) is not None else low
    if high < low:
        raise GameDataError(f"die range {text!r} runs backwards", where=where)
    return DieRange(low, high)


def clamp(value: int, low: int | None, high: int | None) -> int:
    """Clamp to [low, high]; either bound may be None (open)."""
    if low is not None and value < low:
        return low
    if high is not None and value > high:
        return high
    return value


def capped_sum(values: Iterable[int], low: int | None = None, high: int | None = None) -> int:
    """Sum then cap (Island of Death 9.92: the morale modifier is at most +3 and at least -2)."""
    return clamp(sum(values), low, high)


def modified_roll(roll: int, modifiers: Iterable[int] = (), *, low: int | None = None,
                  high: int | None = None, drm_low: int | None = None,
                  drm_high: int | None = None) -> int:
    """The roll plus its summed modifiers (themselves capped to [drm_low, drm_high]), clamped.

    Lion of Judah 12.7: "Any die roll result modified to a number greater than seven is
    considered seven, and any result modified to less than one is considered one" is
    `modified_roll(r, drms, low=1, high=7)`.
    """
    return clamp(roll + capped_sum(modifiers, drm_low, drm_high), low, high)


def check_roll(roll: object, dice: int = 1, sides: int = 6) -> int:
    """A logged natural roll as an int, or GameDataError when no such roll exists on the dice."""
    if not isinstance(roll, int) or isinstance(roll, bool):
        raise GameDataError(f"a die roll must be a whole number, not {roll!r}")
    if not dice <= roll <= dice * sides:
        raise GameDataError(f"{roll} cannot be rolled on {dice}d{sides}")
    return roll


def sequential_2d6(first: int, second: int) -> int:
    """Two d6 read as tens and units (Sideshow 16.0: a 2 then a 3 reads "23")."""
    check_roll(first)
    check_roll(second)
    return first * 10 + second


def row_for(roll: int, rows: Sequence[DieRange]) -> int | None:
    """Index of the row whose range holds the roll, None when no row does."""
    for index, rng in enumerate(rows):
        if roll in rng:
            return index
    return None
