"""The Surrender Phase (4.41, 20.0): in every End of Turn the Allied player rolls two dice.

A Surrender Phase the turn tracker shows is over when the tracker leaves it and its turn's Turn
Transition; two dice rolled in either (at once or one by one) count as the surrender roll. A log that ends in the phase
is not judged (the roll may come in the next one). The roll's result is not judged: its
modifiers (20.0) rest on hex control, eliminated steps and HQs this engine does not yet keep.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import PhaseChanged

from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

END_OF_TURN = ("surrender", "turn-transition")


class Surrender(Ledger):
    """The open Surrender Phase: its turn, the step it began and whether two dice were rolled."""

    def __init__(self) -> None:
        self.open: tuple[int, int | None] | None = None
        self.rolled = False
        self.dice = 0
        self.in_end_of_turn = False

    def step(self, view: "StepView") -> tuple[()]:
        if self.in_end_of_turn:
            self.dice += sum(getattr(r, "n_dice", 0) for r in view.rolls)
            self.rolled = self.dice >= 2
        return ()


@REGISTRY.check("VIC-01")
def judge_surrender_roll(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """4.41: a surrender roll (2d6) in every Surrender Phase."""
    if event.new is None:
        return []
    ledger: Surrender = game.surrender
    out = []
    new: Any = event.new
    if ledger.open is not None and (new.turn != ledger.open[0] or new.name not in END_OF_TURN):
        if not ledger.rolled:
            out.append(game.finding("VIC-01", Ruling.PROVEN, step=event.step,
                                    message=f"the Surrender Phase of turn {ledger.open[0]} (step {ledger.open[1]}) "
                                            f"ended with no surrender roll (two dice)",
                                    evidence={"turn": ledger.open[0], "surrender_phase_step": ledger.open[1]}))
        ledger.open, ledger.rolled, ledger.dice = None, False, 0
    ledger.in_end_of_turn = new.name in END_OF_TURN
    if new.name == "surrender":
        ledger.open, ledger.rolled, ledger.dice = (new.turn, event.step), False, 0
    return out
