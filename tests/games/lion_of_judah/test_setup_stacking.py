"""The 1935-36 starting save keeps to the stacking rules: the data places the Beghemder and the
Wollo factions "at or within two hexes of 1310" (PB 13.3.1); two factions (and two leaders) may
not share a hex (PB 13.6.1, ST-06), so the second goes to the nearest free hex in range."""
from __future__ import annotations

from collections import defaultdict

from converters.setup_writer import build_setup, hexes_within, stacking_rule
from vlog.gamedata import load_game_data
from vlog.hexes import LAYOUTS


def _placed(scenario: str):
    data = load_game_data("lion-of-judah")
    _, _, _, report = build_setup(data, scenario)
    return data, report


def test_two_factions_within_range_of_one_hex_are_set_up_apart():
    data, report = _placed("1935-36")
    where = {p.counter_id: p.location for p in report.placed}
    assert where["et-leader-beghemder"] == where["et-levy-beghemder"] == "1310"
    wollo = where["et-levy-wollo"]
    assert where["et-leader-wollo"] == wollo and wollo != "1310"
    layout = LAYOUTS["lion-of-judah"]
    assert layout.distance(layout.parse(wollo), layout.parse("1310")) <= 2
    assert wollo == "1309"          # the nearest free hex, clockwise from north
    [note] = [n for n in report.notes if n.startswith("et-wollo: placed at")]
    assert "within 2 hexes of 1310" in note and "et-beghemder" in note and "break stacking" in note


def test_the_starting_position_breaks_no_stacking_rule():
    data, report = _placed("1935-36")
    rule = stacking_rule(data, "1935-36")
    assert rule is not None
    stacks: dict[str, list[str]] = defaultdict(list)
    for p in report.placed:
        if p.map_name == "Main Map":
            stacks[p.location].append(p.counter_id)
    assert {h: rule(h, counters) for h, counters in stacks.items() if rule(h, counters)} == {}
    # a legal shared stack stays where the data puts it: the Negus and the KZ with the Shoa
    assert {"et-negus", "et-kz-battalion", "et-levy-shoa"} <= set(stacks["1213"])


def test_the_rule_sees_two_factions():
    data = load_game_data("lion-of-judah")
    rule = stacking_rule(data, "1935-36")
    assert rule("1310", ["et-levy-beghemder", "et-levy-wollo"])
    assert rule("1310", ["et-levy-beghemder", "et-leader-beghemder"]) == []


def test_hexes_within_nearest_first_clockwise_from_north():
    ring = hexes_within("lion-of-judah", "1310", 2)
    assert [h for h, d in ring if d == 1] == ["1309", "1410", "1411", "1311", "1211", "1210"]
    assert len([h for h, d in ring if d == 2]) == 12 and ring[6] == ("1308", 2)
    assert hexes_within("no-such-game", "1310", 2) == []
