"""Warship communications (9.3e, 16.73, 16.74): each warship named as supporting an attack
(`attack 1208 with 1/34; support CA Trieste`, either side's support) must pass a roll of one die
after the final odds and before the attack dice; 1-3 fails, and that warship fires no more that
turn.

The rolls are the single dice rolled after the attack line and before its CRT roll (the first
two dice; vlog/kit/rolls.py). A leader's command roll (14.2) is a single die too, made before
them, so:

* CBT-13: a combat rolled on the CRT with fewer single dice before it than warships supporting
  it lacks a communications roll (PROVEN);
* where no leader can roll in the combat and there are as many single dice as warships, the
  k-th die is the k-th warship's (in the order the line names them): a warship whose die was
  1-3 and that is named again that turn as supporting an attack or bombarding is PROVEN; with a
  leader in the combat the dice are not tied and no failure is recorded.

That the failed warship's support is left out of the odds is CBT-16's reading (both ways), and
the bar on placing another marker in its stead (16.74) is not shown by a log (the markers are
not bound).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.rolls import Answered, FollowingDice, faces_of
from vlog.kit.steps import Declared, PhaseChanged

from vlog.games.island_of_death.checks.combat import named_units, speaker_side
from vlog.games.island_of_death.checks.support import support_units
from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView

FAILS = 3
"""16.73: a communications roll of 1 to 3 fails."""
CRT_DICE = 2


@dataclass(slots=True)
class Supported:
    """An attack with warship support, while its dice are rolled."""

    target: str
    warships: list["Unit"]
    leaders: bool
    """A leader of either side is in an attacking hex or the attacked one (a command roll may come first)."""
    turn: int | None
    when: str | None


class Communications(Ledger):
    """The attack whose communications rolls are awaited, and the warships that failed this turn."""

    def __init__(self, game: "IslandOfDeath") -> None:
        self.game = game
        self.dice: FollowingDice[Supported] = FollowingDice()
        self.failed: dict[str, tuple[int | None, int | None, int]] = {}
        """Warship id -> (turn, step of its roll, the die) for a failed roll."""

    def step(self, view: "StepView") -> tuple[()]:
        self.dice.rolled(view.index, view.rolls)
        return ()

    def close(self) -> list["Finding"]:
        answered = self.dice.close()
        return self._judge(answered) if answered is not None else []

    def _judge(self, answered: Answered[Supported]) -> list["Finding"]:
        attack = answered.declaration
        singles: list[tuple[int, int | None]] = []
        crt_step = None
        for roll in answered.rolls:
            if roll.n_dice >= CRT_DICE:
                crt_step = roll.step
                break
            singles.extend((f, roll.step) for f in faces_of(roll))
        if crt_step is None:
            return []                                    # no attack dice: nothing to judge the order by
        names = [u.name for u in attack.warships]
        if len(singles) < len(attack.warships):
            return [self.game.inventory.finding(
                "CBT-13", Ruling.PROVEN, step=crt_step, when=attack.when,
                message=f"the attack on {attack.target} was rolled with {len(singles)} single "
                        f"{'die' if len(singles) == 1 else 'dice'} before it for {len(names)} supporting "
                        f"warship(s) ({', '.join(names)}): each rolls for communications after the final odds "
                        f"and before the attack dice (9.3e, 16.73)",
                subjects=names,
                evidence={"target": attack.target, "warships": [u.counter for u in attack.warships],
                          "single_dice": len(singles), "declared_step": answered.step})]
        if not attack.leaders and len(singles) == len(attack.warships):
            for unit, (face, step) in zip(attack.warships, singles):
                if face <= FAILS:
                    self.failed[unit.id] = (attack.turn, step, face)
        return []


def _warships(game: "IslandOfDeath", names: Any, target: str, units: Any, side: str | None) -> list["Unit"]:
    return [u for u in support_units(game, names, target, units, side) if u.kind == "warship"]


@REGISTRY.check("CBT-13", event=Declared)
def judge_communications(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """An attack line closes the supported attack before it and opens its own; an attack or
    bombardment line naming a warship that failed this turn is judged."""
    if event.grammar not in ("attack", "bombard"):
        return []
    ledger = game.communications
    out = ledger.close() if event.grammar == "attack" else []
    phase = game.phase
    turn = phase.turn if phase is not None else None
    units = game.units(view.before)
    side = speaker_side(game, view)
    if event.grammar == "bombard":
        target, names = event.declaration
        used = [(u, "bombards") for u in _warships(game, names, target, units, side)]
    else:
        attack = event.declaration
        target = attack.target
        attackers = named_units(game, attack.attackers, target, units, side)
        side = side or (attackers[0].side if attackers else (phase.phasing if phase is not None else None))
        other = next((u.side for u in units.values() if u.hex == target and u.is_ground_unit and u.side != side), None)
        mine = _warships(game, attack.support, target, units, side)
        theirs = _warships(game, attack.defensive_support, target, units, other)
        used = [(u, "supports the attack on") for u in mine + theirs]
        if mine or theirs:
            hexes = {u.hex for u in attackers} | {target}
            leaders = any(u.is_leader and u.hex in hexes for u in units.values())
            ledger.dice.open(Supported(target, mine + theirs, leaders, turn, game.when()), event.step)
    for unit, what in used:
        failed = ledger.failed.get(unit.id)
        if failed is None or failed[0] != turn:
            continue
        out.append(game.finding("CBT-13", Ruling.PROVEN, step=event.step,
                                message=f"the warship {unit.label()} {what} {target}, having failed its "
                                        f"communications roll this turn ({failed[2]} at step {failed[1]}): it may "
                                        f"not fire for the rest of the turn (16.73)",
                                subjects=(unit.name,),
                                evidence={"target": target, "unit": unit.counter, "failed_roll": failed[2],
                                          "failed_step": failed[1], "turn": turn}))
    return out


@REGISTRY.check("CBT-13", event=PhaseChanged)
def judge_communications_at_phase_end(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    return game.communications.close()


@REGISTRY.check("CBT-13", on="end")
def judge_communications_at_log_end(game: "IslandOfDeath", view: "StepView") -> list["Finding"]:
    return game.communications.close()
