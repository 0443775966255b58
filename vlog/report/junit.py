"""The report as JUnit XML, the test-result format every CI system shows.

One <testsuite> per log and one <testcase> per (log, check), so a CI page lists every check on
every log, passing or not. Findings at or above the `fail_on` threshold make the test case fail
(one <failure> listing them all); findings below it go to the test case's <system-out>. The CLI
keeps the default ("error") whatever its --fail-on: that option sets the exit status only.
A check that judged nothing on a log — for missing data or input, or because the log held
nothing of the kind it judges — and found nothing is a <skipped message="..."> test case saying
which; a check partly judged says so, with its counts, in <system-out>. Suites carry the
run's `timestamp` and each log's `time` when measured; test cases `time` "0" (checks are not
timed one by one).
The testcase's classname is the check's namespace (the game, or "vlog"); the suite's `file`
attribute names the log. The output validates against junit-10.xsd, the schema Jenkins' xunit
plugin checks reports with (which allows `file` on suites but not on test cases).

Player text is made XML-safe: control characters, which XML 1.0 cannot carry even as
character references, are written as visible \\xNN escapes.
"""
from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from vlog.findings import CheckInfo, CheckStatus, Finding, Judgement, Report, Severity, fail_threshold
from vlog.report._common import evidence_value, place, printable


def _xml_safe(text: str) -> str:
    """`text` with everything XML 1.0 forbids (controls, U+FFFE/U+FFFF, lone surrogates) escaped."""
    text = printable(text)
    if "\ufffe" in text or "\uffff" in text:
        text = text.replace("\ufffe", "\\ufffe").replace("\uffff", "\\uffff")
    return text


def describe(finding: Finding) -> str:
    """A finding in a few lines of plain text (for failure bodies and system-out)."""
    lines = [
        f"{finding.severity.value.upper()} ({finding.basis.value}) {finding.check}"
        + (f" rule {finding.rule}" if finding.rule else ""),
        f"  {place(finding)}: {finding.message}",
    ]
    if finding.subjects:
        lines.append("  subjects: " + "; ".join(finding.subjects))
    for key, value in finding.evidence.items():
        lines.append(f"  {key} = {evidence_value(value)}")
    return "\n".join(_xml_safe(line) for line in lines)


def render(
    report: Report,
    *,
    fail_on: str = "error",
    suite_prefix: str = "",
    redact: Callable[[str], str] | None = None,
) -> str:
    """The report as a JUnit XML document (UTF-8, with an XML declaration).

    `fail_on` is "error", "warning" or "never" as for the exit code; `suite_prefix` is put in
    front of each suite name (CI systems that merge several reports tell them apart by it).
    """
    threshold = fail_threshold(fail_on)
    if redact is not None:
        report = report.redacted(redact)
    checks = report.all_checks()
    root = etree.Element("testsuites", name="vlog")
    total_tests = total_failures = 0
    for index, log in enumerate(report.logs):
        suite = etree.SubElement(
            root, "testsuite", name=_xml_safe(suite_prefix + log.path), id=str(index), file=_xml_safe(log.path)
        )
        properties = etree.SubElement(suite, "properties")
        for name, value in (("steps", str(log.steps)), ("game", report.game), ("module", report.module)):
            if value is not None:
                etree.SubElement(properties, "property", name=name, value=_xml_safe(value))
        by_check: dict[str, list[Finding]] = {}
        for finding in log.findings:
            by_check.setdefault(finding.check, []).append(finding)
        failures = skipped = 0
        for check in checks:
            failed, skip = add_case(suite, check, log.status(check.id), by_check.get(check.id, []), threshold)
            failures += failed
            skipped += skip
        suite.set("tests", str(len(checks)))
        suite.set("failures", str(failures))
        suite.set("errors", "0")
        suite.set("skipped", str(skipped))
        if report.started is not None:
            suite.set("timestamp", report.started)
        if log.seconds is not None:
            suite.set("time", f"{log.seconds:.3f}")
        total_tests += len(checks)
        total_failures += failures
    root.set("tests", str(total_tests))
    root.set("failures", str(total_failures))
    root.set("errors", "0")
    if report.logs and all(log.seconds is not None for log in report.logs):
        root.set("time", f"{sum(log.seconds for log in report.logs):.3f}")
    return etree.tostring(root, pretty_print=True, xml_declaration=True, encoding="UTF-8").decode("utf-8")


def add_case(suite: etree._Element, check: CheckInfo, status: CheckStatus, found: list[Finding],
             threshold: Severity | None, *, label: Callable[[Finding], str] | None = None,
             classname: str | None = None) -> tuple[int, int]:
    """One <testcase> for `check` in `suite`: failing for the findings at or above `threshold`,
    skipped when it judged nothing and found nothing, the other findings in <system-out>.
    `label(finding)` heads each finding's text (the log it is in, for a suite of several logs).
    Returns (failures, skipped) added: each 0 or 1."""
    case = etree.SubElement(
        suite,
        "testcase",
        name=_xml_safe(check.id + (f" {check.title}" if check.title else "")),
        classname=_xml_safe(classname or check.id.split("/", 1)[0]),
        time="0",
    )
    failing: list[Finding] = []
    passing: list[Finding] = []
    for finding in found:
        fails = threshold is not None and finding.severity >= threshold
        (failing if fails else passing).append(finding)

    def text(f: Finding) -> str:
        return describe(f) if label is None else _xml_safe(label(f)) + "\n" + describe(f)

    failures = skipped = 0
    if failing:
        failures = 1
        worst = max(f.severity for f in failing)
        first = failing[0]
        message = (f"{label(first)} " if label is not None else "") + f"{place(first)}: {first.message}"
        if len(failing) > 1:
            message += f" (and {len(failing) - 1} more)"
        failure = etree.SubElement(case, "failure", message=_xml_safe(message), type=worst.value)
        failure.text = "\n\n".join(text(f) for f in failing)
    elif status.judgement in (Judgement.NOT_JUDGED, Judgement.NOTHING):
        skipped = 1
        etree.SubElement(case, "skipped", message=_xml_safe(status.reason()), type=status.judgement.value)
    notes = [text(f) for f in passing]
    if status.judgement is Judgement.PARTLY or (failing and status.unsettled):
        notes.insert(0, _xml_safe(f"{status.judgement.value}: {status.reason()}"))
    if notes:
        etree.SubElement(case, "system-out").text = "\n\n".join(notes)
    return failures, skipped
