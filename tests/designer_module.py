"""A SYNTHETIC Lion of Judah module made the way a designer's module differs from the ones vlog
writes: the module vlog writes from the game data (converters.vmod_writer), then rewritten as a
designer would have it — piece names of the designer's own style (`21st Division (It.)` for
`21A`, `Ras Seyoum` for `Ras Seyum`, `Div. Sb` for `Sb`, and some names nothing in the data
hints at), no vlog markers, other gpids, other layer names with the steps of every other counter
in the opposite order (then named, "1 steps" first), HQ faces named ("Move", "Combat Supply")
in another order, other side names, other turn tracker phase names, a dice button of another name
and report, other map and board names,
and a main board with a margin two columns wide on the left and one row high on top (printed
hexes, and so pieces, two columns and one row further in), its grid origin a few pixels off and
its numbering offsets lowered to match, so every hex keeps its number at another point, and the
boxes named the designer's way ("GRT 3" for "General Records Track box 3").

`Designer` answers what a player who knows the module would answer in review: gpid -> counter,
each counter's layer level -> level key, and each renamed box's zone -> box. Nothing here is real module data.
"""
from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from converters import vmod_writer as W
from vlog.gamedata import GameData
from vlog.vassal.archive import write_archive

SIDES = {"italian": "Regio Esercito", "ethiopian": "Ethiopian Empire", "allied": "Commonwealth"}
PHASES = ["Admin Phase", "Random Events", "1st Player Move", "1st Player Attack", "Ras Activation",
          "2nd Player Move", "2nd Player Attack", "Turn End"]
"""The designer's names for the eight phases of 1935-36, in the order of the sequence of play."""
FACES = {"cs": "Combat Supply", "m": "Move", "hidden": "Concealed", "revealed": "Revealed"}
_SIZE = {"division": "Division", "brigade": "Brigade", "battalion": "Battalion", "regiment": "Regiment"}
_SIDE_TAG = {"italian": "It.", "ethiopian": "Eth.", "allied": "Br."}
GPID_OFFSET = 700
MAPS = {"Main Map": "Ethiopia", "Off-map Boxes": "Holding Boxes"}
BOARDS = {"Horn of Africa": "Abyssinia 1935", "Boxes": "Records and Boxes"}
DICE = {"1d6": "Die"}
DICE_REPORT = "$PlayerName$ rolls the $name$: $result$"
"""The designer's dice button: another name and another report format than vlog's module."""
SHIFT_COLUMNS, SHIFT_ROWS = 2, 1
"""The main board's margin in columns and rows: its hexes lie this much further in, its numbering
offsets are lowered by as many (the same hex numbers) and its image is as much larger."""
ORIGIN_NUDGE = (5, 3)
"""Pixels the designer's grid origin lies off vlog's (well within a hex)."""
_BOX_STYLE = ((r"General Records Track box (\d+)", r"GRT \1"), (r"(.+) RP storage box", r"RP Store (\1)"),
              (r"(.+) air marker box", r"Air Markers (\1)"), (r"event cup", "Event Pool"),
              (r"Events drawn", "Drawn Events"), (r"General Records Track", "Records Track"))
"""The designer's names of the boxes (zones of the boxes map), vlog's name -> theirs; the
Unplaced box keeps its name."""


def designer_box_name(name: str) -> str:
    for pattern, theirs in _BOX_STYLE:
        if re.fullmatch(pattern, name):
            return re.sub(pattern, theirs, name)
    return name


