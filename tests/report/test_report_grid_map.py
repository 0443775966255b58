"""Map excerpts drawn from a module's own grid, for findings of a game vlog has no data for.

The cells are checked against VASSAL's naming (`grids.py`): a cell's centre is named as the
point it was found from, and its neighbours are other locations; a hex cell's centre is where
VASSAL snaps a point wherever snapping and naming agree (near a hex's slanted sides VASSAL names
a point after the neighbouring column band, and the drawing follows the name). Checked on the module vlog builds for Lion of Judah (a hex grid with
numbering), on a real module's zoned grids (nevsky, from ../shared/samples, skipped when absent),
and on grids built here (sideways hexes, squares, regions)."""
from __future__ import annotations

import random
from html import escape
from pathlib import Path

import pytest

from vlog.report import html
from vlog.report.svg import GridView, map_excerpt, points_in_evidence
from vlog.vassal import grids as G
from vlog.vassal.grid_cells import cell_at
from vlog.vassal.module import read_module

ROOT = Path(__file__).resolve().parents[2]
LOJ_MODULE = ROOT / "fixtures/lion-of-judah/lion-of-judah.vmod"
LOJ_SYNTHETIC = ROOT / "fixtures/lion-of-judah/synthetic/lion-of-judah.vmod"
"""The module the Lion of Judah fixture logs were written with."""
NEVSKY = ROOT.parent / "shared/samples/nevsky/buildFile.xml"


def _agrees_with_naming(boards, decks, x: int, y: int) -> bool:
    """The cell of (x, y) is named as (x, y) is, and its neighbours are other locations."""
    board = G.find_board(boards, x, y)
    cell = cell_at(board, x, y)
    if cell is None:
        return False
    name = G.map_location_name(boards, x, y, decks)
    assert G.map_location_name(boards, int(cell.centre[0]), int(cell.centre[1]), decks) == name, (x, y)
    around = [G.map_location_name(boards, int(a), int(b), decks) for a, b in cell.neighbours]
    # a hex or square's neighbours are other locations; a region's are the nearest other regions,
    # which a zone's location format may name alike (the drawing keeps one cell per name)
    assert name not in around or cell.outline == (), (x, y, name, around)
    return True


def test_hex_cells_of_a_built_module_agree_with_vassal_naming():
    main = read_module(LOJ_MODULE).find_map("Main Map")
    boards = main.placed_boards()
    board = boards[0]
    rnd = random.Random(7)
    checked = 0
    for _ in range(400):
        x, y = rnd.randrange(60, board.width - 60), rnd.randrange(60, board.height - 60)
        if _agrees_with_naming(boards, main.deck_points(boards), x, y):
            cell = cell_at(board, x, y)
            snapped = board.to_map(*board.grid.snap(*board.local(x, y), force=True, center_only=True))
            if G.map_location_name(boards, *snapped) == G.map_location_name(boards, x, y):
                assert snapped == tuple(int(c) for c in cell.centre)
            assert len(cell.outline) == 6 and len(cell.neighbours) == 6
            checked += 1
    assert checked > 300


@pytest.mark.skipif(not NEVSKY.exists(), reason="../shared/samples is not here")
def test_cells_of_a_real_modules_zoned_grids_agree_with_vassal_naming():
    """nevsky's main map: zones with region grids and zones that are one location each."""
    main = read_module(NEVSKY).find_map("Main Map")
    boards = main.placed_boards()
    decks = main.deck_points(boards)
    rnd = random.Random(11)
    kinds = set()
    for zone in boards[0].grid.zones:
        xs, ys = [p[0] for p in zone.points], [p[1] for p in zone.points]
        inside = [(x, y) for x, y in ((rnd.randrange(min(xs), max(xs) + 1), rnd.randrange(min(ys), max(ys) + 1))
                                      for _ in range(40)) if zone.contains(x, y)]
        for x, y in inside[:5]:
            assert _agrees_with_naming(boards, decks, x, y)
            kinds.add(type(zone.active_grid()).__name__)
    assert kinds == {"NoneType", "RegionGrid"}


