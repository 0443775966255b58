"""Island of Death data: spot checks of the transcription against the rulebook text, line by line."""
from __future__ import annotations

import pytest

from vlog.gamedata import load_game_data, status
from vlog.hexes import LAYOUTS

from rulebook_lines import cited_line as cited_line_in, on_line, rulebook_lines

GAME = "island-of-death"


@pytest.fixture(scope="module")
def iod():
    return load_game_data(GAME)


@pytest.fixture(scope="module")
def book():
    return rulebook_lines(GAME)


def cited_line(datum) -> int:
    return cited_line_in(datum, GAME)


def test_status_counts_known_partial_and_unknown(iod):
    assert {e.state for e in status(iod)} == {"known", "partial", "unknown"}


def test_zoc_movement_cost(iod, book):
    for cls, enter, leave in (("foot", 2, 2), ("motorized", 3, 3), ("mechanized", 2, 1)):
        cell = iod.lookup("zoc-movement-cost", cls, "enter")
        assert (cell.value, iod.lookup("zoc-movement-cost", cls, "exit").value) == (enter, leave)
        assert on_line(book, cited_line(cell), f"| +{enter} | +{leave} |")


def test_air_attacks_and_weather(iod, book):
    cell = iod.lookup("air-attacks", "1 July")
    assert cell.value == 10 and on_line(book, cited_line(cell), "| 1 July | 10 |")
    assert iod.lookup("air-attacks", "3-10 July").value == 0
    assert [iod.lookup("weather", str(r)).value for r in (2, 8, 9, 10, 11, 12)] == ["clear", "clear", "cloudy", "cloudy", "rainy", "rainy"]


def test_militia_surrender_and_infiltration(iod, book):
    city = iod.lookup("militia", "city")
    assert city.value == 3 and on_line(book, cited_line(city), "| 3+ | The city draws")
    assert iod.lookup("militia", "town").value == 5
    date = iod.lookup("surrender-modifiers", "date-8-july")
    assert date.value == 3 and on_line(book, cited_line(date), "8 July: +3")
    assert iod.lookup("surrender-modifiers", "each-axis-hq-eliminated").value == 2
    assert iod.lookup("surrender-modifiers", "royal-navy-roll-6").value == 3
    assert iod.lookup("surrender-results", "14 or more").value == "allied-wins"
    fort = iod.lookup("infiltration", "both-hexes-adjacent-to-enemy-fort")
    assert fort.value == -2 and on_line(book, cited_line(fort), "which are not destroyed: -2")
    assert iod.table("infiltration")["properties"]["success_at_least"].value == 9


def test_combat_modifiers_and_hitch_costs(iod, book):
    armor = iod.lookup("combat-odds-modifiers", "armor-attacking")
    assert armor.value == 2 and on_line(book, cited_line(armor), "Armor Attacking")
    assert iod.lookup("combat-odds-modifiers", "defender-integrity").value == -1
    assert iod.table("combat-odds-modifiers")["properties"]["morale_max"].value == 3
    assert iod.lookup("bombardment-shifts", "enemy-artillery-in-target").value == 1
    assert iod.lookup("hitch-prepare", "other", "prepare").value == "all"
    assert iod.lookup("hitch-prepare", "parachute-glider", "prepare").value == 2


def test_dice_procedures(iod):
    assert iod.lookup("landing-losses", "6").value == "none" and iod.lookup("landing-losses", "7").value == "eliminated"
    assert iod.lookup("airborne-losses", "7").value == "reduced"
    assert iod.lookup("solo-drop-zone", "2").value == "0911" and iod.lookup("solo-drop-zone", "6").value == "2012"
    assert iod.lookup("solo-beach-zone", "4").value == "North"
    assert iod.table("delayed-landings")["properties"]["cancel_at_least"].value == 7


