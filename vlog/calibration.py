"""Naming hexes on a map that has no grid: a calibration the bindings record.

Some published modules draw the hexes on the board image but define no grid, so VASSAL names
every point of the board alike and a save's pixels say nothing of hexes. A calibration is the
grid the module lacks: origin, hex width and height, orientation and the numbering of the
game's hex ids, in VASSAL's own HexGrid terms, so that a point is named exactly as a VASSAL
grid with these attributes would name it (the naming is the one of vlog.vassal.grids).

`fit` proposes a calibration from pieces whose hex is known (a scenario's starting save): the
hex centres are linear in the printed column and row once the orientation and which columns are
shifted are chosen, so each candidate is a least-squares line per axis; the best candidate is
taken only when it names the pieces' hexes and no other candidate fits about as well.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Sequence

from vlog.errors import VlogError
from vlog.vassal import grids as G

__all__ = ["Calibration", "CalibrationError", "Fit", "fit", "bound_calibrations", "calibrated_boards", "calibrated_map", "location_namer", "proposed_words", "MIN_PIECES",
           "MAX_RESIDUAL", "MIN_AGREEING"]

MIN_PIECES = 4
"""Fewest pieces (in at least two columns and two rows) a calibration is proposed from."""
MAX_RESIDUAL = 0.2
"""Largest root-mean-square distance of the pieces from their hex centres, in hex heights."""
MIN_AGREEING = 0.9
"""Share of the pieces whose point the proposed calibration must name as their known hex."""
AMBIGUOUS = 1.5
"""A second candidate naming differently within this factor of the best residual: no proposal."""


class CalibrationError(VlogError):
    """No calibration can be proposed (too few pieces, a poor or an ambiguous fit)."""


@dataclass(frozen=True, slots=True)
class Calibration:
    """A hex grid in VASSAL's HexGrid terms, in the pixels of one board (of the map when no board
    is named): centre of grid column 0 row 0 at (x0, y0), column spacing dx, row spacing dy,
    `sideways` for hexes in rows; printed id = column + `column_offset`, row + `row_offset`
    (+1 in odd grid columns when `stagger`), zero-padded as VASSAL pads with `*_leading`."""

    x0: int
    y0: int
    dx: float
    dy: float
    sideways: bool = False
    stagger: bool = False
    column_offset: int = 1
    row_offset: int = 1
    column_leading: int = 1
    row_leading: int = 1
    first: str = "H"
    separator: str = ""

    FIELDS = ("x0", "y0", "dx", "dy", "sideways", "stagger", "column_offset", "row_offset",
              "column_leading", "row_leading", "first", "separator")

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> "Calibration":
        return cls(**{k: value[k] for k in cls.FIELDS if k in value})

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.FIELDS}

    @classmethod
    def of_grid(cls, grid: G.HexGrid) -> "Calibration":
        """The calibration that names points as a module's hex grid does (ascending numbering)."""
        n = grid.numbering
        if n is None or n.h_descend or n.v_descend or n.oblique or n.h_type != "N" or n.v_type != "N" \
                or n.location_format != "$gridLocation$":
            raise CalibrationError("only a hex grid numbered in ascending digits, named $gridLocation$, "
                                   "can be written as a calibration")
        return cls(grid.x0, grid.y0, grid.dx, grid.dy, grid.sideways, n.stagger, n.h_off, n.v_off,
                   n.h_leading, n.v_leading, n.first, n.sep)

    def grid(self) -> G.HexGrid:
        """The VASSAL hex grid this calibration stands for."""
        numbering = G.HexGridNumbering(first=self.first, sep=self.separator, h_leading=self.column_leading,
                                       v_leading=self.row_leading, h_off=self.column_offset,
                                       v_off=self.row_offset, stagger=self.stagger)
        return G.HexGrid(dx=self.dx, dy=self.dy, x0=self.x0, y0=self.y0, sideways=self.sideways,
                         numbering=numbering)

    def name(self, x: int, y: int) -> str | None:
        """The hex id of a point (None when the grid cannot name it)."""
        try:
            return _grid_of(self).location_name(x, y)
        except G.LocationError:
            return None

    def centre(self, hex_id: str) -> tuple[int, int] | None:
        try:
            return _grid_of(self).center_of(hex_id)
        except G.LocationError:
            return None


