"""vlog/unparsed: entries vlog cannot interpret or apply, with their raw text."""
from __future__ import annotations

import pytest

import vlog
from tests.checks.logbuild import move, restore, stack, step, unit, write_file
from tests.conftest import sample_params
from vlog.findings import Basis, Severity
from vlog.replay import replay
from vlog.vassal.commands import decode_leaf


def test_unknown_entries_and_missing_pieces(tmp_path):
    log = vlog.read(write_file(
        tmp_path / "x.vlog", restore([unit("1", "Inf", 1, 1), stack("s1", 1, 1, "1")],
                                     decode_leaf("INFO\tAxis\t1")),
        [step([decode_leaf("OBA/+/0/x")]), step([move("77", 5, 5, 1, 1)]), step([decode_leaf("M/1/bad")])]))
    found = [f for _, f in replay(log).findings() if f.check == "vlog/unparsed"]
    assert all(f.basis is Basis.UNVERIFIABLE for f in found)
    assert [(f.step, f.severity, f.evidence.get("raw")) for f in found] == [
        (0, Severity.INFO, None), (1, Severity.INFO, "OBA/+/0/x"),
        (2, Severity.WARNING, "M/77/Main Map/5/5/null/Main Map/1/1/null/<player-1>"),
        (3, Severity.WARNING, "M/1/bad")]
    start = found[0]
    assert start.message == ("1 entry of the starting position was written by the module's own command "
                             "encoder, kept raw (INFO)")
    assert start.evidence["entries"] == [
        {"kind": "module-command", "problem": "a command of the module's own encoder, kept raw",
         "raw": "INFO\tAxis\t1"}]
    assert found[2].evidence["kind"] == "missing-piece"
    assert found[3].evidence["problem"] == "MovePiece needs 9 or 10 fields, found 2"


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("vasl-templates/3d6.vlog"))
def test_vasl_commands_in_a_sample(path):
    (f,) = [f for _, f in replay(vlog.read(path)).findings() if f.check == "vlog/unparsed"]
    assert f.step == 0 and f.subjects == ("INFO", "bd") and f.evidence["count"] == 3
    assert f.severity is Severity.INFO          # the module's own entries: --fail-on warning passes
