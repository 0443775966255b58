"""Scripted play written as a VASSAL log (.vlog), one step per action, as VASSAL writes them.

The log starts from the script's starting save (its restore block becomes the log's
begin_save ... end_save block, as `BasicLogger.beginOutput` captures it) and appends one `LOG`
step per action. Each step is the command tree VASSAL's own code builds for that action, wrapped
as `BasicLogger.LogCommand` does (the tree's first command is the step, the others nested `LOG`
sub-commands):

* `move` - one step per hop, as a drag (PieceMover.movePieces): the MovePiece (with the piece
  underneath when it lands on a stack), an AddPiece of the new Stack VASSAL makes when it lands
  alone, and the map's movement report (`moveWithinFormat`, default
  `$pieceName$ moves $previousLocation$ &rarr; $location$ *`).
* `flip` / `reduce` / `layer` - a ChangePiece `D/id/new/old` of the piece's whole state with the
  Layer's new level.
* `remove` - RemovePiece. `add` - AddPiece of the module's PieceSlot, its Stack, the create report.
* `roll` - the DiceButton report (its reportFormat, `*`-prefixed as DiceButton.formatResult does)
  and the `_result` property change (plus `_total`, `_keep` from VASSAL 3.6.0 and `_summary` from
  3.7.16).
* `turn` - the TurnTracker report and `TURN<id>` state (TurnTracker.save).
* `chat` - `CHAT&lt;Name&gt; - text` (`<Name> - text` before VASSAL 3.3.3).
* `undo` - `UNDO true`, the inverse of the step BasicLogger.undo picks, `UNDO false`.

Every step is applied to a `vlog.table.Table` as it is written, so what follows sees the table
VASSAL would have; reading the log back and replaying it gives the same table. Piece ids VASSAL
takes from the clock come from the script's `clock`, so the output is deterministic.

From VASSAL 3.7 a dragged piece gains the Old* persistent properties (Decorator.putOldProperties);
the commands that set them have no encoder, but the piece's later states carry them (in Java
HashMap order), so the ChangePiece of a Layer change after a move does too.

Not written (VASSAL writes them in some versions): the `LOG\\tnull` leaves those unencodable
commands leave in a drag's step, movement-trail and "moved" marker changes, Report Action chat of
Layer changes, the Old* properties of a piece dragged from the palette.
"""
from __future__ import annotations

import copy
import datetime as _dt
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from converters.script import Action, Script, parse_script
from converters.step_save import _state_at_point
from vlog.vassal.turn_tracker import DEFAULT_REPORT_FORMAT, TrackerRun, format_text
from vlog.errors import ScriptError, VlogError
from vlog.table import MODULE_CONTAINER, SYNTHETIC_STACK_PREFIX, Table, TablePiece
from vlog.vassal.commands import (
    AddPiece, ChangePiece, Chat, Command, LogStep, MovePiece, MutableProperty, NullCommand,
    PlayerAdd, RemovePiece, Setup, TurnState, Undo,
)
from vlog.vassal.metadata import build_savedata, parse_metadata, version_tuple
from vlog.vassal import grids as G
from vlog.vassal.module import Module, PieceSlot, read_module
from vlog.vassal.obfuscation import Dialect
from vlog.vassal.pieces import (
    BasicPiece, Embellishment, Label, Piece, join_chain, split_chain,
)
from vlog.vassal.savefile import Log, Save, read_save, write
from vlog.vassal.sequence import Encoder, split

__all__ = ["write_log", "build_log", "DEFAULT_KEY", "DEFAULT_CLOCK"]

DEFAULT_KEY = 0x21
DEFAULT_CLOCK = 1_700_000_000_000
"""The clock (ms since 1970) when neither the script nor the starting save gives one."""
STEP_MILLIS = 1000
"""How far the log's clock moves per step (new piece ids are taken from it)."""

LEGACY_DICE_FORMAT = "** $name$ = $result$ *** <$PlayerName$>"
DICE_FORMAT = "** $name$ = $result$ *** &lt;$PlayerName$&gt;"
CREATE_FORMAT = "$pieceName$ created in $location$ *"
DEFAULT_TURN_REPORT = DEFAULT_REPORT_FORMAT
LEGACY_TURN_REPORT = "* <$PlayerId$> Turn Updated from $oldTurn$ to $newTurn$"
"""TurnTracker's default report before the `&lt;` form (3.2.17 TurnTracker.java)."""


# -- VASSAL version differences --------------------------------------------------------------

def _at_least(version: tuple[int, ...], *wanted: int) -> bool:
    return version >= wanted


def _move_format(version: tuple[int, ...]) -> str:
    """Map.getMoveWithinFormat / getMoveToFormat default: in Map.java before 3.5.0, then
    Editor.properties `report_move_within_default` (3.5.0-3.5.3 wrote `-&lt;`)."""
    if _at_least(version, 3, 6):
        return "$pieceName$ moves $previousLocation$ &rarr; $location$ *"
    if _at_least(version, 3, 5, 4):
        return "$pieceName$ moves $previousLocation$ -&gt; $location$ *"
    if _at_least(version, 3, 5):
        return "$pieceName$ moves $previousLocation$ -&lt; $location$ *"
    return "$pieceName$ moves $previousLocation$ -> $location$ *"


def _create_format(version: tuple[int, ...]) -> str:
    """Map.getCreateFormat default (` *` at the end from 3.5.0)."""
    return CREATE_FORMAT if _at_least(version, 3, 5) else "$pieceName$ created in $location$"


def _chat_form(version: tuple[int, ...]) -> tuple[str, str]:
    return ("&lt;", "&gt;") if _at_least(version, 3, 3, 3) else ("<", ">")


# -- the writer ----------------------------------------------------------------------------------

@dataclass
class _Logged:
    """A step as BasicLogger keeps it in logOutput: the command tree and its undo tree, and the
    persistent properties of the pieces it changed before it ran (their undo has no encoder
    but runs in VASSAL all the same)."""

    tree: Command
    undo: Command | None
    properties_before: dict[str, dict[str, str] | None] = field(default_factory=dict)


