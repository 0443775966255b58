"""Operation Points (5.2, 5.3): each player buys Operations with OPs in his own segment.

At the beginning of his segment a player rolls one die for his Initial OPs (5.21); at any time in
it he may roll two dice on the Operation Point Generation Table, in the column of his OFC, for
more (5.22); a FINIS result ends the segment at once, FINIS* also loses every OP saved. Each
Operation costs one OP (5.3; a depot one more, 13.1; a German withdrawal one or two, 8.22; a
rail reaction one, 8.5); what is left is saved for the next turn, at most 10 Allied and 12
German OPs (5.23). The German may spend saved OPs in the Allied segment to withdraw (5.24), and
a defender pays for rail reaction in the attacker's segment.

One `OperationPoints` ledger per side keeps the side's account (vlog/kit/points.py: a range
where an OPGT cell is not in the data), whether its segment is open and whether a FINIS ended
it; a second account kept without the cap and without FINIS* losses tells a spend only they
left short (OPS-04) from one nothing covers (OPS-08).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling, Unknown
from vlog.kit.ledger import Ledger
from vlog.kit.points import Account, Overspend
from vlog.kit.sequence import side_name
from ..events import EventRolled, InitialOpsRolled, OperationPaid, OpgtRolled
from ..registry import REGISTRY
from .common import GERMAN, commander, known_turn, lake_port, limit, other

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, PhaseChanged, StepView

    from ..rules import Sideshow

__all__ = ["OperationPoints", "SEGMENTS", "COSTS", "IN_ENEMY_SEGMENT"]

SEGMENTS = {"operations-segment-1": 1, "operations-segment-2": 2}
"""The data's phases that are Operations Segments, by number."""
COSTS = {"depot": 2, "withdraw2": 2}
"""Operations that cost more than one OP: a depot (13.1, read as the Operation's OP and one
more), a withdrawal with ambush (8.22)."""
READINGS = {"depot": (1, "the reading of 13.1's 'additional OP' as a second OP")}
"""Costs the text leaves to a reading: the cost on the other reading, and the reading named."""
IN_ENEMY_SEGMENT = frozenset({"withdraw", "withdraw2", "reaction"})
"""What a player pays for in the other player's segment: withdrawal (8.22, 5.24), rail reaction (8.5)."""
ONCE_A_SEGMENT = {"event": ("OPS-09", "5.3"), "raise": ("OPS-10", "9.1")}
"""Operations a player may undertake once per Operations Segment, with the item and rule saying so."""
EVENT_ADJUSTED = "the Random Event rolled this turn (5.25: events A, B and S take 1 off German OP rolls)"


@dataclass(frozen=True, slots=True)
class Finis:
    """A FINIS that ended the segment (`star`: FINIS*), certain or only possible (`depends_on`)."""

    step: int | None
    star: bool
    certain: bool
    depends_on: tuple[str, ...] = ()