@dataclass
class Designer:
    path: Path
    gpid_counter: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    """counter id -> the designer's piece name"""
    levels: dict[str, dict[str, str]] = field(default_factory=dict)
    """counter id -> {layer level: level key}"""
    layer_name: dict[str, str] = field(default_factory=dict)
    """counter id -> the name of its layer"""
    source_levels: dict[str, list[str]] = field(default_factory=dict)
    """counter id -> its level keys in the order of vlog's module (level 1 first)"""
    texts: dict[str, tuple[list[str], list[str], str]] = field(default_factory=dict)
    """counter id -> (type chain, state chain without the basic state, gpid)"""
    shift: tuple[int, int] = (0, 0)
    """Pixels a point of the main map lies further right and down than on vlog's module."""
    box_of_zone: dict[str, str] = field(default_factory=dict)
    """The designer's zone name -> the data's box id, for each renamed box."""

    def place(self, map_id: str | None, x: int, y: int) -> tuple[str | None, int, int]:
        """A point of vlog's module on the designer's: the map renamed, the main map's points shifted."""
        if map_id is not None and map_id == _MAIN_MAP_ID:
            return MAPS.get(map_id, map_id), x + self.shift[0], y + self.shift[1]
        return (MAPS.get(map_id, map_id) if map_id is not None else None), x, y

    def piece(self, counter: str, key: str | None, map_id: str | None, x: int, y: int) -> tuple[str, str]:
        """(type, state) of the designer's piece for a counter at a level key, at a point."""
        from vlog.vassal.pieces import join_chain

        types, states, gpid = self.texts[counter]
        states = list(states)
        if states and key is not None:
            states[0] = next(level for level, k in self.levels[counter].items() if k == key)
        return join_chain(types), join_chain([*states, W._basic_state(map_id, x, y, gpid)])


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def designer_name(n: int, record: dict) -> str:
    """The designer's name of the n-th counter (every ninth one hints at nothing)."""
    name = record["name"]["value"]
    side = record.get("side", {}).get("value")
    if n % 9 == 4:
        return f"Column {n} {SIDES.get(side, '')}".strip()
    m = re.fullmatch(r"([0-9]+)([A-Za-z]{1,3})", name)
    if m:
        kind = "HQ" if record.get("type", {}).get("value") == "hq" else \
            _SIZE.get(record.get("size", {}).get("value"), "Group")
        return f"{_ordinal(int(m.group(1)))} {kind} ({_SIDE_TAG.get(side, '')})"
    if " " in name and re.search(r"[a-z]u", name):
        return re.sub(r"([a-z])u", r"\1ou", name, count=1)         # Ras Seyum -> Ras Seyoum
    return f"{_SIDE_TAG.get(side, '')} {name}".strip()


def _levels_for(n: int, keys: list[str]) -> tuple[list[str], list[str]]:
    """(level keys in the designer's order, level names)."""
    if all(k.isdigit() for k in keys):
        if n % 2:
            order = sorted(keys, key=int)                           # weakest first, named
            return order, [f"{k} steps" for k in order]
        return sorted(keys, key=int, reverse=True), [""] * len(keys)   # strongest first, unnamed
    order = list(reversed(keys)) if set(keys) == {"cs", "m"} else keys
    return order, [FACES.get(k, k.title()) for k in order]


