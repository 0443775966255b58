"""A leader stacked with a defender that lives through a melée (MEL-11, checks/melee_results.py),
read both ways where the General FAQ (the leader takes a hit whenever its unit does) and the
Coatit FAQ (only the unit takes the step loss) disagree: either loss is accepted; a leader hit
while its unit lost nothing fits neither. Amba Alagi (S4) on the SYNTHETIC data."""
from __future__ import annotations

from pathlib import Path

import vlog
from converters.log_writer import write_log
from vlog.findings import Basis
from vlog.games.ascari.rules import Ascari
from vlog.replay import replay_log

from .cases import FIXTURES, MODULE, module, synthetic_data

HEADER = "\n".join(["vlog-script 1", "game ascari", f"module {MODULE}", 'map "Main Map"', "clock 1704067260000",
                    "key 0x2a", f"start {FIXTURES / 'synthetic' / 's4-start.vsav'}", "player Alice side italian",
                    "player Bob side ethiopian", "", "as Bob", 'chat "flag ethiopian"', 'add "1 Spear MA" at 2413',
                    "add Maconnen at 2413", 'move "1 Spear MA" along 2412 2411 2410', "move Maconnen along 2412 2411 2410",
                    "as Alice", 'chat "flag italian"', 'move "4 IV" along 2410', ""])
DEFENDER_HIT = 'roll 1d6 = 4\nroll 1d6 = 3\nreduce "1 Spear MA"\nmove "1 Spear MA" along 2411\nmove Maconnen along 2411\n'
"""4 IV wins: 1 Spear MA loses a step and retreats to 2411, Maconnen with it."""
ATTACKER_HIT = 'roll 1d6 = 1\nroll 1d6 = 6\nreduce "4 IV"\nmove "4 IV" along 2409\n'
"""1 Spear MA wins: 4 IV loses a step and retreats; the defender loses nothing."""


def mel_11(tmp_path: Path, actions: str) -> list:
    script, log = tmp_path / "play.vscript", tmp_path / "play.vlog"
    script.write_text(HEADER + actions + 'move "3 IV" along 2707\n', encoding="utf-8")
    write_log(script, log)
    rep = replay_log(vlog.read(log), module=module(), game=Ascari(synthetic_data()))
    return [f for f in rep.findings if f.check in ("ascari/MEL-11",) or f.check.startswith("vlog/")]


def test_mel_11_the_leader_of_a_unit_hit_may_lose_a_step_or_none(tmp_path):
    assert mel_11(tmp_path, DEFENDER_HIT) == []                          # Coatit FAQ
    assert mel_11(tmp_path, DEFENDER_HIT + "reduce Maconnen\n") == []    # General FAQ


def test_mel_11_a_leader_hit_while_its_unit_lost_nothing_fits_neither_faq(tmp_path):
    assert mel_11(tmp_path, ATTACKER_HIT) == []
    found = mel_11(tmp_path, ATTACKER_HIT + "reduce Maconnen\n")
    assert [(f.basis, f.step, f.evidence["leader_lost"], f.evidence["unit_lost"]) for f in found] == [
        (Basis.PROVEN, 17, 1, 0)]
