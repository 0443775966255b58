"""A scenario's setup -> a saved game (.vsav) at the start of the game, as VASSAL writes one.

The save is the restore command of a freshly set-up game: `begin_save`, the (empty) version check,
every piece (children before the stack that lists them, in the order GameState.getRestorePiecesCommand
sorts them), `<map>BoardPicker` for each map with `SETUP_STACK` after the first one, the turn
tracker at the scenario's first turn and phase, `end_save`; then the `savedata` and `moduledata`
members. Pieces go to the centre of their setup hex, through the module's own grid; units whose
place the data does not fix (a zone, a choice, or nothing) go to the Unplaced box and are reported.
A placement "at or within N hexes of X" goes to X unless the game's stacking rule (a package's
`setup_stacking` module) says the units already there and these may not share it: then to the
nearest free hex in range where they may, and the report's notes say so.

Public API: `write_setup(game_data, scenario_id, path, *, module=None, key=0x5A, protect=())`, which
returns a `SetupReport`; `setup_members(...)` gives the zip members and `build_setup(...)` the save
text without writing; `build_setup_save(game, scenario_id, *, module=None)` gives the save as
vlog reads it (what a play script without a `start` save begins from).
"""
from __future__ import annotations

import importlib
import importlib.util
import io
import os
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from converters import vmod_writer as W
from vlog.errors import GameDataError, ModuleError, ObfuscationError, VlogError
from vlog.gamedata import GameData, load_game_data
from vlog.vassal import grids as G
from vlog.vassal.archive import open_archive, write_archive
from vlog.vassal.commands import ESC
from vlog.vassal.metadata import build_savedata
from vlog.vassal.module import Module, read_module
from vlog.vassal.obfuscation import Dialect, obfuscate
from vlog.vassal.pieces import join_chain, split_chain
from vlog.vassal.savefile import Save, read_save
from vlog.vassal.sequence import Encoder, split

__all__ = ["write_setup", "build_setup", "build_setup_save", "setup_members", "SetupReport", "Placement", "FIRST_PIECE_ID", "java_string_hash",
           "java_hashmap_order", "stacking_rule", "hexes_within", "StackingRule"]

UNIQUE_ID = "UniqueID"
FIRST_PIECE_ID = 1704067200000
"""Piece ids are VASSAL-style millisecond numbers counted up from this fixed start."""


@dataclass
class Placement:
    """One piece put in the save: which counter, where (map, point) and why there."""

    piece_id: str
    counter_id: str
    map_name: str
    location: str
    x: int
    y: int
    placement_id: str


@dataclass
class SetupReport:
    """What the save holds and what the data did not allow to place exactly."""

    placed: list[Placement] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)
    """Messages, one per placement whose units went to the Unplaced box or were left out."""
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------- Java HashMap order

def java_string_hash(s: str) -> int:
    """`String.hashCode()` over UTF-16 code units, as a signed 32-bit int."""
    h = 0
    data = s.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def java_hashmap_order(keys: list[str]) -> list[str]:
    """Iteration order of a `new HashMap<String, …>()` filled with `keys` in this order.

    Buckets are visited in index order; a bucket keeps insertion order (resizes split buckets
    without reordering). Capacity starts at 16 and doubles past a 0.75 load factor.
    """
    cap = 16
    while len(keys) > cap * 3 // 4:
        cap *= 2
    buckets: dict[int, list[str]] = {}
    for k in keys:
        h = java_string_hash(k) & 0xFFFFFFFF
        idx = (h ^ (h >> 16)) & (cap - 1)
        buckets.setdefault(idx, []).append(k)
    return [k for i in sorted(buckets) for k in buckets[i]]


# ---------------------------------------------------------------------------------- stacking at setup

StackingRule = Callable[[str, Sequence[str]], list[str]]
"""(hex, counter ids that would share it at the start) -> why that breaks stacking (empty: legal)."""


def stacking_rule(game_data: GameData, scenario_id: str) -> StackingRule | None:
    """The game's stacking rule for its starting position, when its package offers one
    (`vlog.games.<game>.setup_stacking.stacking_rule(game_data, scenario_id)`); else None."""
    name = f"vlog.games.{game_data.game.replace('-', '_')}.setup_stacking"
    try:
        if importlib.util.find_spec(name) is None:
            return None
    except ModuleNotFoundError:         # no package for the game at all
        return None
    rule: StackingRule = importlib.import_module(name).stacking_rule(game_data, scenario_id)
    return rule