@dataclass
class _Player:
    name: str
    side: str
    user_id: str


class _Writer:
    """Runs a script's actions against the table, logging each as VASSAL would."""

    def __init__(self, script: Script, start: Save, module: Module | None, version: str):
        self.script = script
        self.start = start
        self.module = module
        self.version = version_tuple(version)
        self.table = Table.from_save(start, module)
        self.steps: list[LogStep] = []
        self.output: list[_Logged] = []
        self.next_undo = -1
        h = script.header
        self.clock = h.clock if h.clock is not None else _start_clock(start)
        self.used_ids: set[str] = set(self.table.pieces)
        self.players = self._players()
        self.player = self.players[0] if self.players else None
        self.trackers = self._trackers()
        self.persistent: dict[str, dict[str, str]] = {}
        """Persistent properties a piece has gained in this log (VASSAL 3.7+ writes them in the
        BasicPiece state; the commands that set them have no encoder, so the log never says)."""

    # -- players -----------------------------------------------------------------------------
    def _players(self) -> list[_Player]:
        saved = {p.name: p for p in self.start.players}
        out: list[_Player] = []
        for decl in self.script.header.players:
            user_id = decl.user_id
            if user_id is None:
                user_id = saved[decl.name].user_id if decl.name in saved else f"secret-{decl.name}"
            out.append(_Player(decl.name, decl.side, user_id))
        if not out:
            out = [_Player(p.name, p.side, p.user_id) for p in self.start.players]
        return out

    def find_player(self, name: str, action: Action) -> _Player:
        for p in self.players:
            if p.name == name:
                return p
        names = ", ".join(p.name for p in self.players) or "none"
        raise self.script.error(f"no player {name!r} (players: {names})", action)

    def acting(self, action: Action) -> _Player:
        if action.player is not None and action.kind != "as":
            return self.find_player(action.player, action)
        if self.player is None:
            raise self.script.error("no player is declared (`player NAME side SIDE`)", action)
        return self.player

    def player_props(self, player: _Player) -> dict[str, str]:
        props = {"PlayerName": player.name, "playerName": player.name, "PlayerSide": player.side,
                 "playerSide": player.side}
        fmt = self.module.global_options.get("playerIdFormat", "$PlayerName$") if self.module else "$PlayerName$"
        props["PlayerId"] = format_text(fmt, props)
        return props

    # -- ids and clock -------------------------------------------------------------------------
    def new_id(self) -> str:
        """GameState.getNewPieceId: the clock in ms, +1 until unused."""
        t = self.clock
        while str(t) in self.used_ids or str(t) in self.table.pieces:
            t += 1
        self.used_ids.add(str(t))
        self.clock = t + 1
        return str(t)

    # -- modules ---------------------------------------------------------------------------------
    def need_module(self, action: Action) -> Module:
        if self.module is None:
            raise self.script.error(f"`{action.kind}` needs the module (header `module FILE`)", action)
        return self.module

    def _trackers(self) -> list[TrackerRun]:
        runs: list[TrackerRun] = []
        if self.module is None:
            return runs
        for i, tracker in enumerate(self.module.turn_trackers):
            run = TrackerRun(tracker, f"TurnTracker{i}")
            state = self.table.turns.get(run.id)
            if state is not None:
                run.set_state(state)
            runs.append(run)
        return runs

    # -- steps -----------------------------------------------------------------------------------
    def log(self, tree: Command, *, undoable: bool = True, undo: Command | None = None,
            properties_before: dict[str, dict[str, str] | None] | None = None) -> None:
        """Append a step: apply it to the table, keep it for undo, wrap it as LogCommand."""
        if undo is None and undoable:
            undo = _inverse_tree(tree, self.table, self.state_now)
        before_count = len(self.output)
        self.table.step = len(self.steps) + 1
        for cmd in _preorder(tree):
            self.table.apply(cmd)
        self.steps.append(_log_tree(tree))
        self.output.append(_Logged(tree, undo, dict(properties_before or {})))
        if undoable and undo is not None:
            self.next_undo = before_count
        self.clock += STEP_MILLIS

    # -- pieces ----------------------------------------------------------------------------------
    def find_piece(self, ref: str, action: Action) -> TablePiece:
        """A unit by `@id`, by its name on the table, or by a game unit id through the bindings."""
        if ref.startswith("@"):
            p = self.table.get(ref[1:])
            if p is None or p.is_container:
                raise self.script.error(f"no piece with id {ref[1:]!r} on the table", action)
            return p
        named = [p for p in self.table.game_pieces() if p.name == ref]
        if not named:
            named = [p for p in self.table.game_pieces() if _display_name(p.piece) == ref]
        if not named:
            named = self._bound(ref)
        if len(named) == 1:
            return named[0]
        if not named:
            raise self.script.error(f"no piece named {ref!r} on the table", action)
        ids = ", ".join("@" + p.id for p in named[:10])
        raise self.script.error(f"{len(named)} pieces are named {ref!r}; name one by id ({ids})", action)

    def _bound(self, unit_id: str) -> list[TablePiece]:
        """Pieces standing for a game unit id through the game's bindings (piece name or gpid)."""
        game = self.script.header.game
        if not game:
            return []
        try:
            from vlog.gamedata import load_game_data
            data = load_game_data(game)
        except VlogError:
            return []
        names: set[str] = set()
        gpids: set[str] = set()
        for rec in data.documents.get("bindings", {}).get("pieces", []):
            if _datum(rec.get("counter")) != unit_id and rec.get("id") != unit_id:
                continue
            if _datum(rec.get("piece_name")):
                names.add(_datum(rec.get("piece_name")))
            if _datum(rec.get("gpid")):
                gpids.add(_datum(rec.get("gpid")))
        return [p for p in self.table.game_pieces() if p.name in names or (p.piece.gpid and p.piece.gpid in gpids)]

    def point_of(self, hex_name: str, map_name: str | None, action: Action) -> tuple[str, int, int]:
        module = self.need_module(action)
        map_id = map_name or self.script.header.map
        if map_id is None:
            maps = [m.map_name for m in module.maps if m.boards]
            if len(maps) != 1:
                raise self.script.error(f"name the map (`on MAP` or header `map`); the module has {len(maps)}", action)
            map_id = maps[0]
        try:
            x, y = module.location_center(map_id, hex_name, self.table.layout(map_id))
        except VlogError as exc:
            raise self.script.error(f"cannot place {hex_name!r} on map {map_id!r}: {exc.message}", action) from None
        except Exception as exc:  # noqa: BLE001 - grid code raises its own errors for odd names
            raise self.script.error(f"cannot place {hex_name!r} on map {map_id!r}: {exc}", action) from None
        named = self.table.location_name((map_id, x, y))
        if named is not None and named != hex_name:
            raise self.script.error(f"{hex_name!r} is not a location of map {map_id!r} (its point "
                                    f"({x}, {y}) is named {named!r})", action)
        return map_id, x, y

    def location(self, point: tuple[str | None, int, int]) -> str:
        name = self.table.location_name(point)
        return name if name is not None else "offboard"

    def stack_layer(self, piece: TablePiece) -> int | None:
        """The `@@layer` of a new Stack for the piece (3.4.8+): its old stack's, else 1 (a stacking
        piece in the DefaultPieceCollection)."""
        if not _at_least(self.version, 3, 4, 8):
            return None
        if piece.parent is not None:
            parent = self.table.get(piece.parent)
            if parent is not None and parent.kind == "stack" and parent.type == "stack" and parent.state:
                layer = Piece(parent.id, "stack", parent.state).basic.layer  # type: ignore[attr-defined]
                if layer is not None and layer >= 0:
                    return layer
        return 1

    def new_stack(self, piece_id: str, map_id: str, x: int, y: int, layer: int | None) -> AddPiece:
        enc = Encoder(";")
        enc.append(map_id).append(x).append(y).append(piece_id)
        if layer is not None:
            enc.append(f"@@{layer}")
        return AddPiece(self.new_id(), "stack", enc.value() or "")

    def map_report_format(self, map_id: str, key: str, default: str) -> str:
        m = next((m for m in self.module.maps if m.map_name == map_id), None) if self.module else None
        if m is None:
            return default
        if key in m.attributes:
            return m.attributes[key]
        grid = m.boards[0].grid if m.boards else None
        if key == "moveWithinFormat" and m.boards and grid is None:
            return ""
        if key == "moveToFormat" and m.boards and (grid is None or getattr(grid, "numbering", None) is not None):
            return ""  # Map.getMoveToFormat: no default report onto a map with a numbered grid
        return default

    def auto_report(self) -> bool:
        return not (self.module and self.module.global_options.get("autoReport") == "Never")

    # -- actions ---------------------------------------------------------------------------------
    def run(self, action: Action) -> None:
        handler = getattr(self, "do_" + action.kind)
        handler(action)

    def do_as(self, action: Action) -> None:
        self.player = self.find_player(action.player or "", action)

    def do_move(self, action: Action) -> None:
        player = self.acting(action)
        if action.units:
            pieces = self.stack_pieces(action)
            for hex_name in action.hexes:
                point = self.point_of(hex_name, action.map, action)
                self.drag_stack([p.id for p in pieces], point, player, action)
            return
        piece = self.find_piece(action.unit or "", action)
        for hex_name in action.hexes:
            point = self.point_of(hex_name, action.map, action)
            self.drag(piece.id, point, player, action)

    def stack_pieces(self, action: Action) -> list[TablePiece]:
        """The pieces a stack move names; a piece name of several words left unquoted is told so."""
        try:
            return [self.find_piece(ref, action) for ref in action.units]
        except ScriptError:
            joined = " ".join(action.units)
            if any(p.name == joined or _display_name(p.piece) == joined for p in self.table.game_pieces()):
                raise self.script.error(f"write `move UNIT along HEX ...` with the name in quotes (\"{joined}\"): "
                                        "several words before `along` are the pieces of one stack", action) from None
            raise

    def drag_stack(self, piece_ids: list[str], point: tuple[str, int, int], player: _Player,
                   action: Action) -> None:
        """One drag and drop of a whole stack, as PieceMover.movePieces logs it: onto an empty
        point one MovePiece of the Stack itself (Map.placeAt); onto pieces there, StackMetrics.merge
        of the stack: a MovePiece per piece, bottom to top, each onto the one moved before it (the
        first onto the top piece there, made a stack first when it lies alone), each leaving the
        bottom of what is left of its stack. Then one movement report for all of them (a Stack's
        name is its pieces' names, Stack.getName)."""
        stack_id, _ = self.table.stack_of(piece_ids[0])
        stack = self.table.get(stack_id) if stack_id is not None else None
        if stack is None or stack.kind != "stack" or len(set(piece_ids)) != len(piece_ids) \
                or set(piece_ids) != set(stack.children):
            names = ", ".join(self.table[pid].name for pid in stack.children) if stack is not None else ""
            raise self.script.error(
                "pieces moved as one stack must be the whole stack they stand in"
                + (f" ({names})" if names else " (the first stands in none)"), action)
        if stack.id.startswith(SYNTHETIC_STACK_PREFIX):
            raise self.script.error("the stack's id is not known (VASSAL made it without logging it); "
                                    "move its pieces one by one", action)
        map_id, x, y = point
        old_point = stack.point
        order = list(stack.children)                      # bottom to top, as the stack holds them
        before = {pid: (dict(self.persistent[pid]) if pid in self.persistent else None) for pid in order}
        for pid in order:
            self.put_old_properties(self.table[pid])
        targets = [p for p in self.table.pieces_at(map_id, x, y)
                   if p.id not in order and not _no_stack(p.piece)]
        cmds: list[Command] = []
        if targets:
            under = targets[-1]
            if under.parent is None:
                cmds.append(self.new_stack(under.id, map_id, x, y, self.stack_layer(under)))
            under_id = under.id
            for pid in order:
                cmds.append(MovePiece(pid, map_id, x, y, under_id, old_point[0], old_point[1], old_point[2],
                                      None, player.user_id))
                under_id = pid
        else:
            cmds.append(MovePiece(stack.id, map_id, x, y, None, old_point[0], old_point[1], old_point[2],
                                  None, player.user_id))
        cmds += self.move_report([self.table[pid] for pid in order], old_point, point)
        self.log(_flat(cmds), properties_before=before)

    def move_report(self, pieces: list[TablePiece], old_point: tuple[str | None, int, int],
                    point: tuple[str, int, int]) -> list[Command]:
        """The map's movement report of pieces moved together from one point to another
        (MovementReporter: `$pieceName$` their names, `$pieceCount$` how many)."""
        map_id = point[0]
        if not self.auto_report() or old_point[0] is None:
            return []
        same_map = old_point[0] == map_id
        fmt = self.map_report_format(
            map_id, "moveWithinFormat" if same_map else "moveToFormat", _move_format(self.version))
        location, previous = self.location(point), self.location(old_point)
        m = next((m for m in self.module.maps if m.map_name == map_id), None) if self.module else None
        unchanged = same_map and location == previous and m is not None and \
            m.attributes.get("onlyReportChangedLocation") == "true"
        if not fmt or unchanged:
            return []
        props = {"pieceName": ", ".join(_display_name(p.piece) for p in pieces), "pieceCount": str(len(pieces)),
                 "location": location, "previousLocation": previous,
                 "previousMap": old_point[0] or "", "mapName": map_id}
        text = format_text(fmt, props)
        return [Chat("* " + text)] if text else []

    def drag(self, piece_id: str, point: tuple[str, int, int], player: _Player, action: Action) -> None:
        """One drag and drop of a piece onto a point, as PieceMover.movePieces logs it."""
        piece = self.table[piece_id]
        map_id, x, y = point
        old_point = piece.point
        old_under = self._underneath(piece)
        before = {piece.id: (dict(self.persistent[piece.id]) if piece.id in self.persistent else None)}
        self.put_old_properties(piece)
        stacks = not _no_stack(piece.piece)
        targets = [p for p in self.table.pieces_at(map_id, x, y)
                   if p.id != piece.id and stacks and not _no_stack(p.piece)]
        cmds: list[Command] = []
        if targets:
            top = targets[-1]
            if top.parent is None:
                # a lone piece: StackMetrics.merge makes it a stack first (Map.placeAt of the stack)
                cmds.append(self.new_stack(top.id, map_id, x, y, self.stack_layer(top)))
            cmds.append(MovePiece(piece.id, map_id, x, y, top.id, old_point[0], old_point[1],
                                  old_point[2], old_under, player.user_id))
        else:
            cmds.append(MovePiece(piece.id, map_id, x, y, None, old_point[0], old_point[1],
                                  old_point[2], old_under, player.user_id))
            if stacks:  # a piece that does not stack is placed alone (Properties.NO_STACK)
                cmds.append(self.new_stack(piece.id, map_id, x, y, self.stack_layer(piece)))
        cmds += self.move_report([piece], old_point, point)
        self.log(_flat(cmds), properties_before=before)

    def put_old_properties(self, piece: TablePiece) -> None:
        """Decorator.putOldProperties (3.7+): OldX, OldY, OldMap, OldBoard, OldZone,
        OldLocationName and OldDeckName of the point the piece leaves."""
        if not _at_least(self.version, 3, 7):
            return
        props = self.properties_of(piece)
        map_name = board_name = zone_name = location = ""
        if piece.map is not None:
            map_name = piece.map
            m = next((m for m in self.module.maps if m.map_name == piece.map), None) if self.module else None
            if m is not None:
                try:
                    placed = m.placed_boards(self.table.layout(piece.map))
                except VlogError:
                    placed = []
                board = G.find_board(placed, piece.x, piece.y)
                if board is not None:
                    board_name = board.name
                    if isinstance(board.grid, G.ZonedGrid):
                        zone = board.grid.find_zone(piece.x - board.x, piece.y - board.y)
                        zone_name = zone.name if zone is not None else ""
            location = self.location(piece.point)
        parent = self.table.get(piece.parent)
        deck = parent.piece.name if parent is not None and parent.kind == "deck" else ""
        for key, value in (("OldX", str(piece.x)), ("OldY", str(piece.y)), ("OldMap", map_name),
                           ("OldBoard", board_name), ("OldZone", zone_name),
                           ("OldLocationName", location), ("OldDeckName", deck)):
            props[key] = value

    def properties_of(self, piece: TablePiece) -> dict[str, str]:
        """The piece's persistent properties as VASSAL holds them, in the order they were set."""
        if piece.id not in self.persistent:
            basic = piece.piece.basic
            self.persistent[piece.id] = dict(basic.properties) if isinstance(basic, BasicPiece) else {}
        return self.persistent[piece.id]

    def state_now(self, piece: TablePiece) -> str:
        """The piece's whole state as VASSAL would write it now: at its point, and (3.7+) with
        the persistent properties it holds, in Java HashMap order."""
        state = _state_at_point(piece)
        if piece.kind != "piece" or not _at_least(self.version, 3, 7) or piece.id not in self.persistent:
            return state
        return _with_properties(state, self.persistent[piece.id])

    def _underneath(self, piece: TablePiece) -> str | None:
        stack_id, index = self.table.stack_of(piece.id)
        if stack_id is None or not index:
            return None
        return self.table[stack_id].children[index - 1]

    def _layer_change(self, action: Action, choose) -> None:
        self.acting(action)
        piece = self.find_piece(action.unit or "", action)
        traits = piece.piece.traits
        layers = [i for i, t in enumerate(traits) if isinstance(t, Embellishment)]
        if action.layer is not None:
            layers = [i for i in layers if traits[i].name == action.layer]  # type: ignore[attr-defined]
            if not layers:
                names = ", ".join(repr(t.name) for t in traits if isinstance(t, Embellishment)) or "none"
                raise self.script.error(f"{piece.name!r} has no Layer named {action.layer!r} (layers: {names})", action)
        if not layers:
            raise self.script.error(f"{piece.name!r} has no Layer to change", action)
        if len(layers) > 1:
            names = ", ".join(repr(traits[i].name) for i in layers)  # type: ignore[attr-defined]
            raise self.script.error(f"{piece.name!r} has {len(layers)} Layers ({names}); name one", action)
        index = layers[0]
        layer = traits[index]
        assert isinstance(layer, Embellishment)
        count = len(layer.images)
        new_level = choose(layer, count)
        old_state = self.state_now(piece)  # ChangeTracker: the whole state as it is now
        states = split_chain(old_state)
        states[index] = _with_value(layer.state or "", new_level)
        new_state = join_chain(states)
        if new_state == old_state:
            raise self.script.error(f"{piece.name!r} is already at level {new_level} of {layer.name!r}", action)
        self.log(ChangePiece(piece.id, new_state, old_state))

    def do_flip(self, action: Action) -> None:
        def choose(layer: Embellishment, count: int) -> int:
            if count <= 1:
                return -layer.value if layer.value else 1
            return layer.level % count + 1
        self._layer_change(action, choose)

    def do_reduce(self, action: Action) -> None:
        def choose(layer: Embellishment, count: int) -> int:
            if layer.level >= count:
                raise self.script.error(f"Layer {layer.name!r} is at its last level ({count}); it cannot be reduced", action)
            return layer.level + 1
        self._layer_change(action, choose)

    def do_layer(self, action: Action) -> None:
        wanted = action.level or ""

        def choose(layer: Embellishment, count: int) -> int:
            if wanted.isdigit():
                level = int(wanted)
            else:
                names = [n.strip("+").strip() for n in layer.level_names]
                if wanted not in names:
                    raise self.script.error(f"Layer {layer.name!r} has no level named {wanted!r} "
                                            f"(levels: {', '.join(names)})", action)
                level = names.index(wanted) + 1
            if not 1 <= level <= count:
                raise self.script.error(f"Layer {layer.name!r} has levels 1 to {count}, not {level}", action)
            return level
        self._layer_change(action, choose)

    def do_remove(self, action: Action) -> None:
        self.acting(action)
        piece = self.find_piece(action.unit or "", action)
        self.log(RemovePiece(piece.id))

    def do_add(self, action: Action) -> None:
        player = self.acting(action)
        module = self.need_module(action)
        slot = _find_slot(module, action.piece or "")
        if slot is None:
            raise self.script.error(f"the module has no piece named {action.piece!r}", action)
        point = self.point_of(action.hexes[0], action.map, action)
        parts = split(slot.expanded or slot.text, "/")
        if len(parts) < 3:
            raise self.script.error(f"piece {action.piece!r} has no usable definition in the module", action)
        type_, state = parts[2], parts[3] if len(parts) > 3 else ""
        pid = self.new_id()
        state = _placed_state(type_, state, point, slot.gpid)
        added = AddPiece(pid, type_, state)
        cmds: list[Command] = []
        stacks = not _no_stack(Piece(pid, type_, state))
        targets = [p for p in self.table.pieces_at(*point) if stacks and not _no_stack(p.piece)]
        if targets:
            # StackMetrics.merge adds the palette piece as it is (no map, at 0,0), then moves it
            top = targets[-1]
            if top.parent is None:
                cmds.append(self.new_stack(top.id, *point, self.stack_layer(top)))
            cmds.append(AddPiece(pid, type_, _placed_state(type_, parts[3] if len(parts) > 3 else "",
                                                            ("null", 0, 0), slot.gpid)))
            cmds.append(MovePiece(pid, point[0], point[1], point[2], top.id, None, 0, 0, None,
                                  player.user_id))
        else:
            cmds.append(added)
            if stacks:
                layer = 1 if _at_least(self.version, 3, 4, 8) else None
                cmds.append(self.new_stack(pid, *point, layer))
        if self.auto_report():
            fmt = self.map_report_format(point[0], "createFormat", _create_format(self.version))
            text = format_text(fmt, {"pieceName": _display_name(Piece(pid, type_, state)), "pieceCount": "1",
                                     "location": self.location(point), "mapName": point[0]})
            if fmt and text:
                cmds.append(Chat("* " + text))
        self.log(_flat(cmds))

    def do_roll(self, action: Action) -> None:
        player = self.acting(action)
        module = self.need_module(action)
        button = next((b for b in module.dice if b.name == action.button), None)
        if button is None:
            names = ", ".join(repr(b.name) for b in module.dice) or "none"
            raise self.script.error(f"no dice button {action.button!r} (buttons: {names})", action)
        faces = list(action.faces)
        if len(faces) != button.n_dice and not button.prompt:
            raise self.script.error(f"{button.name!r} rolls {button.n_dice} dice, the script gives {len(faces)}", action)
        if any(not 1 <= f <= button.n_sides for f in faces) and not button.prompt:
            raise self.script.error(f"{button.name!r} has {button.n_sides} sides; faces must be 1 to {button.n_sides}", action)
        fmt = button.attributes.get("reportFormat")
        if fmt is None:
            fmt = DICE_FORMAT if _at_least(self.version, 3, 3, 3) else LEGACY_DICE_FORMAT
        if fmt.strip().startswith("{"):
            raise self.script.error(f"{button.name!r} reports with a BeanShell expression, which vlog does not evaluate", action)
        result, total, keep_count, summary, props = _dice_result(button, faces)
        props.update(self.player_props(player))
        text = format_text(fmt, props)
        if text:
            text = "*" + text if text.startswith("*") else "* " + text
        cmds: list[Command] = [Chat(text) if text else NullCommand()]
        values = [("_result", result, "1")]
        if _at_least(self.version, 3, 6):
            values += [("_total", str(total), "0"), ("_keep", str(keep_count), "0")]
        if _at_least(self.version, 3, 7, 16):
            values.append(("_summary", summary, ""))
        for suffix, value, initial in values:
            name = button.name + suffix
            old = self.table.global_properties.get((MODULE_CONTAINER, name), initial)
            cmds.append(MutableProperty(name, old, value, MODULE_CONTAINER))
        root = cmds[0]
        if isinstance(root, NullCommand):
            root = cmds[1]
            rest = cmds[2:]
        else:
            rest = cmds[1:]
        root.subs = list(rest)
        self.log(root)

    def do_turn(self, action: Action) -> None:
        player = self.acting(action)
        self.need_module(action)
        if not self.trackers:
            raise self.script.error("the module has no turn tracker", action)
        for tracker in self.trackers:  # as the table has it now (an undo may have set it back)
            state = self.table.turns.get(tracker.id)
            if state is not None and state != tracker.state():
                tracker.set_state(state)
        run = self.trackers[0]
        saved_state, saved_turn = run.state(), run.turn_string()
        if action.turn == "next":
            run.next()
        else:
            owners = {tracker.id for name, _ in action.levels for tracker in self.trackers
                      if tracker.find(name)}
            if len(owners) > 1:
                raise self.script.error("`turn set` names levels of more than one turn tracker", action)
            run = next((t for t in self.trackers if t.id in owners), run)
            saved_state, saved_turn = run.state(), run.turn_string()
            for name, value in action.levels:
                paths = run.find(name)
                if not paths:
                    raise self.script.error(f"no turn level named {name!r}", action)
                try:
                    run.set_level(paths[0], value)
                except ValueError as exc:
                    raise self.script.error(str(exc), action) from None
        new_state = run.state()
        if new_state == saved_state:
            raise self.script.error("the turn does not change (VASSAL logs nothing)", action)
        props = dict(self.player_props(player))
        props.update({"oldTurn": saved_turn, "newTurn": run.turn_string()})
        attrs = run.tracker.attributes
        fmt = attrs["reportFormat"] if "reportFormat" in attrs else (
            DEFAULT_TURN_REPORT if _at_least(self.version, 3, 3, 3) else LEGACY_TURN_REPORT)
        report = format_text(fmt, props)
        turn_cmd = TurnState(run.id, new_state)
        undo = TurnState(run.id, saved_state)
        if report:
            report = report.replace("\\n", " - ").replace("\\t", " ")
            root: Command = Chat("* " + report)
            root.subs = [turn_cmd]
            undo_tree = undo
            undo_tree.subs = [Chat("* UNDO: * " + report)]
        else:
            root, undo_tree = turn_cmd, undo
        self.log(root, undo=undo_tree)

    def do_chat(self, action: Action) -> None:
        player = self.acting(action)
        opening, closing = _chat_form(self.version)
        speaker = self.player_props(player)["PlayerId"]
        self.log(Chat(f"{opening}{speaker}{closing} - {action.text or ''}"))

    def do_undo(self, action: Action) -> None:
        if self.next_undo < 0:
            raise self.script.error("nothing to undo", action)
        last = self.output[self.next_undo]
        self.next_undo -= 1  # BasicLogger.undo: getUndoCommand() is never null, one step back
        inverse = [copy.deepcopy(last.undo)] if last.undo is not None else []
        tree = Undo(True, subs=[*inverse, Undo(False)])
        now = {pid: (dict(self.persistent[pid]) if pid in self.persistent else None)
               for pid in last.properties_before}
        for pid, props in last.properties_before.items():  # SetPersistentPropertyCommand undone
            if props is None:
                self.persistent.pop(pid, None)
            else:
                self.persistent[pid] = dict(props)
        self.log(tree, undo=_inverse_tree(tree, self.table, self.state_now), undoable=False,
                 properties_before=now)


