"""Penetration combat (10.3, 10.31, 10.32, 14.22): an attack line in a Penetration Phase is an
attempt, made by units that advanced after combat in the Combat Phase just before it, at least
one of them with or next to its formation's leader, and allowed only if one die is at most that
leader's tactical value.

Judged on each attack line of a Penetration Phase, and on its dice (the rolls after the line
until the next one, vlog/kit/rolls.py):

* SPC-09: every attacking unit (leaders aside) advanced into an attacked hex in this turn's
  Combat Phase of its side (the log shows every advance; the units turned sideways are not
  shown, no rotation being bound); no artillery or warship support is named; an attacker is
  stacked with or next to a leader of its formation (Allied units all belong to the Malta
  Garrison, 15.1; an Axis unit the data attaches to no formation is not judged, naming it);
  the first roll after the line is one die, and one above the leader's tactical value (the
  highest of the leaders that qualify) is followed by no CRT roll, and its units attempt no
  other penetration that turn.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.rolls import FollowingDice, faces_of
from vlog.kit.steps import Declared, Moved, PhaseChanged

from vlog.games.island_of_death.checks.combat import named_units, speaker_side
from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView

MALTA_GARRISON = "Malta Garrison"
"""15.1: every Allied unit belongs to the one Allied formation."""


@dataclass(slots=True)
class Attempt:
    """A penetration attempt while its dice come."""

    target: str
    units: list["Unit"]
    tactical: int | None
    """The highest tactical value of the leaders it may roll against (None: not known)."""
    turn: int | None
    when: str | None


class Penetrations(Ledger):
    """Who advanced after combat this turn, the open attempt, and the units whose attempt failed."""

    def __init__(self, game: "IslandOfDeath") -> None:
        self.game = game
        self.advanced: dict[str, int] = {}
        """Unit id -> the turn it advanced into an attacked hex in its Combat Phase."""
        self.failed: dict[str, tuple[int | None, int | None]] = {}
        """Unit id -> (turn, step of the failed roll)."""
        self.dice: FollowingDice[Attempt] = FollowingDice()

    def step(self, view: "StepView") -> tuple[()]:
        self.dice.rolled(view.index, view.rolls)
        return ()

    def event(self, event: Any, view: "StepView") -> tuple[()]:
        phase, combat = self.game.phase, self.game.combats.open
        if not isinstance(event, Moved) or phase is None or combat is None or not phase.name.endswith("-combat"):
            return ()
        unit = event.before
        if event.after.hex == combat.attack.target and unit.side == combat.side and unit.hex is not None \
                and self.game.board.distance(unit.hex, combat.attack.target) == 1:
            self.advanced[unit.id] = phase.turn                      # 9.88: eligible to penetrate
        return ()

    def close(self) -> list["Finding"]:
        answered = self.dice.close()
        if answered is None or not answered.rolls:
            return []
        attempt = answered.declaration
        first = answered.rolls[0]
        names = [u.name for u in attempt.units]
        evidence = {"target": attempt.target, "units": [u.counter for u in attempt.units], "declared_step": answered.step}
        if first.n_dice != 1:
            return [self.game.inventory.finding(
                "SPC-09", Ruling.PROVEN, step=first.step, when=attempt.when,
                message=f"the penetration attack on {attempt.target} rolled {first.n_dice} dice first: a penetration "
                        f"attempt is one die against the leader's tactical value before the attack (10.31)",
                subjects=names, evidence={**evidence, "first_roll_dice": first.n_dice})]
        face = faces_of(first)
        if not face or attempt.tactical is None or face[0] <= attempt.tactical:
            return []
        for unit in attempt.units:
            self.failed[unit.id] = (attempt.turn, first.step)
        crt = next((r for r in answered.rolls[1:] if r.n_dice >= 2), None)
        if crt is None:
            return []
        return [self.game.inventory.finding(
            "SPC-09", Ruling.PROVEN, step=crt.step, when=attempt.when,
            message=f"the penetration attempt on {attempt.target} failed ({face[0]} against a tactical value of "
                    f"{attempt.tactical}, step {first.step}) but the attack was rolled: a failed attempt does not "
                    f"attack (10.31)",
            subjects=names, evidence={**evidence, "roll": face[0], "tactical": attempt.tactical,
                                      "roll_step": first.step})]


def _formation(unit: "Unit") -> str | None:
    return MALTA_GARRISON if unit.side == "allied" else unit.formation


def _tactical(game: "IslandOfDeath", leader: "Unit") -> int | None:
    record = game.data.counter(leader.counter)
    levels = record["levels"] if "levels" in record else {}
    level = levels[leader.level] if leader.level in levels else None
    value = level["tactical"].value if level is not None and "tactical" in level else None
    return value if isinstance(value, int) else None


@REGISTRY.check("SPC-09", event=Declared)
def judge_penetration(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """10.3-10.32 on an attack line of a Penetration Phase."""
    if event.grammar != "attack":
        return []
    ledger = game.penetrations
    out = ledger.close()
    phase = game.phase
    if phase is None or not phase.name.endswith("-penetration"):
        return out
    attack = event.declaration
    units = game.units(view.before)
    side = speaker_side(game, view) or phase.phasing
    attackers = [u for u in named_units(game, attack.attackers, attack.target, units, side) if not u.is_leader]

    def finding(message: str, evidence: dict[str, Any], subjects: list[str]) -> None:
        out.append(game.finding("SPC-09", Ruling.PROVEN, step=event.step, message=message, subjects=subjects,
                                evidence={"target": attack.target, **evidence}))

    support = list(attack.support) + list(attack.defensive_support)
    if support:
        finding(f"support ({', '.join(support)}) is named for the penetration attack on {attack.target}: no artillery "
                f"or warship supports a penetration combat (10.32)", {"support": support}, support)
    late = [u for u in attackers if ledger.advanced.get(u.id) != phase.turn]
    if late:
        finding(f"{', '.join(u.label() for u in late)} attack {attack.target} in the Penetration Phase without having "
                f"advanced after combat in this turn's Combat Phase (10.3)",
                {"not_advanced": [u.counter for u in late]}, [u.name for u in late])
    again = [u for u in attackers if ledger.failed.get(u.id, (None,))[0] == phase.turn]
    if again:
        finding(f"{', '.join(u.label() for u in again)} attempt a penetration of {attack.target} after a failed "
                f"attempt this turn (step {ledger.failed[again[0].id][1]}): they may not penetrate again (10.31)",
                {"failed_before": [u.counter for u in again]}, [u.name for u in again])
    leaders = [u for u in units.values() if u.is_leader and u.hex is not None and u.side == side]
    unattached = [u for u in attackers if _formation(u) is None]
    near = [ld for ld in leaders for u in attackers
            if _formation(ld if ld.side == "axis" else u) == _formation(u) and game.board.distance(ld.hex, u.hex) <= 1]
    values = [t for t in (_tactical(game, ld) for ld in near) if t is not None]
    if attackers and not near:
        if unattached:
            game.unsettled("SPC-09", event.step, [f"the formation {u.name} is attached to (15.2, kept on paper)"
                                                  for u in unattached])
        else:
            finding(f"no unit attacking {attack.target} in penetration is with or next to the leader of its formation "
                    f"(10.32, 14.22)", {"formations": sorted({_formation(u) for u in attackers})},
                    [u.name for u in attackers])
    elif near and not values:
        game.unsettled("SPC-09", event.step, [f"counters.json {ld.counter} tactical" for ld in near])
    ledger.dice.open(Attempt(attack.target, attackers, max(values) if values else None, phase.turn, game.when()),
                     event.step)
    return out


@REGISTRY.check("SPC-09", event=PhaseChanged)
def judge_penetration_at_phase_end(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    return game.penetrations.close()


@REGISTRY.check("SPC-09", on="end")
def judge_penetration_at_log_end(game: "IslandOfDeath", view: "StepView") -> list["Finding"]:
    return game.penetrations.close()
