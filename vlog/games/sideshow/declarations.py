"""What Sideshow players type in chat to say what a VASSAL log cannot show.

A log records the dice each player rolls and where pieces went, not what a roll was for nor
which Operation a player paid for. Players say it in a few words, one line each (case and
surrounding spaces do not matter); a roll belongs to the last label its player typed:

| line                 | says                                                                  |
|----------------------|-----------------------------------------------------------------------|
| `weather`            | my next 2d6 roll is the Weather Determination roll (4.0 phase 2)      |
| `rain` / `dry`       | the players read this turn as a Rain turn / not (after the roll)      |
| `initiative`         | my next 1d6 roll is my Initiative roll (5.12)                         |
| `segment 1` / `segment 2` | I have the Initiative and take Operations Segment 1 / 2 (5.14)   |
| `ops`                | my next 1d6 roll gives my Initial OPs for this segment (5.21)         |
| `opgt`               | my next 2d6 roll is on the Operation Point Generation Table (5.22)    |
| `op KIND [HEX]`      | I pay for one Operation (5.3): KIND is one of OPERATIONS below; HEX the hex it starts from or targets |
| `event`              | my next 2d6 roll is on the Random Events Table (16.0)                 |
| `multiple`           | my next 1d6 roll is a Multiple Attack roll for one more attacking hex (8.23) |
| `combat`             | my next 1d6 roll is my combat roll on the CRT (8.25)                  |
| `retreat`            | my next 1d6 roll is the length of my retreat (8.26)                   |
| `placement`          | my next 1d6 roll is on the New German Unit Placement Table (9.13 step 2) |
| `ambush`             | my next 1d6 roll is the German Ambush roll of a withdrawal with ambush (8.22 type 2) |
| `lake`               | my next 1d6 roll decides whether my Lake Victoria transfer or assault proceeds (14.0) |
| `strength N`         | my Committed Strength in this battle is N SP (8.25; the log does not show SPs) |
| `loss N`             | my side lost N SP in this battle, as the CRT gave them (8.25)         |
| `event A`            | the Random Event just rolled is A (the Random Events Table is on the map, 16.1) |
| `disband`            | the German units I take off the map next in this phase are disbanded (5.26) |

A log without these lines is still read: the phase from the turn tracker, moves from the table;
what rests on a missing line is not judged, and the report says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from vlog.kit.chat import ChatGrammars
from vlog.vassal.commands import Chat

__all__ = ["GRAMMARS", "OPERATIONS", "Label", "Operation", "SegmentChoice", "WeatherRead", "Points", "Disband", "EventLetter"]

OPERATIONS = {
    "move": "Movement", "rail": "Rail Movement", "sea": "Sea Transfer", "attack": "Attack",
    "amphibious": "Amphibious Assault", "recon": "Reconnaissance", "raise": "Raise Troops",
    "divert": "Divert Reinforcements", "event": "Random Event", "depot": "Construct Depot",
    "rebuild": "Rebuild Rail Hexes", "withdraw": "Withdrawal (1 OP)", "withdraw2": "Withdrawal with Ambush (2 OPs)",
    "reaction": "Rail Reaction",
}
"""The Operations of 5.3, and the two a defender pays for in the enemy's segment (8.22, 8.5)."""

ROLL_LABELS = {"weather": "weather", "initiative": "initiative", "ops": "initial-ops", "opgt": "opgt",
               "event": "event", "multiple": "multiple", "combat": "combat", "retreat": "retreat",
               "placement": "placement", "ambush": "ambush", "lake": "lake"}


@dataclass(frozen=True, slots=True)
class Label:
    """`weather`, `initiative`, `ops`, `opgt`, `event`: what the speaker's next roll is for."""

    purpose: str
    speaker: str | None


@dataclass(frozen=True, slots=True)
class SegmentChoice:
    """`segment 1|2`: the speaker takes that Operations Segment."""

    segment: int
    speaker: str | None


@dataclass(frozen=True, slots=True)
class WeatherRead:
    """`rain` / `dry`: how the players read the turn's weather."""

    rain: bool
    speaker: str | None


@dataclass(frozen=True, slots=True)
class Operation:
    """`op KIND [HEX]`: the speaker pays for one Operation."""

    kind: str
    hex: str | None
    speaker: str | None

    @property
    def title(self) -> str:
        return OPERATIONS[self.kind]


@dataclass(frozen=True, slots=True)
class Points:
    """`strength N` / `loss N`: the speaker's Committed Strength in the battle, or the SPs he lost."""

    what: str
    sp: int
    speaker: str | None


_POINTS = re.compile(r"(?P<what>strength|loss)\s+(?P<sp>\d{1,4})")
_OP = re.compile(r"op\s+(?P<kind>[a-z0-9]+)(?:\s+(?P<hex>\d{4}))?")
_SEGMENT = re.compile(r"segment\s+(?P<n>[12])")


def _words(chat: Chat) -> str:
    return " ".join(chat.message.strip().casefold().split())


def read_label(chat: Chat) -> Label | None:
    purpose = ROLL_LABELS.get(_words(chat))
    return Label(purpose, chat.speaker) if purpose else None


def read_segment(chat: Chat) -> SegmentChoice | None:
    match = _SEGMENT.fullmatch(_words(chat))
    return SegmentChoice(int(match["n"]), chat.speaker) if match else None


def read_weather(chat: Chat) -> WeatherRead | None:
    words = _words(chat)
    return WeatherRead(words == "rain", chat.speaker) if words in ("rain", "dry") else None


def read_operation(chat: Chat) -> Operation | None:
    match = _OP.fullmatch(_words(chat))
    if not match or match["kind"] not in OPERATIONS:
        return None
    return Operation(match["kind"], match["hex"], chat.speaker)


def read_points(chat: Chat) -> Points | None:
    match = _POINTS.fullmatch(_words(chat))
    return Points(match["what"], int(match["sp"]), chat.speaker) if match else None


@dataclass(frozen=True, slots=True)
class Disband:
    """`disband`: the speaker disbands the units he takes off the map next in this phase."""

    speaker: str | None


EVENT_LETTERS = "ABCDEFGHIKLMNOPRSTU"
"""The events of 16.2 (there are no J and Q)."""


@dataclass(frozen=True, slots=True)
class EventLetter:
    """`event A`: the Random Event the speaker's side just rolled is that letter."""

    letter: str
    speaker: str | None


_EVENT = re.compile(r"event\s+(?P<letter>[a-z])")


def read_event_letter(chat: Chat) -> EventLetter | None:
    match = _EVENT.fullmatch(_words(chat))
    letter = match["letter"].upper() if match else ""
    return EventLetter(letter, chat.speaker) if letter and letter in EVENT_LETTERS else None


def read_disband(chat: Chat) -> Disband | None:
    return Disband(chat.speaker) if _words(chat) == "disband" else None


GRAMMARS = ChatGrammars()
GRAMMARS.add("label", read_label)
GRAMMARS.add("segment", read_segment)
GRAMMARS.add("weather", read_weather)
GRAMMARS.add("operation", read_operation)
GRAMMARS.add("points", read_points)
GRAMMARS.add("disband", read_disband)
GRAMMARS.add("event-letter", read_event_letter)
