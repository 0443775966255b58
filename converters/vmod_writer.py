"""Game data -> a VASSAL module (.vmod) that VASSAL can open and vlog reads back to the same model.

Real modules for these games are not free to ship, so tests and users need modules built from the
game data: a buildFile.xml written the way VASSAL writes it (JDK Transformer layout, attributes in
code-point order, the element classes and attribute sets real modules use), a board drawn from the
map data with a HexGrid that names hexes exactly as the game prints them, one piece per counter with
a Layer over its steps or faces, prototypes per unit type, off-map boxes as zones of a second map,
a turn tracker, dice buttons and the player sides. Output is deterministic: fixed dates and zip
times, no randomness, so fixtures regenerate byte for byte.

Public API: `write_module(game_data, path, *, scenario=None, protect=())` and `build_module(...)`,
which returns the members and what the module had to leave out or assume (`ModuleBuild`).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from converters import board_image as B
from vlog.coverage import UNPLACED_BOX
from vlog.errors import GameDataError
from vlog.gamedata import GameData
from vlog.vassal.archive import write_archive
from vlog.vassal.module import GAME_DATA_FOLDER
from vlog.vassal.pieces import Marker, Piece, join_chain
from vlog.vassal.sequence import Encoder, java_double, split

__all__ = ["write_module", "build_module", "box_zone_names", "ModuleBuild", "CounterPiece", "Element", "serialize_xml",
           "moduledata_xml", "VASSAL_VERSION", "DATE_SAVED_MS", "ZIP_TIME", "MAIN_MAP", "BOXES_MAP",
           "BOXES_BOARD", "UNPLACED_BOX", "TURN_TRACKER_ID", "COUNTER_ID_PROPERTY"]

VASSAL_VERSION = "3.7.14"
"""The VASSAL version the written files claim (the piece and save forms are those of 3.7)."""
DATE_SAVED_MS = 1704067200000
"""dateSaved of every written file (2024-01-01T00:00:00Z): fixed so output is reproducible."""
ZIP_TIME = (2024, 1, 1, 0, 0, 0)
MAIN_MAP = "Main Map"
BOXES_MAP = "Off-map Boxes"
BOXES_BOARD = "Boxes"
TURN_TRACKER_ID = "TurnTracker0"
"""UniqueIdManager id of the module's only TurnTracker (used by its `TURN` command)."""
COUNTER_ID_PROPERTY = "CounterId"
"""Marker property naming the counter record a piece stands for."""
COUNTER_SIZE = 40
UNKNOWN_TYPE = "Unit"
"""Prototype of counters whose unit type the data does not give."""
_KEY_REDUCE, _KEY_RESTORE, _KEY_FLIP = "82,130", "69,130", "70,130"  # Ctrl-R, Ctrl-E, Ctrl-F


# ---------------------------------------------------------------------------------- XML as VASSAL writes it

