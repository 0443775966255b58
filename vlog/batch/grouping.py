"""Logs grouped into games, each game's logs in the order they were played.

A log follows another when its starting position is the other's final position (their position
digests are equal, see `collect.position_digest`), both were written with the same module and
their players are not strangers (one of them names none, or they share a player id). A game is a
chain of logs each following the one before; a log that follows none starts a game. Where two
logs could follow the same one, the first by path does and the other starts a game of its own
(its reason says so). Every log gets a reason saying how it was grouped.

Grouping can be fixed: a manifest (JSON, schemas/batch-manifest.schema.json) lists games, each
with its logs (paths or globs relative to the manifest), and optionally the game's rules and
module; `--game-of PATTERN` is a regular expression searched in each path, and the logs whose
match (its first group, if it has one) is the same form one game. Logs so grouped are still put
in continuity order within their game, from the order listed.
"""
from __future__ import annotations

import glob
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vlog.batch.collect import LogHeader
from vlog.errors import BatchError

__all__ = ["Game", "ManifestGame", "group", "read_manifest", "game_of"]


@dataclass(frozen=True, slots=True)
class ManifestGame:
    """A game as a manifest gives it: its name, the files (resolved), and optional rules and module."""

    name: str
    paths: tuple[str, ...]
    game: str | None = None
    module: str | None = None


@dataclass
class Game:
    """One game of the batch: its name, its logs in order, and how each was grouped."""

    name: str
    logs: list[LogHeader]
    reasons: list[str] = field(default_factory=list)
    game: str | None = None
    """The rules to judge it with, when the manifest names them."""
    module: str | None = None
    """The module, when the manifest names one."""

    @property
    def module_name(self) -> str | None:
        return next((h.module_name for h in self.logs if h.module_name), None)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p for h in self.logs for p in h.players))

    @property
    def player_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p for h in self.logs for p in h.player_ids))


def _compatible(a: LogHeader, b: LogHeader) -> bool:
    if a.module_name != b.module_name:
        return False
    return not a.player_ids or not b.player_ids or bool(set(a.player_ids) & set(b.player_ids))


def _chains(headers: Sequence[LogHeader]) -> tuple[list[list[LogHeader]], dict[str, str]]:
    """The headers as chains of continuity, in the order given (each chain from its first log),
    and for each log that could have followed another but did not, why."""
    follows: dict[str, LogHeader] = {}
    followed: dict[str, LogHeader] = {}
    notes: dict[str, str] = {}
    by_end: dict[str, list[LogHeader]] = {}
    for h in headers:
        if h.steps:      # a file without steps (a save) starts or ends a position without playing
            by_end.setdefault(h.end, []).append(h)
    saves = {h.end: h for h in headers if not h.steps}
    order = {h.path: i for i, h in enumerate(headers)}
    for h in headers:
        candidates = [g for g in by_end.get(h.start, []) if g is not h and _compatible(g, h)]
        if not candidates and h.steps and h.start in saves and _compatible(saves[h.start], h):
            candidates = [saves[h.start]]
        for g in candidates:
            if order[g.path] > order[h.path] and g.start == h.end:
                continue                        # each could follow the other: the first in order leads
            if g.path in followed:
                notes.setdefault(h.path, f"its start is also the end of {g.path}, which "
                                         f"{followed[g.path].path} follows")
                continue
            if _starts_chain_of(g, h, follows):
                continue                        # following would close a loop
            follows[h.path] = g
            followed[g.path] = h
            break
    chains = []
    for h in headers:
        if h.path in follows:
            continue
        chain = [h]
        while chain[-1].path in followed:
            chain.append(followed[chain[-1].path])
        chains.append(chain)
    return chains, notes


def _starts_chain_of(g: LogHeader, h: LogHeader, follows: dict[str, LogHeader]) -> bool:
    """True when `g` already follows `h`, directly or through others."""
    seen = g
    while seen.path in follows:
        seen = follows[seen.path]
        if seen is h:
            return True
    return seen is h


def _ordered(chain_logs: list[list[LogHeader]], notes: dict[str, str], how: str) -> tuple[list[LogHeader], list[str]]:
    logs, reasons = [], []
    for chain in chain_logs:
        for i, h in enumerate(chain):
            logs.append(h)
            if i:
                reasons.append(f"{how}follows {chain[i - 1].path}: its start is that file's end")
            else:
                why = notes.get(h.path)
                reasons.append(f"{how}first" + (f" ({why})" if why else
                                                 ": no other file of the batch ends where it starts"))
    return logs, reasons


