"""Findings and reports: ordering, validation, counting, redaction and the CI exit code."""
from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from report.sample import build_report
from vlog.findings import (
    Basis,
    CheckInfo,
    Finding,
    LogResult,
    Report,
    Severity,
    fail_exit_code,
    fail_threshold,
)


def finding(severity: Severity = Severity.ERROR, **changes) -> Finding:
    base = dict(
        check="lion-of-judah/MV-07", rule="11.5.3", severity=severity, basis=Basis.PROVEN,
        step=3, when="Turn 1", message="Too far.",
    )
    base.update(changes)
    return Finding(**base)


def report_of(*severities: Severity) -> Report:
    return Report(logs=(LogResult("a.vlog", 10, tuple(finding(s) for s in severities)),))


def test_severity_is_ordered():
    assert Severity.INFO < Severity.WARNING < Severity.ERROR
    assert max([Severity.WARNING, Severity.ERROR, Severity.INFO]) is Severity.ERROR
    assert sorted(Severity) == [Severity.INFO, Severity.WARNING, Severity.ERROR]
    assert Severity.WARNING >= Severity.WARNING and not Severity.WARNING > Severity.WARNING
    with pytest.raises(TypeError):
        Severity.ERROR < 2  # noqa: B015


def test_finding_is_frozen_with_slots_and_read_only_evidence():
    f = finding(evidence={"mp": 7})
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.step = 4  # type: ignore[misc]
    assert not hasattr(f, "__dict__")
    with pytest.raises(TypeError):
        f.evidence["mp"] = 8  # type: ignore[index]
    assert hash(f) == hash(finding(evidence={"mp": 99}))  # evidence is left out of the hash
    assert f != finding(evidence={"mp": 99})


def test_findings_and_reports_pickle_and_copy():
    report = build_report()
    for clone in (pickle.loads(pickle.dumps(report)), copy.deepcopy(report), copy.copy(report)):
        assert clone == report
        assert clone.to_dict() == report.to_dict()
    f = finding(evidence={"path": ["0101"]})
    assert pickle.loads(pickle.dumps(f)).evidence["path"] == ["0101"]


def test_finding_copies_its_inputs():
    evidence = {"path": ["0101"]}
    subjects = ["A", "B"]
    f = finding(evidence=evidence, subjects=subjects)
    evidence["path"].append("0102")
    subjects.append("C")
    assert f.evidence["path"] == ["0101"]
    assert f.subjects == ("A", "B")


@pytest.mark.parametrize("check", ["", "MV-07", "Lion/MV-07", "lion-of-judah/", "a/b c", "a/-x"])
def test_finding_rejects_malformed_check_ids(check):
    with pytest.raises(ValueError, match="not of the form"):
        finding(check=check)


def test_finding_rejects_bad_fields():
    with pytest.raises(ValueError, match="step"):
        finding(step=-1)
    with pytest.raises(TypeError, match="severity"):
        finding(severity="error")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="finite"):
        finding(evidence={"odds": float("nan")})
    with pytest.raises(TypeError, match="object is not JSON data"):
        finding(evidence={"x": object()})


def test_finding_to_dict_and_back():
    f = finding(subjects=("1/2 Bn",), evidence={"odds": (3, 1), "ok": True, "kind": Basis.POSSIBLE})
    data = f.to_dict()
    assert data == {
        "check": "lion-of-judah/MV-07", "rule": "11.5.3", "severity": "error", "basis": "proven",
        "step": 3, "when": "Turn 1", "message": "Too far.", "subjects": ["1/2 Bn"],
        "evidence": {"odds": [3, 1], "ok": True, "kind": "possible"},
    }
    assert Finding.from_dict(data).to_dict() == data


