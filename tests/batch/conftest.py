"""A small inbox for `vlog batch`: the demo log of every game (fixtures/), two synthetic rules logs
of Lion of Judah, a file that is not a log, and, when ../shared/samples is there, real VASL logs
(multiple-1a continued by multiple-1b, multiple-1 on its own, empty). Files are linked into a
temporary folder, never copied into the project. The batch is judged once per session (serial)
and its JSON kept for every test to read."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from vlog.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("lion-of-judah", "island-of-death", "ascari", "sideshow")
VASL = ("multiple-1a.vlog", "multiple-1b.vlog", "multiple-1.vlog", "empty.vlog")


def _link(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(src, dst)


@pytest.fixture(scope="session")
def inbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("inbox")
    for game in GAMES:
        _link(ROOT / "fixtures" / game / "demo.vlog", root / game / "demo.vlog")
        _link(ROOT / "fixtures" / game / f"{game}.vmod", root / game / f"{game}.vmod")
    rules = ROOT / "fixtures" / "lion-of-judah" / "rules"
    for name in ("CB-19.vlog", "AR-01.vlog"):
        if (rules / name).exists():
            _link(rules / name, root / "planted" / name)
    _link(ROOT / "fixtures" / "lion-of-judah" / "synthetic" / "lion-of-judah.vmod", root / "planted" / "loj.vmod")
    (root / "broken").mkdir()
    (root / "broken" / "not-a-log.vlog").write_bytes(b"PK\x03\x04 this is no zip")
    if SAMPLES.is_dir():
        for name in VASL:
            _link(SAMPLES / "vasl-templates" / name, root / "vasl" / name)
    return root


def run(*args: str, cwd: Path | None = None) -> int:
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        return main(list(args))
    finally:
        os.chdir(old)


@pytest.fixture(scope="session")
def serial(inbox: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict]:
    """(exit status, JSON report) of the inbox judged by one process."""
    out = tmp_path_factory.mktemp("serial") / "batch.json"
    code = run("batch", str(inbox), "--jobs", "1", "--format", "json", "-o", str(out))
    return code, json.loads(out.read_text())