class OperationPoints(Ledger):
    """One side's Operation Points through the log."""

    def __init__(self, game: "Sideshow", side: str) -> None:
        self.game = game
        self.side = side
        self.account = Account()
        self.uncapped = Account()
        self.open = False
        self.opened: tuple[int | None, int | None] | None = None
        """(turn, phase index) the segment was opened in, where the table shows them."""
        self.finis: Finis | None = None
        self.reserve: Account | None = None
        """Saved OPs a FINIS* lost that the German may still spend on withdrawal this turn (5.23)."""
        self.turn: int | None = None
        self.events_this_turn = False
        self.counts: dict[str, int] = {}
        """Operations of each kind paid for in the open segment (OPS-09, OPS-10: once a segment)."""
        self.doubts: set[str] = set()
        """Checks that said POSSIBLE in this segment: a doubt the data leaves is said once a segment."""

    def begin(self, view: "StepView") -> Iterable["Finding"]:
        self.turn = self.game.phase.turn if self.game.phase is not None else None
        return ()

    @property
    def cap(self) -> int:
        return limit(self.game.data, "german_op_save_max" if self.side == GERMAN else "allied_op_save_max")

    # -- the hooks ---------------------------------------------------------------------------------

    def phase(self, change: "PhaseChanged", view: "StepView") -> Iterable["Finding"]:
        new = change.new
        if self.open and self.opened is not None and self.opened != (new.turn, new.index):
            self.close()
        if new.turn != self.turn:
            self.close()
            self.turn, self.finis, self.reserve, self.events_this_turn = new.turn, None, None, False
        return ()

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, EventRolled):
            self.events_this_turn = True
        elif isinstance(event, InitialOpsRolled) and event.side == other(self.side):
            self.close()                      # the other player's segment began
        return ()

    # -- the account -------------------------------------------------------------------------------

    def begin_segment(self, initial: "int | Unknown") -> None:
        phase = self.game.phase
        self.open = True
        self.opened = (phase.turn, phase.index) if phase is not None else None
        self.finis = None
        self.counts = {}
        self.doubts = set()
        self.gain(initial)

    def gain(self, amount: "int | Unknown") -> None:
        self.account = self.account.gain(amount)
        self.uncapped = self.uncapped.gain(amount)

    def close(self) -> None:
        """The segment is over: what is left is saved, at most the cap; nothing after a FINIS*."""
        if not self.open:
            return
        self.open = False
        if self.finis is not None and self.finis.star and self.finis.certain:
            self.reserve = self.account if self.side == GERMAN else None
            self.account = self.account.lost()
        else:
            self.account = self.account.saved(self.cap)

    def spend(self, cost: int, *, withdrawal: bool) -> tuple[Overspend | None, bool]:
        """Pay `cost`: the overspend, if any, and whether only the cap or a FINIS* left it short."""
        self.uncapped, wide = self.uncapped.spend(cost)
        if withdrawal and self.reserve is not None and self.account.high == 0:
            self.reserve, short = self.reserve.spend(cost)
        else:
            self.account, short = self.account.spend(cost)
        return short, short is not None and short.ruling is Ruling.PROVEN and wide is None

    def once(self, finding: "Finding") -> list["Finding"]:
        """A PROVEN finding; a POSSIBLE one only the first time its check doubts in this segment."""
        if finding.basis.value == "possible":
            if finding.check in self.doubts:
                return []
            self.doubts.add(finding.check)
        return [finding]

    def where(self) -> str:
        """Which segment the table shows (for messages): 'segment 2 (Allied)', or ''."""
        phase = self.game.phase
        if phase is None or phase.name not in SEGMENTS:
            return phase.name if phase is not None else ""
        number = SEGMENTS[phase.name]
        owner = self.game.initiative.owner(phase.turn, number)
        return f"segment {number}" + (f" ({side_name(owner)})" if owner else "")


def _opgt_cell(ledger: OperationPoints, total: int) -> tuple[object, str]:
    game = ledger.game
    column, _ = commander(game.data, game.scenario or "", ledger.side, known_turn(game))
    name = f"tables.json opgt {column or 'the OFC column'} {total}"
    if column is None:
        return None, name
    return game.data.lookup("opgt", column, str(total)).value, name


@REGISTRY.check("OPS-02", "SEQ-12", event=InitialOpsRolled)
def judge_initial(game: "Sideshow", roll: "InitialOpsRolled", view: "StepView") -> list["Finding"]:
    """5.21: a segment begins with one die for the Initial OPs, once; 5.14: in the segment the
    player took (or was left)."""
    if roll.side not in game.operation_points:
        return []
    ledger, found = game.operation_points[roll.side], []
    phase = game.phase
    if roll.roll.n_dice != 1:
        found.append(game.finding("OPS-02", Ruling.PROVEN, step=roll.step,
                                  message=f"the {side_name(ledger.side)} Initial OP roll was {roll.dice}; "
                                          "it is one die (5.21)",
                                  evidence={"side": ledger.side, "dice": roll.dice, "roll": roll.total}))
    elif ledger.open and phase is not None and not phase.inferred and ledger.opened == (phase.turn, phase.index):
        found.append(game.finding("OPS-02", Ruling.PROVEN, step=roll.step,
                                  message=f"the {side_name(ledger.side)} player rolled his Initial OPs a second time "
                                          f"in {ledger.where()} (5.21: once, at the beginning of the segment)",
                                  evidence={"side": ledger.side, "roll": roll.total}))
    if phase is not None and phase.name in SEGMENTS:
        owner = game.initiative.owner(phase.turn, SEGMENTS[phase.name])
        if owner is not None and owner != ledger.side:
            found.append(game.finding("SEQ-12", Ruling.PROVEN, step=roll.step,
                                      message=f"the {side_name(ledger.side)} player began his operations in "
                                              f"segment {SEGMENTS[phase.name]}, which the {side_name(owner)} player has (5.14)",
                                      evidence={"side": ledger.side, "segment": SEGMENTS[phase.name], "owner": owner}))
    if ledger.open:
        ledger.close()
    ledger.begin_segment(roll.total if roll.total is not None else Unknown("the Initial OP roll", at_least=1, at_most=6))
    return found


