"""What a bombardment may hit (10.11, 10.14, 16.75), on the `bombard 1210 with 28` line and the
losses after its roll.

* SPC-03: the hex bombarded is discovered (10.11): next to any unit of the bombarding side, day
  or night, or on a day turn two hexes from one with no town, city or woods in the target hex
  nor in the hex between (vlog/kit/sight.py: a line along a hexside passes if either hex between
  is open). Terrain the data lacks leaves it not judged, naming the hexes.
* SPC-06: one bombardment roll eliminates at most half the steps in the hex, rounded up (10.14):
  the steps its units lost from the roll to the next bombardment or attack line (or the end of
  the phase) against those they had. Where a unit's steps are unknown, not judged, naming them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.kit.ledger import Ledger
from vlog.kit.rolls import FollowingDice
from vlog.kit.sight import seen
from vlog.kit.steps import Declared, PhaseChanged

from vlog.games.island_of_death.checks.combat import named_units, speaker_side
from vlog.games.island_of_death.checks.combat_result import steps_available, steps_lost_since
from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView

HIDING = frozenset({"town", "city", "woods"})
"""10.11: the terrain that hides a target two hexes away."""
NO_STEPS = frozenset({"leader", "coastal-gun", "marker", "warship"})
"""Pieces that lose no steps to a bombardment (16.57: coastal guns absorb none)."""


@dataclass(slots=True)
class Bombarded:
    """A bombardment while its roll and its losses come."""

    target: str
    units: list["Unit"]
    start: dict[str, "Unit"] = field(default_factory=dict)
    when: str | None = None


class BombardmentLosses(Ledger):
    """The bombardment whose losses are being counted."""

    def __init__(self, game: "IslandOfDeath") -> None:
        self.game = game
        self.dice: FollowingDice[Bombarded] = FollowingDice()

    def step(self, view: "StepView") -> tuple[()]:
        self.dice.rolled(view.index, view.rolls)
        return ()

    def close(self, view: "StepView") -> list["Finding"]:
        answered = self.dice.close()
        if answered is None or not answered.rolls:
            return []
        fire = answered.declaration
        now = self.game.units(view.before)
        low_lost, _ = steps_lost_since(fire.units, now, fire.start)
        _, had = steps_available(fire.units)
        if had is None:
            self.game.unsettled("SPC-06", answered.step, sorted(f"counters.json {u.counter} steps" for u in fire.units
                                                                 if not isinstance(u.steps, int)))
            return []
        limit = math.ceil(had / 2)
        if low_lost <= limit:
            return []
        return [self.game.inventory.finding(
            "SPC-06", Ruling.PROVEN, step=answered.rolls[0].step, when=fire.when,
            message=f"the bombardment of {fire.target} (roll at step {answered.rolls[0].step}) eliminated {low_lost} "
                    f"steps of the {had} in the hex: one bombardment roll eliminates at most half of them, rounded up, "
                    f"{limit} (10.14)",
            subjects=[u.name for u in fire.units],
            evidence={"target": fire.target, "steps_in_hex": had, "steps_lost": low_lost, "limit": limit,
                      "units": [u.counter for u in fire.units], "declared_step": answered.step})]


def _hides(game: "IslandOfDeath"):
    def hides(hex_: str) -> bool | Unknown:
        terrain = game.board.terrain(hex_)
        return terrain if isinstance(terrain, Unknown) else terrain in HIDING
    return hides


@REGISTRY.check("SPC-03", "SPC-06", event=Declared)
def judge_bombardment_target(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """10.11 on a bombardment line; a bombardment or attack line closes the bombardment before it."""
    if event.grammar not in ("bombard", "attack"):
        return []
    ledger = game.bombardment_losses
    out = ledger.close(view)
    if event.grammar != "bombard":
        return out
    target, names = event.declaration
    units = game.units(view.before)
    side = speaker_side(game, view)
    bombarders = named_units(game, names, target, units, side, ground=False)
    side = side or (bombarders[0].side if bombarders else (game.phase.phasing if game.phase is not None else None))
    in_hex = [u for u in units.values() if u.hex == target and u.side != side and u.kind not in NO_STEPS]
    ledger.dice.open(Bombarded(target, in_hex, dict(units), game.when()), event.step)
    if side is None:
        return out
    friends = sorted({u.hex for u in units.values() if u.side == side and u.hex is not None and u.kind != "marker"})
    day = game.day_part() != "Night"
    found = seen(game.board, target, friends, far=day, hides=_hides(game))
    if isinstance(found, Unknown):
        game.unsettled("SPC-03", event.step, sorted(found.data))
    elif found is False:
        near = sorted(h for h in friends if game.board.distance(h, target) == 2)
        why = ("on a Night turn only a hex next to a friendly unit is" if not day else
               f"the friendly units two hexes away ({', '.join(near)}) are hidden from it by town, city or woods"
               if near else "no friendly unit is within two hexes of it")
        out.append(game.finding("SPC-03", Ruling.PROVEN, step=event.step,
                                message=f"{target} is bombarded but not discovered: no friendly unit is next to it, "
                                        f"and {why} (10.11)",
                                subjects=[u.name for u in bombarders],
                                evidence={"target": target, "side": side, "night": not day,
                                          "within_two": near,
                                          "nearest": min((game.board.distance(h, target) for h in friends),
                                                         default=None)}))
    return out


@REGISTRY.check("SPC-06", event=PhaseChanged)
def judge_bombardment_losses_at_phase_end(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    return game.bombardment_losses.close(view)


@REGISTRY.check("SPC-06", on="end")
def judge_bombardment_losses_at_log_end(game: "IslandOfDeath", view: "StepView") -> list["Finding"]:
    return game.bombardment_losses.close(view)
