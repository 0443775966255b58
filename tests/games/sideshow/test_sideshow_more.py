"""Readings of Sideshow checks the fixture logs do not reach: an Amphibious Assault's unit of a
type the data gives (SEA-05); a set-up not as 18.0 puts it (SET-01)."""
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
