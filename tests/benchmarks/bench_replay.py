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
SPREAD = 3000
"""Moves to an empty point land on a grid this many pixels wide (every 50)."""
SHORT = 1_000
"""Steps of the short log whose per-step cost the long one's is compared with."""


def build(path: Path, seed: int = 7, *, n_steps: int = STEPS, counters: int = COUNTERS,
          spread: int = SPREAD) -> int:
    rng = random.Random(seed)
    pieces = []
    where: dict[str, tuple[int, int]] = {}
    level: dict[str, int] = {}
    for i in range(counters):
        pid = f"p{i}"
        x, y = 50 * (i // 2 % 30), 50 * (i // 60)
        where[pid] = (x, y)
        level[pid] = 1
        pieces.append(unit(pid, f"Unit {i}", x, y))
    for s in range(counters // 2):
        x, y = where[f"p{2 * s}"]
        pieces.append(stack(f"s{s}", x, y, f"p{2 * s}", f"p{2 * s + 1}"))
    steps = []
    while len(steps) < n_steps:
        pid = f"p{rng.randrange(counters)}"
        kind = rng.random()
        if kind < 0.55:
            ox, oy = where[pid]
            if rng.random() < 0.5:
                other = f"p{rng.randrange(counters)}"
                x, y = where[other]
                cmd = move(pid, x, y, ox, oy, under=other if other != pid else None)
            else:
                x, y = rng.randrange(0, spread, 50), rng.randrange(0, spread, 50)
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
    """The least CPU time of `repeat` runs (CPU, not wall: the machine may be shared)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def _window_costs(log) -> tuple[float, float, object]:
    """CPU seconds per step over the first and the last SHORT steps of one replay (the best of
    three), and the final table."""
    best_first = best_last = float("inf")
    final = None
    for _ in range(3):
        marks: dict[int, float] = {}

        def timed(steps):
            for n, s in enumerate(steps):
                if n in (0, SHORT, len(steps) - SHORT):
                    marks[n] = time.process_time()
                yield s
            marks[len(steps)] = time.process_time()

        final = replay_log(log, iterate=timed).final
        n = len(log.steps)
        best_first = min(best_first, (marks[SHORT] - marks[0]) / SHORT)
        best_last = min(best_last, (marks[n] - marks[n - SHORT]) / SHORT)
    return best_first, best_last, final


def run() -> dict[str, float]:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.vlog"
        n = build(path)
        decode_s, log = best_of(lambda: vlog.read(path))
        assert len(log.steps) == n
        replay_s, rep = best_of(lambda: replay_log(log))
        figures.update({"steps": n, "decode_s": decode_s, "replay_s": replay_s,
                        "decode_steps_per_s": n / decode_s, "replay_steps_per_s": n / replay_s,
                        "replay_over_decode": replay_s / decode_s})
        print(f"\n{n} steps, {COUNTERS} counters; findings: {len(rep.findings)}, undos: {len(rep.undos)}")
        print(f"decode (vlog.read)  {decode_s:8.3f} s  {figures['decode_steps_per_s']:10.0f} steps/s")
        print(f"replay (replay_log) {replay_s:8.3f} s  {figures['replay_steps_per_s']:10.0f} steps/s")
        print(f"replay / decode time ratio: {figures['replay_over_decode']:.2f}")
        # per-step cost at the end of a long log against its start: flat when the table does
        # not grow with the log. Few counters on a small map put many moves onto points pieces
        # left before, where emptied stacks used to pile up.
        for label, counters, spread in (("600 counters, 60x60 points", COUNTERS, SPREAD),
                                        ("40 counters, 5x5 points", 40, 250)):
            long_path = Path(tmp) / f"{counters}.vlog"
            build(long_path, counters=counters, spread=spread)
            played_log = vlog.read(long_path)
            first, last, table = _window_costs(played_log)
            ratio = last / first
            figures[f"end_over_start_{counters}"] = ratio
            print(f"{label}: first {SHORT} steps {first * 1e6:6.1f} us/step, last {SHORT} "
                  f"{last * 1e6:6.1f} us/step, ratio {ratio:.2f}; table {len(table.pieces)} "
                  f"records for {sum(1 for _ in table.game_pieces())} pieces")
    return figures


def test_bench_replay():
    figures = run()
    assert figures["steps"] >= 20_000


if __name__ == "__main__":
    run()
