"""Judged replay speed of Sideshow: 50 months of legal play, this code against a baseline commit,
both measured in the same run.

The Sideshow log is scripted on the synthetic module (fixtures/sideshow/synthetic): every month
the turn tracker walks through the six phases, the weather, initiative and Initial OP rolls are
labelled, each player pays for two Movement Operations (IST from Mombasa five hexes out and
back, Kraut likewise from Arusha) and the German rolls the Auxiliary Random Event. It must judge
with no finding. It is judged by the code of KIT_BASELINE (bench_judged_replay.py: a temporary
git worktree) and by this checkout, each in a fresh interpreter, in CPU seconds, `--repeat` times
in turn; prints steps per second of each run and the speed-up, then Lion of Judah's judged replay
of as many steps with this code (the speed asked of every game's judged replay).

    python tests/benchmarks/bench_sideshow_replay.py [--turns N] [--baseline REV] [--repeat N]
    python -m pytest tests/benchmarks/bench_sideshow_replay.py -s -o addopts=""
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:           # run as a script: after PYTHONPATH, as bench_judged_replay
    sys.path.append(str(ROOT))
SYNTHETIC = ROOT / "fixtures" / "sideshow" / "synthetic"
TURNS = 50


def _move(unit: str, along: list[str]) -> dict:
    return {"action": "move", "unit": unit, "along": along}


def _chat(text: str, who: str) -> dict:
    return {"action": "chat", "text": text, "as": who}


def _roll(button: str, faces: list[int], who: str) -> dict:
    return {"action": "roll", "button": button, "faces": faces, "as": who}


def script(turns: int = TURNS) -> dict:
    """The play script (JSON form, docs/script-format.md) of `turns` months."""
    nxt = {"action": "turn", "turn": "next", "as": "Alice"}
    actions: list[dict] = []
    months = ("Sep", "Oct", "Nov", "Dec", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug")
    for turn in range(turns):
        if turn:
            actions.append(nxt)                                     # reinforcements
        actions.append(nxt)                                         # weather
        if months[turn % 12] == "Mar":
            actions.append(_chat("rain", "Alice"))
        else:
            actions += [_chat("weather", "Alice"), _roll("2d6", [1, 1], "Alice"), _chat("dry", "Alice")]
        actions += [nxt, _chat("initiative", "Alice"), _roll("1d6", [6], "Alice"), _roll("1d6", [1], "Bob"),
                    _chat("segment 2", "Alice"), nxt]                # German 10 against at most 4
        actions += [_chat("ops", "Bob"), _roll("1d6", [3], "Bob"),
                    _chat("op move 3201", "Bob"), _move("IST", ["3202", "3203", "3204", "3205", "3206"]),
                    _chat("op move 3206", "Bob"), _move("IST", ["3205", "3204", "3203", "3202", "3201"]), nxt]
        actions += [_chat("ops", "Alice"), _roll("1d6", [3], "Alice"),
                    _chat("op move 2914", "Alice"), _move("Kraut", ["2913", "2912", "2911", "2910", "2909"]),
                    _chat("op move 2909", "Alice"), _move("Kraut", ["2910", "2911", "2912", "2913", "2914"]), nxt]
        actions += [_chat("event", "Alice"), _roll("2d6", [3, 4], "Alice")]
    return {"format": "vlog-script/1",
            "header": {"game": "sideshow", "module": str(SYNTHETIC / "sideshow.vmod"),
                       "start": str(SYNTHETIC / "campaign-start.vsav"), "map": "Main Map",
                       "clock": 1704067260000, "key": 42,
                       "players": [{"name": "Alice", "side": "german"}, {"name": "Bob", "side": "allied"}]},
            "actions": actions}


def run(turns: int = TURNS, baseline: str | None = None, repeat: int = 1) -> dict:
    from tests.benchmarks.bench_judged_replay import script_against_baseline

    return script_against_baseline("sideshow", SYNTHETIC / "sideshow.vmod", script(turns), baseline, repeat)


def test_bench_sideshow_replay():
    figures = run()
    assert figures["after"]["checks"] == figures["before"]["checks"] == []
    assert figures["after"]["steps"] > 2000


if __name__ == "__main__":
    from tests.benchmarks.bench_judged_replay import options

    given = options(__doc__, turns=TURNS)
    run(given.turns, given.baseline, given.repeat)
