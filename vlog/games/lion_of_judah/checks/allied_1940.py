"""(40) Allied specifics of the 1940-41 scenario: the Negus's fate with the Gideon Force (CB-39)
and the optional French call to war (MV-48).

CB-39 (PB 14.6.4.4): the Negus eliminated in combat is removed for good; if the Gideon Force is
eliminated while stacked with the Negus, a die is rolled: 1-3 the Negus is eliminated too, 4-6
it escapes and may return as a reinforcement on the next game turn - off the map either way.
From the log: a combat that takes the Gideon Force off the map whole while the Negus stood in
its hex (and survived the combat) calls for that roll, the first die roll logged after the
combat's own; the Negus must then be off the map when the turn track next moves; and a Negus
placed on the map again is judged against the roll (never after 1-3 or an elimination in
combat; not before the next turn after 4-6; without a logged roll only possibly wrong).

MV-48 (PB 14.6.6, optional "French call to war"): no Free French unit leaves Djibouti (1910)
before turn 3 (the BdO sent to 1001 when France joins excepted). Judged only once the log shows
French Somaliland joined (before that SC-08 forbids any Free French move); always POSSIBLE, as
the log does not tell whether the optional rule is played.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, PlayLedger, finding
from vlog.games.lion_of_judah.step_events import Appear, Combat, Move, PhaseTurned

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.lion_of_judah.state import GameState, Unit
    from vlog.kit.steps import StepView

__all__ = [
    "DJIBOUTI",
    "FREE_FRENCH",
    "GIDEON",
    "NEGUS",
    "NegusWatch",
    "allied_action",
    "judge_french_call_to_war",
    "judge_negus_with_gideon",
]

NEGUS = "et-negus"
GIDEON = "gb-gideon"
FREE_FRENCH = frozenset({"ff-bdo", "ff-ts"})
DJIBOUTI = "1910"
BDO_TO = "1001"
"""PB 14.6.6: when France joins, the BdO may be placed as a reinforcement in 1001 at once."""
RECENT_ROLLS = 256
FRENCH_OPTION = "whether the optional rule French call to war (PB 14.6.6) is played"


@dataclass(slots=True)
class NegusWatch(PlayLedger):
    """What the log has shown of the Negus's fate."""

    only = "1940-41"

    rolls: deque[tuple[int, int]] = field(default_factory=lambda: deque(maxlen=RECENT_ROLLS))
    """(step, total) of the die rolls logged lately, in order (a combat is closed a few steps
    after its declaration, so only recent rolls can be its own or the Negus's)."""
    due: dict[str, Any] | None = None
    """The Gideon Force was eliminated with the Negus: the combat's step, roll step, when."""
    roll: tuple[int, int] | None = None
    """(step, total) of the Negus's survival roll."""
    gone_for_good: tuple[int, str] | None = None
    """(step, why) once the Negus is removed for good."""
    escaped_turn: int | None = None
    must_leave: tuple[int, str | None] | None = None
    reported: set[str] = field(default_factory=set)

    def play(self, event: Any) -> list[Finding]:
        """(40) The Negus and the Free French in each event of play (CB-39, MV-48)."""
        game = self.game
        return allied_action(self, event, phase=game.interpreter.phase, phase_bound=game.interpreter.phase_bound,
                             joined=game.events.french_somaliland_joined())

    def step(self, view: "StepView") -> list[Finding]:
        if self.game.scenario == "1940-41":
            self.logged(view.index, [r.total for r in view.rolls if r.total is not None])
        return []

    def end(self, view: "StepView") -> list[Finding]:
        """The log ends before the Negus's fate is told: CB-39 met an occasion it cannot settle
        (the log that continues this one may settle it)."""
        if self.game.scenario != "1940-41" or self.must_leave is None:
            return []
        step = self.must_leave[0]
        if self.due is not None and self.roll is None and self.gone_for_good is None:
            wanted = [f"the Negus's survival roll (the first die roll after the combat of step {step})"]
        else:
            wanted = []
        wanted.append(f"the turn track moving on after step {step}, when the Negus must be off the map")
        self.game.unsettled("CB-39", step, wanted)
        return []

    def logged(self, step: int, totals: list[int]) -> None:
        """Die rolls of a step (in order); the first after a due survival roll is that roll."""
        for total in totals:
            self.rolls.append((step, total))
        if totals:
            self._take_roll()

    def _take_roll(self) -> None:
        if self.due is None or self.roll is not None:
            return
        after = [r for r in self.rolls if r[0] >= self.due["from_step"]][self.due["skip"]:]
        if not after:
            return
        self.roll = after[0]
        if after[0][1] <= 3:
            self.gone_for_good = (after[0][0], f"eliminated on a survival roll of {after[0][1]}")
        else:
            self.escaped_turn = self.due["turn"]

    def combat(self, before: GameState, attackers: tuple[Unit, ...], defenders: tuple[Unit, ...],
               removed: frozenset[str], *, step: int, when: str | None, turn: int | None,
               roll_logged: bool) -> None:
        """A closed combat: did the Gideon Force go with the Negus in its hex, or the Negus itself?"""
        units = (*attackers, *defenders)
        negus_hexes = {u.hex for u in before.units.values() if u.counter == NEGUS and u.hex is not None}
        for u in units:
            if u.counter == NEGUS and u.id in removed:
                self.gone_for_good = (step, "eliminated in combat")
                self.due = None
                return
        gideon = [u for u in units if u.counter == GIDEON and u.id in removed and u.hex in negus_hexes]
        if not gideon or self.gone_for_good is not None:
            return
        # the survival roll is the first roll after the combat's own (logged at or after `step`)
        self.due = {"step": step, "when": when, "turn": turn, "hex": gideon[0].hex,
                    "from_step": step, "skip": 1 if roll_logged else 0}
        self.roll = None
        self.must_leave = (step, when)
        self._take_roll()

    @REGISTRY.reports("CB-39")
    def judge_still_there(self, state: GameState, *, step: int, when: str | None) -> list[Finding]:
        """When the turn track moves on: the Negus is off the map after the Gideon Force fell."""
        if self.must_leave is None:
            return []
        at_step, _ = self.must_leave
        self.must_leave = None
        negus = [u for u in state.units.values() if u.counter == NEGUS and u.hex is not None]
        if not negus:
            return []
        roll = self.roll[1] if self.roll is not None else None
        fate = (f"is eliminated on a survival roll of {roll}" if roll is not None and roll <= 3
                else f"escapes on a survival roll of {roll}" if roll is not None
                else "is eliminated (1-3) or escapes (4-6)")
        return [finding("CB-39", Ruling.PROVEN, step=step, when=when, subjects=(negus[0].name,),
                        message=f"the {negus[0].name} is still on the map at "
                                f"{negus[0].hex} after the Gideon Force was eliminated in its hex "
                                f"(step {at_step}); the {negus[0].name} "
                                f"{fate}, off the map either way",
                        evidence={"hex": negus[0].hex, "gideon_eliminated_step": at_step,
                                  "survival_roll": roll})]

    @REGISTRY.reports("CB-39")
    def judge_return(self, negus: Unit, *, turn: int | None, step: int,
                     when: str | None) -> list[Finding]:
        """The Negus placed on the map again."""
        where = negus.hex
        if self.gone_for_good is not None:
            at, why = self.gone_for_good
            return [finding("CB-39", Ruling.PROVEN, step=step, when=when, subjects=(negus.name,),
                            message=f"the {negus.name} was placed at {where}, but it was {why} at step "
                                    f"{at} and is permanently removed from the game",
                            evidence={"hex": where, "removed_step": at, "why": why})]
        if self.escaped_turn is not None and turn is not None and turn <= self.escaped_turn:
            return [finding("CB-39", Ruling.PROVEN, step=step, when=when, subjects=(negus.name,),
                            message=f"the {negus.name} escaped on turn {self.escaped_turn} (roll "
                                    f"{self.roll[1] if self.roll else '?'}) and returned on turn {turn}; "
                                    "it returns as a reinforcement on the next game turn at the earliest",
                            evidence={"hex": where, "escaped_turn": self.escaped_turn, "turn": turn})]
        if self.due is not None and self.roll is None and "no-roll" not in self.reported:
            self.reported.add("no-roll")
            datum = "the Negus's survival roll (PB 14.6.4.4), not logged"
            return [finding("CB-39", Ruling.POSSIBLE, step=step, when=when, subjects=(negus.name,),
                            message=f"the {negus.name} returned at {where} after the Gideon Force was "
                                    "eliminated with it; on a roll of 1-3 it is removed for good",
                            evidence={"hex": where, "gideon_eliminated_step": self.due["step"]},
                            depends_on=(datum,))]
        return []


