"""`vlog batch`: judge a whole folder of logs at once, grouped into games, in parallel.

Data (the report) goes to stdout or -o; progress and notes to stderr. Player ids are redacted
with one numbering over the whole batch (every shard numbers them alike, as each reads every
file), and hidden pieces stay hidden unless --referee, as with `vlog check`.
"""
from __future__ import annotations

import datetime
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import click

from vlog.cli._console import check_output_path, emit, format_option, output_option, progress_wanted, text_style
from vlog.findings import FAIL_ON_CHOICES

FORMATS = ("text", "json", "junit", "sarif", "github", "html")


@contextmanager
def _progress() -> Iterator[object]:
    """The batch's progress display on a terminal (rich), nothing when piped or in CI."""
    from vlog.batch import Progress

    if not progress_wanted():
        yield Progress()
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeRemainingColumn

    from vlog.cli._console import stderr_console

    with Bar(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
             TimeRemainingColumn(), console=stderr_console(), transient=True) as bar:
        current: list = []

        def start(what: str, total: int) -> None:
            current[:] = [bar.add_task(what, total=total)]

        yield Progress(start=start, advance=lambda: bar.advance(current[0]) if current else None)


def _jobs(value: int | None) -> int:
    from vlog.batch import default_jobs

    if value is None:
        return default_jobs()
    if value < 1:
        raise click.BadParameter("give at least 1", param_hint="--jobs")
    return value


@click.command("batch")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--merge", is_flag=True,
              help="PATHs are the JSON reports of the shards of one batch (--shard): join them into one report.")
@click.option("--game", "game_name", default=None, metavar="GAME",
              help="Judge every game against this game's rules (default: the game the logs' module names).")
@click.option("--module", "module_path", type=click.Path(path_type=Path), default=None,
              help="The module every log was written with (default: the one beside each game's first log).")
@click.option("--data", "overlays", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              metavar="DIR", help="Game data overlay folder for the games judged with rules (repeatable).")
@click.option("--manifest", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A JSON file saying which logs form which game (schemas/batch-manifest.schema.json).")
@click.option("--game-of", "game_of", default=None, metavar="PATTERN",
              help="A regular expression searched in each path: logs whose match (its first group, if any) "
                   "is the same form one game.")
@click.option("-j", "--jobs", type=int, default=None, metavar="N",
              help="Worker processes (default: the machine's cores); the report is the same for any N.")
@click.option("--shard", default=None, metavar="K/N",
              help="Judge only shard K of N (every N-th game, from the K-th); join the shards with --merge.")
@format_option(*FORMATS)
@click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default="error", show_default=True,
              help="Exit 1 when a finding is at least this severe ('never': always exit 0).")
@output_option()
@click.option("-v", "--verbose", is_flag=True, help="Text output: list how every check went on every log.")
@click.option("--show-player-ids", is_flag=True,
              help="Show the players' real ids. They are passwords: do not share the output.")
@click.option("--referee", is_flag=True, help="Name masked and invisible pieces by what they are.")
@click.option("--judge-anyway", is_flag=True,
              help="Judge a game's rules even when its module is not bound to the game.")
