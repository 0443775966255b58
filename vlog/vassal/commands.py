"""VASSAL command trees: decode and encode exactly like `GameModule.decode` / `encode`.

A command string is a tree: a node's own payload followed by its sub-commands, joined with
ESC through SequenceEncoder, each level escaping once more. Every node keeps the exact text it
was decoded from, so an untouched tree re-encodes byte-identically even where VASSAL's encoding
is lossy (quoted tokens, odd numbers, missing fields); a node whose fields are changed is
re-encoded from its fields the way VASSAL would write it.

Leaves are typed by prefix (AddPiece, MovePiece, Chat, LogStep, ...). A typed command whose
fields do not parse becomes an `UnknownCommand` with a `problem` note: VASSAL ignores commands it
cannot decode, so a strange file still reads and round-trips.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Iterator

from vlog.errors import CommandSyntaxError
from vlog.vassal.sequence import Encoder, split

if TYPE_CHECKING:  # pragma: no cover
    from vlog.vassal.pieces import Piece

__all__ = [
    "ESC", "MAX_DEPTH", "MAX_TOKEN_CHARS", "Command", "NullCommand", "Group", "UnknownCommand",
    "AddPiece", "RemovePiece", "ChangePiece", "MovePiece", "Chat", "PlayerAdd", "PlayerRemove",
    "LogStep", "Undo", "Setup", "GlobalPropertySet", "MutableProperty", "TurnState",
    "BoardPicker", "Notes", "PublicNotes", "PrivateNote", "SecretNote", "SetupStack", "Ext",
    "Plugin", "Unmask", "DiceReport", "parse_dice_report", "decode", "decode_leaf", "encode",
    "walk", "execution_order", "is_pristine", "COMMAND_TYPES",
]

ESC = "\x1b"
MAX_DEPTH = 200
"""Deepest ESC nesting accepted; real files nest a handful of levels."""
MAX_TOKEN_CHARS = 256 * 1024 * 1024
"""Longest command string accepted (characters); guards memory on hostile input."""
MAX_COMMANDS = 500_000
"""Most command nodes one text may decode to: the largest real saves and logs hold a few tens of
thousands; a tiny XZ stream can inflate to millions, each costing memory and time."""
MAX_NESTING_WORK = 64
"""Characters the decoder may visit, as a multiple of the text's length: each nesting level
visits its text again (real files nest a handful of levels), so deep nesting of a long text is
refused instead of taking hours."""

_INT_RE = re.compile(r"[+-]?[0-9]+\Z")


class _Bad(Exception):
    """A typed payload whose fields do not parse: becomes an UnknownCommand."""


def _java_int(tok: str, what: str) -> int:
    """`Integer.parseInt`: ASCII digits with an optional sign, 32-bit."""
    if not _INT_RE.match(tok):
        raise _Bad(f"{what} {tok!r} is not an integer")
    v = int(tok)
    if not -(2**31) <= v < 2**31:
        raise _Bad(f"{what} {tok!r} is out of the 32-bit range")
    return v


def _unwrap_null(tok: str) -> str | None:
    return None if tok == "null" else tok


def _wrap_null(v: str | None) -> str:
    return "null" if v is None else v


def _join(delim: str, tokens: list[object]) -> str:
    enc = Encoder(delim)
    for t in tokens:
        enc.append(t)
    return enc.value() or ""


def _no_fields(obj: object) -> tuple:
    return ()


_GETTERS: dict[type, Any] = {}


@dataclass(eq=False)
class Command:
    """One node: its own payload and its sub-commands (`subs`), in order.

    `_enc` is the exact text the node was decoded from (payload and subs); `_raw` the exact
    payload; `_snap` the field values at decode time, to tell whether the node was changed.
    """

    KIND: ClassVar[str] = "command"
    FIELDS: ClassVar[tuple[str, ...]] = ()

    subs: list["Command"] = field(default_factory=list, kw_only=True, repr=False)
    _raw: str | None = field(default=None, kw_only=True, repr=False)
    _snap: tuple | None = field(default=None, kw_only=True, repr=False)
    _enc: str | None = field(default=None, kw_only=True, repr=False)
    _subs_snap: tuple | None = field(default=None, kw_only=True, repr=False)

    # -- fields and payload ---------------------------------------------------------------
    def values(self) -> tuple:
        """The typed field values, in `FIELDS` order."""
        getter = _GETTERS.get(type(self))
        if getter is None:
            names = type(self).FIELDS
            if not names:
                getter = _no_fields
            elif len(names) == 1:
                one = attrgetter(names[0])
                getter = lambda obj: (one(obj),)  # noqa: E731
            else:
                getter = attrgetter(*names)
            _GETTERS[type(self)] = getter
        return getter(self)

    def build(self) -> str | None:
        """The payload VASSAL writes for these field values."""
        raise NotImplementedError

    def payload_pristine(self) -> bool:
        return self._raw is not None and self._snap == self.values()

    def payload(self) -> str | None:
        """This node's own text (without sub-commands): the original when untouched."""
        if self.payload_pristine():
            return self._raw
        return self.build()

    def _remember(self, raw: str) -> "Command":
        self._raw = raw
        self._snap = self.values()
        return self

    # -- tree helpers ---------------------------------------------------------------------
    def append(self, cmd: "Command") -> "Command":
        """Add a sub-command (as `Command.append`, without VASSAL's null-dropping)."""
        self.subs.append(cmd)
        return self

    def walk(self) -> Iterator["Command"]:
        """This node and all its descendants, depth-first in encoding order."""
        return walk(self)

    def encode(self, *, legacy: bool = False) -> str | None:
        return encode(self, legacy=legacy)


