"""Fire on and by the coastal guns (16.55, 16.58, 16.79, 17.5, 18.4, 19.5), as the players say it:

    fire CA Trieste at 2-6 Coastal Gun        (a warship's dice at a gun; the Axis says his first)
    fire 2-6 Coastal Gun at CA Trieste        (a gun's dice at a warship)
    air attack 1316 on 2-6 Coastal Gun x 6    (Operation Hercules, the Initial Segment: 6 attacks)

The dice of a `fire` line are the rolls after it until the next line (vlog/kit/rolls.py).

* WSH-02: ships and guns fire at each other only in the Amphibious Landing Phase, within the
  firer's printed range; the Axis names his ships' targets before the Allies name the guns'
  (18.4); a gun fires at one ship a phase and rolls at most its artillery value in dice, a
  warship at most half its offensive support (rounded up) in all; a ship a gun hit (a die of 6,
  5 within three hexes) and a gun a ship hit (a 6) are off the map when the phase ends; a
  warship that fired at guns supports no attack for the rest of the turn.
* SPR-04: air attacks only in Operation Hercules, in the Initial Segment of a day with attacks
  (17.51: 14, 12, 10, 8 from 29 June to 2 July; halved if Cloudy, none if Rainy, the weather as
  checks/weather.py reads it), all assigned before any is rolled; the dice rolled after them are
  at most the attacks less one a gun for each Allied AA unit within three hexes of it.
* JMP-15: after a paratroop jump into a hex holding coastal guns and Allied units of defense 1 or
  more, the guns stay while those units do (19.5, 16.58): when the Airborne Landing Phase ends,
  guns taken off while they still hold the hex, or guns left alone with the Axis units, are
  wrong. (The fort's destruction waits for the same, 17.1: checks/supply.py records it.)
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.kit.ledger import Ledger
from vlog.kit.rolls import FollowingDice
from vlog.kit.steps import Declared, PhaseChanged, Placed

from vlog.games.island_of_death.checks.support import printed_support, support_units
from vlog.games.island_of_death.checks.weather import weather_of
from vlog.games.island_of_death.rules import GRAMMARS, REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView
    from vlog.vassal.commands import Chat

GUN_FIRE_PHASE = "amphibious-landing"
CLOSE = 3
"""16.55: +1 to each die of a gun firing at a ship within three hexes."""
AA_REACH = 3
"""17.52: one die fewer for each Allied AA unit within three hexes of the gun."""
HIT = 6
_FIRE = re.compile(r"\s*fires?\s+(.+?)\s+at\s+(.+?)\s*\.?\s*$", re.IGNORECASE)
_AIR = re.compile(r"\s*air\s+attacks?\s+(?:hex\s+)?(\d{4})(?:\s+on\s+(.+?))?\s+x\s*(\d+)\s*\.?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Fire:
    firer: str
    target: str


@dataclass(frozen=True, slots=True)
class AirAttack:
    hex: str
    gun: str | None
    attacks: int


def read_fire(line: "Chat") -> Fire | None:
    """`fire CA Trieste at 2-6 Coastal Gun` -> Fire('CA Trieste', '2-6 Coastal Gun')."""
    match = _FIRE.match(line.message)
    return Fire(match.group(1), match.group(2)) if match else None


def read_air_attack(line: "Chat") -> AirAttack | None:
    """`air attack 1316 on 2-6 Coastal Gun x 6` -> AirAttack('1316', '2-6 Coastal Gun', 6)."""
    match = _AIR.match(line.message)
    return AirAttack(match.group(1), match.group(2), int(match.group(3))) if match else None


GRAMMARS.add("fire", read_fire)
GRAMMARS.add("air-attack", read_air_attack)


@dataclass(slots=True)
class Shot:
    firer: "Unit"
    target: "Unit"
    when: str | None
    step: int | None = None


@dataclass(slots=True)
class Jump:
    hex: str
    guns: list["Unit"]
    holders: list["Unit"]
    step: int | None


@dataclass(slots=True)
class Segment:
    """One Initial Segment's air attacks: (gun, attacks, AA units near it), the step of the first
    assignment, the dice rolled since."""

    assigned: list[tuple["Unit", int, int]] = field(default_factory=list)
    first_step: int | None = None
    dice: int = 0
    rolled_step: int | None = None


class CoastalGuns(Ledger):
    """This phase's shots, the dice each side rolled, the warships that fired at guns this turn,
    the jumps into gun hexes, the Initial Segment's air attacks."""

    def __init__(self, game: "IslandOfDeath") -> None:
        self.game = game
        self.dice: FollowingDice[Shot] = FollowingDice()
        self.shots: list[tuple[Shot, list[int]]] = []
        self.guns_fired: dict[str, int | None] = {}
        self.ship_dice: dict[str, int] = {}
        self.allied_spoke: int | None = None
        self.fired_at_guns: dict[str, tuple[int | None, int | None]] = {}
        self.jumps: dict[str, Jump] = {}
        self.held_when_jumped: set[str] = set()
        """Hexes of coastal guns with other Allied units, jumped into this phase (defense known or not)."""
        self.jump_hexes_judged: frozenset[str] = frozenset()
        """Those hexes at the last Airborne Landing Phase's end: their guns' fate is JMP-15's
        (not judged where the defenders' defense is unknown), not the hostile landing's (JMP-11)."""
        self.air = Segment()

    def step(self, view: "StepView") -> tuple[()]:
        self.dice.rolled(view.index, view.rolls)
        if self.air.assigned:
            for roll in view.rolls:
                if view.index != self.air.first_step:
                    self.air.dice += roll.n_dice
                    self.air.rolled_step = self.air.rolled_step or view.index
        return ()

    def shot_closed(self) -> list["Finding"]:
        answered = self.dice.close()
        if answered is None:
            return []
        shot = answered.declaration
        self.shots.append((shot, answered.values))
        if shot.firer.kind == "warship":
            self.ship_dice[shot.firer.id] = self.ship_dice.get(shot.firer.id, 0) + answered.dice
            allowed = _ship_dice(self.game, shot.firer)
            if isinstance(allowed, int) and self.ship_dice[shot.firer.id] > allowed:
                return [self._finding(shot, answered.step, f"the warship {shot.firer.label()} rolled "
                                      f"{self.ship_dice[shot.firer.id]} dice at coastal guns this phase: at most half its "
                                      f"offensive support, rounded up, {allowed} (16.79)",
                                      {"dice": self.ship_dice[shot.firer.id], "allowed": allowed})]
        else:
            allowed = _gun_value(shot.firer)
            if isinstance(allowed, int) and answered.dice > allowed:
                return [self._finding(shot, answered.step, f"{shot.firer.label()} rolled {answered.dice} dice at "
                                      f"{shot.target.label()}: a coastal gun rolls its artillery value, {allowed} (16.55)",
                                      {"dice": answered.dice, "allowed": allowed})]
        return []

    def _finding(self, shot: Shot, step: int | None, message: str, evidence: dict[str, Any]) -> "Finding":
        return self.game.inventory.finding("WSH-02", Ruling.PROVEN, step=step, when=shot.when, message=message,
                                           subjects=(shot.firer.name, shot.target.name),
                                           evidence={"unit": shot.firer.counter, "target": shot.target.counter,
                                                     **evidence})

    def phase_ended(self, view: "StepView", old: Any) -> list["Finding"]:
        out = self.shot_closed()
        now = self.game.units(view.before)
        for shot, faces in self.shots:
            ship = shot.firer.kind != "warship"
            close = ship and self.game.board.distance(shot.firer.hex, shot.target.hex) <= CLOSE
            hit = any(f + (1 if close else 0) >= HIT for f in faces)
            target = now.get(shot.target.id)
            if hit and target is not None and target.hex is not None:
                out.append(self._finding(shot, shot.step, f"{shot.target.label()} was hit by {shot.firer.label()} (dice "
                                         f"{faces}{', +1 within three hexes' if close else ''}) and is still in "
                                         f"{target.hex} at the end of the phase: a hit "
                                         f"{'damages and removes the ship (16.55)' if ship else 'destroys the gun (16.79)'}",
                                         {"dice": faces, "hex": target.hex}))
        self.shots, self.guns_fired, self.ship_dice, self.allied_spoke = [], {}, {}, None
        if old is not None and old.name == "airborne-landing":
            out += self._jumps_closed(now, old)
        if old is not None and old.name == "initial-segment":
            out += self._air_closed(now, old)
        return out

    # -- JMP-15 --------------------------------------------------------------------------------
    def _jumps_closed(self, now: dict[str, "Unit"], old: Any) -> list["Finding"]:
        out = []
        self.jump_hexes_judged, self.held_when_jumped = frozenset(self.held_when_jumped), set()
        for jump in self.jumps.values():
            guns = [now[g.id] for g in jump.guns if g.id in now and now[g.id].hex == jump.hex]
            holders = [u for u in jump.holders if u.id in now and now[u.id].hex == jump.hex]
            axis = [u for u in now.values() if u.hex == jump.hex and u.side == "axis" and u.is_ground_unit]
            evidence = {"hex": jump.hex, "coastal_guns": [g.counter for g in jump.guns],
                        "allied_units": [u.counter for u in holders], "jump_step": jump.step}
            if holders and len(guns) < len(jump.guns):
                gone = [g.label() for g in jump.guns if g.id not in {x.id for x in guns}]
                out.append(self.game.inventory.finding(
                    "JMP-15", Ruling.PROVEN, step=jump.step, when=self.game.when_of(old),
                    message=f"{', '.join(gone)} were taken off {jump.hex} after the jump into it while "
                            f"{', '.join(u.label() for u in holders)} still held it: coastal guns in a hex paratroops "
                            f"jump into are destroyed only when the other Allied units are eliminated or retreat (19.5, "
                            f"16.58)", subjects=gone, evidence=evidence))
            elif not holders and guns and axis:
                out.append(self.game.inventory.finding(
                    "JMP-15", Ruling.PROVEN, step=jump.step, when=self.game.when_of(old),
                    message=f"{', '.join(g.label() for g in guns)} are still in {jump.hex} with "
                            f"{', '.join(u.label() for u in axis)} once the other Allied units there are gone: they are "
                            f"eliminated then (19.53, 16.58)",
                    subjects=[g.name for g in guns], evidence={**evidence, "axis_units": [u.counter for u in axis]}))
        self.jumps = {}
        return out

    # -- SPR-04 --------------------------------------------------------------------------------
    def _air_closed(self, now: dict[str, "Unit"], old: Any) -> list["Finding"]:
        air, self.air = self.air, Segment()
        if not air.assigned or not air.dice:
            return []
        allowed = sum(max(0, n - aa) for _gun, n, aa in air.assigned)
        if air.dice <= allowed:
            return []
        return [self.game.inventory.finding(
            "SPR-04", Ruling.PROVEN, step=air.rolled_step, when=self.game.when_of(old),
            message=f"{air.dice} dice were rolled for the air attacks on coastal guns: the attacks less one a gun for "
                    f"each Allied AA unit within three hexes give {allowed} (17.52)",
            subjects=[g.name for g, _n, _a in air.assigned],
            evidence={"dice": air.dice, "allowed": allowed,
                      "assigned": [[g.counter, g.hex, n, aa] for g, n, aa in air.assigned]})]