_GRIDS: dict[Calibration, G.HexGrid] = {}


def _grid_of(calibration: Calibration) -> G.HexGrid:
    found = _GRIDS.get(calibration)
    if found is None:
        if len(_GRIDS) > 256:
            _GRIDS.clear()
        found = _GRIDS[calibration] = calibration.grid()
    return found


@dataclass(frozen=True, slots=True)
class Fit:
    """A proposed calibration and how well it holds: residual in pixels (root mean square of each
    piece's distance from its hex's centre), pieces named as their known hex of those used."""

    calibration: Calibration
    residual: float
    agreeing: int
    pieces: int
    disagreeing: tuple[str, ...] = ()
    """'<hex> named <name> at (x, y)' for each piece the calibration names otherwise."""

    def describe(self) -> str:
        c = self.calibration
        return (f"origin ({c.x0}, {c.y0}), hex {c.dx:.2f} x {c.dy:.2f} px, "
                f"{'sideways (hexes in rows)' if c.sideways else 'hexes in columns'}, "
                f"columns from {c.column_offset}, rows from {c.row_offset}"
                f"{', odd grid columns numbered one row on' if c.stagger else ''}; residual {self.residual:.2f} px, "
                f"{self.agreeing} of {self.pieces} pieces named as their hex")


def _line(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float] | None:
    """Least squares y = slope * x + intercept; None when the xs do not spread."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return slope, my - slope * mx


def _candidate(points: Sequence[tuple[int, int]], hexes: Sequence[tuple[int, int]], sideways: bool,
               parity: int, stagger: bool, leading: tuple[int, int]) -> Calibration | None:
    """The least-squares calibration of one orientation and shifting (None when degenerate).

    A grid column c = C - column_offset is shifted half a hex on when odd; a centre is at
    x = dx * C + a, y = dy * (R - stagger * odd + odd / 2) + b with odd = (C - parity) mod 2."""
    along = [p[1] if sideways else p[0] for p in points]
    across = [p[0] if sideways else p[1] for p in points]
    cols = [float(h[0]) for h in hexes]
    odd = [(h[0] - parity) % 2 for h in hexes]
    rows = [h[1] + o * (0.5 - stagger) for h, o in zip(hexes, odd)]
    fx, fy = _line(cols, along), _line(rows, across)
    if fx is None or fy is None or fx[0] <= 0 or fy[0] <= 0:
        return None
    (dx, a), (dy, b) = fx, fy
    column_offset = round(-a / dx)
    if (column_offset - parity) % 2:
        column_offset += 1 if -a / dx > column_offset else -1
    row_offset = round(-b / dy)
    # x0 = a + dx * column_offset; y0 = b + dy * row_offset (+ the stagger's row, folded into rows)
    x0 = round(a + dx * column_offset)
    y0 = round(b + dy * row_offset)
    return Calibration(x0, y0, dx, dy, sideways, stagger, column_offset, row_offset, *leading)


def _score(calibration: Calibration, points: Sequence[tuple[int, int]], names: Sequence[str]) -> Fit:
    total, agreeing, wrong = 0.0, 0, []
    for (x, y), name in zip(points, names):
        centre = calibration.centre(name)
        total += math.inf if centre is None else (centre[0] - x) ** 2 + (centre[1] - y) ** 2
        named = calibration.name(x, y)
        if named == name:
            agreeing += 1
        else:
            wrong.append(f"{name} named {named} at ({x}, {y})")
    return Fit(calibration, math.sqrt(total / len(points)), agreeing, len(points), tuple(wrong))


def fit(known: Iterable[tuple[tuple[int, int], str]], *, col_digits: int, row_digits: int,
        what: str = "the map") -> Fit:
    """The calibration that best puts each point in its known hex (game ids of col_digits +
    row_digits digits, column first); CalibrationError saying what to supply when the pieces are
    too few, spread over one column or row, fit poorly or fit two numberings alike."""
    pairs = [(p, h) for p, h in known if len(h) == col_digits + row_digits and h.isdigit()]
    supply = ("supply a starting save whose pieces stand at the hexes scenarios.json gives (pieces in "
              "several columns and rows), or a save with pieces put on printed hexes and named with --hex, "
              "or write the calibration into bindings.json by hand")
    if len(pairs) < MIN_PIECES:
        raise CalibrationError(f"{what}: {len(pairs)} pieces of known hex, {MIN_PIECES} needed to propose a "
                               f"calibration; {supply}")
    points = [p for p, _ in pairs]
    names = [h for _, h in pairs]
    hexes = [(int(h[:col_digits]), int(h[col_digits:])) for h in names]
    if len({c for c, _ in hexes}) < 2 or len({r for _, r in hexes}) < 2:
        raise CalibrationError(f"{what}: the pieces of known hex stand in one column or one row, which "
                               f"fixes no hex size; {supply}")
    leading = (col_digits - 1, row_digits - 1)
    fits: list[Fit] = []
    for sideways in (False, True):
        for parity in (0, 1):
            for stagger in (False, True):
                cand = _candidate(points, hexes, sideways, parity, stagger, leading)
                if cand is not None:
                    fits.append(_score(cand, points, names))
    if not fits:
        raise CalibrationError(f"{what}: no orientation puts the hex numbers ascending across the board; {supply}")
    fits.sort(key=lambda f: (-f.agreeing, f.residual))
    best = fits[0]
    # the pieces' points and the centre of a neighbour of each in the next column (half a hex on)
    c = best.calibration
    probes = [*points, *((round(x + c.dy / 2), round(y + c.dx)) if c.sideways
                         else (round(x + c.dx), round(y + c.dy / 2)) for x, y in points)]
    alike = [f for f in fits if f.agreeing == best.agreeing and f.residual <= best.residual + 1.0
             and all(f.calibration.name(*p) == best.calibration.name(*p) for p in probes)]
    best = min(alike, key=lambda f: (f.calibration.stagger, f.residual))   # the plainer numbering of equals
    size = min(best.calibration.dx, best.calibration.dy)
    if best.residual > MAX_RESIDUAL * size or best.agreeing < MIN_AGREEING * best.pieces:
        raise CalibrationError(f"{what}: the best fit is poor ({best.describe()}; e.g. "
                               f"{'; '.join(best.disagreeing[:3]) or 'pieces off their hex centres'}); {supply}")
    for other in fits:
        same = all(other.calibration.name(*p) == best.calibration.name(*p) for p in probes)
        if not same and other.agreeing == best.agreeing and other.residual <= AMBIGUOUS * max(best.residual, 1.0):
            raise CalibrationError(f"{what}: two numberings fit the pieces alike ({best.describe()} / "
                                   f"{other.describe()}); {supply}, with pieces in adjacent columns")
    return best


# -------------------------------------------------------------------------------------------- proposing

PROPOSED_NOTE = "proposed by vlog bind"
"""How the note of a drafted calibration begins: a fit to confirm against the printed map."""


@dataclass(slots=True)
class Proposals:
    """What `propose` found: a record per calibrated board, and a line per board it could not calibrate."""

    records: list[dict[str, Any]]
    proposed: list[str]
    refused: list[str]


def _scenario_hexes(data: Any) -> list[tuple[str, str | None, dict[str, str]]]:
    """(scenario id, its data map, counter -> the one hex its set-up names for it) per scenario."""
    out = []
    for scenario in data.documents["scenarios"]["scenarios"]:
        at: dict[str, str] = {}
        twice: set[str] = set()
        for row in scenario.get("setup") or ():
            hex_ = row.get("hex", {}).get("value")
            for cid in row.get("units", {}).get("value") or ():
                if not isinstance(hex_, str):
                    continue
                if cid in at and at[cid] != hex_:
                    twice.add(cid)
                at[cid] = hex_
        map_id = scenario.get("map", {}).get("value") if isinstance(scenario.get("map"), dict) else None
        out.append((scenario["id"], map_id if isinstance(map_id, str) else None,
                    {c: h for c, h in at.items() if c not in twice}))
    return out


def _pieces_on_gridless_boards(module: Any, save: object, counter_of: Any, named: Mapping[str, str]
                                ) -> dict[tuple[str, str], list[tuple[tuple[int, int], str | None, str]]]:
    """(VASSAL map, board) -> (board-local point, counter, name) of each save piece on a board
    without a grid that is a counter's or is `named` (by its name as `hex_key` keys it)."""
    from vlog.table import Table

    start = getattr(save, "start", None) or save
    table = Table.from_save(start, module)
    on_board: dict[tuple[str, str], list[tuple[tuple[int, int], str | None, str]]] = {}
    for piece in table.game_pieces():
        vassal_map, x, y = piece.point
        counter = counter_of(piece)
        if vassal_map is None or (counter is None and hex_key(piece.name or "") not in named):
            continue
        try:
            placed = module.find_map(vassal_map).placed_boards(table.layout(vassal_map))
        except Exception:  # noqa: BLE001 - a map that cannot be laid out gives no evidence
            continue
        board = G.find_board(placed, x, y)
        if board is not None and board.grid is None:
            on_board.setdefault((vassal_map, board.name), []).append((board.local(x, y), counter, piece.name or ""))
    return on_board