@dataclass(eq=False)
class NullCommand(Command):
    """VASSAL's NullCommand: an empty payload, usually a container (`"" ␛ sub ␛ sub`)."""

    KIND: ClassVar[str] = "null"

    def build(self) -> str:
        return ""


@dataclass(eq=False)
class Group(Command):
    """A node whose own first token is itself a command tree (or a quoted token).

    VASSAL flattens such text on decode; keeping the head separately keeps it lossless.
    """

    KIND: ClassVar[str] = "group"
    FIELDS: ClassVar[tuple[str, ...]] = ("head",)
    head: Command = field(default_factory=NullCommand)

    def payload_pristine(self) -> bool:
        return self._snap == (self.head,) and is_pristine(self.head)

    def payload(self) -> str | None:
        return encode(self.head)

    def build(self) -> str | None:
        return encode(self.head)


@dataclass(eq=False)
class UnknownCommand(Command):
    """A payload no typed command claims (module-specific ones such as VASL's `INFO\\t`)."""

    KIND: ClassVar[str] = "unknown"
    FIELDS: ClassVar[tuple[str, ...]] = ("raw",)
    raw: str = ""
    problem: str | None = None

    def build(self) -> str:
        return self.raw


@dataclass(eq=False)
class Setup(Command):
    """`begin_save` (begin=True) / `end_save` (begin=False): GameState.SetupCommand."""

    KIND: ClassVar[str] = "setup"
    FIELDS: ClassVar[tuple[str, ...]] = ("begin",)
    begin: bool = True

    def build(self) -> str:
        return "begin_save" if self.begin else "end_save"


@dataclass(eq=False)
class AddPiece(Command):
    """`+/id/type/state`: a new piece. `id` None is written `null` (module definitions)."""

    KIND: ClassVar[str] = "add_piece"
    FIELDS: ClassVar[tuple[str, ...]] = ("id", "type", "state")
    PREFIX: ClassVar[str] = "+/"
    id: str | None = None
    type: str = ""
    state: str = ""

    @classmethod
    def parse(cls, s: str) -> "AddPiece":
        toks = split(s[2:], "/")
        if len(toks) < 3:
            raise _Bad("AddPiece needs id, type and state")
        return cls(_unwrap_null(toks[0]), toks[1], toks[2])

    def build(self) -> str:
        return "+/" + _join("/", [_wrap_null(self.id), self.type, self.state])

    @property
    def piece(self) -> "Piece":
        """The piece this command adds, traits parsed lazily."""
        from vlog.vassal.pieces import Piece
        return Piece(self.id, self.type, self.state)


