"""Board geometry and pictures for written modules: a VASSAL HexGrid that names hexes exactly as
the game prints them, the board image drawn from the game's map data, and simple counter images.

The grid is chosen from the game's hex layout (vlog.hexes): flat-topped columns become a plain
HexGrid, pointy-topped rows a sideways one; the column offset is picked so that the columns the
game shifts half a hex are the ones VASSAL shifts, and `stagger` is off so a row number means the
same row in every column. `BoardGeometry.verify` checks every hex of the extent through vlog's
port of VASSAL's grid code (name -> centre -> name), so a written module cannot name hexes wrongly.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Iterable

from converters.png import MAX_PIXELS, Canvas, GLYPH_H
from vlog.errors import GameDataError
from vlog.gamedata import GameData
from vlog.hexes import LAYOUTS, Hex, HexLayout
from vlog.vassal import grids as G

__all__ = ["BoardGeometry", "MapPicture", "geometry_for", "draw_board", "draw_counter", "terrain_colour",
           "hexes_named_in_data", "UNKNOWN_TERRAIN", "DEFAULT_HEX_HEIGHT"]

DEFAULT_HEX_HEIGHT = 48.0
"""Flat-to-flat hex height in pixels: small images, still room for a 4-digit hex number."""
MARGIN = 6
UNKNOWN_TERRAIN: tuple[int, int, int] = (200, 200, 200)
"""Neutral grey for hexes whose terrain the data does not give."""
_OUTLINE = (90, 90, 90)
_NUMBER = (40, 40, 40)

# Colours for terrain names the games' data use; any other name gets a stable colour of its own.
_TERRAIN_COLOURS: dict[str, tuple[int, int, int]] = {
    "clear": (236, 226, 186), "open": (236, 226, 186), "desert": (240, 214, 150), "sand": (240, 214, 150),
    "rough": (196, 170, 120), "hills": (190, 160, 100), "hill": (190, 160, 100), "broken": (196, 170, 120),
    "mountain": (160, 120, 80), "mountains": (160, 120, 80), "multiple-slope": (170, 130, 90),
    "forest": (90, 150, 80), "woods": (90, 150, 80), "jungle": (60, 120, 60), "bush": (150, 180, 100),
    "forested-mountain": (100, 120, 70), "swamp": (110, 160, 140), "marsh": (110, 160, 140),
    "lake": (110, 160, 220), "sea": (90, 140, 210), "water": (110, 160, 220), "town": (220, 190, 190),
    "city": (210, 170, 170), "village": (225, 200, 190),
}
_HEXSIDE_COLOURS: dict[str, tuple[int, int, int]] = {
    "river": (40, 90, 210), "creek": (90, 140, 230), "major-river": (20, 60, 180), "lake": (70, 120, 220),
    "all-sea": (30, 70, 170), "ocean": (30, 70, 170), "impassable": (20, 20, 20), "ravine": (120, 70, 30),
    "zeriba": (150, 90, 20), "slope": (130, 100, 60), "road": (170, 40, 40), "rail": (60, 60, 60),
}


def _stable_colour(name: str, lo: int = 110, hi: int = 230) -> tuple[int, int, int]:
    """A colour derived from a name only, so the same name is drawn the same way everywhere."""
    d = hashlib.sha256(name.encode("utf-8")).digest()
    return tuple(lo + d[i] * (hi - lo) // 255 for i in range(3))  # type: ignore[return-value]


def terrain_colour(terrain: str | None) -> tuple[int, int, int]:
    """Fill colour of a terrain type; grey when the terrain is unknown."""
    if terrain is None:
        return UNKNOWN_TERRAIN
    return _TERRAIN_COLOURS.get(terrain.lower(), _stable_colour("terrain:" + terrain.lower()))


def _hexside_colour(features: Iterable[str]) -> tuple[int, int, int] | None:
    for f in features:
        return _HEXSIDE_COLOURS.get(f.lower(), _stable_colour("side:" + f.lower(), 20, 140))
    return None


@dataclass
class BoardGeometry:
    """A VASSAL HexGrid + HexGridNumbering for one map, with the extent drawn on the board.

    `cols`/`rows` are the printed numbers drawn (inclusive); the grid names any hex, the extent
    only decides the board size. Attribute values are what the buildFile gets.
    """

    layout: HexLayout
    cols: tuple[int, int]
    rows: tuple[int, int]
    hex_height: float = DEFAULT_HEX_HEIGHT
    extent_known: bool = True
    sideways: bool = field(init=False)
    dx: float = field(init=False)
    dy: float = field(init=False)
    x0: int = field(init=False)
    y0: int = field(init=False)
    h_off: int = field(init=False)
    v_off: int = field(init=False)
    h_leading: int = field(init=False)
    v_leading: int = field(init=False)
    first: str = field(init=False)
    width: int = field(init=False)
    height: int = field(init=False)

    def __post_init__(self) -> None:
        lay = self.layout
        self.sideways = lay.orientation == "pointy"
        # VASSAL's axes before the sideways swap: "columns" run along the staggered axis.
        stag_span, other_span = (self.rows, self.cols) if self.sideways else (self.cols, self.rows)
        stag_digits, other_digits = (lay.row_digits, lay.col_digits) if self.sideways else (lay.col_digits, lay.row_digits)
        self.dy = float(self.hex_height)
        self.dx = self.dy * math.sqrt(3) / 2.0
        shifted_parity = 1 if lay.shifted == "odd" else 0
        first = stag_span[0]
        # VASSAL shifts raw columns with odd index half a hex down (right when sideways):
        # raw = printed - h_off must be odd exactly for the game's shifted columns (rows).
        self.h_off = first if (first % 2) != shifted_parity else first - 1
        self.v_off = other_span[0]
        radius = self.dx * 2.0 / 3.0
        raw_first = first - self.h_off
        self.x0 = MARGIN + math.ceil(radius) - int(raw_first * self.dx)
        self.y0 = MARGIN + math.ceil(self.dy / 2)
        self.h_leading = stag_digits - 1
        self.v_leading = other_digits - 1
        self.first = "V" if self.sideways else "H"
        n_stag = stag_span[1] - self.h_off
        n_other = other_span[1] - self.v_off
        along = int(n_stag * self.dx) + self.x0 + math.ceil(radius) + MARGIN
        across = int(n_other * self.dy + self.dy / 2) + self.y0 + math.ceil(self.dy / 2) + MARGIN
        self.width, self.height = (across, along) if self.sideways else (along, across)

    # -- VASSAL objects ---------------------------------------------------------------------
    def grid(self) -> G.HexGrid:
        """The grid as vlog's VASSAL port builds it from the written attributes."""
        g = G.HexGrid(dx=self.dx, dy=self.dy, x0=self.x0, y0=self.y0, sideways=self.sideways,
                      size=(self.width, self.height))
        g.set_numbering(G.HexGridNumbering(first=self.first, sep="", h_type="N", v_type="N",
                                           h_leading=self.h_leading, v_leading=self.v_leading,
                                           h_off=self.h_off, v_off=self.v_off, stagger=False))
        return g

    def hexes(self) -> list[Hex]:
        return [Hex(c, r) for c in range(self.cols[0], self.cols[1] + 1)
                for r in range(self.rows[0], self.rows[1] + 1)]

    def name(self, h: Hex) -> str:
        return self.layout.name(h)

    def center(self, name: str) -> tuple[int, int]:
        """Board pixel of a hex centre, exactly as VASSAL computes it from the name."""
        return self.grid().center_of(name)

    def verify(self) -> None:
        """Every hex of the extent: name -> VASSAL centre -> VASSAL name is the same name, and
        geometric neighbours in the game's layout are neighbours on the board."""
        g = self.grid()
        spacing = self.dy
        for h in self.hexes():
            name = self.name(h)
            cx, cy = g.center_of(name)
            back = g.location_name(cx, cy)
            if back != name:
                raise GameDataError(f"grid check failed: hex {name} is centred at ({cx}, {cy}), "
                                    f"which VASSAL names {back!r}")
            for n in self.layout.neighbours(h):
                if not (self.cols[0] <= n.col <= self.cols[1] and self.rows[0] <= n.row <= self.rows[1]):
                    continue
                nx, ny = g.center_of(self.name(n))
                d = math.hypot(nx - cx, ny - cy)
                if abs(d - spacing) > 2.0:
                    raise GameDataError(f"grid check failed: hexes {name} and {self.name(n)} are neighbours "
                                        f"in the game but {d:.1f} px apart on the board")

    # -- drawing helpers ------------------------------------------------------------------------
    def corners(self, cx: float, cy: float) -> list[tuple[float, float]]:
        r = self.dx * 2.0 / 3.0
        h = self.dy / 2.0
        pts = [(cx - r, cy), (cx - r / 2, cy - h), (cx + r / 2, cy - h), (cx + r, cy), (cx + r / 2, cy + h), (cx - r / 2, cy + h)]
        if self.sideways:
            pts = [(cx + (py - cy), cy + (px - cx)) for px, py in pts]
        return pts


