"""`vlog dump`: everything in a save or log, in words a player can check.

A save is listed as its players, global properties, turn trackers, boards, notes and every
piece (map, pixel position, stack, layer/mask/rotation/label states). A log is its starting
position followed by its numbered steps: moves, changes of trait states, additions, removals,
chat, dice, property changes, undo steps marked as such. Piece names come from a table kept as
the log is read (AddPiece gives the name, later commands refer to the id).

Positions are map pixels; `build_dump(..., location_namer=...)` accepts a function that names a
map point, and `--module` gives one built from the module's grids and the save's board layout.
Without a module the points VASSAL itself named in the file (its OldLocationName piece
properties, `vlog.vassal.observed_names`) are named, and the header says how many.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import click

from vlog.cli._console import (
    check_input, emit, format_option, input_argument, json_text, output_option, printable, progress,
    warn,
)

LocationNamer = Callable[[str | None, int, int], str | None]
"""(map id, x, y) -> the location's name on that map, or None when it has none."""

NO_MODULE_NOTE = "pixel positions: no module given"


def observed_note(points: int) -> str:
    """The header's words when only the points VASSAL named in the file itself are named."""
    noun = "point" if points == 1 else "points"
    return (f"map pixels; {points} {noun} named from the file's own data (VASSAL's OldLocationName "
            "piece properties), other positions unnamed: give --module to name them all")


# -- the table of pieces kept while reading ------------------------------------------------

class PieceTable:
    """id -> (type, state) as the file is read, so later commands can name their pieces.

    Masked and invisible pieces are named as the other side sees them unless `referee`.
    """

    def __init__(self, *, referee: bool = False) -> None:
        self.referee = referee
        self.types: dict[str, str] = {}
        self.states: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.removed: set[str] = set()

    def add(self, piece_id: str | None, type_: str, state: str) -> None:
        from vlog.vassal.pieces import Piece

        if piece_id is None:
            return
        self.types[piece_id] = type_
        self.states[piece_id] = state
        self.removed.discard(piece_id)
        piece = Piece(piece_id, type_, state)
        self.names[piece_id] = piece.name or piece.kind

    def change(self, piece_id: str, state: str) -> None:
        if piece_id in self.types:
            self.states[piece_id] = state

    def remove(self, piece_id: str) -> None:
        self.removed.add(piece_id)

    def _piece(self, piece_id: str | None) -> Any:
        from vlog.vassal.pieces import Piece

        if piece_id is None or piece_id not in self.types or self.types[piece_id] == "stack":
            return None
        return Piece(piece_id, self.types[piece_id], self.states[piece_id])

    def concealed(self, piece_id: str | None) -> bool:
        """Masked or invisible now, and the reader is not the referee."""
        piece = None if self.referee else self._piece(piece_id)
        return piece is not None and piece.concealed

    def invisible(self, piece_id: str | None) -> bool:
        """Invisible now (its position is secret too), and the reader is not the referee."""
        piece = None if self.referee else self._piece(piece_id)
        return piece is not None and piece.hidden_by is not None

    def hides_in_stack(self, piece_id: str, *states: str | None) -> bool:
        """True when `piece_id` is a stack and one of its states holds an invisible piece."""
        from vlog.vassal.pieces import Stack

        if self.types.get(piece_id) != "stack":
            return False
        return any(self.invisible(i) for st in (self.states.get(piece_id), *states) if st is not None
                   for i in Stack("stack", st).piece_ids)

    def raw_hidden(self, raw: str) -> bool:
        """True when a raw (unparsed) command names a piece the reader may not see: a move of an
        invisible piece, or anything else of a masked or invisible one."""
        from vlog.vassal.privacy import raw_piece_id

        pid = raw_piece_id(raw)
        return self.invisible(pid) if raw.startswith("M/") else self.concealed(pid)

    def name(self, piece_id: str | None) -> str:
        """The piece's name, or `piece <id>` when the file never added it."""
        if piece_id is None:
            return "(no piece)"
        if self.types.get(piece_id) == "stack":
            from vlog.vassal.pieces import Stack

            inside = [self.name(i) for i in Stack("stack", self.states[piece_id]).piece_ids
                      if not self.invisible(i)]  # a side sees only the pieces it can see
            return "stack of " + ", ".join(inside) if inside else "empty stack"
        if self.concealed(piece_id):
            return self._piece(piece_id).shown_name()
        return self.names.get(piece_id) or f"piece {piece_id}"


# -- positions ------------------------------------------------------------------------------

def position(map_id: str | None, x: int, y: int, namer: LocationNamer | None) -> dict[str, Any]:
    """A map point as data: map, pixels and (with a namer) the location's name."""
    out: dict[str, Any] = {"map": map_id, "x": x, "y": y}
    if namer is not None and map_id is not None:
        out["location"] = namer(map_id, x, y)
    return out


