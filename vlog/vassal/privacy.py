"""Player ids are passwords: find them in a command tree and replace them by placeholders.

VASSAL's user id (`GameModule.getUserId()`) is the player's password preference; it is written
in PLAYER entries, every MovePiece, Mask/Invisible/Restricted owners in piece states, private and
secret note owners and UNMASK lists. Anything vlog shows or exports replaces each distinct id by
a stable `<player-N>` (numbered in order of first appearance).
"""
from __future__ import annotations

import copy
from typing import Iterable

from vlog.vassal.commands import (
    AddPiece, ChangePiece, Command, MovePiece, PlayerAdd, PrivateNote, RemovePiece, SecretNote, Unmask, walk,
)
from vlog.vassal.pieces import Hideable, Obscurable, Piece, Restricted, id_prefix, join_chain, split_chain
from vlog.vassal.sequence import join, split

__all__ = ["Redactor", "player_ids", "redact_player_ids", "redact_state", "copy_tree", "concealed_commands"]

_NOT_IDS = frozenset(("", "null"))


def _piece_types(root: Command) -> dict[str, str]:
    types: dict[str, str] = {}
    for c in walk(root):
        if isinstance(c, AddPiece) and c.id is not None:
            types[c.id] = c.type
    return types


def _owner_ids_in_state(type_: str, state: str) -> list[str]:
    out = []
    types = split_chain(type_)
    states = split_chain(state)
    for t, s in zip(types, states):
        p = id_prefix(t)
        if p == Obscurable.ID:
            owner = split(s, ";")[0]
        elif p in (Hideable.ID, Restricted.ID):
            owner = s
        else:
            continue
        if owner not in _NOT_IDS:
            out.append(owner)
    return out


def player_ids(root: Command) -> list[str]:
    """Every distinct player id in the tree, in order of first appearance."""
    seen: dict[str, None] = {}
    for c in walk(root):
        ids: Iterable[str | None] = ()
        if isinstance(c, PlayerAdd):
            ids = (c.user_id,)
        elif isinstance(c, MovePiece):
            ids = (c.player_id,)
        elif isinstance(c, (PrivateNote, SecretNote)):
            ids = (c.owner,)
        elif isinstance(c, Unmask):
            ids = c.user_ids
        elif isinstance(c, AddPiece):
            ids = _owner_ids_in_state(c.type, c.state)
        for i in ids:
            if i is not None and i not in _NOT_IDS:
                seen.setdefault(i, None)
    return list(seen)


class Redactor:
    """A stable mapping from player ids to `<player-N>` placeholders."""

    def __init__(self, ids: Iterable[str] = ()):
        self.mapping: dict[str, str] = {}
        for i in ids:
            self.placeholder(i)

    def placeholder(self, user_id: str | None) -> str | None:
        """The placeholder for an id (None, "" and "null" are kept as they are)."""
        if user_id is None or user_id in _NOT_IDS:
            return user_id
        if user_id not in self.mapping:
            self.mapping[user_id] = f"<player-{len(self.mapping) + 1}>"
        return self.mapping[user_id]

    def text(self, s: str) -> str:
        """Free text with every known id replaced (longest ids first), for displays."""
        for uid in sorted(self.mapping, key=len, reverse=True):
            if uid in s:
                s = s.replace(uid, self.mapping[uid])
        return s


def redact_state(type_: str | None, state: str, redactor: Redactor) -> str:
    """A piece state chain with owner ids replaced.

    With the piece type known, only Mask/Invisible/Restricted owners are replaced; without it,
    any `;`-token equal to a known id is.
    """
    states = split_chain(state)
    types = split_chain(type_) if type_ is not None else [None] * len(states)
    changed = False
    for i, s in enumerate(states):
        t = types[i] if i < len(types) else None
        p = id_prefix(t) if t is not None else None
        if p == Obscurable.ID:
            toks = split(s, ";")
            if toks[0] in redactor.mapping:
                toks[0] = redactor.placeholder(toks[0]) or ""
                states[i] = join(toks, ";") or ""
                changed = True
        elif p in (Hideable.ID, Restricted.ID):
            if s in redactor.mapping:
                states[i] = redactor.placeholder(s) or ""
                changed = True
        elif t is None:
            toks = split(s, ";")
            if any(tok in redactor.mapping for tok in toks):
                states[i] = join([redactor.placeholder(tok) if tok in redactor.mapping else tok
                                  for tok in toks], ";") or ""
                changed = True
    return join_chain(states) if changed else state


def copy_tree(node: Command) -> Command:
    """A copy of every node (payload text caches kept, so untouched nodes stay exact)."""
    new = copy.copy(node)
    new.subs = [copy_tree(s) for s in node.subs]
    if new._subs_snap is not None:
        new._subs_snap = tuple(new.subs) if len(node.subs) == len(node._subs_snap) and all(
            a is b for a, b in zip(node.subs, node._subs_snap)) else None
        if new._subs_snap is None:
            new._enc = None
    for f in ("inner", "head"):
        if f in getattr(type(node), "FIELDS", ()):
            child = copy_tree(getattr(node, f))
            setattr(new, f, child)
            if new._snap is not None and new._snap == (getattr(node, f),):
                new._snap = (child,)
    return new


def redact_player_ids(root: Command, redactor: Redactor | None = None) -> tuple[Command, Redactor]:
    """A deep copy of the tree with every player id replaced; the original is untouched."""
    red = redactor or Redactor()
    for uid in player_ids(root):
        red.placeholder(uid)
    out = copy_tree(root)
    types = _piece_types(out)
    for c in walk(out):
        if isinstance(c, PlayerAdd):
            c.user_id = red.placeholder(c.user_id) or ""
        elif isinstance(c, MovePiece):
            c.player_id = red.placeholder(c.player_id)
        elif isinstance(c, (PrivateNote, SecretNote)):
            c.owner = red.placeholder(c.owner) or ""
        elif isinstance(c, Unmask):
            c.user_ids = tuple(red.placeholder(i) or "" for i in c.user_ids)
        elif isinstance(c, AddPiece):
            c.state = redact_state(c.type, c.state, red)
        elif isinstance(c, ChangePiece):
            t = types.get(c.id)
            c.new_state = redact_state(t, c.new_state, red)
            if c.old_state is not None:
                c.old_state = redact_state(t, c.old_state, red)
    return out, red


def concealed_commands(root: Command) -> dict[int, Piece]:
    """The piece commands that would show what a side may not see, by `id()` of the node, with
    the piece as it then stood: adds and changes of masked or invisible pieces (a change also
    when it masks or unmasks: its other state is the hidden one), and moves of invisible pieces
    (a masked piece's place is seen, an invisible one's is not). Followed in the tree's order,
    which for a log is the order of its steps."""
    pieces: dict[str, Piece] = {}
    out: dict[int, Piece] = {}
    for c in walk(root):
        if isinstance(c, AddPiece) and c.id is not None:
            piece = pieces[c.id] = c.piece
            if piece.concealed:
                out[id(c)] = piece
        elif isinstance(c, ChangePiece) and c.id in pieces:
            before = pieces[c.id]
            after = pieces[c.id] = before.merge_state(c.new_state, c.old_state)
            if before.concealed or after.concealed:
                out[id(c)] = after if after.concealed else before
        elif isinstance(c, MovePiece) and c.id in pieces and pieces[c.id].hidden_by is not None:
            out[id(c)] = pieces[c.id]
        elif isinstance(c, RemovePiece):
            pieces.pop(c.id, None)
    return out
