"""An artillery unit's change of formation in its movement phase (MOV-12, checks/limbering.py): the
1 MP each flip costs within the printed allowance, on the synthetic data and on the shipped data
(no allowance: not judged, naming it)."""
from __future__ import annotations

from pathlib import Path

import vlog
from converters.log_writer import write_log
from vlog.findings import Basis
from vlog.gamedata import load_game_data
from vlog.games.ascari.rules import Ascari
from vlog.replay import replay_log

from .cases import FIXTURES, MODULE, module, synthetic_data

HEADER = "\n".join(["vlog-script 1", "game ascari", f"module {MODULE}", 'map "Main Map"', "clock 1704067260000",
                    "key 0x2a", f"start {FIXTURES / 'synthetic' / 's4-start.vsav'}", "player Alice side italian",
                    "player Bob side ethiopian", "", "as Bob", 'chat "flag ethiopian"', "as Alice",
                    'chat "flag italian"', ""])


def judge(tmp_path: Path, actions: str, data=None):
    script, log = tmp_path / "play.vscript", tmp_path / "play.vlog"
    script.write_text(HEADER + actions, encoding="utf-8")
    write_log(script, log)
    return replay_log(vlog.read(log), module=module(), game=Ascari(data or synthetic_data()))


def test_mov_12_two_flips_after_two_mp_are_over_the_allowance(tmp_path):
    """Allowance 3 (synthetic): 2 MP to 1707, then two flips at 1 MP each: the second is over."""
    rep = judge(tmp_path, 'move "D Batt battery" along 1807 1707\nflip "D Batt battery"\nflip "D Batt battery"\n')
    found = [f for f in rep.findings if f.check == "ascari/MOV-12"]
    assert [(f.basis, f.step, f.evidence["spent"], f.evidence["flips"]) for f in found] == [(Basis.PROVEN, 6, 2, 2)]


def test_mov_12_one_flip_after_two_mp_and_one_hex_after_limbering_are_legal(tmp_path):
    rep = judge(tmp_path, 'move "D Batt battery" along 1807 1707\nflip "D Batt battery"\n'
                          'move "D Batt battery" along 1607\n')
    assert [f for f in rep.findings if f.check == "ascari/MOV-12"] == []


def test_mov_12_on_the_shipped_data_the_flip_cost_is_not_judged_naming_the_allowance(tmp_path):
    rep = judge(tmp_path, 'move "D Batt battery" along 1807 1707\nflip "D Batt battery"\nflip "D Batt battery"\n',
                data=load_game_data("ascari"))
    assert [f for f in rep.findings if f.check == "ascari/MOV-12" and f.basis is Basis.PROVEN] == []
    unsettled = rep.tally.status("ascari/MOV-12").unsettled
    assert [u.step for u in unsettled] == [5, 6] and all("movement" in " ".join(u.data) for u in unsettled)