def hex_key(name: str) -> str:
    """A piece name as `--hex NAME=HEX` matches it: case and surrounding spaces aside."""
    return name.strip().casefold()


BY_HAND = ("for a board whose scenarios set up by areas, put four or more pieces on printed hexes in two "
           "or more columns and rows, save, and name each with --hex NAME=HEX")
"""What a player does when no scenario sets up pieces at hexes on a board."""
GIVEN = "the pieces named with --hex"
"""The evidence `propose` fits besides the scenarios' set-up hexes: pieces a player put on hexes."""


def _given_hexes(pieces: Sequence[tuple[tuple[int, int], str | None, str]], named: Mapping[str, str]
                 ) -> list[tuple[tuple[int, int], str]]:
    """(point, hex) of the pieces of one board that `named` gives a hex; CalibrationError when a
    name stands for several of them (which one is at the hex is not known)."""
    by_name: dict[str, list[tuple[int, int]]] = {}
    for point, _counter, name in pieces:
        if hex_key(name) in named:
            by_name.setdefault(hex_key(name), []).append(point)
    several = sorted(name for name, points in by_name.items() if len(points) > 1)
    if several:
        raise CalibrationError(f"several pieces on the board are named {', '.join(map(repr, several))}: name "
                               "with --hex only pieces that stand alone under their name")
    return [(points[0], named[name]) for name, points in by_name.items()]


