"""Reinforcement entry (RR-01, RR-02, RR-03, RR-06, RR-07, RR-10) on SYNTHETIC positions."""
from __future__ import annotations

from dataclasses import replace

from vlog.games.lion_of_judah.checks.reinforcements import judge_placement

from .synthetic import state, synthetic_board, unit


def codes(findings):
    return [f.check.split("/")[1] for f in findings]


def test_italian_1935_entry_hexes(tmp_path):
    board = synthetic_board(tmp_path)
    for hex_, expected in (("1405", []), ("1406", []), ("2322", []), ("1408", ["RR-03"])):
        new = unit("ps", hex_, name="PS")
        s = state(new, scenario="1935-36")
        assert codes(judge_placement(board, s, s, new, turn=5, step=3, when=None)) == expected, hex_
    f = judge_placement(board, state(scenario="1935-36"), state(scenario="1935-36"),
                        unit("ps", "1408", name="PS"), turn=5, step=3, when="Turn 5, MAP")[0]
    assert f.evidence == {"hex": "1408", "entry_hexes": ["1405", "2322"]} and f.step == 3
    assert "Massawa" in f.message and "Mogadishu" in f.message


def test_enemy_in_the_entry_hex_and_entry_turn(tmp_path):
    board = synthetic_board(tmp_path)
    ps = replace(unit("ps", "1405", name="PS"), properties={"entry_turn": 5})
    enemy = unit("lv", "1405", name="Shoa levy", side="ethiopian", unit_class="ethiopian-shoa")
    before = state(enemy, scenario="1935-36")
    assert codes(judge_placement(board, before, before, ps, turn=4, step=1, when=None)) == ["RR-01", "RR-02"]


def test_allied_1940_entry_and_captured_ports(tmp_path):
    board = synthetic_board(tmp_path, zones={"eritrea": ["1405"]})
    kar = unit("kar", "1122", name="KAR1", side="allied", unit_class=None, size="brigade")
    s = state(scenario="1940-41")
    assert codes(judge_placement(board, s, s, kar, turn=3, step=1, when=None)) == []
    at_massawa = replace(kar, hex="1405")
    assert codes(judge_placement(board, s, s, at_massawa, turn=3, step=1, when=None)) == ["RR-10"]
    captured = state(scenario="1940-41")
    captured.control["1405"] = "allied"
    assert codes(judge_placement(board, captured, captured, at_massawa, turn=3, step=1, when=None)) == []
    truck = unit("k", "1600", name="K", side="allied", kind="truck")
    assert codes(judge_placement(board, s, s, truck, turn=3, step=1, when=None)) == []


def test_ethiopian_reinforcements(tmp_path):
    board = synthetic_board(tmp_path)
    leader = unit("kassa", "1410", name="Ras Kassa", side="ethiopian", kind="leader",
                  unit_class="ethiopian-beghemder", faction="beghemder")
    levy = unit("lv", "1009", name="Beghemder levy", side="ethiopian", unit_class="ethiopian-beghemder",
                faction="beghemder")
    levy = replace(levy, counter="et-levy-beghemder")
    s = state(leader, scenario="1935-36")
    assert codes(judge_placement(board, s, s, levy, turn=2, step=1, when=None)) == []          # capital Gondar
    assert codes(judge_placement(board, s, s, replace(levy, hex="1411"), turn=2, step=1, when=None)) == []
    [f] = judge_placement(board, s, s, replace(levy, hex="1415"), turn=2, step=1, when=None)
    assert f.check == "lion-of-judah/RR-07" and f.evidence["capital"] == "1009"
    lost = state(leader, scenario="1935-36")
    lost.control["1009"] = "italian"
    assert codes(judge_placement(board, lost, lost, levy, turn=2, step=1, when=None)) == ["RR-06"]
    assert codes(judge_placement(board, s, s, levy, turn=2, step=1, when=None,
                                 gone_leaders={"et-leader-beghemder"})) == ["RR-06"]


def test_rebellion_and_revolt_placements(tmp_path):
    """Events A2 (within 2 of 0910) and B8 (within 2 of 1418, from turn 5): not in a town or
    capital, not in an enemy hex (EV-04, EV-09). The 0909 of the A2 example is fine."""
    from vlog.games.lion_of_judah.checks.reinforcements import judge_event_irregulars

    board = synthetic_board(tmp_path, features={"1009": ["town"]})
    irregular = unit("ir", "0909", name="Irregular", unit_class="italian-colonial-irregular", size=None)
    s = state(scenario="1935-36")
    assert judge_event_irregulars(board, s, irregular, turn=2, step=1, when=None) == []
    assert codes(judge_event_irregulars(board, s, replace(irregular, hex="1009"), turn=2, step=1,
                                        when=None)) == ["EV-04"]                     # Gondar, a town
    enemy = unit("lv", "0911", name="Gojjam levy", side="ethiopian")
    assert codes(judge_event_irregulars(board, state(enemy, scenario="1935-36"),
                                        replace(irregular, hex="0911"), turn=2, step=1, when=None)) == ["EV-04"]
    revolt = replace(irregular, hex="1419")
    assert codes(judge_event_irregulars(board, s, revolt, turn=2, step=1, when=None)) == ["EV-04"]
    assert judge_event_irregulars(board, s, revolt, turn=5, step=1, when=None) == []
    far = replace(irregular, hex="1422")
    assert codes(judge_event_irregulars(board, s, far, turn=6, step=1, when=None)) == ["EV-04"]


def test_revolt_placements(tmp_path):
    """Event B8 (EV-09): from turn 5, irregulars around 1418 keep out of towns and enemy hexes."""
    from vlog.games.lion_of_judah.checks.reinforcements import judge_event_irregulars

    board = synthetic_board(tmp_path, features={"1419": ["town"]})
    irregular = unit("ir", "1419", name="Irregular", unit_class="italian-colonial-irregular", size=None)
    [f] = judge_event_irregulars(board, state(scenario="1935-36"), irregular, turn=5, step=4, when=None)
    assert f.check == "lion-of-judah/EV-09" and f.evidence == {"hex": "1419", "enemy_units": []}
