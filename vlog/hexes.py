"""Hex geometry for the four games: printed 4-digit names, neighbours, distance, lines, hexsides.

Public API (everything else is private)::

    Hex(col, row)                       hashable value: the printed column and row numbers
    Hexside(low, high)                  hashable, order-free pair of adjacent hexes (low < high)
    LineStep = tuple[Hex] | tuple[Hex, Hex]   one hex, or the two hexes whose common side a line runs along
    Sightline(steps, crossed, along)    exact centre-to-centre line: see HexLayout.sightline
    HexLayout                           one game's grid (frozen dataclass), methods:
        parse(name, *, file=None, where=None) -> Hex       strict "CCRR" -> Hex (GameDataError)
        name(hex_or_side) -> str                            Hex -> "1307", Hexside -> "1307/1308"
        parse_hexside(text, *, file=None, where=None) -> Hexside    "1307/1308" (either order)
        on_map(h) -> bool                                   nameable and inside the bounds, if any
        neighbours(h) -> tuple[Hex, ...]                    the 6 geometric neighbours, index = direction
        neighbours_on_map(h) -> tuple[Hex, ...]             those of them that are on the map
        direction(a, b) -> int                              0..5, a and b adjacent (GameDataError if not)
        direction_names -> tuple[str, ...]                  FLAT_DIRECTIONS or POINTY_DIRECTIONS
        distance(a, b) -> int                               range count: target hex counted, origin not
        axial(h) -> (q, r); from_axial(q, r) -> Hex
        ring(h, r) -> tuple[Hex, ...]                       6r hexes (1 when r == 0), geometric
        within(h, r) -> tuple[Hex, ...]                     every hex at distance <= r, geometric
        line(a, b) -> tuple[LineStep, ...]                  distance+1 steps, the usual hex trace
        sightline(a, b) -> Sightline                        every hex the segment passes through
        los_blocked(a, b, blocks) -> bool                   the game's own line-of-sight policy
        hexside(a, b) -> Hexside                            GameDataError unless adjacent
        hexsides_of(h) -> tuple[Hexside, ...]               6, in direction order
    LAYOUTS: dict[str, HexLayout]       "lion-of-judah", "island-of-death", "ascari", "sideshow"

Conventions.  A name is CCRR: the first `col_digits` digits are the column, the rest the row,
as printed (leading zeros kept).  Geometry is that of the map as printed, with column numbers
growing to the right and row numbers downwards.  Flat-topped layouts ("flat") have vertical
columns; the columns whose number has parity `shifted` sit half a hex lower (toward higher row
numbers) than the others; directions are 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW (clockwise, N = same
column, row - 1).  Pointy-topped layouts ("pointy") have horizontal rows; the rows of parity
`shifted` sit half a hex to the right; directions are 0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW.
Direction d + 3 (mod 6) is the opposite of d, which is what "directly opposite" (Lion of Judah
12.9) means.  Internally every hex is converted to axial/cube coordinates (q, r, s = -q - r).

The neighbours/ring/within/line functions are purely geometric and also return hexes off the
map (even negative coordinates, which have no name); filter them with `on_map`, or use
`neighbours_on_map`, which is what a movement search wants.  Neighbour tuples are cached;
radii and line lengths beyond what two nameable hexes can be apart raise GameDataError.

Lines.  `line(a, b)` samples the segment between the two hex centres at each of distance(a, b)+1
equal steps: every step is one hex, or a PAIR when the segment runs exactly along a hexside.
This is the classic trace; it is NOT the set of every hex the segment passes through: where it
crosses a hexside exactly at the midpoint of that side the trace keeps one of the two hexes, and
(from distance 7 on) a segment passing close to a corner clips a small part of a hex that no
sample lands in.  Rules that say the line "passes through any part of any hex" (Island of Death
16.54; Ascari 4.2 "through a hex") need `sightline(a, b)`, which is exact
(integer/rational arithmetic, no floating point): its steps are every hex whose interior the
segment enters, in order, with a PAIR where the segment runs along a hexside, and a hex the
segment only touches at a corner point is not listed.

Line-of-sight policy when the segment runs along a hexside (`los_straddle`):
  "both"   blocked only if the hexes on both sides block (Ascari 4.2; Island of Death 16.54);
  "either" blocked if either side blocks (no game here uses it);
  None     the rulebook has no line-of-sight rule (Lion of Judah, Sideshow).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Literal, NamedTuple, Union

from vlog.errors import GameDataError

__all__ = [
    "Hex",
    "Hexside",
    "LineStep",
    "Sightline",
    "HexLayout",
    "LAYOUTS",
    "FLAT_DIRECTIONS",
    "POINTY_DIRECTIONS",
]


class Hex(NamedTuple):
    """A hex by its printed column and row numbers (1307 -> Hex(13, 7)); a tuple, so cheap to hash."""

    col: int
    row: int


class Hexside(NamedTuple):
    """The side shared by two adjacent hexes, stored in sorted order so (a, b) == (b, a)."""

    low: Hex
    high: Hex


LineStep = Union[tuple[Hex], tuple[Hex, Hex]]


class Sightline(NamedTuple):
    """The exact centre-to-centre segment from `steps[0][0]` to `steps[-1][0]`.

    `steps`: every hex whose interior the segment enters, in order from a to b (a and b
    included), a 2-tuple where the segment runs along the side of those two hexes.
    `crossed`: the hexsides the segment crosses, in order (between consecutive one-hex steps;
    when it passes exactly through a corner, the side between the hex it leaves and the hex it
    enters).  `along`: the hexsides it runs along (one per pair step).
    """

    steps: tuple[LineStep, ...]
    crossed: tuple[Hexside, ...]
    along: tuple[Hexside, ...]


FLAT_DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
POINTY_DIRECTIONS = ("NE", "E", "SE", "SW", "W", "NW")

# Axial (dq, dr) per direction.  Flat-top: q grows to the right, r grows downwards along a column.
_FLAT_AXIAL = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
# Pointy-top: r grows downwards, q grows to the right along a row.
_POINTY_AXIAL = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))

_CACHE = 1 << 16


@dataclass(frozen=True)
class HexLayout:
    """One game's hex grid: how names split, how columns or rows are staggered, optional bounds.

    `orientation`: "flat" = flat-topped hexes in vertical columns; "pointy" = pointy-topped hexes
    in horizontal rows.  `shifted`: parity ("odd"/"even") of the column (flat) or row (pointy)
    numbers that sit half a hex lower (flat) or further right (pointy).  `cols`/`rows`: inclusive
    (first, last) printed numbers of one map, None when the layout is not tied to a map.
    `los_straddle`: see the module docstring.  `source`: the rulebook evidence, for readers.
    """

    game: str
    orientation: Literal["flat", "pointy"]
    shifted: Literal["odd", "even"]
    col_digits: int = 2
    row_digits: int = 2
    cols: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None
    los_straddle: Literal["both", "either"] | None = None
    source: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.orientation not in ("flat", "pointy"):
            raise GameDataError(f"hex layout {self.game!r}: orientation must be 'flat' or 'pointy'")
        if self.shifted not in ("odd", "even"):
            raise GameDataError(f"hex layout {self.game!r}: shifted must be 'odd' or 'even'")
        if self.los_straddle not in ("both", "either", None):
            raise GameDataError(f"hex layout {self.game!r}: los_straddle must be 'both', 'either' or None")
        if not (1 <= self.col_digits <= 4 and 1 <= self.row_digits <= 4):
            raise GameDataError(f"hex layout {self.game!r}: 1 to 4 digits for column and row")
        for label, span, digits in (("cols", self.cols, self.col_digits), ("rows", self.rows, self.row_digits)):
            if span is not None:
                lo, hi = span
                if not (0 <= lo <= hi < 10**digits):
                    raise GameDataError(f"hex layout {self.game!r}: bad {label} bounds {span}")
        flat = self.orientation == "flat"
        odd = self.shifted == "odd"
        dirs = _FLAT_AXIAL if flat else _POINTY_AXIAL
        # Neighbour deltas in printed (col, row) terms depend only on the parity of the staggered axis.
        deltas = {}
        for parity in (0, 1):
            base = Hex(2 + parity, 2 + parity)
            q, r = _to_axial(base, flat, odd)
            deltas[parity] = tuple(
                (h.col - base.col, h.row - base.row)
                for h in (_from_axial(q + dq, r + dr, flat, odd) for dq, dr in dirs)
            )
        pattern = re.compile(rf"[0-9]{{{self.col_digits}}}[0-9]{{{self.row_digits}}}", re.ASCII)
        put = object.__setattr__
        put(self, "_flat", flat)
        put(self, "_odd", odd)
        put(self, "_dirs", dirs)
        put(self, "_deltas", deltas)
        put(self, "_pattern", pattern)
        put(self, "_direction_of", {d: i for i, d in enumerate(dirs)})

        put(self, "_span", 10**self.col_digits + 10**self.row_digits)
        # Per-instance caches shadow the methods of the same name (the movement search calls
        # neighbours millions of times; a cache hit is one dict lookup).
        cls = type(self)
        put(self, "neighbours", lru_cache(maxsize=_CACHE)(cls.neighbours.__get__(self, cls)))
        put(self, "neighbours_on_map", lru_cache(maxsize=_CACHE)(cls.neighbours_on_map.__get__(self, cls)))
        put(self, "sightline", lru_cache(maxsize=4096)(self._sightline))
        put(self, "distance", _distance_function(flat, odd))

    # ----- names -------------------------------------------------------------------------------

    @property
    def direction_names(self) -> tuple[str, ...]:
        """Names of directions 0..5 for this orientation."""
        return FLAT_DIRECTIONS if self.orientation == "flat" else POINTY_DIRECTIONS

    def parse(self, name: str, *, file: str | None = None, where: str | None = None) -> Hex:
        """The hex a printed name such as "1307" denotes; anything else raises GameDataError."""
        if not isinstance(name, str) or self._pattern.fullmatch(name) is None:  # type: ignore[attr-defined]
            shown = repr(name)[:40]
            width = self.col_digits + self.row_digits
            raise GameDataError(f"{self.game}: hex name {shown} is not {width} digits", file=file, where=where)
        h = Hex(int(name[: self.col_digits]), int(name[self.col_digits :]))
        if not self.on_map(h):
            raise GameDataError(f"{self.game}: hex {name} is off the map {self._bounds_text()}", file=file, where=where)
        return h

    def name(self, item: Hex | Hexside) -> str:
        """The printed name of a hex ("0904") or of a hexside ("1307/1308")."""
        if isinstance(item, Hexside):
            return f"{self.name(item.low)}/{self.name(item.high)}"
        c, r = item
        if not (0 <= c < 10**self.col_digits and 0 <= r < 10**self.row_digits):
            raise GameDataError(f"{self.game}: hex {tuple(item)} has no {self.col_digits + self.row_digits}-digit name")
        return f"{c:0{self.col_digits}d}{r:0{self.row_digits}d}"

    def parse_hexside(self, text: str, *, file: str | None = None, where: str | None = None) -> Hexside:
        """The hexside named "1307/1308" (either order); the two hexes must be adjacent."""
        if not isinstance(text, str) or text.count("/") != 1:
            raise GameDataError(f"{self.game}: hexside {repr(text)[:40]} is not 'CCRR/CCRR'", file=file, where=where)
        left, right = text.split("/")
        a = self.parse(left, file=file, where=where)
        b = self.parse(right, file=file, where=where)
        if b not in self.neighbours(a):  # type: ignore[operator]
            raise GameDataError(f"{self.game}: hexes {left} and {right} are not adjacent", file=file, where=where)
        return Hexside(a, b) if a < b else Hexside(b, a)

    def on_map(self, h: Hex) -> bool:
        """True when the hex has a printed name and lies inside the bounds (if any)."""
        c, r = h
        if self.cols is None:
            if not 0 <= c < 10**self.col_digits:
                return False
        elif not self.cols[0] <= c <= self.cols[1]:
            return False
        if self.rows is None:
            return 0 <= r < 10**self.row_digits
        return self.rows[0] <= r <= self.rows[1]

    def _bounds_text(self) -> str:
        return f"(columns {self.cols}, rows {self.rows})"

    # ----- coordinates -------------------------------------------------------------------------

    def axial(self, h: Hex) -> tuple[int, int]:
        """Axial (q, r) of a hex; cube is (q, r, -q - r)."""
        return _to_axial(h, self._flat, self._odd)  # type: ignore[attr-defined]

    def from_axial(self, q: int, r: int) -> Hex:
        """The hex at axial (q, r)."""
        return _from_axial(q, r, self._flat, self._odd)  # type: ignore[attr-defined]

    # ----- adjacency and distance --------------------------------------------------------------

    # neighbours, neighbours_on_map and sightline are shadowed per instance by cached versions
    # installed in __post_init__; the bodies here say what they compute.

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The six geometric neighbours of h; index i is direction i."""
        c, r = h
        step = self._deltas[(c if self._flat else r) & 1]  # type: ignore[attr-defined]
        return tuple(Hex(c + dc, r + dr) for dc, dr in step)

    def neighbours_on_map(self, h: Hex) -> tuple[Hex, ...]:
        """The neighbours of h that are on the map (`on_map`), in direction order."""
        return tuple(n for n in self.neighbours(h) if self.on_map(n))

    def sightline(self, a: Hex, b: Hex) -> Sightline:
        """The exact segment between the centres of a and b (see `_sightline`)."""
        return self._sightline(a, b)

    def direction(self, a: Hex, b: Hex) -> int:
        """Direction 0..5 from a to its neighbour b."""
        try:
            return self.neighbours(a).index(b)
        except ValueError:
            raise GameDataError(f"{self.game}: {tuple(b)} is not adjacent to {tuple(a)}") from None

    def distance(self, a: Hex, b: Hex) -> int:
        """Hexes counted from a (exclusive) to b (inclusive): the usual range and "within N" count.

        Shadowed per instance by an inlined equivalent (`_distance_function`); the tests check the
        two agree."""
        aq, ar = self.axial(a)
        bq, br = self.axial(b)
        dq, dr = aq - bq, ar - br
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def ring(self, h: Hex, radius: int) -> tuple[Hex, ...]:
        """The hexes at exactly `radius` from h, clockwise; (h,) for radius 0."""
        self._check_span(radius, "ring radius")
        if radius == 0:
            return (h,)
        q, r = self.axial(h)
        dirs = self._dirs  # type: ignore[attr-defined]
        # Start `radius` steps in direction 4, then walk radius steps in each of directions 0..5.
        q += dirs[4][0] * radius
        r += dirs[4][1] * radius
        out = []
        for d in range(6):
            dq, dr = dirs[d]
            for _ in range(radius):
                out.append(self.from_axial(q, r))
                q += dq
                r += dr
        return tuple(out)

    def within(self, h: Hex, radius: int) -> tuple[Hex, ...]:
        """Every hex at distance <= radius from h (h first, then ring by ring)."""
        self._check_span(radius, "range")
        out: list[Hex] = []
        for k in range(radius + 1):
            out.extend(self.ring(h, k))
        return tuple(out)

    def _check_span(self, n: int, what: str) -> None:
        """Refuse negative or absurd sizes: nothing on a map of this naming needs more."""
        if not 0 <= n <= self._span:  # type: ignore[attr-defined]
            raise GameDataError(f"{self.game}: {what} {n} is outside 0..{self._span}")  # type: ignore[attr-defined]

    # ----- hexsides ----------------------------------------------------------------------------

    def hexside(self, a: Hex, b: Hex) -> Hexside:
        """The side shared by adjacent hexes a and b; the same value for (b, a)."""
        if b not in self.neighbours(a):
            raise GameDataError(f"{self.game}: {tuple(b)} is not adjacent to {tuple(a)}")
        return Hexside(a, b) if a < b else Hexside(b, a)

    def hexsides_of(self, h: Hex) -> tuple[Hexside, ...]:
        """The six sides of h, in direction order."""
        return tuple(Hexside(h, n) if h < n else Hexside(n, h) for n in self.neighbours(h))

    # ----- lines -------------------------------------------------------------------------------

    def line(self, a: Hex, b: Hex) -> tuple[LineStep, ...]:
        """The classic trace: distance+1 steps from a to b, a pair where a sample lies on a hexside.

        Exact integer arithmetic: sample i is A + (B - A) * i / n in cube coordinates.  The cube
        coordinate along which B - A is largest is always a whole number at a sample, so a sample
        is never on a corner; it is on a hexside (at its midpoint) exactly when the other two are
        halves.  A pair is returned only when the segment runs along that side; when it crosses
        the side there, the lower of the two hexes (by column, row) stands for the step, and
        `sightline` lists both.
        """
        aq, ar = self.axial(a)
        bq, br = self.axial(b)
        a_s, b_s = -aq - ar, -bq - br
        n = self.distance(a, b)
        self._check_span(n, "line length")
        if n == 0:
            return ((a,),)
        steps: list[LineStep] = []
        dq, dr, ds = bq - aq, br - ar, b_s - a_s
        two_n = 2 * n
        for i in range(n + 1):
            # numerators over n
            xq, xr, xs = aq * n + dq * i, ar * n + dr * i, a_s * n + ds * i
            rq, tq = divmod(2 * xq + n, two_n)
            rr, tr = divmod(2 * xr + n, two_n)
            rs, ts = divmod(2 * xs + n, two_n)
            half_q, half_r, half_s = tq == 0, tr == 0, ts == 0
            if half_q and half_r:
                pair, along = (self.from_axial(rq - 1, rr), self.from_axial(rq, rr - 1)), dq == dr
            elif half_q and half_s:
                pair, along = (self.from_axial(rq - 1, rr), self.from_axial(rq, rr)), dq == ds
            elif half_r and half_s:
                pair, along = (self.from_axial(rq, rr - 1), self.from_axial(rq, rr)), dr == ds
            else:
                # Not on a side: rounding each coordinate lands on a valid cube point.
                steps.append((self.from_axial(rq, rr),))
                continue
            low, high = (pair[0], pair[1]) if pair[0] < pair[1] else (pair[1], pair[0])
            # Running along the side (parallel to it): both.  Crossing it at its midpoint: the
            # segment passes through both, and the trace keeps the lower so line(b, a) mirrors it.
            steps.append((low, high) if along else (low,))
        return tuple(steps)

    def _sightline(self, a: Hex, b: Hex) -> Sightline:
        """Every hex whose interior the segment a-b enters, in order; pairs where it runs along a side.

        The hexagon around centre c is {p : p_i - p_j <= 1 for every i != j} in cube coordinates,
        so for each candidate hex the parameters t in [0, 1] where the segment is inside it form an
        interval found from six linear inequalities.  A positive-length interval along which one
        inequality is an equality means the segment runs along that side; otherwise the segment
        crosses the interior.  Candidates are the trace hexes and their neighbours, which covers
        every hex the segment can reach (it never gets further than half a hex from a trace hex).
        """
        if a == b:
            return Sightline(((a,),), (), ())
        self._check_span(self.distance(a, b), "line length")
        A = self.axial(a)
        B = self.axial(b)
        a3 = (A[0], A[1], -A[0] - A[1])
        d3 = (B[0] - A[0], B[1] - A[1], (-B[0] - B[1]) - a3[2])
        candidates: set[Hex] = set()
        for step in self.line(a, b):
            for h in step:
                candidates.add(h)
                candidates.update(self.neighbours(h))
        inside: list[tuple[Fraction, Fraction, bool, Hex]] = []
        for h in candidates:
            cq, cr = self.axial(h)
            c3 = (cq, cr, -cq - cr)
            lo, hi = Fraction(0), Fraction(1)
            on_side = False
            empty = False
            for i in range(3):
                for j in range(3):
                    if i == j:
                        continue
                    # (a_i - c_i + t d_i) - (a_j - c_j + t d_j) <= 1  ->  alpha t <= beta
                    alpha = d3[i] - d3[j]
                    beta = 1 - (a3[i] - c3[i]) + (a3[j] - c3[j])
                    if alpha == 0:
                        if beta < 0:
                            empty = True
                        elif beta == 0:
                            on_side = True
                    elif alpha > 0:
                        lim = Fraction(beta, alpha)
                        if lim < hi:
                            hi = lim
                    else:
                        lim = Fraction(beta, alpha)
                        if lim > lo:
                            lo = lim
            if empty or hi <= lo:
                continue  # missed, or only a corner point touched
            inside.append((lo, hi, on_side, h))
        inside.sort()
        steps: list[LineStep] = []
        along: list[Hexside] = []
        k = 0
        while k < len(inside):
            lo, hi, on_side, h = inside[k]
            if on_side:
                other = inside[k + 1]
                if not (other[2] and other[0] == lo and other[1] == hi):
                    raise AssertionError("sightline: a side run without its partner hex")  # pragma: no cover
                steps.append((h, other[3]) if h < other[3] else (other[3], h))
                along.append(self.hexside(h, other[3]))
                k += 2
            else:
                steps.append((h,))
                k += 1
        crossed = tuple(
            self.hexside(s[0], t[0]) for s, t in zip(steps, steps[1:]) if len(s) == 1 and len(t) == 1
        )
        return Sightline(tuple(steps), crossed, tuple(along))

    def los_blocked(self, a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
        """Whether the game's line-of-sight rule blocks a -> b, given which hexes block.

        Only hexes strictly between a and b count ("A LOS may enter a hex with blocking terrain",
        Ascari 4.2; "the terrain in the coastal gun's hex or in the target hex does not block",
        Island of Death 16.54).  A one-hex step blocks when `blocks(h)`; a hexside run blocks per
        `los_straddle`.  `blocks` should say True for hexes off the map when the game treats the
        map edge as blocking (Ascari FAQ, Metemma: "the limit of the world").  Hexside features
        (ravines, creeks) are the caller's, from `sightline(a, b).crossed` / `.along`.
        """
        if self.los_straddle is None:
            raise GameDataError(f"{self.game}: the rules have no line-of-sight rule")
        steps = self.sightline(a, b).steps
        need_both = self.los_straddle == "both"
        for step in steps[1:-1]:
            if len(step) == 1:
                if blocks(step[0]):
                    return True
            else:
                p, q = step  # type: ignore[misc]
                if (blocks(p) and blocks(q)) if need_both else (blocks(p) or blocks(q)):
                    return True
        return False


def _distance_function(flat: bool, odd: bool) -> Callable[[Hex, Hex], int]:
    """distance(a, b) with the offset-to-axial conversion inlined (A* calls it per state)."""
    k = -1 if odd else 1

    if flat:

        def distance(a: Hex, b: Hex) -> int:
            ac, ar = a
            bc, br = b
            dq = ac - bc
            dr = (ar - ((ac + k * (ac & 1)) >> 1)) - (br - ((bc + k * (bc & 1)) >> 1))
            return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1

    else:

        def distance(a: Hex, b: Hex) -> int:
            ac, ar = a
            bc, br = b
            dr = ar - br
            dq = (ac - ((ar + k * (ar & 1)) >> 1)) - (bc - ((br + k * (br & 1)) >> 1))
            return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1

    return distance


def _to_axial(h: Hex, flat: bool, odd: bool) -> tuple[int, int]:
    c, r = h
    if flat:
        return c, r - ((c - (c & 1)) // 2 if odd else (c + (c & 1)) // 2)
    return c - ((r - (r & 1)) // 2 if odd else (r + (r & 1)) // 2), r


def _from_axial(q: int, r: int, flat: bool, odd: bool) -> Hex:
    if flat:
        return Hex(q, r + ((q - (q & 1)) // 2 if odd else (q + (q & 1)) // 2))
    return Hex(q + ((r - (r & 1)) // 2 if odd else (r + (r & 1)) // 2), r)


# ----- the four games ---------------------------------------------------------------------------

_LOJ = """Lion of Judah: flat-topped columns, ODD columns half a hex lower (odd-q), names CCRR.
No rule states the grid; these rulebook statements fix it (lion-of-judah.txt line numbers):
  L806 (12.8.1) Italians attack 1214 from 1313 and 1314 -> both adjacent to 1214 (rules out even-q);
  L839 (12.11.1) GS division in 1207 attacked 1307; 1E/2E in 1307 attack Amba Alagi 1308 -> adjacent;
  L519 (10.1.1) air mission from Gaba 1516 to Gogo 1214 within 4 hexes -> distance <= 4;
  L409 (7.3.2) RP route from Asmara 1305 "four more hexes" to the HQ in 1008 -> distance <= 4;
  L1016 + L1786 (PB 13.3, 15.1.2) Ras Kassa sets up within two hexes of Dessie 1310 and can reach
    Amba Alagi 1308 but "Amba Aradam [1208] falls outside their two-hex setup range"
    -> distance(1310, 1308) <= 2 < distance(1310, 1208) (rules out the pointy even-r/odd-r grids);
  L1017/L1018 + example of play (L1888) Ras Seyum (within 2 of 1107) at Macalle 1307, Ras Imru
    (within 2 of 1109) at Amba Aradam 1208;
  L708 (11.5.3) "the hex north of the HQ": a neighbour due north exists (flat-topped).
No line-of-sight rule."""

_IOD = """Island of Death: flat-topped columns, EVEN columns half a hex lower (even-q), names CCRR.
INFERRED from the only example that fixes adjacency (island-of-death.txt L384, 10.12): artillery in
1309 "cannot discover hex 1210 because it is two hexes away", and 1310 "is adjacent to hex 1210".
Odd-q would make 1309 adjacent to 1210, so the stagger is the reverse of the other three games.
The text cannot tell this from pointy-topped rows with odd rows shifted right (odd-r), which also
fits; "columns 05xx and 11xx" (22.23) and the flat-topped grids of the other games favour even-q.
Line of sight: 16.54 Line of Fire (L525) uses the centre-to-centre ruler, any part of a hex, and
"if the ruler or string runs along a hexside ... blocked only if the hexes on both sides" -> "both".
The 9.91 discovery rule (L370) speaks of "the hex between" two hexes two apart; when the line runs
along a hexside there are two such hexes and the text does not say which counts."""

_ASCARI = """Ascari: flat-topped columns, ODD columns half a hex lower (odd-q), names CCRR, on all four maps.
ascari.txt line numbers:
  Agordat  L637 (FAQ) hill 1609 has a "plateau" relation to the same-level hex 1508 -> adjacent
    (rules out even-q);
  Amba Alagi L681/L685 (FAQ) moves 2210 -> 2211 (1 MP) and 2210 -> 2109 (stop) -> adjacent
    (rules out even-q);
  Metemma  L691 (FAQ) "if hex 2613 is occupied by a unit, is the LOS between 2513 and 2713 blocked?
    Yes ... the limit of the world": that line runs along the side between 2613 and the grey
    off-grid hex below it, which is 2614 only with odd-q (row 13 is the bottom edge, S4/S5);
  Coatit   only L665 (FAQ) 2715 -> 2714 -> 2713 -> 2712 (one column, fits any grid).  INFERRED
    from the free-deployment boundaries of S3.12 (L485): 2707-2210, 2210-1506, 2715-3412 are each
    a straight hex row only under odd-q.
Range (4.1, L181-185): count the target hex, not the firer's -> `distance`.
LOS (4.2, L189-196): blocked "along the hexside between two hexes that both contain blocking
terrain" -> "both"; the endpoints never block ("may enter a hex with blocking terrain");
off-map grey hexes block (L691).  S3.53 ravine and elevation rules are the engine's."""

_SIDESHOW = """Sideshow: flat-topped columns, ODD columns half a hex toward higher row numbers (odd-q), CCRR.
sideshow.txt L370 (6.75 example): German unit in 3311, Allied unit in 3310; the Allied unit "could
not move directly into 3411" (3310 and 3311 both adjacent to 3411), "could move into 3211" (adjacent
to 3310) "but could not then move into 3212" (adjacent to 3211 and 3311).  Odd-q is the only
offset grid in which all of these hold.  The first two digits are what the rules call a "hexrow"
and grow north -> south, the last two grow east -> west (sideshow.md section 7): the printed map
is turned, so the direction names here (N = row - 1) are in the grid's frame, not the compass's.
No line-of-sight rule."""

LAYOUTS: dict[str, HexLayout] = {
    "lion-of-judah": HexLayout("lion-of-judah", "flat", "odd", source=_LOJ),
    "island-of-death": HexLayout("island-of-death", "flat", "even", los_straddle="both", source=_IOD),
    "ascari": HexLayout("ascari", "flat", "odd", los_straddle="both", source=_ASCARI),
    "sideshow": HexLayout("sideshow", "flat", "odd", source=_SIDESHOW),
}
"""The grid of each game; bounded copies per map come from `dataclasses.replace(layout, cols=..., rows=...)`."""