def propose(module: Any, data: Any, saves: Sequence[object], counter_of: Any, *, origin: str,
            board_map: Any, hexes: Mapping[str, str] | None = None) -> Proposals:
    """Calibrations for the boards of `module` that have no grid, each fitted to the pieces of a
    starting save (of `saves`) whose counter (`counter_of(table piece)`) a scenario sets up at a
    hex, or to the pieces `hexes` names (piece name -> the printed hex a player put it on: the
    way to calibrate a board whose scenarios set up by areas): the save and evidence whose hexes
    the pieces fit best. `board_map(map name, board name)` is the data map a board shows (None
    when unclear)."""
    out = Proposals([], [], [])
    named = {hex_key(name): hex_ for name, hex_ in (hexes or {}).items()}
    gridless = [(m.map_name, b.name) for m in module.maps for b in m.boards if b.grid is None and b.image]
    if not gridless:
        return out
    if not saves:
        out.refused += [f"map {m!r} board {b!r} has no grid, so no point on it names a hex: give a scenario's "
                        f"starting save (--save) to propose a calibration ({BY_HAND}), or write one into "
                        "bindings.json" for m, b in gridless]
        return out
    scenarios = _scenario_hexes(data)
    best: dict[tuple[str, str], tuple[Fit, str | None, str | None]] = {}
    errors: dict[tuple[str, str], list[str]] = {}
    seen: dict[tuple[str, str], int] = {}
    found_names: set[str] = set()
    for save in saves:
        for (vassal_map, board), pieces in _pieces_on_gridless_boards(module, save, counter_of, named).items():
            key = (vassal_map, board)
            seen[key] = max(seen.get(key, 0), len(pieces))
            map_id = board_map(vassal_map, board)
            what = f"map {vassal_map!r} board {board!r}"
            evidence: list[tuple[str | None, str | None, list[tuple[tuple[int, int], str]]]] = [
                (scenario, scenario_map, [(p, at[c]) for p, c, _ in pieces if c in at])
                for scenario, scenario_map, at in scenarios
                if map_id is None or scenario_map in (None, map_id)]
            found_names |= {hex_key(name) for _, _, name in pieces} & named.keys()
            try:
                evidence.append((None, map_id, _given_hexes(pieces, named)))
            except CalibrationError as e:
                errors.setdefault(key, []).append(f"{what}: {e}")
            for scenario, scenario_map, known in evidence:
                if not known:
                    continue
                try:
                    layout = data.layout(scenario_map or map_id)
                    digits = layout.col_digits + layout.row_digits
                    wrong = sorted({h for _, h in known if not (h.isdigit() and len(h) == digits)})
                    if scenario is None and wrong:
                        raise CalibrationError(f"{what}: --hex {', '.join(wrong)}: not a hex of its map ({digits} "
                                               "digits, column first)")
                    found = fit(known, col_digits=layout.col_digits, row_digits=layout.row_digits,
                                what=f"{what}, " + (f"scenario {scenario}" if scenario else GIVEN))
                except VlogError as e:
                    errors.setdefault(key, []).append(str(e))
                    continue
                held = best.get(key)
                if held is None or (found.agreeing, -found.residual) > (held[0].agreeing, -held[0].residual):
                    best[key] = (found, scenario, scenario_map or map_id)
    out.refused += [f"--hex {name!r}: no piece of that name stands on a board without a grid in the --save files"
                    for name in sorted(named.keys() - found_names)]
    for vassal_map, board in gridless:
        key = (vassal_map, board)
        what = f"map {vassal_map!r} board {board!r}"
        if key not in best:
            if key not in seen:
                out.refused.append(f"{what} has no grid and no save given holds its pieces: give a starting save "
                                   f"of a scenario played on it (--save) to propose a calibration ({BY_HAND})")
            else:
                why = errors.get(key) or [f"none of its {seen[key]} pieces stands for a counter a scenario sets "
                                          "up at a hex"]
                out.refused.append(f"{what} has no grid and no calibration fits: " + " | ".join(why[:3]) +
                                   ("" if errors.get(key) else f"; give a scenario's starting save (--save; "
                                    f"{BY_HAND}) or write the calibration into bindings.json"))
            continue
        found, scenario, data_map = best[key]
        source = (f"{origin}: {found.agreeing} pieces of scenario {scenario}'s starting save at their set-up hexes"
                  if scenario else f"{origin}: {found.agreeing} pieces of a save at the hexes given with --hex")
        note = (f"{PROPOSED_NOTE} (least squares over the orientations and numberings; {found.describe()}): "
                "confirm against the printed map")
        record: dict[str, Any] = {"id": f"calibration-{vassal_map}-{board}"[:80],
                                  "vassal_map": {"value": vassal_map, "source": source},
                                  "board": {"value": board, "source": source},
                                  "grid": {"value": found.calibration.to_json(), "source": source, "note": note}}
        if data_map:
            record["map"] = {"value": data_map, "source": source}
        out.records.append(record)
        out.proposed.append(f"{what}: calibration {note.removeprefix(PROPOSED_NOTE + ' ')}")
    return out