# -- helpers ------------------------------------------------------------------------------------

def _datum(value: object) -> str | None:
    if isinstance(value, dict):
        v = value.get("value")
        return v if isinstance(v, str) else None
    return value if isinstance(value, str) else None


def _start_clock(start: Save) -> int:
    md = start.metadata
    saved = md.date_saved_ms if md is not None else None
    return saved + 60_000 if saved else DEFAULT_CLOCK


def _flat(cmds: Sequence[Command]) -> Command:
    """A command tree as `comm = comm.append(...)` builds it: the first command, the rest its subs."""
    root, *rest = cmds
    root.subs = list(rest)
    return root


def _preorder(tree: Command) -> Iterator[Command]:
    stack = [tree]
    while stack:
        node = stack.pop()
        if not isinstance(node, NullCommand):
            yield node
        stack.extend(reversed(node.subs))


def _log_tree(tree: Command) -> LogStep:
    """BasicLogger.LogCommand: each command wrapped, its sub-commands nested LogCommands."""
    subs = [_log_tree(s) for s in tree.subs]
    leaf = copy.copy(tree)
    leaf.subs = []
    return LogStep(leaf, subs=subs)


def _my_inverse(cmd: Command, table: Table, state_of=_state_at_point) -> Command | None:
    """Command.myUndoCommand for one command, given the table just before it runs (`state_of`
    gives a piece's whole state as VASSAL holds it)."""
    if isinstance(cmd, MovePiece):
        return MovePiece(cmd.id, cmd.old_map, cmd.old_x, cmd.old_y, cmd.old_under, cmd.new_map,
                         cmd.new_x, cmd.new_y, cmd.new_under, cmd.player_id)
    if isinstance(cmd, AddPiece):
        return RemovePiece(cmd.id) if cmd.id is not None else None
    if isinstance(cmd, RemovePiece):
        p = table.get(cmd.id)
        return AddPiece(p.id, p.type, state_of(p)) if p is not None else None
    if isinstance(cmd, ChangePiece):
        return ChangePiece(cmd.id, cmd.old_state, cmd.new_state) if cmd.old_state is not None else None
    if isinstance(cmd, Chat):
        return Chat("* UNDO: " + cmd.text)
    if isinstance(cmd, MutableProperty):
        return MutableProperty(cmd.name, cmd.new, cmd.old, cmd.container)
    if isinstance(cmd, TurnState):
        old = table.turns.get(cmd.tracker_id)
        return TurnState(cmd.tracker_id, old) if old is not None else None
    return None


