"""Warships (16.7): placed on the map in the Amphibious Landing Phase of the scenario's first turn
(4.22b, 16.7), moved only in the Axis Movement Phase (16.71); the Introductory Scenario's are the six it names
(22.25), Operation Hercules has eight (22.34). Which hexes are ocean is printed on the map only:
where a warship goes is not judged."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.kit.steps import Moved, Placed

from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView


@REGISTRY.check("WSH-01")
def judge_warship_placed(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """4.22b: warships come onto the map in the Amphibious Landing Phase of the first turn."""
    if event.unit.kind != "warship" or game.phase is None:
        return []
    phase = game.phase
    first = phase.sequence.first().turn
    if phase.name == "amphibious-landing" and phase.turn == first:
        return []
    unit = event.unit
    return [game.finding("WSH-01", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} was placed in {unit.hex} in the {phase.name} phase of turn "
                                 f"{phase.turn}: warships are placed in the Amphibious Landing Phase of turn {first}",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "hex": unit.hex, "turn": phase.turn, "phase": phase.name})]


@REGISTRY.check("MOV-15")
def judge_warship_moved(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """16.71: warships move only in the Axis Movement Phase."""
    if event.before.kind != "warship" or game.phase is None:
        return []
    unit, after, phase = event.before, event.after, game.phase
    if unit.hex is None or after.hex is None or phase.name == "axis-movement":
        return []
    return [game.finding("MOV-15", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} moved {unit.hex} -> {after.hex} in the {phase.name} phase: "
                                 f"warships move only in the Axis Movement Phase",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "from": unit.hex, "to": after.hex, "phase": phase.name})]


INTRO_WARSHIPS = frozenset({"ax-ws-trieste", "ax-ws-gorizia", "ax-ws-cadorna", "ax-ws-aviere", "ax-ws-alpino",
                            "ax-ws-corazziere"})
"""22.25: the six warships of the Introductory Scenario, by name."""
HERCULES_WARSHIPS = 8
"""22.34: Operation Hercules has eight warships."""


@REGISTRY.check("SCN-04", event=Placed)
def judge_scenario_warships(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """22.25, 22.34: the Introductory Scenario's warships are the six it names; Hercules has eight."""
    unit = event.unit
    if unit.kind != "warship" or game.scenario is None:
        return []
    evidence = {"unit": unit.counter, "hex": unit.hex, "scenario": game.scenario}
    if game.scenario == "intro" and unit.counter not in INTRO_WARSHIPS:
        return [game.finding("SCN-04", Ruling.PROVEN, step=event.step,
                             message=f"{unit.label()} was placed in {unit.hex}: the warships of the Introductory "
                                     f"Scenario are the six it names (22.25)",
                             subjects=(unit.name,), evidence={**evidence, "named": sorted(INTRO_WARSHIPS)})]
    if game.scenario != "hercules":
        return []
    on_map = [u.counter for u in game.units(view.after).values() if u.kind == "warship" and u.hex is not None]
    if len(on_map) <= HERCULES_WARSHIPS:
        return []
    return [game.finding("SCN-04", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} was placed in {unit.hex}, the {len(on_map)}th warship on the map: "
                                 f"Operation Hercules has {HERCULES_WARSHIPS} (22.34)",
                         subjects=(unit.name,), evidence={**evidence, "count": len(on_map),
                                                          "limit": HERCULES_WARSHIPS})]
