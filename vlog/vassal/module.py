"""VASSAL modules (.vmod), extensions (.vmdx) and bare buildFiles, read into a plain model.

A module's buildFile is the component tree VASSAL builds by reflection: element name = Java class,
attributes = `getAttributeNames()` values, text content for pieces and a few lists. This reader keeps
VASSAL's attribute names and defaults, keeps every raw attribute, and interprets what the rest of
vlog needs: maps with their boards and grids (so points can be named exactly as VASSAL names them),
the piece palette with prototypes expanded as PieceCloner does, at-start stacks, decks, dice, turn
tracker levels, global properties, player sides and global options.
"""
from __future__ import annotations

import copy
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping


from vlog.errors import ModuleError, VlogError
from vlog.vassal import grids as G
from vlog.vassal.archive import open_archive, is_zip, read_regular_file
from vlog.vassal.pieces import join_chain, split_chain
from vlog.vassal.sequence import Decoder, Encoder, split
from vlog.vassal.xmlsafe import _JAVA_TRIM, parse_xml, text_of

__all__ = [
    "Module", "MapDef", "BoardDef", "Attributes", "PieceSlot", "Prototype", "SetupStack", "DrawPile", "DiceButton",
    "SpecialDie", "SpecialDiceButton", "TurnLevel", "TurnTracker", "GlobalProperty", "ExtensionInfo",
    "read_module", "expand_piece", "image_size", "parse_board_layout", "ROOT_MODULE", "ROOT_LEGACY", "ROOT_EXTENSION",
    "GAME_DATA_FOLDER",
]

ROOT_MODULE = "VASSAL.build.GameModule"
ROOT_LEGACY = "VASSAL.launch.BasicModule"
ROOT_EXTENSION = "VASSAL.build.module.ModuleExtension"
GAME_DATA_FOLDER = "vlog-data/"
"""Members a module built by vlog carries: the game data overlays it was built from (VASSAL ignores them)."""
MAX_GAME_DATA_MEMBERS = 64

_P = "VASSAL.build.module."
_BOARD = _P + "map.boardPicker.Board"
_BOARD_PICKER = _P + "map.BoardPicker"
_GRID_PKG = _P + "map.boardPicker.board."
_HEX, _SQUARE, _REGION, _ZONED = (_GRID_PKG + n for n in ("HexGrid", "SquareGrid", "RegionGrid", "ZonedGrid"))
_REGION_EL = _GRID_PKG + "Region"
_ZONE = _GRID_PKG + "mapgrid.Zone"
_HEX_NUM = _GRID_PKG + "mapgrid.HexGridNumbering"
_OBLIQUE_NUM = _GRID_PKG + "mapgrid.ObliqueHexGridNumbering"
_SQUARE_NUM = _GRID_PKG + "mapgrid.SquareGridNumbering"
_MAP_CLASSES = {_P + "Map": "Map", _P + "PrivateMap": "PrivateMap", _P + "PlayerHand": "PlayerHand"}
_MAP_TAGS = frozenset(_MAP_CLASSES)
_PROPERTY_OWNERS = _MAP_TAGS | {_ZONE}
_SETUP_STACK = _P + "map.SetupStack"
_DRAW_PILE = _P + "map.DrawPile"
_PIECE_SLOT = "VASSAL.build.widget.PieceSlot"
_CARD_SLOT = "VASSAL.build.widget.CardSlot"
_PROTOTYPE = _P + "PrototypeDefinition"
_DICE = _P + "DiceButton"
_SPECIAL_DICE = _P + "SpecialDiceButton"
_SPECIAL_DIE = _P + "SpecialDie"
_SPECIAL_FACE = _P + "SpecialDieFace"
_TURN_TRACKER = _P + "turn.TurnTracker"
_COUNTER_LEVEL = _P + "turn.CounterTurnLevel"
_LIST_LEVEL = _P + "turn.ListTurnLevel"
_GLOBAL_PROPERTY = _P + "properties.GlobalProperty"
_ZONE_PROPERTY = _P + "properties.ZoneProperty"
_PLAYER_ROSTER = _P + "PlayerRoster"
_GLOBAL_OPTIONS = _P + "GlobalOptions"
_EXTENSION_ELEMENT = _P + "ExtensionElement"

MAX_PROTOTYPE_DEPTH = 50  # VASSAL's RecursionLimiter stops runaway prototype nesting too


# ---------------------------------------------------------------------------------- attribute helpers

def _bool(v: str | None, default: bool) -> bool:
    """`Boolean.valueOf(String)`: only "true" (any case) is true; absent keeps the default."""
    return default if v is None else v.lower() == "true"


def _int(v: str | None, default: int) -> int:
    """`Integer.valueOf`; VASSAL throws on junk, vlog keeps the default and the raw attribute."""
    if v is None:
        return default
    if len(v) < 10 and v.isascii() and v.isdigit():     # the usual case, in Integer's range
        return int(v)
    n = G._java_parse_int(v)
    return default if n is None else n


def _float(v: str | None, default: float) -> float:
    if v is None:
        return default
    try:
        return float(v.strip())
    except ValueError:
        return default


# ---------------------------------------------------------------------------------- model