def hexes_named_in_data(game_data: GameData, map_id: str) -> set[str]:
    """Every hex the map and scenario data name for this map (keys, lines, zones, placements)."""
    m = game_data.documents["map"]
    rec = next(x for x in m["maps"] if x["id"] == map_id)
    out: set[str] = set(rec["hexes"])
    for key in rec["hexsides"]:
        out.update(key.split("/"))
    for item in list(rec["lines"]) + list(rec["zones"]):
        for k in ("hexes", "endpoints", "via", "known_hexes"):
            v = item.get(k, {}).get("value") if isinstance(item.get(k), dict) else None
            if isinstance(v, list):
                out.update(x for x in v if isinstance(x, str))
    for s in game_data.documents["scenarios"]["scenarios"]:
        smap = s.get("map", {}).get("value") if isinstance(s.get("map"), dict) else None
        if smap not in (None, map_id) and len(m["maps"]) > 1:
            continue
        for p in list(s["setup"]) + list(s["reinforcements"]):
            v = p.get("hex", {}).get("value") if isinstance(p.get("hex"), dict) else None
            if isinstance(v, str):
                out.add(v)
    return out


def layout_of(game_data: GameData, map_id: str) -> tuple[HexLayout, str | None]:
    """The map's hex layout and a note when it is not the one the map data names."""
    rec = game_data.map(map_id)
    name = rec["layout"].value
    if name in LAYOUTS:
        return LAYOUTS[name], None
    if game_data.game in LAYOUTS:
        return LAYOUTS[game_data.game], (f"map {map_id!r}: the map data gives no hex layout; "
                                         f"the game's layout {game_data.game!r} from vlog.hexes is used")
    raise GameDataError(f"map {map_id!r} has no known hex layout ({name!r})", file=rec.file,
                        where=f"{rec.path}.layout")