HIDDEN_POSITION: dict[str, Any] = {"map": None, "x": None, "y": None, "hidden": True}
"""Where an invisible piece is, for anyone but the referee: not shown."""
RAW_NOT_SHOWN = "(a command of a masked or invisible piece that vlog could not read: not shown)"
"""A raw command would give away a concealed piece (its position, its state)."""


def position_text(pos: dict[str, Any]) -> str:
    if pos.get("hidden"):
        return "(position not shown)"
    if pos.get("map") is None:
        return "off-map"
    where = f"{pos['map']} ({pos['x']},{pos['y']})"
    if pos.get("location"):
        where = f"{pos['map']} {pos['location']} ({pos['x']},{pos['y']})"
    return where


class ModuleNamer:
    """Names map points as VASSAL does, with the module's grids and the save's board layout, and
    a board the module draws without a grid by the calibration the game's bindings record for it
    (`calibrations`: `vlog.cli.check.game_calibrations`), as the rules name its hexes.

    A map the module lacks, or a point no grid names, gives None (the pixels are still shown);
    `on_problem` hears once per map why its points cannot be named. `proposed` collects the ids
    of the calibrations that named a point while only proposed by `vlog bind`.
    """

    def __init__(self, module: Any, obj: Any, *, on_problem: Callable[[str], None] | None = None,
                 calibrations: tuple = ()):
        from vlog.vassal.commands import BoardPicker
        from vlog.vassal.module import parse_board_layout

        self.module, self.on_problem, self.calibrations = module, on_problem, calibrations
        self.layouts: dict[str, Any] = {}
        for c in obj.restore_commands():
            if isinstance(c, BoardPicker):
                self.layouts[c.map_id] = parse_board_layout(c.payload())
        self.broken: set[str] = set()
        self.maps: dict[str, tuple[list[Any], list[Any], dict[str, str]]] = {}
        self.proposed: dict[str, None] = {}

    def _boards(self, map_id: str) -> tuple[list[Any], list[Any], dict[str, str]]:
        """The map's boards as laid out (calibrated), its decks, and its boards named by a
        calibration only proposed; read once per map."""
        from vlog.calibration import calibrated_map

        found = self.maps.get(map_id)
        if found is None:
            mp = self.module.find_map(map_id)
            layout = self.layouts.get(map_id) or self.layouts.get(getattr(mp, "map_id", None))
            found = self.maps[map_id] = calibrated_map(mp, layout, self.calibrations)
        return found

    def __call__(self, map_id: str | None, x: int, y: int) -> str | None:
        from vlog.errors import VlogError
        from vlog.vassal import grids as G

        if map_id is None or map_id in self.broken:
            return None
        try:
            boards, decks, proposed = self._boards(map_id)
            name = G.map_location_name(boards, x, y, decks)
        except VlogError as exc:
            if exc.message.startswith("map ") or exc.message.startswith("no map"):
                self.broken.add(map_id)
                if self.on_problem is not None:
                    self.on_problem(f"locations on map {map_id!r} are not named: {exc.message}")
            return None
        if proposed:
            board = G.find_board(boards, x, y)
            if board is not None and board.name in proposed:
                self.proposed.setdefault(proposed[board.name], None)
        return name


def module_location_namer(module: Any, obj: Any, *, on_problem: Callable[[str], None] | None = None,
                          calibrations: tuple = ()) -> LocationNamer:
    """A `ModuleNamer` of the module (and the game's calibrations) for this save or log."""
    return ModuleNamer(module, obj, on_problem=on_problem, calibrations=calibrations)


# -- players --------------------------------------------------------------------------------

class PlayerNames:
    """Shows a player id as a placeholder (or as itself when asked), with the name if known."""

    def __init__(self, obj: Any, *, show_player_ids: bool):
        from vlog.cli.info import redactor_for

        self.show = show_player_ids
        self.redactor = redactor_for(obj)
        self.names = {p.user_id: p.name for p in obj.players}

    def id(self, user_id: str | None) -> str | None:
        if user_id is None or self.show:
            return user_id
        return self.redactor.placeholder(user_id)

    def who(self, user_id: str | None) -> str | None:
        """`Name (<player-1>)`, or just the shown id when the file gives no name for it."""
        if user_id is None or user_id in ("", "null"):
            return None
        shown = self.id(user_id)
        name = self.names.get(user_id)
        return f"{name} ({shown})" if name else shown

    def state(self, type_: str | None, state: str) -> str:
        """A piece state with owner ids replaced, unless ids are to be shown."""
        if self.show:
            return state
        from vlog.vassal.privacy import redact_state

        return redact_state(type_, state, self.redactor)

    def text(self, text: str) -> str:
        """Free text (unknown commands) with every known id replaced, unless ids are shown."""
        return text if self.show else self.redactor.text(text)


