"""What the Booty revolt check (checks/revolt.py, SCN-01) keeps from step to step: the Italian
move whose Booty rolls are due, the Camels it brought in sight, and the single d6 rolled and the
Camels flipped since (rolls of a fire open then are the fire's)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vlog.engine.judge import Unknown
from vlog.games.ascari.fires import _one_dice
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Flipped

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import Event, StepView

__all__ = ["Due", "Revolts", "Window", "REVOLT_RANGE", "REVOLTS_ON"]

REVOLT_RANGE = 3
"""S1.2: a clear LOS to a Camel within a 3 hexes range."""
REVOLTS_ON = 3
"""S1.2: a result equal to or greater than 3 flips the Camel to its Women side."""


@dataclass(frozen=True, slots=True)
class Due:
    """A Camel the move brought in sight: its piece, hex, the distance and whether the line is
    surely clear (True) or clear only if the map data is (Unknown)."""

    booty: str
    name: str
    hex: str
    distance: int
    sight: "bool | Unknown"


@dataclass
class Window:
    """One Italian unit's move and what followed it until the next move or the phase's end."""

    step: int | None
    unit: str
    frm: str
    to: str
    due: list[Due]
    rolls: list[int] = field(default_factory=list)
    flipped: set[str] = field(default_factory=set)
    fire_rolls: int = 0
    """The d6 rolled while a fire was open: more than one may hold a Booty roll among them."""


class Revolts(Ledger):
    """The move whose Booty rolls are due, with the rolls and flips since."""

    def __init__(self, game: "Ascari") -> None:
        self.game = game
        self.window: Window | None = None

    def begin(self, view: "StepView") -> tuple:
        self.window = None
        return ()

    def step(self, view: "StepView") -> tuple:
        if self.window is not None and view.step is not None:
            if self.game.fires.open is None:
                self.window.rolls += _one_dice(view)
            else:
                self.window.fire_rolls += len(_one_dice(view))
        return ()

    def event(self, event: "Event", view: "StepView") -> tuple:
        if self.window is not None and isinstance(event, Flipped) and event.before.type == "booty" \
                and event.before.level == "front" and event.after.level != "front":
            self.window.flipped.add(event.before.id)
        return ()
