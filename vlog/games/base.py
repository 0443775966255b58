"""The interface a game's rules engine plugs into the replay (`vlog.replay`).

A game turns each logged step into the events its rules speak of (`interpret`: typed events,
`vlog.kit.steps.Event`, whose `kind` the inventory's occasions name) and judges each event
(`check`). The driver applies the step to the table once, whatever the verdict (the log
is what happened on the table), and hands the game the tables before and after it in
`Context.view`; `interpret` and `check` are also given the table before the step. A hook that
raises becomes a `vlog/internal` warning and the replay goes on.

Games are found by name with `find_game`, from the list in `vlog.games`: an entry names the
`Game` subclass of its package, built with the game's data (`cls(data)`, None for the shipped
data); a game with data only (counters, map, tables) has no engine class yet.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Sequence

import vlog.games
from vlog.errors import UnknownGameError
from vlog.findings import CheckInfo, Finding, Tally
from vlog.kit.registry import CheckSpec

if TYPE_CHECKING:  # pragma: no cover
    from vlog.dicestats import DiceRoll
    from vlog.gamedata import GameData
    from vlog.kit.steps import Event, StepView
    from vlog.table import Table
    from vlog.vassal.savefile import Step

__all__ = ["CheckSpec", "Clock", "Context", "Game", "find_game", "known_games"]


@dataclass(frozen=True, slots=True)
class Clock:
    """Where a game stands in its scenario's sequence of play, as its engine follows it: a log
    that starts at the scenario's opening after the previous log played past it starts a game
    of its own (vlog/judging.py)."""

    scenario: str
    turn: int
    order: int
    """The phase's place in its turn."""
    opening: bool
    """The scenario's first turn and phase: the game has not gone past its start."""
    label: str
    """'Turn 1, initial-segment', as findings name the phase."""

    def past(self, other: "Clock") -> bool:
        """Whether this is later in the game than `other`, or in another scenario."""
        return self.scenario != other.scenario or (self.turn, self.order) > (other.turn, other.order)


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
    tally: Tally = field(default_factory=Tally)
    """Where a game may say what its checks met beyond what the driver counts (the occasions of
    the inventory, the findings): an occasion judged or not settled, data it lacks."""
    continues: bool = False
    """The log starts where the previous one this engine judged in the run ended: one game, whose
    history the engine keeps (False for the first log, or one judged alone)."""


class Game:
    """Base class of a rules engine. Subclasses set `id` and `checks` and override the hooks."""

    id: ClassVar[str] = ""
    checks: ClassVar[tuple[CheckSpec, ...]] = ()

    def begin(self, table: "Table", ctx: Context) -> Iterable[Finding]:
        """Called once with the starting table (scenario setup checks)."""
        return ()

    def interpret(self, step: "Step", table: "Table", ctx: Context | None = None) -> Sequence["Event"]:
        """The events of a step, read against the table before the step (`ctx` holds the
        step's dice rolls and the game's memory; the driver always passes it)."""
        return ()

    def check(self, action: "Event", table: "Table", ctx: Context) -> Iterable[Finding]:
        """Findings about one event (the table is still as it was before the step)."""
        return ()

    def end(self, table: "Table", ctx: Context) -> Iterable[Finding]:
        """Called once with the final table (end-of-log checks)."""
        return ()

    def clock(self, table: "Table") -> Clock | None:
        """Where the game stands at `table`, the start or the end of the log just judged (None:
        the game cannot tell)."""
        return None

    def anew(self) -> "Game":
        """The same game on the same data, knowing nothing of the logs judged so far: for a log
        that does not continue them. A game that keeps nothing between logs is its own."""
        return self

    def check_infos(self) -> tuple[CheckInfo, ...]:
        """The implemented checks, for the report's list of checks run."""
        return tuple(c.info() for c in self.checks if c.implemented)


def known_games() -> dict[str, bool]:
    """Every game in the list (`vlog.games.GAMES`), with True where it has a rules engine."""
    return {entry.id: entry.engine is not None for entry in vlog.games.GAMES}


def find_game(name: str, data: "GameData | None" = None, *, scenario: str | None = None) -> Game:
    """The rules engine for `name` ("lion-of-judah", "Lion of Judah", "loj"), on `data` (the
    shipped data with the user's overlays) or the shipped data, judging `scenario` when given
    (else the one the log's start tells); UnknownGameError names the nearest game on a typo and
    the games there are."""
    entry = vlog.games.lookup(name)
    if entry is not None and entry.engine is not None:
        module_name, class_name = entry.engine.split(":")
        cls = getattr(importlib.import_module(f"{entry.module}.{module_name}"), class_name)
        game = cls(data) if scenario is None else cls(data, scenario=scenario)
        if not isinstance(game, Game):
            raise UnknownGameError(f"{entry.module}.{entry.engine} is not a Game")
        return game
    games = known_games()
    engines = ", ".join(sorted(n for n, ok in games.items() if ok)) or "none yet"
    if entry is not None:
        raise UnknownGameError(
            f"no rules engine for {name!r} yet (only its game data); games with rules: {engines}")
    guess = vlog.games.nearest(name)
    hint = f"; did you mean {guess!r}?" if guess else ""
    data_only = ", ".join(sorted(n for n, ok in games.items() if not ok)) or "none"
    raise UnknownGameError(
        f"unknown game {name!r}{hint}; games with rules: {engines}; games with data only: {data_only}")
