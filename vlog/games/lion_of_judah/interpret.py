"""What a logged step does in Lion of Judah terms: moves, flips, eliminations, rolls, attacks.

A step is read from the kit's events of it (vlog/kit/engine.py: the units' moves, placements
and removals between the game states before and after it, `state_of`, and its chat
declarations, `CHAT`), with the states themselves:

* a unit whose hex changed moved ("move"); the die rolls logged since that side's previous move
  in the same movement segment, and in the step itself, are its forced-march rolls (11.5.3);
* a unit whose step level fell lost steps; a unit gone from the table was eliminated;
* an attack is declared in chat, as players do in PBEM, in the form
  ``Attack 1605 with Sb, 2E; HQ CAE; air 1/0`` (target hex, attacking units by the names the
  module gives them; optional supporting HQs and the net air shifts attacker/defender). The
  first die roll after it is the combat roll; losses and the units that enter the target hex
  until the next declaration, the next phase or a move elsewhere belong to it; the combat is
  then judged as one event (`Combat`) at the declaring step;
* (35) the Ethiopian army's declarations, ``activate Ras Kassa``, ``bribe Ras Kassa``, ``great
  offensive north``, ``negus availability``, ``attrition 1310`` (checks/activation.py): the die
  roll after one that needs it is its roll, not a forced-march roll.

The phase comes from the turn tracker when the bindings name one (`sequence.phase_from_table`)
and is otherwise inferred from who moves and who declares attacks; a change of phase is an
event (`PhaseTurned`) so end-of-segment checks (stacking, 8.1) run on the position it closes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from vlog.kit.chat import ChatGrammars, names_listed
from vlog.kit.steps import Declared, Event, Moved, Placed, Removed, in_order
from vlog.games.lion_of_judah.checks.activation_reading import ActivationReader
from vlog.games.lion_of_judah.checks.activation_rules import parse_declaration
from vlog.games.lion_of_judah.checks.victory import parse_victory_claim
from vlog.games.lion_of_judah.sequence import Phase, infer_phase, phase_from_table, start_phase
from vlog.games.lion_of_judah.step_events import (Appear, Combat, DummyFlip, EventMarker, Move, PhaseTurned, Reveal,
                                                  StepGain)
from vlog.games.lion_of_judah.state import GameState, StateCache, Unit, UnitCache, build_state, changed_ids
from vlog.kit.combat import OpenCombat

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.kit.steps import Position, StepView

__all__ = ["Interpreter", "parse_attack", "state_of", "units_of", "ATTACK", "CHAT"]

ATTACK = re.compile(r"\battack(?:s|ing)?\s+(?:hex\s+)?(?P<hex>\d{4})\b(?P<rest>[^\n]*)", re.IGNORECASE)
_WITH = re.compile(r"^\s*(?:with|from|by)\s+(?P<names>[^;]+)", re.IGNORECASE)
_HQ = re.compile(r";\s*HQs?\s*:?\s*(?P<names>[^;]+)", re.IGNORECASE)
_AIR = re.compile(r";\s*air\s*:?\s*(?P<a>\d)\s*/\s*(?P<d>\d)", re.IGNORECASE)
_NO_HQ = re.compile(r";\s*no\s+HQs?\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class AttackDeclaration:
    target: str
    attackers: tuple[str, ...] | None
    hqs: tuple[str, ...] | None
    air: tuple[int, int] | None


def parse_attack(text: str) -> AttackDeclaration | None:
    """An attack declared in a chat line, or None."""
    match = ATTACK.search(text)
    if not match:
        return None
    rest = match.group("rest")
    names = None
    with_ = _WITH.match(rest)
    if with_:
        names = names_listed(with_.group("names"))
    hqs: tuple[str, ...] | None = None
    hq = _HQ.search(rest)
    if hq:
        hqs = names_listed(hq.group("names"))
    elif _NO_HQ.search(rest):
        hqs = ()
    air_m = _AIR.search(rest)
    air = (int(air_m.group("a")), int(air_m.group("d"))) if air_m else None
    return AttackDeclaration(match.group("hex"), names, hqs, air)


CHAT = ChatGrammars()
"""The chat lines Lion of Judah reads (vlog/kit/chat.py): attacks (above, report lines too), (35)
the Ethiopian army's declarations (checks/activation.py) and VP totals with a victory level
(checks/victory.py, VC-03, VC-07)."""
CHAT.add("attack", lambda line: parse_attack(line.text), reports=True)
CHAT.add("activation", lambda line: parse_declaration(line.message, line.speaker))
CHAT.add("victory-claim", lambda line: parse_victory_claim(line.text), reports=True)


@dataclass(slots=True)
class Interpreter:
    """Turns steps into typed events (step_events.py); keeps the phase, pending rolls and the
    open combat."""

    data: "GameData"
    scenario: str | None = None
    phase: Phase | None = None
    phase_bound: bool = False
    rolls_since_move: list[int] = field(default_factory=list)
    pending: OpenCombat | None = None
    cache: StateCache = field(default_factory=StateCache)
    _after: GameState | None = None
    entered_before: set[str] = field(default_factory=set)
    """Hexes units moved into in the previous step (a dummy there may be flipped, PB 14.6.5)."""
    last_states: tuple[GameState, GameState] | None = None
    """The position before and after the last step interpreted (the VP history reads it)."""
    activation: ActivationReader = field(default_factory=ActivationReader)
    """(35) activation and attrition declarations and their rolls (checks/activation.py)."""
    breakdowns_gone: dict[str, list[str]] = field(default_factory=dict)
    """Hex -> breakdown units taken off it earlier in the phase (2.5: a consolidation may remove
    the breakdown unit one step and raise the unit the next)."""
    gone_leaders: set[str] = field(default_factory=set)
    """Counters of leaders removed from the map (eliminated, PB 13.6.2)."""
    control: dict[str, str] = field(default_factory=dict)
    """3.2: hex -> the side whose unit with a combat factor was last there (air markers, HQs
    and trucks never take control, 3.2, 10.1.2); hexes not listed keep their initial control."""
    flags: dict[str, Any] = field(default_factory=dict)
    """Facts the history establishes, copied into every state built (`GameState.flags`)."""

    def states(self, view: "StepView") -> tuple[GameState, GameState]:
        before = state_of(view.before, self.data, self.scenario, self.cache, control=self.control)
        after = state_of(view.after, self.data, self.scenario, self.cache, control=self.control)
        update_control(after)
        before.flags.update(self.flags)
        after.flags.update(self.flags)
        return before, after

    def interpret(self, view: "StepView", told: Sequence[Event]) -> list[Event]:
        """The events of one step, in the order read; `view.rolls` are the die rolls the step's
        chat reports, `told` the kit's events of the step (vlog/kit/engine.py: the unit events
        and chat declarations of `CHAT` read from the step)."""
        step = view.step
        assert step is not None
        before, after = self.states(view)
        self._after = after
        self.last_states = (before, after)
        events: list[Event] = []
        index = step.index
        # the phase: the tracker, else inference
        if self.scenario is not None:
            bound = phase_from_table(view.after.table, self.data, self.scenario)
            if bound is not None:
                self.phase_bound = True
                events += self._set_phase(bound, index, before)
            elif self.phase is None:
                self.phase = start_phase(self.scenario)
        rolls = [r.total for r in view.rolls if r.total is not None]
        rolls, extra = self.activation.read(step, before, after, rolls, self, declared(told, "activation"))
        events += extra
        changes = [e for e in told if isinstance(e, (Moved, Removed, Placed))]
        moved = [(e.before, e.after) for e in changes if isinstance(e, Moved)]
        declarations: list[AttackDeclaration] = declared(told, "attack")
        involved = self._combat_involved(self.pending) if self.pending is not None else set()
        for decl in declarations:
            involved |= {u.id for u in before.at(decl.target)}
            if decl.attackers:
                involved |= {u.id for u in before.units.values() if u.name in decl.attackers}
        for uid in changed_ids(before, after):     # an unchanged unit neither flips nor leaves
            old, new = before.units[uid], after.units.get(uid)
            if new is not None and old.kind == "dummy" and new.level != old.level and uid not in involved \
                    and old.hex is not None and new.hex is not None:
                entered = {n.hex for o, n in moved if o.side != old.side} | self.entered_before
                events.append(DummyFlip(index, old, new.level, entered=old.hex in entered, when=self.when()))
            if old.kind == "dummy" and old.hex is not None and (new is None or new.hex is None) \
                    and uid not in involved:                       # a dummy left the map (FW-06)
                entered = {n.hex for o, n in moved if o.side != old.side} | self.entered_before
                events.append(DummyFlip(index, old, None, entered=old.hex in entered, removed=True,
                                         when=self.when()))
            if new is not None and old.hidden and not new.hidden and uid not in involved:
                events.append(Reveal(index, old, new.level, when=self.when()))

        # a move elsewhere, a new declaration or a new phase closes the open combat
        advanced_ids: set[str] = set()
        if self.pending is not None:
            advancing = self.pending.note_advances(moved, self._neighbours(self.pending.target))
            advanced_ids = {o.id for o in advancing}
            # an air marker flown to the target (10.1.3: committed after the declaration) or back
            # to its box is no move of another unit: the combat stays open
            foreign = [o for o, _ in moved if o not in advancing and o.kind != "air"]
            self._record_losses(before, after, index)
            if not declarations:
                rolls = self.pending.note_rolls(rolls, index)
            if foreign or declarations:
                events.append(self._close(index))
        moved = [(o, n) for o, n in moved if o.id not in advanced_ids]   # advances are not movement
        # steps gained on the map (replacement 7.3.3, consolidation 2.5) and breakdown units
        # formed (2.4), outside any combat
        in_combat = self._combat_involved(self.pending) if self.pending is not None else set()
        removed = [e.unit for e in changes if isinstance(e, Removed)]
        for uid in in_order(changed_ids(before, after), after.units):     # only a changed unit gains
            old, new = before.units[uid], after.units.get(uid)
            if new is None or old.hex is None or new.hex != old.hex or uid in in_combat:
                continue
            if isinstance(old.steps, int) and isinstance(new.steps, int) and new.steps > old.steps:
                merged = [u.id for u in removed if u.hex == new.hex and u.side == new.side
                          and u.unit_type == "breakdown"] or self.breakdowns_gone.pop(new.hex or "", [])
                events.append(StepGain(index, old, new.steps, consolidated_with=merged, before=before,
                                        after=after, when=self.when()))
        for u in removed:
            if u.unit_type == "breakdown" and u.id not in in_combat:
                self.breakdowns_gone.setdefault(u.hex or "", []).append(u.id)
        # units placed on the map (reinforcements, rebuilt units, event placements)
        for new in (e.unit for e in changes if isinstance(e, Placed)):
            events.append(Appear(index, new, new.hex, before=before, after=after, when=self.when()))
        for old in (e.unit for e in changes if isinstance(e, Removed) and e.after is None):
            if old.kind == "leader":
                self.gone_leaders.add(old.counter or old.name)
        # movement
        movers_side = {o.side for o, _ in moved if o.side}
        if moved and self.phase is not None and not self.phase_bound and len(movers_side) == 1 \
                and (self.pending is None):
            side = next(iter(movers_side))
            carried = self.rolls_since_move      # rolls made before the move that shows the phase
            events += self._set_phase(infer_phase(self.phase, side, "movement"), index, before)
            self.rolls_since_move = carried
        in_movement = self.phase is None or self.phase.segment == "movement"
        if moved and (in_movement or self.phase_bound):
            fm = self.rolls_since_move + rolls
            self.rolls_since_move = []
            for old, new in moved:
                events.append(Move(index, old, new.hex, after_level=new.level,
                                    forced_march_rolls=tuple(fm) if old.kind == "combat" else (),   # a stack's
                                    rolls=tuple(fm), before=before, after=after, when=self.when()))
        elif rolls and (self.phase is None or self.phase.segment != "combat") and self.pending is None:
            self.rolls_since_move.extend(rolls)
        # declarations open a combat
        for decl in declarations:
            if self.pending is not None:
                events.append(self._close(index))
            side = self._declaring_side(decl, before)
            if side is not None and self.phase is not None and not self.phase_bound:
                events += self._set_phase(infer_phase(self.phase, side, "combat"), index, before)
            self.pending = OpenCombat(index, self.when(), decl, side, before,
                                      roll=rolls[0] if rolls else None, phase=self.phase,
                                      roll_step=index if rolls else None,
                                      rolls=[(r, index) for r in rolls[:1]],
                                      phase_bound=self.phase_bound)
            rolls = rolls[1:]
            self._record_losses(before, after, index)
        for uid in (before.events.keys() | after.events.keys() if before.events is not after.events else ()):
            # event markers (checks/events.py)
            old_ev, new_ev = before.events.get(uid), after.events.get(uid)
            if old_ev is None or new_ev is None or (old_ev.hex, old_ev.box) != (new_ev.hex, new_ev.box):
                events.append(EventMarker(index, uid, old_ev, new_ev, before=before, after=after,
                                           when=self.when()))
        self.control = dict(after.control)
        self.entered_before = {n.hex for _o, n in moved if n.hex is not None}
        return events

    # -- helpers -------------------------------------------------------------------------------
    def when(self) -> str | None:
        return self.phase.when() if self.phase is not None else None

    def _set_phase(self, new: Phase, index: int, before: GameState) -> list[Event]:
        old = self.phase
        if old is not None and (old.turn, old.key) == (new.turn, new.key):
            return []
        events = []
        if self.pending is not None:
            events.append(self._close(index))
        self.phase = new
        self.rolls_since_move = []
        self.breakdowns_gone = {}
        events.append(PhaseTurned(index, old, new, self.phase_bound, state=before,
                                   shown=self._after if self.phase_bound else None))
        return events

    def _declaring_side(self, decl: AttackDeclaration, state: GameState) -> str | None:
        if decl.attackers:
            sides = {u.side for u in state.units.values() if u.name in decl.attackers}
            if len(sides) == 1:
                return next(iter(sides))
        if self.phase is not None and self.phase.phasing is not None:
            return self.phase.phasing
        return None

    def _combat_involved(self, pending: OpenCombat) -> set[str]:
        attackers, defenders = self._sides(pending)
        return {u.id for u in attackers} | {u.id for u in defenders}

    def _sides(self, pending: OpenCombat) -> tuple[list[Unit], list[Unit]]:
        state, decl = pending.before, pending.declaration
        defenders = [u for u in state.at(decl.target) if u.side != pending.side
                     and u.kind not in ("air", "marker") and u.counter != "mk-gassed"]
        attackers: list[Unit] = []
        if decl.attackers is not None:
            around = set(self._neighbours(decl.target))
            for name in dict.fromkeys(decl.attackers):
                same = [u for u in state.units.values() if u.name == name and u.side == pending.side]
                if len(same) > 1:       # several pieces share the name: those next to the target
                    same = [u for u in same if u.hex in around]
                attackers.extend(u for u in same if u not in attackers)
        return attackers, defenders

    def _neighbours(self, hex_: str) -> tuple[str, ...]:
        from vlog.hexes import LAYOUTS

        layout = LAYOUTS["lion-of-judah"]
        return tuple(layout.name(h) for h in layout.neighbours_on_map(layout.parse(hex_)))

    def _record_losses(self, before: GameState, after: GameState, index: int | None = None) -> None:
        """Steps each unit of the open combat lost in this step (`OpenCombat.record`); a defender
        on its ?-side or a dummy on its front side that changes level is revealed (CB-05, CB-38)."""
        if self.pending is not None:
            self.pending.record(before.units, after.units, *self._sides(self.pending), index,
                                hidden=lambda u: u.hidden or (u.kind == "dummy" and u.level == "front"))

    def _close(self, index: int) -> Combat:
        pending = self.pending
        assert pending is not None
        self.pending = None
        attackers, defenders = self._sides(pending)
        return Combat(pending.step, pending, tuple(attackers), tuple(defenders), when=pending.when, closed_at=index)

    def finish(self) -> list[Event]:
        """Events still open at the end of the log (the last combat)."""
        if self.pending is None:
            return []
        return [self._close(self.pending.step)]


def state_of(position: "Position", data: "GameData", scenario: str | None, cache: UnitCache | None = None,
             *, control: Mapping[str, str] | None = None) -> GameState:
    """The game state of a position: its units read from the table once (the next step's
    position before is this step's after), in a fresh GameState each call (checks may add
    flags or control to the one they are given). The units and event markers are the
    position's own dicts, shared by every state of it: no check changes them, and sharing
    lets `changed_ids` answer from its last answer."""
    read = _read(position, data, scenario, cache)
    return GameState(read.units, scenario, control=dict(control or {}), events=read.events)


def units_of(position: "Position", data: "GameData", scenario: str | None,
             cache: UnitCache | None = None) -> dict[str, Unit]:
    """The units of a position (`state_of`'s, without a state made around them)."""
    return _read(position, data, scenario, cache).units


def _read(position: "Position", data: "GameData", scenario: str | None, cache: UnitCache | None) -> GameState:
    return position.derived(("lion-of-judah/state", scenario),
                            lambda table: build_state(table, data, scenario=scenario, cache=cache))


def update_control(state: GameState) -> None:
    """3.2: a side controls every hex where it has a unit with a combat factor (in place);
    PB 14.6.5 (TS-07): a dummy not revealed as a true Dummy controls too; (40) TS-06 (3.2
    IMPORTANT, PB 14.6.4.1): guerrillas control a hex only alone in it; in a hex they share
    with other units, those units control it."""
    known = _CONTROLLED
    if known and known[0] is state.units:
        controlled = known[1]
    else:
        controlled = {}
        guerrilla_only: dict[str, str] = {}
        for unit in state.units.values():
            if unit.hex is not None and unit.side is not None and (
                    unit.has_combat_factor or (unit.kind == "dummy" and not unit.defenseless)):
                if unit.unit_class == "guerrilla":
                    guerrilla_only.setdefault(unit.hex, unit.side)
                else:
                    controlled[unit.hex] = unit.side
                    guerrilla_only[unit.hex] = ""
        for hex_, side in guerrilla_only.items():
            if side:
                controlled[hex_] = side
        _CONTROLLED[:] = [state.units, controlled]
    state.control.update(controlled)


_CONTROLLED: list = []
"""[a state's units, the hexes they control]: the units of a step that changed none are the
same dict as the step before's (`build_state`), and control is worked out again only when they
change (writing the same hexes in the same order as walking them)."""


def units_named(state: GameState, names: Sequence[str] | None, side: str | None) -> tuple[Unit, ...] | None:
    if names is None:
        return None
    return tuple(u for u in state.units.values() if u.name in names and (side is None or u.side == side))


def declared(events: Sequence[Event], grammar: str) -> list[Any]:
    """What the chat declarations of grammar `grammar` among `events` say, in order."""
    return [e.declaration for e in events if isinstance(e, Declared) and e.grammar == grammar]
