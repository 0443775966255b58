"""Moving stacks (11.3): MV-08.

Each unit or stack finishes its movement before another begins (the opponent may allow a change);
a stack moves together only if it began the movement segment stacked; a unit dropped off a moving
stack moves no further that segment.

How a log shows it (the VASSAL reading): a stack dragged at once moves its pieces in one step; a
stack moved piece by piece moves them one after another, each following the same hop. Within a
movement segment the moving stack is the units that began the segment in one hex; a unit from
another hex starts the next move and ends that stack's movement. Air markers, RP markers, trucks
(carriers with their own rules, 10.3) and other markers are left out.

* A unit moving again after another stack began moving: POSSIBLE, naming the opponent's permission.
* Units moved in one step from one hex that began the segment in different hexes: PROVEN (a
  stack formed on the way moved on together).
* Two units that made the same hop together, when one goes on and the other later leaves that hex
  for another: PROVEN (it was dropped off).

MV-09 needs no check of its own: each member of a stack is judged by its own MF from where it
began (movement.py), so none outruns the slowest while they move together, and those dropping
the slowest go on with their own MF less what they have spent.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import finding
from vlog.games.lion_of_judah.state import Unit

__all__ = ["StackMoves", "PERMISSION"]

LEFT_OUT = ("air", "rp", "truck", "marker")
PERMISSION = "the opponent's permission to change the order of moves (11.3)"


@dataclass(slots=True)
class StackMoves:
    """The moves of one movement segment, as stacks."""

    board: Board
    origin: dict[str, str] = field(default_factory=dict)
    """Unit id -> the hex it began the segment in."""
    group: set[str] = field(default_factory=set)
    """The units of the stack moving now (one segment origin, or moved in one step with them)."""
    ended: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Unit id -> (step, name of the unit that began moving) once its stack's move ended."""
    step_moves: tuple[int, list[tuple[Unit, str, str]]] | None = None
    """The step in progress and its moves (unit, from, to)."""
    hops: dict[str, tuple[str, str, frozenset[str]]] = field(default_factory=dict)
    """Unit id -> its last hop (from, to) and the units that made that hop too."""
    dropped: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """Unit id -> (hex it was left in, hex its stack went on to, name of the one that went on)."""
    reported: set[str] = field(default_factory=set)

    def reset(self) -> None:
        """A new phase: every unit begins its movement afresh."""
        self.origin, self.group, self.ended, self.step_moves = {}, set(), {}, None
        self.hops, self.dropped, self.reported = {}, {}, set()

    def move(self, unit: Unit, start: str, to: str, *, step: int, when: str | None) -> list[Finding]:
        """Judge one unit's hop from `start` to `to` in a movement segment."""
        if unit.kind in LEFT_OUT or unit.id in self.reported:
            return []
        origin = self.origin.setdefault(unit.id, start)
        out = self._same_step(unit, start, to, origin, step=step, when=when)
        out += self._dropped_off(unit, start, to, step=step, when=when)
        if unit.id not in self.group:
            same_step = self.step_moves is not None and self.step_moves[0] == step and any(
                u.id in self.group for u, *_ in self.step_moves[1])
            if not same_step and not any(self.origin.get(m) == origin for m in self.group):
                for member in self.group:
                    self.ended.setdefault(member, (step, unit.name))
                self.group = set()
            self.group.add(unit.id)
            if unit.id in self.ended and unit.id not in self.reported:
                at, by = self.ended[unit.id]
                self.reported.add(unit.id)
                out.append(finding(
                    "MV-08", Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name, by),
                    message=f"{unit.name} moved again (from {hex_label(start, self.board)}) after {by} began "
                            f"its move at step {at}: each unit or stack finishes its movement before "
                            "another begins (11.3)",
                    evidence={"unit": unit.name, "from": start, "to": to, "other_began_at_step": at,
                              "other": by}, depends_on=(PERMISSION,)))
        self._note_hop(unit, start, to)
        return out

    def _same_step(self, unit: Unit, start: str, to: str, origin: str, *, step: int,
                   when: str | None) -> list[Finding]:
        """Units dragged together in one step began the segment in one hex."""
        if self.step_moves is None or self.step_moves[0] != step:
            self.step_moves = (step, [])
        moves = self.step_moves[1]
        out: list[Finding] = []
        others = [u for u, s, t in moves if (s, t) == (start, to) and self.origin.get(u.id) != origin]
        if others and unit.id not in self.reported:
            self.reported.add(unit.id)
            first = others[0]
            out.append(finding(
                "MV-08", Ruling.PROVEN, step=step, when=when, subjects=(unit.name, first.name),
                message=f"{unit.name} and {first.name} moved together from {hex_label(start, self.board)} to "
                        f"{hex_label(to, self.board)}, but began the segment apart ({hex_label(origin, self.board)} "
                        f"and {hex_label(self.origin[first.id], self.board)}): a stack moves together only "
                        "if it began the movement segment stacked (11.3)",
                evidence={"units": [unit.name, first.name], "from": start, "to": to,
                          "began_at": {unit.name: origin, first.name: self.origin[first.id]}}))
        moves.append((unit, start, to))
        return out

    def _dropped_off(self, unit: Unit, start: str, to: str, *, step: int, when: str | None) -> list[Finding]:
        """A unit left behind when a companion went on moves no further (unless it follows)."""
        left = self.dropped.pop(unit.id, None)
        if left is None or left[0] != start or left[1] == to or unit.id in self.reported:
            return []
        self.reported.add(unit.id)
        where, went, by = left
        return [finding(
            "MV-08", Ruling.PROVEN, step=step, when=when, subjects=(unit.name, by),
            message=f"{unit.name} moved on from {hex_label(where, self.board)} to {hex_label(to, self.board)} "
                    f"after {by}, with which it had moved, went on to {hex_label(went, self.board)}: a unit "
                    "dropped off a moving stack moves no further that segment (11.3)",
            evidence={"unit": unit.name, "dropped_at": where, "stack_went_to": went, "to": to, "other": by})]

    def _note_hop(self, unit: Unit, start: str, to: str) -> None:
        """Companions: the units whose last hop was this one. Those that arrived at `start` with
        this unit and stay there are dropped off as it goes on."""
        companions = frozenset(uid for uid, (s, t, _) in self.hops.items()
                               if (s, t) == (start, to) and uid != unit.id)
        for uid, (s, t, with_) in list(self.hops.items()):
            if uid == unit.id or t != start or unit.id not in with_:
                continue                    # not a unit that arrived at `start` with this one
            if uid not in companions:
                self.dropped.setdefault(uid, (start, to, unit.name))
        self.hops[unit.id] = (start, to, companions)
        for uid in companions:
            s, t, with_ = self.hops[uid]
            self.hops[uid] = (s, t, with_ | {unit.id})
