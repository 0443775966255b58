"""`vlog dice`: rolls across logs per player and dice, text and JSON, exact exit codes."""
from __future__ import annotations

import json

import pytest

from tests.checks.logbuild import restore, roll, step, unit, write_file
from tests.conftest import sample_params
from vlog.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE, main


def two_logs(tmp_path):
    a = write_file(tmp_path / "a.vlog", restore([unit("1", "Inf", 1, 1)]),
                   [step(roll("2d6", [1, 2])), step(roll("2d6", [6, 6], player="Bob"))])
    b = write_file(tmp_path / "b.vlog", restore([unit("1", "Inf", 1, 1)]),
                   [step(roll("2d6", [3, 4])), step(roll("1d6", [5]))])
    return a, b


def test_json_across_logs(tmp_path, capsys):
    a, b = two_logs(tmp_path)
    assert main(["dice", str(a), str(b), "--format", "json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    groups = {(g["player"], g["dice"]): g for g in data["players"]}
    assert set(groups) == {("Alice", "2d6"), ("Bob", "2d6"), ("Alice", "1d6")}
    alice = groups[("Alice", "2d6")]
    assert alice["rolls"] == 2 and alice["face_counts"] == [1, 1, 1, 1, 0, 0]
    assert data["logs"] == [str(a), str(b)]


def test_text_table(tmp_path, capsys):
    a, b = two_logs(tmp_path)
    assert main(["dice", str(a), str(b)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "Dice" in out and "Alice" in out and "1:1 2:1 3:1 4:1 5:0 6:0" in out


def test_errors(tmp_path, capsys):
    assert main(["dice"]) == EXIT_USAGE
    assert main(["dice", str(tmp_path / "none.vlog")]) == EXIT_INPUT
    assert main(["dice", "x.vlog", "--format", "csv"]) == EXIT_USAGE


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("vasl-templates/3d6.vlog"))
def test_sample(path, capsys):
    assert main(["dice", str(path), "--format", "json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    groups = {g["dice"]: g for g in data["players"]}
    assert (groups["3d6"]["player"], groups["3d6"]["rolls"], groups["3d6"]["face_counts"]) == (
        "test", 2, [1, 2, 1, 2, 0, 0])
    assert (groups["2d6"]["rolls"], groups["2d6"]["face_counts"]) == (3, [0, 1, 0, 0, 1, 4])


def test_rolls_listed_with_their_step(tmp_path, capsys):
    a, b = two_logs(tmp_path)
    assert main(["dice", str(a), str(b), "--rolls", "--format", "json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert [(r["log"], r["player"]) for r in data["rolls"]][:1] == [(str(a), "Alice")]
    assert all(isinstance(r["step"], int) for r in data["rolls"])
    assert data["correction"]["method"] == "holm" and data["by_name"]
    assert main(["dice", str(a), "--rolls"]) == EXIT_OK
    out = capsys.readouterr().out
    assert out.startswith("Rolls") and "Holm's step-down method" in out
