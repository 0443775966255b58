"""The First Agordat Booty revolt roll (SCN-01, checks/revolt.py) on scripted logs: a roll due and
not made, the flips against the rolls, a line of sight the shipped map data does not settle, and
the legal play around them (a blocked line, a move that comes no nearer, a roll at each approach)."""
from __future__ import annotations

from pathlib import Path

import vlog
from converters.log_writer import write_log
from vlog.findings import Basis
from vlog.gamedata import load_game_data
from vlog.games.ascari.rules import Ascari
from vlog.replay import replay_log

from .cases import FIXTURES, MODULE, RULES, module, synthetic_data

HEADER = "\n".join(["vlog-script 1", "game ascari", f"module {MODULE}", 'map "Main Map"', "clock 1704067260000",
                    "key 0x2a", f"start {FIXTURES / 'synthetic' / 's1-start.vsav'}", "player Alice side italian",
                    "player Bob side dervish", "", "as Alice", 'add "1 II" at 2703', 'add "2 II" at 1803', "as Bob",
                    'add "1 Rifle" at 2909', 'move @1704067200002 along 2206 on "Main Map"', 'move @1704067200004 along 2506 on "Main Map"',
                    'chat "flag dervish"', "as Alice", 'chat "flag italian"', ""])


def judge(tmp_path: Path, actions: str, data=None) -> list:
    script, log = tmp_path / "play.vscript", tmp_path / "play.vlog"
    script.write_text(HEADER + actions, encoding="utf-8")
    write_log(script, log)
    rep = replay_log(vlog.read(log), module=module(), game=Ascari(data or synthetic_data()))
    return [f for f in rep.findings if f.check in ("ascari/SCN-01",) or f.check.startswith("vlog/")]


def test_scn_01_a_roll_at_each_approaching_hex_is_clean(tmp_path):
    """3 hexes, then 2, then 1 from the Camel in 2506: a roll at each (in 2505 also for the Camel in
    2206, 3 hexes away in sight: two rolls); 2504 comes no nearer either Camel and owes none."""
    actions = ('move "1 II" along 2604\nroll 1d6 = 1\nmove "1 II" along 2605\nroll 1d6 = 2\n'
               'move "1 II" along 2505\nroll 1d6 = 2\nroll 1d6 = 1\nmove "1 II" along 2504\nmove "2 II" along 1804\n')
    assert judge(tmp_path, actions) == []


def test_scn_01_a_revolt_on_a_roll_of_one_or_two_is_proven(tmp_path):
    found = judge(tmp_path, 'move "1 II" along 2604\nroll 1d6 = 2\nreduce @1704067200004\nmove "2 II" along 1804\n')
    assert [(f.basis, f.step, f.evidence["revolts_rolled"], f.evidence["flipped"]) for f in found] == [
        (Basis.PROVEN, 8, 0, 1)]


def test_scn_01_a_camel_that_stays_after_a_three_is_proven(tmp_path):
    found = judge(tmp_path, 'move "1 II" along 2604\nroll 1d6 = 3\nmove "2 II" along 1804\n')
    assert [(f.basis, f.evidence["revolts_rolled"], f.evidence["flipped"]) for f in found] == [(Basis.PROVEN, 1, 0)]
    assert judge(tmp_path, 'move "1 II" along 2604\nroll 1d6 = 3\nreduce @1704067200004\nmove "2 II" along 1804\n') == []


def test_scn_01_a_line_blocked_by_palm_trees_owes_no_roll(tmp_path):
    """1904 -> 2206 runs through the palm trees of 2005 and 2105 (the synthetic map)."""
    assert judge(tmp_path, 'move "2 II" along 1904\nmove "1 II" along 2603\n') == []


def test_scn_01_a_fire_s_roll_is_not_the_booty_s(tmp_path):
    """An opportunity fire at the moving unit takes the roll after it: the Booty roll is still due."""
    found = judge(tmp_path, 'move "1 II" along 2604\nas Bob\nchat "opfire 1 Rifle at 2604"\nroll 1d6 = 1\n'
                            'as Alice\nmove "2 II" along 1804\n')
    assert [(f.basis, f.evidence["rolls"]) for f in found if f.check == "ascari/SCN-01"] == [(Basis.PROVEN, [])]


def test_scn_01_the_log_ending_after_the_move_is_not_settled(tmp_path):
    script, log = tmp_path / "play.vscript", tmp_path / "play.vlog"
    script.write_text(HEADER + 'move "1 II" along 2604\n', encoding="utf-8")
    write_log(script, log)
    rep = replay_log(vlog.read(log), module=module(), game=Ascari(synthetic_data()))
    assert [f for f in rep.findings if f.check == "ascari/SCN-01"] == []
    assert [u.step for u in rep.tally.status("ascari/SCN-01").unsettled] == [8]


def test_scn_01_on_the_shipped_data_the_unknown_terrain_is_named_not_guessed():
    """The shipped Agordat map has no terrain for the hexes between: POSSIBLE, naming them (for
    the move to 1904 too, whose palm trees are the synthetic map's)."""
    rep = replay_log(vlog.read(RULES / "SCN-01.vlog"), module=module(), game=Ascari(load_game_data("ascari")))
    found = [f for f in rep.findings if f.check == "ascari/SCN-01"]
    assert [(f.basis, f.step) for f in found] == [(Basis.POSSIBLE, 9), (Basis.POSSIBLE, 10)]
    assert found[0].evidence["depends_on"] and all(d.startswith("map.json ") and " hex " in d for d in found[0].evidence["depends_on"])


def test_scn_01_more_dice_than_the_fire_s_may_hold_the_booty_roll(tmp_path):
    """Two d6 while the opportunity fire is open: one may be the Booty roll, so a missing roll is POSSIBLE."""
    found = judge(tmp_path, 'move "1 II" along 2604\nas Bob\nchat "opfire 1 Rifle at 2604"\nroll 1d6 = 1\n'
                            'as Alice\nroll 1d6 = 2\nmove "2 II" along 1804\n')
    scn = [f for f in found if f.check == "ascari/SCN-01"]
    assert [f.basis for f in scn] == [Basis.POSSIBLE]
    assert any("fire" in d for d in scn[0].evidence["depends_on"])