class Attributes(Mapping[str, str]):
    """An element's raw attributes, read-only, copied out of the XML tree on first use: a large
    module's maps, boards, at-start stacks and decks carry up to fifty attributes each, most never
    read, and copying them all was a third of `read_module`'s time past the parse. Equal to the
    dict of the same attributes; pickles and deep-copies as that dict."""

    __slots__ = ("_el", "_dict")

    def __init__(self, el) -> None:
        self._el, self._dict = el, None

    def _attrs(self) -> dict[str, str]:
        if self._dict is None:
            self._dict, self._el = dict(self._el.items()), None
        return self._dict

    def __getitem__(self, key: str) -> str:
        return self._attrs()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._attrs())

    def __len__(self) -> int:
        return len(self._attrs())

    def __contains__(self, key: object) -> bool:
        return key in self._attrs()

    def get(self, key: str, default=None):
        return self._attrs().get(key, default)

    def __eq__(self, other: object) -> bool:
        return self._attrs() == (other._attrs() if isinstance(other, Attributes) else other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._attrs())

    def __reduce__(self):
        return dict, (self._attrs(),)

    def __deepcopy__(self, memo) -> dict[str, str]:
        return dict(self._attrs())


class _Expander:
    """A module's prototypes and the expansions already made, shared by its slots."""

    __slots__ = ("prototypes", "cache")

    def __init__(self, prototypes: dict[str, "Prototype"]):
        self.prototypes, self.cache = prototypes, {}


@dataclass(slots=True)
class PieceSlot:
    """A palette or at-start piece: `text` is the AddPiece string as written, `expanded` has
    prototypes expanded and comments dropped (PieceCloner), None when it could not be expanded.

    As VASSAL's PieceSlot builds its piece only when asked (`getPiece`), the expansion is made on
    first use of `expanded` or `problems`, with the module's prototypes. Slotted: a large palette
    makes tens of thousands, and each without a `__dict__` is one object less to make, collect
    and free."""

    entry_name: str | None
    gpid: str | None
    text: str
    width: int | None = None
    height: int | None = None
    card: bool = False
    path: tuple[str, ...] = ()
    _expander: "_Expander | None" = field(default=None, repr=False, compare=False)
    _expansion: "tuple[str | None, list[str]] | None" = field(default=None, repr=False, compare=False)

    def _expand(self) -> "tuple[str | None, list[str]]":
        if self._expansion is None:
            if not self.text or self._expander is None:
                self._expansion = (None, [])
            else:
                try:
                    self._expansion = expand_piece(self.text, self._expander.prototypes, self._expander.cache)
                except VlogError as e:
                    self._expansion = (None, [e.message])
        return self._expansion

    @property
    def expanded(self) -> str | None:
        return self._expand()[0]

    @property
    def problems(self) -> list[str]:
        return self._expand()[1]

    @property
    def name(self) -> str | None:
        """The BasicPiece name of the expanded piece (what VASSAL shows as `BasicName`)."""
        parts = _decode_add_piece(self.expanded or self.text)
        if parts is None:
            return None
        basic = split_chain(parts[1])[-1]
        if not basic.startswith("piece;"):
            return None
        fields = split(basic[len("piece;"):], ";")
        return fields[3] if len(fields) > 3 else ""


@dataclass
class Prototype:
    name: str
    description: str
    text: str


@dataclass
class BoardDef:
    """A selectable board: `size` is its pixel size (image header, or width/height when no image).

    Its grid is built from the buildFile when first asked for (`grid`): most boards of a large
    module are never asked to name a point, and a zoned board may hold hundreds of zones."""

    name: str
    image: str | None
    reversible: bool
    width: int | None
    height: int | None
    size: tuple[int, int] | None
    grid_kind: str | None
    attributes: Mapping[str, str] = field(default_factory=dict)
    grid_source: Callable[[], object | None] | None = field(default=None, repr=False, compare=False)
    """Builds the grid (None: the board has none, or it is built)."""
    _grid: object | None = field(default=None, repr=False, compare=False)

    @property
    def grid(self) -> object | None:
        if self.grid_source is not None:
            self._grid, self.grid_source = self.grid_source(), None
        return self._grid


@dataclass
class SetupStack:
    """An at-start stack: board-local `x`,`y`, or a grid `location` when `use_grid_location`."""

    name: str
    map_name: str
    owning_board: str | None
    use_grid_location: bool
    location: str | None
    x: int
    y: int
    pieces: list[PieceSlot]
    attributes: Mapping[str, str] = field(default_factory=dict)


@dataclass
class DrawPile:
    """A deck placed at game start (DrawPile extends SetupStack)."""

    name: str
    map_name: str
    owning_board: str | None
    x: int
    y: int
    width: int
    height: int
    face_down: str
    shuffle: str
    reversible: bool
    draw: bool
    cards: list[PieceSlot]
    attributes: Mapping[str, str] = field(default_factory=dict)


@dataclass
class DiceButton:
    name: str
    n_dice: int = 2
    n_sides: int = 6
    plus: int = 0
    add_to_total: int = 0
    report_total: bool = False
    report_format: str = "** $name$ = $result$ *** &lt;$PlayerName$&gt;"
    sort_dice: bool = False
    keep_dice: bool = False
    keep_option: str = ">"
    keep_count: int = 1
    prompt: bool = False
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class SpecialDie:
    name: str
    faces: list[dict[str, object]]
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class SpecialDiceButton:
    name: str
    dice: list[SpecialDie]
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class TurnLevel:
    """A CounterTurnLevel (`start`, `incr`, `loop`, `loop_limit`) or ListTurnLevel (`items`)."""

    kind: str
    name: str
    property: str
    turn_format: str | None
    start: int | None = None
    incr: int | None = None
    loop: bool | None = None
    loop_limit: int | None = None
    items: list[str] | None = None
    first: int | None = None
    levels: list["TurnLevel"] = field(default_factory=list)
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class TurnTracker:
    name: str
    levels: list[TurnLevel]
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class GlobalProperty:
    """A global property; `scope` is "module", or the map (and zone) that owns it."""

    name: str
    initial_value: str
    description: str
    numeric: bool
    min: str | None
    max: str | None
    wrap: bool
    scope: str = "module"
    map_name: str | None = None
    zone: str | None = None


