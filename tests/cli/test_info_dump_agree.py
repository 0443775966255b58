"""`vlog info` and `vlog dump` count pieces with one meaning, and `info` says what its problems are."""
from __future__ import annotations

import re

import pytest

from tests.conftest import FIXTURES, sample_params
from vlog.cli import main


def _run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _piece_counts_agree(path, capsys) -> None:
    info = _run(capsys, "info", str(path))
    dump = _run(capsys, "dump", str(path))
    pieces = int(re.search(r"^Pieces at start: (\d+)$", info, re.M).group(1))
    shown = re.search(r"^Pieces at the start \((\d+) pieces?, in (1 stack or deck|\d+ stacks and decks)\):$", dump, re.M)
    assert shown and int(shown.group(1)) == pieces


def test_piece_counts_agree_on_a_fixture(capsys):
    _piece_counts_agree(FIXTURES / "lion-of-judah" / "demo.vlog", capsys)


@pytest.mark.parametrize("path", sample_params("vasl-templates/full.vlog"))
def test_piece_counts_agree_on_a_real_log(path, capsys):
    _piece_counts_agree(path, capsys)


@pytest.mark.parametrize("path", sample_params("vasl-templates/full.vlog"))
def test_players_in_dice_reports_are_named(path, capsys):
    info = _run(capsys, "info", str(path))
    assert "Players in the roster: 0" in info
    assert re.search(r"^Players named in dice reports: 2\n  Alice\n  Bob$", info, re.M)


@pytest.mark.parametrize("path", sample_params("nevsky/buildFile.xml"))
def test_module_problems_are_shown_and_where_to_see_all(path, capsys):
    info = _run(capsys, "info", str(path))
    assert re.search(r"^Problems \(what vlog could not read in the module\): \d+$", info, re.M)
    assert "First problems: board 'Nevsky': size of image" in info
    assert f"All problems listed by: vlog convert {path} module.json" in info