@dataclass
class Element:
    """One buildFile element: Java class name, attributes, text (pieces, entries) and children."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list["Element"] = field(default_factory=list)
    text: str | None = None

    def add(self, child: "Element") -> "Element":
        self.children.append(child)
        return child


def _escape(s: str, attribute: bool) -> str:
    """The JDK serializer's escaping: & < > (and " in attributes); characters outside the BMP
    as numeric references; in attributes TAB/LF/CR as references too."""
    out = []
    for ch in s:
        o = ord(ch)
        if (o < 0x20 and ch not in "\t\n\r") or 0xD800 <= o <= 0xDFFF or o in (0xFFFE, 0xFFFF):
            raise GameDataError(f"text {s[:40]!r} holds the character U+{o:04X}, which XML 1.0 cannot hold")
        if ch == "&":
            out.append("&amp;")
        elif ch == "<":
            out.append("&lt;")
        elif ch == ">":
            out.append("&gt;")
        elif ch == '"' and attribute:
            out.append("&quot;")
        elif attribute and ch in "\t\n\r":
            out.append(f"&#{o};")
        elif o > 0xFFFF:
            out.append(f"&#{o};")
        else:
            out.append(ch)
    return "".join(out)


def serialize_xml(root: Element, indent: int = 4) -> bytes:
    """JDK Transformer output (INDENT=yes): standalone="no" header, attributes sorted by code
    point, `<X/>` for empty elements, text-only elements on one line."""
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>']

    def emit(el: Element, depth: int) -> None:
        pad = " " * (indent * depth)
        attrs = "".join(f' {k}="{_escape(v, True)}"' for k, v in sorted(el.attrs.items()))
        if not el.children and not el.text:
            lines.append(f"{pad}<{el.tag}{attrs}/>")
        elif not el.children:
            lines.append(f"{pad}<{el.tag}{attrs}>{_escape(el.text or '', False)}</{el.tag}>")
        else:
            lines.append(f"{pad}<{el.tag}{attrs}>" + (_escape(el.text, False) if el.text else ""))
            for c in el.children:
                emit(c, depth + 1)
            lines.append(f"{pad}</{el.tag}>")

    emit(root, 0)
    return ("\n".join(lines) + "\n").encode("utf-8")


def moduledata_xml(*, name: str, version: str, description: str, vassal_version: str = VASSAL_VERSION,
                   date_saved_ms: int = DATE_SAVED_MS) -> bytes:
    """`moduledata` as ModuleMetaData writes it (indent 2)."""
    def el(tag: str, value: str) -> str:
        return f"  <{tag}/>" if not value else f"  <{tag}>{_escape(value, False)}</{tag}>"
    body = [el("version", version), "  <extra1/>", "  <extra2/>", el("VassalVersion", vassal_version),
            el("dateSaved", str(date_saved_ms)), el("description", description), el("name", name)]
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            + "\n".join(body) + "\n</data>\n").encode("utf-8")


# ---------------------------------------------------------------------------------- small encoders

def _se(delim: str, tokens: Iterable[object]) -> str:
    enc = Encoder(delim)
    for t in tokens:
        enc.append(t)
    return enc.value() or ""


def _array(items: list[str]) -> str:
    """StringArrayConfigurer.arrayToString: SE(',') of the items, "" for none."""
    return _se(",", items) if items else ""


def _add_piece(type_chain: list[str], state_chain: list[str], piece_id: str | None = None) -> str:
    """`+/id/type/state` as AddPiece encodes it (`null` id for module definitions)."""
    return _se("/", ["+", piece_id if piece_id is not None else "null", join_chain(type_chain), join_chain(state_chain)])


def _layer_type(name: str, images: list[str], faces: bool) -> str:
    """An `emb2;` Layer (Embellishment.myGetType field order), always active, level 1 first."""
    up_cmd, up_key = ("Flip", _KEY_FLIP) if faces else ("Reduce", _KEY_REDUCE)
    down_cmd, down_key = ("", "") if faces else ("Restore", _KEY_RESTORE)
    fields: list[object] = [
        "", 128, "A",               # activateCommand, activateModifiers, activateKey
        up_cmd, 128, "",            # upCommand, upModifiers, upKey
        down_cmd, 128, "",          # downCommand, downModifiers, downKey
        "", "", "1",                # resetCommand, resetKey, resetLevel
        False, 0, 0,                # drawUnderneathWhenSelected, xOff, yOff
        _array(images), _array([""] * len(images)),  # imageName[], commonName[]
        faces, name,                # loopLevels, name
        "", "",                     # rndKey, rndText
        False, "", 1, 1,            # followProperty, propertyName, firstLevelValue, version
        True, "", up_key, down_key,  # alwaysActive, activateKeyStroke, increase, decrease
        "", "1.0", "", "true",      # description, scale, onlyPropertyName, onlyPropertyState
    ]
    return "emb2;" + _se(";", fields)


def _basic_state(map_id: str | None, x: int, y: int, gpid: str) -> str:
    """BasicPiece state (3.7): map, x, y, gpid, persistent property count (none)."""
    return _se(";", [map_id if map_id is not None else "null", x, y, gpid, 0])


# ---------------------------------------------------------------------------------- the model built

@dataclass
class CounterPiece:
    """One counter's palette piece: its gpid, name, layer levels and the AddPiece text."""

    counter_id: str
    gpid: str
    name: str
    side: str | None
    type_name: str
    levels: list[str]
    """Layer level i+1 stands for this step level or face key of the counter data."""
    images: list[str]
    text: str