@REGISTRY.reports("MV-48")
def judge_french_call_to_war(unit: Unit, to: str, *, turn: int | None, joined: Any,
                             step: int, when: str | None) -> list[Finding]:
    """MV-48: a Free French unit leaving Djibouti before turn 3, once France has joined."""
    if unit.counter not in FREE_FRENCH or unit.hex != DJIBOUTI or to == DJIBOUTI:
        return []
    if turn is None or turn >= 3 or joined is not True:
        return []
    if unit.counter == "ff-bdo" and to == BDO_TO:
        return []
    return [finding("MV-48", Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                    message=f"{unit.name} left Djibouti (1910) for {to} on turn {turn}; under the "
                            "optional French call to war no Free French unit leaves Djibouti before "
                            "turn 3 (the BdO may go to 1001 when France joins)",
                    evidence={"from": DJIBOUTI, "to": to, "turn": turn},
                    depends_on=(FRENCH_OPTION,))]


def allied_action(watch: NegusWatch, action: Any, *, phase: Any, phase_bound: bool,
                  joined: Any) -> list[Finding]:
    """The 1940-41 Allied specifics of one engine event (step_events.py; the engine's dispatch
    calls this)."""
    if isinstance(action, Combat):
        pending = action.pending
        turn = pending.phase.turn if pending.phase is not None else None
        watch.combat(pending.before, action.attackers, action.defenders, frozenset(pending.removed),
                     step=action.step, when=action.when, turn=turn, roll_logged=pending.roll is not None)
        return []
    if isinstance(action, PhaseTurned):
        return watch.judge_still_there(action.state, step=action.step, when=action.new.when())
    turn = phase.turn if (phase is not None and phase_bound) else None
    if isinstance(action, Appear) and action.unit.counter == NEGUS:
        return watch.judge_return(action.unit, turn=turn, step=action.step, when=action.when)
    if isinstance(action, Move) and action.unit.hex is not None and action.to is not None:
        return judge_french_call_to_war(action.unit, action.to, turn=turn, joined=joined,
                                        step=action.step, when=action.when)
    return []


@REGISTRY.reports("MV-44")
def judge_negus_with_gideon(board: Board, negus: "Unit", to: str, after: "GameState", *, step: int,
                            when: str | None) -> list[Finding]:
    """MV-44 (PB 14.6.4.4): in Ethiopia the Negus moves only stacked with the Gideon Force."""
    inside = board.in_zone(to, "ethiopia")
    if inside is False:
        return []
    if any(u.counter == GIDEON for u in after.at(to)):
        return []
    ruling = Ruling.PROVEN if inside is True else Ruling.POSSIBLE
    return [finding("MV-44", ruling, step=step, when=when, subjects=(negus.name,),
                    message=f"the Negus moved to {hex_label(to, board)} in Ethiopia without "
                            "the Gideon Force", evidence={"hex": to},
                    depends_on=() if inside is True else inside.data)]
