"""Saved games (.vsav) and logs (.vlog): read, model and write back losslessly.

A save is a zip whose `savedGame` member holds the (obfuscated) command text
`begin_save ␛ … ␛ end_save`; a log is the same with one `LOG\\t` token per step after
`end_save` (BasicLogger). `read` keeps everything needed to write the file back: the command
tree (exact text), the dialect and key, and every other member's bytes in zip order.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Iterable, Iterator, NamedTuple

from vlog.errors import VlogError
from vlog.vassal.archive import open_archive, write_archive
from vlog.vassal.commands import (
    AddPiece, Command, LogStep, PlayerAdd, Setup, Undo, decode, encode, walk,
)
from vlog.vassal.metadata import MetaData, parse_metadata, version_tuple
from vlog.vassal.obfuscation import Dialect, deobfuscate_member, obfuscate
from vlog.vassal.pieces import Piece

__all__ = ["Save", "Log", "Step", "Player", "read", "read_save", "read_log", "write",
           "write_save", "saved_game_bytes", "SAVED_GAME", "Source"]

SAVED_GAME = "savedGame"
Source = str | os.PathLike | bytes


class Player(NamedTuple):
    """A PLAYER entry: `user_id` is the player's password preference, never to be shown."""

    user_id: str
    name: str
    side: str


class Save:
    """A saved game: the command tree plus everything needed to write the file back."""

    def __init__(self, commands: Command, *, dialect: Dialect = Dialect.VCSK,
                 key: int | None = None, members: list[tuple[str, bytes]] | None = None,
                 metadata: MetaData | None = None, module_metadata: MetaData | None = None,
                 path: str | None = None, original_text: str | None = None,
                 metadata_problems: list[str] | None = None, source_path: str | None = None,
                 hex_upper: bool = False):
        self.commands = commands
        self.dialect = dialect
        self.key = key
        self.members: Sequence[tuple[str, bytes]] = (
            members if isinstance(members, LazyMembers) else list(members or []))
        """Every zip member in order, raw bytes (the savedGame entry as read); as read from a
        file, the members are inflated only when first looked at."""
        self.metadata = metadata
        self.module_metadata = module_metadata
        self.path = path
        """What messages call the file (its path, or the name given for bytes)."""
        self.source_path = source_path
        """The file this was read from (None for bytes): `write` refuses to overwrite it."""
        self.original_text = original_text
        self.metadata_problems = list(metadata_problems or [])
        self.hex_upper = hex_upper
        """!VCSK in upper-case hex (VASSAL 2.9/3.0): a rewrite in !VCSK keeps the case."""

    # -- text and versions ----------------------------------------------------------------
    @property
    def legacy_quoting(self) -> bool:
        """True for files written before VASSAL 3.4 (SequenceEncoder quoted trailing `\\`)."""
        v = version_tuple(self.vassal_version)
        return bool(v) and v < (3, 4)

    @property
    def text(self) -> str:
        """The plaintext command text (the original text when nothing was changed)."""
        return encode(self.commands, legacy=self.legacy_quoting) or ""

    @property
    def vassal_version(self) -> str | None:
        for md in (self.metadata, self.module_metadata):
            if md is not None and md.vassal_version:
                return md.vassal_version
        return None

    @property
    def module_name(self) -> str | None:
        return self.module_metadata.name if self.module_metadata else None

    @property
    def module_version(self) -> str | None:
        for md in (self.metadata, self.module_metadata):
            if md is not None and md.version:
                return md.version
        return None

    # -- restore block --------------------------------------------------------------------
    def _restore_nodes(self) -> list[Command]:
        """The begin_save … end_save commands (the whole tree for a save)."""
        root = self.commands
        end = _end_index(root)
        return list(root.subs) if end is None else list(root.subs[: end + 1])

    def restore_commands(self) -> Iterator[Command]:
        """Every node of the restore block, depth-first, log steps excluded."""
        yield self.commands
        for node in self._restore_nodes():
            yield from walk(node)

    @property
    def pieces(self) -> dict[str | None, Piece]:
        """The restore block's pieces by id, in file order (children before their stack)."""
        out: dict[str | None, Piece] = {}
        for c in self.restore_commands():
            if isinstance(c, AddPiece):
                out[c.id] = c.piece
        return out

    @property
    def piece_order(self) -> list[str | None]:
        """Piece ids in the order the restore block adds them."""
        return list(self.pieces)

    @property
    def players(self) -> list[Player]:
        """PLAYER entries anywhere in the file, first occurrence of each, in order."""
        seen: dict[Player, None] = {}
        for c in walk(self.commands):
            if isinstance(c, PlayerAdd):
                seen.setdefault(Player(c.user_id, c.name, c.side), None)
        return list(seen)

    def write(self, path: str | os.PathLike, **options) -> None:
        """`write(self, path, ...)`: see the module function."""
        write(self, path, **options)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(path={self.path!r}, module={self.module_name!r}, "
                f"vassal={self.vassal_version!r}, dialect={self.dialect.name})")


