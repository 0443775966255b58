"""The table a save or log describes: every piece where it lies, stacks, decks, properties, turn.

`Table` knows nothing of rules. It is rebuilt from a save's restore block (`Table.from_save`) and
changed one typed command at a time (`apply`), the way VASSAL's commands change its GameState:

* AddPiece / RemovePiece put pieces on and off the table; a Stack or Deck AddPiece gathers the
  children its state lists (in saves the children come first, as VASSAL writes them).
* MovePiece follows `MovePiece.executeCommand`: onto the piece named underneath when it still
  lies at the new point, else merged onto the stack (or deck, or lone piece) already at that
  point, else placed alone - in a new stack, as VASSAL 3.7 does for a piece outside any stack.
  Pieces with a Does Not Stack trait never stack; a map whose stacking is switched off in the
  module is not known here (the module reader does not say), so stacking is assumed.
  A move with no piece underneath puts the piece at the bottom of its stack. VASSAL's own stack
  ids for stacks it creates during play are never logged; such stacks get ids `~stack-N` here.
* A stack that loses its last piece leaves the table. VASSAL keeps it in memory, empty, but it
  shows nothing, no move merges onto it (`MovePiece.createMergeFinder` wants a top piece) and no
  save holds it (`GameState.getRestorePiecesCommand`); dropping it keeps the table's size
  following its pieces however long the log. A stack the log itself named (the starting
  position's, or one a logged AddPiece made) is kept aside, so a later command naming it still
  finds it.
* ChangePiece with an old state merges trait by trait (`Decorator.mergeState`: only the traits
  whose state differs between old and new change); without one the whole state is replaced.
* Global properties (GlobalProperty / MutableProperty, by container), turn trackers, players,
  boards, notes and extensions are kept as the commands set them.

Undo needs nothing special: an undo step carries VASSAL's inverse commands, which are applied
like any others. Commands the table cannot apply (unknown payloads, a move of a piece that is not
on the table) never raise; they are kept in `problems` with their step and raw text.

Pieces are immutable `TablePiece` records held in plain dicts, so `copy()` is a shallow copy of
a few dicts and snapshots share every unchanged piece. Masked (Mask) and invisible (Invisible)
pieces are tracked with their true state; `TablePiece.concealed` says that the other side does
not see them, and `shown_name` gives what that side sees.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Iterator, NamedTuple

from vlog.vassal.commands import (
    execution_order,
    AddPiece, BoardPicker, ChangePiece, Chat, Command, Ext, GlobalPropertySet, Group, LogStep,
    MovePiece, MutableProperty, Notes, NullCommand, PlayerAdd, PlayerRemove, Plugin, PrivateNote,
    PublicNotes, RemovePiece, SecretNote, Setup, SetupStack, TurnState, Undo, UnknownCommand, Unmask,
)
from vlog.vassal.pieces import (
    BasicPiece, Deck, Embellishment, Piece, Stack, join_chain, split_chain,
)
from vlog.vassal.sequence import join, split

__all__ = ["Table", "TablePiece", "Layer", "Player", "Problem", "MODULE_CONTAINER"]

MODULE_CONTAINER = "Module"
"""The container id of module-level global properties (an empty container means the same)."""

SYNTHETIC_STACK_PREFIX = "~stack-"
_REVISIONS = itertools.count(1)
"""Revision numbers, unique in the process: a table takes a new one at each change of its pieces."""
MAX_RAW_CHARS = 500

NEUTRAL_PREFIXES = ("SGKC\t", "CLOCK\t", "CLOCKCONTROL\t", "SHOW_RESULTS\t", "SEMAIL\t", "FLARE\t",
                    "LOS\t", "LOCKSPOTAB", "Events", "AUDIO\t")
"""VASSAL's own commands that change nothing on the table (startup key commands applied, chess
clocks, special-dice results, flares, LOS threads, audio; see vassal-format.md section 4.3).
The codec keeps them as raw text; the table records their latest text in `components`
instead of reporting them as entries it cannot interpret."""
"""Raw text kept per problem; a hostile entry cannot make the table hold megabytes of it."""


class Player(NamedTuple):
    """A PLAYER entry. `user_id` is the player's password: never print it."""

    user_id: str
    name: str
    side: str


class Layer(NamedTuple):
    """One Layer trait: its name, 1-based level, whether it is shown, and the level's name."""

    name: str
    level: int
    active: bool
    level_name: str | None


MODULE_COMMAND = "module-command"
"""Problem kind of an entry a module's own command encoder wrote (VASL's `INFO`, `bd`, `OBA/`):
well formed, kept raw, but not VASSAL's, so nothing vlog can apply to the table."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A command the table could not apply, at `step` (0 = the starting position)."""

    step: int
    kind: str
    message: str
    raw: str
    concealed: bool = False
    """The raw text names a piece a side may not see (a move of an invisible piece, anything else
    of a masked or invisible one): shown only to a referee."""


_PIECE_FIELDS = frozenset(("id", "type", "state", "map", "x", "y", "parent", "children"))
"""What `TablePiece.replace` may change."""


