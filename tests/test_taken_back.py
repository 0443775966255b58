"""Play taken back with VASSAL's undo is no breach, in every game (vlog/taken_back.py).

Each case is a planted fixture log of one game with an `undo` written right after the step that
breaks the rule, and, where the fixture goes on, legal play after it. The planted finding stays,
lowered to INFO and naming the undo; the log then breaks no rule (exit 0, no error or warning).
Judged without the undo, the same log keeps its ERROR: the lowering is the undo's doing.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from converters.log_writer import write_log
from vlog.cli import main
from vlog.findings import Basis, Finding, Severity
from vlog.replay import UndoRecord
from vlog.taken_back import EVIDENCE_KEY, lower

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

CASES = {
    # game, planted fixture, the line after which the undo goes, line replacements after the undo
    "ascari": ("MOV-02", 'move "1 III" along', {}),
    "island-of-death": ("MOV-04", "move 2RWK along", {}),
    "lion-of-judah": ("MV-04", 'move "Shoa', {}),
    # EAR's wrong drag undone; it then moves in an Operation begun in its own hex (6.21)
    "sideshow": ("MOV-01", "move EAR along 1813", {'chat "op move 1813"': 'chat "op move 1812"',
                                                  "move EAR along 1814": "move EAR along 1813"}),
}


def _script(game: str, undo: bool) -> str:
    name, after, later = CASES[game]
    out = []
    for line in (FIXTURES / game / "rules" / f"{name}.vscript").read_text().splitlines():
        line = line.replace("../synthetic/", f"{FIXTURES / game / 'synthetic'}/")
        if undo:
            for old, new in later.items():
                if line.startswith(old):
                    line = new
        out.append(line)
        if undo and line.startswith(after):
            out.append("undo")
    return "\n".join(out) + "\n"


def _judge(game: str, tmp_path: Path, capsys, undo: bool) -> tuple[int, list[dict]]:
    script = tmp_path / f"{game}.vscript"
    script.write_text(_script(game, undo))
    log = tmp_path / f"{game}.vlog"
    write_log(script, log)
    capsys.readouterr()
    code = main(["check", str(log), "--game", game, "--module", str(FIXTURES / game / "synthetic" / f"{game}.vmod"),
                 "--data", str(FIXTURES / game / "synthetic-data"), "--format", "json"])
    findings = [f for entry in json.loads(capsys.readouterr().out)["logs"] for f in entry["findings"]]
    return code, findings


@pytest.mark.parametrize("game", sorted(CASES))
def test_an_undone_breach_is_not_counted(game, tmp_path, capsys):
    planted = f"{game}/{CASES[game][0]}"
    code, findings = _judge(game, tmp_path, capsys, undo=False)
    assert code == 1 and [f["severity"] for f in findings if f["check"] == planted] == ["error"]

    code, findings = _judge(game, tmp_path, capsys, undo=True)
    assert code == 0
    assert [f for f in findings if f["severity"] != "info"] == []
    lowered = [f for f in findings if f["check"] == planted]
    assert len(lowered) == 1, findings        # the undo read as the same breach is not said again
    assert lowered[0]["evidence"][EVIDENCE_KEY] == lowered[0]["step"] + 1
    assert "not counted: the undo at step" in lowered[0]["message"]


def _finding(check: str, step: int, subjects=("21A",), severity=Severity.ERROR) -> Finding:
    return Finding(check=check, rule="1.0", severity=severity, basis=Basis.PROVEN, step=step, when=None,
                   message="moved too far", subjects=subjects)


def test_lower_only_the_games_findings_on_matched_undos():
    undos = [UndoRecord(step=5, target=4, matched=True, located_by="undo order"),
             UndoRecord(step=9, target=8, matched=False, located_by="undo order"),
             UndoRecord(step=12, target=None, matched=False, located_by="undo order")]
    findings = [_finding("lj/MV-01", 4), _finding("lj/MV-01", 5), _finding("lj/MV-02", 5, ("4",)),
                _finding("vlog/continuity", 4), _finding("lj/MV-01", 8), _finding("lj/MV-01", 6),
                _finding("lj/MV-03", 4, severity=Severity.WARNING)]
    out = lower(findings, undos, "lj")
    by = {(f.check, f.step, f.subjects): f for f in out}
    assert len(out) == 6                                   # MV-01 at the undo (step 5): said at step 4
    assert by[("lj/MV-01", 4, ("21A",))].severity is Severity.INFO
    assert by[("lj/MV-01", 4, ("21A",))].evidence[EVIDENCE_KEY] == 5
    assert by[("lj/MV-01", 4, ("21A",))].basis is Basis.PROVEN
    assert by[("lj/MV-02", 5, ("4",))].severity is Severity.INFO   # another breach, on the undo itself
    assert "this step is the undo" in by[("lj/MV-02", 5, ("4",))].message
    assert by[("lj/MV-03", 4, ("21A",))].severity is Severity.INFO
    assert by[("vlog/continuity", 4, ("21A",))].severity is Severity.ERROR   # not the game's
    assert by[("lj/MV-01", 8, ("21A",))].severity is Severity.ERROR          # the undo did not match it
    assert by[("lj/MV-01", 6, ("21A",))].severity is Severity.ERROR          # after the undo: play
    assert lower(findings, [], "lj") == findings


def test_a_step_that_only_looks_undone_changes_nothing():
    """A log without VASSAL's undo markers: a step exactly reversing the one before may be an undo
    or the player's own move or flip back (Ascari's MOV-12 breach is a second flip): its findings stand."""
    undos = [UndoRecord(step=5, target=4, matched=True, located_by="undo order", marked=False)]
    findings = [_finding("lj/MV-01", 4), _finding("lj/MV-01", 5)]
    assert lower(findings, undos, "lj") == findings
