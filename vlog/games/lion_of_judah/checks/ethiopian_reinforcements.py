"""(35) How many Ethiopian reinforcements a turn brings, and to which factions (RR-05, PB 13.5.2.2).

Where each unit enters (its capital or leader, RR-07) and whether its faction may receive any
(RR-06) are judged unit by unit in checks/reinforcements.py; this module counts them. Each MAP
the Ethiopian player receives one free Shoa unit and, for each front (PB 13.2.2), the additional
units of the Ethiopian reinforcement table: the Northern Front's become two when Northern units
attacked and inflicted a step loss the previous turn, three after a Great Offensive there; the
Southern Front's become three after either. No faction receives more than one additional unit a
turn (Shoa: one besides its free one) unless that is the only way not to lose a front's
reinforcements.

Judged on the Ethiopian units (leaders, columns and breakdown units excepted) placed in a MAP
the turn track shows:

* a front's additional units beyond the table's number for the turn, raised as above. The
  previous turn is read from the log: an Ethiopian attack whose defenders lost a step, a ``great
  offensive north|south`` declaration (checks/activation.py); when the log does not show the
  previous turn's combat segments, every raise is taken as possible. PROVEN with a table that
  gives the turn's numbers (a cell ``{"northern": N, "southern": S}``); with the shipped data,
  POSSIBLE beyond the usual one North / two South the text names, naming the missing cell;
* when the MAP ends, a faction given two or more additional units while another faction of
  the same front got none and could have (its capital not Italian-controlled, its leader not
  eliminated): POSSIBLE, since the pools' contents are not logged.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.gamedata import GameData
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.activation_rules import FRONTS, faction_name, parse_declaration
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.checks.reinforcements import _capitals
from vlog.games.lion_of_judah.checks.supply import controller
from vlog.games.lion_of_judah.sequence import PHASES, Phase
from vlog.games.lion_of_judah.state import GameState, Unit
from vlog.games.lion_of_judah.step_events import Appear, Combat, PhaseTurned
from vlog.kit.steps import Event

__all__ = ["ReinforcementCount", "count_step", "front_allowance", "TABLE", "USUAL", "RAISED"]

TABLE = "ethiopian-reinforcements"
FREE_FACTION = "ethiopian-shoa"
USUAL = {"northern": 1, "southern": 2}
"""PB 13.5.2.2: 'On many turns' the Northern Front gets one additional unit, the Southern two."""
RAISED = {("northern", "loss"): 2, ("northern", "offensive"): 3, ("southern", "loss"): 3,
          ("southern", "offensive"): 3}
"""PB 13.5.2.2: a front's additional units after a step loss inflicted or a Great Offensive there."""
NOT_REINFORCEMENTS = ("breakdown", "column")


def front_of(unit: Unit) -> str | None:
    for front, classes in FRONTS.items():
        if unit.unit_class in classes:
            return front
    return None


def front_allowance(data: GameData, turn: int, front: str, raises: Iterable[str]
                    ) -> tuple[int, str | None]:
    """(the most additional units `front` may receive on `turn`, the missing cell or None);
    without the cell, the text's usual number (raised)."""
    cell = data.table(TABLE).lookup(str(turn))
    value = cell.value.get(front) if isinstance(cell.value, dict) else None
    missing = None if isinstance(value, int) else f"tables.json {TABLE} turn {turn}"
    base = value if isinstance(value, int) else USUAL[front]
    return max([base] + [RAISED[(front, why)] for why in raises]), missing


