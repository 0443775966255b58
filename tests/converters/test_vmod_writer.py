"""Written modules read back to the same grid and pieces, follow the real buildFiles' structure,
are byte-for-byte reproducible and never overwrite their input. Uses SYNTHETIC game data
(tests/converters/synthetic_gamedata.py) and the shipped Lion of Judah data."""
from __future__ import annotations

import dataclasses
import math
import os
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from lxml import etree

from conftest import sample_params
from converters import board_image as B
from converters.png import Canvas, encode_png
from converters.vmod_writer import (
    BOXES_MAP, COUNTER_ID_PROPERTY, MAIN_MAP, UNKNOWN_TYPE, Element, moduledata_xml,
    serialize_xml, write_module,
)
from vlog.errors import GameDataError, OutputError
from vlog.gamedata import load_game_data
from vlog.hexes import HexLayout
from vlog.vassal.module import image_size, read_module
from vlog.vassal.pieces import Embellishment, Marker, Piece
from vlog.vassal.sequence import split

from synthetic_gamedata import synthetic_game


@pytest.fixture
def synthetic():
    return synthetic_game()


def _read(path):
    return read_module(path)


def _piece(slot) -> Piece:
    toks = split(slot.expanded, "/")
    return Piece(None, toks[2], toks[3])


# ---------------------------------------------------------------------------------- grid


def test_every_hex_name_round_trips_through_the_written_grid(synthetic, tmp_path):
    out = tmp_path / "game.vmod"
    build = write_module(synthetic, out, scenario="s1")
    module = _read(out)
    geo = build.geometries["Synthetic Board"]
    assert geo.cols == (2, 6) and geo.rows == (3, 8)
    main = module.find_map(MAIN_MAP)
    board = main.boards[0]
    assert board.grid_kind == "hex" and board.size == (geo.width, geo.height)
    names = [geo.name(h) for h in geo.hexes()]
    assert len(names) == 5 * 6 and names[0] == "0203" and names[-1] == "0608"
    for name in names:
        x, y = module.location_center(MAIN_MAP, name)
        assert module.location_name(MAIN_MAP, x, y) == name
        assert (x, y) == geo.center(name)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("shifted", ["odd", "even"])
@pytest.mark.parametrize("span", [((1, 9), (1, 7)), ((0, 4), (0, 5)), ((12, 15), (20, 23))])
def test_grid_matches_the_game_layout(orientation, shifted, span):
    """Names come back, and the game's neighbours are one hex apart on the board."""
    layout = HexLayout("synthetic", orientation, shifted)
    geo = B.BoardGeometry(layout, span[0], span[1])
    geo.verify()
    grid = geo.grid()
    for h in geo.hexes():
        cx, cy = grid.center_of(layout.name(h))
        for n in layout.neighbours(h):
            if span[0][0] <= n.col <= span[0][1] and span[1][0] <= n.row <= span[1][1]:
                nx, ny = grid.center_of(layout.name(n))
                assert abs(math.hypot(nx - cx, ny - cy) - geo.dy) <= 2.0


def test_a_wrong_parity_is_caught_by_verify():
    """verify() is not a formality: the other column parity puts neighbours apart."""
    layout = HexLayout("synthetic", "flat", "odd")
    geo = B.BoardGeometry(layout, (1, 6), (1, 6))
    geo.h_off += 1  # columns shifted the wrong way round
    with pytest.raises(GameDataError, match="neighbours"):
        geo.verify()


def test_lion_of_judah_grid_names_every_hex_of_its_extent(tmp_path):
    game = load_game_data("lion-of-judah")
    out = tmp_path / "loj.vmod"
    build = write_module(game, out, scenario="1935-36")
    module = _read(out)
    geo = next(iter(build.geometries.values()))
    named = B.hexes_named_in_data(game, "main")
    assert named and all(geo.cols[0] <= int(n[:2]) <= geo.cols[1] and geo.rows[0] <= int(n[2:]) <= geo.rows[1]
                         for n in named)
    for h in geo.hexes():
        name = geo.name(h)
        assert module.location_name(MAIN_MAP, *module.location_center(MAIN_MAP, name)) == name
    assert any("extent is not in the data" in n for n in build.notes)
    assert "neutral grey" in module.description


# ---------------------------------------------------------------------------------- pieces


