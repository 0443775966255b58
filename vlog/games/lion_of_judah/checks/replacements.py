"""Replacement, consolidation and breakdown (2.4, 2.5, 7.3.3, PB 14.5.2.3, PB 14.5.2.5).

* RR-14 (7.3.3): a reduced unit on the map gains steps only in the Mutual Administration Phase,
  in supply, stacked with or next to a friendly HQ (not across an impassable hexside);
* RR-13 (PB 14.5.2.3): (40) Black Shirt units and the 40th and 65th divisions (black circle)
  are never replaced;
* RR-17 (2.5): consolidation (a breakdown unit absorbed in the same hex) only in supply;
* RR-16 (2.4, PB 14.5.2.5): a breakdown unit is formed in the hex of a unit of its side and class
  with at least 3 steps that gives up a step in the same MAP, in supply; in 1940-41 only the 40th
  and 65th divisions break down;
* RR-18 (2.4; PB 14.3.3): an eliminated breakdown unit comes back only through the breakdown
  process; (40) the Allied A-D never come back;
* RR-19 (PB 13.6.8): (35) the Starace, Frusci and Badoglio columns are formed like breakdown units
  from turn 4, from a 3- or 4-step Black Shirt (Starace) or Italian regular (Frusci, Badoglio)
  division, removing one truck for the first column and two for two or three.

Breakdown units and columns are judged when the MAP they are formed in ends (`FormationLedger`):
a player drags the breakdown unit out and flips its parent in two steps of the log, in either
order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, GameLedger, finding
from vlog.games.lion_of_judah.step_events import PhaseTurned, StepGain
from vlog.games.lion_of_judah.checks.supply import trace
from vlog.games.lion_of_judah.state import GameState, Unit, changed_ids

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.steps import StepView

__all__ = ["judge_step_gain", "judge_breakdown", "NEVER_REPLACED_1940", "BREAK_DOWN_1940",
           "FormationLedger", "judge_breakdown_return", "COLUMN_TURN", "NEVER_RETURN_1940",
           "judge_kar_regiment", "StepGains"]

COLUMN_TURN = 4
"""PB 13.6.8: the columns arrive on game turn 4."""
NEVER_RETURN_1940 = ("gb-breakdown-a", "gb-breakdown-b", "gb-breakdown-c", "gb-breakdown-d")
"""PB 14.3.3: the Allied breakdown units never return once eliminated."""
KAR_BRIGADES = ("gb-kar1", "gb-kar2")
REGIMENTS_FOR_KAR_STEPS = ("gb-bf", "gb-gf")
"""PB 14.3.3 optional BF and GF Regiments: placed in Sudan, each for an eliminated KAR step."""
TRUCKS_FOR_COLUMNS = {1: 1, 2: 2, 3: 2}
"""PB 13.6.8: trucks removed for one, two or three columns."""

NEVER_REPLACED_1940 = ("it-40th", "it-65th")
BREAK_DOWN_1940 = ("it-40th", "it-65th")


@REGISTRY.reports("RR-14", "RR-16", "RR-17", "RR-19")
def _supply_finding(board: Board, state: GameState, unit: Unit, short: str, what: str,
                    step: int | None, when: str | None) -> list[Finding]:
    result = trace(board, state, unit)
    if result is None or result.ruling is Ruling.LEGAL:
        return []
    return [finding(short, result.ruling, step=step, when=when, subjects=(unit.name,),
                    message=f"{unit.name} {what} in {hex_label(unit.hex or '', board)} "
                            + ("out of supply" if result.ruling is Ruling.PROVEN
                               else "where its supply rests on data vlog lacks"),
                    evidence={"hex": unit.hex, "reasons": list(result.verdict.reasons)},
                    depends_on=result.verdict.depends_on)]


@REGISTRY.reports("RR-13", "RR-14")
def judge_step_gain(board: Board, state: GameState, unit: Unit, steps_after: int, *,
                    consolidated_with: list[str], phase_key: str | None, step: int | None,
                    when: str | None) -> list[Finding]:
    """A unit on the map shows more steps than before (state: the position before)."""
    gained = steps_after - unit.steps if isinstance(unit.steps, int) else None
    if phase_key is not None and phase_key != "map":
        return [finding("RR-14", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} gained {gained} step(s) outside the Mutual "
                                "Administration Phase",
                        evidence={"steps_before": unit.steps, "steps_after": steps_after,
                                  "phase": phase_key})]
    if consolidated_with:
        return _supply_finding(board, state, unit, "RR-17", "absorbed a breakdown unit", step, when)
    out: list[Finding] = []
    if state.scenario == "1940-41" and unit.side == "italian" and (
            unit.unit_class == "black-shirt" or unit.counter in NEVER_REPLACED_1940):
        out.append(finding("RR-13", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} received a replacement; Black Shirt units and the "
                                   "40th and 65th divisions are never replaced in 1940-41",
                           evidence={"counter": unit.counter, "class": unit.unit_class}))
    hqs = [u for u in state.units.values() if u.kind == "hq" and u.side == unit.side and u.hex]
    reach: list[bool | Unknown] = []       # per HQ: does it serve the unit (7.3.3)?
    for hq in hqs:
        if hq.hex == unit.hex:
            reach.append(True)
        elif unit.hex is not None and hq.hex in board.neighbours(unit.hex):
            blocked = board.hexside_has(unit.hex, hq.hex, "impassable")
            reach.append(Unknown(*blocked.data) if isinstance(blocked, Unknown) else not blocked)
    if True not in reach:
        unsure = [r for r in reach if isinstance(r, Unknown)]
        out.append(finding("RR-14", Ruling.POSSIBLE if unsure else Ruling.PROVEN, step=step, when=when,
                           subjects=(unit.name,),
                           message=f"{unit.name} received a replacement in {hex_label(unit.hex or '', board)} "
                                   "with no friendly HQ in or next to its hex (across no impassable hexside)",
                           evidence={"hex": unit.hex, "hqs": {hq.name: hq.hex for hq in hqs}},
                           depends_on=frozenset().union(*(r.data for r in unsure))))
    return out + _supply_finding(board, state, unit, "RR-14", "received a replacement", step, when)


class StepGains(GameLedger):
    """A unit gaining steps on the map outside a combat (the `StepGain` event, which no item
    names among its occasions): judged as a replacement or a consolidation (RR-13, RR-14,
    RR-17), in the phase the turn track shows."""

    def event(self, event: object, view: "StepView") -> list[Finding]:
        if not isinstance(event, StepGain):
            return []
        game = self.game
        phase = game.interpreter.phase
        before = event.before
        before.scenario = game.scenario
        key = phase.key if (phase is not None and game.interpreter.phase_bound) else None
        return judge_step_gain(game.board, before, event.unit, event.steps_after,
                               consolidated_with=event.consolidated_with, phase_key=key,
                               step=event.step, when=event.when)


@REGISTRY.reports("RR-16")
def judge_breakdown(board: Board, before: GameState, after: GameState, formed: Unit, *,
                    step: int | None, when: str | None) -> list[Finding]:
    """A breakdown unit placed on the map: some unit of its side in that hex with 3+ steps gave
    up a step at the same time (2.4)."""
    donors = []
    for uid, was in before.units.items():
        now = after.units.get(uid)
        if now is None or was.hex != formed.hex or was.side != formed.side:
            continue
        if isinstance(was.steps, int) and was.steps >= 3 and isinstance(now.steps, int) \
                and now.steps < was.steps:
            donors.append(was)
    where = hex_label(formed.hex or "", board)
    if not donors:
        return [finding("RR-16", Ruling.PROVEN, step=step, when=when, subjects=(formed.name,),
                        message=f"{formed.name} was formed in {where}, but no unit of 3 or more steps "
                                "there gave up a step",
                        evidence={"hex": formed.hex})]
    if after.scenario == "1940-41" and formed.side == "italian" and not any(
            d.counter in BREAK_DOWN_1940 for d in donors):
        return [finding("RR-16", Ruling.PROVEN, step=step, when=when, subjects=(formed.name,),
                        message=f"{formed.name} was formed in {where}; in 1940-41 only the 40th and 65th "
                                "divisions break down", evidence={"hex": formed.hex,
                                                                  "donors": [d.name for d in donors]})]
    return _supply_finding(board, before, donors[0], "RR-16", "broke down", step, when)


# -- breakdown units and columns formed in a MAP -------------------------------------------------

@dataclass(slots=True)
class _Formed:
    unit: Unit
    before: GameState
    step: int | None
    when: str | None


@dataclass(slots=True)
class _Drop:
    unit: Unit           # as it was before the step that reduced it
    hex: str
    steps: int           # steps given up in that step


@dataclass(slots=True)
class FormationLedger(GameLedger):
    """What one MAP shows of breaking down (2.4) and of the (35) columns (PB 13.6.8), and the
    columns and trucks of the whole game so far."""

    formed: list[_Formed] = field(default_factory=list)
    drops: list[_Drop] = field(default_factory=list)
    trucks_removed: int = 0
    """Italian trucks taken out of play (off the map and the RP boxes) in MAPs so far."""
    columns: list[str] = field(default_factory=list)
    """Names of the columns formed so far."""
    eliminated: set[str] = field(default_factory=set)
    """Counters of breakdown units taken off the map (2.4: back to the breakdown box)."""
    kar_steps_lost: int = 0
    """(40) Steps the KAR brigades have lost (PB 14.3.3 optional BF and GF regiments, RR-27)."""

    def note_step(self, before: GameState, after: GameState, *, in_map: bool) -> None:
        """Steps given up on the map, breakdown units gone and (in the MAP) trucks removed."""
        for uid in changed_ids(before, after):        # an unchanged unit lost and gave up nothing
            was, now = before.units[uid], after.units.get(uid)
            gone = now is None or (was.hex is not None and now.hex is None)
            if was.unit_type == "breakdown" and was.hex is not None and gone and was.counter:
                self.eliminated.add(was.counter)
            if was.counter in KAR_BRIGADES and was.hex is not None and isinstance(was.steps, int):
                if gone:
                    self.kar_steps_lost += was.steps
                elif now is not None and isinstance(now.steps, int) and now.steps < was.steps:
                    self.kar_steps_lost += was.steps - now.steps
            if not in_map:
                continue
            if was.kind == "truck" and was.side == "italian" and _in_play(was) and (now is None or not _in_play(now)):
                self.trucks_removed += 1
            if now is not None and was.hex is not None and now.hex == was.hex and isinstance(was.steps, int) \
                    and isinstance(now.steps, int) and now.steps < was.steps:
                self.drops.append(_Drop(was, was.hex, was.steps - now.steps))

    def note_formed(self, unit: Unit, before: GameState, *, step: int | None, when: str | None) -> None:
        self.formed.append(_Formed(unit, before, step, when))

    def phase(self, change: PhaseTurned, view: "StepView") -> list[Finding]:
        old = change.old
        if old is None or old.key != "map" or not change.bound:
            return []
        return self.close(self.game.board, turn=old.turn, step=change.step, when=old.when())

    def end(self, view: "StepView") -> list[Finding]:       # a MAP the log ends in
        phase = self.game.interpreter.phase
        return self.close(self.game.board, turn=phase.turn if phase is not None else None, step=None, when=None)

    @REGISTRY.reports("RR-19")
    def close(self, board: Board, *, turn: int | None, step: int | None, when: str | None) -> list[Finding]:
        """The findings of the MAP that ends (`step`, `when`: where it ends), then a fresh MAP."""
        out: list[Finding] = []
        formed_columns = 0
        for formed in self.formed:
            if formed.unit.unit_type == "column":
                found = _judge_column(board, formed, self.drops, turn)
                formed_columns += 1
                self.columns.append(formed.unit.name)
            else:
                found = _judge_formed_breakdown(board, formed, self.drops)
            out.extend(found)
        if formed_columns:
            need = TRUCKS_FOR_COLUMNS.get(min(len(self.columns), 3), 2)
            if self.trucks_removed < need:
                last = [f for f in self.formed if f.unit.unit_type == "column"][-1]
                out.append(finding("RR-19", Ruling.PROVEN, step=step if step is not None else last.step,
                                   when=when if when is not None else last.when, subjects=tuple(self.columns),
                                   message=f"{len(self.columns)} column(s) formed ({', '.join(self.columns)}) "
                                           f"but {self.trucks_removed} Italian truck(s) permanently removed; "
                                           f"{'one column costs one truck' if need == 1 else 'two or three columns cost two trucks'}",
                                   evidence={"columns": list(self.columns), "trucks_removed": self.trucks_removed,
                                             "trucks_needed": need}))
        self.formed, self.drops = [], []
        return out


def _in_play(unit: Unit) -> bool:
    """On the map or in an RP storage box (7.3.2)."""
    return unit.hex is not None or (unit.box or "").startswith("rp-")


def _take_donor(formed: Unit, drops: list[_Drop], wanted: str | None, *, division: bool = False) -> _Drop | None | Unknown:
    """The first step given up in the formed unit's hex by a unit of 3+ steps of its side (and
    of class `wanted` when given); the drop is used up. Unknown when only units whose class the
    data lacks could have given it."""
    unsure: list[str] = []
    for drop in drops:
        donor = drop.unit
        if drop.hex != formed.hex or donor.side != formed.side or drop.steps < 1 \
                or not isinstance(donor.steps, int) or donor.steps < 3:
            continue
        if division and donor.size not in ("division", None):
            continue
        if wanted is not None and donor.unit_class != wanted:
            if donor.unit_class is None:
                unsure.append(f"counters.json class of {donor.counter or donor.name}")
            continue
        drop.steps -= 1
        return drop
    return Unknown(*unsure) if unsure else None


@REGISTRY.reports("RR-16")
def _judge_formed_breakdown(board: Board, formed: _Formed, drops: list[_Drop]) -> list[Finding]:
    """RR-16 for a breakdown unit placed in the MAP (2.4; PB 14.5.2.5)."""
    unit, step, when = formed.unit, formed.step, formed.when
    where = hex_label(unit.hex or "", board)
    donor = _take_donor(unit, drops, unit.unit_class)
    if donor is None and unit.unit_class is not None:
        other = _take_donor(unit, drops, None)
        if isinstance(other, _Drop):
            return [finding("RR-16", Ruling.PROVEN, step=step, when=when, subjects=(unit.name, other.unit.name),
                            message=f"{unit.name} was formed in {where} from {other.unit.name}; units break "
                                    "down only into breakdown units of their own class",
                            evidence={"hex": unit.hex, "class": unit.unit_class,
                                      "donor_class": other.unit.unit_class})]
    if isinstance(donor, Unknown):
        return [finding("RR-16", Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} was formed in {where}, from a unit whose class is not known",
                        evidence={"hex": unit.hex}, depends_on=donor.data)]
    if donor is None:
        return [finding("RR-16", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} was formed in {where}, but no unit of 3 or more steps there "
                                "gave up a step in the MAP",
                        evidence={"hex": unit.hex})]
    if formed.before.scenario == "1940-41" and unit.side == "italian" and donor.unit.counter not in BREAK_DOWN_1940:
        return [finding("RR-16", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} was formed in {where}; in 1940-41 only the 40th and 65th "
                                "divisions break down", evidence={"hex": unit.hex, "donors": [donor.unit.name]})]
    return _supply_finding(board, formed.before, donor.unit, "RR-16", "broke down", step, when)


@REGISTRY.reports("RR-19")
def _judge_column(board: Board, formed: _Formed, drops: list[_Drop], turn: int | None) -> list[Finding]:
    """RR-19 for a column placed in the MAP (PB 13.6.8)."""
    unit, step, when = formed.unit, formed.step, formed.when
    where = hex_label(unit.hex or "", board)
    if isinstance(turn, int) and turn < COLUMN_TURN:
        return [finding("RR-19", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"the {unit.name} column was formed on turn {turn}; the columns arrive on "
                                f"turn {COLUMN_TURN}", evidence={"turn": turn, "hex": unit.hex})]
    wanted = unit.properties.get("formed_from")
    donor = _take_donor(unit, drops, wanted if isinstance(wanted, str) else None, division=True)
    if isinstance(donor, Unknown):
        return [finding("RR-19", Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                        message=f"the {unit.name} column was formed in {where} from a unit whose class is "
                                "not known", evidence={"hex": unit.hex}, depends_on=donor.data)]
    if donor is None:
        kind = {"black-shirt": "Black Shirt", "italian-regular": "Italian regular"}.get(str(wanted), str(wanted))
        return [finding("RR-19", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"the {unit.name} column was formed in {where}, but no {kind} division of 3 "
                                "or more steps there gave up a step in the MAP",
                        evidence={"hex": unit.hex, "formed_from": wanted})]
    return _supply_finding(board, formed.before, donor.unit, "RR-19", "gave up a step for a column", step, when)


@REGISTRY.reports("RR-18")
def judge_breakdown_return(board: Board, ledger: FormationLedger, unit: Unit, scenario: str | None, *,
                           step: int | None, when: str | None) -> list[Finding]:
    """RR-18 (PB 14.3.3): (40) an Allied breakdown unit A-D placed on the map again after it
    was eliminated (the Allies have no 3- or 4-step unit to re-form it)."""
    if scenario != "1940-41" or unit.counter not in NEVER_RETURN_1940 or unit.counter not in ledger.eliminated:
        return []
    return [finding("RR-18", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                    message=f"the Allied breakdown unit {unit.name} came back at "
                            f"{hex_label(unit.hex or '', board)}; it was eliminated, and Allied breakdown "
                            "units never return",
                    evidence={"counter": unit.counter, "hex": unit.hex})]


@REGISTRY.reports("RR-27")
def judge_kar_regiment(board: Board, ledger: FormationLedger, unit: Unit, scenario: str | None,
                       placed_before: int, *, step: int | None, when: str | None) -> list[Finding]:
    """RR-27 (PB 14.3.3, optional BF and GF Regiments): (40) the BF or GF regiment placed on the
    map (`placed_before`: how many of the two were placed earlier) stands in Sudan and costs one
    eliminated KAR brigade step each."""
    if scenario != "1940-41" or unit.counter not in REGIMENTS_FOR_KAR_STEPS or unit.hex is None:
        return []
    where = hex_label(unit.hex, board)
    out: list[Finding] = []
    sudan = board.in_zone(unit.hex, "sudan")
    if sudan is False:
        out.append(finding("RR-27", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"the {unit.name} regiment was placed at {where}, outside Sudan",
                           evidence={"hex": unit.hex}))
    elif isinstance(sudan, Unknown):
        out.append(finding("RR-27", Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                           message=f"the {unit.name} regiment was placed at {where}, which must be in Sudan",
                           evidence={"hex": unit.hex}, depends_on=sudan.data))
    if ledger.kar_steps_lost < placed_before + 1:
        out.append(finding("RR-27", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"the {unit.name} regiment was placed at {where} with "
                                   f"{ledger.kar_steps_lost} KAR brigade step(s) eliminated so far for "
                                   f"{placed_before + 1} regiment(s): each costs one",
                           evidence={"hex": unit.hex, "kar_steps_lost": ledger.kar_steps_lost,
                                     "regiments": placed_before + 1}))
    return out