@dataclass(eq=False)
class RemovePiece(Command):
    """`-/id`."""

    KIND: ClassVar[str] = "remove_piece"
    FIELDS: ClassVar[tuple[str, ...]] = ("id",)
    id: str = ""

    @classmethod
    def parse(cls, s: str) -> "RemovePiece":
        return cls(s[2:])

    def build(self) -> str:
        return "-/" + self.id


@dataclass(eq=False)
class ChangePiece(Command):
    """`D/id/newState[/oldState]`: a piece's whole state replaced."""

    KIND: ClassVar[str] = "change_piece"
    FIELDS: ClassVar[tuple[str, ...]] = ("id", "new_state", "old_state")
    id: str = ""
    new_state: str = ""
    old_state: str | None = None

    @classmethod
    def parse(cls, s: str) -> "ChangePiece":
        toks = split(s[2:], "/")
        if len(toks) < 2:
            raise _Bad("ChangePiece needs id and new state")
        return cls(toks[0], toks[1], toks[2] if len(toks) > 2 else None)

    def build(self) -> str:
        toks: list[object] = [self.id, self.new_state]
        if self.old_state is not None:
            toks.append(self.old_state)
        return "D/" + _join("/", toks)


@dataclass(eq=False)
class MovePiece(Command):
    """`M/id/newMap/newX/newY/newUnder/oldMap/oldX/oldY/oldUnder[/playerId]`.

    Map and underneath ids written `null` are None; `player_id` is the mover's password
    (None when the file has no tenth field).
    """

    KIND: ClassVar[str] = "move_piece"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "id", "new_map", "new_x", "new_y", "new_under", "old_map", "old_x", "old_y", "old_under",
        "player_id")
    id: str | None = None
    new_map: str | None = None
    new_x: int = 0
    new_y: int = 0
    new_under: str | None = None
    old_map: str | None = None
    old_x: int = 0
    old_y: int = 0
    old_under: str | None = None
    player_id: str | None = None

    @classmethod
    def parse(cls, s: str) -> "MovePiece":
        t = split(s[2:], "/")
        if len(t) < 9:
            raise _Bad(f"MovePiece needs 9 or 10 fields, found {len(t)}")
        return cls(
            _unwrap_null(t[0]), _unwrap_null(t[1]), _java_int(t[2], "new x"),
            _java_int(t[3], "new y"), _unwrap_null(t[4]), _unwrap_null(t[5]),
            _java_int(t[6], "old x"), _java_int(t[7], "old y"), _unwrap_null(t[8]),
            t[9] if len(t) > 9 else None)

    def build(self) -> str:
        toks: list[object] = [
            self.id, _wrap_null(self.new_map), self.new_x, self.new_y, _wrap_null(self.new_under),
            _wrap_null(self.old_map), self.old_x, self.old_y, _wrap_null(self.old_under)]
        if self.player_id is not None:
            toks.append(self.player_id)
        return "M/" + _join("/", toks)


_CHAT_FORMS = (("&lt;", "&gt; - "), ("<", "> - "))


@dataclass(eq=False)
class Chat(Command):
    """`CHAT<text>`: a chat line or a report (Chatter.DisplayText).

    Player chat is `<Name> - text` (VASSAL < 3.3.3) or `&lt;Name&gt; - text`; reports
    (movement, dice, Report Action) start with `*`.
    """

    KIND: ClassVar[str] = "chat"
    FIELDS: ClassVar[tuple[str, ...]] = ("text",)
    text: str = ""

    @classmethod
    def parse(cls, s: str) -> "Chat":
        return cls(s[4:])

    def build(self) -> str:
        return "CHAT" + self.text

    def _split(self) -> tuple[str, str] | None:
        for opening, closing in _CHAT_FORMS:
            if self.text.startswith(opening):
                end = self.text.find(closing, len(opening))
                if end != -1:
                    return self.text[len(opening):end], self.text[end + len(closing):]
        return None

    @property
    def is_report(self) -> bool:
        """True for `*` lines (reports, dice, joins), written by VASSAL not typed by a player."""
        return self.text.startswith("*")

    @property
    def speaker(self) -> str | None:
        """The player id format of a chat line (usually the player's name), None for reports."""
        parts = None if self.is_report else self._split()
        return parts[0] if parts else None

    @property
    def message(self) -> str:
        """What was said, without the speaker prefix; the whole text for reports."""
        parts = None if self.is_report else self._split()
        return parts[1] if parts else self.text

    @property
    def dice(self) -> "DiceReport | None":
        """The default DiceButton report in this line, if it is one."""
        return parse_dice_report(self.text)