@REGISTRY.check("OPS-03", event=OpgtRolled)
def judge_opgt(game: "Sideshow", roll: "OpgtRolled", view: "StepView") -> list["Finding"]:
    """5.22: two dice on the OPGT column of the player's OFC, in his segment, until a FINIS ends it."""
    if roll.side not in game.operation_points:
        return []
    ledger, found = game.operation_points[roll.side], []
    if roll.roll.n_dice != 2 or roll.total is None:
        return [game.finding("OPS-03", Ruling.PROVEN, step=roll.step,
                             message=f"the {side_name(ledger.side)} OPGT roll was {roll.dice}; it is two dice (5.22)",
                             evidence={"side": ledger.side, "dice": roll.dice})]
    if not ledger.open:
        ledger.begin_segment(Unknown("the Initial OP roll the log does not label (5.21)", at_least=1, at_most=6))
    finis = ledger.finis
    if finis is not None:
        found += ledger.once(game.finding(
            "OPS-03", Ruling.PROVEN if finis.certain else Ruling.POSSIBLE, step=roll.step,
            message=f"the {side_name(ledger.side)} player rolled on the OPGT after the "
                    f"{'FINIS' if finis.certain else 'roll'} of step {finis.step} {'ended' if finis.certain else 'may have ended'} his segment (5.22)",
            evidence={"side": ledger.side, "finis_step": finis.step}, depends_on=finis.depends_on))
    readings = [roll.total]
    minus_one = game.random_events.german_minus_one() if ledger.side == GERMAN and ledger.events_this_turn else False
    if minus_one is not False and roll.total != 12:
        readings = [roll.total - 1] if minus_one else [roll.total, roll.total - 1]
    cells = [_opgt_cell(ledger, total) for total in readings]
    values = [v for v, _ in cells]
    depends = [name for v, name in cells if v is None] + ([EVENT_ADJUSTED] if len(readings) > 1 else [])
    numbers = [v for v in values if isinstance(v, int)]
    finises = [v for v in values if isinstance(v, str) and v.startswith("FINIS")]
    if len(set(map(str, values))) == 1 and values[0] is not None:
        value = values[0]
        if isinstance(value, int):
            ledger.gain(value)
        else:
            ledger.finis = Finis(roll.step, value == "FINIS*", True)
        return found
    ledger.gain(Unknown(*depends, at_least=min(numbers) if numbers and len(numbers) == len(values) else 0,
                        at_most=max(numbers) if numbers and len(numbers) == len(values) else None))
    if finises or None in values:
        ledger.finis = Finis(roll.step, "FINIS*" in finises, False, tuple(depends))
    return found


