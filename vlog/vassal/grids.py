"""VASSAL's map grids: pixel <-> location name, exact to the Java.

A save or log records pieces by pixel position; players, rulebooks and reports speak of hexes,
squares, regions and zones. These classes reproduce VASSAL's HexGrid, SquareGrid, RegionGrid and
ZonedGrid with their numberings (VASSAL 3.7+), keeping every Java rounding quirk, so that a point
gets exactly the name VASSAL shows (the piece property `LocationName`), and a name (as written in
an at-start stack) gets exactly the point VASSAL would place it at.

Java semantics that matter and are reproduced here: `Math.round` (half up, not Python's banker's
rounding), `(int)` casts that truncate toward zero, `%` that keeps the dividend's sign, float
(32-bit) arithmetic in the hex outline used for snapping, `java.awt.Polygon` insideness, `HashMap`
iteration order among region origins, and `FormattedString` evaluation of location formats.
"""
from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Protocol, Sequence

from vlog.errors import VlogError
from vlog.vassal.sequence import split

__all__ = [
    "LocationError", "MapGrid", "RegularGridNumbering", "HexGridNumbering", "SquareGridNumbering",
    "HexGrid", "SquareGrid", "Region", "RegionGrid", "Zone", "ZonedGrid", "PlacedBoard",
    "layout_boards", "find_board", "map_location_name", "map_location_center", "OFFBOARD",
    "polygon_contains", "parse_polygon", "evaluate_format",
]

#: `Resources.getString("Map.offboard")` in VASSAL's English resources.
OFFBOARD = "offboard"
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_INT_MIN, _INT_MAX = -(2 ** 31), 2 ** 31 - 1
MAX_PART_CHARS = 4096
"""Longest row or column name vlog writes; real grids name hexes with a handful of characters."""


class LocationError(VlogError):
    """A location name that no grid can place (VASSAL's `BadCoords`), or a grid that cannot name."""


class _NumberFormat(LocationError):
    """Java's NumberFormatException escaping `getLocation`: not caught where BadCoords is."""


# ---------------------------------------------------------------------------------- Java arithmetic

def jround(v: float) -> int:
    """`Math.round(double)`: half up, exact for 0.49999999999999994 (unlike floor(v + 0.5))."""
    if v != v:
        return 0
    f = math.floor(v)
    return int(f) + (1 if v - f >= 0.5 else 0)


def jint(v: float) -> int:
    """`(int) v` for a double: truncation toward zero, saturating, NaN -> 0."""
    if v != v:
        return 0
    if v >= _INT_MAX:
        return _INT_MAX
    if v <= _INT_MIN:
        return _INT_MIN
    return int(v)


def i32(v: int) -> int:
    """Wrap to a Java int (two's complement overflow)."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def jmod(a: int, b: int) -> int:
    """Java `a % b` for ints: the result has the sign of the dividend."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def jdiv(a: int, b: int) -> int:
    """Java `a / b` for ints: truncation toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _f32(v: float) -> float:
    return struct.unpack("f", struct.pack("f", v))[0]


def _java_trim(s: str) -> str:
    """`String.trim()`: strips every char <= U+0020 (not Unicode whitespace)."""
    i, j = 0, len(s)
    while i < j and s[i] <= " ":
        i += 1
    while j > i and s[j - 1] <= " ":
        j -= 1
    return s[i:j]


_JAVA_WS = set(" \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
               "\u2008\u2009\u200a\u2028\u2029\u205f\u3000")


def _java_is_blank(s: str) -> bool:
    """`String.isBlank()`: empty or only `Character.isWhitespace` chars (no-break spaces excluded)."""
    return all(c in _JAVA_WS for c in s)


_JAVA_INT = re.compile(r"[+-]?\d+")


def _java_parse_int(s: str) -> int | None:
    """`Integer.parseInt`, None where Java throws NumberFormatException."""
    if not _JAVA_INT.fullmatch(s):
        return None
    v = int(s)
    return v if _INT_MIN <= v <= _INT_MAX else None


# ---------------------------------------------------------------------------------- location formats

PropertyLookup = Callable[[str], "str | None"]


def evaluate_format(fmt: str | None, props: Mapping[str, str | None], *, localized: bool,
                    lookup: PropertyLookup | None = None) -> str:
    """`FormattedString` text of a location format (Expression.createExpression + evaluate).

    `props` are the values the grid sets; other `$name$` references go to `lookup` (VASSAL asks
    the GameModule: global properties). When nothing answers, the localized path (grid numbering)
    drops the reference and the plain path (zones) writes the property name itself, as VASSAL does.
    A whole-number format evaluates to the number (`"007"` -> `"7"`), a blank one to `""`.
    """
    if fmt is None or _java_is_blank(fmt):
        return ""
    t = _java_trim(fmt)
    if t.startswith("{") and t.endswith("}"):
        raise LocationError(f"location format {fmt!r} is a BeanShell expression, which vlog does not evaluate")
    n = _java_parse_int(t)
    if n is not None:
        return str(n)
    if "$" not in t:
        return fmt
    tokens = split(t, "$")
    out: list[str] = []
    is_property = True
    last = len(tokens) - 1
    for i, token in enumerate(tokens):
        is_property = not is_property
        if not token:
            continue
        if not is_property or i == last:
            out.append(token)
        elif token in props:
            value = props[token]
            if value is not None:
                out.append(value)
        else:
            value = lookup(token) if lookup is not None else None
            if value is not None:
                out.append(str(value))
            elif not localized:
                out.append(token)
    return "".join(out)


# ---------------------------------------------------------------------------------- polygons

def polygon_contains(xs: Sequence[int], ys: Sequence[int], x: float, y: float) -> bool:
    """`java.awt.Polygon.contains(x, y)`: even-odd crossings; left/top edges in, right/bottom out."""
    n = len(xs)
    if n <= 2:
        return False
    if not (min(xs) <= x < max(xs) and min(ys) <= y < max(ys)):
        return False
    hits = 0
    lx, ly = xs[-1], ys[-1]
    for i in range(n):
        cx, cy = xs[i], ys[i]
        if cy == ly:
            lx, ly = cx, cy
            continue
        if cx < lx:
            if x >= lx:
                lx, ly = cx, cy
                continue
            left = cx
        else:
            if x >= cx:
                lx, ly = cx, cy
                continue
            left = lx
        if cy < ly:
            if y < cy or y >= ly:
                lx, ly = cx, cy
                continue
            if x < left:
                hits += 1
                lx, ly = cx, cy
                continue
            t1, t2 = x - cx, y - cy
        else:
            if y < ly or y >= cy:
                lx, ly = cx, cy
                continue
            if x < left:
                hits += 1
                lx, ly = cx, cy
                continue
            t1, t2 = x - lx, y - ly
        if t1 < t2 / (ly - cy) * (lx - cx):
            hits += 1
        lx, ly = cx, cy
    return hits & 1 == 1


_PLAIN_POLYGON = re.compile(r"(?:[+-]?[0-9]{1,9},[+-]?[0-9]{1,9};)*(?:[+-]?[0-9]{1,9},[+-]?[0-9]{1,9})?")
"""A path of plain points only (no escapes, spaces or junk), each coordinate in int's range."""
_POINT = re.compile(r"([+-]?[0-9]+),([+-]?[0-9]+)")