@dataclass(frozen=True, slots=True)
class DiceReport:
    """VASSAL's default DiceButton report `*** NAME = r1,r2 *** <Player>`."""

    name: str
    result: str
    values: tuple[int, ...]
    player: str


_DICE_RE = re.compile(
    r"\*\*\* (?P<name>.+?) = (?P<result>[0-9]+(?:,[0-9]+)*) \*\*\* "
    r"(?:<(?P<p1>.*)>|&lt;(?P<p2>.*)&gt;)\Z", re.S)


def parse_dice_report(text: str) -> DiceReport | None:
    """Recognise `*** 3d6 = 3,4,1 *** <test>` (3.2) or `... &lt;test&gt;` (3.3.3+)."""
    m = _DICE_RE.match(text)
    if not m:
        return None
    result = m.group("result")
    player = m.group("p1") if m.group("p1") is not None else m.group("p2")
    return DiceReport(m.group("name"), result, tuple(int(v) for v in result.split(",")), player)


@dataclass(eq=False)
class PlayerAdd(Command):
    """`PLAYER\\tuserId\\tname\\tside` (PlayerRoster.Add); `user_id` is a password."""

    KIND: ClassVar[str] = "player_add"
    FIELDS: ClassVar[tuple[str, ...]] = ("user_id", "name", "side")
    user_id: str = ""
    name: str = ""
    side: str = ""

    @classmethod
    def parse(cls, s: str) -> "PlayerAdd":
        t = split(s, "\t")
        if len(t) < 4:
            raise _Bad("PLAYER needs user id, name and side")
        return cls(t[1], t[2], t[3])

    def build(self) -> str:
        return "PLAYER\t" + _join("\t", [self.user_id, self.name, self.side])


@dataclass(eq=False)
class PlayerRemove(Command):
    """`PYREMOVE\\tuserId` (3.6.0+)."""

    KIND: ClassVar[str] = "player_remove"
    FIELDS: ClassVar[tuple[str, ...]] = ("user_id",)
    user_id: str = ""

    @classmethod
    def parse(cls, s: str) -> "PlayerRemove":
        t = split(s, "\t")
        return cls(t[1] if len(t) > 1 else "")

    def build(self) -> str:
        return "PYREMOVE\t" + _join("\t", [self.user_id])


@dataclass(eq=False)
class LogStep(Command):
    """`LOG\\t<inner>`: one logged command (BasicLogger.LogCommand); its subs are LogSteps too."""

    KIND: ClassVar[str] = "log"
    FIELDS: ClassVar[tuple[str, ...]] = ("inner",)
    inner: Command = field(default_factory=NullCommand)

    def payload_pristine(self) -> bool:
        return self._raw is not None and self._snap == (self.inner,) and is_pristine(self.inner)

    def build(self) -> str:
        return "LOG\t" + (encode(self.inner) or "")

    def flatten(self) -> list[Command]:
        """The commands this step executes, in order (BasicLogger.LogCommand.assembleCommand)."""
        return list(execution_order(self))


@dataclass(eq=False)
class Undo(Command):
    """`UNDO\\ttrue` / `UNDO\\tfalse`: brackets the inverse commands of an undo."""

    KIND: ClassVar[str] = "undo"
    FIELDS: ClassVar[tuple[str, ...]] = ("in_progress",)
    in_progress: bool = True

    @classmethod
    def parse(cls, s: str) -> "Undo":
        return cls(s[5:] == "true")

    def build(self) -> str:
        return "UNDO\t" + ("true" if self.in_progress else "false")


@dataclass(eq=False)
class GlobalPropertySet(Command):
    """`GlobalProperty\\t;name;value;container`: restores one global property."""

    KIND: ClassVar[str] = "global_property"
    FIELDS: ClassVar[tuple[str, ...]] = ("name", "value", "container")
    name: str = ""
    value: str = ""
    container: str = ""

    @classmethod
    def parse(cls, s: str) -> "GlobalPropertySet":
        t = split(s, ";")
        if t[0] != "GlobalProperty\t":
            raise _Bad("not a GlobalProperty command")
        t += [""] * (4 - len(t))
        return cls(t[1], t[2], t[3])

    def build(self) -> str:
        return _join(";", ["GlobalProperty\t", self.name, self.value, self.container])


