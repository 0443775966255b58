"""vlog/undo-after-roll on logs built with an undo after a roll, checked to the evidence."""
from __future__ import annotations

import vlog
from tests.checks.logbuild import move, restore, roll, stack, step, undo_step, unit, write_file
from vlog.findings import Basis, Severity
from vlog.replay import replay


def build(tmp_path, steps):
    pieces = [unit("1", "Inf", 100, 100), stack("s1", 100, 100, "1")]
    return vlog.read(write_file(tmp_path / "u.vlog", restore(pieces), steps))


def findings(log):
    return [f for _, f in replay(log).findings() if f.check == "vlog/undo-after-roll"]


def test_undone_roll_and_what_was_rolled_instead(tmp_path):
    first = roll("2d6", [1, 2], old="1,1")
    second = roll("2d6", [6, 5], old="1,1")
    log = build(tmp_path, [step([move("1", 110, 110, 100, 100)]), step(first), undo_step(first), step(second)])
    (f,) = findings(log)
    assert (f.severity, f.basis, f.step) == (Severity.ERROR, Basis.PROVEN, 3)
    assert f.message == ("Undo took back the die roll of step 2 (2d6 = 1,2); rolled instead: "
                         "2d6 = 6,5 at step 4")
    assert f.subjects == ("2d6", "Alice")
    assert dict(f.evidence) == {
        "undo_step": 3, "undone_step": 2, "located_by": "undo order", "inverse_matches": True,
        "undone_rolls": [{"step": 2, "dice": "2d6", "faces": [1, 2], "total": 3, "player": "Alice"}],
        "rolled_instead": [{"step": 4, "dice": "2d6", "faces": [6, 5], "total": 11, "player": "Alice"}],
    }


def test_undone_action_after_a_roll(tmp_path):
    dice = roll("1d6", [2])
    advance = [move("1", 150, 150, 100, 100)]
    log = build(tmp_path, [step(dice), step(advance), undo_step(advance),
                           step([move("1", 120, 120, 100, 100)])])
    (f,) = findings(log)
    assert (f.severity, f.basis, f.step) == (Severity.WARNING, Basis.POSSIBLE, 3)
    assert f.message == "Undo took back step 2, the action that followed the die roll of step 1 (1d6 = 2)"
    assert dict(f.evidence) == {
        "undo_step": 3, "undone_step": 2, "located_by": "undo order", "inverse_matches": True,
        "roll_step": 1,
        "rolls_before": [{"step": 1, "dice": "1d6", "faces": [2], "total": 2, "player": "Alice"}],
        "rolled_instead": [],
    }


def test_undo_of_a_move_without_dice_is_fine(tmp_path):
    a = [move("1", 110, 110, 100, 100)]
    log = build(tmp_path, [step(roll("2d6", [3, 3])), step([move("1", 90, 90, 100, 100)]),
                           step(a), undo_step(a)])
    assert findings(log) == []


def test_undo_chain_takes_back_the_move_then_the_roll(tmp_path):
    dice = roll("2d6", [1, 1], old="4,4")
    advance = [move("1", 150, 150, 100, 100)]
    log = build(tmp_path, [step(dice), step(advance), undo_step(advance), undo_step(dice),
                           step(roll("2d6", [6, 6], old="4,4"))])
    got = [(f.step, f.severity, f.evidence["undone_step"]) for f in findings(log)]
    assert got == [(3, Severity.WARNING, 2), (4, Severity.ERROR, 1)]
    error = findings(log)[1]
    assert error.evidence["rolled_instead"] == [
        {"step": 5, "dice": "2d6", "faces": [6, 6], "total": 12, "player": "Alice"}]


def legacy_undo_step(commands):
    """An undo as VASSAL wrote it before UNDO markers: just the inverse commands."""
    from tests.checks.logbuild import undo_of

    return step(undo_of(commands))


def test_unmarked_undo_of_a_roll_in_an_old_log(tmp_path):
    first = roll("2d6", [1, 1], old="3,3")
    log = build(tmp_path, [step(first), legacy_undo_step(first), step(roll("2d6", [5, 6], old="3,3"))])
    (f,) = findings(log)
    assert (f.severity, f.basis, f.step) == (Severity.ERROR, Basis.PROVEN, 2)
    assert f.evidence["marked"] is False and f.evidence["undone_step"] == 1
    assert f.evidence["rolled_instead"] == [
        {"step": 3, "dice": "2d6", "faces": [5, 6], "total": 11, "player": "Alice"}]


def test_unmarked_undo_of_the_move_after_a_roll(tmp_path):
    advance = [move("1", 150, 150, 100, 100)]
    log = build(tmp_path, [step(roll("1d6", [6])), step(advance), legacy_undo_step(advance)])
    (f,) = findings(log)
    assert (f.severity, f.basis, f.step) == (Severity.WARNING, Basis.POSSIBLE, 3)
    assert f.evidence["marked"] is False


def test_moving_back_by_hand_in_a_marked_log_is_no_undo(tmp_path):
    from tests.checks.logbuild import undo_of

    a = [move("1", 110, 110, 100, 100)]
    advance = [move("1", 150, 150, 100, 100)]
    log = build(tmp_path, [step(a), undo_step(a), step(roll("1d6", [6])), step(advance),
                           step(undo_of(advance))])
    assert findings(log) == []
