"""Movement and zones of control (5.0-5.4, 6.0-6.54): each logged drag in a player's Movement
Phase is judged against where the unit began that phase.

A VASSAL log shows the hexes a unit was dropped in, not its path. The unit's whole move so far
(the hex it began the phase in to the hex it stands in now) must be explained by some path
within its movement allowance over the TEC costs of its class, paying the ZOC costs, stopping
on entering an enemy ZOC and never going from one enemy ZOC hex to another (5.2, 6.53; the one
hex always allowed). Where the log itself shows the breach, the finding names it directly: a
unit dropped in an enemy ZOC hex it entered and then moved on (ZOC-04), a drag from one enemy
ZOC hex to another with no infiltration (ZOC-05), an infiltration roll that failed (MOV-12).

Infiltration (6.4) is read from the dice: a 1d6 roll earlier in the phase (each taken by one
infiltration, the latest first), by a unit that began the phase in an enemy ZOC and makes its
first move of the phase. A unit dropped back in the hex it began the phase in has taken its move
back: it may move afresh. The
roll succeeds at 9 or more with the unit's morale and the printed modifiers; the fort modifier
(-2) is left out, so a roll it would fail is not called a success wrongly but may be missed.

Units with a movement allowance of 0 never move (6.53: prepared artillery, coastal guns,
militia, strongpoints), in any phase (they neither retreat nor advance), and Axis units that
landed or jumped this turn do not move in the Axis Movement Phase (6.54).

Leaders move 14 MP by any mix of movement classes (14.3; their ZOC stops are not judged, as they
move and infiltrate with units), and the leader bonus to allowances (14.1, values on the
counters) are read as favourably as the data allows; strategic movement (6.2) is taken as a
way the move could have been made when the unit is far from the enemy, its TEC costs not being
in the data. An out-of-supply motorized or mechanized unit has 2 MP less (8.33): a move within
its printed allowance but not within that is SUP-08's.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import MovementRules, MovesFrom, any_class, best_of, check_move
from vlog.kit.allowance import Allowance
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Flipped, Moved, PhaseChanged, Placed

from vlog.games.island_of_death.checks.combat_odds import DEMORALIZED
from vlog.games.island_of_death.rules import GAME, REGISTRY
from vlog.games.island_of_death.terrain import movement_rules
from vlog.games.island_of_death.units import MOVEMENT_CLASSES, Unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

NEVER_MOVE = frozenset({"coastal-gun", "militia", "strongpoint"})
"""16.53, 16.34, 16.23: movement allowance 0, never move, retreat or advance."""
INFILTRATION_SUCCESS = 9
"""6.41: a modified roll of 9 or more succeeds."""
STRATEGIC_DISTANCE = 2
"""6.2: no strategic movement within two hexes of an enemy ground unit."""
WAVE_BOXES = ("first-wave", "second-wave")
"""Box types a landing unit comes from (18.3)."""
OUT_OF_SUPPLY_MA, OUT_OF_SUPPLY_MINIMUM = 2, 1
"""8.33: an out-of-supply motorized or mechanized unit moves 2 less, never below 1."""
DEMORALIZED_MA, DEMORALIZED_MINIMUM = {True: 2, False: 4}, 1
"""11.4: a Demoralized unit moves 2 less on foot, 4 less motorized or mechanized, never below 1."""


@dataclass(slots=True)
class PhaseMoves:
    """What the units of the phasing player did in the current phase."""

    origin: dict[str, str] = field(default_factory=dict)
    """Unit id -> the hex it began the phase in (where it first moved from)."""
    entered: dict[str, list[tuple[str, Any, int]]] = field(default_factory=dict)
    """Unit id -> the hexes it was dropped in: (hex, in enemy ZOC then, step)."""
    hops: dict[str, int] = field(default_factory=dict)
    infiltrated: set[str] = field(default_factory=set)
    later_steps: dict[str, tuple[str, int | None]] = field(default_factory=dict)
    """4.24, 4.32: what comes after tactical movement and was done in this phase: unit id ->
    ("infiltrated" or "moved (a warship)", step); a certain infiltration or a warship's move."""
    reported: set[str] = field(default_factory=set)
    """Units a movement finding was reported for in this phase (one per unit and phase)."""
    night_cost: dict[str, int | None] = field(default_factory=dict)
    """At Night: unit id -> the cheapest cost of its move so far (None: not known)."""


