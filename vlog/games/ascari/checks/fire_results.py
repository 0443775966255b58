"""Fire results (4.5, 4.61-4.63, FAQ, S1.2): the die of each fire attack read through the Fire
Combat Table or the Artillery Combat Table with its DRMs (fire_table.py), held against what the
table shows once the fire is resolved (fires.py). A single hit costs one step, so a reduced or
single-sided unit (FAQ) is eliminated by it; a double hit eliminates; an artillery unit or a
Booty unit hit is eliminated; a lone leader takes the result; a leader stacked with a unit hit
takes a hit on its own 1d6 of 5 or 6.

The verdict is PROVEN only when no reading of the die — under every MOVED or COMBAT marker the
firer may carry and every reading the text allows — gives what the table shows. Where a DRM's
value, a double-hit cell or a counter's steps are not in the data, the occasion is not settled and
the report names the datum. An eliminated unit's stacked leader may leave with it (read as the
melée FAQ has it). Fires that break the rules of who fires, range or sight are reported by
checks/fire.py; their results are judged here all the same when the range has a table row.

A fire the log leaves open (fires.py `at_end`) is judged on the final position: the result it
shows is accepted when the dice allow it, and anything else is an occasion not settled, the next
log holding the rest. A fire resolved by the next fire's declaration whose hit is not yet on the
table is POSSIBLE, not PROVEN: players may declare several fires and apply the results afterwards.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.games.ascari.fire_table import DOUBLE, MISS, SINGLE, drms, readings
from vlog.games.ascari.fires import FireResolved
from vlog.games.ascari.rules import REGISTRY
from vlog.games.ascari.units import FIRING_TYPES

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.fires import Shot
    from vlog.games.ascari.rules import Ascari
    from vlog.games.ascari.units import Unit
    from vlog.kit.steps import StepView

UNCHANGED, REDUCED, ELIMINATED = "unchanged", "one step lost", "eliminated"
DUE = {UNCHANGED: "stays as it was", REDUCED: "loses one step", ELIMINATED: "is eliminated"}
DONE = {UNCHANGED: "stayed as it was", REDUCED: "lost one step", ELIMINATED: "was eliminated"}
LEADER_HIT = 5
"""4.5, 4.63: the leader's d6 of 5 or more is a hit."""
NO_DIE = "the fire's 1d6 roll (none in the log between the declaration and its result)"
NO_LEADER_DIE = "the leader's 1d6 roll (4.5; none in the log after the fire's)"
NO_DIE_AT_END = "the fire's 1d6 roll (the log ends before it is rolled: the next log may hold it)"
OPEN_AT_END = "the rest of the fire's result (the log ends before the fire is resolved: the next log may hold it)"
APPLIED_LATER = ("whether the result is applied after the next fire's declaration (the log applies none "
                 "before it: several fires declared, results applied afterwards)")
SEVERAL_LEADERS = "one roll for each leader stacked with the target, or one for all (not stated: inventory 6.2 item 5)"


def _state(before: "Unit", after: "Unit | None") -> str | None:
    """What the fire did to a unit: unchanged, one step lost, eliminated; None for anything else."""
    if after is None or after.hex is None:
        return ELIMINATED
    if before.steps is None or after.steps is None:
        return UNCHANGED if after.level == before.level else None
    lost = before.steps - after.steps
    return {0: UNCHANGED, 1: REDUCED}.get(lost)


def _due(target: "Unit", result: str | Unknown) -> tuple[str | Unknown, str]:
    """What a result does to the target, and the item whose rule says so."""
    if isinstance(result, Unknown):
        return result, "FDR-10"
    if result == MISS:
        return UNCHANGED, "FDR-08"
    if target.type == "artillery":
        return ELIMINATED, "FDR-12"
    if target.type == "booty":
        return ELIMINATED, "FDR-16"
    lone = "FDR-14" if target.leader else None
    if target.steps is None:
        return (ELIMINATED if result == DOUBLE else Unknown(f"counters.json {target.counter} steps")), lone or "FDR-10"
    if target.steps <= 1:              # a single-sided counter (FAQ) on its only side, or reduced
        return ELIMINATED, "FDR-11" if target.level == "front" else lone or "FDR-10"
    return (ELIMINATED if result == DOUBLE else REDUCED), lone or "FDR-10"


