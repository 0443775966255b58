"""vlog/continuity: a log that does not start where the previous file ended, difference by difference."""
from __future__ import annotations

import vlog
from tests.checks.logbuild import (
    MAP, SECRET, move, restore, roll, stack, step, unit, write_file,
)
from vlog.findings import Basis, Severity
from vlog.replay import replay
from vlog.vassal.commands import GlobalPropertySet


def first_log(tmp_path):
    pieces = [unit("1", "Inf", 100, 100), unit("2", "Cav", 200, 200), unit("3", "Art", 300, 300),
              stack("s1", 100, 100, "1"), stack("s2", 200, 200, "2"), stack("s3", 300, 300, "3")]
    return write_file(tmp_path / "turn1.vlog", restore(pieces, GlobalPropertySet("Turn", "1", "Module")),
                      [step([move("1", 150, 150, 100, 100)]), step(roll("2d6", [2, 3]))])


def test_a_true_continuation_is_clean(tmp_path):
    prev = first_log(tmp_path)
    pieces = [unit("1", "Inf", 150, 150), unit("2", "Cav", 200, 200), unit("3", "Art", 300, 300),
              stack("s9", 150, 150, "1"), stack("s2", 200, 200, "2"), stack("s3", 300, 300, "3")]
    nxt = write_file(tmp_path / "turn2.vlog", restore(pieces, GlobalPropertySet("Turn", "1", "Module"),
                                                       ), [step(roll("1d6", [4]))])
    report = replay(vlog.read(nxt), after=prev)
    assert [f for _, f in report.findings() if f.check == "vlog/continuity"] == []
    assert "vlog/continuity" in [c.id for c in report.checks]


def test_a_broken_continuation_lists_every_difference(tmp_path):
    prev = first_log(tmp_path)
    # piece 1 back where it started, piece 2 reduced and masked, piece 3 gone, piece 4 new
    pieces = [unit("1", "Inf", 100, 100), unit("2", "Cav", 200, 200, level=2, masked_by=SECRET),
              unit("4", "Tank", 400, 400),
              stack("s1", 100, 100, "1"), stack("s2", 200, 200, "2"), stack("s4", 400, 400, "4")]
    nxt = write_file(tmp_path / "turn2.vlog", restore(pieces, GlobalPropertySet("Turn", "2", "Module")),
                     [step(roll("1d6", [4]))])
    found = [f for _, f in replay(vlog.read(nxt), after=prev).findings() if f.check == "vlog/continuity"]
    assert all((f.severity, f.basis, f.step) == (Severity.ERROR, Basis.PROVEN, 0) for f in found)
    by = {f.evidence.get("piece", f.evidence.get("key")): f for f in found}
    assert set(by) == {"1", "2", "3", "4", "Turn (Module)"}
    moved = by["1"]
    assert moved.message == (f"Inf (id 1) moved from on {MAP} (150, 150) to on {MAP} (100, 100) "
                             f"between the end of {prev} and the start")
    assert dict(moved.evidence) == {
        "previous": str(prev), "piece": "1", "change": "moved", "concealed": False,
        "before": {"map": MAP, "x": 150, "y": 150, "location": None},
        "after": {"map": MAP, "x": 100, "y": 100, "location": None},
    }
    changed = by["2"]
    assert changed.evidence["change"] == "changed" and changed.evidence["concealed"] is True
    assert changed.evidence["state"] == "concealed"       # a hidden unit's side is not revealed
    assert "Cav" in changed.message                      # it was visible at the end of turn 1
    assert by["3"].evidence["change"] == "vanished"
    assert by["3"].evidence["before"] == {"map": MAP, "x": 300, "y": 300, "location": None}
    assert by["4"].evidence["change"] == "appeared"
    assert by["4"].message.startswith("Tank (id 4) is on the table at the start but was not at the end")
    assert dict(by["Turn (Module)"].evidence) == {
        "change": "global property", "previous": str(prev), "key": "Turn (Module)",
        "before": "1", "after": "2"}