def test_report_counts_and_worst():
    report = build_report()
    assert report.counts() == {"info": 1, "warning": 2, "error": 2}
    assert report.worst_severity is Severity.ERROR
    assert report.count_at_or_above(Severity.ERROR) == 2
    assert report.count_at_or_above(Severity.WARNING) == 4
    assert report.count_at_or_above(Severity.INFO) == 5
    assert [c.id for c in report.all_checks()] == [
        "lion-of-judah/MV-07", "lion-of-judah/CB-02", "vlog/undo-after-roll", "vlog/unreadable-entry",
    ]
    assert report.all_checks()[-1] == CheckInfo("vlog/unreadable-entry", "")
    assert [(log.path, f.step) for log, f in report.findings()] == [
        ("logs/turn 3.vlog", 42), ("logs/turn 3.vlog", 57), ("logs/turn 3.vlog", 80),
        ("logs/turn 3.vlog", 5), ("logs/turn4.vlog", 7),
    ]


def test_empty_report():
    report = Report(logs=(LogResult("a.vlog", 0),))
    assert report.worst_severity is None
    assert report.count_at_or_above(Severity.INFO) == 0
    assert report.to_dict()["summary"] == {
        "logs": 1, "steps": 0, "findings": {"info": 0, "warning": 0, "error": 0},
        "checks": {"judged": 0, "partly-judged": 0, "not-judged": 0, "nothing-to-judge": 0}, "binding": None,
        "worst": None,
    }


def test_report_rejects_duplicate_checks():
    with pytest.raises(ValueError, match="twice"):
        Report(logs=(), checks=(CheckInfo("vlog/a", ""), CheckInfo("vlog/a", "1")))


@pytest.mark.parametrize(
    ("severities", "fail_on", "code"),
    [
        ((), "error", 0),
        ((), "warning", 0),
        ((), "never", 0),
        ((Severity.INFO,), "warning", 0),
        ((Severity.WARNING,), "error", 0),
        ((Severity.WARNING,), "warning", 1),
        ((Severity.WARNING, Severity.INFO), "never", 0),
        ((Severity.ERROR,), "error", 1),
        ((Severity.ERROR,), "warning", 1),
        ((Severity.ERROR, Severity.ERROR), "never", 0),
    ],
)
def test_fail_exit_code(severities, fail_on, code):
    assert fail_exit_code(report_of(*severities), fail_on) == code


def test_fail_exit_code_counts_possible_errors():
    report = Report(logs=(LogResult("a.vlog", 1, (finding(basis=Basis.POSSIBLE),)),))
    assert fail_exit_code(report, "error") == 1


def test_fail_on_must_be_known():
    with pytest.raises(ValueError, match="fail_on must be one of error, warning, never"):
        fail_exit_code(report_of(), "errors")
    assert fail_threshold("never") is None


def test_redacted_applies_to_every_text():
    f = finding(when="Turn 1 by id 4711", message="player 4711 moved", subjects=("4711",),
                evidence={"who": "4711", "n": 4711, "seen": ["4711"], "4711": 1})
    report = Report(logs=(LogResult("a.vlog", 1, (f,)),)).redacted(lambda s: s.replace("4711", "<id>"))
    (_, r), = report.findings()
    assert (r.when, r.message, r.subjects) == ("Turn 1 by id <id>", "player <id> moved", ("<id>",))
    assert dict(r.evidence) == {"who": "<id>", "n": 4711, "seen": ["<id>"], "<id>": 1}
    assert r.check == f.check and r.rule == f.rule


def _possible(check: str, step: int, *data: str) -> Finding:
    return Finding(check, "1", Severity.WARNING, Basis.POSSIBLE, step, None, "may be wrong",
                   evidence={"depends_on": list(data)} if data else {})


