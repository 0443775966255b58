"""Play scripts: a small, readable list of actions to be written as a VASSAL log.

A script is read from its line form (`NAME.vscript`, docs/script-format.md) or its JSON form
(`NAME.vscript.json`); both become the same JSON document, checked against
schemas/script.schema.json, and then the same `Script`. Nothing here looks at a module or a save:
names of units, hexes, dice buttons and turn levels are resolved when the log is written
(converters/log_writer.py), and errors there still name the script line.
"""
from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from vlog.errors import ScriptError
from vlog.schemas import locate

__all__ = ["Script", "Header", "PlayerDecl", "Action", "ACTIONS", "FORMAT", "SCHEMA_PATH",
           "MAX_SCRIPT_BYTES", "parse_script", "parse_text", "script_document", "load_document"]

FORMAT = "vlog-script/1"
SCHEMA_PATH = locate("script.schema.json")   # the installed copy or the source tree's schemas/
MAX_SCRIPT_BYTES = 16 << 20
"""Largest script read; a hand-written script is a few kilobytes."""
MAX_HEXES = 10_000
"""Longest `move ... along` path accepted (hostile input must not make the writer loop for ever)."""

ACTIONS = ("as", "move", "flip", "reduce", "layer", "remove", "add", "roll", "turn", "chat", "undo")
HEADER_KEYS = ("game", "scenario", "module", "start", "vassal", "key", "dialect", "clock", "map", "player")


@dataclass(frozen=True)
class PlayerDecl:
    """A player of the log: `user_id` is VASSAL's password preference (None: from the start save)."""

    name: str
    side: str
    user_id: str | None = None


@dataclass(frozen=True)
class Header:
    """What the log starts from and how it is written (paths relative to the script's folder)."""

    module: str | None = None
    start: str | None = None
    game: str | None = None
    scenario: str | None = None
    vassal: str | None = None
    key: int | None = None
    dialect: str | None = None
    clock: int | None = None
    map: str | None = None
    players: tuple[PlayerDecl, ...] = ()


@dataclass(frozen=True)
class Action:
    """One scripted action; `line` is its line in the script (the action's index + 1 for JSON
    without line numbers). Fields not used by the action's kind are None or empty."""

    kind: str
    line: int
    unit: str | None = None
    units: tuple[str, ...] = ()
    """`move` of several pieces dragged as one stack (then `unit` is None)."""
    hexes: tuple[str, ...] = ()
    map: str | None = None
    layer: str | None = None
    level: str | None = None
    button: str | None = None
    faces: tuple[int, ...] = ()
    turn: str | None = None
    levels: tuple[tuple[str, str], ...] = ()
    text: str | None = None
    player: str | None = None
    piece: str | None = None


@dataclass
class Script:
    """A parsed script; `path` names it in errors, `folder` anchors its relative paths."""

    header: Header
    actions: list[Action]
    path: str
    folder: Path
    document: dict[str, Any] = field(default_factory=dict, repr=False)

    def resolve(self, relative: str | None) -> Path | None:
        """A header path as the file system sees it (relative to the script's folder)."""
        if relative is None:
            return None
        p = Path(relative)
        return p if p.is_absolute() else self.folder / p

    def error(self, message: str, action: Action | None = None) -> ScriptError:
        return ScriptError(message, file=self.path, where=f"line {action.line}" if action else None)


# -- reading ----------------------------------------------------------------------------------

def parse_script(source: str | os.PathLike) -> Script:
    """Read a script file (line form or JSON form, told apart by the first character)."""
    path = Path(source)
    shown = os.fspath(source)
    from vlog.vassal.archive import read_regular_file

    data = read_regular_file(path, MAX_SCRIPT_BYTES, shown, ScriptError)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScriptError(f"not UTF-8 text (byte {exc.start})", file=shown) from None
    return parse_text(text, path=shown, folder=path.resolve().parent)


def parse_text(text: str, *, path: str = "<script>", folder: Path | None = None) -> Script:
    """A script from its text: JSON when it starts with `{`, else the line form."""
    if text.lstrip().startswith("{"):
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            where = f"line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else None
            raise ScriptError(f"not valid JSON ({getattr(exc, 'msg', exc)})", file=path, where=where) from None
    else:
        doc = script_document(text, path=path)
    return load_document(doc, path=path, folder=folder or Path.cwd())