@dataclass
class MapDef:
    """A map window: its boards, the default board layout and what is placed on it at start."""

    map_name: str
    kind: str
    edge_width: int
    edge_height: int
    boards: list[BoardDef]
    setup: str | None
    layout: list[tuple[str, int, int, bool]] | None
    setup_stacks: list[SetupStack] = field(default_factory=list)
    decks: list[DrawPile] = field(default_factory=list)
    attributes: Mapping[str, str] = field(default_factory=dict)

    def board(self, name: str) -> BoardDef | None:
        for b in self.boards:
            if b.name == name:
                return b
        return None

    def placed_boards(self, layout: list[tuple[str, int, int, bool]] | None = None) -> list[G.PlacedBoard]:
        """The boards as VASSAL lays them out (BoardPicker SetBoards + Map.setBoardBoundaries).

        `layout` (board name, column, row, reversed) defaults to the module's `<setup>`, or to the
        only board when there is one. A board whose size is unknown (its image is not in hand)
        counts as unbounded to the right and below, which is exact only for the last board of a row.
        """
        layout = layout if layout is not None else self.layout
        if layout is None:
            if len(self.boards) == 1:
                layout = [(self.boards[0].name, 0, 0, False)]
            else:
                raise ModuleError(f"map {self.map_name!r} has {len(self.boards)} boards and no default layout; "
                                  "pass the layout a save's BoardPicker command gives")
        placed: list[G.PlacedBoard] = []
        cells = [(c, r) for n, c, r, _ in layout if self.board(n) is not None]
        for name, col, row, rev in layout:
            b = self.board(name)
            if b is None:
                continue
            if b.size is None and (rev and b.reversible or any(
                    (c > col and r == row) or (c == col and r > row) for c, r in cells)):
                raise ModuleError(f"map {self.map_name!r}: the size of board {name!r} is unknown (its image is "
                                  "not in hand) and the layout needs it", file=None)
            w, h = b.size if b.size is not None else (1 << 30, 1 << 30)
            placed.append(G.PlacedBoard(name=b.name, width=w, height=h, grid=b.grid, column=col, row=row,
                                        reversed=rev and b.reversible))
        return G.layout_boards(placed, self.edge_width, self.edge_height)

    def stack_position(self, stack: SetupStack | DrawPile,
                       placed: list[G.PlacedBoard] | None = None) -> tuple[int, int]:
        """Where VASSAL places an at-start stack or deck on the map (SetupStack.setup/getPosition)."""
        placed = placed if placed is not None else self.placed_boards()
        x, y = stack.x, stack.y
        owner = next((p for p in placed if p.name == stack.owning_board), None)
        if isinstance(stack, SetupStack) and stack.use_grid_location and stack.location:
            board = self.board(stack.owning_board) if stack.owning_board else None
            if board is None and placed:
                board = self.board(placed[0].name)
            if board is not None and board.grid is not None:
                try:
                    x, y = board.grid.center_of(stack.location)
                except G.LocationError:
                    if isinstance(board.grid, G.ZonedGrid):
                        p = board.grid.region_location(stack.location)
                        if p is not None:
                            x, y = p
        if stack.owning_board is None or owner is None:
            return x + self.edge_width, y + self.edge_height
        return x + owner.x, y + owner.y

    def deck_points(self, placed: list[G.PlacedBoard]) -> list[tuple[str, int, int]]:
        return [(d.name, *self.stack_position(d, placed)) for d in self.decks]

    def location_name(self, x: int, y: int, layout: list[tuple[str, int, int, bool]] | None = None) -> str:
        """`Map.locationName`: deck name, else the board grid's name for the point, else "offboard"."""
        placed = self.placed_boards(layout)
        return G.map_location_name(placed, x, y, self.deck_points(placed))

    def location_center(self, name: str, layout: list[tuple[str, int, int, bool]] | None = None) -> tuple[int, int]:
        """The map point of a location name (the first board whose grid places it)."""
        return G.map_location_center(self.placed_boards(layout), name)


@dataclass
class ExtensionInfo:
    name: str
    version: str
    description: str
    module: str | None
    extension_id: str | None
    source: str


@dataclass
class Module:
    """A module (or an extension read on its own), with any extensions already layered on."""

    name: str
    version: str
    vassal_version: str
    description: str
    next_piece_slot_id: str | None
    root: str
    source: str
    metadata: dict[str, str]
    attributes: dict[str, str]
    maps: list[MapDef]
    prototypes: dict[str, Prototype]
    piece_slots: list[PieceSlot]
    dice: list[DiceButton]
    special_dice: list[SpecialDiceButton]
    turn_trackers: list[TurnTracker]
    global_properties: list[GlobalProperty]
    sides: list[str]
    global_options: dict[str, str]
    extensions: list[ExtensionInfo] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    game_data: list[tuple[str, bytes]] = field(default_factory=list)
    """The game data overlays carried in `vlog-data/` (shown name, contents), in member-name order."""

    @property
    def is_extension(self) -> bool:
        return self.root == ROOT_EXTENSION

    @property
    def setup_stacks(self) -> list[SetupStack]:
        return [s for m in self.maps for s in m.setup_stacks]

    @property
    def decks(self) -> list[DrawPile]:
        return [d for m in self.maps for d in m.decks]

    def find_map(self, name: str) -> MapDef:
        """The map with this `mapName` (as piece states and commands name it)."""
        for m in self.maps:
            if m.map_name == name:
                return m
        names = ", ".join(repr(m.map_name) for m in self.maps) or "none"
        raise ModuleError(f"no map named {name!r} (maps: {names})", file=self.source)

    def location_name(self, map_name: str, x: int, y: int,
                      layout: list[tuple[str, int, int, bool]] | None = None) -> str:
        return self.find_map(map_name).location_name(x, y, layout)

    def location_center(self, map_name: str, name: str,
                        layout: list[tuple[str, int, int, bool]] | None = None) -> tuple[int, int]:
        return self.find_map(map_name).location_center(name, layout)