# -- traits ---------------------------------------------------------------------------------

def describe_trait(t: Any, players: PlayerNames) -> dict[str, Any] | None:
    """What one trait's state says (layer level, mask, rotation, ...), None for other traits."""
    from vlog.vassal.pieces import (
        DynamicProperty, Embellishment, FreeRotator, Hideable, Label, Obscurable, Restricted,
    )

    if isinstance(t, Embellishment):
        return {"trait": "layer", "name": t.name or None, "level": t.level,
                "level_name": t.level_name or None, "active": t.active}
    if isinstance(t, Obscurable):
        return {"trait": "mask", "masked": t.masked, "by": players.who(t.owner)}
    if isinstance(t, Hideable):
        return {"trait": "invisible", "hidden": t.hidden, "by": players.who(t.owner)}
    if isinstance(t, Restricted):
        return {"trait": "restricted", "sides": t.sides, "owner": players.who(t.owner)}
    if isinstance(t, FreeRotator):
        return {"trait": "rotate", "facing": t.facing, "angle": t.angle}
    if isinstance(t, Label):
        return {"trait": "label", "text": t.text}
    if isinstance(t, DynamicProperty):
        return {"trait": "property", "name": t.name, "value": t.value}
    return None


def trait_states(piece: Any, players: PlayerNames) -> list[dict[str, Any]]:
    """The states of the traits that say something about the piece (layers, mask, ...)."""
    out: list[dict[str, Any]] = []
    for t in piece.traits[:-1]:
        d = describe_trait(t, players)
        if d is not None and not (d["trait"] == "label" and not d["text"]):
            out.append(d)
    return out


def trait_text(t: dict[str, Any]) -> str:
    kind = t["trait"]
    if kind == "layer":
        name = f" {t['name']}" if t.get("name") else ""
        level = f"{t['level']}" + (f" ({t['level_name']})" if t.get("level_name") else "")
        return f"layer{name}: level {level}" + ("" if t["active"] else ", not shown")
    if kind == "mask":
        return ("masked by " + (t["by"] or "?")) if t["masked"] else "not masked"
    if kind == "invisible":
        return ("hidden by " + (t["by"] or "?")) if t["hidden"] else "not hidden"
    if kind == "restricted":
        return f"restricted to {', '.join(t['sides'])}" + (f", owner {t['owner']}" if t.get("owner") else "")
    if kind == "rotate":
        return f"facing {t['facing']}" if t.get("facing") is not None else f"rotated {t['angle']:g} degrees"
    if kind == "label":
        return f"label {t['text']!r}"
    if kind == "property":
        return f"{t['name']} = {t['value']!r}"
    if kind == "basic":
        return ", ".join(f"{k} {v!r}" for k, v in t.items() if k != "trait")
    return f"{kind}: {t.get('from')!r} -> {t.get('to')!r}"


def trait_changes(type_: str | None, old_state: str | None, new_state: str,
                  players: PlayerNames) -> list[dict[str, Any]]:
    """What a ChangePiece changed, trait by trait (outermost first).

    Known traits are described by their meaning; any other trait whose state text changed is
    shown by its id prefix with the old and new state (owner ids replaced).
    """
    from vlog.vassal.pieces import BasicPiece, Piece, make_trait, split_chain

    if type_ is None:
        return [{"trait": "unknown piece", "from": players.state(None, old_state or ""),
                 "to": players.state(None, new_state)}]
    old_piece = Piece(None, type_, old_state if old_state is not None else "")
    new_piece = Piece(None, type_, new_state)
    old_states = split_chain(old_state) if old_state is not None else []
    new_states = split_chain(new_state)
    changes: list[dict[str, Any]] = []
    for i, new_trait in enumerate(new_piece.traits):
        before = old_states[i] if i < len(old_states) else None
        after = new_states[i] if i < len(new_states) else None
        if before == after:
            continue
        old_trait = old_piece.traits[i] if i < len(old_piece.traits) else None
        if isinstance(new_trait, BasicPiece):
            change: dict[str, Any] = {"trait": "basic"}
            if old_trait is None or (old_trait.map, old_trait.x, old_trait.y) != (  # type: ignore[attr-defined]
                    new_trait.map, new_trait.x, new_trait.y):
                change["position"] = f"{new_trait.map} ({new_trait.x},{new_trait.y})"
            old_props = old_trait.properties if isinstance(old_trait, BasicPiece) else {}
            for k, v in new_trait.properties.items():
                if old_props.get(k) != v:
                    change[f"property {k}"] = v
            if len(change) == 1:
                change["state"] = players.state(None, after or "")
            changes.append(change)
            continue
        described_new = describe_trait(make_trait(new_trait.type, after), players)
        described_old = (describe_trait(make_trait(new_trait.type, before), players)
                         if before is not None else None)
        if described_new:
            entry = dict(described_new)
            if described_old:
                entry["was"] = trait_text(described_old)
            changes.append(entry)
        else:
            changes.append({"trait": new_trait.id_prefix.rstrip(";") or new_trait.type[:20],
                            "from": players.state(new_trait.type, before) if before is not None else None,
                            "to": players.state(new_trait.type, after or "")})
    return changes


