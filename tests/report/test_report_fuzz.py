"""Any text players can put in a finding leaves every format valid and unambiguous."""
from __future__ import annotations

import json
import unicodedata
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft4Validator, Draft202012Validator
from lxml import etree

from vlog.findings import Basis, CheckInfo, Finding, LogResult, Report, Severity
from vlog.report import github, json as json_report, junit, sarif, text

from .junit_xsd import JUNIT_10_XSD

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
REPORT_SCHEMA = Draft202012Validator(json.loads((SCHEMAS / "report.schema.json").read_text()))
SARIF_SCHEMA = Draft4Validator(json.loads((SCHEMAS / "sarif-2.1.0.json").read_text()))
JUNIT_SCHEMA = etree.XMLSchema(etree.fromstring(JUNIT_10_XSD.encode("utf-8")))

# everything, with the troublesome classes (controls, format marks, surrogates, unassigned,
# private use, line and paragraph separators) drawn as often as letters
any_text = st.text(
    st.characters() | st.characters(categories=["Cc", "Cf", "Cs", "Cn", "Co", "Zl", "Zp"]) | st.sampled_from("[]{}%:,<>&$*"),
    max_size=30,
)
findings = st.builds(
    Finding,
    check=st.sampled_from(["vlog/a", "lion-of-judah/MV-07", "ascari/X.1"]),
    rule=any_text,
    severity=st.sampled_from(list(Severity)),
    basis=st.sampled_from(list(Basis)),
    step=st.none() | st.integers(0, 10_000),
    when=st.none() | any_text,
    message=any_text,
    subjects=st.lists(any_text, max_size=2).map(tuple),
    evidence=st.dictionaries(any_text, any_text | st.integers() | st.floats(allow_nan=False, allow_infinity=False), max_size=2),
)
reports = st.builds(
    Report,
    logs=st.lists(
        st.builds(LogResult, path=any_text.filter(bool), steps=st.integers(0, 10**6),
                  findings=st.lists(findings, max_size=4).map(tuple)),
        min_size=1, max_size=3,
    ).map(tuple),
    checks=st.just((CheckInfo("vlog/a", "1", "A check"),)),
    game=st.none() | any_text,
    module=st.none() | any_text,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])   # no timed assertions
@given(report=reports)
def test_every_format_stays_valid(report):
    total = sum(len(log.findings) for log in report.logs)

    data = json.loads(json_report.render(report))
    REPORT_SCHEMA.validate(data)
    assert [Finding.from_dict(f) for log in data["logs"] for f in log["findings"]] == [f for _, f in report.findings()]

    sarif_data = json.loads(sarif.render(report))
    SARIF_SCHEMA.validate(sarif_data)
    assert len(sarif_data["runs"][0]["results"]) == total

    root = etree.fromstring(junit.render(report, fail_on="warning").encode("utf-8"))
    JUNIT_SCHEMA.assertValid(root)
    assert len(root.findall("testsuite")) == len(report.logs)

    lines = github.render(report)
    assert lines.count("\n") == total and "\r" not in lines
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines.splitlines())

    for out in (text.render(report), lines):
        assert all(unicodedata.category(ch) not in ("Cc", "Cs", "Zl", "Zp") for ch in out if ch != "\n")
        assert out.splitlines() == out.split("\n")[: len(out.splitlines())]
    out = text.render(report)
    assert out.rstrip().splitlines()[-1].endswith("checks run.") or out.rstrip().endswith("check run.")