def _inverse_tree(tree: Command, table: Table, state_of=_state_at_point) -> Command | None:
    """Command.getUndoCommand: the sub-commands' inverses in reverse order, then its own, joined
    the way `NullCommand.append` joins them (the first becomes the root)."""
    scratch = table.copy()
    own: dict[int, Command | None] = {}
    for cmd in _preorder(tree):
        own[id(cmd)] = _my_inverse(cmd, scratch, state_of)
        scratch.apply(cmd)

    def build(node: Command) -> Command | None:
        parts = [build(s) for s in reversed(node.subs)]
        parts.append(None if isinstance(node, NullCommand) else own.get(id(node)))
        root: Command | None = None
        for part in parts:
            if part is None:
                continue
            if root is None:
                root = part
            else:
                root.subs.append(part)
        return root

    return build(tree)


def _java_string_hash(s: str) -> int:
    """`String.hashCode()` over UTF-16 code units (unsigned 32-bit)."""
    h = 0
    data = s.encode("utf-16-be", "surrogatepass")
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & 0xFFFFFFFF
    return h


def hashmap_order(keys: Sequence[str]) -> list[str]:
    """The iteration order of a `new HashMap<>()` filled with `keys` in this order: buckets by
    index (`(h ^ h >>> 16) & (capacity - 1)`), insertion order within a bucket; capacity 16,
    doubled past a 0.75 load factor."""
    cap = 16
    while len(keys) > cap * 3 // 4:
        cap *= 2
    buckets: dict[int, list[str]] = {}
    for k in keys:
        h = _java_string_hash(k)
        buckets.setdefault((h ^ (h >> 16)) & (cap - 1), []).append(k)
    return [k for i in sorted(buckets) for k in buckets[i]]