def load_document(doc: Any, *, path: str = "<script>", folder: Path | None = None) -> Script:
    """A Script from its JSON document, validated against schemas/script.schema.json."""
    _validate(doc, path)
    h = doc.get("header", {})
    header = Header(
        module=h.get("module"), start=h.get("start"), game=h.get("game"), scenario=h.get("scenario"),
        vassal=h.get("vassal"), key=h.get("key"), dialect=h.get("dialect"), clock=h.get("clock"),
        map=h.get("map"),
        players=tuple(PlayerDecl(p["name"], p["side"], p.get("id")) for p in h.get("players", ())))
    actions = [_action(a, i) for i, a in enumerate(doc["actions"])]
    if header.start is None and header.scenario is None:
        raise ScriptError("the header names no starting save (`start FILE.vsav`) or scenario", file=path)
    return Script(header, actions, path, folder or Path.cwd(), doc)


def _action(a: dict[str, Any], index: int) -> Action:
    line = a.get("line", index + 1)
    kind = a["action"]
    return Action(
        kind=kind, line=line, unit=a.get("unit"), units=tuple(a.get("units", ())),
        hexes=tuple(a.get("along", ())), map=a.get("map"),
        layer=a.get("layer"), level=None if a.get("level") is None else str(a["level"]),
        button=a.get("button"), faces=tuple(a.get("faces", ())), turn=a.get("turn"),
        levels=tuple((k, str(v)) for k, v in a.get("levels", {}).items()), text=a.get("text"),
        player=a.get("as"), piece=a.get("piece"))


@lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema
    try:
        schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ScriptError(f"cannot read the schema ({exc})", file=str(SCHEMA_PATH)) from None
    return jsonschema.Draft202012Validator(schema)


