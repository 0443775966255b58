"""Landing losses (18.5): the die rolled for each unit that lands near the Allies.

A unit (HQs and leaders aside) placed from a First or Second Wave box on a beach hex within two
hexes of any Allied unit owes one die, said in chat (`landing loss 1/33`, checks/unit_rolls.py):
+2 when the beach hex is next to an Allied unit, else +1; 7 or more eliminates it. Judged when
the Amphibious Landing Phase ends:

* AMP-08: a unit whose modified roll reached 7 is still on the map as it was (PROVEN); a unit
  that owed a roll and has none said for it is not judged there, naming the chat line. A unit
  removed after a lower roll may have fallen to Water's Edge Combat (18.6): not judged.
* LDR-09: HQs and leaders take no landing losses; one removed after a roll said for it that
  reached 7 is PROVEN when no Allied unit was next to its beach hex (no Water's Edge fire could
  take it, 18.61), else POSSIBLE.

The Allied units are read on the table as the roll was said (after the landing, before the
Water's Edge Combat of 18.6).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.steps import PhaseChanged, Placed

from vlog.games.island_of_death.checks.landings import WAVE_BOXES
from vlog.games.island_of_death.checks.unit_rolls import LANDING, gone_or_changed, judge_phase_rolls
from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import Position, StepView

NEAR = 2
"""18.5: within two hexes of any Allied unit."""
ELIMINATES = 7
EXEMPT = ("hq", "leader")
"""18.5: HQs and leaders roll no landing losses."""


def nearest_allied(game: "IslandOfDeath", position: "Position", hex_: str) -> tuple[int | None, list[str]]:
    """The distance from `hex_` to the nearest Allied unit, and the units at that distance."""
    best: int | None = None
    units: list[str] = []
    for unit in game.units(position).values():
        if unit.side != "allied" or unit.hex is None or not unit.is_ground_unit:
            continue
        distance = game.board.distance(hex_, unit.hex)
        if best is None or distance < best:
            best, units = distance, [unit.counter]
        elif distance == best:
            units.append(unit.counter)
    return best, sorted(units)


def landing_modifier(distance: int | None) -> int | None:
    """18.5: +2 next to an Allied unit, +1 within two hexes; None when no roll is due."""
    if distance is None or distance > NEAR:
        return None
    return 2 if distance <= 1 else 1


@REGISTRY.check("AMP-08", event=Placed)
def note_landing(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """A unit landing within two hexes of an Allied unit owes a landing-loss roll."""
    unit, phase = event.unit, game.phase
    old = game.units(view.before).get(unit.id)
    if phase is None or phase.name != "amphibious-landing" or old is None or old.box is None \
            or game.box_type(old.box) not in WAVE_BOXES or unit.kind in EXEMPT:
        return []
    distance, _ = nearest_allied(game, view.after, unit.hex)
    if landing_modifier(distance) is not None:
        game.unit_rolls.owe(LANDING, unit, event.step)
    return []


@REGISTRY.check("AMP-08", "LDR-09", event=PhaseChanged)
def judge_landing_losses(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """18.5 at the end of the Amphibious Landing Phase."""
    return judge_phase_rolls(game, event, view, phase_name="amphibious-landing", kind=LANDING,
                             arrived="landed amphibiously", check="AMP-08", say=("landing loss", "18.5"),
                             judge=lambda roll, old, now: _judge_roll(game, roll, old, now))


def _judge_roll(game: "IslandOfDeath", roll: Any, old: Any, now: dict[str, "Unit"]) -> list["Finding"]:
    """One landing-loss roll: +2 next to an Allied unit, +1 within two; 7 or more eliminates."""
    unit = roll.unit
    distance, allied = nearest_allied(game, roll.position, unit.hex)
    modifier = landing_modifier(distance)
    if modifier is None:
        return []                                      # no roll was due: it changes nothing
    total = roll.total + modifier
    evidence = {"unit": unit.counter, "hex": unit.hex, "roll": roll.total, "modifier": modifier, "total": total,
                "nearest_allied": allied, "distance": distance, "roll_step": roll.roll_step}
    if total < ELIMINATES:
        return []
    if unit.kind in EXEMPT:
        return [_exempt_removed(game, old, roll, evidence, distance)] if gone_or_changed(unit, now) else []
    if gone_or_changed(unit, now):
        return []
    return [game.inventory.finding(
        "AMP-08", Ruling.PROVEN, step=roll.roll_step, when=game.when_of(old),
        message=f"{unit.label()} landed on {unit.hex} {distance} hex(es) from {', '.join(allied)} and rolled "
                f"{roll.total} +{modifier} = {total} for landing losses (step {roll.roll_step}): 7 or more "
                f"eliminates it (18.5), but it was still on the map when the phase ended",
        subjects=(unit.name,), evidence=evidence)]


def _exempt_removed(game: "IslandOfDeath", old: Any, roll: Any, evidence: dict, distance: int | None) -> "Finding":
    unit = roll.unit
    proven = distance is not None and distance > 1
    why = "no Allied unit was next to its beach hex, so no Water's Edge fire took it (18.61)" if proven else \
        "unless Water's Edge Combat took it (18.61)"
    return game.inventory.finding(
        "LDR-09", Ruling.PROVEN if proven else Ruling.POSSIBLE, step=roll.roll_step, when=game.when_of(old),
        message=f"{unit.label()}, {'an HQ' if unit.kind == 'hq' else 'a leader'}, was removed after a landing-loss "
                f"roll of {evidence['total']} said for it (step {roll.roll_step}): HQs and leaders take no landing "
                f"losses (18.5); {why}",
        subjects=(unit.name,), evidence={**evidence, "kind": unit.kind},
        depends_on=() if proven else ("that Water's Edge Combat did not eliminate it (18.61)",))