def parse_polygon(path: str | None) -> list[tuple[int, int]]:
    """`PolygonEditor.stringToPolygon`: `"x,y;x,y;..."`, unparsable points skipped."""
    points: list[tuple[int, int]] = []
    if path is None:
        return points
    if _PLAIN_POLYGON.fullmatch(path):          # what VASSAL writes: read in one pass
        return [(int(x), int(y)) for x, y in _POINT.findall(path)]
    return _polygon_points(path)


def _polygon_points(path: str) -> list[tuple[int, int]]:
    """Token by token, as PolygonEditor reads any path."""
    points: list[tuple[int, int]] = []
    for tok in split(path, ";"):
        parts = split(tok, ",")
        x = _java_parse_int(_java_trim(parts[0]))
        if x is None or len(parts) < 2:
            continue
        y = _java_parse_int(_java_trim(parts[1]))
        if y is not None:
            points.append((x, y))
    return points


# ---------------------------------------------------------------------------------- numbering

class MapGrid(Protocol):
    """What every VASSAL grid answers (MapGrid in Java), in board coordinates."""

    def location_name(self, x: int, y: int) -> str | None: ...
    def snap(self, x: int, y: int, *, force: bool = False, center_only: bool = False) -> tuple[int, int]: ...
    def center_of(self, name: str) -> tuple[int, int]: ...


_ALPHABETIC_MATCH = "-?(?:A+|B+|C+|D+|E+|F+|G+|H+|I+|J+|K+|L+|M+|N+|O+|P+|Q+|R+|S+|T+|U+|V+|W+|X+|Y+|Z+)"