# -------------------------------------------------------------------------------------------- applying

def bound_calibrations(data: Any) -> tuple:
    """The calibrations a game data set's bindings record (as the rules read them: vlog/kit/units.py
    `Bindings`); () for data without bindings."""
    if data is None or "bindings" not in getattr(data, "documents", {}):
        return ()
    from vlog.kit.units import Bindings

    return Bindings.of(data).calibrations


def calibrated_boards(boards: Sequence[G.PlacedBoard], vassal_map: str, calibrations: Iterable[Any]
                      ) -> tuple[list[G.PlacedBoard], dict[str, str]]:
    """A map's placed boards with each board the module draws without a grid given the grid of the
    first calibration recorded for it, so that VASSAL's naming (`grids.map_location_name`) names
    its points as the rules engine does (vlog/kit/units.py `Bindings`): a board's own grid wins;
    a calibration naming a board is in that board's pixels, one naming none in the map's (not
    applied to a reversed board, whose pixels it cannot follow). `calibrations` are the bindings'
    (`Bindings.calibrations`: vassal_map, board, calibration, proposed). Copies: the module's
    boards stay as they are. Also returns board name -> the id of the calibration applied to it,
    for those only proposed (`PROPOSED_NOTE`)."""
    mine = [c for c in calibrations if c.vassal_map == vassal_map]
    out: list[G.PlacedBoard] = []
    proposed: dict[str, str] = {}
    for board in boards:
        cal = None if board.grid is not None else next((c for c in mine if c.board in (None, board.name)), None)
        if cal is None or (cal.board is None and board.reversed):
            out.append(board)
            continue
        grid = cal.calibration
        if cal.board is None:
            grid = replace(grid, x0=grid.x0 - board.x, y0=grid.y0 - board.y)
        out.append(replace(board, grid=grid.grid()))
        if cal.proposed is not None:
            proposed[board.name] = cal.proposed
    return out, proposed