def _gun_value(gun: "Unit") -> int | None:
    """The artillery value printed first on a coastal gun ("2-6": 2 dice, range 6)."""
    printed = _printed(gun)
    return printed[0] if printed else None


def _printed(gun: "Unit") -> tuple[int, int] | None:
    found = re.match(r"(\d+)-(\d+)", gun.name) or re.match(r"al-coastal-gun-(\d+)-(\d+)", gun.counter)
    return (int(found.group(1)), int(found.group(2))) if found else None


def _ship_dice(game: "IslandOfDeath", ship: "Unit") -> int | Unknown:
    offensive = printed_support(game, ship, "offensive")
    return math.ceil(offensive / 2) if isinstance(offensive, int) else offensive


def _reach(game: "IslandOfDeath", unit: "Unit") -> int | Unknown | None:
    if unit.kind == "warship":
        return printed_support(game, unit, "range")
    printed = _printed(unit)
    return printed[1] if printed else None


@REGISTRY.check("WSH-02", "WSH-03", event=Declared)
def judge_fire(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """16.55, 16.76, 16.79, 18.4 on a `fire` line; 18.4 on an attack line naming a warship that fired."""
    ledger = game.coastal_guns
    phase = game.phase
    turn = phase.turn if phase is not None else None
    if event.grammar == "attack":
        attack = event.declaration
        units = game.units(view.before)
        out = []
        for unit in support_units(game, attack.support + attack.defensive_support, attack.target, units, "axis"):
            fired = ledger.fired_at_guns.get(unit.id)
            if unit.kind == "warship" and fired is not None and fired[0] == turn:
                out.append(game.finding("WSH-02", Ruling.PROVEN, step=event.step,
                                        message=f"the warship {unit.label()} supports the attack on {attack.target} "
                                                f"after firing at coastal guns this turn (step {fired[1]}): it gives no "
                                                f"support for the rest of the turn (18.4)",
                                        subjects=(unit.name,),
                                        evidence={"unit": unit.counter, "target": attack.target, "fired_step": fired[1]}))
        return out
    if event.grammar != "fire":
        return []
    out = ledger.shot_closed()
    fire: Fire = event.declaration
    units = game.units(view.before)
    firers = [u for u in units.values() if u.name == fire.firer and u.hex is not None
              and u.kind in ("warship", "coastal-gun")]
    if not firers:
        return out
    firer = firers[0]
    wanted = "coastal-gun" if firer.kind == "warship" else "warship"
    targets = [u for u in units.values() if u.name == fire.target and u.hex is not None and u.kind == wanted]
    if not targets:
        return out
    target = min(targets, key=lambda u: game.board.distance(u.hex, firer.hex))
    if firer.kind == "coastal-gun":
        firer = min(firers, key=lambda u: game.board.distance(u.hex, target.hex))
    shot = Shot(firer, target, game.when(), event.step)
    ledger.dice.open(shot, event.step)
    evidence = {"unit": firer.counter, "target": target.counter}

    def finding(short: str, message: str, more: dict[str, Any]) -> None:
        out.append(game.finding(short, Ruling.PROVEN, step=event.step, message=message,
                                subjects=(firer.name, target.name), evidence={**evidence, **more}))

    if phase is not None and phase.name != GUN_FIRE_PHASE:
        finding("WSH-02", f"{firer.label()} fires at {target.label()} in {game.when_of(phase)}: warships and coastal "
                          f"guns fire at each other in the Amphibious Landing Phase (16.55, 18.4)", {"phase": phase.name})
    reach = _reach(game, firer)
    distance = game.board.distance(firer.hex, target.hex)
    if isinstance(reach, int) and distance > reach:
        finding("WSH-02", f"{firer.label()} fires at {target.label()}, {distance} hexes away: its range is {reach} "
                          f"(16.55, 16.79)", {"distance": distance, "range": reach})
    elif isinstance(reach, Unknown):
        game.unsettled("WSH-02", event.step, sorted(reach.data))
    if firer.kind == "warship":
        ledger.fired_at_guns[firer.id] = (turn, event.step)
        if ledger.allied_spoke is not None:
            finding("WSH-02", f"the Axis names {target.label()} as {firer.label()}'s target after the Allied player "
                              f"named his guns' targets (step {ledger.allied_spoke}): the Axis player names his first "
                              f"(16.55, 18.4)", {"allied_step": ledger.allied_spoke})
        if game.day_part() == "Night" or weather_of(game) == "rainy":
            finding("WSH-03", f"the warship {firer.label()} fires at {target.label()} "
                              f"{'on a Night turn' if game.day_part() == 'Night' else 'on a Rainy day'} (16.76)",
                    {"time": game.day_part(), "weather": weather_of(game)})
    else:
        ledger.allied_spoke = ledger.allied_spoke or event.step
        before = ledger.guns_fired.get(firer.id)
        if before is not None:
            finding("WSH-02", f"{firer.label()} fires at {target.label()} after firing at another warship this phase "
                              f"(step {before}): a coastal gun fires at one ship (16.55)", {"first_step": before})
        ledger.guns_fired.setdefault(firer.id, event.step)
    return out


@REGISTRY.check("WSH-02", "JMP-15", "SPR-04", event=PhaseChanged)
def judge_guns_at_phase_end(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    return game.coastal_guns.phase_ended(view, event.old)


@REGISTRY.check("WSH-02", "JMP-15", "SPR-04", on="end")
def judge_guns_at_log_end(game: "IslandOfDeath", view: "StepView") -> list["Finding"]:
    return game.coastal_guns.phase_ended(view, game.phase)


@REGISTRY.check("JMP-15", event=Placed)
def note_jump_into_guns(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """A paratroop jump (from the Disbandment Box in the Airborne Landing Phase) into a hex of
    coastal guns and Allied units of defense 1 or more."""
    unit, phase = event.unit, game.phase
    before = game.units(view.before)
    old = before.get(unit.id)
    if phase is None or phase.name != "airborne-landing" or old is None or old.box != "disbandment" \
            or unit.side != "axis" or unit.hex is None or unit.hex in game.coastal_guns.jumps:
        return []
    there = [u for u in before.values() if u.hex == unit.hex and u.side == "allied"]
    guns = [u for u in there if u.kind == "coastal-gun"]
    holders = [u for u in there if u.kind not in ("coastal-gun", "leader") and u.is_ground_unit]
    if not guns or not holders:
        return []
    game.coastal_guns.held_when_jumped.add(unit.hex)
    defended = [u for u in holders if isinstance(u.defense, int) and u.defense >= 1]
    if not defended:
        unknown = [u for u in holders if not isinstance(u.defense, int)]
        if unknown:
            game.unsettled("JMP-15", event.step, [f"counters.json {u.counter} defense" for u in unknown])
        return []
    game.coastal_guns.jumps[unit.hex] = Jump(unit.hex, guns, defended, event.step)
    return []


@REGISTRY.check("SPR-04", event=Declared)
def judge_air_attack(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """17.5-17.53 on an `air attack` line."""
    if event.grammar != "air-attack":
        return []
    attack: AirAttack = event.declaration
    phase, air = game.phase, game.coastal_guns.air
    units = game.units(view.before)
    out: list["Finding"] = []

    def finding(message: str, evidence: dict[str, Any]) -> None:
        out.append(game.finding("SPR-04", Ruling.PROVEN, step=event.step, message=message,
                                evidence={"hex": attack.hex, "attacks": attack.attacks, **evidence}))

    guns = [u for u in units.values() if u.hex == attack.hex and u.kind == "coastal-gun"
            and (attack.gun is None or u.name == attack.gun)]
    allowance = _air_attacks(game, phase)
    if phase is None or phase.name != "initial-segment" or allowance == 0:
        finding(f"an air attack on coastal guns in {attack.hex} in {game.when_of(phase)}: air attacks are made only in "
                f"the Initial Segments of Operation Hercules from 29 June to 2 July (17.5, 17.51)",
                {"phase": phase.name if phase is not None else None, "scenario": game.scenario})
        return out
    if not guns:
        finding(f"an air attack on {attack.hex}, where there is no coastal gun{' ' + attack.gun if attack.gun else ''}: "
                f"air attacks are made only against coastal guns (17.53)", {"gun": attack.gun})
        return out
    if air.rolled_step is not None:
        finding(f"air attacks on {attack.hex} assigned after the air attack dice were rolled (step {air.rolled_step}): "
                f"all are assigned before any die is rolled (17.52)", {"rolled_step": air.rolled_step})
    gun = guns[0]
    aa = sum(1 for u in units.values() if u.side == "allied" and u.kind == "anti-aircraft" and u.hex is not None
             and game.board.distance(u.hex, gun.hex) <= AA_REACH)
    air.assigned.append((gun, attack.attacks, aa))
    air.first_step = air.first_step or event.step
    total = sum(n for _g, n, _a in air.assigned)
    weather = weather_of(game)
    if weather is None:
        if total > allowance // 2:
            game.unsettled("SPR-04", event.step, [f"the weather roll of {phase.sequence.labels.get(phase.turn)} (17.51)"])
        return out
    allowed = 0 if weather == "rainy" else allowance // 2 if weather == "cloudy" else allowance
    if total > allowed:
        finding(f"{total} air attacks assigned this Initial Segment: {allowed} are available ({allowance} on the "
                f"schedule, the weather {weather}; 17.51)", {"total": total, "allowed": allowed, "weather": weather})
    return out


def _air_attacks(game: "IslandOfDeath", phase: Any) -> int:
    """17.51: the day's air attacks from the scenario's turn track (none where it gives none)."""
    if phase is None or game.scenario is None:
        return 0
    record = game.data.scenario(game.scenario)
    track = record["turn_track"] if "turn_track" in record else {}
    row = track[str(phase.turn)] if str(phase.turn) in track else None
    props = row["properties"] if row is not None and "properties" in row else {}
    value = props["air_attacks"].value if "air_attacks" in props else 0
    return value if isinstance(value, int) else 0
