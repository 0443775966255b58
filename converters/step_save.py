"""A log's table after step N written as a save (.vsav) VASSAL loads: `vlog convert --step N`.

Step 0 is the log's own starting save, written back unchanged. For a later step the restore block
is rebuilt from the replayed table the way `GameState.getRestoreCommand` lays one out: begin_save,
the version-check token, the AddPiece of every piece in its current state (pieces off the maps
first, by id, then map by map, each stack's pieces before the stack that lists them), then the
game components in the starting save's order with their current values (global properties,
players, turn trackers; board picker, notes, SETUP_STACK, extensions and module-specific
commands as they were), end_save. Stacks VASSAL made during play get ids from the log's clock.

Properties VASSAL does not save (a DiceButton's `_result`...) are not written, as VASSAL would not.
"""
from __future__ import annotations

import os
from typing import Iterable

from vlog.errors import OutputError
from vlog.replay import table_at
from vlog.table import MODULE_CONTAINER, SYNTHETIC_STACK_PREFIX, Table, TablePiece
from vlog.vassal.commands import (
    AddPiece, Command, GlobalPropertySet, NullCommand, PlayerAdd, Setup, TurnState,
)
from vlog.vassal.metadata import version_tuple
from vlog.vassal.pieces import Piece, join_chain, split_chain
from vlog.vassal.savefile import Log, Save, read_log, write
from vlog.vassal.sequence import Encoder, split

__all__ = ["log_to_save", "save_at", "restore_pieces", "DEFAULT_CLOCK"]

DEFAULT_CLOCK = 1_700_000_000_000
"""Where new stack ids start when the log has no dateSaved."""


def _state_at_point(p: TablePiece) -> str:
    """A piece's state as BasicPiece.getState writes it now: map and position of the piece
    (of its stack, for a stacked piece)."""
    if p.kind != "piece":
        return p.state
    states = split_chain(p.state)
    if not states:
        return p.state
    fields = split(states[-1], ";")
    while len(fields) < 3:
        fields.append("")
    fields[0] = p.map if p.map is not None else "null"
    fields[1], fields[2] = str(p.x), str(p.y)
    enc = Encoder(";")
    for f in fields:
        enc.append(f)
    states[-1] = enc.value() or ""
    return join_chain(states)


def _stack_state(stack: TablePiece, children: Iterable[str], layered: bool) -> str:
    """Stack.getState: `map;x;y;id...;@@layer` (the layer marker from VASSAL 3.4.8)."""
    layer: int | None = None
    if stack.state:
        layer = Piece(stack.id, "stack", stack.state).basic.layer  # type: ignore[attr-defined]
    enc = Encoder(";")
    enc.append(stack.map if stack.map is not None else "null").append(stack.x).append(stack.y)
    for kid in children:
        enc.append(kid)
    if layer is not None or layered:
        enc.append(f"@@{layer if layer is not None else 1}")
    return enc.value() or ""


def _deck_state(deck: TablePiece) -> str:
    """Deck state `map;x;y;faceDown;id,id,...[;...]` with the deck's current place and cards."""
    fields = split(deck.state, ";") if deck.state else []
    while len(fields) < 5:
        fields.append("")
    fields[0] = deck.map if deck.map is not None else "null"
    fields[1], fields[2] = str(deck.x), str(deck.y)
    ids = Encoder(",")
    for kid in deck.children:
        ids.append(kid)
    fields[4] = ids.value() or ""
    enc = Encoder(";")
    for f in fields:
        enc.append(f)
    return enc.value() or ""


def restore_pieces(table: Table, *, clock: int = DEFAULT_CLOCK, layered: bool = True) -> list[AddPiece]:
    """The AddPiece commands of GameState.getRestorePiecesCommand for a table: pieces off the maps
    (by id), then each map's stacks, decks and lone pieces, a container's pieces before it."""
    used = set(table.pieces)
    renamed: dict[str, str] = {}

    def real_id(pid: str) -> str:
        if not pid.startswith(SYNTHETIC_STACK_PREFIX):
            return pid
        if pid not in renamed:
            t = clock
            while str(t) in used:
                t += 1
            used.add(str(t))
            renamed[pid] = str(t)
        return renamed[pid]

    out: list[AddPiece] = []
    tops = [p for p in table.pieces.values() if p.parent is None]
    off = sorted((p for p in tops if p.map is None and not (p.kind == "stack" and not p.children)),
                 key=lambda p: p.id)
    maps: dict[str, list[TablePiece]] = {}
    for p in tops:
        if p.map is not None:
            maps.setdefault(p.map, []).append(p)
    for p in off + [p for group in maps.values() for p in group]:
        if p.kind == "stack":
            kids = [table[k] for k in p.children if k in table.pieces]
            if not kids:
                continue
            for kid in kids:
                out.append(AddPiece(kid.id, kid.type, _state_at_point(kid)))
            out.append(AddPiece(real_id(p.id), "stack", _stack_state(p, (k.id for k in kids), layered)))
        elif p.kind == "deck":
            for kid in (table[k] for k in p.children if k in table.pieces):
                out.append(AddPiece(kid.id, kid.type, _state_at_point(kid)))
            out.append(AddPiece(p.id, p.type, _deck_state(p)))
        else:
            out.append(AddPiece(p.id, p.type, _state_at_point(p)))
    return out