@dataclass(eq=False)
class MutableProperty(Command):
    """`MutableProperty\\tname\\told\\tnew\\tcontainer` (ChangePropertyCommand)."""

    KIND: ClassVar[str] = "mutable_property"
    FIELDS: ClassVar[tuple[str, ...]] = ("name", "old", "new", "container")
    name: str = ""
    old: str | None = None
    new: str | None = None
    container: str = ""

    @classmethod
    def parse(cls, s: str) -> "MutableProperty":
        t = split(s[len("MutableProperty\t"):], "\t")
        t += [None] * (3 - len(t))  # type: ignore[list-item]
        return cls(t[0], t[1], t[2], t[3] if len(t) > 3 and t[3] is not None else "")

    def build(self) -> str:
        return "MutableProperty\t" + _join("\t", [self.name, self.old, self.new, self.container])


@dataclass(eq=False)
class TurnState(Command):
    """`TURN<trackerId>\\tstate` (TurnTracker.SetTurn)."""

    KIND: ClassVar[str] = "turn"
    FIELDS: ClassVar[tuple[str, ...]] = ("tracker_id", "state")
    tracker_id: str = ""
    state: str = ""

    @classmethod
    def parse(cls, s: str) -> "TurnState":
        t = split(s, "\t")
        return cls(t[0][4:], t[1] if len(t) > 1 else "")

    def build(self) -> str:
        return _join("\t", ["TURN" + self.tracker_id, self.state])


@dataclass(eq=False)
class BoardPicker(Command):
    """`<mapId>BoardPicker\\tboard\\tcol\\trow...`: the boards chosen for a map."""

    KIND: ClassVar[str] = "board_picker"
    FIELDS: ClassVar[tuple[str, ...]] = ("map_id", "entries")
    map_id: str = ""
    entries: tuple[str, ...] = ()

    @classmethod
    def parse(cls, s: str) -> "BoardPicker":
        t = split(s, "\t")
        return cls(t[0][: -len("BoardPicker")], tuple(t[1:]))

    def build(self) -> str:
        return _join("\t", [self.map_id + "BoardPicker", *self.entries])

    @property
    def boards(self) -> list[tuple[str, bool, int, int]]:
        """(board name, reversed, column, row) for each board; unparsable numbers give 0."""
        out = []
        e = list(self.entries)
        for i in range(0, len(e) - 2, 3):
            parts = split(e[i], "/")
            col = int(e[i + 1]) if _INT_RE.match(e[i + 1]) else 0
            row = int(e[i + 2]) if _INT_RE.match(e[i + 2]) else 0
            out.append((parts[0], len(parts) > 1 and parts[1] == "rev", col, row))
        return out


@dataclass(eq=False)
class Notes(Command):
    """`NOTES\\t<scenario notes>`."""

    KIND: ClassVar[str] = "notes"
    FIELDS: ClassVar[tuple[str, ...]] = ("text",)
    PREFIX: ClassVar[str] = "NOTES\t"
    text: str = ""

    @classmethod
    def parse(cls, s: str) -> "Notes":
        return cls(s[len(cls.PREFIX):])

    def build(self) -> str:
        return self.PREFIX + self.text


@dataclass(eq=False)
class PublicNotes(Notes):
    """`PNOTES\\t<public notes>`."""

    KIND: ClassVar[str] = "public_notes"
    PREFIX: ClassVar[str] = "PNOTES\t"


@dataclass(eq=False)
class PrivateNote(Command):
    """`PNOTE\\towner\\ttext`: one player's private notes (owner = user id, a password)."""

    KIND: ClassVar[str] = "private_note"
    FIELDS: ClassVar[tuple[str, ...]] = ("owner", "text")
    owner: str = ""
    text: str | None = None

    @classmethod
    def parse(cls, s: str) -> "PrivateNote":
        t = split(s[6:], "\t")
        return cls(t[0], t[1] if len(t) > 1 else None)

    def build(self) -> str:
        toks: list[object] = [self.owner]
        if self.text is not None:
            toks.append(self.text)
        return "PNOTE\t" + _join("\t", toks)


