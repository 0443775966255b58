"""Bombardment (10.1, 10.13, 16.75, 16.76), as the `bombard 1210 with 28, 12` line says it:
who bombards, when, and with what.

* SPC-01: only the active player bombards, in his own Combat Phase (10.1): a bombardment said by
  the other player, or in no Combat Phase, is wrong (its order before the attacks is SEQ-07's).
* SPC-02: each artillery unit or warship bombards at most one hex a turn (10.1, 16.75): a unit
  named on two bombardment lines of one turn; each hex is bombarded once a Combat Phase, on one
  roll (10.13): a second line for a hex after a roll was made is wrong, before any roll POSSIBLE
  (the line may repeat the first); artillery and warships never bombard one hex in one phase.
* SPC-04: the bombarders satisfy the firing conditions of support (10.13, 16.76, as CBT-09):
  artillery or warships only, within their printed range of the hex, artillery prepared, not in
  an enemy ZOC (POSSIBLE where the hexsides decide) and not Demoralized.
* WSH-03: no warship bombards on a Night turn or a Rainy day (16.76; the day's weather as
  checks/weather.py reads it, unknown where the log does not say its roll).

A bombardment line naming no units names nothing to judge but its speaker and phase.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.kit.ledger import Ledger
from vlog.kit.sequence import side_name
from vlog.kit.steps import Declared

from vlog.games.island_of_death.checks.combat import named_units, speaker_side
from vlog.games.island_of_death.checks.support import printed_support, unready_artillery
from vlog.games.island_of_death.checks.weather import weather_of
from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

COMBAT_PHASES = {"axis-combat": "axis", "allied-combat": "allied"}
"""10.1: the phases bombardments are made in, and whose they are."""


class Bombardments(Ledger):
    """The ledger of the bombardments: this turn's by unit, this phase's by hex."""

    def __init__(self) -> None:
        self.turn: int | None = None
        self.bombarded: dict[str, tuple[str, int | None]] = {}
        """Unit id -> (hex bombarded, step said) this turn."""
        self.hexes: dict[str, dict[str, Any]] = {}
        """Hex -> {"step": first line, "rolled": a roll made since, "kinds": artillery/warship}."""

    def step(self, view: "StepView") -> tuple[()]:
        if view.rolls:
            for record in self.hexes.values():
                if record["step"] != view.index:
                    record["rolled"] = True
        return ()

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.hexes = {}
        return ()


@REGISTRY.check("SPC-01", "SPC-02", "SPC-04", "WSH-03", event=Declared)
def judge_bombardment(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """10.1, 10.13, 16.75, 16.76 on a `bombard` line."""
    if event.grammar != "bombard":
        return []
    phase, ledger = game.phase, game.bombardments
    target, names = event.declaration
    side = speaker_side(game, view)
    out: list["Finding"] = []

    def finding(short: str, message: str, evidence: dict[str, Any], ruling: Ruling = Ruling.PROVEN,
                depends_on: tuple[str, ...] = ()) -> None:
        out.append(game.finding(short, ruling, step=event.step, message=message,
                                evidence={"target": target, **evidence}, depends_on=depends_on))

    if phase is not None:
        owner = COMBAT_PHASES.get(phase.name)
        if owner is None:
            finding("SPC-01", f"a bombardment of {target} said in {game.when_of(phase)}: bombardments are made "
                              f"only in a Combat Phase (10.1)", {"phase": phase.name, "turn": phase.turn})
        elif side is not None and side != owner:
            finding("SPC-01", f"the {side_name(side)} player bombards {target} in the {side_name(owner)} Combat "
                              f"Phase: only the active "
                              f"player bombards (10.1)", {"speaker_side": side, "phase": phase.name,
                                                          "turn": phase.turn})
        if ledger.turn != phase.turn:
            ledger.turn, ledger.bombarded = phase.turn, {}
    units = game.units(view.before)
    named = named_units(game, names, target, units, side, ground=False)
    kinds = {"warship" if u.kind == "warship" else "artillery" for u in named if u.is_artillery or u.kind == "warship"}
    record = ledger.hexes.get(target)
    if record is None:
        ledger.hexes[target] = {"step": event.step, "rolled": False, "kinds": set(kinds)}
    else:
        ruling = Ruling.PROVEN if record["rolled"] else Ruling.POSSIBLE
        finding("SPC-02", f"{target} is bombarded again in this Combat Phase (first said at step {record['step']}"
                          f"{', and rolled for' if record['rolled'] else ''}): each hex is bombarded once a phase, on "
                          f"one roll (10.13)", {"first_step": record["step"], "rolled": record["rolled"]}, ruling,
                ("whether the line repeats the first bombardment (no roll was made between them)",)
                if ruling is Ruling.POSSIBLE else ())
        mixed = (record["kinds"] | kinds) == {"artillery", "warship"}
        record["kinds"] |= kinds
        if mixed:
            finding("SPC-02", f"artillery and warships both bombard {target} in this Combat Phase (10.1, 16.75)",
                    {"first_step": record["step"], "kinds": sorted(record["kinds"])})
    zoc = game.zoc(view.before, side) if side is not None else None
    night = game.day_part() == "Night"
    for unit in named:
        if not unit.is_artillery and unit.kind != "warship":
            finding("SPC-04", f"{unit.label()} is named as bombarding {target}: only artillery and warships "
                              f"bombard (10.1)", {"unit": unit.counter, "kind": unit.kind})
            continue
        before = ledger.bombarded.get(unit.id)
        if before is not None:
            finding("SPC-02", f"{unit.label()} bombards {target}, having bombarded {before[0]} this turn (step "
                              f"{before[1]}): each bombarding unit bombards one hex a turn (10.1, 16.75)",
                    {"unit": unit.counter, "first_target": before[0], "first_step": before[1]})
        else:
            ledger.bombarded[unit.id] = (target, event.step)
        reach = printed_support(game, unit, "range")
        distance = game.board.distance(unit.hex, target)
        if isinstance(reach, int) and distance > reach:
            finding("SPC-04", f"{unit.label()} bombards {target}, {distance} hexes away: its range is {reach} "
                              f"(10.13)", {"unit": unit.counter, "distance": distance, "range": reach})
        elif isinstance(reach, Unknown):
            game.unsettled("SPC-04", event.step, sorted(reach.data))
        if unit.kind == "warship":
            if night:
                finding("WSH-03", f"the warship {unit.label()} bombards {target} on a Night turn (16.76)",
                        {"unit": unit.counter, "time": "Night"})
            elif weather_of(game) == "rainy":
                finding("WSH-03", f"the warship {unit.label()} bombards {target} on a Rainy day (16.76)",
                        {"unit": unit.counter, "weather": "rainy"})
            continue
        for ending, evidence, ruling, data in unready_artillery(game, unit, zoc):
            finding("SPC-04", f"{unit.label()} bombards {target} {ending}", evidence, ruling, data)
    return out
