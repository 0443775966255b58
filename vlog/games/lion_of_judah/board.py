"""The Lion of Judah map as the rules read it: the kit's board view (vlog.kit.board) of its one
map, with the game's own reading of terrain, lines and the TEC.

Errata 11.4.3/12.8: a town/city or amba "always controls" for terrain effects; for movement
the other terrain of the hex counts, and 11.4.1 ambas are mountains for movement. The map
data's `terrain` is that other (predominant) terrain and `features` list town, capital, amba.

Lines: rail, road and dirt track carry movement; while the map's default terrain is unknown
(the map has not been transcribed) any pair of hexes may be joined by an unlisted road, so a
road is an `Unknown` there; once an overlay gives the default terrain the listed lines are
taken to be all the lines there are. A tug (a dry river bed) carries no movement.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Unknown
from vlog.kit import board as kit_board
from vlog.kit.board import hex_label

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.hexes import HexLayout

__all__ = ["Board", "FOOT_MIN_COST", "MOTORIZED_MIN_COST", "MOVEMENT_LINES", "hex_label"]

FOOT_MIN_COST = 1
"""No hex costs a foot unit less than 1 MP (11.4.2: road and rail hexes cost 1)."""
MOTORIZED_MIN_COST = Fraction(1, 2)
"""No hex costs a motorized unit less than the road rate of 1/2 MP (11.4.2)."""
MOVEMENT_LINES = ("rail", "road", "dirt-track")
"""The lines a unit moves along (11.4.2); their unlisted hexes leave the lines between hexes open."""


class Board(kit_board.Board):
    """Read-only rules view of the (single) Lion of Judah map."""

    def __init__(self, data: "GameData", layout: "HexLayout | None" = None):
        super().__init__(data, layout=layout, line_kinds=MOVEMENT_LINES)
        self._tec: dict[tuple[str, str], Any] = {}
        self.move_checks: dict[tuple, tuple] = {}
        """The movement searches' answers, by what they read (checks/movement.py `plain_check`)."""

    def tec(self, row: str, effect: str) -> Any:
        """A TEC entry (number, '+1', 'prohibited', '1L' ...) or Unknown naming the cell; read
        once per cell (a movement search asks the TEC at every hex it reaches)."""
        key = (row, effect)
        if key not in self._tec:
            datum = self.data.lookup("tec", row, effect)
            self._tec[key] = Unknown(f"TEC {row} {effect}") if datum.value is None else datum.value
        return self._tec[key]
