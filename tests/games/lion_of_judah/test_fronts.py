"""(35) Italian fronts (SP-17, AR-02; PB 13.2.1, PB 13.6.5.3) on the SYNTHETIC overlay's map."""
from __future__ import annotations

from dataclasses import replace

import pytest

from vlog.findings import Basis
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.fronts import (front_association, fronts_connected, judge_air_front,
                                                    marker_front)
from vlog.games.lion_of_judah.checks.supply import trace

from .synthetic import state, unit


@pytest.fixture(scope="module")
def board(synthetic):
    return Board(synthetic)


def marker(counter: str, name: str):
    """An Italian air marker standing for the counter (range 4 in counters.json)."""
    return replace(unit("air", None, name=name, kind="air", attack=None, defense=None, movement=None,
                        size=None, unit_class=None), counter=counter)


SOUTH = marker("it-air-7st", "7 St")
NORTH = marker("it-air-iiibr", "III Br")


def test_markers_carry_their_printed_front(board):
    assert marker_front(board, SOUTH) == "southern"
    assert marker_front(board, NORTH) == "northern"
    assert marker_front(board, unit("x", None)) is None


def test_sp17_colony_units_belong_to_their_colony_front(board):
    """SP-17: units and air bases in Eritrea are Northern Front, in Italian Somaliland Southern."""
    s = state(scenario="1935-36")
    assert front_association(board, s, unit("u", "1405")).fronts == {"northern"}
    assert front_association(board, s, unit("u", "2322")).fronts == {"southern"}


def test_sp17_a_unit_in_ethiopia_traces_to_one_front_uss(board):
    """SP-17: in Ethiopia, the front of the USS the unit traces to; a unit cut off has none."""
    s = state(scenario="1935-36")
    assert board.in_zone("1107", "ethiopia") is True
    north = front_association(board, s, unit("u", "1107"))
    assert north.fronts == {"northern"} and north.depends_on == ()
    # the narrowed trace finds Massawa but not Mogadishu; the full trace still finds supply
    u = unit("u", "1107")
    assert trace(board, s, u, sources=("2322",)).ruling.name == "PROVEN"
    assert trace(board, s, u, sources=("1405",)).ruling.name == "LEGAL"
    assert trace(board, s, u).ruling.name == "LEGAL"
    assert not fronts_connected(board, state(u, scenario="1935-36"))


def test_ar02_a_southern_marker_from_northern_bases_is_proven(board):
    s = state(scenario="1935-36")
    [f] = judge_air_front(board, s, SOUTH, "1107", step=3, when=None)
    assert f.check == "lion-of-judah/AR-02" and f.basis is Basis.PROVEN
    assert f.evidence == {"hex": "1107", "range": 4, "marker_front": "southern",
                          "other_front_bases": ["1305", "1405"]}
    assert "7 St" in f.message and "1305 (Asmara)" in f.message


def test_ar02_a_northern_marker_in_the_north_is_legal(board):
    s = state(scenario="1935-36")
    assert judge_air_front(board, s, NORTH, "1107", step=3, when=None) == []
    assert judge_air_front(board, s, NORTH, "1408", step=3, when=None) == []


def test_ar02_not_judged_in_1940_41_nor_for_unassigned_markers(board):
    assert judge_air_front(board, state(scenario="1940-41"), SOUTH, "1107", step=3, when=None) == []
    unassigned = marker("it-air-iiibr", "III Br")
    unassigned = replace(unassigned, counter=None)
    assert judge_air_front(board, state(scenario="1935-36"), unassigned, "1107", step=3, when=None) == []


def test_ar02_no_base_at_all_is_left_to_ar01(board):
    """1009 (Gondar) is beyond the range of any air base: AR-01's finding, not AR-02's."""
    assert judge_air_front(board, state(scenario="1935-36"), SOUTH, "1009", step=3, when=None) == []


def test_ar02_not_judged_once_the_fronts_are_connected(board, monkeypatch):
    """PB 13.2.1 / 13.6.5.3: a unit in Ethiopia tracing to both fronts' USSs connects the fronts,
    and the Italian may then reassign the markers in each MAP. The test stands Asmara (1305) in
    for the Southern USS so that a unit at 1107 reaches both."""
    from vlog.games.lion_of_judah.checks import fronts
    u = unit("u", "1107")
    s = state(u, scenario="1935-36")
    assert not fronts.fronts_connected(board, s)
    assert [f.check for f in judge_air_front(board, s, SOUTH, "1107", step=3, when=None)] \
        == ["lion-of-judah/AR-02"]
    monkeypatch.setitem(fronts.FRONT_USS, "southern", "1305")
    assert front_association(board, s, u).fronts == {"northern", "southern"}
    assert fronts.fronts_connected(board, s)
    assert judge_air_front(board, s, SOUTH, "1107", step=3, when=None) == []


