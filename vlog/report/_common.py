"""Helpers every renderer shares: making player-written text safe to print, and naming places."""
from __future__ import annotations

import json
import unicodedata

from vlog.findings import (CAUSES, MISSING_DATA, NEEDS_MODULE, NOT_BOUND, OTHER_SCENARIO, Finding, Judgement,
                           LogResult, Report)

# Bidirectional controls reorder what a reader sees (the "Trojan Source" trick); they are
# escaped like control characters wherever chat text is printed.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _escape_char(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with control, line/paragraph separator, bidi and unpaired surrogate characters
    shown as \\xNN / \\uNNNN escapes.

    Chat written by players reaches every report; an escape sequence in it must not move the
    cursor, recolour a terminal, start a new line that looks like another finding, or reverse
    the reading order.
    """
    if text.isprintable() and not _BIDI_CONTROLS.intersection(text):
        return text
    out = []
    for ch in text:
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI_CONTROLS:
            out.append(_escape_char(ch))
        else:
            out.append(ch)
    return "".join(out)


def place(finding: Finding) -> str:
    """'step 42, Turn 3, Italian movement', or 'whole log' when the finding has no step."""
    where = "whole log" if finding.step is None else f"step {finding.step}"
    return f"{where}, {finding.when}" if finding.when else where


def headline(log: LogResult, finding: Finding) -> str:
    """One line naming a finding for people: 'game.vlog step 42: message'."""
    return f"{log.path} {place(finding)}: {finding.message}"


def evidence_value(value: object) -> str:
    """An evidence value as compact text: strings as they are, everything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(", ", ": "))


SHOWN_CHECKS = 5
"""Checks named in the summary for each of partly judged and not judged (--verbose lists all)."""


def _named(ids: list[str]) -> str:
    shown = ", ".join(ids[:SHOWN_CHECKS])
    return shown + (f" and {len(ids) - SHOWN_CHECKS} more" if len(ids) > SHOWN_CHECKS else "")


def judged_line(report: Report, log: LogResult | None = None) -> str:
    """'Checks: 118 judged, 2 partly judged (...), 71 not judged (60 for missing data: ...; 11 of
    another scenario: ...), 46 had nothing to judge.' over the whole report, or on `log` alone.
    (--verbose says how each went)"""
    by: dict[Judgement, list[str]] = {j: [] for j in Judgement}
    causes: dict[str, list[str]] = {}
    for check in report.all_checks():
        status = (report if log is None else log).status(check.id)
        by[status.judgement].append(check.id)
        if status.judgement is Judgement.NOT_JUDGED:
            causes.setdefault(status.cause or MISSING_DATA, []).append(check.id)
    parts = [f"{len(by[Judgement.JUDGED])} judged"]
    if by[Judgement.PARTLY]:
        parts.append(f"{len(by[Judgement.PARTLY])} partly judged ({_named(by[Judgement.PARTLY])})")
    if by[Judgement.NOT_JUDGED]:
        why = "; ".join(f"{len(ids)} {_CAUSE_TEXT[cause]}: {_named(ids)}" for cause, ids in sorted(causes.items(), key=lambda kv: CAUSES.index(kv[0])))
        parts.append(f"{len(by[Judgement.NOT_JUDGED])} not judged ({why})")
    parts.append(f"{len(by[Judgement.NOTHING])} had nothing to judge")
    return "Checks: " + ", ".join(parts) + "."


_CAUSE_TEXT = {MISSING_DATA: "for missing data", NEEDS_MODULE: "needing the module (--module)",
               OTHER_SCENARIO: "of another scenario", NOT_BOUND: "as the module is not (wholly) bound to the game"}