@dataclass
class ModuleBuild:
    """Everything a written module holds, and what it had to assume or leave out."""

    name: str
    version: str
    description: str
    members: list[tuple[str, bytes]]
    pieces: list[CounterPiece]
    geometries: dict[str, B.BoardGeometry]
    """Board name -> its geometry (one board per data map)."""
    board_of_map: dict[str, str]
    """Data map id -> board name."""
    default_board: str
    boxes: dict[str, tuple[int, int, int, int]]
    """Zone name on the boxes map -> rectangle (x0, y0, x1, y1)."""
    box_of_record: dict[str, str]
    """Data box id -> zone name."""
    sides: list[str]
    phases: list[str]
    turn_labels: list[str]
    """The scenario's turns by label (turn 1 first), when the data gives every one."""
    dice: list[tuple[int, int]]
    notes: list[str]


def _datum(record: Any, key: str) -> Any:
    v = record.get(key) if isinstance(record, dict) else None
    return v.get("value") if isinstance(v, dict) else None


_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def _level_keys(counter: dict) -> list[str]:
    """Step levels from most to fewest steps remaining, or faces in data order."""
    keys = list(counter.get("levels", {}))
    if keys and all(k.isdigit() for k in keys):
        return sorted(keys, key=int, reverse=True)
    return keys


def _factors(level: dict) -> str:
    vals = []
    for datum in level.values():
        v = datum.get("value") if isinstance(datum, dict) else None
        vals.append("?" if v is None else str(v))
    return "-".join(vals)


def _scenario_record(game_data: GameData, scenario: str | None) -> dict | None:
    if scenario is None:
        return None
    try:
        return game_data.scenario(scenario).raw()
    except KeyError:
        known = ", ".join(game_data.scenario_ids) or "none"
        raise GameDataError(f"no scenario {scenario!r} for {game_data.game} (scenarios: {known})",
                            file=game_data.files["scenarios"]) from None


def _dice(game_data: GameData) -> list[tuple[int, int]]:
    found: set[tuple[int, int]] = set()
    for t in game_data.documents["tables"]["tables"]:
        v = _datum(t, "dice")
        m = re.fullmatch(r"(\d{1,2})d(\d{1,3})", v.strip()) if isinstance(v, str) else None
        if m and int(m.group(1)) > 0 and int(m.group(2)) > 0:
            found.add((int(m.group(1)), int(m.group(2))))
    return sorted(found, key=lambda d: (d[1], d[0]))


def _unique(name: str, used: set[str]) -> str:
    out, k = name, 2
    while out in used:
        out, k = f"{name} ({k})", k + 1
    used.add(out)
    return out


def box_zone_names(game_data: GameData) -> dict[str, str]:
    """Data box id -> the name of its zone on the boxes map (the box's name, made unique; the
    name of the Unplaced zone is reserved)."""
    used: set[str] = {UNPLACED_BOX}
    out: dict[str, str] = {}
    for raw_map in game_data.documents["map"]["maps"]:
        for box in raw_map["boxes"]:
            out[box["id"]] = _unique(str(_datum(box, "name") or box["id"]), used)
    return out


def module_name_for(game_data: GameData) -> str:
    """`<title> (vlog)`, or with the overlay folders it was built with: logs written with a module
    built on other data must not pass for logs of the plain one (VASSAL matches modules by name)."""
    folders = list(dict.fromkeys(Path(shown).parent.name for shown in game_data.overlays))
    return f"{game_data.title} (vlog" + (" + " + ", ".join(folders) if folders else "") + ")"


def carried_game_data(game_data: GameData) -> list[tuple[str, bytes]]:
    """The overlay files as `vlog-data/NN-<file>` members, numbered in the order they apply, so
    `vlog check --game` judges logs of this module on the data it was built from."""
    return [(f"{GAME_DATA_FOLDER}{n:02d}-{Path(shown).name}", data)
            for n, (shown, data) in enumerate(zip(game_data.overlays, game_data.overlay_bytes), start=1)]


