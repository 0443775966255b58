"""`vlog bind` / vlog.binding: drafting a game's VASSAL bindings from a module.

The module below is SYNTHETIC, written by this test (no real module for these games is shipped):
its piece, layer, location and turn tracker names are made up to exercise each way of matching.
The real sample module (another game) shows the unmatched report on a module that fits nothing.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import sample_params
from vlog.binding import draft_binding, location_names, normalise
from vlog.cli import main
from vlog.gamedata import load_game_data, validate_document
from vlog.vassal.module import read_module
from vlog.vassal.pieces import join_chain
from vlog.vassal.sequence import Encoder

P = "VASSAL.build.module."
B = "VASSAL.build.module.map.boardPicker."


def _se(delim: str, tokens: list[object]) -> str:
    enc = Encoder(delim)
    for token in tokens:
        enc.append(token)
    return enc.value() or ""


def _layer(name: str, images: list[str], level_names: list[str]) -> str:
    fields: list[object] = [""] * 29
    fields[15], fields[16], fields[18], fields[24] = _se(",", images), _se(",", level_names), name, 1
    return "emb2;" + _se(";", fields)


def _slot(entry: str, gpid: str, traits: list[tuple[str, str]] = ()) -> str:
    types = [t for t, _ in traits] + [f"piece;;;{gpid}.png;{entry}"]
    states = [s for _, s in traits] + [f"null;0;0;{gpid};0"]
    text = _se("/", ["+", "null", join_chain(types), join_chain(states)])
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'<VASSAL.build.widget.PieceSlot entryName="{entry}" gpid="{gpid}" height="40" width="40">{text}</VASSAL.build.widget.PieceSlot>'


STEP = _layer("Step", ["s4.png", "s3.png", "s2.png", "s1.png"], ["", "", "", ""])
HQ_SIDE = _layer("HQ side", ["cs.png", "m.png"], ["+ (CS)", "+ (M)"])
NOT_A_STEP = _layer("Fired", ["a.png", "b.png", "c.png"], ["", "", ""])


def synthetic_build_file() -> str:
    slots = "\n".join([
        _slot("Sb", "10", [(STEP, "1")]),                          # exact printed name
        _slot("PL Div", "11", [(STEP, "1"), (NOT_A_STEP, "1")]),     # designation inside the name
        _slot("1st CA HQ", "12", [(HQ_SIDE, "1")]),                 # ordinal + words: 1CA
        _slot("Mystery unit", "13"),                               # nothing fits
        _slot("Anything", "14", [("mark;CounterId", "it-sn")]),     # the counter id named by a marker
    ])
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule VassalVersion="3.7.14" description="SYNTHETIC test module" name="Synthetic Judah" nextPieceSlotId="20" version="0.1">
  <{P}turn.TurnTracker name="Turn" turnFormat="$level1$ $level2$">
    <{P}turn.CounterTurnLevel name="Turn" property="Turn" start="1" incr="1">
      <{P}turn.ListTurnLevel name="Phase" property="Phase" list="Event,First Player Movement,Mutual Administration,Coffee Break"/>
    </{P}turn.CounterTurnLevel>
  </{P}turn.TurnTracker>
  <{P}turn.TurnTracker name="Months" turnFormat="$level1$">
    <{P}turn.ListTurnLevel name="Month" property="Month" list="Oct 1935,Nov 1935"/>
  </{P}turn.TurnTracker>
  <{P}PieceWindow name="Pieces">
    <VASSAL.build.widget.PanelWidget entryName="Italian">
{slots}
    </VASSAL.build.widget.PanelWidget>
  </{P}PieceWindow>
  <{P}Map mapName="Main Map">
    <{P}map.BoardPicker>
      <{B}Board name="Ethiopia" width="600" height="500">
        <{B}board.HexGrid dx="55.42562584220407" dy="64.0" x0="0" y0="32">
          <{B}board.mapgrid.HexGridNumbering first="H" sep="" hOff="1" vOff="1" hLeading="1" vLeading="1" locationFormat="Hex $gridLocation$"/>
        </{B}board.HexGrid>
      </{B}Board>
    </{P}map.BoardPicker>
  </{P}Map>
  <{P}Map mapName="At start">
    <{P}map.SetupStack name="Reserve" owningBoard="Holding" useGridLocation="false" x="10" y="10">
      {_slot("Sb", "10", [(STEP, "1")])}
      {_slot("GS", "15")}
    </{P}map.SetupStack>
    <{P}map.BoardPicker><{B}Board name="Holding" width="50" height="50"/></{P}map.BoardPicker>
  </{P}Map>
  <{P}Map mapName="Boxes">
    <{P}map.BoardPicker>
      <{B}Board name="Boxes" width="400" height="100">
        <{B}board.RegionGrid snapto="true" visible="false">
          <{B}board.Region name="Khartoum" originx="50" originy="50"/>
          <{B}board.Region name="Sudan RP storage box" originx="150" originy="50"/>
          <{B}board.Region name="Mystery Box" originx="250" originy="50"/>
        </{B}board.RegionGrid>
      </{B}Board>
    </{P}map.BoardPicker>
  </{P}Map>
</VASSAL.build.GameModule>
"""


