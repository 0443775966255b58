"""What trucks carry (10.3): MV-31, one type of thing per turn and only their own nationality;
HQ-09, the trucks moving an HQ; MV-32 and MV-33, how many RPs and how far.

How a log shows that a truck carries something (the VASSAL reading): the truck and the piece go
from the same hex to the same other hex, either in one step (the stack dragged together) or in
two consecutive moving steps of one phase (the truck moved, then the piece followed it from the same hex to
the same hex, or the other way round), as players do when the truck sits under the load
(10.3.1: the RP is placed on the truck; 10.3.2: the truck under the combat unit). Loading an RP
from its storage box onto a truck and unloading it are not hex-to-hex moves and carry nothing
by themselves; the RP's later moves with the truck do.

`TruckLedger` remembers, for each turn, the first type of thing each truck carried (an RP, an
HQ or a combat unit) and reports MV-31 when the same truck carries another type in the same
turn, or carries an HQ or combat unit whose nationality (counters.json) is not the truck's.
A nationality the data leaves null is not judged.

HQ-09 (10.2.1, 10.3.3): the trucks moving an HQ are those of its side that began the movement
segment stacked with or adjacent to the HQ's starting hex and stand in the HQ's new hex when it
arrives (10.2.1: the truck goes under the HQ, so it moves with the HQ in one step or just before
it). `hq_trucks` counts them for the HQ's move; the movement check then allows its M-side MF
+1 MP per truck beyond the first and reports a move beyond that under HQ-09.

MV-33 (10.3.4): a truck carries more than one RP (the values its RP markers show, 7.3.1) only
when it began its movement segment in a USS hex of its side (supply.py's USS table), and then
never more than the RPs it carried out of that hex on its first move of the segment. The RPs of
one leg are those that move with the truck in one step or follow it, from the same hex to the
same hex, before it moves again.
Not judged: whether the USS is still controlled.

MV-32 and MV-33, how far (10.3.1, 10.3.4): from the hex a truck first carried RPs from in the
phase, the cheapest motorized route to where it carries them fits 6 MPs -- or, when it loaded on
the way, its MF less the cheapest cost of reaching the loading hex, if less -- minus 1 MP for each
RP above one (MV-33 when only that subtraction puts the hex out of reach). Judged where the map
data settles the costs; a hex the truck may not enter at all is its own move's finding.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding, plain_number
from vlog.games.lion_of_judah.checks.movement import motorized_route
from vlog.games.lion_of_judah.checks.rp_boxes import rp_value
from vlog.games.lion_of_judah.checks.supply import supply_sources
from vlog.games.lion_of_judah.state import GameState, Unit, changed_ids

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.board import Board
    from vlog.games.lion_of_judah.sequence import Phase

__all__ = ["TruckLedger", "carried_type", "nationality"]

RP_COMBINATION_MP = 6
"""10.3.1: a truck carrying RPs has up to 6 MPs."""
_LOAD_TYPES = {"rp": "RP", "hq": "HQ", "combat": "combat unit", "dummy": "combat unit"}
"""10.3: trucks move RP markers, HQs and combat units (a Dummy moves as a combat unit)."""


def carried_type(unit: Unit) -> str | None:
    """The type of thing 10.3 counts a carried piece as, or None for what trucks do not carry
    (other trucks, leaders, air and other markers)."""
    return _LOAD_TYPES.get(unit.kind)


def _truck_label(truck: Unit) -> str:
    """How messages name a truck: its piece name, said to be a truck when the name does not."""
    return truck.name if "truck" in truck.name.lower() else f"truck {truck.name}"


def _article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "AEFHILMNORSX" else f"a {kind}"


def nationality(data: GameData, unit: Unit) -> str | None:
    """The counter's nationality (2.3.4) from counters.json, None when unknown."""
    if unit.counter is None:
        return None
    try:
        datum = data.counter(unit.counter).get("nationality")
    except (KeyError, LookupError):
        return None
    value = datum.get("value") if isinstance(datum, dict) else getattr(datum, "value", None)
    return value if isinstance(value, str) else None