@REGISTRY.check("OPS-01", "OPS-03", "OPS-04", "OPS-08", event=OperationPaid)
def judge_operation(game: "Sideshow", paid: "OperationPaid", view: "StepView") -> list["Finding"]:
    """5.0, 5.3: an Operation in the player's own segment, before any FINIS, paid for with an OP
    he has; withdrawal and rail reaction are paid for in the other player's segment."""
    if paid.side not in game.operation_points:
        return []
    ledger, op, step, found = game.operation_points[paid.side], paid.op, paid.step, []
    side = side_name(ledger.side)
    cost = COSTS.get(op.kind, 1)
    evidence: dict[str, object] = {"side": ledger.side, "operation": op.kind, "cost": cost}
    if op.hex:
        evidence["hex"] = op.hex
    phase = game.phase
    if op.kind not in IN_ENEMY_SEGMENT and not ledger.open:
        owner = game.initiative.owner(phase.turn, SEGMENTS[phase.name]) \
            if phase is not None and phase.name in SEGMENTS else None
        if phase is not None and not phase.inferred and (phase.name not in SEGMENTS or owner == other(ledger.side)):
            found.append(game.finding("OPS-01", Ruling.PROVEN, step=step,
                                      message=f"the {side} player paid for a {op.title} Operation in "
                                              f"{ledger.where()}, not in his own Operations Segment (5.0)",
                                      evidence={**evidence, "phase": phase.name}))
    finis = ledger.finis
    short, only_saved = ledger.spend(cost, withdrawal=op.kind in IN_ENEMY_SEGMENT)
    if finis is not None and ledger.open and op.kind not in IN_ENEMY_SEGMENT:
        found += ledger.once(game.finding(
            "OPS-03", Ruling.PROVEN if finis.certain else Ruling.POSSIBLE, step=step,
            message=f"the {side} player paid for a {op.title} Operation after the "
                    f"{'FINIS' if finis.certain else 'OPGT roll'} of step {finis.step} "
                    f"{'ended' if finis.certain else 'may have ended'} his segment (5.22)",
            evidence={**evidence, "finis_step": finis.step}, depends_on=finis.depends_on))
        if finis.certain:
            return found
    if short is None:
        return found
    if op.kind in READINGS and short.ruling is Ruling.PROVEN and short.high is not None \
            and short.high >= READINGS[op.kind][0]:
        short = replace(short, ruling=Ruling.POSSIBLE, depends_on=(*short.depends_on, READINGS[op.kind][1]))
        only_saved = False
    balance = {"low": short.low, "high": short.high}
    if only_saved:
        found.append(game.finding("OPS-04", Ruling.PROVEN, step=step,
                                  message=f"the {side} player paid {cost} OP for a {op.title} Operation with "
                                          f"{short.low} OP left: only OPs beyond the {ledger.cap} he may save, or "
                                          "those a FINIS* lost, would pay for it (5.23)",
                                  evidence={**evidence, "balance": balance, "cap": ledger.cap}))
    else:
        shown = str(short.low) if short.high == short.low else \
            f"{short.low}-{short.high}" if short.high is not None else f"only {short.low} certain"
        found += ledger.once(game.finding("OPS-08", short.ruling, step=step,
                                          message=f"the {side} player paid {cost} OP for a {op.title} Operation "
                                                  f"with {shown} OP left (5.3)",
                                          evidence={**evidence, "balance": balance}, depends_on=short.depends_on))
    return found


@REGISTRY.check("OPS-09", "OPS-10", event=OperationPaid)
def judge_once_a_segment(game: "Sideshow", paid: "OperationPaid", view: "StepView") -> list["Finding"]:
    """5.3, 9.1: one Random Event Operation and one Troop Raising Operation per segment."""
    if paid.op.kind not in ONCE_A_SEGMENT \
            or paid.side not in game.operation_points or not game.operation_points[paid.side].open:
        return []
    ledger, op, step = game.operation_points[paid.side], paid.op, paid.step
    ledger.counts[op.kind] = ledger.counts.get(op.kind, 0) + 1
    if ledger.counts[op.kind] == 1:
        return []
    short, rule = ONCE_A_SEGMENT[op.kind]
    return [ledger.game.finding(short, Ruling.PROVEN, step=step,
                                message=f"the {side_name(ledger.side)} player undertook a second {op.title} "
                                        f"Operation in one segment ({rule}: once per segment)",
                                evidence={"side": ledger.side, "operation": op.kind, "count": ledger.counts[op.kind]})]


ONLY = {"sea": ("allied", "SEA-01", "6.6"), "amphibious": ("allied", "SEA-01", "8.4"),
        "divert": ("allied", "OPS-08", "5.3, 9.24"), "depot": ("allied", "OPS-08", "5.3, 13.1"),
        "raise": ("german", "OPS-08", "5.3, 9.1"), "withdraw": ("german", "CBT-02", "8.22"),
        "withdraw2": ("german", "CBT-02", "8.22")}
"""Operations only one side may undertake: the side, the item that says so and the rule."""


@REGISTRY.check("OPS-08", "SEA-01", "CBT-02", event=OperationPaid)
def judge_whose_operation(game: "Sideshow", paid: "OperationPaid", view: "StepView") -> list["Finding"]:
    """5.3: Sea Transfer, Amphibious Assault, Divert Reinforcements and Construct Depot are the
    Allied player's Operations, Raise Troops the German's; 8.22: only a German defender withdraws;
    14.0: a transfer or assault from a Lake Victoria port is either side's."""
    if paid.op.kind not in ONLY:
        return []
    side, short, rule = ONLY[paid.op.kind]
    if paid.side == side or (short == "SEA-01" and lake_port(game, paid.op.hex)):
        return []                                   # 14.0: both sides cross Lake Victoria
    return [game.finding(short, Ruling.PROVEN, step=paid.step,
                         message=f"the {side_name(paid.side)} player paid for a {paid.op.title} Operation; "
                                 f"it is the {side_name(side)} player's alone ({rule})",
                         evidence={"side": paid.side, "operation": paid.op.kind})]