def test_pieces_read_back_with_gpids_names_layers_and_markers(synthetic, tmp_path):
    out = tmp_path / "game.vmod"
    build = write_module(synthetic, out, scenario="s1")
    module = _read(out)
    slots = {s.gpid: s for s in module.piece_slots}
    assert sorted(slots) == sorted(p.gpid for p in build.pieces)
    assert module.next_piece_slot_id == str(len(build.pieces) + 1)
    by_counter = {}
    for slot in module.piece_slots:
        assert not slot.problems
        piece = _piece(slot)
        marks = {}
        for t in piece.traits_of(Marker):
            marks.update(t.properties)
        by_counter[marks[COUNTER_ID_PROPERTY]] = (slot, piece, marks)
    assert set(by_counter) == set(synthetic.counter_ids)

    slot, piece, marks = by_counter["r-1"]
    assert slot.name == "1R" and slot.entry_name == "1R"
    assert marks["Side"] == "red" and marks["UnitType"] == "infantry" and marks["Nationality"] == "redland"
    layers = list(piece.traits_of(Embellishment))
    assert [(l.name, l.level, l.active, len(l.images)) for l in layers] == [("Step", 1, True, 3)]
    built = next(p for p in build.pieces if p.counter_id == "r-1")
    assert built.levels == ["3", "2", "1"]

    _, hq, hq_marks = by_counter["r-hq"]
    faces = list(hq.traits_of(Embellishment))
    assert [(l.name, len(l.images)) for l in faces] == [("Face", 2)]
    assert next(p for p in build.pieces if p.counter_id == "r-hq").levels == ["front", "back"]

    _, one, one_marks = by_counter["b-1"]
    assert not list(one.traits_of(Embellishment))  # a single face needs no layer
    assert one_marks["UnitType"] == UNKNOWN_TYPE
    assert one.image.endswith(".png")

    # every image a piece names is in the module and is a PNG
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        for p in build.pieces:
            for img in p.images:
                assert f"images/{img}" in names
                assert image_size(z.read(f"images/{img}")) == (40, 40)


def test_prototypes_one_per_unit_type(synthetic, tmp_path):
    out = tmp_path / "game.vmod"
    write_module(synthetic, out)
    module = _read(out)
    assert set(module.prototypes) == {"infantry", "hq", "cavalry", UNKNOWN_TYPE}
    for slot in module.piece_slots:
        assert "prototype;" in slot.text and "prototype;" not in slot.expanded


def test_sides_turn_tracker_dice_and_boxes(synthetic, tmp_path):
    out = tmp_path / "game.vmod"
    write_module(synthetic, out, scenario="s1")
    module = _read(out)
    assert module.sides == ["red", "blue"]
    (tracker,) = module.turn_trackers
    (turn,) = tracker.levels
    assert (turn.kind, turn.name, turn.property, turn.items) == ("list", "Turn", "Turn", ["T1", "T2", "T3"])
    assert [(l.kind, l.property, l.items) for l in turn.levels] == [("list", "Phase", ["move", "fight", "end"])]
    assert [(d.name, d.n_dice, d.n_sides, d.report_format) for d in module.dice] == [
        ("1d6", 1, 6, "** $name$ = $result$ *** &lt;$PlayerName$&gt;"),
        ("2d6", 2, 6, "** $name$ = $result$ *** &lt;$PlayerName$&gt;")]
    boxes = module.find_map(BOXES_MAP)
    zones = [z.name for z in boxes.boards[0].grid.zones]
    assert zones == ["Red pool", "Eliminated", "Unplaced"]
    for z in boxes.boards[0].grid.zones:
        pts = [tuple(map(int, p.split(","))) for p in z.path.split(";")]
        cx = (min(p[0] for p in pts) + max(p[0] for p in pts)) // 2
        cy = (min(p[1] for p in pts) + max(p[1] for p in pts)) // 2
        assert boxes.location_name(cx, cy) == z.name
    assert module.metadata["name"] == module.name and module.metadata["version"] == module.version


def test_without_a_scenario_turns_are_counted(synthetic, tmp_path):
    write_module(synthetic, tmp_path / "x.vmod")
    (turn,) = _read(tmp_path / "x.vmod").turn_trackers[0].levels
    assert (turn.kind, turn.property, turn.start, turn.incr, turn.loop) == ("counter", "Turn", 1, 1, False)
    assert [l.items for l in turn.levels] == [["move", "fight", "end"]]


def test_unknown_scenario_is_a_game_data_error(synthetic, tmp_path):
    with pytest.raises(GameDataError, match="no scenario 'nope'"):
        write_module(synthetic, tmp_path / "x.vmod", scenario="nope")
    assert not list(tmp_path.iterdir())