def _validate(doc: Any, path: str) -> None:
    errors = sorted(_validator().iter_errors(doc), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if not errors:
        return
    err = errors[0]
    where = None
    parts = list(err.absolute_path)
    if len(parts) >= 2 and parts[0] == "actions" and isinstance(parts[1], int):
        try:
            action = doc["actions"][parts[1]]
            where = f"line {action.get('line', parts[1] + 1)}" if isinstance(action, dict) else None
        except (IndexError, KeyError, TypeError):
            where = None
    at = "/".join(str(p) for p in parts) or "the document"
    raise ScriptError(f"{at}: {err.message[:300]}", file=path, where=where)


# -- the line form ------------------------------------------------------------------------------

def script_document(text: str, *, path: str = "<script>") -> dict[str, Any]:
    """The JSON document of a script written in the line form (docs/script-format.md)."""
    header: dict[str, Any] = {}
    players: list[dict[str, str]] = []
    actions: list[dict[str, Any]] = []
    saw_format = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            words = shlex.split(raw, comments=True, posix=True)
        except ValueError as exc:
            raise ScriptError(f"cannot split the line into words ({exc})", file=path, where=f"line {number}") from None
        if not words:
            continue
        verb = words[0].lower()

        def fail(message: str) -> ScriptError:
            return ScriptError(message, file=path, where=f"line {number}")

        if verb == "vlog-script":
            if saw_format or header or actions:
                raise fail("`vlog-script` must be the first line")
            if words[1:] != ["1"]:
                raise fail(f"unknown script version {' '.join(words[1:])!r} (this vlog reads version 1)")
            saw_format = True
            continue
        if verb in HEADER_KEYS:
            if actions:
                raise fail(f"header line `{verb}` after the first action")
            if verb == "player":
                players.append(_player_line(words, fail))
            else:
                if verb in header:
                    raise fail(f"`{verb}` is given twice")
                if len(words) != 2:
                    raise fail(f"`{verb}` takes one value")
                header[verb] = _header_value(verb, words[1], fail)
            continue
        if verb not in ACTIONS:
            raise fail(f"unknown word {words[0]!r} (header: {', '.join(HEADER_KEYS)}; "
                       f"actions: {', '.join(ACTIONS)})")
        action = _action_line(verb, words[1:], fail)
        action["line"] = number
        actions.append(action)
    if players:
        header["players"] = players
    return {"format": FORMAT, "header": header, "actions": actions}


def _header_value(verb: str, value: str, fail) -> Any:
    if verb in ("key", "clock"):
        try:
            return int(value, 0)
        except ValueError:
            raise fail(f"`{verb}` must be a whole number, not {value!r}") from None
    return value


def _player_line(words: list[str], fail) -> dict[str, str]:
    """`player NAME side SIDE [id USERID]`."""
    if len(words) < 4 or words[2].lower() != "side":
        raise fail("write `player NAME side SIDE [id USERID]`")
    out = {"name": words[1], "side": words[3]}
    rest = words[4:]
    if rest:
        if len(rest) != 2 or rest[0].lower() != "id":
            raise fail("write `player NAME side SIDE [id USERID]`")
        out["id"] = rest[1]
    return out


def _take_on(args: list[str], fail) -> tuple[list[str], str | None]:
    """Split a trailing `on MAP`."""
    if len(args) >= 2 and args[-2].lower() == "on":
        return args[:-2], args[-1]
    return args, None


def _action_line(verb: str, args: list[str], fail) -> dict[str, Any]:
    out: dict[str, Any] = {"action": verb}
    if verb == "as":
        if len(args) != 1:
            raise fail("write `as PLAYER`")
        out["as"] = args[0]
    elif verb == "move":
        args, map_name = _take_on(args, fail)
        at = next((i for i, word in enumerate(args) if i and word.lower() == "along"), None)
        if at is None or at == len(args) - 1:
            raise fail("write `move UNIT along HEX HEX ... [on MAP]` (or `move UNIT UNIT ... along ...`: "
                       "the pieces of one stack dragged as one)")
        if len(args) - at - 1 > MAX_HEXES:
            raise fail(f"a move along more than {MAX_HEXES} hexes")
        if at == 1:
            out["unit"] = args[0]
        else:
            out["units"] = args[:at]
        out["along"] = args[at + 1:]
        if map_name is not None:
            out["map"] = map_name
    elif verb in ("flip", "reduce"):
        if len(args) not in (1, 2):
            raise fail(f"write `{verb} UNIT [LAYER]`")
        out["unit"] = args[0]
        if len(args) == 2:
            out["layer"] = args[1]
    elif verb == "layer":
        if len(args) not in (2, 3):
            raise fail("write `layer UNIT LEVEL [LAYER]` (LEVEL: a number from 1 or a level name)")
        out["unit"] = args[0]
        out["level"] = args[1]
        if len(args) == 3:
            out["layer"] = args[2]
    elif verb == "remove":
        if len(args) != 1:
            raise fail("write `remove UNIT`")
        out["unit"] = args[0]
    elif verb == "add":
        args, map_name = _take_on(args, fail)
        if len(args) != 3 or args[1].lower() != "at":
            raise fail("write `add PIECE at HEX [on MAP]`")
        out["piece"] = args[0]
        out["along"] = [args[2]]
        if map_name is not None:
            out["map"] = map_name
    elif verb == "roll":
        if len(args) < 3 or args[1] != "=":
            raise fail("write `roll BUTTON = FACE,FACE,...`")
        out["button"] = args[0]
        faces = []
        for token in ",".join(args[2:]).split(","):
            token = token.strip()
            if not token:
                continue
            if not token.isdigit() or len(token) > 9:
                raise fail(f"die face {token!r} is not a whole number")
            faces.append(int(token))
        out["faces"] = faces
    elif verb == "turn":
        if args == ["next"]:
            out["turn"] = "next"
        elif args and args[0] == "set" and len(args) > 1:
            levels: dict[str, str] = {}
            for pair in args[1:]:
                name, eq, value = pair.partition("=")
                if not eq or not name:
                    raise fail(f"write `turn set LEVEL=VALUE ...`, not {pair!r}")
                levels[name] = value
            out["turn"] = "set"
            out["levels"] = levels
        else:
            raise fail("write `turn next` or `turn set LEVEL=VALUE ...`")
    elif verb == "chat":
        if len(args) == 3 and args[1].lower() == "as":
            out["as"] = args[2]
            args = args[:1]
        if len(args) != 1:
            raise fail('write `chat "TEXT" [as PLAYER]`')
        out["text"] = args[0]
    elif verb == "undo":
        if args:
            raise fail("`undo` takes nothing after it")
    return out
