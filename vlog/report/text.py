"""A report for people at a terminal: one block per finding, then a summary line.

Rendered with rich into a string. The console never interprets markup or emoji codes and all
player-written text passes through `printable`, so a chat line such as "[bold]:smile:" or an
ANSI escape is shown exactly as typed, never acted upon.
"""
from __future__ import annotations

import io
from collections.abc import Callable

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from vlog.findings import Finding, LogResult, Report, Severity
from vlog.report._common import evidence_value, place, printable

_SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold cyan"}


def make_console(*, width: int, color: bool) -> tuple[Console, io.StringIO]:
    """A console writing to a string; no markup, emoji or highlighting, and no terminal sniffing."""
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        markup=False,
        highlight=False,
        emoji=False,
        force_terminal=color,
        color_system="standard" if color else None,
        no_color=not color,
        legacy_windows=False,
        soft_wrap=False,
    )
    return console, buffer


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _finding_block(finding: Finding, title: str | None) -> RenderableType:
    head = Text()
    head.append(finding.severity.value.upper(), style=_SEVERITY_STYLE[finding.severity])
    head.append(f" ({finding.basis.value})  ")
    head.append(printable(finding.check), style="bold")
    if title:
        head.append(f" {printable(title)}")
    head.append(f"  rule {printable(finding.rule)}" if finding.rule else "  (no rule reference)")
    parts: list[RenderableType] = [head, Text("  " + printable(place(finding)), style="dim")]
    parts.append(Text("  " + printable(finding.message)))
    if finding.subjects:
        parts.append(Text("  subjects: " + "; ".join(printable(s) for s in finding.subjects)))
    if finding.evidence:
        table = Table(box=box.SIMPLE, show_header=True, show_edge=False, pad_edge=False)
        table.add_column(Text("evidence"), no_wrap=True)
        table.add_column(Text("value"))
        for key, value in finding.evidence.items():
            table.add_row(Text(printable(str(key))), Text(printable(evidence_value(value))))
        parts.append(Padding(table, (0, 0, 0, 4), expand=False))
    return Group(*parts)


def _log_heading(log: LogResult, shown: int) -> Text:
    text = Text(printable(log.path), style="bold underline")
    text.append(f"  {_plural(log.steps, 'step')}, {_plural(len(log.findings), 'finding')}", style="none")
    if shown != len(log.findings):
        text.append(f" ({shown} shown)")
    return text


def summary_line(report: Report) -> str:
    """'3 findings (1 error, 1 warning, 1 info) in 2 logs, 120 steps replayed, 5 checks run.'"""
    counts = report.counts()
    total = sum(counts.values())
    tail = (
        f"in {_plural(len(report.logs), 'log')}, {_plural(sum(l.steps for l in report.logs), 'step')} "
        f"replayed, {_plural(len(report.all_checks()), 'check')} run."
    )
    if total == 0:
        return f"No findings {tail}"
    detail = ", ".join(
        f"{counts[s.value]} {s.value}" if s is Severity.INFO else _plural(counts[s.value], s.value)
        for s in sorted(Severity, reverse=True)
    )
    return f"{_plural(total, 'finding')} ({detail}) {tail}"


def render(
    report: Report,
    *,
    width: int = 100,
    color: bool = False,
    min_severity: Severity = Severity.INFO,
    redact: Callable[[str], str] | None = None,
) -> str:
    """The report as plain text (ANSI colours only when `color`); findings below `min_severity`
    are left out of the blocks but still counted in the summary."""
    if redact is not None:
        report = report.redacted(redact)
    console, buffer = make_console(width=width, color=color)
    title = Text(f"vlog {report.tool_version}", style="bold")
    if report.game:
        title.append(f"  game {printable(report.game)}")
    if report.module:
        title.append(f"  module {printable(report.module)}")
    console.print(title)
    titles = {check.id: check.title for check in report.all_checks()}
    for log in report.logs:
        shown = [f for f in log.findings if f.severity >= min_severity]
        console.print()
        console.print(_log_heading(log, len(shown)))
        for finding in shown:
            console.print()
            console.print(_finding_block(finding, titles.get(finding.check)))
    if report.dice is not None:
        from vlog.report.dice import dice_table

        console.print()
        console.print(dice_table(report.dice))
    console.print()
    console.print(Text(summary_line(report), style="bold"))
    output = buffer.getvalue()
    if color:
        return output
    # rich pads table rows to the console width; trailing blanks only get in the way of diffs
    return "\n".join(line.rstrip() for line in output.split("\n"))
