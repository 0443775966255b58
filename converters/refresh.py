"""VASSAL's "Refresh Counters" for a file: each piece's definition replaced by the module's current one.

As GameRefresher with GpIdChecker (VASSAL/build/GpIdChecker.java `createUpdatedPiece`, `copyState`,
`findState`) does it: a piece is matched to a module PieceSlot by its gpid, else by the name of its
basic piece; the new piece is the slot's definition with prototypes expanded, and each of its
traits takes the state of the first trait of the old piece of the same kind that has the same
type - or, for Layers, Text Labels and Rotates, the same layer, label or rotate name - so layer
levels, labels, facings, masks and properties survive. Marker traits keep the new definition's
values, a Text Label keeps the old text only when it can be changed in play, and the basic piece
keeps its whole state (map, position, gpid, persistent properties). Pieces no slot matches are left
as they were and reported. Only the restore block (the position) is refreshed.

Matching by name is where a refresh can do harm, so vlog is stricter than GpIdChecker there: a
piece with an empty name is never matched by it, and a name several module pieces share is
matched to the first of them and said so. The report says what each piece became, and
`refresh_file` refuses to write a save most of whose pieces no module piece matches (the wrong
module, most likely) unless forced.
"""
from __future__ import annotations

import copy
import functools
import os
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from vlog.errors import OutputError, VlogError
from vlog.vassal.commands import AddPiece, NullCommand, Setup
from vlog.vassal.module import Module, PieceSlot, read_module
from vlog.vassal.pieces import (
    Embellishment, FreeRotator, Label, Marker, Piece, Trait, join_chain, split_chain,
)
from vlog.vassal.savefile import Save, read, write
from vlog.vassal.sequence import Encoder, split

__all__ = ["Refreshed", "Unmatched", "RefreshReport", "RefreshRefused", "refresh_save", "refresh_file",
           "module_slots"]


@dataclass(frozen=True)
class Refreshed:
    """A piece given the definition of a slot; `by` is "gpid" or "name"."""

    piece_id: str
    name: str
    by: str
    old_gpid: str
    slot_gpid: str | None
    changed: bool
    slot_name: str = ""
    """The module piece it was given (its palette entry name, else its basic name)."""
    shared_by: int = 1
    """How many module pieces have the name it was matched by (more than 1: the first was used)."""


@dataclass(frozen=True)
class Unmatched:
    """A piece no PieceSlot of the module matches: left as it was."""

    piece_id: str
    name: str
    gpid: str
    reason: str


@dataclass
class RefreshReport:
    """What a refresh did, piece by piece, and what it could not do."""

    refreshed: list[Refreshed] = field(default_factory=list)
    unmatched: list[Unmatched] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def changed(self) -> int:
        return sum(1 for r in self.refreshed if r.changed)

    @property
    def pieces(self) -> int:
        return len(self.refreshed) + len(self.unmatched)

    def lines(self) -> list[str]:
        """What each piece matched by name became, each piece not matched, each module problem."""
        out = []
        for r in self.refreshed:
            if r.by != "name":
                continue
            line = (f"{r.name} (id {r.piece_id}): no module piece has gpid {r.old_gpid!r}; refreshed "
                    f"by name: it became {r.slot_name!r} (gpid {r.slot_gpid!r})")
            if r.shared_by > 1:
                line += f", the first of {r.shared_by} module pieces named {r.name!r}"
            out.append(line)
        out += [f"{u.name or '(no name)'} (id {u.piece_id}, gpid {u.gpid!r}): not refreshed: {u.reason}"
                for u in self.unmatched]
        out += self.problems
        return out

    def mostly_unmatched(self) -> bool:
        """More pieces not matched than matched: the module is most likely not this save's."""
        return len(self.unmatched) > len(self.refreshed)


def module_slots(module: Module) -> list[PieceSlot]:
    """Every PieceSlot of the module (palettes, at-start stacks, decks), in buildFile order."""
    slots = list(module.piece_slots)
    for m in module.maps:
        for stack in m.setup_stacks:
            slots.extend(stack.pieces)
        for deck in m.decks:
            slots.extend(deck.cards)
    return slots