@dataclass(eq=False)
class SecretNote(Command):
    """`SNOTE\\tname\\towner\\thidden\\ttext[\\tdate[\\thandle]]`."""

    KIND: ClassVar[str] = "secret_note"
    FIELDS: ClassVar[tuple[str, ...]] = ("name", "owner", "hidden", "text", "date", "handle")
    name: str = ""
    owner: str = ""
    hidden: str = "false"
    text: str = ""
    date: str | None = None
    handle: str | None = None

    @classmethod
    def parse(cls, s: str) -> "SecretNote":
        t = split(s[6:], "\t")
        if len(t) < 4:
            raise _Bad("SNOTE needs name, owner, hidden and text")
        return cls(t[0], t[1], t[2], t[3], t[4] if len(t) > 4 else None,
                   t[5] if len(t) > 5 else None)

    def build(self) -> str:
        toks: list[object] = [self.name, self.owner, self.hidden, self.text]
        if self.date is not None or self.handle is not None:
            toks.append(self.date)
        if self.handle is not None:
            toks.append(self.handle)
        return "SNOTE\t" + _join("\t", toks)


@dataclass(eq=False)
class SetupStack(Command):
    """`SETUP_STACK\\t`: the game is not new, at-start stacks are not re-created."""

    KIND: ClassVar[str] = "setup_stack"
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def build(self) -> str:
        return "SETUP_STACK\t"


@dataclass(eq=False)
class Ext(Command):
    """`EXT\\tname\\tversion`: an extension loaded when the file was written."""

    KIND: ClassVar[str] = "ext"
    FIELDS: ClassVar[tuple[str, ...]] = ("name", "version")
    PREFIX: ClassVar[str] = "EXT\t"
    name: str = ""
    version: str = ""

    @classmethod
    def parse(cls, s: str) -> "Ext":
        t = split(s[len(cls.PREFIX):], "\t")
        if len(t) < 2:
            raise _Bad(f"{cls.PREFIX.strip()} needs name and version")
        return cls(t[0], t[1])

    def build(self) -> str:
        return self.PREFIX + _join("\t", [self.name, self.version])


@dataclass(eq=False)
class Plugin(Ext):
    """`PLUGIN\\tname\\tversion`."""

    KIND: ClassVar[str] = "plugin"
    PREFIX: ClassVar[str] = "PLUGIN\t"


@dataclass(eq=False)
class Unmask(Command):
    """`UNMASK\\tid...`: user ids allowed to unmask others' pieces (`null`/empty: none)."""

    KIND: ClassVar[str] = "unmask"
    FIELDS: ClassVar[tuple[str, ...]] = ("user_ids",)
    user_ids: tuple[str, ...] = ()

    @classmethod
    def parse(cls, s: str) -> "Unmask":
        return cls(tuple(split(s[7:], "\t")))

    def build(self) -> str:
        return "UNMASK\t" + _join("\t", list(self.user_ids))


COMMAND_TYPES: dict[str, type[Command]] = {
    c.KIND: c for c in (
        NullCommand, Group, UnknownCommand, Setup, AddPiece, RemovePiece, ChangePiece, MovePiece,
        Chat, PlayerAdd, PlayerRemove, LogStep, Undo, GlobalPropertySet, MutableProperty,
        TurnState, BoardPicker, Notes, PublicNotes, PrivateNote, SecretNote, SetupStack, Ext,
        Plugin, Unmask)
}
"""Every node class by its `KIND` (the JSON form's `command`)."""

_PREFIXED: tuple[tuple[str, Any], ...] = (
    ("+/", AddPiece.parse), ("M/", MovePiece.parse), ("D/", ChangePiece.parse),
    ("-/", RemovePiece.parse), ("CHAT", Chat.parse), ("MutableProperty\t", MutableProperty.parse),
    ("UNDO\t", Undo.parse), ("PLAYER\t", PlayerAdd.parse), ("PYREMOVE\t", PlayerRemove.parse),
    ("GlobalProperty\t", GlobalPropertySet.parse), ("NOTES\t", Notes.parse),
    ("PNOTES\t", PublicNotes.parse), ("PNOTE\t", PrivateNote.parse),
    ("SNOTE\t", SecretNote.parse), ("EXT\t", Ext.parse), ("PLUGIN\t", Plugin.parse),
    ("UNMASK\t", Unmask.parse),
)


