"""Initiative (4.0 phase 3, 5.1): each player rolls one die and adds his OFC's Initiative
Rating (von Lettow 4, the Allied OFC by the 10.14 chart); the higher total has the Initiative
and chooses the Operations Segment he takes, the other player gets the other (5.14). A tie
calls for a Random Event roll, then both roll again (5.13).

The `Initiative` ledger keeps each turn's rounds of initiative rolls, its winner and the
segments the players took; `owner(turn, segment)` tells the operations ledgers whose segment
is whose. SEQ-10 judges the rolls (one die each) and that the winner chose; SEQ-11 the Random
Event roll and the re-roll after a tie.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.sequence import side_name
from ..events import EventRolled, InitiativeRolled, SegmentChosen
from ..registry import REGISTRY
from .common import ALLIED, GERMAN, allied_ratings, commander, known_turn, other

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, StepView

    from ..events import Rolled
    from ..rules import Sideshow

__all__ = ["Initiative"]


@dataclass(slots=True)
class Turn:
    """One turn's initiative: the round being rolled, the last complete round, a tie not yet
    followed by a Random Event roll, and the segment each side took."""

    rolling: dict[str, "Rolled"] = field(default_factory=dict)
    last: dict[str, "Rolled"] | None = None
    tie_step: int | None = None
    event_since_tie: bool = False
    segments: dict[int, str] = field(default_factory=dict)
    chosen: int | None = None
    """The segment the player with the Initiative took."""


class Initiative(Ledger):
    """Each turn's initiative rolls and the segments the players took."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.turns: dict[int | None, Turn] = {}
        self._ratings: dict[tuple[str, int | None], frozenset[int]] = {}
        """(side, turn) -> its ratings: the OFC chart is walked once per turn, not once per roll."""

    @property
    def turn(self) -> int | None:
        return known_turn(self.game)

    def record(self) -> Turn:
        return self.turns.setdefault(self.turn, Turn())

    def owner(self, turn: int | None, segment: int) -> str | None:
        """The side that took Operations Segment 1 or 2 of a turn, None when no choice was read."""
        record = self.turns.get(turn)
        return record.segments.get(segment) if record is not None else None

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        record = self.record()
        if isinstance(event, EventRolled) and record.tie_step is not None:
            record.event_since_tie = True
        return ()

    def winner(self) -> str | None:
        """The side that has the Initiative this turn: the segment chooser, else the higher total
        of the last complete round where it is known; None when neither is."""
        record = self.turns.get(self.turn)
        if record is None:
            return None
        chooser = next((s for n, s in sorted(record.segments.items()) if n == record.chosen), None) \
            if record.chosen else None
        if chooser is not None:
            return chooser
        totals = self.totals(record.last) if record.last and len(record.last) == 2 else None
        if totals is None or totals[ALLIED] == totals[GERMAN]:
            return None
        return ALLIED if totals[ALLIED] > totals[GERMAN] else GERMAN

    def ratings(self, side: str) -> frozenset[int]:
        """The side's Initiative Rating this turn; every Allied rating when the turn is not known."""
        key = (side, self.turn)
        if key not in self._ratings:
            _, rating = commander(self.game.data, self.game.scenario or "", side, self.turn)
            self._ratings[key] = frozenset({rating}) if rating is not None else \
                allied_ratings(self.game.data) if side == ALLIED else frozenset()
        return self._ratings[key]

    def totals(self, rolls: dict[str, "Rolled"]) -> dict[str, int] | None:
        """The totals of a round where the ratings are known, else None."""
        out = {}
        for side, roll in rolls.items():
            ratings = self.ratings(side)
            if len(ratings) != 1 or roll.total is None:
                return None
            out[side] = roll.total + next(iter(ratings))
        return out