@dataclass
class ReinforcementCount:
    """What the Ethiopian reinforcements of each turn depend on, and the units placed."""

    first_turn: int | None = None
    """The first turn whose Ethiopian combat segment is wholly in the log."""
    happened: dict[tuple[int, str], set[str]] = field(default_factory=dict)
    """(turn, front) -> {'loss', 'offensive'}: what raises the next turn's reinforcements."""
    placed: dict[int, list[tuple[Unit, int, str | None]]] = field(default_factory=dict)
    """Turn -> Ethiopian units placed in its MAP: (unit, step, when)."""
    before_map: dict[int, GameState] = field(default_factory=dict)
    reported: set[tuple[int, str]] = field(default_factory=set)
    closed: set[int] = field(default_factory=set)

    def note_phase(self, turn: int, key: str) -> None:
        """The first phase the turn track shows: its turn is in the log when the Ethiopian (second
        player's) combat segment is still to come."""
        if self.first_turn is None and key in PHASES:
            self.first_turn = turn if PHASES.index(key) < PHASES.index("second-combat") else turn + 1

    def note_offensive(self, turn: int, front: str) -> None:
        self.happened.setdefault((turn, front), set()).add("offensive")

    def note_combat(self, turn: int, attackers: Sequence[Unit], defenders: Sequence[Unit],
                    losses: dict[str, int]) -> None:
        """An Ethiopian attack: a front raises its next turn's reinforcements when a defender lost
        a step (the Imperial Guard and the Negus belong to both fronts)."""
        if not any(u.side == "ethiopian" for u in attackers):
            return
        if not any(losses.get(d.id) for d in defenders):
            return
        fronts = {front_of(u) for u in attackers if u.side == "ethiopian"}
        if None in fronts:
            fronts = set(FRONTS)
        for front in fronts - {None}:
            self.happened.setdefault((turn, front), set()).add("loss")

    def _raises(self, turn: int, front: str) -> tuple[set[str], bool]:
        """(what raised `front` on `turn`, whether the log shows the previous turn)."""
        shown = self.first_turn is not None and self.first_turn <= turn - 1
        if turn <= 1:
            return set(), True
        if not shown:
            return {"loss", "offensive"}, False
        return set(self.happened.get((turn - 1, front), set())), True

    @REGISTRY.reports("RR-05")
    def placed_unit(self, board: Board, before: GameState, unit: Unit, *, turn: int, step: int,
                    when: str | None) -> list[Finding]:
        """One Ethiopian unit placed in the MAP of `turn`: the front's count so far."""
        if unit.side != "ethiopian" or unit.kind == "leader" or unit.unit_type in NOT_REINFORCEMENTS \
                or unit.unit_class is None:
            return []
        self.before_map.setdefault(turn, before)
        placed = self.placed.setdefault(turn, [])
        placed.append((unit, step, when))
        front = front_of(unit)
        if front is None or (turn, front) in self.reported:
            return []
        mine = [u for u, _s, _w in placed if front_of(u) == front]
        free = 1 if front == "northern" and any(u.unit_class == FREE_FACTION for u in mine) else 0
        additional = len(mine) - free
        raises, shown = self._raises(turn, front)
        most, missing = front_allowance(board.data, turn, front, raises)
        if additional <= most:
            return []
        self.reported.add((turn, front))
        ruling = Ruling.PROVEN if missing is None else Ruling.POSSIBLE
        why = ", raised by " + " and ".join(sorted(raises)) if raises and shown else (
            ", every raise allowed (the log does not show the previous turn)" if not shown else "")
        return [finding("RR-05", ruling, step=step, when=when, subjects=tuple(u.name for u in mine),
                        message=f"{unit.name} is additional {front.title()} Front reinforcement number "
                                f"{additional} of turn {turn} (besides the free Shoa unit); the front "
                                f"receives at most {most}{why}",
                        evidence={"turn": turn, "front": front, "additional": additional, "most": most,
                                  "free_shoa": bool(free), "raised_by": sorted(raises),
                                  "previous_turn_in_log": shown},
                        depends_on=[missing] if missing else [])]

    @REGISTRY.reports("RR-05")
    def close_map(self, board: Board, turn: int, *, capitals: dict[str, str],
                  gone_leaders: Iterable[str], step: int, when: str | None) -> list[Finding]:
        """When the MAP of `turn` ends: a faction given two additional units while another of its
        front got none and could have."""
        if turn in self.closed or turn not in self.placed:
            return []
        self.closed.add(turn)
        before = self.before_map[turn]
        by_faction: dict[str, list[Unit]] = {}
        for unit, _s, _w in self.placed[turn]:
            by_faction.setdefault(unit.unit_class or "", []).append(unit)
        gone = set(gone_leaders)
        out: list[Finding] = []
        for faction, units in by_faction.items():
            front = front_of(units[0])
            extra = len(units) - (1 if faction == FREE_FACTION else 0)
            if front is None or extra < 2:
                continue
            idle = []
            for other in sorted(FRONTS[front] - {faction}):
                if other in by_faction:
                    continue
                key = other.removeprefix("ethiopian-")
                capital = capitals.get(key) or capitals.get(key.split("-")[0])
                if capital is not None and controller(board, before, capital) == "italian":
                    continue
                if f"et-leader-{key}" in gone:
                    continue
                idle.append(other)
            if not idle:
                continue
            names = [faction_name(f) for f in idle]
            out.append(finding("RR-05", Ruling.POSSIBLE, step=step, when=when, subjects=tuple(u.name for u in units),
                               message=f"{faction_name(faction)} received {extra} additional reinforcements on "
                                       f"turn {turn} while {', '.join(names)} of the same front received none; "
                                       "no faction receives more than one if avoidable",
                               evidence={"turn": turn, "faction": faction, "additional": extra,
                                         "front": front, "factions_without": idle},
                               depends_on=[f"the {n} unit pool (not logged)" for n in names]))
        return out


def count_step(count: ReinforcementCount, board: Board, actions: Sequence[Event], chats: Sequence[str], *,
               phase: Phase | None, bound: bool, gone_leaders: Iterable[str], step: int) -> list[Finding]:
    """Feeds `count` with one step's events (phases, Ethiopian attacks, placements) and chat (a
    Great Offensive); findings for placements beyond a front's count and MAPs that end."""
    if not bound:
        return []
    out: list[Finding] = []
    for action in actions:
        if isinstance(action, PhaseTurned):
            old, new = action.old, action.new
            count.note_phase(new.turn, new.key)
            if old is not None and old.key == "map" and (old.turn, old.key) != (new.turn, new.key):
                out += count.close_map(board, old.turn, capitals=_capitals(board), gone_leaders=gone_leaders,
                                       step=step, when=old.when())
        elif isinstance(action, Combat):
            pending = action.pending
            if pending.phase is not None:
                count.note_combat(pending.phase.turn, action.attackers, action.defenders, pending.losses)
        elif isinstance(action, Appear) and phase is not None and phase.key == "map":
            out += count.placed_unit(board, action.before, action.unit, turn=phase.turn, step=step,
                                     when=action.when)
    for text in chats:
        decl = parse_declaration(text)
        if decl is not None and decl.kind == "great-offensive" and phase is not None:
            count.note_offensive(phase.turn, decl.subject)
    return out
