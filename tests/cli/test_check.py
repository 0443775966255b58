"""`vlog check`: exact exit codes, every output format valid, several logs judged in order."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft4Validator, Draft202012Validator
from lxml import etree

from tests.checks.logbuild import (
    SECRET, move, restore, roll, stack, step, undo_step, unit, write_file,
)
from tests.conftest import sample_params
from vlog.cli import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, EXIT_USAGE, main

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


PIECES = [unit("1", "Inf", 100, 100), unit("2", "Cav", 200, 200), stack("s1", 100, 100, "1"),
          stack("s2", 200, 200, "2")]


@pytest.fixture
def clean_log(tmp_path) -> Path:
    return write_file(tmp_path / "clean.vlog", restore(PIECES),
                      [step([move("1", 150, 150, 100, 100)]), step(roll("2d6", [3, 4]))])


@pytest.fixture
def cheating_log(tmp_path) -> Path:
    dice = roll("2d6", [1, 1])
    return write_file(tmp_path / "cheat.vlog", restore(PIECES),
                      [step(dice), undo_step(dice), step(roll("2d6", [6, 6]))])


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_clean_log_exits_0(clean_log, capsys):
    code, out, _ = run(capsys, str(clean_log))
    assert code == EXIT_OK
    assert "No findings in 1 log, 2 steps replayed, 2 checks run." in out


def test_undo_after_roll_exits_1_with_text_block(cheating_log, capsys):
    code, out, _ = run(capsys, str(cheating_log))
    assert code == EXIT_FINDINGS
    assert "ERROR (proven)  vlog/undo-after-roll" in out
    assert "Undo took back the die roll of step 1 (2d6 = 1,1); rolled instead: 2d6 = 6,6 at step 3" in out
    assert SECRET not in out


def test_fail_on(cheating_log, capsys):
    assert run(capsys, str(cheating_log), "--fail-on", "never")[0] == EXIT_OK
    assert run(capsys, str(cheating_log), "--fail-on", "warning")[0] == EXIT_FINDINGS


def test_warning_only_fails_on_warning(tmp_path, capsys):
    dice = roll("1d6", [2])
    advance = [move("1", 150, 150, 100, 100)]
    log = write_file(tmp_path / "w.vlog", restore(PIECES), [step(dice), step(advance), undo_step(advance)])
    assert run(capsys, str(log))[0] == EXIT_OK
    assert run(capsys, str(log), "--fail-on", "warning")[0] == EXIT_FINDINGS


def test_json_validates_against_the_report_schema(cheating_log, clean_log, capsys):
    code, out, _ = run(capsys, str(clean_log), str(cheating_log), "--format", "json")
    assert code == EXIT_FINDINGS
    data = json.loads(out)
    Draft202012Validator(json.loads((SCHEMAS / "report.schema.json").read_text())).validate(data)
    assert [log["steps"] for log in data["logs"]] == [2, 3]
    (alice,) = data["dice"]["players"]
    assert (alice["player"], alice["dice"], alice["rolls"]) == ("Alice", "2d6", 3)
    assert alice["face_counts"] == [2, 0, 1, 1, 0, 2]   # 3,4; 1,1 (undone, still a roll); 6,6
    assert {c["id"] for c in data["checks"]} == {"vlog/undo-after-roll", "vlog/continuity", "vlog/unparsed"}
    (finding,) = data["logs"][1]["findings"][-1:]
    assert finding["check"] == "vlog/undo-after-roll" and finding["step"] == 2
    # the second log starts from its own restore block: piece 1 is back at 100,100
    kinds = [f["evidence"].get("change") for f in data["logs"][1]["findings"] if f["check"] == "vlog/continuity"]
    assert kinds == ["moved"]


def test_sarif_validates_against_the_official_schema(cheating_log, capsys):
    code, out, _ = run(capsys, str(cheating_log), "--format", "sarif")
    assert code == EXIT_FINDINGS
    data = json.loads(out)
    Draft4Validator(json.loads((SCHEMAS / "sarif-2.1.0.json").read_text())).validate(data)
    (result,) = data["runs"][0]["results"]
    assert result["ruleId"] == "vlog/undo-after-roll" and result["level"] == "error"


def test_junit_parses(cheating_log, clean_log, capsys):
    code, out, _ = run(capsys, str(clean_log), str(cheating_log), "--format", "junit")
    assert code == EXIT_FINDINGS
    root = etree.fromstring(out.encode())
    assert root.tag == "testsuites" and root.get("failures") == "2"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [str(clean_log), str(cheating_log)]
    failed = [c.get("name").split()[0] for c in suites[1].findall("testcase") if c.find("failure") is not None]
    assert failed == ["vlog/undo-after-roll", "vlog/continuity"]


def test_github_annotations(cheating_log, capsys):
    code, out, _ = run(capsys, str(cheating_log), "--format", "github", "-o", "-")
    assert code == EXIT_FINDINGS
    assert out.startswith(f"::error file={cheating_log},title=vlog/undo-after-roll")


def test_after_and_a_save_judged_as_its_position(tmp_path, clean_log, capsys):
    save = write_file(tmp_path / "start.vsav", restore(PIECES))
    code, out, _ = run(capsys, "--after", str(save), str(clean_log), "--format", "json")
    assert code == EXIT_OK and json.loads(out)["sources"] == [str(save), str(clean_log)]
    # the same starting save given as what follows the log: piece 1 is not where the log left it
    code, out, _ = run(capsys, str(save), "--after", str(clean_log), "--format", "json")
    assert code == EXIT_FINDINGS
    (f,) = json.loads(out)["logs"][0]["findings"]
    assert f["check"] == "vlog/continuity" and f["evidence"]["piece"] == "1"
    assert (f["evidence"]["before"]["x"], f["evidence"]["after"]["x"]) == (150, 100)
    assert json.loads(out)["logs"][0]["steps"] == 0


def test_output_file_and_player_ids(tmp_path, cheating_log, capsys):
    target = tmp_path / "report.json"
    code, out, _ = run(capsys, str(cheating_log), "--format", "json", "-o", str(target))
    assert code == EXIT_FINDINGS and out == ""
    assert json.loads(target.read_text())["summary"]["findings"]["error"] == 1


def test_player_ids_redacted_unless_asked(tmp_path, capsys):
    bad = write_file(tmp_path / "ids.vlog", restore(PIECES), [step([move("404", 1, 1, 0, 0)])])
    code, out, _ = run(capsys, str(bad), "--format", "json", "--fail-on", "warning")
    assert code == EXIT_FINDINGS
    assert SECRET not in out and "<player-1>" in out
    _, shown, _ = run(capsys, str(bad), "--format", "json", "--show-player-ids")
    assert SECRET in shown


def test_usage_errors_exit_2(clean_log, capsys):
    assert run(capsys)[0] == EXIT_USAGE
    code, _, err = run(capsys, str(clean_log), "--game", "chess")
    assert code == EXIT_USAGE and "unknown game 'chess'" in err
    assert run(capsys, str(clean_log), "--format", "xml")[0] == EXIT_USAGE
    assert run(capsys, str(clean_log), "--fail-on", "info")[0] == EXIT_USAGE


def test_unreadable_input_exits_3(tmp_path, clean_log, capsys):
    code, _, err = run(capsys, str(tmp_path / "missing.vlog"))
    assert code == EXIT_INPUT and "no such file" in err
    junk = tmp_path / "junk.vlog"
    junk.write_bytes(b"not a zip")
    assert run(capsys, str(junk))[0] == EXIT_INPUT
    assert run(capsys, str(clean_log), "--after", str(junk))[0] == EXIT_INPUT
    assert run(capsys, str(clean_log), "--module", str(junk))[0] == EXIT_INPUT


def test_help_has_examples(capsys):
    assert main(["check", "--help"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "Examples:" in out and "vlog check turn3.vlog --after turn2.vlog" in out


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("vasl-templates/multiple-1.vlog"))
def test_sample_logs_in_order(path, capsys):
    later = path.parent / "multiple-2.vlog"
    code, out, _ = run(capsys, str(path), str(later), "--format", "json")
    data = json.loads(out)
    assert [log["steps"] for log in data["logs"]] == [22, 8]
    continuity = [f for f in data["logs"][1]["findings"] if f["check"] == "vlog/continuity"]
    assert code == (EXIT_FINDINGS if continuity else EXIT_OK)


def test_a_log_that_starts_a_game_of_its_own_is_judged_as_if_alone_and_not_compared(capsys):
    """Two Lion of Judah games in one run: the 1940-41 log starts at its scenario's opening
    after the 1935-36 log played past it, so it is the first log of a game of its own: it gets
    exactly the verdicts it gets alone (the scenario and ledgers of the first game are not held
    against it), its start is not compared, and every format says so; named with --after, the
    same start is compared with that file's end."""
    rules = Path(__file__).resolve().parents[2] / "fixtures" / "lion-of-judah" / "rules"
    first, second = str(rules / "clean-1935-36.vlog"), str(rules / "clean-1940-41.vlog")

    def judged(*args: str) -> dict:
        return json.loads(run(capsys, *args, "--game", "lion-of-judah", "--format", "json")[1])

    def game_findings(data: dict) -> list[list[tuple]]:
        return [[(f["check"], f["step"], f["message"]) for f in log["findings"]] for log in data["logs"]]

    alone = game_findings(judged(second))
    together = judged(first, second)
    assert game_findings(together) == [[], *alone] == [[], []]
    status = next(c for c in together["logs"][1]["checks"] if c["id"] == "vlog/continuity")
    assert status["status"] == "nothing-to-judge"
    assert status["reason"].startswith("nothing to judge: a game of its own: it starts at the opening of "
                                       "scenario 1940-41 (Turn 1, Event Phase), and ") \
        and "clean-1935-36.vlog ended later (Turn " in status["reason"] and "of scenario 1935-36)" in status["reason"]
    first_status = next(c for c in together["logs"][0]["checks"] if c["id"] == "vlog/continuity")
    assert first_status["status"] == "judged"
    code, text, _ = run(capsys, first, second, "--game", "lion-of-judah")
    assert code == EXIT_OK and "a game of its own: it starts at the opening of scenario 1940-41" in " ".join(text.split())
    code, github, _ = run(capsys, first, second, "--game", "lion-of-judah", "--format", "github")
    notices = {line.split("::")[1]: line.split("::", 2)[2] for line in github.splitlines()}
    assert code == EXIT_OK and "a game of its own: it starts at the opening of scenario 1940-41" in notices[
        f"notice file={second},title=vlog%3A not every check judged"]
    assert "a game of its own" not in notices[f"notice file={first},title=vlog%3A not every check judged"]
    after = judged(second, "--after", first)
    assert {f["check"] for f in after["logs"][0]["findings"]} == {"vlog/continuity"}
