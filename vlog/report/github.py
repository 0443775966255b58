"""The report as GitHub Actions workflow commands, which GitHub shows as annotations.

`::error file=game.vlog,title=lion-of-judah/MV-07 (rule 11.5.3)::step 42, ...: message`.
Data is escaped as the Actions runner unescapes it (% \\r \\n as %25 %0D %0A; in properties
also : and , as %3A %2C), so player text can neither end a command early nor start a new one.
INFO findings become `notice` annotations.
"""
from __future__ import annotations

from collections.abc import Callable

from vlog.findings import Finding, Report, Severity
from vlog.report._common import evidence_value, place, printable

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


def render(
    report: Report,
    *,
    min_severity: Severity = Severity.INFO,
    redact: Callable[[str], str] | None = None,
) -> str:
    """One annotation line per finding at or above `min_severity` (empty text when none)."""
    if redact is not None:
        report = report.redacted(redact)
    return "".join(
        annotation(log.path, finding) + "\n"
        for log, finding in report.findings()
        if finding.severity >= min_severity
    )
