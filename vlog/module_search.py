"""Find the module a log was written with when none is given.

A log names its module only by name and version (savedata/moduledata); players keep the .vmod
near their logs. The log's folder is searched first, then its parent and grandparent, each with
its direct subfolders; the first folder level holding exactly one .vmod of the same name and
version wins. Only each candidate's small `moduledata` member is read.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from vlog.errors import VlogError
from vlog.vassal.archive import open_archive
from vlog.vassal.metadata import parse_metadata

__all__ = ["ModuleSearch", "find_module"]

LEVELS_UP = 2
"""How many parent folders above the log's own are searched."""
MAX_CANDIDATES = 200
"""Modules examined at most: a search in a huge folder tree stays quick."""


@dataclass(frozen=True)
class ModuleSearch:
    """What the search found: the module, or why none was chosen."""

    found: Path | None
    ambiguous: tuple[Path, ...] = ()
    """Several modules of the log's name and version at the same level (none chosen)."""


def _candidates(folder: Path) -> list[Path]:
    """The .vmod files in `folder` and in its direct subfolders, in name order."""
    out: list[Path] = []
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return out
    for entry in entries:
        try:
            if entry.is_file() and entry.suffix.lower() == ".vmod":
                out.append(entry)
            elif entry.is_dir() and not entry.name.startswith("."):
                out.extend(sorted(p for p in entry.iterdir() if p.is_file() and p.suffix.lower() == ".vmod"))
        except OSError:
            continue
    return out


def _name_and_version(path: Path) -> tuple[str | None, str | None]:
    """The module's name and version from its moduledata (None, None when unreadable)."""
    try:
        archive = open_archive(path)
        if not archive.has("moduledata"):
            return None, None
        meta = parse_metadata(archive.read("moduledata"), file=str(path), member="moduledata")
    except (VlogError, OSError):
        return None, None
    return meta.name, meta.version


def _shown(path: Path) -> Path:
    """The path relative to the working folder when it lies inside it, as a user would type it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def find_module(log_path: Path, name: str | None, version: str | None) -> ModuleSearch:
    """The one module beside `log_path` whose name and version are the log's (see the module doc)."""
    if not name:
        return ModuleSearch(None)
    folder = log_path.resolve().parent
    seen: set[Path] = set()
    examined = 0
    for _ in range(LEVELS_UP + 1):
        matches = []
        for candidate in _candidates(folder):
            if candidate in seen or examined >= MAX_CANDIDATES:
                continue
            seen.add(candidate)
            examined += 1
            found_name, found_version = _name_and_version(candidate)
            if found_name == name and (not version or found_version == version):
                matches.append(_shown(candidate))
        if len(matches) == 1:
            return ModuleSearch(matches[0])
        if matches:
            return ModuleSearch(None, tuple(matches))
        if folder.parent == folder:
            break
        folder = folder.parent
    return ModuleSearch(None)
