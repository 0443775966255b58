"""What Toy Skirmish contributes to the tests every game with a rules engine runs
(tests/games/test_every_game.py; test_toy_game.py runs them for the toy)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

import vlog
from tests.toy_game import FIXTURES, installed
from vlog.games.base import find_game
from vlog.replay import Replay, replay_log
from vlog.vassal.commands import Chat
from vlog.vassal.module import read_module

RULES = FIXTURES / "toy-skirmish"
MODULE = RULES / "toy-skirmish.vmod"
EXPECTED: dict[str, list[tuple[str, int, Mapping[str, Any]]]] = {
    "MV-01": [("MV-01", 3, {"from": "0201", "to": "0606", "movement_factor": 5})],
}
KNOWN_GAPS: dict[str, str] = {}
UNIT_CASES: dict[str, str] = {
    "MV-02": "test_toy_game.py::test_mv02_no_unit_enters_a_lake",
    "ST-01": "test_toy_game.py::test_st01_a_third_unit_of_a_side_in_a_hex",
}
NO_FINDING: dict[str, str] = {}


@lru_cache(maxsize=None)
def replay(name: str) -> Replay:
    """One fixture log judged by the toy, once per test run."""
    with installed():
        return replay_log(vlog.read(RULES / f"{name}.vlog"), module=read_module(MODULE), game=find_game("toy"))


def playthrough(name: str) -> str:
    """Each step's chat and findings, and where every piece stands after it."""
    rep = replay(name)
    lines = [f"# {name}.vlog judged by toy-skirmish (SYNTHETIC game); {len(rep.steps)} steps, "
             f"{len(rep.findings)} findings"]
    for step in rep.steps:
        table = rep.state_at(step.index)
        where = ", ".join(f"{p.name}@{table.location_name(p)}" for p in sorted(table.game_pieces(), key=lambda p: p.name))
        lines.append(f"step {step.index}: {where}")
        lines += [f"  chat: {c.text}" for c in step.commands if isinstance(c, Chat)]
        lines += [f"  FINDING {f.check} {f.severity.value}: {f.message}" for f in rep.findings if f.step == step.index]
    return "\n".join(lines) + "\n"
