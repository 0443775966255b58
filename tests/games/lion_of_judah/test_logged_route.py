"""The route the log shows (11.1: units move hex by hex, paying for each hex entered), on
SYNTHETIC boards (see synthetic.py): a prohibition met on the way is reported under its own check
with the hex, a loop back to the start is judged, and the end of a move is no tribal passage."""
from __future__ import annotations

from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.movement import MoveFacts, judge_move

from .synthetic import state, synthetic_board, unit
from .test_movement import AREA, only


def test_a_hop_across_an_impassable_hexside_is_mv07_with_the_hexside(tmp_path):
    """11.2: units may not cross hexsides impassable to them; 1605 is reachable around the
    hexside (1603 1604 1605 blocked, 1603 1604 ... via 1505), but the log shows the hop across."""
    board = synthetic_board(tmp_path, hexsides={"1604/1605": ["impassable"]}, zones={"eritrea": AREA})
    sb = unit("sb", "1603", name="Sb")
    direct = judge_move(board, state(sb), MoveFacts(sb, "1603", "1605"), step=3, when=None)
    assert direct == []                              # one drag: some route goes around
    f = only(judge_move(board, state(sb), MoveFacts(sb, "1603", "1605", path=("1603", "1604", "1605")),
                        step=3, when=None), "MV-07")
    assert f.basis is Basis.PROVEN and f.evidence["failed_hop"] == ["1604", "1605"]
    assert "1604/1605 is an impassable hexside" in f.message


def test_a_hop_through_enemy_units_is_mv06_with_the_hex(tmp_path):
    """11.2: never into a hex with enemy units, even in passing."""
    board = synthetic_board(tmp_path, zones={"eritrea": AREA})
    sb = unit("sb", "1603", name="Sb")
    lv = unit("lv", "1604", name="Levy", side="ethiopian", unit_class="tribal-levy", faction="tigray")
    f = only(judge_move(board, state(sb, lv), MoveFacts(sb, "1603", "1605", path=("1603", "1604", "1605")),
                        step=3, when=None), "MV-06")
    assert f.basis is Basis.PROVEN and "1604 holds enemy units (Levy)" in f.message


def test_a_loop_back_to_the_start_is_judged(tmp_path):
    """A unit dragged around and back where it began spent MPs: beyond its MF without a roll is
    MV-23, possible only (the drags back may have been corrections: staying put is legal)."""
    board = synthetic_board(tmp_path, zones={"eritrea": AREA})
    sb = unit("sb", "1603", name="Sb")
    loop = ("1603", "1604", "1605", "1606", "1605", "1604", "1603")
    f = only(judge_move(board, state(sb), MoveFacts(sb, "1603", "1603", path=loop), step=3, when=None), "MV-23")
    assert f.basis is Basis.POSSIBLE and f.evidence["logged_cost"] == 4
    assert any("corrections" in d for d in f.evidence["depends_on"])
    assert judge_move(board, state(sb), MoveFacts(sb, "1603", "1603", path=("1603", "1604", "1605", "1604", "1603")),
                      step=3, when=None) == []


def test_ending_in_another_factions_hex_is_no_passage(tmp_path):
    """PB 13.6.1 (MV-42) forbids moving *through* another faction's hex; ending in one is a
    stacking matter (ST-06, judged at the end of the segment)."""
    board = synthetic_board(tmp_path, zones={"ethiopia": AREA})
    wollo = unit("w", "1603", name="Wollo levy", side="ethiopian", unit_class="tribal-levy",
                 faction="wollo", movement=6)
    beg = unit("b", "1604", name="Beghemder levy", side="ethiopian", unit_class="tribal-levy",
               faction="beghemder", movement=6)
    here = state(wollo, beg, scenario="1935-36")
    facts = dict(scenario="1935-36")
    assert judge_move(board, here, MoveFacts(wollo, "1603", "1604", **facts), step=3, when=None) == []
    assert judge_move(board, here, MoveFacts(wollo, "1603", "1604", path=("1603", "1503", "1604"), **facts),
                      step=3, when=None) == []
    f = only(judge_move(board, here, MoveFacts(wollo, "1603", "1605", path=("1603", "1604", "1605"), **facts),
                        step=3, when=None), "MV-42")
    assert f.evidence["failed_hop"] == ["1603", "1604"] and "beghemder" in f.message


