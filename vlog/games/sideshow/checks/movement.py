"""Movement Operations (6.2, 6.3, 7.0): all the units in ONE hex may move, together or apart,
and no others (6.21); no unit enters an enemy-occupied hex in a Movement Operation (6.31);
opposing units share a hex only during an Attack or Amphibious Assault (7.0); units off the map
enter through the hexes the set-up and the schedules name (18.0, 9.28).

The `Operations` ledger keeps each side's current Operation (the last `op KIND [HEX]` it paid
for, vlog/games/sideshow/declarations.py) with the units that stood in its hex when it began, so
the checks on each move know which Operation it belongs to. A log without `op` lines is not
judged here: a move alone does not say which Operation it was.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.sequence import side_name
from vlog.kit.steps import Moved, PhaseChanged, Placed
from vlog.kit.units import value

from ..events import CombatRolled, LakeRolled, OperationPaid
from ..registry import REGISTRY
from .common import ALLIED, GERMAN, RECYCLED, came_from_box

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.gamedata import GameData
    from vlog.kit.steps import Event, StepView

    from ..declarations import Operation
    from ..rules import Sideshow

__all__ = ["Operations", "Current", "entry_hexes"]

MOVING = frozenset({"move", "withdraw", "withdraw2"})
"""Operations whose moves are Movement Operation moves (a withdrawal moves 'as if it were a
Movement Operation', 8.22)."""
NESTED = frozenset({"withdraw", "withdraw2", "reaction"})
"""A defender's Operations during the attacker's (8.22, 8.5): they do not end the attack."""


@dataclass(slots=True)
class Current:
    """A side's Operation under way: what it is, its hex and the units there when it began."""

    op: "Operation"
    step: int | None
    units: frozenset[str] = frozenset()
    entered: set[str] = field(default_factory=set)
    """Enemy-occupied hexes a move of this Operation entered (MOV-05's, not STK-01's)."""
    moved: dict[str, tuple[Any, str]] = field(default_factory=dict)
    """Unit id -> the unit as it began and the hex its last move in this Operation ended in."""
    ambushes: int = 0
    """The German Ambush rolls made in it (a withdrawal with ambush, 8.22 type 2)."""
    lake: list[Any] = field(default_factory=list)
    """The rolls for a Lake Victoria transfer or assault made in it (14.0)."""
    defended: bool | None = None
    """Whether an enemy unit held the Operation's hex when it was paid for (None: no hex)."""


class Operations(Ledger):
    """Each side's current Operation, closed by the next one, by a change of phase or by the end
    of the log; `closed` holds those the event being judged closed (STK-01 reads them)."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.current: dict[str, Current | None] = {ALLIED: None, GERMAN: None}
        self.closed: list[Current] = []
        self.entries: dict[str, frozenset[str]] | None = None
        """Counter -> the hexes it enters the map through (read from the scenario once)."""
        self.reported: set[str] = set()
        """Shared hexes already reported (a move into them, or STK-01), until they are shared no more."""

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        if isinstance(event, OperationPaid):
            op = event.op
            self.close(event.side if op.kind in NESTED else None)
            there = frozenset(u.id for u in self.game.units(view.after).values()
                              if op.hex is not None and u.hex == op.hex and u.side == event.side)
            defended = None if op.hex is None else any(
                u.hex == op.hex and u.side not in (event.side, None) for u in self.game.units(view.after).values())
            self.current[event.side] = Current(op, event.step, there, defended=defended)
        elif isinstance(event, Moved) and event.after.hex is not None and event.before.side in self.current:
            current = self.current[event.before.side]
            if current is not None:
                first = current.moved.get(event.before.id, (event.before, ""))[0]
                current.moved[event.before.id] = (first, event.after.hex)
        return ()

    def phase(self, change: "PhaseChanged", view: "StepView") -> Iterable["Finding"]:
        self.close()
        return ()

    def end(self, view: "StepView") -> Iterable["Finding"]:
        self.close()
        return ()

    def close(self, side: str | None = None) -> None:
        """The Operations under way are over (only `side`'s when given)."""
        sides = (side,) if side is not None else (ALLIED, GERMAN)
        self.closed = [c for s in sides if (c := self.current[s]) is not None]
        for s in sides:
            self.current[s] = None


def _entries(data: "GameData", scenario: str) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    record = data.scenario(scenario)
    zones = {z.id: z for z in data.map()["zones"]} if "zones" in data.map() else {}
    for entry in (*record["setup"], *record["reinforcements"]):
        units = value(entry["units"]) if "units" in entry else None
        hexes = None
        if "properties" in entry and "entry_hexes" in entry["properties"]:
            hexes = value(entry["properties"]["entry_hexes"])
        elif "zone" in entry and value(entry["zone"]) in zones:
            zone = zones[value(entry["zone"])]
            if value(zone["type"]) == "map-edge-entry":
                hexes = value(zone["hexes"])
        for unit in units or ():
            if hexes:
                out[unit] = frozenset(hexes)
    return out


def entry_hexes(game: "Sideshow", counter: str) -> frozenset[str] | None:
    """The hexes a counter that starts or arrives off the map enters through, where the data
    names them (Uganda: 1033 or 1016); None for others."""
    if game.scenario is None:
        return None
    known = game.operations.entries
    if known is None:
        known = game.operations.entries = _entries(game.data, game.scenario)
    return known.get(counter)


@REGISTRY.check("MOV-01", "MOV-05", event=Moved)
def judge_movement_operation(game: "Sideshow", moved: "Moved", view: "StepView") -> list["Finding"]:
    """6.21: only units in the Operation's hex when it began move in it; 6.31: none enters an
    enemy-occupied hex."""
    unit, new = moved.before, moved.after
    if unit.side not in (ALLIED, GERMAN) or new.hex is None or unit.hex is None:
        return []
    current = game.operations.current[unit.side]
    if current is None or current.op.kind not in MOVING:
        return []
    found = []
    what = f"the {current.op.title} Operation of step {current.step}"
    if current.op.kind == "move" and current.op.hex is not None and unit.id not in current.units:
        found.append(game.finding("MOV-01", Ruling.PROVEN, step=moved.step,
                                  message=f"{unit.name} moved {unit.hex} -> {new.hex} in {what} from "
                                          f"{current.op.hex}, where it did not stand when the Operation began (6.21)",
                                  subjects=(unit.name,),
                                  evidence={"unit": unit.name, "from": unit.hex, "to": new.hex,
                                            "operation_hex": current.op.hex, "operation_step": current.step}))
    enemies = sorted(u.name for u in game.units(view.after).values()
                     if u.hex == new.hex and u.side not in (None, unit.side))
    if enemies:
        current.entered.add(new.hex)
        found.append(game.finding("MOV-05", Ruling.PROVEN, step=moved.step,
                                  message=f"{unit.name} entered {new.hex}, held by {', '.join(enemies)}, in {what} "
                                          "(6.31: only an Attack enters an enemy-occupied hex)",
                                  subjects=(unit.name, *enemies),
                                  evidence={"unit": unit.name, "from": unit.hex, "to": new.hex, "enemies": enemies}))
    return found


@REGISTRY.check("MOV-14", event=Placed)
def judge_entry(game: "Sideshow", placed: "Placed", view: "StepView") -> list["Finding"]:
    """18.0, 9.28: units off the map in Uganda enter through hex 1033 or 1016."""
    unit = placed.unit
    allowed = entry_hexes(game, unit.counter)
    if allowed is None or unit.hex in allowed or came_from_box(view, game, unit.id) in RECYCLED:
        return []                                  # a replacement enters through Mombasa (9.23)
    return [game.finding("MOV-14", Ruling.PROVEN, step=placed.step,
                         message=f"{unit.name} came onto the map in {unit.hex}; it enters through "
                                 f"{' or '.join(sorted(allowed))} (18.0, 9.28)",
                         subjects=(unit.name,), evidence={"unit": unit.name, "hex": unit.hex,
                                                          "entry_hexes": sorted(allowed)})]


CARRIERS = frozenset({"infantry", "marine"})
"""The units that may accompany artillery (6.38)."""


@REGISTRY.check("MOV-12", event=OperationPaid)
@REGISTRY.check("MOV-12", event=PhaseChanged)
def judge_artillery(game: "Sideshow", event: "Event", view: "StepView") -> list["Finding"]:
    """6.38: in a Movement Operation each artillery unit moves with an infantry or marine unit
    of its own, one to one: judged when the Operation is over, by the hex each mover ended in."""
    return _artillery(game, event.step)


@REGISTRY.check("MOV-19", "AIR-03", event=OperationPaid)
@REGISTRY.check("MOV-19", "AIR-03", event=PhaseChanged)
def judge_air_squadrons(game: "Sideshow", event: "Event", view: "StepView") -> list["Finding"]:
    """11.0: an air squadron moves alone in its Movement Operation, and in no other Operation."""
    return _air(game, event.step)


@REGISTRY.check("MOV-12", "STK-01", "MOV-19", "AIR-03", "SEA-07", on="end")
def judge_the_last_operation(game: "Sideshow", view: "StepView") -> list["Finding"]:
    """6.38, 7.0, 11.0, 8.42 at the end of the log: the last Operation is over."""
    return _artillery(game, None) + _shared(game, view, None) + _air(game, None) + _landed(game, view, None)


@REGISTRY.check("SEA-07", event=OperationPaid)
@REGISTRY.check("SEA-07", event=PhaseChanged)
def judge_amphibious_outcome(game: "Sideshow", event: "Event", view: "StepView") -> list["Finding"]:
    """8.42: when an Amphibious Assault on a defended port is over, each attacker holds the port or,
    forced to retreat (or not committed), is back in the port it sailed from."""
    return _landed(game, view, event.step)


def _landed(game: "Sideshow", view: "StepView", step: int | None) -> list["Finding"]:
    found = []
    units = game.units(view.after)
    for current in game.operations.closed:
        if current.op.kind != "amphibious" or not current.defended:
            continue
        for unit_id, (first, _) in sorted(current.moved.items(), key=lambda kv: kv[1][0].name):
            now = units.get(unit_id)
            if now is None or now.hex is None or now.hex in (current.op.hex, first.hex):
                continue
            found.append(game.finding("SEA-07", Ruling.PROVEN, step=step if step is not None else current.step,
                                      message=f"{first.name} ended the Amphibious Assault of step {current.step} on "
                                              f"{current.op.hex} in {now.hex}; an attacker holds the port or goes back "
                                              f"to the port it sailed from, {first.hex} (8.42)",
                                      subjects=(first.name,),
                                      evidence={"unit": first.name, "at": now.hex, "target": current.op.hex,
                                                "from": first.hex, "operation_step": current.step}))
    return found


def _air(game: "Sideshow", step: int | None) -> list["Finding"]:
    found = []
    for current in game.operations.closed:
        movers = [unit for unit, _ in current.moved.values()]
        squadrons = sorted(u.name for u in movers if u.type == "air")
        if not squadrons:
            continue
        others = sorted(u.name for u in movers if u.type != "air")
        at = step if step is not None else current.step
        if current.op.kind == "move" and len(movers) > 1:
            found.append(game.finding("MOV-19", Ruling.PROVEN, step=at,
                                      message=f"{', '.join(squadrons)} moved in the Movement Operation of step "
                                              f"{current.step} with {', '.join(others + squadrons[1:])}; each "
                                              "squadron moves alone (11.0)",
                                      subjects=(*squadrons, *others),
                                      evidence={"squadrons": squadrons, "others": others,
                                                "operation_step": current.step}))
        elif current.op.kind not in ("move", "recon"):
            found.append(game.finding("AIR-03", Ruling.PROVEN, step=at,
                                      message=f"{', '.join(squadrons)} moved in the {current.op.title} Operation of "
                                              f"step {current.step}; air squadrons serve only for reconnaissance (11.0)",
                                      subjects=tuple(squadrons),
                                      evidence={"squadrons": squadrons, "operation": current.op.kind,
                                                "operation_step": current.step}))
    return found


def _artillery(game: "Sideshow", step: int | None) -> list["Finding"]:
    found = []
    for current in game.operations.closed:
        if current.op.kind != "move":
            continue
        by_hex: dict[str, list[Any]] = {}
        for unit, hex_ in current.moved.values():
            by_hex.setdefault(hex_, []).append(unit)
        for hex_, units in sorted(by_hex.items()):
            guns = sorted(u.name for u in units if u.type == "artillery")
            carriers = [u.name for u in units if u.type in CARRIERS]
            unknown = sorted(u.name for u in units if u.type is None)
            if len(guns) <= len(carriers):
                continue
            ruling = Ruling.PROVEN if len(guns) > len(carriers) + len(unknown) else Ruling.POSSIBLE
            found.append(game.finding(
                "MOV-12", ruling, step=step if step is not None else current.step,
                message=f"{', '.join(guns)} moved to {hex_} in the Movement Operation of step {current.step} with "
                        f"{len(carriers)} infantry or marine unit(s) to accompany {len(guns)} artillery (6.38: one to one)",
                subjects=tuple(guns),
                evidence={"hex": hex_, "artillery": guns, "infantry_or_marine": sorted(carriers),
                          "operation_step": current.step},
                depends_on=[f"counters.json type of {name}" for name in unknown] if ruling is Ruling.POSSIBLE else ()))
    return found


NO_PORT = "Dar es Salaam"
"""The port no Sea Transfer or Amphibious Assault ever uses (6.63, 8.44)."""


@REGISTRY.check("SEA-04", "SEA-06", event=Moved)
def judge_by_sea(game: "Sideshow", moved: "Moved", view: "StepView") -> list["Finding"]:
    """6.63, 8.44: no Sea Transfer to or from Dar es Salaam, no Amphibious Assault on it."""
    if moved.before.side not in (ALLIED, GERMAN):
        return []
    current = game.operations.current[moved.before.side]
    if current is None or current.op.kind not in ("sea", "amphibious"):
        return []
    closed = set(game.data.hexes_named(NO_PORT))
    ends = {moved.before.hex, moved.after.hex} & closed
    if not ends:
        return []
    short, rule = ("SEA-04", "6.63") if current.op.kind == "sea" else ("SEA-06", "8.44")
    unit = moved.before
    current.entered.add(moved.after.hex)          # reported here, not again as STK-01
    return [game.finding(short, Ruling.PROVEN, step=moved.step,
                         message=f"{unit.name} moved {unit.hex} -> {moved.after.hex} in the {current.op.title} "
                                 f"Operation of step {current.step}; {NO_PORT} ({', '.join(sorted(ends))}) is never "
                                 f"used by sea ({rule})",
                         subjects=(unit.name,),
                         evidence={"unit": unit.name, "from": unit.hex, "to": moved.after.hex,
                                   "operation": current.op.kind})]


@REGISTRY.check("SEQ-01", event=PhaseChanged)
def judge_last_turn(game: "Sideshow", change: "PhaseChanged", view: "StepView") -> list["Finding"]:
    """4.0: the game ends with the October 1918 turn, the 50th."""
    if not change.new.past_last_turn \
            or (change.old is not None and change.old.past_last_turn):
        return []
    last = change.new.sequence.turns
    label = change.new.sequence.labels.get(last, f"turn {last}")
    return [game.finding("SEQ-01", Ruling.PROVEN, step=change.step,
                         message=f"play went on to turn {change.new.turn}; the game ends with the {label} turn (4.0)",
                         evidence={"turn": change.new.turn, "last_turn": last})]


@REGISTRY.check("STK-01", event=OperationPaid)
@REGISTRY.check("STK-01", event=PhaseChanged)
def judge_shared_hexes(game: "Sideshow", event: "Event", view: "StepView") -> list["Finding"]:
    """7.0: opposing units share a hex only during an Attack or Amphibious Assault: when an
    Operation is over (the next one is paid for, or the phase changes)."""
    return _shared(game, view, event.step)


def _shared(game: "Sideshow", view: "StepView", step: int | None) -> list["Finding"]:
    ledger = game.operations
    closing = ledger.closed
    if not closing:
        return []
    entered = ledger.reported.union(*(c.entered for c in closing))
    by_hex: dict[str, dict[str, list[str]]] = {}
    for unit in game.units(view.after).values():
        if unit.hex is not None and unit.side in (ALLIED, GERMAN):
            by_hex.setdefault(unit.hex, {}).setdefault(unit.side, []).append(unit.name)
    found = []
    shared = {h for h, sides in by_hex.items() if len(sides) == 2}
    ledger.reported = entered & shared
    for hex_, sides in sorted(by_hex.items()):
        if len(sides) < 2 or hex_ in entered:
            continue
        ledger.reported.add(hex_)
        allied, german = sorted(sides[ALLIED]), sorted(sides[GERMAN])
        found.append(game.finding("STK-01", Ruling.PROVEN, step=step,
                                  message=f"{', '.join(allied)} ({side_name(ALLIED)}) and {', '.join(german)} "
                                          f"({side_name(GERMAN)}) still share {hex_} after the Operation is over (7.0)",
                                  subjects=(*allied, *german),
                                  evidence={"hex": hex_, ALLIED: allied, GERMAN: german}))
    return found


NOT_INFANTRY = frozenset({"artillery", "armoured-car", "air", "leader", "marine", "cavalry", "machine-gun"})
"""Types counters.json gives that are not infantry (8.41: an Amphibious Assault lands infantry only)."""


@REGISTRY.check("SEA-05", event=Moved)
def judge_amphibious_start(game: "Sideshow", moved: "Moved", view: "StepView") -> list["Finding"]:
    """8.41: an Amphibious Assault's units start in Mombasa, and are infantry (judged where the
    data gives a unit's type)."""
    unit = moved.before
    current = game.operations.current.get(unit.side) if unit.side == ALLIED else None
    if current is None or current.op.kind != "amphibious" or unit.id not in current.moved \
            or current.moved[unit.id][0] is not unit:
        return []                                   # judged at each unit's first move in the Operation
    starts = tuple(h for h in game.data.hexes_named("Mombasa") if _flag(game, h, "amphibious_assault_start"))
    problem = None
    if unit.hex not in starts:
        problem = f"it started in {unit.hex}, not in {' or '.join(starts)}"
    elif unit.type in NOT_INFANTRY:
        problem = f"it is {unit.type}; only infantry assault"
    if problem is None:
        return []
    return [game.finding("SEA-05", Ruling.PROVEN, step=moved.step,
                         message=f"{unit.name} moved {unit.hex} -> {moved.after.hex} in the Amphibious Assault of "
                                 f"step {current.step}: {problem} (8.41)", subjects=(unit.name,),
                         evidence={"unit": unit.name, "from": unit.hex, "to": moved.after.hex, "type": unit.type,
                                   "starts": list(starts)})]


def _flag(game: "Sideshow", hex_: str, name: str) -> bool:
    record = game.data.hex(hex_)
    return record is not None and "properties" in record and name in record["properties"] \
        and bool(value(record["properties"][name]))


@REGISTRY.check("SEA-09", event=LakeRolled)
def judge_lake_roll(game: "Sideshow", roll: "LakeRolled", view: "StepView") -> list["Finding"]:
    """14.0: after announcing a lake transfer or assault the player rolls one die, once."""
    current = game.operations.current.get(roll.side) if roll.side in (ALLIED, GERMAN) else None
    problem = None
    if current is None or current.op.kind not in ("sea", "amphibious"):
        problem = "no Sea Transfer or Amphibious Assault is under way"
    elif roll.roll.n_dice != 1:
        problem = f"it is {roll.dice}; one die is rolled"
    else:
        current.lake.append(roll)
        if len(current.lake) > 1:
            problem = f"it is roll {len(current.lake)} for the Operation of step {current.step}; one is made"
    if problem is None:
        return []
    return [game.finding("SEA-09", Ruling.PROVEN, step=roll.step,
                         message=f"a Lake Victoria roll at step {roll.step}: {problem} (14.0)",
                         evidence={"side": roll.side, "dice": roll.dice})]


@REGISTRY.check("SEA-09", event=Moved)
def judge_lake_move(game: "Sideshow", moved: "Moved", view: "StepView") -> list["Finding"]:
    """14.0: a lake transfer or assault whose roll was 5 or 6 does not proceed: nothing moves in it."""
    unit = moved.before
    current = game.operations.current.get(unit.side) if unit.side in (ALLIED, GERMAN) else None
    if current is None or current.op.kind not in ("sea", "amphibious") or not current.lake \
            or current.lake[0].total not in (5, 6) or moved.after.hex is None:
        return []
    roll = current.lake[0]
    return [game.finding("SEA-09", Ruling.PROVEN, step=moved.step,
                         message=f"{unit.name} moved {unit.hex} -> {moved.after.hex} in the {current.op.title} "
                                 f"Operation of step {current.step} after its lake roll of {roll.total} (step "
                                 f"{roll.step}): on 5-6 it cannot proceed (14.0)",
                         subjects=(unit.name,),
                         evidence={"unit": unit.name, "from": unit.hex, "to": moved.after.hex, "roll": roll.total,
                                   "operation_step": current.step})]


@REGISTRY.check("SEA-08", event=CombatRolled)
def judge_assault_on_an_empty_port(game: "Sideshow", roll: "CombatRolled", view: "StepView") -> list["Finding"]:
    """8.45: an Amphibious Assault on a port no enemy unit holds is a Sea Transfer: no combat."""
    current = game.operations.current.get(ALLIED)
    if current is None or current.op.kind != "amphibious" or current.op.hex is None or current.defended is not False:
        return []
    return [game.finding("SEA-08", Ruling.PROVEN, step=roll.step,
                         message=f"a combat roll in the Amphibious Assault of step {current.step} on {current.op.hex}, "
                                 "which no German unit held: it is a Sea Transfer, with no combat (8.45)",
                         evidence={"side": roll.side, "target": current.op.hex, "operation_step": current.step})]