def _numbered_hexes(sideways: bool) -> G.HexGrid:
    grid = G.HexGrid(dx=50.0, dy=58.0, x0=20, y0=29, sideways=sideways)
    grid.set_numbering(G.HexGridNumbering(grid=grid))
    grid.size = (2000, 2000)
    return grid


@pytest.mark.parametrize("sideways", [False, True])
def test_hex_cells_sideways_or_not(sideways):
    grid = _numbered_hexes(sideways)
    board = G.PlacedBoard(name="b", width=2000, height=2000, grid=grid)
    rnd = random.Random(3)
    for _ in range(300):
        x, y = rnd.randrange(100, 1900), rnd.randrange(100, 1900)
        cell = cell_at(board, x, y)
        snapped = grid.snap(x, y, force=True, center_only=True)
        if grid.location_name(*snapped) == grid.location_name(x, y):
            assert tuple(int(c) for c in cell.centre) == snapped
        assert grid.location_name(*map(int, cell.centre)) == grid.location_name(x, y)
        names = {grid.location_name(int(a), int(b)) for a, b in cell.neighbours}
        assert len(names) == 6 and grid.location_name(x, y) not in names


def test_square_and_region_cells():
    square = G.SquareGrid(dx=40.0, dy=40.0, x0=20, y0=20)
    board = G.PlacedBoard(name="b", width=400, height=400, grid=square)
    cell = cell_at(board, 95, 61)
    assert cell.centre == (100, 60) and len(cell.outline) == 4 and len(cell.neighbours) == 8
    regions = G.RegionGrid()
    regions.add(G.Region("Novgorod", 100, 100))
    regions.add(G.Region("Pskov", 300, 120))
    board = G.PlacedBoard(name="r", width=400, height=400, grid=regions, x=10, y=5)
    cell = cell_at(board, 290, 120)
    assert cell.centre == (310, 125) and cell.outline == () and cell.neighbours == ((110, 105),)   # within reach
    regions.add(G.Region("Far", 2000, 2000))
    assert cell_at(board, 290, 120).neighbours == ((110, 105),)
    assert cell_at(G.PlacedBoard(name="none", width=10, height=10), 1, 1) is None


@pytest.fixture(scope="module")
def view() -> GridView:
    return GridView(read_module(LOJ_MODULE))


def test_points_in_evidence_and_the_excerpt_of_a_move_between_files(view):
    evidence = {"before": {"map": "Main Map", "x": 450, "y": 294, "location": "1506"},
                "after": {"map": "Main Map", "x": 574, "y": 222, "location": "1805"},
                "piece": "1", "stack_index": {"before": 0, "after": 1}, "hidden": {"hidden": True}}
    assert points_in_evidence(evidence) == [("before", "Main Map", 450, 294), ("after", "Main Map", 574, 222)]
    svg = map_excerpt(view, evidence, ["21A <&>"], caption="vlog/continuity")
    assert svg.startswith("<svg") and 'class="route"' in svg
    assert svg.count('class="hex named"') == 2 and ">1506<" in svg and ">1805<" in svg
    assert svg.count('<g class="hex') == 2 + 12              # the two hexes and their neighbours
    assert "<title>21A &lt;&amp;&gt;</title>" in svg           # the counter, escaped, on the end hex
    # no point, or a map the module does not have: no picture
    assert map_excerpt(view, {"after": {"hidden": True}}) is None
    assert map_excerpt(view, {"after": {"map": "No Such Map", "x": 1, "y": 1}}) is None


