"""What trucks carry (10.3): MV-31, one type of thing per turn and only their own nationality;
HQ-09, the trucks moving an HQ.

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
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import finding
from vlog.games.lion_of_judah.state import GameState, Unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.board import Board
    from vlog.games.lion_of_judah.sequence import Phase

__all__ = ["TruckLedger", "carried_type", "nationality"]

_LOAD_TYPES = {"rp": "RP", "hq": "HQ", "combat": "combat unit", "dummy": "combat unit"}
"""10.3: trucks move RP markers, HQs and combat units (a Dummy moves as a combat unit)."""


def carried_type(unit: Unit) -> str | None:
    """The type of thing 10.3 counts a carried piece as, or None for what trucks do not carry
    (other trucks, leaders, air and other markers)."""
    return _LOAD_TYPES.get(unit.kind)


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

    def hq_trucks(self, hq: Unit, origin: str, to: str, before: GameState, after: GameState,
                  phase: Phase | None) -> int:
        """HQ-09: the trucks of the HQ's side at `to` once it arrives that began the phase
        stacked with or adjacent to `origin`, the hex the HQ began the segment in."""
        current = (phase.turn, phase.key) if phase is not None else None
        starts = self.segment_start if current is not None and current == self.start_phase else {}
        near = {origin, *self.board.neighbours(origin)}
        count = 0
        for truck in after.at(to):
            if truck.kind != "truck" or truck.side != hq.side:
                continue
            was = before.units.get(truck.id)
            start = starts.get(truck.id, was.hex if was is not None else None)
            if start in near:
                count += 1
        return count

    def observe(self, before: GameState, after: GameState, *, step: int, phase: Phase | None,
                bound: bool, scenario: str | None, when: str | None) -> list[Finding]:
        """Judge the pieces moving with trucks in this step (phase-bound logs only)."""
        moves: dict[str, tuple[str, str]] = {}
        for uid, unit in before.units.items():
            now = after.units.get(uid)
            if unit.hex is not None and now is not None and now.hex is not None and now.hex != unit.hex:
                moves[uid] = (unit.hex, now.hex)
        if not moves:
            return []
        current = (phase.turn, phase.key) if phase is not None else None
        if current != self.start_phase:
            self.segment_start, self.start_phase = {}, current
        for uid, unit in before.units.items():
            if unit.kind == "truck" and unit.hex is not None:
                self.segment_start.setdefault(uid, unit.hex)
        previous = self.previous if current is not None and current == self.previous_phase else {}
        self.previous, self.previous_phase = moves, current
        if scenario is None or not bound or phase is None or phase.turn is None:
            return []
        out: list[Finding] = []
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
        return out

    def _carry(self, truck: Unit, load: Unit, path: tuple[str, str], turn: int, step: int,
               when: str | None) -> list[Finding]:
        kind = carried_type(load)
        if kind is None:
            return []
        out: list[Finding] = []
        named = truck.name if "truck" in truck.name.lower() else f"truck {truck.name}"
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