def change_text(c: dict[str, Any]) -> str:
    text = trait_text(c)
    if c.get("was"):
        text += f" (was {c['was']})"
    return text


# -- pieces ---------------------------------------------------------------------------------

def piece_records(obj: Any, players: PlayerNames, namer: LocationNamer | None, *,
                  referee: bool = False) -> list[dict[str, Any]]:
    """Every piece of the starting position / save, in file order, with where it is.

    A masked piece shows only its mask and where it is, an invisible one neither, unless
    `referee`: a player must not learn the other side's secrets from the dump."""
    pieces = obj.pieces
    container: dict[str, str] = {}
    for pid, p in pieces.items():
        if pid is not None and (p.is_stack or p.is_deck):
            for child in p.piece_ids:
                container.setdefault(child, pid)
    from vlog.vassal.privacy import visible_stack

    records: list[dict[str, Any]] = []
    for pid, p in progress(pieces.items(), len(pieces), "pieces"):
        if p.is_stack and not referee:  # a stack shows only the pieces a side sees
            seen = visible_stack(p, pieces)  # type: ignore[arg-type]
            if seen is not None and not seen.piece_ids:
                continue
            p = seen or p
        holder = pieces.get(container.get(pid or "", "")) if pid else None
        map_id, x, y = p.map, p.x, p.y
        if map_id is None and holder is not None:
            map_id, x, y = holder.map, holder.x, holder.y
        secret = not referee and not (p.is_stack or p.is_deck) and p.concealed
        rec: dict[str, Any] = {"id": pid, "kind": p.kind,
                               "name": p.shown_name() if secret else (p.name or None)}
        if secret and p.hidden_by is not None:
            rec.update(HIDDEN_POSITION)
        else:
            rec.update(position(map_id, x, y, namer))
        if secret:
            rec["concealed"] = True
        if pid in container and not rec.get("hidden"):
            rec["in"] = container[pid]
            rec["in_kind"] = holder.kind if holder is not None else None
        if p.is_stack or p.is_deck:
            rec["contains"] = len(p.piece_ids)
            if p.is_deck:
                rec["face_down"] = p.basic.face_down  # type: ignore[attr-defined]
            elif p.basic.layer is not None:  # type: ignore[attr-defined]
                rec["layer"] = p.basic.layer  # type: ignore[attr-defined]
        elif not secret:
            traits = trait_states(p, players)
            if traits:
                rec["traits"] = traits
        records.append(rec)
    return records


def piece_text(rec: dict[str, Any]) -> list[str]:
    name = f" {printable(rec['name'])!s}" if rec.get("name") else ""
    head = f"  {rec['id']}  {rec['kind']}{name}  {printable(position_text(rec))}"
    if rec.get("in"):
        head += f"  in {rec.get('in_kind') or 'stack'} {rec['in']}"
    if "contains" in rec:
        noun = "card" if rec["kind"] == "deck" else "piece"
        count = rec["contains"]
        head += f"  holds {count} {noun}{'' if count == 1 else 's'}" if count else "  empty"
        if rec.get("face_down"):
            head += ", face down"
    lines = [head]
    for t in rec.get("traits", []):
        lines.append("      " + printable(trait_text(t)))
    return lines


# -- commands of the restore block ----------------------------------------------------------