@REGISTRY.check("FDR-08", "FDR-09", "FDR-10", "FDR-11", "FDR-12", "FDR-14", "FDR-16", event=FireResolved)
def judge_fire_result(game: "Ascari", event: FireResolved, view: "StepView") -> list:
    shot = event.shot
    firer = shot.firer
    if game.terrain is None or firer.type not in FIRING_TYPES:
        return []
    table_item = "FDR-09" if firer.type == "artillery" else "FDR-08"
    target = _target(shot)
    if target is None:
        return []
    distance = game.terrain.distance(firer.hex, shot.target)
    if not shot.dice:
        for item in (table_item, "FDR-10"):
            game.unsettled(item, event.step, (NO_DIE_AT_END if event.at_end else NO_DIE,))
        return []
    die = shot.dice[0]
    found = drms(game, firer, shot.target, shot.opportunity, shot.units.values())
    reads = readings(game, firer, distance, die, found)
    if not reads:
        return []                      # out of range: FIR-06 and FIR-07 report it
    if found.unknown:
        for item in (table_item, "FDR-10"):
            game.unsettled(item, event.step, found.unknown)
        return []
    now = game.units(view.before).get(target.id)
    applied = _state(target, now)
    flipped = applied == UNCHANGED and now is not None and now.level != target.level
    """An artillery unit's change of formation (3.6) is no step lost: it is not eliminated either."""
    if applied is None:
        return []
    possible: dict[str, str] = {}
    unknown: list[str] = []
    for reading in reads:
        due, item = _due(target, reading.result)
        if isinstance(due, Unknown):
            unknown += due.data
        else:
            possible.setdefault(due, item)
    if applied in possible:
        return []
    if set(possible) == {UNCHANGED}:
        item = table_item
    else:
        item = next((i for due, i in possible.items() if due != UNCHANGED), "FDR-10")
    if event.at_end:
        for short in dict.fromkeys((table_item, "FDR-10", item)):
            game.unsettled(short, event.step, (OPEN_AT_END,))
        return []
    if unknown:
        game.unsettled("FDR-10", event.step, tuple(dict.fromkeys(unknown)))
        return []
    later = event.by == "fire" and applied == UNCHANGED
    rolls = sorted({r.modified for r in reads})
    results = sorted({r.result for r in reads if isinstance(r.result, str)})
    table = "Artillery Combat Table" if firer.type == "artillery" else "Fire Combat Table"
    drm_text = ", ".join(f"{k} {v:+d}" for k, v in found.fixed.items()) or "none"
    maybe = ", ".join(f"{k} {'/'.join(f'{v:+d}' for v in vs)}" for k, vs in found.choices.items())
    return [game.finding(item, Ruling.POSSIBLE if later else Ruling.PROVEN, step=event.step,
                         message=f"{'opportunity ' if shot.opportunity else ''}fire by {firer.name} "
                                 f"({firer.hex}) at {target.name} ({shot.target}, range {distance}, step "
                                 f"{shot.step}): die {die}, DRMs {drm_text}"
                                 + (f" (and may be {maybe})" if maybe else "")
                                 + f", modified {_span(rolls)}: {' or '.join(results)} on the {table}, so "
                                   f"{target.name} {' or '.join(DUE[p] for p in possible)}; it "
                                 + (f"was only flipped to its {now.level} side" if flipped and now is not None
                                    else DONE[applied])
                                 + (" before the next fire was declared (the result may be applied later)"
                                    if later else ""),
                         subjects=(firer.name, target.name),
                         evidence={"firer": firer.name, "target": target.name, "hex": shot.target,
                                   "range": distance, "die": die, "drms": dict(found.fixed),
                                   "drm_choices": {k: list(v) for k, v in found.choices.items()},
                                   "modified": rolls, "results": results, "due": sorted(possible),
                                   "applied": applied, "fire_step": shot.step,
                                   **({"side_shown": now.level} if flipped and now is not None else {})},
                         depends_on=(APPLIED_LATER,) if later else ())]


def _span(rolls: list[int]) -> str:
    return str(rolls[0]) if len(rolls) == 1 else f"{rolls[0]} to {rolls[-1]}"


def _target(shot: "Shot") -> "Unit | None":
    """The combat unit in the target hex, else its lone leader; None when there is no single one."""
    there = [u for u in shot.units.values() if u.hex == shot.target and u.side != shot.firer.side]
    combat = [u for u in there if u.combat]
    if len(combat) == 1:
        return combat[0]
    leaders = [u for u in there if u.leader]
    return leaders[0] if not combat and len(leaders) == 1 else None


@REGISTRY.check("FDR-13", event=FireResolved)
def judge_leader_hit(game: "Ascari", event: FireResolved, view: "StepView") -> list:
    """4.5/4.63: a leader stacked with a unit hit takes a hit on its own d6 of 5 or 6."""
    shot = event.shot
    firer, target = shot.firer, _target(shot)
    if game.terrain is None or firer.type not in FIRING_TYPES or target is None or target.leader \
            or not shot.dice:
        return []
    leaders = [u for u in shot.units.values() if u.hex == shot.target and u.leader and u.side == target.side]
    if not leaders:
        return []
    found = drms(game, firer, shot.target, shot.opportunity, shot.units.values())
    reads = readings(game, firer, game.terrain.distance(firer.hex, shot.target), shot.dice[0], found)
    if not reads or found.unknown or any(r.result == MISS for r in reads):
        return []                      # a hit is not certain: nothing of the leader's to judge
    if len(leaders) > 1:
        game.unsettled("FDR-13", event.step, (SEVERAL_LEADERS,))
        return []
    leader = leaders[0]
    if len(shot.dice) < 2:
        game.unsettled("FDR-13", event.step, (OPEN_AT_END if event.at_end else NO_LEADER_DIE,))
        return []
    roll = shot.dice[1]
    after = game.units(view.before)
    applied = _state(leader, after.get(leader.id))
    unit_gone = _state(target, after.get(target.id)) == ELIMINATED
    if applied is None or (applied == ELIMINATED and unit_gone):
        return []
    if roll < LEADER_HIT:
        due: Any = UNCHANGED
    else:
        due, _ = _due(leader, SINGLE)
    if isinstance(due, Unknown):
        game.unsettled("FDR-13", event.step, due.data)
        return []
    if applied == due:
        return []
    if event.at_end:
        game.unsettled("FDR-13", event.step, (OPEN_AT_END,))
        return []
    later = event.by == "fire" and applied == UNCHANGED
    return [game.finding("FDR-13", Ruling.POSSIBLE if later else Ruling.PROVEN, step=event.step,
                         message=f"{leader.name}, stacked with {target.name} hit by fire in {shot.target} "
                                 f"(step {shot.step}), rolled {roll}: a 5 or 6 gives the leader a hit, so "
                                 f"{leader.name} {DUE[due]}; it {DONE[applied]}",
                         subjects=(leader.name, target.name),
                         evidence={"leader": leader.name, "target": target.name, "hex": shot.target,
                                   "leader_roll": roll, "due": due, "applied": applied, "fire_step": shot.step},
                         depends_on=(APPLIED_LATER,) if later else ())]
