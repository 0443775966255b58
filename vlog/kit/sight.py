"""Sighting on a hex map: is a hex seen from any of some hexes within one or two hexes, where
the terrain of the hex itself or of the hex between may hide it.

Many games let a unit find a target only next to it, or two hexes away with nothing hiding it
in the target hex or in the hex between (Island of Death's discovery, 10.11). Two hexes two
apart have one hex between them, or two when the line runs along a hexside; the target is seen
past either (a line along a hexside is blocked only where both sides block). Terrain the data
lacks is `Unknown`, and so is the answer it decides.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from vlog.engine.judge import Unknown

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.board import Board

__all__ = ["hexes_between", "seen"]


def hexes_between(board: "Board", a: str, b: str) -> tuple[str, ...]:
    """The hexes next to both `a` and `b` (for hexes two apart: the hex or two hexes between)."""
    near_b = set(board.neighbours(b))
    return tuple(h for h in board.neighbours(a) if h in near_b)


def seen(board: "Board", target: str, observers: Iterable[str], *, far: bool,
         hides: Callable[[str], bool | Unknown]) -> bool | Unknown:
    """Is `target` next to one of the `observers` hexes, or (`far`) two hexes from one with
    neither the target nor a hex between them hiding it (`hides`: True, False or Unknown)?"""
    hexes = set(observers)
    if any(board.distance(h, target) == 1 for h in hexes):
        return True
    two = [h for h in hexes if board.distance(h, target) == 2]
    if not far or not two:
        return False
    hidden = hides(target)
    if hidden is True:
        return False
    clear, open_data = False, set()
    for observer in two:
        for between in hexes_between(board, observer, target):
            blocks = hides(between)
            if blocks is False:
                clear = True
            elif isinstance(blocks, Unknown):
                open_data |= blocks.data
    if isinstance(hidden, Unknown):
        return Unknown(*sorted(set(hidden.data) | open_data)) if clear or open_data else False
    if clear:
        return True
    return Unknown(*sorted(open_data)) if open_data else False
