"""The rolls made for one piece at a time (18.5, 19.46, 14.41, 6.52/14.42), tied to the piece by
the chat line said before them (vlog/kit/unit_rolls.py):

    landing loss 1/33, 2/33        one die each (18.5)
    airborne loss V/186            one die (19.46)
    leader casualty Beak           two dice (14.41)
    overrun Beak                   two dice (6.52, 14.42)

A name is the piece's on the map, of the side the roll is for where the kind says (the Axis
rolls landing and airborne losses); of several pieces of one name, one that arrived this turn.
A name no piece or several pieces answer is not bound. The rolls of a phase are kept until the
next phase ends, so a check at the end of a phase reads them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared
from vlog.kit.unit_rolls import RollFor, RollQueue, roll_for_parser

from vlog.games.island_of_death.rules import GRAMMARS

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView

__all__ = ["UnitRoll", "UnitRolls", "LANDING", "AIRBORNE", "CASUALTY", "OVERRUN"]

LANDING, AIRBORNE, CASUALTY, OVERRUN = "landing", "airborne", "casualty", "overrun"
DICE = {LANDING: 1, AIRBORNE: 1, CASUALTY: 2, OVERRUN: 2}
"""18.5, 19.46: one die a unit; 14.41, 14.42: two dice a leader."""
SIDE = {LANDING: "axis", AIRBORNE: "axis"}
PHRASES = {r"landing\s+loss(?:es)?": LANDING, r"airborne\s+loss(?:es)?": AIRBORNE,
           r"leader\s+casualt(?:y|ies)": CASUALTY, r"overrun(?:\s+leader)?|lone\s+leader": OVERRUN}

GRAMMARS.add("roll-for", roll_for_parser(PHRASES))


@dataclass(frozen=True, slots=True)
class UnitRoll:
    """A roll bound to a piece: the piece as it stood when the roll was said."""

    kind: str
    unit: "Unit"
    total: int
    declared_step: int | None
    roll_step: int | None
    phase: tuple[int, str]
    """(turn, phase name) it was rolled in."""
    position: Any = None
    """The table when the roll was said (what its modifiers are read on)."""


class UnitRolls(Ledger):
    """The declared rolls waiting for dice, and those bound in the current and the last phase."""

    def __init__(self, game: "IslandOfDeath") -> None:
        self.game = game
        self.queue = RollQueue(DICE)
        self.said: dict[tuple[str, str, int | None], tuple["Unit", Any]] = {}
        self.rolls: list[UnitRoll] = []
        self.unbound: list[tuple[str, str, int | None]] = []
        """Names said that no single piece answers (kind, name, step)."""
        self.owed: dict[tuple[str, str], tuple["Unit", int | None, tuple[int, str]]] = {}
        """(kind, unit id) -> (the unit, the step, the phase) of a roll a check says is due."""

    def step(self, view: "StepView") -> tuple[()]:
        phase = self.game.phase
        for bound in self.queue.observe(view.rolls, view.index):
            said = self.said.pop((bound.kind, bound.name, bound.declared_step), None)
            if said is not None and phase is not None:
                self.rolls.append(UnitRoll(bound.kind, said[0], bound.total, bound.declared_step, bound.roll_step,
                                           (phase.turn, phase.name), said[1]))
        return ()

    def event(self, event: Any, view: "StepView") -> tuple[()]:
        if isinstance(event, Declared) and event.grammar == "attack":
            self.queue.drop([CASUALTY, OVERRUN])        # a new combat: its roll is no leader's
        if not isinstance(event, Declared) or event.grammar != "roll-for":
            return ()
        declaration: RollFor = event.declaration
        for name in declaration.names:
            unit = self._piece(declaration.kind, name, view)
            if unit is None:
                self.unbound.append((declaration.kind, name, event.step))
                continue
            self.said[(declaration.kind, name, event.step)] = (unit, view.before)
        self.queue.declare(declaration, event.step)
        return ()

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.queue.drop()
        kept = {(p.turn, p.name) for p in (change.old, change.new) if p is not None}
        self.rolls = [r for r in self.rolls if r.phase in kept]
        self.owed = {k: v for k, v in self.owed.items() if v[2] in kept}
        return ()

    def owe(self, kind: str, unit: "Unit", step: int | None) -> None:
        """A check's word that `unit` owes a roll of `kind` in the current phase."""
        phase = self.game.phase
        if phase is not None:
            self.owed.setdefault((kind, unit.id), (unit, step, (phase.turn, phase.name)))

    def unrolled(self, kind: str, phase: Any) -> list[tuple["Unit", int | None]]:
        """The units owing a roll of `kind` in `phase` that no roll said for them answered."""
        if phase is None:
            return []
        rolled = {r.unit.id for r in self.of(kind, phase)}
        return [(unit, step) for (k, uid), (unit, step, ph) in self.owed.items()
                if k == kind and ph == (phase.turn, phase.name) and uid not in rolled]

    def of(self, kind: str, phase: Any) -> list[UnitRoll]:
        """The rolls of `kind` bound in `phase` (the current one, or the one just ended)."""
        return [r for r in self.rolls if r.kind == kind and phase is not None and r.phase == (phase.turn, phase.name)]

    def _piece(self, kind: str, name: str, view: "StepView") -> "Unit | None":
        game, phase = self.game, self.game.phase
        found = [u for u in game.units(view.before).values() if u.name == name and u.hex is not None
                 and u.is_ground_unit and SIDE.get(kind, u.side) == u.side]
        if len(found) > 1 and phase is not None:
            found = [u for u in found if game.movement.arrived.get(u.id, (None,))[0] == phase.turn] or found
        return found[0] if len(found) == 1 else None


def judge_phase_rolls(game: "IslandOfDeath", event: Any, view: "StepView", *, phase_name: str, kind: str,
                      arrived: str, check: str, say: str,
                      judge: Callable[[UnitRoll, Any, dict[str, "Unit"]], list["Finding"]]) -> list["Finding"]:
    """When phase `phase_name` has just ended (`event` its PhaseChanged): `judge(roll, phase,
    units now)` for each roll of `kind` said for a unit that `arrived` ("jumped", "landed
    amphibiously") that turn; each unit that owed one with none said leaves `check` unsettled,
    naming the chat line (`say`: its words, with the rule)."""
    old = event.old
    if old is None or old.name != phase_name:
        return []
    now, out = game.units(view.before), []
    for roll in game.unit_rolls.of(kind, old):
        if game.movement.arrived.get(roll.unit.id) == (old.turn, arrived):
            out += judge(roll, old, now)
    for unit, step in game.unit_rolls.unrolled(kind, old):
        game.unsettled(check, step, [f"the {say[0]} roll of {unit.name} in {unit.hex} (chat `{say[0]} {unit.name}` "
                                     f"before its die, {say[1]})"])
    return out


def gone_or_changed(unit: "Unit", now: dict[str, "Unit"]) -> bool:
    """Whether the piece left the map, or shows another level or fewer steps than it did."""
    after = now.get(unit.id)
    if after is None or after.hex is None or after.level != unit.level:
        return True
    return isinstance(unit.steps, int) and isinstance(after.steps, int) and after.steps < unit.steps