def test_tally_counts_occasions_by_step_and_names_what_is_missing():
    from vlog.findings import Judgement, Tally

    tally = Tally()
    for step in (3, 5, 5, 9):
        tally.judged("g/CB-19", step)
    tally.observe(_possible("g/CB-19", 9, "tables.json crt cell 3:1/4"))
    tally.waits_for("g/MV-01", "no move in the log")
    tally.needs("g/AR-04", ["tables.json air-support"])
    tally.block("g/MV-03", "needs a module", ["the module"])
    tally.reported_by("g/CB-06", ["g/CB-19"])
    tally.judged("g/CB-06", 3)
    tally.judged("g/VC-07", 4)
    tally.block("g/VC-07", "other scenario", ["a rule of scenario (40)"], outright=True)
    tally.judged("g/VC-07", 5)
    crt = tally.status("g/CB-19")
    assert (crt.judgement, crt.judged, crt.cause) == (Judgement.PARTLY, 2, "missing data")
    assert crt.reason() == ("judged at 2 steps; 1 occasion not settled (step 9): missing data: "
                            "tables.json crt cell 3:1/4")
    assert tally.status("g/CB-06").unsettled[0].by == "g/CB-19"
    assert tally.status("g/MV-01").reason() == "nothing to judge: no move in the log"
    assert tally.status("g/MV-01").cause is None
    assert tally.status("g/AR-04").reason() == "not judged: missing data: tables.json air-support"
    module = tally.status("g/MV-03")
    assert (module.judgement, module.cause) == (Judgement.NOT_JUDGED, "needs a module")
    assert module.reason() == "not judged: needs a module: the module"
    tally.observe(_possible("g/MV-03", 2))                                   # a finding outweighs the block
    assert tally.status("g/MV-03").judgement is Judgement.JUDGED
    other = tally.status("g/VC-07")                                          # outright: its occasions do not count
    assert (other.judgement, other.cause, other.judged) == (Judgement.NOT_JUDGED, "other scenario", 0)
    only = Tally()
    only.observe(_possible("g/X-01", 4, "a", "b", "c", "d", "e"))
    assert only.status("g/X-01").reason() == "not judged: 1 occasion not settled (step 4): missing data: a, b, c and 2 more"
    with pytest.raises(ValueError):
        only.block("g/X-01", "bored")


def test_a_finding_lowered_for_the_binding_is_an_occasion_not_settled():
    from vlog.findings import Judgement, Tally

    tally = Tally()
    tally.observe(Finding("g/MV-01", "1", Severity.ERROR, Basis.POSSIBLE, 4, None, "moved too far",
                          evidence={"binding": ["3 of 9 pieces on the table are bound to no counter"]}))
    status = tally.status("g/MV-01")
    assert status.judgement is Judgement.NOT_JUDGED
    assert status.unsettled[0].data == ("the binding: 3 of 9 pieces on the table are bound to no counter",)


def test_log_result_without_statuses_reads_its_findings():
    from vlog.findings import Judgement

    log = LogResult("a.vlog", 5, (_possible("g/X-01", 2, "d"), _possible("g/X-02", 3)))
    assert log.status("g/X-01").judgement is Judgement.NOT_JUDGED
    assert log.status("g/X-02").judgement is Judgement.JUDGED               # a finding without data is settled
    assert log.status("g/X-03").judgement is Judgement.NOTHING


def test_tally_counts_an_occasion_for_every_check_waiting_for_its_kind_unless_blocked():
    from vlog.findings import Judgement, Tally
    from vlog.kit.steps import occasion_noun

    tally = Tally()
    for check, kinds in (("g/MV-01", ("moved",)), ("g/ST-01", ("moved", "placed")), ("g/MV-03", ("moved",)),
                         ("g/CB-19", ("combat",))):
        tally.waits_for(check, "no " + " or ".join(map(occasion_noun, kinds)) + " in the log", kinds)
    tally.block("g/MV-03", "needs a module", ["the module"])
    tally.met("moved", 4)
    tally.met("placed", 6)
    tally.met("flipped", 7)                                                  # no check waits for a flip
    assert [tally.status(c).judged for c in ("g/MV-01", "g/ST-01", "g/MV-03")] == [1, 2, 0]
    assert tally.status("g/MV-03").judgement is Judgement.NOT_JUDGED
    assert tally.status("g/ST-01").reason() == "judged at 2 steps"
    assert tally.status("g/CB-19").reason() == "nothing to judge: no combat in the log"
    assert occasion_noun("steps-changed") == "step change" and occasion_noun("opgt-rolled") == "opgt rolled"