def test_absent_tables_keep_their_known_cells(iod):
    cell = iod.lookup("crt", "All Other Terrains (day turns)", "6:1", "6")
    assert cell.value == "-/3D" and cell.partial
    missing = iod.lookup("crt", "All Other Terrains (day turns)", "6:1", "7")
    assert missing.value is None and "CBT-16" in missing.blocks
    assert iod.lookup("bombardment", "4", "6", "11").value == "D"
    assert iod.lookup("drop-table", "7").value is None
    assert iod.lookup("scatter-diagram", "1").value is None
    assert iod.lookup("royal-navy-intervention", "6").value is None


def test_named_hexes_and_map_facts(iod):
    assert iod.hexes_named("Musta") == ("1210",)
    assert iod.terrain("1210").value == "town"
    assert iod.terrain("1809").value == "city"
    assert iod.hex("1110")["features"].value == ["fort"]
    assert iod.hex("1110")["features"].partial                    # only what the text names
    assert iod.zone("beach-north")["known_hexes"].value == ["1107", "1207", "1308"]
    assert iod.zone("beach-west")["hexes"].value is None
    assert iod.terrain("1515").value is None


def test_ports_are_the_hexes_the_ammunition_and_placement_rules_name_not_a_terrain(iod):
    ports = iod.zone("ports")
    assert ports["type"].value == "port" and ports["type"].source.startswith("12.54")
    assert "not as a terrain type" in ports["hexes"].note
    assert all(iod.zone(z)["type"].value != "port" for z in ("cities", "towns", "airfields"))


def test_movement_classes_say_how_they_follow_from_2_1(iod):
    battalion = iod.counter("al-8m")["movement_class"]
    assert battalion.value == "foot" and battalion.derived[0] == "2.1" and "wheels symbol" in battalion.derived[1]


def test_counters_with_factors_from_the_text(iod):
    v186 = iod.counter("ax-v-186")["levels"]["full"]
    assert (v186["attack"].value, v186["defense"].value, v186["movement"].value, v186["morale"].value) == (6, 7, 6, 6)
    assert iod.counter("ax-1-87")["levels"]["full"]["attack"].value == 4
    assert iod.counter("ax-1-33")["levels"]["full"]["combat"].value == 6
    tank = iod.counter("ax-tank-10")["levels"]["full"]
    assert (tank["attack"].value, tank["movement"].value, tank["morale"].value) == (1, 8, 4)
    assert "the only Italian tank company" in tank["morale"].derived[1]
    ram = iod.counter("ax-ram-1-2")["levels"]
    # the 13.2 example reforms "the Ramcke battalion" at 4-5-7 without naming which of the three
    assert ram["full"]["movement"].value == 7 and ram["reduced"]["attack"].value is None
    assert "without naming" in ram["reduced"]["attack"].note
    assert iod.counter("ax-185-art-1")["levels"]["prepared"]["offensive"].value == 5
    assert iod.counter("al-raf-security")["count"].value == 3
    assert iod.counter("al-strongpoint")["levels"]["front"]["morale"].value == 4
    # the 9.95 example gives morale 4 to two British 6-6 battalions it does not name
    unnamed = iod.counter("al-8m")["levels"]["3"]["morale"]
    assert unnamed.value is None and "does not name" in unnamed.note
    assert iod.counter("al-2k")["levels"]["full"]["morale"].value is None


def test_setups(iod, book):
    intro = {p.id: p for p in iod.setup("intro")}
    row = intro["al-1409"]
    assert row["hex"].value == "1409" and row["units"].value == ["al-1h", "al-10k", "al-1-r"]
    assert on_line(book, cited_line(row["units"]), "| 1409 | 1H (British Infantry; 6-6), 10K")
    assert intro["ax-1107"]["units"].value == ["ax-hq-4", "ax-28-art", "ax-chirelson"]
    assert intro["truncated-1414"]["units"].value is None and "SCN-01" in intro["truncated-1414"]["units"].blocks
    herc = {p.id: p for p in iod.setup("hercules")}
    assert herc["al-1612"]["units"].value == ["al-2rwk", "al-1-r", "al-12", "al-malta-hq", "al-beak"]
    assert herc["al-1011"]["count"].value == 2
    assert herc["ax-warships"]["count"].value == 8


