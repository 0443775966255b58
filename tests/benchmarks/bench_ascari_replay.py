"""Judged replay speed of Ascari: a few thousand steps of legal play on the synthetic module,
against Lion of Judah's judged replay of as many steps measured in the same run.

The Ascari log is scripted on fixtures/ascari/synthetic (Amba Alagi, S4): the Ethiopians enter,
then turn after turn the flags alternate, two rifles move two hexes and back, one of them is
fired at as it moves and fires back in its Fire Combat Phase, and the Italians fire back in
theirs (lines of sight traced each time). Lion of Judah's log is bench_judged_replay.py's. Each is
judged in a fresh interpreter, in CPU seconds; prints steps per second of each and their ratio.

    python tests/benchmarks/bench_ascari_replay.py [--steps N]
    python -m pytest tests/benchmarks/bench_ascari_replay.py -s -o addopts=""
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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


def time_replay(log_path: str) -> dict:
    """Judge the log with this checkout's vlog; CPU seconds of the replay alone."""
    from tests.benchmarks.bench_judged_replay import judged

    return judged("ascari", SYNTHETIC / "ascari.vmod", log_path)


def _run(args: list[str]) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, *args], env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def run(steps: int = STEPS) -> dict:
    sys.path.insert(0, str(Path(__file__).parent))
    import bench_judged_replay as loj

    with tempfile.TemporaryDirectory() as tmp:
        ours, theirs = Path(tmp) / "ascari.vlog", Path(tmp) / "loj.vlog"
        build(ours, steps)
        loj.build(theirs, steps)
        ascari = _run([__file__, "--time", str(ours)])
        lion = _run([loj.__file__, "--time", str(theirs)])
    for name, fig in (("lion-of-judah", lion), ("ascari", ascari)):
        print(f"{name:14} {fig['steps']} steps {fig['seconds']:8.2f} s CPU "
              f"{fig['steps'] / fig['seconds']:8.0f} steps/s  ({fig['findings']} findings)")
    ratio = (ascari["steps"] / ascari["seconds"]) / (lion["steps"] / lion["seconds"])
    print(f"ascari / lion-of-judah steps per second: {ratio:.2f}")
    return {"ascari": ascari, "lion": lion, "ratio": ratio}


def test_bench_ascari_replay():
    figures = run()
    assert figures["ascari"]["steps"] >= STEPS
    assert figures["ascari"]["findings"] == 0            # legal play


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--time", metavar="LOG", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.time:
        print(json.dumps(time_replay(options.time)))
    else:
        run(options.steps)
