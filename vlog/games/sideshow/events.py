"""The events Sideshow's engine adds to each step (vlog/kit/steps.py), read from the players'
chat (declarations.py) and their rolls: a roll for a labelled purpose, the weather read, the
segment taken, an Operation paid for. Each names its side, so the checks of each event
(data/inventory.json `occasions`: `weather-rolled`, `operation-paid` ...) are told apart."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vlog.kit.steps import Event

if TYPE_CHECKING:  # pragma: no cover
    from vlog.dicestats import DiceRoll

    from .declarations import Operation

__all__ = ["Rolled", "WeatherRolled", "InitiativeRolled", "InitialOpsRolled", "OpgtRolled", "EventRolled",
           "MultipleRolled", "CombatRolled", "RetreatRolled", "PlacementRolled", "AmbushRolled", "LakeRolled", "ROLLED", "WeatherRead", "SegmentChosen",
           "OperationPaid", "StrengthDeclared", "LossDeclared", "DisbandDeclared", "EventNamed"]


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A roll of `side` whose purpose a label gave (a subclass per purpose)."""

    side: str | None
    roll: "DiceRoll"

    @property
    def total(self) -> int | None:
        return self.roll.total

    @property
    def dice(self) -> str:
        return f"{self.roll.n_dice}d{self.roll.n_sides or 6}"


@dataclass(frozen=True, slots=True)
class WeatherRolled(Rolled):
    """The Weather Determination roll (4.0 phase 2)."""


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Rolled):
    """One player's Initiative roll (5.12)."""


@dataclass(frozen=True, slots=True)
class InitialOpsRolled(Rolled):
    """A player's Initial OP roll, which begins his segment (5.21)."""


@dataclass(frozen=True, slots=True)
class OpgtRolled(Rolled):
    """A roll on the Operation Point Generation Table (5.22)."""


@dataclass(frozen=True, slots=True)
class EventRolled(Rolled):
    """A roll on the Random Events Table (16.0)."""


@dataclass(frozen=True, slots=True)
class MultipleRolled(Rolled):
    """A Multiple Attack roll for one more attacking hex (8.23)."""


@dataclass(frozen=True, slots=True)
class CombatRolled(Rolled):
    """A player's combat roll on the CRT (8.25)."""


@dataclass(frozen=True, slots=True)
class RetreatRolled(Rolled):
    """The retreating player's roll for the length of the retreat (8.26)."""


@dataclass(frozen=True, slots=True)
class AmbushRolled(Rolled):
    """The German Ambush roll of a withdrawal with ambush (8.22 type 2)."""


@dataclass(frozen=True, slots=True)
class LakeRolled(Rolled):
    """The roll after announcing a Lake Victoria transfer or assault: 5-6, it does not proceed (14.0)."""


@dataclass(frozen=True, slots=True)
class PlacementRolled(Rolled):
    """A Raise Troops roll on the New German Unit Placement Table (9.13 step 2, 9.16)."""


ROLLED: dict[str, type[Rolled]] = {"weather": WeatherRolled, "initiative": InitiativeRolled,
                                   "initial-ops": InitialOpsRolled, "opgt": OpgtRolled, "event": EventRolled,
                                   "multiple": MultipleRolled, "combat": CombatRolled, "retreat": RetreatRolled,
                                   "placement": PlacementRolled, "ambush": AmbushRolled,
                                   "lake": LakeRolled}
"""A label's purpose -> the event its roll is."""


@dataclass(frozen=True, slots=True)
class WeatherRead(Event):
    """The players read the turn as a Rain turn (`rain`) or not (`dry`)."""

    side: str | None
    rain: bool


@dataclass(frozen=True, slots=True)
class SegmentChosen(Event):
    """A player says he has the Initiative and takes Operations Segment 1 or 2 (5.14)."""

    side: str
    segment: int


@dataclass(frozen=True, slots=True)
class OperationPaid(Event):
    """A player pays for an Operation (5.3)."""

    side: str
    op: "Operation"


@dataclass(frozen=True, slots=True)
class StrengthDeclared(Event):
    """A player says his Committed Strength in the battle (8.25): the CRT column he rolls on."""

    side: str
    sp: int


@dataclass(frozen=True, slots=True)
class LossDeclared(Event):
    """A player says how many SPs his side lost in the battle (8.25)."""

    side: str
    sp: int


@dataclass(frozen=True, slots=True)
class DisbandDeclared(Event):
    """A player says the units he takes off the map next in this phase are disbanded (5.26)."""

    side: str


@dataclass(frozen=True, slots=True)
class EventNamed(Event):
    """The players say which Random Event the last roll on the table gave (16.1 is not in the data)."""

    side: str | None
    letter: str


def describe(event: Any) -> str:
    """A short line for playthroughs."""
    if isinstance(event, Rolled):
        return f"{event.kind} {event.side} {event.dice}={event.total}"
    if isinstance(event, WeatherRead):
        return f"weather-read {'rain' if event.rain else 'dry'}"
    if isinstance(event, SegmentChosen):
        return f"segment-chosen {event.side} {event.segment}"
    if isinstance(event, OperationPaid):
        return f"operation-paid {event.side} {event.op.kind}" + (f" {event.op.hex}" if event.op.hex else "")
    if isinstance(event, EventNamed):
        return f"{event.kind} {event.letter}"
    if isinstance(event, DisbandDeclared):
        return f"{event.kind} {event.side}"
    if isinstance(event, (StrengthDeclared, LossDeclared)):
        return f"{event.kind} {event.side} {event.sp}"
    return event.kind