def setup_records(obj: Any, players: PlayerNames, *, referee: bool = False) -> dict[str, Any]:
    """Global properties, turn trackers, boards, notes and other restore commands (a raw one
    that names a concealed piece is not shown, unless `referee`)."""
    from vlog.vassal.commands import (
        AddPiece, BoardPicker, Ext, GlobalPropertySet, MutableProperty, Notes, NullCommand, PlayerAdd,
        Plugin, PrivateNote, PublicNotes, SecretNote, Setup, SetupStack, TurnState, UnknownCommand,
        Unmask,
    )

    from vlog.vassal.privacy import concealed_commands

    out: dict[str, Any] = {"global_properties": [], "turn_trackers": [], "boards": [],
                           "notes": [], "extensions": [], "other": []}
    hidden = {} if referee else concealed_commands(obj.commands)
    for c in obj.restore_commands():
        if isinstance(c, GlobalPropertySet):
            out["global_properties"].append({"name": c.name, "value": c.value, "container": c.container})
        elif isinstance(c, TurnState):
            out["turn_trackers"].append({"tracker": c.tracker_id, "state": c.state})
        elif isinstance(c, BoardPicker):
            out["boards"].append({"map": c.map_id, "boards": [
                {"board": b, "reversed": rev, "column": col, "row": row} for b, rev, col, row in c.boards]})
        elif isinstance(c, PublicNotes):
            if c.text:
                out["notes"].append({"kind": "public", "text": c.text})
        elif isinstance(c, Notes):
            if c.text:
                out["notes"].append({"kind": "scenario", "text": c.text})
        elif isinstance(c, PrivateNote):
            out["notes"].append({"kind": "private", "owner": players.who(c.owner),
                                 "text": c.text if players.show else "(private: not shown)"})
        elif isinstance(c, SecretNote):
            out["notes"].append({"kind": "secret", "name": c.name, "owner": players.who(c.owner),
                                 "hidden": c.hidden, "text": c.text if players.show else "(secret: not shown)"})
        elif isinstance(c, (Ext, Plugin)):
            out["extensions"].append({"kind": c.KIND, "name": c.name, "version": c.version})
        elif isinstance(c, MutableProperty):
            out["global_properties"].append({"name": c.name, "value": c.new, "container": c.container})
        elif isinstance(c, Unmask):
            ids = [players.id(i) for i in c.user_ids if i not in ("", "null")]
            if ids:
                out["other"].append({"command": "unmask", "text": "may unmask: " + ", ".join(map(str, ids))})
        elif isinstance(c, UnknownCommand):
            out["other"].append({"command": "unknown",
                                 "text": RAW_NOT_SHOWN if id(c) in hidden else players.text(c.raw),
                                 **({"problem": c.problem} if c.problem else {})})
        elif isinstance(c, (AddPiece, PlayerAdd, Setup, SetupStack, NullCommand)) or c.KIND in ("group", "log"):
            continue
        else:
            out["other"].append({"command": c.KIND, "text": players.text(c.payload() or "")})
    return out


# -- log steps ------------------------------------------------------------------------------

