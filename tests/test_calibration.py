"""Calibrations: hex grids the bindings record for boards a module draws without one.

The synthetic Ascari module has a VASSAL hex grid on each of its four boards; stripped of them
(in a temporary copy) it stands for the published module, which has none. A calibration equal to
a board's grid must name every point as that grid does; one `vlog bind` fits to a starting save
(or, for Metemma, whose scenarios set up by areas, to pieces a save holds and --hex names) must
name the pieces' hexes as the grid does; and a log judged on the gridless module with the
calibrated bindings must get the findings it gets on the gridded module.
"""
from __future__ import annotations

import json
import random
import re
import zipfile
from pathlib import Path

import pytest

import vlog
from vlog.binding import draft_binding
from vlog.calibration import Calibration, CalibrationError, PROPOSED_NOTE, fit
from vlog.cli import main
from vlog.gamedata import load_game_data, validate_document
from vlog.table import Table
from vlog.vassal.module import read_module

ASCARI = Path(__file__).resolve().parents[1] / "fixtures" / "ascari"
SYNTHETIC = ASCARI / "synthetic"
RULES = ASCARI / "rules"
_HEX_GRID = re.compile(r"<VASSAL\.build\.module\.map\.boardPicker\.board\.HexGrid\b.*?"
                       r"</VASSAL\.build\.module\.map\.boardPicker\.board\.HexGrid>", re.S)


def strip_grids(src: Path, dst: Path) -> Path:
    """A copy of the module whose boards have no hex grid (as the published Ascari module)."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "buildFile.xml":
                text, count = _HEX_GRID.subn("", data.decode("utf-8"))
                assert count == 4
                data = text.encode("utf-8")
            zout.writestr(item, data)
    return dst


@pytest.fixture(scope="module")
def gridded():
    return read_module(SYNTHETIC / "ascari.vmod")


@pytest.fixture(scope="module")
def gridless_path(tmp_path_factory) -> Path:
    return strip_grids(SYNTHETIC / "ascari.vmod", tmp_path_factory.mktemp("gridless") / "ascari.vmod")


@pytest.fixture(scope="module")
def data():
    return load_game_data("ascari")


def _main_boards(module):
    return {b.name: b for b in module.find_map("Main Map").boards}


def _known(module, save_name: str):
    """(board-local point, hex name the gridded module gives) of each piece on the save's board."""
    table = Table.from_save(vlog.read(SYNTHETIC / save_name), module)
    placed = module.find_map("Main Map").placed_boards(table.layout("Main Map"))
    out = []
    for piece in table.game_pieces():
        if piece.point[0] != "Main Map":
            continue
        board = next(b for b in placed if b.contains(*piece.point[1:]))
        out.append((board.local(*piece.point[1:]), table.location_name(piece)))
    return board, out


@pytest.mark.parametrize("board", ["Agordat", "Coatit", "Amba Alagi", "Metemma"])
def test_a_calibration_equal_to_a_grid_names_every_point_as_the_grid(gridded, board):
    grid = _main_boards(gridded)[board].grid
    calibration = Calibration.of_grid(grid)
    rng = random.Random(board)
    width, height = grid.size
    for _ in range(4000):
        x, y = rng.randint(-60, width + 60), rng.randint(-60, height + 60)
        assert calibration.name(x, y) == grid.location_name(x, y), (x, y)
    assert Calibration.from_json(json.loads(json.dumps(calibration.to_json()))) == calibration


@pytest.mark.parametrize("save", ["s2-start.vsav", "s3-start.vsav", "s4-start.vsav"])
def test_fit_names_the_pieces_and_the_hexes_around_them_as_the_grid(gridded, save):
    board, known = _known(gridded, save)
    found = fit(known, col_digits=2, row_digits=2)
    assert found.agreeing == found.pieces == len(known) and found.residual < 3
    grid = board.grid
    for (x, y), name in known:
        assert found.calibration.name(x, y) == name
    # every hex of the board, at its centre and a third of a hex around it
    rng = random.Random(save)
    width, height = grid.size
    for gx in range(0, width, 20):
        for gy in range(0, height, 20):
            cx, cy = grid.snap_to_hex(gx, gy)
            for _ in range(3):
                x, y = cx + rng.randint(-12, 12), cy + rng.randint(-12, 12)
                assert found.calibration.name(x, y) == grid.location_name(x, y), (x, y)


