"""Sideshow data: spot checks of the transcription against the rulebook text, line by line."""
from __future__ import annotations

import pytest

from vlog.gamedata import load_game_data, status
from vlog.hexes import LAYOUTS

from rulebook_lines import cited_line as cited_line_in, on_line, rulebook_lines

GAME = "sideshow"


@pytest.fixture(scope="module")
def ss():
    return load_game_data(GAME)


@pytest.fixture(scope="module")
def book():
    return rulebook_lines(GAME)


def cited_line(datum) -> int:
    return cited_line_in(datum, GAME)


def test_status_counts_known_and_unknown(ss):
    states = {e.state for e in status(ss)}
    assert states == {"known", "partial", "unknown"}


def test_placement_table_rows_are_on_their_lines(ss, book):
    expected = {"1": ("Morogoro", "4511"), "2": ("Neu Moshi", "3011"), "3": ("Arusha", "2914"),
                "4": ("Bagamayo", "4406"), "5": ("Kondoa Iringa", "3516"), "6": ("Dar es Salaam", "4605")}
    for roll, (town, hex_id) in expected.items():
        hex_cell = ss.lookup("german-unit-placement", roll, "hex")
        assert (ss.lookup("german-unit-placement", roll, "town").value, hex_cell.value) == (town, hex_id)
        assert on_line(book, cited_line(hex_cell), f"{roll}\t{town} ({hex_id})")


def test_ofc_arrival_and_turn_track(ss, book):
    smuts = ss.lookup("allied-ofc-arrival", "FEB 1916", "initiative")
    assert smuts.value == 3 and on_line(book, cited_line(smuts), "FEB 1916\tSmuts\t3")
    assert ss.lookup("allied-ofc-arrival", "NOV 1914", "ofc").value == "Aitken"
    track = ss.scenario("campaign")["turn_track"]
    assert track["1"]["label"].value == "Sep 1914" and track["50"]["label"].value == "Oct 1918"
    assert track["18"]["properties"]["allied_ofc_arrives"].value == "Smuts"        # Feb 1916
    assert track["7"]["properties"]["automatic_rain"].value is True                 # Mar 1915
    assert "automatic_rain" not in track.get("8", {}).get("properties", {})
    assert ss.scenario("campaign")["turns"].value == 50


def test_attrition_adjustments(ss, book):
    cases = {"rain-turn": (2, "Rain Turn\t+2"), "end-in-town": (-3, "End movement in town\t-3"),
             "end-in-swamp-in-rain-turn": (3, "Swamp Hex in a Rain Turn (in addition to Rain)\t+3")}
    for reason, (value, text) in cases.items():
        cell = ss.lookup("attrition-adjustments", reason)
        assert cell.value == value and on_line(book, cited_line(cell), text)
    assert ss.table("attrition-adjustments")["properties"]["combine"].value is None


def test_kar_availability_and_reinforcements(ss, book):
    cell = ss.lookup("kar-availability", "October 1917", "Nairobi (1812)")
    assert cell.value == ["3/3 KAR"] and on_line(book, cited_line(cell), "October 1917\t3/3 KAR\tNairobi (1812)")
    assert ss.lookup("kar-availability", "May 1916", "Mombasa (3201)").value == []
    arrivals = {a.id: a for a in ss.reinforcements("campaign")}
    rhod = arrivals["al-6-sched"]                                                   # February 1915
    assert rhod["units"].value == ["al-2-rhod"] and rhod["turns"].value == [6]
    assert on_line(book, cited_line(rhod["what"]), "February: 2 Rhod")
    murray = arrivals["al-24-murray"]
    assert murray["hex"].value == "5733" and murray["units"].value == ["al-murray"]
    kar_uganda = arrivals["al-41-kar-uganda"]                                       # January 1918
    assert kar_uganda["units"].value == ["al-kar-5-4", "al-kar-6-4"]
    assert kar_uganda["properties"]["entry_hexes"].value == ["1033", "1016"]


def test_objectives_victory_points_and_levels(ss, book):
    offensive = ss.lookup("allied-objectives", "1915", "offensive")
    assert {"objective": "Control Central RR", "vp": 100} in offensive.value
    assert on_line(book, cited_line(offensive), "Control Central RR (100 VP)")
    assert ss.lookup("german-vp", "north-of-hexrow-50-at-end").value == 50
    assert ss.lookup("allied-vp", "german-sp-eliminated").value == 2
    level = ss.lookup("victory-levels", "1915", "German Marginal")
    assert level.value == "50-79" and on_line(book, cited_line(level), "NO\t50-79")
    truncated = ss.lookup("victory-levels", "1918", "Allied Decisive")
    assert truncated.value is None and "VIC-06" in truncated.blocks


def test_events_and_absent_tables(ss):
    assert ss.lookup("events", "C", "boxes").value == 4
    assert ss.lookup("events", "T", "boxes").value == 3
    assert ss.lookup("events", "H", "roller").value == "allied"
    assert ss.lookup("events", "A", "from").value == "March 1915 through May 1915"
    assert "J" not in ss.table("events")["axes"][0]["labels"].value
    ret = ss.lookup("random-events-table", "23")
    assert ret.value is None and "EVT-01" in ret.blocks
    assert ss.lookup("opgt", "von Lettow", "7").value is None
    example = ss.lookup("crt", "25", "4")
    assert example.value == 3 and example.partial
    assert ss.lookup("crt", "25", "5").value is None


