"""One game of a batch judged: its logs in order, with the rules and module chosen for it.

A `Task` holds only plain values, so a game can be judged in a worker process; its `Outcome` is
the game's `Report` (unredacted: the batch redacts when it renders, with one numbering of player
ids over every game) or the error that kept it from being judged.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from vlog.errors import VlogError
from vlog.findings import Report

__all__ = ["Task", "Outcome", "judge", "game_for_module"]


@dataclass(frozen=True, slots=True)
class Task:
    """What judging one game needs: its logs in order, its rules and module, and the run's options."""

    index: int
    paths: tuple[str, ...]
    game: str | None = None
    module: str | None = None
    overlays: tuple[str, ...] = ()
    referee: bool = False
    show_player_ids: bool = False
    judge_anyway: bool = False
    started: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    index: int
    report: Report | None
    error: str | None = None
    judged: bool = True
    """False when the module is not bound to the game (its rules were not judged)."""
    internal: bool = False
    """The error is vlog's own (a bug), not the input's."""


def judge(task: Task) -> Outcome:
    """The game's report, as `vlog check` makes it for the same logs in the same order."""
    import vlog
    from vlog.cli._console import check_input
    from vlog.dicestats import dice_stats
    from vlog.judging import judge_in_order
    from vlog.replay import checks_run, module_label

    try:
        module = None
        if task.module is not None:
            from vlog.vassal.module import read_module
            module = read_module(check_input(Path(task.module)))
        game = None
        if task.game is not None:
            from vlog.games.base import find_game
            game = find_game(task.game)
            carried = getattr(module, "game_data", None) or []
            if task.overlays or carried:
                from vlog.gamedata import load_game_data
                game = find_game(game.id, load_game_data(game.id, overlays=tuple(Path(o) for o in task.overlays),
                                                         embedded=carried))
        checks = checks_run(game, continuity_checked=len(task.paths) > 1, module_given=module is not None)
        judged = judge_in_order(task.paths, lambda p: vlog.read(check_input(Path(p))), checks=checks,
                                module=module, game=game, referee=task.referee,
                                show_player_ids=task.show_player_ids, judge_anyway=task.judge_anyway)
    except VlogError as exc:
        return Outcome(task.index, None, str(exc))
    except MemoryError:
        return Outcome(task.index, None, f"{task.paths[0]}: out of memory: the input is too large for this machine")
    except Exception as exc:  # noqa: BLE001 - one game's failure must not end the batch
        return Outcome(task.index, None, f"internal error: {type(exc).__name__}: {exc} "
                       "(run `vlog --debug check` on its logs for details)", internal=True)
    report = Report(logs=tuple(judged.results), checks=checks, game=getattr(game, "id", None),
                    module=module_label(module), sources=task.paths,
                    dice=dice_stats(judged.rolls) if judged.rolls else None, started=task.started)
    return Outcome(task.index, report, judged=judged.judged)


def _key(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


@functools.lru_cache(maxsize=1)
def _titles() -> tuple[tuple[str, str], ...]:
    """(game id, title key) of every game, from its data's game.json."""
    import vlog.games

    out = []
    for entry in vlog.games.GAMES:
        try:
            title = json.loads(resources.files(entry.module).joinpath("data", "game.json").read_text("utf-8"))["title"]
        except (OSError, KeyError, ValueError):
            continue
        out.append((entry.id, _key(title)))
    return tuple(out)


def game_for_module(module_name: str | None) -> str | None:
    """The game whose rules judge logs of a module named `module_name`: the game the name names
    ('Lion of Judah'), or whose title it starts with (a module built by vlog is named
    '<title> (vlog)'); None when no game fits."""
    if not module_name:
        return None
    import vlog.games

    entry = vlog.games.lookup(module_name)
    if entry is not None and entry.engine is not None:
        return entry.id
    key = _key(module_name)
    for game_id, title in _titles():
        short = title.split(":")[0].strip()
        if key == title or key.startswith(title + " (") or key == short:
            return game_id if vlog.games.lookup(game_id).engine is not None else None
    return None
