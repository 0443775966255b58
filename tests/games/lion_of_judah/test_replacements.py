"""Replacement, consolidation and breakdown (RR-13, RR-14, RR-16, RR-17) on SYNTHETIC positions."""
from __future__ import annotations

from dataclasses import replace

from vlog.games.lion_of_judah.checks.replacements import judge_breakdown, judge_step_gain

from .synthetic import state, synthetic_board, unit

ERITREA = [f"{c:02d}{r:02d}" for c in range(12, 18) for r in range(2, 16)]


def codes(findings):
    return [f.check.split("/")[1] for f in findings]


def test_replacement_needs_an_hq_supply_and_the_map_phase(tmp_path):
    board = synthetic_board(tmp_path, zones={"eritrea": ERITREA}, hexsides={"1407/1408": ["impassable"]})
    sb = unit("sb", "1406", name="Sb", steps=2)
    hq = unit("hq", "1407", name="1CA", kind="hq", size=None)
    s = state(sb, hq, scenario="1935-36")
    assert judge_step_gain(board, s, sb, 3, consolidated_with=[], phase_key="map", step=1, when=None) == []
    assert codes(judge_step_gain(board, s, sb, 3, consolidated_with=[], phase_key="first-movement",
                                 step=1, when=None)) == ["RR-14"]
    alone = state(sb, scenario="1935-36")
    [f] = judge_step_gain(board, alone, sb, 3, consolidated_with=[], phase_key="map", step=1, when=None)
    assert f.check == "lion-of-judah/RR-14" and "no friendly HQ" in f.message
    behind_cliff = replace(sb, hex="1408")
    s2 = state(behind_cliff, hq, scenario="1935-36")
    assert codes(judge_step_gain(board, s2, behind_cliff, 3, consolidated_with=[], phase_key="map",
                                 step=1, when=None)) == ["RR-14"]
    far = replace(sb, hex="1413")
    s3 = state(far, replace(hq, hex="1412"), scenario="1935-36")
    assert codes(judge_step_gain(board, s3, far, 3, consolidated_with=[], phase_key="map",
                                 step=1, when=None)) == ["RR-14"]          # out of supply


def test_never_replaced_in_1940(tmp_path):
    board = synthetic_board(tmp_path)
    bs = unit("bs", "1405", name="Black Shirts", unit_class="black-shirt", steps=2)
    hq = unit("hq", "1405", name="SN", kind="hq", size=None)
    s = state(bs, hq, scenario="1940-41")
    assert "RR-13" in codes(judge_step_gain(board, s, bs, 3, consolidated_with=[], phase_key="map",
                                            step=1, when=None))


def test_consolidation_needs_supply(tmp_path):
    board = synthetic_board(tmp_path, zones={"eritrea": ERITREA})
    pl = unit("pl", "1413", name="PL", steps=3)
    s = state(pl, scenario="1935-36")
    assert codes(judge_step_gain(board, s, pl, 4, consolidated_with=["bd"], phase_key="map",
                                 step=1, when=None)) == ["RR-17"]


def test_breakdown_units_come_from_a_big_unit(tmp_path):
    board = synthetic_board(tmp_path, zones={"eritrea": ERITREA})
    pl = unit("pl", "1406", name="PL", steps=4)
    bd = unit("bd", "1406", name="Italian regular breakdown unit", unit_type="breakdown", size="regiment")
    before = state(pl, scenario="1935-36")
    after = state(replace(pl, steps=3), bd, scenario="1935-36")
    assert judge_breakdown(board, before, after, bd, step=1, when=None) == []
    [f] = judge_breakdown(board, before, state(pl, bd, scenario="1935-36"), bd, step=1, when=None)
    assert f.check == "lion-of-judah/RR-16"
    s40b, s40a = state(pl, scenario="1940-41"), state(replace(pl, steps=3), bd, scenario="1940-41")
    assert codes(judge_breakdown(board, s40b, s40a, bd, step=1, when=None)) == ["RR-16"]
