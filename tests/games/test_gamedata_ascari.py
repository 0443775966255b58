"""Ascari data: tables, set-ups and hexes as the rulebook prints them, each on the line it cites."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from vlog.gamedata import load_game_data

RULEBOOK = Path(__file__).resolve().parents[2].parent / "shared" / "rulebooks" / "ascari.txt"


@pytest.fixture(scope="module")
def ascari():
    return load_game_data("ascari")


@pytest.fixture
def rulebook():
    if not RULEBOOK.is_file():
        pytest.skip("../shared/rulebooks is absent")


def _cited_line(datum) -> str:
    match = re.search(r"ascari\.txt line (\d+)\)$", datum.source or "")
    assert match, f"{datum.path}: source {datum.source!r} cites no rulebook line"
    return RULEBOOK.read_text(encoding="utf-8").splitlines()[int(match.group(1)) - 1]


def test_fire_table_hits_and_known_double_hit(ascari):
    assert ascari.lookup("fire", "1", "italians").value == [3, 4, 5, 6]
    assert ascari.lookup("fire", "3", "dervishes-ethiopians-bands").value == [6]
    assert ascari.lookup("fire-double-hits", "1", "italians", "6").value == "double"
    unknown = ascari.lookup("fire-double-hits", "2", "italians", "6")
    assert unknown.value is None and "FDR-08" in unknown.blocks
    assert ascari.lookup("artillery", "1", "effect").value == "double"
    assert ascari.lookup("artillery", "7-8", "hits").value == [5, 6]


def test_scenario_specific_terrain_and_general_tec(ascari):
    assert ascari.lookup("tec-s5", "zeriba", "movement").value == "entire printed movement allowance to cross"
    assert ascari.lookup("tec-s2", "river-barka", "movement").value == "impassable"
    assert ascari.lookup("tec", "slope", "movement").value == 1
    assert ascari.lookup("tec", "palm-trees", "movement").value is None


def test_maps_and_hexes(ascari):
    assert ascari.map_ids == ("agordat", "coatit", "amba-alagi", "metemma")
    assert ascari.hexes_named("Fort of Agordat", "agordat") == ("1704",)
    assert set(ascari.hexes_named("Coatit", "coatit")) == {"1501", "1601", "1602", "1701"}
    assert ascari.hex("1701", "agordat")["properties"]["passable"].value is False
    assert ascari.hex("1901", "agordat")["properties"]["passable"].value is True
    assert ascari.hexside("2713", "2712", "coatit").value == ["ravine"]
    assert ascari.terrain("2210", "amba-alagi").value == "multiple-slope"


def test_scenarios(ascari):
    assert ascari.scenario_ids == ("s1", "s2", "s3", "s4", "s5")
    s4 = ascari.scenario("s4")
    assert s4["turns"].value == 15 and s4["turn_track"]["15"]["label"].value == "14.00"
    arrivals = {a.id: a for a in ascari.reinforcements("s4")}
    assert arrivals["et-mk"]["turns"].value == [6] and arrivals["et-mk"]["hex"].value == "2513"
    assert len(arrivals["et-ma"]["units"].value) == 12   # Maconnen + 4 Cav + 4 Rifle + 3 Spear
    setup = {p.id: p for p in ascari.setup("s2")}
    assert setup["it-arimondi"]["hex"].value == "1704"
    assert ascari.scenario("s3")["turn_track"]["2"]["label"].value is None


def test_setup_rows_appear_on_the_cited_line(ascari, rulebook):
    checked = 0
    for scenario_id in ("s2", "s3", "s4"):
        for placement in ascari.setup(scenario_id):
            if "hex" not in placement or placement["hex"].value is None:
                continue
            line = _cited_line(placement["hex"])
            assert placement["hex"].value in line, (scenario_id, placement.id, line)
            name = ascari.counter(placement["units"].value[0])["name"].value
            assert name.split()[0] in line, (scenario_id, placement.id, line)
            checked += 1
    assert checked >= 30


def test_table_cells_appear_on_the_cited_line(ascari, rulebook):
    for table_id in ("fire", "artillery"):
        for labels, datum in ascari.table(table_id).listed_cells().items():
            line = _cited_line(datum)
            printed = " - ".join(map(str, datum.value)) if isinstance(datum.value, list) else datum.value
            assert printed.lower() in line.lower(), (table_id, labels, line)
