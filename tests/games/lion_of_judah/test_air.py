"""Air range (AR-01, 10.1.1) on SYNTHETIC positions, with the 10.1.1 example's distance."""
from __future__ import annotations

from dataclasses import replace

from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.air import judge_air_mission

from .synthetic import shipped_board, state, synthetic_board, unit

ERITREA = [f"{c:02d}{r:02d}" for c in range(14, 17) for r in range(2, 13)]


def marker(hex_=None):
    """A SYNTHETIC Italian air marker standing for the III Br counter (range 4, 10.1.1)."""
    return replace(unit("air", hex_, name="III Br", kind="air", attack=None, defense=None,
                        movement=None, size=None, unit_class=None), counter="it-air-iiibr")


def test_gaba_to_gogo_is_within_range():
    """10.1.1 example: a mission from Gaba 1516 to Gogo 1214 is within 4 hexes."""
    assert shipped_board().distance("1516", "1214") == 4


def test_range_from_a_supplied_town(tmp_path):
    board = synthetic_board(tmp_path, features={"1406": ["town"], "1308": ["amba"], "1311": ["amba"],
                                                "1208": ["amba"]}, zones={"eritrea": ERITREA})
    s = state(scenario="1935-36")
    assert judge_air_mission(board, s, marker(), "1410", step=1, when=None) == []      # 4 from 1406
    [f] = judge_air_mission(board, s, marker(), "1411", step=2, when=None)             # 5 from 1406
    assert f.check == "lion-of-judah/AR-01" and f.basis is Basis.PROVEN
    assert f.evidence["range"] == 4 and f.evidence["hexes_unsettled"] == 0
    enemy_town = state(scenario="1935-36")
    enemy_town.control["1406"] = "ethiopian"
    assert [f.check for f in judge_air_mission(board, enemy_town, marker(), "1410", step=1, when=None)] \
        == ["lion-of-judah/AR-01"]


def test_unknown_towns_are_possible():
    [f] = judge_air_mission(shipped_board(), state(scenario="1935-36"), marker(), "1610", step=1, when=None)
    assert f.basis is Basis.POSSIBLE and f.evidence["hexes_unsettled"] > 0


def test_air_shifts_possible_without_an_air_clause():
    """10.1.3: a side commits only markers that left their box in the combat's segment; the
    1935-36 Ethiopians have none; a segment the log does not show from its start settles nothing."""
    from vlog.games.lion_of_judah.checks.air import air_shifts_possible

    assert air_shifts_possible("1935-36", "ethiopian", 0, whole_segment=False) == 0
    assert air_shifts_possible("1935-36", "ethiopian", 1, whole_segment=True) == 1   # shown: AR-11's
    assert air_shifts_possible("1935-36", "italian", 0, whole_segment=True) == 0
    assert air_shifts_possible("1935-36", "italian", 0, whole_segment=False) == 2
    assert air_shifts_possible("1940-41", "allied", 0, whole_segment=False) == 2
    assert air_shifts_possible("1940-41", "italian", 3, whole_segment=True) == 2      # two at most
    assert air_shifts_possible(None, None, 0, whole_segment=False) == 2