def _is_pieces_container(cmd: Command) -> bool:
    return isinstance(cmd, NullCommand) and any(isinstance(s, AddPiece) for s in cmd.subs)


def save_at(log: Log, step: int, *, module: object | None = None) -> Save:
    """The Save holding the table after `step` of `log` (0: the log's starting save)."""
    steps = log.steps
    if not 0 <= step <= len(steps):
        raise OutputError(f"step {step} is outside 0..{len(steps)} (the log has {len(steps)} steps)",
                          file=str(log.path) if log.path else None)
    if step == 0:
        return log.start
    table = table_at(log, step, module)
    start = log.start
    root = start.commands
    body = list(root.subs)
    end = next((i for i, c in enumerate(body) if isinstance(c, Setup) and not c.begin), len(body))
    body = body[:end]
    md = log.metadata
    clock = (md.date_saved_ms if md is not None and md.date_saved_ms else DEFAULT_CLOCK)
    version = version_tuple(log.vassal_version)
    pieces = NullCommand(subs=list(restore_pieces(table, clock=clock, layered=not version or version >= (3, 4, 8))))
    players = [PlayerAdd(p.user_id, p.name, p.side) for p in table.players.values()]
    new_body: list[Command] = []
    placed_pieces = placed_players = False
    seen_turns: set[str] = set()
    for cmd in body:
        if _is_pieces_container(cmd):
            if not placed_pieces and pieces.subs:  # Command.append drops an empty NullCommand
                new_body.append(pieces)
            placed_pieces = True
        elif isinstance(cmd, PlayerAdd):
            if not placed_players:
                new_body.extend(players)
                placed_players = True
        elif isinstance(cmd, GlobalPropertySet):
            value = table.global_properties.get((cmd.container or MODULE_CONTAINER, cmd.name), cmd.value)
            new_body.append(cmd if value == cmd.value else GlobalPropertySet(cmd.name, value, cmd.container))
        elif isinstance(cmd, TurnState):
            seen_turns.add(cmd.tracker_id)
            state = table.turns.get(cmd.tracker_id, cmd.state)
            new_body.append(cmd if state == cmd.state else TurnState(cmd.tracker_id, state))
        else:
            new_body.append(cmd)
    if not placed_pieces and pieces.subs:
        at = 1 if new_body and isinstance(new_body[0], NullCommand) and not new_body[0].subs else 0
        new_body.insert(at, pieces)
    if not placed_players and players:
        at = new_body.index(pieces) + 1 if pieces in new_body else min(1, len(new_body))
        new_body[at:at] = players
    for tracker_id, state in table.turns.items():
        if tracker_id not in seen_turns:
            new_body.append(TurnState(tracker_id, state))
    new_root = Setup(True, subs=[*new_body, Setup(False)])
    return Save(new_root, dialect=log.dialect, key=log.key, members=list(log.members),
                metadata=log.metadata, module_metadata=log.module_metadata)


def log_to_save(log: Log | str | os.PathLike, step: int, path: str | os.PathLike, *,
                module: object | None = None, protect: Iterable[str | os.PathLike] = ()) -> None:
    """Write the table after `step` of a log as a .vsav at `path`, atomically, never over the log."""
    source = log if isinstance(log, Log) else read_log(log)
    guarded: list[str | os.PathLike] = [*protect]
    if source.path:
        guarded.append(source.path)
    elif not isinstance(log, Log):
        guarded.append(log)
    save = save_at(source, step, module=module)
    write(save, path, dialect=save.dialect, key=save.key, protect=guarded)
