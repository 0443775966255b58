"""A unit's movement allowance as the rules adjust it, each adjustment noted for the evidence.

Every game's allowance is a printed factor changed by a few rules in a fixed order: set to a
value (a dummy's face), capped (a turn's limit), halved (out of supply), raised (trucks) or
lowered (interdiction, demoralization) but not below a floor, or not at all when that would
leave no more than some minimum. `Allowance` applies them in the order the game calls them and
keeps a note of each, so a finding names what made the allowance what it is. An unknown factor
(`Unknown`) is capped and halved as the data allow and left as is by additions and reductions
(they would only widen what is already unknown).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vlog.engine.combat import halve
from vlog.engine.judge import Unknown

__all__ = ["Allowance"]


@dataclass(slots=True)
class Allowance:
    """The allowance so far (`value`: a number, an `Unknown`, or None when the data lack it)
    and the notes of the adjustments made."""

    value: Any
    notes: list[str] = field(default_factory=list)

    @property
    def known(self) -> bool:
        return self.value is not None and not isinstance(self.value, Unknown)

    def note(self, text: str) -> "Allowance":
        """A remark with no change (a condition the log leaves open)."""
        self.notes.append(text)
        return self

    def set(self, value: Any, note: str | None = None) -> "Allowance":
        """The allowance becomes `value`; `note` is kept only when that changes it."""
        if note is not None and self.value != value:
            self.notes.append(note)
        self.value = value
        return self

    def cap(self, limit: Any, note: str) -> "Allowance":
        """At most `limit` (an unknown allowance becomes the limit: it can be no more)."""
        if self.value is not None and (isinstance(self.value, Unknown) or self.value > limit):
            self.value = limit
            self.notes.append(note)
        return self

    def halve(self, note: str, rounding: str = "up") -> "Allowance":
        """Half, rounded as the game says (an unknown allowance stays unknown)."""
        if self.value is not None:
            self.value = halve(self.value, rounding)
            self.notes.append(note)
        return self

    def add(self, amount: Any, note: str | None = None) -> "Allowance":
        """`amount` more (a known allowance only)."""
        if self.known:
            self.value = self.value + amount
            if note is not None:
                self.notes.append(note)
        return self

    def less(self, amount: Any, note: str | None = None, *, floor: Any = None,
             above: Any = None) -> "Allowance":
        """`amount` less, never below `floor`; with `above`, only when the allowance is more
        than `above` (a reduction left unapplied where it would leave too little)."""
        if not self.known or (above is not None and not self.value > above):
            return self
        value = self.value - amount
        self.value = value if floor is None else max(floor, value)
        if note is not None:
            self.notes.append(note)
        return self

    def pair(self) -> tuple[Any, list[str]]:
        """(value, notes), as the checks pass them on."""
        return self.value, self.notes
