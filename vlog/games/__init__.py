"""The games vlog knows: one explicit list, from which every other list of game names is derived.

Each entry gives a game's id (as the CLI, the data files and check ids spell it), the other
names a user may type for it, its package under vlog.games (its data/ and, once it has one, its
rules engine) and its engine class as "module:Class" relative to that package, None while the
game has data only. The list imports no game: `vlog.gamedata`, the CLI and the converters read
it, and an engine is loaded only when asked for (`vlog.games.base.find_game`).

A fifth game is one more entry here and a package beside the others (docs/adding-a-game.md).
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

__all__ = ["GAMES", "GameEntry", "game_ids", "lookup", "nearest"]


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game: its id, the names it is also found by, its package and its engine class."""

    id: str
    package: str
    engine: str | None = None
    """'rules:LionOfJudah' = vlog.games.<package>.rules.LionOfJudah; None: data only."""
    aliases: tuple[str, ...] = ()

    @property
    def module(self) -> str:
        """The package's dotted name, 'vlog.games.lion_of_judah'."""
        return f"{__name__}.{self.package}"


GAMES: tuple[GameEntry, ...] = (
    GameEntry("lion-of-judah", "lion_of_judah", "rules:LionOfJudah", aliases=("loj",)),
    GameEntry("island-of-death", "island_of_death", "rules:IslandOfDeath", aliases=("iod",)),
    GameEntry("ascari", "ascari", "rules:Ascari"),
    GameEntry("sideshow", "sideshow", "rules:Sideshow"),
)


def _key(name: str) -> str:
    """How names are compared: case, spaces and underscores do not matter."""
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def _names() -> dict[str, GameEntry]:
    """Every name a game is found by (id, package, aliases) -> its entry."""
    return {_key(n): g for g in GAMES for n in (g.id, g.package, *g.aliases)}


def game_ids() -> tuple[str, ...]:
    """Every game's id, in the list's order."""
    return tuple(g.id for g in GAMES)


def lookup(name: str) -> GameEntry | None:
    """The game `name` names ('Lion of Judah', 'lion_of_judah', 'loj'), or None."""
    return _names().get(_key(name))


def nearest(name: str) -> str | None:
    """The id of the game whose name is closest to a mistyped `name`, or None when none is close."""
    names = _names()
    close = difflib.get_close_matches(_key(name), list(names), n=1, cutoff=0.6)
    return names[close[0]].id if close else None