def action_record(c: Any, table: PieceTable, players: PlayerNames, namer: LocationNamer | None,
                  roll: Callable[[str], Any]) -> dict[str, Any] | None:
    """One logged command as {action, ..., text}; the table is updated as VASSAL would."""
    from vlog.vassal.commands import (
        AddPiece, ChangePiece, Chat, MovePiece, MutableProperty, NullCommand, PlayerAdd, PlayerRemove,
        RemovePiece, TurnState, Undo, UnknownCommand,
    )
    from vlog.vassal.pieces import Piece

    if isinstance(c, MovePiece):
        name = table.name(c.id)
        secret = table.invisible(c.id) or name == "empty stack" and table.hides_in_stack(c.id or "")
        rec: dict[str, Any] = {"action": "move", "piece": c.id, "name": name,
                               "from": HIDDEN_POSITION if secret else position(c.old_map, c.old_x, c.old_y, namer),
                               "to": HIDDEN_POSITION if secret else position(c.new_map, c.new_x, c.new_y, namer),
                               "by": players.who(c.player_id)}
        onto = c.new_under if c.new_under and not table.invisible(c.new_under) else None
        if onto:
            rec["onto"] = onto
        rec["text"] = (f"move {name} [{c.id}] from {position_text(rec['from'])} to "
                       f"{position_text(rec['to'])}" + (f" onto {table.name(onto)}" if onto else "")
                       + (f" by {rec['by']}" if rec["by"] else ""))
        return rec
    if isinstance(c, ChangePiece) and table.hides_in_stack(c.id, c.new_state, c.old_state):
        table.change(c.id, c.new_state)
        return {"action": "change", "piece": c.id, "name": "stack", "changes": [],
                "text": f"change stack [{c.id}]: it holds an invisible piece (not shown)"}
    if isinstance(c, ChangePiece):
        type_ = table.types.get(c.id)
        old = c.old_state if c.old_state is not None else table.states.get(c.id)
        name = table.name(c.id)  # as it was known before this change (masking it is public)
        table.change(c.id, c.new_state)
        changes = trait_changes(type_, old, c.new_state, players)
        hidden_changes = 0
        if table.concealed(c.id):  # the other side sees only the mask or invisibility itself
            shown = [x for x in changes if x.get("trait") in ("mask", "invisible")]
            hidden_changes, changes = len(changes) - len(shown), shown
        described = "; ".join(change_text(x) for x in changes) or (
            "" if hidden_changes else "no visible change")
        if hidden_changes:
            described += ("; " if described else "") + "other changes not shown (a concealed piece; --referee shows them)"
        return {"action": "change", "piece": c.id, "name": name, "changes": changes,
                "text": f"change {name} [{c.id}]: {described}"}
    if isinstance(c, AddPiece):
        p = Piece(c.id, c.type, c.state)
        table.add(c.id, c.type, c.state)
        pos = HIDDEN_POSITION if table.invisible(c.id) else position(p.map, p.x, p.y, namer)
        shown = table.name(c.id) if table.concealed(c.id) else p.name
        rec = {"action": "add", "piece": c.id, "kind": p.kind, "name": shown or None, **pos}
        if p.is_stack or p.is_deck:
            seen = [i for i in p.piece_ids if not table.invisible(i)]  # a side sees only these
            if p.piece_ids and not seen:
                pos = HIDDEN_POSITION
                rec.update(pos)
            rec["contains"] = [table.name(i) for i in seen]
            rec["text"] = (f"{p.kind} [{c.id}] at {position_text(pos)}: "
                           + (", ".join(rec["contains"]) or "empty"))
        else:
            rec["text"] = f"add {shown or p.kind} [{c.id}] at {position_text(pos)}"
        return rec
    if isinstance(c, RemovePiece):
        name = table.name(c.id)
        table.remove(c.id)
        return {"action": "remove", "piece": c.id, "name": name, "text": f"remove {name} [{c.id}]"}
    if isinstance(c, Chat):
        r = roll(c.text)
        if r is not None:
            faces = getattr(r, "faces", None) or getattr(r, "values", ())
            dice_name = getattr(r, "dice_name", None) or getattr(r, "name", "")
            who = r.player
            return {"action": "dice", "dice": dice_name, "faces": list(faces),
                    "total": getattr(r, "total", None), "player": who, "chat": c.text,
                    "text": f"dice {dice_name}: {','.join(map(str, faces))}" + (f" by {who}" if who else "")}
        if c.is_report:
            return {"action": "report", "chat": c.text, "text": f"report: {c.text}"}
        if c.speaker is not None:
            return {"action": "chat", "speaker": c.speaker, "message": c.message,
                    "text": f"chat <{c.speaker}>: {c.message}"}
        return {"action": "chat", "speaker": None, "message": c.text, "text": f"chat: {c.text}"}
    if isinstance(c, MutableProperty):
        where = f" [{c.container}]" if c.container else ""
        return {"action": "property", "name": c.name, "from": c.old, "to": c.new, "container": c.container,
                "text": f"property {c.name}{where}: {c.old!r} -> {c.new!r}"}
    if isinstance(c, PlayerAdd):
        who = players.who(c.user_id)
        return {"action": "player", "player": who, "name": c.name, "side": c.side,
                "text": f"player {c.name} as {c.side} ({players.id(c.user_id)})"}
    if isinstance(c, PlayerRemove):
        return {"action": "player_leaves", "player": players.who(c.user_id),
                "text": f"player leaves: {players.who(c.user_id)}"}
    if isinstance(c, TurnState):
        return {"action": "turn", "tracker": c.tracker_id, "state": c.state,
                "text": f"turn tracker {c.tracker_id}: {c.state}"}
    if isinstance(c, (Undo, NullCommand)):
        return None
    if isinstance(c, UnknownCommand):
        raw = RAW_NOT_SHOWN if table.raw_hidden(c.raw) else players.text(c.raw)
        return {"action": "unknown", "raw": raw, "text": f"other: {raw}"}
    payload = players.text(c.payload() or "")
    return {"action": c.KIND, "raw": payload, "text": f"{c.KIND}: {payload}"}


def step_records(obj: Any, players: PlayerNames, namer: LocationNamer | None, *,
                 referee: bool = False) -> list[dict[str, Any]]:
    """Every step of a log, numbered from 1, with its actions in order."""
    from vlog.cli.info import dice_reader
    from vlog.vassal.commands import AddPiece

    table = PieceTable(referee=referee)
    for c in obj.restore_commands():
        if isinstance(c, AddPiece):
            table.add(c.id, c.type, c.state)
    roll = dice_reader()
    steps = obj.steps
    out: list[dict[str, Any]] = []
    for step in progress(steps, len(steps), "steps"):
        actions = [a for a in (action_record(c, table, players, namer, roll) for c in step.commands)
                   if a is not None]
        out.append({"step": step.index, "undo": step.is_undo, "actions": actions})
    return out


# -- the whole dump -------------------------------------------------------------------------

