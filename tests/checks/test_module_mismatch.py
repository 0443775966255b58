"""vlog/module-mismatch: the log's module name and version against the module given."""
from __future__ import annotations

import vlog
from tests.checks.logbuild import restore, roll, step, unit, write_file
from vlog.checks import module_mismatch
from vlog.findings import Basis, Severity
from vlog.replay import replay
from vlog.vassal.commands import Ext
from vlog.vassal.module import read_module


def module_file(tmp_path, name, version):
    folder = tmp_path / f"{name}-{version}".replace(" ", "_")
    folder.mkdir()
    (folder / "buildFile").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<VASSAL.build.GameModule name="{name}" version="{version}" VassalVersion="3.7.10" '
        'nextPieceSlotId="1"/>\n')
    return read_module(folder / "buildFile")


def the_log(tmp_path, *extra):
    return vlog.read(write_file(tmp_path / "m.vlog", restore([unit("1", "Inf", 1, 1)], *extra),
                                [step(roll("1d6", [3]))], module="Test Module", version="1.0"))


def mismatches(log, module):
    return [f for _, f in replay(log, module=module).findings() if f.check == "vlog/module-mismatch"]


def test_other_module(tmp_path):
    (f,) = mismatches(the_log(tmp_path), module_file(tmp_path, "Other Game", "2.0"))
    assert (f.severity, f.basis, f.step) == (Severity.ERROR, Basis.PROVEN, None)
    assert f.message == "The log was written with module 'Test Module', not 'Other Game'"
    assert dict(f.evidence) == {"log_module": "Test Module", "log_version": "1.0",
                                "module": "Other Game", "module_version": "2.0"}


def test_other_version(tmp_path):
    (f,) = mismatches(the_log(tmp_path), module_file(tmp_path, "Test Module", "1.1"))
    assert (f.severity, f.message) == (Severity.WARNING,
                                       "The log was written with Test Module version 1.0, not 1.1")
    assert f.evidence["log_version"] == "1.0" and f.evidence["module_version"] == "1.1"


def test_same_module_is_clean_and_missing_extensions_warn(tmp_path):
    module = module_file(tmp_path, "Test Module", "1.0")
    assert mismatches(the_log(tmp_path), module) == []
    log = the_log(tmp_path, Ext("Extra Units", "1.2"))
    (f,) = module_mismatch.check(log, module)
    assert f.severity is Severity.WARNING and f.subjects == ("Extra Units",)
    assert f.evidence["missing_extensions"] == [{"extension": "Extra Units", "version": "1.2"}]


def test_not_run_without_a_module(tmp_path):
    report = replay(the_log(tmp_path))
    assert "vlog/module-mismatch" not in [c.id for c in report.checks]