class Movement(Ledger):
    """The ledger of movement: the current phase's moves, the dice of the last step, the units
    that landed or jumped in each turn."""

    def __init__(self) -> None:
        self.moves = PhaseMoves()
        self.arrived: dict[str, tuple[int, str]] = {}
        """Unit id -> (turn, how) it landed amphibiously, jumped or entered at an airfield."""
        self.airfield_artillery: dict[str, int] = {}
        """Artillery id -> the turn it landed at an airfield (16.13, MOV-18)."""
        self.dz_start: dict[tuple[int, str], str] = {}
        """(turn, drop-zone marker id) -> the hex it began that turn's Initial Segment in (19.13)."""
        self.dice: list[int] = []
        """The single dice rolled in this phase and not yet taken by an infiltration."""
        self.pending: list[tuple[int | None, Unit, tuple[str, ...]]] = []
        """Moves into enemy-held hexes this phase: (step, the unit there, the enemy unit ids)."""
        self.night_moves: dict[str, int | None] = {}
        """The units that moved in the phase that just ended and, at Night, the cheapest cost of
        their moves (PhaseMoves.night_cost; None: not known)."""

    def take_pending(self) -> list[tuple[int | None, Unit, tuple[str, ...]]]:
        taken, self.pending = self.pending, []
        return taken

    def step(self, view: "StepView") -> tuple[()]:
        self.dice += [roll.faces[0] for roll in view.rolls if len(getattr(roll, "faces", ()) or ()) == 1]
        return ()

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.night_moves = {uid: self.moves.night_cost.get(uid) for uid in self.moves.entered}
        self.moves, self.dice = PhaseMoves(), []
        return ()


# -- helpers ---------------------------------------------------------------------------------

def _allowance(game: "IslandOfDeath", unit: Unit, view: "StepView", supply: bool = True,
               any_leader: bool = False) -> tuple[Any, list[str]]:
    """The unit's movement allowance for this move (None: unknown, so not limited) and the data
    it rests on. 8.33: out of supply (as this turn's Status Phase found it), a motorized or
    mechanized unit has 2 less, at least 1 (`supply` false: not counted). 14.1: a leader of its
    formation stacked or adjacent at the start of the phase adds its bonus (the largest one,
    read favourably), last."""
    ma = unit.movement
    data: list[str] = []
    if isinstance(ma, Unknown):
        return None, sorted(ma.data)
    if ma is None:
        return None, [f"counters.json {unit.counter} level {unit.level} movement"]
    allowance = Allowance(ma)
    if supply and out_of_supply(game, unit):
        allowance.less(OUT_OF_SUPPLY_MA, floor=OUT_OF_SUPPLY_MINIMUM)
    if demoralized(game, unit):
        allowance.less(DEMORALIZED_MA[unit.movement_class == "foot"], floor=DEMORALIZED_MINIMUM)
    ma = allowance.value
    origin = game.movement.moves.origin.get(unit.id, unit.hex)
    bonus: Any = 0
    for other in game.leaders_on_map(view.before, unit.side) if origin is not None else ():
        start = game.movement.moves.origin.get(other.id, other.hex)
        if game.board.distance(start, origin) > 1:
            continue
        if unit.formation and other.formation and unit.formation != other.formation and not any_leader:
            continue                                   # 14.1: only a leader of its own formation
        key = "foot_bonus" if unit.movement_class == "foot" else "motorized_bonus"
        record = game.data.counter(other.counter)["levels"]
        value = record[other.level][key].value if other.level in record and key in record[other.level] else None
        if value is None:
            return None, [f"counters.json {other.counter} {key} (14.1 leader bonus)"]
        bonus = max(bonus, value)
    return ma + bonus, data


def demoralized(game: "IslandOfDeath", unit: Unit) -> bool:
    """Certainly Demoralized, as the combat results of the log leave it (checks/combat_result.py)."""
    return game.combats.state(unit.id) == frozenset({DEMORALIZED})


def out_of_supply(game: "IslandOfDeath", unit: Unit) -> bool:
    """A motorized or mechanized unit certainly out of supply this turn (8.33)."""
    if unit.movement_class not in ("motorized", "mechanized") or game.phase is None:
        return False
    return game.supply.out_of_supply(unit.id, game.phase.turn) is True


