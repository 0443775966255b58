"""(35) The reader's part of the Ethiopian activations (checks/activation.py judges them): the
declarations of a step's chat as events, the die roll a declaration waits for (so it is not read
as a forced-march roll), and the Ethiopian units taken off the map in the End of Turn Phase.
"""
from __future__ import annotations

from typing import Any

from vlog.games.lion_of_judah.state import GameState, changed_ids
from vlog.games.lion_of_judah.step_events import ActivationDeclaration, ActivationRoll, EthiopianRemoval

__all__ = ["EVENTS", "ActivationReader"]

EVENTS = (ActivationDeclaration, ActivationRoll, EthiopianRemoval)
"""The events `ActivationReader` adds to a step's."""


class ActivationReader:
    """The interpreter's part: the declarations of a step's chat, the die roll they take (so it
    is not read as a forced-march roll), and Ethiopian units taken off the map in the End of
    Turn Phase. `needs_roll` is the judge's: whether a declared activation or attrition still
    waits for its roll."""

    def __init__(self) -> None:
        self.needs_roll: Any = lambda: False

    def read(self, step: Any, before: GameState, after: GameState, rolls: list[int],
             interp: Any, decls: list[Any]) -> tuple[list[int], list[Any]]:
        """(the rolls left for moves and combats, the events to add) for one step whose
        activation declarations (interpret.CHAT) are `decls`."""
        from vlog.games.lion_of_judah.sequence import infer_phase

        if interp.scenario != "1935-36":
            return rolls, []
        index = step.index
        actions: list[Any] = []
        opens = [d for d in decls if d.kind in ("activate", "great-offensive")]
        if opens and interp.phase is not None and not interp.phase_bound:
            actions += interp._set_phase(infer_phase(interp.phase, "ethiopian", "movement"), index, before)
        if opens and interp.pending is not None:
            actions.append(interp._close(index))    # a new activation: the last one's combats are over
        for decl in decls:
            actions.append(ActivationDeclaration(index, decl, when=interp.when()))
        combat_waits = interp.pending is not None and interp.pending.roll is None
        wants = self.needs_roll() or any(
            d.kind in ("attrition", "negus-availability") or (d.kind == "activate" and d.subject.casefold() not in ("negus", "the negus"))
            for d in decls)
        if wants and rolls and not combat_waits:
            actions.append(ActivationRoll(index, rolls[0], when=interp.when()))
            rolls = rolls[1:]
        phase = interp.phase
        if phase is not None and phase.key == "end" and interp.phase_bound:
            for uid in changed_ids(before, after):     # an unchanged unit stayed where it was
                old, new = before.units[uid], after.units.get(uid)
                if old.hex is not None and old.side == "ethiopian" and (new is None or new.hex is None):
                    actions.append(EthiopianRemoval(index, old, when=interp.when()))
        return rolls, actions
