"""Renderers: one module per output format, each a pure `render(report, **options) -> str`.

text (people at a terminal), json (machines; schemas/report.schema.json), junit (CI test
pages), sarif (code-scanning services), github (GitHub Actions annotations). Modules are
imported on first use so that a command needing one format does not load the others.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from vlog.findings import Report

FORMATS: tuple[str, ...] = ("text", "json", "junit", "sarif", "github")


def renderer(fmt: str) -> Callable[..., str]:
    """The `render` function of a format named in FORMATS."""
    if fmt not in FORMATS:
        raise ValueError(f"report format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    return importlib.import_module(f"vlog.report.{fmt}").render


def render(report: Report, fmt: str, **options: Any) -> str:
    """`report` in format `fmt`; options go to that format's renderer."""
    return renderer(fmt)(report, **options)