def build_module(game_data: GameData, *, scenario: str | None = None) -> ModuleBuild:
    """The members of a module for the game (the scenario picks the board, sides and phases)."""
    scen = _scenario_record(game_data, scenario)
    notes: list[str] = []
    title = game_data.title
    name = module_name_for(game_data)
    version = "1.0"

    # -- boards --------------------------------------------------------------------------
    images: list[tuple[str, bytes]] = []
    geometries: dict[str, B.BoardGeometry] = {}
    board_of_map: dict[str, str] = {}
    used_boards: set[str] = set()
    board_elements: list[Element] = []
    unknown_terrain = 0
    for map_id in game_data.map_ids:
        rec = game_data.map(map_id)
        board = _unique(rec["name"].value if "name" in rec and rec["name"].value else map_id, used_boards)
        geo, geo_notes = B.geometry_for(game_data, map_id)
        notes.extend(geo_notes)
        geo.verify()
        picture = B.draw_board(game_data, map_id, geo)
        unknown_terrain += picture.unknown_terrain
        image = f"map-{_SAFE.sub('_', map_id)}.png"
        images.append((f"images/{image}", picture.png))
        geometries[board], board_of_map[map_id] = geo, board
        board_elements.append(_board_element(board, image, geo))
    if unknown_terrain:
        notes.append(f"terrain is unknown for {unknown_terrain} drawn hexes; they are drawn neutral grey")
    scen_map = _datum(scen, "map") if scen else None
    default_board = board_of_map.get(scen_map) if scen_map in board_of_map else board_of_map[game_data.map_ids[0]]

    # -- boxes ----------------------------------------------------------------------------
    box_of_record = box_zone_names(game_data)
    zone_names = list(box_of_record.values()) + [UNPLACED_BOX]
    boxes_png, rects = B.draw_boxes(zone_names)
    images.append(("images/boxes.png", boxes_png))
    boxes = dict(rects)

    # -- sides, phases, dice ---------------------------------------------------------------
    sides: list[str] = []
    scen_list = [scen] if scen else [game_data.scenario(s).raw() for s in game_data.scenario_ids]
    for s in scen_list:
        for side in _datum(s, "sides") or []:
            if isinstance(side, str) and side not in sides:
                sides.append(side)
    if not sides:
        for cid in game_data.counter_ids:
            side = game_data.counter(cid)["side"].value
            if isinstance(side, str) and side not in sides:
                sides.append(side)
        notes.append("no scenario names the sides; the sides are those of the counters")
    phases: list[str] = []
    for s in scen_list:
        ph = _datum(s, "phases")
        if isinstance(ph, list) and ph:
            phases = [str(p) for p in ph]
            others = [o["id"] for o in scen_list if o is not s and isinstance(_datum(o, "phases"), list)
                      and [str(p) for p in _datum(o, "phases")] != phases]
            if others:
                notes.append(f"the turn tracker has the phases of scenario {s['id']}; scenarios "
                             f"{', '.join(others)} have other phases (write the module for one scenario)")
            break
    if not phases:
        notes.append("the phases of a turn are not in the data; the turn tracker counts turns only")
    turn_labels: list[str] = []
    if scen is not None:
        track = scen.get("turn_track", {})
        labels = [_datum(track[k], "label") for k in sorted(track, key=int)] if track else []
        if labels and all(isinstance(x, str) for x in labels) and \
                [int(k) for k in sorted(track, key=int)] == list(range(1, len(labels) + 1)):
            turn_labels = labels
    for what, values, kind in (("board", list(board_of_map.values()), "map"), ("phase", phases, "scenarios"),
                               ("turn label", turn_labels, "scenarios")):
        for v in values:
            if v.endswith("\\"):
                raise GameDataError(f"{what} {v!r} ends with a backslash, which VASSAL's SequenceEncoder "
                                    "cannot write so that it reads back", file=game_data.files[kind])
    dice = _dice(game_data)
    if not dice:
        notes.append("no table names its dice; no dice button is written")

    # -- pieces ------------------------------------------------------------------------------
    pieces, prototypes = _pieces(game_data, images)

    description = f"Built by vlog from its {title} game data" + (f", scenario {scenario}" if scenario else "") + \
        (". " + " ".join(n.rstrip(".") + "." for n in notes) if notes else ".")
    root = _build_file(name=name, version=version, description=description, board_elements=board_elements,
                       default_board=default_board, boxes=rects, sides=sides, phases=phases,
                       turn_labels=turn_labels, dice=dice, pieces=pieces, prototypes=prototypes)
    members = [("buildFile.xml", serialize_xml(root)),
               ("moduledata", moduledata_xml(name=name, version=version, description=description))]
    members.extend(sorted(images))
    members.extend(carried_game_data(game_data))
    return ModuleBuild(name=name, version=version, description=description, members=members, pieces=pieces,
                       geometries=geometries, board_of_map=board_of_map, default_board=default_board,
                       boxes=boxes, box_of_record=box_of_record, sides=sides, phases=phases,
                       turn_labels=turn_labels, dice=dice, notes=notes)