# ---------------------------------------------------------------------------------- pieces

def _decode_add_piece(text: str) -> tuple[str, str, str] | None:
    """`+/id/type/state` -> (id, type, state), None when it is no AddPiece."""
    toks = split(text, "/")
    if len(toks) < 3 or toks[0] != "+":
        return None
    return toks[1], toks[2], toks[3] if len(toks) > 3 else ""


def _prototype_params(trait: str) -> tuple[str, dict[str, str] | None]:
    d = Decoder(trait[len("prototype;"):], ";")
    name = d.next("") if d.has_more() else ""
    if not d.has_more():
        return name, None
    params: dict[str, str] = {}
    for pair in split(d.next(), ","):
        kv = split(pair, "=")
        if len(kv) >= 2:
            params[kv[0]] = kv[1]
    return name, params


def expand_piece(text: str, prototypes: dict[str, Prototype],
                 cache: dict | None = None) -> tuple[str, list[str]]:
    """An AddPiece string with `prototype;` traits replaced by their definitions, recursively,
    and `cmt;` traits dropped, as `PieceCloner.clonePiece` builds the piece VASSAL places.

    Returns the expanded string and the problems met (unknown prototypes are dropped, as
    VASSAL's UsePrototype does when the definition is missing; cycles stop the expansion).
    `cache` (one dict per module) keeps each prototype's expansion for the next piece.
    """
    problems: list[str] = []
    parts = _decode_add_piece(text)
    if parts is None:
        raise ModuleError(f"not an AddPiece string: {text[:60]!r}")
    pid, ptype, pstate = parts
    if "prototype;" not in ptype and "cmt;" not in ptype:
        return text, problems
    types = split_chain(ptype)
    states = split_chain(pstate)
    while len(states) < len(types):
        states.insert(0, "")
    traits = list(zip(types[:-1], states[len(states) - len(types):][:-1]))
    expanded = _expand_traits(traits, prototypes, problems, (), {} if cache is None else cache)
    new_types = [t for t, _ in expanded] + [types[-1]]
    new_states = [s for _, s in expanded] + [states[-1]]
    out = Encoder("/").append("+").append(pid).append(join_chain(new_types)).append(join_chain(new_states)).value()
    return out, problems


def _expand_prototype(trait: str, prototypes, problems, stack, cache) -> list[tuple[str, str]]:
    name, params = _prototype_params(trait)
    key = (name, None if params is None else tuple(sorted(params.items())))
    hit = cache.get(key)
    if hit is not None and name not in stack:
        problems.extend(hit[1])
        return hit[0]
    proto = prototypes.get(name)
    if proto is None:
        problems.append(f"prototype {name!r} is not defined; VASSAL drops the trait")
        return []
    if name in stack or len(stack) >= MAX_PROTOTYPE_DEPTH:
        problems.append(f"prototype {name!r} includes itself ({' > '.join(stack + (name,))}); expansion stopped")
        return []
    definition = proto.text
    mine: list[str] = []
    if params is not None:
        try:
            definition = G.evaluate_format(definition, {}, localized=False, lookup=params.get)
        except G.LocationError as e:
            problems.append(f"prototype {name!r}: {e.message}")
            return []
    parts = _decode_add_piece(definition)
    if parts is None:
        if definition.strip():
            mine.append(f"prototype {name!r} is not a piece definition")
        problems.extend(mine)
        return []
    ptypes = split_chain(parts[1])
    pstates = split_chain(parts[2])
    while len(pstates) < len(ptypes):
        pstates.insert(0, "")
    inner = list(zip(ptypes[:-1], pstates[len(pstates) - len(ptypes):][:-1]))
    result = _expand_traits(inner, prototypes, mine, stack + (name,), cache)
    problems.extend(mine)
    if not any("includes itself" in p for p in mine):
        cache[key] = (result, mine)  # context-free, so the next piece can reuse it
    return result


def _expand_traits(traits, prototypes, problems, stack, cache) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for t, s in traits:
        if t.startswith("cmt;"):
            continue
        if t.startswith("prototype;"):
            out.extend(_expand_prototype(t, prototypes, problems, stack, cache))
        else:
            out.append((t, s))
    return out


# ---------------------------------------------------------------------------------- images