def geometry_for(game_data: GameData, map_id: str, *, hex_height: float = DEFAULT_HEX_HEIGHT) -> tuple[BoardGeometry, list[str]]:
    """The board geometry of a map and notes on what had to be assumed.

    The extent is the layout's bounds when it has them, else the smallest rectangle holding every
    hex the data names (the printed map is larger; its size is not in the data).
    """
    geo, notes = _geometry(game_data, map_id, hex_height)
    if geo.width * geo.height > MAX_PIXELS:
        rec = game_data.map(map_id)
        raise GameDataError(f"map {map_id!r}: a board of {geo.width} x {geo.height} pixels is too large to draw "
                            f"(hexes {geo.name(Hex(geo.cols[0], geo.rows[0]))} to {geo.name(Hex(geo.cols[1], geo.rows[1]))})",
                            file=rec.file, where=rec.path)
    return geo, notes


def _geometry(game_data: GameData, map_id: str, hex_height: float) -> tuple[BoardGeometry, list[str]]:
    layout, note = layout_of(game_data, map_id)
    notes = [note] if note else []
    if layout.cols is not None and layout.rows is not None:
        return BoardGeometry(layout, layout.cols, layout.rows, hex_height), notes
    hexes = []
    for name in sorted(hexes_named_in_data(game_data, map_id)):
        try:
            hexes.append(layout.parse(name))
        except GameDataError:
            notes.append(f"map {map_id!r}: {name!r} is not a hex name of layout {layout.game!r}; not drawn")
    if not hexes:
        notes.append(f"map {map_id!r}: no hex is named in the data, so the map's extent is unknown; "
                     "a 10 x 10 area is drawn")
        return BoardGeometry(layout, (1, 10), (1, 10), hex_height, extent_known=False), notes
    cols = (min(h.col for h in hexes), max(h.col for h in hexes))
    rows = (min(h.row for h in hexes), max(h.row for h in hexes))
    notes.append(f"map {map_id!r}: the printed map's extent is not in the data; the board shows hexes "
                 f"{layout.name(Hex(cols[0], rows[0]))} to {layout.name(Hex(cols[1], rows[1]))}, "
                 "the area the data names")
    return BoardGeometry(layout, cols, rows, hex_height, extent_known=False), notes


@dataclass
class MapPicture:
    """A drawn board: PNG bytes and what the drawing could not show."""

    png: bytes
    unknown_terrain: int
    """Hexes drawn grey because their terrain is unknown."""


