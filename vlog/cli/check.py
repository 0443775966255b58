"""`vlog check`: replay logs, judge them and report for people (text) or CI (json, junit, sarif,
github annotations).

Several logs are judged in the order given, each continuing the one before: the continuity
check compares each file's starting position with the previous one's final table (and the
first with `--after`); a file that does not continue the one before gets a fresh engine. A save is judged as the position it holds. Player ids (passwords) never
reach the report unless `--show-player-ids` is given; masked and invisible pieces are named as
the other side sees them unless `--referee` is given.
"""
from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import Any

import click

from vlog.cli._console import (check_input, check_output_path, emit, format_option, output_option, progress,
                               text_style)
from vlog.findings import FAIL_ON_CHOICES, Report, fail_exit_code

FORMATS = ("text", "json", "junit", "sarif", "github", "html")


MISSING_MODULE_WARNING = ("vlog: warning: --game needs --module to name hexes: pieces on maps cannot be "
                          "placed, so movement, stacking and combat checks are skipped")
"""Said on stderr when a game is judged without the module: its findings would vanish silently."""


NOT_BOUND_EXIT = 3
NOT_BOUND_NOTICE = ("vlog: error: the module is not bound to {game} (or is not the log's): its rules were not "
                    "judged; see the vlog/binding finding, `vlog bind --help`, or give --judge-anyway")


def load_module(path: Path | None) -> Any:
    """The module given with --module (a .vmod, an extension or a bare buildFile), or None."""
    if path is None:
        return None
    from vlog.vassal.module import read_module

    check_input(path)
    return read_module(path)


def discover_module(log_path: Path, log: Any) -> Path | None:
    """The module beside the log with the log's module name and version (`vlog.module_search`),
    said on stderr; None (with the reason when several match) otherwise."""
    from vlog.module_search import find_module

    search = find_module(log_path, getattr(log, "module_name", None), getattr(log, "module_version", None))
    if search.found is not None:
        click.echo(f"vlog: using module {search.found} (found beside the log, with its name and version; "
                   "--module chooses another)", err=True)
    elif search.ambiguous:
        click.echo("vlog: warning: several modules beside the log have its name and version ("
                   + ", ".join(map(str, search.ambiguous)) + "): give --module", err=True)
    return search.found


def load_game(name: str | None, overlays: tuple[Path, ...] = (), module: Any = None,
              scenario: str | None = None) -> Any:
    """The rules engine named with --game, on its data completed by the overlays a vlog-built
    module carries and then the --data overlays, judging --scenario when given; an unknown name
    or scenario is a usage error (exit 2), a bad overlay unreadable input (exit 3)."""
    if name is None:
        if overlays or scenario:
            raise click.UsageError(f"{'--data' if overlays else '--scenario'} applies only with --game")
        return None
    import vlog.games
    from vlog.errors import UnknownGameError
    from vlog.games.base import find_game

    entry = vlog.games.lookup(name)
    carried = getattr(module, "game_data", None) or []
    if entry is None or entry.engine is None or not (overlays or carried):
        try:
            game = find_game(name)
        except UnknownGameError as exc:
            raise click.BadParameter(exc.message, param_hint="--game") from None
        _check_scenario(game.id, getattr(game, "data", None), scenario)
        return game if scenario is None else find_game(game.id, game.data, scenario=scenario)
    from vlog.gamedata import load_game_data

    if scenario is not None:                 # the shipped data's scenarios, before any overlay is read
        _check_scenario(entry.id, load_game_data(entry.id), scenario)
    # the engine built once, on the data with the overlays (not first on the shipped data)
    return find_game(entry.id, load_game_data(entry.id, overlays=overlays, embedded=carried), scenario=scenario)


def game_calibrations(name: str | None, overlays: tuple[Path, ...] = (), module: Any = None) -> tuple:
    """The calibrations the --game's bindings record for boards a module draws without a grid, on
    the data `load_game` reads (the module's carried overlays, then the --data ones): what names
    their hexes in `vlog where`, `vlog dump` and the report's map excerpts as the rules name them.
    () without --game."""
    from vlog.calibration import bound_calibrations

    return bound_calibrations(getattr(load_game(name, overlays, module), "data", None))


def _check_scenario(game_id: str, data: Any, scenario: str | None) -> None:
    """A --scenario the game's data does not have is a usage error naming the ones it has."""
    known = tuple(getattr(data, "scenario_ids", ()) or ())
    if scenario is not None and scenario not in known:
        raise click.BadParameter(f"{game_id} has no scenario {scenario!r}; its scenarios: "
                                 f"{', '.join(known) or 'none'}", param_hint="--scenario")