def _with_properties(state: str, props: dict[str, str]) -> str:
    """A state whose BasicPiece part (`map;x;y;gpid;count;k;v...`) holds these properties."""
    states = split_chain(state)
    fields = split(states[-1], ";")
    while len(fields) < 4:
        fields.append("")
    enc = Encoder(";")
    for f in fields[:4]:
        enc.append(f)
    enc.append(len(props))
    for key in hashmap_order(list(props)):
        enc.append(key).append(props[key])
    states[-1] = enc.value() or ""
    return join_chain(states)


def _with_value(state: str, value: int) -> str:
    """An Embellishment state with a new level value (Embellishment.myGetState writes the value)."""
    i = state.find(";")
    return str(value) if i == -1 else str(value) + state[i:]


def _no_stack(piece: Piece) -> bool:
    """Properties.NO_STACK: a Does-not-stack (`immob;`) trait whose stacking option is not
    `L` (Immobilized.mySetType; a missing option means never stack)."""
    for t in piece.traits[:-1]:
        if t.id_prefix == "immob;":
            return not t.field(2, "R").startswith("L")
    return False


def _display_name(piece: Piece) -> str:
    """Decorator.getName down the chain: Layer level names (`+x` suffix, `x+` prefix, else
    replacing) and Text Label name formats, innermost first."""
    try:
        traits = piece.traits
    except Exception:  # noqa: BLE001 - a piece whose chain does not split is named by what we have
        return piece.name
    if not traits:
        return ""
    basic = traits[-1]
    name = basic.name if isinstance(basic, BasicPiece) else ""
    for t in reversed(traits[:-1]):
        if isinstance(t, Embellishment) and t.active:
            level = t.level_name
            if level:
                if level.startswith("+"):
                    name = name + level[1:]
                elif level.endswith("+"):
                    name = level[:-1] + name
                else:
                    name = level
        elif isinstance(t, Label) and t.text:
            fmt = t.name_format or "$pieceName$ ($label$)"
            name = format_text(fmt, {"pieceName": name, "label": t.text})
    return name


