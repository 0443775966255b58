"""The JUnit report: one suite per log, one case per (log, check), failures by threshold, safe XML."""
from __future__ import annotations

import pytest
from lxml import etree

from vlog.findings import Basis, Finding, LogResult, Report, Severity
from vlog.report import junit

from .junit_xsd import JUNIT_10_XSD

JUNIT_SCHEMA = etree.XMLSchema(etree.fromstring(JUNIT_10_XSD.encode("utf-8")))


def parse(xml: str) -> etree._Element:
    """The document, after checking it against Jenkins' JUnit schema."""
    assert xml.startswith("<?xml version='1.0' encoding='UTF-8'?>")
    root = etree.fromstring(xml.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True))
    JUNIT_SCHEMA.assertValid(root)
    return root


def counts(root: etree._Element) -> list[tuple[str, int, int]]:
    return [(s.get("name"), int(s.get("tests")), int(s.get("failures"))) for s in root.iter("testsuite")]


@pytest.mark.parametrize(
    ("fail_on", "suites", "failures"),
    [
        ("error", [("logs/turn 3.vlog", 4, 1), ("logs/turn4.vlog", 4, 1), ("clean.vlog", 4, 0)], 2),
        ("warning", [("logs/turn 3.vlog", 4, 2), ("logs/turn4.vlog", 4, 1), ("clean.vlog", 4, 0)], 3),
        ("never", [("logs/turn 3.vlog", 4, 0), ("logs/turn4.vlog", 4, 0), ("clean.vlog", 4, 0)], 0),
    ],
)
def test_suites_cases_and_failures(report, fail_on, suites, failures):
    root = parse(junit.render(report, fail_on=fail_on))
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("12", str(failures), "0")
    assert counts(root) == suites
    for suite in root.iter("testsuite"):
        cases = suite.findall("testcase")
        assert len(cases) == int(suite.get("tests"))
        assert sum(1 for c in cases if c.find("failure") is not None) == int(suite.get("failures"))
        assert suite.get("file") == suite.get("name")
    assert len(root.findall(".//failure")) == failures


def test_case_names_and_contents(report):
    root = parse(junit.render(report, fail_on="error"))
    first = root.find("testsuite")
    assert [(c.get("classname"), c.get("name")) for c in first.findall("testcase")] == [
        ("lion-of-judah", "lion-of-judah/MV-07 Movement allowance"),
        ("lion-of-judah", "lion-of-judah/CB-02"),
        ("vlog", "vlog/undo-after-roll Undo after a die roll"),
        ("vlog", "vlog/unreadable-entry"),
    ]
    assert {p.get("name"): p.get("value") for p in first.find("properties")} == {
        "steps": "120", "game": "lion-of-judah", "module": "Lion of Judah 2.1",
    }
    mv07 = first.find("testcase")
    failure = mv07.find("failure")
    assert failure.get("type") == "error"
    assert failure.get("message") == (
        "step 42, Turn 3, Italian movement: 1/2 Eritrean Bn moved 7 MP with an allowance of 6."
    )
    assert failure.text.splitlines() == [
        "ERROR (proven) lion-of-judah/MV-07 rule 11.5.3",
        "  step 42, Turn 3, Italian movement: 1/2 Eritrean Bn moved 7 MP with an allowance of 6.",
        "  subjects: 1/2 Eritrean Bn; 0203",
        "  mp_spent = 7",
        "  mp_allowed = 6",
        '  path = ["0203", "0304", "0405"]',
    ]
    # the warning on the same check does not fail at fail_on=error: it is reported as output
    assert mv07.find("system-out").text.startswith("WARNING (possible) lion-of-judah/MV-07 rule 11.5.3\n")
    assert first.findall("testcase")[1].find("failure") is None
    assert first.findall("testcase")[1].find("system-out") is None


def test_several_failures_in_one_case():
    findings = tuple(
        Finding("vlog/x", "1", Severity.ERROR, Basis.PROVEN, step, None, f"bad {step}") for step in (3, 9, 11)
    )
    root = parse(junit.render(Report(logs=(LogResult("a.vlog", 20, findings),))))
    (failure,) = root.findall(".//failure")
    assert failure.get("message") == "step 3: bad 3 (and 2 more)"
    assert failure.text.count("ERROR (proven) vlog/x") == 3


def test_control_characters_and_markup_are_escaped(report):
    xml = junit.render(report, fail_on="never")
    root = parse(xml)
    out = [c for c in root.iter("testcase") if c.get("name") == "vlog/unreadable-entry"][0].find("system-out")
    assert out.text.splitlines()[1] == (
        '  step 5: Bob: [bold]win[/bold] :smile: {0} 100% a:b,c <x & "y"> \\x1b[31mred\\x07\\x0anext'
    )
    assert "&lt;x &amp; \"y\"&gt;" in xml
    assert "\x1b" not in xml and "\x07" not in xml


def test_xml_forbidden_characters_everywhere():
    nasty = "a\x00b\x0bc\ufffed\uffff\ud800e"
    f = Finding("vlog/x", nasty, Severity.ERROR, Basis.PROVEN, 1, nasty, nasty, (nasty,), {nasty: nasty})
    report = Report(logs=(LogResult(nasty, 2, (f,)),), game=nasty)
    root = parse(junit.render(report))
    assert root.find("testsuite").get("name") == "a\\x00b\\x0bc\\ufffed\\uffff\\ud800e"
    assert "\\x00" in root.find(".//failure").get("message")


def test_prefix_and_redact(report):
    root = parse(junit.render(report, suite_prefix="lion/", redact=lambda s: s.replace("Eritrean", "E.")))
    assert [s.get("name") for s in root.iter("testsuite")][0] == "lion/logs/turn 3.vlog"
    assert "Eritrean" not in etree.tostring(root, encoding="unicode")


def test_schema_has_teeth(report):
    root = etree.fromstring(junit.render(report).encode("utf-8"))
    root.find("testsuite").find("testcase").set("file", "x.vlog")
    assert not JUNIT_SCHEMA.validate(root)
    del root.find("testsuite").attrib["tests"]
    assert not JUNIT_SCHEMA.validate(root)


def test_bad_fail_on(report):
    with pytest.raises(ValueError, match="fail_on"):
        junit.render(report, fail_on="always")