def read_input(path: Path) -> Any:
    """A save or log; unreadable input raises VlogError (exit 3)."""
    import vlog

    check_input(path)
    return vlog.read(path)


def render(report: Report, output_format: str, *, redact: Any, verbose: bool = False,
           width: int = 100, color: bool = False, data: Any = None, module: Any = None) -> str:
    """The report in `output_format`. What it says never depends on --fail-on, which sets only
    the exit status: a JUnit test case fails for an ERROR finding, whatever the threshold."""
    if output_format == "json":
        from vlog.report import json as renderer
        return renderer.render(report, redact=redact)
    if output_format == "junit":
        from vlog.report import junit
        return junit.render(report, redact=redact)
    if output_format == "sarif":
        from vlog.report import sarif
        return sarif.render(report, redact=redact)
    if output_format == "github":
        from vlog.report import github
        return github.render(report, redact=redact)
    if output_format == "html":
        from vlog.report import html
        return html.render(report, redact=redact, data=data, module=module)
    from vlog.report import text
    return text.render(report, redact=redact, verbose=verbose, width=width, color=color)


@click.command("check")
@click.argument("logs", nargs=-1, required=True, metavar="LOG...", type=click.Path(path_type=Path))
@click.option("--module", "module_path", type=click.Path(path_type=Path), default=None,
              help="The module (.vmod or buildFile) the logs were written with: location names, "
                   "dice formats and the module-mismatch check.")
@click.option("--game", "game_name", default=None, metavar="GAME",
              help="Judge against this game's rules (e.g. lion-of-judah).")
@click.option("--data", "overlays", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              metavar="DIR", help="Game data overlay folder completing the --game's data (repeatable; later wins).")
@click.option("--scenario", default=None, metavar="ID",
              help="With --game: the scenario the logs play, when their start does not tell it "
                   "(an unknown id lists the game's scenarios).")
@click.option("--after", "after_path", type=click.Path(path_type=Path), default=None, metavar="PREV",
              help="The previous log or save: the first LOG must start where PREV ended.")
@format_option(*FORMATS)
@click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default="error", show_default=True,
              help="Exit 1 when a finding is at least this severe ('never': always exit 0); the "
                   "report itself is the same whatever this says.")
@output_option()
@click.option("-v", "--verbose", is_flag=True,
              help="Text output: list how every check went on every log (judged how often, or why not).")
@click.option("--show-player-ids", is_flag=True,
              help="Show the players' real ids. They are passwords: do not share the output.")
@click.option("--referee", is_flag=True,
              help="Name masked and invisible pieces by what they are (reveals hidden units).")
@click.option("--judge-anyway", is_flag=True,
              help="Judge the --game's rules even when the module is not bound to the game or is not the "
                   "log's (findings resting on the binding are POSSIBLE).")