def _pieces(game_data: GameData, images: list[tuple[str, bytes]]) -> tuple[list[CounterPiece], dict[str, str]]:
    pieces: list[CounterPiece] = []
    prototypes: dict[str, str] = {}
    for n, cid in enumerate(game_data.counter_ids, start=1):
        raw = game_data.counter(cid).raw()
        gpid = str(n)
        pname = _datum(raw, "name") or cid
        side = _datum(raw, "side")
        known_type = _datum(raw, "type")
        utype = known_type or UNKNOWN_TYPE
        if utype not in prototypes:
            prototypes[utype] = _add_piece(["mark;UnitType", "piece;;;;"], [str(utype), _basic_state(None, 0, 0, "")])
        keys = _level_keys(raw)
        colour_key = _datum(raw, "nationality") or side
        tag = str(known_type)[:3].upper() if known_type else ""
        level_images = []
        for k in keys or [""]:
            img = f"u{gpid}_{_SAFE.sub('_', k) or 'face'}.png"
            level = raw.get("levels", {}).get(k, {})
            label = f"{pname} {tag}".strip() if len(pname) + len(tag) < 9 else str(pname)
            images.append((f"images/{img}", B.draw_counter(label, _factors(level) if level else "", colour_key,
                                                           COUNTER_SIZE)))
            level_images.append(img)
        marks: list[tuple[str, str]] = [(COUNTER_ID_PROPERTY, cid)]
        for key, prop in (("side", "Side"), ("nationality", "Nationality"), ("class", "Class"),
                          ("size", "Size"), ("movement_class", "MovementClass")):
            v = _datum(raw, key)
            if isinstance(v, str):
                marks.append((prop, v))
        types = [f"prototype;{utype}"]
        states = [""]
        faces = bool(keys) and not all(k.isdigit() for k in keys)
        if len(level_images) > 1:
            types.append(_layer_type("Face" if faces else "Step", level_images, faces))
            states.append("1")
            basic_image = ""
        else:
            basic_image = level_images[0]
        types.append("mark;" + _se(",", [k for k, _ in marks]))
        states.append(_se(",", [v for _, v in marks]))
        types.append("piece;;;" + _se(";", [basic_image, pname]))
        states.append(_basic_state(None, 0, 0, gpid))
        text = _add_piece(types, states)
        _check_reads_back(text, str(pname), marks, game_data, cid)
        pieces.append(CounterPiece(counter_id=cid, gpid=gpid, name=str(pname), side=side if isinstance(side, str) else None,
                                   type_name=str(utype), levels=keys, images=level_images, text=text))
    return pieces, prototypes


