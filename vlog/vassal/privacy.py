"""Player ids are passwords: find them in a command tree and replace them by placeholders.

VASSAL's user id (`GameModule.getUserId()`) is the player's password preference; it is written
in PLAYER entries, every MovePiece, Mask/Invisible/Restricted owners in piece states, private and
secret note owners and UNMASK lists. Anything vlog shows or exports replaces each distinct id by
a stable `<player-N>` (numbered in order of first appearance). Ids are also found where only a
piece state holds them (a change command's new or old state) and in commands vlog cannot parse,
whose raw text goes out through the same redaction.

A side does not see an invisible piece, nor where it is: commands that would show one (its own,
raw ones naming it, and stacks holding it) are found by `concealed_commands`.
"""
from __future__ import annotations

import copy
from typing import Iterable

from vlog.vassal.commands import (
    AddPiece, ChangePiece, Command, MovePiece, PlayerAdd, PrivateNote, RemovePiece, SecretNote, Unmask,
    UnknownCommand, walk,
)
from vlog.vassal.pieces import Hideable, Obscurable, Piece, Restricted, id_prefix, join_chain, split_chain
from vlog.vassal.sequence import join, split

__all__ = ["Redactor", "player_ids", "redact_player_ids", "redact_state", "copy_tree", "concealed_commands",
           "raw_piece_id", "visible_stack"]

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


_PIECE_PREFIXES = ("M/", "D/", "+/", "-/")


def raw_piece_id(raw: str) -> str | None:
    """The piece a raw (unparsed) piece command names: `M/id/…`, `D/id/…`, `+/id/…`, `-/id`."""
    if not raw.startswith(_PIECE_PREFIXES):
        return None
    return split(raw[2:], "/")[0]


def _raw_ids(raw: str, types: dict[str, str]) -> list[str]:
    """Player ids in the raw text of a command vlog could not parse, where VASSAL puts them."""
    if raw.startswith("M/"):
        toks = split(raw[2:], "/")
        return toks[9:10]
    if raw.startswith("D/"):
        toks = split(raw[2:], "/")
        t = types.get(toks[0])
        return [i for st in toks[1:3] for i in (_owner_ids_in_state(t, st) if t else [])]
    if raw.startswith("+/"):
        toks = split(raw[2:], "/")
        return _owner_ids_in_state(toks[1], toks[2]) if len(toks) > 2 else []
    if raw.startswith(("PLAYER\t", "PNOTE\t", "SNOTE\t", "UNMASK\t")):
        toks = split(raw, "\t")
        return toks[1:] if raw.startswith("UNMASK\t") else toks[1:2]
    return []


def player_ids(root: Command) -> list[str]:
    """Every distinct player id in the tree, in order of first appearance."""
    seen: dict[str, None] = {}
    types: dict[str, str] | None = None
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
        elif isinstance(c, (ChangePiece, UnknownCommand)):
            if types is None:
                types = _piece_types(root)
            if isinstance(c, UnknownCommand):
                ids = _raw_ids(c.raw, types)
            elif c.id in types:
                ids = [i for st in (c.new_state, c.old_state) if st is not None
                       for i in _owner_ids_in_state(types[c.id], st)]
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
        elif isinstance(c, UnknownCommand):
            raw = red.text(c.raw)
            if raw != c.raw:
                c.raw = raw
            if c.problem:
                c.problem = red.text(c.problem)
    return out, red


def visible_stack(stack: Piece, pieces: dict[str, Piece]) -> Piece | None:
    """The stack as a side sees it when it holds invisible pieces (their ids left out, and no
    position when none is left); None when it holds none."""
    ids = stack.piece_ids
    shown = [i for i in ids if not (i in pieces and pieces[i].hidden_by is not None)]
    if len(shown) == len(ids):
        return None
    return Piece(stack.id, "stack", join([stack.map or "", str(stack.x), str(stack.y), *shown], ";") or "")


def concealed_commands(root: Command) -> dict[int, Piece]:
    """The piece commands that would show what a side may not see, by `id()` of the node, with
    the piece as it then stood: adds and changes of masked or invisible pieces (a change also
    when it masks or unmasks: its other state is the hidden one), moves of invisible pieces
    (a masked piece's place is seen, an invisible one's is not) and moves onto or off one (they
    name it), raw commands vlog could not parse
    that name such a piece, and stacks holding an invisible piece (with the piece as a side sees
    it: see `visible_stack`). Followed in the tree's order, which for a log is the order of its
    steps."""
    pieces: dict[str, Piece] = {}
    out: dict[int, Piece] = {}
    for c in walk(root):
        if isinstance(c, AddPiece) and c.id is not None:
            piece = pieces[c.id] = c.piece
            if piece.is_stack:
                seen = visible_stack(piece, pieces)
                if seen is not None:
                    out[id(c)] = seen
            elif piece.concealed:
                out[id(c)] = piece
        elif isinstance(c, ChangePiece) and c.id in pieces:
            before = pieces[c.id]
            after = pieces[c.id] = before.merge_state(c.new_state, c.old_state)
            if after.is_stack:
                seen = visible_stack(before, pieces) or visible_stack(after, pieces)
                if seen is not None:
                    out[id(c)] = visible_stack(after, pieces) or seen
            elif before.concealed or after.concealed:
                out[id(c)] = after if after.concealed else before
        elif isinstance(c, MovePiece) and c.id in pieces:
            piece = pieces[c.id]
            if piece.hidden_by is not None:
                out[id(c)] = piece
            elif piece.is_stack and visible_stack(piece, pieces) is not None:
                out[id(c)] = visible_stack(piece, pieces)  # type: ignore[assignment]
            elif any(u in pieces and pieces[u].hidden_by is not None for u in (c.new_under, c.old_under) if u):
                out[id(c)] = piece  # a move onto (or off) an invisible piece names it
        elif isinstance(c, UnknownCommand):
            piece = pieces.get(raw_piece_id(c.raw) or "")
            if piece is not None and (piece.hidden_by is not None if c.raw.startswith("M/")
                                      else piece.concealed):
                out[id(c)] = piece
        elif isinstance(c, RemovePiece):
            pieces.pop(c.id, None)
    return out