def _near_enemy(game: "IslandOfDeath", enemies: dict[str, list[Unit]], hex_: str) -> bool:
    return any(game.board.distance(hex_, h) <= STRATEGIC_DISTANCE for h in enemies)


def _rules(game: "IslandOfDeath", unit: Unit, view: "StepView", goal: str | None, shared: dict | None = None,
           **changes: Any) -> list[MovementRules[str]]:
    """The rules of each of the unit's movement classes; with `shared` (a dict kept while the
    enemy units stand as they stood), the rules of one class and `changes` share their steps."""
    enemies = game.enemies(view.before, unit.side)
    zoc = game.zoc(view.before, unit.side)
    classes = (unit.movement_class,) if unit.movement_class else MOVEMENT_CLASSES
    out = []
    for movement_class in classes:
        rules = movement_rules(game.data, game.terrain(movement_class), enemies=enemies, zoc=zoc, goal=goal)
        for key, value in changes.items():
            setattr(rules, key, value)
        if shared is not None:
            rules.steps = shared.setdefault(("steps", movement_class, tuple(sorted(changes.items()))), {})
        out.append(rules)
    return out


def _search(game: "IslandOfDeath", unit: Unit, view: "StepView", start: str, goal: str, allowance: Any,
            **changes: Any):
    """The best of the unit's movement classes' searches, each asked once while the enemy units
    stand as they stood (the rules read nothing else that changes): a drag taken back and made
    again, or a check asking twice, is not searched again. The searches from one hex within one
    allowance are carried on from goal to goal (`MovesFrom`), and those of one class share what
    each step costs: the rules depend on the goal only where enemy units stand, and such a goal
    is searched alone."""
    enemies = game.enemies(view.before, unit.side)
    searched = game.recalled((GAME, "searches", unit.side), enemies, dict)
    changed = tuple(sorted(changes.items()))
    key = (unit.movement_class, start, goal, allowance, changed)
    found = searched.get(key)
    if found is None:
        if goal in enemies:
            checks = [check_move(r, start, goal, allowance) for r in _rules(game, unit, view, goal, **changes)]
        else:
            origin = ("from", unit.movement_class, start, allowance, changed)
            moves = searched.get(origin)
            if moves is None:
                moves = searched[origin] = [MovesFrom(r, start, allowance)
                                            for r in _rules(game, unit, view, None, searched, **changes)]
            checks = [m.check(goal) for m in moves]
        found = searched[key] = best_of(*checks)
    return found


# -- the checks ------------------------------------------------------------------------------