class TablePiece:
    """A piece (or stack, or deck) as it lies on the table now. Treat as immutable.

    `map`, `x`, `y` are where it is (a stacked piece is where its stack is); `parent` is the id of
    its stack or deck, `children` the ids a stack or deck holds, bottom to top. `state` is the
    state text as the last command set it: moves change the point, not this text (see
    `Table.restore_commands` for states rewritten to the current point).
    """

    __slots__ = ("id", "type", "state", "map", "x", "y", "parent", "children", "kind", "_piece")

    def __init__(self, id: str, type: str, state: str, map: str | None, x: int, y: int,
                 parent: str | None = None, children: tuple[str, ...] = (),
                 piece: Piece | None = None):
        self.id = id
        self.type = type
        self.state = state
        self.map = map
        self.x = x
        self.y = y
        self.parent = parent
        self.children = children
        self.kind = _kind_of(type)
        """`piece`, `stack`, `deck`, or a module's own basic piece class prefix."""
        self._piece = piece

    def replace(self, **changes: object) -> "TablePiece":
        """A copy with some fields changed (the parsed piece is kept while type and state are).
        Moves replace pieces at every step: the fields are copied one by one, not through a dict."""
        unknown = changes.keys() - _PIECE_FIELDS
        if unknown:
            raise TypeError(f"TablePiece has no field {sorted(unknown)[0]!r}")
        get = changes.get
        new = object.__new__(TablePiece)
        new.id = get("id", self.id)
        new.type = kind_of = get("type", self.type)
        new.state = get("state", self.state)
        new.map = get("map", self.map)
        new.x = get("x", self.x)
        new.y = get("y", self.y)
        new.parent = get("parent", self.parent)
        new.children = get("children", self.children)
        new.kind = self.kind if kind_of == self.type else _kind_of(kind_of)
        new._piece = self._piece if ("state" not in changes and "type" not in changes) else None
        return new

    def __repr__(self) -> str:
        return (f"TablePiece(id={self.id!r}, name={self.name!r}, map={self.map!r}, x={self.x}, "
                f"y={self.y}, parent={self.parent!r}, children={len(self.children)})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TablePiece):
            return NotImplemented
        return (self.id, self.type, self.state, self.map, self.x, self.y, self.parent,
                self.children) == (other.id, other.type, other.state, other.map, other.x, other.y,
                                   other.parent, other.children)

    __hash__ = None  # type: ignore[assignment]

    # -- interpreted on demand ----------------------------------------------------------------
    @property
    def piece(self) -> Piece:
        """The vlog Piece (traits parsed lazily, once per record)."""
        if self._piece is None:
            self._piece = Piece(self.id, self.type, self.state)
        return self._piece

    @property
    def is_container(self) -> bool:
        return self.kind in ("stack", "deck")

    @property
    def name(self) -> str:
        return "" if self.type == "stack" else self.piece.name

    @property
    def point(self) -> tuple[str | None, int, int]:
        return (self.map, self.x, self.y)

    @property
    def properties(self) -> dict[str, str]:
        return {} if self.type == "stack" else self.piece.properties

    @property
    def layers(self) -> list[Layer]:
        """Every Layer trait, outermost first (a counter's side or step is usually one)."""
        if self.type == "stack":
            return []
        return [Layer(t.name, t.level, t.active, t.level_name)
                for t in self.piece.traits_of(Embellishment)]  # type: ignore[attr-defined]

    @property
    def masked_by(self) -> str | None:
        """The user id (a password) of the player who masked it, None when unmasked."""
        return None if self.type == "stack" else self.piece.masked_by

    @property
    def hidden_by(self) -> str | None:
        """The user id (a password) of the player who made it invisible, None when visible."""
        return None if self.type == "stack" else self.piece.hidden_by

    @property
    def no_stack(self) -> bool:
        """True for a piece with a Does Not Stack trait (`immob;`): VASSAL never stacks it."""
        return "immob;" in self.type and any(t.id_prefix == "immob;" for t in self.piece.traits)

    @property
    def concealed(self) -> bool:
        """True when masked or invisible: the other side does not see what it is."""
        return self.type != "stack" and self.piece.concealed

    @property
    def mask_name(self) -> str | None:
        return None if self.type == "stack" else self.piece.mask_name

    def shown_name(self, *, referee: bool = False) -> str:
        """The name the other side sees: the true name only when not concealed (or for a referee)."""
        if self.type == "stack":
            return self.name or self.kind
        return self.piece.shown_name(referee=referee)

    def comparable_state(self) -> tuple[str, ...]:
        """Trait states without the basic piece's map and position (which a stack overrides);
        () for stacks and decks, whose contents and point are their `children` and `point`."""
        if self.is_container:
            return ()
        states = split_chain(self.state)
        if not states:
            return ()
        basic = split(states[-1], ";")
        return (*states[:-1], *basic[3:])


def _kind_of(type_: str) -> str:
    """The basic piece's kind from the type chain without splitting it: the basic type is the
    text after the chain's last TAB (Stack and Deck types are never decorated)."""
    if type_ == "stack":
        return "stack"
    if type_.startswith("deck;"):
        return "deck"
    basic = type_.rsplit("\t", 1)[-1]
    if basic.startswith("piece;"):
        return "piece"
    i = basic.find(";")
    return basic if i == -1 else basic[: i + 1]


def _basic_state(state: str) -> str:
    """The last element of a state chain (the basic piece's state).

    Fast path: the text after the chain's last TAB when it holds no backslash (then no level of
    escaping touched it); otherwise the whole chain is decoded. Splitting a 40-trait chain
    level by level costs quadratic time, and most states end in a plain `map;x;y;gpid...`.
    """
    if not state:
        return ""
    tail = state.rsplit("\t", 1)[-1]
    if "\\" not in tail:
        return tail
    return split_chain(state)[-1]


def _basic_point(state: str) -> tuple[str | None, int, int]:
    """(map, x, y) from the basic piece's state, the last element of the state chain."""
    basic = _basic_state(state)
    reader = BasicPiece(BasicPiece.ID, basic)
    return reader.map, reader.x, reader.y


def _with_point(state: str, map_id: str | None, x: int, y: int) -> str:
    """A piece state chain with its basic state's map and position replaced."""
    states = split_chain(state)
    basic = split(states[-1], ";") if states[-1] else []
    basic += [""] * (3 - len(basic))
    basic[0:3] = [map_id or "null", str(x), str(y)]
    states[-1] = join(basic, ";") or ""
    return join_chain(states)


def _raw(cmd: Command) -> str:
    try:
        text = cmd.payload() or ""
    except Exception:  # noqa: BLE001 - a node that cannot re-encode still gets reported
        text = ""
    return text if len(text) <= MAX_RAW_CHARS else text[:MAX_RAW_CHARS] + "..."


def _merge_state(current: str, new: str, old: str) -> str:
    """`Decorator.mergeState`: the traits whose state differs between old and new take the new."""
    cur = split_chain(current)
    new_parts = split_chain(new)
    old_parts = split_chain(old)
    if len(cur) != len(new_parts) or len(old_parts) != len(new_parts):
        return new
    changed = False
    for i, (n, o) in enumerate(zip(new_parts, old_parts)):
        if n != o and cur[i] != n:
            cur[i] = n
            changed = True
    return join_chain(cur) if changed else current


_ABSENT = object()
_GONE = object()


class _Emptied:
    """The stacks with logged ids that lost their last piece, by id: what a later command naming
    one revives. A copy of a table shares what the table held, as frozen layers; what either adds
    or takes out after goes into a layer of its own. So a copy at every step costs the same however
    many stacks a long log has emptied (a move onto an empty point logs a new stack and empties
    the old one). Layers of like size are merged as they pile up: each entry is merged into a
    bigger layer a few times over a log, and a look-up reads a few layers."""

    __slots__ = ("own", "below")

    def __init__(self, own: dict | None = None, below: tuple[dict, ...] = ()):
        self.own: dict = {} if own is None else own
        self.below = below

    def get(self, key: str) -> "TablePiece | None":
        found = self.own.get(key, _ABSENT)
        if found is _ABSENT:
            for layer in self.below:
                found = layer.get(key, _ABSENT)
                if found is not _ABSENT:
                    break
            else:
                return None
        return None if found is _GONE else found

    def add(self, key: str, record: "TablePiece") -> None:
        self.own[key] = record

    def pop(self, key: str) -> "TablePiece | None":
        found = self.get(key)
        if found is not None:
            if self.below:
                self.own[key] = _GONE           # a layer below holds it: mark it taken out
            else:
                del self.own[key]
        return found

    def copy(self) -> "_Emptied":
        """This one frozen into the layers both share, and a copy over them."""
        if self.own:
            layers = [self.own, *self.below]
            while len(layers) > 1 and 2 * len(layers[0]) >= len(layers[1]):
                merged = {**layers[1], **layers[0]}
                if len(layers) == 2:             # the bottom layer: what was taken out is gone
                    merged = {k: v for k, v in merged.items() if v is not _GONE}
                layers[:2] = [merged]
            self.own, self.below = {}, tuple(layers)
        return _Emptied({}, self.below)

    def ids(self) -> set[str]:
        """Every id held (for tests)."""
        out: set[str] = set()
        for layer in (*reversed(self.below), self.own):
            for key, value in layer.items():
                (out.discard if value is _GONE else out.add)(key)
        return out


class Table:
    """Everything on the table at one moment of a game (see the module docstring)."""

    def __init__(self, module: object | None = None):
        self.module = module
        self.pieces: dict[str, TablePiece] = {}
        self.global_properties: dict[tuple[str, str], str] = {}
        """(container, name) -> value; container "Module", a map name, or "map:zone"."""
        self.turns: dict[str, str] = {}
        """Turn tracker id -> its state string (`SE('|')[currentLevel, level states...]`)."""
        self.players: dict[str, Player] = {}
        self.boards: dict[str, tuple[tuple[str, int, int, bool], ...]] = {}
        """Map id -> the boards chosen (name, column, row, reversed), from BoardPicker commands."""
        self.notes: dict[str, str] = {}
        self.extensions: dict[str, str] = {}
        self.unmask: tuple[str, ...] = ()
        self.components: dict[str, str] = {}
        """Latest text of VASSAL component commands with no table effect, by their first two
        TAB-separated tokens (`SGKC\tSGKC0`, `CLOCK\tBlue`)."""
        self.problems: list[Problem] = []
        self.undo_in_progress = False
        self.step = 0
        self._next_stack = 1
        self._names: dict[tuple[str, int, int], str | None] = {}
        self._at: dict[tuple[str | None, int, int], tuple[str, ...]] = {}
        """Point -> ids of the pieces, stacks and decks lying there outside any stack, in the
        order they arrived (the last is the top-most); kept by `_set`/`_delete`."""
        self._emptied = _Emptied()
        """Stacks with logged ids that lost their last piece, by id (see `_drop_if_empty`)."""
        self._revision = next(_REVISIONS)
        self._copied_from: int | None = None
        self._touched: set[str] = set()
        self._reordered = False

    # -- what changed since the copy -----------------------------------------------------------
    @property
    def revision(self) -> int:
        """This table's pieces as they stand now: a number no other table's pieces, nor these
        after a change, ever have (what was read from a table at one revision holds at it)."""
        return self._revision

    def changed_since_copy(self) -> tuple[int, frozenset[str], bool] | None:
        """What changed since this table was copied: the revision copied, the ids of the pieces
        set or taken off since, and whether the order of the game pieces (not stacks or decks)
        may differ from the copied table's (one came onto or left the table). None for a
        table built from a save. A reader of every piece reads only these, on what it read at
        that revision (vlog.kit.units)."""
        if self._copied_from is None:
            return None
        return self._copied_from, frozenset(self._touched), self._reordered

    # -- building ---------------------------------------------------------------------------
    @classmethod
    def from_save(cls, save: object, module: object | None = None) -> "Table":
        """The position a save (or a log's starting block) restores."""
        table = cls(module)
        restore = getattr(save, "restore_commands")
        for cmd in restore():
            if not isinstance(cmd, (NullCommand, Group, LogStep)):
                table.apply(cmd)
        return table

    def copy(self) -> "Table":
        """An independent table sharing every (immutable) piece record."""
        new = Table.__new__(Table)
        new.module = self.module
        new.pieces = dict(self.pieces)
        new.global_properties = dict(self.global_properties)
        new.turns = dict(self.turns)
        new.players = dict(self.players)
        new.boards = dict(self.boards)
        new.notes = dict(self.notes)
        new.extensions = dict(self.extensions)
        new.unmask = self.unmask
        new.components = dict(self.components)
        new.problems = list(self.problems)
        new.undo_in_progress = self.undo_in_progress
        new.step = self.step
        new._next_stack = self._next_stack
        new._names = self._names
        new._at = dict(self._at)
        new._emptied = self._emptied.copy()
        new._revision = next(_REVISIONS)
        new._copied_from = self._revision
        new._touched = set()
        new._reordered = False
        return new

    def apply_all(self, commands: Iterable[Command]) -> None:
        for cmd in commands:
            self.apply(cmd)

    def apply(self, cmd: Command) -> None:
        """Apply one typed command (containers are unwrapped and their contents applied)."""
        if isinstance(cmd, (NullCommand, Group, LogStep)):
            for inner in execution_order(cmd):
                self.apply(inner)
            return
        handler = _HANDLERS.get(type(cmd))
        if handler is None:
            if isinstance(cmd, UnknownCommand):
                if cmd.problem is None and cmd.raw.startswith(NEUTRAL_PREFIXES):
                    self.components["\t".join(cmd.raw.split("\t", 2)[:2])] = cmd.raw
                    return
                if cmd.problem is None:         # a prefix no VASSAL encoder vlog knows: the module's own
                    self._problem(MODULE_COMMAND, "a command of the module's own encoder, kept raw", cmd)
                else:
                    self._problem("unknown", cmd.problem, cmd)
            else:
                self._problem("unhandled", f"{type(cmd).__name__} is not applied to the table", cmd)
            return
        handler(self, cmd)

    def _problem(self, kind: str, message: str, cmd: Command) -> None:
        raw = _raw(cmd)
        self.problems.append(Problem(self.step, kind, message, raw, self._raw_conceals(raw)))

    def _raw_conceals(self, raw: str) -> bool:
        from vlog.vassal.privacy import raw_piece_id

        held = self.pieces.get(raw_piece_id(raw) or "")
        if held is None or held.type == "stack":
            return False
        return held.hidden_by is not None if raw.startswith("M/") else held.piece.concealed

    # -- queries ----------------------------------------------------------------------------
    def __contains__(self, piece_id: object) -> bool:
        return piece_id in self.pieces

    def __getitem__(self, piece_id: str) -> TablePiece:
        return self.pieces[piece_id]

    def get(self, piece_id: str | None) -> TablePiece | None:
        return None if piece_id is None else self.pieces.get(piece_id)

    def game_pieces(self) -> Iterator[TablePiece]:
        """Every piece that is not a stack or deck, in the order they came onto the table."""
        return (p for p in self.pieces.values() if not p.is_container)

    def stacks(self) -> Iterator[TablePiece]:
        """Stacks holding at least one piece (VASSAL does not save empty stacks either)."""
        return (p for p in self.pieces.values() if p.kind == "stack" and p.children)

    def decks(self) -> Iterator[TablePiece]:
        return (p for p in self.pieces.values() if p.kind == "deck")

    def pieces_at(self, map_id: str, x: int, y: int) -> list[TablePiece]:
        """The game pieces at a point, bottom to top for stacked ones."""
        out: list[TablePiece] = []
        for pid in self._at.get((map_id, x, y), ()):
            p = self.pieces[pid]
            if p.is_container:
                out.extend(self.pieces[c] for c in p.children if c in self.pieces)
            else:
                out.append(p)
        return out

    def stack_of(self, piece_id: str) -> tuple[str | None, int | None]:
        """(stack or deck id, 0-based index from the bottom) of a piece; (None, None) when alone."""
        p = self.pieces.get(piece_id)
        if p is None or p.parent is None:
            return None, None
        parent = self.pieces.get(p.parent)
        if parent is None or piece_id not in parent.children:
            return p.parent, None
        return p.parent, parent.children.index(piece_id)

    def layout(self, map_id: str) -> list[tuple[str, int, int, bool]] | None:
        boards = self.boards.get(map_id)
        return list(boards) if boards else None

    def location_name(self, piece_or_point: TablePiece | tuple[str | None, int, int]) -> str | None:
        """The location name VASSAL reports for a piece or point (needs the module), else None."""
        point = piece_or_point.point if isinstance(piece_or_point, TablePiece) else piece_or_point
        map_id, x, y = point
        if self.module is None or map_id is None:
            return None
        key = (map_id, x, y)
        if key not in self._names:
            try:
                self._names[key] = self.module.location_name(  # type: ignore[attr-defined]
                    map_id, x, y, self.layout(map_id))
            except Exception:  # noqa: BLE001 - a module that cannot name a point leaves it unnamed
                self._names[key] = None
        return self._names[key]

    def side_of(self, user_id: str | None) -> str | None:
        """The side of the player with this user id (for owners of masked pieces)."""
        player = self.players.get(user_id) if user_id is not None else None
        return player.side if player else None

    def describe(self, piece_id: str, *, referee: bool = False) -> str:
        """'1-2-3 Infantry (id 1597…) on Main Map at 0914 (350, 100)' as the other side sees it."""
        p = self.pieces.get(piece_id)
        if p is None:
            return f"piece {piece_id} (not on the table)"
        return f"{p.shown_name(referee=referee)} (id {p.id}) {self.where(p)}"

    def where(self, p: TablePiece | tuple[str | None, int, int], name: str | None = None) -> str:
        """'on Main Map at 0914 (350, 100)'; `name` replaces the location name VASSAL reports."""
        point = p.point if isinstance(p, TablePiece) else p
        if point[0] is None:
            return "off the maps"
        name = name if name is not None else self.location_name(point)
        at = f" at {name}" if name else ""
        return f"on {point[0]}{at} ({point[1]}, {point[2]})"

    # -- back to commands -------------------------------------------------------------------
    def restore_commands(self) -> list[Command]:
        """Commands that rebuild this table, in the shape of `GameState.getRestoreCommand`: the
        pieces (every piece before the stack or deck holding it; empty stacks left out, as
        VASSAL leaves them out), then global properties, players, turn trackers, boards, notes,
        extensions, UNMASK and SETUP_STACK. Every piece gets its current map and point written
        into its basic state, stacked ones too (real saves write the stack's point there)."""
        pieces: list[Command] = []
        containers: list[Command] = []
        for p in self.pieces.values():
            if p.kind == "stack":
                if p.children:
                    containers.append(AddPiece(p.id, p.type, self._stack_state(p)))
            elif p.kind == "deck":
                containers.append(AddPiece(p.id, p.type, self._deck_state(p)))
            elif p.kind == "piece":
                pieces.append(AddPiece(p.id, p.type, _with_point(p.state, p.map, p.x, p.y)))
            else:
                pieces.append(AddPiece(p.id, p.type, p.state))
        out: list[Command] = [NullCommand(subs=pieces + containers)]
        out += [GlobalPropertySet(name, value, container)
                for (container, name), value in self.global_properties.items()]
        out += [PlayerAdd(pl.user_id, pl.name, pl.side) for pl in self.players.values()]
        out += [TurnState(tid, state) for tid, state in self.turns.items()]
        for map_id, boards in self.boards.items():
            entries: list[str] = []
            for name, col, row, rev in boards:
                entries += [name + ("/rev" if rev else ""), str(col), str(row)]
            out.append(BoardPicker(map_id, tuple(entries)))
        if "scenario" in self.notes or "public" in self.notes:
            notes = Notes(self.notes.get("scenario", ""))
            notes.subs.append(PublicNotes(self.notes.get("public", "")))
            out.append(notes)
        out += [Ext(name, version) for name, version in self.extensions.items()]
        out.append(Unmask(self.unmask))
        out.append(SetupStack())
        return out

    def to_save(self, like: object | None = None) -> object:
        """A `Save` holding this table (for `vlog dump --at`, or writing the position at a
        step); dialect, key, members and metadata are taken from `like` when given."""
        from vlog.vassal.savefile import Save

        root = Setup(True, subs=[*self.restore_commands(), Setup(False)])
        if like is None:
            return Save(root)
        return Save(root, dialect=getattr(like, "dialect"), key=getattr(like, "key"),
                    members=list(getattr(like, "members", [])), metadata=getattr(like, "metadata", None),
                    module_metadata=getattr(like, "module_metadata", None),
                    path=getattr(like, "path", None))

    @staticmethod
    def _stack_state(p: TablePiece) -> str:
        layer = [t for t in split(p.state, ";")[3:] if t.startswith("@@")] if p.state else []
        tokens = [p.map or "null", str(p.x), str(p.y), *p.children, *(layer[:1] or ["@@-1"])]
        return join(tokens, ";") or ""

    @staticmethod
    def _deck_state(p: TablePiece) -> str:
        old = split(p.state, ";") if p.state else []
        face_down = old[3] if len(old) > 3 else "false"
        tokens = [p.map or "null", str(p.x), str(p.y), face_down]
        if p.children:
            tokens.append(join(list(p.children), ",") or "")
        return join(tokens, ";") or ""

    # -- stack mechanics ----------------------------------------------------------------------
    def _set(self, p: TablePiece) -> None:
        old = self.pieces.get(p.id)
        if old is not None and old.parent is None and (p.parent is not None or old.point != p.point):
            self._unindex(old)
        self.pieces[p.id] = p
        self._revision = next(_REVISIONS)
        self._touched.add(p.id)
        if (old is None or old.is_container) and not p.is_container:
            self._reordered = True
        if p.parent is None and (old is None or old.parent is not None or old.point != p.point):
            self._at[p.point] = self._at.get(p.point, ()) + (p.id,)

    def _unindex(self, p: TablePiece) -> None:
        ids = tuple(i for i in self._at.get(p.point, ()) if i != p.id)
        if ids:
            self._at[p.point] = ids
        else:
            self._at.pop(p.point, None)

    def _delete(self, piece_id: str) -> None:
        p = self.pieces.pop(piece_id)
        self._revision = next(_REVISIONS)
        self._touched.add(piece_id)
        if not p.is_container:
            self._reordered = True
        if p.parent is None:
            self._unindex(p)

    def _detach(self, piece_id: str) -> None:
        p = self.pieces.get(piece_id)
        if p is None or p.parent is None:
            return
        parent = self.pieces.get(p.parent)
        self._set(p.replace(parent=None))
        if parent is not None and piece_id in parent.children:
            self._set(parent.replace(children=tuple(c for c in parent.children if c != piece_id)))
            self._drop_if_empty(parent.id)

    def _drop_if_empty(self, container_id: str) -> None:
        """Take a stack that holds no piece off the table (see the module docstring); one with
        a logged id waits in `_emptied` for a command that names it (`_revive`)."""
        c = self.pieces.get(container_id)
        if c is None or c.kind != "stack" or c.children:
            return
        self._delete(container_id)
        if not container_id.startswith(SYNTHETIC_STACK_PREFIX):
            self._emptied.add(container_id, c)

    def _revive(self, piece_id: str | None) -> None:
        """Put an emptied stack back on the table for a command that names it."""
        rec = self._emptied.pop(piece_id) if piece_id is not None else None
        if rec is not None:
            self._set(rec)

    def _insert(self, container_id: str, piece_id: str, index: int) -> None:
        """`Stack.insert`: take the piece from where it was and put it at `index` (clamped)."""
        if self.pieces[piece_id].parent != container_id:
            self._detach(piece_id)
        container = self.pieces[container_id]
        kids = [c for c in container.children if c != piece_id]
        index = max(0, min(index, len(kids)))
        kids.insert(index, piece_id)
        self._set(container.replace(children=tuple(kids)))
        p = self.pieces[piece_id]
        self._set(p.replace(parent=container_id, map=container.map, x=container.x, y=container.y))

    def _place_container(self, container_id: str, map_id: str | None, x: int, y: int) -> None:
        c = self.pieces[container_id]
        self._set(c.replace(map=map_id, x=x, y=y))
        for kid in c.children:
            k = self.pieces.get(kid)
            if k is not None:
                self._set(k.replace(map=map_id, x=x, y=y))

    def _can_hold(self, container_id: str, kid: str) -> bool:
        """A stack or deck holds game pieces only (`Stack.setState` resolves ids to pieces; a
        hostile state listing a stack, or the container itself, is not followed)."""
        p = self.pieces.get(kid)
        return p is not None and kid != container_id and not p.is_container

    def _new_stack(self, map_id: str | None, x: int, y: int) -> str:
        while True:
            sid = f"{SYNTHETIC_STACK_PREFIX}{self._next_stack}"
            self._next_stack += 1
            if sid not in self.pieces:
                break
        self._set(TablePiece(sid, "stack", "", map_id, x, y))
        return sid

    def _top_piece(self, container: TablePiece) -> TablePiece | None:
        for kid in reversed(container.children):
            p = self.pieces.get(kid)
            if p is not None:
                return p
        return None

    def _merge(self, fixed_id: str, moving_id: str) -> None:
        """`StackMetrics.merge(fixed, moving)`: put `moving` just above `fixed`."""
        fixed = self.pieces[fixed_id]
        if fixed.is_container:
            top = self._top_piece(fixed)
            if top is not None:
                fixed, index_parent = top, fixed.id
            else:
                index_parent = fixed.id
        else:
            index_parent = fixed.parent
        moving = self.pieces[moving_id]
        if moving.id == fixed.id or moving.id == index_parent:
            return
        if index_parent is None:
            index_parent = self._new_stack(fixed.map, fixed.x, fixed.y)
            self._insert(index_parent, fixed.id, 0)
        parent = self.pieces[index_parent]
        index = parent.children.index(fixed.id) + 1 if fixed.id in parent.children else len(parent.children)
        if moving.is_container:
            for kid in list(moving.children):
                self._insert(index_parent, kid, index)
                index = self.pieces[index_parent].children.index(kid) + 1
            if moving_id in self.pieces:  # a deck, or a stack that held nothing to move
                self._set(self.pieces[moving_id].replace(map=parent.map, x=parent.x, y=parent.y))
        else:
            self._insert(index_parent, moving_id, index)

    def _merge_target(self, moving: TablePiece, map_id: str, x: int, y: int,
                      player_id: str | None) -> str | None:
        """What `MovePiece.createMergeFinder` merges onto at the point, the first the map's
        `apply` visits (pieces in the order they came to the point): a deck always; a stack
        when the moving piece stacks and the stack shows the mover a piece (Invisible pieces
        of another player do not count); a lone piece when both stack and it is not hidden
        from the mover."""
        for pid in self._at.get((map_id, x, y), ()):
            p = self.pieces[pid]
            if p.id == moving.id or p.id == moving.parent:
                continue
            if p.kind == "deck":
                return p.id
            if p.kind == "stack":
                if not moving.no_stack and any(
                        self.pieces[k].hidden_by in (None, player_id) for k in p.children if k in self.pieces):
                    return p.id
            elif not p.is_container and not moving.no_stack and not p.no_stack \
                    and p.hidden_by in (None, player_id):
                return p.id
        return None

    def _place(self, moving: TablePiece, map_id: str, x: int, y: int) -> None:
        """`stackOrPlacePiece`: a piece outside any stack starts a new one; else it is placed alone."""
        if moving.is_container:
            self._place_container(moving.id, map_id, x, y)
            return
        if moving.parent is None and not moving.no_stack:
            sid = self._new_stack(map_id, x, y)
            self._set(moving.replace(map=map_id, x=x, y=y))
            self._insert(sid, moving.id, 0)
        else:
            self._detach(moving.id)
            self._set(self.pieces[moving.id].replace(map=map_id, x=x, y=y))

    # -- handlers -------------------------------------------------------------------------------
    def _add_piece(self, cmd: AddPiece) -> None:
        if cmd.id is None:
            self._problem("add-piece", "AddPiece without an id is a piece definition, not a piece", cmd)
            return
        self._emptied.pop(cmd.id)
        if cmd.id in self.pieces:
            self._remove(cmd.id)
        kind = _kind_of(cmd.type)
        if kind in ("stack", "deck"):
            piece = Piece(cmd.id, cmd.type, cmd.state)
            basic = piece.basic
            assert isinstance(basic, (Stack, Deck))
            rec = TablePiece(cmd.id, cmd.type, cmd.state, basic.map, basic.x, basic.y, piece=piece)
            self._set(rec)
            for kid in basic.piece_ids:
                if self._can_hold(cmd.id, kid):
                    self._insert(cmd.id, kid, len(self.pieces[cmd.id].children))
            self._place_container(cmd.id, basic.map, basic.x, basic.y)
        elif kind == "piece":
            self._set(TablePiece(cmd.id, cmd.type, cmd.state, *_basic_point(cmd.state)))
        else:
            self._set(TablePiece(cmd.id, cmd.type, cmd.state, None, 0, 0))

    def _remove(self, piece_id: str) -> None:
        p = self.pieces.get(piece_id)
        if p is None:
            return
        self._detach(piece_id)
        for kid in p.children:
            k = self.pieces.get(kid)
            if k is not None and k.parent == piece_id:
                self._set(k.replace(parent=None))
        self._delete(piece_id)

    def _remove_piece(self, cmd: RemovePiece) -> None:
        if self._emptied.pop(cmd.id) is not None:
            return
        if cmd.id not in self.pieces:
            self._problem("missing-piece", f"RemovePiece of piece {cmd.id}, which is not on the table", cmd)
            return
        self._remove(cmd.id)

    def _move_piece(self, cmd: MovePiece) -> None:
        self._revive(cmd.id)
        self._move(cmd)
        if cmd.id is not None:
            self._drop_if_empty(cmd.id)

    def _move(self, cmd: MovePiece) -> None:
        moving = self.pieces.get(cmd.id) if cmd.id is not None else None
        if moving is None:
            self._problem("missing-piece", f"MovePiece of piece {cmd.id}, which is not on the table", cmd)
            return
        if cmd.new_map is None:
            self._detach(moving.id)
            if moving.is_container:
                self._place_container(moving.id, None, moving.x, moving.y)
            else:
                self._set(self.pieces[moving.id].replace(map=None))
            return
        point = (cmd.new_map, cmd.new_x, cmd.new_y)
        under = self.pieces.get(cmd.new_under) if cmd.new_under is not None else None
        if under is not None and under.point == point and under.id != moving.id:
            self._merge(under.id, moving.id)
        else:
            target = self._merge_target(moving, *point, cmd.player_id)
            if target is not None:
                self._merge(target, moving.id)
            else:
                self._place(moving, *point)
            if cmd.new_under is None and not moving.is_container:
                moved = self.pieces[moving.id]
                if moved.parent is not None:
                    self._insert(moved.parent, moving.id, 0)

    def _change_piece(self, cmd: ChangePiece) -> None:
        self._revive(cmd.id)
        p = self.pieces.get(cmd.id)
        if p is None:
            self._problem("missing-piece", f"ChangePiece of piece {cmd.id}, which is not on the table", cmd)
            return
        state = cmd.new_state if cmd.old_state is None else _merge_state(p.state, cmd.new_state, cmd.old_state)
        if state == p.state:
            return
        if p.is_container:
            # Stack/Deck.setState: the listed children, in order, at the state's point
            new = p.replace(state=state)
            basic = new.piece.basic
            for kid in p.children:
                k = self.pieces.get(kid)
                if k is not None:
                    self._set(k.replace(parent=None))
            self._set(new.replace(children=()))
            for kid in getattr(basic, "piece_ids", []):
                if self._can_hold(p.id, kid):
                    self._insert(p.id, kid, len(self.pieces[p.id].children))
            self._place_container(p.id, getattr(basic, "map", None), getattr(basic, "x", 0),
                                  getattr(basic, "y", 0))
            self._drop_if_empty(p.id)
            return
        new = p.replace(state=state)
        if p.parent is None and p.kind == "piece":
            if _basic_state(state) != _basic_state(p.state):
                map_id, x, y = _basic_point(state)
                new = new.replace(map=map_id, x=x, y=y)
        self._set(new)

    def _global_property(self, cmd: GlobalPropertySet) -> None:
        self.global_properties[(cmd.container or MODULE_CONTAINER, cmd.name)] = cmd.value

    def _mutable_property(self, cmd: MutableProperty) -> None:
        self.global_properties[(cmd.container or MODULE_CONTAINER, cmd.name)] = cmd.new or ""

    def _turn(self, cmd: TurnState) -> None:
        self.turns[cmd.tracker_id] = cmd.state

    def _player_add(self, cmd: PlayerAdd) -> None:
        self.players[cmd.user_id] = Player(cmd.user_id, cmd.name, cmd.side)

    def _player_remove(self, cmd: PlayerRemove) -> None:
        self.players.pop(cmd.user_id, None)

    def _board_picker(self, cmd: BoardPicker) -> None:
        self.boards[cmd.map_id] = tuple((name, col, row, rev) for name, rev, col, row in cmd.boards)

    def _notes(self, cmd: Notes) -> None:
        self.notes["public" if isinstance(cmd, PublicNotes) else "scenario"] = cmd.text

    def _ext(self, cmd: Ext) -> None:
        self.extensions[cmd.name] = cmd.version

    def _unmask(self, cmd: Unmask) -> None:
        self.unmask = tuple(u for u in cmd.user_ids if u not in ("", "null"))

    def _undo(self, cmd: Undo) -> None:
        self.undo_in_progress = cmd.in_progress

    def _nothing(self, cmd: Command) -> None:
        """Commands that change nothing on the table (chat, setup markers, private notes)."""


_HANDLERS = {
    AddPiece: Table._add_piece, RemovePiece: Table._remove_piece, MovePiece: Table._move_piece,
    ChangePiece: Table._change_piece, GlobalPropertySet: Table._global_property,
    MutableProperty: Table._mutable_property, TurnState: Table._turn, PlayerAdd: Table._player_add,
    PlayerRemove: Table._player_remove, BoardPicker: Table._board_picker, Notes: Table._notes,
    PublicNotes: Table._notes, Ext: Table._ext, Plugin: Table._ext, Unmask: Table._unmask,
    Undo: Table._undo, Chat: Table._nothing, Setup: Table._nothing, SetupStack: Table._nothing,
    PrivateNote: Table._nothing, SecretNote: Table._nothing,
}

