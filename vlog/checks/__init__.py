"""Checks every log gets, whatever the game: they need only the log, the table and the dice.

Each module holds one check with its id ("vlog/<name>"), a short rule text and `check(...)`
returning findings; `GENERIC_CHECKS` lists them for reports (JUnit shows passing ones too).
"""
from __future__ import annotations

from vlog.checks import continuity, module_mismatch, undo_after_roll, unparsed
from vlog.findings import CheckInfo

__all__ = ["GENERIC_CHECKS", "continuity", "module_mismatch", "undo_after_roll", "unparsed"]

GENERIC_CHECKS: tuple[CheckInfo, ...] = tuple(
    CheckInfo(m.CHECK_ID, m.RULE, m.TITLE)
    for m in (undo_after_roll, continuity, module_mismatch, unparsed)
)