@dataclass
class RegularGridNumbering:
    """RegularGridNumbering's attributes (defaults as in VASSAL) and its naming and parsing."""

    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    location_format: str = "$gridLocation$"
    visible: bool = False
    lookup: PropertyLookup | None = field(default=None, repr=False, compare=False)

    # set by the grid that owns the numbering
    def _row(self, x: int, y: int) -> int:
        raise NotImplementedError

    def _column(self, x: int, y: int) -> int:
        raise NotImplementedError

    def _center_point(self, col: int, row: int) -> tuple[int, int]:
        raise NotImplementedError

    @staticmethod
    def part_name(n: int, typ: str, leading: int) -> str:
        """`getName(rowOrColumn, type, leading)`: one coordinate as printed, in Java int arithmetic.

        Where VASSAL's own loops would run for minutes (an offset near 2**31 read as letters, a
        leading of a billion zeros) or throw (`Math.abs` of the smallest int, read as letters),
        a `LocationError` says so: no name is longer than MAX_PART_CHARS.
        """
        n = i32(n)
        val = "-" if n < 0 else ""
        if typ == "A":
            if n == _INT_MIN:
                raise LocationError(f"grid numbering cannot name coordinate {n} in letters "
                                    "(VASSAL fails on it too)")
            n = abs(n)
            length = n // 26 + 1  # one letter, repeated: A..Z, AA..ZZ, AAA..
            if length > MAX_PART_CHARS:
                raise LocationError(f"grid numbering would name coordinate {n} with {length} letters, "
                                    f"more than {MAX_PART_CHARS}: check the grid's offsets")
            return val + ALPHABET[n % 26] * length
        digits = str(abs(n))
        # `while (leading > 0 && n < Math.pow(10, leading)) val += "0"`: one zero for each power
        # of ten from 10**leading down to the first that is not above n
        zeros = max(0, leading - len(digits) + 1) if n != _INT_MIN else max(0, leading)
        if zeros + len(digits) > MAX_PART_CHARS:
            raise LocationError(f"grid numbering would pad coordinate {n} with {zeros} zeros, more "
                                f"than {MAX_PART_CHARS} characters: check the grid's leading zeros")
        return val + "0" * zeros + (digits if n != _INT_MIN else str(n))

    def grid_name(self, row: int, col: int) -> str:
        """`getName(row, column)`: the `$gridLocation$` text."""
        row_name = self.part_name(row + self.v_off, self.v_type, self.v_leading)
        col_name = self.part_name(col + self.h_off, self.h_type, self.h_leading)
        return col_name + self.sep + row_name if self.first == "H" else row_name + self.sep + col_name

    def location_name(self, x: int, y: int) -> str:
        row, col = self._row(x, y), self._column(x, y)
        props = {
            "gridLocation": self.grid_name(row, col),
            "row": self.part_name(row + self.v_off, self.v_type, self.v_leading),
            "column": self.part_name(col + self.h_off, self.h_type, self.h_leading),
        }
        return evaluate_format(self.location_format, props, localized=True, lookup=self.lookup)

    @staticmethod
    def _pattern(typ: str, leading: int) -> str:
        return _ALPHABETIC_MATCH if typ == "A" else "-?[0-9]{" + str(leading + 1) + ",}"

    @staticmethod
    def _parse(name: str, typ: str) -> int:
        if typ == "A":
            value, index, negative = 0, 0, name.startswith("-")
            if negative:
                index = 1
            while index < len(name) and name[index].isupper():
                value += 26 if index < len(name) - 1 else ALPHABET.find(name[index])
                index += 1
            return -value if negative else value
        v = _java_parse_int(name)
        if v is None:
            raise _NumberFormat(f"{name!r} is not a Java int")
        return v

    def center_of(self, name: str) -> tuple[int, int]:
        """`getLocation(name)`: parse with a regex built from the location format, then centre."""
        regex: list[str] = []
        col_group = row_group = count = 0
        tokens = split(self.location_format, "$")
        is_property = True
        last = len(tokens) - 1
        for i, token in enumerate(tokens):
            is_property = not is_property
            if not token:
                continue
            if not is_property or i == last:
                regex.append(re.escape(token))
            elif token == "gridLocation":
                if self.first == "H":
                    regex.append("(" + self._pattern(self.h_type, self.h_leading) + ")")
                    count += 1
                    col_group = count
                    if self.sep:
                        regex.append(re.escape(self.sep))
                    regex.append("(" + self._pattern(self.v_type, self.v_leading) + ")")
                    count += 1
                    row_group = count
                else:
                    regex.append("(" + self._pattern(self.v_type, self.v_leading) + ")")
                    count += 1
                    row_group = count
                    regex.append(re.escape(self.sep) + "(" + self._pattern(self.h_type, self.h_leading) + ")")
                    count += 1
                    col_group = count
            elif token == "row":
                regex.append("(" + self._pattern(self.v_type, self.v_leading) + ")")
                count += 1
                row_group = count
            elif token == "column":
                regex.append("(" + self._pattern(self.h_type, self.h_leading) + ")")
                count += 1
                col_group = count
        if not regex or not col_group or not row_group:
            raise LocationError(f"location format {self.location_format!r} cannot be parsed back")
        m = re.fullmatch("".join(regex), name)
        if not m:
            raise LocationError(f"{name!r} is not a location of this grid")
        row = self._parse(m.group(row_group), self.v_type)
        col = self._parse(m.group(col_group), self.h_type)
        return self._center_point(i32(col - self.h_off), i32(row - self.v_off))


def _check_geometry(grid, x: int | None = None, y: int | None = None) -> None:
    """VASSAL turns degenerate grids and out-of-range points into junk names; vlog refuses them."""
    if not (math.isfinite(grid.dx) and math.isfinite(grid.dy)) or grid.dx == 0 or grid.dy == 0:
        raise LocationError(f"grid spacing dx={grid.dx}, dy={grid.dy} cannot name locations")
    if x is not None and not (_INT_MIN <= x <= _INT_MAX and _INT_MIN <= y <= _INT_MAX):
        raise LocationError(f"point ({x}, {y}) is outside Java's int range")


def _container_size(size: tuple[int, int] | None) -> tuple[int, int]:
    if size is None:
        raise LocationError("descending numbering needs the board size, which is unknown")
    return size


