"""The report as JSON for machines, following schemas/report.schema.json (draft 2020-12).

Non-ASCII text is written as \\u escapes so the output is plain ASCII: it survives any
encoding a CI system uses and can carry player text that is not valid UTF-8.
"""
from __future__ import annotations

import json
from collections.abc import Callable

from vlog.findings import Report


def render(report: Report, *, indent: int | None = 2, redact: Callable[[str], str] | None = None) -> str:
    """`report.to_dict()` as JSON text ending in a newline."""
    if redact is not None:
        report = report.redacted(redact)
    return json.dumps(report.to_dict(), indent=indent, ensure_ascii=True, allow_nan=False) + "\n"
