"""Which named Random Events take effect (16.2): who must roll each, the months it takes effect
in, whether it happens only once, and the events it depends on (G only after H; P only before H;
T is an A the German rolls from June 1915; C counts at most once a turn). The players name the
letter a roll gave (checks/random_events.py keeps each named roll); where the log does not say
the roller or the month, an occurrence may take effect (MAYBE), and `unsettled` says what in the
log leaves an occurrence open.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .common import ALLIED, GERMAN
from .random_events import Named, year_month

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sideshow

__all__ = ["YES", "MAYBE", "WINDOWS", "effective", "unsettled"]

YES, MAYBE = "yes", "maybe"
START = (1914, 9)
WINDOWS = {"A": (GERMAN, (1915, 3), (1915, 5)), "B": (GERMAN, (1916, 3), (1916, 5)), "C": (None, (1915, 1), None),
           "H": (ALLIED, (1915, 12), None), "G": (ALLIED, (1916, 3), None), "R": (None, (1916, 1), None),
           "F": (None, (1917, 1), None), "M": (None, START, None), "P": (GERMAN, START, None)}
"""Who must roll the event and the months it takes effect in (16.2)."""
ONCE = frozenset("ABHGRFMP")


def effective(game: "Sideshow", letter: str) -> list[tuple[Named, str]]:
    """The named occurrences of event `letter` that take effect (YES) or may (MAYBE), in order
    (16.2: roller, months, once only; C at most once a turn; T is an A the German rolls from June 1915)."""
    out: list[tuple[Named, str]] = []
    turns_of_c: set[int] = set()
    for named in game.random_events.named:
        status = _status(game, named, letter, out, turns_of_c)
        if status is not None:
            out.append((named, status))
    return out


def _status(game: "Sideshow", named: Named, letter: str, before: list, turns_of_c: set[int]) -> str | None:
    month = year_month(game, named.turn)
    if letter == "T":
        if named.letter == "T":
            return YES
        if named.letter != "A":
            return None
        if named.side is None or month is None:
            return MAYBE
        return YES if named.side == GERMAN and month >= (1915, 6) else None
    if named.letter != letter:
        return None
    roller, first, last = WINDOWS[letter]
    if month is None or (roller is not None and named.side is None):
        return MAYBE
    if (roller is not None and named.side != roller) or month < first or (last is not None and month > last):
        return MAYBE if letter == "R" and month[0] == 1915 else None   # 16.2 R leaves 1915 open
    if letter == "C":
        if named.turn in turns_of_c:
            return None                                        # more than once in a turn: no event
        turns_of_c.add(named.turn)
    if letter in ONCE and any(s == YES for _, s in before):
        return None
    if letter == "G":
        queen = [s for n, s in effective(game, "H") if n.step is None or named.step is None or n.step < named.step]
        if YES not in queen:
            return MAYBE if queen else None
    if letter == "P":                                          # only while Lake Tanganyika is German
        queen = [s for n, s in effective(game, "H") if n.step is None or named.step is None or n.step < named.step]
        if YES in queen:
            return None
        if queen:
            return MAYBE
    return MAYBE if any(s == MAYBE for _, s in before) else YES


def unsettled(game: "Sideshow") -> list[str]:
    """What would settle an event's occurrence that the log leaves open (empty: nothing)."""
    ledger = game.random_events
    if not any(m.labelled or m.events for m in ledger.months.values()):
        return ["the log's labelled rolls (`event` before each Random Event roll)"]
    if ledger.unnamed():
        return [f"the letter of {ledger.unnamed()} Random Event roll(s) the players did not name"]
    return []
