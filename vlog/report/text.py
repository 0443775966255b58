"""A report for people at a terminal: one block per finding, then a summary line.

Rendered with rich into a string. The console never interprets markup or emoji codes and all
player-written text passes through `printable`, so a chat line such as "[bold]:smile:" or an
ANSI escape is shown exactly as typed, never acted upon.
"""
from __future__ import annotations

import html
import io
from collections.abc import Callable, Mapping

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from vlog.findings import Finding, Judgement, LogResult, Report, Severity, needs_text
from vlog.checks import continuity
from vlog.report._common import evidence_value, judged_line, place, printable

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
        head.append(f" {readable(title)}")
    head.append(f"  rule {printable(finding.rule)}" if finding.rule else "  (no rule reference)")
    parts: list[RenderableType] = [head, Text("  " + readable(place(finding)), style="dim")]
    parts.append(Text("  " + readable(finding.message)))
    if finding.subjects:
        parts.append(Text("  subjects: " + "; ".join(readable(s) for s in finding.subjects)))
    if finding.evidence:
        table = Table(box=None, show_header=False, show_edge=False, pad_edge=False, padding=(0, 2, 0, 0))
        table.add_column(no_wrap=True, style="dim")
        table.add_column()
        for key, value in finding.evidence.items():
            table.add_row(Text(readable(str(key))), Text(plain_value(value)))
        parts.append(Padding(table, (0, 0, 0, 4), expand=False))
    return Group(*parts)


def readable(text: str) -> str:
    """Report text as people read it: HTML entities decoded (VASSAL's chat and module names carry
    them, "&rarr;"), then made safe to print (`printable`)."""
    return printable(html.unescape(text))


def plain_value(value: object) -> str:
    """An evidence value as text safe to print, not JSON: a list as "a, b, c", a mapping as
    "key: value; ...", a list of mappings one per line (player text never breaks a line)."""
    if isinstance(value, str):
        return readable(value)
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return "; ".join(f"{readable(str(k))}: {plain_value(v)}" for k, v in value.items()) or "(none)"
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, (Mapping, list, tuple)) for v in value):
            return "\n".join(plain_value(v) for v in value) or "(none)"
        return ", ".join(plain_value(v) for v in value) or "(none)"
    return readable(evidence_value(value))


def _status_table(report: Report, log: LogResult) -> RenderableType:
    """One row per check: how it went on `log` and why."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title="Checks", title_justify="left")
    table.add_column(Text("check"), no_wrap=True)
    table.add_column(Text("status"), no_wrap=True)
    table.add_column(Text("how it went"))
    for check in report.all_checks():
        status = log.status(check.id)
        table.add_row(Text(printable(check.id)), Text(status.judgement.value.replace("-", " ")),
                      Text(printable(status.reason())))
    return table


def _log_heading(log: LogResult, shown: int) -> Text:
    text = Text(printable(log.path), style="bold underline")
    text.append(f"  {_plural(log.steps, 'step')}, {_plural(len(log.findings), 'finding')}", style="none")
    if shown != len(log.findings):
        text.append(f" ({shown} shown)")
    joined = log.status(continuity.CHECK_ID)
    if joined.judgement is Judgement.NOTHING and joined.nothing:     # the first log of a game of its own
        text.append(f"\n  {printable(joined.nothing)}", style="none")
    return text


def summary_line(report: Report) -> str:
    """'3 findings (1 error, 1 warning, 1 info) in 2 logs, 120 steps replayed, 5 checks run.'"""
    counts = report.counts()
    total = sum(counts.values())
    tail = (
        f"in {_plural(len(report.logs), 'log')}, {_plural(sum(l.steps for l in report.logs), 'step')} "
        f"replayed, {_plural(len(report.all_checks()), 'check')} run."
    )
    binding = report.binding()
    if binding is not None:
        tail = tail[:-1] + f"; binding: {binding.summary()}."
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
    verbose: bool = False,
) -> str:
    """The report as plain text (ANSI colours only when `color`); findings below `min_severity`
    are left out of the blocks but still counted in the summary. `verbose` lists how every check
    went on every log (judged how often, or why not)."""
    if redact is not None:
        report = report.redacted(redact)
    console, buffer = make_console(width=width, color=color)
    title = Text(f"vlog {report.tool_version}", style="bold")
    if report.game:
        title.append(f"  game {printable(report.game)}")
    if report.module:
        title.append(f"  module {readable(report.module)}")
    console.print(title)
    titles = {check.id: check.title for check in report.all_checks()}
    for log in report.logs:
        shown = [f for f in log.findings if f.severity >= min_severity]
        console.print()
        console.print(_log_heading(log, len(shown)))
        for finding in shown:
            console.print()
            console.print(_finding_block(finding, titles.get(finding.check)))
        unsettled = [(check.id, u) for check in report.all_checks()
                     for u in log.status(check.id).unsettled if u.by is None]
        unsettled.sort(key=lambda cu: (cu[1].step is not None, cu[1].step or 0))
        if unsettled:
            console.print()
            console.print(Text("Not settled (the data named would settle each):", style="bold"))
            for check_id, u in unsettled:
                where = "whole log" if u.step is None else f"step {u.step}"
                console.print(Text(printable(f"  {where}: {check_id} needs {needs_text(u.data)}")))
        if verbose:
            console.print()
            console.print(_status_table(report, log))
    if report.dice is not None:
        from vlog.report.dice import dice_table

        console.print()
        console.print(dice_table(report.dice))
    console.print()
    if report.all_checks():
        console.print(Text(judged_line(report)))
    console.print(Text(summary_line(report), style="bold"))
    output = buffer.getvalue()
    if color:
        return output
    # rich pads table rows to the console width; trailing blanks only get in the way of diffs
    return "\n".join(line.rstrip() for line in output.split("\n"))
