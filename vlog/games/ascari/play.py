"""The account of one Ascari player-turn as the log plays it: who is active, each unit's path in
the movement phase, the melées it entered, its retreats, and the fire declared.

A VASSAL log shows where units went, not why. Units move one at a time, hex to hex (3.0); a unit
entering a hex held by an enemy combat unit starts a melée there (3.2), and afterwards the loser
retreats: the active unit to the last hex of its path (5.4, taken also for the tie of 5.2: see
the inventory's 6.2 item 1), the inactive unit one hex the active player chooses. So a move out
of a melée hex is a retreat when it is the inactive unit's, or the attacker's back to where it
came from; any other move of the attacker is its victor advance (5.42). Retreats cost no MP
(FAQ). The ledger keeps these readings; the checks judge them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared, Event, Moved, PhaseChanged, Placed, Removed

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView

__all__ = ["ELIMINATION_ITEMS", "Melee", "MeleeResolved", "Path", "Play", "Retreat"]

ELIMINATION_ITEMS = {"s1": "VIC-01", "s2": "VIC-02", "s3": "VIC-03", "s4": "VIC-04"}
"""The inventory item of each scenario's victory by eliminations (scenarios.json eliminate_to_win)."""


@dataclass(slots=True)
class Melee:
    """A melée the log shows: `attacker` entered `hex` from `came_from` at `step`."""

    hex: str
    attacker: str
    came_from: str
    step: int | None
    closed: bool = False
    """Judged over: the attacker moved on, or another unit moved, or the phase ended."""
    units: dict[str, Any] = field(default_factory=dict)
    """The table as the attacker entered (piece id -> unit)."""
    dice: list[int] = field(default_factory=list)
    """The faces of the single d6 (or of a 2d6) rolled since it entered: the two MCV dice (5.1)."""
    resolved: bool = False
    """Its `MeleeResolved` has been told."""
    retreats: dict[str, "Retreat"] = field(default_factory=dict)
    """Piece id -> the retreat a unit made out of it."""


@dataclass(frozen=True, slots=True)
class MeleeResolved(Event):
    """A melée is over (its attacker moved on, another unit of its side moved, the phase
    changed): judged against the table before this step."""

    melee: Melee
    at_end: bool = False
    """The log ended with it open: the final position may not hold all of its result."""


@dataclass(slots=True)
class Retreat:
    """A unit's retreat out of `melee`: the hexes it went through (the melée hex first), the step
    of each hex entered, and whether the first hex held a friendly combat unit (then it may go on
    one more hex, 5.4)."""

    melee: Melee
    hexes: list[str]
    steps: list[int | None]
    through_friend: bool

    def continues(self, unit: Any, to: str | None) -> bool:
        """Whether `unit`'s move out of its hex to `to` is this retreat's second hex (still to be
        kept, or the one just kept)."""
        if len(self.hexes) == 3:
            return unit.hex == self.hexes[1] and to == self.hexes[2]
        return len(self.hexes) == 2 and self.through_friend and unit.hex == self.hexes[-1] \
            and not self.melee.resolved


@dataclass(slots=True)
class Path:
    """One unit's movement this phase: the hexes it entered in order (its start first), the
    index in `hexes` of each melée hex it entered, and whether it has retreated."""

    hexes: list[str]
    melees: list[int] = field(default_factory=list)
    retreated: bool = False
    last: str = "move"
    """What its last logged move was: "move" or "retreat"."""


