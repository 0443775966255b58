"""(40) The Italian garrisons of the 1940-41 setup (SC-09, PB 14.3.2 IMPORTANT).

At least one Italian brigade or division - not a colonial irregular, not an armoured regiment -
begins at or adjacent to each town, capital and amba hex in Ethiopia. Judged on the position a
log or save begins with, when it begins at the scenario's start (the turn track at turn 1 before
any player phase) and shows an Italian setup (at least one Italian unit on the map; the starts
vlog writes have none, the setup codes being printed on the counters). The hexes judged are
those the map data lists with a town, capital or amba feature; one in Ethiopia by the map data
without a garrison is PROVEN, one whose country the data does not settle is POSSIBLE (one finding
lists them all), as is a garrison only a unit of unknown size could make.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.lion_of_judah.board import Board
    from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["GARRISONED", "garrison_hexes", "judge_garrisons", "qualifies"]

GARRISONED = ("town", "capital", "amba")
ARMOUR_TYPES = frozenset({"armour", "light-armour"})


def qualifies(unit: Unit) -> bool | None:
    """True for an Italian brigade or division other than colonial irregulars and armour; None
    when its size is not known; False otherwise."""
    if unit.side != "italian" or unit.kind != "combat" or unit.hex is None:
        return False
    if unit.unit_class == "italian-colonial-irregular" or unit.unit_type in ARMOUR_TYPES:
        return False
    if unit.size in ("brigade", "division"):
        return True
    return None if unit.size is None else False


def garrison_hexes(board: Board) -> list[tuple[str, bool | Unknown]]:
    """(hex, in Ethiopia?) for every hex the map data lists as a town, capital or amba."""
    out = []
    for hex_ in sorted(board.listed_hexes()):
        if any(board.has_feature(hex_, f) is True for f in GARRISONED):
            inside = board.in_zone(hex_, "ethiopia")
            if inside is not False:
                out.append((hex_, inside))
    return out


@REGISTRY.reports("SC-09")
def judge_garrisons(board: Board, state: GameState, *, step: int | None,
                    when: str | None) -> list[Finding]:
    """SC-09 on the starting position `state` (the caller checks it is the scenario's start)."""
    if not any(u.side == "italian" and u.kind == "combat" and u.hex is not None for u in state.units.values()):
        return []               # no Italian setup on the table: nothing to judge
    layout = board.layout
    proven: list[str] = []
    unsure: list[str] = []
    data: set[str] = set()
    for hex_, inside in garrison_hexes(board):
        around = {hex_} | {layout.name(h) for h in layout.neighbours_on_map(layout.parse(hex_))}
        readings = [qualifies(u) for u in state.units.values() if u.hex in around]
        if any(r is True for r in readings):
            continue
        maybe = any(r is None for r in readings)
        if inside is True and not maybe:
            proven.append(hex_)
            continue
        unsure.append(hex_)
        if isinstance(inside, Unknown):
            data |= set(inside.data)
        if maybe:
            data.add("counters.json size of the Italian units next to " + hex_)
    out = []
    for hex_ in proven:
        out.append(finding("SC-09", Ruling.PROVEN, step=step, when=when,
                           message=f"no Italian brigade or division (colonial irregulars and armour "
                                   f"excepted) begins at or next to {hex_label(hex_, board)}, a town, "
                                   "capital or amba of Ethiopia",
                           evidence={"hex": hex_}))
    if unsure:
        out.append(finding("SC-09", Ruling.POSSIBLE, step=step, when=when,
                           message=f"no Italian brigade or division is known to begin at or next to "
                                   f"{len(unsure)} town, capital or amba hex(es) that may be in Ethiopia",
                           evidence={"hexes": unsure}, depends_on=sorted(data)))
    return out
