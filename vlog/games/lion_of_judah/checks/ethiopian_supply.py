"""(35) Ethiopian units outside Ethiopia (PB 13.6.6.2, SP-12).

Inside Ethiopia the Ethiopian units are always in supply (9.3). Outside it they are in supply
only when in or adjacent to a dirt-track, road or rail hex that connects along track, road or
rail, at any length, to a town or capital in Ethiopian territory; the restrictions of 9.4 apply
to that line: it enters no hex of Italian units and no Italian-controlled town or capital.

`trace_outside_ethiopia` answers for `supply.trace`: LEGAL with the line it found, PROVEN when
no line can exist on the known map, POSSIBLE naming the lines, features or zones the data lack.
"""
from __future__ import annotations

from collections import deque

from vlog.engine.judge import Ruling, Unknown, Verdict
from vlog.engine.supply import SupplyTrace
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["LINE_KINDS", "trace_outside_ethiopia"]

LINE_KINDS = frozenset({"dirt-track", "road", "rail"})
"""PB 13.6.6.2: the lines an Ethiopian supply line follows (not tugs)."""


def _ethiopian_town(board: Board, hex_: str) -> bool | Unknown:
    """A town or capital in Ethiopia (Unknown naming what the data lack)."""
    inside = board.in_zone(hex_, "ethiopia")
    if inside is False:
        return False
    features = [board.has_feature(hex_, f) for f in ("town", "capital")]
    if not any(f is True for f in features):
        missing = [d for f in features if isinstance(f, Unknown) for d in f.data]
        return Unknown(*missing) if missing else False
    return True if inside is True else inside


def _on_line(board: Board, hex_: str) -> bool:
    """Whether a known track, road or rail runs through the hex."""
    for nxt in board.neighbours(hex_):
        kinds = board.line_kinds(hex_, nxt)
        if not isinstance(kinds, Unknown) and kinds & LINE_KINDS:
            return True
    return False


def trace_outside_ethiopia(board: Board, state: GameState, unit: Unit, hex_: str) -> SupplyTrace[str] | None:
    """SP-12 for an Ethiopian unit at `hex_` (1935-36); None inside Ethiopia (a Danakil desert
    hex there: PB 13.6.6.2 speaks only of units outside Ethiopia)."""
    from vlog.games.lion_of_judah.checks.supply import controller

    inside = board.in_zone(hex_, "ethiopia")
    if inside is True:
        return None
    enemy = state.enemy_hexes("ethiopian")
    missing: set[str] = set()
    def italian_town(h: str) -> bool:
        return controller(board, state, h) == "italian" and any(
            board.has_feature(h, f) is True for f in ("town", "capital"))

    starts = [hex_] + [h for h in board.neighbours(hex_) if h not in enemy and not italian_town(h)]
    came_from: dict[str, str | None] = {h: None for h in starts}
    queue = deque(starts)
    while queue:
        here = queue.popleft()
        town = _ethiopian_town(board, here)
        reached = came_from[here] is not None or _on_line(board, here)
        if town is True and reached:
            path = [here]
            while came_from[path[-1]] is not None:
                path.append(came_from[path[-1]])  # type: ignore[arg-type]
            path.reverse()
            if path[0] != hex_:
                path.insert(0, hex_)
            why = f"PB 13.6.6.2: along a line to {hex_label(here, board)}"
            return SupplyTrace(Verdict(Ruling.LEGAL, reasons=(why,)), tuple(path))
        if isinstance(town, Unknown) and reached:
            missing |= town.data
        for nxt in board.neighbours(here):
            if nxt in came_from or nxt in enemy:
                continue
            kinds = board.line_kinds(here, nxt)
            if isinstance(kinds, Unknown):
                missing |= kinds.data
                continue
            if not kinds & LINE_KINDS:
                continue
            if italian_town(nxt):
                continue            # 9.4: never through an enemy-controlled town
            owner = controller(board, state, nxt)
            if isinstance(owner, Unknown):
                missing |= owner.data
            came_from[nxt] = here
            queue.append(nxt)
    if isinstance(inside, Unknown):
        missing |= inside.data
    reason = (f"PB 13.6.6.2: no dirt track, road or rail in or next to {hex_label(hex_, board)} "
              "leads to a town or capital of Ethiopia clear of Italian units and towns")
    if missing:
        data = frozenset(missing)
        return SupplyTrace(Verdict(Ruling.POSSIBLE, depends_on=data, reasons=(reason,)), (hex_,),
                           depends_on=data)
    return SupplyTrace(Verdict(Ruling.PROVEN, reasons=(reason,)), (hex_,))
