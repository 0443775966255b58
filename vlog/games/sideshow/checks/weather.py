"""Weather (4.0 phase 2): where the Month Turn Track says rain is possible, two dice rolled
higher than the month's Rain Number make a Rain turn; March is a Rain turn without a roll.

The `Weather` ledger keeps each turn's weather roll and how the players read it (`rain` /
`dry`, events.py), and answers whether a turn is a Rain turn (True, False, or None when neither the log
nor the data settles it) for the rules that depend on it (attrition 6.44, ZOC 6.73).
SEQ-09 judges the roll (two dice) and the reading: a dry March, rain in a month without a roll,
and, where the data gives the month's Rain Number, a reading the roll contradicts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from ..events import EventRolled, WeatherRead, WeatherRolled
from ..registry import REGISTRY
from .common import known_turn, month_of, turn_property

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, StepView

    from ..rules import Sideshow

__all__ = ["Weather"]

RAIN_NUMBERS = "scenarios.json rain_numbers"


@dataclass(slots=True)
class Month:
    """One turn's weather: the roll (its total and step), the reading, and any Random Event roll
    (event L brings rain to a segment, 16.2)."""

    roll: int | None = None
    roll_step: int | None = None
    read: bool | None = None
    events: list[int | None] = field(default_factory=list)


class Weather(Ledger):
    """Each turn's weather roll and reading, and the Rain turns they make."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.months: dict[int | None, Month] = {}

    def month(self) -> Month:
        return self.months.setdefault(known_turn(self.game), Month())

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, EventRolled):
            self.month().events.append(event.step)
        return ()

    def rain(self, turn: int | None) -> bool | None:
        """Whether a turn is a Rain turn: the players' reading, else what the roll and the Rain
        Number make it, else None (unknown)."""
        month = self.months.get(turn)
        if month is not None and month.read is not None:
            return month.read
        expected, _ = expected_rain(self.game, turn, month.roll if month else None)
        return expected


def rain_number(game: "Sideshow", turn: int | None) -> tuple[bool, int | None, bool]:
    """(whether the data gives the Month Turn Track, the month's Rain Number or None when no
    rain is possible, whether the month is a Rain turn without a roll)."""
    if turn is None or game.scenario is None:
        return False, None, False
    automatic = bool(turn_property(game.data, game.scenario, turn, "automatic_rain"))
    record = game.data.scenario(game.scenario)
    numbers = record["properties"]["rain_numbers"].value if "rain_numbers" in record["properties"] else None
    month = month_of(game.sequence.labels if game.sequence else {}, turn)
    if not isinstance(numbers, dict) or month not in numbers:
        return False, None, automatic
    return True, numbers[month], automatic


def expected_rain(game: "Sideshow", turn: int | None, roll: int | None) -> tuple[bool | None, str]:
    """Whether the turn is a Rain turn by the rules and the data, with the reason; None when the
    data or the log cannot say."""
    known, number, automatic = rain_number(game, turn)
    if automatic:
        return True, "March is a Rain turn (4.0)"
    if not known:
        return None, f"the month's Rain Number is not known ({RAIN_NUMBERS})"
    if number is None:
        return False, "rain is not possible this month"
    if roll is None:
        return None, "no weather roll"
    return roll > number, f"the weather roll {roll} is {'higher' if roll > number else 'not higher'} than the Rain Number {number}"


@REGISTRY.check("SEQ-09", event=WeatherRolled)
def judge_weather_roll(game: "Sideshow", roll: "WeatherRolled", view: "StepView") -> list["Finding"]:
    """4.0 phase 2: the weather roll is two dice."""
    month = game.weather.month()
    month.roll, month.roll_step = roll.total, roll.step
    if roll.roll.n_dice == 2:
        return []
    return [game.finding("SEQ-09", Ruling.PROVEN, step=roll.step,
                         message=f"the weather roll was {roll.dice}; the Weather Determination Phase rolls two dice (4.0)",
                         evidence={"dice": roll.dice, "roll": roll.total})]


@REGISTRY.check("SEQ-09", event=WeatherRead)
def judge_weather_read(game: "Sideshow", read: "WeatherRead", view: "StepView") -> list["Finding"]:
    """4.0 phase 2: the players' reading of the weather agrees with March, the month's Rain Number
    and the roll; a Random Event rolled this turn (event L, Sudden Rains) may bring rain anyway."""
    month, step = game.weather.month(), read.step
    month.read = read.rain
    turn = known_turn(game)
    if turn is None:
        return []
    expected, reason = expected_rain(game, turn, month.roll)
    read = "a Rain turn" if month.read else "not a Rain turn"
    evidence = {"turn": turn, "read": "rain" if month.read else "dry", "roll": month.roll, "reason": reason}
    if expected is None and month.read and month.roll is None and not month.events:
        why = "rain is not possible without a weather roll higher than the Rain Number"
        return [game.finding("SEQ-09", Ruling.PROVEN, step=step,
                             message=f"the turn was read as a Rain turn with no weather roll: {why} (4.0)",
                             evidence=evidence)]
    if expected is None or expected == month.read:
        return []
    if month.read and month.events:
        return []                    # event L (Sudden Rains) may have brought the rain
    return [game.finding("SEQ-09", Ruling.PROVEN, step=step,
                         message=f"the turn was read as {read}, but {reason}", evidence=evidence)]
