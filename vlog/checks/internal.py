"""`vlog/internal`: a game's check that failed while judging a step.

A check that raises does not end the report: the driver (`vlog.replay`) turns the exception
into this warning, naming the hook and what it was judging, the step and the exception's type
and place, and the replay goes on. What that check would have judged at that step was not
judged, and the finding says so. `--debug` prints the traceback too (and exits 4).
"""
from __future__ import annotations

import traceback
from pathlib import Path

from vlog.findings import Basis, Finding, Severity

CHECK_ID = "vlog/internal"
RULE = "Every check runs to its end"
TITLE = "checks that failed while judging"


def _where(exc: BaseException) -> str | None:
    """The innermost frame of the traceback inside vlog: 'games/lion_of_judah/rules.py:12 in f'."""
    root = Path(__file__).resolve().parents[1]
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        path = Path(frame.filename)
        try:
            rel = path.resolve().relative_to(root)
        except ValueError:
            continue
        found = f"{rel.as_posix()}:{frame.lineno} in {frame.name}"
    return found


def crashed(game: str, hook: str, exc: BaseException, *, step: int | None,
            what: str | None = None) -> Finding:
    """The finding for `game`'s `hook` ("begin", "interpret", "check", "end") raising `exc` at
    `step` (None: at the end of the log); `what` names what it was judging (an action kind)."""
    where = _where(exc)
    judging = f"{hook} of {what!r}" if what else hook
    at = ("the starting position" if hook == "begin" else f"step {step}" if step is not None
          else "the end of the log")
    message = (f"the {game} {judging} failed with {type(exc).__name__}"
               f"{f' ({where})' if where else ''}; what it judges at {at} was not judged")
    evidence: dict[str, object] = {"hook": hook, "exception": type(exc).__name__}
    if what:
        evidence["judging"] = what
    if where:
        evidence["where"] = where
    return Finding(CHECK_ID, RULE, Severity.WARNING, Basis.UNVERIFIABLE, step, None, message,
                   evidence=evidence)
