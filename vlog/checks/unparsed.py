"""`vlog/unparsed`: entries vlog could not interpret or apply, each with its raw text.

Nothing is skipped silently. Entries a module's own command encoder wrote (VASL's `INFO`, `bd`,
`OBA/`: well formed, but no VASSAL command) are kept raw and counted as INFO — every VASL log has
them, and they are no fault of the log. Payloads whose fields do not parse and moves of pieces
that are not on the table are what vlog cannot read: warnings. The starting position's entries
are gathered in one finding of each kind.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable, Sequence

from vlog.findings import Basis, Finding, Severity
from vlog.table import MODULE_COMMAND, Problem

CHECK_ID = "vlog/unparsed"
RULE = "Every logged entry can be interpreted"
TITLE = "entries that could not be interpreted"
MAX_LISTED = 50
"""Starting-position entries listed one by one in the evidence; the rest are counted."""


def _head(raw: str) -> str:
    return raw.split("\t", 1)[0].split("/", 1)[0][:40] or raw[:40]


NOT_SHOWN = "(not shown: it names a masked or invisible piece)"


def _severity(problem: Problem) -> Severity:
    return Severity.INFO if problem.kind == MODULE_COMMAND else Severity.WARNING


def _start_finding(start: Sequence[Problem], severity: Severity) -> Finding:
    kinds = Counter(_head(p.raw) for p in start)
    entries = f"{len(start)} entr{'y' if len(start) == 1 else 'ies'} of the starting position"
    was = "was" if len(start) == 1 else "were"
    what = (f"{was} written by the module's own command encoder, kept raw" if severity is Severity.INFO
            else "could not be interpreted")
    return Finding(
        check=CHECK_ID, rule=RULE, severity=severity, basis=Basis.UNVERIFIABLE,
        step=0, when="starting position",
        message=f"{entries} {what} ({', '.join(sorted(kinds))})",
        subjects=tuple(sorted(kinds)),
        evidence={"count": len(start),
                  "entries": [{"kind": p.kind, "problem": p.message, "raw": p.raw}
                              for p in start[:MAX_LISTED]]})


def check(problems: Sequence[Problem], *, redact: Callable[[str], str] | None = None,
          referee: bool = False) -> list[Finding]:
    """One finding per problem in the steps; for the starting position, one for the module's own
    entries (INFO) and one for the rest (WARNING).

    `redact` replaces player ids (passwords) in the raw text, which a MovePiece carries; the raw
    text and message of a problem naming a concealed piece are shown only to a `referee`.
    """
    if redact is not None:
        problems = [Problem(p.step, p.kind, redact(p.message), redact(p.raw), p.concealed)
                    for p in problems]
    if not referee:
        problems = [Problem(p.step, p.kind, "a command of a concealed piece could not be interpreted",
                            _head(p.raw) + "/" + NOT_SHOWN, True) if p.concealed else p
                    for p in problems]
    findings: list[Finding] = []
    for severity in (Severity.INFO, Severity.WARNING):
        start = [p for p in problems if p.step == 0 and _severity(p) is severity]
        if start:
            findings.append(_start_finding(start, severity))
    for p in problems:
        if p.step == 0:
            continue
        findings.append(Finding(
            check=CHECK_ID, rule=RULE, severity=_severity(p), basis=Basis.UNVERIFIABLE,
            step=p.step, when=None, message=f"{p.message}: {p.raw[:80]}",
            subjects=(_head(p.raw),),
            evidence={"kind": p.kind, "problem": p.message, "raw": p.raw}))
    return findings
