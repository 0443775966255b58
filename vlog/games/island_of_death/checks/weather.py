"""The day's weather (17.2) and what it forbids: jumps in Rain (19.35), air support by the
weather and the time of day (16.41, 16.42).

The first day of a scenario is Clear. On a later day the weather is the Weather table's reading
(tables.json `weather`, 17.2) of the two dice the Axis player rolls after saying `weather` in
that day's Initial Segment; a day whose roll the log does not say has an unknown weather, and
the checks that need it are not judged there, naming it.

* JMP-06: no unit jumps (is placed from the Disbandment Box in the Airborne Landing Phase) on a
  Rainy day: all jumps are cancelled (19.35, 4.23a).
* SPC-10: an air support marker is placed on the map only in the Axis Combat or Penetration
  Phase (16.42); that its hex is under attack is not judged (the attack may be declared after).
* SPU-10: never on a Night turn, and no more markers placed in one day than the weather allows:
  Clear 3, Cloudy 1, Rainy 0 (16.41; the Royal Navy's intervention, 17.6, may only lower it).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared, Placed

from vlog.games.island_of_death.checks.sequence import first_day
from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

WEATHER_DICE = 2
AIR_SUPPORT = "ax-air-support"
AIR_SUPPORT_PHASES = ("axis-combat", "axis-penetration")
"""16.42: the phases air support markers are placed in."""
AIR_SUPPORT_BY_WEATHER = {"clear": 3, "cloudy": 1, "rainy": 0}
"""16.41: air support markers available a day."""


class Weather(Ledger):
    """The ledger of the weather: each day's (by its label without the time) and the roll it
    waits for; the air support markers placed each day."""

    def __init__(self) -> None:
        self.days: dict[str, tuple[str, int | None]] = {}
        """Day ("1 July") -> (weather, the step of its roll)."""
        self.waiting: str | None = None
        """The day whose weather roll is the next two dice (after a `weather` line)."""
        self.air_support: dict[str, list[int | None]] = {}
        """Day -> the steps an air support marker was placed on the map."""

    def step(self, view: "StepView") -> tuple[()]:
        if self.waiting is None:
            return ()
        for roll in view.rolls:
            total = getattr(roll, "total", None)
            if getattr(roll, "n_dice", 0) == WEATHER_DICE and isinstance(total, int):
                self.days[self.waiting] = (self.reading(total), view.index)
                self.waiting = None
                break
        return ()

    reading: Any = None
    """total -> weather: the data's Weather table, set by the game."""


def day_of(phase: Any) -> str | None:
    """'1 July' for a phase of turn '1 July PM'."""
    label = phase.sequence.labels.get(phase.turn) if phase is not None else None
    return label.rsplit(" ", 1)[0] if label else None


def weather_of(game: "IslandOfDeath", phase: Any = None) -> str | None:
    """The weather of the phase's day: Clear on the first day, else as its roll read (None:
    the log does not say)."""
    phase = phase if phase is not None else game.phase
    if phase is None:
        return None
    if first_day(game, phase):
        return "clear"
    found = game.weather.days.get(day_of(phase) or "")
    return found[0] if found is not None else None


def _unknown(phase: Any) -> str:
    return f"the weather roll of {day_of(phase)} (chat `weather` before it, 17.2)"


def weather_reading(game: "IslandOfDeath") -> Any:
    """The Weather table of the data (17.2) as total -> weather."""
    table = game.data.table("weather")
    return lambda total: table.lookup(str(total)).value


@REGISTRY.check("JMP-06", event=Declared)
def note_weather_roll(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """A `weather` line in an Initial Segment: the next two dice are the day's weather roll."""
    phase = game.phase
    if event.grammar != "weather" or phase is None or phase.name != "initial-segment" or first_day(game, phase):
        return []
    if game.weather.reading is None:
        game.weather.reading = weather_reading(game)
    game.weather.waiting = day_of(phase)
    return []


@REGISTRY.check("JMP-06", event=Placed)
def judge_jump_in_rain(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """19.35: all jumps are cancelled on a Rainy day."""
    unit, phase = event.unit, game.phase
    old = game.units(view.before).get(unit.id)
    if phase is None or phase.name != "airborne-landing" or old is None or old.box != "disbandment" \
            or unit.side != "axis" or not unit.is_ground_unit:
        return []
    weather = weather_of(game)
    if weather is None:
        game.unsettled("JMP-06", event.step, [_unknown(phase)])
        return []
    if weather != "rainy":
        return []
    rolled = game.weather.days.get(day_of(phase) or "", (None, None))[1]
    return [game.finding("JMP-06", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} jumped to {unit.hex} on {day_of(phase)}, a Rainy day (the weather "
                                 f"roll of step {rolled}): every jump is cancelled in Rain (19.35)",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "hex": unit.hex, "weather": weather, "day": day_of(phase),
                                   "weather_step": rolled})]


@REGISTRY.check("SPC-10", "SPU-10", event=Placed)
def judge_air_support(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """16.41, 16.42: air support markers in the Axis Combat or Penetration Phase of a day turn,
    no more a day than its weather allows."""
    unit, phase = event.unit, game.phase
    if unit.counter != AIR_SUPPORT or phase is None:
        return []
    evidence = {"unit": unit.counter, "hex": unit.hex, "phase": phase.name, "turn": phase.turn}
    if phase.name not in AIR_SUPPORT_PHASES:
        return [game.finding("SPC-10", Ruling.PROVEN, step=event.step,
                             message=f"an air support marker was placed on {unit.hex} in {game.when_of(phase)}: "
                                     f"only in the Axis Combat or Penetration Phase (16.42)",
                             subjects=(unit.name,), evidence=evidence)]
    if game.day_part() == "Night":
        return [game.finding("SPU-10", Ruling.PROVEN, step=event.step,
                             message=f"an air support marker was placed on {unit.hex} on a Night turn: none is "
                                     f"available at Night (16.41)",
                             subjects=(unit.name,), evidence={**evidence, "time": "Night"})]
    day = day_of(phase) or ""
    placed = game.weather.air_support.setdefault(day, [])
    placed.append(event.step)
    weather = weather_of(game)
    if weather is None:
        game.unsettled("SPU-10", event.step, [_unknown(phase)])
        return []
    allowed = AIR_SUPPORT_BY_WEATHER.get(weather)
    if allowed is None or len(placed) <= allowed:
        return []
    return [game.finding("SPU-10", Ruling.PROVEN, step=event.step,
                         message=f"air support marker {len(placed)} of {day} placed on {unit.hex}: a {weather.title()} "
                                 f"day has {allowed} (16.41)",
                         subjects=(unit.name,),
                         evidence={**evidence, "weather": weather, "placed": len(placed), "allowed": allowed,
                                   "steps": list(placed)})]