class _Ctx:
    __slots__ = ("file", "top", "where", "count", "work", "max_work")

    def __init__(self, file: str | None, length: int = 0):
        self.file = file
        self.top = 0  # index of the top-level token being decoded
        self.where = ""
        self.count = 0  # command nodes decoded so far
        self.work = 0  # characters visited so far, every nesting level counted
        self.max_work = MAX_NESTING_WORK * length + (1 << 20)


def decode_leaf(s: str, ctx: _Ctx | None = None, depth: int = 0) -> Command:
    """One payload without unescaped ESC, typed by its prefix."""
    if not s:
        return NullCommand()._remember(s)
    if s == "begin_save" or s == "end_save":
        return Setup(s == "begin_save")._remember(s)
    if s.startswith("LOG\t"):
        inner = _decode(s[4:], ctx or _Ctx(None, len(s)), depth + 1)
        node = LogStep(inner)
        node._raw = s
        node._snap = (inner,)
        return node
    try:
        for prefix, parse in _PREFIXED:
            if s.startswith(prefix):
                return parse(s)._remember(s)
        if s.startswith("SETUP_STACK\t"):
            return SetupStack()._remember(s)
        tab = s.find("\t")
        if tab != -1:
            if s[:tab].endswith("BoardPicker"):  # BoardPicker.decode: startsWith(id + "BoardPicker\t")
                return BoardPicker.parse(s)._remember(s)
            if s.startswith("TURN"):
                return TurnState.parse(s)._remember(s)
    except _Bad as exc:
        return UnknownCommand(s, str(exc))._remember(s)
    return UnknownCommand(s)._remember(s)


def _decode(s: str, ctx: _Ctx, depth: int) -> Command:
    if depth > MAX_DEPTH:
        raise CommandSyntaxError(
            f"commands nested more than {MAX_DEPTH} levels deep", file=ctx.file,
            where=f"top-level command {ctx.top}")
    ctx.count += 1
    ctx.work += len(s)
    if ctx.count > MAX_COMMANDS:
        raise CommandSyntaxError(
            f"more than {MAX_COMMANDS} commands (far more than any real save or log holds)",
            file=ctx.file, where=f"top-level command {ctx.top}")
    if ctx.work > ctx.max_work:
        raise CommandSyntaxError(
            "commands nested so deeply that decoding them would take too long",
            file=ctx.file, where=f"top-level command {ctx.top}")
    if ESC not in s and not (len(s) > 1 and s[0] == "'" and s[-1] == "'"):
        node = decode_leaf(s, ctx, depth)
        node._enc = s
        return node
    tokens = split(s, ESC)
    if len(tokens) == 1 and tokens[0] == s:
        node = decode_leaf(s, ctx, depth)
        node._enc = s
        return node
    head = _decode(tokens[0], ctx, depth + 1)
    subs = [_decode(t, ctx, depth + 1) for t in tokens[1:]]
    if head.subs or head._enc != tokens[0] or isinstance(head, Group):
        node: Command = Group(head, subs=subs)
        node._snap = (head,)
    else:
        node = head
        node.subs = subs
    node._subs_snap = tuple(subs)
    node._enc = s
    return node