@REGISTRY.check("SEQ-10", "SEQ-11", event=InitiativeRolled)
def judge_initiative_roll(game: "Sideshow", roll: "InitiativeRolled", view: "StepView") -> list["Finding"]:
    """5.12: each player rolls one die for the Initiative; 5.13: after a tie, a Random Event roll
    comes before the players roll again."""
    if roll.side is None:
        return []
    ledger = game.initiative
    record, found = ledger.record(), []
    if roll.roll.n_dice != 1:
        found.append(game.finding("SEQ-10", Ruling.PROVEN, step=roll.step,
                                  message=f"the {side_name(roll.side)} initiative roll was {roll.dice}; "
                                          "each player rolls one die (5.12)",
                                  evidence={"side": roll.side, "dice": roll.dice, "roll": roll.total}))
    if not record.rolling and record.tie_step is not None:
        if not record.event_since_tie:
            found.append(game.finding("SEQ-11", Ruling.PROVEN, step=roll.step,
                                      message=f"the initiative was rolled again after the tie of step {record.tie_step} "
                                              "with no Random Event roll between (5.13)",
                                      evidence={"tie_step": record.tie_step, "side": roll.side}))
        record.tie_step = None
    record.rolling[roll.side] = roll
    if len(record.rolling) == 2:
        record.last, record.rolling = record.rolling, {}
        totals = ledger.totals(record.last)
        if totals is not None and totals[ALLIED] == totals[GERMAN]:
            record.tie_step, record.event_since_tie = roll.step, False
    return found


@REGISTRY.check("SEQ-10", "SEQ-11", event=SegmentChosen)
def judge_choice(game: "Sideshow", chosen: "SegmentChosen", view: "StepView") -> list["Finding"]:
    """5.12-5.14: the player with the higher total chooses the segment; after a tie nobody has
    the Initiative until both have rolled again. The other player gets the other segment."""
    ledger, side, step = game.initiative, chosen.side, chosen.step
    record = ledger.record()
    found = _choice(game, ledger, record, side, step)
    record.segments = {chosen.segment: side, 3 - chosen.segment: other(side)}
    record.chosen = chosen.segment
    return found


def _choice(game: "Sideshow", ledger: Initiative, record: Turn, side: str, step: int | None) -> list["Finding"]:
    last = record.last
    if last is None or set(last) != {ALLIED, GERMAN} or record.rolling:
        return []
    shown = {s: r.total for s, r in last.items()}
    if record.tie_step is not None:
        return [game.finding("SEQ-11", Ruling.PROVEN, step=step,
                             message=f"the {side_name(side)} player chose a segment after the initiative tie "
                                     f"of step {record.tie_step}; both roll again first (5.13)",
                             evidence={"rolls": shown, "tie_step": record.tie_step})]
    readings = [(a, g) for a in ledger.ratings(ALLIED) for g in ledger.ratings(GERMAN)]
    rolls = {s: r.total for s, r in last.items()}
    if any(rolls[s] is None for s in rolls) or not readings:
        return []

    def wins(a: int, g: int) -> bool:
        mine, theirs = (rolls[ALLIED] + a, rolls[GERMAN] + g) if side == ALLIED else (rolls[GERMAN] + g, rolls[ALLIED] + a)
        return mine > theirs

    if any(wins(a, g) for a, g in readings):
        return []
    allied = sorted({a for a, _ in readings})
    german = sorted({g for _, g in readings})

    def shown_total(s: str, ratings: list[int]) -> str:
        low, high = rolls[s] + ratings[0], rolls[s] + ratings[-1]
        rating = str(ratings[0]) if low == high else f"{ratings[0]}-{ratings[-1]}"
        return f"{side_name(s)} {rolls[s]} + {rating} = {low if low == high else f'{low}-{high}'}"

    return [game.finding("SEQ-10", Ruling.PROVEN, step=step,
                         message=f"the {side_name(side)} player chose the segment without the Initiative: "
                                 f"{shown_total(ALLIED, allied)}, {shown_total(GERMAN, german)} (5.12, 5.14)",
                         evidence={"rolls": rolls, "ratings": {ALLIED: allied, GERMAN: german}, "chooser": side})]
