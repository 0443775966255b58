"""Lion of Judah data: what the rulebook gives is there with its source; what it does not is null."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from vlog.gamedata import load_game_data, status

GAME = "lion-of-judah"


@pytest.fixture(scope="module")
def loj():
    return load_game_data(GAME)


def test_crt_cells_from_examples_are_partial_and_sourced(loj):
    cell = loj.lookup("crt", "1:1", 5)
    assert cell.value == "2/1" and cell.partial
    assert cell.source.startswith("12.11 example (lion-of-judah.txt line ")
    assert loj.lookup("crt", "5:1", "6").value == "0/3+R"
    assert loj.lookup("crt", "7:1", "2").value == "0/2"
    missing = loj.lookup("crt", "3:1", "4")
    assert missing.value is None and "player aid card" in missing.note and "CB-19" in missing.blocks
    assert missing.path == "$.tables[id=crt].default_cell"


def test_table_labels_and_listed_cells(loj):
    crt = loj.table("crt")
    assert crt.axes == ("column", "roll")
    assert crt.labels("roll").value == ["1", "2", "3", "4", "5", "6", "7"]
    assert crt.labels("column").partial
    cells = crt.listed_cells()
    assert {k: d.value for k, d in cells.items()} == {
        ("1:1", "5"): "2/1", ("5:1", "5"): "0/3", ("5:1", "6"): "0/3+R", ("7:1", "2"): "0/2"}
    assert cells[("5:1", "6")].path == '$.tables[id=crt].cells["5:1"]["6"]'
    with pytest.raises(KeyError, match="has no axis 'odds'"):
        crt.labels("odds")


def test_ethiopian_crt_columns_are_unknown_but_examples_kept(loj):
    table = loj.table("crt-ethiopian")
    assert table["axes"][0]["labels"].value is None
    assert loj.lookup("crt-ethiopian", "4:1", "6").value == "0/2+R"


def test_table_lookup_needs_one_label_per_axis(loj):
    with pytest.raises(ValueError, match="table crt has 2 axes"):
        loj.lookup("crt", "1:1")


def test_tec_gives_stated_entries_only(loj):
    assert loj.lookup("tec", "mountain", "movement-foot").value == 2
    assert loj.lookup("tec", "river-hexside", "movement-foot").value == "+1"
    assert loj.lookup("tec", "town", "combat").value == "1L"
    assert loj.lookup("tec", "clear", "stacking").value == 4
    unknown = loj.lookup("tec", "clear", "movement-foot")
    assert unknown.value is None and "MV-01" in unknown.blocks


def test_named_hexes_terrain_and_hexsides(loj):
    assert loj.hexes_named("Addis Abeba") == ("1213",) == loj.hexes_named("addis ababa")
    assert loj.terrain("1307").value == "mountain"
    assert loj.hex("1308")["features"].value == ["amba"]
    assert loj.hexside("1314", "1214").value == ["river"]
    assert loj.hexside("1214", "1313").value == []
    far = loj.terrain("0101")
    assert far.value is None and "MV-01" in far.blocks and far.path == "$.maps[id=main].default_terrain"
    assert loj.hex("0101") is None


def test_layout_comes_from_vlog_hexes(loj):
    layout = loj.layout()
    assert layout.distance(layout.parse("1310"), layout.parse("1208")) == 3   # PB 15.1.2: Amba Aradam outside two hexes


def test_lines_know_their_ends_not_their_hexes(loj):
    rail = loj.line("rail-massawa-dongolaas")
    assert rail["endpoints"].value == ["1405", "1104"]
    assert rail["hexes"].value is None and "MV-36" in rail["hexes"].blocks


def test_counters_with_factors_from_the_text(loj):
    sabauda = loj.counter("it-sb")
    assert sabauda["steps"].value == 4
    level = sabauda["levels"]["4"]
    assert (level["attack"].value, level["defense"].value, level["movement"].value) == (5, 7, 4)
    assert sabauda["levels"]["3"]["attack"].value is None
    peloritana = loj.counter("it-pl")["levels"]
    assert (peloritana["2"]["attack"].value, peloritana["2"]["defense"].value) == (3, 4)
    assert loj.counter("al-dummy")["count"].value == 12
    assert loj.counter("it-csi")["levels"]["m"]["movement"].value == 4
    assert loj.counters_named("sb") == ("it-sb",)
    assert loj.counters_named("BoO") == ("ff-bdo",)
    assert loj.counters_named("Nobody") == ()
    with pytest.raises(KeyError, match="no counter with id 'nobody'"):
        loj.counter("nobody")


def test_scenarios_setup_and_turn_track(loj):
    assert loj.scenario_ids == ("1935-36", "1940-41")
    for scenario_id, turns, first, last in (("1935-36", 7, "Oct 1935", "Apr 1936"), ("1940-41", 11, "Jun 1940", "Apr 1941")):
        scenario = loj.scenario(scenario_id)
        assert scenario["turns"].value == turns
        track = scenario["turn_track"]
        assert len(track) == turns and track["1"]["label"].value == first and track[str(turns)]["label"].value == last
    setup = {p.id: p for p in loj.setup("1935-36")}
    shoa = setup["et-shoa"]
    assert (shoa["hex"].value, shoa["within"].value, shoa["count"].value) == ("1213", 2, 11)
    assert setup["it-n-21a"]["hex"].value == "1405"
    arrivals = {a.id: a for a in loj.reinforcements("1940-41")}
    assert arrivals["al-rp-7-11"]["turns"].value == [7, 8, 9, 10, 11] and arrivals["al-rp-7-11"]["points"].value == 4
    assert arrivals["al-units"]["turns"].value is None


def test_vp_tables(loj):
    assert loj.lookup("vp-hexes-1935-36", "1213").value == 8
    assert loj.lookup("vp-hexes-1935-36", "1104").value == 0
    assert loj.lookup("vp-hexes-1940-41", "1405").value == 2
    assert loj.lookup("vp-hexes-1940-41", "0101").value == 0


def test_bindings_are_unknown(loj):
    assert loj.bindings["module"]["name"].value is None
    assert loj.bindings["pieces"] == ()


def test_overlay_overrides_a_crt_cell_and_adds_terrain(tmp_path):
    overlay = tmp_path / "mine"
    overlay.mkdir()
    tables = overlay / "tables.json"
    tables.write_text(json.dumps({
        "kind": "tables", "game": GAME,
        "tables": [{"id": "crt", "cells": {"3:1": {"4": {"value": "1/2", "source": "CRT, player aid card"}},
                                           "1:1": {"5": {"value": "2/2"}}}}]}), encoding="utf-8")
    terrain = overlay / "map.json"
    terrain.write_text(json.dumps({
        "kind": "map", "game": GAME,
        "maps": [{"id": "main", "hexes": {"1306": {"terrain": {"value": "rough", "source": "map"}}}}]}), encoding="utf-8")
    loj = load_game_data(GAME, overlays=[overlay])
    added = loj.lookup("crt", "3:1", "4")
    assert added.value == "1/2" and added.source == f"user overlay: {tables} (CRT, player aid card)"
    changed = loj.lookup("crt", "1:1", "5")
    assert changed.value == "2/2" and changed.source == f"user overlay: {tables}" and not changed.partial
    assert loj.lookup("crt", "5:1", "5").value == "0/3"          # untouched cells keep their source
    assert loj.lookup("crt", "5:1", "5").source.startswith("example of play")
    assert loj.terrain("1306").value == "rough" and loj.terrain("1306").overridden
    assert loj.terrain("1307").value == "mountain"
    states = {(Path(e.file).name, e.path): e.state for e in status(loj)}
    assert states[("tables.json", '$.tables[id=crt].cells["3:1"]["4"]')] == "overridden"
    assert states[("tables.json", '$.tables[id=crt].cells["1:1"]["5"]')] == "overridden"
    assert states[("map.json", '$.maps[id=main].hexes["1306"].terrain')] == "overridden"
    assert states[("tables.json", '$.tables[id=crt].cells["5:1"]["5"]')] == "partial"


RULEBOOK = Path(__file__).resolve().parents[2].parent / "shared" / "rulebooks" / "lion-of-judah.txt"


def _cited_line(datum) -> str:
    match = re.search(r"lion-of-judah\.txt line (\d+)\)$", datum.source or "")
    assert match, f"{datum.path}: source {datum.source!r} cites no rulebook line"
    return RULEBOOK.read_text(encoding="utf-8").splitlines()[int(match.group(1)) - 1]


@pytest.fixture
def rulebook():
    if not RULEBOOK.is_file():
        pytest.skip("../shared/rulebooks is absent")


def test_hex_names_appear_with_their_hex_on_the_cited_line(loj, rulebook):
    hexes = loj.map()["hexes"]
    checked = 0
    for hex_id in hexes:
        record = hexes[hex_id]
        for field in ("name", "aliases"):
            if field not in record:
                continue
            datum = record[field]
            names = datum.value if isinstance(datum.value, list) else [datum.value]
            line = _cited_line(datum)
            for name in names:
                assert name in line, f"{hex_id} {name!r} not on: {line[:120]}"
                checked += 1
    assert checked >= 30


def test_counter_names_appear_on_the_cited_line(loj, rulebook):
    for counter_id in loj.counter_ids:
        datum = loj.counter(counter_id)["name"]
        line = _cited_line(datum)
        words = datum.value.split()
        key = words[1] if words[0] == "Italian" and len(words) > 1 else words[0]
        assert re.search(rf"(?<![\w]){re.escape(key)}(?![\w])", line, re.IGNORECASE), \
            f"{counter_id}: {datum.value!r} not on: {line[:120]}"


@pytest.mark.parametrize("table_id", ["vp-hexes-1935-36", "vp-hexes-1940-41"])
def test_vp_rows_appear_on_the_cited_line(loj, rulebook, table_id):
    for (hex_id,), datum in loj.table(table_id).listed_cells().items():
        line = _cited_line(datum)
        assert hex_id in line and str(abs(datum.value)) in line, f"{table_id} {hex_id}: {line[:120]}"


def test_crt_cells_appear_on_the_cited_line(loj, rulebook):
    for table_id in ("crt", "crt-ethiopian"):
        for labels, datum in loj.table(table_id).listed_cells().items():
            assert datum.value in _cited_line(datum), (table_id, labels)


def test_a_movement_class_is_known_only_with_the_type_it_follows_from(loj):
    """2.3.8 gives the class by type; 2E's type is not in the text, so neither is its class."""
    eritrean = loj.counter("it-2e")
    assert eritrean["type"].value is None and eritrean["movement_class"].value is None
    assert "type is not in the text" in eritrean["movement_class"].note
    assert "MV-02" in eritrean["movement_class"].blocks
    sabauda = loj.counter("it-sb")["movement_class"]
    assert sabauda.value == "foot" and sabauda.derived[0] == "2.3.8" and "type infantry" in sabauda.derived[1]
    tanks = loj.counter("it-lt4")["movement_class"]
    assert tanks.value == "motorized" and tanks.derived is not None
    assert loj.counter("de-dmk")["movement_class"].value == "motorized"    # stated for DMK itself (line 1563)