def draw_board(game_data: GameData, map_id: str, geo: BoardGeometry) -> MapPicture:
    """The board: hexes filled by terrain, outlines, hexside features as thick edges, lines (roads,
    rails) whose hex path is known, hex numbers."""
    canvas = Canvas(geo.width, geo.height, (255, 255, 255))
    grid = geo.grid()
    unknown = 0
    centres: dict[Hex, tuple[int, int]] = {}
    for h in geo.hexes():
        name = geo.name(h)
        cx, cy = grid.center_of(name)
        centres[h] = (cx, cy)
        terrain = game_data.terrain(name, map_id).value
        if terrain is None:
            unknown += 1
        canvas.fill_polygon(geo.corners(cx, cy), terrain_colour(terrain if isinstance(terrain, str) else None))
    for (cx, cy) in centres.values():
        pts = geo.corners(cx, cy)
        for i in range(6):
            (ax, ay), (bx, by) = pts[i], pts[(i + 1) % 6]
            canvas.line(ax, ay, bx, by, _OUTLINE)
    rec = game_data.documents["map"]
    raw = next(x for x in rec["maps"] if x["id"] == map_id)
    for key in sorted(raw["hexsides"]):
        feats = raw["hexsides"][key].get("features", {}).get("value")
        if not feats:
            continue
        a, b = key.split("/")
        try:
            ha, hb = geo.layout.parse(a), geo.layout.parse(b)
        except GameDataError:
            continue
        if ha not in centres or hb not in centres:
            continue
        colour = _hexside_colour(feats)
        (ax, ay), (bx, by) = centres[ha], centres[hb]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        length = math.hypot(bx - ax, by - ay) or 1.0
        px, py = -(by - ay) / length, (bx - ax) / length
        half = geo.dx / 3.0  # half a side: the side of a regular hex equals its radius (2dx/3)
        canvas.line(mx - px * half, my - py * half, mx + px * half, my + py * half, colour, width=4)
    for line in raw["lines"]:
        path = line.get("hexes", {}).get("value")
        if not isinstance(path, list) or len(path) < 2:
            continue  # only a line whose whole path is known is drawn
        kind = line.get("type", {}).get("value")
        colour = _HEXSIDE_COLOURS.get(str(kind).lower(), _stable_colour("line:" + str(kind), 20, 140))
        points = []
        for name in path:
            try:
                h = geo.layout.parse(name)
            except GameDataError:
                points = []
                break
            points.append(centres.get(h))
        if points and all(p is not None for p in points):
            for (ax, ay), (bx, by) in zip(points, points[1:]):
                canvas.line(ax, ay, bx, by, colour, width=2)
    for h, (cx, cy) in centres.items():
        label = geo.name(h)
        canvas.text(cx - Canvas.text_width(label) // 2, int(cy - geo.dy / 2) + 3, label, _NUMBER)
    return MapPicture(canvas.png(), unknown)


def draw_boxes(names: list[str], box_w: int = 160, box_h: int = 60) -> tuple[bytes, list[tuple[str, tuple[int, int, int, int]]]]:
    """An off-map display: one labelled rectangle per box, in two columns. Returns the PNG and
    each box's rectangle (x0, y0, x1, y1) in board pixels."""
    cols = 2
    rows = max(1, (len(names) + cols - 1) // cols)
    width = MARGIN + cols * (box_w + MARGIN)
    height = MARGIN + rows * (box_h + MARGIN)
    canvas = Canvas(width, height, (245, 245, 240))
    rects = []
    for i, name in enumerate(names):
        x = MARGIN + (i % cols) * (box_w + MARGIN)
        y = MARGIN + (i // cols) * (box_h + MARGIN)
        canvas.fill_rect(x, y, x + box_w, y + box_h, (225, 225, 215))
        for (ax, ay, bx, by) in ((x, y, x + box_w - 1, y), (x, y + box_h - 1, x + box_w - 1, y + box_h - 1),
                                 (x, y, x, y + box_h - 1), (x + box_w - 1, y, x + box_w - 1, y + box_h - 1)):
            canvas.line(ax, ay, bx, by, _OUTLINE)
        label = name[: (box_w - 4) // 4]
        canvas.text(x + 3, y + 3, label, _NUMBER)
        rects.append((name, (x, y, x + box_w, y + box_h)))
    return canvas.png(), rects




def draw_counter(label: str, factors: str, colour_key: str | None, size: int = 40) -> bytes:
    """A counter: a rectangle coloured by nationality, the designation on top, factors below."""
    colour = _stable_colour("nation:" + (colour_key or "unknown"), 120, 235) if colour_key else UNKNOWN_TERRAIN
    canvas = Canvas(size, size, colour)
    for (ax, ay, bx, by) in ((0, 0, size - 1, 0), (0, size - 1, size - 1, size - 1), (0, 0, 0, size - 1),
                             (size - 1, 0, size - 1, size - 1)):
        canvas.line(ax, ay, bx, by, (30, 30, 30))
    max_chars = (size - 2) // 4
    top = label[:max_chars]
    canvas.text((size - Canvas.text_width(top)) // 2, 4, top, (0, 0, 0))
    bottom = factors[:max_chars]
    canvas.text((size - Canvas.text_width(bottom)) // 2, size - GLYPH_H - 5, bottom, (0, 0, 0))
    return canvas.png()
