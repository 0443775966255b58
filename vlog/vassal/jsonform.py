"""A documented, lossless JSON form of a Save or Log (schema: schemas/save.schema.json).

Every command node is an object `{"command": KIND, <typed fields>, "subs": [...]}`; fields are the
authority, so editing one (a MovePiece's `new_x`) re-encodes that command the way VASSAL
writes it. Where VASSAL's own text would not be reproduced from the fields (odd quoting, a
number written `007`, a missing field) the node also carries `"raw"`, the exact payload, used
as long as the fields still match it; a node whose sub-commands are joined in a way VASSAL would
not write (odd quoting or escapes) carries `"enc"`, its exact text, used while the node's JSON
is still what that text decodes to. AddPiece nodes add a read-only `piece` summary (name,
position, traits) for people reading the JSON; `type` and `state` are what is written.

With `redact_player_ids=True` (the default) every player id (a password) is replaced by
`<player-N>`, and no `raw`/`enc` text that contains an id is written: such JSON writes a file
with placeholder ids (byte-identical to the original when it held no ids).

With `referee=False` (the default) masked and invisible pieces are shown only as a side sees
them: their add/change nodes (and the moves of invisible ones, and raw commands naming them) keep
the piece id and say `"concealed": "masked" | "invisible"`, with the piece summary a side sees,
and no type or state; a stack holding invisible pieces says `"holds-invisible"` and lists only
the pieces a side sees (and no place when none is left); a move onto or off an invisible piece
says `"onto-invisible"` and gives only where the moving piece went.
Such JSON cannot be written back as a VASSAL file (`from_json` refuses it, naming the node).
"""
from __future__ import annotations

import base64
from typing import Any

from vlog.errors import VlogError
from vlog.vassal.commands import (
    COMMAND_TYPES, ESC, MAX_DEPTH, AddPiece, Command, Group, LogStep, MovePiece, UnknownCommand, decode,
    decode_leaf, encode, is_pristine, walk,
)
from vlog.vassal.metadata import MetaData, parse_metadata
from vlog.vassal.obfuscation import Dialect
from vlog.vassal.sequence import Encoder
from vlog.vassal.pieces import Piece
from vlog.vassal.privacy import concealed_commands
from vlog.vassal.privacy import redact_player_ids as _redact_tree
from vlog.vassal.savefile import SAVED_GAME, Log, Save, _is_log

__all__ = ["to_json", "from_json", "node_to_json", "node_from_json", "FORMAT", "FORMAT_VERSION"]

FORMAT = "vlog-save"
FORMAT_VERSION = 1


class JsonFormError(VlogError):
    """A JSON document is not a valid vlog save/log form."""