def test_missing_phases_and_dice_are_said(synthetic, tmp_path):
    synthetic.documents["scenarios"]["scenarios"][0]["phases"] = {"value": None, "note": "SYNTHETIC unknown"}
    for t in synthetic.documents["tables"]["tables"]:
        t["dice"] = {"value": None, "note": "SYNTHETIC unknown"}
    build = write_module(synthetic, tmp_path / "x.vmod", scenario="s1")
    module = _read(tmp_path / "x.vmod")
    assert module.dice == [] and module.turn_trackers[0].levels[0].levels == []
    assert any("phases" in n for n in build.notes) and any("dice" in n for n in build.notes)


# ---------------------------------------------------------------------------------- bytes


def test_output_is_reproducible_byte_for_byte(synthetic, tmp_path):
    a, b = tmp_path / "a.vmod", tmp_path / "b.vmod"
    write_module(synthetic, a, scenario="s1")
    write_module(synthetic_game(), b, scenario="s1")
    assert a.read_bytes() == b.read_bytes()


def test_never_overwrites_its_input_and_leaves_no_partial_file(synthetic, tmp_path):
    target = tmp_path / "input.vmod"
    target.write_bytes(b"original")
    with pytest.raises(OutputError, match="overwrite the input"):
        write_module(synthetic, target, protect=[target])
    assert target.read_bytes() == b"original"
    with pytest.raises(OutputError):
        write_module(synthetic, tmp_path / "missing-folder" / "x.vmod")
    with pytest.raises(OutputError):
        write_module(synthetic, tmp_path)  # a folder
    assert sorted(os.listdir(tmp_path)) == ["input.vmod"]


def test_moduledata_member():
    data = moduledata_xml(name="A & B", version="2", description="")
    assert data.decode() == ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
                             "  <version>2</version>\n  <extra1/>\n  <extra2/>\n  <VassalVersion>3.7.14</VassalVersion>\n"
                             "  <dateSaved>1704067200000</dateSaved>\n  <description/>\n  <name>A &amp; B</name>\n</data>\n")


# ---------------------------------------------------------------------------------- structure vs real files


def _to_element(el) -> Element:
    text = el.text.strip() if el.text and el.text.strip() else None
    return Element(el.tag, dict(el.attrib), [_to_element(c) for c in el if isinstance(c.tag, str)], text)


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("vivelemperor/buildFile.xml", "nevsky/buildFile.xml"))
def test_serializer_reproduces_real_buildfiles_byte_for_byte(path):
    """The XML writer is the JDK Transformer's layout: re-serializing VASSAL's own files gives
    back their exact bytes (attribute order, escapes, TABs in text, non-BMP references)."""
    data = path.read_bytes()
    root = etree.fromstring(data, etree.XMLParser(huge_tree=True))
    assert serialize_xml(_to_element(root)) == data


def _attribute_sets(root) -> dict[str, list[frozenset[str]]]:
    out: dict[str, list[frozenset[str]]] = {}
    for el in root.iter():
        if isinstance(el.tag, str):
            out.setdefault(el.tag, []).append(frozenset(el.attrib))
    return out


@pytest.mark.samples
def test_written_buildfile_uses_the_samples_element_and_attribute_sets(synthetic, tmp_path, samples_dir):
    out = tmp_path / "game.vmod"
    write_module(synthetic, out, scenario="s1")
    with zipfile.ZipFile(out) as z:
        ours = etree.fromstring(z.read("buildFile.xml"))
    samples: dict[str, set[frozenset[str]]] = {}
    for f in ("vivelemperor/buildFile.xml", "nevsky/buildFile.xml"):
        p = samples_dir / f
        if p.exists():
            for tag, sets in _attribute_sets(etree.parse(str(p), etree.XMLParser(huge_tree=True)).getroot()).items():
                samples.setdefault(tag, set()).update(sets)
    checked = 0
    for tag, sets in _attribute_sets(ours).items():
        if tag not in samples:
            continue
        for attrs in sets:
            assert attrs in samples[tag], f"{tag}: attributes {sorted(attrs)} are not a set the samples use"
        checked += 1
    assert checked >= 20
    assert ours.tag == "VASSAL.build.GameModule"
    assert [c.tag for c in ours][:2] == ["VASSAL.build.module.BasicCommandEncoder", "VASSAL.build.module.Documentation"]


# ---------------------------------------------------------------------------------- images


def test_png_encoder_writes_what_a_decoder_reads():
    import zlib
    c = Canvas(5, 3, (1, 2, 3))
    c.set(4, 2, (250, 0, 7))
    data = c.png()
    assert image_size(data) == (5, 3)
    idat = data[data.index(b"IDAT") + 4:data.index(b"IEND") - 8]
    raw = zlib.decompress(idat)
    rows = [raw[i * 16:(i + 1) * 16] for i in range(3)]
    assert all(r[0] == 0 for r in rows)
    assert rows[0][1:4] == bytes((1, 2, 3)) and rows[2][13:16] == bytes((250, 0, 7))
    with pytest.raises(ValueError):
        encode_png(2, 2, b"\0" * 5)