def calibrated_map(vassal_map: Any, layout: Any, calibrations: Iterable[Any]
                   ) -> tuple[list[G.PlacedBoard], list[tuple[str, int, int]], dict[str, str]]:
    """A module map's boards in `layout` (None: the module's default) with `calibrated_boards`'s
    grids, its decks' points on them, and its boards named by a calibration only proposed: what
    `grids.map_location_name` needs to name its points as the rules do."""
    boards, proposed = calibrated_boards(vassal_map.placed_boards(layout), vassal_map.map_name, calibrations)
    return boards, vassal_map.deck_points(boards), proposed


def location_namer(calibrations: Sequence[Any]) -> Any:
    """`Table.location_name` with the boards a module draws without a grid named by the bindings'
    calibrations (`calibrated_map`), for what vlog itself reports of a table (vlog/continuity);
    None when there is none. Only confirmed calibrations name points here: a message cannot say
    that its hex rests on a fit no one checked (the map excerpts and the rules' findings do say
    so). The rules read their hexes through the bindings."""
    calibrations = [c for c in calibrations if c.proposed is None]
    if not calibrations:
        return None
    maps: dict[tuple, tuple | None] = {}

    def name(table: Any, point: tuple[str | None, int, int]) -> str | None:
        map_id, x, y = point
        if table.module is None or map_id is None:
            return None
        layout = table.layout(map_id)
        key = (id(table.module), map_id, tuple(layout or ()))
        if key not in maps:
            try:
                maps[key] = calibrated_map(table.module.find_map(map_id), layout, calibrations)
            except VlogError:       # a map the module cannot lay out is named as VASSAL names it
                maps[key] = None
        found = maps[key]
        if found is None:
            return table.location_name(point)
        try:
            return G.map_location_name(found[0], x, y, found[1])
        except G.LocationError:     # a calibrated grid numbering no hex there: unnamed, as Table names it
            return None

    return name


def proposed_words(ids: Sequence[str]) -> str:
    """What a place named through calibrations only proposed is said to rest on (as the check
    report's binding measure says it)."""
    return (f"hexes named by {'calibrations' if len(ids) > 1 else 'the calibration'} {', '.join(ids)}, "
            f"{PROPOSED_NOTE} and not confirmed against the printed map (confirm with "
            f"`vlog bind MODULE --game GAME --data BINDINGS --review`)")
