"""The interface a game's rules engine plugs into the replay (`vlog.replay`).

A game turns each logged step into the actions its rules speak of (`interpret`) and judges each
action (`check`). The driver applies the step to the table once, whatever the verdict (the log
is what happened on the table), and hands the game the tables before and after it in
`Context.view`; `interpret` and `check` are also given the table before the step. A hook that
raises becomes a `vlog/internal` warning and the replay goes on.

Games are found by name with `find_game`. A game package `vlog.games.<package>` offers a rules
engine by defining `rules.py` with a `game()` factory returning a `Game`; packages that hold only
data (counters, map, tables) are listed as such when no engine exists yet.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Sequence

from vlog.errors import UnknownGameError
from vlog.findings import CheckInfo, Finding

if TYPE_CHECKING:  # pragma: no cover
    from vlog.dicestats import DiceRoll
    from vlog.kit.steps import StepView
    from vlog.table import Table
    from vlog.vassal.savefile import Step

__all__ = ["Action", "CheckSpec", "Context", "Game", "find_game", "known_games", "GAME_PACKAGES"]

GAME_PACKAGES: dict[str, str] = {
    "lion-of-judah": "lion_of_judah",
    "island-of-death": "island_of_death",
    "ascari": "ascari",
    "sideshow": "sideshow",
}
"""Game name (as the CLI and check ids spell it) -> package under vlog.games."""


@dataclass(frozen=True, slots=True)
class CheckSpec:
    """One rule a game checks: id from shared/docs/rules/<game>.md, rulebook reference, and
    whether it is implemented (and why not, when it is not)."""

    id: str
    rule: str
    description: str
    implemented: bool = True
    why_not: str | None = None

    def info(self) -> CheckInfo:
        return CheckInfo(self.id, self.rule, self.description)


@dataclass(frozen=True, slots=True)
class Action:
    """Something a step did in the game's terms ("move", "attack", "roll"), with the pieces it
    concerns and the step's data a check needs (the game defines `kind` and `data`)."""

    kind: str
    step: int
    pieces: tuple[str, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Context:
    """What a check may need beyond the table: the log, the step, its dice and the options."""

    log_path: str
    step: "Step | None"
    rolls: Sequence["DiceRoll"] = ()
    module: object | None = None
    referee: bool = False
    when: str | None = None
    """'Turn 3, Italian movement' when the game can tell; None otherwise."""
    memory: dict[str, Any] = field(default_factory=dict)
    """Scratch space a game keeps from step to step (phase, last combat, ...)."""
    view: "StepView | None" = None
    """The step being judged: its tables before and after (built once by the driver, read-only),
    its rolls and chats; at `end`, the final table with no step. None in `begin`."""


class Game:
    """Base class of a rules engine. Subclasses set `id` and `checks` and override the hooks."""

    id: ClassVar[str] = ""
    checks: ClassVar[tuple[CheckSpec, ...]] = ()

    def begin(self, table: "Table", ctx: Context) -> Iterable[Finding]:
        """Called once with the starting table (scenario setup checks)."""
        return ()

    def interpret(self, step: "Step", table: "Table", ctx: Context | None = None) -> Sequence[Action]:
        """The actions a step performs, read against the table before the step (`ctx` holds the
        step's dice rolls and the game's memory; the driver always passes it)."""
        return ()

    def check(self, action: Action, table: "Table", ctx: Context) -> Iterable[Finding]:
        """Findings about one action (the table is still as it was before the step)."""
        return ()

    def end(self, table: "Table", ctx: Context) -> Iterable[Finding]:
        """Called once with the final table (end-of-log checks)."""
        return ()

    def check_infos(self) -> tuple[CheckInfo, ...]:
        """The implemented checks, for the report's list of checks run."""
        return tuple(c.info() for c in self.checks if c.implemented)


def known_games() -> dict[str, bool]:
    """Every game package, with True where it has a rules engine (`rules.game`)."""
    out: dict[str, bool] = {}
    for name, package in GAME_PACKAGES.items():
        try:
            module = importlib.import_module(f"vlog.games.{package}.rules")
        except ModuleNotFoundError as exc:
            if exc.name != f"vlog.games.{package}.rules":
                raise
            out[name] = False
            continue
        out[name] = callable(getattr(module, "game", None))
    return out


def find_game(name: str) -> Game:
    """The rules engine for `name` ("lion-of-judah"); UnknownGameError names the games there are."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    games = known_games()
    if key in games and games[key]:
        module = importlib.import_module(f"vlog.games.{GAME_PACKAGES[key]}.rules")
        game = module.game()
        if not isinstance(game, Game):
            raise UnknownGameError(f"vlog.games.{GAME_PACKAGES[key]}.rules.game() is not a Game")
        return game
    with_rules = sorted(n for n, ok in games.items() if ok)
    data_only = sorted(n for n, ok in games.items() if not ok)
    engines = ", ".join(with_rules) if with_rules else "none yet"
    if key in games:
        raise UnknownGameError(
            f"no rules engine for {name!r} yet (only its game data); games with rules: {engines}")
    raise UnknownGameError(
        f"unknown game {name!r}; games with rules: {engines}; games with data only: "
        f"{', '.join(data_only) or 'none'}")