def _check_reads_back(text: str, name: str, marks: list[tuple[str, str]], game_data: GameData, cid: str) -> None:
    """Decode the piece as VASSAL will and refuse what does not come back: SequenceEncoder does
    not escape a backslash, so a value ending in one swallows the delimiter after it."""
    toks = split(text, "/")
    piece = Piece(None, toks[2], toks[3]) if len(toks) == 4 else None
    props: dict[str, str] = {}
    if piece is not None:
        for t in piece.traits_of(Marker):
            props.update(t.properties)
    if piece is None or piece.name != name or any(props.get(k) != v for k, v in marks):
        bad = [v for v in [name] + [v for _, v in marks] if v.endswith("\\")]
        why = f" ({bad[0]!r} ends with a backslash)" if bad else ""
        raise GameDataError(f"counter {cid!r} cannot be written so that VASSAL reads it back{why}",
                            file=game_data.files["counters"], where=f"$.counters[id={cid}]")


# ---------------------------------------------------------------------------------- buildFile elements

_P = "VASSAL.build.module."


def _board_element(board: str, image: str, geo: B.BoardGeometry) -> Element:
    b = Element(_P + "map.boardPicker.Board", {"image": image, "name": board, "reversible": "false"})
    grid = b.add(Element(_P + "map.boardPicker.board.HexGrid", {
        "color": "0,0,0", "cornersLegal": "false", "dotsVisible": "false", "dx": java_double(geo.dx),
        "dy": java_double(geo.dy), "edgesLegal": "false", "sideways": "true" if geo.sideways else "false",
        "snapTo": "true", "visible": "false", "x0": str(geo.x0), "y0": str(geo.y0)}))
    grid.add(Element(_P + "map.boardPicker.board.mapgrid.HexGridNumbering", {
        "color": "0,0,0", "first": geo.first, "fontSize": "9", "hDescend": "false", "hDrawOff": "0",
        "hLeading": str(geo.h_leading), "hOff": str(geo.h_off), "hType": "N", "locationFormat": "$gridLocation$",
        "rotateText": "0", "sep": "", "stagger": "false", "vDescend": "false", "vDrawOff": "0",
        "vLeading": str(geo.v_leading), "vOff": str(geo.v_off), "vType": "N", "visible": "false"}))
    return b


def _map_element(map_name: str, button: str) -> Element:
    return Element(_P + "Map", {
        "allowMultiple": "false", "backgroundcolor": "255,255,255", "buttonName": button,
        "changeFormat": "$message$", "color": "0,0,0", "createFormat": "$pieceName$ created in $location$ *",
        "description": "", "edgeHeight": "0", "edgeWidth": "0", "hideKey": "", "hotkey": "",
        "icon": "/images/map.gif", "launch": "false", "mapName": map_name, "markMoved": "Never",
        "markUnmovedHotkey": "", "markUnmovedIcon": "/images/unmoved.gif", "markUnmovedReport": "",
        "markUnmovedText": "", "markUnmovedTooltip": "Mark all pieces on this map as not moved", "moveKey": "",
        "moveToFormat": "$pieceName$ moves $previousLocation$ &rarr; $location$ *",
        "moveWithinFormat": "$pieceName$ moves $previousLocation$ &rarr; $location$ *",
        "onlyReportChangedLocation": "false", "showKey": "", "thickness": "2"})


def _map_children(m: Element) -> None:
    m.add(Element(_P + "map.StackMetrics", {"bottom": "40,0", "disabled": "false", "down": "37,0", "exSepX": "6",
                                             "exSepY": "18", "top": "38,0", "unexSepX": "2", "unexSepY": "4",
                                             "up": "39,0"}))
    for cls in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                "StackExpander", "PieceMover", "KeyBufferer"):
        m.add(Element(_P + "map." + cls))
    m.add(Element(_P + "map.Zoomer", {
        "inButtonText": "", "inIconName": "/images/zoomIn.gif", "inTooltip": "Zoom in", "outButtonText": "",
        "outIconName": "/images/zoomOut.gif", "outTooltip": "Zoom out", "pickButtonText": "",
        "pickIconName": "/images/zoom.png", "pickTooltip": "Select Zoom", "zoomInKey": "", "zoomLevels": "0.5,0.75,1.0,1.5,2.0",
        "zoomOutKey": "", "zoomPickKey": "", "zoomStart": "3"}))
    m.add(Element(_P + "map.SelectionHighlighters"))
    m.add(Element(_P + "map.HighlightLastMoved", {"color": "255,0,0", "enabled": "true", "thickness": "2"}))


