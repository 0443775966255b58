"""SVG pictures for the HTML report: a map excerpt around a finding, and dice charts.

A map excerpt is drawn from the game data's map where the game has data (`MapView`: the
`vlog.hexes` layout, terrain and names from map.json, overlays included): the hexes the
finding's evidence names and their neighbours, each with its printed number, its terrain colour
(grey where the data does not give it) and its name; the route the evidence shows
(`path`/`route` hexes in order, or `from` -> `to`) as an arrow; the hex attacked (`target`)
ringed in red; the other hexes named ringed in orange; and the finding's units (`subjects`, as
the report names them: hidden pieces stay hidden) as labelled counters on the hex the evidence
puts them in (`to`, `hex`, `from`), or in a row below the map when it names none.

Without game data (a log of a game vlog has no rules for), the excerpt is drawn from the module's
own grid (`GridView`): the cells holding the map points the evidence gives (`{"map", "x", "y"}`,
as `vlog/continuity` writes them; `before` -> `after` as the route) and their neighbours, each
named as VASSAL names it, on the boards the log lays out (`LogResult.boards`; a report of an
older version draws the module's default boards and says so). Every text is escaped; nothing
is fetched.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

__all__ = ["MapView", "GridView", "map_excerpt", "dice_chart", "hexes_in_evidence", "points_in_evidence"]

SIZE = 28.0
"""Hex radius in SVG units (centre to corner)."""
ZOOM = 1.6
"""Screen pixels per SVG unit at most: an excerpt of one hex and its neighbours is not blown up
to the page's width."""
MAX_HEXES = 40
"""Hexes named that an excerpt shows at most (each with its neighbours)."""
TERRAIN_COLOURS = {
    "clear": "#f3efd9", "open": "#f3efd9", "desert": "#efdca3", "mountain": "#b7925e", "mountains": "#b7925e",
    "hill": "#cdb47e", "hills": "#cdb47e", "slope": "#d9c697", "multiple-slope": "#c3a46f", "rough": "#cbb995",
    "forest": "#93c083", "woods": "#93c083", "jungle": "#6fa867", "bush": "#b3cf8f", "swamp": "#a4c9bc",
    "marsh": "#a4c9bc", "city": "#d7a1a1", "town": "#e2b9b0", "village": "#e8c8bd", "sea": "#a9c9e9",
    "ocean": "#a9c9e9", "lake": "#b4d3ee", "river": "#b4d3ee",
}
UNKNOWN_TERRAIN = "#e4e4e4"
ROUTE_KEYS = ("path", "route", "hexes_entered")
TARGET_KEYS = ("target", "attacked", "target_hex")
UNIT_KEYS = ("to", "hex", "from")


@dataclass
class Cell:
    """One hex or square as drawn: centre and outline in SVG units, fill, tooltip, labels."""

    centre: tuple[float, float]
    outline: tuple[tuple[float, float], ...]
    fill: str
    tip: str
    label: str
    place: str | None = None


@dataclass
class Excerpt:
    """What a view gives the drawing: cells by name, and which are named, on the route, attacked,
    and where each unit stands (None: in the row below the map)."""

    title: str
    cells: dict[str, Cell]
    named: list[str]
    route: list[str]
    target: list[str]
    placed: list[tuple[str, str | None]]


def _corners(x: float, y: float, flat: bool) -> tuple[tuple[float, float], ...]:
    start = 0 if flat else 30
    return tuple((x + SIZE * math.cos(math.radians(start + 60 * i)), y + SIZE * math.sin(math.radians(start + 60 * i)))
                 for i in range(6))