@dataclass
class HexGridNumbering(RegularGridNumbering):
    """HexGridNumbering (and ObliqueHexGridNumbering when `oblique`), bound to its HexGrid."""

    stagger: bool = True
    oblique: bool = False
    grid: "HexGrid | None" = field(default=None, repr=False, compare=False)

    def _max_rows(self) -> int:
        g = self.grid
        return jint(math.floor(_container_size(g.size)[1] / g.dx + 0.5))

    def _max_columns(self) -> int:
        g = self.grid
        return jint(math.floor(_container_size(g.size)[0] / g.dy + 0.5))

    def _column(self, x: int, y: int) -> int:
        g = self.grid
        c = g.raw_column(x, y)
        if self.v_descend and g.sideways:
            c = self._max_rows() - c
        if self.h_descend and not g.sideways:
            c = self._max_columns() - c
        return c

    def _hex_row(self, x: int, y: int) -> int:
        g = self.grid
        ny = g.raw_row(x, y)
        if self.v_descend and not g.sideways:
            ny = self._max_rows() - ny
        if self.h_descend and g.sideways:
            ny = self._max_columns() - ny
        if self.stagger and jmod(g.raw_column(x, y), 2) != 0:
            if (self.h_descend if g.sideways else self.v_descend):
                ny -= 1
            else:
                ny += 1
        return ny

    def _row(self, x: int, y: int) -> int:
        row = self._hex_row(x, y)
        if self.oblique:  # ObliqueHexGridNumbering.slantRow (Java int division)
            col = self._column(x, y)
            return jdiv(col, 2) + row if self.stagger else row - jdiv(col, 2) + 1
        return row

    def _center_point(self, col: int, row: int) -> tuple[int, int]:
        g = self.grid
        if self.stagger and jmod(col, 2) != 0:
            if (self.h_descend if g.sideways else self.v_descend):
                row = i32(row + 1)
            else:
                row = i32(row - 1)
        if g.sideways:
            if self.v_descend:
                col = i32(self._max_rows() - col)
            if self.h_descend:
                row = i32(self._max_columns() - row)
        else:
            if self.h_descend:
                col = i32(self._max_columns() - col)
            if self.v_descend:
                row = i32(self._max_rows() - row)
        px = i32(jint(col * g.dx) + g.x0)
        py = i32((jint(row * g.dy) if jmod(col, 2) == 0 else jint(row * g.dy + g.dy / 2)) + g.y0)
        return (py, px) if g.sideways else (px, py)


@dataclass
class SquareGridNumbering(RegularGridNumbering):
    """SquareGridNumbering, bound to its SquareGrid."""

    grid: "SquareGrid | None" = field(default=None, repr=False, compare=False)

    def _max_rows(self) -> int:
        return jint(_container_size(self.grid.size)[1] / self.grid.dy + 0.5)

    def _max_columns(self) -> int:
        return jint(_container_size(self.grid.size)[0] / self.grid.dx + 0.5)

    def _column(self, x: int, y: int) -> int:
        col = jint(math.floor((x - self.grid.x0) / self.grid.dx + 0.5))
        return self._max_columns() - col if self.h_descend else col

    def _row(self, x: int, y: int) -> int:
        row = jint((y - self.grid.y0) / self.grid.dy + 0.5)
        return self._max_rows() - row if self.v_descend else row

    def _center_point(self, col: int, row: int) -> tuple[int, int]:
        if self.v_descend:
            row = i32(self._max_rows() - row)
        if self.h_descend:
            col = i32(self._max_columns() - col)
        g = self.grid
        return jint(col * g.dx + g.x0), jint(row * g.dy + g.y0)


# ---------------------------------------------------------------------------------- hex grid

_OFFSETS_EVEN = ((-1, -1), (-1, 0), (1, -1), (1, 0))
_OFFSETS_ODD = ((-1, 0), (-1, 1), (1, 0), (1, 1))


class _Numbered:
    """A regular grid and its numbering, which needs its grid back to name points."""

    numbering: RegularGridNumbering | None

    def __post_init__(self) -> None:
        if self.numbering is not None:
            self.numbering.grid = self

    def set_numbering(self, numbering: RegularGridNumbering | None) -> None:
        self.numbering = numbering
        if numbering is not None:
            numbering.grid = self


