"""`vlog batch`: a whole inbox of logs judged at once, game by game.

The files are found (`collect`), read for their headers by worker processes, grouped into games
(`grouping`: module, players and continuity, or a manifest / --game-of), each game given its rules
(module name -> game, or --game) and module (--module, the manifest's, or the one beside its
first log), cut into a shard when asked (`shard`), judged one game per task (`judge`), and
gathered in a `BatchReport` (`result`) in batch order, the same whatever the number of processes.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from vlog.batch.collect import LogHeader, find_files
from vlog.batch.grouping import Game, ManifestGame, group
from vlog.batch.collect import read_header
from vlog.batch.judge import Task, game_for_module, judge
from vlog.batch.pool import Workers, default_jobs
from vlog.batch.result import BatchReport, GameResult, merge
from vlog.errors import BatchError

__all__ = ["Options", "Progress", "run_batch", "shard_of", "parse_shard", "BatchReport", "GameResult", "merge",
           "default_jobs"]


@dataclass(frozen=True)
class Options:
    """How the batch is judged (the command's options)."""

    game: str | None = None
    module: str | None = None
    overlays: tuple[str, ...] = ()
    manifest: Path | None = None
    game_of: re.Pattern[str] | None = None
    shard: tuple[int, int] | None = None
    jobs: int = 1
    referee: bool = False
    show_player_ids: bool = False
    judge_anyway: bool = False
    started: str | None = None


@dataclass
class Progress:
    """Callbacks the command's progress display gives: `start(what, total)` then `advance()`."""

    start: Callable[[str, int], None] = lambda what, total: None
    advance: Callable[[], None] = lambda: None


def parse_shard(text: str) -> tuple[int, int]:
    """'2/5' -> (2, 5); anything else is a BatchError saying what is wanted."""
    match = re.fullmatch(r"\s*([0-9]{1,6})\s*/\s*([0-9]{1,6})\s*", text)
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise BatchError("give K/N with 1 <= K <= N (shard K of N), e.g. --shard 2/4", file="--shard",
                         where=repr(text))
    return int(match.group(1)), int(match.group(2))


def shard_of(games: Sequence[Game], shard: tuple[int, int] | None) -> list[int]:
    """The indexes of the games shard K of N judges: every N-th game from the K-th, in batch
    order (games are ordered by their first file's path, so the cut depends only on the files)."""
    if shard is None:
        return list(range(len(games)))
    k, n = shard
    return [i for i in range(len(games)) if i % n == k - 1]


def _choose(game: Game, options: Options) -> tuple[str | None, str | None, list[str]]:
    """The rules and module a game is judged with, and notes saying why."""
    notes: list[str] = []
    rules = options.game or game.game
    if rules is not None:
        notes.append(f"rules {rules} (" + ("--game" if options.game else "the manifest") + ")")
    else:
        rules = game_for_module(game.module_name)
        if rules is not None:
            notes.append(f"rules {rules} (from the module name {game.module_name!r})")
        else:
            notes.append("no rules engine for the module " + (repr(game.module_name) if game.module_name else "(none named)")
                         + ": judged on the checks any log gets (give --game or a manifest 'game')")
    module = options.module or game.module
    if module is not None:
        notes.append(f"module {module} (" + ("--module" if options.module else "the manifest") + ")")
    elif rules is not None:
        from vlog.module_search import find_module

        first = game.logs[0]
        search = find_module(Path(first.path), first.module_name, first.module_version)
        if search.found is not None:
            module = str(search.found)
            notes.append(f"module {module} (found beside {first.path}, with its name and version)")
        elif search.ambiguous:
            notes.append("several modules beside the first log have its name and version: give --module or a "
                         "manifest 'module'; pieces cannot be placed on hexes")
        else:
            notes.append("no module found beside the first log: movement, stacking and combat checks need one "
                         "(--module or a manifest 'module')")
    return rules, module, notes


def _plan(headers: list[LogHeader], options: Options) -> tuple[list[Game], list[Task], list[tuple]]:
    """The games, and the tasks judging the shard's share of them with what was chosen for each."""
    readable = [h for h in headers if h.error is None]
    manifest: list[ManifestGame] = []
    if options.manifest is not None:
        from vlog.batch.grouping import read_manifest
        manifest = read_manifest(options.manifest, [h.path for h in readable])
    games = group(readable, manifest=manifest, pattern=options.game_of)
    chosen = shard_of(games, options.shard)
    tasks, meta = [], []
    for i in chosen:
        rules, module, notes = _choose(games[i], options)
        tasks.append(Task(i, tuple(h.path for h in games[i].logs), rules, module,
                          options.overlays if rules is not None else (), options.referee,
                          options.show_player_ids, options.judge_anyway, options.started))
        meta.append((games[i], rules, notes, module))
    return games, tasks, meta


def run_batch(patterns: Sequence[str], options: Options, progress: Progress | None = None) -> BatchReport:
    """Judges every game the patterns hold (or the shard's share of them)."""
    progress = progress or Progress()
    paths, missing = find_files(list(patterns))
    with Workers(options.jobs) as workers:
        progress.start("reading", len(paths))
        headers: list[LogHeader] = workers.map(read_header, [str(p) for p in paths], progress.advance)
        games, tasks, meta = _plan(headers, options)
        progress.start("judging", len(tasks))
        outcomes = workers.map(judge, tasks, progress.advance)
    results = []
    for (game, rules, notes, module), outcome in zip(meta, outcomes, strict=True):
        results.append(GameResult(
            index=outcome.index, name=game.name, game=rules, module_name=game.module_name, players=game.players,
            logs=tuple((h.path, why) for h, why in zip(game.logs, game.reasons, strict=True)),
            report=outcome.report, error=outcome.error, notes=tuple(notes), judged=outcome.judged,
            internal=outcome.internal, module_path=module))
    unreadable = sorted([(h.path, h.error or "") for h in headers if h.error is not None] + list(missing))
    return BatchReport(games=tuple(results), unreadable=tuple(unreadable), total_games=len(games),
                       shard=options.shard, started=options.started,
                       player_ids=tuple(dict.fromkeys(uid for g in games for uid in g.player_ids)))