def test_check_html_of_a_log_that_does_not_continue_draws_the_modules_grid(tmp_path, capsys):
    import json

    from vlog.cli import main

    rules = ROOT / "fixtures/lion-of-judah/rules"
    argv = ["check", str(rules / "CB-19.vlog"), str(rules / "CB-20.vlog"), "--module", str(LOJ_SYNTHETIC)]
    main([*argv, "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    moved = next(f for f in report["logs"][1]["findings"]
                 if f["check"] == "vlog/continuity" and f["evidence"]["change"] == "moved")
    out = tmp_path / "page.html"
    main([*argv, "--format", "html", "-o", str(out)])
    page = out.read_text(encoding="utf-8")
    start = page.index(escape(moved["message"]))
    finding = page[start:page.index("</article>", start)]
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="map"' in finding and 'class="route"' in finding
    for end in ("before", "after"):      # the piece's two hexes, named as VASSAL names them
        assert f'class="num">{moved["evidence"][end]["location"]}<' in finding
    assert html.map_view(None, None) is None


@pytest.mark.skipif(not NEVSKY.exists(), reason="../shared/samples is not here")
def test_batch_html_draws_a_real_modules_regions_and_decks(tmp_path, monkeypatch):
    """Two of nevsky's scenario saves made one game by a manifest: the second does not continue
    the first, and each piece's finding (not summed up in one here) is drawn from the module's
    main map — a region with the regions nearest it, or a deck — named as the report names the place."""
    import json
    import re

    from vlog.checks import continuity
    from vlog.cli import main

    monkeypatch.setattr(continuity, "SUMMARY_SHARE", 1.0)

    saves = [str(NEVSKY.parent / f"Scenario_{name}.vsav") for name in ("Pleskau_1240", "Watland_1241")]
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"games": [{"name": "nevsky", "logs": saves, "module": str(NEVSKY)}]}))
    out = tmp_path / "batch.html"
    main(["batch", *saves, "--manifest", str(manifest), "--format", "html", "-o", str(out)])
    page = out.read_text(encoding="utf-8")
    articles = re.findall(r'<article class="finding.*?</article>', page)
    drawn = [a for a in articles if 'class="map"' in a]
    assert len(articles) > 500 and len(drawn) > 0.9 * len(articles)
    volkhov = next(a for a in drawn if "at Volkhov (" in a)
    assert 'class="num">Volkhov<' in volkhov and 'class="num">Novgorod<' in volkhov   # a region and its nearest
    deck = next(a for a in drawn if "at Russian Command (" in a)
    assert 'class="num">Russian C…<' in deck and '<title>Russian Command (3355, 4201)' in deck   # a deck


def test_an_excerpt_draws_the_boards_the_log_laid_out(view):
    """Ascari's map holds four battle boards and the module lays out Agordat alone by default.
    A log that lays out Agordat and Coatit side by side has points on Coatit: drawn with the
    log's boards (`LogResult.boards`), off every board of the default layout. Without the
    log's boards (a report of an older version) the excerpt says what it rests on; a map of
    one board needs no such note."""
    module = read_module(ROOT / "fixtures/ascari/synthetic/ascari.vmod")
    ascari = GridView(module)
    width = module.find_map("Main Map").placed_boards()[0].width
    point = {"after": {"map": "Main Map", "x": width + 300, "y": 300, "location": None}}
    laid_out = ascari.for_log({"Main Map": (("Agordat", 0, 0, False), ("Coatit", 1, 0, False))})
    drawn = laid_out.excerpt(point, ["a unit"])
    assert drawn is not None and drawn.cells and ascari.excerpt(point, ["a unit"]) is None
    assert laid_out.layout_note(point) is None
    assert ascari.layout_note(point) == ("drawn on the module's default boards (Agordat): the report does not "
                                         "say which of the map's 4 boards the log laid out")
    assert view.layout_note({"after": {"map": "Main Map", "x": 300, "y": 300}}) is None
    assert ascari.layout_note({"hex": "0405"}) is None and ascari.layout_note({"after": {"map": "Nowhere", "x": 1, "y": 1}}) is None
