"""The judged-replay benchmark's log (tests/benchmarks/bench_judged_replay.py) is legal play: the
engine finds nothing in it, at the benchmark's small size (the whole 1935-36 scenario and some
drags taken back), judged on the synthetic module as the benchmark judges it. The benchmark is
not in the default test run; this keeps its log honest when the engine changes."""
from __future__ import annotations

import importlib
from pathlib import Path

bench = importlib.import_module("tests.benchmarks.bench_judged_replay")


def test_benchmark_log_is_legal_play(tmp_path: Path) -> None:
    log = tmp_path / "judged.vlog"
    bench.build(log, bench.SMALL)
    figures = bench.judged("lion-of-judah", bench.SYNTHETIC / "lion-of-judah.vmod", log)
    assert figures["steps"] >= bench.SMALL
    assert figures["checks"] == []
