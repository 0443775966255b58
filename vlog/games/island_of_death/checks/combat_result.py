"""Combat resolution (9.3-9.5, 10.2, 11.3-11.5): the CRT roll of each declared attack, the result
it gives, the steps the pieces lose, and the morale state it leaves.

A combat runs from its `attack` line to the next one, the end of the phase or of the log. Its
CRT roll is the first two-dice roll logged in it; the attacker may say the result he read:

    result -/3D

Judged when the combat closes, on the table as it stood when it was declared:

* CBT-15: an attack whose final odds fall below its line's lowest column is cancelled (9.3g):
  no CRT roll;
* CBT-16: the result said is the CRT cell of the final column and line at the roll (9.3h);
  every reading of the odds the log leaves open is tried (combat_odds, with the support of
  checks/support.py);
* CBT-19 (with CBT-17, CBT-21): each side loses at least the steps its hits give, floor(hits/2)
  for the defender (one hit fewer in a fort) and ceil(hits/2) for the attacker, as far as its
  units have steps (an eliminated side's pending steps take one hit off the other side); the
  result is the one said, or the CRT cell every reading gives. More may be lost (standing
  ground, retreating through enemy ZOCs): that is not judged here;
* CBT-23: against a fort, at least half the attacker's step losses (rounded up) on the attacking
  engineers while one is left (9.92); PROVEN with an engineer in each attacking hex (the +1
  shift's condition), POSSIBLE otherwise;
* CBT-22: no artillery or warship supporting from a hex not next to the attacked one loses a
  step in it (9.52);
* CBT-05: no Demoralized unit attacks on a night turn (10.21, 11.4);
* CBT-25, CBT-26, CBT-27, CBT-29, CBT-30, CBT-31: the retreats, stands and advances its pieces made
  (checks/combat_moves.py).

The morale states follow the results (9.41: D disorganizes, a Disorganized unit D or Z
demoralizes; 10.21: night attackers are disorganized after the attack, demoralized if they were
already or took D or Z), night moves (6.71: more than half the allowance disorganizes) and recovery at the end of the owner's Combat Phase (11.5: a unit not
next to an enemy recovers, one next to one may: its roll is read both ways). A result the log
does not give leaves its units' states open.

The CRT is on the chart cards: on the shipped data the cells are unknown, and CBT-15/CBT-16 are
not judged there, naming the table.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

from vlog.engine.combat import CombatResult, level_name, parse_result
from vlog.engine.judge import Explanation, Ruling, Tri, Unknown, judge
from vlog.errors import GameDataError
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared, PhaseChanged

from vlog.games.island_of_death.checks.combat import Attack, named_units, speaker_side
from vlog.games.island_of_death.checks.combat_odds import (DEMORALIZED, DISORGANIZED, ENGINEERS, NORMAL, Crt, Reading,
                                                           odds_readings)
from vlog.games.island_of_death.checks.combat_moves import judge_combat_moves
from vlog.games.island_of_death.checks.support import support_readings, support_units
from vlog.games.island_of_death.rules import GRAMMARS, REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView
    from vlog.vassal.commands import Chat

__all__ = ["Combats", "read_result", "steps_available", "steps_lost_since"]

_RESULT = re.compile(r"\s*result\s+(\S+\s*/\s*\S+)\s*\.?\s*$", re.IGNORECASE)


def read_result(line: "Chat") -> CombatResult | None:
    """`result -/3D` -> the result as the attacker read it; None for other lines."""
    match = _RESULT.match(line.message)
    if match is None:
        return None
    try:
        return parse_result(match.group(1).replace(" ", "").upper())
    except GameDataError:
        return None


GRAMMARS.add("result", read_result)


@dataclass(slots=True)
class Combat:
    """One declared attack while it is open."""

    step: int | None
    attack: Attack
    side: str | None
    attackers: list["Unit"]
    defenders: list["Unit"]
    readings: list[Reading]
    night: bool
    fort: Tri
    roll: int | None = None
    roll_step: int | None = None
    said: CombatResult | None = None
    said_step: int | None = None
    start_units: dict[str, "Unit"] = field(default_factory=dict)
    dice: list[tuple[int, int | None]] = field(default_factory=list)
    """The single dice rolled after the CRT roll while the combat was open: (face, step)."""
    drops: dict[str, list[str]] = field(default_factory=dict)
    drop_steps: dict[str, int | None] = field(default_factory=dict)
    """Unit id -> the step of its last drop (of its entry, for a unit that entered a held hex)."""
    held: dict[str, list[str]] = field(default_factory=dict)
    """Attacking-side unit id -> the enemy units still in the attacked hex when it entered."""
    """Unit id -> the hexes it was dropped in while the combat was open (its retreat or advance)."""
    supporters: list["Unit"] = field(default_factory=list)
    """The artillery and warships named as supporting either side."""
    start_position: Any = None
    """The position when it was declared (the enemy ZOC a retreat enters)."""
    when: str | None = None
    """The phase it was declared in: its findings belong there, not to the phase that closes it."""

    def finding(self, game: "IslandOfDeath", short: str, ruling: Ruling, **kw: Any) -> "Finding":
        return game.inventory.finding(short, ruling, when=self.when, **kw)


class Combats(Ledger):
    """The open combat, and each unit's possible morale states (unit id -> states)."""

    def __init__(self, game: "IslandOfDeath") -> None:
        self.game = game
        self.open: Combat | None = None
        self.states: dict[str, frozenset[str]] = {}
        self._crt: Crt | None = None

    @property
    def crt(self) -> Crt:
        if self._crt is None:
            self._crt = Crt(self.game)
        return self._crt

    def state(self, unit_id: str) -> frozenset[str]:
        return self.states.get(unit_id, frozenset({NORMAL}))

    # -- the log's course --------------------------------------------------------------------
    def step(self, view: "StepView") -> tuple[()]:
        combat = self.open
        if combat is not None:
            for roll in view.rolls:
                if roll.total is None:
                    continue
                if combat.roll is None and roll.n_dice == 2:
                    combat.roll, combat.roll_step = roll.total, view.index
                elif combat.roll is not None and roll.n_dice == 1:
                    combat.dice.append((roll.total, view.index))    # stand-ground rolls (9.71)
        return ()

    def declared(self, event: Any, view: "StepView") -> list["Finding"]:
        """A `result` line joins the open combat; an `attack` line closes it and opens its own."""
        if event.grammar == "result":
            if self.open is not None and self.open.said is None:
                self.open.said, self.open.said_step = event.declaration, event.step
            return []
        if event.grammar != "attack":
            return []
        found = self.close(view)
        return found + self._open(event, view)

    def phase_changed(self, change: "PhaseChanged", view: "StepView") -> list["Finding"]:
        found = self.close(view)
        old = change.old
        if old is not None and "movement" in old.kinds and self.game.day_part(old) == "Night":
            self._night_moved(view, self.game.movement.night_moves)
        if old is not None and old.name.endswith("-combat") and old.phasing:
            self._recover(view, old.phasing)
        return found

    # -- opening and closing -----------------------------------------------------------------
    def _open(self, event: Any, view: "StepView") -> list["Finding"]:
        game = self.game
        phase = game.phase
        if phase is None or "combat" not in phase.kinds:
            return []                             # landing combats use other tables (18.6, 19.5)
        attack: Attack = event.declaration
        units = game.units(view.before)
        side = speaker_side(game, view)
        attackers = named_units(game, attack.attackers, attack.target, units, side)
        side = side or (attackers[0].side if attackers else phase.phasing)
        defenders = [u for u in units.values() if u.hex == attack.target and u.is_ground_unit and u.side != side]
        attackers = [u for u in attackers if game.board.distance(u.hex, attack.target) == 1]
        if not attackers or not defenders:
            return []                             # CBT-01, CBT-03 judge these
        night = game.day_part() == "Night"
        states = {u.id: self.state(u.id) for u in attackers + defenders}
        offense = defense = ((0, "", frozenset()),)
        supporters: list["Unit"] = []
        if attack.support or attack.defensive_support:
            other = defenders[0].side
            mine = support_units(game, attack.support, attack.target, units, side)
            theirs = support_units(game, attack.defensive_support, attack.target, units, other)
            supporters = mine + theirs
            offense = support_readings(game, mine, "offensive", attackers, attack.target, self.states, night)
            defense = support_readings(game, theirs, "defensive", defenders, attack.target, self.states, night)
        readings = odds_readings(game, attack.target, attackers, defenders, units.values(), states, self.crt,
                                 offense=offense, defense_support=defense)
        self.open = Combat(event.step, attack, side, attackers, defenders, readings, night,
                           Tri.of(game.supply.fort(attack.target)), start_units=dict(units), start_position=view.before, when=game.when(),
                           supporters=supporters)
        return self._judge_night(event)

    def close(self, view: "StepView") -> list["Finding"]:
        combat, self.open = self.open, None
        if combat is None:
            return []
        found: list["Finding"] = []
        cells = self._judge_cells(combat, found)
        result = combat.said or (cells[0] if len(cells) == 1 else None)
        if result is not None:
            self._judge_losses(combat, result, view, found)
            self._judge_engineers(combat, view, found)
        self._judge_support_losses(combat, view, found)
        found += judge_combat_moves(self.game, combat, result, view)
        self._apply_states(combat, result)
        return found

    # -- the CRT ----------------------------------------------------------------------------
    def _judge_cells(self, combat: Combat, found: list["Finding"]) -> list[CombatResult]:
        """CBT-15, CBT-16 on the roll; returns the results the readings give (one when settled)."""
        if combat.roll is None:
            return []
        game, crt = self.game, self.crt
        explanations: list[Explanation] = []
        cancelled: list[str] = []
        cells: set[str] = set()
        unknown: set[str] = set()
        for reading in combat.readings:
            line, level = reading.line, reading.level
            if isinstance(line, Unknown) or isinstance(level, Unknown) or line not in crt.tables:
                data = set(reading.deps)
                for v in (line, level):
                    if isinstance(v, Unknown):
                        data |= v.data
                if not isinstance(line, Unknown) and line not in crt.tables:
                    data.add("tables.json crt line_columns")
                unknown |= data
                explanations.append(Explanation(Tri(None, frozenset(data)), reading.why))
                continue
            choice = crt.scales[line].select(level)
            if choice.cancelled:
                cancelled.append(f"{level_name(level)} on {line} ({reading.why})")
                explanations.append(Explanation(Tri(False), f"{level_name(level)} is below the lowest column of "
                                                            f"{line}: the attack is cancelled"))
                continue
            cell = crt.tables[line].lookup(choice.column, combat.roll)
            if isinstance(cell, Unknown):
                unknown |= cell.data | reading.deps
                explanations.append(Explanation(Tri(None, cell.data | reading.deps), reading.why))
                continue
            cells.add(cell)
            said = combat.said
            label = f"{line} {level_name(choice.column)}, roll {combat.roll}: {cell} ({reading.why})"
            # a reading is one way the log may be read: one that gives the result said explains it
            explanations.append(Explanation(Tri(said is None or _same(parse_result(cell), said)), label))
        verdict = judge(explanations)
        step = combat.said_step if combat.said is not None else combat.roll_step
        evidence = {"target": combat.attack.target, "roll": combat.roll,
                    "attackers": [u.counter for u in combat.attackers],
                    "defenders": [u.counter for u in combat.defenders]}
        if cancelled and len(cancelled) == len(combat.readings):
            found.append(combat.finding(game, 
                "CBT-15", Ruling.PROVEN, step=combat.roll_step,
                message=f"the attack on {combat.attack.target} is rolled for (roll {combat.roll}) at odds below the "
                        f"line's lowest column ({'; '.join(cancelled)}): it is cancelled (9.3g)",
                subjects=[u.name for u in combat.attackers], evidence={**evidence, "odds": cancelled}))
            return []
        if combat.said is not None and verdict.ruling is not Ruling.LEGAL:
            if verdict.ruling is Ruling.PROVEN:
                found.append(combat.finding(game, 
                    "CBT-16", Ruling.PROVEN, step=step,
                    message=f"the result said for the attack on {combat.attack.target}, {combat.said.text}, is not "
                            f"the CRT's at roll {combat.roll}: " + "; ".join(verdict.reasons),
                    subjects=[u.name for u in combat.attackers],
                    evidence={**evidence, "said": combat.said.text, "crt": sorted(cells)}))
            elif cells:
                found.append(combat.finding(game, 
                    "CBT-16", Ruling.POSSIBLE, step=step,
                    message=f"the result said for the attack on {combat.attack.target}, {combat.said.text}, is the "
                            f"CRT's at roll {combat.roll} only if {', '.join(sorted(verdict.depends_on))}",
                    subjects=[u.name for u in combat.attackers],
                    evidence={**evidence, "said": combat.said.text, "crt": sorted(cells)},
                    depends_on=tuple(sorted(verdict.depends_on))))
            else:
                game.unsettled("CBT-16", step, sorted(unknown))
        elif combat.said is None and unknown:
            game.unsettled("CBT-16", combat.roll_step, sorted(unknown))
        if unknown:
            return []
        return [parse_result(c) for c in sorted(cells)] if len(cells) == 1 else []

    # -- the losses --------------------------------------------------------------------------
    def _judge_losses(self, combat: Combat, result: CombatResult, view: "StepView",
                      found: list["Finding"]) -> None:
        """CBT-19 (CBT-17, CBT-21): each side lost at least the steps its hits give."""
        game = self.game
        now = game.units(view.before)
        att_hexes = {u.hex for u in combat.attackers}
        start = combat.start_units
        takers = {
            "attacker": [u for u in start.values() if u.side == combat.side and u.hex in att_hexes
                         and u.is_ground_unit and u.kind not in ("leader", "coastal-gun")],
            "defender": [u for u in combat.defenders if u.kind not in ("leader", "coastal-gun")],
        }
        fort = 0 if combat.fort.false else 1             # an unknown fort: the fewer hits
        hits = {"attacker": result.attacker.number, "defender": max(0, result.defender.number - fort)}
        lost = {side: steps_lost_since(units, now, start) for side, units in takers.items()}
        gone = {side: all(_eliminated(u, now) for u in units) for side, units in takers.items()}
        due = {"attacker": math.ceil(hits["attacker"] / 2), "defender": hits["defender"] // 2}
        for side, other in (("attacker", "defender"), ("defender", "attacker")):
            low_steps, high_steps = steps_available(takers[other])
            if gone[other] and due[other] > low_steps:
                # 9.42: an eliminated side's pending steps take one hit off the other side
                hits[side] = max(0, hits[side] - 1)
        due = {"attacker": math.ceil(hits["attacker"] / 2), "defender": hits["defender"] // 2}
        for side in ("defender", "attacker"):
            low_steps, _ = steps_available(takers[side])
            owed = min(due[side], low_steps)
            high = lost[side][1]
            if high is not None and high < owed:
                found.append(combat.finding(game, 
                    "CBT-19", Ruling.PROVEN, step=combat.said_step or combat.roll_step,
                    message=f"the {side} in the attack on {combat.attack.target} took {result.text.split('/')[0 if side == 'attacker' else 1]} "
                            f"({hits[side]} hits{' after the fort' if side == 'defender' and fort else ''}): "
                            f"{due[side]} step losses ({'half, rounded up' if side == 'attacker' else 'half, rounded down'}), "
                            f"but its units lost {high}",
                    subjects=[u.name for u in takers[side]],
                    evidence={"target": combat.attack.target, "side": side, "result": result.text,
                              "hits": hits[side], "steps_due": owed, "steps_lost": high,
                              "units": [u.counter for u in takers[side]]}))

    def _judge_engineers(self, combat: Combat, view: "StepView", found: list["Finding"]) -> None:
        """CBT-23 (9.92): against a fort, with an engineer in each attacking hex, at least half the
        attacker's step losses (rounded up) fall on the engineers, unless they are all eliminated.
        Engineers in only some attacking hexes (no bonus) leave it a reading: POSSIBLE."""
        engineers = [u for u in combat.attackers if u.kind in ENGINEERS]
        if not engineers:
            return
        game = self.game
        step = combat.said_step or combat.roll_step
        if not combat.fort.known:
            game.unsettled("CBT-23", step, sorted(combat.fort.depends_on) or [f"whether {combat.attack.target} is a fort"])
            return
        if combat.fort.false:
            return
        now = game.units(view.before)
        if all(_eliminated(u, now) for u in engineers):
            return
        att_hexes = {u.hex for u in combat.attackers}
        takers = [u for u in combat.start_units.values() if u.side == combat.side and u.hex in att_hexes
                  and u.is_ground_unit and u.kind not in ("leader", "coastal-gun")]
        total_low, _ = steps_lost_since(takers, now, combat.start_units)
        _, eng_high = steps_lost_since(engineers, now, combat.start_units)
        owed = math.ceil(total_low / 2)
        if eng_high is None or eng_high >= owed:
            return
        every_hex = all(any(u.hex == h for u in engineers) for h in att_hexes)
        ruling = Ruling.PROVEN if every_hex else Ruling.POSSIBLE
        reading = "" if every_hex else (f"; only if the rule binds engineers attacking from some of the hexes "
                                        f"({', '.join(sorted(h for h in att_hexes if not any(u.hex == h for u in engineers)))} "
                                        f"has none: no +1 shift)")
        found.append(combat.finding(
            game, "CBT-23", ruling, step=step,
            message=f"the attack on the fort {combat.attack.target} cost the attacker {total_low} step(s), of which the "
                    f"engineers ({', '.join(u.name for u in engineers)}) took {eng_high}: at least {owed} (half, "
                    f"rounded up) must fall on them while one is left (9.92){reading}",
            subjects=[u.name for u in takers],
            evidence={"target": combat.attack.target, "steps_lost": total_low, "engineer_steps": eng_high,
                      "engineer_steps_due": owed, "engineers": [u.counter for u in engineers]},
            **({} if every_hex else {"depends_on": ("engineers in every attacking hex (9.92)",)})))

    def _judge_support_losses(self, combat: Combat, view: "StepView", found: list["Finding"]) -> None:
        """CBT-22: artillery and warships supporting from a hex not adjacent to the attacked hex
        take no step losses of the combat (9.52)."""
        if not combat.supporters:
            return
        now = self.game.units(view.before)
        for unit in combat.supporters:
            if self.game.board.distance(unit.hex, combat.attack.target) <= 1:
                continue
            low, _high = steps_lost_since([unit], now, combat.start_units)
            if low:
                found.append(combat.finding(
                    self.game, "CBT-22", Ruling.PROVEN, step=combat.said_step or combat.roll_step or combat.step,
                    message=f"{unit.label()}, supporting the attack on {combat.attack.target} from {unit.hex} "
                            f"({self.game.board.distance(unit.hex, combat.attack.target)} hexes away), lost a step "
                            f"in it: only ground units in the attacking hexes and the attacked hex take them (9.52)",
                    subjects=[unit.name], evidence={"target": combat.attack.target, "unit": unit.counter,
                                                    "hex": unit.hex}))

    # -- morale states -----------------------------------------------------------------------
    def _apply_states(self, combat: Combat, result: CombatResult | None) -> None:
        rolled = combat.roll is not None or combat.said is not None
        for side_units, part in ((combat.attackers, "attacker"), (combat.defenders, "defender")):
            letters = None
            if result is not None:
                letters = (result.attacker if part == "attacker" else result.defender).letters
            for u in side_units:
                if u.kind in ("leader", "coastal-gun"):
                    continue
                before = self.state(u.id)
                if not rolled:
                    after = before
                elif letters is None:
                    after = frozenset({NORMAL, DISORGANIZED, DEMORALIZED})
                else:
                    after = frozenset(_after(s, letters) for s in before)
                if combat.night and part == "attacker" and rolled:
                    # 10.21: disorganized after a night attack; demoralized if it was already
                    # disorganized (or worse) or took D or Z in it
                    if letters is None:
                        after = frozenset({DISORGANIZED, DEMORALIZED})
                    else:
                        after = frozenset(DISORGANIZED if s == NORMAL and not ("D" in letters or "Z" in letters)
                                          else DEMORALIZED for s in before)
                self.states[u.id] = after

    def _night_moved(self, view: "StepView", moved: dict[str, int | None]) -> None:
        """6.71: a unit that moved more than half its allowance at Night is disorganized (a
        Disorganized one demoralized); one whose path may have cost more than the cheapest is
        read both ways."""
        units = self.game.units(view.before)
        for uid, cost in moved.items():
            unit = units.get(uid)
            if unit is None:
                continue
            before = self.state(uid)
            worse = frozenset(DISORGANIZED if s == NORMAL else DEMORALIZED for s in before)
            ma = unit.movement
            if isinstance(cost, int) and isinstance(ma, int) and cost > -(-ma // 2):
                self.states[uid] = worse
            else:
                self.states[uid] = before | worse

    def _recover(self, view: "StepView", side: str) -> None:
        """11.5: at the end of the side's Combat Phase its units not next to an enemy recover;
        one next to an enemy may (its roll is read both ways)."""
        if not self.states:
            return
        game = self.game
        units = game.units(view.before)
        enemies = {u.hex for u in units.values() if u.hex is not None and u.is_ground_unit and u.side != side}
        for uid, states in list(self.states.items()):
            unit = units.get(uid)
            if unit is None or unit.side != side or states == frozenset({NORMAL}):
                continue
            if unit.hex is None or not any(game.board.distance(unit.hex, h) == 1 for h in enemies):
                self.states[uid] = frozenset({NORMAL})
            else:
                better = {DEMORALIZED: DISORGANIZED, DISORGANIZED: NORMAL, NORMAL: NORMAL}
                self.states[uid] = states | frozenset(better[s] for s in states)

    # -- CBT-05 ------------------------------------------------------------------------------
    def _judge_night(self, event: Any) -> list["Finding"]:
        """10.21, 11.4: no Demoralized unit attacks on a night turn."""
        combat = self.open
        if combat is None or not combat.night:
            return []
        out = []
        for u in combat.attackers:
            states = self.state(u.id)
            if states == frozenset({DEMORALIZED}):
                out.append(combat.finding(
                    self.game, "CBT-05", Ruling.PROVEN, step=event.step,
                    message=f"{u.label()} attacks {combat.attack.target} on a night turn while Demoralized "
                            f"(10.21, 11.4)",
                    subjects=[u.name], evidence={"target": combat.attack.target, "unit": u.counter,
                                                 "state": DEMORALIZED}))
            elif DEMORALIZED in states:
                self.game.unsettled("CBT-05", event.step,
                                    [f"the morale state of {u.name} (its recovery roll, 11.51)"])
        return out


def _same(a: CombatResult, b: CombatResult) -> bool:
    return (a.attacker.number, sorted(a.attacker.letters), a.defender.number, sorted(a.defender.letters)) == \
        (b.attacker.number, sorted(b.attacker.letters), b.defender.number, sorted(b.defender.letters))


def _after(state: str, letters: str) -> str:
    """9.41: D disorganizes (a Disorganized unit is demoralized), Z demoralizes."""
    if "Z" in letters:
        return DEMORALIZED
    if "D" in letters:
        return DISORGANIZED if state == NORMAL else DEMORALIZED
    return state


def _eliminated(unit: "Unit", now: dict[str, "Unit"]) -> bool:
    after = now.get(unit.id)
    return after is None or after.hex is None


def steps_available(units: Iterable["Unit"]) -> tuple[int, int | None]:
    """The steps the units had: at least, and at most (None when a battalion's is unknown)."""
    low, high = 0, 0
    unknown = False
    for u in units:
        if isinstance(u.steps, int):
            low += u.steps
            high += u.steps
        elif u.size == "company" or u.is_artillery or u.kind == "strongpoint":
            low, high = low + 1, high + 1          # 9.5: any step loss eliminates it
        else:
            low += 1
            unknown = True
    return low, None if unknown else high


def steps_lost_since(units: Iterable["Unit"], now: dict[str, "Unit"], start: dict[str, "Unit"]) -> tuple[int, int | None]:
    """The steps the units lost since the combat was declared: at least, at most (None: unknown).
    A battalion swapped for its next lower piece in its hex shows as a removal and an arrival."""
    low, high = 0, 0
    unknown = False
    arrived = {(u.name, u.hex) for uid, u in now.items() if u.hex is not None and
               (uid not in start or start[uid].hex is None)}
    for u in units:
        after = now.get(u.id)
        if after is None or after.hex is None:
            if (u.name, u.hex) in arrived:
                low += 1
                unknown = True
            elif isinstance(u.steps, int):
                low, high = low + u.steps, high + u.steps
            elif u.size == "company" or u.is_artillery or u.kind == "strongpoint":
                low, high = low + 1, high + 1
            else:
                low += 1
                unknown = True
        elif isinstance(u.steps, int) and isinstance(after.steps, int):
            if after.steps < u.steps:
                low, high = low + u.steps - after.steps, high + u.steps - after.steps
            elif after.steps > u.steps:
                low += 1
                unknown = True
        elif after.level != u.level:
            low += 1
            unknown = True
    return low, None if unknown else high


JUDGED = ("CBT-05", "CBT-15", "CBT-16", "CBT-19", "CBT-22", "CBT-23", "CBT-25", "CBT-26", "CBT-27", "CBT-29", "CBT-30", "CBT-31")


@REGISTRY.check(*JUDGED, event=Declared)
def judge_combat_lines(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """An attack line closes the open combat (judged then) and opens its own; a result line joins it."""
    return game.combats.declared(event, view)


@REGISTRY.check(*JUDGED, event=PhaseChanged)
def judge_combat_at_phase_end(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """The phase's last combat closes with it; a Combat Phase's end brings recovery (11.5)."""
    return game.combats.phase_changed(event, view)


@REGISTRY.check(*JUDGED, on="end")
def judge_combat_at_log_end(game: "IslandOfDeath", view: "StepView") -> list["Finding"]:
    return game.combats.close(view)