def _find_slot(module: Module, name: str) -> PieceSlot | None:
    slots = list(module.piece_slots) + [s for st in module.setup_stacks for s in st.pieces]
    for slot in slots:
        if slot.entry_name == name:
            return slot
    for slot in slots:
        if slot.name == name:
            return slot
    return None


def _placed_state(type_: str, state: str, point: tuple[str, int, int], gpid: str | None) -> str:
    """A palette piece's state once placed: BasicPiece `map;x;y;gpid;...` at the point."""
    types = split_chain(type_)
    states = split_chain(state) if state else []
    while len(states) < len(types):
        states.insert(0, "")
    fields = split(states[-1], ";") if states[-1] else []
    while len(fields) < 5:
        fields.append("0" if len(fields) == 4 else "")
    fields[0], fields[1], fields[2] = point[0], str(point[1]), str(point[2])
    if gpid and not fields[3]:
        fields[3] = gpid
    enc = Encoder(";")
    for f in fields:
        enc.append(f)
    states[-1] = enc.value() or ""
    return join_chain(states)


def _dice_result(button, faces: list[int]) -> tuple[str, int, int, str, dict[str, str]]:
    """DiceButton.DR with the given raw faces: ($result$, total, keep count, summary, props)."""
    plus, add = button.plus, button.add_to_total
    keeping = button.keep_dice
    option = button.keep_option
    value = button.keep_count
    kept: list[int] = []
    counts = [0] * max(button.n_sides, 0)
    raw_counts = [0] * max(button.n_sides, 0)
    for raw in faces:
        roll = raw + plus
        if 1 <= raw <= len(raw_counts):
            raw_counts[raw - 1] += 1
        if keeping and ((option == ">" and roll < value) or (option == "<" and roll > value)
                        or (option == "=" and roll != value)):
            continue
        kept.append(roll)
        if 1 <= raw <= len(counts):
            counts[raw - 1] += 1
    if option in ("s", "l"):
        ordered = sorted(kept)
        n = max(0, min(value, len(ordered)))
        kept = ordered[:n] if option == "s" else ordered[len(ordered) - n:]
    total = add + sum(kept)
    if button.sort_dice:
        kept.sort()
    result = str(total) if button.report_total else ",".join(str(k) for k in kept)
    tally: dict[int, int] = {}
    for k in kept:
        tally[k] = tally.get(k, 0) + 1
    summary = ", ".join(f"{k} x{tally[k]}" for k in sorted(tally))
    props = {"name": button.name, "result": result, "summary": summary, "nDice": str(button.n_dice),
             "nSides": str(button.n_sides), "plus": str(plus), "addToTotal": str(add),
             "numericalTotal": str(total), "keepDice": str(value), "keepCount": str(len(kept)),
             "rawRolls": ", ".join(str(f) for f in faces)}
    for i, k in enumerate(kept):
        props[f"result{i + 1}"] = str(k)
    for i in range(len(raw_counts)):
        props[f"rawCount{i + 1}"] = str(raw_counts[i])
        props[f"count{i + 1}"] = str(counts[i])
    return result, total, len(kept), summary, props


