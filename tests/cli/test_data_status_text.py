"""`vlog data status` text for a player: counts first, each disabled check with the unknowns behind
it, and every unknown (grouped by file and reason, or one per line with --all) with its checks."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from vlog.cli import main
from vlog.gamedata import GAMES, blocked_checks, load_game_data, status


def _run(capsys, *args: str) -> str:
    assert main(["data", "status", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_groups_account_for_every_unknown_and_name_its_checks(game, capsys):
    entries = status(load_game_data(game))
    unknown = [e for e in entries if e.state == "unknown"]
    text = _run(capsys, game)
    lines = text.splitlines()
    assert f"{len(unknown)} unknown" in lines[1]                       # counts first
    start = lines.index(f"unknown data ({len(unknown)}) by file and reason (--all lists each one):")
    groups = [re.fullmatch(r"    ([0-9]+) x (.*) \[disables (.*)\]", line) for line in lines[start:]]
    groups = [g for g in groups if g]
    assert sum(int(g.group(1)) for g in groups) == len(unknown)
    # each group's checks are exactly those of the unknowns it counts
    expected: dict[tuple[str, str], int] = {}
    for e in unknown:
        key = (e.note or "(no note)", ", ".join(e.blocks) if e.blocks else "no check")
        expected[key] = expected.get(key, 0) + 1
    got: dict[tuple[str, str], int] = {}
    for g in groups:
        got[(g.group(2), g.group(3))] = got.get((g.group(2), g.group(3)), 0) + int(g.group(1))
    assert got == expected
    # every check an unknown disables has its line in the checks section, with its count
    for check, items in blocked_checks(entries).items():
        assert any(line.startswith(f"  {check} ({len(items)}): ") for line in lines), check
    files = {Path(e.file).name for e in unknown}
    for name in files:
        assert any(re.fullmatch(rf"  {re.escape(name)} \([0-9]+\):", line) for line in lines), name


def test_all_lists_each_unknown_with_its_checks(capsys):
    entries = [e for e in status(load_game_data("sideshow")) if e.state == "unknown"]
    lines = _run(capsys, "sideshow", "--all").splitlines()
    start = lines.index(f"unknown data ({len(entries)}), each with the checks it disables:")
    listed = lines[start + 1:start + 1 + len(entries)]
    for entry, line in zip(entries, listed):
        disables = "disables " + ", ".join(entry.blocks) if entry.blocks else "disables no check"
        assert line == f"  {Path(entry.file).name} {entry.path}: {entry.note} [{disables}]"