def test_one_drag_that_only_a_prohibited_hex_explains_names_it(tmp_path):
    """One drag (no route shown): a move too long for every allowed path, that some path within
    the MF explains only through enemy units (11.2) or, (35), a hex not in play (PB 13.1.1), is
    reported under that prohibition with the hex, not as a move beyond the MF (MV-03)."""
    area = [h for h in AREA if h != "1605"]
    board = synthetic_board(tmp_path, zones={"ethiopia": AREA})
    levy = unit("lv", "1603", name="Levy", side="ethiopian", unit_class="tribal-levy", faction="tigray")
    sb = unit("sb", "1605", name="Sb")
    f = only(judge_move(board, state(levy, sb, scenario="1935-36"),
                        MoveFacts(levy, "1603", "1607", scenario="1935-36"), step=3, when=None), "MV-06")
    assert f.basis is Basis.PROVEN and f.evidence["hexes"] == ["1605"] and "holding enemy units" in f.message
    assert judge_move(board, state(levy, sb, scenario="1935-36"),
                      MoveFacts(levy, "1603", "1608", scenario="1935-36"), step=3, when=None)[0].check \
        == "lion-of-judah/MV-03"                      # too long even through 1605
    outside = synthetic_board(tmp_path / "b", zones={"ethiopia": area})
    f = only(judge_move(outside, state(levy, scenario="1935-36"),
                        MoveFacts(levy, "1603", "1607", scenario="1935-36"), step=3, when=None), "MV-07")
    assert f.evidence["hexes"] == ["1605"] and "not in play in 1935-36" in f.message


def test_a_leg_of_the_logged_route_that_only_a_prohibited_hex_explains_names_it(tmp_path):
    """A drag of more than one hex in a logged route (a leg searched) that fits what is left of
    the MF only through enemy units is MV-06 with the hex, not a move beyond the MF (MV-03): with
    Sb in 1605 and 1705, one drag from 1603 to 1607 goes around them on the levy's 6 MPs, but
    after the drag back to 1602 only the path through 1605 fits. Ending the leg in another
    faction's hex it then leaves is MV-42 for that hex."""
    board = synthetic_board(tmp_path, zones={"ethiopia": AREA})
    levy = unit("lv", "1603", name="Levy", side="ethiopian", unit_class="tribal-levy", faction="tigray",
                movement=6)
    here = state(levy, unit("sb", "1605", name="Sb"), unit("sb2", "1705", name="Sb 2"), scenario="1935-36")
    assert judge_move(board, here, MoveFacts(levy, "1603", "1607", scenario="1935-36"), step=3, when=None) == []
    f = only(judge_move(board, here, MoveFacts(levy, "1603", "1607", path=("1603", "1602", "1607"),
                                               scenario="1935-36"), step=3, when=None), "MV-06")
    assert f.basis is Basis.PROVEN and f.evidence["hexes"] == ["1605"] and f.evidence["failed_hop"] == ["1602", "1607"]
    assert "only through 1605, holding enemy units" in f.message
    beg = unit("b", "1605", name="Beghemder levy", side="ethiopian", unit_class="tribal-levy", faction="beghemder")
    f = only(judge_move(board, state(levy, beg, scenario="1935-36"),
                        MoveFacts(levy, "1603", "1606", path=("1603", "1605", "1606"), scenario="1935-36"),
                        step=3, when=None), "MV-42")
    assert f.basis is Basis.PROVEN and f.evidence["hexes"] == ["1605"] and "beghemder" in f.message