@REGISTRY.check("MOV-06", "MOV-10")
def judge_immobile(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """6.53, 6.6: a unit of movement allowance 0 (coastal gun, militia, strongpoint) never
    moves; artillery moves only on its hitched side."""
    unit, after = event.before, event.after
    if unit.hex is None or after.hex is None or not unit.is_ground_unit:
        return []
    if unit.kind in NEVER_MOVE or unit.movement == 0:
        return [game.finding("MOV-06", Ruling.PROVEN, step=event.step,
                             message=f"{unit.label()} moved {unit.hex} -> {after.hex}: a {unit.kind} has a "
                                     f"movement allowance of 0 and never moves",
                             subjects=(unit.name,),
                             evidence={"unit": unit.counter, "kind": unit.kind, "from": unit.hex, "to": after.hex})]
    if unit.prepared and after.prepared:
        return [game.finding("MOV-10", Ruling.PROVEN, step=event.step,
                             message=f"{unit.label()} moved {unit.hex} -> {after.hex} on its prepared side: "
                                     f"artillery moves only hitched",
                             subjects=(unit.name,),
                             evidence={"unit": unit.counter, "side_shown": "prepared", "from": unit.hex,
                                       "to": after.hex})]
    return []


@REGISTRY.check("MOV-09", event=Placed)
def note_arrival(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """Remembers the Axis units that came onto the map from a wave box (an amphibious landing)
    or from the Disbandment Box in the Airborne Landing Phase (a jump). A company placed from the
    Disbandment Box in the Movement Phase may be an airfield landing (16.1) or a battalion's
    breakdown (13.1): it is not taken for a landing."""
    unit, phase = event.unit, game.phase
    before = game.units(view.before).get(unit.id)
    box = before.box if before is not None else None
    if phase is None or box is None or unit.side != "axis":
        return []
    how = None
    if game.box_type(box) in WAVE_BOXES:
        how = "landed amphibiously"
    elif box == "disbandment" and phase.name == "airborne-landing":
        how = "jumped"
    if how is not None:
        game.movement.arrived[unit.id] = (phase.turn, how)
    return []


@REGISTRY.check("MOV-09", event=Moved)
def judge_landed_units_stay(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """6.54: an Axis unit that landed or jumped this turn does not move in the Axis Movement
    Phase."""
    unit, after = event.before, event.after
    phase = game.phase
    if phase is None or unit.hex is None or after.hex is None or "movement" not in phase.kinds \
            or phase.phasing != unit.side:
        return []
    arrived = game.movement.arrived.get(unit.id)
    if arrived is None or arrived[0] != phase.turn or unit.id in game.movement.moves.reported:
        return []
    game.movement.moves.reported.add(unit.id)
    return [game.finding("MOV-09", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} moved {unit.hex} -> {after.hex} in the turn it {arrived[1]}",
                         subjects=(unit.name,), evidence={"unit": unit.counter, "arrived": arrived[1],
                                                          "turn": phase.turn, "from": unit.hex, "to": after.hex})]


@REGISTRY.check("ZOC-04", "ZOC-05", "MOV-04", "MOV-11", "MOV-12", "SUP-08", "MOV-13", "MOV-14")
def judge_move(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """5.2, 6.4, 6.53: the move so far within the allowance, stopping in enemy ZOC, no ZOC to
    ZOC but by infiltration with a roll of 9 or more."""
    unit, after = event.before, event.after
    phase = game.phase
    if unit.hex is None or after.hex is None or not unit.is_ground_unit \
            or unit.kind in NEVER_MOVE or unit.movement == 0 or unit.prepared:
        return []
    if phase is None or "movement" not in phase.kinds or phase.phasing != unit.side:
        return []
    ledger = game.movement.moves
    origin = ledger.origin.setdefault(unit.id, unit.hex)
    if after.hex == origin and unit.id not in ledger.reported:
        ledger.entered.pop(unit.id, None)               # back where it began: the move taken back
        ledger.hops.pop(unit.id, None)
        return []
    if unit.is_leader:
        return _leader_move(game, event, view, unit, after, origin)
    hops = ledger.hops[unit.id] = ledger.hops.get(unit.id, 0) + 1
    zoc = game.zoc(view.before, unit.side)
    here, there = zoc.in_zoc(unit.hex), zoc.in_zoc(after.hex)
    entered = ledger.entered.setdefault(unit.id, [])
    entered.append((after.hex, there, event.step))
    if unit.id in ledger.reported or unit.id in ledger.infiltrated:
        if unit.id in ledger.infiltrated and unit.id not in ledger.reported:
            ledger.reported.add(unit.id)
            return [_finding(game, "ZOC-04", Ruling.PROVEN, event, unit, after,
                             f"moved on after infiltrating into {unit.hex}", {"infiltrated_into": unit.hex})]
        return []
    # ZOC-04: dropped in an enemy ZOC hex it entered this phase, then moved on
    if unit.hex != origin and len(entered) > 1:
        was = entered[-2][1]
        if was is True or isinstance(was, Unknown):
            ledger.reported.add(unit.id)
            ruling = Ruling.PROVEN if was is True else Ruling.POSSIBLE
            return [_finding(game, "ZOC-04", ruling, event, unit, after,
                             f"entered {unit.hex} in an enemy ZOC and moved on to {after.hex}",
                             {"zoc_hex": unit.hex, "zoc_from": sorted(zoc.sources(unit.hex))},
                             depends_on=was.data if isinstance(was, Unknown) else ())]
    adjacent = game.board.distance(unit.hex, after.hex) == 1
    if adjacent and here is not False and there is not False:
        return _zoc_to_zoc(game, event, view, unit, after, origin, hops, here, there)
    return _allowance_check(game, event, view, unit, after, origin)


def _zoc_to_zoc(game, event, view, unit, after, origin, hops, here, there) -> list["Finding"]:
    ledger = game.movement.moves
    data = sorted({*(here.data if isinstance(here, Unknown) else ()), *(there.data if isinstance(there, Unknown) else ())})
    certain = not data
    evidence = {"from_zoc": sorted(game.zoc(view.before, unit.side).sources(unit.hex)),
                "to_zoc": sorted(game.zoc(view.before, unit.side).sources(after.hex))}
    may_infiltrate = unit.hex == origin and hops == 1
    roll = game.movement.dice.pop() if may_infiltrate and game.movement.dice else None
    if not may_infiltrate or roll is None:
        ledger.reported.add(unit.id)
        why = "not its first move from the hex it began the phase in" if not may_infiltrate \
            else "no infiltration roll (1d6) in this phase before it"
        return [_finding(game, "ZOC-05", Ruling.PROVEN if certain else Ruling.POSSIBLE, event, unit, after,
                         f"moved from enemy ZOC in {unit.hex} to enemy ZOC in {after.hex}: {why}",
                         {**evidence, "infiltration": False}, depends_on=data)]
    ledger.infiltrated.add(unit.id)
    if certain:
        ledger.later_steps[unit.id] = ("infiltrated", event.step)
    morale = unit.morale
    mods = {"friendly_in_destination": 2 if any(u.side == unit.side and u.id != unit.id
                                                  for u in game.units(view.before).values() if u.hex == after.hex) else 0,
            "night": 1 if game.day_part() == "Night" else 0,
            "tank": 1 if unit.kind == "tank" else 0,
            "motorized": -1 if unit.movement_class == "motorized" else 0}
    if isinstance(morale, Unknown) or morale is None:
        ledger.reported.add(unit.id)
        return [_finding(game, "MOV-12", Ruling.POSSIBLE, event, unit, after,
                         f"infiltrated {unit.hex} -> {after.hex} on a roll of {roll}; its morale is not known",
                         {"roll": roll, "modifiers": mods},
                         depends_on=sorted(morale.data) if isinstance(morale, Unknown)
                         else [f"counters.json {unit.counter} level {unit.level} morale"])]
    total = roll + morale + sum(mods.values())
    if total >= INFILTRATION_SUCCESS:
        return []
    ledger.reported.add(unit.id)
    return [_finding(game, "MOV-12", Ruling.PROVEN if certain else Ruling.POSSIBLE, event, unit, after,
                     f"infiltrated {unit.hex} -> {after.hex} on {roll} + morale {morale} + modifiers "
                     f"{sum(mods.values())} = {total} (success needs {INFILTRATION_SUCCESS})",
                     {"roll": roll, "morale": morale, "modifiers": mods, "total": total}, depends_on=data)]


def _allowance_check(game, event, view, unit, after, origin) -> list["Finding"]:
    ledger = game.movement.moves
    enemies = game.enemies(view.before, unit.side)
    if after.hex in enemies:
        return []                                      # MOV-08's
    allowance, data = _allowance(game, unit, view)
    result = _search(game, unit, view, origin, after.hex, allowance)
    if result.ruling is Ruling.LEGAL:
        return _night_move(game, event, unit, after, origin, result)
    strategic = not _near_enemy(game, enemies, origin) and not _near_enemy(game, enemies, after.hex)
    depends = set(result.verdict.depends_on) | set(data)
    if result.ruling is Ruling.PROVEN and strategic:
        depends.add("tables.json tec strategic movement costs (6.2: the unit is far enough from the enemy)")
    if not game.board.map_known and result.ruling is Ruling.POSSIBLE:
        game.unsettled("MOV-04", event.step, sorted(depends))
        return []
    relaxed = _search(game, unit, view, origin, after.hex, allowance, stop_on_zoc_entry=False, zoc_to_zoc=True)
    short = "ZOC-04" if relaxed.ruling is Ruling.LEGAL else "MOV-04"
    if short == "MOV-04" and out_of_supply(game, unit):
        printed, _ = _allowance(game, unit, view, supply=False)
        if _search(game, unit, view, origin, after.hex, printed).ruling is Ruling.LEGAL:
            short = "SUP-08"                           # within its allowance, not within 2 less
    if short == "MOV-04":
        other, _ = _allowance(game, unit, view, any_leader=True)
        if other != allowance and _search(game, unit, view, origin, after.hex, other).ruling is Ruling.LEGAL:
            short = "MOV-14"                           # only with the bonus of another formation's leader
    ruling = Ruling.POSSIBLE if depends else Ruling.PROVEN
    ledger.reported.add(unit.id)
    cheapest = relaxed.route.cost if relaxed.route is not None else None
    free = _search(game, unit, view, origin, after.hex, None)
    evidence = {"from": origin, "to": after.hex, "allowance": allowance,
                "movement_class": unit.movement_class,
                "cheapest_cost": free.route.cost if free.route is not None else None}
    if short == "ZOC-04":
        message = f"no path from {origin} to {after.hex} stops where it enters an enemy ZOC"
        evidence["cheapest_cost_ignoring_zoc_stops"] = cheapest
    elif short == "MOV-14":
        evidence["allowance_with_any_leader"] = other
        message = (f"moved {origin} -> {after.hex} in this phase: no path costs {allowance} MP or less; it would "
                   f"with the bonus of a leader of another formation ({other} MP), which it may not take (14.1)")
    elif short == "SUP-08":
        evidence["out_of_supply"] = True
        message = (f"moved {origin} -> {after.hex} in this phase out of supply: no path costs {allowance} MP "
                   f"or less (its allowance less {OUT_OF_SUPPLY_MA}, 8.33; cheapest {evidence['cheapest_cost']})")
    else:
        cost = evidence["cheapest_cost"]
        message = (f"moved {origin} -> {after.hex} in this phase: no path costs {allowance} MP or less"
                   + (f" (cheapest {cost})" if cost is not None else " (no path at all)"))
    return [_finding(game, short, ruling, event, unit, after, message, evidence, depends_on=sorted(depends))]


def _night_move(game, event, unit, after, origin, result) -> list["Finding"]:
    """6.71, 6.72 at Night: the cheapest cost of the move so far is kept (the morale states
    read it as the phase ends); a Demoralized unit moves at most half its allowance (MOV-11)."""
    if game.day_part() != "Night":
        return []
    cost = result.route.cost if result.route is not None else None
    ma = unit.movement
    if not isinstance(cost, int) or not isinstance(ma, int) or not game.board.map_known:
        game.movement.moves.night_cost[unit.id] = None
        if demoralized(game, unit):
            game.unsettled("MOV-11", event.step, ["map.json terrain and tables.json tec (the cost of the move)"])
        return []
    game.movement.moves.night_cost[unit.id] = cost
    half = -(-ma // 2)
    if demoralized(game, unit) and cost > half and unit.id not in game.movement.moves.reported:
        game.movement.moves.reported.add(unit.id)
        return [_finding(game, "MOV-11", Ruling.PROVEN, event, unit, after,
                         f"moved {origin} -> {after.hex} at Night while Demoralized: the cheapest path costs {cost} MP, "
                         f"more than half its allowance ({half} of {ma}, 6.72)",
                         {"from": origin, "to": after.hex, "cheapest_cost": cost, "half_allowance": half,
                          "state": DEMORALIZED})]
    return []


def _leader_move(game, event, view, unit, after, origin) -> list["Finding"]:
    """14.3: a leader has 14 MP, uses any movement class and may change class in the middle of
    its move (each cost the least over the classes). It moves with the units it stacks with, and
    infiltrates with one (6.42): its ZOC stops and ZOC costs are not judged."""
    ledger = game.movement.moves
    allowance = unit.movement
    if allowance is None or isinstance(allowance, Unknown) or unit.id in ledger.reported:
        return []
    enemies = game.enemies(view.before, unit.side)
    if after.hex in enemies:
        return []                                      # MOV-08's
    zoc = game.zoc(view.before, unit.side)
    rules = any_class(*(movement_rules(game.data, game.terrain(c), enemies=enemies, zoc=zoc, goal=after.hex)
                        for c in MOVEMENT_CLASSES))
    rules.stop_on_zoc_entry, rules.zoc_to_zoc, rules.zoc_enter_cost, rules.zoc_exit_cost = False, True, 0, 0
    result = check_move(rules, origin, after.hex, allowance)
    if result.ruling is Ruling.LEGAL:
        return []
    depends = set(result.verdict.depends_on)
    if result.ruling is Ruling.PROVEN and not _near_enemy(game, enemies, origin) \
            and not _near_enemy(game, enemies, after.hex):
        depends.add("tables.json tec strategic movement costs (6.2: the leader is far enough from the enemy)")
    if depends and not game.board.map_known:
        game.unsettled("MOV-13", event.step, sorted(depends))
        return []
    ledger.reported.add(unit.id)
    free = check_move(rules, origin, after.hex, None)
    cost = free.route.cost if free.route is not None else None
    return [_finding(game, "MOV-13", Ruling.POSSIBLE if depends else Ruling.PROVEN, event, unit, after,
                     f"moved {origin} -> {after.hex} in this phase: no path costs {allowance} MP or less by any "
                     f"mix of movement classes" + (f" (cheapest {cost})" if cost is not None else " (no path at all)"),
                     {"from": origin, "to": after.hex, "allowance": allowance, "cheapest_cost": cost},
                     depends_on=sorted(depends))]


def _finding(game, short, ruling, event, unit, after, what, evidence, depends_on=()) -> "Finding":
    return game.finding(short, ruling, step=event.step, message=f"{unit.label()} {what}",
                        subjects=(unit.name,), evidence={"unit": unit.counter, **evidence},
                        depends_on=tuple(depends_on))


@REGISTRY.check("SEQ-06")
def judge_movement_order(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """4.24, 4.32: in a Movement Phase tactical movement comes before the warships move (Axis)
    and before infiltration; a ground unit's ordinary move after either is out of order. Leaders
    infiltrate with their units (6.42) and are not judged; strategic movement, which comes
    first, is not told apart from tactical movement (its costs are not in the data)."""
    unit, after, phase = event.before, event.after, game.phase
    if phase is None or "movement" not in phase.kinds or phase.phasing != unit.side or unit.hex is None \
            or after.hex is None:
        return []
    ledger = game.movement.moves
    if unit.kind == "warship":
        ledger.later_steps.setdefault(unit.id, ("moved (a warship)", event.step))
        return []
    if not unit.is_ground_unit or unit.is_leader or unit.id in ledger.infiltrated \
            or after.hex == ledger.origin.get(unit.id, unit.hex) or unit.id in ledger.reported:
        return []
    earlier = {k: v for k, v in ledger.later_steps.items() if k != unit.id}
    if not earlier:
        return []
    units = game.units(view.before)
    first_id, (what, step) = min(earlier.items(), key=lambda kv: kv[1][1] if kv[1][1] is not None else -1)
    other = units.get(first_id)
    ledger.reported.add(unit.id)
    name = other.label() if other is not None else first_id
    return [_finding(game, "SEQ-06", Ruling.PROVEN, event, unit, after,
                     f"moved {unit.hex} -> {after.hex} after {name} {what} (step {step}): tactical movement comes "
                     f"before the warships move and before infiltration",
                     {"from": unit.hex, "to": after.hex, "after_unit": other.counter if other is not None else first_id,
                      "after": what, "after_step": step})]


@REGISTRY.check("MOV-08", event=Moved)
def judge_enemy_hex(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """6.52: no unit enters a hex holding enemy units other than leaders, coastal guns and units
    of defense 0. Judged at the end of the phase: enemy units still there with the mover."""
    unit, after = event.before, event.after
    if unit.hex is None or after.hex is None or not unit.is_ground_unit:
        return []                                      # a landing or jump onto enemies is combat (18.6, 19.5)
    there = game.enemies(view.before, unit.side).get(after.hex)
    if there:
        game.movement.pending.append((event.step, after, tuple(u.id for u in there)))
    return []


@REGISTRY.check("MOV-08", "CBT-35", event=PhaseChanged)
def judge_enemy_hex_at_phase_end(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """The moves into enemy-held hexes of the phase that ended."""
    return [replace(f, when=game.when_of(event.old)) for f in _enemy_hexes(game, view)]


@REGISTRY.check("MOV-08", "CBT-35", on="end")
def judge_enemy_hex_at_end(game: "IslandOfDeath", view: "StepView") -> list["Finding"]:
    """The log's end ends the phase it stopped in."""
    return _enemy_hexes(game, view)


def _enemy_hexes(game: "IslandOfDeath", view: "StepView") -> list["Finding"]:
    from vlog.games.island_of_death.terrain import overrunnable

    now = game.units(view.before)
    out = []
    for step, mover, enemy_ids in game.movement.take_pending():
        unit = now.get(mover.id)
        if unit is None or unit.hex != mover.hex:
            continue
        still = [now[i] for i in enemy_ids if i in now and now[i].hex == mover.hex]
        if not still:
            continue
        run = overrunnable(still)
        if run is True:
            out.extend(_guns_left(game, step, mover, still))
            continue
        ruling = Ruling.POSSIBLE if isinstance(run, Unknown) else Ruling.PROVEN
        out.append(game.finding("MOV-08", ruling, step=step,
                                message=f"{mover.label()} entered {mover.hex}, held by "
                                        f"{', '.join(u.label() for u in still)}, who were still there at the "
                                        f"end of the phase",
                                subjects=(mover.name,),
                                evidence={"unit": mover.counter, "hex": mover.hex,
                                          "enemy_units": [u.counter for u in still]},
                                depends_on=tuple(sorted(run.data)) if isinstance(run, Unknown) else ()))
    return out


def _guns_left(game: "IslandOfDeath", step: int, mover: Unit, still: list[Unit]) -> list["Finding"]:
    """16.58: coastal guns are eliminated when an Axis unit enters their hex; ones still there
    with it when the phase ends were not. (The leaders' and defense-0 units' fate, 6.52, is not
    judged here: a leader's roll may send it to a box.)"""
    guns = [u for u in still if u.kind == "coastal-gun"]
    if not guns or mover.side != "axis":
        return []
    return [game.finding("CBT-35", Ruling.PROVEN, step=step,
                         message=f"{mover.label()} entered {mover.hex}, where "
                                 f"{', '.join(u.label() for u in guns)} were still there with it at the end of "
                                 f"the phase: coastal guns are eliminated when an Axis unit enters their hex "
                                 f"(16.58)",
                         subjects=(mover.name,) + tuple(u.name for u in guns),
                         evidence={"unit": mover.counter, "hex": mover.hex,
                                   "coastal_guns": [u.counter for u in guns]})]


@REGISTRY.check("MOV-17")
def judge_delayed_reaction(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """17.7 (Hercules): on 29 June AM and Noon an Allied unit moves in its Movement Phase only
    with an Axis ground unit within 4 (AM) or 7 (Noon) hexes of it at that moment; retreats and
    advances are not restricted."""
    unit, after, phase = event.before, event.after, game.phase
    if phase is None or unit.side != "allied" or unit.hex is None or after.hex is None \
            or "movement" not in phase.kinds or phase.phasing != "allied":
        return []
    reach = game.delayed_reaction().get(phase.sequence.labels.get(phase.turn, ""))
    if reach is None or unit.id in game.movement.moves.reported:
        return []
    axis = [u for u in game.units(view.before).values()
            if u.side == "axis" and u.hex is not None and u.is_ground_unit and not u.is_leader]
    nearest = min((game.board.distance(unit.hex, u.hex) for u in axis), default=None)
    if nearest is not None and nearest <= reach:
        return []
    game.movement.moves.reported.add(unit.id)
    label = phase.sequence.labels.get(phase.turn)
    return [_finding(game, "MOV-17", Ruling.PROVEN, event, unit, after,
                     f"moved {unit.hex} -> {after.hex} on {label} with no Axis ground unit within {reach} "
                     f"hexes" + (f" (the nearest {nearest})" if nearest is not None else " (none on the map)"),
                     {"from": unit.hex, "to": after.hex, "within": reach, "nearest_axis": nearest})]


@REGISTRY.check("ZOC-08")
def judge_prepare_in_zoc(game: "IslandOfDeath", event: Flipped, view: "StepView") -> list["Finding"]:
    """5.4: artillery may hitch in an enemy ZOC, but not prepare to fire there."""
    unit, after = event.before, event.after
    if not unit.is_artillery or unit.level != "hitched" or after.level != "prepared" or after.hex is None:
        return []
    there = game.zoc(view.before, unit.side).in_zoc(after.hex)
    if there is False:
        return []
    return [game.finding("ZOC-08", Ruling.PROVEN if there is True else Ruling.POSSIBLE, step=event.step,
                         message=f"{unit.label()} prepared to fire in {after.hex}, in an enemy ZOC",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "hex": after.hex,
                                   "zoc_from": sorted(game.zoc(view.before, unit.side).sources(after.hex))},
                         depends_on=sorted(there.data) if isinstance(there, Unknown) else ())]
