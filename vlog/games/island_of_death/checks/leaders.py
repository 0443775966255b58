"""Leader casualties, overruns and returns (14.4, 6.52, 4.21c, 4.31d).

The rolls are said in chat before their dice (checks/unit_rolls.py): `leader casualty Beak`,
`overrun Beak`. A leader is eliminated when its piece turns to its ADC side (14.43: the back of
every leader) or leaves the table; a surviving overrun leader leaves the map on its leader side.
The Turn Record Track is one box in the data (map.json `turn-record-track`): which turn's box a
piece is in is not read, so the return is judged by when and where the piece comes back.

* LDR-04 (14.41): when a combat closes, a stack holding a leader that lost steps (in the combat
  or retreating through a ZOC) has a casualty roll for it: 2d6 minus the steps beyond the first;
  3 or less eliminates it. A leader left on its leader side after a roll that eliminates it, or
  turned to its ADC after one that spares it, is PROVEN (POSSIBLE when all its stack is gone: an
  overrun may have followed); steps lost the pieces leave open count every way (with no upper
  bound, a leader turned to its ADC is not judged: more steps lower the total); a stack that
  lost steps with no roll said is not judged there, naming the chat line.
* LDR-05 (6.52, 14.42): a leader in a hex enemy units enter with only leaders, coastal guns or
  zero-strength units there rolls 2d6: 7 or less eliminates it, else it leaves the map. A
  leader still there with the enemy when the phase ends, on its leader side after 7 or less, or
  on its ADC side after more, is PROVEN. It comes back (A-12: 6.52 says in the next Initial
  Segment, 14.42 in its side's next Status Phase; either is taken) in a later turn, with its
  formation's HQ, or with any friendly unit if the HQ is not on the map.
* LDR-06 (14.43): an ADC comes back from the track in an Initial Segment of a later day than
  its leader fell, in its formation HQ's hex; with no HQ on the map, an Allied ADC with an
  Allied infantry unit, an Axis one into a box (the Disbandment or its Follow-up box), not onto
  the map.
* LDR-07 (4.21c, 4.31d): a leader placed from the track in any other case comes in its side's
  Status Phase: an Axis leader with its HQ or a unit of its formation, an Allied leader with an
  Allied HQ, or any Allied infantry unit if there is none on the map.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared, Moved, PhaseChanged, Placed, Removed

from vlog.games.island_of_death.checks.combat_result import steps_lost_since
from vlog.games.island_of_death.checks.unit_rolls import CASUALTY, OVERRUN
from vlog.games.island_of_death.checks.weather import day_of
from vlog.games.island_of_death.rules import REGISTRY
from vlog.games.island_of_death.terrain import overrunnable

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView

CASUALTY_AT_MOST = 3
"""14.41: 3 or less eliminates the leader."""
OVERRUN_AT_MOST = 7
"""6.52, 14.42: 7 or less eliminates the leader."""
TRACK = "turn-record-track"
ARRIVAL_BOXES = ("disbandment", "follow-up", "first-wave", "second-wave")
"""The Disbandment Box and the box types a leader jumps or lands from (19.21, 18.33): no return
from the track."""


class Leaders(Ledger):
    """The combat being watched for leader casualties, the overruns of the phase, and the leaders
    that left the map in play (unit id -> (turn, day, how))."""

    def __init__(self, game: "IslandOfDeath") -> None:
        self.game = game
        self.watching: Any = None
        self.overruns: list[tuple["Unit", str, int | None]] = []
        """(leader, hex, step) overrun in the current phase."""
        self.left: dict[str, tuple[int, str | None, str]] = {}
        """Leader counter -> (turn, day, level) it left the map in (a counter: a piece deleted and
        added again from the palette is another piece)."""
        self.survived: set[str] = set()
        """Leaders that survived an overrun and are off the map (6.52, 14.42)."""

    def step(self, view: "StepView") -> tuple[()]:
        self.watching = self.game.combats.open
        return ()


def eliminated(unit: "Unit", now: dict[str, "Unit"]) -> bool | None:
    """A leader turned to its ADC or gone from the table: True; on its leader side: False."""
    after = now.get(unit.id)
    if after is None:
        return True
    return after.level == "adc" and unit.level != "adc"


def hqs_for(units: dict[str, "Unit"], leader: "Unit") -> list["Unit"]:
    """The HQs a leader goes with: its formation's (Axis), the Allied HQ (Allied)."""
    return [u for u in units.values() if u.kind == "hq" and u.side == leader.side and u.hex is not None
            and (leader.side == "allied" or u.formation == leader.formation)]


