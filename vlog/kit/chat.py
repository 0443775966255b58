"""Chat declarations: the grammars of what players type to say what a log cannot show.

A VASSAL log records where pieces went and which dice were rolled, not which hex was attacked
or which leader was activated; players in PBEM type it in chat (``Attack 1605 with Sb``). A game
adds each grammar it reads to its `ChatGrammars` under a name, and reads a step's declarations of
that grammar from the step's chat lines (`vlog.kit.steps.StepView.chats`). A grammar reads the
lines players typed; one registered with `reports=True` also reads VASSAL's report lines (those
starting with ``*``). Lines are told apart by their command class (`Chat`), never by name.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Generic, Iterable, Iterator, TypeVar

from vlog.vassal.commands import Chat, Command

__all__ = ["ChatGrammars", "Grammar", "names_listed"]

_LIST = re.compile(r",|\band\b")


def names_listed(text: str) -> tuple[str, ...]:
    """The names a declaration lists, as players write them: ``Sb, 2E and 3E`` -> ('Sb', '2E',
    '3E') (commas or "and", the spaces around each name dropped, empty ones passed over)."""
    return tuple(n.strip() for n in _LIST.split(text) if n.strip())

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Grammar(Generic[T]):
    """One kind of declaration: its name, the parser of one chat line (None: not this kind)
    and whether report lines are read too."""

    name: str
    parse: Callable[[Chat], T | None]
    reports: bool = False


class ChatGrammars:
    """The chat grammars one game reads, by name."""

    def __init__(self) -> None:
        self._grammars: dict[str, Grammar] = {}

    def add(self, name: str, parse: Callable[[Chat], T | None], *, reports: bool = False) -> Grammar[T]:
        """Register a grammar; a name is registered once."""
        if name in self._grammars:
            raise ValueError(f"chat grammar {name!r} is already registered")
        grammar = self._grammars[name] = Grammar(name, parse, reports)
        return grammar

    def __contains__(self, name: object) -> bool:
        return name in self._grammars

    def __iter__(self) -> Iterator[Grammar]:
        return iter(self._grammars.values())

    def read(self, name: str, lines: Iterable[Command]) -> list:
        """What grammar `name` reads in these commands, in order (commands other than chat
        lines, and lines it does not read, are passed over)."""
        grammar = self._grammars[name]
        out = []
        for line in lines:
            if isinstance(line, Chat) and (grammar.reports or not line.is_report):
                value = grammar.parse(line)
                if value is not None:
                    out.append(value)
        return out
