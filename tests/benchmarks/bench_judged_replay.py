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
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:           # run as a script: `tests` and `converters` from this checkout,
    sys.path.append(str(ROOT))          # after PYTHONPATH (a baseline's `vlog` comes first there)
SYNTHETIC = ROOT / "fixtures" / "lion-of-judah" / "synthetic"
BASELINE = "b796672"
"""The commit before the step pipeline (the game copied and re-applied each step itself)."""
KIT_BASELINE = "4eb7c28"
"""The commit before the kit's judged replay read each step's view incrementally: the baseline
of the Ascari, Sideshow and Island of Death benchmarks."""
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
            "checks": [f.check for f in rep.findings], "code": str(Path(vlog.__file__).resolve().parents[1])}


def time_replay(log_path: str) -> dict:
    """Judge the log with the `vlog` this interpreter imports; CPU seconds of the replay alone."""
    return judged("lion-of-judah", SYNTHETIC / "lion-of-judah.vmod", log_path)


def _timed(code: Path, log: Path, *args: str) -> dict:
    """The log judged in a fresh interpreter that imports the `vlog` of checkout `code`."""
    env = dict(os.environ, PYTHONPATH=str(code))
    out = subprocess.run([sys.executable, __file__, "--time", str(log), *args], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


@contextlib.contextmanager
def checkout(rev: str) -> Iterator[Path]:
    """A temporary worktree of `rev` (removed after)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
                       check=True, capture_output=True)
        try:
            yield path
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                           check=False, capture_output=True)


def _line(name: str, fig: dict) -> str:
    return (f"{name:24} {fig['steps']} steps {fig['seconds']:8.2f} s CPU "
            f"{fig['steps'] / fig['seconds']:8.0f} steps/s  ({fig['findings']} findings)")


def against_baseline(game_id: str, module_path: Path, log: Path, baseline: str = KIT_BASELINE,
                     repeat: int = 1) -> dict:
    """`game_id` judging `log` with the code of `baseline` and with this checkout, each in fresh
    interpreters, `repeat` times in turn (old, new, old, new ...: a loaded machine slows both
    alike); prints each run and the speed-up of the fastest runs, and returns them."""
    target = ["--game", game_id, "--module", str(module_path)]
    before: list[dict] = []
    after: list[dict] = []
    with checkout(baseline) as old:
        for _ in range(repeat):
            before.append(_timed(old, log, *target))
            after.append(_timed(ROOT, log, *target))
    for n in range(repeat):
        print(_line(f"{game_id} baseline {baseline}", before[n]))
        print(_line(f"{game_id} this code", after[n]))
    best_before = min(before, key=lambda f: f["seconds"])
    best_after = min(after, key=lambda f: f["seconds"])
    ratio = best_before["seconds"] / best_after["seconds"]
    print(f"{game_id} speed-up against {baseline} (fastest of {repeat}): {ratio:.2f}x, "
          f"{best_after['steps'] / best_after['seconds']:.0f} steps/s")
    return {"before": best_before, "after": best_after, "runs": {"before": before, "after": after},
            "ratio": ratio}


def script_against_baseline(game_id: str, module_path: Path, document: dict, baseline: str | None = None,
                            repeat: int = 1) -> dict:
    """A play script's log judged by `game_id` with `baseline`'s code and this checkout's
    (`against_baseline`), then Lion of Judah's judged replay of as many steps with this code (the
    speed asked of every game's judged replay); prints each, returns them."""
    with tempfile.TemporaryDirectory() as tmp:
        log, lion = Path(tmp) / f"{game_id}.vlog", Path(tmp) / "lion.vlog"
        write_script_log(log, document)
        figures = against_baseline(game_id, module_path, log, baseline or KIT_BASELINE, repeat)
        build(lion, figures["after"]["steps"])
        figures["lion"] = _timed(ROOT, lion)
    print(_line("lion-of-judah this code", figures["lion"]))
    return figures


def options(doc: str, **sizes: int) -> argparse.Namespace:
    """A game benchmark's command line: its sizes (`--steps N` ...), `--baseline REV`, `--repeat N`."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    for name, default in sizes.items():
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--baseline", help=f"the commit to compare against (default: {KIT_BASELINE})")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each code, in turn")
    return parser.parse_args()


def run(baseline: str = BASELINE, steps: int = STEPS) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "judged.vlog"
        build(log, steps)
        with checkout(baseline) as old:
            before = _timed(old, log)
            after = _timed(ROOT, log)
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
    parser.add_argument("--game", help=argparse.SUPPRESS)
    parser.add_argument("--module", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time and args.game:
        print(json.dumps(judged(args.game, Path(args.module), args.time)))
    elif args.time:
        print(json.dumps(time_replay(args.time)))
    else:
        run(args.baseline, args.steps)