def _field_json(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def _piece_summary(c: AddPiece) -> dict[str, Any]:
    p = c.piece
    return {
        "kind": p.kind,
        "name": p.name,
        "map": p.map,
        "x": p.x,
        "y": p.y,
        "piece_ids": p.piece_ids,
        "traits": [{"id": t.id_prefix, "type": t.type, "state": t.state} for t in p.traits],
    }


def _rebuilt(c: Command, legacy: bool) -> str | None:
    """The text of `c` rebuilt from its payload and its subs' texts, as GameModule.encode does."""
    payload = encode(c.head, legacy=legacy) if isinstance(c, Group) else c.payload()
    if not c.subs:
        return payload
    enc = Encoder(ESC, payload, legacy=legacy, start=True)
    for sub in c.subs:
        t = encode(sub, legacy=legacy)
        if t is not None:
            enc.append(t)
    return enc.value()


def _shown(text: str | None, hide: tuple[str, ...]) -> bool:
    return text is not None and not any(h in text for h in hide)


def _concealed_json(c: Command, piece: Piece) -> dict[str, Any]:
    """A piece command as a side sees it: the id, what hides the piece, and its outside."""
    pid = getattr(c, "id", None) if not isinstance(c, UnknownCommand) else piece.id
    if piece.is_stack:  # a stack holding invisible pieces: only the others, and no place if none
        ids = piece.piece_ids
        shown: dict[str, Any] = {"kind": "stack", "name": "", "traits": [], "piece_ids": ids}
        if ids:
            shown.update(map=piece.map or None, x=piece.x, y=piece.y)
        return {"command": c.KIND, "id": pid, "concealed": "holds-invisible", "piece": shown}
    hidden = piece.hidden_by is not None
    shown = {"kind": piece.kind, "name": piece.shown_name(), "traits": []}
    if isinstance(c, MovePiece) and not hidden:  # seen moving, not onto what it joined
        shown.update(map=c.new_map, x=c.new_x, y=c.new_y)
        return {"command": c.KIND, "id": pid, "concealed": "onto-invisible", "piece": shown}
    if not hidden:
        shown.update(map=piece.map, x=piece.x, y=piece.y)
    return {"command": c.KIND, "id": pid, "concealed": "invisible" if hidden else "masked",
            "piece": shown}


def node_to_json(c: Command, *, keep_raw: bool = True, legacy: bool = False,
                 hide: tuple[str, ...] = (), concealed: dict[int, Piece] | None = None) -> dict[str, Any]:
    """One command node (and its subs) as JSON; exact texts containing a `hide` string are left
    out, and the nodes in `concealed` (see `concealed_commands`) are shown as a side sees them."""
    kw = {"keep_raw": keep_raw, "legacy": legacy, "hide": hide, "concealed": concealed}
    out: dict[str, Any] = {"command": c.KIND}
    if concealed and id(c) in concealed:
        out = _concealed_json(c, concealed[id(c)])
    elif isinstance(c, LogStep):
        out["inner"] = node_to_json(c.inner, **kw)
    elif isinstance(c, Group):
        out["head"] = node_to_json(c.head, **kw)
    else:
        for f in c.FIELDS:
            out[f] = _field_json(getattr(c, f))
        if getattr(c, "problem", None):
            out["problem"] = c.problem  # type: ignore[attr-defined]
        if keep_raw and c.payload_pristine() and c._raw != c.build() and _shown(c._raw, hide):
            out["raw"] = c._raw
        if isinstance(c, AddPiece):
            out["piece"] = _piece_summary(c)
    if c.subs:
        out["subs"] = [node_to_json(s, **kw) for s in c.subs]
    if (keep_raw and c._enc is not None and is_pristine(c) and _rebuilt(c, legacy) != c._enc
            and _shown(c._enc, hide) and not (concealed and any(id(n) in concealed for n in walk(c)))):
        out["enc"] = c._enc  # text VASSAL would not write this way (odd quoting or escapes)
    return out


def _member_json(name: str, data: bytes) -> dict[str, Any]:
    if name == SAVED_GAME:
        return {"name": name}
    try:
        text = data.decode("utf-8")
        if text.encode("utf-8") == data:
            return {"name": name, "text": text}
    except UnicodeDecodeError:
        pass
    return {"name": name, "base64": base64.b64encode(data).decode("ascii")}


def _meta_json(md: MetaData | None) -> dict[str, Any] | None:
    if md is None:
        return None
    return {k: v for k, v in {
        "version": md.version, "vassal_version": md.vassal_version, "date_saved": md.date_saved,
        "description": md.description, "descriptions": md.descriptions or None,
        "name": md.name, "names": md.names or None,
    }.items() if v is not None}


def to_json(obj: Save, *, redact_player_ids: bool = True, referee: bool = False) -> dict[str, Any]:
    """The JSON form of a Save or Log (player ids replaced and concealed pieces shown as a side
    sees them, unless told otherwise)."""
    root = obj.commands
    hide: tuple[str, ...] = ()
    if redact_player_ids:
        root, redactor = _redact_tree(root)
        hide = tuple(redactor.mapping)
    concealed = {} if referee else concealed_commands(root)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": "log" if isinstance(obj, Log) else "save",
        "dialect": obj.dialect.name,
        "key": obj.key,
        **({"hex_case": "upper"} if getattr(obj, "hex_upper", False) else {}),
        "vassal_version": obj.vassal_version,
        "legacy_quoting": obj.legacy_quoting,
        "module_name": obj.module_name,
        "module_version": obj.module_version,
        "player_ids_redacted": redact_player_ids,
        "concealed_redacted": not referee,
        "metadata": {k: v for k, v in {
            "savedata": _meta_json(obj.metadata), "moduledata": _meta_json(obj.module_metadata),
        }.items() if v is not None},
        "members": [_member_json(n, b) for n, b in obj.members] or [{"name": SAVED_GAME}],
        "commands": node_to_json(root, legacy=obj.legacy_quoting, hide=hide, concealed=concealed),
    }
    return doc


def _bad(msg: str, where: str) -> JsonFormError:
    return JsonFormError(msg, where=where)


