"""The rulebook text the data tests check transcriptions against, line by line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

RULEBOOKS = Path(__file__).resolve().parents[2].parent / "shared" / "rulebooks"


def rulebook_lines(game: str) -> list[str]:
    """The lines of ../shared/rulebooks/<game>.txt; skips the test when the folder is absent."""
    path = RULEBOOKS / f"{game}.txt"
    if not path.is_file():
        pytest.skip("../shared/rulebooks is absent")
    return path.read_text(encoding="utf-8").splitlines()


def on_line(book: list[str], line: int, text: str) -> bool:
    return text.casefold() in book[line - 1].casefold()


def cited_line(datum, game: str, *, required: bool = True) -> int | None:
    """The one rulebook line a datum's source cites ("… (<game>.txt line N)"); None when it
    cites none and `required` is False."""
    match = re.search(rf"{re.escape(game)}\.txt line (\d+)\)$", datum.source or "")
    assert match or not required, f"{datum.path}: source {datum.source!r} cites no single line"
    return int(match.group(1)) if match else None
