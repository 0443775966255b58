"""Retreats and advances after combat (9.6-9.87, 10.23) as the pieces moved while a combat was
open (checks/combat_result.py), judged when it closes.

* CBT-26: a retreating unit ends no farther from the hex it retreated from than its side's
  retreat hexes (the hits left after the step losses) and never in a hex of enemy units (those
  of defense 0, leaders and coastal guns aside);
* CBT-25: a side with retreat hexes retreats: its units (the defenders; of the attacker those
  that attacked) do not stay in their hex unless they cannot move (MA 0) or stood their ground,
  which takes a single die rolled after the CRT roll (9.6, 9.71);
* CBT-29: a unit stands its ground only with a current morale greater than such a die (1 less
  stacked with its formation's leader; any die of the combat is tried, the source not saying
  whose), and then its side loses at least the remaining hits as steps too;
* CBT-27: a retreating stack retreats as one (its units end in one hex) and loses one step more
  for each hex it entered in an enemy ZOC (9.62), counted over the hexes it was dropped in that
  are certainly in one (the ZOC as the combat was declared);
* CBT-30: only when every defender has left the attacked hex do attacking-side units enter it,
  never artillery (9.81, 9.87);
* CBT-31: an advance enters the attacked hex first (9.84) and goes at most max(the defender's
  retreat hexes, 1) hexes, never more than 2 on foot or 3 motorized or mechanized, and no
  farther than the attacked hex at Night or from a fort or city (9.82, 9.86, 10.23).

The lengths are the shortest the pieces show (the hexes from start to end): a longer path is
not seen; the one hex less for each enemy ZOC left (9.85) is not counted, so an advance is never
called too long for it. With no result said or read, only the limits that need none are judged.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from vlog.engine.combat import CombatResult
from vlog.engine.judge import Ruling, Tri, Unknown
from vlog.kit.steps import Moved

from vlog.games.island_of_death.rules import REGISTRY
from vlog.games.island_of_death.terrain import overrunnable

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.checks.combat_result import Combat
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

__all__ = ["judge_combat_moves"]

ADVANCE_MAX = {"foot": 2, "motorized": 3, "mechanized": 3}
"""9.86: the longest advance of each movement class."""


@REGISTRY.check("CBT-26", "CBT-30", "CBT-31", event=Moved)
def note_combat_move(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """A unit's drop while a combat is open is part of its retreat or advance."""
    combat = game.combats.open
    if combat is not None and event.after.hex is not None and event.before.hex is not None:
        unit = event.before
        combat.drops.setdefault(unit.id, []).append(event.after.hex)
        if unit.id not in combat.held:
            combat.drop_steps[unit.id] = event.step
        if event.after.hex == combat.attack.target and unit.side == combat.side and unit.id not in combat.held:
            there = game.enemies(view.before, unit.side).get(combat.attack.target, [])
            if there and overrunnable(there) is False:
                combat.held[unit.id] = [u.name for u in there]
                combat.drop_steps[unit.id] = event.step
    return []


