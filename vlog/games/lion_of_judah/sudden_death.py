"""Sudden death (VC-04, PB 13.4.3; VC-08, PB 14.4.3): the game ends the instant its condition
holds, and play after that step should not have happened.

A ledger on the kit's protocol (vlog/kit/ledger.py): at each step it notes whether the condition
now holds, from the hex control the engine's interpreter keeps (3.2); `play` reports the first
action of a later step (a move, a placement, an attack, the turn track moving on), once.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, PlayLedger, finding
from vlog.games.lion_of_judah.step_events import PhaseTurned

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event
    from vlog.kit.steps import StepView

__all__ = ["SuddenDeath", "SUDDEN_DEATH_1935", "ALLIED_HOME_USS"]

SUDDEN_DEATH_1935 = ("1305", "1405", "2322")
"""PB 13.4.3: Asmara, Massawa, Mogadishu."""
ALLIED_HOME_USS = {"Sudan": ("0505", "0508", "1001"), "Kenya": ("1122", "1327"),
                   "British Somaliland": ("2311",)}
"""PB 14.4.3 and 14.6.1.2: the Allied USS hexes of each initial home country."""


class SuddenDeath(PlayLedger):
    """When the sudden death condition first held, and whether play after it was reported."""

    def __init__(self) -> None:
        self.at: tuple[str, int] | None = None
        """(the hex taken, or the home countries left; the step) once the condition held."""
        self.reported = False

    def step(self, view: "StepView") -> Iterable["Finding"]:
        if self.at is not None or view.index is None:
            return ()
        control, scenario = self.game.interpreter.control, self.game.scenario
        if scenario == "1935-36":
            for hex_ in SUDDEN_DEATH_1935:            # PB 13.4.3
                if control.get(hex_) == "ethiopian":
                    self.at = (hex_, view.index)
                    break
        elif scenario == "1940-41":
            countries = [c for c, hexes in ALLIED_HOME_USS.items()       # PB 14.4.3
                         if any(control.get(h, "allied") == "allied" for h in hexes)]
            if len(countries) <= 1:
                self.at = ("/".join(countries) or "none", view.index)
        return ()

    @REGISTRY.reports("VC-04", "VC-08")
    def play(self, action: "Event") -> list["Finding"]:
        """VC-04, VC-08: `action` (an event, step_events.py), of a step after the game ended, is play that should not
        have happened (reported for the first such action only)."""
        if self.at is None or self.reported or action.step <= self.at[1]:
            return []
        self.reported = True
        where, at_step = self.at
        unit = getattr(action, "unit", None)
        subjects = (unit.name,) if unit is not None else tuple(u.name for u in getattr(action, "attackers", ()))
        if isinstance(action, PhaseTurned):
            when, what = action.new.when(), f"the turn track moved on to {action.new.when()}"
        else:
            when, what = getattr(action, "when", None), {"move": "a unit moved", "appear": "a unit was placed",
                                             "combat": "an attack was declared"}.get(action.kind, "play went on")
        if self.game.scenario == "1935-36":
            return [finding("VC-04", Ruling.PROVEN, step=action.step, when=when, subjects=subjects,
                            message=f"play went on ({what}) after the Ethiopian player gained control "
                                    f"of {hex_label(where, self.game.board)} at step {at_step}: the game "
                                    "ends there in an Ethiopian strategic victory",
                            evidence={"hex": where, "step_of_victory": at_step, "action": action.kind})]
        return [finding("VC-08", Ruling.PROVEN, step=action.step, when=when, subjects=subjects,
                        message=f"play went on ({what}) after step {at_step}, when the Allied player "
                                f"held supply sources in only one home country ({where}): the "
                                "Italian player wins a sudden death victory there",
                        evidence={"countries_left": where, "step_of_victory": at_step,
                                  "action": action.kind})]
