"""Game data: loading, validation, user overlays, provenance and the list of what is unknown.

Each game ships JSON under `vlog/games/<package>/data/` (a manifest `game.json` plus one file per
kind: counters, map, tables, scenarios, bindings), each validated against
`schemas/gamedata/<kind>.schema.json`. Every datum is a sourced value
`{"value": ..., "source": ...}`; a value the sources do not give is `null` with a `note` and the
check ids it `blocks`, so the engine can say which checks it could not make and why, and users
can complete the data with an overlay folder (`--data DIR`) instead of editing the package.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import pickle
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import vlog.games
from vlog.errors import GameDataError, OutputError, UnknownGameError, VlogError

__all__ = [
    "GAMES",
    "KINDS",
    "Datum",
    "DatumStatus",
    "GameData",
    "Record",
    "Table",
    "blocked_checks",
    "blocked_data",
    "game_package",
    "hexside_key",
    "load_game_data",
    "read_inventory",
    "validate_inventory",
    "status",
    "validate_document",
    "validate_shipped",
    "write_template",
]

# game name (as the CLI and findings spell it) -> package under vlog.games, from the list of games
GAMES: dict[str, str] = {entry.id: entry.package for entry in vlog.games.GAMES}
KINDS: tuple[str, ...] = ("counters", "map", "tables", "scenarios", "bindings")
MANIFEST = "game.json"
SCHEMA_SUBDIR = "gamedata"   # under vlog.schemas.schema_dir(): the installed copy or the source tree's schemas/
OVERLAY_SOURCE = "user overlay: "
# caps on overlay input: a user folder is input like any other file
MAX_DATA_FILE_BYTES = 32 * 1024 * 1024
MAX_OVERLAY_FILES = 256
MAX_OVERLAY_TOTAL_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 32

# Records in these lists carry an "id" and are merged by it.
_RECORD_LISTS = frozenset({"counters", "maps", "lines", "zones", "boxes", "tables", "scenarios", "setup",
                           "reinforcements", "pieces", "layers", "locations", "turn_track", "calibrations"})
# Keyed maps whose entries a template may drop when they hold no unknown.
_KEYED_MAPS = frozenset({"hexes", "hexsides", "cells", "levels", "turn_track", "properties"})
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def __getattr__(name: str) -> Any:
    """`SCHEMA_DIR`: the game-data schema folder wherever vlog is installed (see vlog.schemas)."""
    if name == "SCHEMA_DIR":
        from vlog.schemas import schema_dir

        return schema_dir() / SCHEMA_SUBDIR
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --------------------------------------------------------------------------------------------
# datums and paths


@dataclass(frozen=True, slots=True)
class Datum:
    """One sourced value as the engine sees it: the value plus where it came from."""

    value: Any
    source: str | None = None
    note: str | None = None
    partial: bool = False
    blocks: tuple[str, ...] = ()
    file: str = ""
    path: str = ""
    derived: tuple[str, str] | None = None
    """(rule, reasoning) when the value follows from a rule applied to other facts."""

    @property
    def known(self) -> bool:
        return self.value is not None

    @property
    def overridden(self) -> bool:
        return bool(self.source and self.source.startswith(OVERLAY_SOURCE))


@dataclass(frozen=True, slots=True)
class DatumStatus:
    """What `vlog data status` reports for one datum."""

    file: str
    path: str
    state: Literal["known", "partial", "unknown", "overridden"]
    value: Any
    source: str | None
    note: str | None
    blocks: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "path": self.path, "state": self.state, "value": self.value,
                "source": self.source, "note": self.note, "blocks": list(self.blocks)}


def _is_datum(node: Any) -> bool:
    return isinstance(node, dict) and "value" in node


def _key_path(path: str, key: str) -> str:
    return f"{path}.{key}" if _IDENT.match(key) else f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def _item_path(path: str, item: Any, index: int) -> str:
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        return f"{path}[id={item['id']}]"
    return f"{path}[{index}]"


def _walk(node: Any, path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Yields (path, datum dict) for every datum in a data document, in document order."""
    if _is_datum(node):
        yield path, node
    elif isinstance(node, dict):
        for key, child in node.items():
            yield from _walk(child, _key_path(path, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _walk(child, _item_path(path, child, index))


def _json_path(doc: Any, parts: Sequence[str | int]) -> str:
    """A jsonschema error location in vlog's path form (list items named by their id)."""
    path, node = "$", doc
    for part in parts:
        if isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node):
            path, node = _item_path(path, node[part], part), node[part]
        elif isinstance(node, dict) and isinstance(part, str):
            path, node = _key_path(path, part), node.get(part)
        else:
            path, node = f"{path}[{part}]", None
    return path


def _derived(raw: Any) -> tuple[str, str] | None:
    return (raw["rule"], raw["reasoning"]) if isinstance(raw, Mapping) else None


def _datum(raw: Mapping[str, Any], file: str, path: str) -> Datum:
    return Datum(value=raw.get("value"), source=raw.get("source"), note=raw.get("note"),
                 partial=bool(raw.get("partial", False)), blocks=tuple(raw.get("blocks", ())),
                 file=file, path=path, derived=_derived(raw.get("derived")))


def hexside_key(a: str, b: str) -> str:
    """The key of the hexside between hexes a and b in map.json ('AAAA/BBBB', ascending)."""
    x, y = sorted((str(a), str(b)))
    return f"{x}/{y}"


# --------------------------------------------------------------------------------------------
# records: read-only views that hand out Datums


_WRAPPED: dict[tuple[int, str, str, str], tuple[Any, Any]] = {}
"""(id of a stored node, its key, its record's path and file) -> (the node, its Datum, Record or
tuple): a record's fields are read again and again (a check reading a map's zones at every step)."""
_WRAPPED_MAX = 200_000


class Record(Mapping[str, Any]):
    """A read-only view of one record: datum fields come back as `Datum`, nested objects as `Record`."""

    __slots__ = ("_raw", "_file", "_path")

    def __init__(self, raw: Mapping[str, Any], file: str, path: str):
        self._raw, self._file, self._path = raw, file, path

    def _wrap(self, value: Any, path: str) -> Any:
        if _is_datum(value):
            return _datum(value, self._file, path)
        if isinstance(value, dict):
            return Record(value, self._file, path)
        if isinstance(value, list):
            return tuple(self._wrap(v, _item_path(path, v, i)) for i, v in enumerate(value))
        return value

    def __getitem__(self, key: str) -> Any:
        value = self._raw[key]
        if not isinstance(value, (dict, list)):
            return value
        memo = (id(value), key, self._path, self._file)
        known = _WRAPPED.get(memo)
        if known is not None and known[0] is value:
            return known[1]
        wrapped = self._wrap(value, _key_path(self._path, key))
        if len(_WRAPPED) >= _WRAPPED_MAX:
            _WRAPPED.clear()
        _WRAPPED[memo] = (value, wrapped)
        return wrapped

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    @property
    def id(self) -> str | None:
        value = self._raw.get("id")
        return value if isinstance(value, str) else None

    @property
    def file(self) -> str:
        return self._file

    @property
    def path(self) -> str:
        return self._path

    def raw(self) -> dict[str, Any]:
        """A deep copy of the record as stored in the data file."""
        return copy.deepcopy(dict(self._raw))

    def __repr__(self) -> str:
        return f"Record({self._file}: {self._path})"


class Table(Record):
    """A table record with look-up by axis labels (CRT column then die roll, terrain then class ...)."""

    __slots__ = ()

    @property
    def axes(self) -> tuple[str, ...]:
        return tuple(axis["name"] for axis in self._raw["axes"])

    def labels(self, axis: str) -> Datum:
        """The printed labels of one axis (columns, rows ...), in printed order; null when unknown."""
        for n, item in enumerate(self._raw["axes"]):
            if item["name"] == axis:
                return _datum(item["labels"], self._file, f"{self._path}.axes[{n}].labels")
        raise KeyError(f"table {self.id} has no axis {axis!r} (axes: {', '.join(self.axes)})")

    def listed_cells(self) -> dict[tuple[str, ...], Datum]:
        """Every cell the data lists, keyed by its labels in axis order (unlisted cells take default_cell)."""
        out: dict[tuple[str, ...], Datum] = {}

        def visit(node: dict[str, Any], keys: tuple[str, ...], path: str) -> None:
            for key, child in node.items():
                child_path = _key_path(path, key)
                if _is_datum(child):
                    out[keys + (key,)] = _datum(child, self._file, child_path)
                else:
                    visit(child, keys + (key,), child_path)

        visit(self._raw["cells"], (), _key_path(self._path, "cells"))
        return out

    def lookup(self, *labels: str | int) -> Datum:
        """The cell at `labels` (one per axis, in axis order); `default_cell` when not listed."""
        if len(labels) != len(self._raw["axes"]):
            raise ValueError(f"table {self.id} has {len(self._raw['axes'])} axes "
                             f"({', '.join(self.axes)}); got {len(labels)} labels")
        node: Any = self._raw["cells"]
        path = _key_path(self._path, "cells")
        for label in labels:
            key = str(label)
            if not isinstance(node, dict) or key not in node:
                return _datum(self._raw["default_cell"], self._file, _key_path(self._path, "default_cell"))
            node, path = node[key], _key_path(path, key)
        return _datum(node, self._file, path)


# --------------------------------------------------------------------------------------------
# the loaded data


@dataclass(slots=True)
class GameData:
    """All data files of one game after validation and overlays. Look-ups return `Datum`s."""

    game: str
    title: str
    documents: dict[str, dict[str, Any]]     # kind -> merged document
    files: dict[str, str]                    # kind -> file name shown in messages
    overlays: tuple[str, ...] = ()
    overlay_bytes: tuple[bytes, ...] = ()
    """The overlay files' contents, in the order applied (a module built from this data carries them)."""
    _index: dict[tuple[str, str], dict[str, dict[str, Any]]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for kind, list_key in (("counters", "counters"), ("tables", "tables"), ("scenarios", "scenarios"),
                               ("map", "maps")):
            self._index[(kind, list_key)] = {r["id"]: r for r in self.documents[kind][list_key]}

    # -- generic ---------------------------------------------------------------------------
    def _record(self, kind: str, list_key: str, record_id: str, cls: type[Record] = Record) -> Record:
        try:
            raw = self._index[(kind, list_key)][record_id]
        except KeyError:
            raise KeyError(f"{self.game}: no {list_key[:-1] if list_key.endswith('s') else list_key} "
                           f"with id {record_id!r} in {self.files[kind]}") from None
        return cls(raw, self.files[kind], f"$.{list_key}[id={record_id}]")

    def complete(self, kind: str) -> Datum:
        """Whether the records of a kind are all there are (the file's `complete` datum)."""
        return _datum(self.documents[kind]["complete"], self.files[kind], "$.complete")

    # -- counters ---------------------------------------------------------------------------
    @property
    def counter_ids(self) -> tuple[str, ...]:
        return tuple(self._index[("counters", "counters")])

    def counter(self, counter_id: str) -> Record:
        return self._record("counters", "counters", counter_id)

    def counters_named(self, name: str) -> tuple[str, ...]:
        """Ids of counters whose printed name (or an alias in properties.aliases) equals `name`, case-insensitive.

        For matching VASSAL piece names to counters before the module bindings are known.
        """
        wanted = name.casefold()
        found = []
        for counter_id, record in self._index[("counters", "counters")].items():
            names = [record["name"].get("value")]
            names += list(record.get("properties", {}).get("aliases", {}).get("value") or [])
            if any(isinstance(n, str) and n.casefold() == wanted for n in names):
                found.append(counter_id)
        return tuple(found)

    # -- map ----------------------------------------------------------------------------------
    @property
    def map_ids(self) -> tuple[str, ...]:
        return tuple(self._index[("map", "maps")])

    def map(self, map_id: str | None = None) -> Record:
        """A map record; the first (usually only) map when `map_id` is None."""
        return self._record("map", "maps", map_id if map_id is not None else self.map_ids[0])

    def layout(self, map_id: str | None = None) -> Any:
        """The vlog.hexes.HexLayout the map names; GameDataError when the layout is unknown or unnamed."""
        from vlog.hexes import LAYOUTS

        board = self.map(map_id)
        name = board._raw["layout"].get("value")
        if name not in LAYOUTS:
            raise GameDataError(f"map {board.id} names no hex layout vlog knows ({name!r})",
                                file=board.file, where=_key_path(board.path, "layout"))
        return LAYOUTS[name]

    def hex(self, hex_id: str, map_id: str | None = None) -> Record | None:
        """Everything listed about one hex, or None when the data says nothing about it."""
        board = self.map(map_id)
        hexes = board._raw["hexes"]
        key = str(hex_id)
        return Record(hexes[key], board.file, _key_path(_key_path(board.path, "hexes"), key)) if key in hexes else None

    def terrain(self, hex_id: str, map_id: str | None = None) -> Datum:
        """Predominant terrain of a hex; the map's default_terrain when the hex has none listed."""
        board = self.map(map_id)
        record = board._raw["hexes"].get(str(hex_id))
        if record is not None and "terrain" in record:
            return _datum(record["terrain"], board.file,
                          _key_path(_key_path(_key_path(board.path, "hexes"), str(hex_id)), "terrain"))
        return _datum(board._raw["default_terrain"], board.file, _key_path(board.path, "default_terrain"))

    def hexside(self, a: str, b: str, map_id: str | None = None) -> Datum:
        """Features of the hexside between two hexes; the map's default_hexside when not listed."""
        board = self.map(map_id)
        key = hexside_key(a, b)
        record = board._raw["hexsides"].get(key)
        if record is not None:
            return _datum(record["features"], board.file,
                          _key_path(_key_path(_key_path(board.path, "hexsides"), key), "features"))
        return _datum(board._raw["default_hexside"], board.file, _key_path(board.path, "default_hexside"))

    def hexes_named(self, name: str, map_id: str | None = None) -> tuple[str, ...]:
        """Hexes whose printed name or an alias equals `name` (case-insensitive)."""
        wanted = name.casefold()
        found = []
        for hex_id, record in self.map(map_id)._raw["hexes"].items():
            names = [record.get("name", {}).get("value")] + list(record.get("aliases", {}).get("value") or [])
            if any(isinstance(n, str) and n.casefold() == wanted for n in names):
                found.append(hex_id)
        return tuple(found)

    def _map_item(self, list_key: str, item_id: str, map_id: str | None) -> Record:
        board = self.map(map_id)
        for item in board._raw[list_key]:
            if item["id"] == item_id:
                return Record(item, board.file, f"{board.path}.{list_key}[id={item_id}]")
        raise KeyError(f"{self.game}: no {list_key[:-1]} {item_id!r} on map {board.id}")

    def line(self, line_id: str, map_id: str | None = None) -> Record:
        return self._map_item("lines", line_id, map_id)

    def zone(self, zone_id: str, map_id: str | None = None) -> Record:
        return self._map_item("zones", zone_id, map_id)

    def box(self, box_id: str, map_id: str | None = None) -> Record:
        return self._map_item("boxes", box_id, map_id)

    # -- tables --------------------------------------------------------------------------------
    @property
    def table_ids(self) -> tuple[str, ...]:
        return tuple(self._index[("tables", "tables")])

    def table(self, table_id: str) -> Table:
        return self._record("tables", "tables", table_id, Table)  # type: ignore[return-value]

    def lookup(self, table_id: str, *labels: str | int) -> Datum:
        return self.table(table_id).lookup(*labels)

    # -- scenarios -------------------------------------------------------------------------------
    @property
    def scenario_ids(self) -> tuple[str, ...]:
        return tuple(self._index[("scenarios", "scenarios")])

    def scenario(self, scenario_id: str) -> Record:
        return self._record("scenarios", "scenarios", scenario_id)

    def setup(self, scenario_id: str) -> tuple[Record, ...]:
        return self.scenario(scenario_id)["setup"]

    def reinforcements(self, scenario_id: str) -> tuple[Record, ...]:
        return self.scenario(scenario_id)["reinforcements"]

    # -- bindings -------------------------------------------------------------------------------
    @property
    def bindings(self) -> Record:
        return Record(self.documents["bindings"], self.files["bindings"], "$")

    # -- provenance ------------------------------------------------------------------------------
    def datums(self) -> Iterator[Datum]:
        """Every datum of every file, in file and document order."""
        for kind in KINDS:
            for path, raw in _walk(self.documents[kind]):
                yield _datum(raw, self.files[kind], path)


# --------------------------------------------------------------------------------------------
# loading


def game_package(game: str) -> str:
    """The package name under vlog.games for a game name ('lion-of-judah' or 'lion_of_judah')."""
    return _game_entry(game).package


def _canonical_game(game: str) -> str:
    return _game_entry(game).id


def _game_entry(game: str) -> "vlog.games.GameEntry":
    """The list's entry for a game name; UnknownGameError naming the nearest one on a typo."""
    entry = vlog.games.lookup(game)
    if entry is None:
        guess = vlog.games.nearest(game)
        hint = f"; did you mean {guess!r}?" if guess else ""
        known = ", ".join(sorted(vlog.games.game_ids()))
        raise UnknownGameError(f"no game data for {game!r}{hint}; known games: {known}")
    return entry


_SCHEMAS: dict[str, Any] = {}


def _validator(kind: str) -> Any:
    """A cached draft 2020-12 validator for a file kind, with the shared definitions registered."""
    if kind in _SCHEMAS:
        return _SCHEMAS[kind]
    import jsonschema
    from referencing import Registry, Resource

    from vlog.schemas import load_schema

    def read(name: str) -> dict[str, Any]:
        try:
            return load_schema(f"{SCHEMA_SUBDIR}/{name}.schema.json")
        except GameDataError:
            raise
        except VlogError as exc:
            raise GameDataError(exc.message, file=exc.file, where=exc.where) from None

    registry: Registry = Registry()
    for name in ("common", *KINDS, "manifest"):
        schema = read(name)
        registry = registry.with_resource(schema["$id"], Resource.from_contents(schema))
    schema = read(kind)
    validator = jsonschema.Draft202012Validator(schema, registry=registry)
    _SCHEMAS[kind] = validator
    return validator


def _validate(kind: str, doc: Any, file: str) -> None:
    errors = list(_validator(kind).iter_errors(doc))
    if errors:
        best = _deepest(errors)
        raise GameDataError(f"does not match the {kind} schema: {best.message[:300]}",
                            file=file, where=_json_path(doc, list(best.absolute_path)))


def validate_document(kind: str, doc: Any, file: str) -> None:
    """Checks one data document (e.g. a drafted bindings file) against its schema and the checks the
    schema cannot express; GameDataError names the file and the JSON path of the first fault."""
    if kind not in KINDS:
        raise GameDataError(f"'kind' must be one of {', '.join(KINDS)}", file=file, where="$.kind")
    _validate(kind, doc, file)
    _check_consistency(kind, doc, file)


def _deepest(errors: list[Any]) -> Any:
    """The most specific error: descend into anyOf/if-then contexts to the deepest location."""
    import jsonschema.exceptions

    best = jsonschema.exceptions.best_match(errors)
    while best.context:
        best = max(best.context, key=lambda e: len(e.absolute_path))
    return best


def _parse_json(data: bytes, file: str, *, nesting: bool = True) -> Any:
    """The JSON document in `data`; `nesting` false skips the depth limit (shipped files, which
    the tests check with it)."""
    if len(data) > MAX_DATA_FILE_BYTES:
        raise GameDataError(f"is larger than {MAX_DATA_FILE_BYTES} bytes", file=file)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GameDataError(f"is not UTF-8 (byte {exc.start})", file=file) from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameDataError(f"is not valid JSON: {exc.msg}", file=file,
                            where=f"line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise GameDataError("is nested too deeply", file=file) from None
    if nesting and _depth(doc) > MAX_DEPTH:
        raise GameDataError(f"is nested deeper than {MAX_DEPTH} levels", file=file)
    return doc


def _depth(node: Any) -> int:
    stack, deepest = [(node, 1)], 0
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def _check_ids(doc: Any, file: str, path: str = "$") -> None:
    """Record ids must be unique within each list, or overlays could not merge by them."""
    if isinstance(doc, dict):
        for key, child in doc.items():
            _check_ids(child, file, _key_path(path, key))
    elif isinstance(doc, list):
        seen: set[str] = set()
        for index, item in enumerate(doc):
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                if item["id"] in seen:
                    raise GameDataError(f"duplicate id {item['id']!r}", file=file, where=_item_path(path, item, index))
                seen.add(item["id"])
            _check_ids(item, file, _item_path(path, item, index))


def _check_consistency(kind: str, doc: dict[str, Any], file: str) -> None:
    """Checks the schema cannot express: table depth, hexside keys."""
    _check_ids(doc, file)
    if kind == "tables":
        for table in doc["tables"]:
            depth = len(table["axes"])
            base = f"$.tables[id={table['id']}].cells"

            def visit(node: dict[str, Any], level: int, path: str) -> None:
                for key, child in node.items():
                    child_path = _key_path(path, key)
                    if _is_datum(child) != (level == depth):
                        raise GameDataError(f"cells must be nested {depth} deep (one level per axis)",
                                            file=file, where=child_path)
                    if not _is_datum(child):
                        visit(child, level + 1, child_path)

            visit(table["cells"], 1, base)
    elif kind == "map":
        for board in doc["maps"]:
            for key in board["hexsides"]:
                a, b = key.split("/")
                if a == b or hexside_key(a, b) != key:
                    raise GameDataError("a hexside key names two different hexes in ascending order",
                                        file=file, where=f"$.maps[id={board['id']}].hexsides[{json.dumps(key)}]")


def _check_references(docs: dict[str, dict[str, Any]], files: dict[str, str]) -> None:
    """Counter ids named in scenarios and bindings must exist in counters.json."""
    counters = {c["id"] for c in docs["counters"]["counters"]}
    checks: list[tuple[str, str, Any]] = []
    for path, raw in _walk(docs["scenarios"]):
        if path.endswith(".units") and raw.get("value"):
            checks.extend(("scenarios", path, unit) for unit in raw["value"])
    for path, raw in _walk(docs["bindings"]):
        if path.endswith(".counter") and raw.get("value"):
            checks.append(("bindings", path, raw["value"]))
    for kind, path, unit in checks:
        if unit not in counters:
            raise GameDataError(f"names counter {unit!r}, which is not in {files['counters']}",
                                file=files[kind], where=path)


def _check_hexes(docs: dict[str, dict[str, Any]], files: dict[str, str]) -> None:
    """Hex and hexside names must exist in the map's layout (vlog.hexes), hexsides join neighbours."""
    from vlog.hexes import LAYOUTS

    layouts = {}
    for board in docs["map"]["maps"]:
        layout = LAYOUTS.get(board["layout"].get("value") or "")
        if layout is None:
            continue
        layouts[board["id"]] = layout
        base = f"$.maps[id={board['id']}]"
        for key in board["hexes"]:
            layout.parse(key, file=files["map"], where=_key_path(_key_path(base, "hexes"), key))
        for key in board["hexsides"]:
            layout.parse_hexside(key, file=files["map"], where=_key_path(_key_path(base, "hexsides"), key))
        for list_key in ("lines", "zones"):
            for path, raw in _walk(board[list_key], f"{base}.{list_key}"):
                if path.rsplit(".", 1)[-1] in ("endpoints", "via", "hexes", "known_hexes") and raw.get("value"):
                    for name in raw["value"]:
                        layout.parse(name, file=files["map"], where=path)
    maps = {s["id"]: s.get("map", {}).get("value") for s in docs["scenarios"]["scenarios"]}
    for path, raw in _walk(docs["scenarios"]):
        if path.endswith(".hex") and isinstance(raw.get("value"), str):
            scenario_id = path.split("[id=", 1)[1].split("]", 1)[0]
            layout = layouts.get(maps.get(scenario_id) or "") or (next(iter(layouts.values())) if len(layouts) == 1 else None)
            if layout is not None:
                layout.parse(raw["value"], file=files["scenarios"], where=path)


# -- overlays ----------------------------------------------------------------------------------


def _stamp(node: Any, origin: str) -> Any:
    """A copy of an overlay subtree whose known datums carry the overlay file as their source."""
    if _is_datum(node):
        if node.get("value") is None:
            return dict(node)
        stamped = dict(node)
        given = node.get("source")
        stamped["source"] = OVERLAY_SOURCE + origin + (f" ({given})" if isinstance(given, str) and given else "")
        return stamped
    if isinstance(node, dict):
        return {k: _stamp(v, origin) for k, v in node.items()}
    if isinstance(node, list):
        return [_stamp(v, origin) for v in node]
    return node


def _merge(base: Any, over: Any, origin: str, key: str = "") -> Any:
    """`over` merged into `base`: records by id, objects by key; a null overlay datum changes nothing,
    an overlay datum equal to the shipped one keeps the shipped source."""
    if _is_datum(over):
        if over.get("value") is None and _is_datum(base):
            return base
        if (_is_datum(base) and base.get("value") == over.get("value")
                and bool(base.get("partial")) == bool(over.get("partial"))
                and over.get("source") in (None, base.get("source"))):
            return base
        return _stamp(over, origin)
    if isinstance(over, dict) and isinstance(base, dict) and not _is_datum(base):
        merged = dict(base)
        for k, v in over.items():
            merged[k] = _merge(base[k], v, origin, k) if k in base else _stamp(v, origin)
        return merged
    if (isinstance(over, list) and isinstance(base, list) and key in _RECORD_LISTS
            and all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in over + base)):
        merged_list = list(base)
        position = {item["id"]: n for n, item in enumerate(base)}
        for item in over:
            if item["id"] in position:
                n = position[item["id"]]
                merged_list[n] = _merge(base[n], item, origin)
            else:
                position[item["id"]] = len(merged_list)
                merged_list.append(_stamp(item, origin))
        return merged_list
    if over == base:
        return base
    if isinstance(over, list) and isinstance(base, list) and len(over) == len(base):
        return [_merge(b, o, origin) for b, o in zip(base, over)]   # positional lists (table axes)
    return _stamp(over, origin)


def _overlay_files(folder: Path) -> list[Path]:
    if not folder.exists():
        raise GameDataError("overlay folder does not exist", file=str(folder))
    if not folder.is_dir():
        raise GameDataError("overlay must be a folder of .json files", file=str(folder))
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix == ".json" and p.is_file())
    except OSError as exc:
        raise GameDataError(f"cannot list the overlay folder ({exc.strerror or exc})", file=str(folder)) from None
    if len(files) > MAX_OVERLAY_FILES:
        raise GameDataError(f"holds more than {MAX_OVERLAY_FILES} .json files", file=str(folder))
    return files


def _read_overlay(path: Path, *, budget: int | None = None) -> bytes:
    """One overlay file's bytes, capped by the per-file limit and by `budget` (bytes left in all)."""
    shown = str(path)
    limit = MAX_DATA_FILE_BYTES if budget is None else min(MAX_DATA_FILE_BYTES, budget)
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise GameDataError(f"cannot read ({exc.strerror or exc})", file=shown) from None
    _check_overlay_size(data, shown, limit)
    return data


def _check_overlay_size(data: bytes, shown: str, limit: int) -> None:
    if len(data) > limit:
        if limit == MAX_DATA_FILE_BYTES:
            raise GameDataError(f"is larger than {MAX_DATA_FILE_BYTES} bytes", file=shown)
        raise GameDataError(f"takes the overlay files past {MAX_OVERLAY_TOTAL_BYTES} bytes in all", file=shown)


def _apply_overlay(docs: dict[str, dict[str, Any]], data: bytes, shown: str, game: str, *,
                   check: bool = True) -> None:
    """Merges one overlay file's contents into `docs` (`shown` names it in messages and sources);
    `check` false skips the schema and the checks of consistency, references and hexes: the same
    overlays on the same shipped data passed them all before (`_validated_stamp`), and each is a
    function of those bytes and of the code the stamp is named by."""
    over = _parse_json(data, shown, nesting=check)
    if not isinstance(over, dict):
        raise GameDataError("an overlay file must hold one JSON object", file=shown, where="$")
    kind = over.get("kind")
    if kind not in KINDS:
        raise GameDataError(f"'kind' must be one of {', '.join(KINDS)}", file=shown, where="$.kind")
    if over.get("game") != game:
        raise GameDataError(f"'game' is {over.get('game')!r}, not {game!r}", file=shown, where="$.game")
    merged = _merge(docs[kind], over, shown)
    if not check:
        docs[kind] = merged
        return
    _validate(kind, merged, shown)
    _check_consistency(kind, merged, shown)
    trial = {**docs, kind: merged}
    blame = {k: shown for k in KINDS}   # the shipped data was consistent, so this file is at fault
    _check_references(trial, blame)
    _check_hexes(trial, blame)
    docs[kind] = merged


CACHE_ENV = "VLOG_CACHE_DIR"
"""Where vlog keeps what it worked out once for later runs (an empty value: nowhere); by default
$XDG_CACHE_HOME/vlog, else ~/.cache/vlog."""
STAMP_FOLDER = "validated-overlays"


def cache_dir() -> Path | None:
    """The folder of vlog's cache between runs (`CACHE_ENV`), None when it is turned off."""
    given = os.environ.get(CACHE_ENV)
    if given is not None:
        return Path(given) if given else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "vlog"


def _validated_stamp(game: str, digest: bytes, overlays: Sequence[bytes]) -> Path | None:
    """The stamp file saying that these overlays, applied in this order to the shipped data of
    this digest, passed every check: named by a digest of everything the checks read (the
    overlays' bytes, the shipped data's digest, the schema files, the code merging and checking
    them, vlog's version and the validator's). Checking was most of `vlog check`'s start-up with
    a module that carries overlays; an overlay is still checked the first time its bytes are
    seen, and one that fails leaves no stamp. None when the cache is turned off."""
    folder = cache_dir()
    if folder is None:
        return None
    from vlog import __version__
    from vlog import hexes
    from vlog.schemas import schema_path

    validator = _validator_version()
    if validator is None:
        return None
    h = hashlib.sha256(b"vlog validated overlays 2\0" + __version__.encode() + b"\0" + validator.encode()
                       + b"\0" + game.encode() + b"\0" + digest)
    try:
        for schema in ("common", *KINDS, "manifest"):
            h.update(schema_path(f"{SCHEMA_SUBDIR}/{schema}.schema.json").read_bytes())
        h.update(Path(__file__).read_bytes())
        h.update(Path(hexes.__file__).read_bytes())       # the hex names `_check_hexes` parses
    except (OSError, VlogError):
        return None
    for data in overlays:
        h.update(len(data).to_bytes(8, "big") + data)
    return folder / STAMP_FOLDER / h.hexdigest()


def _validator_version() -> str | None:
    """The installed jsonschema's distribution name and version (`jsonschema-4.23.0.dist-info`),
    found beside the package without importing it or importlib.metadata (which alone took a
    tenth of `vlog check`'s start-up); None when jsonschema is not installed."""
    import importlib.util

    spec = importlib.util.find_spec("jsonschema")
    if spec is None or not spec.origin:
        return None
    try:
        found = sorted(p.name for p in Path(spec.origin).parent.parent.glob("jsonschema-*.dist-info"))
    except OSError:
        found = []
    if found:
        return ",".join(found)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("jsonschema")
    except PackageNotFoundError:
        return None


def _write_stamp(stamp: Path) -> None:
    """Leaves the stamp (best effort: a cache that cannot be written only costs the next run time)."""
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.touch()
    except OSError:
        pass


MAX_MERGED = 16
_MERGED: dict[tuple[str, bytes, tuple[tuple[str, bytes], ...]], bytes] = {}
"""Shipped data with overlays applied and validated, keyed by the game, the shipped files'
digest and each overlay file's name and bytes: the same overlays (a test suite's, a batch's)
are checked once per process."""

# shipped data as parsed, keyed by the files' bytes
_SHIPPED: dict[tuple[str, bytes], tuple[str, bytes, dict[str, str]]] = {}
"""(game, digest) -> title, the documents pickled (a fresh copy is one `pickle.loads`, a few
times faster than `copy.deepcopy` of the parsed JSON), file names."""


def _read_package_bytes(package: str, name: str, game: str) -> bytes:
    shown = f"vlog/games/{package}/data/{name}"
    try:
        data = resources.files(f"vlog.games.{package}").joinpath("data", name).read_bytes()
    except (FileNotFoundError, ModuleNotFoundError, OSError) as exc:
        raise GameDataError(f"cannot read the data file for {game} ({exc.__class__.__name__})", file=shown) from None
    if len(data) > MAX_DATA_FILE_BYTES:
        raise GameDataError(f"is larger than {MAX_DATA_FILE_BYTES} bytes", file=shown)
    return data


def _load_shipped(name: str, *, validate: bool = False) -> tuple[str, dict[str, dict[str, Any]], dict[str, str], bytes]:
    """The game's package data (title, documents, file names, the files' digest), as fresh copies.

    The shipped files are part of vlog: the test suite validates them (`validate_shipped`), so a
    run only parses them -- schema validation was most of `vlog check`'s start-up. Overlays,
    which come from users, are validated the first time their bytes are applied (`_validated_stamp`).
    """
    package = game_package(name)
    manifest_name = f"vlog/games/{package}/data/{MANIFEST}"
    manifest_bytes = _read_package_bytes(package, MANIFEST, name)
    manifest = _parse_json(manifest_bytes, manifest_name, nesting=validate)
    if validate:
        _validate("manifest", manifest, manifest_name)
    if manifest["game"] != name:
        raise GameDataError(f"names game {manifest['game']!r}, not {name!r}", file=manifest_name, where="$.game")
    raw = {kind: _read_package_bytes(package, manifest["files"][kind], name) for kind in KINDS}
    digest = hashlib.sha256(manifest_bytes + b"".join(len(v).to_bytes(8, "big") + v for v in raw.values())).digest()
    cached = None if validate else _SHIPPED.get((name, digest))
    if cached is None:
        docs: dict[str, dict[str, Any]] = {}
        files: dict[str, str] = {}
        for kind in KINDS:
            shown = f"vlog/games/{package}/data/{manifest['files'][kind]}"
            doc = _parse_json(raw[kind], shown, nesting=validate)
            if validate:
                _validate(kind, doc, shown)
            if doc["game"] != name:
                raise GameDataError(f"names game {doc['game']!r}, not {name!r}", file=shown, where="$.game")
            if validate:
                _check_consistency(kind, doc, shown)
            docs[kind], files[kind] = doc, shown
        if validate:
            _check_references(docs, files)
            _check_hexes(docs, files)
        cached = _SHIPPED[(name, digest)] = (manifest["title"], _frozen(docs), files)
    title, frozen, files = cached
    return title, pickle.loads(frozen), dict(files), digest


def _frozen(docs: dict[str, dict[str, Any]]) -> bytes:
    """JSON documents as bytes from which `pickle.loads` makes a fresh deep copy."""
    return pickle.dumps(docs, protocol=pickle.HIGHEST_PROTOCOL)


INVENTORY = "inventory.json"


def read_inventory(game: str, *, validate: bool = False) -> dict[str, Any]:
    """The game's rule inventory (data/inventory.json): every item of its rules inventory
    document with its status (vlog.kit.inventory reads it). Shipped with vlog, it is validated
    against its schema by the tests (`validate_shipped`, or `validate=True`), not on every run;
    its game and ids are checked each time. GameDataError names the file and the item at fault."""
    name = _canonical_game(game)
    package = game_package(name)
    shown = f"vlog/games/{package}/data/{INVENTORY}"
    doc = _parse_json(_read_package_bytes(package, INVENTORY, name), shown, nesting=validate)
    validate_inventory(doc, shown, name, schema=validate)
    return doc


def validate_inventory(doc: Any, file: str, game: str, *, schema: bool = True) -> None:
    """Checks an inventory against its schema (unless `schema` is false), its game and the
    uniqueness of its ids."""
    if schema or not isinstance(doc, dict) or not isinstance(doc.get("items"), list):
        _validate("inventory", doc, file)
    if doc["game"] != game:
        raise GameDataError(f"names game {doc['game']!r}, not {game!r}", file=file, where="$.game")
    seen: set[str] = set()
    for index, item in enumerate(doc["items"]):
        if item["id"] in seen:
            raise GameDataError(f"item {item['id']} is listed twice", file=file, where=f"$.items[{index}].id")
        seen.add(item["id"])


def validate_shipped(game: str) -> None:
    """Every check on a game's shipped data files: schema, ids, table depth, hexside keys,
    counter references and hex names (what an overlay gets each time it is applied).

    Raises GameDataError naming the file and JSON path of the first problem.
    """
    _load_shipped(_canonical_game(game), validate=True)
    read_inventory(game, validate=True)


def load_game_data(game: str, *, overlays: Sequence[str | os.PathLike[str]] = (),
                   embedded: Sequence[tuple[str, bytes]] = ()) -> GameData:
    """Loads and validates a game's data, then applies overlays in order (later wins): first the
    `embedded` ones (name shown, contents), as a module built by vlog carries them, then the
    overlay folders.

    Raises UnknownGameError for a game vlog has no data for and GameDataError (naming the file
    and the JSON path) for a data or overlay file that is unreadable, invalid or inconsistent.
    """
    name = _canonical_game(game)
    title, docs, files, digest = _load_shipped(name)
    applied: list[tuple[str, bytes]] = []
    used = 0
    for shown, data in embedded:
        _check_overlay_size(data, shown, min(MAX_DATA_FILE_BYTES, MAX_OVERLAY_TOTAL_BYTES - used))
        applied.append((shown, data))
        used += len(data)
    for folder in overlays:
        for path in _overlay_files(Path(folder)):
            data = _read_overlay(path, budget=MAX_OVERLAY_TOTAL_BYTES - used)
            applied.append((str(path), data))
            used += len(data)
    key = (name, digest, tuple(applied))
    merged = _MERGED.get(key)
    if merged is None:
        stamp = _validated_stamp(name, digest, [data for _, data in applied]) if applied else None
        known_valid = stamp is not None and stamp.is_file()
        for shown, data in applied:
            _apply_overlay(docs, data, shown, name, check=not known_valid)
        if stamp is not None and not known_valid:
            _write_stamp(stamp)
        if applied:
            if len(_MERGED) >= MAX_MERGED:
                _MERGED.pop(next(iter(_MERGED)))
            _MERGED[key] = _frozen(docs)
    else:
        docs = pickle.loads(merged)
    return GameData(game=name, title=title, documents=docs, files=files,
                    overlays=tuple(shown for shown, _ in applied),
                    overlay_bytes=tuple(data for _, data in applied))


# --------------------------------------------------------------------------------------------
# status and templates


def status(game_data: GameData) -> list[DatumStatus]:
    """One entry per datum: known, partial (from an example), unknown (null) or overridden by an overlay."""
    out: list[DatumStatus] = []
    for datum in game_data.datums():
        if datum.value is None:
            state: Literal["known", "partial", "unknown", "overridden"] = "unknown"
        elif datum.overridden:
            state = "overridden"
        elif datum.partial:
            state = "partial"
        else:
            state = "known"
        out.append(DatumStatus(file=datum.file, path=datum.path, state=state, value=datum.value,
                               source=datum.source, note=datum.note,
                               blocks=datum.blocks if datum.value is None else ()))
    return out


def blocked_checks(statuses: Sequence[DatumStatus]) -> dict[str, list[DatumStatus]]:
    """Check id -> the unknown datums that disable it, in check-id order."""
    blocked: dict[str, list[DatumStatus]] = {}
    for entry in statuses:
        if entry.state == "unknown":
            for check in entry.blocks:
                blocked.setdefault(check, []).append(entry)
    return dict(sorted(blocked.items(), key=lambda kv: _check_sort_key(kv[0])))


def blocked_data(game_data: GameData) -> dict[str, list[tuple[str, str]]]:
    """Check id -> (file, path) of each unknown datum that disables it, in check-id order: what
    `blocked_checks(status(game_data))` names, found without making a status for every known
    datum (thousands of them; `vlog check` needs only the unknowns at start-up)."""
    blocked: dict[str, list[tuple[str, str]]] = {}
    for kind in KINDS:
        file = game_data.files[kind]
        for steps, raw in _unknowns(game_data.documents[kind], ()):
            path = "$"
            for step in steps:
                path = _key_path(path, step) if isinstance(step, str) else _item_path(path, *step)
            for check in raw.get("blocks", ()):
                blocked.setdefault(check, []).append((file, path))
    return dict(sorted(blocked.items(), key=lambda kv: _check_sort_key(kv[0])))


def _unknowns(node: Any, steps: tuple) -> Iterator[tuple[tuple, dict[str, Any]]]:
    """(steps, datum) for every null datum that blocks a check, in document order: the steps
    down to it are keys and (item, index) pairs, spelt as `_walk`'s path only for those found
    (a map's thousands of known hexes cost no path)."""
    if isinstance(node, dict):
        if "value" in node:
            if node["value"] is None and node.get("blocks"):
                yield steps, node
            return
        for key, child in node.items():
            if isinstance(child, (dict, list)):
                yield from _unknowns(child, steps + (key,))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            if isinstance(child, (dict, list)):
                yield from _unknowns(child, steps + ((child, index),))


def _check_sort_key(check: str) -> tuple[str, int, str]:
    match = re.match(r"^([A-Z]+[0-9]*)-([0-9]+)(.*)$", check)
    return (match.group(1), int(match.group(2)), match.group(3)) if match else (check, 0, "")


def _has_unknown(node: Any) -> bool:
    return any(raw.get("value") is None for _, raw in _walk(node))


def _prune(node: Any, key: str = "") -> Any:
    """Keeps what leads to an unknown: records keep all their own fields, keyed maps and record
    lists drop entries that hold no unknown (but every counter is kept, for its id)."""
    if _is_datum(node):
        return node
    if isinstance(node, list):
        if key == "counters":
            return [_prune(item) for item in node]   # every counter: its id is what bindings name
        if key in _RECORD_LISTS:
            return [_prune(item) for item in node if _has_unknown(item)]
        return node
    if isinstance(node, dict):
        if key in _KEYED_MAPS:
            return {k: _prune(v, k) for k, v in node.items() if _has_unknown(v)}
        return {k: _prune(v, k) for k, v in node.items()}
    return node


TEMPLATE_README = """Fill-in game data for {game} ({title}).

Each .json file here has the shape of the shipped file of the same kind, reduced to the
records that still hold unknown values (counters.json keeps every counter: bindings name them
by id; `vlog data ids {game}` lists every id). An unknown is written

    {{"value": null, "note": "why it is unknown", "blocks": ["MV-07", ...]}}

To supply it, replace null by the value and say where it comes from:

    {{"value": 2, "source": "Terrain Effects Chart, player aid card 1"}}

Where a whole region is unknown (a "default_cell" of a table, the "default_terrain" or
"default_hexside" of a map), add the entries it stands for:

    table cells   "cells": {{"3:1": {{"4": {{"value": "1/2", "source": "CRT, player aid card"}}}}}}
                  (one key per axis, in the order of "axes")
    hex terrain   "hexes": {{"1306": {{"terrain": {{"value": "rough", "source": "map"}}}}}}
    hexsides      "hexsides": {{"1214/1314": {{"features": {{"value": ["river"], "source": "map"}}}}}}
                  (the two hexes in ascending order)

Records are matched by "id" (tables, counters, scenarios, lines, zones ...); a record with a
new id is added. Values left null change nothing. Known values copied here for context change
nothing unless you edit them. Use the folder with any command that takes --data, e.g.

    vlog data status {game} --data {folder}

Every value taken from this folder is reported with the source "user overlay: <file>".
"""


def _write_new(path: Path, data: bytes, *, force: bool) -> None:
    """Writes through a temporary file; without `force` never replaces an existing file."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        with open(tmp, "xb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if force:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise OutputError("already exists; use --force to replace it", file=str(path)) from None
    except OSError as exc:
        raise OutputError(f"cannot write ({exc.strerror or exc})", file=str(path)) from None
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass


def write_template(game: str, out_dir: str | os.PathLike[str], *, overlays: Sequence[str | os.PathLike[str]] = (),
                   force: bool = False) -> list[Path]:
    """Writes fill-in overlay files for every unknown datum of a game into `out_dir`.

    The files have the shipped files' names and schema; `out_dir` is created when missing. Refuses
    (OutputError) to replace any existing file unless `force`. Returns the paths written.
    """
    game_data = load_game_data(game, overlays=overlays)
    folder = Path(out_dir)
    if folder.exists() and not folder.is_dir():
        raise OutputError("exists and is not a folder", file=str(folder))
    outputs: dict[Path, bytes] = {}
    for kind in KINDS:
        pruned = _prune(game_data.documents[kind])
        outputs[folder / Path(game_data.files[kind]).name] = (
            json.dumps(pruned, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    outputs[folder / "README.txt"] = TEMPLATE_README.format(
        game=game_data.game, title=game_data.title, folder=folder).encode("utf-8")
    if not force:
        existing = [p for p in outputs if p.exists() or p.is_symlink()]
        if existing:
            raise OutputError("already exists; use --force to replace it", file=str(existing[0]))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the folder ({exc.strerror or exc})", file=str(folder)) from None
    for path, data in outputs.items():
        _write_new(path, data, force=force)
    return list(outputs)