class Play(Ledger):
    """The current player-turn's account, kept for the checks (`game.play`)."""

    def __init__(self, game: "Ascari"):
        self.game = game
        self.paths: dict[str, Path] = {}
        self.melees: dict[str, Melee] = {}
        self.flags: list[tuple[str, int | None]] = []
        """Every flag declared, in order: (side, step)."""
        self.fired: dict[str, int | None] = {}
        """Piece id -> step of its fire in this player-turn's Fire Combat Phase."""
        self.opportunity: dict[str, int | None] = {}
        """Piece id -> step of its opportunity fire this player-turn."""
        self.mover: str | None = None
        self.limbered: dict[str, tuple[str, int | None]] = {}
        """Piece id -> (hex, step) of an artillery unit limbered this phase: 1 MP left (3.61)."""
        self.flips: dict[str, int] = {}
        """Piece id -> the artillery formation changes made this phase, 1 MP each (3.6)."""
        """The unit moving now (the last that moved this phase)."""
        self.control: dict[str, str] = {}
        """Hex -> the side whose combat unit last entered it (control, FAQ Coatit), for the whole log."""
        self.won: tuple[str, int | None, tuple[str, ...]] | None = None
        """The first sudden-death win the positions show: (side, step, the hexes it took)."""
        self.won_item: str | None = None
        """The inventory item of the condition met: None for an occupation (SEQ-07's)."""
        self.won_by: str | None = None
        """How it was won, for the finding: 'occupying 1704', 'eliminating 7 Italian units' ..."""
        self.eliminated: dict[str, list[str]] = {}
        """Side -> the counters of its units (leaders included) eliminated in this log, in order."""
        self.exited: dict[str, list[Any]] = {}
        """Side -> its units that left the map by an exit edge (scenarios.json exit_to_win), as they stood."""
        self.removed: set[str] = set()
        """The piece ids removed from the map in this log (eliminated or exited)."""
        self.after_win_reported = False
        self.turn_flags = 0
        """How many of `flags` had been declared when the Turn counter last moved (SEQ-06)."""
        self.revolt_victims: dict[str, tuple[str, int | None, str]] = {}
        """Dervish leader id -> (hex, step, Booty unit) of a revolt it was stacked with (SCN-02)."""
        self.turn_advanced = False
        """Whether the Turn counter has moved in this log."""
        self.turn_seen = False
        """Whether the table has shown the Turn counter in this log."""
        self.lone_leaders: dict[str, tuple[str, tuple[str, ...], int | None]] = {}
        """Hex -> (the unit that entered it, the enemy leaders alone there, step): 5.11."""
        self.previous_mover: str | None = None
        """The unit that moved before it, until its stop is judged."""
        self.closing: str | None = None
        """At a phase change: the last mover of the phase that ended."""
        self.ended: tuple[list[Melee], dict[str, tuple[str, tuple[str, ...], int | None]]] = ([], {})
        """At a phase change: the melées and lone-leader hexes of the phase that ended."""
        self.retreats: dict[str, Retreat] = {}
        """Piece id -> its retreat this phase."""

    # -- what the checks ask -------------------------------------------------------------------
    @property
    def flags_declared(self) -> bool:
        return bool(self.flags)

    def is_retreat(self, before: Any, after: Any) -> bool:
        """Whether a unit's move out of its hex is a melée retreat (see the module docstring)."""
        melee = self.melees.get(before.hex)
        if melee is None:
            retreat = self.retreats.get(before.id)
            return retreat is not None and retreat.continues(before, after.hex)
        if melee.attacker != before.id:
            return True
        path = self.paths.get(before.id)
        return after.hex == melee.came_from or (path is not None and after.hex == path.hexes[0])

    def resolved(self, view: "StepView", events: "Iterable[Event]") -> list[Event]:
        """The engine's `more_events`: each open melée that this step ends (its attacker moves
        on, another unit of the active side moves other than in a retreat, or the phase changes)."""
        events = list(events)
        phase_over = any(isinstance(e, PhaseChanged) for e in events)
        movers = [e.before for e in events if isinstance(e, Moved) and e.before.hex is not None
                  and e.after.hex is not None and not self.is_retreat(e.before, e.after)]
        out: list[Event] = []
        for melee in self.melees.values():
            if melee.resolved:
                continue
            if phase_over or any(u.id == melee.attacker or u.side == self._side_of(melee) for u in movers):
                melee.resolved = True
                out.append(MeleeResolved(view.index, melee))
        return out

    def open_at_end(self) -> list[Event]:
        """The melées still open when the log ends, each told at the step its attacker entered."""
        out: list[Event] = []
        for melee in self.melees.values():
            if not melee.resolved:
                melee.resolved = True
                out.append(MeleeResolved(melee.step, melee, at_end=True))
        return out

    def _side_of(self, melee: Melee) -> Any:
        unit = melee.units.get(melee.attacker)
        return unit.side if unit is not None else None

    # -- the ledger ----------------------------------------------------------------------------
    def step(self, view: "StepView") -> Iterable:
        """Dice rolled while a melée is open are its MCV dice (the first two)."""
        open_ = [m for m in self.melees.values() if not m.resolved and m.step != view.index]
        if open_:
            melee = open_[-1]
            for roll in view.rolls:
                if roll.n_sides in (0, 6) and roll.faces:
                    melee.dice += roll.faces
                elif roll.n_dice == 1 and roll.n_sides in (0, 6) and roll.total is not None:
                    melee.dice.append(roll.total)
        return ()

    def phase(self, change: PhaseChanged, view: "StepView") -> Iterable:
        old, new = change.old, change.new
        if old is None or new is None or old.phasing != new.phasing or old.turn != new.turn:
            self.fired.clear()
            self.opportunity.clear()
        self.closing = self.mover
        self.limbered.clear()
        self.flips.clear()
        self.ended = (list(self.melees.values()), dict(self.lone_leaders))
        self.paths.clear()
        self.melees.clear()
        self.lone_leaders.clear()
        self.retreats.clear()
        self.mover = self.previous_mover = None
        return ()

    def event(self, event: "Event", view: "StepView") -> Iterable:
        if isinstance(event, Declared) and event.grammar == "flag":
            self.flags.append((event.declaration.side, event.step))
        elif isinstance(event, Moved):
            self._occupy(event.after, event.step)
            self._eliminations(event.step, view)
            self._retreated(event, view)
            self._moved(event, view)
        elif isinstance(event, Placed):
            self._occupy(event.unit, event.step)
        elif isinstance(event, Removed) and event.unit.hex is not None and event.unit.side is not None:
            self.removed.add(event.unit.id)
            if self._exit(event.unit, event.step):
                return ()
            self.eliminated.setdefault(event.unit.side, []).append(event.unit.counter)
            self._eliminations(event.step, view)
        return ()

    def seed_control(self, units: Iterable[Any]) -> None:
        """The log's starting position: each combat unit on the map controls its hex (it was the
        last to enter it), so a side holds the hexes it starts in (S4.5: the Italians' 3205, 2106)."""
        for unit in units:
            if unit.hex is not None and unit.combat and unit.side is not None:
                self.control.setdefault(unit.hex, unit.side)

    def _exit(self, unit: Any, step: int | None) -> bool:
        """A unit of the active side taken off the map in its movement phase from a hex of the
        scenario's exit column (S1.4: column 15xx, scenarios.json exit_to_win), with no fire
        at it open and no melée in its hex, has exited (True); any other removal is an
        elimination. Its side wins at once with the units the scenario asks for."""
        if self.game.scenario is None:
            return False
        goal = (self.game.scenario_property("exit_to_win") or {}).get(unit.side)
        phase, terrain, shot = self.game.phase, self.game.terrain, self.game.fires.open
        if not goal or phase is None or terrain is None or phase.phasing != unit.side or "movement" not in phase.kinds \
                or terrain.layout.parse(unit.hex).col != goal["column"] or unit.hex in self.melees \
                or (shot is not None and shot.target == unit.hex):
            return False
        out = self.exited.setdefault(unit.side, [])
        out.append(unit)
        if self.won is not None:
            return True
        combat = [u for u in out if u.combat and u.type not in goal.get("not_counted", ())]
        special = [u for u in out if u.type == goal["or_type"] and u.level == goal["or_level"]]
        if len(combat) >= goal["units"] or special:
            self.won = (unit.side, step, ())
            self.won_by = (f"exiting {special[0].name} ({goal['or_words']})" if special else
                           f"exiting {len(combat)} combat units ({', '.join(u.name for u in combat)})") + \
                f" from column {goal['column']}xx"
            self.won_item = ELIMINATION_ITEMS.get(self.game.scenario)
        return True

    def _eliminations(self, step: int | None, view: "StepView | None" = None) -> None:
        """Sudden death by eliminations (S2.3, S3.6, S4.5: scenarios.json eliminate_to_win), counted
        from the log's start: the enemy units eliminated, the leaders named, the hexes held, or
        (`all`) every enemy unit, leaders included, removed from the map in this log (none on
        it, none still to be brought on)."""
        if self.won is not None or self.game.scenario is None:
            return
        wins = self.game.scenario_property("eliminate_to_win")
        for side, ways in (wins or {}).items():
            gone = [c for other, cs in self.eliminated.items() if other != side for c in cs]
            for way in ways:
                held = [h for h in way.get("occupy", ()) if self.control.get(h) == side]
                if len(held) < len(way.get("occupy", ())) or len(gone) < way.get("units", 0) \
                        or not set(way.get("leaders", ())) <= set(gone):
                    continue
                if way.get("all") and (view is None or not gone or any(
                        u.side not in (side, None) and (u.hex is not None or u.id not in self.removed)
                        for u in self.game.units(view.after).values())):
                    continue
                names = [self.game.data.counter(c)["name"].value or c for c in way.get("leaders", ())]
                what = (f"eliminating {', '.join(names)}" if names else
                        "eliminating every enemy unit" if way.get("all") else
                        f"eliminating {len(gone)} enemy units")
                self.won = (side, step, tuple(held))
                self.won_by = what + (f" and holding {', '.join(held)}" if held else "")
                self.won_item = ELIMINATION_ITEMS.get(self.game.scenario)
                return

    def _occupy(self, unit: Any, step: int | None) -> None:
        """Control goes to the side whose combat unit enters a hex, even in passing (FAQ Coatit)."""
        if unit.hex is None or not unit.combat or unit.side is None:
            return
        self.control[unit.hex] = unit.side
        if self.won is not None or self.game.scenario is None:
            return
        wins = self.game.scenario_property("occupy_to_win")
        goal = (wins or {}).get(unit.side)
        if not goal or unit.hex not in goal["hexes"]:
            return
        held = [h for h in goal["hexes"] if self.control.get(h) == unit.side]
        if held and (not goal["all"] or len(held) == len(goal["hexes"])):
            self.won = (unit.side, step, tuple(held))
            self.won_by = f"occupying {', '.join(held)}"

    def _retreated(self, event: Moved, view: "StepView") -> None:
        """Keep a retreat's hexes: its first out of the melée hex, its second out of a friend's."""
        before, after = event.before, event.after
        if before.hex is None or after.hex is None or not self.is_retreat(before, after):
            return
        retreat = self.retreats.get(before.id)
        if retreat is not None and before.hex not in self.melees:
            retreat.hexes.append(after.hex)
            retreat.steps.append(event.step)
            return
        friend = any(u.hex == after.hex and u.combat and u.side == before.side and u.id != before.id
                     for u in self.game.units(view.after).values())
        melee = self.melees[before.hex]
        self.retreats[before.id] = melee.retreats[before.id] = Retreat(melee, [before.hex, after.hex],
                                                                      [event.step], friend)

    def _moved(self, event: Moved, view: "StepView") -> None:
        before, after = event.before, event.after
        phase = self.game.phase
        if before.hex is None or after.hex is None or phase is None or before.side != phase.phasing:
            return
        retreat = self.is_retreat(before, after)
        path = self.paths.get(before.id)
        if path is None:
            path = self.paths[before.id] = Path([before.hex])
        path.last = "retreat" if retreat else "move"
        if retreat:
            path.retreated = True
            return
        path.hexes.append(after.hex)
        if self.mover != before.id:
            self.previous_mover, self.mover = self.mover, before.id
        enemies = [u for u in self.game.units(view.after).values()
                   if u.hex == after.hex and u.combat and u.side != before.side and u.id != before.id]
        if enemies and before.combat:
            path.melees.append(len(path.hexes) - 1)
            self.melees[after.hex] = Melee(after.hex, before.id, before.hex, event.step,
                                           units=dict(self.game.units(view.after)))
        elif before.combat:
            leaders = tuple(u.id for u in self.game.units(view.before).values()
                            if u.hex == after.hex and u.leader and u.side != before.side)
            if leaders:
                self.lone_leaders[after.hex] = (before.id, leaders, event.step)
