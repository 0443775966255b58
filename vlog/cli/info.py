"""`vlog info`: what a save, log or module is, in a few lines.

Counts come from the command tree as read; player ids (passwords) are shown as `<player-N>`
unless `--show-player-ids` is given, numbered as in `vlog dump` and `vlog convert`.

One meaning with `vlog dump`: "Pieces" counts game pieces — stacks and decks hold pieces and are
counted apart ("Pieces by kind"; dump says "3 pieces, in 3 stacks and decks"). "Players in the
roster" are those VASSAL lists as having joined a side; a log can show others rolling dice
("Players named in dice reports"). A module's "Problems" are what vlog could not read in it
(images, prototypes, traits): the first few are shown, `vlog convert MODULE module.json` lists all.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import click

from vlog.cli._console import (
    check_input, emit, format_option, input_argument, json_text, output_option, printable,
)

MODULE_SUFFIXES = (".vmod", ".vmdx")
BUILDFILE_NAMES = ("buildfile", "buildfile.xml")
STRUCTURAL_KINDS = frozenset(("null", "group", "log"))
"""Command kinds that only hold other commands; left out of the counts by type."""


def is_module_file(path: Path) -> bool:
    """A module, extension, bare buildFile or unpacked module folder (by name; saves and logs
    are everything else)."""
    if path.is_dir():
        return any((path / name).is_file() for name in ("buildFile.xml", "buildFile"))
    return path.suffix.lower() in MODULE_SUFFIXES or path.name.lower() in BUILDFILE_NAMES


def dice_reader() -> Callable[[str], Any]:
    """A function chat text -> dice roll or None.

    `vlog.dice_rolls` reads VASSAL's DiceButton reports (both default formats); where it is not
    installed, the command layer's own reading of the default format is used.
    """
    try:
        from vlog.dice_rolls import DiceReportReader
    except ImportError:
        from vlog.vassal.commands import parse_dice_report

        return parse_dice_report
    return DiceReportReader().roll


def count_dice_rolls(chats: list[Any]) -> int:
    """Chat lines that report a DiceButton roll (VASSAL's default report formats)."""
    roll = dice_reader()
    return sum(1 for c in chats if roll(c.text) is not None)


def players_in_dice_reports(chats: list[Any]) -> list[str]:
    """The names dice reports show (a log can hold rolls by players its roster lacks: the roster
    counts only those who joined a side)."""
    roll = dice_reader()
    names = {getattr(r, "player", None) for r in (roll(c.text) for c in chats) if r is not None}
    return sorted(n for n in names if n)


def redactor_for(obj: Any) -> Any:
    """The `<player-N>` numbering of every player id in the file, as `vlog convert` uses it."""
    from vlog.vassal.privacy import Redactor, player_ids

    return Redactor(player_ids(obj.commands))


def player_entries(obj: Any, *, show_player_ids: bool, redactor: Any = None) -> list[dict[str, str | None]]:
    """Players with name and side; the id is a `<player-N>` placeholder unless asked for."""
    redactor = redactor or redactor_for(obj)
    out: list[dict[str, str | None]] = []
    for p in obj.players:
        out.append({
            "name": p.name,
            "side": p.side,
            "id": p.user_id if show_player_ids else redactor.placeholder(p.user_id),
        })
    return out


def file_facts(obj: Any, path: Any) -> dict[str, Any]:
    """What `info` and `dump` both open with: the file, its kind, dialect and versions."""
    from vlog.vassal.savefile import Log

    return {
        "file": str(path),
        "kind": "log" if isinstance(obj, Log) else "save",
        "dialect": obj.dialect.name,
        "vassal_version": obj.vassal_version,
        "module_name": obj.module_name,
        "module_version": obj.module_version,
    }


def summarize_game(obj: Any, path: Path, *, show_player_ids: bool = False) -> dict[str, Any]:
    """The facts `vlog info` prints about a Save or Log, as a JSON-ready dict."""
    from vlog.vassal.commands import Chat, walk
    from vlog.vassal.observed_names import observed_namer
    from vlog.vassal.savefile import Log

    is_log = isinstance(obj, Log)
    by_kind: Counter[str] = Counter()
    chats: list[Chat] = []
    for node in walk(obj.commands):
        if node.KIND not in STRUCTURAL_KINDS:
            by_kind[node.KIND] += 1
        if isinstance(node, Chat):
            chats.append(node)
    redactor = redactor_for(obj)
    pieces = obj.pieces
    piece_kinds = Counter(p.kind for p in _seen_pieces(pieces))
    md = obj.metadata
    summary: dict[str, Any] = {
        **file_facts(obj, path),
        "description": md.description if md is not None else None,
        "date_saved": _iso_date(md.date_saved_ms) if md is not None else None,
        "pieces": sum(n for k, n in piece_kinds.items() if k not in ("stack", "deck")),
        "pieces_by_kind": dict(sorted(piece_kinds.items())),
        "commands_by_type": dict(sorted(by_kind.items())),
        "players": player_entries(obj, show_player_ids=show_player_ids, redactor=redactor),
        "player_ids": [uid if show_player_ids else redactor.placeholder(uid) for uid in redactor.mapping],
        "player_ids_redacted": not show_player_ids,
        "chat_lines": sum(1 for c in chats if not c.is_report),
        "dice_rolls": count_dice_rolls(chats),
        "players_in_dice_reports": players_in_dice_reports(chats),
        "points_named_from_file": len(observed_namer(obj)),
    }
    if is_log:
        steps = obj.steps
        summary["steps"] = len(steps)
        summary["undos"] = sum(1 for s in steps if s.is_undo)
    if obj.metadata_problems:
        summary["metadata_problems"] = list(obj.metadata_problems)
    return summary


def _seen_pieces(pieces: dict) -> list:
    """The pieces a side sees: not the invisible ones, nor stacks holding only those."""
    from vlog.vassal.privacy import visible_stack

    out = []
    for p in pieces.values():
        if p.is_stack:
            seen = visible_stack(p, pieces)
            if seen is not None and not seen.piece_ids:
                continue
        elif p.hidden_by is not None:
            continue
        out.append(p)
    return out


def _iso_date(ms: int | None) -> str | None:
    """VASSAL's dateSaved (ms since 1970) as an ISO 8601 UTC time."""
    if ms is None:
        return None
    from datetime import datetime, timezone

    try:
        return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return None


def summarize_module(path: Path) -> dict[str, Any]:
    """`describe_module` of a .vmod/.vmdx or buildFile, with the file and kind added."""
    from converters.module_json import describe_module
    from vlog.vassal.module import read_module

    module = read_module(path)
    described = describe_module(module)
    problems = [*module.problems, *(p for s in module.piece_slots for p in s.problems)]
    out = {"file": str(path), "kind": "module", **described}
    if problems:        # what "Problems: N" counts, and where to see them all
        out["problem_examples"] = problems[:SHOWN_PROBLEMS]
        out["problems_listed_by"] = f"vlog convert {path} module.json (its \"problems\" lists)"
    return out


SHOWN_PROBLEMS = 5
"""A module's problems (what vlog could not read in it) shown by `vlog info`; convert lists all."""


def _text_value(v: Any) -> str:
    if v is None or v == "":
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return printable(str(v))


_LABELS = {
    "file": "File", "kind": "Kind", "dialect": "Obfuscation", "vassal_version": "VASSAL",
    "vassalVersion": "VASSAL", "module_name": "Module", "module_version": "Module version",
    "description": "Description", "date_saved": "Saved", "pieces": "Pieces", "steps": "Steps",
    "undos": "Undo steps", "chat_lines": "Chat lines", "dice_rolls": "Dice rolls",
    "commands_by_type": "Commands by type", "pieces_by_kind": "Pieces by kind",
    "metadata_problems": "Metadata problems", "player_ids": "Player ids in the file",
    "points_named_from_file": "Map points VASSAL named in the file",
    "players_in_dice_reports": "Players named in dice reports",
    "problems": "Problems (what vlog could not read in the module)",
    "problem_examples": "First problems", "problems_listed_by": "All problems listed by",
}
_HIDDEN = frozenset(("player_ids_redacted",))


def _label(key: str) -> str:
    if key in _LABELS:
        return _LABELS[key]
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key).replace("_", " ")
    return words[:1].upper() + words[1:].lower()