@dataclass
class HexGrid(_Numbered):
    """HexGrid: geometry, snapping (3.7+ `hexPoint`) and naming through its numbering.

    `size` is the container's pixel size (board, or the zone's bounding box) that descending
    numbering counts from; None when unknown.
    """

    dx: float = math.sqrt(3) / 2.0 * 64.0
    dy: float = 64.0
    x0: int = 0
    y0: int = 32
    sideways: bool = False
    snap_to: bool = True
    edges_legal: bool = False
    corners_legal: bool = False
    snap_scale: int = 0
    visible: bool = False
    numbering: HexGridNumbering | None = None
    size: tuple[int, int] | None = None

    def _rot(self, x: int, y: int) -> tuple[int, int]:
        return (y, x) if self.sideways else (x, y)

    def raw_column(self, x: int, y: int) -> int:
        x, y = self._rot(x, y)
        return jint(math.floor((x - self.x0) / self.dx + 0.5))

    def raw_row(self, x: int, y: int) -> int:
        x, y = self._rot(x, y)
        nx = jint(jround((x - self.x0) / self.dx))
        if jmod(nx, 2) == 0:
            return jint(jround((y - self.y0) / self.dy))
        return jint(jround((y - self.y0 - self.dy / 2) / self.dy))

    def location_name(self, x: int, y: int) -> str | None:
        _check_geometry(self, x, y)
        return None if self.numbering is None else self.numbering.location_name(x, y)

    def center_of(self, name: str) -> tuple[int, int]:
        if self.numbering is None:
            raise LocationError("this hex grid has no numbering, so its locations have no names")
        _check_geometry(self)
        return self.numbering.center_of(name)

    # -- snapping
    def _center_from_raw(self, nx: int, ny: int) -> tuple[int, int]:
        x = jint(self.dx * nx + self.x0)
        if jmod(nx, 2) == 0:
            return x, jint(self.dy * ny + self.y0)
        return x, jint(self.dy * ny + jint(self.dy / 2) + self.y0)

    def _hex_outline(self, cx: int, cy: int) -> tuple[list[int], list[int]]:
        x, y, fdx, fdy = _f32(cx), _f32(cy), _f32(self.dx), _f32(self.dy)
        r = _f32(_f32(2.0 * fdx) / 3.0)
        hr = _f32(0.5 * r)
        hdy = _f32(0.5 * fdy)
        x1, x2, x3, x4 = jround(_f32(x - r)), jround(_f32(x - hr)), jround(_f32(x + hr)) + 1, jround(_f32(x + r)) + 1
        ym, yt, yb = jround(y), jround(_f32(y - hdy)), jround(_f32(y + hdy)) + 1
        return [x1, x2, x3, x4, x3, x2, x1], [ym, yt, yt, ym, yb, yb, ym]

    def _hex_point(self, x: int, y: int) -> tuple[int, int]:
        nx = jint(math.floor((x - self.x0 + self.dx / 2) / self.dx))
        if jmod(nx, 2) == 0:
            ny = jint(math.floor((y - self.y0 + self.dy / 2) / self.dy))
        else:
            ny = jint(math.floor((y - self.y0) / self.dy))
        xl, yl = self._center_from_raw(nx, ny)
        if not polygon_contains(*self._hex_outline(xl, yl), x, y):
            for ox, oy in (_OFFSETS_EVEN if jmod(nx, 2) == 0 else _OFFSETS_ODD):
                c = self._center_from_raw(nx + ox, ny + oy)
                if polygon_contains(*self._hex_outline(*c), x, y):
                    xl, yl = c
                    break
        if self.snap_scale > 0:
            s = self.snap_scale
            xl += self._scaled_delta(x - xl, self.dx, s)
            yl += self._scaled_delta(y - yl, self.dy, s)
        return xl, yl

    @staticmethod
    def _scaled_delta(delta: int, d: float, s: int) -> int:
        delta = jint(jround(delta / (0.5 * d / s)))
        delta = min(max(delta, 1 - s), s - 1)
        return jint(jround(delta * 0.5 * d / s))

    def snap_to_hex(self, x: int, y: int) -> tuple[int, int]:
        return self._rot(*self._hex_point(*self._rot(x, y)))

    def _side(self, x: int, y: int) -> tuple[int, int]:
        dx, dy, x0, y0 = self.dx, self.dy, self.x0, self.y0
        sx = jint(dx / 2 * jint(math.floor((x - x0 + dx / 4) * 2 / dx)) + x0)
        nx = jint(math.floor((x - x0 + dx / 4) * 2 / dx))
        if jmod(nx, 2) == 0:
            sy = jint(dy / 2 * jint(math.floor((y - y0 + dy / 4) * 2 / dy)) + y0)
        else:
            sy = jint((dy / 2) * jint(math.floor((y - y0) * 2 / dy)) + jint(dy / 4) + y0)
        return sx, sy

    def _vertex(self, x: int, y: int) -> tuple[int, int]:
        dx, dy, x0, y0 = self.dx, self.dy, self.x0, self.y0
        ny = jint(math.floor((y - y0 + dy / 4) * 2 / dy))
        if jmod(ny, 2) == 0:
            vx = jint(2 * dx / 3 * jint(math.floor(x - x0 + dx / 3) * 3 / (2 * dx)) + x0)
        else:
            vx = jint(2 * dx / 3 * jint(math.floor(x - x0 + dx / 3 + dx / 3) * 3 / (2 * dx)) - jint(dx / 3) + x0)
        vy = jint(dy / 2 * jint(math.floor((y - y0 + dy / 4) * 2 / dy)) + y0)
        return vx, vy

    def _snap_special(self, x: int, y: int, fn: Callable[[int, int], tuple[int, int]]) -> tuple[int, int]:
        px, py = self._rot(x, y)
        sx, sy = fn(px, py)
        if self.snap_scale > 0:
            hx, hy = self._hex_point(px, py)
            if abs(px - hx) + abs(py - hy) <= abs(px - sx) + abs(py - sy):
                sx, sy = hx, hy
        return self._rot(sx, sy)

    @staticmethod
    def _check_center(center: tuple[int, int], target: tuple[int, int]) -> tuple[int, int]:
        dx, dy = center[0] - target[0], center[1] - target[1]
        return center if dx * dx + dy * dy <= 2 else target

    def snap(self, x: int, y: int, *, force: bool = False, center_only: bool = False) -> tuple[int, int]:
        """`snapTo(p, force, centerOnly)`: hex centre, or hexside/vertex when those are legal."""
        if not self.snap_to and not force:
            return x, y
        _check_geometry(self, x, y)
        center = self.snap_to_hex(x, y)
        if center_only:
            return center
        if self.edges_legal and self.corners_legal:
            edge = self._snap_special(x, y, self._side)
            vertex = self._snap_special(x, y, self._vertex)
            de = (x - edge[0]) ** 2 + (y - edge[1]) ** 2
            dv = (x - vertex[0]) ** 2 + (y - vertex[1]) ** 2
            return self._check_center(center, edge if de < dv else vertex)
        if self.edges_legal:
            return self._check_center(center, self._snap_special(x, y, self._side))
        if self.corners_legal:
            return self._check_center(center, self._snap_special(x, y, self._vertex))
        return center