class _Slots:
    """GpIdChecker's cross-reference: slots by gpid (first one wins), and by basic piece name."""

    def __init__(self, module: Module, problems: list[str]):
        self.by_gpid: dict[str, PieceSlot] = {}
        self.by_name: dict[str, PieceSlot] = {}
        self.name_count: dict[str, int] = {}
        for slot in module_slots(module):
            if slot.expanded is None:
                problems.append(f"module piece {slot.entry_name!r} has no usable definition "
                                f"({'; '.join(slot.problems) or 'not an AddPiece'})")
                continue
            if slot.gpid:
                if slot.gpid in self.by_gpid:
                    problems.append(f"module pieces {self.by_gpid[slot.gpid].entry_name!r} and "
                                    f"{slot.entry_name!r} share gpid {slot.gpid!r}; the first is used")
                else:
                    self.by_gpid[slot.gpid] = slot
            name = slot.name
            if name:
                self.by_name.setdefault(name, slot)
                self.name_count[name] = self.name_count.get(name, 0) + 1


def _layer_name(t: Trait) -> str:
    return t.name if isinstance(t, Embellishment) else ""  # type: ignore[attr-defined]


def _label_description(t: Trait) -> str:
    return t.field(16)


def _rotate_name(t: Trait) -> str:
    free = t.field(0) == "1"
    return t.field(5 if free else 7)


_NAMED_KEY = re.compile(r"(?<![0-9])(5[7-9][0-9]{3}|6[0-3][0-9]{3})(\\*),([0-9]+)(\\*),(?=[^;,\\\t])")
NAMED_KEY_FIRST, NAMED_KEY_LAST = 0xE000, 0xF8FE
"""NamedKeyManager's key codes: given to key names in the order a VASSAL session meets them."""


@functools.lru_cache(maxsize=8192)
def _same_session_type(type_: str) -> str:
    """A trait type as a running VASSAL re-encodes it: a named key stroke `CODE,MODS,NAME` takes
    the code its name is given in the session (NamedHotKeyConfigurer.decode then
    NamedKeyManager.getKeyStroke), so two types differing only in those codes are the same."""
    def repl(m: re.Match[str]) -> str:
        if not NAMED_KEY_FIRST <= int(m.group(1)) <= NAMED_KEY_LAST:
            return m.group(0)
        return f"#{m.group(2)},0{m.group(4)},"
    return _NAMED_KEY.sub(repl, type_)


def _find_state(old: list[Trait], new: Trait) -> str | None:
    """GpIdChecker.findState: the state of the first old trait of the new trait's kind with the
    same type, or (Layer, Text Label, Rotate) the same name."""
    kind = new.id_prefix
    wanted = _same_session_type(new.type)
    for t in old[:-1]:
        if t.id_prefix != kind:
            continue
        if t.type == new.type or _same_session_type(t.type) == wanted:
            return t.state
        if isinstance(new, Label) and _label_description(t) == _label_description(new):
            return t.state
        if isinstance(new, Embellishment) and _layer_name(t) == _layer_name(new):
            return t.state
        if isinstance(new, FreeRotator) and _rotate_name(t) == _rotate_name(new):
            return t.state
    return None


def _with_gpid(basic_state: str, gpid: str) -> str:
    fields = split(basic_state, ";")
    while len(fields) < 4:
        fields.append("")
    fields[3] = gpid
    enc = Encoder(";")
    for f in fields:
        enc.append(f)
    return enc.value() or ""


@functools.lru_cache(maxsize=4096)
def _definition(expanded: str) -> tuple[str, tuple[Trait, ...]]:
    """A slot's expanded AddPiece as (type, its traits with their default states): parsed once
    per slot, not once per piece refreshed from it."""
    parts = split(expanded, "/")
    new_type = parts[2] if len(parts) > 2 else ""
    new_state = parts[3] if len(parts) > 3 else ""
    types = split_chain(new_type)
    states = split_chain(new_state)
    while len(states) < len(types):
        states.insert(0, "")
    return new_type, tuple(Piece("", new_type, join_chain(states)).traits)


def _updated(old: Piece, slot: PieceSlot, *, fix_gpid: bool) -> tuple[str, str]:
    """The new (type, state) of a piece from a slot's expanded definition (copyState)."""
    new_type, new_traits = _definition(slot.expanded or "")
    old_traits = old.traits
    out: list[str] = []
    for t in new_traits[:-1]:
        state = _find_state(old_traits, t)
        keep_new = state is None or isinstance(t, Marker) or (isinstance(t, Label) and not t.field(0))
        out.append((t.state or "") if keep_new else (state or ""))
    basic = old_traits[-1].state or ""
    if fix_gpid and slot.gpid:
        basic = _with_gpid(basic, slot.gpid)
    out.append(basic)
    return new_type, join_chain(out)


