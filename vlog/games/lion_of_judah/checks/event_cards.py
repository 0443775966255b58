"""What an event marker is (6.; Random Events Summary): the boxes of the pool and the drawn
events, what the counter data says of each event, where a marker stands, and the constants the
events' text gives (checks/events.py judges the pool and the draws, checks/event_effects.py
what the events do to play).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["POOL_BOX", "DRAWN_BOX", "IPL_HIGH_DATUM", "EventInfo", "event_info", "rp_markers", "place_of",
           "on_map", "Draw"]

POOL_BOX = "event-cup"
DRAWN_BOX = "event-drawn"
IPL_HIGH_DATUM = "whether the IPL was high (9 or more) when Event C1 was rolled (PB 14.6.3)"
C1_NOT_SHOWN = "Event C1 French Somaliland drawn with a roll of 4-6 (the log shows no event draws)"
BDO_TURN = 9
"""PB 14.6.6: a neutral French Somaliland's BdO brigade enters as an Allied unit on turn 9."""
RP_EVENTS = {"A3": ("ethiopian", "EV-05"), "C3": ("italian", "EV-12")}
"""Events that give RPs: the side receiving them and the check judging where they went."""
IPL_MARKER = "it-ipl"
IPL_HIGH, IPL_LOW = 9, 4
"""PB 14.6.3: the IPL is high at 9 or more, low at 4 or less."""
D6_BRIGADES = 3
"""D6 Italian Defeat in Libya: three Commonwealth brigades arrive one turn earlier."""
GASSED = "mk-gassed"
"""PB 13.6.5.1: the marker a gas attack puts on each unit it affects."""
BERBERA = "2311"
IPL_LOW_DATUM = "whether the IPL was low (4 or less) when Event C2 was rolled: +1 makes a 4 a 5 (PB 14.6.3)"
VP_TABLE = "vp-hexes-1940-41"
"""PB 14.4.1: the VP of each hex (0 off the list): an open city needs a roll above it."""
OPEN_CITY_AREAS = ("eritrea", "ethiopia", "italian-somaliland")
"""D9/D10: a town or capital in Eritrea, Ethiopia or Italian Somaliland."""


@dataclass(frozen=True, slots=True)
class EventInfo:
    """What the counter data says of one event marker."""

    code: str                   # "A1" ... "D10", "open-city"
    scenario: str | None
    enters_turn: int | None     # the turn its strategic turn adds it to the pool
    held_by: str | None         # the side the text gives it to, when it is held
    returns: bool               # a No Event marker

    @property
    def open_city(self) -> bool:
        return self.code in ("D9", "D10", "open-city")


def event_info(data: GameData, counter: str | None) -> EventInfo | None:
    """The event a marker's counter stands for (None for a counter without an event code)."""
    if counter is None or counter not in data.counter_ids:
        return None
    record = data.counter(counter)
    props = record["properties"] if "properties" in record else {}

    def prop(key: str) -> Any:
        return props[key].value if key in props else None

    code = prop("event")
    if not isinstance(code, str):
        return None
    enters = prop("enters_pool_on_turn")
    return EventInfo(code, prop("scenario"), enters if isinstance(enters, int) else None,
                     prop("held_by"), prop("returns_to_pool") is True)


def rp_markers(state: GameState, side: str) -> dict[str, tuple[str | None, str | None, int]]:
    """A side's RP markers: id -> (hex, box, RPs shown), the RPs read from the face level
    ("1rp", "2rp", "3rp", "5rp": 7.3.1) of counters typed "rp"."""
    out: dict[str, tuple[str | None, str | None, int]] = {}
    for unit in state.units.values():
        if unit.unit_type != "rp" or unit.side != side:
            continue
        level = unit.level or ""
        value = int(level[:-2]) if level.endswith("rp") and level[:-2].isdigit() else 0
        out[unit.id] = (unit.hex, unit.box, value)
    return out


def place_of(marker: Unit | None) -> str:
    """'pool', 'drawn', a hex number, 'gone' (deleted) or 'box:<id>' / 'off' (elsewhere)."""
    if marker is None:
        return "gone"
    if marker.hex is not None:
        return marker.hex
    if marker.box == POOL_BOX:
        return "pool"
    if marker.box == DRAWN_BOX:
        return "drawn"
    return f"box:{marker.box}" if marker.box else "off"


def on_map(place: str) -> bool:
    return place.isdigit()


@dataclass(slots=True)
class Draw:
    """One draw of an event marker: the turn and step, and the die rolls that followed it."""

    marker: str
    name: str
    turn: int | None
    step: int
    rolls: list[int] = field(default_factory=list)