# ---------------------------------------------------------------------------------- square grid

@dataclass
class SquareGrid(_Numbered):
    """SquareGrid: snapping to centres (edges/corners when legal) and naming via its numbering."""

    dx: float = 48.0
    dy: float = 48.0
    x0: int = 24
    y0: int = 24
    snap_to: bool = True
    edges_legal: bool = False
    corners_legal: bool = False
    snap_scale: int = 0
    range: str = "Metric"
    visible: bool = False
    numbering: SquareGridNumbering | None = None
    size: tuple[int, int] | None = None

    def location_name(self, x: int, y: int) -> str | None:
        _check_geometry(self, x, y)
        return None if self.numbering is None else self.numbering.location_name(x, y)

    def center_of(self, name: str) -> tuple[int, int]:
        if self.numbering is None:
            raise LocationError("this square grid has no numbering, so its locations have no names")
        _check_geometry(self)
        return self.numbering.center_of(name)

    def snap(self, x: int, y: int, *, force: bool = False, center_only: bool = False) -> tuple[int, int]:
        """`snapTo(p, force, onlyCenter)` as in SquareGrid.java (half-cell lattice)."""
        if not self.snap_to and not force:
            return x, y
        _check_geometry(self, x, y)
        dx, dy = self.dx, self.dy
        ox, oy = x - self.x0, y - self.y0
        nx = jint(jround(ox / (0.5 * dx)))
        ny = jint(jround(oy / (0.5 * dy)))
        if not self.corners_legal or not self.edges_legal:
            if self.corners_legal and not center_only:
                if jmod(ny, 2) == 0:
                    nx = 2 * jint(jround(ox / dx))
                else:
                    nx = 1 + 2 * jint(jround(ox / dx - 0.5))
            elif self.edges_legal and not center_only:
                if jmod(ny, 2) == 0:
                    if jmod(nx, 2) == 0:
                        nx = 2 * jint(jround(ox / dx))
                else:
                    nx = 2 * jint(jround(ox / dx))
            else:
                nx = 2 * jint(jround(ox / dx))
                ny = 2 * jint(jround(oy / dy))
                if self.snap_scale > 0:
                    s = self.snap_scale
                    ddx = HexGrid._scaled_delta(ox - jint(jround(nx * dx / 2)), dx, s)
                    ddy = HexGrid._scaled_delta(oy - jint(jround(ny * dy / 2)), dy, s)
                    return (jint(jround(nx * dx / 2 + ddx)) + self.x0, jint(jround(ny * dy / 2 + ddy)) + self.y0)
        return self.x0 + jint(jround(nx * dx / 2)), self.y0 + jint(jround(ny * dy / 2))


# ---------------------------------------------------------------------------------- region grid

def _double_bits(v: float) -> int:
    return struct.unpack(">q", struct.pack(">d", v))[0]


def _point_hash(x: int, y: int) -> int:
    """`java.awt.Point.hashCode()` (Point2D's), then `HashMap.hash` spreading."""
    bits = _double_bits(float(x))
    bits ^= (_double_bits(float(y)) * 31) & 0xFFFFFFFFFFFFFFFF
    bits &= 0xFFFFFFFFFFFFFFFF
    h = i32(bits) ^ i32(bits >> 32)
    h &= 0xFFFFFFFF
    return h ^ (h >> 16)


@dataclass
class Region:
    """A named point of a RegionGrid (`name`, `originx`, `originy`)."""

    name: str
    x: int = 0
    y: int = 0