def build_dump(obj: Any, path: Path, *, show_player_ids: bool = False,
               location_namer: LocationNamer | None = None, referee: bool = False) -> dict[str, Any]:
    """The content of a Save or Log as a JSON-ready dict (what every --format prints).

    `location_namer` names map points (e.g. from the module's grids); without it positions are
    map pixels only, and the dump says so. An `ObservedNames` names only the points VASSAL named
    in the file; `points_named_from_file` counts them (None when another namer is given).
    """
    from vlog.cli.info import file_facts, player_entries
    from vlog.vassal.savefile import Log

    from vlog.vassal.observed_names import ObservedNames

    players = PlayerNames(obj, show_player_ids=show_player_ids)
    is_log = isinstance(obj, Log)
    named_from_file: int | None = None
    if isinstance(location_namer, ObservedNames):
        named_from_file = len(location_namer)
        if not named_from_file:
            location_namer = None
        positions = observed_note(named_from_file) if named_from_file else NO_MODULE_NOTE
    elif location_namer is not None:
        positions = "map pixels and location names"
    else:
        positions = NO_MODULE_NOTE
        named_from_file = 0
    dump: dict[str, Any] = {
        **file_facts(obj, path),
        "positions": positions,
        "points_named_from_file": named_from_file,
        "player_ids_redacted": not show_player_ids,
        "players": player_entries(obj, show_player_ids=show_player_ids, redactor=players.redactor),
    }
    dump.update(setup_records(obj, players, referee=referee))
    dump["pieces"] = piece_records(obj, players, location_namer, referee=referee)
    if is_log:
        dump["steps"] = step_records(obj, players, location_namer, referee=referee)
    proposed = list(getattr(location_namer, "proposed", ()))
    if proposed:
        from vlog.calibration import proposed_words

        dump["positions"] += f"; {proposed_words(proposed)}"
    return dump


def _section(lines: list[str], title: str, items: list[Any], *, count: bool = True) -> bool:
    if not items:
        return False
    lines.append("")
    lines.append(f"{title} ({len(items)}):" if count else f"{title}:")
    return True


def render_text(dump: dict[str, Any]) -> str:
    """The dump as plain lines, player text made safe to print."""
    p = printable
    lines = [f"File: {p(dump['file'])}",
             f"Kind: {dump['kind']}, obfuscation {dump['dialect']}, VASSAL {dump['vassal_version'] or '?'}, "
             f"module {p(dump['module_name'] or '?')} {p(dump['module_version'] or '')}".rstrip(),
             f"Positions: {dump['positions']}"]
    if dump["player_ids_redacted"] and dump["players"]:
        lines.append("Player ids are passwords, shown as <player-N>; --show-player-ids shows them.")
    if _section(lines, "Players", dump["players"]):
        lines += [f"  {p(x['name'])} as {p(x['side'])} ({p(x['id'] or '-')})" for x in dump["players"]]
    if _section(lines, "Global properties", dump["global_properties"]):
        lines += [f"  {p(g['name'])} = {p(repr(g['value']))}" + (f"  [{p(g['container'])}]" if g["container"] else "")
                  for g in dump["global_properties"]]
    if _section(lines, "Turn trackers", dump["turn_trackers"]):
        lines += [f"  {p(t['tracker'])}: {p(t['state'])}" for t in dump["turn_trackers"]]
    if _section(lines, "Boards", dump["boards"]):
        for b in dump["boards"]:
            chosen = "; ".join(f"{x['board']}{' (reversed)' if x['reversed'] else ''} at column {x['column']}, "
                               f"row {x['row']}" for x in b["boards"]) or "none"
            lines.append(f"  {p(b['map'])}: {p(chosen)}")
    if _section(lines, "Notes", dump["notes"]):
        for n in dump["notes"]:
            owner = f" of {n['owner']}" if n.get("owner") else ""
            lines.append(f"  {n['kind']}{p(owner)}: {p(n['text'] or '')}")
    if _section(lines, "Extensions", dump["extensions"]):
        lines += [f"  {e['kind']} {p(e['name'])} {p(e['version'])}" for e in dump["extensions"]]
    if _section(lines, "Other commands", dump["other"]):
        lines += [f"  {o['command']}: {p(o['text'])}" for o in dump["other"]]
    title = "Pieces at the start" if dump["kind"] == "log" else "Pieces"
    containers = sum(1 for rec in dump["pieces"] if rec.get("kind") in ("stack", "deck"))
    if containers:                  # one meaning with `vlog info`: pieces are game pieces
        pieces = len(dump["pieces"]) - containers
        title += (f" ({pieces} piece{'' if pieces == 1 else 's'}, in "
                  f"{'1 stack or deck' if containers == 1 else f'{containers} stacks and decks'})")
    if _section(lines, title, dump["pieces"], count=not containers):
        for rec in dump["pieces"]:
            lines += piece_text(rec)
    if dump["kind"] == "log":
        lines.append("")
        lines.append(f"Steps ({len(dump['steps'])}):")
        for s in dump["steps"]:
            mark = "  (undo)" if s["undo"] else ""
            lines.append(f"  Step {s['step']}{mark}:")
            if not s["actions"]:
                lines.append("      (nothing)")
            for a in s["actions"]:
                lines.append("      " + p(a["text"]))
    return "\n".join(lines) + "\n"


