"""Play scripts judged through the whole engine on the fixtures' synthetic module and start saves
(their data SYNTHETIC, not the published charts): a test writes only the actions."""
from __future__ import annotations

from pathlib import Path

import vlog
from converters.log_writer import write_log
from vlog.findings import Finding
from vlog.games.lion_of_judah.rules import game
from vlog.replay import replay_log

from .test_end_to_end import FIXTURES, synthetic_data, synthetic_module

SYNTHETIC = FIXTURES / "synthetic"
SECOND_PLAYER = {"1935-36": "ethiopian", "1940-41": "allied"}


TO_TURN_2_MAP = "\n".join(["as Alice", "turn next", "turn next", "turn next",     # Italian movement, combat,
                           "as Bob", "turn next", "turn next", "turn next",       # activation, Ethiopian
                           "as Alice", "turn next"])                              # movement, combat, End; MAP
"""1935-36: from the Event Phase of turn 1, where the synthetic start stands, to the MAP of turn 2."""


def script_text(actions: str, scenario: str = "1935-36") -> str:
    """A script on the synthetic module and the scenario's synthetic start: Alice plays the
    Italians, Bob the other side; `actions` follow the header."""
    return "\n".join([
        "vlog-script 1", "game lion-of-judah", f"module {SYNTHETIC / 'lion-of-judah.vmod'}",
        f"start {SYNTHETIC / f'{scenario}-start.vsav'}", 'map "Main Map"', "clock 1704067260000", "key 0x2a",
        "player Alice side italian", f"player Bob side {SECOND_PLAYER[scenario]}", "", actions])


def judge_actions(tmp_path: Path, actions: str, *, scenario: str = "1935-36",
                  name: str = "play") -> list[Finding]:
    """The findings of the log `actions` make, judged on the synthetic data."""
    script, log = tmp_path / f"{name}.vscript", tmp_path / f"{name}.vlog"
    script.write_text(script_text(actions, scenario), encoding="utf-8")
    write_log(script, log)
    return list(replay_log(vlog.read(log), module=synthetic_module(), game=game(synthetic_data())).findings)
