"""Answers kept from one position to the next while what they were worked out from stays equal.

`Position.derived` keeps an answer for one position; most steps change little, so an answer
that reads only some of the table (one side's units, a ledger's state) is often the same at the
next step. A `Recall` holds the last answer with the inputs it was built from and builds it
again only when the inputs given differ: the inputs must hold everything the answer reads, as
values that compare equal exactly when the answer would be the same (units, tuples, frozen
copies of a ledger's sets). Unchanged units are the very same objects from step to step, so
comparing them costs little.
"""
from __future__ import annotations

from typing import Callable, Generic, TypeVar

__all__ = ["Recall"]

T = TypeVar("T")
_NONE = object()


class Recall(Generic[T]):
    """The last answer and its inputs (one pair: the memory stays the size of one answer)."""

    __slots__ = ("_inputs", "_answer", "built")

    def __init__(self) -> None:
        self._inputs: object = _NONE
        self._answer: T | None = None
        self.built = 0
        """How many times an answer was built (what the recall saved is seen in tests)."""

    def get(self, inputs: object, build: Callable[[], T]) -> T:
        """The answer for `inputs`: the last one if they equal the last inputs, else `build()`."""
        if self._inputs is _NONE or inputs != self._inputs:
            self._answer = build()
            self._inputs = inputs
            self.built += 1
        return self._answer  # type: ignore[return-value]