def _board_picker(map_name: str, boards: list[Element], default: str | None) -> Element:
    bp = Element(_P + "map.BoardPicker", {"addColumnText": "Add column", "addRowText": "Add row",
                                          "boardPrompt": "Select board", "slotHeight": "125", "slotScale": "0.2",
                                          "slotWidth": "350", "title": "Choose Boards"})
    if default is not None and len(boards) > 1:
        bp.add(Element("setup", text=_se("\t", [map_name + "BoardPicker", default, 0, 0])))
    for b in boards:
        bp.add(b)
    return bp


def _turn_tracker(phases: list[str], turn_labels: list[str]) -> Element:
    """Turns (a counter from 1, or the scenario's turn labels when all are known) with the phases
    of a turn as a sub-level; properties `Turn` and `Phase`."""
    tt = Element(_P + "turn.TurnTracker", {
        "buttonText": "Turn", "description": "", "fwdOnly": "false", "hotkey": "", "icon": "", "length": "-1",
        "lengthStyle": "Maximum", "name": "Turn", "nexthotkey": "", "plusButtonSize": "22", "prevhotkey": "",
        "reportFormat": "* &lt;$PlayerId$&gt; Turn Updated from $oldTurn$ to $newTurn$",
        "tooltip": "Turn Tracker", "turnButtonHeight": "22", "turnFormat": "$level1$ $level2$"})
    if turn_labels:
        level = tt.add(Element(_P + "turn.ListTurnLevel", {"configFirst": "false", "configList": "false",
                                                           "list": _array(turn_labels), "name": "Turn",
                                                           "property": "Turn", "turnFormat": "$value$"}))
    else:
        level = tt.add(Element(_P + "turn.CounterTurnLevel", {"incr": "1", "loop": "false", "loopLimit": "-1",
                                                              "name": "Turn", "property": "Turn", "start": "1",
                                                              "turnFormat": "$value$"}))
    if phases:
        level.add(Element(_P + "turn.ListTurnLevel", {"configFirst": "false", "configList": "false",
                                                      "list": _array(phases), "name": "Phase",
                                                      "property": "Phase", "turnFormat": "$value$"}))
    return tt


def _dice_button(n: int, sides: int) -> Element:
    name = f"{n}d{sides}"
    return Element(_P + "DiceButton", {
        "addToTotal": "0", "canDisable": "false", "disabledIcon": "", "hideWhenDisabled": "false", "hotkey": "",
        "icon": "", "keepCount": "1", "keepDice": "false", "keepOption": ">", "lockAdd": "false",
        "lockDice": "false", "lockPlus": "false", "lockSides": "false", "nDice": str(n), "nSides": str(sides),
        "name": name, "plus": "0", "prompt": "false", "propertyGate": "",
        "reportFormat": "** $name$ = $result$ *** &lt;$PlayerName$&gt;", "reportTotal": "false",
        "sortDice": "false", "text": name, "tooltip": f"Roll {name}"})


