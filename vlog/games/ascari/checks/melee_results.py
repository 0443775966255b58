"""Melée results (5.1-5.4, S1.2, FAQ): once a melée is over (play.py), the two d6 rolled since the
attacker entered are read as its MCV dice (melee_table.py) and what the table shows — who stayed,
who retreated, the steps lost, who was eliminated — is held against every result those dice
allow: either die either side's, a RETREAT marker on either unit or not, every reading of 5.2's
bands. PROVEN only when none allows it; a Melée Strength, a DRM or a height the data lacks leaves
the melée not settled, naming it. Also judged: a leader stacked with a unit eliminated in melée
is eliminated with it (MEL-11: the FAQs agree on that much), and a Booty unit on its Camel side
does not attack (MEL-12). A Booty unit that takes a hit in melée is eliminated (S1.2): a result
that fits every rule but that one is FDR-16's.

A melée the log leaves open (play.py `at_end`) is judged on the final position: a result it shows
as the dice allow is judged, anything else (dice still to roll, a result not yet applied) is an
occasion not settled, the next log holding the rest. Its attack (MEL-12) is judged all the same.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.games.ascari.melee_table import OVERRUN, RETREAT, RETREAT_HIT, TIE, results, side_values
from vlog.games.ascari.play import MeleeResolved
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.sequence import side_name

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.play import Melee
    from vlog.games.ascari.rules import Ascari
    from vlog.games.ascari.units import Unit
    from vlog.kit.steps import StepView

NO_DICE = "the melée's two d6 (fewer rolled between the attacker entering and the melée's end)"
OPEN_AT_END = "the rest of the melée (the log ends before it is over: the next log may hold its dice and result)"
STAYED, RETREATED, ELIMINATED = "stayed", "retreated", "eliminated"


def _seen(before: "Unit", after: "Unit | None", hex_: str) -> tuple[str, int | None]:
    """Where a unit of the melée ended and the steps it lost (None when not known)."""
    if after is None or after.hex is None:
        return ELIMINATED, None
    lost = before.steps - after.steps if before.steps is not None and after.steps is not None else None
    return (STAYED if after.hex == hex_ else RETREATED), lost


def _allowed(unit: "Unit", result: str | None, booty: bool = True) -> set[tuple[str, int | None]]:
    """What a result lets a unit show: None for the winner, else the loser's result (5.2, 5.4,
    5.41: a held RETREAT marker turns a retreat into a hit, a second into elimination). A Booty
    unit hit is eliminated (S1.2), unless `booty` is False (the rule left out, to tell whose
    finding a misfit is)."""
    if result is None:
        return {(STAYED, 0)}
    if result == OVERRUN:
        return {(ELIMINATED, None)}
    if unit.type == "artillery":       # eliminated; a battery that retreats is RET-06's finding
        return {(ELIMINATED, None), (RETREATED, None)}
    if booty and unit.type == "booty":
        return {(ELIMINATED, None)} if result == RETREAT_HIT else {(RETREATED, 0), (ELIMINATED, None)}
    if result == RETREAT_HIT:
        return {(RETREATED, 1), (ELIMINATED, None)}
    return {(RETREATED, 0), (RETREATED, 1), (ELIMINATED, None)}


def _fits(seen: tuple[str, int | None], allowed: set[tuple[str, int | None]]) -> bool:
    where, lost = seen
    return any(w == where and (lost is None or l is None or l == lost) for w, l in allowed)


def _parties(melee: "Melee") -> tuple["Unit | None", "Unit | None"]:
    attacker = melee.units.get(melee.attacker)
    defenders = [u for u in melee.units.values() if u.hex == melee.hex and u.combat
                 and attacker is not None and u.side != attacker.side]
    return attacker, (defenders[0] if len(defenders) == 1 else None)


@REGISTRY.check("MEL-01", "MEL-02", "FDR-16", event=MeleeResolved)
def judge_melee_result(game: "Ascari", event: MeleeResolved, view: "StepView") -> list:
    melee = event.melee
    attacker, defender = _parties(melee)
    if game.terrain is None or attacker is None or defender is None:
        return []
    booty = "booty" in (attacker.type, defender.type)
    items = ("MEL-01", "MEL-02", *(("FDR-16",) if booty else ()))
    if len(melee.dice) < 2:
        for item in items:
            game.unsettled(item, event.step, (OPEN_AT_END if event.at_end else NO_DICE,))
        return []
    units = list(melee.units.values())
    mine = side_values(game, attacker, melee.hex, melee.came_from, True, units)
    theirs = side_values(game, defender, melee.hex, melee.came_from, False, units)
    unknown = mine.unknown + theirs.unknown
    if unknown:
        for item in items:
            game.unsettled(item, event.step, tuple(dict.fromkeys(unknown)))
        return []
    after = game.units(view.before)
    seen_a = _seen(attacker, after.get(attacker.id), melee.hex)
    seen_d = _seen(defender, after.get(defender.id), melee.hex)
    if seen_a[0] == seen_d[0] == STAYED:
        if event.at_end:
            for item in items:
                game.unsettled(item, event.step, (OPEN_AT_END,))
        return []                      # no result applied at all: STK-05 and MOV-15 report it
    first, second = melee.dice[0], melee.dice[1]
    outcomes: set[str] = set()
    values: set[tuple[int, int]] = set()
    without_booty = False
    for die_a, die_d in {(first, second), (second, first)}:
        for a in mine.totals():
            for d in theirs.totals():
                mcv_a, mcv_d = a + die_a, d + die_d
                values.add((mcv_a, mcv_d))
                if mcv_a == mcv_d:
                    pairs = [(RETREAT, None, TIE)]
                elif mcv_a > mcv_d:
                    pairs = [(None, r, r) for r in results(mcv_a, mcv_d)]
                else:
                    pairs = [(r, None, r) for r in results(mcv_d, mcv_a)]
                for on_a, on_d, name in pairs:
                    outcomes.add(f"{'attacker' if on_a else 'defender'} {name}")
                    if _fits(seen_a, _allowed(attacker, on_a)) and _fits(seen_d, _allowed(defender, on_d)):
                        return []
                    without_booty |= _fits(seen_a, _allowed(attacker, on_a, False)) \
                        and _fits(seen_d, _allowed(defender, on_d, False))
    if event.at_end:
        for item in items:
            game.unsettled(item, event.step, (OPEN_AT_END,))
        return []
    if without_booty:
        unit, seen = (attacker, seen_a) if attacker.type == "booty" else (defender, seen_d)
        return [game.finding("FDR-16", Ruling.PROVEN, step=event.step,
                             message=f"{unit.name} lost the melée in {melee.hex} (step {melee.step}) with a hit "
                                     f"(dice {first} and {second}) and {_seen_text(seen)}: a Booty unit that "
                                     f"receives a hit is eliminated (S1.2)",
                             subjects=(unit.name,),
                             evidence={"hex": melee.hex, "target": unit.name, "dice": [first, second],
                                       "mcvs": sorted(values), "results": sorted(outcomes), "due": [ELIMINATED],
                                       "applied": seen[0], "steps_lost": seen[1], "melee_step": melee.step})]
    return [game.finding("MEL-02", Ruling.PROVEN, step=event.step,
                         message=f"melée in {melee.hex} (step {melee.step}): {attacker.name} attacked "
                                 f"{defender.name} from {melee.came_from}, dice {first} and {second}, MCVs "
                                 f"{_mcv_text(mine.fixed)} against {_mcv_text(theirs.fixed)}; the possible "
                                 f"results ({', '.join(sorted(outcomes))}) do not leave {attacker.name} "
                                 f"{_seen_text(seen_a)} and {defender.name} {_seen_text(seen_d)}",
                         subjects=(attacker.name, defender.name),
                         evidence={"hex": melee.hex, "attacker": attacker.name, "defender": defender.name,
                                   "dice": [first, second], "attacker_drms": dict(mine.fixed),
                                   "defender_drms": dict(theirs.fixed), "mcvs": sorted(values),
                                   "results": sorted(outcomes), "attacker_seen": seen_a[0],
                                   "defender_seen": seen_d[0], "melee_step": melee.step})]


def _mcv_text(fixed: dict[str, int]) -> str:
    return f"{sum(fixed.values())} + die" + (f" ({', '.join(f'{k} {v:+d}' for k, v in fixed.items())})" if fixed else "")


def _seen_text(seen: tuple[str, Any]) -> str:
    where, lost = seen
    return where + (f" having lost {lost} step{'s' if lost != 1 else ''}" if lost else "")


@REGISTRY.check("MEL-11", event=MeleeResolved)
def judge_leader_follows(game: "Ascari", event: MeleeResolved, view: "StepView") -> list:
    """A leader stacked with the defender follows its fate: eliminated with it (FAQ)."""
    melee = event.melee
    _, defender = _parties(melee)
    if defender is None:
        return []
    after = game.units(view.before)
    if _seen(defender, after.get(defender.id), melee.hex)[0] != ELIMINATED:
        return _leader_hits(game, event, defender, after)
    stayed = [after[u.id] for u in melee.units.values()
              if u.leader and u.hex == melee.hex and u.side == defender.side
              and u.id in after and after[u.id].hex is not None]
    if not stayed:
        return []
    if event.at_end:                   # the leader may be taken off in the next log
        game.unsettled("MEL-11", event.step, (OPEN_AT_END,))
        return []
    return [game.finding("MEL-11", Ruling.PROVEN, step=event.step,
                         message=f"{defender.name} was eliminated in the melée in {melee.hex} (step {melee.step}) "
                                 f"and {', '.join(u.name for u in stayed)}, stacked with it, stayed on the map: a "
                                 f"leader is eliminated with its unit (FAQ)",
                         subjects=(defender.name, *(u.name for u in stayed)),
                         evidence={"hex": melee.hex, "unit": defender.name, "leaders": [u.name for u in stayed],
                                   "melee_step": melee.step})]


def _leader_hits(game: "Ascari", event: MeleeResolved, defender: "Unit", after: dict) -> list:
    """The defender lived: its leaders' steps read both ways. The General FAQ has a leader take a
    hit whenever its unit does, the Coatit FAQ only the unit (inventory 6.2): each loss either
    gives is accepted, so a leader that moved with its unit (or stayed with it) has lost no step,
    or one when its unit lost one. A leader that lost a step while its unit lost none fits neither:
    PROVEN. A leader parted from its unit, or taken off, is not judged (caught alone, 5.11)."""
    melee = event.melee
    now = after.get(defender.id)
    lost = _seen(defender, now, melee.hex)[1]
    if now is None or lost is None or event.at_end:
        return []
    found = []
    for leader in melee.units.values():
        later = after.get(leader.id)
        if not leader.leader or leader.hex != melee.hex or leader.side != defender.side or later is None \
                or later.hex != now.hex or leader.steps is None or later.steps is None:
            continue
        hits = leader.steps - later.steps
        readings = {0} if lost == 0 else {0, 1}
        if hits in readings:
            continue
        found.append(game.finding("MEL-11", Ruling.PROVEN, step=event.step,
                                  message=f"{leader.name}, stacked with {defender.name} in the melée in {melee.hex} "
                                          f"(step {melee.step}), lost {hits} step(s) while its unit lost {lost}: a "
                                          f"leader in a melée takes a hit only when its unit does (General FAQ) or "
                                          f"none (Coatit FAQ)",
                                  subjects=(leader.name, defender.name),
                                  evidence={"hex": melee.hex, "leader": leader.name, "unit": defender.name,
                                            "leader_lost": hits, "unit_lost": lost, "readings": sorted(readings),
                                            "melee_step": melee.step}))
    return found


@REGISTRY.check("MEL-12", event=MeleeResolved)
def judge_booty_attack(game: "Ascari", event: MeleeResolved, view: "StepView") -> list:
    """S1.2: a Booty unit on its Camel (front) side makes no attack; on its Women side it may."""
    melee = event.melee
    attacker, _ = _parties(melee)
    if attacker is None or attacker.type != "booty" or attacker.level != "front":
        return []
    return [game.finding("MEL-12", Ruling.PROVEN, step=melee.step,
                         message=f"{attacker.name} ({side_name(attacker.side)}, Camel side) entered {melee.hex} "
                                 f"held by the enemy: a Booty unit on its Camel side cannot attack (S1.2)",
                         subjects=(attacker.name,), evidence={"hex": melee.hex, "from": melee.came_from,
                                                              "level": attacker.level})]