class MapView:
    """A game's map as game data gives it: its hex layout and, per hex, terrain and name."""

    def __init__(self, data: Any):
        self.data = data
        self.layout = data.layout()
        board = data.map()
        name = board["name"] if "name" in board else None
        self.title = getattr(name, "value", None) or board.id

    def hex(self, name: str) -> Any | None:
        """The Hex a name is, when it is a hex of this map's layout (None otherwise)."""
        from vlog.errors import GameDataError

        if not (isinstance(name, str) and name.isdigit() and len(name) == self.layout.col_digits + self.layout.row_digits):
            return None
        try:
            h = self.layout.parse(name)
        except GameDataError:
            return None
        return h if self.layout.on_map(h) else None

    def terrain(self, name: str) -> str | None:
        """The hex's terrain as the data gives it (the map's default for a hex not listed)."""
        value = getattr(self.data.terrain(name), "value", None)
        return value if isinstance(value, str) else None

    def place_name(self, name: str) -> str | None:
        record = self.data.hex(name)
        value = getattr(record["name"], "value", None) if record is not None and "name" in record else None
        return value if isinstance(value, str) else None

    def _centre(self, h: Any) -> tuple[float, float]:
        q, r = self.layout.axial(h)
        if self.layout.orientation == "flat":
            return 1.5 * SIZE * q, math.sqrt(3) * SIZE * (r + q / 2)
        return math.sqrt(3) * SIZE * (q + r / 2), 1.5 * SIZE * r

    def excerpt(self, evidence: Mapping[str, object], subjects: Iterable[str]) -> Excerpt | None:
        roles = hexes_in_evidence(self, evidence)
        named = roles["named"][:MAX_HEXES]
        if not named:
            return None
        shown: dict[str, Any] = {}
        for name in named:
            h = self.hex(name)
            shown[name] = h
            for n in self.layout.neighbours_on_map(h):
                shown.setdefault(self.layout.name(n), n)
        flat = self.layout.orientation == "flat"
        cells = {}
        for name, h in shown.items():
            x, y = self._centre(h)
            terrain = self.terrain(name)
            place = self.place_name(name)
            tip = f"{name}: {terrain or 'terrain not in the data'}" + (f", {place}" if place else "")
            cells[name] = Cell((x, y), _corners(x, y, flat), TERRAIN_COLOURS.get((terrain or "").lower(), UNKNOWN_TERRAIN),
                               tip, name, place)
        return Excerpt(self.title, cells, named, roles["route"], roles["target"],
                       _unit_hexes(evidence, list(subjects), roles))


def hexes_in_evidence(view: MapView, evidence: Mapping[str, object]) -> dict[str, list[str]]:
    """The hexes the evidence names, by role: 'route' (in order), 'target', 'unit' (where the
    units are), 'named' (every hex named, in order of appearance)."""
    roles: dict[str, list[str]] = {"route": [], "target": [], "unit": [], "named": []}

    def names(value: object) -> list[str]:
        if isinstance(value, str):
            return [value] if view.hex(value) is not None else []
        if isinstance(value, (list, tuple)):
            return [n for v in value for n in names(v)]
        if isinstance(value, Mapping):
            return [n for v in value.values() for n in names(v)]
        return []

    for key, value in evidence.items():
        found = names(value)
        for n in found:
            if n not in roles["named"]:
                roles["named"].append(n)
        if key in ROUTE_KEYS and len(found) > 1:
            roles["route"] = found
        if key in TARGET_KEYS:
            roles["target"].extend(found)
    if not roles["route"]:
        start, end = names(evidence.get("from")), names(evidence.get("to"))
        if start and end:
            roles["route"] = [start[0], end[-1]]
    for key in UNIT_KEYS:
        found = names(evidence.get(key))
        if found:
            roles["unit"] = [found[-1]]
            break
    return roles


DEFENDER_KEYS = ("defense_factors", "defenders", "defender_losses")
"""Evidence naming the defending units (by name, as keys or items): they stand in the hex attacked."""


