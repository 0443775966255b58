"""Stacking at the start of a scenario: which counters may not share a hex (rule 8, PB 13.6.1).

`converters.setup_writer` asks a game package for this before it puts a placement the data
gives as "at or within N hexes of X" onto the units another placement put at X: the setup
"1310, within 2" of two Ethiopian factions (PB 13.3.1) leaves the players free to keep them
apart, and the starting save must not break the stacking rules itself (ST-02 to ST-06).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from vlog.findings import Basis
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.stacking import judge_stacking
from vlog.games.lion_of_judah.state import GameState, unit_from_counter

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData

__all__ = ["stacking_rule"]


def stacking_rule(data: "GameData", scenario: str) -> Callable[[str, Sequence[str]], list[str]]:
    """(hex, counter ids that would share it at the start) -> why that breaks stacking, one
    message per proven violation (empty: the stack is legal, or not known to be illegal)."""
    board = Board(data)

    def problems(hex_: str, counters: Sequence[str]) -> list[str]:
        units = {f"setup-{i}": unit_from_counter(data, counter, id=f"setup-{i}", name=counter, hex_=hex_)
                 for i, counter in enumerate(counters)}
        state = GameState(units, scenario)
        return [f.message for f in judge_stacking(board, state, step=None, when=None)
                if f.basis is Basis.PROVEN]

    return problems