def hexes_within(game: str, centre: str, within: int) -> list[tuple[str, int]]:
    """The hexes at 1..`within` from `centre` with their distance: nearest first, each ring
    clockwise from the hex due north (the layout's direction 0). Empty without a layout."""
    from vlog.hexes import LAYOUTS

    layout = LAYOUTS.get(game)
    if layout is None:
        return []
    try:
        h = layout.parse(centre)
    except ValueError:
        return []
    out: list[tuple[str, int]] = []
    for radius in range(1, within + 1):
        ring = list(layout.ring(h, radius))
        north = h
        for _ in range(radius):
            north = layout.neighbours(north)[0]
        start = ring.index(north) if north in ring else 0
        out += [(layout.name(x), radius) for x in ring[start:] + ring[:start] if layout.on_map(x)]
    return out


# ---------------------------------------------------------------------------------- building

def _datum(record: dict, key: str):
    v = record.get(key)
    return v.get("value") if isinstance(v, dict) else None


def _module_and_build(game_data: GameData, scenario_id: str, module: str | os.PathLike | Module | None
                      ) -> tuple[Module, bytes | None, str]:
    """The module to place pieces with (a file, or one already read), or the one vmod_writer builds."""
    if isinstance(module, Module):
        md = module.metadata
        data = W.moduledata_xml(name=md.get("name", module.name), version=md.get("version", module.version),
                                description=md.get("description", module.description),
                                vassal_version=md.get("VassalVersion", module.vassal_version)) if md else None
        return module, data, module.source
    if module is not None:
        m = read_module(module)
        try:
            arch = open_archive(module)
            moduledata = arch.read("moduledata") if arch.has("moduledata") else None
        except VlogError:  # a module folder or bare buildFile: no moduledata member to copy
            moduledata = None
        return m, moduledata, str(module)
    build = W.build_module(game_data, scenario=scenario_id)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "module.vmod"
        write_archive(path, build.members, date_time=W.ZIP_TIME)
        m = read_module(path)
    return m, dict(build.members)["moduledata"], "<built module>"


def _slots_by_counter(m: Module) -> dict[str, object]:
    """Palette pieces by the CounterId marker property of their expanded definition."""
    out = {}
    for slot in m.piece_slots:
        if slot.expanded is None:
            continue
        toks = split(slot.expanded, "/")
        types = split_chain(toks[2])
        states = split_chain(toks[3]) if len(toks) > 3 else []
        for t, s in zip(types, states):
            if t.startswith("mark;"):
                keys = split(t[len("mark;"):], ",")
                vals = split(s, ",")
                props = dict(zip(keys, vals + [""] * (len(keys) - len(vals))))
                cid = props.get(W.COUNTER_ID_PROPERTY)
                if cid and cid not in out:
                    out[cid] = slot
    return out


def _placed_piece(slot, piece_id: str, map_name: str, x: int, y: int) -> str:
    """The AddPiece of a palette piece placed on a map (expanded type, BasicPiece state moved)."""
    toks = split(slot.expanded, "/")
    types = split_chain(toks[2])
    states = split_chain(toks[3]) if len(toks) > 3 else []
    while len(states) < len(types):
        states.insert(0, "")
    basic = split(states[-1], ";")
    gpid = basic[3] if len(basic) > 3 else (slot.gpid or "")
    # Persistent properties (a HashMap): the palette piece's, plus UniqueID = the piece id, which
    # BasicPiece.setId adds when the piece enters the game (VASSAL 3.7).
    count = int(basic[4]) if len(basic) > 4 and basic[4].isdigit() else 0
    pairs = basic[5:5 + 2 * count]
    props = {pairs[i]: pairs[i + 1] if i + 1 < len(pairs) else "" for i in range(0, len(pairs), 2)}
    props.setdefault(UNIQUE_ID, piece_id)
    flat: list[object] = []
    for k in java_hashmap_order(list(props)):
        flat += [k, props[k]]
    states[-1] = W._se(";", [map_name, x, y, gpid, len(props), *flat])
    return W._se("/", ["+", piece_id, join_chain(types), join_chain(states)])