def decode(text: str, *, file: str | None = None) -> Command:
    """`GameModule.decode`: the whole command tree of a save or log text.

    Raises CommandSyntaxError (naming the file and the top-level command) for text nested
    deeper than MAX_DEPTH or longer than MAX_TOKEN_CHARS.
    """
    if len(text) > MAX_TOKEN_CHARS:
        raise CommandSyntaxError(
            f"command text of {len(text)} characters exceeds the {MAX_TOKEN_CHARS} limit",
            file=file, where="offset 0")
    separators = text.count(ESC)  # every command but a LOG step's inner one has its own ESC
    if separators > MAX_COMMANDS:
        raise CommandSyntaxError(
            f"{separators} command separators, more than the {MAX_COMMANDS} commands any real "
            "save or log holds", file=file, where="offset 0")
    ctx = _Ctx(file, len(text))
    if ESC not in text:
        return _decode(text, ctx, 0)
    tokens = split(text, ESC)
    if len(tokens) == 1 and tokens[0] == text:
        return _decode(text, ctx, 0)
    parts = []
    for i, tok in enumerate(tokens):
        ctx.top = i
        try:
            parts.append(_decode(tok, ctx, 1))
        except CommandSyntaxError as exc:
            raise CommandSyntaxError(
                exc.message, file=file,
                where=f"top-level command {i} at offset {_top_offset(text, i)}") from None
        except RecursionError:
            raise CommandSyntaxError(
                "commands nested too deeply", file=file,
                where=f"top-level command {i} at offset {_top_offset(text, i)}") from None
    head, subs = parts[0], parts[1:]
    if head.subs or head._enc != tokens[0] or isinstance(head, Group):
        node: Command = Group(head, subs=subs)
        node._snap = (head,)
    else:
        node = head
        node.subs = subs
    node._subs_snap = tuple(subs)
    node._enc = text
    return node


def _top_offset(text: str, index: int) -> int:
    """Character offset of the index-th top-level ESC token (for error messages)."""
    pos = 0
    for _ in range(index):
        while True:
            j = text.find(ESC, pos)
            if j == -1:
                return len(text)
            pos = j + 1
            if j == 0 or text[j - 1] != "\\":
                break
    return pos


def is_pristine(cmd: Command) -> bool:
    """True when `cmd` and everything under it is exactly as decoded."""
    stack = [cmd]
    while stack:
        c = stack.pop()
        if c._enc is None or c._subs_snap is None and c.subs:
            return False
        if c._subs_snap is not None:
            snap = c._subs_snap
            if len(snap) != len(c.subs) or any(a is not b for a, b in zip(snap, c.subs)):
                return False
        if not c.payload_pristine():
            return False
        stack.extend(c.subs)
    return True


def encode(cmd: Command | None, *, legacy: bool = False) -> str | None:
    """`GameModule.encode`: the text of a command tree (the original text when untouched).

    `legacy=True` applies the SequenceEncoder quoting of VASSAL < 3.4 to rebuilt nodes.
    """
    if cmd is None:
        return None
    if is_pristine(cmd):
        return cmd._enc
    return _encode(cmd, legacy)


def _encode(cmd: Command, legacy: bool) -> str | None:
    if cmd._enc is not None and is_pristine(cmd):
        return cmd._enc
    # each child is encoded once: encoding a head twice per level would be exponential in depth
    if isinstance(cmd, LogStep):
        payload = cmd._raw if cmd.payload_pristine() else "LOG\t" + (_encode(cmd.inner, legacy) or "")
    elif isinstance(cmd, Group):
        payload = _encode(cmd.head, legacy)
    else:
        payload = cmd.payload()
    if not cmd.subs:
        return payload
    enc = Encoder(ESC, legacy=legacy, start=True) if payload is None else Encoder(
        ESC, payload, legacy=legacy, start=True)
    for sub in cmd.subs:
        s = _encode(sub, legacy)
        if s is not None:
            enc.append(s)
    return enc.value()


def walk(cmd: Command) -> Iterator[Command]:
    """Every node depth-first in encoding order; LogStep and Group inner commands included."""
    stack = [cmd]
    while stack:
        c = stack.pop()
        yield c
        children = list(c.subs)
        if isinstance(c, LogStep):
            children.insert(0, c.inner)
        elif isinstance(c, Group):
            children.insert(0, c.head)
        stack.extend(reversed(children))


def execution_order(root: Command) -> Iterator[Command]:
    """The typed commands of a tree in the order VASSAL executes them (node, then its subs);
    containers (NullCommand, Group, LogStep) are unwrapped."""
    stack: list[Command] = [root]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.subs))
        if isinstance(node, LogStep):
            stack.append(node.inner)
        elif isinstance(node, Group):
            stack.append(node.head)
        elif not isinstance(node, NullCommand):
            yield node