def command(logs: tuple[Path, ...], module_path: Path | None, game_name: str | None,
            overlays: tuple[Path, ...], scenario: str | None, after_path: Path | None, output_format: str, fail_on: str, output: Path | None,
            verbose: bool, show_player_ids: bool, referee: bool, judge_anyway: bool = False,
            force: bool = False) -> int:
    """Replay logs (.vlog) or saves (.vsav) and report what breaks the rules.

    Every log gets the checks any log can be judged on: undos after die rolls
    (vlog/undo-after-roll), continuity with the previous file (vlog/continuity), the module
    it was written with (vlog/module-mismatch) and entries that cannot be read (vlog/unparsed);
    --game adds that game's rules; without --module, the module is then looked for beside the
    first log (its folder, parent and grandparent, and their subfolders: the one .vmod with the
    log's module name and version), and a module built by vlog brings the game data it was built
    from (--data overlays apply after it). Several logs are judged in order, each continuing the one
    before: the rules engine keeps the game's history from one to the next; one that does not start
    where the one before ended is, besides the continuity findings, judged as if alone. The report ends with the dice statistics of all the logs (see `vlog dice`).

    With --game, the binding of the module to the game is measured on each log (pieces bound,
    locations named as hexes or boxes, layers confirmed, turn tracker items known): findings
    resting on what is not bound are POSSIBLE, and a module not bound to the game (or not the
    log's) is not judged at all, with exit 3, unless --judge-anyway (see `vlog bind`).

    Every format says how each check went on each log: judged (at how many steps), partly
    judged, not judged (and the data or input it lacks, named as `vlog data status` names data),
    or nothing to judge; an occasion a check met and could not settle is named at its step.
    JUnit shows a check not judged as a skipped test case, SARIF as a tool notification. HTML is
    one self-contained page (no network) with a map excerpt of each finding drawn from the game
    data's map, dice charts and the table of checks.

    Exit status: 0 no finding at or above --fail-on, 1 findings, 2 usage error, 3 unreadable
    input or a module not bound to the game, 4 internal error. A game check that fails is reported as a vlog/internal warning
    and the others go on; with --debug its traceback is shown and the exit status is 4.

    \b
    Examples:
      vlog check turn3.vlog
      vlog check turn3.vlog --after turn2.vlog --module LionOfJudah.vmod
      vlog check turn3.vlog --game lion-of-judah --data my-filled-data
      vlog check fixtures/lion-of-judah/rules/CB-19.vlog --game lion-of-judah
      vlog check agordat-1890.vlog --game ascari --scenario s1
      vlog check t1.vlog t2.vlog t3.vlog --format junit -o vlog-junit.xml
      vlog check turn3.vlog --format sarif -o vlog.sarif --fail-on warning
      vlog check turn3.vlog --format github --fail-on never
      vlog check turn3.vlog --game lion-of-judah --format html -o turn3.html
    """
    from vlog.checks import internal
    from vlog.cli import EXIT_INTERNAL
    from vlog.dicestats import dice_stats
    from vlog.judging import judge_in_order
    from vlog.replay import checks_run, module_label, replay_log, start_table
    from vlog.vassal.privacy import Redactor, player_ids
    from vlog.vassal.savefile import Log

    if (overlays or scenario) and game_name is None:
        raise click.UsageError(f"{'--data' if overlays else '--scenario'} applies only with --game")
    root = click.get_current_context().find_root().obj or {}
    debug = bool(root.get("debug") or os.environ.get("VLOG_DEBUG"))
    for path in (*logs, *([after_path] if after_path else [])):
        check_input(path)
    if output is not None:  # refused before the replay, not after it
        check_output_path(output, [*logs, *([after_path] if after_path else [])], force=force)
    started = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None).isoformat()
    read_first: dict[Path, Any] = {}
    if module_path is None and game_name is not None:
        read_first[logs[0]] = read_input(logs[0])
        module_path = discover_module(logs[0], read_first[logs[0]])
    module = load_module(module_path)
    game = load_game(game_name, overlays, module, scenario)
    if game is not None and module is None:
        click.echo(MISSING_MODULE_WARNING, err=True)
    redactor = Redactor()

    previous = None
    previous_name = None
    if after_path is not None:
        prev_obj = read_input(after_path)
        for uid in player_ids(prev_obj.commands):
            redactor.placeholder(uid)
        previous = (replay_log(prev_obj, module=module).final if isinstance(prev_obj, Log)
                    else start_table(prev_obj, module))
        previous_name = str(after_path)

    checks = checks_run(game, continuity_checked=after_path is not None or len(logs) > 1,
                        module_given=module is not None)
    def read(path: Path) -> Any:
        return read_first.pop(path, None) or read_input(path)

    def seen(obj: Any) -> None:
        for uid in player_ids(obj.commands):
            redactor.placeholder(uid)

    judged = judge_in_order(
        logs, read, checks=checks, module=module, game=game, previous=previous, previous_name=previous_name,
        referee=referee, show_player_ids=show_player_ids, debug=debug, judge_anyway=judge_anyway, seen=seen,
        iterate=lambda p: lambda steps: progress(steps, len(steps), f"checking {p.name}"))
    results, rolls, not_judged = judged.results, judged.rolls, not judged.judged
    report = Report(
        logs=tuple(results),
        checks=checks,
        game=getattr(game, "id", None) or None,
        module=module_label(module),
        sources=tuple(str(p) for p in ((after_path,) if after_path else ()) + logs),
        dice=dice_stats(rolls) if rolls else None,
        started=started,
    )
    redact = None if show_player_ids or not redactor.mapping else redactor.text
    inputs = [*logs, *([after_path] if after_path else []), *([module_path] if module_path else [])]
    width, color = text_style(output)
    emit(render(report, output_format, redact=redact, verbose=verbose, width=width, color=color,
                data=getattr(game, "data", None), module=module),
         output, inputs=inputs, force=force)
    if debug and any(f.check == internal.CHECK_ID for _, f in report.findings()):
        return EXIT_INTERNAL        # a check failed: its traceback is on stderr
    if not_judged:
        click.echo(NOT_BOUND_NOTICE.format(game=game.id), err=True)
        return NOT_BOUND_EXIT
    return fail_exit_code(report, fail_on)