def jsonl_records(dump: dict[str, Any]) -> list[dict[str, Any]]:
    """One record per line: the file header, then each piece, then each step."""
    header = {k: v for k, v in dump.items() if k not in ("pieces", "steps")}
    records: list[dict[str, Any]] = [{"record": "file", **header}]
    records += [{"record": "piece", **rec} for rec in dump["pieces"]]
    records += [{"record": "step", **s} for s in dump.get("steps", [])]
    return records


def render(dump: dict[str, Any], output_format: str) -> str:
    if output_format == "json":
        return json_text(dump)
    if output_format == "jsonl":
        return json_text(jsonl_records(dump), lines=True)
    return render_text(dump)


@click.command("dump")
@input_argument()
@format_option("text", "json", "jsonl")
@click.option("--show-player-ids", is_flag=True,
              help="Show the players' real ids. They are passwords: do not share the output.")
@click.option("--module", "module_path", type=click.Path(path_type=Path), default=None,
              help="The game's module (.vmod, unpacked folder or buildFile.xml): name the hexes, "
                   "zones and decks of positions as VASSAL does.")
@click.option("--extension", "extensions", multiple=True, type=click.Path(path_type=Path),
              help="An extension (.vmdx) to add to --module; repeatable.")
@click.option("--game", "game_name", default=None, metavar="GAME",
              help="With --module: name the hexes of boards the module draws without a grid by the "
                   "calibrations this game's bindings record (as `vlog check --game` names them).")
@click.option("--data", "overlays", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              metavar="DIR", help="With --game: a game data overlay folder (its bindings' calibrations); repeatable.")
@click.option("--at", "at_step", type=click.IntRange(min=0), default=None, metavar="STEP",
              help="Dump the position after this step of a log (0 = its start) as a save.")
@click.option("--referee", is_flag=True,
              help="Show masked and invisible pieces as they are (by default they appear only as "
                   "concealed, as the other side sees them).")
@output_option()
def command(file: Path, output_format: str, show_player_ids: bool, module_path: Path | None,
            extensions: tuple[Path, ...], output: Path | None, at_step: int | None = None,
            referee: bool = False, force: bool = False, game_name: str | None = None,
            overlays: tuple[Path, ...] = ()) -> None:
    """List everything in a save (.vsav), a log (.vlog) or its JSON form.

    For a save: players, global properties, turn trackers, boards, notes and every piece with
    its map, pixel position, stack and trait states. For a log: its starting position, then
    every step numbered from 1 with who did what (moves, flips and layer changes, additions,
    removals, chat, dice), undo steps marked as such. Positions are map pixels, and with
    --module also the location names VASSAL would report; without it, the points VASSAL itself
    named in the file (where pieces were moved from) are named. With --module and --game, a
    board the module draws without a grid is named by the calibration the game's bindings record
    for it (--data adds overlays), as `vlog check` names it; the header says when such a
    calibration is only proposed by `vlog bind`. Masked pieces show only their
    mask and invisible ones nothing but that they exist, as the other side sees them, unless
    --referee is given.

    \b
    Examples:
      vlog dump turn3.vlog | less
      vlog dump scenario.vsav --format json -o scenario.json
      vlog dump turn3.vlog --format jsonl | grep '"action":"move"'
      vlog dump turn3.vlog --module MyGame.vmod
      vlog dump agordat.vlog --module Ascari.vmod --game ascari --data my-bindings
      vlog dump turn3.vlog --at 42
    """
    from converters.save_json import load
    from vlog.vassal.observed_names import observed_namer

    check_input(file)
    if extensions and module_path is None:
        raise click.UsageError("--extension needs --module")
    if game_name is not None and module_path is None:
        raise click.UsageError("--game needs --module (its boards are what the calibrations name)")
    if overlays and game_name is None:
        raise click.UsageError("--data applies only with --game")
    obj = load(file)
    observed = observed_namer(obj) if module_path is None else None
    if at_step is not None:
        from vlog.replay import table_at
        from vlog.vassal.savefile import Log

        steps = len(obj.steps) if isinstance(obj, Log) else 0
        if at_step > steps:
            raise click.BadParameter(f"{file} has {steps} steps", param_hint="--at")
        obj = table_at(obj, at_step).to_save(obj)
    namer: LocationNamer | None = observed
    if module_path is not None:
        from vlog.vassal.module import read_module

        from vlog.checks import module_mismatch

        module = read_module(module_path, extensions=extensions)
        for finding in module_mismatch.check(obj, module):
            warn(f"{finding.message}: location names may be wrong ({module_mismatch.CHECK_ID})")
        from vlog.cli.check import game_calibrations

        namer = module_location_namer(module, obj, on_problem=warn,
                                      calibrations=game_calibrations(game_name, overlays, module))
    dump = build_dump(obj, file, show_player_ids=show_player_ids, location_namer=namer, referee=referee)
    emit(render(dump, output_format), output, inputs=[file], force=force)