@pytest.fixture
def synthetic_module(tmp_path: Path) -> Path:
    path = tmp_path / "buildFile.xml"
    path.write_text(synthetic_build_file(), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def loj():
    return load_game_data("lion-of-judah")


def test_normalise_drops_case_punctuation_and_ordinals():
    assert normalise("1st  C.A.") == "1ca"
    assert normalise("2/34") == "234"
    assert normalise("Débarquement") == "debarquement"


def test_location_names_sample_every_hex_of_a_sized_board(synthetic_module):
    module = read_module(synthetic_module)
    names, notes = location_names(module.find_map("Main Map"))
    grid = module.find_map("Main Map").boards[0].grid
    # every hex centre on the board carries a name that the sampling found
    for col in range(0, 11):
        for row in range(0, 8):
            x, y = int(col * grid.dx), int(32 + row * grid.dy + (grid.dy / 2 if col % 2 else 0))
            if x < 600 and y < 500:
                assert grid.location_name(x, y) in names
    assert all(n.startswith("Hex ") for n in names) and notes == []
    regions, _ = location_names(module.find_map("Boxes"))
    assert {"Khartoum", "Sudan RP storage box", "Mystery Box"} <= set(regions)


def test_draft_matches_pieces_layers_locations_and_turns(synthetic_module, loj):
    draft = draft_binding(read_module(synthetic_module), loj, module_file="buildFile.xml")
    validate_document("bindings", draft.document, "draft")
    doc = draft.document
    counters = {p["piece_name"]["value"]: p["counter"]["value"] for p in doc["pieces"]}
    # "GS" is placed at start only (a setup stack); "Sb" is in both and counted once
    assert counters == {"Sb": "it-sb", "PL Div": "it-pl", "1st CA HQ": "it-1ca", "Anything": "it-sn", "GS": "it-gs"}
    assert {p["gpid"]["value"] for p in doc["pieces"]} == {"10", "11", "12", "14", "15"}
    assert "designation" in next(p for p in doc["pieces"] if p["gpid"]["value"] == "11")["counter"]["source"]
    assert "counter id marker" in next(p for p in doc["pieces"] if p["gpid"]["value"] == "14")["counter"]["source"]
    missed = {(u.kind, u.name) for u in draft.unmatched}
    assert ("piece", "Mystery unit") in missed

    layers = {layer["layer_name"]["value"]: layer for layer in doc["layers"]}
    # the step layer has no telling level names: mapped by position and flagged for confirmation
    assert layers["Step"]["levels"]["value"] == {"1": "4", "2": "3", "3": "2", "4": "1"}
    assert "position" in layers["Step"]["levels"]["note"]
    assert sorted(layers["Step"]["applies_to"]["value"]) == ["it-pl", "it-sb"]
    assert any("Step" in item for item in draft.to_confirm)
    # the HQ layer's level names say which face is which
    assert layers["HQ side"]["levels"]["value"] == {"1": "cs", "2": "m"}
    assert "note" not in layers["HQ side"]["levels"]
    assert ("layer", "Fired") in missed   # 3 levels on a 4-step counter

    locations = doc["locations"]
    hexes = next(r for r in locations if r["vassal_map"]["value"] == "Main Map")
    assert hexes["pattern"]["value"] == "Hex\\ ([0-9]{4})" and hexes["hex"]["value"] == "\\1"
    assert hexes["map"]["value"] == "main"
    by_pattern = {r["pattern"]["value"]: r for r in locations}
    assert by_pattern["Khartoum"]["hex"]["value"] == loj.hexes_named("Khartoum")[0]
    assert by_pattern["Sudan\\ RP\\ storage\\ box"]["box"]["value"] == "rp-sudan"
    assert ("location", "Mystery Box") in missed

    turns = {t["name"]["value"]: t for t in doc["turn_track"]}
    assert turns["Turn"]["turns"]["value"]["1"] == 1
    assert turns["Phase"]["phases"]["value"] == {"Event": "event", "First Player Movement": "first-player-movement",
                                                 "Mutual Administration": "mutual-administration"}
    assert turns["Month"]["turns"]["value"] == {"Oct 1935": 1, "Nov 1935": 2}
    assert ("turn", "Coffee Break") in missed
    assert draft.matched == {"piece": 5, "layer": 2, "location": draft.seen["location"] - 1, "turn": 3}


def test_draft_is_usable_as_an_overlay(synthetic_module, loj, tmp_path):
    draft = draft_binding(read_module(synthetic_module), loj)
    folder = tmp_path / "overlay"
    folder.mkdir()
    (folder / "binding.json").write_text(json.dumps(draft.document), encoding="utf-8")
    data = load_game_data("lion-of-judah", overlays=[folder])
    assert {p["counter"].value for p in data.bindings["pieces"]} == {"it-sb", "it-pl", "it-1ca", "it-sn", "it-gs"}


def test_current_bindings_gpid_of_a_renamed_piece_is_offered_not_trusted(synthetic_module, loj, tmp_path):
    """A gpid bound earlier to a piece of another name may be another module's gpid: the piece is
    not bound by it, and its earlier counter comes first among the candidates to review."""
    folder = tmp_path / "overlay"
    folder.mkdir()
    first = draft_binding(read_module(synthetic_module), loj)
    (folder / "binding.json").write_text(json.dumps(first.document), encoding="utf-8")
    renamed = tmp_path / "v2.xml"
    renamed.write_text(synthetic_build_file().replace('entryName="PL Div" gpid="11"', 'entryName="Zzz" gpid="11"')
                       .replace(";PL Div", ";Zzz"), encoding="utf-8")
    again = draft_binding(read_module(renamed), load_game_data("lion-of-judah", overlays=[folder]))
    assert not [p for p in again.document["pieces"] if p.get("gpid", {}).get("value") == "11"]
    [zzz] = [u for u in again.unmatched if u.name == "Zzz"]
    assert zzz.candidates[0] == "it-pl" and zzz.gpid == "11"
    assert zzz.evidence[0] == "0: gpid 11 is bound to it-pl in the current bindings, as 'PL Div': the names differ " \
                              "(another module's gpids?)"
    # the pieces whose names agree keep their gpids
    assert any(p.get("gpid", {}).get("value") == "10" and "gpid in the game's current bindings" in p["counter"]["source"]
               for p in again.document["pieces"])


def test_cli_writes_refuses_to_overwrite_and_reports(synthetic_module, tmp_path, capsys):
    out = tmp_path / "binding.json"
    assert main(["bind", str(synthetic_module), "--game", "lion-of-judah", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "pieces: 5 of 6 matched, 1 not matched" in text
    assert "'Mystery unit'" in text and "to confirm (1):" in text
    written = json.loads(out.read_text(encoding="utf-8"))
    validate_document("bindings", written, str(out))
    before = out.read_bytes()
    assert main(["bind", str(synthetic_module), "--game", "lion-of-judah", "-o", str(out)]) == 3
    assert "already exists" in capsys.readouterr().err
    assert out.read_bytes() == before
    assert main(["bind", str(synthetic_module), "--game", "lion-of-judah", "-o", str(synthetic_module), "--force"]) == 3
    assert "input" in capsys.readouterr().err
    assert main(["bind", str(synthetic_module), "--game", "lion-of-judah", "-o", str(out), "--force",
                 "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["matched"]["piece"] == 5 and report["unmatched_counts"]["piece"] == 1
    assert [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_cli_help_has_an_example(capsys):
    assert main(["bind", "--help"]) == 0
    assert "vlog bind LionOfJudah.vmod --game lion-of-judah" in capsys.readouterr().out


def test_cli_unknown_game_and_missing_module(synthetic_module, tmp_path, capsys):
    assert main(["bind", str(synthetic_module), "--game", "chess", "-o", str(tmp_path / "b.json")]) == 3
    assert main(["bind", str(tmp_path / "absent.vmod"), "--game", "ascari", "-o", str(tmp_path / "b.json")]) == 3
    assert not (tmp_path / "b.json").exists()


def _palette_module(tmp_path: Path, panels: dict[str, list[str]]) -> Path:
    body = "\n".join(f'<VASSAL.build.widget.PanelWidget entryName="{panel}">' + "".join(slots)
                     + "</VASSAL.build.widget.PanelWidget>" for panel, slots in panels.items())
    path = tmp_path / "palette.xml"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule VassalVersion="3.7.14" name="Synthetic palette" version="0.1">
  <{P}PieceWindow name="Pieces">{body}</{P}PieceWindow>
</VASSAL.build.GameModule>""", encoding="utf-8")
    return path


def test_factors_and_palette_side_narrow_shared_designations(tmp_path):
    """Island of Death prints '12' (Allied) and '1/2' (Axis): both read as 12 once punctuation goes."""
    iod = load_game_data("island-of-death")
    path = _palette_module(tmp_path, {
        "Allied": [_slot("12", "1")],                 # side word in the palette folder
        "Misc": [_slot("12", "2"), _slot("1/2 6-7-7", "3")],  # no side; factors printed in the name
        "Axis": [_slot("12", "4")],
    })
    draft = draft_binding(read_module(path), iod)
    counters = {p["gpid"]["value"]: p["counter"]["value"] for p in draft.document["pieces"]}
    assert counters == {"1": "al-12", "3": "ax-ram-1-2", "4": "ax-ram-1-2"}
    assert "factors" in next(p for p in draft.document["pieces"] if p["gpid"]["value"] == "3")["counter"]["source"]
    ambiguous = next(u for u in draft.unmatched if u.kind == "piece" and u.where.endswith("gpid 2"))
    assert ambiguous.reason == "several counters fit" and set(ambiguous.candidates) == {"al-12", "ax-ram-1-2"}
    # one piece name ("12") standing for two counters is reported: only gpids tell such pieces apart
    clash = next(u for u in draft.unmatched if u.where == "piece names")
    assert clash.name == "12" and set(clash.candidates) == {"al-12", "ax-ram-1-2"}


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("vivelemperor/buildFile.xml"))
def test_module_of_another_game_is_reported_unmatched(path, tmp_path, capsys):
    out = tmp_path / "binding.json"
    assert main(["bind", str(path), "--game", "ascari", "-o", str(out), "--format", "json"]) == 3
    printed = capsys.readouterr()
    report = json.loads(printed.out)
    assert printed.err == ("vlog: error: none of the 129 pieces of module \"Vive L'Empereur! 1.0\" matches a counter "
                           f"of ascari: it is not a module of that game (check --game); {out} was not written\n")
    assert report["output"] is None and not out.exists()
    module = read_module(path)
    # the palette is another game's: no piece is taken for an Ascari counter, each one is listed
    palette_and_setup = {(s.gpid, s.name or s.entry_name) for s in
                         [*module.piece_slots, *(p for st in module.setup_stacks for p in st.pieces)] if not s.card}
    assert report["seen"]["piece"] == len(palette_and_setup)
    assert report["matched"]["piece"] == 0
    assert report["unmatched_counts"]["piece"] == report["seen"]["piece"]
    # its boxes and track spaces are no Ascari hex or box, and are listed by name
    names = {u["name"] for u in report["unmatched"] if u["kind"] == "location"}
    assert "French Graveyard" in names and "Turn 1" in names
    # the board image is not in hand, so the report says the map was sampled only in part
    assert any("image size unknown" in note for note in report["notes"])


def test_module_of_another_game_binds_nothing_and_exits_3(tmp_path, capsys):
    """The Ascari module vlog writes, bound as Lion of Judah: no piece matches, nothing is written."""
    from converters.vmod_writer import write_module

    write_module(load_game_data("ascari"), tmp_path / "ascari.vmod")
    out = tmp_path / "binding.json"
    assert main(["bind", str(tmp_path / "ascari.vmod"), "--game", "lion-of-judah", "-o", str(out)]) == 3
    printed = capsys.readouterr()
    assert printed.err.startswith("vlog: error: none of the 121 pieces of module 'Ascari: African Battles of the "
                                  "Italian Army 1890-1895 (vlog) 1.0' matches a counter of lion-of-judah")
    assert "nothing matched, nothing written" in printed.out and "pieces: 0 of 121 matched" in printed.out
    assert not out.exists()


@pytest.mark.parametrize("grid", [
    'dx="NaN" dy="64.0"', 'dx="0" dy="0"', 'dx="-5" dy="1e300"', 'dx="1e-9" dy="1e-9"'])
def test_hostile_grid_geometry_gives_a_report_not_a_crash(tmp_path, grid, capsys):
    text = synthetic_build_file().replace('dx="55.42562584220407" dy="64.0"', grid)
    text = text.replace('width="600" height="500"', 'width="2000000000" height="2000000000"')
    path = tmp_path / "buildFile.xml"
    path.write_text(text, encoding="utf-8")
    code = main(["bind", str(path), "--game", "lion-of-judah", "-o", str(tmp_path / "b.json")])
    assert code in (0, 3), capsys.readouterr().err
    if code == 0:
        validate_document("bindings", json.loads((tmp_path / "b.json").read_text(encoding="utf-8")), "b.json")


@pytest.mark.parametrize("game", ["lion-of-judah", "island-of-death", "ascari", "sideshow"])
def test_module_written_from_the_game_data_binds_completely(game, tmp_path):
    """A module vlog writes from a game's data (converters.vmod_writer) binds every counter, hex,
    box-free location and turn tracker level; only its holding zone for unplaced units is left."""
    from converters.vmod_writer import UNPLACED_BOX, write_module

    data = load_game_data(game)
    write_module(data, tmp_path / "m.vmod")
    draft = draft_binding(read_module(tmp_path / "m.vmod"), data)
    validate_document("bindings", draft.document, "draft")
    assert {p["counter"]["value"] for p in draft.document["pieces"]} == set(data.counter_ids)
    assert draft.matched["piece"] == draft.seen["piece"] == len(data.counter_ids)
    assert draft.matched["turn"] == draft.seen["turn"] == 2
    assert {u.name for u in draft.unmatched if u.kind == "location"} <= {UNPLACED_BOX}
    assert not [u for u in draft.unmatched if u.kind in ("layer", "turn")]
    # one layer name may mean different levels on different counters: records never overlap
    by_name: dict[str, list[set[str]]] = {}
    for layer in draft.document["layers"]:
        by_name.setdefault(layer["layer_name"]["value"], []).append(set(layer["applies_to"]["value"]))
    for sets in by_name.values():
        assert sum(len(s) for s in sets) == len(set().union(*sets))


def test_location_questions_take_a_box_id_or_one_of_the_hexes_the_name_fits():
    """A location named like several hexes is answered with one of them; a renamed box with a box
    id; anything else is refused naming what would do; grid numbers outside the layout are not asked."""
    from vlog.binding import BindingDraft, Unmatched
    from vlog.binding_review import apply_answers, questions
    from vlog.errors import GameDataError

    def draft() -> BindingDraft:
        doc = {"game": "g", "pieces": [], "layers": [], "locations": [], "turn_track": []}
        return BindingDraft(doc, {}, {}, unmatched=[
            Unmatched("location", "Gondar", "map 'Main'", "names several hexes: 0911, 0912", ("0911", "0912"),
                      vassal_map="Main"),
            Unmatched("location", "Dead Pile", "map 'Boxes'", "is no hex name ...", ("dead",), ("shares 'dead'",),
                      vassal_map="Boxes"),
            Unmatched("location", "02-01", "map 'Main'", "is a grid number outside the game's layout")])

    d = draft()
    assert [q.id for q in questions(d)] == ["location:Main:Gondar", "location:Boxes:Dead Pile"]
    with pytest.raises(GameDataError, match="nor one of the hexes 0911, 0912"):
        apply_answers(d, {"location:Main:Gondar": "1305"}, set(), {"dead"})
    assert apply_answers(d, {"location:Main:Gondar": "0912", "location:Boxes:Dead Pile": "dead"}, set(), {"dead"}) == 2
    assert [(r["pattern"]["value"], r.get("hex", r.get("box"))["value"]) for r in d.document["locations"]] == [
        ("Gondar", "0912"), ("Dead\\ Pile", "dead")]
    assert questions(d) == []