def test_fit_refuses_too_few_pieces_one_column_and_a_poor_fit(gridded):
    _, known = _known(gridded, "s3-start.vsav")
    with pytest.raises(CalibrationError, match="3 pieces of known hex, 4 needed.*starting save"):
        fit(known[:3], col_digits=2, row_digits=2)
    column = [(p, h) for p, h in known if h[:2] == known[0][1][:2]]
    column = (column * 4)[:5]
    with pytest.raises(CalibrationError, match="one column or one row"):
        fit(column, col_digits=2, row_digits=2)
    hexes = [h for _, h in known]
    random.Random(3).shuffle(hexes)
    with pytest.raises(CalibrationError, match="the best fit is poor.*write the calibration into bindings.json"):
        fit([(p, h) for (p, _), h in zip(known, hexes)], col_digits=2, row_digits=2)


def test_fit_refuses_two_numberings_alike(gridded):
    """Pieces all in columns of one parity cannot tell which columns are shifted."""
    _, known = _known(gridded, "s3-start.vsav")
    even = [(p, h) for p, h in known if int(h[:2]) % 2 == 0]
    assert len({h[:2] for _, h in even}) >= 2
    with pytest.raises(CalibrationError, match="two numberings fit the pieces alike"):
        fit(even, col_digits=2, row_digits=2)


def _draft(path: Path, data, save: str):
    draft = draft_binding(read_module(path), data, module_file=path.name, save=vlog.read(SYNTHETIC / save))
    validate_document("bindings", draft.document, "draft")
    return draft


def test_bind_proposes_a_calibration_for_the_gridless_board_of_the_save(gridless_path, gridded, data):
    draft = _draft(gridless_path, data, "s3-start.vsav")
    [record] = draft.document["calibrations"]
    assert record["vassal_map"]["value"] == "Main Map" and record["board"]["value"] == "Coatit"
    assert record["map"]["value"] == "coatit"
    assert record["grid"]["note"].startswith(PROPOSED_NOTE) and "24 of 24 pieces" in record["grid"]["note"]
    assert any("board 'Coatit': calibration" in c and "confirm" in c for c in draft.to_confirm)
    assert any("board 'Metemma' has no grid" in n and "--save" in n for n in draft.notes)
    assert any("board 'Agordat' has no grid and no save given holds its pieces" in n for n in draft.notes)
    # it names the pieces' hexes as the gridded module does
    _, known = _known(gridded, "s3-start.vsav")
    calibration = Calibration.from_json(record["grid"]["value"])
    assert [calibration.name(*p) for p, _ in known] == [h for _, h in known]
    # the gridded module needs none
    assert "calibrations" not in _draft(SYNTHETIC / "ascari.vmod", data, "s3-start.vsav").document


def test_bind_without_a_save_says_what_to_supply(gridless_path, data):
    draft = draft_binding(read_module(gridless_path), data)
    assert "calibrations" not in draft.document
    assert sum("has no grid" in n and "--save" in n for n in draft.notes) == 4


def _evidence(gridded, placed: Path) -> list[str]:
    """`vlog bind`'s evidence for every board: the starting saves of the three scenarios whose
    set-up names hexes, and for Metemma (S1 and S5 place their units in areas only) a save with
    pieces on it, each named with --hex at the hex it stands on."""
    saves = [arg for name in ("s2", "s3", "s4") for arg in ("--save", str(SYNTHETIC / f"{name}-start.vsav"))]
    return [*saves, "--save", str(placed),
            *(arg for name, hex_ in _placed_hexes(gridded, placed).items() for arg in ("--hex", f"{name}={hex_}"))]