def command(paths: tuple[str, ...], merge: bool, game_name: str | None, module_path: Path | None,
            overlays: tuple[Path, ...], manifest: Path | None, game_of: str | None, jobs: int | None,
            shard: str | None, output_format: str, fail_on: str, output: Path | None, verbose: bool,
            show_player_ids: bool, referee: bool, judge_anyway: bool, force: bool = False) -> int:
    """Judge many logs at once: group them into games and judge each game's logs in order.

    PATHs are folders (searched for .vlog files below them), globs and files. Logs are grouped
    into games by their module, their players and continuity (a log whose start is another's
    end follows it); each report says how every log was grouped. A manifest (--manifest) or
    --game-of PATTERN fixes the grouping. Each game is judged with the rules its module names
    (or --game), with the module beside its first log (or --module), as `vlog check` judges it.
    A file that cannot be read is listed with its error and the batch goes on.

    --shard K/N judges a deterministic share of the games (for a CI matrix); `vlog batch
    --merge` joins the shards' JSON reports into one report of any format. With --format github,
    a Markdown job summary is also written to $GITHUB_STEP_SUMMARY when it is set. --format html
    writes one self-contained page with a map excerpt of each finding.

    Exit status: 0 no finding at or above --fail-on, 1 findings, 2 usage error, 3 a file
    unreadable or a game not judged (its module not bound), 4 internal error.

    \b
    Examples:
      vlog batch inbox/
      vlog batch 'tournament/**/*.vlog' --jobs 4 --format junit -o vlog-junit.xml
      vlog batch inbox/ --game-of 'round-[0-9]+/([^/]+)/' --format sarif -o vlog.sarif
      vlog batch inbox/ --shard 2/4 --format json -o shard-2.json
      vlog batch --merge shard-*.json --format github
      vlog batch inbox/ --format html -o inbox.html
    """
    from vlog.batch import Options, merge as merge_reports, parse_shard, run_batch
    from vlog.batch.grouping import compile_pattern
    from vlog.batch.result import fail_exit_code
    from vlog.cli import EXIT_INPUT, EXIT_INTERNAL
    from vlog.report import batch as renderer
    from vlog.vassal.privacy import Redactor

    if overlays and game_name is None:
        raise click.UsageError("--data applies only with --game")
    if game_name is not None:
        from vlog.errors import UnknownGameError
        from vlog.games.base import find_game
        try:
            game_name = find_game(game_name).id
        except UnknownGameError as exc:
            raise click.BadParameter(exc.message, param_hint="--game") from None
    inputs = [Path(p) for p in paths] + [p for p in (module_path, manifest) if p is not None]
    if not merge:
        from vlog.batch.collect import find_files
        inputs += find_files(list(paths))[0]     # the files below the folders and globs given
    if output is not None:
        check_output_path(output, inputs, force=force)
    if merge:
        if any(x for x in (game_name, module_path, overlays, manifest, game_of, shard)):
            raise click.UsageError("--merge joins finished reports: give only the reports and the output options")
        batch = merge_reports([(p, _read_report(Path(p))) for p in paths])
        redact = None
    else:
        if module_path is not None:
            from vlog.cli._console import check_input
            check_input(module_path)
        options = Options(
            game=game_name, module=None if module_path is None else str(module_path),
            overlays=tuple(str(o) for o in overlays), manifest=manifest,
            game_of=None if game_of is None else compile_pattern(game_of),
            shard=None if shard is None else parse_shard(shard), jobs=_jobs(jobs), referee=referee,
            show_player_ids=show_player_ids, judge_anyway=judge_anyway,
            started=datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None).isoformat())
        with _progress() as bar:
            batch = run_batch(paths, options, bar)  # type: ignore[arg-type]
        redactor = Redactor(batch.player_ids)
        redact = None if show_player_ids or not redactor.mapping else redactor.text
    width, color = text_style(output)
    if output_format == "html":
        from vlog.report import html
        module_for = _module()
        text = html.render_batch(batch, redact=redact, module_for=module_for,
                                 data_for=_game_data(tuple(str(o) for o in overlays), module_for))
    else:
        text = renderer.render(batch, output_format, redact=redact, verbose=verbose, width=width, color=color)
    emit(text, output, inputs=inputs, force=force)
    if output_format == "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
        _append_summary(Path(os.environ["GITHUB_STEP_SUMMARY"]),
                        renderer.markdown(batch if redact is None else batch.redacted(redact)))
    if any(g.internal for g in batch.games):
        return EXIT_INTERNAL
    if batch.unreadable or any(g.report is None or not g.judged for g in batch.games):
        return EXIT_INPUT
    return fail_exit_code(batch, fail_on)


def _game_data(overlays: tuple[str, ...], module_for):
    """For the HTML maps: the game data each game was judged with (its module's carried data and
    the --data overlays; the shipped data when its module is not at hand), None without rules."""
    cache: dict = {}

    def data_for(game):
        if game.game is None:
            return None
        key = (game.game, game.module_path)
        if key not in cache:
            from vlog.errors import VlogError
            from vlog.gamedata import load_game_data

            module = module_for(game)
            embedded = (module.game_data or []) if module is not None else []
            try:
                cache[key] = load_game_data(game.game, overlays=overlays, embedded=embedded)
            except VlogError:
                cache[key] = None
        return cache[key]

    return data_for


def _module():
    """For the HTML maps of games with no game data: each game's module, read once (None when
    it is not at hand or cannot be read)."""
    cache: dict = {}

    def module_for(game):
        path = game.module_path
        if not path or not Path(path).is_file():
            return None
        if path not in cache:
            from vlog.errors import VlogError
            from vlog.vassal.module import read_module
            try:
                cache[path] = read_module(path)
            except VlogError:
                cache[path] = None
        return cache[path]

    return module_for


def _read_report(path: Path) -> "object":
    """A shard's JSON report; a file that is not one is a BatchError naming it."""
    import json

    from vlog.batch.result import BatchReport
    from vlog.cli._console import check_input
    from vlog.errors import BatchError

    check_input(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BatchError(f"not a JSON report of vlog batch: {exc}", file=str(path)) from None
    if not isinstance(data, dict):
        raise BatchError("not a JSON report of vlog batch", file=str(path))
    return BatchReport.from_dict(data, where=str(path))


def _append_summary(path: Path, text: str) -> None:
    """Appends to GitHub's job summary file (GitHub gives each step its own, to append to)."""
    from vlog.errors import OutputError

    try:
        with open(path, "a", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise OutputError(f"cannot append the job summary: {exc.strerror}", file=str(path)) from None
