"""A side's account of points to spend: operation points, replacement points, any budget a game
gains by rolls or schedules, spends one action at a time and saves, up to a cap, to the next period.

A gain may rest on a table cell the data lacks (`Unknown`, with bounds where the rules give
them), so the account holds the balance as a range, low to high, and the data the range rests
on. Spending is judged against the range: more than the high end is an overspend whatever the
missing data say (PROVEN); more than the low end only an overspend on some readings of it
(POSSIBLE, naming the data). The account never refuses a spend: the log is what happened, and
after an overspend the balance stands at nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Union

from vlog.engine.judge import Ruling, Unknown

__all__ = ["Account", "Overspend"]

Amount = Union[int, Unknown]


@dataclass(frozen=True, slots=True)
class Overspend:
    """A spend the balance did not cover: PROVEN when even the high end falls short, POSSIBLE
    when only the low end does (`depends_on` names the data that would settle it)."""

    ruling: Ruling
    cost: int
    low: int
    high: int | None
    """The balance before the spend; None: no upper bound known."""
    depends_on: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Account:
    """A balance from `low` to `high` (None: no upper bound known) and the data it rests on."""

    low: int = 0
    high: int | None = 0
    depends_on: frozenset[str] = frozenset()

    @property
    def exact(self) -> int | None:
        """The balance when the range is one number, else None."""
        return self.low if self.high == self.low else None

    def gain(self, amount: Amount) -> "Account":
        """The account after a gain: a number, or an Unknown (its bounds widen the range)."""
        if isinstance(amount, Unknown):
            top = amount.at_most
            high = None if self.high is None or top is None else self.high + int(top)
            return Account(self.low + int(amount.at_least), high, self.depends_on | amount.data)
        return replace(self, low=self.low + amount, high=None if self.high is None else self.high + amount)

    def spend(self, cost: int = 1) -> "tuple[Account, Overspend | None]":
        """The account after spending `cost`, and the overspend when the balance did not cover it."""
        if self.high is not None and self.high < cost:
            return Account(0, 0), Overspend(Ruling.PROVEN, cost, self.low, self.high)
        if self.low < cost:
            short = Overspend(Ruling.POSSIBLE, cost, self.low, self.high, tuple(sorted(self.depends_on)))
            return Account(0, None if self.high is None else self.high - cost, self.depends_on), short
        return replace(self, low=self.low - cost, high=None if self.high is None else self.high - cost), None

    def saved(self, cap: int) -> "Account":
        """What may be kept for the next period: the balance, at most `cap`."""
        high = cap if self.high is None else min(self.high, cap)
        return Account(min(self.low, cap), high, self.depends_on if self.low < high else frozenset())

    def lost(self) -> "Account":
        """Nothing left (a forfeit)."""
        return Account()
