"""Judged replay speed of Ascari: a few thousand steps of legal play on the synthetic module,
this code against a baseline commit, both measured in the same run.

The Ascari log is scripted on fixtures/ascari/synthetic (Amba Alagi, S4): the Ethiopians enter,
then turn after turn the flags alternate, two rifles move two hexes and back, one of them is
fired at as it moves and fires back in its Fire Combat Phase, and the Italians fire back in
theirs (lines of sight traced each time). The log is judged by the code of KIT_BASELINE
(bench_judged_replay.py: a temporary git worktree) and by this checkout, each in a fresh
interpreter, in CPU seconds, `--repeat` times in turn; prints steps per second of each run and
the speed-up, then Lion of Judah's judged replay of as many steps with this code (the 5,000 steps
per second asked of it is the figure asked of the others).

    python tests/benchmarks/bench_ascari_replay.py [--steps N] [--baseline REV] [--repeat N]
    python -m pytest tests/benchmarks/bench_ascari_replay.py -s -o addopts=""
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:           # run as a script: after PYTHONPATH, as bench_judged_replay
    sys.path.append(str(ROOT))
SYNTHETIC = ROOT / "fixtures" / "ascari" / "synthetic"
STEPS = 3_000


def _chat(text: str, who: str) -> dict:
    return {"action": "chat", "text": text, "as": who}


def script(steps: int = STEPS) -> dict:
    """The play script (JSON form, docs/script-format.md) of at least `steps` steps."""
    actions: list[dict] = [_chat("flag ethiopian", "Bob"),
                           {"action": "add", "piece": "1 Rifle MA", "along": ["2413"], "as": "Bob"},
                           {"action": "add", "piece": "2 Rifle MA", "along": ["2613"], "as": "Bob"}]
    while len(actions) < steps:
        if len(actions) > 3:
            actions.append(_chat("flag ethiopian", "Bob"))
        actions += [{"action": "move", "unit": "1 Rifle MA", "along": ["2412"], "as": "Bob"},
                    _chat("opfire 4 IV at 2412", "Alice"), {"action": "roll", "button": "1d6", "faces": [2]},
                    {"action": "move", "unit": "1 Rifle MA", "along": ["2413"], "as": "Bob"},
                    {"action": "move", "unit": "2 Rifle MA", "along": ["2612", "2613"], "as": "Bob"},
                    _chat("fire 1 Rifle MA at 2409", "Bob"), {"action": "roll", "button": "1d6", "faces": [1]},
                    _chat("flag italian", "Alice"),
                    _chat("fire 4 IV at 2413", "Alice"), {"action": "roll", "button": "1d6", "faces": [3]}]
    return {"format": "vlog-script/1",
            "header": {"game": "ascari", "module": str(SYNTHETIC / "ascari.vmod"),
                       "start": str(SYNTHETIC / "s4-start.vsav"), "map": "Main Map",
                       "clock": 1704067260000, "key": 42,
                       "players": [{"name": "Alice", "side": "italian"}, {"name": "Bob", "side": "ethiopian"}]},
            "actions": actions}


def build(path: Path, steps: int = STEPS) -> None:
    from tests.benchmarks.bench_judged_replay import write_script_log

    write_script_log(path, script(steps))


def run(steps: int = STEPS, baseline: str | None = None, repeat: int = 1) -> dict:
    from tests.benchmarks.bench_judged_replay import script_against_baseline

    return script_against_baseline("ascari", SYNTHETIC / "ascari.vmod", script(steps), baseline, repeat)


def test_bench_ascari_replay():
    figures = run()
    assert figures["after"]["steps"] == figures["before"]["steps"] >= STEPS
    assert figures["after"]["findings"] == figures["before"]["findings"] == 0      # legal play


if __name__ == "__main__":
    from tests.benchmarks.bench_judged_replay import options

    given = options(__doc__, steps=STEPS)
    run(given.steps, given.baseline, given.repeat)