def test_ar02_air_supply_is_a_northern_front_mission(board):
    """PB 13.6.5.2/13.6.5.3: 7 St flies no air supply; III Br does, but not to a unit that traces
    supply to the Southern Front only (here one in Italian Somaliland)."""
    from vlog.games.lion_of_judah.checks.fronts import judge_air_supply_front
    north_unit = unit("GS", "1305", steps=1)
    s = state(north_unit, scenario="1935-36")
    assert judge_air_supply_front(board, s, NORTH, "1305", step=3, when=None) == []
    [f] = judge_air_supply_front(board, s, SOUTH, "1305", step=3, when=None)
    assert f.check == "lion-of-judah/AR-02" and f.basis is Basis.PROVEN
    assert f.evidence == {"hex": "1305", "marker_front": "southern", "mission": "air supply"}
    south_unit = unit("DS", "2322", steps=1)
    [g] = judge_air_supply_front(board, state(south_unit, scenario="1935-36"), NORTH, "2322", step=3,
                                 when=None)
    assert g.evidence["unit"] == "DS" and g.evidence["unit_fronts"] == ["southern"]
    assert judge_air_supply_front(board, state(south_unit, scenario="1940-41"), NORTH, "2322", step=3,
                                  when=None) == []


def test_ar02_air_support_goes_to_units_of_the_markers_front(board):
    """PB 13.6.5.3: III Br supports Northern Front units, 7 St Southern Front ones; one unit of
    the marker's front among the Italians of the combat is enough."""
    from vlog.games.lion_of_judah.checks.fronts import judge_air_support_front
    sb, south = unit("Sb", "1207"), unit("DS", "2322")
    s = state(sb, south, scenario="1935-36")
    assert judge_air_support_front(board, s, NORTH, "1107", [sb], step=4, when=None) == []
    [f] = judge_air_support_front(board, s, SOUTH, "1107", [sb], step=4, when=None)
    assert f.check == "lion-of-judah/AR-02" and f.basis is Basis.PROVEN and f.subjects == ("7 St", "Sb")
    assert f.evidence == {"hex": "1107", "marker_front": "southern", "units": ["Sb"],
                          "units_front": "northern", "mission": "air support"}
    assert judge_air_support_front(board, s, SOUTH, "1107", [sb, south], step=4, when=None) == []
    assert judge_air_support_front(board, state(sb, scenario="1940-41"), SOUTH, "1107", [sb], step=4,
                                   when=None) == []


def test_ar02_air_support_judged_in_a_logged_combat(tmp_path):
    """7 St placed on 1107 in the Italian combat segment and named in the attack from 1207."""
    from .scripted import judge_actions
    found = judge_actions(tmp_path, "\n".join([
        "as Alice", 'add "Sb" at 1207', "turn next", "turn next",
        'move "7 St" along 1107 on "Main Map"', 'chat "attack 1107 with Sb; no HQ; air 1/0"',
        "roll 1d6 = 3", "turn next"]))
    support = [f for f in found if f.check.endswith("AR-02") and f.evidence.get("mission") == "air support"]
    assert [(f.step, f.evidence["units"]) for f in support] == [(4, ["Sb"])]


def test_a1_counts_attacks_on_the_northern_front_by_a_division_or_equivalent(board):
    """Event A1: 1107 traces to Massawa (Northern Front); Italian Somaliland is the Southern;
    a brigade alone is half a division, two of them one."""
    from vlog.games.lion_of_judah.checks.fronts import counts_for_pressure
    s = state(scenario="1935-36")
    sb, sl, gs = unit("Sb", "1207"), unit("SL", "1207", size="brigade"), unit("GS", "1207", size="brigade")
    assert counts_for_pressure(board, s, "1107", [sb]) is True
    assert counts_for_pressure(board, s, "1107", [sl]) is False
    assert counts_for_pressure(board, s, "1107", [sl, gs]) is True
    assert counts_for_pressure(board, s, "2322", [sb]) is False
    assert counts_for_pressure(board, s, "1107", [unit("X", "1207", size=None)]) is None