def _slot_name(slot: PieceSlot) -> str:
    return slot.entry_name or slot.name or ""


def refresh_save(save: Save, module: Module, *, by_name: bool = True, fix_gpid: bool = False,
                 iterate: Callable[[list], Iterable] | None = None,
                 ) -> tuple[Save, RefreshReport]:
    """A copy of the save with every piece of its restore block refreshed from the module, and
    the report (the save given is not changed).

    `by_name`: match pieces whose gpid no slot has by their basic name (GameRefresher's option);
    `fix_gpid`: give such pieces the slot's gpid; `iterate` wraps the walk over the pieces
    (a progress bar).
    """
    report = RefreshReport()
    slots = _Slots(module, report.problems)
    old_root = save.commands
    if not (isinstance(old_root, Setup) and old_root.begin):
        raise VlogError("not a save: it does not begin with begin_save", file=save.path)
    root = copy.copy(old_root)
    root.subs = list(old_root.subs)
    places: list[tuple[NullCommand, int]] = []
    for index, original in enumerate(old_root.subs):
        if isinstance(original, Setup):
            break
        if not isinstance(original, NullCommand):
            continue
        container = copy.copy(original)
        container.subs = list(original.subs)
        root.subs[index] = container
        places += [(container, i) for i, cmd in enumerate(container.subs)
                   if isinstance(cmd, AddPiece) and cmd.id is not None]
    walk: Iterable[tuple[NullCommand, int]] = places if iterate is None else iterate(places)  # type: ignore[arg-type]
    for container, i in walk:
        cmd = container.subs[i]
        piece = cmd.piece
        if piece.kind != "piece":
            continue
        gpid = piece.gpid
        name = piece.name
        slot = slots.by_gpid.get(gpid) if gpid else None
        by = "gpid"
        if slot is None and by_name and name:
            slot = slots.by_name.get(name)
            by = "name"
        if slot is None:
            if not by_name:
                reason = f"no module piece has gpid {gpid!r}"
            elif not name:
                reason = f"no module piece has gpid {gpid!r}, and it has no name to be matched by"
            else:
                reason = f"no module piece has gpid {gpid!r} or the name {name!r}"
            report.unmatched.append(Unmatched(cmd.id, name, gpid, reason))
            continue
        new_type, new_state = _updated(piece, slot, fix_gpid=fix_gpid and by == "name")
        changed = (new_type, new_state) != (cmd.type, cmd.state)
        if changed:
            container.subs[i] = AddPiece(cmd.id, new_type, new_state)
        report.refreshed.append(Refreshed(cmd.id, name, by, gpid, slot.gpid, changed, _slot_name(slot),
                                          slots.name_count.get(name, 1) if by == "name" else 1))
    out = type(save)(root, dialect=save.dialect, key=save.key, members=save.members,
                     metadata=save.metadata, module_metadata=save.module_metadata, path=save.path,
                     original_text=save.original_text, metadata_problems=save.metadata_problems)
    return out, report


class RefreshRefused(VlogError):
    """Most pieces of the save match no module piece: nothing was written."""


def refresh_file(save_path: str | os.PathLike, module_path: str | os.PathLike, out_path: str | os.PathLike,
                 *, by_name: bool = True, fix_gpid: bool = False, force: bool = False,
                 protect: Iterable[str | os.PathLike] = (),
                 iterate: Callable[[list], Iterable] | None = None) -> RefreshReport:
    """Refresh a .vsav (or a .vlog's starting position) against a module and write it to `out_path`,
    atomically; the input and the module are never overwritten. Raises RefreshRefused, writing
    nothing, when more pieces match no module piece than match one, unless `force`."""
    guarded = [save_path, module_path, *protect]
    try:
        if os.path.samefile(save_path, out_path):
            raise OutputError("the output would overwrite the input", file=os.fspath(out_path))
    except OSError:
        pass
    obj = read(save_path)
    module = read_module(module_path)
    refreshed, report = refresh_save(obj, module, by_name=by_name, fix_gpid=fix_gpid, iterate=iterate)
    if report.mostly_unmatched() and not force:
        raise RefreshRefused(
            f"{len(report.unmatched)} of its {report.pieces} pieces match no piece of the module "
            f"{os.fspath(module_path)} (by gpid{' or name' if by_name else ''}): is it this game's "
            "module? Nothing was written; --force writes it anyway", file=os.fspath(save_path))
    write(refreshed, out_path, protect=guarded)
    return report
