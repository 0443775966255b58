"""Refresh speed: `refresh_save` of a save of ten million characters against its decode.

Builds the save from a real scenario and its module (../shared/samples/nevsky, when present) or
from the Lion of Judah fixtures, its restore block repeated with fresh piece ids until the text
holds at least ten million characters, then times `vlog.read` of the file (the decode) and the
refresh of the decoded save against the module read beforehand, in CPU seconds, and prints
their ratio (both measured in this run).

    python -m pytest tests/benchmarks/bench_refresh.py -s -o addopts=""
    python tests/benchmarks/bench_refresh.py
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import vlog  # noqa: E402
from converters.refresh import refresh_save  # noqa: E402
from vlog.vassal.commands import AddPiece, NullCommand  # noqa: E402
from vlog.vassal.module import read_module  # noqa: E402

TARGET_CHARS = 10_000_000
SAMPLE = ROOT.parent / "shared" / "samples" / "nevsky"
FIXTURE = ROOT / "fixtures" / "lion-of-judah"


def sources() -> tuple[Path, Path]:
    if (SAMPLE / "buildFile.xml").is_file():
        return SAMPLE / "Scenario_Peipus_1242.vsav", SAMPLE / "buildFile.xml"
    return FIXTURE / "1935-36-start.vsav", FIXTURE / "lion-of-judah.vmod"


def build(path: Path, save_path: Path) -> int:
    """The save with its game pieces repeated under new ids (stacks dropped) up to TARGET_CHARS."""
    save = vlog.read(save_path)
    block = max((c for c in save.commands.subs if isinstance(c, NullCommand)), key=lambda c: len(c.subs))
    pieces = [c for c in block.subs if isinstance(c, AddPiece) and c.id and c.piece.kind == "piece"]
    size = sum(len(c.encode()) for c in pieces)
    assert size > 0, f"{save_path} holds no game piece"
    copies = []
    n = 0
    while size * (n + 1) < TARGET_CHARS:
        copies += [AddPiece(f"{c.id}{n:04d}", c.type, c.state) for c in pieces]
        n += 1
    block.subs = pieces + copies
    vlog.write(save, path)
    return len(block.subs)


def cpu(fn):
    best, result = float("inf"), None
    for _ in range(3):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def run() -> float:
    save_path, module_path = sources()
    module = read_module(module_path)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.vsav"
        pieces = build(path, save_path)
        decode_s, save = cpu(lambda: vlog.read(path))
        chars = len(save.commands.encode())
        refresh_s, (_, report) = cpu(lambda: refresh_save(save, module))
    ratio = refresh_s / decode_s
    print(f"\n{save_path.name} against {module_path.parent.name}: {pieces:,} pieces, {chars:,} chars; "
          f"{len(report.refreshed):,} refreshed, {len(report.unmatched):,} not matched")
    print(f"decode (vlog.read)   {decode_s:7.3f} s")
    print(f"refresh_save         {refresh_s:7.3f} s")
    print(f"ratio refresh / decode: {ratio:.1f}x")
    return ratio


def test_bench_refresh() -> None:
    assert run() > 0


if __name__ == "__main__":
    run()