def _unit_hexes(evidence: Mapping[str, object], units: list[str], roles: dict[str, list[str]]) -> list[tuple[str, str | None]]:
    """Each unit with the hex it is drawn on: a defender on the hex attacked, the others on the
    hex the evidence puts the unit in; None (a row below the map) when the evidence says neither."""
    defenders: set[str] = set()
    for key in DEFENDER_KEYS:
        value = evidence.get(key)
        defenders.update(value if isinstance(value, (Mapping, list, tuple)) else ())
    out = []
    for unit in units:
        if roles["target"] and unit in defenders:
            out.append((unit, roles["target"][0]))
        elif roles["unit"]:
            out.append((unit, roles["unit"][0]))
        else:
            out.append((unit, None))
    return out


DECK_RADIUS = 24.0
"""Pixels a deck is drawn as (it has no cell of a grid)."""
POINT_ROUTE = ("before", "after")
"""Evidence keys of map points that make a route, in order (a piece that moved between files)."""


def points_in_evidence(evidence: Mapping[str, object]) -> list[tuple[str, str, int, int]]:
    """The map points the evidence gives, as (key, map, x, y), in order of appearance."""
    out = []
    for key, value in evidence.items():
        if isinstance(value, Mapping) and isinstance(value.get("map"), str) \
                and all(isinstance(value.get(k), int) and not isinstance(value.get(k), bool) for k in ("x", "y")):
            out.append((key, value["map"], value["x"], value["y"]))
    return out