def _turn_state(m: Module, scenario: dict, report: SetupReport) -> str | None:
    """TurnTracker state at the scenario's start: level 0, every level at its first value except
    the `Phase` level, which starts at the scenario's `starts_at` when known; every item active."""
    if not m.turn_trackers:
        return None
    tracker = m.turn_trackers[0]

    def level_state(level) -> str:
        subs = [level_state(c) for c in level.levels]
        if level.kind == "counter":
            enc = Encoder(";").append(level.start).append(0).append(bool(level.loop)).append(level.loop_limit)
        else:
            items = level.items or []
            current = level.first or 0
            start = _datum(scenario.get("properties", {}), "starts_at") if level.property == "Phase" else None
            if isinstance(start, str):
                if start in items:
                    current = items.index(start)
                else:
                    report.notes.append(f"the scenario starts at {start!r}, which is not a phase of the tracker")
            enc = Encoder(";").append(current).append(0).append(level.first or 0).append(
                W._array(["true"] * len(items)))
        for s in subs:
            enc.append(s)
        return enc.value() or ""

    enc = Encoder("|").append(0)
    for lvl in tracker.levels:
        enc.append(level_state(lvl))
    return enc.value()


def build_setup(game_data: GameData, scenario_id: str, *, module: str | os.PathLike | Module | None = None
                ) -> tuple[str, bytes | None, Module, SetupReport]:
    """The save's command text, the module's moduledata, the module used and the report."""
    try:
        scenario = game_data.scenario(scenario_id).raw()
    except KeyError:
        raise GameDataError(f"no scenario {scenario_id!r} for {game_data.game} "
                            f"(scenarios: {', '.join(game_data.scenario_ids) or 'none'})",
                            file=game_data.files["scenarios"]) from None
    m, moduledata, shown = _module_and_build(game_data, scenario_id, module)
    report = SetupReport()
    slots = _slots_by_counter(m)
    main = m.find_map(W.MAIN_MAP)
    boxes = m.find_map(W.BOXES_MAP) if any(x.map_name == W.BOXES_MAP for x in m.maps) else None
    scen_map = _datum(scenario, "map")
    board_name = main.boards[0].name
    if scen_map in game_data.map_ids:
        wanted = game_data.map(scen_map)
        label = wanted["name"].value if "name" in wanted and wanted["name"].value else scen_map
        if main.board(label) is not None:
            board_name = label
    layout = [(board_name, 0, 0, False)]
    placed_main = main.placed_boards(layout)
    box_layout = [(boxes.boards[0].name, 0, 0, False)] if boxes is not None and boxes.boards else None

    def box_point(zone_name: str) -> tuple[int, int] | None:
        if boxes is None or not boxes.boards or not isinstance(boxes.boards[0].grid, G.ZonedGrid):
            return None
        for z in boxes.boards[0].grid.zones:
            if z.name == zone_name:
                pts = G.parse_polygon(z.path)
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                return (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
        return None

    box_names = W.box_zone_names(game_data)

    def _names_a_hex(name: str) -> bool:
        try:
            return main.location_name(*G.map_location_center(placed_main, name), layout) == name
        except (G.LocationError, ModuleError):
            return False

    # stacks: (map, location) -> [counter ids], in placement order
    stacks: dict[tuple[str, str], list[tuple[str, str]]] = {}
    order: list[tuple[str, str]] = []

    def put(map_name: str, location: str, cid: str, pid: str) -> None:
        key = (map_name, location)
        if key not in stacks:
            stacks[key] = []
            order.append(key)
        stacks[key].append((cid, pid))

    rule = stacking_rule(game_data, scenario_id)
    named_hexes = {_datum(p, "hex") for p in scenario["setup"] if _datum(p, "units")}
    """Hexes the data names for some placement: never a place to move another one to."""

    def apart(pid: str, centre: str, within: int, counters: list[str]) -> str:
        """Where a placement "within `within` of `centre`" goes: the centre, unless the units
        already there and these would break stacking; then the nearest free hex in range where
        these alone are legal (clockwise from north), said in the notes."""
        if rule is None:
            return centre
        there = stacks.get((W.MAIN_MAP, centre), [])
        problems = rule(centre, [cid for cid, _ in there] + counters)
        if not problems:
            return centre
        with_ = sorted({plid for _, plid in there})
        for name, distance in hexes_within(game_data.game, centre, within):
            if name in named_hexes or (W.MAIN_MAP, name) in stacks or not _names_a_hex(name) \
                    or rule(name, counters):
                continue
            report.notes.append(f"{pid}: placed at {name}, {distance} hex{'es' if distance > 1 else ''} "
                                f"from {centre} (the data: at or within {within} hexes of {centre}): "
                                f"with {', '.join(with_)} at {centre} the stack would break stacking "
                                f"({'; '.join(problems)})")
            return name
        report.notes.append(f"{pid}: placed at {centre} with {', '.join(with_)} though the stack breaks "
                            f"stacking ({'; '.join(problems)}): no free hex within {within} takes it")
        return centre

    for p in scenario["setup"]:
        pid = p["id"]
        units = _datum(p, "units")
        count = _datum(p, "count")
        hex_ = _datum(p, "hex")
        within = _datum(p, "within")
        zone = _datum(p, "zone")
        box = _datum(p, "box")
        if not units:
            report.unplaced.append(f"{pid}: the units are not named in the data ({_datum(p, 'what') or 'no description'}); nothing placed")
            continue
        copies = 1
        if isinstance(count, int) and count > 1:
            if len(units) == 1:
                copies = count
            else:
                report.notes.append(f"{pid}: count {count} for {len(units)} listed units is not tied to one of them; "
                                    "one of each is placed")
        target: tuple[str, str] | None = None
        if isinstance(hex_, str) and not _names_a_hex(hex_):
            report.unplaced.append(f"{pid}: the module's grid does not place hex {hex_!r}; "
                                   f"{', '.join(units)} put in the {W.UNPLACED_BOX} box")
        elif isinstance(hex_, str):
            target = (W.MAIN_MAP, hex_)
            if isinstance(within, int) and not isinstance(within, bool) and within > 0:
                placed_at = apart(pid, hex_, within, [c for c in units if c in slots] * copies)
                target = (W.MAIN_MAP, placed_at)
            if within and target[1] == hex_:
                report.notes.append(f"{pid}: placed at {hex_}, the centre of an area 'within {within} hexes' "
                                    "the player chooses from")
        elif isinstance(box, str):
            zone_name = box_names.get(box)
            target = (W.BOXES_MAP, zone_name) if zone_name else None
            if target is None:
                report.unplaced.append(f"{pid}: box {box!r} is not a box of the map data")
        else:
            where = f"anywhere in {zone}" if zone else "a place the data does not give"
            report.unplaced.append(f"{pid}: {', '.join(units)} set up {where}; put in the {W.UNPLACED_BOX} box")
        if target is None:
            target = (W.BOXES_MAP, W.UNPLACED_BOX)
        if target[0] == W.BOXES_MAP and box_point(target[1]) is None:
            report.unplaced.append(f"{pid}: the module has no box {target[1]!r}; {', '.join(units)} left out")
            continue
        for cid in units:
            if cid not in slots:
                report.unplaced.append(f"{pid}: {cid!r} is not a counter of the module; left out")
                continue
            for _ in range(copies):
                put(target[0], target[1], cid, pid)

    # resolve points, ids and AddPiece texts
    next_id = FIRST_PIECE_ID
    pieces: dict[str, str] = {}            # id -> AddPiece text
    insertion: list[str] = []               # order pieces enter GameState.pieces
    map_stacks: dict[str, list[str]] = {}   # map -> stack ids in collection order
    map_children: dict[str, list[str]] = {}
    for key in order:
        map_name, location = key
        try:
            if map_name == W.MAIN_MAP:
                x, y = G.map_location_center(placed_main, location)
                named = main.location_name(x, y, layout)
            else:
                bp = box_point(location)
                if bp is None:
                    raise G.LocationError(f"no box {location!r} on map {map_name!r}")
                x, y = bp
                named = boxes.location_name(x, y, box_layout)
        except (G.LocationError, ModuleError) as exc:
            raise GameDataError(f"cannot place pieces at {location!r}: {exc}", file=game_data.files["scenarios"]) from None
        if named != location:
            raise GameDataError(f"{location!r} is centred at ({x}, {y}), which the module names {named!r}",
                                file=shown)
        child_ids = []
        for cid, plid in stacks[key]:
            piece_id = str(next_id)
            next_id += 1
            pieces[piece_id] = _placed_piece(slots[cid], piece_id, map_name, x, y)
            insertion.append(piece_id)
            child_ids.append(piece_id)
            report.placed.append(Placement(piece_id, cid, map_name, location, x, y, plid))
        stack_id = str(next_id)
        next_id += 1
        pieces[stack_id] = W._se("/", ["+", stack_id, "stack", W._se(";", [map_name, x, y, *child_ids, "@@1"])])
        insertion.append(stack_id)
        map_stacks.setdefault(map_name, []).append(stack_id)
        map_children.setdefault(map_name, []).extend(child_ids)

    # GameState.getRestorePiecesCommand: by map id (Map0, Map1 ... in module order); children
    # (not in the map's piece collection, index -1) before stacks; stable sort of HashMap order.
    map_ids = {mp.map_name: f"Map{i}" for i, mp in enumerate(m.maps)}
    hashed = java_hashmap_order(insertion)
    rank = {pid: i for i, pid in enumerate(hashed)}
    ordered: list[str] = []
    for map_name in sorted(map_stacks, key=lambda n: map_ids.get(n, n)):
        ordered.extend(sorted(map_children.get(map_name, []), key=rank.__getitem__))
        ordered.extend(map_stacks[map_name])
    piece_block = Encoder(ESC, "")
    for pid in ordered:
        piece_block.append(pieces[pid])

    top = Encoder(ESC).append("begin_save").append("")
    top.append(piece_block.value())
    for i, mp in enumerate(m.maps):
        if mp.kind != "Map" or not mp.boards:
            continue
        chosen = layout if mp is main else [(mp.boards[0].name, 0, 0, False)]
        entries: list[object] = [mp.map_name + "BoardPicker"]
        for bname, col, row, _rev in chosen:
            entries += [bname, col, row]
        top.append(W._se("\t", entries))
        if i == 0:
            top.append("SETUP_STACK\t")
    turn = _turn_state(m, scenario, report)
    if turn is not None:
        top.append(W._se("\t", ["TURN" + W.TURN_TRACKER_ID, turn]))
    top.append("end_save")
    return top.value() or "", moduledata, m, report


def setup_members(game_data: GameData, scenario_id: str, *, module: str | os.PathLike | Module | None = None,
                  key: int = 0x5A) -> tuple[list[tuple[str, bytes]], SetupReport]:
    """The zip members of the starting save (savedGame obfuscated with `key`, savedata, moduledata)."""
    if not (isinstance(key, int) and 0 <= key <= 255):
        raise ObfuscationError(f"obfuscation key {key!r} is not a byte (0-255)")
    text, moduledata, m, report = build_setup(game_data, scenario_id, module=module)
    savedata = build_savedata(module_version=m.version, vassal_version=W.VASSAL_VERSION,
                              date_saved_ms=W.DATE_SAVED_MS, description="")
    members = [("savedGame", obfuscate(text, Dialect.VCSK, key)), ("savedata", savedata)]
    if moduledata is not None:
        members.append(("moduledata", moduledata))
    return members, report


def write_setup(game_data: GameData, scenario_id: str, path: str | os.PathLike, *,
                module: str | os.PathLike | Module | None = None, key: int = 0x5A,
                protect: Iterable[str | os.PathLike] = ()) -> SetupReport:
    """Write the scenario's starting position as a .vsav (obfuscated with `key`), atomically.

    `module` is the .vmod to place pieces with (default: the module vmod_writer builds for the
    game and scenario). Refuses to overwrite the module file or any `protect` path.
    """
    members, report = setup_members(game_data, scenario_id, module=module, key=key)
    guarded = list(protect) + ([module] if module is not None and not isinstance(module, Module) else [])
    write_archive(path, members, protect=guarded, date_time=W.ZIP_TIME)
    return report


def build_setup_save(game: str | GameData, scenario_id: str, *, module: str | os.PathLike | Module | None = None,
                     key: int = 0x5A, overlays: Iterable[str | os.PathLike] = ()) -> Save:
    """The starting save as vlog reads it (for the log writer: a script's `game` + `scenario`).

    `game` is loaded with `overlays` when it is a name. Without `module`, the pieces are those of
    the module `vmod_writer` writes for the same data and scenario (deterministic, so writing that
    module separately gives the module this save belongs to)."""
    game_data = game if isinstance(game, GameData) else load_game_data(game, overlays=list(overlays))
    members, _ = setup_members(game_data, scenario_id, module=module, key=key)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(zipfile.ZipInfo(name, date_time=W.ZIP_TIME), data)
    return read_save(buf.getvalue(), name=f"<setup of {game_data.game} scenario {scenario_id}>")
