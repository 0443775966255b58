"""Toy Skirmish: a small, complete, SYNTHETIC hex game that plugs into vlog as a fifth game would
(docs/adding-a-game.md). Its package, `toy_skirmish/`, is what would live under vlog/games/;
`installed()` puts it there for a test (one more entry in the list of games, and its folder on
vlog.games' path) without shipping it."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import vlog.games
from vlog.games import GameEntry

HERE = Path(__file__).resolve().parent
ENTRY = GameEntry("toy-skirmish", "toy_skirmish", "rules:ToySkirmish", aliases=("toy",))
FIXTURES = HERE / "fixtures"
"""The toy's fixture sets: toy-skirmish/ holds its module, start save, play scripts and logs."""


@contextmanager
def installed() -> Iterator[GameEntry]:
    """The toy listed among vlog's games while the block runs."""
    games, path = vlog.games.GAMES, list(vlog.games.__path__)
    vlog.games.GAMES = (*games, ENTRY)
    vlog.games.__path__.append(str(HERE))
    try:
        yield ENTRY
    finally:
        vlog.games.GAMES = games
        vlog.games.__path__[:] = path