def test_board_draws_terrain_unknown_grey_and_the_river(synthetic):
    import zlib
    geo, _ = B.geometry_for(synthetic, "main")
    pic = B.draw_board(synthetic, "main", geo)
    assert pic.unknown_terrain == 30 - 3
    raw = zlib.decompress(pic.png[pic.png.index(b"IDAT") + 4:pic.png.index(b"IEND") - 8])
    stride = geo.width * 3 + 1

    def pixel(x, y):
        i = y * stride + 1 + x * 3
        return tuple(raw[i:i + 3])

    # below each centre's number label: the terrain fill
    for name, colour in (("0304", B.terrain_colour("forest")), ("0203", B.terrain_colour("clear")),
                         ("0506", B.UNKNOWN_TERRAIN)):
        x, y = geo.center(name)
        assert pixel(x, y + 8) == colour
    a, b = geo.center("0304"), geo.center("0305")
    assert pixel((a[0] + b[0]) // 2, (a[1] + b[1]) // 2) == B._HEXSIDE_COLOURS["river"]
    # the road whose hex path is known runs from centre to centre
    a, b = geo.center("0203"), geo.center("0304")
    assert pixel((a[0] + b[0]) // 2, (a[1] + b[1]) // 2) == B._HEXSIDE_COLOURS["road"]


def test_a_map_too_large_to_draw_is_a_game_data_error(synthetic, tmp_path):
    synthetic.documents["map"]["maps"][0]["hexes"]["9999"] = {"terrain": {"value": "clear", "source": "SYNTHETIC"}}
    synthetic.documents["map"]["maps"][0]["hexes"]["0000"] = {"terrain": {"value": "clear", "source": "SYNTHETIC"}}
    geo, _ = B.geometry_for(synthetic, "main")  # 100 x 100 hexes still fit at the default size
    assert (geo.cols, geo.rows) == ((0, 99), (0, 99))
    with pytest.raises(GameDataError, match="too large to draw"):
        B.geometry_for(synthetic, "main", hex_height=400.0)


def test_a_map_without_a_known_layout_is_a_game_data_error(synthetic, tmp_path):
    game = dataclasses.replace(synthetic, game="no-such-game")
    game.documents["map"]["maps"][0]["layout"] = {"value": None, "note": "SYNTHETIC unknown"}
    with pytest.raises(GameDataError, match="no known hex layout"):
        write_module(game, tmp_path / "x.vmod")


def test_the_game_layout_stands_in_for_a_missing_map_layout(synthetic, tmp_path):
    synthetic.documents["map"]["maps"][0]["layout"] = {"value": None, "note": "SYNTHETIC unknown"}
    build = write_module(synthetic, tmp_path / "x.vmod")
    assert any("no hex layout" in n for n in build.notes)
    module = _read(tmp_path / "x.vmod")
    assert module.location_name(MAIN_MAP, *module.location_center(MAIN_MAP, "0405")) == "0405"


@pytest.mark.parametrize("shifted", ["odd", "even"])
def test_pointy_topped_layout_round_trips_as_a_sideways_grid(synthetic, tmp_path, monkeypatch, shifted):
    """No shipped game has horizontal hex rows; a SYNTHETIC pointy layout checks the sideways path
    (VASSAL swaps the axes, so the printed column is the numbering's row part, written first)."""
    from vlog import hexes
    monkeypatch.setitem(hexes.LAYOUTS, "synthetic-pointy", HexLayout("synthetic-pointy", "pointy", shifted))
    synthetic.documents["map"]["maps"][0]["layout"] = {"value": "synthetic-pointy", "source": "SYNTHETIC"}
    out = tmp_path / "x.vmod"
    build = write_module(synthetic, out, scenario="s1")
    module = _read(out)
    grid = module.find_map(MAIN_MAP).boards[0].grid
    assert grid.sideways and grid.numbering.first == "V"
    geo = build.geometries["Synthetic Board"]
    for h in geo.hexes():
        name = geo.name(h)
        x, y = module.location_center(MAIN_MAP, name)
        assert module.location_name(MAIN_MAP, x, y) == name
        for n in hexes.LAYOUTS["synthetic-pointy"].neighbours(h):
            if n in set(geo.hexes()):
                nx, ny = module.location_center(MAIN_MAP, geo.name(n))
                assert abs(math.hypot(nx - x, ny - y) - geo.dy) <= 2.0


_NAME = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12).map(
    lambda s: s.strip()).filter(lambda s: bool(s) and not s.endswith("\\"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(counter=_NAME, box=_NAME, side=_NAME)
def test_any_names_read_back_exactly(counter, box, side, tmp_path_factory):
    """Names with the codec's delimiters, quotes, backslashes, XML specials or non-BMP characters
    come back unchanged (SYNTHETIC data)."""
    game = synthetic_game()
    game.documents["counters"]["counters"][0]["name"] = {"value": counter, "source": "SYNTHETIC"}
    game.documents["map"]["maps"][0]["boxes"][0]["name"] = {"value": box, "source": "SYNTHETIC"}
    game.documents["scenarios"]["scenarios"][0]["sides"] = {"value": [side, side + "2"], "source": "SYNTHETIC"}
    out = tmp_path_factory.mktemp("names") / "x.vmod"
    write_module(game, out, scenario="s1")
    module = _read(out)
    assert module.piece_slots[0].name == counter and module.piece_slots[0].entry_name == counter
    zones = [z.name for z in module.find_map(BOXES_MAP).boards[0].grid.zones]
    assert zones[0] == (box if box != "Unplaced" else "Unplaced (2)")
    assert module.sides == [side, side + "2"]


def test_characters_xml_cannot_hold_are_a_game_data_error(synthetic, tmp_path):
    synthetic.documents["counters"]["counters"][0]["name"] = {"value": "bad\x01name", "source": "SYNTHETIC"}
    with pytest.raises(GameDataError, match="U\\+0001"):
        write_module(synthetic, tmp_path / "x.vmod")
    assert not list(tmp_path.iterdir())


def test_a_name_ending_with_a_backslash_is_refused(synthetic, tmp_path):
    """VASSAL's SequenceEncoder does not escape backslashes: `0\\` before a `/` reads back as `0/`."""
    synthetic.documents["counters"]["counters"][0]["name"] = {"value": "0\\", "source": "SYNTHETIC"}
    with pytest.raises(GameDataError, match="ends with a backslash"):
        write_module(synthetic, tmp_path / "x.vmod")
    assert not list(tmp_path.iterdir())


def test_a_phase_ending_with_a_backslash_is_refused(synthetic, tmp_path):
    synthetic.documents["scenarios"]["scenarios"][0]["phases"] = {"value": ["move\\", "fight"], "source": "SYNTHETIC"}
    with pytest.raises(GameDataError, match="phase 'move"):
        write_module(synthetic, tmp_path / "x.vmod", scenario="s1")


FIXTURE_MODULES = sorted((Path(__file__).resolve().parents[2] / "fixtures").glob("*/*.vmod"))


def _sample_attribute_sets(samples_dir) -> dict[str, set[frozenset[str]]]:
    samples: dict[str, set[frozenset[str]]] = {}
    for f in ("vivelemperor/buildFile.xml", "nevsky/buildFile.xml"):
        p = samples_dir / f
        if p.exists():
            for tag, sets in _attribute_sets(etree.parse(str(p), etree.XMLParser(huge_tree=True)).getroot()).items():
                samples.setdefault(tag, set()).update(sets)
    return samples


@pytest.mark.samples
@pytest.mark.parametrize("module", FIXTURE_MODULES or [pytest.param(None, marks=pytest.mark.skip(reason="no fixtures"))],
                         ids=lambda p: p.name if p else "none")
def test_every_fixture_module_uses_the_samples_element_and_attribute_sets(module, samples_dir):
    """Modules written from each game's shipped data (fixtures/): every element the samples
    also use carries one of the attribute sets they use, and moduledata has their elements
    (plus extra1/extra2, which VASSAL writes from 3.7.0)."""
    samples = _sample_attribute_sets(samples_dir)
    with zipfile.ZipFile(module) as z:
        ours = etree.fromstring(z.read("buildFile.xml"))
        moduledata = etree.fromstring(z.read("moduledata"))
    checked = set()
    for tag, sets in _attribute_sets(ours).items():
        if tag in samples:
            for attrs in sets:
                assert attrs in samples[tag], f"{tag}: attributes {sorted(attrs)} are not a set the samples use"
            checked.add(tag)
    assert len(checked) >= 20
    real = etree.parse(str(samples_dir / "nevsky" / "moduledata")).getroot()
    assert moduledata.tag == real.tag == "data" and moduledata.attrib == real.attrib
    real_children = [c.tag for c in real]
    ours_children = [c.tag for c in moduledata]
    assert [t for t in ours_children if t not in ("extra1", "extra2")] == real_children
