"""Readings of Sideshow checks the fixture logs do not reach: an Amphibious Assault's unit of a
type the data gives (SEA-05); a set-up not as 18.0 puts it (SET-01); units back from event N too soon (EVT-14)."""
from __future__ import annotations

import vlog
from converters.log_writer import write_log
from vlog.findings import Basis
from vlog.games.base import find_game
from vlog.replay import replay_log

from .cases import data, module
from .test_event_arrivals import turn
from .test_sideshow_rules import HEADER, judge


def test_sea_05_artillery_does_not_assault_from_the_sea(tmp_path):
    body = turn(2, allied='add "28 MtRA" at 3201\nchat "op amphibious 4406"\nmove "28 MtRA" along 4406\n'
                          'move IST along 4406\n')
    found = [(f.check, f.basis, f.evidence.get("unit"), f.evidence.get("type")) for f in judge(tmp_path, body)]
    assert found == [("sideshow/SEA-05", Basis.PROVEN, "28 MtRA", "artillery")]


def test_set_01_a_unit_not_where_the_set_up_puts_it(tmp_path):
    """18.0: a log beginning with the game, 1 FK moved off Arusha (2914) and Uganda onto the map
    before it: the replay's table after those moves is the next log's start."""
    script, log = tmp_path / "moved.vscript", tmp_path / "moved.vlog"
    script.write_text(HEADER + 'as Alice\nmove "1 FK" along 2915\nas Bob\nmove Uganda along 1016\n', encoding="utf-8")
    write_log(script, log)
    moved = replay_log(vlog.read(log), module=module(), game=find_game("sideshow", data()))
    found = [f for f in moved.findings if f.check == "sideshow/SET-01"]
    assert found == []                                   # the log's own start is the set-up
    again = replay_log(vlog.read(log), module=module(), game=find_game("sideshow", data()), start=moved.final)
    found = [(f.check, f.basis, f.evidence["unit"], f.evidence["at"], f.evidence["setup"])
             for f in again.findings if f.check == "sideshow/SET-01"]
    assert found == [("sideshow/SET-01", Basis.PROVEN, "1 FK", "2915", "2914"),
                     ("sideshow/SET-01", Basis.PROVEN, "Uganda", "1016", "off-map-uganda")]


def test_evt_14_the_mad_mullah_s_units_come_back_a_turn_later_at_the_soonest(tmp_path):
    """16.2 N: 101 Grn, taken to Somaliland in December 1914, back in the Available Box that
    turn is too soon; 1/1 KAR back in it the next turn, and on the map the turn after, is not."""
    body = turn(3, allied='add "101 Grn" at 3201\n') + turn(4, german='chat "op event"\nchat event\nroll 2d6 = 3,4\n'
                                                              'chat "event N"\nas Bob\nremove "101 Grn"\nremove "1/1 KAR"\n'
                                                              'add "101 Grn" at "Available Troops Box" on "Off-map Boxes"\n')
    body += turn(5, allied='add "1/1 KAR" at "Available Troops Box" on "Off-map Boxes"\n')
    body += turn(6, allied='move "1/1 KAR" along 3201\n')
    found = [(f.check, f.basis, f.evidence["unit"], f.evidence["first_turn"]) for f in judge(tmp_path, body)
             if f.check == "sideshow/EVT-14"]
    assert found == [("sideshow/EVT-14", Basis.PROVEN, "101 Grn", 5)]


def test_cbt_04_the_german_ambush_is_one_die_once_in_a_withdrawal_with_ambush(tmp_path):
    from .test_sideshow_rules import _german_saves
    attacked = _german_saves(2) + 'chat "op move 3201"\nmove IST along 3416\nchat "op attack 3516"\nas Alice\n'
    ambush = 'chat ambush\nroll 1d6 = 1\n'
    checks = lambda found: [(f.check, f.evidence.get("operation")) for f in found  # noqa: E731
                            if f.check != "sideshow/STK-01"]
    assert checks(judge(tmp_path, attacked + 'chat "op withdraw2"\n' + ambush)) == []
    assert checks(judge(tmp_path, attacked + 'chat "op withdraw2"\n' + ambush + ambush)) == [("sideshow/CBT-04", "withdraw2")]
    assert checks(judge(tmp_path, attacked + 'chat "op withdraw"\n' + ambush)) == [("sideshow/CBT-04", "withdraw")]


def test_att_11_a_unit_put_in_the_replacement_box_from_another_box_or_straight_onto_the_table(tmp_path):
    """9.33, judged from the kit's moves between boxes: A. Tanga moved from the Available Troops
    Box into the Replacement Box, and 1 SK put straight into it from off the table, leave play for
    good; 7 FK, a Field Company, moved there from the Available Troops Box is rebuilt."""
    boxed = lambda name, box: f'move "{name}" along "{box}" on "Off-map Boxes"\n'   # noqa: E731
    body = turn(2, german=boxed("A. Tanga", "Available Troops Box") + boxed("A. Tanga", "Replacement Box")
                + boxed("7 FK", "Available Troops Box") + boxed("7 FK", "Replacement Box")
                + 'add "1 SK" at "Replacement Box" on "Off-map Boxes"\n')
    found = [(f.check, f.basis, f.evidence["unit"]) for f in judge(tmp_path, body) if f.check == "sideshow/ATT-11"]
    assert found == [("sideshow/ATT-11", Basis.PROVEN, "A. Tanga"), ("sideshow/ATT-11", Basis.PROVEN, "1 SK")]
