"""Schema lookup: a checkout reads the top-level schemas/, an installed wheel its vlog/_schemas copy.

The wheel's copy is made by setup.py's build_py; the test runs that step into a temporary folder
and points vlog.schemas at the result, so the same functions the commands use are exercised on
the installed layout without installing anything.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vlog import gamedata, schemas
from vlog.errors import VlogError

ROOT = Path(__file__).resolve().parent.parent
ALL = sorted(p.relative_to(ROOT / "schemas").as_posix() for p in (ROOT / "schemas").rglob("*.json"))


def test_checkout_reads_the_top_level_schemas():
    assert schemas.schema_dir() == ROOT / "schemas"
    for name in ALL:
        assert schemas.schema_path(name) == ROOT / "schemas" / name
        assert isinstance(schemas.load_schema(name), dict)


def test_bad_or_missing_names_raise_vlog_errors():
    for name in ("../pyproject.toml", "/etc/passwd", "nope.schema.json"):
        with pytest.raises(VlogError):
            schemas.schema_path(name)


@pytest.fixture
def built_package(tmp_path: Path) -> Path:
    """vlog as build_py lays it out for a wheel."""
    out = tmp_path / "lib"
    run = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return out / "vlog"


def test_wheel_layout_carries_every_schema_and_the_runtime_uses_it(built_package, monkeypatch):
    installed = built_package / "_schemas"
    copied = sorted(p.relative_to(installed).as_posix() for p in installed.rglob("*.json"))
    assert copied == ALL
    for name in ALL:
        assert (installed / name).read_bytes() == (ROOT / "schemas" / name).read_bytes()
    # the installed copy wins over the source tree, and the game-data validators load through it
    monkeypatch.setattr(schemas, "INSTALLED_DIR", installed)
    monkeypatch.setattr(schemas, "SOURCE_DIR", built_package.parent / "absent")
    monkeypatch.setattr(gamedata, "_SCHEMAS", {})
    monkeypatch.setattr(gamedata, "_SHIPPED", {})
    assert schemas.schema_dir() == installed
    assert gamedata.SCHEMA_DIR == installed / "gamedata"
    assert schemas.locate("script.schema.json") == installed / "script.schema.json"
    for game in gamedata.GAMES:
        gamedata.validate_shipped(game)
    assert set(gamedata._SCHEMAS) >= set(gamedata.KINDS)


def test_no_schemas_anywhere_is_a_clean_error(tmp_path, monkeypatch):
    monkeypatch.setattr(schemas, "INSTALLED_DIR", tmp_path / "a")
    monkeypatch.setattr(schemas, "SOURCE_DIR", tmp_path / "b")
    monkeypatch.setattr(gamedata, "_SCHEMAS", {})
    monkeypatch.setattr(gamedata, "_SHIPPED", {})
    with pytest.raises(VlogError, match="schemas are missing"):
        gamedata.validate_shipped("ascari")
