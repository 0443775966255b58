"""Replay speed: `replay_log` (table, dice, undo tracking, generic checks) against `vlog.read`.

Builds a log of 24,000 steps over 600 counters in 300 stacks (moves onto other stacks and onto
empty points, layer flips with old states, die rolls, undos of moves and of rolls), writes it
with the codec's writer, then times the bare decode of the file and the replay of the decoded
log, and prints steps per second of each and their ratio (both measured in this run).

    python -m pytest tests/benchmarks/bench_replay.py -s -o addopts=""
    python tests/benchmarks/bench_replay.py
"""
from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import vlog  # noqa: E402
from tests.checks.logbuild import (  # noqa: E402
    move, restore, roll, stack, step, undo_step, unit, unit_state, write_file,
)
from vlog.replay import replay_log  # noqa: E402
from vlog.vassal.commands import ChangePiece  # noqa: E402

STEPS = 24_000
COUNTERS = 600


def build(path: Path, seed: int = 7) -> int:
    rng = random.Random(seed)
    pieces = []
    where: dict[str, tuple[int, int]] = {}
    level: dict[str, int] = {}
    for i in range(COUNTERS):
        pid = f"p{i}"
        x, y = 50 * (i // 2 % 30), 50 * (i // 60)
        where[pid] = (x, y)
        level[pid] = 1
        pieces.append(unit(pid, f"Unit {i}", x, y))
    for s in range(COUNTERS // 2):
        x, y = where[f"p{2 * s}"]
        pieces.append(stack(f"s{s}", x, y, f"p{2 * s}", f"p{2 * s + 1}"))
    steps = []
    while len(steps) < STEPS:
        pid = f"p{rng.randrange(COUNTERS)}"
        kind = rng.random()
        if kind < 0.55:
            ox, oy = where[pid]
            if rng.random() < 0.5:
                other = f"p{rng.randrange(COUNTERS)}"
                x, y = where[other]
                cmd = move(pid, x, y, ox, oy, under=other if other != pid else None)
            else:
                x, y = rng.randrange(0, 3000, 50), rng.randrange(0, 3000, 50)
                cmd = move(pid, x, y, ox, oy)
            where[pid] = (x, y)
            steps.append(step([cmd]))
            if rng.random() < 0.05:
                steps.append(undo_step([cmd]))
                where[pid] = (ox, oy)
        elif kind < 0.8:
            x, y = where[pid]
            new = 3 - level[pid]
            steps.append(step([ChangePiece(pid, unit_state(x, y, level=new), unit_state(x, y, level=level[pid]))]))
            level[pid] = new
        else:
            dice = roll("2d6", [rng.randint(1, 6), rng.randint(1, 6)])
            steps.append(step(dice))
            if rng.random() < 0.02:
                steps.append(undo_step(dice))
    write_file(path, restore(pieces), steps)
    return len(steps)


def best_of(fn, repeat: int = 3) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.vlog"
        n = build(path)
        decode_s, log = best_of(lambda: vlog.read(path))
        assert len(log.steps) == n
        replay_s, rep = best_of(lambda: replay_log(log))
    figures = {"steps": n, "decode_s": decode_s, "replay_s": replay_s,
               "decode_steps_per_s": n / decode_s, "replay_steps_per_s": n / replay_s,
               "replay_over_decode": replay_s / decode_s}
    print(f"\n{n} steps, {COUNTERS} counters; findings: {len(rep.findings)}, undos: {len(rep.undos)}")
    print(f"decode (vlog.read)  {decode_s:8.3f} s  {figures['decode_steps_per_s']:10.0f} steps/s")
    print(f"replay (replay_log) {replay_s:8.3f} s  {figures['replay_steps_per_s']:10.0f} steps/s")
    print(f"replay / decode time ratio: {figures['replay_over_decode']:.2f}")
    return figures


def test_bench_replay():
    figures = run()
    assert figures["steps"] >= 20_000


if __name__ == "__main__":
    run()