def image_size(data: bytes) -> tuple[int, int] | None:
    """Pixel size from a PNG, GIF or JPEG header (no decoding), None for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return w, h
    if data[:2] == b"\xff\xd8":
        i, n = 2, len(data)
        while i + 4 <= n:
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker == 0xFF:
                i += 1
                continue
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            seg = struct.unpack(">H", data[i + 2:i + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                if i + 9 > n:
                    return None
                h, w = struct.unpack(">HH", data[i + 5:i + 9])
                return w, h
            if seg < 2:
                return None
            i += 2 + seg
    return None


# ---------------------------------------------------------------------------------- sources

class _Source:
    """Where a module's members come from: a zip, a folder, or a lone buildFile (and its folder)."""

    def __init__(self, path: Path, display: str):
        self.display = display
        self.archive = None
        self.folder: Path | None = None
        self._resolved_folder: Path | None = None
        self.build_bytes: bytes | None = None
        self.build_member: str | None = None
        if path.is_dir():
            self.folder = path
        elif not path.is_file():  # a device never ends, a FIFO blocks: read nothing from them
            read_regular_file(path, 0, display, ModuleError)
        elif is_zip(path):
            self.archive = open_archive(path, name=display)
        else:
            self.build_bytes = read_regular_file(path, 64 << 20, display, ModuleError)
            self.build_member = None
            self.folder = path.parent

    def read(self, name: str, limit: int = 64 << 20) -> bytes | None:
        if self.archive is not None:
            return self.archive.read(name) if self.archive.has(name) else None
        if self.folder is None:
            return None
        target = os.path.join(self.folder, name)
        try:
            if not os.path.isfile(target):      # what the resolved path would say, without resolving it
                return None
            resolved = Path(target).resolve()
            if self._resolved_folder is None:
                self._resolved_folder = self.folder.resolve()
            if self._resolved_folder not in resolved.parents or not resolved.is_file():
                return None
            if resolved.stat().st_size > limit:
                raise ModuleError(f"{name} is larger than {limit} bytes", file=self.display)
            return resolved.read_bytes()
        except OSError:
            return None

    def game_data(self) -> list[tuple[str, bytes]]:
        """The `vlog-data/*.json` members (shown name, contents), sorted by name."""
        if self.archive is not None:
            names = sorted({n for n in self.archive.names()
                            if n.startswith(GAME_DATA_FOLDER) and n.endswith(".json") and "/" not in n[len(GAME_DATA_FOLDER):]})
        elif self.folder is not None and self.build_bytes is None and (self.folder / GAME_DATA_FOLDER).is_dir():
            try:
                names = sorted(GAME_DATA_FOLDER + p.name for p in (self.folder / GAME_DATA_FOLDER).iterdir()
                               if p.suffix == ".json")
            except OSError:
                names = []
        else:
            return []
        if len(names) > MAX_GAME_DATA_MEMBERS:
            raise ModuleError(f"holds more than {MAX_GAME_DATA_MEMBERS} game data files", file=self.display,
                              where=GAME_DATA_FOLDER)
        out = []
        for name in names:
            data = self.read(name, limit=16 << 20)
            if data is not None:
                out.append((f"{self.display}:{name}", data))
        return out

    def build_file(self) -> tuple[bytes, str | None]:
        if self.build_bytes is not None:
            return self.build_bytes, None
        for name in ("buildFile.xml", "buildFile"):
            data = self.read(name)
            if data is not None:
                return data, name
        raise ModuleError("no buildFile.xml or buildFile in the module", file=self.display)


def _metadata(src: _Source, member: str) -> dict[str, str]:
    data = src.read(member, limit=1 << 20)
    if data is None:
        return {}
    root = parse_xml(data, file=src.display, member=member)
    out: dict[str, str] = {}
    for el in root:
        if isinstance(el.tag, str):
            key = el.tag + (f"[{el.get('lang')}]" if el.get("lang") else "")
            out.setdefault(key, text_of(el))
    return out


# ---------------------------------------------------------------------------------- grids

def _numbering(el, cls):
    a = el.attrib
    kw = dict(first=(a.get("first") or "H")[:1], sep=a.get("sep", ""), h_type=(a.get("hType") or "N")[:1],
              v_type=(a.get("vType") or "N")[:1], h_leading=_int(a.get("hLeading"), 1),
              v_leading=_int(a.get("vLeading"), 1), h_off=_int(a.get("hOff"), 1), v_off=_int(a.get("vOff"), 1),
              h_descend=_bool(a.get("hDescend"), False), v_descend=_bool(a.get("vDescend"), False),
              location_format=a.get("locationFormat", "$gridLocation$"), visible=_bool(a.get("visible"), False))
    if cls is G.HexGridNumbering:
        kw["stagger"] = _bool(a.get("stagger"), True)
        kw["oblique"] = el.tag == _OBLIQUE_NUM
    return cls(**kw)


def _build_grid(el, size, lookup):
    """A grid element -> grid object (None for an unknown grid class)."""
    a = el.attrib
    if el.tag == _HEX:
        # Attributes are set in name order (dx before dy); setting dy resets dx to sqrt(3)/2*dy
        # while dx still holds its default value.
        dy = _float(a.get("dy"), 64.0)
        dx = _float(a.get("dx"), G.HexGrid.dx)
        if "dy" in a and dx == G.HexGrid.dx:
            dx = (3 ** 0.5 / 2.0) * dy
        g = G.HexGrid(dx=dx, dy=dy, x0=_int(a.get("x0"), 0), y0=_int(a.get("y0"), 32),
                      sideways=_bool(a.get("sideways"), False), snap_to=_bool(a.get("snapTo"), True),
                      edges_legal=_bool(a.get("edgesLegal"), False), corners_legal=_bool(a.get("cornersLegal"), False),
                      snap_scale=_int(a.get("snapscale"), 0), visible=_bool(a.get("visible"), False), size=size)
        for c in el:
            if c.tag in (_HEX_NUM, _OBLIQUE_NUM):
                n = _numbering(c, G.HexGridNumbering)
                n.lookup = lookup
                g.set_numbering(n)
        return g
    if el.tag == _SQUARE:
        g = G.SquareGrid(dx=_float(a.get("dx"), 48.0), dy=_float(a.get("dy"), 48.0), x0=_int(a.get("x0"), 24),
                         y0=_int(a.get("y0"), 24), snap_to=_bool(a.get("snapTo"), True),
                         edges_legal=_bool(a.get("edgesLegal"), False), corners_legal=_bool(a.get("cornersLegal"), False),
                         snap_scale=_int(a.get("snapscale"), 0), range=a.get("range", "Metric"),
                         visible=_bool(a.get("visible"), False), size=size)
        for c in el:
            if c.tag == _SQUARE_NUM:
                n = _numbering(c, G.SquareGridNumbering)
                n.lookup = lookup
                g.set_numbering(n)
        return g
    if el.tag == _REGION:
        v = a.get("snapto")
        g = G.RegionGrid(snap_to=True if v is None else v == "true", visible=a.get("visible") == "true",
                         font_size=_int(a.get("fontsize"), 9), size=size)
        for c in el.iter(_REGION_EL):
            g.add(G.Region(c.get("name", ""), _int(c.get("originx"), 0), _int(c.get("originy"), 0)))
        return g
    if el.tag == _ZONED:
        zg = G.ZonedGrid(size=size)
        for c in el:
            if c.tag in (_HEX, _SQUARE, _REGION) and zg.background is None:
                zg.set_background(_build_grid(c, size, lookup))
        for c in el.iter(_ZONE):
            z = G.Zone(name=c.get("name", ""), location_format=c.get("locationFormat", "$name$"),
                       path=c.get("path", ""), use_parent_grid=c.get("useParentGrid") == "true",
                       use_highlight=c.get("useHighlight") == "true",
                       highlight_property=c.get("highlightProperty", ""))
            z.lookup = lookup
            for gc in c:
                if gc.tag in (_HEX, _SQUARE, _REGION):
                    z.set_grid(_build_grid(gc, None, lookup))
                    break
            zg.add_zone(z)
        return zg
    return None


