"""`vlog check` text on a terminal: its width and colour, NO_COLOR and FORCE_COLOR; plain when piped."""
from __future__ import annotations

import pytest

from tests.conftest import FIXTURES
from vlog.cli import main

DEMO = FIXTURES / "lion-of-judah" / "demo.vlog"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for name in ("FORCE_COLOR", "NO_COLOR", "COLUMNS", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)


def _out(capsys) -> str:
    main(["check", str(DEMO)])
    return capsys.readouterr().out


def test_plain_when_piped(capsys):
    out = _out(capsys)
    assert "\x1b[" not in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_force_color_colours_and_no_color_wins(monkeypatch, capsys):
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" in _out(capsys)
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in _out(capsys)


def test_terminal_width_is_used(monkeypatch, capsys):
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "50")
    out = _out(capsys)
    assert max(len(line) for line in out.splitlines()) <= 50 < max(len(line) for line in _wide(monkeypatch, capsys))


def _wide(monkeypatch, capsys) -> list[str]:
    monkeypatch.setenv("COLUMNS", "160")
    return _out(capsys).splitlines()