def test_referee_sees_the_concealed_change(tmp_path):
    prev = first_log(tmp_path)
    pieces = [unit("1", "Inf", 150, 150), unit("2", "Cav", 200, 200, level=2, masked_by=SECRET),
              unit("3", "Art", 300, 300), stack("s1", 150, 150, "1"), stack("s2", 200, 200, "2"),
              stack("s3", 300, 300, "3")]
    nxt = write_file(tmp_path / "turn2.vlog", restore(pieces, GlobalPropertySet("Turn", "1", "Module")),
                     [step(roll("1d6", [4]))])
    (f,) = [f for _, f in replay(vlog.read(nxt), after=prev, referee=True).findings()
            if f.check == "vlog/continuity"]
    assert f.evidence["masked"] == {"before": False, "after": True}
    assert [l["level_name"] for l in f.evidence["layers_after"]] == ["Reduced"]
    assert "Step: Full -> Reduced" in f.message
    assert SECRET not in repr(dict(f.evidence)) and SECRET not in f.message


def test_after_a_save(tmp_path):
    save = write_file(tmp_path / "start.vsav", restore([unit("1", "Inf", 100, 100), stack("s1", 100, 100, "1")]))
    log = write_file(tmp_path / "t.vlog", restore([unit("1", "Inf", 101, 100), stack("s1", 101, 100, "1")]),
                     [step(roll("1d6", [1]))])
    (f,) = [f for _, f in replay(vlog.read(log), after=vlog.read(save)).findings()
            if f.check == "vlog/continuity"]
    assert f.evidence["before"]["x"] == 100 and f.evidence["after"]["x"] == 101


def _log_of(tmp_path, name, units):
    pieces = [unit(pid, kind, x, x) for pid, kind, x in units] + [stack("s" + pid, x, x, pid) for pid, _, x in units]
    return write_file(tmp_path / name, restore(pieces), [step(roll("1d6", [4]))])


def test_a_log_of_another_game_is_one_finding(tmp_path):
    """More than half of the pieces differing (and more than SUMMARY_AFTER): one finding counting
    the differences by kind and naming each piece; fewer keep a finding per piece."""
    from vlog.checks import continuity

    many = continuity.SUMMARY_AFTER + 2
    prev = _log_of(tmp_path, "a.vlog", [(str(i), "Inf", 100 + i) for i in range(many)])
    other = _log_of(tmp_path, "b.vlog", [(str(i), "Inf", 100 + i) for i in range(2)]
                    + [(str(i), "Inf", 500 + i) for i in range(2, many)] + [("x", "Cav", 900)])
    found = [f for _, f in replay(vlog.read(other), after=prev).findings() if f.check == continuity.CHECK_ID]
    assert len(found) == 1
    summary = found[0]
    assert (summary.severity, summary.basis, summary.step) == (Severity.ERROR, Basis.PROVEN, 0)
    assert summary.evidence["pieces_differing"] == many - 1
    assert dict(summary.evidence["by_change"]) == {"moved": many - 2, "appeared": 1}
    assert "Cav (id x): appeared" in summary.evidence["pieces"]
    assert summary.message.startswith(f"{many - 1} pieces differ between the end of {prev} and the start "
                                      f"({many - 2} moved, 1 appeared): Inf, Cav.")
    assert summary.subjects == ("Inf", "Cav")

    # the same differences among many more pieces that match: each its own finding
    same = [(str(i), "Inf", 100 + i) for i in range(many, 4 * many)]
    prev = _log_of(tmp_path, "c.vlog", [(str(i), "Inf", 100 + i) for i in range(many)] + same)
    other = _log_of(tmp_path, "d.vlog", [(str(i), "Inf", 100 + i) for i in range(2)]
                    + [(str(i), "Inf", 500 + i) for i in range(2, many)] + [("x", "Cav", 900)] + same)
    found = [f for _, f in replay(vlog.read(other), after=prev).findings() if f.check == continuity.CHECK_ID]
    assert len(found) == many - 1 and {f.evidence["change"] for f in found} == {"moved", "appeared"}