_GRID_KIND = {_HEX: "hex", _SQUARE: "square", _REGION: "region", _ZONED: "zoned"}


# ---------------------------------------------------------------------------------- extensions

def _configure_name(el) -> str | None:
    tag = el.tag
    if tag in _MAP_CLASSES:
        return el.get("mapName")
    if tag.startswith("VASSAL.build.widget."):
        return el.get("entryName")
    return el.get("name")


def _resolve_target(parent, tokens: list[str]):
    """ComponentPathBuilder.addToPath over XML: exact name match, else partial matches."""
    if not tokens:
        return parent
    head = split(tokens[0], ":")
    cls = head[0]
    name = head[1] if len(head) > 1 else None
    partial = []
    for c in parent:
        if c.tag == cls:
            partial.append(c)
            if _configure_name(c) == name:
                return _resolve_target(c, tokens[1:])
    if partial:
        if len(tokens) == 1:
            return partial[0]
        for c in partial:
            found = _resolve_target(c, tokens[1:])
            if found is not None:
                return found
    return None


def _apply_extension(base_root, ext_root, ext_display: str, problems: list[str]) -> None:
    for el in ext_root:
        if el.tag == _EXTENSION_ELEMENT:
            target_id = el.get("target", "")
            tokens = split(target_id, "/") if target_id else []
            target = _resolve_target(base_root, tokens)
            if target is None:
                problems.append(f"{ext_display}: target {target_id!r} is not in the module; element skipped")
                continue
            for child in el:
                if isinstance(child.tag, str):
                    target.append(copy.deepcopy(child))
        elif isinstance(el.tag, str):
            base_root.append(copy.deepcopy(el))


# ---------------------------------------------------------------------------------- reading

def _slot(el, path: tuple[str, ...], sizes: dict[str | None, int | None], expander: _Expander) -> PieceSlot:
    """`sizes` keeps each width or height text read (a palette's slots share a few)."""
    get = el.get
    width, height = get("width"), get("height")
    if width not in sizes:
        sizes[width] = _int(width, 0)
    if height not in sizes:
        sizes[height] = _int(height, 0)
    text = (el.text or "").strip(_JAVA_TRIM) if not len(el) else text_of(el)     # text_of, inlined
    return PieceSlot(get("entryName"), get("gpid"), text, sizes[width], sizes[height],
                     el.tag == _CARD_SLOT, path, expander)


def _turn_level(el) -> TurnLevel:
    a = el.attrib
    if el.tag == _COUNTER_LEVEL:
        lvl = TurnLevel(kind="counter", name=a.get("name", ""), property=a.get("property", ""),
                        turn_format=a.get("turnFormat"), start=_int(a.get("start"), 1), incr=_int(a.get("incr"), 1),
                        loop=_bool(a.get("loop"), False), loop_limit=_int(a.get("loopLimit"), -1), attributes=dict(a))
    else:
        raw = a.get("list")
        lvl = TurnLevel(kind="list", name=a.get("name", ""), property=a.get("property", ""),
                        turn_format=a.get("turnFormat"), items=split(raw, ",") if raw else [],
                        first=_int(a.get("first"), 0), attributes=dict(a))
    lvl.levels = [_turn_level(c) for c in el if c.tag in (_COUNTER_LEVEL, _LIST_LEVEL)]
    return lvl


def _ancestor(el, tags) -> object | None:
    p = el.getparent()
    while p is not None:
        if p.tag in tags:
            return p
        p = p.getparent()
    return None


def _widget_path(el, known: dict | None = None) -> tuple[str, ...]:
    """The configure names of the element's containers below the root, outermost first;
    `known` keeps each container's path for its other children (a palette holds thousands)."""
    parent = el.getparent()
    if parent is None or parent.getparent() is None:
        return ()
    if known is not None and parent in known:
        return known[parent]
    name = _configure_name(parent)
    path = _widget_path(parent, known) + ((name,) if name else ())
    if known is not None:
        known[parent] = path
    return path


def parse_board_layout(command: str | None) -> list[tuple[str, int, int, bool]] | None:
    """BoardPicker.decode of a SetBoards command (a module's `<setup>`, or the one in a save):
    `<map>BoardPicker\tBoard A[/rev]\tcol\trow...` -> [(board, column, row, reversed)]."""
    return _parse_layout(command, "")


def _parse_layout(setup: str | None, map_name: str) -> list[tuple[str, int, int, bool]] | None:
    """BoardPicker.decode of the default `<setup>` SetBoards command."""
    if not setup:
        return None
    d = Decoder(setup, "\t")
    d.next()
    out = []
    while d.has_more():
        st2 = split(d.next(), "/")
        name = st2[0]
        rev = len(st2) > 1 and st2[1] == "rev"
        col = d.next_int(0)
        row = d.next_int(0)
        out.append((name, col, row, rev))
    return out


