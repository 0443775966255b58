"""A game's findings on play a player took back with VASSAL's undo.

A player who drags a unit too far and presses undo has not broken the rule: the drag never
stood. Every rules engine sees an undone step and its undo as ordinary steps (a game may need
both: Lion of Judah's forced-march roll goes with the drag it came before, 11.5.3), so what a
game finds on either is kept but lowered to INFO, naming the undo, and counts as no breach
(exit codes, `--fail-on`); the undo's own finding of the same check on the same pieces (its
inverse move read as a move) is left out, as the lowered one says it. Only undos whose inverse
commands match the step they took back count (`UndoRecord.matched`); an undo after a die roll is
`vlog/undo-after-roll`'s to report.

Only undos VASSAL marked as such count (`UndoRecord.marked`). A log without undo markers shows
an undo only as a step that exactly reverses the one before, and so does a player's own move or
flip back (a second flip may be the very breach: Ascari's MOV-12): its findings stay as they are.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Sequence

from vlog.findings import Finding, Severity

if TYPE_CHECKING:  # pragma: no cover
    from vlog.replay import UndoRecord

EVIDENCE_KEY = "taken_back_by_undo"
"""Evidence key of a lowered finding: the step of the undo that took its step back."""


def undone_steps(undos: Iterable["UndoRecord"]) -> dict[int, "UndoRecord"]:
    """Step -> the marked undo that took it back, for the undone step and for the undo itself."""
    out: dict[int, "UndoRecord"] = {}
    for undo in undos:
        if undo.matched and undo.marked and undo.target is not None:
            out.setdefault(undo.target, undo)
            out.setdefault(undo.step, undo)
    return out


def lower(findings: Sequence[Finding], undos: Iterable["UndoRecord"], game_id: str) -> list[Finding]:
    """`findings` with the game's findings on a step an undo took back (or on the undo) lowered to INFO."""
    taken = undone_steps(undos)
    if not taken:
        return list(findings)
    prefix = game_id + "/"
    undone = {(f.check, f.subjects, taken[f.step].step) for f in findings
              if f.step is not None and f.step in taken and taken[f.step].step != f.step}
    out = []
    for f in findings:
        undo = taken.get(f.step) if f.step is not None else None
        if undo is None or not f.check.startswith(prefix) or f.severity is Severity.INFO:
            out.append(f)
        elif undo.step == f.step and (f.check, f.subjects, undo.step) in undone:
            continue                    # the undo read as the same breach again: said once
        else:
            what = "this step is the undo" if undo.step == f.step else f"the undo at step {undo.step} took this step back"
            out.append(replace(f, severity=Severity.INFO, message=f"{f.message} (not counted: {what})",
                               evidence={**f.evidence, EVIDENCE_KEY: undo.step}))
    return out