# -- starting save, restore block and output --------------------------------------------------

def _starting_save(script: Script, module: Module | None) -> Save:
    h = script.header
    if h.start is not None:
        path = script.resolve(h.start)
        try:
            return read_save(path)  # type: ignore[arg-type]
        except VlogError as exc:
            raise ScriptError(f"cannot read the starting save: {exc}", file=script.path, where="header") from None
    try:
        from converters import setup_writer  # noqa: PLC0415 - optional, lands separately
        build = getattr(setup_writer, "build_setup_save")
    except (ImportError, AttributeError):
        raise ScriptError(f"no starting save: `start` is not given and this vlog cannot build the setup "
                          f"of scenario {h.scenario!r}", file=script.path, where="header") from None
    if not h.game:
        raise ScriptError("`scenario` needs `game` in the header", file=script.path, where="header")
    return build(h.game, h.scenario, module=module)


def _restore_block(start: Save, extra_players: Iterable[_Player]) -> list[Command]:
    """The start save's begin_save ... end_save contents, with PLAYER entries for players the
    log declares (BasicLogger captures the roster as it is when logging starts)."""
    root = start.commands
    if not (isinstance(root, Setup) and root.begin):
        raise ScriptError("the starting save does not begin with begin_save", file=start.path)
    subs = list(root.subs)
    end = next((i for i, c in enumerate(subs) if isinstance(c, Setup) and not c.begin), None)
    if end is None:
        raise ScriptError("the starting save has no end_save", file=start.path)
    body = subs[:end]
    adds = [PlayerAdd(p.user_id, p.name, p.side) for p in extra_players]
    if adds:
        last_player = max((i for i, c in enumerate(body) if isinstance(c, PlayerAdd)), default=None)
        at = last_player + 1 if last_player is not None else len(body)
        body[at:at] = adds
    return body


