"""Supply trace and MV-16 on SYNTHETIC positions, with the 11.5.3 Jijiga example."""
from __future__ import annotations

from vlog.engine.judge import Ruling
from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.supply import judge_end_of_move, trace

from .synthetic import shipped_board, state, synthetic_board, unit

ERITREA = ["1405", "1406", "1407", "1408", "1409", "1305", "1306", "1506", "1507", "1508"]


def board_(tmp_path, **kw):
    kw.setdefault("zones", {"eritrea": ERITREA})
    return synthetic_board(tmp_path, **kw)


def test_three_hexes_to_the_source(tmp_path):
    board = board_(tmp_path)
    near = unit("a", "1408", name="Sb")
    far = unit("b", "1409", name="GS")
    s = state(near, far, scenario="1935-36")
    t = trace(board, s, near)
    assert t.ruling is Ruling.LEGAL and t.path == ("1408", "1407", "1406", "1405")
    assert trace(board, s, far).ruling is Ruling.PROVEN
    [f] = judge_end_of_move(board, s, far, step=12, when="Turn 1, Italian movement")
    assert f.check == "lion-of-judah/MV-16" and f.basis is Basis.PROVEN and f.step == 12
    assert f.evidence["supply_sources"] == ["1405", "2322"] and f.subjects == ("GS",)
    assert judge_end_of_move(board, s, near, step=12, when=None) == []


def test_road_then_line_to_the_source(tmp_path):
    board = board_(tmp_path, lines={"r": ("road", ["1405", "1505", "1605", "1705", "1805"])})
    u = unit("a", "1808", name="Sb")
    t = trace(board, state(u, scenario="1935-36"), u)
    assert t.ruling is Ruling.LEGAL and t.overland_hexes == 3 and t.line_hexes == 3
    assert t.path[-1] == "1405"
    beyond = unit("b", "1809", name="GS")       # four hexes from the road
    assert trace(board, state(beyond, scenario="1935-36"), beyond).ruling is Ruling.PROVEN


def test_through_an_hq(tmp_path):
    board = board_(tmp_path)
    hq = unit("hq", "1408", name="1CA", kind="hq", size=None)
    u = unit("a", "1410", name="Sb")
    s = state(hq, u, scenario="1935-36")
    t = trace(board, s, u)
    assert t.ruling is Ruling.LEGAL and t.path[:3] == ("1410", "1409", "1408")
    assert trace(board, state(u, scenario="1935-36"), u).ruling is Ruling.PROVEN


def test_jijiga_example_of_11_5_3(tmp_path):
    """11.5.3: the armour 'would be OOS at the end of its movement (since the clear hex SE of
    Jijiga would be empty)': a trace may enter a hex next to an enemy only if a friend is there."""
    board = board_(tmp_path, terrain={"1307": "desert", "1507": "desert"})
    hq = unit("hq", "1406", name="CSI", kind="hq", size=None)
    armour = unit("cv", "1408", name="CV", motorized=True, size="regiment")
    enemy = unit("et", "1506", name="Dejaz Nassibu", side="ethiopian", kind="leader")
    alone = state(hq, armour, enemy, scenario="1935-36")
    [f] = judge_end_of_move(board, alone, armour, step=4, when=None)
    assert f.check == "lion-of-judah/MV-16"
    infantry = unit("pl", "1407", name="PL")
    assert judge_end_of_move(board, state(hq, armour, enemy, infantry, scenario="1935-36"),
                             armour, step=4, when=None) == []


def test_always_in_supply_in_ethiopia(tmp_path):
    board = board_(tmp_path, zones={"ethiopia": ["1610"]})
    irregular = unit("ir", "1610", name="Irregular", unit_class="italian-colonial-irregular", size=None)
    assert trace(board, state(irregular, scenario="1935-36"), irregular).ruling is Ruling.LEGAL


def test_unknown_map_is_possible():
    board = shipped_board()
    u = unit("a", "1408", name="Sb")
    t = trace(board, state(u, scenario="1935-36"), u)
    assert t.ruling is Ruling.POSSIBLE and t.depends_on


def test_line_part_avoids_enemy_towns_and_enemy_units(tmp_path):
    """9.5.1 (SP-08, SP-09): the road part may not pass an enemy-controlled town; no path enters
    a hex with enemy units."""
    road = ["1405", "1505", "1605", "1705", "1805"]
    board = board_(tmp_path, lines={"r": ("road", road)}, features={"1605": ["town"]})
    u = unit("a", "1808", name="Sb")
    s = state(u, scenario="1935-36")
    assert trace(board, s, u).ruling is Ruling.LEGAL
    s.control["1605"] = "ethiopian"
    assert trace(board, s, u).ruling is Ruling.PROVEN
    blocker = unit("e", "1705", name="Levy", side="ethiopian", kind="leader")
    s2 = state(u, blocker, scenario="1935-36")
    assert trace(board, s2, u).ruling is Ruling.PROVEN


def test_advance_needs_no_supply(tmp_path):
    """12.12 (SP-14): a unit advancing after combat is not tested for supply."""
    board = board_(tmp_path)
    far = unit("b", "1412", name="GS")
    s = state(far, scenario="1935-36")
    assert judge_end_of_move(board, s, far, step=1, when=None, advance=True) == []
    assert judge_end_of_move(board, s, far, step=1, when=None) != []
