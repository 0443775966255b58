"""A game's findings on play a player took back with VASSAL's undo.

A player who drags a unit too far and presses undo has not broken the rule: the drag never
stood. Every rules engine sees an undone step and its undo as ordinary steps (a game may need
both: Lion of Judah's forced-march roll goes with the drag it came before, 11.5.3), so what a
game finds on either is kept but lowered to INFO, naming the undo, and counts as no breach
(exit codes, `--fail-on`); the undo's own finding of the same check on the same pieces (its
inverse move read as a move) is left out, as the lowered one says it. Only undos whose inverse commands match the step they took back
count (`UndoRecord.matched`); an undo after a die roll is `vlog/undo-after-roll`'s to report.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Sequence

from vlog.findings import Finding, Severity

if TYPE_CHECKING:  # pragma: no cover
    from vlog.replay import UndoRecord

EVIDENCE_KEY = "taken_back_by_undo"
"""Evidence key of a lowered finding: the step of the undo that took its step back."""


def undone_steps(undos: Iterable["UndoRecord"]) -> dict[int, int]:
    """Step -> the undo step that took it back, for the undone step and the undo itself."""
    out: dict[int, int] = {}
    for undo in undos:
        if undo.matched and undo.target is not None:
            out.setdefault(undo.target, undo.step)
            out.setdefault(undo.step, undo.step)
    return out


def lower(findings: Sequence[Finding], undos: Iterable["UndoRecord"], game_id: str) -> list[Finding]:
    """`findings` with the game's findings on an undone step (or on its undo) lowered to INFO."""
    taken = undone_steps(undos)
    if not taken:
        return list(findings)
    prefix = game_id + "/"
    undone = {(f.check, f.subjects, taken[f.step]) for f in findings
              if f.step is not None and taken.get(f.step, f.step) != f.step}
    out = []
    for f in findings:
        undo = taken.get(f.step) if f.step is not None else None
        if undo is None or not f.check.startswith(prefix) or f.severity is Severity.INFO:
            out.append(f)
            continue
        if undo == f.step and (f.check, f.subjects, undo) in undone:
            continue                    # the undo read as the same breach again: said once
        what = "this step is the undo" if undo == f.step else f"the undo at step {undo} took this step back"
        out.append(replace(f, severity=Severity.INFO, message=f"{f.message} (not counted: {what})",
                           evidence={**f.evidence, EVIDENCE_KEY: undo}))
    return out