@pytest.fixture(scope="module")
def drafted(gridless_path, gridded, placed, tmp_path_factory) -> dict:
    """`vlog bind` of the gridless module with the evidence for each board (`_evidence`)."""
    out = tmp_path_factory.mktemp("bind") / "bindings.json"
    assert main(["bind", str(gridless_path), "--game", "ascari", "-o", str(out), *_evidence(gridded, placed)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    validate_document("bindings", doc, str(out))
    return doc


@pytest.fixture(scope="module")
def confirmed(gridless_path, gridded, placed, drafted, tmp_path_factory) -> dict:
    """The same `vlog bind` with each proposed calibration confirmed by the review's answers."""
    folder = tmp_path_factory.mktemp("review")
    answers, out = folder / "answers.json", folder / "bindings.json"
    answers.write_text(json.dumps({f"calibration:{r['id']}": "confirm" for r in drafted["calibrations"]}),
                       encoding="utf-8")
    assert main(["bind", str(gridless_path), "--game", "ascari", "-o", str(out), *_evidence(gridded, placed),
                 "--answers", str(answers)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [r["grid"]["value"] for r in doc["calibrations"]] == [r["grid"]["value"] for r in drafted["calibrations"]]
    assert not any("note" in r["grid"] for r in doc["calibrations"])
    return doc


def test_bind_with_a_save_per_board_calibrates_each_board_they_use(drafted, gridded):
    by_board = {r["board"]["value"]: r for r in drafted["calibrations"]}
    assert {b: r["map"]["value"] for b, r in by_board.items()} == {
        "Agordat": "agordat", "Coatit": "coatit", "Amba Alagi": "amba-alagi", "Metemma": "metemma"}
    for save in ("s2-start.vsav", "s3-start.vsav", "s4-start.vsav"):
        board, known = _known(gridded, save)
        calibration = Calibration.from_json(by_board[board.name]["grid"]["value"])
        assert [calibration.name(*p) for p, _ in known] == [h for _, h in known]


def _overlay(tmp_path: Path, drafted: dict) -> Path:
    """A bindings overlay holding the calibrations `vlog bind` proposed (the shipped bindings
    keep the rest)."""
    folder = tmp_path / "calibrated"
    folder.mkdir()
    doc = {"kind": "bindings", "game": "ascari", "complete": {"value": None, "note": "calibrations only"},
           "module": {"name": {"value": None, "note": "any"}, "version": {"value": None, "note": "any"}},
           "pieces": [], "layers": [], "locations": [], "turn_track": [], "calibrations": drafted["calibrations"]}
    validate_document("bindings", doc, "overlay")
    (folder / "bindings.json").write_text(json.dumps(doc), encoding="utf-8")
    return folder


def _judged(capsys, *argv: str) -> list[dict]:
    main(["check", *argv, "--game", "ascari", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    return [{k: log[k] for k in ("findings", "checks", "binding")} for log in report["logs"]]


@pytest.mark.parametrize("log", ["SCN-03", "VIC-03", "SEQ-07", "clean-s3", "clean-s3-2815", "FDR-08", "MOV-02",
                                 "clean-s5", "TER-15", "MOV-19"])
def test_a_log_judged_on_the_gridless_module_with_the_calibration_gets_the_same_findings(
        log, gridless_path, confirmed, tmp_path, capsys):
    overlay = _overlay(tmp_path, confirmed)
    path = str(RULES / f"{log}.vlog")
    expected = _judged(capsys, path, "--module", str(SYNTHETIC / "ascari.vmod"))
    assert _judged(capsys, path, "--module", str(gridless_path), "--data", str(overlay)) == expected
    # without the calibration the gridless module names no hex: the verdicts differ
    assert _judged(capsys, path, "--module", str(gridless_path)) != expected


@pytest.mark.parametrize("log, board", [("SCN-03", "Coatit"), ("MOV-02", "Agordat")])
def test_a_calibration_only_proposed_leaves_every_finding_possible_until_it_is_confirmed(
        log, board, gridless_path, drafted, tmp_path, capsys):
    """A proposed grid may be a hex off: what rests on it is POSSIBLE, and the report says which
    calibration to confirm."""
    path = str(RULES / f"{log}.vlog")
    [expected] = _judged(capsys, path, "--module", str(SYNTHETIC / "ascari.vmod"))
    [proposed] = _judged(capsys, path, "--module", str(gridless_path), "--data", str(_overlay(tmp_path, drafted)))
    calibration = f"calibration-Main Map-{board}"
    assert proposed["binding"]["calibrations"] == {"proposed": [calibration]}
    assert not proposed["binding"]["complete"] and expected["binding"]["calibrations"] == {"proposed": []}
    game = [f for f in proposed["findings"] if f["check"].startswith("ascari/")]
    was = [f for f in expected["findings"] if f["check"].startswith("ascari/")]
    assert [(f["check"], f["step"]) for f in game] == [(f["check"], f["step"]) for f in was]
    assert all(f["basis"] == "possible" for f in game)
    lowered = [f for f, e in zip(game, was) if e["basis"] == "proven"]
    assert len(lowered) == (log == "MOV-02") and all(calibration in f["evidence"]["binding"][0] for f in lowered)
    [warning] = [f for f in proposed["findings"] if f["check"] == "vlog/binding"]
    assert "--review" in warning["message"] and calibration in warning["message"]


def test_a_boards_own_grid_wins_over_a_calibration(drafted, tmp_path, capsys):
    """A calibration applies only where the board has no grid: a wrong one changes nothing there."""
    wrong = json.loads(json.dumps(drafted))
    for record in wrong["calibrations"]:
        record["grid"]["value"]["column_offset"] += 2
    overlay = _overlay(tmp_path, wrong)
    path = str(RULES / "SCN-03.vlog")
    module = str(SYNTHETIC / "ascari.vmod")
    expected = _judged(capsys, path, "--module", module)
    assert _judged(capsys, path, "--module", module, "--data", str(overlay)) == expected


def test_review_confirms_or_corrects_a_proposed_calibration(gridless_path, tmp_path, capsys):
    answers = tmp_path / "answers.json"
    qid = "calibration:calibration-Main Map-Coatit"
    answers.write_text(json.dumps({qid: {"x0": -7}}), encoding="utf-8")
    out = tmp_path / "bindings.json"
    save = str(SYNTHETIC / "s3-start.vsav")
    assert main(["bind", str(gridless_path), "--game", "ascari", "-o", str(out), "--save", save,
                 "--answers", str(answers), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert qid not in [q["id"] for q in report["review"]["questions"]]
    [record] = json.loads(out.read_text(encoding="utf-8"))["calibrations"]
    assert "note" not in record["grid"] and record["grid"]["value"]["x0"] == -7
    assert record["grid"]["source"].endswith("review answer")
    answers.write_text(json.dumps({qid: {"origin": 3}}), encoding="utf-8")
    assert main(["bind", str(gridless_path), "--game", "ascari", "-o", str(out), "--force", "--save", save,
                 "--answers", str(answers)]) != 0
    assert "'confirm' or an object of grid attributes" in capsys.readouterr().err


@pytest.mark.parametrize("sideways", [False, True])
@pytest.mark.parametrize("stagger", [False, True])
@pytest.mark.parametrize("column_offset", [1, 2, 14])
def test_fit_recovers_any_orientation_and_numbering(sideways, stagger, column_offset):
    """Pieces at the centres of a known grid (either orientation, shifted columns either way) fit
    a calibration naming the points around every hex as that grid does."""
    truth = Calibration(x0=23, y0=-11, dx=37.5, dy=43.3, sideways=sideways, stagger=stagger,
                        column_offset=column_offset, row_offset=3)
    grid = truth.grid()
    rng = random.Random(f"{sideways}{stagger}{column_offset}")
    names = {f"{c:02d}{r:02d}" for c, r in ((rng.randint(column_offset, column_offset + 9),
                                             rng.randint(4, 14)) for _ in range(14))}
    known = [(grid.center_of(n), n) for n in sorted(names)]
    known = [((x + rng.randint(-2, 2), y + rng.randint(-2, 2)), n) for (x, y), n in known]   # hand-placed
    found = fit(known, col_digits=2, row_digits=2)
    assert found.agreeing == len(known)
    assert found.calibration.sideways == sideways
    for c in range(column_offset, column_offset + 10):
        for r in range(4, 15):
            x, y = grid.center_of(f"{c:02d}{r:02d}")
            for _ in range(4):
                px, py = x + rng.randint(-10, 10), y + rng.randint(-10, 10)
                assert found.calibration.name(px, py) == grid.location_name(px, py), (c, r, px, py)


def test_a_calibration_naming_no_board_applies_to_the_map_in_map_pixels(confirmed, gridless_path, tmp_path, capsys):
    """Without `board` the grid is in the map's pixels (here the board's: it lies at the origin)."""
    coatit = next(r for r in confirmed["calibrations"] if r["board"]["value"] == "Coatit")
    whole = {k: v for k, v in coatit.items() if k != "board"}
    overlay = _overlay(tmp_path, {"calibrations": [whole]})
    path = str(RULES / "SCN-03.vlog")
    expected = _judged(capsys, path, "--module", str(SYNTHETIC / "ascari.vmod"))
    assert _judged(capsys, path, "--module", str(gridless_path), "--data", str(overlay)) == expected
    shifted = json.loads(json.dumps(whole))
    shifted["grid"]["value"]["x0"] += 40   # a column off: the verdicts change
    (tmp_path / "shifted").mkdir()
    overlay = _overlay(tmp_path / "shifted", {"calibrations": [shifted]})
    assert _judged(capsys, path, "--module", str(gridless_path), "--data", str(overlay)) != expected


# -- `vlog where`, `vlog dump` and the report's excerpts name hexes through the calibration ---------

def _where(capsys, module, *argv: str) -> tuple[str, str]:
    assert main(["where", str(module), "--map", "Main Map", *argv]) == 0
    out = capsys.readouterr()
    return out.out.strip(), out.err


def test_where_names_the_gridless_board_by_the_calibration_of_the_game_bindings(
        gridless_path, gridded, confirmed, drafted, tmp_path, capsys):
    """The module's default layout shows Agordat: with the game's calibration each point is named
    as the gridded module names it; without, the gridless board names none; a calibration only
    proposed is said so on stderr."""
    overlay = str(_overlay(tmp_path, confirmed))
    [board] = [b for b in gridded.find_map("Main Map").placed_boards() if b.name == "Agordat"]
    width, height = board.grid.size
    rng = random.Random("where")
    points = []       # a third of a hex around hex centres (a fitted grid may be a pixel off at the sides)
    for _ in range(12):
        cx, cy = board.to_map(*board.grid.snap_to_hex(rng.randint(30, width - 30), rng.randint(30, height - 30)))
        points.append((cx + rng.randint(-12, 12), cy + rng.randint(-12, 12)))
    for x, y in points:
        expected, _ = _where(capsys, SYNTHETIC / "ascari.vmod", str(x), str(y))
        assert _where(capsys, gridless_path, str(x), str(y), "--game", "ascari", "--data", overlay) == (expected, "")
        assert _where(capsys, gridless_path, str(x), str(y))[0] == "offboard" != expected
    name, _ = _where(capsys, SYNTHETIC / "ascari.vmod", *map(str, points[0]))
    px, py = _where(capsys, gridless_path, "--name", name, "--game", "ascari", "--data", overlay)[0].split()
    assert _where(capsys, gridless_path, px, py, "--game", "ascari", "--data", overlay)[0] == name
    (tmp_path / "proposed").mkdir()
    named, err = _where(capsys, gridless_path, *map(str, points[0]), "--game", "ascari",
                        "--data", str(_overlay(tmp_path / "proposed", drafted)))
    assert named == name and PROPOSED_NOTE in err and "calibration-Main Map-Agordat" in err


def _dump(capsys, *argv: str) -> dict:
    assert main(["dump", str(RULES / "MOV-02.vlog"), "--format", "json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def _locations(dump: dict) -> list:
    found = [p.get("location") for p in dump["pieces"]]
    for step in dump["steps"]:
        for action in step["actions"]:
            found += [action[k].get("location") for k in ("from", "to") if isinstance(action.get(k), dict)]
    return found


def test_dump_names_the_gridless_board_by_the_calibration_of_the_game_bindings(
        gridless_path, confirmed, drafted, tmp_path, capsys):
    """MOV-02 plays on Agordat: every position is named as the gridded module names it."""
    expected = _dump(capsys, "--module", str(SYNTHETIC / "ascari.vmod"))
    named = [n for n in _locations(expected) if n]
    assert len(named) > 20 and all(re.fullmatch(r"\d{4}", n) for n in named)
    calibrated = _dump(capsys, "--module", str(gridless_path), "--game", "ascari", "--data", str(_overlay(tmp_path, confirmed)))
    assert _locations(calibrated) == _locations(expected) and calibrated["positions"] == expected["positions"]
    assert _locations(_dump(capsys, "--module", str(gridless_path))) != _locations(expected)
    (tmp_path / "proposed").mkdir()
    proposed = _dump(capsys, "--module", str(gridless_path), "--game", "ascari",
                     "--data", str(_overlay(tmp_path / "proposed", drafted)))
    assert _locations(proposed) == _locations(expected)
    assert PROPOSED_NOTE in proposed["positions"] and "calibration-Main Map-Agordat" in proposed["positions"]
    assert main(["dump", str(RULES / "MOV-02.vlog"), "--game", "ascari"]) == 2     # --game needs --module
    capsys.readouterr()


def _continuity_excerpts(tmp_path: Path, *argv: str) -> list[tuple[list[str], str]]:
    """The hexes (printed numbers) and caption of each map excerpt of a vlog/continuity finding
    of clean-s2 after MOV-02 (both on Agordat; the second does not continue the first)."""
    out = tmp_path / "page.html"
    assert main(["check", str(RULES / "clean-s2.vlog"), "--after", str(RULES / "MOV-02.vlog"), *argv,
                 "--format", "html", "-o", str(out), "--force"]) in (0, 1)
    page = out.read_text(encoding="utf-8")
    found = []
    for article in re.findall(r'<article class="finding.*?</article>', page, re.S):
        if "vlog/continuity" in article and 'class="map"' in article:
            found.append((sorted(re.findall(r'class="num">([^<]*)<', article)),
                          re.search(r"<figcaption>(.*?)</figcaption>", article).group(1)))
    return found


def test_report_excerpts_of_generic_findings_name_the_gridless_board_by_the_calibration(
        gridless_path, confirmed, drafted, tmp_path, capsys):
    expected = _continuity_excerpts(tmp_path, "--module", str(SYNTHETIC / "ascari.vmod"))
    assert len(expected) == 4 and all(len(hexes) > 2 and all(re.fullmatch(r"\d{4}", h) for h in hexes)
                                      for hexes, _ in expected)
    calibrated = _continuity_excerpts(tmp_path, "--module", str(gridless_path), "--game", "ascari",
                                      "--data", str(_overlay(tmp_path, confirmed)))
    assert [h for h, _ in calibrated] == [h for h, _ in expected]
    assert not any(PROPOSED_NOTE in caption for _, caption in calibrated)
    # without the calibration the gridless board draws no hex
    assert _continuity_excerpts(tmp_path, "--module", str(gridless_path)) == []
    (tmp_path / "proposed").mkdir()
    proposed = _continuity_excerpts(tmp_path, "--module", str(gridless_path), "--game", "ascari",
                                    "--data", str(_overlay(tmp_path / "proposed", drafted)))
    assert [h for h, _ in proposed] == [h for h, _ in expected]
    assert all(PROPOSED_NOTE in caption and "calibration-Main Map-Agordat" in caption for _, caption in proposed)
    capsys.readouterr()


def test_calibrated_boards_follow_the_rules_naming_in_board_or_map_pixels():
    """A calibration naming a board is in its pixels, one naming none in the map's (wherever the
    board lies); a board's own grid wins; a reversed board is not given a map-pixel grid."""
    from types import SimpleNamespace

    from vlog.calibration import calibrated_boards
    from vlog.vassal import grids as G

    cal = Calibration(x0=23, y0=-11, dx=37.5, dy=43.3, column_offset=14)
    own = Calibration(x0=0, y0=0, dx=30, dy=30).grid()
    boards = [G.PlacedBoard("A", 400, 400, x=0, y=0), G.PlacedBoard("B", 400, 400, x=400, y=0),
              G.PlacedBoard("C", 400, 400, grid=own, x=0, y=400), G.PlacedBoard("D", 400, 400, x=400, y=400, reversed=True)]
    on_map = SimpleNamespace(vassal_map="Main Map", board=None, calibration=cal, proposed="cal-map")
    on_b = SimpleNamespace(vassal_map="Main Map", board="B", calibration=cal, proposed=None)
    other = SimpleNamespace(vassal_map="Other Map", board=None, calibration=own, proposed="x")
    placed, proposed = calibrated_boards(boards, "Main Map", [on_b, on_map, other])
    assert [b.grid is not None for b in boards] == [False, False, True, False]     # copies
    assert proposed == {"A": "cal-map"} and placed[2].grid is own and placed[3].grid is None
    rng = random.Random(5)
    for _ in range(300):
        x, y = rng.randint(0, 399), rng.randint(0, 399)
        assert G.map_location_name(placed, x, y) == cal.name(x, y)                   # map pixels
        assert G.map_location_name(placed, x + 400, y) == cal.name(x, y)             # B's own pixels


def _continuity_places(tmp_path: Path, capsys, *argv: str) -> list[tuple[str, object, object]]:
    """Each vlog/continuity finding of clean-s2 after MOV-02 (Agordat): its message and the
    locations its evidence names."""
    assert main(["check", str(RULES / "clean-s2.vlog"), "--after", str(RULES / "MOV-02.vlog"), *argv,
                 "--format", "json"]) == 1
    findings = json.loads(capsys.readouterr().out)["logs"][0]["findings"]
    return [(f["message"], (f["evidence"].get("before") or {}).get("location"),
             (f["evidence"].get("after") or {}).get("location"))
            for f in findings if f["check"] == "vlog/continuity"]


def test_continuity_names_the_gridless_board_by_the_calibration(gridless_path, confirmed, tmp_path, capsys):
    """A continuity finding on the module without grids names hexes as on the gridded module
    when the game's bindings calibrate its boards; without them, as VASSAL names the points."""
    expected = _continuity_places(tmp_path, capsys, "--module", str(SYNTHETIC / "ascari.vmod"))
    assert expected and all(re.search(r" at \d{4} \(", message) for message, _, _ in expected)
    calibrated = _continuity_places(tmp_path, capsys, "--module", str(gridless_path), "--game", "ascari",
                                    "--data", str(_overlay(tmp_path, confirmed)))
    assert calibrated == expected
    assert _continuity_places(tmp_path, capsys, "--module", str(gridless_path)) != expected


def test_continuity_names_no_hex_by_a_calibration_only_proposed(gridless_path, drafted, tmp_path, capsys):
    """A message cannot say its hex rests on an unchecked fit: until the review confirms the
    calibration, continuity names the gridless board's points as VASSAL does."""
    proposed = _continuity_places(tmp_path, capsys, "--module", str(gridless_path), "--game", "ascari",
                                  "--data", str(_overlay(tmp_path, drafted)))
    assert proposed == _continuity_places(tmp_path, capsys, "--module", str(gridless_path))


def test_the_continuity_namer_names_as_the_rules(gridless_path, confirmed, tmp_path):
    """`location_namer` on the gridless module: a point of a calibrated board gets the hex the
    gridded module gives it, a point off every board is "offboard" as VASSAL names it, and a map
    the module lacks is named as `Table.location_name` names it (not at all)."""
    from vlog.calibration import bound_calibrations, location_namer

    data = load_game_data("ascari", overlays=[_overlay(tmp_path, confirmed)])
    namer = location_namer(bound_calibrations(data))
    save = vlog.read(SYNTHETIC / "s2-start.vsav")
    gridded, gridless = Table.from_save(save, read_module(SYNTHETIC / "ascari.vmod")), \
        Table.from_save(save, read_module(gridless_path))
    placed = [p for p in gridded.game_pieces() if p.map == "Main Map"]
    assert placed and all(namer(gridless, p.point) == gridded.location_name(p) for p in placed)
    assert all(re.fullmatch(r"\d{4}", namer(gridless, p.point)) for p in placed)
    assert namer(gridless, ("Main Map", -100_000, -100_000)) == "offboard"
    assert namer(gridless, ("No Such Map", 10, 10)) is None
    assert location_namer(()) is None


@pytest.fixture(scope="module")
def placed(tmp_path_factory) -> Path:
    """A save of Metemma (S5), whose scenario sets up by areas, with five pieces on the map: the
    table after step 6 of clean-s5 (the Dervishes set up, two Ethiopians entered)."""
    out = tmp_path_factory.mktemp("placed") / "metemma.vsav"
    assert main(["convert", str(RULES / "clean-s5.vlog"), str(out), "--step", "6"]) == 0
    return out


def _placed_hexes(gridded, path: Path) -> dict[str, str]:
    """Piece name -> the hex the gridded module names it at, for the pieces on the map."""
    table = Table.from_save(vlog.read(path), gridded)
    return {p.name: table.location_name(p) for p in table.game_pieces() if p.point[0] == "Main Map"}


def test_bind_calibrates_a_board_set_up_by_areas_from_pieces_named_with_hex(gridless_path, gridded, placed,
                                                                             tmp_path, capsys):
    """No scenario sets up a piece at a hex of Metemma, so no save calibrates it alone; pieces a
    player puts on printed hexes and names with --hex do, and the fit names every hex of the
    board as its grid does."""
    at = _placed_hexes(gridded, placed)
    assert len(at) == 5 and len({h[:2] for h in at.values()}) >= 2 and len({h[2:] for h in at.values()}) >= 2
    out = tmp_path / "bindings.json"
    alone = ["bind", str(gridless_path), "--game", "ascari", "-o", str(out), "--save", str(placed)]
    assert main(alone) == 0
    assert "calibrations" not in json.loads(out.read_text(encoding="utf-8"))
    assert "--hex NAME=HEX" in capsys.readouterr().out
    given = [arg for name, hex_ in at.items() for arg in ("--hex", f"{name.upper()} = {hex_}")]
    assert main([*alone, "--force", *given, "--hex", "Nobody=1010"]) == 0
    printed = capsys.readouterr().out
    doc = json.loads(out.read_text(encoding="utf-8"))
    validate_document("bindings", doc, str(out))
    [record] = doc["calibrations"]
    assert record["board"]["value"] == "Metemma" and record["map"]["value"] == "metemma"
    assert "5 pieces of a save at the hexes given with --hex" in record["grid"]["source"]
    assert record["grid"]["note"].startswith(PROPOSED_NOTE)
    assert "--hex 'nobody': no piece of that name stands on a board without a grid" in printed
    calibration = Calibration.from_json(record["grid"]["value"])
    grid = _main_boards(gridded)["Metemma"].grid
    width, height = grid.size
    for gx in range(0, width, 20):
        for gy in range(0, height, 20):
            x, y = grid.snap_to_hex(gx, gy)
            assert calibration.name(x, y) == grid.location_name(x, y), (x, y)


def test_bind_says_what_is_wrong_with_the_pieces_named_with_hex(gridless_path, gridded, placed, tmp_path, capsys):
    at = _placed_hexes(gridded, placed)
    out = tmp_path / "bindings.json"
    base = ["bind", str(gridless_path), "--game", "ascari", "-o", str(out)]
    first, hex_ = next(iter(at.items()))
    assert main([*base, "--hex", f"{first}={hex_}"]) == 2
    assert "give the save with --save" in capsys.readouterr().err
    for bad in (f"{first}", f"{first}=B12", f"={hex_}"):
        assert main([*base, "--save", str(placed), "--hex", bad]) == 2
        assert "give a piece's name and its printed hex" in capsys.readouterr().err
    assert main([*base, "--save", str(placed), "--hex", f"{first}=0101", "--hex", f"{first}=0202"]) == 2
    assert "is given two hexes" in capsys.readouterr().err
    # a hex of the wrong length, and too few pieces: a note, no calibration
    given = [arg for name, h in list(at.items())[:3] for arg in ("--hex", f"{name}={h}")]
    assert main([*base, "--save", str(placed), *given]) == 0
    assert "3 pieces of known hex, 4 needed" in capsys.readouterr().out
    assert main([*base, "--force", "--save", str(placed), *given, "--hex", f"{list(at)[3]}=123"]) == 0
    assert "--hex 123: not a hex of its map (4 digits, column first)" in capsys.readouterr().out
    assert "calibrations" not in json.loads(out.read_text(encoding="utf-8"))


def test_a_name_given_with_hex_that_several_pieces_bear_is_refused():
    from vlog.calibration import _given_hexes

    pieces = [((10, 10), "c1", "Rifle"), ((50, 10), "c1", "Rifle "), ((90, 40), None, "Gun")]
    with pytest.raises(CalibrationError, match="several pieces on the board are named 'rifle'"):
        _given_hexes(pieces, {"rifle": "0101", "gun": "0202"})
    assert _given_hexes(pieces, {"gun": "0202"}) == [((90, 40), "0202")]