def _board(el, src: _Source, lookup, problems: list[str]) -> BoardDef:
    a = el.attrib
    image = a.get("image") or None
    size: tuple[int, int] | None
    if image:
        data = None
        try:
            data = src.read("images/" + image)
        except VlogError as e:
            problems.append(f"board {a.get('name')!r}: image {image!r}: {e}")
        size = image_size(data) if data else None
        if size is None and "width" in a and "height" in a:
            # VASSAL sizes a board with an image by the image; without it the declared size is the best guess
            size = (_int(a.get("width"), 500), _int(a.get("height"), 500))
            problems.append(f"board {a.get('name')!r}: image {image!r} not readable; using its width/height attributes")
        elif size is None:
            problems.append(f"board {a.get('name')!r}: size of image {image!r} unknown (image absent or not PNG/GIF/JPEG)")
    else:
        size = (_int(a.get("width"), 500), _int(a.get("height"), 500))
    grid_el = next((c for c in el if c.tag in _GRID_KIND), None)
    return BoardDef(name=a.get("name", ""), image=image, reversible=_bool(a.get("reversible"), False),
                    width=_int(a.get("width"), 0) if "width" in a else None,
                    height=_int(a.get("height"), 0) if "height" in a else None,
                    size=size, grid_kind=_GRID_KIND.get(grid_el.tag) if grid_el is not None else None,
                    attributes=Attributes(el),
                    grid_source=None if grid_el is None else lambda: _build_grid(grid_el, size, lookup))


def _build_model(root, src: _Source, metadata: dict[str, str], problems: list[str]) -> Module:
    a = root.attrib
    prototypes: dict[str, Prototype] = {}
    for el in root.iter(_PROTOTYPE):
        name = el.get("name", "")
        prototypes.setdefault(name, Prototype(name=name, description=el.get("description", ""), text=text_of(el)))

    module_props: dict[str, str] = {}
    global_properties: list[GlobalProperty] = []
    for el in root.iter(_GLOBAL_PROPERTY, _ZONE_PROPERTY):
        owner = _ancestor(el, _PROPERTY_OWNERS)
        zone = owner.get("name") if owner is not None and owner.tag == _ZONE else None
        map_el = owner if owner is None or owner.tag != _ZONE else _ancestor(owner, _MAP_TAGS)
        gp = GlobalProperty(name=el.get("name", ""), initial_value=el.get("initialValue", ""),
                            description=el.get("description", ""), numeric=_bool(el.get("isNumeric"), False),
                            min=el.get("min"), max=el.get("max"), wrap=_bool(el.get("wrap"), False),
                            scope="zone" if zone is not None else ("map" if map_el is not None else "module"),
                            map_name=map_el.get("mapName") if map_el is not None else None, zone=zone)
        global_properties.append(gp)
        if gp.scope == "module":
            module_props.setdefault(gp.name, gp.initial_value)
    lookup = module_props.get

    sizes: dict[str | None, int | None] = {None: None}     # an absent width or height stays None
    expander = _Expander(prototypes)
    maps: list[MapDef] = []
    for el in root.iter(*_MAP_CLASSES):
        m_attrs = el.attrib
        edge_w, edge_h = _int(m_attrs.get("edgeWidth"), 0), _int(m_attrs.get("edgeHeight"), 0)
        if "edge" in m_attrs and "edgeWidth" not in m_attrs:
            parts = m_attrs["edge"].split(",", 1)
            if len(parts) == 2:
                edge_w, edge_h = _int(parts[0], 0), _int(parts[1], 0)
        boards: list[BoardDef] = []
        setup = None
        for bp in el.iter(_BOARD_PICKER):
            if _ancestor(bp, _MAP_TAGS) is not el:
                continue
            for c in bp:
                if c.tag == "setup" and setup is None:
                    setup = text_of(c) or None
            boards.extend(_board(b, src, lookup, problems) for b in bp.iter(_BOARD))
        map_name = m_attrs.get("mapName", "")
        layout = _parse_layout(setup, map_name)
        md = MapDef(map_name=map_name, kind=_MAP_CLASSES[el.tag], edge_width=edge_w, edge_height=edge_h,
                    boards=boards, setup=setup, layout=layout, attributes=Attributes(el))
        for s in el.iter(_SETUP_STACK, _DRAW_PILE):
            if _ancestor(s, _MAP_TAGS) is not el:
                continue
            sa = s.attrib
            owning = sa.get("owningBoard") or None
            path = (map_name, sa.get("name", ""))
            slots = [_slot(c, path, sizes, expander) for c in s.iter(_PIECE_SLOT, _CARD_SLOT)]
            if s.tag == _SETUP_STACK:
                md.setup_stacks.append(SetupStack(
                    name=sa.get("name", ""), map_name=map_name, owning_board=owning,
                    use_grid_location=_bool(sa.get("useGridLocation"), False), location=sa.get("location"),
                    x=_int(sa.get("x"), 0), y=_int(sa.get("y"), 0), pieces=slots, attributes=Attributes(s)))
            else:
                md.decks.append(DrawPile(
                    name=sa.get("name", ""), map_name=map_name, owning_board=owning, x=_int(sa.get("x"), 0),
                    y=_int(sa.get("y"), 0), width=_int(sa.get("width"), 40), height=_int(sa.get("height"), 40),
                    face_down=sa.get("faceDown", "Always"), shuffle=sa.get("shuffle", "Always"),
                    reversible=_bool(sa.get("reversible"), False), draw=_bool(sa.get("draw"), True),
                    cards=slots, attributes=Attributes(s)))
        maps.append(md)

    piece_slots: list[PieceSlot] = []
    in_stack = {_SETUP_STACK, _DRAW_PILE}
    stacked: dict = {}          # a slot's parent -> its slots' path, None when in an at-start stack or deck
    paths: dict = {}
    parent = path = None
    for el in root.iter(_PIECE_SLOT, _CARD_SLOT):
        if el.getparent() is not parent:        # a palette's slots come in runs of one container
            parent = el.getparent()
            if parent in stacked:
                path = stacked[parent]
            else:
                in_a_stack = parent.tag in in_stack or _ancestor(parent, in_stack) is not None
                path = stacked[parent] = None if in_a_stack else _widget_path(el, paths)
        if path is not None:
            piece_slots.append(_slot(el, path, sizes, expander))

    dice = []
    for el in root.iter(_DICE):
        d = el.attrib
        name = d.get("name", d.get("label", ""))
        dice.append(DiceButton(name=name, n_dice=_int(d.get("nDice"), 2), n_sides=_int(d.get("nSides"), 6),
                               plus=_int(d.get("plus"), 0), add_to_total=_int(d.get("addToTotal"), 0),
                               report_total=_bool(d.get("reportTotal"), False),
                               report_format=d.get("reportFormat", DiceButton.report_format),
                               sort_dice=_bool(d.get("sortDice"), False), keep_dice=_bool(d.get("keepDice"), False),
                               keep_option=d.get("keepOption", ">"), keep_count=_int(d.get("keepCount"), 1),
                               prompt=_bool(d.get("prompt"), False), attributes=dict(d)))
    special = []
    for el in root.iter(_SPECIAL_DICE):
        dies = []
        for die in el.iter(_SPECIAL_DIE):
            faces = [{"text": f.get("text", ""), "value": _int(f.get("value"), 0), "icon": f.get("icon")}
                     for f in die.iter(_SPECIAL_FACE)]
            dies.append(SpecialDie(name=die.get("name", ""), faces=faces, attributes=dict(die.attrib)))
        special.append(SpecialDiceButton(name=el.get("name", ""), dice=dies, attributes=dict(el.attrib)))

    trackers = [TurnTracker(name=el.get("name", ""), attributes=dict(el.attrib),
                            levels=[_turn_level(c) for c in el if c.tag in (_COUNTER_LEVEL, _LIST_LEVEL)])
                for el in root.iter(_TURN_TRACKER)]

    sides: list[str] = []
    for el in root.iter(_PLAYER_ROSTER):
        sides = [text_of(c) for c in el.iter() if c is not el and isinstance(c.tag, str)]
    options: dict[str, str] = {}
    for el in root.iter(_GLOBAL_OPTIONS):
        options.update(el.attrib)
        for c in el:
            if c.tag == "option" and c.get("name") is not None:
                options[c.get("name")] = text_of(c)

    name = a.get("name") or metadata.get("name", "")
    return Module(
        name=name, version=a.get("version", metadata.get("version", "0.0")),
        vassal_version=a.get("VassalVersion", a.get("vassalVersion", metadata.get("VassalVersion", ""))),
        description=a.get("description", metadata.get("description", "")),
        next_piece_slot_id=a.get("nextPieceSlotId"), root=root.tag, source=src.display, metadata=metadata,
        attributes=dict(a), maps=maps, prototypes=prototypes, piece_slots=piece_slots, dice=dice,
        special_dice=special, turn_trackers=trackers, global_properties=global_properties, sides=sides,
        global_options=options, problems=problems)