@dataclass
class RegionGrid:
    """RegionGrid: named points; a point is named after the nearest region origin.

    Regions live in a `HashMap<Point, Region>` in VASSAL: a later region at the same origin
    replaces an earlier one, and ties in distance go to the first origin in HashMap order, which
    is reproduced here (except for tree bins, which need 9+ colliding origins in one bucket).
    """

    regions: list[Region] = field(default_factory=list)
    snap_to: bool = True
    visible: bool = False
    font_size: int = 9
    size: tuple[int, int] | None = None
    _ordered: list[Region] | None = field(default=None, init=False, repr=False, compare=False)
    _count: int = field(default=-1, init=False, repr=False, compare=False)

    def add(self, region: Region) -> None:
        self.regions.append(region)
        self._ordered = None

    def hash_order(self) -> list[Region]:
        """The regions as `regionList.values()` iterates them."""
        if self._ordered is not None and len(self.regions) == self._count:
            return self._ordered
        cap, threshold = 16, 12
        entries: dict[tuple[int, int], list] = {}  # origin -> [hash, seq, region]
        per_bucket: dict[int, int] = {}             # bucket at the current capacity -> entries in it
        seq = 0
        for r in self.regions:
            key = (r.x, r.y)
            if key in entries:
                entries[key][2] = r
                continue
            h = _point_hash(*key)
            entries[key] = [h, seq, r]
            seq += 1
            chain = per_bucket[h & (cap - 1)] = per_bucket.get(h & (cap - 1), 0) + 1
            grown = cap
            if chain >= 9 and cap < 64:
                cap *= 2
                threshold = int(cap * 0.75)
            if len(entries) > threshold:
                cap *= 2
                threshold = int(cap * 0.75)
            if cap != grown:                        # a resize: count the buckets again
                per_bucket = {}
                for e in entries.values():
                    per_bucket[e[0] & (cap - 1)] = per_bucket.get(e[0] & (cap - 1), 0) + 1
        ordered = sorted(entries.values(), key=lambda e: (e[0] & (cap - 1), e[1]))
        self._ordered = [e[2] for e in ordered]
        self._count = len(self.regions)
        return self._ordered

    def _nearest(self, x: int, y: int) -> Region | None:
        best, best_d = None, math.inf
        for r in self.hash_order():
            d = i32(i32((x - r.x) * (x - r.x)) + i32((y - r.y) * (y - r.y)))
            if d < best_d:
                best, best_d = r, d
        return best

    def location_name(self, x: int, y: int) -> str | None:
        r = self._nearest(x, y)
        return None if r is None else r.name

    def snap(self, x: int, y: int, *, force: bool = False, center_only: bool = False) -> tuple[int, int]:
        if (not self.snap_to and not force) or not self.regions:
            return x, y
        r = self._nearest(x, y)
        return (x, y) if r is None else (r.x, r.y)

    def find_region(self, name: str) -> Region | None:
        for r in self.hash_order():
            if r.name == name:
                return r
        return None

    def center_of(self, name: str) -> tuple[int, int]:
        r = self.find_region(name)
        if r is None:
            raise LocationError(f"no region named {name!r}")
        return r.x, r.y


# ---------------------------------------------------------------------------------- zoned grid

_JAVA_DOT_STAR = "[^\n\r\u0085\u2028\u2029]*"