def _is_scalar(v: Any) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _tree_lines(value: Any, indent: int) -> list[str]:
    """Nested dicts and lists as indented `label: value` lines (module summaries are nested)."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in _HIDDEN:
                continue
            label = _label(str(k)) if indent == 0 else printable(str(k))
            if _is_scalar(v):
                lines.append(f"{pad}{label}: {_text_value(v)}")
            elif isinstance(v, list) and all(_is_scalar(x) for x in v):
                lines.append(f"{pad}{label}: " + (", ".join(_text_value(x) for x in v) if v else "-"))
            else:
                lines.append(f"{pad}{label}:")
                lines.extend(_tree_lines(v, indent + 2))
    elif isinstance(value, list):
        for item in value:
            sub = _tree_lines(item, indent + 2) if not _is_scalar(item) else [pad + "  " + _text_value(item)]
            if sub:
                sub[0] = pad + "- " + sub[0][indent + 2:]
            lines.extend(sub)
    else:
        lines.append(pad + _text_value(value))
    return lines


def render_text(summary: dict[str, Any]) -> str:
    """A save or log summary as `Label: value` lines, players spelt out; modules as a tree."""
    if summary.get("kind") == "module":
        return "\n".join(_tree_lines(summary, 0)) + "\n"
    lines: list[str] = []
    for key, value in summary.items():
        if key in _HIDDEN:
            continue
        label = _label(key)
        if key == "pieces" and summary.get("kind") == "log":
            label = "Pieces at start"
        if key == "players":
            lines.append(f"Players in the roster: {len(value)}")
            for p in value:
                lines.append(f"  {printable(p['name'] or '?')} as {printable(p['side'] or '?')} "
                             f"(id {printable(p['id'] or '-')})")
            if value and summary.get("player_ids_redacted"):
                lines.append("  (player ids are passwords, shown as placeholders; "
                             "--show-player-ids shows them)")
        elif isinstance(value, dict):
            lines.append(f"{label}:")
            lines.extend(f"  {printable(str(k))}: {_text_value(n)}" for k, n in value.items())
        elif key == "player_ids":
            lines.append(f"{label}: " + (", ".join(printable(str(v)) for v in value) if value else "none"))
        elif isinstance(value, list):
            lines.append(f"{label}: {len(value)}")
            lines.extend(f"  {_text_value(item)}" for item in value)
        else:
            lines.append(f"{label}: {_text_value(value)}")
    return "\n".join(lines) + "\n"


@click.command("info")
@input_argument()
@format_option("text", "json")
@click.option("--show-player-ids", is_flag=True,
              help="Show the players' real ids. They are passwords: do not share the output.")
@output_option()
def command(file: Path, output_format: str, show_player_ids: bool, output: Path | None,
            force: bool) -> None:
    """Summarise a save (.vsav), log (.vlog), its JSON form, or a module (.vmod/.vmdx/buildFile/folder).

    Shows the kind of file, how it is stored, the VASSAL and module versions, the counts of
    pieces (game pieces; stacks and decks apart, as `vlog dump` counts them), commands by type,
    log steps and undos, the players in the roster and their sides, the names in dice reports,
    the dice rolls,
    and how many map points VASSAL named in the file itself (`vlog dump` names them without a
    module).

    \b
    Examples:
      vlog info turn3.vlog
      vlog info scenario.vsav --format json -o scenario-info.json
      vlog info MyGame.vmod
    """
    if is_module_file(file):
        summary = summarize_module(file)
    else:
        from converters.save_json import load

        check_input(file)
        summary = summarize_game(load(file), file, show_player_ids=show_player_ids)
    text = json_text(summary) if output_format == "json" else render_text(summary)
    emit(text, output, inputs=[file], force=force)
