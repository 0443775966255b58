"""Usage mistakes exit 2 and say what to give instead: a step past the log's end, a mistyped game."""
from __future__ import annotations

from tests.conftest import FIXTURES
from vlog.cli import EXIT_USAGE, main

DEMO = FIXTURES / "lion-of-judah" / "demo.vlog"


def test_step_past_the_end_is_a_usage_error(tmp_path, capsys):
    out = tmp_path / "x.vsav"
    assert main(["convert", str(DEMO), str(out), "--step", "99"]) == EXIT_USAGE
    assert "has 4 steps: give 0..4" in capsys.readouterr().err
    assert not out.exists()


def test_mistyped_game_suggests_the_nearest(capsys):
    assert main(["check", str(DEMO), "--game", "lion-of-juda"]) == EXIT_USAGE
    assert "unknown game 'lion-of-juda'; did you mean 'lion-of-judah'?" in capsys.readouterr().err


def test_far_fetched_game_suggests_nothing(capsys):
    assert main(["check", str(DEMO), "--game", "chess"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "unknown game 'chess'" in err and "did you mean" not in err