def test_sides_cite_the_line_that_names_the_unit(loj):
    """Not the set-up order's opening line ("The Italian player sets up second")."""
    from tests.games.rulebook_lines import cited_line, on_line, rulebook_lines

    book = rulebook_lines(GAME)
    for counter, name in (("it-sb", "SB"), ("it-2e", "2E"), ("it-21a", "21A"), ("et-leader-shoa", "Ras Mulugheta"),
                          ("gb-sdf1", "SDF1"), ("it-sn", "SN"), ("ff-ts", "TS")):
        side = loj.counter(counter)["side"]
        assert on_line(book, cited_line(side, GAME), name), (counter, side.source)
    for counter in loj.counter_ids:
        line = cited_line(loj.counter(counter)["side"], GAME, required=False)
        assert line not in (1011, 1032, 1389, 1417), (counter, "cites the set-up order's first line")


def test_no_nationality_rests_on_the_colour_scheme_line(loj):
    """2.3.4's first line says the colours show nationality (on the counters); a unit's nationality
    cites the line that names it, or says how it is derived."""
    from tests.games.rulebook_lines import cited_line

    for cid in loj.counter_ids:
        nationality = loj.counter(cid).get("nationality")
        if nationality is None or nationality.value is None:
            continue
        assert cited_line(nationality, GAME, required=False) not in (187, 189), cid
    colonial = loj.counter("it-1e")["nationality"]
    assert colonial.value == "italian" and colonial.derived[0] == "2.3.4"
    assert loj.counter("gb-kar1")["nationality"].derived[0] == "PB 14.3.3"


def test_the_example_of_play_fixes_two_activation_rows(loj):
    """PB 13.6.2's table is on the player aid card; the example of play gives a 5 (no modifier) as
    a full activation and Ras Imru's 6 + 1 as a surprise tactical activation."""
    full = loj.lookup("ethiopian-activation", "5")
    surprise = loj.lookup("ethiopian-activation", "7")
    assert full.value == "full activation" and full.source.endswith("line 1916)")
    assert surprise.value == "surprise tactical activation" and surprise.derived[0] == "PB 13.6.2"
    assert loj.lookup("ethiopian-activation", "3").value is None
    assert loj.table("ethiopian-activation").labels("roll").value is None      # the rows are not all known