# -- LDR-04 ----------------------------------------------------------------------------------

def _closed(game: "IslandOfDeath") -> Any:
    combat = game.leaders.watching
    if combat is None or game.combats.open is combat:
        return None
    game.leaders.watching = game.combats.open
    return combat


@REGISTRY.check("LDR-04", event=Declared)
def judge_casualties_at_attack(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    combat = _closed(game)
    return _casualties(game, combat, view) if combat is not None else []


@REGISTRY.check("LDR-04", event=PhaseChanged)
def judge_casualties_at_phase_end(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    combat = _closed(game)
    return _casualties(game, combat, view) if combat is not None else []


@REGISTRY.check("LDR-04", on="end")
def judge_casualties_at_log_end(game: "IslandOfDeath", view: "StepView") -> list["Finding"]:
    combat = game.leaders.watching
    game.leaders.watching = None
    return _casualties(game, combat, view) if combat is not None else []


def _casualties(game: "IslandOfDeath", combat: Any, view: "StepView") -> list["Finding"]:
    """14.41 for each stack of the closed combat that held a leader."""
    now, start, out = game.units(view.before), combat.start_units, []
    other = combat.defenders[0].side if combat.defenders else None
    stacks = [(combat.side, {u.hex for u in combat.attackers}), (other, {combat.attack.target})]
    rolls = [r for r in game.unit_rolls.rolls if r.kind == CASUALTY and (r.declared_step or 0) >= (combat.step or 0)]
    overruns = {r.unit.id for r in game.unit_rolls.rolls if r.kind == OVERRUN}
    for side, hexes in stacks:
        for hex_ in sorted(h for h in hexes if h is not None):
            stack = [u for u in start.values() if u.side == side and u.hex == hex_ and u.is_ground_unit]
            leaders = [u for u in stack if u.kind == "leader"]
            takers = [u for u in stack if u.kind not in ("leader", "coastal-gun")]
            if not leaders or not takers:
                continue
            low, high = steps_lost_since(takers, now, start)
            for leader in leaders:
                roll = next((r for r in rolls if r.unit.id == leader.id), None)
                if roll is None:
                    if low >= 1:
                        game.unsettled("LDR-04", view.index, [
                            f"the casualty roll of {leader.name} ({low} step(s) lost in {hex_}; chat `leader casualty "
                            f"{leader.name}` before its two dice, 14.41)"])
                    continue
                if roll.unit.id in overruns:
                    continue
                out += _judge_casualty(game, combat, leader, roll, (low, high), stack, now, hex_)
    return out


def _judge_casualty(game: "IslandOfDeath", combat: Any, leader: "Unit", roll: Any, lost: tuple[int, int | None],
                    stack: list["Unit"], now: dict[str, "Unit"], hex_: str) -> list["Finding"]:
    low, high = lost
    if low == 0 and high == 0:
        return []                                          # no step lost: the roll was not due
    losses = range(max(low, 1), (high if high is not None else low) + 1)
    totals = sorted({roll.total - (n - 1) for n in losses})
    fell = eliminated(leader, now)
    evidence = {"unit": leader.counter, "hex": hex_, "target": combat.attack.target, "roll": roll.total,
                "steps_lost": low if high == low else [low, high], "totals": totals, "roll_step": roll.roll_step}
    stack_left = any(now.get(u.id) is not None and now[u.id].hex is not None for u in stack if u.id != leader.id)
    overrun = () if stack_left else ("that it was not overrun after its stack was gone (14.42)",)
    on_map = now.get(leader.id) is not None and now[leader.id].hex is not None
    if all(t <= CASUALTY_AT_MOST for t in totals) and not fell:
        # off the map on its leader side it may have survived an overrun once its stack was gone
        say = "eliminates it, but it is still on its leader side"
        ruling, deps = (Ruling.PROVEN, ()) if on_map or stack_left else (Ruling.POSSIBLE, overrun)
    elif all(t > CASUALTY_AT_MOST for t in totals) and fell and high is not None:   # more steps: a lower total
        say = "spares it, but it was turned to its ADC or taken off"
        ruling, deps = (Ruling.PROVEN, ()) if stack_left else (Ruling.POSSIBLE, overrun)
    else:
        return []
    return [combat.finding(
        game, "LDR-04", ruling, step=roll.roll_step,
        message=f"{leader.label()} was in a stack in {hex_} that lost {evidence['steps_lost']} step(s) in the attack on "
                f"{combat.attack.target}; its casualty roll {roll.total} less the steps beyond the first is "
                f"{' or '.join(map(str, totals))}, which {say} (3 or less eliminates it, 14.41)",
        subjects=(leader.name,), evidence=evidence, depends_on=deps)]


# -- LDR-05 ----------------------------------------------------------------------------------

@REGISTRY.check("LDR-05", event=Moved)
def note_overrun_move(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    _note_overrun(game, event.after, view, event.step)
    return []


@REGISTRY.check("LDR-05", event=Placed)
def note_overrun_landing(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    _note_overrun(game, event.unit, view, event.step)
    return []


def _note_overrun(game: "IslandOfDeath", unit: "Unit", view: "StepView", step: int | None) -> None:
    """A unit entering a hex with enemy leaders and only leaders, coastal guns, zero-strength units."""
    if unit.hex is None or not unit.is_ground_unit or unit.kind == "leader" or game.phase is None:
        return
    there = game.enemies(view.before, unit.side).get(unit.hex, [])
    leaders = [u for u in there if u.kind == "leader"]
    noted = {u.id for u, _, _ in game.leaders.overruns}
    if leaders and overrunnable(there) is True:
        game.leaders.overruns += [(u, unit.hex, step) for u in leaders if u.id not in noted]


@REGISTRY.check("LDR-05", event=PhaseChanged)
def judge_overruns(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """6.52, 14.42 at the end of the phase of the overrun."""
    old, ledger = event.old, game.leaders
    overruns, ledger.overruns = ledger.overruns, []
    if old is None:
        return []
    now, out = game.units(view.before), []
    rolls = {r.unit.id: r for r in game.unit_rolls.of(OVERRUN, old)}
    for leader, hex_, step in overruns:
        after = now.get(leader.id)
        evidence = {"unit": leader.counter, "hex": hex_, "overrun_step": step, "turn": old.turn}

        def finding(message: str, at: int | None, more: dict) -> None:
            out.append(game.inventory.finding("LDR-05", Ruling.PROVEN, step=at, when=game.when_of(old),
                                              message=f"{leader.label()}, overrun in {hex_} (step {step}), {message}",
                                              subjects=(leader.name,), evidence={**evidence, **more}))

        if after is not None and after.hex == hex_ and any(
                u.hex == hex_ and u.side != leader.side and u.is_ground_unit for u in now.values()):
            finding("was still in the hex with the enemy when the phase ended: it rolls, and leaves the map "
                    "eliminated or for the Turn Record Track (6.52, 14.42)", event.step, {"still_there": True})
            continue
        roll = rolls.get(leader.id)
        if roll is None:
            game.unsettled("LDR-05", step, [f"the overrun roll of {leader.name} (chat `overrun {leader.name}` before "
                                            f"its two dice, 6.52)"])
            continue
        fell = eliminated(leader, now)
        more = {"roll": roll.total, "roll_step": roll.roll_step}
        if roll.total <= OVERRUN_AT_MOST and after is not None and after.level != "adc":
            finding(f"rolled {roll.total}: 7 or less eliminates it (its ADC comes, 14.43), but it is on its leader "
                    f"side", roll.roll_step, more)
        elif roll.total > OVERRUN_AT_MOST and fell and after is not None:
            finding(f"rolled {roll.total}: more than 7 spares it (it goes to the Turn Record Track), but it was "
                    f"turned to its ADC", roll.roll_step, more)
        elif roll.total > OVERRUN_AT_MOST and after is not None and after.hex is None:
            ledger.survived.add(leader.counter)
    return out


# -- the returns: LDR-05, LDR-06, LDR-07 -----------------------------------------------------

@REGISTRY.check("LDR-06", event=Removed)
def note_leader_left(game: "IslandOfDeath", event: Removed, view: "StepView") -> list["Finding"]:
    unit, phase = event.unit, game.phase
    if unit.kind == "leader" and phase is not None:
        game.leaders.left[unit.counter] = (phase.turn, day_of(phase), unit.level or "")
    return []


@REGISTRY.check("LDR-05", "LDR-06", "LDR-07", event=Placed)
def judge_leader_return(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """A leader back on the map from the track (or after it left the map in play)."""
    unit, phase, ledger = event.unit, game.phase, game.leaders
    old = game.units(view.before).get(unit.id)
    box = old.box if old is not None else None
    if unit.kind != "leader" or phase is None or box in ARRIVAL_BOXES or game.box_type(box) in ARRIVAL_BOXES:
        return []                                   # a jump or a landing
    left = ledger.left.get(unit.counter)
    if box != TRACK and left is None:
        return []                                   # a set-up placement
    units = game.units(view.before)
    hqs = hqs_for(units, unit)
    evidence = {"unit": unit.counter, "hex": unit.hex, "level": unit.level, "phase": phase.name, "turn": phase.turn,
                "left": list(left) if left else None, "hqs": [h.counter for h in hqs]}
    status = f"{unit.side}-status"
    if unit.level == "adc":
        short, when_ok = "LDR-06", phase.name == "initial-segment" and (left is None or left[1] != day_of(phase))
        timing = "an ADC returns in the Initial Segment of the day after its leader fell (14.43)"
    elif unit.counter in ledger.survived:
        ledger.survived.discard(unit.counter)
        short = "LDR-05"
        when_ok = (left is None or left[0] < phase.turn) and phase.name in ("initial-segment", status)
        timing = ("a leader that survived an overrun returns in a later turn, in the next Initial Segment (6.52) or "
                  "its side's Status Phase (14.42)")
    else:
        short, when_ok = "LDR-07", phase.name == status
        timing = "leaders come from the Turn Record Track in their side's Status Phase (4.21c, 4.31d)"
    where = _where(game, unit, units, hqs, short)
    problems = ([] if when_ok else [f"it came in {game.when_of(phase)}: {timing}"]) + ([where] if where else [])
    if not problems:
        return []
    return [game.finding(short, Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} was placed on {unit.hex} from "
                                 f"{'the Turn Record Track' if box == TRACK else 'off the map'}: " + "; ".join(problems),
                         subjects=(unit.name,), evidence={**evidence, "in_time": when_ok, "place": where})]


def _where(game: "IslandOfDeath", unit: "Unit", units: dict[str, "Unit"], hqs: list["Unit"], short: str) -> str | None:
    """What is wrong with the hex a returning leader was placed in (None: nothing)."""
    friends = [u for u in units.values() if u.hex == unit.hex and u.side == unit.side and u.id != unit.id
               and u.is_ground_unit]
    if short == "LDR-07" and unit.side == "axis":
        if any(h.hex == unit.hex for h in hqs) or any(u.formation == unit.formation for u in friends):
            return None                             # 4.21c: with the formations of its HQ
        return ("an Axis leader comes with its HQ or a unit of its formation, or into a Follow-up or the "
                "Disbandment Box (4.21c)")
    if hqs:
        if any(h.hex == unit.hex for h in hqs):
            return None
        return f"its HQ is on the map ({', '.join(f'{h.counter} in {h.hex}' for h in hqs)}) and it comes in the HQ's hex"
    if unit.side == "allied" or short == "LDR-05":
        wanted = [u for u in friends if u.kind == "infantry" or short == "LDR-05"]
        if wanted:
            return None
        return ("with no HQ on the map it comes with " +
                ("an Allied infantry unit (14.43, 4.31d)" if short != "LDR-05" else "a friendly unit (6.52, 14.42)"))
    return ("with its formation's HQ not on the map an Axis ADC goes to the Disbandment Box or its division's "
            "Follow-up box, not onto the map (14.43)")