def _build_file(*, name: str, version: str, description: str, board_elements: list[Element], default_board: str,
                boxes: list[tuple[str, tuple[int, int, int, int]]], sides: list[str], phases: list[str],
                turn_labels: list[str],
                dice: list[tuple[int, int]], pieces: list[CounterPiece], prototypes: dict[str, str]) -> Element:
    root = Element("VASSAL.build.GameModule", {
        "ModuleOther1": "", "ModuleOther2": "", "VassalVersion": VASSAL_VERSION, "description": description,
        "name": name, "nextPieceSlotId": str(len(pieces) + 1), "version": version})
    root.add(Element(_P + "BasicCommandEncoder"))
    root.add(Element(_P + "Documentation"))
    roster = root.add(Element(_P + "PlayerRoster", {
        "buttonIcon": "", "buttonKeyStroke": "", "buttonText": "Retire",
        "buttonToolTip": "Become an observer, or allow another player to take your side in this game"}))
    for side in sides:
        roster.add(Element("entry", text=side))
    opts = root.add(Element(_P + "GlobalOptions", {
        "autoReport": "Always", "chatterHTMLSupport": "Never", "disablePieceIndexing": "false",
        "hotKeysOnClosedWindows": "Never", "inventoryForAll": "Always", "nonOwnerUnmaskable": "Never",
        "playerIdFormat": "$PlayerName$", "promptString": "Opponents can unmask my pieces",
        "purgeBlankPropertyPrompts": "true", "sendToLocationMoveTrails": "Never",
        "storeLeadingZeroIntegersAsStrings": "false"}))
    for opt, value in (("stepIcon", "/images/StepForward16.gif"), ("stepHotKey", "34,0"),
                       ("undoIcon", "/images/Undo16.gif"), ("undoHotKey", "90,130")):
        opts.add(Element("option", {"name": opt}, text=value))
    root.add(Element(_P + "Chatter"))
    root.add(Element(_P + "KeyNamer"))
    protos = root.add(Element(_P + "PrototypesContainer"))
    for pname, text in prototypes.items():
        what = "unit type not in the data" if pname == UNKNOWN_TYPE else f"unit type {pname}"
        protos.add(Element(_P + "PrototypeDefinition", {"description": what, "name": pname}, text=text))
    main = root.add(_map_element(MAIN_MAP, MAIN_MAP))
    main.add(_board_picker(MAIN_MAP, board_elements, default_board))
    _map_children(main)
    box_map = root.add(_map_element(BOXES_MAP, "Boxes"))
    zoned = Element(_P + "map.boardPicker.board.ZonedGrid")
    for zname, (x0, y0, x1, y1) in boxes:
        zoned.add(Element(_P + "map.boardPicker.board.mapgrid.Zone", {
            "highlightProperty": "", "locationFormat": "$name$", "name": zname,
            "path": f"{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}", "useHighlight": "false", "useParentGrid": "false"}))
    zoned.add(Element(_P + "map.boardPicker.board.mapgrid.ZonedGridHighlighter"))
    box_board = Element(_P + "map.boardPicker.Board", {"image": "boxes.png", "name": BOXES_BOARD, "reversible": "false"})
    box_board.add(zoned)
    box_map.add(_board_picker(BOXES_MAP, [box_board], None))
    _map_children(box_map)
    window = root.add(Element(_P + "PieceWindow", {
        "defaultWidth": "0", "hidden": "false", "hotkey": "", "icon": "", "name": "Counters", "scale": "1.0",
        "text": "Counters", "tooltip": "Show/Hide the counters"}))
    tab = window.add(Element("VASSAL.build.widget.TabWidget", {"entryName": "Counters"}))
    panels: dict[str, Element] = {}
    for p in pieces:
        key = p.side or "other"
        if key not in panels:
            panels[key] = tab.add(Element("VASSAL.build.widget.PanelWidget", {
                "entryName": key, "fixed": "false", "nColumns": "8", "scale": "1.0", "vert": "false"}))
        panels[key].add(Element("VASSAL.build.widget.PieceSlot", {
            "entryName": p.name, "gpid": p.gpid, "height": str(COUNTER_SIZE), "width": str(COUNTER_SIZE)}, text=p.text))
    root.add(_turn_tracker(phases, turn_labels))
    for n, s in dice:
        root.add(_dice_button(n, s))
    root.add(Element("VASSAL.i18n.Language"))
    return root


def write_module(game_data: GameData, path: str | os.PathLike, *, scenario: str | None = None,
                 protect: Iterable[str | os.PathLike] = ()) -> ModuleBuild:
    """Write the module for `game_data` to `path` atomically (never over a `protect` path).

    Returns what was written (members, pieces, notes on what the data left unknown).
    """
    build = build_module(game_data, scenario=scenario)
    write_archive(path, build.members, protect=protect, date_time=ZIP_TIME)
    return build
