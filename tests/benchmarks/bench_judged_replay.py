"""Judged replay speed: Lion of Judah's rules on a 10,000-step log, this code against a baseline.

The log is scripted on the synthetic module (fixtures/lion-of-judah/synthetic, 1935-36 start):
turn after turn the turn tracker walks through every phase and, in each Italian movement
segment, 21A moves one hex and back, twice. Play goes on past the scenario's seventh turn
(TS-03), so the turns are many and the position stays small: the figure is the cost of the step
pipeline and of the checks every step and phase change runs. The findings are counted; both
codes must give as many.

Both codes are timed in this run, each in a fresh interpreter on the same log file, in CPU
seconds: the baseline is a checkout of BASELINE (a temporary git worktree, removed after), the
other this checkout. Prints steps per second of each and their ratio.

    python tests/benchmarks/bench_judged_replay.py [--baseline REV] [--steps N]
    python -m pytest tests/benchmarks/bench_judged_replay.py -s -o addopts=""
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
SYNTHETIC = ROOT / "fixtures" / "lion-of-judah" / "synthetic"
BASELINE = "b796672"
"""The commit before the step pipeline (the game copied and re-applied each step itself)."""
STEPS = 10_000
MOVERS = (("21A", ("1406", "1405", "1406", "1405")),)
"""The Italian units moved in each Italian movement segment and the hexes they go through: 21A
(MF 4) from Massawa (1405) to 1406 and back, twice, on clear terrain."""
PHASES_PER_TURN = 8


def script(steps: int = STEPS) -> dict:
    """The play script (JSON form, docs/script-format.md) of at least `steps` steps."""
    actions: list[dict] = []
    count = 0
    while count < steps:
        for phase in range(PHASES_PER_TURN):
            actions.append({"action": "turn", "turn": "next"})
            count += 1
            if phase == 0:                      # the tracker now shows Italian movement
                for name, along in MOVERS:
                    actions.append({"action": "move", "unit": name, "along": list(along)})
                    count += len(along)
    return {"format": "vlog-script/1",
            "header": {"game": "lion-of-judah", "module": str(SYNTHETIC / "lion-of-judah.vmod"),
                       "start": str(SYNTHETIC / "1935-36-start.vsav"), "map": "Main Map",
                       "clock": 1704067260000, "key": 42,
                       "players": [{"name": "Alice", "side": "italian"},
                                   {"name": "Bob", "side": "ethiopian"}]},
            "actions": actions}


def write_script_log(path: Path, document: dict) -> None:
    """A log written at `path` from a play script's JSON form (beside it as .vscript.json)."""
    sys.path.insert(0, str(ROOT))
    from converters.log_writer import write_log

    source = path.with_suffix(".vscript.json")
    source.write_text(json.dumps(document))
    write_log(source, path)


def build(path: Path, steps: int = STEPS) -> None:
    write_script_log(path, script(steps))


def judged(game_id: str, module_path: Path, log_path: Path | str) -> dict:
    """A log judged by `game_id` on its module with the `vlog` this interpreter imports: its steps,
    the CPU seconds of the replay alone, its findings and their check ids."""
    import time

    import vlog
    from vlog.cli.check import load_game, load_module
    from vlog.replay import replay_log

    module = load_module(module_path)
    game = load_game(game_id, (), module)
    log = vlog.read(log_path)
    t0 = time.process_time()
    rep = replay_log(log, module=module, game=game)
    seconds = time.process_time() - t0
    return {"steps": len(rep.steps), "seconds": seconds, "findings": len(rep.findings),
            "checks": [f.check for f in rep.findings]}


def time_replay(log_path: str) -> dict:
    """Judge the log with the `vlog` this interpreter imports; CPU seconds of the replay alone."""
    import vlog

    return {**judged("lion-of-judah", SYNTHETIC / "lion-of-judah.vmod", log_path),
            "code": str(Path(vlog.__file__).resolve().parents[1])}


def _timed(code: Path, log: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(code))
    out = subprocess.run([sys.executable, __file__, "--time", str(log)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def run(baseline: str = BASELINE, steps: int = STEPS) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "judged.vlog"
        build(log, steps)
        old = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), baseline],
                       check=True, capture_output=True)
        try:
            before = _timed(old, log)
            after = _timed(ROOT, log)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=False, capture_output=True)
    for name, fig in (("baseline " + baseline, before), ("this code", after)):
        print(f"{name:18} {fig['steps']} steps {fig['seconds']:8.2f} s CPU "
              f"{fig['steps'] / fig['seconds']:8.0f} steps/s  ({fig['findings']} findings)")
    ratio = before["seconds"] / after["seconds"]
    print(f"speed-up: {ratio:.2f}x")
    return {"before": before, "after": after, "ratio": ratio}


def test_bench_judged_replay():
    figures = run()
    assert figures["after"]["steps"] == figures["before"]["steps"] >= STEPS
    assert figures["after"]["findings"] == figures["before"]["findings"]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare against")
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--time", metavar="LOG", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time:
        print(json.dumps(time_replay(args.time)))
    else:
        run(args.baseline, args.steps)
