"""`vlog/undo-after-roll`: a die roll, or the action that followed it, taken back with Undo.

In play by e-mail a roll stands once made; undoing it (and rolling again) or undoing the move
that followed a roll (to play differently knowing the dice) is what this check shows, with the
rolls undone and what was rolled instead as evidence.

* The undo takes back a step holding a roll: ERROR, PROVEN (the log shows both).
  Logs from VASSAL versions that did not mark undos are read too: a step that is exactly the
  inverse of the step before (with VASSAL's "* UNDO: " report of the roll) is such an undo.
* The undo takes back the step right after a roll: WARNING, POSSIBLE (the player may have
  fixed a slip of the mouse that had nothing to do with the dice).
"""
from __future__ import annotations

from typing import Any, Sequence

from vlog.dicestats import DiceRoll
from vlog.findings import Basis, Finding, Severity

CHECK_ID = "vlog/undo-after-roll"
RULE = "A die roll, and the action it decided, may not be taken back"
TITLE = "undo after a die roll"


def _roll_data(roll: DiceRoll) -> dict[str, Any]:
    return {"step": roll.step, "dice": roll.dice_name, "faces": list(roll.faces),
            "total": roll.total, "player": roll.player}


def _roll_text(roll: DiceRoll) -> str:
    shown = ",".join(str(f) for f in roll.faces) if roll.faces else (
        str(roll.total) if roll.total is not None else "?")
    return f"{roll.dice_name} = {shown}"


def _instead(rolls: Sequence[DiceRoll], after_step: int, undone: Sequence[DiceRoll]) -> list[DiceRoll]:
    """For each roll undone, the first later roll of the same dice by the same player."""
    out: list[DiceRoll] = []
    for old in undone:
        for roll in rolls:
            if roll.step is not None and roll.step > after_step and roll.dice_name == old.dice_name \
                    and (old.player is None or roll.player == old.player) and roll not in out:
                out.append(roll)
                break
    return out


def check(undos: Sequence[Any], rolls: Sequence[DiceRoll], steps: Sequence[Any]) -> list[Finding]:
    """Findings for `UndoRecord`s (vlog.replay) against the log's rolls and steps."""
    by_step: dict[int, list[DiceRoll]] = {}
    for roll in rolls:
        if roll.step is not None:
            by_step.setdefault(roll.step, []).append(roll)
    undo_steps = {s.index for s in steps if s.is_undo}
    findings: list[Finding] = []
    for undo in undos:
        if undo.target is None:
            continue
        evidence: dict[str, Any] = {
            "undo_step": undo.step, "undone_step": undo.target,
            "located_by": undo.located_by, "inverse_matches": undo.matched,
        }
        if not undo.marked:
            evidence["marked"] = False
        # an unmarked undo is recognised by its commands alone; it is proven when it also shows
        # VASSAL's "* UNDO: " report, which no player action writes
        proven = undo.marked or undo.reports_undo
        undone = by_step.get(undo.target, [])
        if undone:
            instead = _instead(rolls, undo.step, undone)
            evidence["undone_rolls"] = [_roll_data(r) for r in undone]
            evidence["rolled_instead"] = [_roll_data(r) for r in instead]
            again = "; rolled instead: " + ", ".join(
                f"{_roll_text(r)} at step {r.step}" for r in instead) if instead else "; not rolled again"
            findings.append(Finding(
                check=CHECK_ID, rule=RULE, severity=Severity.ERROR,
                basis=Basis.PROVEN if proven else Basis.POSSIBLE,
                step=undo.step, when=None,
                message=(f"Undo took back the die roll of step {undo.target} "
                         f"({', '.join(_roll_text(r) for r in undone)}){again}"),
                subjects=tuple(dict.fromkeys(
                    [r.dice_name for r in undone] + [r.player for r in undone if r.player])),
                evidence=evidence,
            ))
            continue
        previous = undo.target - 1
        while previous in undo_steps:
            previous -= 1
        before = by_step.get(previous, [])
        if not before:
            continue
        instead = _instead(rolls, undo.step, before)
        evidence["roll_step"] = previous
        evidence["rolls_before"] = [_roll_data(r) for r in before]
        evidence["rolled_instead"] = [_roll_data(r) for r in instead]
        findings.append(Finding(
            check=CHECK_ID, rule=RULE, severity=Severity.WARNING, basis=Basis.POSSIBLE,
            step=undo.step, when=None,
            message=(f"Undo took back step {undo.target}, the action that followed the die roll "
                     f"of step {previous} ({', '.join(_roll_text(r) for r in before)})"),
            subjects=tuple(dict.fromkeys(
                [r.dice_name for r in before] + [r.player for r in before if r.player])),
            evidence=evidence,
        ))
    return findings
