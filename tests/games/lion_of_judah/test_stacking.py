"""Stacking checks (ST-*) on SYNTHETIC positions, with the 8.2 examples."""
from __future__ import annotations

from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.stacking import judge_stacking, stacking_limit

from .synthetic import shipped_board, state, synthetic_board, unit


def divisions(n, hex_, side="italian", size="division"):
    return [unit(f"{side}{size}{i}", hex_, name=f"{size[:3]}{i}", side=side, size=size) for i in range(n)]


def test_limits_of_the_8_2_examples(tmp_path):
    """8.2: 'an amba hex = 4'; 'Gondar (mountain + town) = 4'; 'a plain mountain hex = 3'."""
    board = synthetic_board(tmp_path, terrain={"1605": "mountain"}, features={"1606": ["amba"]})
    assert stacking_limit(board, "1009") == 4          # Gondar, from the shipped data
    assert stacking_limit(board, "1606") == 4
    assert stacking_limit(board, "1605") == 3
    assert stacking_limit(board, "1603") == 4          # clear (synthetic default)


def test_over_and_under_the_limit(tmp_path):
    board = synthetic_board(tmp_path, terrain={"1605": "mountain"})
    ok = state(*divisions(3, "1605"), *divisions(2, "1603"), *divisions(3, "1603", size="brigade"))
    assert judge_stacking(board, ok, step=3, when=None) == []       # 3.5 in clear
    over = state(*divisions(3, "1605"), *divisions(1, "1605", size="brigade"))
    [f] = judge_stacking(board, over, step=9, when="Turn 2, Italian movement")
    assert f.check == "lion-of-judah/ST-02" and f.basis is Basis.PROVEN and f.step == 9
    assert f.evidence["divisions"] == 3.5 and f.evidence["limit"] == 3
    assert "1605 holds 3.5 divisions" in f.message


def test_each_side_counted_apart_and_hq_limit(tmp_path):
    board = synthetic_board(tmp_path)
    mixed = state(*divisions(3, "1603"), *divisions(4, "1603", side="allied"))
    assert judge_stacking(board, mixed, step=1, when=None) == []
    hqs = state(unit("h1", "1603", name="1CA", kind="hq", size=None),
                unit("h2", "1603", name="2CA", kind="hq", size=None), *divisions(4, "1603"))
    [f] = judge_stacking(board, hqs, step=1, when=None)
    assert f.check == "lion-of-judah/ST-04" and f.evidence["hqs"] == ["1CA", "2CA"]


def test_unknown_terrain_is_possible():
    board = shipped_board()
    s = state(*divisions(4, "1603"))
    [f] = judge_stacking(board, s, step=1, when=None)
    assert f.basis is Basis.POSSIBLE and "map.json hex 1603 terrain" in f.evidence["depends_on"]
    s = state(*divisions(5, "1603"))
    [f] = judge_stacking(board, s, step=1, when=None)
    assert f.basis is Basis.PROVEN


def levies(n, hex_, faction="shoa"):
    return [unit(f"{faction}{i}", hex_, name=f"{faction.title()} levy", side="ethiopian",
                 unit_class=f"ethiopian-{faction}", faction=faction, size=None, hidden=True)
            for i in range(n)]


def test_ethiopian_limits(tmp_path):
    board = synthetic_board(tmp_path)
    leader = unit("ras", "1603", name="Ras Mulugheta", side="ethiopian", kind="leader",
                  unit_class="ethiopian-shoa", faction="shoa")
    assert judge_stacking(board, state(*levies(8, "1603"), scenario="1935-36"), step=1, when=None) == []
    [f] = judge_stacking(board, state(*levies(8, "1603"), leader, scenario="1935-36"), step=1, when=None)
    assert f.check == "lion-of-judah/ST-05" and f.basis is Basis.POSSIBLE
    [f] = judge_stacking(board, state(*levies(9, "1603"), scenario="1935-36"), step=1, when=None)
    assert f.basis is Basis.PROVEN and f.evidence["without_leaders"] == 9


def test_tribal_factions_and_leaders(tmp_path):
    board = synthetic_board(tmp_path)
    kz = unit("kz", "1603", name="KZ", side="ethiopian", unit_class="imperial-guard", size="battalion")
    assert judge_stacking(board, state(*levies(2, "1603"), kz, scenario="1935-36"), step=1, when=None) == []
    [f] = judge_stacking(board, state(*levies(2, "1603"), *levies(1, "1603", "tigray"),
                                      scenario="1935-36"), step=1, when=None)
    assert f.check == "lion-of-judah/ST-06" and f.evidence["factions"] == ["shoa", "tigray"]
    negus = unit("negus", "1603", name="Negus", side="ethiopian", kind="leader", unit_class=None)
    ras = unit("ras", "1603", name="Ras Mulugheta", side="ethiopian", kind="leader",
               unit_class="ethiopian-shoa", faction="shoa")
    assert judge_stacking(board, state(negus, ras, scenario="1935-36"), step=1, when=None) == []
