"""`vlog data`: what a game's data knows, what it lacks and which checks that disables; fill-in templates."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import click

from vlog.cli._console import format_option, json_text, printable, stdout_console
from vlog.gamedata import GAMES, blocked_checks, load_game_data, status, write_template

_SHOWN_PER_CHECK = 3   # unknowns named per disabled check in text output (all are in --format json)
_SHOWN_PER_REASON = 3  # paths named per group of unknowns sharing a file, reason and checks (all with --all)
_GAME_HELP = "GAME is one of: " + ", ".join(sorted(GAMES)) + "."


def _data_option():  # type: ignore[no-untyped-def]
    return click.option(
        "--data", "overlays", multiple=True,
        type=click.Path(file_okay=False, path_type=Path),
        help="Overlay folder of .json data files completing or correcting the shipped data "
             "(repeatable; a later folder wins).")


@click.group(name="data")
def command() -> None:
    """Inspect and complete the game data (counters, map, tables, scenarios, VASSAL bindings).

    \b
    Examples:
      vlog data status lion-of-judah
      vlog data status lion-of-judah --data my-tables --format json
      vlog data template lion-of-judah -o my-tables
      vlog data ids lion-of-judah counters
    """


@command.command(name="status", epilog=_GAME_HELP)
@click.argument("game")
@_data_option()
@click.option("--check", "checks", multiple=True, metavar="ID",
              help="Only the unknowns that disable this check (e.g. MV-07; repeatable).")
@click.option("--all", "show_all", is_flag=True,
              help="List every unknown datum on its own line with the checks it disables (text output).")
@format_option("text", "json")
def status_command(game: str, overlays: tuple[Path, ...], checks: tuple[str, ...], show_all: bool,
                   output_format: str) -> None:
    """Say which data is known, unknown or overridden, and which checks each unknown disables.

    \b
    Examples:
      vlog data status lion-of-judah
      vlog data status ascari --format json
      vlog data status lion-of-judah --check MV-07 --check CB-19
      vlog data status lion-of-judah --data ./filled --data ./fixes
      vlog data status sideshow --all

    Text output: the counts, then each disabled check with the unknowns behind it, then the
    unknowns grouped by file and by the reason they are unknown, each group naming the checks
    it disables ("disables no check" when the engine never needs it).
    """
    game_data = load_game_data(game, overlays=overlays)
    entries = status(game_data)
    if checks:
        wanted = {c.strip().upper() for c in checks}
        entries = [e for e in entries if wanted & set(e.blocks)]
    blocked = blocked_checks(entries)
    counts = Counter(entry.state for entry in entries)
    if output_format.lower() == "json":
        payload = {
            "game": game_data.game,
            "title": game_data.title,
            "overlays": list(game_data.overlays),
            "counts": {state: counts.get(state, 0) for state in ("known", "partial", "unknown", "overridden")},
            "blocked_checks": {check: [f"{e.file}: {e.path}" for e in items] for check, items in blocked.items()},
            "data": [entry.to_json() for entry in entries],
        }
        stdout_console().out(json_text(payload), end="", highlight=False)
        return
    lines = [
        f"{game_data.game}: {game_data.title}",
        f"{len(entries)} data: {counts.get('known', 0)} known, {counts.get('partial', 0)} partial "
        f"(from examples), {counts.get('unknown', 0)} unknown, {counts.get('overridden', 0)} from overlays",
    ]
    if game_data.overlays:
        lines.append("overlay files: " + ", ".join(game_data.overlays))
    if blocked:
        lines.append("")
        lines.append(f"checks disabled by unknown data ({len(blocked)}):")
        for check, items in blocked.items():
            shown = "; ".join(f"{Path(e.file).name} {e.path}" for e in items[:_SHOWN_PER_CHECK])
            more = len(items) - _SHOWN_PER_CHECK
            lines.append(f"  {check} ({len(items)}): {shown}" + (f"; and {more} more" if more > 0 else ""))
    unknown = [e for e in entries if e.state == "unknown"]
    if unknown:
        lines.append("")
        lines += _unknown_lines(unknown, show_all)
    overridden = [e for e in entries if e.state == "overridden"]
    if overridden:
        lines.append("")
        lines.append(f"data from overlays ({len(overridden)}):")
        for entry in overridden:
            lines.append(f"  {Path(entry.file).name} {entry.path} = {entry.value!r} ({entry.source})")
    stdout_console().out(printable("\n".join(lines) + "\n", keep_newlines=True), end="", highlight=False)


def _disables(blocks: tuple[str, ...]) -> str:
    return "disables " + ", ".join(blocks) if blocks else "disables no check"


def _unknown_lines(unknown: list, show_all: bool) -> list[str]:
    """Unknowns by file, then by (reason, checks) in document order: counts first, a few paths each."""
    if show_all:
        lines = [f"unknown data ({len(unknown)}), each with the checks it disables:"]
        lines += [f"  {Path(e.file).name} {e.path}: {e.note} [{_disables(e.blocks)}]" for e in unknown]
        return lines
    by_file: dict[str, dict[tuple[str | None, tuple[str, ...]], list]] = {}
    for entry in unknown:
        by_file.setdefault(Path(entry.file).name, {}).setdefault((entry.note, entry.blocks), []).append(entry)
    lines = [f"unknown data ({len(unknown)}) by file and reason (--all lists each one):"]
    for name, groups in by_file.items():
        lines.append(f"  {name} ({sum(len(g) for g in groups.values())}):")
        for (note, blocks), items in groups.items():
            lines.append(f"    {len(items)} x {note or '(no note)'} [{_disables(blocks)}]")
            shown = "; ".join(e.path for e in items[:_SHOWN_PER_REASON])
            more = len(items) - _SHOWN_PER_REASON
            lines.append(f"      {shown}" + (f"; and {more} more" if more > 0 else ""))
    return lines


@command.command(name="template", epilog=_GAME_HELP)
@click.argument("game")
@click.option("-o", "--output", "out_dir", required=True, type=click.Path(path_type=Path),
              help="Folder to write the fill-in files to (created when missing).")
@_data_option()
@click.option("--force", is_flag=True, help="Replace files that already exist in the folder.")
def template_command(game: str, out_dir: Path, overlays: tuple[Path, ...], force: bool) -> None:
    """Write fill-in files for every unknown datum, to complete and pass back with --data.

    Each file keeps the shape of the shipped file, reduced to the records that still hold
    unknown values (null, with a note saying why). Existing files are never replaced unless
    --force is given.

    \b
    Examples:
      vlog data template lion-of-judah -o my-data
      vlog data status lion-of-judah --data my-data
    """
    written = write_template(game, out_dir, overlays=overlays, force=force)
    console = stdout_console()
    for path in written:
        console.out(printable(str(path)), highlight=False)


_ID_KINDS = ("counters", "phases", "boxes", "hexes")


def game_ids(game_data: Any, kind: str) -> list[dict[str, object]]:
    """Every id of one kind a bindings file may name, with what the data calls it."""
    def value(record: dict, key: str) -> object:
        datum = record.get(key)
        return datum.get("value") if isinstance(datum, dict) else None

    if kind == "counters":
        return [{"id": r["id"], "name": value(r, "name"), "side": value(r, "side"), "type": value(r, "type"),
                 "levels": list(r.get("levels") or {})} for r in game_data.documents["counters"]["counters"]]
    if kind == "phases":
        out: list[dict[str, object]] = []
        for scenario in game_data.documents["scenarios"]["scenarios"]:
            for n, phase in enumerate(value(scenario, "phases") or (), 1):
                out.append({"id": phase, "name": f"phase {n} of scenario {scenario['id']}", "scenario": scenario["id"]})
            for number, row in (scenario.get("turn_track") or {}).items():
                out.append({"id": number, "name": f"turn {number}: {value(row, 'label')}", "scenario": scenario["id"]})
        return out
    if kind == "boxes":
        return [{"id": box["id"], "name": value(box, "name"), "map": m["id"]}
                for m in game_data.documents["map"]["maps"] for box in m.get("boxes") or ()]
    return [{"id": hex_, "name": value(row, "name"), "map": m["id"]} for m in game_data.documents["map"]["maps"]
            for hex_, row in (m.get("hexes") or {}).items() if value(row, "name")]


@command.command(name="ids", epilog=_GAME_HELP)
@click.argument("game")
@click.argument("kind", required=False, type=click.Choice(_ID_KINDS), default="counters")
@_data_option()
@format_option("text", "json")
def ids_command(game: str, kind: str, overlays: tuple[Path, ...], output_format: str) -> None:
    """List the ids a bindings file names, with their names: counters (default), phases (and
    turns), boxes, or the named hexes (any hex is its printed number, e.g. 1213).

    \b
    Examples:
      vlog data ids lion-of-judah
      vlog data ids lion-of-judah phases
      vlog data ids lion-of-judah boxes --format json
    """
    game_data = load_game_data(game, overlays=overlays)
    rows = game_ids(game_data, kind)
    if output_format.lower() == "json":
        stdout_console().out(json_text({"game": game_data.game, "kind": kind, "ids": rows}), end="", highlight=False)
        return
    width = max((len(str(r["id"])) for r in rows), default=0)
    lines = [f"{game_data.game} {kind} ({len(rows)}):"]
    for row in rows:
        extra = ["/".join(map(str, v)) if isinstance(v, list) else str(v)
                 for k, v in row.items() if k not in ("id", "name") and v not in (None, [], "")]
        lines.append(f"  {str(row['id']).ljust(width)}  {row['name'] or ''}" + (f"  ({', '.join(extra)})" if extra else ""))
    stdout_console().out(printable("\n".join(lines) + "\n", keep_newlines=True), end="", highlight=False)