@dataclass
class Zone:
    """A Zone of a ZonedGrid: a polygon, a location format and optionally its own grid."""

    name: str = ""
    location_format: str = "$name$"
    path: str = ""
    use_parent_grid: bool = False
    use_highlight: bool = False
    highlight_property: str = ""
    grid: "HexGrid | SquareGrid | RegionGrid | None" = None
    parent: "ZonedGrid | None" = field(default=None, repr=False, compare=False)
    lookup: PropertyLookup | None = field(default=None, repr=False, compare=False)
    points: list[tuple[int, int]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.points = parse_polygon(self.path)
        self._xs = [p[0] for p in self.points]
        self._ys = [p[1] for p in self.points]
        if self.grid is not None:
            self.grid.size = self.bounds_size()

    def set_grid(self, grid) -> None:
        """Attach the zone's own grid; its container size is the polygon's bounding box."""
        self.grid = grid
        if grid is not None:
            grid.size = self.bounds_size()

    def bounds_size(self) -> tuple[int, int]:
        """`Polygon.getBounds().getSize()`: the container size for the zone's own grid."""
        if not self.points:
            return 0, 0
        return max(self._xs) - min(self._xs), max(self._ys) - min(self._ys)

    def active_grid(self):
        """`getGrid()`: the background grid when `useParentGrid`, else the zone's own."""
        if self.use_parent_grid:
            return self.parent.background if self.parent is not None else None
        return self.grid

    def contains(self, x: float, y: float) -> bool:
        return polygon_contains(self._xs, self._ys, x, y)

    def location_name(self, x: int, y: int) -> str:
        g = self.active_grid()
        grid_location = g.location_name(x, y) if g is not None else None
        props = {"name": self.name, "gridLocation": grid_location}
        return evaluate_format(self.location_format, props, localized=False, lookup=self.lookup)

    def center_of(self, location: str) -> tuple[int, int]:
        """`Zone.getLocation`: match the format; the grid part goes to the zone's grid."""
        regex: list[str] = []
        count = 0
        g = self.active_grid()
        tokens = split(self.location_format, "$")
        is_property = True
        last = len(tokens) - 1
        for i, token in enumerate(tokens):
            is_property = not is_property
            if not token:
                continue
            if not is_property or i == last:
                regex.append(re.escape(token))
            elif token == "name":
                regex.append(re.escape(self.name))
            elif token == "gridLocation" and g is not None:
                regex.append("(" + _JAVA_DOT_STAR + ")")
                count += 1
        if not regex:
            raise LocationError(f"zone {self.name!r}: its location format matches nothing")
        m = re.fullmatch("".join(regex), location)
        if not m:
            raise LocationError(f"{location!r} is not a location of zone {self.name!r}")
        if count > 0:
            p = g.center_of(m.group(count))
            if not self.contains(*p):
                raise LocationError(f"{location!r} lies outside zone {self.name!r}")
            return p
        if not self.points:
            return 0, 0
        n = len(self.points)
        px, py = jdiv(i32(sum(self._xs)), n), jdiv(i32(sum(self._ys)), n)
        if not self.contains(px, py):
            return self.points[0]
        return px, py

    def snap(self, x: int, y: int, *, force: bool = False, center_only: bool = False) -> tuple[int, int]:
        g = self.active_grid()
        return (x, y) if g is None else g.snap(x, y, force=force, center_only=center_only)


@dataclass
class ZonedGrid:
    """ZonedGrid: the first zone (file order) containing a point names it, else the background grid."""

    zones: list[Zone] = field(default_factory=list)
    background: "HexGrid | SquareGrid | RegionGrid | None" = None
    size: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        for z in self.zones:
            z.parent = self
        if self.background is not None:
            self.background.size = self.size

    def set_size(self, size: tuple[int, int] | None) -> None:
        """The board size, which a background grid's descending numbering counts from."""
        self.size = size
        if self.background is not None:
            self.background.size = size

    def set_background(self, grid) -> None:
        self.background = grid
        if grid is not None:
            grid.size = self.size

    def add_zone(self, zone: Zone) -> None:
        zone.parent = self
        self.zones.append(zone)

    def find_zone(self, x: float, y: float) -> Zone | None:
        for z in self.zones:
            if z.contains(x, y):
                return z
        return None

    def location_name(self, x: int, y: int) -> str | None:
        z = self.find_zone(x, y)
        name = z.location_name(x, y) if z is not None else None
        if name is None and self.background is not None:
            name = self.background.location_name(x, y)
        return name

    def center_of(self, location: str) -> tuple[int, int]:
        for z in self.zones:
            try:
                p = z.center_of(location)
            except _NumberFormat:
                raise
            except LocationError:
                continue
            if z.contains(*p):
                return p
        if self.background is not None:
            return self.background.center_of(location)
        raise LocationError(f"no zone or background grid places {location!r}")

    def region_location(self, name: str) -> tuple[int, int] | None:
        """`getRegionLocation`: a region name in a zone's RegionGrid (SetupStack's fallback)."""
        for z in self.zones:
            g = z.active_grid()
            if isinstance(g, RegionGrid):
                r = g.find_region(name)
                if r is not None and z.contains(r.x, r.y):
                    return r.x, r.y
        return None

    def snap(self, x: int, y: int, *, force: bool = False, center_only: bool = False) -> tuple[int, int]:
        z = self.find_zone(x, y)
        if z is not None:
            return z.snap(x, y, force=force, center_only=center_only)
        if self.background is not None:
            return self.background.snap(x, y, force=force, center_only=center_only)
        return x, y


# ---------------------------------------------------------------------------------- boards on a map

@dataclass
class PlacedBoard:
    """A board as laid out on a map: its grid, size, place in the board array and pixel origin."""

    name: str
    width: int
    height: int
    grid: object | None = None
    column: int = 0
    row: int = 0
    reversed: bool = False
    x: int = 0
    y: int = 0

    def contains(self, x: int, y: int) -> bool:
        """`Rectangle.contains`: left/top edges in, right/bottom out, empty boards contain nothing."""
        return self.width > 0 and self.height > 0 and self.x <= x < self.x + self.width and self.y <= y < self.y + self.height

    def local(self, x: int, y: int) -> tuple[int, int]:
        """`Board.localCoordinates` of a map point (reversed boards turn 180 degrees)."""
        lx, ly = x - self.x, y - self.y
        if self.reversed:
            lx, ly = self.width - lx, self.height - ly
        return lx, ly

    def to_map(self, lx: int, ly: int) -> tuple[int, int]:
        """`Board.globalCoordinates` plus the board origin."""
        if self.reversed:
            lx, ly = self.width - lx, self.height - ly
        return lx + self.x, ly + self.y


def layout_boards(boards: Iterable[PlacedBoard], edge_width: int = 0, edge_height: int = 0) -> list[PlacedBoard]:
    """`Map.setBoardBoundaries`: x = edge + widths left in the same row; y = edge + heights above."""
    boards = list(boards)
    widths: dict[tuple[int, int], int] = {}
    heights: dict[tuple[int, int], int] = {}
    for b in boards:
        widths[(b.column, b.row)] = b.width
        heights[(b.column, b.row)] = b.height
    for b in boards:
        b.x = sum(widths.get((c, b.row), 0) for c in range(b.column)) + edge_width
        b.y = sum(heights.get((b.column, r), 0) for r in range(b.row)) + edge_height
    return boards


def find_board(boards: Sequence[PlacedBoard], x: int, y: int) -> PlacedBoard | None:
    """`Map.findBoard`: the first board whose bounds contain the point."""
    for b in boards:
        if b.contains(x, y):
            return b
    return None


def map_location_name(boards: Sequence[PlacedBoard], x: int, y: int,
                      decks: Sequence[tuple[str, int, int]] = ()) -> str:
    """`Map.locationName`: a deck exactly there, else the board's grid name, else "offboard"."""
    for name, dx, dy in decks:
        if (dx, dy) == (x, y):
            return name
    b = find_board(boards, x, y)
    loc = None
    if b is not None and b.grid is not None:
        loc = b.grid.location_name(*b.local(x, y))
    return OFFBOARD if loc is None else loc


def map_location_center(boards: Sequence[PlacedBoard], name: str) -> tuple[int, int]:
    """The map point of a location name: the first board (layout order) whose grid places it."""
    errors = []
    for b in boards:
        if b.grid is None:
            continue
        try:
            return b.to_map(*b.grid.center_of(name))
        except LocationError as e:
            errors.append(f"{b.name}: {e.message}")
    raise LocationError(f"no board places {name!r}" + (f" ({'; '.join(errors)})" if errors else ""))