def judge_combat_moves(game: "IslandOfDeath", combat: "Combat", result: CombatResult | None,
                       view: "StepView") -> list["Finding"]:
    now = game.units(view.before)
    out: list["Finding"] = _judge_stands(game, combat, result, now) if result is not None else []
    if result is not None and combat.drops:
        out += _judge_stacks(game, combat, result, now)
    if not combat.drops:
        return out
    start = combat.start_units
    target = combat.attack.target

    def finding(short: str, message: str, unit: Any, evidence: dict[str, Any]) -> None:
        out.append(combat.finding(game, short, Ruling.PROVEN, step=combat.drop_steps.get(unit.id, combat.step),
                                  message=message, subjects=[unit.name],
                                  evidence={"target": target, "unit": unit.counter, **evidence}))

    fort = combat.fort                  # as it stood at the attack: the advance into it destroys it (17.1)
    terrain = game.board.terrain(target)
    city = Tri.of(terrain) if isinstance(terrain, Unknown) else Tri.of(terrain == "city")
    hexes_only = (fort | city)
    retreat = _retreat_hexes(result, combat.fort) if result is not None else None
    defenders = {u.id for u in combat.defenders}
    att_hexes = {u.hex for u in combat.attackers}
    for uid, drops in combat.drops.items():
        was, unit = start.get(uid), now.get(uid)
        if was is None or unit is None or unit.hex is None or was.kind in ("leader", "marker", "warship"):
            continue
        if uid in defenders:
            _retreat(game, finding, unit, was.hex, retreat and retreat[1], now)
            continue
        if was.side != combat.side or was.hex not in att_hexes:
            continue
        if drops[0] != target:
            if retreat is not None and retreat[0] == 0:
                finding("CBT-31", f"{unit.label()} moved {was.hex} -> {drops[0]} in the attack on {target}: an "
                                  f"advance enters the attacked hex first (9.84) and the attacker has no retreat",
                        unit, {"from": was.hex, "first_hex": drops[0]})
            elif retreat is not None:
                _retreat(game, finding, unit, was.hex, retreat[0], now)
            continue
        if uid in combat.held:
            finding("CBT-30", f"{unit.label()} advanced into {target} while {', '.join(combat.held[uid])} still "
                              f"held it: the defenders retreat first (9.6, 9.8)", unit,
                    {"defenders_left": combat.held[uid]})
            continue
        if was.is_artillery:
            finding("CBT-30", f"the artillery {unit.label()} advanced into {target} (9.81, 9.87)", unit,
                    {"kind": was.kind})
            continue
        beyond = game.board.distance(target, unit.hex)
        length = 1 + beyond
        if beyond and combat.night:
            finding("CBT-31", f"{unit.label()} advanced beyond {target} to {unit.hex} on a night turn: only into the "
                              f"attacked hex (9.86, 10.23)", unit, {"to": unit.hex, "length": length, "night": True})
        elif beyond and hexes_only.true:
            finding("CBT-31", f"{unit.label()} advanced beyond {target}, a {'fort' if fort.true else 'city'}, to "
                              f"{unit.hex}: only into the attacked hex (9.86)", unit, {"to": unit.hex, "length": length})
        elif beyond:
            cap = ADVANCE_MAX.get(was.movement_class or "", 3)
            allowed = min(cap, max(retreat[1], 1)) if retreat is not None else cap
            if length > allowed:
                finding("CBT-31", f"{unit.label()} advanced {length} hexes ({target} -> {unit.hex}): at most "
                                  f"{allowed} (the defender's retreat {retreat[1] if retreat else '?'} hexes, "
                                  f"{was.movement_class} at most {cap}; 9.82, 9.86)", unit,
                        {"to": unit.hex, "length": length, "allowed": allowed})
    return out


def _retreat_hexes(result: CombatResult, fort: Tri) -> tuple[int, int]:
    """(attacker, defender) retreat hexes: the hits left after the step losses (9.42, 9.43),
    the defender's hits one fewer in a fort (the most hexes where the fort is not known)."""
    att = result.attacker.number
    def_hits = max(0, result.defender.number - (1 if fort.true else 0))
    return att - math.ceil(att / 2), def_hits - def_hits // 2


def _retreat(game: "IslandOfDeath", finding: Any, unit: Any, start: str, hexes: int | None, now: Any) -> None:
    """CBT-26: no farther than the retreat hexes, never into a hex of enemy units."""
    if hexes is not None:
        distance = game.board.distance(start, unit.hex)
        if distance > hexes:
            finding("CBT-26", f"{unit.label()} retreated {start} -> {unit.hex}, {distance} hexes: the result gives "
                              f"{hexes} (9.42, 9.6)", unit, {"from": start, "to": unit.hex, "distance": distance,
                                                            "retreat_hexes": hexes})
            return
    enemies = [u for u in now.values() if u.hex == unit.hex and u.is_ground_unit and u.side != unit.side]
    if enemies and overrunnable(enemies) is False:
        finding("CBT-26", f"{unit.label()} retreated into {unit.hex}, held by {', '.join(u.name for u in enemies)} "
                          f"(9.61)", unit, {"from": start, "to": unit.hex, "enemy_units": [u.counter for u in enemies]})