@dataclass
class Step:
    """One Step-Forward of a log (BasicLogger replays one top-level LOG token per click)."""

    index: int
    """1-based, as VASSAL counts steps."""
    node: LogStep
    commands: list[Command]
    """The logged commands, flattened in execution order (containers left out)."""

    @property
    def is_undo(self) -> bool:
        """An undo step: `UNDO true`, the inverse commands, `UNDO false`, in one step."""
        return bool(self.commands) and isinstance(self.commands[0], Undo) and \
            self.commands[0].in_progress

    @property
    def undo_commands(self) -> list[Command]:
        """For an undo step, the inverse commands between the UNDO markers."""
        if not self.is_undo:
            return []
        return [c for c in self.commands if not isinstance(c, Undo)]


class Log(Save):
    """A log: its starting save (the begin_save … end_save block) and the steps after it."""

    @property
    def start(self) -> Save:
        """The starting position as a Save of its own (same metadata, dialect and key)."""
        root = self.commands
        end = _end_index(root)
        if end is None or end == len(root.subs) - 1:
            commands = root
        else:
            commands = _shallow_copy(root, root.subs[: end + 1])
        return Save(commands, dialect=self.dialect, key=self.key, members=self.members,
                    metadata=self.metadata, module_metadata=self.module_metadata,
                    path=self.path, source_path=self.source_path,
                    original_text=self.original_text if commands is root else None,
                    hex_upper=self.hex_upper)

    @property
    def steps(self) -> list[Step]:
        """Each top-level LOG token after end_save, numbered from 1."""
        root = self.commands
        end = _end_index(root)
        out: list[Step] = []
        for node in root.subs[(end + 1 if end is not None else 0):]:
            if isinstance(node, LogStep):
                out.append(Step(len(out) + 1, node, flatten_step(node)))
        return out


def flatten_step(step: LogStep) -> list[Command]:
    """The commands one step executes, in order (see LogStep.flatten)."""
    return step.flatten()


def _end_index(root: Command) -> int | None:
    if not (isinstance(root, Setup) and root.begin):
        return None
    for i, c in enumerate(root.subs):
        if isinstance(c, Setup) and not c.begin:
            return i
    return None


def _shallow_copy(root: Command, subs: list[Command]) -> Command:
    import copy
    node = copy.copy(root)
    node.subs = list(subs)
    node._enc = None
    node._subs_snap = None
    return node


def _is_log(root: Command) -> bool:
    end = _end_index(root)
    rest = root.subs[end + 1:] if end is not None else root.subs
    return any(isinstance(c, LogStep) for c in rest)


# -- reading ------------------------------------------------------------------------------

