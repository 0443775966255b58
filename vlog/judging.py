"""Judging several files of one game in order, each continuing the one before.

`vlog check` and `vlog batch` share this loop: each file is replayed with the game's rules, its
starting position compared with the previous file's final table (`vlog/continuity`, naming the
hexes of a board the module draws without a grid by the game's calibrations), and its dice rolls
gathered. A file that does not start where the previous one ended is no continuation
of the game the engine followed so far: it is judged by a fresh engine (`Game.anew`), as if alone,
so that nothing the earlier files left open (a scenario, a ledger) is held against it; a file
that continues the one before is judged by the same engine, which keeps the game's history.

A log that starts at its scenario's opening (the first turn's first phase) after the previous
log played past it is no continuation either, but the first log of a game of its own: its start
is not compared (`vlog/continuity` says, as the check's status, that it had nothing to judge and
why). Only the game's engine can tell where a game stands (`Game.clock`), so without `--game`
every start is compared; so is the first, with the file before it (`--after`), which the user
names as the one it continues.

Reading is left to the caller (`read`), so that each command keeps its own errors and progress
display.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from vlog.calibration import bound_calibrations, location_namer
from vlog.checks import continuity
from vlog.findings import CheckInfo, LogResult
from vlog.games.base import Clock
from vlog.replay import log_result, replay_log, start_table
from vlog.table import Table

__all__ = ["Judged", "judge_in_order"]


@dataclass
class Judged:
    """What judging the files gave: each file's result, every roll, and whether the game's rules
    could be judged at all (False when the module is not bound to the game)."""

    results: list[LogResult] = field(default_factory=list)
    rolls: list = field(default_factory=list)
    judged: bool = True


def judge_in_order(paths: Sequence[Any], read: Callable[[Any], Any], *, checks: Sequence[CheckInfo],
                   module: object | None = None, game: object | None = None,
                   previous: Table | None = None, previous_name: str | None = None,
                   referee: bool = False, show_player_ids: bool = False, debug: bool = False,
                   judge_anyway: bool = False, seen: Callable[[Any], None] | None = None,
                   iterate: Callable[[Any], Callable[[list], Iterable]] | None = None) -> Judged:
    """Replays `paths` (each read with `read`) in order, comparing each start with the previous
    end (`previous`, a table from before the first, when given). `seen(obj)` is called on each
    file read (the caller's redactor learns its player ids); `iterate(path)` wraps the walk over
    a file's steps (a progress bar)."""
    out = Judged()
    ended: Clock | None = None      # where the previous log of the run left the game
    namer = location_namer(bound_calibrations(getattr(game, "data", None)))    # gridless boards' hexes
    for path in paths:
        clock = time.perf_counter()
        obj = read(path)
        if seen is not None:
            seen(obj)
        start = start_table(obj, module)
        joined = []
        if previous is not None:
            joined = continuity.check(previous, start, previous_name=previous_name or "", referee=referee,
                                      namer=namer)
        if joined and game is not None:
            game = game.anew()      # not the game the previous log played on: judged as if alone
        rep = replay_log(obj, module=module, game=game, referee=referee, show_player_ids=show_player_ids,
                         debug=debug, judge_unbound=judge_anyway, start=start,
                         continues=bool(out.results) and not joined,
                         iterate=None if iterate is None else iterate(path))
        out.judged = out.judged and rep.judged
        out.rolls.extend(rep.rolls)
        own_game = _own_game(rep.opening, ended, previous_name) if joined else None
        if own_game is not None:
            joined = []
        out.results.append(log_result(rep, checks, joined, seconds=time.perf_counter() - clock,
                                      own_game=own_game))
        previous, previous_name, ended = rep.final, str(path), rep.closing
    return out


def _own_game(opening: Clock | None, ended: Clock | None, previous_name: str | None) -> str | None:
    """Why a log that does not continue the previous one is the first of a game of its own: it
    starts at its scenario's opening, where the previous log had gone past (None: it is not)."""
    if opening is None or ended is None or not opening.opening or not ended.past(opening):
        return None
    other = "" if ended.scenario == opening.scenario else f" of scenario {ended.scenario}"
    return (f"a game of its own: it starts at the opening of scenario {opening.scenario} "
            f"({opening.label}), and {previous_name} ended later ({ended.label}{other}): "
            f"its start is not compared with that file's end")