def _load_root(path: str | os.PathLike) -> tuple[object, _Source, dict[str, str]]:
    p = Path(path)
    display = str(path)
    if not p.exists():
        raise ModuleError("no such file or folder", file=display)
    src = _Source(p, display)
    data, member = src.build_file()
    root = parse_xml(data, file=display, member=member)
    if root.tag not in (ROOT_MODULE, ROOT_LEGACY, ROOT_EXTENSION):
        raise ModuleError(f"root element is <{root.tag}>, not a VASSAL module or extension",
                          file=display, where=member)
    meta_name = "extensiondata" if root.tag == ROOT_EXTENSION else "moduledata"
    return root, src, _metadata(src, meta_name)


def read_module(path: str | os.PathLike, *, extensions: Iterable[str | os.PathLike] = ()) -> Module:
    """Read a .vmod/.vmdx zip, an unpacked module folder, or a bare buildFile(.xml).

    Extensions are layered onto the module in the order given, as VASSAL adds each
    ExtensionElement's component under its target path. Every failure is a `VlogError`.
    """
    root, src, metadata = _load_root(path)
    problems: list[str] = []
    infos: list[ExtensionInfo] = []
    for ext in extensions:
        if root.tag == ROOT_EXTENSION:
            raise ModuleError("extensions are layered onto a module, not onto another extension", file=str(path))
        eroot, esrc, emeta = _load_root(ext)
        if eroot.tag != ROOT_EXTENSION:
            raise ModuleError(f"root element is <{eroot.tag}>, not a module extension", file=str(ext))
        ea = eroot.attrib
        if ea.get("module") and ea.get("module") != root.get("name") and not _bool(ea.get("anyModule"), False):
            problems.append(f"{ext}: written for module {ea.get('module')!r}, not {root.get('name')!r}")
        _apply_extension(root, eroot, str(ext), problems)
        infos.append(ExtensionInfo(name=Path(ext).stem, version=ea.get("version", ""),
                                   description=ea.get("description", ""), module=ea.get("module"),
                                   extension_id=ea.get("extensionId"), source=str(ext)))
    module = _build_model(root, src, metadata, problems)
    module.extensions = infos
    module.game_data = src.game_data()
    return module