@dataclass(slots=True)
class TruckLedger:
    """The loads each truck carried in each turn, and the previous moving step's moves."""

    board: Board
    data: GameData
    loads: dict[tuple[int, str], tuple[str, str, int]] = field(default_factory=dict)
    """(turn, truck id) -> (type, piece name, step) of the first thing it carried that turn."""
    previous: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Piece id -> (from, to) hexes for the last step in which any piece moved hex to hex."""
    previous_phase: tuple[int | None, str] | None = None
    """The phase of that step: a load follows its truck only within one phase."""
    reported: set[tuple[int, str, str]] = field(default_factory=set)
    segment_start: dict[str, str] = field(default_factory=dict)
    """Truck id -> the hex it was in when the current phase began (first seen in it)."""
    start_phase: tuple[int | None, str] | None = None
    rp_legs: dict[str, tuple[tuple[str, str], int, set[str]]] = field(default_factory=dict)
    """Truck id -> (path, step of the truck's move, RP ids carried) of its last leg this phase."""
    first_move: dict[str, int] = field(default_factory=dict)
    """Truck id -> the step of its first hex-to-hex move this phase (MV-33's starting load)."""
    capacity: dict[str, int] = field(default_factory=dict)
    """Truck id -> RPs it carried out of a USS hex on its first move this phase (MV-33)."""
    over_capacity: set[str] = field(default_factory=set)
    """Trucks reported under MV-33 this phase (once a truck a phase)."""
    rp_loaded: dict[str, str] = field(default_factory=dict)
    """Truck id -> the hex it first carried RPs from this phase (MV-32's 6 MPs count from there)."""
    over_range: set[str] = field(default_factory=set)
    """Trucks reported for carrying RPs too far this phase (MV-32, MV-33)."""

    def began(self, truck_id: str, before: GameState, phase: Phase | None) -> str | None:
        """The hex a truck began the current phase in: where it was first seen in the phase, or
        where it stands before this step when it has not moved in it yet."""
        current = (phase.turn, phase.key) if phase is not None else None
        if current is not None and current == self.start_phase and truck_id in self.segment_start:
            return self.segment_start[truck_id]
        was = before.units.get(truck_id)
        return was.hex if was is not None else None

    def load_type(self, turn: int, truck_id: str) -> str | None:
        """The type of thing the truck carried first this turn (MV-31), None when nothing yet."""
        first = self.loads.get((turn, truck_id))
        return first[0] if first is not None else None

    def moving_with(self, unit: Unit, to: str, before: GameState, after: GameState,
                    phase: Phase | None) -> set[str]:
        """Trucks of the unit's side going from its hex to `to` in this step, or in the
        previous moving step of the phase (the truck first, the load on it)."""
        current = (phase.turn, phase.key) if phase is not None else None
        previous = self.previous if current is not None and current == self.previous_phase else {}
        path = (unit.hex, to)
        out = set()
        for truck in after.units.values():
            if truck.kind != "truck" or truck.side != unit.side or truck.hex != to:
                continue
            was = before.units.get(truck.id)
            if (was is not None and was.hex == unit.hex) or previous.get(truck.id) == path:
                out.add(truck.id)
        return out

    def hq_trucks(self, hq: Unit, origin: str, to: str, before: GameState, after: GameState,
                  phase: Phase | None) -> int:
        """HQ-09: the trucks of the HQ's side at `to` once it arrives that began the phase
        stacked with or adjacent to `origin`, the hex the HQ began the segment in."""
        near = {origin, *self.board.neighbours(origin)}
        return sum(1 for truck in after.at(to) if truck.kind == "truck" and truck.side == hq.side
                   and self.began(truck.id, before, phase) in near)

    def observe(self, before: GameState, after: GameState, *, step: int, phase: Phase | None,
                bound: bool, scenario: str | None, when: str | None) -> list[Finding]:
        """Judge the pieces moving with trucks in this step (phase-bound logs only)."""
        moves: dict[str, tuple[str, str]] = {}
        for uid in changed_ids(before, after):        # a unit that moved is another unit
            unit, now = before.units[uid], after.units.get(uid)
            if unit.hex is not None and now is not None and now.hex is not None and now.hex != unit.hex:
                moves[uid] = (unit.hex, now.hex)
        if not moves:
            return []
        current = (phase.turn, phase.key) if phase is not None else None
        if current != self.start_phase:
            self.segment_start, self.start_phase = {}, current
            self.rp_legs, self.first_move, self.capacity, self.over_capacity = {}, {}, {}, set()
            self.rp_loaded, self.over_range = {}, set()
        for uid, unit in before.units.items():
            if unit.kind == "truck" and unit.hex is not None:
                self.segment_start.setdefault(uid, unit.hex)
        previous = self.previous if current is not None and current == self.previous_phase else {}
        self.previous, self.previous_phase = moves, current
        if scenario is None or not bound or phase is None or phase.turn is None:
            return []
        out: list[Finding] = []
        legs = self._rp_legs(moves, previous, after, step)
        for tid, path in moves.items():
            truck = after.units[tid]
            if truck.kind != "truck":
                continue
            for pid, other in moves.items():
                if other == path and pid != tid:
                    out += self._carry(truck, after.units[pid], path, phase.turn, step, when)
            for pid, other in previous.items():         # the load followed the truck's last move
                if other == path and pid not in moves and pid in after.units:
                    out += self._carry(truck, after.units[pid], path, phase.turn, step, when)
        for pid, path in moves.items():                 # the piece moved after its truck did
            for tid, other in previous.items():
                truck = after.units.get(tid)
                if other == path and tid not in moves and truck is not None and truck.kind == "truck":
                    out += self._carry(truck, after.units[pid], path, phase.turn, step, when)
        for tid in legs:
            out += self._capacity(after.units[tid], before, after, step, when)
            out += self._range(after.units[tid], before, after, step, when, scenario)
        return out

    def _rp_legs(self, moves: dict[str, tuple[str, str]], previous: dict[str, tuple[str, str]],
                 after: GameState, step: int) -> set[str]:
        """Record the RPs each truck carries on its current leg; the trucks whose leg grew."""
        def is_rp(pid: str) -> bool:
            return pid in after.units and after.units[pid].kind == "rp"

        grown: set[str] = set()
        for tid, path in moves.items():
            if after.units[tid].kind != "truck":
                continue
            self.first_move.setdefault(tid, step)
            rps = {pid for pid, other in moves.items() if other == path and is_rp(pid)}
            rps |= {pid for pid, other in previous.items()
                    if other == path and pid not in moves and is_rp(pid)}
            self.rp_legs[tid] = (path, step, rps)
            if rps:
                grown.add(tid)
                self.rp_loaded.setdefault(tid, path[0])
        for tid, (path, _, carried) in self.rp_legs.items():    # RPs following a truck that moved before
            truck = after.units.get(tid)
            if tid in moves or truck is None or truck.hex != path[1]:
                continue
            followers = {pid for pid, other in moves.items() if other == path and is_rp(pid)}
            if followers - carried:
                carried.update(followers)
                grown.add(tid)
                self.rp_loaded.setdefault(tid, path[0])
        return grown

    @REGISTRY.reports("MV-33")
    def _capacity(self, truck: Unit, before: GameState, after: GameState, step: int,
                  when: str | None) -> list[Finding]:
        """MV-33: more than one RP only out of a USS hex, never more than the starting load."""
        path, moved, rps = self.rp_legs[truck.id]
        carried = sum(rp_value(after.units[r]) for r in rps if r in after.units)
        start = self.segment_start.get(truck.id)
        sources = supply_sources(before, truck.side)
        if carried <= 1 or start is None or not sources or truck.id in self.over_capacity:
            return []
        first = self.first_move.get(truck.id) == moved
        if start in sources and first:
            self.capacity[truck.id] = max(self.capacity.get(truck.id, 1), carried)
            return []
        allowed = self.capacity.get(truck.id, 1) if start in sources else 1
        if carried <= allowed:
            return []
        self.over_capacity.add(truck.id)
        named = _truck_label(truck)
        where = f"from {hex_label(path[0], self.board)} to {hex_label(path[1], self.board)}"
        began = hex_label(start, self.board)
        why = (f"it began its movement segment in {began}, not a USS hex of its side, so it carries "
               "one RP at most" if start not in sources else
               f"it began its movement segment in {began} carrying {allowed}, and never carries more")
        names = sorted(after.units[r].name for r in rps if r in after.units)
        return [finding(
            "MV-33", Ruling.PROVEN, step=step, when=when, subjects=(truck.name, *names),
            message=f"{named} carried {carried} RPs ({', '.join(names)}) {where}: {why}",
            evidence={"truck": truck.name, "rps": carried, "allowed": allowed, "segment_start": start,
                      "uss": list(sources), "from": path[0], "to": path[1]})]

    @REGISTRY.reports("MV-32", "MV-33")
    def _range(self, truck: Unit, before: GameState, after: GameState, step: int, when: str | None,
               scenario: str | None) -> list[Finding]:
        """MV-32 (10.3.1): the truck-RP combination moves up to 6 MPs from where the RPs were
        loaded, or what the truck has left when it loaded them on the way (its MF less the
        cheapest cost of getting there); MV-33 (10.3.4): -1 MP per RP above one."""
        path, _, rps = self.rp_legs[truck.id]
        loaded, start = self.rp_loaded.get(truck.id), self.segment_start.get(truck.id)
        if loaded is None or start is None or truck.id in self.over_range or loaded == path[1]:
            return []
        carried = sum(rp_value(after.units[r]) for r in rps if r in after.units)
        extra = max(carried - 1, 0)
        allowance, spent = RP_COMBINATION_MP, None
        if loaded != start and isinstance(truck.movement, int):
            check, _ = motorized_route(self.board, before, truck, start, loaded, truck.movement,
                                       scenario=scenario)
            if check.route is not None and not isinstance(check.route.cost, Unknown):
                spent = check.route.cost
                allowance = min(allowance, truck.movement - spent)
        check, evidence = motorized_route(self.board, before, truck, loaded, path[1], allowance - extra,
                                          scenario=scenario)
        if check.ruling is not Ruling.PROVEN or evidence["cheapest_cost"] is None:
            return []       # the truck's own move reports what it may not enter, or unknown costs
        self.over_range.add(truck.id)
        by_count = extra > 0 and motorized_route(self.board, before, truck, loaded, path[1], allowance,
                                                 scenario=scenario)[0].ruling is Ruling.LEGAL
        names = sorted(after.units[r].name for r in rps if r in after.units)
        where = f"from {hex_label(loaded, self.board)} to {hex_label(path[1], self.board)}"
        if by_count:
            why = f"{allowance} MPs less 1 for each of the {extra} RP(s) above one (10.3.4)"
        elif spent is not None:
            why = (f"{allowance} MPs (10.3.1: 6 for the truck and its RPs, {plain_number(truck.movement)} "
                   f"less the {plain_number(spent)} spent reaching {hex_label(loaded, self.board)})")
        else:
            why = f"{allowance} MPs (10.3.1: 6 for the truck and its RPs)"
        named = _truck_label(truck)
        return [finding(
            "MV-33" if by_count else "MV-32", Ruling.PROVEN, step=step, when=when,
            subjects=(truck.name, *names),
            message=f"{named} carried {carried} RP(s) ({', '.join(names)}) {where}: no route within "
                    f"{allowance - extra} motorized MPs, the {why}",
            evidence={"truck": truck.name, "rps": carried, "loaded_at": loaded, "segment_start": start,
                      "to": path[1], "allowance": allowance - extra, "combination_mp": RP_COMBINATION_MP,
                      "spent_before_loading": plain_number(spent), "extra_rps": extra, **evidence})]

    @REGISTRY.reports("MV-31")
    def _carry(self, truck: Unit, load: Unit, path: tuple[str, str], turn: int, step: int,
               when: str | None) -> list[Finding]:
        kind = carried_type(load)
        if kind is None:
            return []
        out: list[Finding] = []
        named = _truck_label(truck)
        where = f"from {hex_label(path[0], self.board)} to {hex_label(path[1], self.board)}"
        first = self.loads.setdefault((turn, truck.id), (kind, load.name, step))
        if first[0] != kind and (turn, truck.id, "type") not in self.reported:
            self.reported.add((turn, truck.id, "type"))
            out.append(finding(
                "MV-31", Ruling.PROVEN, step=step, when=when, subjects=(truck.name, load.name),
                message=f"{named} carried {_article(kind)} ({load.name}) {where} in turn {turn} after "
                        f"carrying {_article(first[0])} ({first[1]}) that turn: a truck transports "
                        "one type of thing per turn",
                evidence={"truck": truck.name, "turn": turn, "first": first[0], "first_piece": first[1],
                          "first_step": first[2], "then": kind, "piece": load.name,
                          "from": path[0], "to": path[1]}))
        if kind != "RP" and (turn, truck.id, load.id) not in self.reported:
            own, theirs = nationality(self.data, truck), nationality(self.data, load)
            if own is not None and theirs is not None and own != theirs:
                self.reported.add((turn, truck.id, load.id))
                out.append(finding(
                    "MV-31", Ruling.PROVEN, step=step, when=when, subjects=(truck.name, load.name),
                    message=f"{named} ({own}) carried {load.name} ({theirs}) {where}: a "
                            "truck carries only units of its own nationality",
                    evidence={"truck": truck.name, "truck_nationality": own, "piece": load.name,
                              "piece_nationality": theirs, "from": path[0], "to": path[1]}))
        return out
