"""The files a batch judges, and what grouping needs to know of each.

Folders are searched recursively for logs (`.vlog`); files named on the command line or matched
by a glob are taken whatever their extension (a save, `.vsav`, is a position to start from).
Each file is read once for its header: its module's name and version, its players (their ids
kept only for grouping, never shown), its step count and a digest of its starting and final
positions, which tells which log continues which. A file that cannot be read is kept with its
error: one bad file never stops the batch.
"""
from __future__ import annotations

import glob
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from vlog.errors import VlogError

__all__ = ["LogHeader", "find_files", "read_header", "position_digest", "FOLDER_SUFFIXES"]

FOLDER_SUFFIXES = (".vlog",)
"""What a folder search takes: logs. Saves found in a folder (scenario starts, backups) would
start games of their own; name a save on the command line to judge it."""
MAX_FILES = 100_000
"""Files a batch takes at most: a path that matches more is refused before anything is read."""


def _glob_magic(text: str) -> bool:
    return any(ch in text for ch in "*?[")


def find_files(patterns: tuple[str, ...] | list[str]) -> tuple[list[Path], list[tuple[str, str]]]:
    """The files the patterns name (each once, in name order within a pattern), and the patterns
    that named nothing, each with why. A folder gives the logs below it, a glob what it matches."""
    found: dict[Path, None] = {}
    missing: list[tuple[str, str]] = []
    for pattern in patterns:
        if _glob_magic(pattern) and not os.path.exists(pattern):
            matches = sorted(glob.glob(pattern, recursive=True))
            paths = [Path(m) for m in matches if os.path.isfile(m)]
            paths += [p for m in matches if os.path.isdir(m) for p in _logs_below(Path(m))]
            if not paths:
                missing.append((pattern, "the pattern matches no file"))
        else:
            path = Path(pattern)
            if path.is_dir():
                paths = _logs_below(path)
                if not paths:
                    missing.append((pattern, "the folder holds no .vlog file"))
            elif path.exists():
                paths = [path]
            else:
                paths = []
                missing.append((pattern, "no such file or folder"))
        for p in paths:
            found.setdefault(p, None)
        if len(found) > MAX_FILES:
            raise VlogError(f"more than {MAX_FILES} files; judge the archive in parts (--shard K/N)",
                            file=pattern)
    return list(found), missing


def _logs_below(folder: Path) -> list[Path]:
    out = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out.extend(Path(root) / f for f in sorted(files) if f.lower().endswith(FOLDER_SUFFIXES))
    return out


@dataclass(frozen=True, slots=True)
class LogHeader:
    """What grouping knows of one file (`error` set when it could not be read)."""

    path: str
    module_name: str | None = None
    module_version: str | None = None
    player_ids: tuple[str, ...] = ()
    """Every player id in the file (passwords: for grouping and redaction, never printed)."""
    players: tuple[str, ...] = ()
    """The players' names (or sides) as the PLAYER entries show them."""
    steps: int = 0
    start: str = ""
    """Digest of the starting position."""
    end: str = ""
    """Digest of the final position."""
    error: str | None = None


def position_digest(table: object) -> str:
    """A digest of what continuity compares: each game piece's map, point, trait states and
    stacking, the global properties and the turn trackers. Two tables with the same digest
    pass `vlog/continuity` against each other."""
    parts = []
    for p in table.game_pieces():  # type: ignore[attr-defined]
        parts.append(repr((p.id, p.point, p.comparable_state(), p.parent)))
    parts.sort()
    parts.append(repr(sorted(table.global_properties.items())))  # type: ignore[attr-defined]
    parts.append(repr(sorted(table.turns.items())))  # type: ignore[attr-defined]
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def read_header(path: str) -> LogHeader:
    """The header of one file; a file that cannot be read gives a header with its error."""
    import vlog
    from vlog.cli._console import check_input
    from vlog.replay import start_table
    from vlog.vassal.privacy import player_ids
    from vlog.vassal.savefile import Log

    try:
        check_input(Path(path))
        obj = vlog.read(path)
        start = start_table(obj)
        begin = position_digest(start)
        steps = obj.steps if isinstance(obj, Log) else []
        table = start
        for step in steps:
            table.step = step.index
            table.apply_all(step.commands)
        end = position_digest(table)
        names = tuple(dict.fromkeys(p.name or p.side for p in obj.players if p.name or p.side))
        return LogHeader(path=path, module_name=obj.module_name, module_version=obj.module_version,
                         player_ids=tuple(player_ids(obj.commands)), players=names, steps=len(steps),
                         start=begin, end=end)
    except VlogError as exc:
        return LogHeader(path=path, error=str(exc))
    except (OSError, MemoryError) as exc:
        return LogHeader(path=path, error=f"{path}: {type(exc).__name__}: {exc}")
