"""Rolls said for named pieces: a chat line says what the next roll is for and whose it is.

A VASSAL log records a dice button's report, never the piece it was rolled for. Where a rule
rolls once per unit (a landing loss, a leader's casualty roll), players say it in chat:

    landing loss 1/33, 2/33        (then two one-die rolls)
    leader casualty Beak           (then one two-dice roll)

`roll_for_parser` reads such lines for the phrases a game names (phrase -> kind), and a
`RollQueue` binds each named piece, in the order said, to the next roll of its kind's dice;
rolls of another number of dice (a combat's roll in between) are passed over. A declaration
left unrolled is `pending` until the game drops it.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from vlog.kit.chat import names_listed

__all__ = ["BoundRoll", "RollFor", "RollQueue", "roll_for_parser"]


@dataclass(frozen=True, slots=True)
class RollFor:
    """A chat line's declaration: the kind of roll and the piece names it is for."""

    kind: str
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BoundRoll:
    """One named piece's roll: its kind, the name, the step it was said and rolled at, the total."""

    kind: str
    name: str
    declared_step: int | None
    total: int
    roll_step: int | None




def roll_for_parser(phrases: Mapping[str, str]) -> Callable[[Any], RollFor | None]:
    """A chat grammar (vlog/kit/chat.py) reading `PHRASE NAME[, NAME ...]` for each phrase (a
    regular expression, matched without regard to case, as the line's start) -> its kind."""
    compiled = [(re.compile(rf"\s*(?:{phrase})\s*(?:roll\s*)?(?:for\s+|:\s*)?(.+?)\s*\.?\s*$", re.IGNORECASE), kind)
                for phrase, kind in phrases.items()]

    def parse(line: Any) -> RollFor | None:
        for pattern, kind in compiled:
            match = pattern.match(line.message)
            if match is not None and (names := names_listed(match.group(1))):
                return RollFor(kind, names)
        return None

    return parse


class RollQueue:
    """The declared rolls waiting for their dice, bound in the order said. `dice`: kind -> the
    number of dice one roll of that kind is."""

    def __init__(self, dice: Mapping[str, int]) -> None:
        self.dice = dict(dice)
        self.pending: list[tuple[str, str, int | None]] = []
        """(kind, name, declared step) still waiting for a roll, oldest first."""

    def declare(self, declaration: RollFor, step: int | None) -> None:
        if declaration.kind not in self.dice:
            raise KeyError(f"no dice are known for a {declaration.kind!r} roll")
        self.pending += [(declaration.kind, name, step) for name in declaration.names]

    def observe(self, rolls: Iterable[Any], step: int | None) -> list[BoundRoll]:
        """The rolls of one step (each with `n_dice` and `total`) bound to the declarations
        waiting for them: a roll goes to the oldest declaration wanting that many dice."""
        out: list[BoundRoll] = []
        for roll in rolls:
            total, n_dice = getattr(roll, "total", None), getattr(roll, "n_dice", None)
            if not isinstance(total, int):
                continue
            for i, (kind, name, declared) in enumerate(self.pending):
                if self.dice[kind] == n_dice:
                    del self.pending[i]
                    out.append(BoundRoll(kind, name, declared, total, step))
                    break
        return out

    def drop(self, kinds: Iterable[str] | None = None) -> list[tuple[str, str, int | None]]:
        """Forget the pending declarations (of `kinds`, or all) and return them: the occasion
        they were said for is over."""
        kinds = None if kinds is None else set(kinds)
        gone = [p for p in self.pending if kinds is None or p[0] in kinds]
        self.pending = [p for p in self.pending if p not in gone]
        return gone