def node_from_json(d: Any, where: str = "commands", depth: int = 0,
                   legacy: bool = False) -> Command:
    """Rebuild one node: typed fields win; `raw` (payload) and `enc` (whole node text) are
    used while the fields still match them."""
    if depth > MAX_DEPTH:
        raise _bad(f"commands nested more than {MAX_DEPTH} levels deep", where[:200])
    if isinstance(d, dict) and isinstance(d.get("enc"), str):
        cand = _decode_enc(d["enc"])
        if cand is not None and node_to_json(cand, legacy=legacy) == d:
            return cand
    if not isinstance(d, dict) or not isinstance(d.get("command"), str):
        raise _bad("a command must be an object with a string 'command'", where)
    if "concealed" in d:
        raise _bad(f"piece {d.get('id')!r} is shown only as concealed ({d['concealed']}), so this JSON cannot "
                   "be written back as a VASSAL file: convert the original with --referee for a JSON that can",
                   where)
    cls = COMMAND_TYPES.get(d["command"])
    if cls is None:
        raise _bad(f"unknown command {d['command']!r}", where)
    subs_json = d.get("subs", [])
    if not isinstance(subs_json, list):
        raise _bad("'subs' must be a list", where)
    if cls is LogStep:
        node: Command = LogStep(node_from_json(d.get("inner"), where + ".inner", depth + 1, legacy))
    elif cls is Group:
        node = Group(node_from_json(d.get("head"), where + ".head", depth + 1, legacy))
    else:
        kwargs: dict[str, Any] = {}
        defaults = cls()
        for f in cls.FIELDS:
            if f not in d:
                raise _bad(f"{d['command']} needs field {f!r}", where)
            v = d[f]
            if isinstance(getattr(defaults, f), tuple):
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    raise _bad(f"field {f!r} must be a list of strings", where)
                v = tuple(v)
            kwargs[f] = v
        node = cls(**kwargs)
        _check_types(node, where)
        if "problem" in d and hasattr(node, "problem"):
            node.problem = d["problem"]  # type: ignore[attr-defined]
        raw = d.get("raw")
        if isinstance(raw, str):
            parsed = decode_leaf(raw)
            if type(parsed) is cls and parsed.values() == node.values():
                node = parsed
                if "problem" in d and hasattr(node, "problem"):
                    node.problem = d["problem"]  # type: ignore[attr-defined]
    node.subs = [node_from_json(s, f"{where}.subs[{i}]", depth + 1, legacy) for i, s in enumerate(subs_json)]
    return node


def _decode_enc(enc: str) -> Command | None:
    try:
        return decode(enc)
    except VlogError:
        return None


def _check_types(node: Command, where: str) -> None:
    ref = type(node)()
    for f in node.FIELDS:
        v, dv = getattr(node, f), getattr(ref, f)
        if isinstance(dv, bool):
            ok = isinstance(v, bool)
        elif isinstance(dv, int):
            ok = isinstance(v, int) and not isinstance(v, bool) and -(2**31) <= v < 2**31
        elif isinstance(dv, tuple):
            ok = isinstance(v, tuple)
        else:
            ok = v is None or isinstance(v, str)
            if ok and v is None and dv is not None:
                ok = False
        if not ok:
            raise _bad(f"field {f!r} has the wrong type ({type(v).__name__})", where)


def from_json(data: dict[str, Any]) -> Save:
    """A Save or Log from its JSON form; the command text is rebuilt and decoded again."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(f"not a {FORMAT} document", "format")
    try:
        dialect = Dialect[data.get("dialect", "VCSK")]
    except KeyError:
        raise _bad(f"unknown dialect {data.get('dialect')!r}", "dialect") from None
    key = data.get("key")
    if key is not None and (not isinstance(key, int) or isinstance(key, bool) or not 0 <= key <= 255):
        raise _bad("key must be an integer 0..255 or null", "key")
    if data.get("hex_case", "lower") not in ("lower", "upper"):
        raise _bad("hex_case must be 'lower' or 'upper'", "hex_case")
    legacy = bool(data.get("legacy_quoting"))
    try:
        tree = node_from_json(data.get("commands"), legacy=legacy)
    except RecursionError:
        raise _bad("commands nested too deeply", "commands") from None
    text = encode(tree, legacy=legacy) or ""
    commands = decode(text)
    members: list[tuple[str, bytes]] = []
    for i, m in enumerate(data.get("members") or [{"name": SAVED_GAME}]):
        if not isinstance(m, dict) or not isinstance(m.get("name"), str):
            raise _bad("a member must be an object with a string 'name'", f"members[{i}]")
        if m["name"] == SAVED_GAME:
            members.append((SAVED_GAME, b""))
        elif isinstance(m.get("text"), str):
            members.append((m["name"], m["text"].encode("utf-8")))
        elif isinstance(m.get("base64"), str):
            try:
                members.append((m["name"], base64.b64decode(m["base64"], validate=True)))
            except ValueError:
                raise _bad("invalid base64", f"members[{i}]") from None
        else:
            raise _bad("a member needs 'text' or 'base64'", f"members[{i}]")
    problems: list[str] = []
    mds: dict[str, MetaData | None] = {}
    for name in ("savedata", "moduledata"):
        blob = dict(members).get(name)
        mds[name] = None
        if blob is not None:
            try:
                mds[name] = parse_metadata(blob, member=name)
            except VlogError as exc:
                problems.append(str(exc))
    cls = Log if _is_log(commands) else Save
    return cls(commands, dialect=dialect, key=key, members=members, metadata=mds["savedata"],
               module_metadata=mds["moduledata"], metadata_problems=problems,
               hex_upper=dialect is Dialect.VCSK and data.get("hex_case") == "upper")
