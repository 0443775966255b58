"""`vlog check --game` without `--module` and no module beside the log: a warning on stderr says
which checks are skipped (without the module's grid no piece on a map has a hex), and the report
itself is unchanged."""
from __future__ import annotations

from pathlib import Path

import shutil

import pytest

from vlog.cli import EXIT_FINDINGS, EXIT_OK, main
from vlog.cli.check import MISSING_MODULE_WARNING

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "lion-of-judah"
LOG = FIXTURES / "rules" / "clean-1935-36.vlog"
MODULE = FIXTURES / "synthetic" / "lion-of-judah.vmod"


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("VLOG_NO_PROGRESS", "1")


def test_game_without_module_warns_on_stderr(capsys, tmp_path):
    alone = tmp_path / "a" / "b" / "c" / LOG.name      # no module in reach of the search
    alone.parent.mkdir(parents=True)
    shutil.copyfile(LOG, alone)
    code = main(["check", str(alone), "--game", "lion-of-judah"])
    out = capsys.readouterr()
    assert code in (EXIT_OK, EXIT_FINDINGS), out.out + out.err     # judged, not refused
    assert MISSING_MODULE_WARNING in out.err
    assert "--game needs --module to name hexes" in out.err
    assert "movement, stacking and combat checks are skipped" in out.err
    assert MISSING_MODULE_WARNING not in out.out


def test_game_with_module_or_no_game_does_not_warn(capsys):
    main(["check", str(LOG), "--game", "lion-of-judah", "--module", str(MODULE)])
    assert "--game needs --module" not in capsys.readouterr().err
    main(["check", str(LOG)])
    assert "--game needs --module" not in capsys.readouterr().err