def _cannot_move(unit: Any) -> bool:
    """9.63: MA 0 (prepared artillery, coastal guns, militia, strongpoints) stands without a roll."""
    return unit.movement == 0 or unit.prepared or unit.kind in ("coastal-gun", "militia", "strongpoint")


def _judge_stands(game: "IslandOfDeath", combat: "Combat", result: CombatResult, now: Any) -> list["Finding"]:
    """CBT-25, CBT-29 for each side with retreat hexes whose units stayed in their hex."""
    from vlog.games.island_of_death.checks.combat_result import steps_available, steps_lost_since

    out: list["Finding"] = []
    retreat = _retreat_hexes(result, combat.fort)
    hits = {"attacker": result.attacker.number,
            "defender": max(0, result.defender.number - (1 if combat.fort.true else 0))}
    steps = {"attacker": math.ceil(hits["attacker"] / 2), "defender": hits["defender"] // 2}
    start = combat.start_units
    for side, hexes, units in (("attacker", retreat[0], combat.attackers), ("defender", retreat[1], combat.defenders)):
        if hexes <= 0:
            continue
        stayed = [u for u in units if u.kind not in ("leader", "coastal-gun") and not _cannot_move(u)
                  and now.get(u.id) is not None and now[u.id].hex == u.hex]
        if not stayed:
            continue
        names = ", ".join(u.name for u in stayed)
        evidence = {"target": combat.attack.target, "side": side, "retreat_hexes": hexes,
                    "units": [u.counter for u in stayed]}
        step = combat.said_step or combat.roll_step or combat.step
        if not combat.dice:
            out.append(combat.finding(game, "CBT-25", Ruling.PROVEN, step=step,
                                      message=f"the {side}'s {names} stayed in {stayed[0].hex} after a result of "
                                              f"{result.text} ({hexes} hexes of retreat) with no stand-ground roll (9.6, 9.71)",
                                      subjects=[u.name for u in stayed], evidence=evidence))
            continue
        failed = []
        for unit in stayed:
            morale = unit.morale
            if not isinstance(morale, int):
                game.unsettled("CBT-29", step, [f"counters.json {unit.counter} level {unit.level} morale"])
                failed = []
                break
            leader = any(o.is_leader and o.hex == unit.hex and o.formation == unit.formation
                         or (o.is_leader and o.hex == unit.hex and o.side == "allied" == unit.side)
                         for o in start.values())
            if not any(morale > die - (1 if leader else 0) for die, _ in combat.dice):
                failed.append((unit, morale, leader))
        if failed:
            dice = [d for d, _ in combat.dice]
            out.append(combat.finding(
                game, "CBT-29", Ruling.PROVEN, step=combat.dice[-1][1],
                message=f"the {side}'s {', '.join(u.name for u, _m, _l in failed)} stood their ground in "
                        f"{failed[0][0].hex} with morale {', '.join(str(m) for _u, m, _l in failed)} on a die of "
                        f"{', '.join(map(str, dice))}: a unit stands only with morale greater than the die (9.71)",
                subjects=[u.name for u, _m, _l in failed],
                evidence={**evidence, "dice": dice, "morale": {u.counter: m for u, m, _l in failed},
                          "with_leader": {u.counter: l for u, _m, l in failed}}))
            continue
        takers = [u for u in (combat.defenders if side == "defender" else
                              [v for v in start.values() if v.side == combat.side
                               and v.hex in {a.hex for a in combat.attackers} and v.is_ground_unit])
                  if u.kind not in ("leader", "coastal-gun")]
        owed = min(steps[side] + hexes, steps_available(takers)[0])
        high = steps_lost_since(takers, now, start)[1]
        if high is not None and high < owed:
            out.append(combat.finding(
                game, "CBT-29", Ruling.PROVEN, step=combat.dice[-1][1],
                message=f"the {side}'s {names} stood their ground after {result.text}: its side owes "
                        f"{steps[side]} step losses and the {hexes} remaining hits as steps, {owed}, but lost {high} (9.71)",
                subjects=[u.name for u in stayed], evidence={**evidence, "steps_due": owed, "steps_lost": high}))
    return out


def _judge_stacks(game: "IslandOfDeath", combat: "Combat", result: CombatResult, now: Any) -> list["Finding"]:
    """CBT-27: one hex per retreating stack, one step more per enemy-ZOC hex it entered."""
    from vlog.games.island_of_death.checks.combat_result import steps_available, _eliminated, steps_lost_since

    out: list["Finding"] = []
    start = combat.start_units
    target = combat.attack.target
    att_hexes = {u.hex for u in combat.attackers}
    hits = {"attacker": result.attacker.number,
            "defender": max(0, result.defender.number - (1 if combat.fort.true else 0))}
    sides = {"defender": [u for u in combat.defenders if u.kind not in ("leader", "coastal-gun")],
             "attacker": [u for u in start.values() if u.side == combat.side and u.hex in att_hexes
                          and u.is_ground_unit and u.kind not in ("leader", "coastal-gun")]}
    for side, units in sides.items():
        other = "attacker" if side == "defender" else "defender"
        retreated = [u for u in units if u.id in combat.drops and now.get(u.id) is not None
                     and now[u.id].hex not in (None, u.hex) and (side == "defender" or combat.drops[u.id][0] != target)]
        if not retreated:
            continue
        owner = retreated[0].side
        zoc = game.zoc(combat.start_position, owner)
        stacks: dict[str, list[Any]] = {}
        for u in retreated:
            stacks.setdefault(u.hex, []).append(u)
        extra = 0
        for hex_, stack in stacks.items():
            ends = sorted({now[u.id].hex for u in stack})
            if len(ends) > 1:
                out.append(combat.finding(
                    game, "CBT-27", Ruling.PROVEN, step=max(combat.drop_steps.get(u.id) or 0 for u in stack),
                    message=f"the stack retreating from {hex_} ({', '.join(u.name for u in stack)}) split up, ending "
                            f"in {', '.join(ends)}: a retreating stack retreats as one (9.62)",
                    subjects=[u.name for u in stack],
                    evidence={"target": target, "from": hex_, "ends": ends, "units": [u.counter for u in stack]}))
                return out
            extra += max(sum(1 for h in combat.drops[u.id] if zoc.in_zoc(h) is True) for u in stack)
        if not extra:
            continue
        due = math.ceil(hits[side] / 2) if side == "attacker" else hits[side] // 2
        if all(_eliminated(u, now) for u in sides[other]):
            due = max(0, due - 1)                    # 9.42: the excess step losses may take a hit off
        owed = min(due + extra, steps_available(units)[0])
        high = steps_lost_since(units, now, start)[1]
        if high is not None and due <= high < owed:
            out.append(combat.finding(
                game, "CBT-27", Ruling.PROVEN, step=max(combat.drop_steps.get(u.id) or 0 for u in retreated),
                message=f"the {side}'s retreat from {', '.join(stacks)} entered {extra} hex(es) in an enemy ZOC: "
                        f"{due} step losses of the result and {extra} for the ZOC, {owed}, but its units lost {high} (9.62)",
                subjects=[u.name for u in retreated],
                evidence={"target": target, "side": side, "zoc_hexes": extra, "steps_due": owed, "steps_lost": high}))
    return out