def test_small_tables(ss):
    assert [ss.lookup("retreat-length", r).value for r in "123456"] == [1, 2, 3, 4, 4, 4]
    assert ss.lookup("multiple-attack", "3").value == "1-4" and not ss.lookup("multiple-attack", "3").partial
    assert ss.lookup("multiple-attack", "4").partial
    assert ss.lookup("lake-victoria", "5").value == "cancelled" and ss.lookup("lake-victoria", "4").value == "proceed"
    assert ss.lookup("limits", "german_zoc_min_sp").value == 12
    assert ss.lookup("limits", "allied_zoc_min_sp").value == 25
    assert ss.lookup("tec", "mountain", "combat").value == "defender-doubled"
    assert ss.lookup("tec", "forest", "combat").value == "1L"
    assert ss.lookup("tec", "clear", "movement").value is None


def test_named_hexes_and_map_facts(ss, book):
    assert ss.hexes_named("Kondoa Irangi") == ("3516",) == ss.hexes_named("kondoa iringa")
    assert ss.hexes_named("Neu Langenburg") == ("5529",)
    mombasa = ss.hex("3201")
    assert mombasa["properties"]["port_capacity"].value == 80
    assert on_line(book, cited_line(mombasa["name"]), "Mombasa (3201)")
    assert ss.hex("3516")["properties"]["objective_letter"].value == "C"
    assert ss.hex("3804")["features"].value == ["port"] and ss.hex("3804")["features"].partial
    assert ss.hexside("3311", "3310").value == ["river"] and ss.hexside("3310", "3311").partial
    assert ss.terrain("3430").value is None
    assert ss.line("uganda-railway")["properties"]["initial_control"].value == "allied"


def test_setup(ss, book):
    placements = {p.id: p for p in ss.setup("campaign")}
    dar = placements["de-dar"]
    assert dar["hex"].value == "4605"
    assert dar["units"].value == ["de-fk-10", "de-stnhm", "de-a-kngbg", "de-sk-3", "de-sk-4", "de-arab-kp"]
    assert on_line(book, cited_line(dar["units"]), "10 FK; Stnhm; A. Kngbg; 3, 4 SK; Arab KP")
    assert placements["de-bukoba"]["units"].partial
    assert placements["de-mwanza"]["units"].value is None
    assert placements["de-karema"]["units"].value is None and "MOV-13" in placements["de-karema"]["units"].blocks
    assert placements["al-nairobi"]["units"].value == ["al-kar-res", "al-kar-1-3", "al-ear", "al-eamr"]


def test_counter_names_and_hex_names_appear_on_their_cited_lines(ss, book):
    """A name cited to one line must be printed on that line, so a wrong line or a typo fails."""
    for counter_id in ss.counter_ids:
        name = ss.counter(counter_id)["name"]
        printed = name.value.replace(" column", "").replace(" Column", "")
        if name.note and name.note.startswith("one of '"):
            printed = name.note.split("'")[1]                                       # '1 to 29 FK'
        assert on_line(book, cited_line(name), printed), f"{counter_id}: {name.value!r} not on line {cited_line(name)}"
    for hex_id, record in ss.map()["hexes"].items():
        if "name" in record:
            assert on_line(book, cited_line(record["name"]), record["name"].value), hex_id


def test_every_hex_in_the_data_parses_on_the_sideshow_grid(ss):
    layout = LAYOUTS["sideshow"]
    board = ss.map()
    named = list(board["hexes"]) + [h for key in board["hexsides"] for h in key.split("/")]
    for zone in board["zones"]:
        for field in ("hexes", "known_hexes"):
            if field in zone and zone[field].value:
                named.extend(zone[field].value)
    for entry in ss.setup("campaign") + ss.reinforcements("campaign"):
        if "hex" in entry:
            named.append(entry["hex"].value)
    for hex_id in named:
        assert layout.on_map(layout.parse(hex_id)), hex_id
    assert layout.distance(layout.parse("3201"), layout.parse("3804")) == 6


def test_printed_schedule_objective_and_event_cells_are_on_their_lines(ss, book):
    """Whole rows of the printed charts, compared with the line each cell cites."""
    schedule = ss.table("reinforcement-schedule")
    for month in schedule["axes"][0]["labels"].value:
        cell = ss.lookup("reinforcement-schedule", month)
        assert on_line(book, cited_line(cell), cell.value), month
    objectives = ss.table("allied-objectives")
    for year in objectives["axes"][0]["labels"].value:
        for category in ("offensive", "defensive"):
            cell = ss.lookup("allied-objectives", year, category)
            for entry in cell.value:
                assert on_line(book, cited_line(cell), f"{entry['objective']} ({entry['vp']} VP"), (year, entry)
    for letter in ss.table("events")["axes"][0]["labels"].value:
        name = ss.lookup("events", letter, "name")
        assert on_line(book, cited_line(name), f"{letter}. {name.value}"), letter


def test_vlog_data_status_reports_the_game(capsys):
    import json as json_module

    from vlog.cli import main

    assert main(["data", "status", "sideshow", "--format", "json"]) == 0
    report = json_module.loads(capsys.readouterr().out)
    assert report["game"] == "sideshow"
    assert report["counts"]["known"] > 0 and report["counts"]["unknown"] > 0 and report["counts"]["overridden"] == 0
    assert all(entry["source"] for entry in report["data"] if entry["state"] in ("known", "partial"))
    assert main(["data", "status", "sideshow"]) == 0
    assert "checks disabled by unknown data" in capsys.readouterr().out
