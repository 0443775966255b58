"""The report as GitHub Actions workflow commands, which GitHub shows as annotations.

`::error file=game.vlog,title=lion-of-judah/MV-07 (rule 11.5.3)::step 42, ...: message`.
Data is escaped as the Actions runner unescapes it (% \\r \\n as %25 %0D %0A; in properties
also : and , as %3A %2C), so player text can neither end a command early nor start a new one.
INFO findings become `notice` annotations. A log on which some check was not (wholly) judged, or
whose start was not compared with the log before (the first log of a game of its own), gets one
`notice` saying so and why, check by check: a check that judged nothing is never a silent pass.
"""
from __future__ import annotations

from collections.abc import Callable

from vlog.checks import continuity
from vlog.findings import Finding, Judgement, LogResult, Report, Severity
from vlog.report._common import evidence_value, judged_line, place, printable

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """Escape a command's message."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a command property value (file=..., title=...)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(log_path: str, finding: Finding) -> str:
    """One workflow command line for one finding."""
    title = finding.check + (f" (rule {finding.rule})" if finding.rule else "")
    lines = [f"{place(finding)}: {finding.message} [{finding.basis.value}]"]
    if finding.subjects:
        lines.append("subjects: " + "; ".join(finding.subjects))
    if finding.evidence:
        lines.append(
            "evidence: " + ", ".join(f"{k}={evidence_value(v)}" for k, v in finding.evidence.items())
        )
    message = "\n".join(printable(line) for line in lines)
    properties = f"file={escape_property(printable(log_path))},title={escape_property(printable(title))}"
    return f"::{COMMANDS[finding.severity]} {properties}::{escape_data(message)}"


def judged_notice(report: Report, log: LogResult) -> str | None:
    """A `notice` for `log` naming each check not (wholly) judged on it and why, and saying when its
    start was not compared with the log before; None when every check judged or had nothing to."""
    lines = []
    joined = log.status(continuity.CHECK_ID)
    if joined.judgement is Judgement.NOTHING and joined.nothing:     # the first log of a game of its own
        lines.append(joined.nothing)
    short = [log.status(c.id) for c in report.all_checks()]
    short = [s for s in short if s.judgement in (Judgement.NOT_JUDGED, Judgement.PARTLY)]
    if not short and not lines:
        return None
    lines[:0] = [judged_line(report, log)]
    lines += [f"{status.check}: {status.reason()}" for status in short]
    message = "\n".join(printable(line) for line in lines)
    title = "vlog: not every check judged" if short else "vlog: start not compared"
    return f"::notice file={escape_property(printable(log.path))},title={escape_property(title)}::{escape_data(message)}"


def render(
    report: Report,
    *,
    min_severity: Severity = Severity.INFO,
    redact: Callable[[str], str] | None = None,
) -> str:
    """One annotation line per finding at or above `min_severity`, then per log one notice when
    some check did not (wholly) judge it (empty text when neither)."""
    if redact is not None:
        report = report.redacted(redact)
    lines = [annotation(log.path, finding) for log, finding in report.findings() if finding.severity >= min_severity]
    lines += filter(None, (judged_notice(report, log) for log in report.logs))
    return "".join(line + "\n" for line in lines)
