"""One Attack Operation as the log shows it (8.2): from `op attack HEX` until the attacker's
Operation is over (his next Operation, a change of phase, the end of the log). A withdrawal or a
rail reaction the defender pays for in between belongs to it (8.22, 8.5).

The `Battles` ledger keeps the battle under way: the hexes the attackers came from (8.23), the
Multiple Attack, combat and retreat rolls (`multiple`, `combat`, `retreat`), each side's
Committed Strength and losses as its player says them (`strength N`, `loss N`: SPs are kept on
paper, 2.3), the units in the target hex when the first combat roll is made, and where each of
them stands afterwards. When a battle is over it is `closed` for the checks that judge it as a
whole (checks/combat.py CBT-05, checks/crt.py CBT-16, checks/retreat.py CBT-17).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable

from vlog.kit.board import Board
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Moved, PhaseChanged, Removed

from ..events import CombatRolled, LossDeclared, MultipleRolled, OperationPaid, RetreatRolled, StrengthDeclared
from ..registry import REGISTRY
from .common import ALLIED, GERMAN, other, side_of

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, StepView

    from ..events import Rolled
    from ..rules import Sideshow

Judge = Callable[["Sideshow", "int | None"], "list[Finding]"]
"""A check of a battle as a whole, told the step at which it is over."""

__all__ = ["Battle", "Battles", "WITHDRAWALS", "when_over"]

WITHDRAWALS = frozenset({"withdraw", "withdraw2"})
DEFENDER_OPERATIONS = frozenset({*WITHDRAWALS, "reaction"})
"""What the defender pays for during the attack without ending it (8.22, 8.5)."""


@dataclass(slots=True)
class Battle:
    """An Attack Operation of `attacker` on `target`, declared at `step`."""

    step: int | None
    attacker: str
    target: str
    origins: dict[str, tuple[str, int | None]] = field(default_factory=dict)
    """Origin hex -> (the first attacker to come from it, the step it entered the target)."""
    multiple: list["Rolled"] = field(default_factory=list)
    other_rolls: int = 0
    """The attacker's rolls before the first combat roll that no label explains."""
    withdrawal: str | None = None
    strength: dict[str, tuple[int, int | None]] = field(default_factory=dict)
    rolls: dict[str, CombatRolled] = field(default_factory=dict)
    losses: dict[str, tuple[int, int | None]] = field(default_factory=dict)
    retreat: RetreatRolled | None = None
    fought: dict[str, Any] = field(default_factory=dict)
    """Unit id -> the unit, for the units in the target hex at the first combat roll."""
    where: dict[str, str | None] = field(default_factory=dict)
    """Unit id -> the hex a unit that fought stands in now (None: off the map)."""

    @property
    def defender(self) -> str:
        return other(self.attacker)

    def leaders(self) -> list[Any]:
        """The German leaders in the battle (8.35): in the target hex at the first combat roll."""
        return [u for u in self.fought.values() if u.side == GERMAN and u.type == "leader"]

    def holds(self, side: str) -> bool:
        """Whether some unit of the side that fought still stands in the target hex."""
        return any(u.side == side and self.where.get(i) == self.target for i, u in self.fought.items())

    def loser(self) -> str | None:
        """The side that left the target hex while the other held it; None when both are still
        there (STK-01's) or neither is."""
        allied, german = self.holds(ALLIED), self.holds(GERMAN)
        return None if allied == german else (ALLIED if german else GERMAN)


class Battles(Ledger):
    """The battle under way and the one the event being judged closed."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.current: Battle | None = None
        self.closed: Battle | None = None
        self.board = Board(game.data)

    def close(self) -> None:
        self.closed, self.current = self.current, None

    def step(self, view: "StepView") -> Iterable["Finding"]:
        self.closed = None
        if self.current is not None and not self.current.rolls:
            side = self.current.attacker
            labelled = {id(r.roll) for r in self.game.rolls.labelled(view)}
            self.current.other_rolls += sum(1 for r in view.rolls if id(r) not in labelled
                                            and side_of(view.before.table, r.player) == side)
        return ()

    def phase(self, change: "PhaseChanged", view: "StepView") -> Iterable["Finding"]:
        self.close()
        return ()

    def end(self, view: "StepView") -> Iterable["Finding"]:
        self.close()
        return ()

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        battle = self.current
        if isinstance(event, OperationPaid):
            if event.op.kind in DEFENDER_OPERATIONS:          # neither begins nor ends a battle
                if battle is not None and event.side == battle.defender and event.op.kind in WITHDRAWALS:
                    battle.withdrawal = event.op.kind
                return ()
            self.close()
            if event.op.kind == "attack" and event.op.hex is not None:
                self.current = Battle(event.step, event.side, event.op.hex)
            return ()
        if battle is None:
            return ()
        if isinstance(event, Moved):
            unit, new = event.before, event.after
            if unit.id in battle.fought:
                battle.where[unit.id] = new.hex
            elif unit.side == battle.attacker and new.hex == battle.target and unit.hex not in (None, battle.target) \
                    and not battle.rolls:
                battle.origins.setdefault(unit.hex, (unit.name, event.step))
        elif isinstance(event, Removed) and event.unit.id in battle.fought:
            battle.where[event.unit.id] = None
        elif isinstance(event, MultipleRolled) and event.side == battle.attacker and not battle.rolls:
            battle.multiple.append(event)
        elif isinstance(event, CombatRolled) and event.side in (ALLIED, GERMAN):
            if not battle.rolls:
                battle.fought = {u.id: u for u in self.game.units(view.after).values() if u.hex == battle.target}
                battle.where = {i: battle.target for i in battle.fought}
            battle.rolls.setdefault(event.side, event)
        elif isinstance(event, RetreatRolled) and battle.retreat is None:
            battle.retreat = event
        elif isinstance(event, StrengthDeclared):
            battle.strength[event.side] = (event.sp, event.step)
        elif isinstance(event, LossDeclared):
            battle.losses[event.side] = (event.sp, event.step)
        return ()



def when_over(*ids: str) -> Callable[[Judge], Judge]:
    """Register `judge(game, step)` for the items `ids` at the moments a battle is over: the next
    Operation paid for, a change of phase (at that step), the end of the log (step None)."""
    def register(judge: Judge) -> Judge:
        def on_event(game: "Sideshow", event: "OperationPaid | PhaseChanged", view: "StepView") -> list["Finding"]:
            return judge(game, event.step)

        def on_end(game: "Sideshow", view: "StepView") -> list["Finding"]:
            return judge(game, None)

        on_event.__name__ = on_event.__qualname__ = judge.__name__
        on_end.__name__ = on_end.__qualname__ = f"{judge.__name__}_at_the_end"
        for event in (OperationPaid, PhaseChanged):
            REGISTRY.check(*ids, event=event)(on_event)
        REGISTRY.check(*ids, on="end")(on_end)
        return judge
    return register
