"""Start-up: `vlog check --game lion-of-judah` on a 10-step log against `vlog info` on the same log.

The fixed cost of judging is what a short log shows: the game package and its checks imported,
the module read, the game data read with the overlays the module carries (validated), the
report written. Each command runs in a fresh interpreter, several times, and the least CPU
time (user + system, the child's own) is kept; the bytecode is compiled once beforehand into a
temporary cache (PYTHONPYCACHEPREFIX), as an installed vlog has it. The same is timed on a
checkout of BASELINE (a temporary git worktree, removed after) in the same run. Prints each
command's CPU seconds and the ratio check / info (the target: within 2x).

    python tests/benchmarks/bench_startup.py [--baseline REV] [--runs N]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "fixtures" / "lion-of-judah" / "rules" / "CB-15.vlog"
"""A 10-step Lion of Judah fixture log; its synthetic module, found beside it, carries overlays."""
BASELINE = "393d72a"
RUNS = 5


def cpu_seconds(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """The CPU seconds (user + system) one run of `argv` took, its output discarded."""
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, _status, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime


def timed(code: Path, runs: int, cache: Path) -> dict[str, float]:
    """Least CPU seconds of `vlog info` and `vlog check --game` run with the vlog at `code`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(code), PYTHONPYCACHEPREFIX=str(cache))
    commands = {"info": [sys.executable, "-m", "vlog", "info", str(LOG)],
                "check": [sys.executable, "-m", "vlog", "check", str(LOG), "--game", "lion-of-judah"]}
    for argv in commands.values():          # compile the bytecode (and fill any cache) once
        cpu_seconds(argv, env, code)
    return {name: min(cpu_seconds(argv, env, code) for _ in range(runs)) for name, argv in commands.items()}


def run(baseline: str = BASELINE, runs: int = RUNS) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), baseline],
                       check=True, capture_output=True)
        try:
            before = timed(old, runs, Path(tmp) / "pyc-baseline")
            after = timed(ROOT, runs, Path(tmp) / "pyc")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=False, capture_output=True)
    for name, fig in (("baseline " + baseline, before), ("this code", after)):
        print(f"{name:18} info {fig['info']:6.3f} s  check {fig['check']:6.3f} s CPU  "
              f"check/info {fig['check'] / fig['info']:5.2f}x")
    print(f"check start-up speed-up: {before['check'] / after['check']:.2f}x")
    return {"before": before, "after": after}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare against")
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    run(args.baseline, args.runs)