def test_scenarios_and_turn_track(iod):
    intro, herc = iod.scenario("intro"), iod.scenario("hercules")
    assert (intro["turns"].value, herc["turns"].value) == (24, 48)
    assert len(intro["turn_track"]) == 24 and len(herc["turn_track"]) == 48
    assert intro["turn_track"]["1"]["label"].value == "30 June AM"
    assert herc["turn_track"]["48"]["label"].value == "10 July Night"
    assert herc["turn_track"]["1"]["properties"]["air_attacks"].value == 14
    assert herc["turn_track"]["45"]["properties"]["surrender_date_modifier"].value == 5     # 10 July AM
    assert "air_attacks" not in intro["turn_track"]["1"]["properties"]
    assert intro["properties"]["axis_steps_eliminated_at_start"].value == 22
    assert iod.reinforcements("hercules")[0]["turns"].value == [17]                       # 3 July AM


def test_counter_names_appear_on_their_cited_lines(iod, book):
    """A counter name cited to one line must be printed on that line, so a wrong line or a typo fails."""
    for counter_id in iod.counter_ids:
        name = iod.counter(counter_id)["name"]
        line = cited_line_in(name, GAME, required=False)
        if line is not None:
            assert on_line(book, line, name.value.split(" (")[0]), f"{counter_id}: {name.value!r}"


def test_every_hex_in_the_data_parses_on_the_island_grid(iod):
    layout = LAYOUTS["island-of-death"]
    board = iod.map()
    named = list(board["hexes"])
    for zone in board["zones"]:
        for field in ("hexes", "known_hexes"):
            if field in zone and zone[field].value:
                named.extend(zone[field].value)
    for scenario in ("intro", "hercules"):
        named.extend(p["hex"].value for p in iod.setup(scenario) if "hex" in p and p["hex"].value)
    for hex_id in named:
        assert layout.on_map(layout.parse(hex_id)), hex_id
    assert layout.distance(layout.parse("1309"), layout.parse("1210")) == 2          # 10.12 example


@pytest.mark.parametrize("table_id", ["surrender-modifiers", "combat-odds-modifiers", "bombardment-shifts", "delayed-landings"])
def test_printed_modifiers_are_on_their_lines(iod, book, table_id):
    """Every numeric modifier of a printed list appears, signed, on the line it cites."""
    for label in iod.table(table_id)["axes"][0]["labels"].value:
        cell = iod.lookup(table_id, label)
        if isinstance(cell.value, int):
            assert on_line(book, cited_line(cell), f": {cell.value:+d}"), (table_id, label, cell.value)


def test_vlog_data_status_reports_the_game(capsys):
    import json as json_module

    from vlog.cli import main

    assert main(["data", "status", "island-of-death", "--format", "json"]) == 0
    report = json_module.loads(capsys.readouterr().out)
    assert report["game"] == "island-of-death"
    assert report["counts"]["known"] > 0 and report["counts"]["unknown"] > 0 and report["counts"]["overridden"] == 0
    assert all(entry["source"] for entry in report["data"] if entry["state"] in ("known", "partial"))
    assert main(["data", "status", "island-of-death"]) == 0
    assert "checks disabled by unknown data" in capsys.readouterr().out


def test_morale_states_and_supply_effects(iod, book):
    morale = iod.lookup("morale-states", "demoralized", "morale")
    assert morale.value == -1 and on_line(book, cited_line(morale), "Morale: -1")
    movement = iod.lookup("morale-states", "demoralized", "movement")
    assert on_line(book, cited_line(movement), "Foot units -2; Motorized and Mechanized units -4")
    assert iod.lookup("morale-states", "disorganized", "movement").value == "none"
    assert on_line(book, cited_line(iod.lookup("out-of-supply", "movement")), "motorized or mechanized unit by two")