def group(headers: Sequence[LogHeader], *, manifest: Sequence[ManifestGame] = (),
          pattern: re.Pattern[str] | None = None) -> list[Game]:
    """The readable files grouped into games: the manifest's games first, then those --game-of
    names, then the rest by continuity; games in order of their first file's path. A game found
    by continuity is named by its first file, relative to the folder all the files are in."""
    games: list[Game] = []
    taken: set[str] = set()
    by_path = {h.path: h for h in headers}
    for entry in manifest:
        members = [by_path[p] for p in entry.paths if p in by_path and p not in taken]
        if not members:
            continue
        taken.update(h.path for h in members)
        chains, notes = _chains(members)
        logs, reasons = _ordered(chains, notes, f"manifest game {entry.name!r}; ")
        games.append(Game(entry.name, logs, reasons, game=entry.game, module=entry.module))
    if pattern is not None:
        named: dict[str, list[LogHeader]] = {}
        for h in headers:
            if h.path in taken:
                continue
            key = game_of(pattern, h.path)
            if key is not None:
                named.setdefault(key, []).append(h)
        for key, members in named.items():
            taken.update(h.path for h in members)
            chains, notes = _chains(members)
            logs, reasons = _ordered(chains, notes, f"--game-of matched {key!r}; ")
            games.append(Game(key, logs, reasons))
    rest = [h for h in headers if h.path not in taken]
    chains, notes = _chains(rest)
    root = _common_folder([h.path for h in headers])
    for chain in chains:
        logs, reasons = _ordered([chain], notes, "")
        games.append(Game(_relative(chain[0].path, root), logs, reasons))
    games.sort(key=lambda g: g.logs[0].path)
    _unique_names(games)
    return games


def _common_folder(paths: Sequence[str]) -> str | None:
    try:
        return os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in paths]) if paths else None
    except ValueError:          # paths on different drives
        return None


def _relative(path: str, root: str | None) -> str:
    if root is None:
        return path
    return Path(os.path.relpath(os.path.abspath(path), root)).as_posix()


def _unique_names(games: list[Game]) -> None:
    seen: dict[str, int] = {}
    for g in games:
        n = seen[g.name] = seen.get(g.name, 0) + 1
        if n > 1:
            g.name = f"{g.name} ({n})"


def game_of(pattern: re.Pattern[str], path: str) -> str | None:
    """What `pattern` names in `path` (forward slashes): its first group, or the whole match."""
    match = pattern.search(Path(path).as_posix())
    if match is None:
        return None
    return match.group(1) if pattern.groups else match.group(0)


def compile_pattern(text: str) -> re.Pattern[str]:
    """--game-of's regular expression; a bad one is a BatchError saying where."""
    try:
        return re.compile(text)
    except re.error as exc:
        raise BatchError(f"not a regular expression: {exc.msg} at position {exc.pos}",
                         file="--game-of", where=repr(text)) from None


def read_manifest(path: Path, known: Iterable[str]) -> list[ManifestGame]:
    """The manifest's games, their logs resolved against the files of the batch (`known`, the
    paths as collected): a log entry is a path or glob relative to the manifest's folder."""
    from jsonschema import Draft202012Validator

    from vlog.schemas import load_schema

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise BatchError(f"cannot be read: {exc}", file=str(path)) from None
    except json.JSONDecodeError as exc:
        raise BatchError(f"not JSON: {exc.msg}", file=str(path), where=f"line {exc.lineno} column {exc.colno}") from None
    errors = sorted(Draft202012Validator(load_schema("batch-manifest.schema.json")).iter_errors(data),
                    key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first.absolute_path)
        raise BatchError(f"not a batch manifest: {first.message}", file=str(path), where=where)
    base = path.parent
    known_by_real = {os.path.realpath(p): p for p in known}
    out = []
    for i, entry in enumerate(data["games"]):
        paths: list[str] = []
        for item in entry["logs"]:
            full = str(base / item)
            matches = sorted(glob.glob(full, recursive=True)) if any(c in item for c in "*?[") else [full]
            hits = [known_by_real[r] for r in (os.path.realpath(m) for m in matches) if r in known_by_real]
            if not hits:
                raise BatchError(f"{item!r} names no file of the batch", file=str(path),
                                 where=f"$.games[{i}].logs")
            paths.extend(h for h in hits if h not in paths)
        module = entry.get("module")
        out.append(ManifestGame(entry["name"], tuple(paths), entry.get("game"),
                                None if module is None else str(base / module)))
    return out
