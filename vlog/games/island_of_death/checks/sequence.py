"""The day and turn structure (4.0-4.4): what the time of day allows, and the end of the game.

Each game turn is one box of the Turn Record Track, labelled in the data with its day and time
("30 June AM", "30 June Night"); the module's turn tracker shows the turn and the phase. An
amphibious landing (a unit placed from a First or Second Wave box) is never made on a Night turn
(4.22, 18.93), and a jump (a unit placed from the Disbandment Box in the Airborne Landing Phase)
never at Noon or Night (4.23, 19.33). After the last turn of the scenario (22.22, 22.32) nothing
more is played.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Moved, Placed

from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

NO_LANDING = {"first-wave": ("Night",), "second-wave": ("Night",)}
"""4.22: no Amphibious Landing Phase on Night turns."""
NO_JUMP = ("Noon", "Night")
"""4.23: no Airborne Landing Phase at Noon or Night."""


class Timeline(Ledger):
    """The ledger of what is said once a game: play after the last turn, a stack that may be over
    the limit (the same units in the same hex)."""

    def __init__(self) -> None:
        self.played_after_end = False
        self.possible_stacks: set[tuple[str, frozenset[str]]] = set()


@REGISTRY.check("SEQ-02")
def judge_landing_time(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """4.22, 4.23: no landing from the wave boxes at Night, no jump at Noon or Night."""
    unit, phase = event.unit, game.phase
    before = game.units(view.before).get(unit.id)
    if phase is None or before is None or before.box is None:
        return []
    part = game.day_part()
    box_type = game.box_type(before.box)
    if box_type in NO_LANDING and part in NO_LANDING[box_type]:
        what, allowed = "landed from the " + game.box_name(before.box), "no amphibious landing on a Night turn (4.22)"
    elif before.box == "disbandment" and phase.name == "airborne-landing" and part in NO_JUMP:
        what, allowed = "jumped from the Disbandment Box", "no Airborne Landing Phase at Noon or Night (4.23)"
    else:
        return []
    return [game.finding("SEQ-02", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} {what} into {unit.hex} on a {part} turn: {allowed}",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "box": before.box, "hex": unit.hex, "time": part,
                                   "turn": phase.turn})]


@REGISTRY.check("SEQ-09")
def judge_after_the_end(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """22.22, 22.32: the scenario ends with the Night turn of its last day."""
    phase = game.phase
    if phase is None or not phase.past_last_turn or game.timeline.played_after_end:
        return []
    game.timeline.played_after_end = True
    unit = event.after
    return [game.finding("SEQ-09", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} moved after the last turn of the scenario "
                                 f"(turn {phase.turn} of {phase.sequence.turns})",
                         subjects=(unit.name,),
                         evidence={"turn": phase.turn, "last_turn": phase.sequence.turns, "unit": unit.counter})]