def write_designer_module(game_data: GameData, path: Path) -> Designer:
    build = W.build_module(game_data)
    members = dict(build.members)
    root = etree.fromstring(members["buildFile.xml"])
    pieces = {p.gpid: p for p in build.pieces}
    out = Designer(path)
    used: set[str] = set()
    for n, slot in enumerate(root.iter("VASSAL.build.widget.PieceSlot"), 1):
        p = pieces[slot.get("gpid")]
        record = game_data.counter(p.counter_id).raw()
        gpid = str(int(p.gpid) + GPID_OFFSET)
        name = designer_name(n, record)
        while name in used:
            name += "'"
        used.add(name)
        out.source_levels[p.counter_id] = list(p.levels)
        types, states = [], []
        if len(p.images) > 1:
            order, level_names = _levels_for(n, p.levels)
            images = [p.images[p.levels.index(k)] for k in order]
            faces = not all(k.isdigit() for k in p.levels)
            lname = "Side" if faces else "Strength"
            layer = W._layer_type(lname, images, faces)
            fields = layer[len("emb2;"):]
            from vlog.vassal.sequence import split

            parts = split(fields, ";")
            parts[16] = W._se(",", level_names)                     # commonName[]: the level names
            types.append("emb2;" + W._se(";", parts))
            states.append("1")
            out.levels[p.counter_id] = {str(i + 1): k for i, k in enumerate(order)}
            out.layer_name[p.counter_id] = lname
            image = ""
        else:
            image = p.images[0]
        types.append("piece;;;" + W._se(";", [image, name]))
        out.texts[p.counter_id] = (list(types), list(states), gpid)
        states.append(W._basic_state(None, 0, 0, gpid))
        slot.text = W._add_piece(types, states)
        slot.set("gpid", gpid)
        slot.set("entryName", name)
        out.gpid_counter[gpid] = p.counter_id
        out.names[p.counter_id] = name
    shift = _move_main_grid(root, members)
    out.shift = shift
    zone_box = {zone: box for box, zone in build.box_of_record.items()}
    for zone in root.iter("VASSAL.build.module.map.boardPicker.board.mapgrid.Zone"):
        theirs = designer_box_name(zone.get("name"))
        if theirs != zone.get("name"):
            out.box_of_zone[theirs] = zone_box[zone.get("name")]
            zone.set("name", theirs)
    for element in root.iter("VASSAL.build.module.Map"):
        for attribute in ("mapName", "buttonName"):
            element.set(attribute, MAPS.get(element.get(attribute), element.get(attribute)))
    for button in root.iter("VASSAL.build.module.DiceButton"):
        if button.get("name") in DICE:
            button.set("name", DICE[button.get("name")])
            button.set("text", "Roll")
            button.set("reportFormat", DICE_REPORT)
    for board in root.iter("VASSAL.build.module.map.boardPicker.Board"):
        board.set("name", BOARDS.get(board.get("name"), board.get("name")))
    for panel in root.iter("VASSAL.build.widget.PanelWidget"):
        panel.set("entryName", SIDES.get(panel.get("entryName"), panel.get("entryName")))
    for entry in root.iter("entry"):
        entry.text = SIDES.get(entry.text, entry.text)
    for level in root.iter("VASSAL.build.module.turn.ListTurnLevel"):
        if level.get("property") == "Phase":
            level.set("list", ",".join(PHASES))
    root.set("name", "Lion of Judah (designer's module, SYNTHETIC)")
    members["buildFile.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False)
    members["moduledata"] = W.moduledata_xml(name=root.get("name"), version="2.3", description="SYNTHETIC")
    members = {k: v for k, v in members.items() if not k.startswith("vlog-data/")}
    write_archive(path, list(members.items()), date_time=W.ZIP_TIME)
    return out


_MAIN_MAP_ID = "Main Map"


def _move_main_grid(root, members: dict) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """The main board given its margin: the image as much larger, the grid origin nudged, the
    numbering offsets lowered by the margin's columns and rows: (dx, dy), the margin in pixels."""
    import struct
    import zlib

    board = next(b for b in root.iter("VASSAL.build.module.map.boardPicker.Board") if b.get("name") == "Horn of Africa")
    grid = next(board.iter("VASSAL.build.module.map.boardPicker.board.HexGrid"))
    numbering = next(grid.iter("VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering"))
    dx = round(SHIFT_COLUMNS * float(grid.get("dx")))
    dy = round(SHIFT_ROWS * float(grid.get("dy")))
    grid.set("x0", str(int(grid.get("x0")) + ORIGIN_NUDGE[0]))
    grid.set("y0", str(int(grid.get("y0")) + ORIGIN_NUDGE[1]))
    numbering.set("hOff", str(int(numbering.get("hOff")) - SHIFT_COLUMNS))
    numbering.set("vOff", str(int(numbering.get("vOff")) - SHIFT_ROWS))
    image = "images/" + board.get("image")
    width, height = struct.unpack(">II", members[image][16:24])
    width, height = width + dx, height + dy

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rows = b"".join(b"\0" + b"\xff" * width for _ in range(height))      # a blank greyscale board
    members[image] = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                      + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    return dx, dy


def write_designer_start(start: Path, module: Path, designer: Designer, path: Path) -> None:
    """The starting save `start` (on vlog's `module`) with every piece the designer's instead."""
    import vlog
    from vlog.table import Table
    from vlog.vassal.module import read_module

    save = vlog.read(start)
    table = Table.from_save(save, read_module(module))
    for piece in list(table.pieces.values()):                  # stacks too: a stack holds its pieces' point
        map_id, x, y = designer.place(piece.map, piece.x, piece.y)
        counter = piece.properties.get(W.COUNTER_ID_PROPERTY) if piece.kind == "piece" else None
        if counter not in designer.texts:
            table._set(piece.replace(map=map_id, x=x, y=y))
            continue
        levels = designer.source_levels[counter]
        layer = next((lay for lay in piece.layers if lay.name in ("Step", "Face")), None)
        key = levels[layer.level - 1] if layer is not None and levels else None
        type_, state = designer.piece(counter, key, map_id, x, y)
        table._set(piece.replace(type=type_, state=state, map=map_id, x=x, y=y))
    table.boards = {MAPS.get(m, m): tuple((BOARDS.get(name, name), col, row, rev) for name, col, row, rev in boards)
                    for m, boards in table.boards.items()}
    written = table.to_save(like=save)
    with zipfile.ZipFile(designer.path) as archive:
        moduledata = archive.read("moduledata")            # the log is written on the designer's module
    written.members = [(n, moduledata if n == "moduledata" else b) for n, b in written.members]
    from vlog.vassal.metadata import parse_metadata

    written.module_metadata = parse_metadata(moduledata, member="moduledata")
    vlog.write(written, path)


class Untranslatable(Exception):
    """A script action the translation to the designer's module does not cover."""


def designer_script(script: Path, designer: Designer, module: Path, start: Path, data: GameData) -> dict:
    """The JSON form of a play script (converters.script) replayed on the designer's module."""
    import vlog
    from converters.script import script_document
    from vlog.table import Table
    from vlog.vassal.module import read_module

    doc = script_document(script.read_text(encoding="utf-8"), path=str(script))
    header = doc["header"]
    original_start = (script.parent / header["start"]).resolve()
    original_module = (script.parent / header["module"]).resolve()
    header.pop("game", None)
    header["module"], header["start"] = str(module), str(start)
    if "map" in header:
        header["map"] = MAPS.get(header["map"], header["map"])
    for player in header.get("players", ()):
        player["side"] = SIDES.get(player["side"], player["side"])
    table = Table.from_save(vlog.read(original_start), read_module(original_module))
    counter_of: dict[str, str] = {}
    level: dict[str, str | None] = {}
    for piece in table.game_pieces():
        counter = piece.properties.get(W.COUNTER_ID_PROPERTY)
        if counter in designer.texts:
            counter_of[piece.name] = counter
            layer = next((lay for lay in piece.layers if lay.name in ("Step", "Face")), None)
            levels = designer.source_levels[counter]
            level[piece.name] = levels[layer.level - 1] if layer is not None and levels else None
    by_name = {data.counter(c)["name"].value: c for c in data.counter_ids}
    phases = data.documents["scenarios"]["scenarios"][0]["phases"]["value"]

    def unit(ref: str) -> str:
        if ref.startswith("@"):
            return ref
        if ref not in counter_of:
            raise Untranslatable(f"unit {ref!r}")
        return designer.names[counter_of[ref]]

    for action in doc["actions"]:
        kind = action["action"]
        if "map" in action:
            action["map"] = MAPS.get(action["map"], action["map"])
        if kind == "roll":
            action["button"] = DICE.get(action["button"], action["button"])
        if kind in ("move", "remove"):
            action["unit"] = unit(action["unit"])
            if "along" in action:
                action["along"] = [designer_box_name(place) for place in action["along"]]
        elif kind == "add":
            counter = by_name.get(action["piece"])
            if counter is None:
                raise Untranslatable(f"piece {action['piece']!r}")
            action["piece"] = designer.names[counter]
            counter_of[action["piece"]] = counter
        elif kind in ("flip", "reduce", "layer"):
            ref = action["unit"]
            if ref.startswith("@") or ref not in counter_of or action.get("layer") not in (None, "Step", "Face"):
                raise Untranslatable(f"{kind} {ref!r}")
            counter = counter_of[ref]
            levels = designer.source_levels[counter]
            now = levels.index(level[ref]) if level.get(ref) in levels else 0
            if kind == "layer":
                wanted = action["level"]
                key = levels[int(wanted) - 1] if str(wanted).isdigit() else None
                if key is None:
                    raise Untranslatable(f"layer level {wanted!r}")
            else:
                key = levels[(now + 1) % len(levels)]
            level[ref] = key
            designer_level = next(lv for lv, k in designer.levels[counter].items() if k == key)
            action.clear()
            action.update({"action": "layer", "unit": designer.names[counter], "level": int(designer_level),
                           "layer": designer.layer_name[counter]})
        elif kind == "chat":                                      # declarations name units as the module does
            for name in sorted(counter_of, key=len, reverse=True):
                if len(name) > 1:
                    action["text"] = re.sub(rf"(?<![\w']){re.escape(name)}(?![\w'])",
                                            designer.names[counter_of[name]].replace("\\", "\\\\"), action["text"])
        elif kind == "turn" and action.get("turn") == "set":
            levels = dict(action["levels"])
            if "Phase" in levels:
                levels["Phase"] = PHASES[phases.index(levels["Phase"])]
            action["levels"] = levels
    return doc
