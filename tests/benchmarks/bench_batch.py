"""`vlog batch` wall-clock time with one worker process against N, measured in the same run on
the same inbox: the fixture rules logs of every game (each its own game), linked into a
temporary folder. Each run is a fresh `vlog batch ... --format json`; the reports must be equal.
Prints the seconds of each and their ratio (speed-up of N workers over one).

    python tests/benchmarks/bench_batch.py [--jobs N] [--logs K]
    python -m pytest tests/benchmarks/bench_batch.py -s -o addopts=""
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("lion-of-judah", "island-of-death", "ascari", "sideshow")


def inbox(folder: Path, per_game: int) -> Path:
    for game in GAMES:
        rules = sorted((ROOT / "fixtures" / game / "rules").glob("*.vlog"))[:per_game]
        (folder / game).mkdir(parents=True)
        os.symlink(ROOT / "fixtures" / game / "synthetic" / f"{game}.vmod", folder / game / f"{game}.vmod")
        for log in rules:
            os.symlink(log, folder / game / log.name)
    return folder


def timed(folder: Path, jobs: int, out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "vlog", "batch", str(folder), "--jobs", str(jobs), "--format", "json",
                    "-o", str(out), "--fail-on", "never"], check=False, capture_output=True,
                   env={**os.environ, "VLOG_NO_PROGRESS": "1"})
    return time.perf_counter() - start


def main(jobs: int = 2, per_game: int = 6) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        folder = inbox(Path(tmp) / "inbox", per_game)
        one = timed(folder, 1, Path(tmp) / "one.json")
        many = timed(folder, jobs, Path(tmp) / "many.json")
        same = (Path(tmp) / "one.json").read_bytes() == (Path(tmp) / "many.json").read_bytes()
    print(f"vlog batch, {len(GAMES) * per_game} logs: --jobs 1 {one:.1f} s, --jobs {jobs} {many:.1f} s, "
          f"speed-up {one / many:.2f}x, reports {'equal' if same else 'DIFFERENT'}")
    assert same
    return one / many


def test_bench_batch():
    main()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--logs", type=int, default=6, help="rules logs per game")
    args = parser.parse_args()
    main(args.jobs, args.logs)