def build_log(script: Script) -> Log:
    """The log a script describes (not written): for tests and converters."""
    h = script.header
    module = None
    if h.module is not None:
        try:
            module = read_module(script.resolve(h.module))  # type: ignore[arg-type]
        except VlogError as exc:
            raise ScriptError(f"cannot read the module: {exc}", file=script.path, where="header") from None
    start = _starting_save(script, module)
    version = h.vassal or start.vassal_version or (module.vassal_version if module else None)
    if not version:
        raise ScriptError("no VASSAL version: give `vassal X.Y.Z` (the starting save and module name none)",
                          file=script.path, where="header")
    writer = _Writer(script, start, module, version)
    saved_names = {(p.user_id, p.name, p.side) for p in start.players}
    extra = [p for p in writer.players if (p.user_id, p.name, p.side) not in saved_names]
    body = _restore_block(start, extra)
    for player in extra:
        writer.table.apply(PlayerAdd(player.user_id, player.name, player.side))
    for action in script.actions:
        writer.run(action)
    root = Setup(True, subs=[*body, Setup(False), *writer.steps])
    members = _members(start, module, version, writer.clock)
    dialect = Dialect[(h.dialect or "vcsk").upper()]
    key = None if dialect in (Dialect.PLAIN, Dialect.XZ) else (h.key if h.key is not None else DEFAULT_KEY)
    if dialect is Dialect.VOBS and key == 0:
        raise ScriptError("key 0 cannot be used with the vobs dialect (1-255)", file=script.path, where="header")
    savedata = parse_metadata(dict(members)["savedata"], member="savedata")
    moduledata = dict(members).get("moduledata")
    module_md = None
    if moduledata is not None:
        try:
            module_md = parse_metadata(moduledata, member="moduledata")
        except VlogError:
            module_md = None
    return Log(root, dialect=dialect, key=key, members=members, metadata=savedata,
               module_metadata=module_md, path=None)


def _members(start: Save, module: Module | None, version: str, clock: int) -> list[tuple[str, bytes]]:
    module_version = start.module_version or (module.version if module else "") or ""
    savedata = build_savedata(module_version=module_version, vassal_version=version,
                              date_saved_ms=clock, extras=_at_least(version_tuple(version), 3, 6))
    members: list[tuple[str, bytes]] = [("savedGame", b""), ("savedata", savedata)]
    moduledata = dict(start.members).get("moduledata")
    if moduledata is not None:
        members.append(("moduledata", moduledata))
    return members


def _zip_time(clock_ms: int) -> tuple[int, int, int, int, int, int]:
    t = _dt.datetime.fromtimestamp(clock_ms / 1000, tz=_dt.timezone.utc)
    year = min(max(t.year, 1980), 2107)
    return (year, t.month, t.day, t.hour, t.minute, t.second)


def write_log(script: Script | str | os.PathLike, path: str | os.PathLike, *,
              protect: Iterable[str | os.PathLike] = ()) -> None:
    """Write the log a script describes to `path`, atomically, never over the script, its
    starting save, its module or a `protect` path. Raises ScriptError for a script that does not
    fit its save or module (naming the script line)."""
    if not isinstance(script, Script):
        script = parse_script(script)
    log = build_log(script)
    guarded: list[str | os.PathLike] = [*protect]
    if Path(script.path).exists():
        guarded.append(script.path)
    for rel in (script.header.start, script.header.module):
        resolved = script.resolve(rel)
        if resolved is not None:
            guarded.append(resolved)
    write(log, path, dialect=log.dialect, key=log.key, protect=guarded,
          date_time=_zip_time(_log_clock(log)))


def _log_clock(log: Log) -> int:
    md = dict(log.members).get("savedata", b"")
    text = md.decode("utf-8", "replace")
    start = text.find("<dateSaved>")
    end = text.find("</dateSaved>")
    if start != -1 and end != -1:
        value = text[start + len("<dateSaved>"):end]
        if value.isdigit():
            return int(value)
    return DEFAULT_CLOCK