class GridView:
    """A module's maps as its own grids lay them out: cells named as VASSAL names them; a board
    the module draws without a grid as the calibration a game's bindings record for it lays it
    out (`calibrations`: `vlog.cli.check.game_calibrations`), its hexes named as the rules name them."""

    def __init__(self, module: Any, calibrations: tuple = (), boards: Mapping[str, Any] | None = None,
                 *, _placed: dict | None = None):
        self.module = module
        self.title = module.name
        self.calibrations = calibrations
        self.boards = dict(boards or {})
        """Map -> the boards a log lays out on it (`LogResult.boards`); a map not listed is drawn
        as the module lays it out by default."""
        self._laid_out: dict[tuple, Any] = {} if _placed is None else _placed

    def for_log(self, boards: Mapping[str, Any]) -> "GridView":
        """This view drawing the maps as a log lays them out (`LogResult.boards`); what was laid
        out once is shared."""
        return GridView(self.module, self.calibrations, boards, _placed=self._laid_out)

    def _placed(self, map_name: str) -> Any:
        """The map's boards in the log's layout, else the module's default (calibrated), its decks'
        points and its boards named by a calibration only proposed, read once per map and layout
        (None when the map is not the module's or the layout cannot be laid out)."""
        from vlog.calibration import calibrated_map
        from vlog.errors import VlogError

        layout = self.boards.get(map_name)
        key = (map_name, tuple(tuple(b) for b in layout) if layout else None)
        if key not in self._laid_out:
            try:
                self._laid_out[key] = calibrated_map(self.module.find_map(map_name),
                                                     [tuple(b) for b in layout] if layout else None, self.calibrations)
            except VlogError:
                self._laid_out[key] = None
        return self._laid_out[key]

    def proposed(self, evidence: Mapping[str, object]) -> list[str]:
        """The ids of the calibrations, only proposed by `vlog bind`, that name the points of the
        evidence the excerpt draws (those on its last point's map)."""
        from vlog.vassal import grids as G

        points = points_in_evidence(evidence)
        placed = self._placed(points[-1][1]) if points else None
        if placed is None:
            return []
        boards, _, proposed = placed
        out: dict[str, None] = {}
        for _, m, x, y in points[:MAX_HEXES]:
            board = G.find_board(boards, x, y) if m == points[-1][1] else None
            if board is not None and board.name in proposed:
                out.setdefault(proposed[board.name], None)
        return list(out)

    def layout_note(self, evidence: Mapping[str, object]) -> str | None:
        """What the excerpt of a map of several boards rests on when the log's own boards are
        not known (a report of an older version): the module's default layout; None for a map
        of one board or one the log lays out."""
        points = points_in_evidence(evidence)
        if not points or self.boards.get(points[-1][1]):
            return None
        from vlog.errors import VlogError

        try:
            vassal_map = self.module.find_map(points[-1][1])
        except VlogError:
            return None
        if len(vassal_map.boards) < 2:
            return None
        default = ", ".join(name for name, *_ in (vassal_map.layout or ())) or "none"
        return (f"drawn on the module's default boards ({default}): the report does not say which of the "
                f"map's {len(vassal_map.boards)} boards the log laid out")

    def excerpt(self, evidence: Mapping[str, object], subjects: Iterable[str]) -> Excerpt | None:
        from vlog.vassal import grids as G
        from vlog.vassal.grid_cells import Cell as GridCell, cell_at

        points = points_in_evidence(evidence)
        if not points:
            return None
        map_name = points[-1][1]              # the map the piece ended on; points elsewhere are not drawn
        placed = self._placed(map_name)
        if placed is None:
            return None
        boards, decks, _ = placed
        deck_at = {(x, y): n for n, x, y in decks}

        def cell(x: float, y: float):
            board = G.find_board(boards, int(x), int(y))
            return None if board is None else cell_at(board, int(x), int(y))

        def name(x: float, y: float) -> str:
            try:
                return G.map_location_name(boards, int(x), int(y), decks)
            except G.LocationError:   # a calibrated grid numbering no hex there (as the rules: none)
                return G.OFFBOARD

        keyed: dict[str, str] = {}
        raw: dict[str, Any] = {}
        for key, m, x, y in points[:MAX_HEXES]:
            if m != map_name:
                continue
            if (x, y) in deck_at:     # a deck is a location of its own: Map.locationName names it first
                c, label = GridCell((x, y), (), (), DECK_RADIUS), deck_at[(x, y)]
            else:
                c = cell(x, y)
                if c is None:
                    continue
                label = name(*c.centre)
            keyed[key] = label
            raw.setdefault(label, c)
            for nx, ny in c.neighbours:
                n = cell(nx, ny)
                if n is not None:
                    raw.setdefault(name(*n.centre), n)
        if not keyed:
            return None
        scale = SIZE / max(c.radius for c in raw.values())
        cells = {}
        for label, c in raw.items():
            centre = (c.centre[0] * scale, c.centre[1] * scale)
            outline = tuple((x * scale, y * scale) for x, y in c.outline) or _corners(*centre, True)
            cells[label] = Cell(centre, outline, UNKNOWN_TERRAIN, f"{label} ({c.centre[0]:.0f}, {c.centre[1]:.0f})",
                                label)
        named = list(dict.fromkeys(keyed.values()))
        route = [keyed[k] for k in POINT_ROUTE if k in keyed]
        where = keyed.get("after") or keyed.get("before") or named[-1]
        units = list(subjects)[:1]           # a piece that moved between files: its name (then its id)
        return Excerpt(f"{self.title}: {map_name}", cells, named, route if len(route) > 1 else [], [],
                       [(unit, where) for unit in units])


def _label(text: str, limit: int = 9) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _points(outline: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in outline)