class LazyMembers(Sequence):
    """A save's zip members as (name, bytes) in zip order, each inflated when first looked at.

    Reading a save needs only savedGame and the metadata; the other members (images, a module's
    extras) are inflated only to be written back, so a hostile archive costs nothing until then.
    """

    def __init__(self, archive):
        self._archive = archive
        seen: set[str] = set()
        self._names: list[str] = []
        for n in archive.names():
            if n not in seen:  # VASSAL reads only the first member of a name
                seen.add(n)
                self._names.append(n)
        self._data: dict[str, bytes] = {}

    def get(self, name: str) -> bytes | None:
        if name not in self._data:
            if name not in self._names:
                return None
            self._data[name] = self._archive.read(name)
        return self._data[name]

    def take(self, name: str) -> bytes | None:
        """A member's bytes read without keeping them (savedGame: its text is kept decoded, and a
        rewrite inflates the member again if it needs the bytes)."""
        if name in self._data or name not in self._names:
            return self.get(name)
        return self._archive.read(name)

    def names(self) -> list[str]:
        return list(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        name = self._names[i]
        return name, self.get(name)


def _open(source: Source, name: str | None):
    arch = open_archive(source, name=name)
    shown = arch.path
    if not arch.has(SAVED_GAME):
        from vlog.errors import ArchiveError
        raise ArchiveError("no savedGame member: not a VASSAL save or log", file=shown)
    return shown, LazyMembers(arch)


def saved_game_text(source: Source, *, name: str | None = None):
    """The decode stage of `read`: (shown name, members, the savedGame text, dialect, key,
    upper-case hex), the member inflated once and dropped before its plaintext becomes text."""
    shown, members = _open(source, name)
    text, dialect, key, hex_upper = deobfuscate_member(lambda: members.take(SAVED_GAME), file=shown,
                                                       member=SAVED_GAME)
    return shown, members, text, dialect, key, hex_upper


def read(source: Source, *, name: str | None = None) -> Save | Log:
    """Read a .vsav or .vlog (path or bytes): a Log when steps follow end_save, else a Save."""
    shown, members, text, dialect, key, hex_upper = saved_game_text(source, name=name)
    commands = decode(text, file=shown)
    problems: list[str] = []
    md = _meta(members, "savedata", shown, problems)
    mmd = _meta(members, "moduledata", shown, problems)
    cls = Log if _is_log(commands) else Save
    source_path = None if isinstance(source, (bytes, bytearray, memoryview)) else os.fspath(source)
    return cls(commands, dialect=dialect, key=key, members=members, metadata=md,
               module_metadata=mmd, path=shown, original_text=text, metadata_problems=problems,
               source_path=source_path, hex_upper=hex_upper)


def _meta(members: LazyMembers, member: str, shown: str, problems: list[str]) -> MetaData | None:
    data = members.get(member)
    if data is None:
        return None
    try:
        return parse_metadata(data, file=shown, member=member)
    except VlogError as exc:  # VASSAL loads a game without its metadata; keep the bytes
        problems.append(str(exc))
        return None


def read_save(source: Source, *, name: str | None = None) -> Save:
    """Read a save; a log is returned as its starting Save."""
    obj = read(source, name=name)
    return obj.start if isinstance(obj, Log) else obj


def read_log(source: Source, *, name: str | None = None) -> Log:
    """Read a log; a save reads as a Log with no steps."""
    obj = read(source, name=name)
    if isinstance(obj, Log):
        return obj
    return Log(obj.commands, dialect=obj.dialect, key=obj.key, members=obj.members,
               metadata=obj.metadata, module_metadata=obj.module_metadata, path=obj.path,
               original_text=obj.original_text, metadata_problems=obj.metadata_problems,
               source_path=obj.source_path, hex_upper=obj.hex_upper)


# -- writing ------------------------------------------------------------------------------

def saved_game_bytes(obj: Save, *, dialect: Dialect | None = None, key: int | None = None) -> bytes:
    """The savedGame member for `obj`: the original bytes when text, dialect and key are unchanged."""
    text = obj.text
    target = dialect or obj.dialect
    if key is None:
        key = obj.key if target is obj.dialect else _carry_key(obj.key, target)
    original = dict(obj.members).get(SAVED_GAME)
    if (original is not None and text == obj.original_text and target is obj.dialect
            and key == obj.key):
        return original
    if target in (Dialect.PLAIN, Dialect.XZ):
        key = None
    return obfuscate(text, target, key, upper=target is Dialect.VCSK and getattr(obj, "hex_upper", False))


def _carry_key(key: int | None, target: Dialect) -> int | None:
    if key is None:
        return None
    if target is Dialect.VCSK and 0 <= key <= 255:
        return key
    if target is Dialect.VOBS and 1 <= key <= 255:
        return key
    return None


def write(obj: Save, path: str | os.PathLike, *, dialect: Dialect | None = None,
          key: int | None = None, protect: Iterable[str | os.PathLike] | None = None,
          date_time: tuple[int, int, int, int, int, int] | None = None) -> None:
    """Write `obj` as a zip VASSAL loads, atomically; refuses to overwrite a `protect` path
    (by default the file `obj` was read from; pass `protect=()` to allow rewriting it).

    Members keep their order and bytes; the savedGame member is re-obfuscated only when the
    text, dialect or key changed (same dialect and key by default).
    """
    saved = saved_game_bytes(obj, dialect=dialect, key=key)
    members = [(n, saved if n == SAVED_GAME else b) for n, b in obj.members]
    if not any(n == SAVED_GAME for n, _ in members):
        members.insert(0, (SAVED_GAME, saved))
    if protect is None:
        protect = (obj.source_path,) if obj.source_path else ()
    write_archive(path, members, protect=protect, date_time=date_time)


write_save = write
"""The same writer under the name the architecture notes use."""
