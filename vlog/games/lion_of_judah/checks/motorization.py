"""Motorized combat units (10.3.2): HQ-08, motorisation in the MAP; MV-34, moving motorized.

How a log shows it (the VASSAL reading of trucks.py): in the MAP (step v) the truck(s) go under
a foot combat unit of their side, stacked with it or from the hex next to it; in the movement
segment that follows they move with the unit -- in the same step (the stack dragged) or just
before it. A truck rides with a unit on one hop when it began the segment in the unit's starting
hex and stands in the hex the unit reaches, or stands in the hex the unit leaves after having
followed it there (trucks carrying an RP or an HQ this turn excepted: MV-31 judges those).

* MV-34: a unit with trucks riding pays motorized costs and has 2 MPs more (the movement check,
  findings under MV-03/MV-23; the 2 MPs are added after any halving, 10.3.2 does not order
  them). Its trucks stay stacked with it until the next MAP begins: a truck that rode with it
  and stands in another hex at the end of a segment is reported once a turn.
* HQ-08, judged when the unit's movement segment ends: every truck moving with it began the
  segment in its hex (trucks are placed under a unit in the MAP, not picked up on the way); an
  infantry or mountain-infantry division has two trucks, other units one; a division of another
  type is not motorized. The division's supply at the start of the MAP goes under SP-16.

A truck moved in the MAP onto the hex next to it that holds a foot combat unit or an HQ of its
side is placed under that unit (10.3.2, 10.3.3), not moved by rail (`places_under`).

Not seen: a motorisation the log shows only by trucks sitting under a unit that does not move,
and which unit of a hex a truck sits under (stack order is not kept, FW-01). A unit moved in one
step before its trucks follow is judged on foot for that step.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, GameLedger, finding
from vlog.games.lion_of_judah.step_events import PhaseTurned
from vlog.games.lion_of_judah.checks.supply import judge_supply_prerequisite
from vlog.games.lion_of_judah.state import GameState, Unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.lion_of_judah.board import Board
    from vlog.games.lion_of_judah.checks.trucks import TruckLedger
    from vlog.games.lion_of_judah.sequence import Phase
    from vlog.kit.steps import StepView

__all__ = ["MotorizationLedger", "places_under", "trucks_needed"]
DIVISION_TYPES = ("infantry", "mountain-infantry")
"""10.3.2: the divisions trucks may motorize (two trucks each)."""


def places_under(board: Board, truck: Unit, start: str, to: str, after: GameState) -> bool:
    """True when a truck moved in the MAP from `start` to `to` (the hex itself or the next one)
    is placed under a foot combat unit or an HQ of its side there (10.3.2, 10.3.3)."""
    if truck.kind != "truck" or (to != start and to not in board.neighbours(start)):
        return False
    return any(u.side == truck.side and (u.kind == "hq" or (u.kind == "combat" and u.motorized is False))
               for u in after.at(to))


def trucks_needed(unit: Unit) -> int | Unknown | None:
    """10.3.2: two trucks for an infantry or mountain-infantry division, one for a non-division
    unit, None for a division of another type (not motorized); Unknown when the data lacks it."""
    if unit.size is None:
        return Unknown(f"counters.json size of {unit.counter or unit.name}")
    if unit.size != "division":
        return 1
    if unit.unit_type is None:
        return Unknown(f"counters.json type of {unit.counter or unit.name}")
    return 2 if unit.unit_type in DIVISION_TYPES else None


@dataclass(slots=True)
class Motorized:
    """One unit seen moving motorized: where and when its segment's move began, its trucks."""

    origin: str
    segment: tuple[int, str]
    step: int
    when: str | None
    trucks: set[str] = field(default_factory=set)
    last_step: int | None = None
    """The last step in which the unit or one of its trucks moved (where they parted)."""
    joined: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Truck id -> (its name, the hex it began the segment in) for trucks that joined the unit on the way."""


@dataclass(slots=True)
class MotorizationLedger(GameLedger):
    """The units moving motorized since the last MAP, and the MAP's starting position."""

    board: Board
    units: dict[str, Motorized] = field(default_factory=dict)
    reported: set[tuple[int, str]] = field(default_factory=set)
    """(turn, unit id) reported under MV-34 (once a turn)."""
    map_start: GameState | None = None
    map_turn: int | None = None

    def riders(self, unit: Unit, origin: str, to: str, before: GameState, after: GameState,
               phase: Phase, trucks: TruckLedger, *, step: int, when: str | None) -> set[str]:
        """The trucks motorizing `unit` on its hop from `unit.hex` to `to` in a movement
        segment (empty for a unit moving on foot); remembers them for HQ-08 and MV-34."""
        if unit.kind != "combat" or unit.motorized is not False:
            return set()
        segment = (phase.turn, phase.key)
        record = self.units.get(unit.id)
        if record is not None and record.segment != segment:
            record = None

        joining = {tid: trucks.began(tid, before, phase)
                   for tid in trucks.moving_with(unit, to, before, after, phase)}
        riding = set()
        for truck in after.units.values():
            if truck.kind != "truck" or truck.side != unit.side or truck.hex is None:
                continue
            if trucks.began(truck.id, before, phase) != origin \
                    or trucks.load_type(phase.turn, truck.id) not in (None, "combat unit"):
                continue
            was = before.units.get(truck.id)
            followed = truck.hex == unit.hex != origin and was is not None and was.hex == unit.hex
            if truck.hex == to or followed:
                riding.add(truck.id)
        riding |= set(joining)
        if not riding:
            return set() if record is None else set(record.trucks)     # motorized for the segment
        if record is None:
            record = self.units[unit.id] = Motorized(origin, segment, step, when)
        record.trucks |= riding
        record.joined.update({tid: (after.units[tid].name, hex_) for tid, hex_ in joining.items()
                              if hex_ not in (None, origin)})
        return riding

    def note_step(self, before: GameState, after: GameState, *, step: int) -> None:
        """Remember the step in which a motorized unit or one of its trucks last moved."""
        for uid, record in self.units.items():
            if any(_at(before, pid) != _at(after, pid) for pid in (uid, *record.trucks)):
                record.last_step = step

    def phase(self, change: PhaseTurned, view: "StepView") -> list[Finding]:
        return self.phase_ended(change.old, change.new, change.state, step=change.step) if change.bound else []

    def end(self, view: "StepView") -> list[Finding]:
        game = self.game
        if not game.interpreter.phase_bound:
            return []
        return self.phase_ended(game.interpreter.phase, None, game.final_state(view), step=None)

    def phase_ended(self, old: Phase | None, new: Phase | None, state: GameState, *,
                    step: int | None) -> list[Finding]:
        """HQ-08 for the units motorized in a movement segment that ended (`new` None: the log
        ended), MV-34 for trucks left behind; a new MAP unloads or keeps every unit (10.3.2)
        and starts afresh."""
        out: list[Finding] = []
        if old is not None and old.segment == "movement":
            for uid, record in self.units.items():
                if record.segment == (old.turn, old.key):
                    out += self._motorisation(state.units.get(uid), record, old)
        if old is not None:
            out += self._left_behind(state, old, step=step)
        if new is not None and new.key == "map":
            self.units = {}
            self.map_start, self.map_turn = state, new.turn
        return out

    @REGISTRY.reports("MV-34")
    def _left_behind(self, state: GameState, phase: Phase, *, step: int | None) -> list[Finding]:
        """MV-34: each truck that rode with a unit stands in its hex until the next MAP."""
        out: list[Finding] = []
        for uid, record in self.units.items():
            unit = state.units.get(uid)
            if unit is None or unit.hex is None or (phase.turn, uid) in self.reported:
                continue
            away = sorted(tid for tid in record.trucks if _at(state, tid) not in (None, unit.hex))
            if not away:
                continue
            self.reported.add((phase.turn, uid))
            where = {state.units[t].name: hex_label(state.units[t].hex, self.board) for t in away}
            shown = ", ".join(f"{name} at {hex_}" for name, hex_ in where.items())
            out.append(finding(
                "MV-34", Ruling.PROVEN, step=record.last_step if record.last_step is not None else step,
                when=phase.when(),
                subjects=(unit.name, *where),
                message=f"{unit.name}, motorized since step {record.step}, stands at "
                        f"{hex_label(unit.hex, self.board)} at the end of the {phase.name} without "
                        f"its truck(s) ({shown}): trucks stay stacked with the unit they motorize "
                        "until the next MAP (10.3.2)",
                evidence={"unit": unit.name, "hex": unit.hex, "motorized_at_step": record.step,
                          "trucks_away": {state.units[t].name: state.units[t].hex for t in away}}))
        return out

    @REGISTRY.reports("HQ-08")
    def _motorisation(self, unit: Unit | None, record: Motorized, phase: Phase) -> list[Finding]:
        """HQ-08 (and SP-16) for one unit that moved motorized in the segment `phase`."""
        if unit is None:
            return []
        out: list[Finding] = []
        step, when = record.step, record.when
        start = hex_label(record.origin, self.board)
        for _, (name, began) in sorted(record.joined.items()):
            out.append(finding(
                "HQ-08", Ruling.PROVEN, step=step, when=when, subjects=(unit.name, name),
                message=f"{unit.name} moved from {start} with {name}, which began the segment at "
                        f"{hex_label(began, self.board)}: a unit is motorized in the MAP by trucks "
                        "stacked with it or next to it, not picked up in the movement segment (10.3.2)",
                evidence={"unit": unit.name, "from": record.origin, "truck": name, "truck_began_at": began}))
        needed = trucks_needed(unit)
        count = len(record.trucks)
        facts = {"unit": unit.name, "size": unit.size, "type": unit.unit_type, "trucks": count,
                 "from": record.origin}
        if needed is None:
            out.append(finding(
                "HQ-08", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                message=f"{unit.name}, a division ({unit.unit_type}), moved with {count} truck(s) from "
                        f"{start}: trucks motorize only infantry and mountain-infantry divisions and "
                        "non-division units (10.3.2)", evidence={**facts, "trucks_needed": None}))
        elif isinstance(needed, Unknown):
            if count < 2:
                out.append(finding(
                    "HQ-08", Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                    message=f"{unit.name} moved with {count} truck(s) from {start}: a division takes "
                            "two trucks (10.3.2)", evidence={**facts, "trucks_needed": None},
                    depends_on=needed.data))
        elif count < needed:
            out.append(finding(
                "HQ-08", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                message=f"{unit.name}, a division ({unit.unit_type}), moved motorized with {count} "
                        f"truck from {start}: a division takes two trucks (10.3.2)",
                evidence={**facts, "trucks_needed": needed}))
        if unit.size == "division" and self.map_start is not None and self.map_turn == phase.turn:
            out += judge_supply_prerequisite(self.board, self.map_start, unit, "motorize",
                                             step=step, when=when)
        return out


def _at(state: GameState, piece_id: str) -> str | None:
    unit = state.units.get(piece_id)
    return unit.hex if unit is not None else None