def map_excerpt(view: Any, evidence: Mapping[str, object], subjects: Iterable[str] = (),
                caption: str = "") -> str | None:
    """The excerpt as an <svg> element, or None when the evidence names no place of the map."""
    excerpt = view.excerpt(evidence, subjects)
    if excerpt is None:
        return None
    centres = {name: c.centre for name, c in excerpt.cells.items()}
    xs = [x for c in excerpt.cells.values() for x, _ in c.outline] + \
        [c.centre[0] + d for c in excerpt.cells.values() for d in (-SIZE * 0.9, SIZE * 0.9)]    # labels too
    ys = [y for c in excerpt.cells.values() for _, y in c.outline] + \
        [c.centre[1] + d for c in excerpt.cells.values() for d in (-SIZE * 0.85, SIZE * 0.9)]
    pad = SIZE * 0.4
    unplaced = [u for u, h in excerpt.placed if h is None]
    strip = SIZE * 1.6 if unplaced else 0.0
    left, top = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad + strip
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
           f'style="max-width:{width * ZOOM:.0f}px" role="img" aria-label="{escape(caption or "map excerpt")}">',
           f"<title>{escape(caption or excerpt.title)}</title>"]
    for name, c in sorted(excerpt.cells.items()):
        x, y = c.centre
        cls = "hex named" if name in excerpt.named else "hex"
        out.append(f'<g class="{cls}"><title>{escape(c.tip)}</title>'
                   f'<polygon points="{_points(c.outline)}" fill="{c.fill}"/>'
                   f'<text x="{x:.1f}" y="{y - SIZE * 0.55:.1f}" class="num">{escape(_label(c.label, 10))}</text>'
                   + (f'<text x="{x:.1f}" y="{y + SIZE * 0.75:.1f}" class="place">{escape(_label(c.place, 12))}</text>'
                      if c.place else "")
                   + "</g>")
    for name in excerpt.named:
        ring = "target" if name in excerpt.target else "ring"
        out.append(f'<polygon class="{ring}" points="{_points(excerpt.cells[name].outline)}"/>')
    route = [centres[n] for n in excerpt.route if n in centres]
    if len(route) > 1:
        points = _points(route)
        marker = "arrow-" + hashlib.sha1(f"{caption}|{points}".encode("utf-8", "surrogatepass")).hexdigest()[:10]
        out.append(f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
                   'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>')
        out.append(f'<polyline class="route" points="{points}" marker-end="url(#{marker})"/>')
    by_hex: dict[str, list[str]] = {}
    for unit, where in excerpt.placed:
        if where is not None:
            by_hex.setdefault(where, []).append(unit)
    spots = [(centres[h][0] - SIZE * 0.6 + 10 * i, centres[h][1] - SIZE * 0.4 + 9 * i, u)
             for h, units in by_hex.items() if h in centres for i, u in enumerate(units[:6])]
    spots += [(left + pad + i * SIZE * 1.15, top + height - strip + SIZE * 0.25, u)
              for i, u in enumerate(unplaced[:8])]
    for x, y, unit in spots:
        out.append(f'<g class="counter"><title>{escape(unit)}</title>'
                   f'<rect x="{x:.1f}" y="{y:.1f}" width="{SIZE * 0.95:.1f}" height="{SIZE * 0.95:.1f}" rx="3"/>'
                   f'<text x="{x + SIZE * 0.475:.1f}" y="{y + SIZE * 0.6:.1f}">{escape(_label(unit, 6))}</text></g>')
    out.append("</svg>")
    return "".join(out)


def dice_chart(group: Any, title: str) -> str | None:
    """Face counts of a group of rolls as bars, the fair expectation as a dashed line (None when
    the group has no faces to show, or more than 20)."""
    if not group.dice_rolled or group.n_sides > 20:
        return None
    counts = list(group.face_counts)
    fair = group.dice_rolled / group.n_sides
    top = max(max(counts), fair) or 1
    w, h, bar = 24 * len(counts) + 20, 110, 18
    scale = 80 / top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="dice" viewBox="0 0 {w} {h}" role="img" '
           f'aria-label="{escape(title)}"><title>{escape(title)}</title>']
    for i, c in enumerate(counts):
        x = 14 + 24 * i
        out.append(f'<rect x="{x}" y="{90 - c * scale:.1f}" width="{bar}" height="{c * scale:.1f}" class="bar">'
                   f"<title>face {i + 1}: {c} (fair {fair:.1f})</title></rect>"
                   f'<text x="{x + bar / 2}" y="104" class="face">{i + 1}</text>'
                   f'<text x="{x + bar / 2}" y="{86 - c * scale:.1f}" class="count">{c}</text>')
    out.append(f'<line x1="10" x2="{w - 4}" y1="{90 - fair * scale:.1f}" y2="{90 - fair * scale:.1f}" class="fair"/>')
    out.append("</svg>")
    return "".join(out)
