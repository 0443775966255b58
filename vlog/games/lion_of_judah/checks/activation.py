"""(35) The Ethiopian army's activations and their consequences (PB 13.5.4, 13.6.2-13.6.3).

In the 1935-36 scenario the Ethiopian player moves and fights one leader's army at a time:
designate a leader (or a faction whose leader is dead), give the Italian a chance to bribe,
roll on the activation table (not for the Negus nor in a Great Offensive), move and attack with
the units that result allows, then designate the next (PB 13.6.2).

How a log shows it. VASSAL logs no activation of its own, so players say it in chat, as the
attack declarations do (``attack 1605 with ...``, interpret.py):

* ``activate LEADER`` -- the leader by the name the module gives its piece (``activate Ras
  Kassa``), ``activate Negus``, or a faction (``activate Tigray``) whose leader is dead. The
  first die roll logged after it is the activation roll (not a forced-march roll);
* ``bribe LEADER`` -- the Italian player's bribe (PB 13.6.2.1), before that roll;
* ``great offensive north`` / ``great offensive southern front`` (PB 13.6.2.4);
* ``attrition HEX`` -- the attrition roll for the Ethiopian stack in HEX (PB 13.6.3), the first
  die roll after it;
* ``negus availability`` -- in a MAP from turn 4, the Negus availability roll (PB 13.6.2.2), the
  first die roll after it.

A segment with no ``activate`` line is judged from the order in which factions act (a move or
an attack of a faction's unit is part of that faction's activation); once one is declared in a
segment, every faction acting in it must have been declared.

What is judged on the position at the start of the Ethiopian segment (PB 13.6.2: "checked at
the start of the movement segment (only)"):

* ET-02: a unit moving more than one hex that was not stacked with or adjacent to its leader,
  nor (activated by the Negus) to the Negus; ET-09: the same when its leader is dead (not on the
  map), and the Imperial Guard once the Negus is dead;
* ET-01: a faction acting outside its own activation (after another faction's began, or while
  another is declared), a leader activated twice in a turn; CB-30 the same for an attack;
* CB-31: an attack by a unit that may not attack (any reason above, or its activation's result);
* ET-04 / ET-03: moves beyond what the roll's result allows (No Activation: one hex; half:
  half the eligible units, 0.5 up) -- PROVEN with a table that gives the result, POSSIBLE naming
  the table cell otherwise (the published table is on the player aid card);
* ET-05: a bribe announced after the roll; ET-06: the Negus activated before turn 4, or later
  with no Success on the availability rolls declared in every MAP since turn 4, while no
  Italian-controlled unit has come within two hexes of Addis Ababa (1213); ET-07: a KZ battalion
  activated twice in a turn; ET-08: more than six units of other factions activated by the Negus;
  ET-10: a Great Offensive outside turns 2-5, a second one, or not the segment's first action;
* ET-11 (End of Turn Phase): Ethiopian units removed from a stack of fewer than six, more than
  one from a stack, or against the declared attrition roll; FW-05: an Ethiopian unit flipped
  from its ?-side in the End of Turn Phase (attrition losses are removed uninspected).

The leader's flip to its "activated" side is not required: the counters' data give leaders one
side only.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.activation_rules import (FRONTS, NEGUS, Declaration, activation_level,
                                                             availability, faction_name, faction_of)
from vlog.games.lion_of_judah.checks.common import REGISTRY, GameLedger, finding
from vlog.games.lion_of_judah.step_events import (ActivationDeclaration, ActivationRoll, EthiopianRemoval,
                                                  PhaseTurned)
from vlog.games.lion_of_judah.state import GameState, Unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.steps import StepView

__all__ = ["ADDIS_ABABA", "ActivationJudge"]

ADDIS_ABABA = "1213"
GREAT_OFFENSIVE_TURNS = (2, 5)
"""PB 13.6.2.4: once per game, turns 2-5 inclusive."""
NEGUS_FIRST_TURN = 4
"""PB 13.6.2.2 and the Extended Sequence of Play: no Negus activation before turn 4 (the
availability roll starts in turn 4's MAP; the body's "turn 5 or later" is not taken as proven)."""


def _table_property(board: Board, table_id: str, key: str) -> Any:
    """A table's property value (None when the data lack it)."""
    props = board.data.table(table_id).get("properties", {})
    return props[key].value if key in props else None


@dataclass(slots=True)
class _Activation:
    """One activation in the Ethiopian segment: a faction, the Negus, or a Great Offensive."""

    key: str                          # faction key, NEGUS, or "offensive:<front>"
    step: int
    declared: bool
    roll: int | None = None
    bribed: bool = False
    awaiting_roll: bool = False
    level: str | Unknown | None = None
    modified: int | Unknown | None = None
    users: set[str] = field(default_factory=set)
    """Units that moved more than one hex or attacked under it."""
    others: set[str] = field(default_factory=set)
    """(Negus) units of other factions it activated."""

    def covers(self, faction: str | None) -> bool:
        if self.key.startswith("offensive:"):
            return faction == NEGUS or faction in FRONTS[self.key.split(":", 1)[1]]
        return self.key == faction


@dataclass(slots=True)
class _Segment:
    turn: int
    start: GameState
    declared: bool = False
    current: _Activation | None = None
    done: dict[str, int] = field(default_factory=dict)
    """Faction or activation key -> the step its activation began (ended once another began)."""
    acted: bool = False
    hexes_moved: dict[str, int] = field(default_factory=dict)
    reported: set[str] = field(default_factory=set)
    start_seen: bool = True
    """False when the log begins inside the segment: who stood next to whom at its start is
    not known, so leader adjacency is not judged."""


class ActivationJudge(GameLedger):
    """Keeps the Ethiopian segment's activations and judges each move, attack and declaration.

    The rules engine calls `phase` at each phase change, `declaration`/`roll` for the chat the
    interpreter reads, `move` for each move, `attack` for each combat, `removal` and `reveal`
    in the End of Turn Phase."""

    def __init__(self, board: Board, scenario: str | None = None):
        self.board = board
        self.scenario = scenario
        self.segment: _Segment | None = None
        self.offensive_step: int | None = None
        self.negus_threatened = False
        self.negus_dead = False
        self.kz_used: dict[str, tuple[int, str]] = {}
        """KZ unit id -> (turn, activation key) it was activated under."""
        self.activated_in_turn: dict[tuple[int, str], int] = {}
        self.end_phase: tuple[int, GameState] | None = None
        self.attrition: dict[str, tuple[int, int | None]] = {}
        """Hex -> (step declared, roll) of the End of Turn Phase's attrition declarations."""
        self.attrition_pending: str | None = None
        self.removed_from: dict[str, list[tuple[int, str]]] = {}
        self._negus_was_seen = False
        self.negus_rolls: dict[int, str | Unknown] = {}
        """Turn -> the result of the Negus availability roll declared in its MAP."""
        self.availability_pending: int | None = None
        self.coordinated: set[tuple[int, str]] = set()
        """(turn, faction) under Event B6 Coordination: a full activation without the roll."""

    # -- where we are --------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self.scenario == "1935-36"

    def phase(self, change: PhaseTurned, view: "StepView") -> list[Finding]:
        return self.phase_change(change.old, change.new, change.state, bound=change.bound, step=change.step)

    def phase_change(self, old: Any, new: Any, state: GameState, *, bound: bool,
                     step: int) -> list[Finding]:
        """A new phase: entering the Ethiopian segment snapshots the position; leaving the End
        of Turn Phase closes its attrition."""
        out: list[Finding] = []
        if not self.active:
            return out
        if old is not None and old.key == "end" and self.end_phase is not None:
            out += self._close_attrition(step, old.when())
        self.end_phase = None
        self.watch(state)
        if new.phasing == "ethiopian":
            if self.segment is None or self.segment.turn != new.turn:
                if self._negus_was_seen and not any(u.counter == "et-negus" and u.hex is not None
                                                    for u in state.units.values()):
                    self.negus_dead = True          # PB 13.6.2.2: the Imperial Guard is stuck
                self.segment = _Segment(new.turn, state, start_seen=old is not None)
        else:
            self.segment = None
        if new.key == "end" and bound:
            self.end_phase = (new.turn, state)
            self.attrition, self.attrition_pending, self.removed_from = {}, None, {}
        return out

    def watch(self, state: GameState) -> None:
        """Every position the engine sees: whether the Negus is on the map, Italian units near
        Addis Ababa (PB 13.6.2.2's automatic availability)."""
        if any(u.counter == "et-negus" and u.hex is not None for u in state.units.values()):
            self._negus_was_seen = True
        self._watch_addis(state)

    def _watch_addis(self, state: GameState) -> None:
        if self.negus_threatened:
            return
        for unit in state.units.values():
            if unit.side == "italian" and unit.hex is not None and unit.kind not in ("air",) \
                    and self.board.distance(unit.hex, ADDIS_ABABA) <= 2:
                self.negus_threatened = True
                return

    def _ethiopian_segment(self, phase: Any) -> _Segment | None:
        if not self.active or phase is None or phase.phasing != "ethiopian":
            return None
        return self.segment

    # -- declarations --------------------------------------------------------------------------
    def declaration(self, decl: Declaration, phase: Any, *, step: int, when: str | None) -> list[Finding]:
        if not self.active:
            return []
        if decl.kind == "negus-availability":
            if phase is not None and phase.key == "map":
                self.availability_pending = phase.turn
            return []
        if decl.kind == "attrition":
            if self.end_phase is not None:
                self.attrition[decl.subject] = (step, None)
                self.attrition_pending = decl.subject
            return []
        seg = self._ethiopian_segment(phase)
        if seg is None:
            return []
        if decl.kind == "bribe":
            return self._bribe(seg, decl, step=step, when=when)
        if decl.kind == "great-offensive":
            return self._offensive(seg, decl, step=step, when=when)
        return self._activate(seg, decl, step=step, when=when)

    def _who(self, seg: _Segment, name: str) -> str | None:
        """The faction a designation names: a leader's piece or counter name, "Negus", a faction."""
        wanted = name.strip().casefold()
        if wanted in ("negus", "the negus"):
            return NEGUS
        for unit in seg.start.units.values():
            if unit.kind == "leader" and unit.name.casefold() == wanted:
                return faction_of(unit)
        for unit in seg.start.units.values():
            key = faction_of(unit)
            if key and key != NEGUS and wanted in ((unit.faction or "").casefold(),
                                                    key.removeprefix("ethiopian-").replace("-", " ")):
                return key
        return None

    @REGISTRY.reports("ET-01")
    def _activate(self, seg: _Segment, decl: Declaration, *, step: int, when: str | None) -> list[Finding]:
        out: list[Finding] = []
        key = self._who(seg, decl.subject)
        if key is None:
            return out          # names no leader or faction on the map: not a designation
        seg.declared = True
        self._end_current(seg)
        first = self.activated_in_turn.get((seg.turn, key))
        if first is not None:
            out.append(finding("ET-01", Ruling.PROVEN, step=step, when=when, subjects=(decl.subject,),
                               message=f"{decl.subject} was activated a second time on turn {seg.turn} "
                                       f"(first at step {first}); each leader activates once a turn",
                               evidence={"faction": key, "first_activation_step": first,
                                         "turn": seg.turn}))
        self.activated_in_turn.setdefault((seg.turn, key), step)
        act = _Activation(key, step, True)
        if key == NEGUS:
            act.level = "full"          # PB 13.6.2: the Negus never rolls
            out += self._negus_available(seg, decl.subject, step=step, when=when)
        elif self._leader(seg, key) is None:
            act.level = "no"            # PB 13.6.2 (errata): a dead leader's faction: No Activation
        elif (seg.turn, key) in self.coordinated:
            act.level = "full"          # Event B6 Coordination: full activation, no roll
        else:
            act.awaiting_roll = True
        seg.current = act
        seg.acted = True
        return out

    @REGISTRY.reports("ET-06")
    def _negus_available(self, seg: _Segment, who: str, *, step: int, when: str | None) -> list[Finding]:
        """ET-06: the Negus' army may not be activated before turn 4 unless an Italian unit has
        come within two hexes of Addis Ababa; from turn 4 only after a Success on the availability
        roll of a MAP (judged when the log declares that roll in every MAP from turn 4 on)."""
        if self.negus_threatened:
            return []
        if seg.turn >= NEGUS_FIRST_TURN:
            results = [self.negus_rolls.get(t) for t in range(NEGUS_FIRST_TURN, seg.turn + 1)]
            if any(r is None or r == "success" for r in results):
                return []
            unknown = [d for r in results if isinstance(r, Unknown) for d in r.data]
            return [finding("ET-06", Ruling.POSSIBLE if unknown else Ruling.PROVEN, step=step, when=when,
                            subjects=(who,),
                            message=f"the Negus' army was activated on turn {seg.turn}, though no Negus "
                                    f"availability roll since turn {NEGUS_FIRST_TURN} was a Success",
                            evidence={"turn": seg.turn, "italian_near_addis_ababa": False,
                                      "availability": {t: r if isinstance(r, str) else None for t, r in
                                                       zip(range(NEGUS_FIRST_TURN, seg.turn + 1), results)}},
                            depends_on=unknown)]
        return [finding("ET-06", Ruling.PROVEN, step=step, when=when, subjects=(who,),
                        message=f"the Negus' army was activated on turn {seg.turn}; it is not available "
                                f"before turn {NEGUS_FIRST_TURN} unless an Italian-controlled unit comes "
                                f"within two hexes of {hex_label(ADDIS_ABABA, self.board)}",
                        evidence={"turn": seg.turn, "italian_near_addis_ababa": False})]

    @REGISTRY.reports("ET-05")
    def _bribe(self, seg: _Segment, decl: Declaration, *, step: int, when: str | None) -> list[Finding]:
        """ET-05: a bribe is announced before the activation roll it modifies."""
        act = seg.current
        key = self._who(seg, decl.subject)
        if act is None or key is None or act.key != key:
            return []
        if act.roll is not None:
            return [finding("ET-05", Ruling.PROVEN, step=step, when=when, subjects=(decl.subject,),
                            message=f"the bribe of {decl.subject} was announced after the activation "
                                    f"roll ({act.roll}, step {act.step}); it must come before the roll",
                            evidence={"faction": key, "roll": act.roll, "activation_step": act.step})]
        if act.awaiting_roll:
            act.bribed = True
        return []

    @REGISTRY.reports("ET-10")
    def _offensive(self, seg: _Segment, decl: Declaration, *, step: int, when: str | None) -> list[Finding]:
        """ET-10: once per game, turns 2-5, the first action of the Ethiopian segment."""
        out: list[Finding] = []
        problems = []
        low, high = GREAT_OFFENSIVE_TURNS
        if not low <= seg.turn <= high:
            problems.append(f"on turn {seg.turn} (only turns {low}-{high})")
        if self.offensive_step is not None:
            problems.append(f"a second time (the first at step {self.offensive_step})")
        if seg.acted:
            problems.append("after the segment's first activation or move (it must be the first action)")
        if problems:
            out.append(finding("ET-10", Ruling.PROVEN, step=step, when=when,
                               subjects=(f"{decl.subject} front",),
                               message="a Great Offensive was declared " + "; ".join(problems),
                               evidence={"turn": seg.turn, "front": decl.subject,
                                         "first_offensive_step": self.offensive_step,
                                         "after_other_actions": seg.acted}))
        if self.offensive_step is None:
            self.offensive_step = step
        seg.declared = True
        self._end_current(seg)
        key = f"offensive:{decl.subject}"
        seg.current = _Activation(key, step, True, level="full")
        for faction in FRONTS[decl.subject]:
            self.activated_in_turn.setdefault((seg.turn, faction), step)
        seg.acted = True
        return out

    def roll(self, value: int, phase: Any, *, step: int, when: str | None) -> list[Finding]:
        """A die roll the interpreter gave to a declaration (activation or attrition)."""
        if not self.active:
            return []
        if self.availability_pending is not None:
            self.negus_rolls[self.availability_pending] = availability(self.board, value)
            self.availability_pending = None
            return []
        if self.end_phase is not None and self.attrition_pending is not None:
            hex_ = self.attrition_pending
            self.attrition[hex_] = (self.attrition[hex_][0], value)
            self.attrition_pending = None
            return []
        seg = self._ethiopian_segment(phase)
        act = seg.current if seg is not None else None
        if seg is None or act is None or not act.awaiting_roll:
            return []
        act.awaiting_roll = False
        act.roll = value
        leader = self._leader(seg, act.key)
        drm: int | Unknown = 0
        if leader is not None and leader.counter == "et-leader-gojjam-imru":
            drm += _table_property(self.board, "ethiopian-activation", "ras_imru_drm") or 0
        if act.bribed:
            bribe = _table_property(self.board, "ethiopian-activation", "bribe_drm")
            drm = Unknown("tables.json ethiopian-activation bribe_drm") if bribe is None else drm + bribe
        act.level, act.modified = activation_level(self.board, value, drm)
        return []

    def needs_roll(self) -> bool:
        """Whether the next die roll is the declared activation's or attrition's."""
        if not self.active:
            return False
        if self.availability_pending is not None or (
                self.end_phase is not None and self.attrition_pending is not None):
            return True
        seg = self.segment
        return bool(seg is not None and seg.current is not None and seg.current.awaiting_roll)

    # -- the units -----------------------------------------------------------------------------
    def _leader(self, seg: _Segment, key: str) -> Unit | None:
        """The faction's leader on the map at the segment's start (None: dead or absent)."""
        for unit in seg.start.units.values():
            if unit.kind == "leader" and unit.hex is not None and faction_of(unit) == key \
                    and (key != NEGUS or unit.counter == "et-negus"):
                return unit
        return None

    def _near(self, seg: _Segment, unit: Unit, other: Unit | None) -> bool:
        """Stacked with or adjacent to `other` at the segment's start."""
        start = seg.start.units.get(unit.id)
        if other is None or start is None or start.hex is None or other.hex is None:
            return False
        return self.board.distance(start.hex, other.hex) <= 1

    def _end_current(self, seg: _Segment) -> None:
        if seg.current is not None:
            seg.done.setdefault(seg.current.key, seg.current.step)
            seg.current = None

    @REGISTRY.reports("CB-30", "ET-01")
    def _acting(self, seg: _Segment, unit: Unit, *, step: int, what: str,
                when: str | None) -> tuple[_Activation | None, list[Finding], str | None]:
        """The activation a unit's move or attack belongs to, the findings of acting outside one
        (ET-01 / CB-30), and why it may not use an activation (None when it may)."""
        out: list[Finding] = []
        faction = faction_of(unit)
        negus = self._leader(seg, NEGUS)
        near_negus = self._near(seg, unit, negus) and (seg.turn >= NEGUS_FIRST_TURN or self.negus_threatened)
        hosts = [self._leader(seg, f) for f in self._factions(seg)] if unit.unit_class == "imperial-guard" else []
        act = seg.current
        order_id = "CB-30" if what == "attack" else "ET-01"

        def fits(a: _Activation | None) -> bool:
            if a is None:
                return False
            if a.covers(faction):
                return True
            if a.key == NEGUS and (near_negus or unit.kind == "leader" and unit.counter == "et-negus"):
                return True
            return unit.unit_class == "imperial-guard" and any(
                h is not None and a.covers(faction_of(h)) and self._near(seg, unit, h) for h in hosts)

        if not fits(act):
            if seg.declared:
                current = f"in the activation of {faction_name(act.key)} (step {act.step})" \
                    if act is not None and not act.key.startswith("offensive:") \
                    else ("in the Great Offensive" if act is not None else "before any activation was declared")
                out.append(finding(order_id, Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                                   message=f"{unit.name} ({faction_name(faction)}) {_verb(what)} {current}; "
                                           "a faction moves and fights only in its own activation",
                                   evidence={"faction": faction, "current": act.key if act else None,
                                             "declared_at": act.step if act else None}))
                return None, out, "not-activated"
            # no declaration in this segment: the faction's first action begins its activation
            candidates = [faction] if faction != NEGUS else []
            if near_negus or (unit.counter == "et-negus"):
                candidates.append(NEGUS)
            if faction == NEGUS and unit.unit_class == "imperial-guard":
                candidates += [faction_of(h) for h in hosts if h is not None and self._near(seg, unit, h)]
            fresh = [c for c in candidates if c is not None and c not in seg.done
                     and (act is None or c != act.key)]
            if not fresh:
                began = act.step if act is not None else None
                previous = min((seg.done[c] for c in candidates if c in seg.done), default=None)
                out.append(finding(order_id, Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                                   message=f"{unit.name} ({faction_name(faction)}) {_verb(what)} after "
                                           f"its activation (begun at step {previous}) had ended: "
                                           f"another faction acted since (step {began}); each tribe "
                                           "completes its movement and combat before the next",
                                   evidence={"faction": faction, "activation_step": previous,
                                             "other_activation_step": began}))
                return None, out, "not-activated"
            self._end_current(seg)
            key = fresh[0] if fresh[0] == faction or NEGUS not in fresh else NEGUS
            if key == NEGUS and unit.counter == "et-negus":
                key = NEGUS
            act = seg.current = _Activation(key, step, False, level=None)
            self.activated_in_turn.setdefault((seg.turn, key), step)
            seg.acted = True
        assert act is not None
        seg.acted = True
        if unit.kind == "leader":
            return act, out, None     # PB 13.6.2 step 3: the leader always has its full MF
        act.awaiting_roll = False      # its units act: no activation roll comes any more
        why = self._why_not(seg, act, unit, faction, near_negus, hosts)
        return act, out, why

    def _factions(self, seg: _Segment) -> list[str]:
        return sorted({f for f in (faction_of(u) for u in seg.start.units.values()) if f and f != NEGUS})

    def _why_not(self, seg: _Segment, act: _Activation, unit: Unit, faction: str | None,
                 near_negus: bool, hosts: Sequence[Unit | None]) -> str | None:
        """Why `unit` may not move more than one hex or attack under `act` (None: it may)."""
        why = self._why_not_at_start(seg, act, unit, faction, near_negus, hosts)
        if why in ("no-leader", "not-near-negus") and not seg.start_seen:
            return None
        return why

    def _why_not_at_start(self, seg: _Segment, act: _Activation, unit: Unit, faction: str | None,
                          near_negus: bool, hosts: Sequence[Unit | None]) -> str | None:
        if unit.unit_class == "imperial-guard" and self.negus_dead:
            return "negus-dead"
        if act.key.startswith("offensive:") and faction == NEGUS and (
                near_negus or any(h is not None and self._near(seg, unit, h) for h in hosts)):
            return None     # PB 13.6.2.4: Negus units may coordinate with the offensive's tribes
        if act.key == NEGUS:
            if faction != NEGUS and not near_negus:
                return "not-near-negus"
            if faction == NEGUS and not self._near(seg, unit, self._leader(seg, NEGUS)):
                return "no-leader"
            return None
        own = faction
        if unit.unit_class == "imperial-guard":
            hosted = [h for h in hosts if h is not None and act.covers(faction_of(h)) and self._near(seg, unit, h)]
            return None if hosted else "no-leader"
        leader = self._leader(seg, own) if own else None
        if leader is None:
            return "dead-leader"
        if not self._near(seg, unit, leader):
            return "no-leader"
        return None

    @REGISTRY.reports("CB-31", "ET-03", "ET-04")
    def _level_finding(self, seg: _Segment, act: _Activation, unit: Unit, what: str, *,
                       step: int, when: str | None) -> list[Finding]:
        """ET-04 / ET-03 (moves) and CB-31 (attacks) from the activation's result."""
        if act.key == NEGUS or act.key.startswith("offensive:") or act.roll is None:
            return []
        level = act.level
        check = "CB-31" if what == "attack" else "ET-04"
        evidence = {"faction": act.key, "roll": act.roll, "bribed": act.bribed,
                    "modified_roll": act.modified if isinstance(act.modified, int) else None,
                    "activation_step": act.step}
        if isinstance(level, Unknown):
            return [finding(check, Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                            message=f"{unit.name} {_verb(what)} under an activation rolled {act.roll}, "
                                    "whose result may be No Activation",
                            evidence=evidence, depends_on=level.data)]
        if level == "no":
            return [finding(check, Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                            message=f"{unit.name} {_verb(what)} under No Activation (roll {act.roll}, "
                                    f"modified {act.modified}): its units move one hex and do not attack",
                            evidence={**evidence, "result": level})]
        if level == "half":
            eligible = [u for u in seg.start.units.values() if u.kind != "leader" and u.hex is not None
                        and faction_of(u) == act.key and self._near(seg, u, self._leader(seg, act.key))]
            allowed = math.ceil(len(eligible) / 2)
            if len(act.users) > allowed:
                return [finding("CB-31" if what == "attack" else "ET-03", Ruling.PROVEN, step=step,
                                when=when, subjects=(unit.name,),
                                message=f"{unit.name} {_verb(what)} as unit {len(act.users)} of a half "
                                        f"activation (roll {act.roll}): {allowed} of the "
                                        f"{len(eligible)} eligible units may move and attack",
                                evidence={**evidence, "result": level, "eligible": len(eligible),
                                          "allowed": allowed, "units_used": len(act.users)})]
        return []

    def move(self, unit: Unit, frm: str, to: str, phase: Any, *, step: int,
             when: str | None) -> list[Finding]:
        """A move of one drag: its order (ET-01) and whether the unit may go past one hex."""
        if self.active and unit.side == "italian" and unit.kind != "air" \
                and self.board.distance(to, ADDIS_ABABA) <= 2:
            self.negus_threatened = True        # PB 13.6.2.2: the Negus is available at once
        seg = self._ethiopian_segment(phase)
        if seg is None or unit.side != "ethiopian" or faction_of(unit) is None or unit.id in seg.reported:
            return []
        moved = seg.hexes_moved.get(unit.id, 0) + self.board.distance(frm, to)
        seg.hexes_moved[unit.id] = moved
        act, out, why = self._acting(seg, unit, step=step, what="move", when=when)
        if act is not None and moved > 1 and unit.counter == "et-negus" and not act.declared:
            out += self._negus_available(seg, unit.name, step=step, when=when)
        elif act is not None and moved > 1 and unit.kind != "leader":
            if why is None:
                out += self._use(seg, act, unit, step=step, when=when)
                out += self._level_finding(seg, act, unit, "move", step=step, when=when)
            else:
                out += self._limit_finding(seg, unit, why, "move", moved, step=step, when=when)
        if out:
            seg.reported.add(unit.id)
        return out

    def attack(self, attackers: Sequence[Unit], target: str, phase: Any, *, step: int,
               when: str | None) -> list[Finding]:
        """An Ethiopian attack: CB-30 (its activation's turn) and CB-31 (who may attack)."""
        seg = self._ethiopian_segment(phase)
        out: list[Finding] = []
        if seg is None:
            return out
        ours = [u for u in attackers if u.side == "ethiopian" and faction_of(u) is not None
                and u.kind != "leader"]
        tribes = {faction_of(u) for u in ours} - {NEGUS}
        if len(tribes) > 1:
            # several tribes in one combat is CB-29's finding: judge the attack as the current
            # activation's when one of them is active, else as the first tribe's
            act = seg.current
            lead = next((f for f in tribes if act is not None and act.covers(f)), None)
            if lead is None:
                lead = faction_of(next(u for u in ours if faction_of(u) != NEGUS))
            ours = [u for u in ours if faction_of(u) in (lead, NEGUS)]
        for unit in ours:
            act, found, why = self._acting(seg, unit, step=step, what="attack", when=when)
            out += found
            if act is None:
                continue
            if why is None:
                if unit.id not in act.users:
                    out += self._use(seg, act, unit, step=step, when=when)
                    out += self._level_finding(seg, act, unit, "attack", step=step, when=when)
            else:
                out += self._limit_finding(seg, unit, why, "attack", 0, step=step, when=when,
                                           target=target)
        return out

    @REGISTRY.reports("ET-07", "ET-08")
    def _use(self, seg: _Segment, act: _Activation, unit: Unit, *, step: int, when: str | None) -> list[Finding]:
        """The unit uses the activation: the Negus' six others (ET-08), the KZ once a turn (ET-07)."""
        out: list[Finding] = []
        act.users.add(unit.id)
        faction = faction_of(unit)
        if act.key == NEGUS and faction != NEGUS:
            act.others.add(unit.id)
            if len(act.others) > 6:
                out.append(finding("ET-08", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                                   message=f"{unit.name} is the {len(act.others)}th unit of another faction "
                                           "activated by the Negus; he activates up to six",
                                   evidence={"others": len(act.others), "limit": 6}))
        if unit.unit_class == "imperial-guard":
            first = self.kz_used.get(unit.id)
            if first is not None and first[0] == seg.turn and first[1] != act.key:
                out.append(finding("ET-07", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                                   message=f"{unit.name} was activated a second time on turn {seg.turn} "
                                           f"(by {faction_name(first[1])} before, now by "
                                           f"{faction_name(act.key)}); a KZ battalion activates once a turn",
                                   evidence={"turn": seg.turn, "first": first[1], "second": act.key}))
            else:
                self.kz_used[unit.id] = (seg.turn, act.key)
        return out

    @REGISTRY.reports("CB-31", "ET-02", "ET-08", "ET-09")
    def _limit_finding(self, seg: _Segment, unit: Unit, why: str, what: str, moved: int, *,
                       step: int, when: str | None, target: str | None = None) -> list[Finding]:
        start = seg.start.units.get(unit.id)
        where = hex_label(start.hex, self.board) if start is not None and start.hex else "?"
        faction = faction_of(unit)
        leader = self._leader(seg, faction) if faction and faction != NEGUS else None
        led_by = f"its leader {leader.name} at {hex_label(leader.hex, self.board)}" \
            if leader is not None and leader.hex else "its leader"
        reason = {
            "no-leader": f"it began the segment at {where}, neither stacked with nor adjacent to "
                         f"{led_by}" + (" nor to the Negus" if faction != NEGUS else ""),
            "dead-leader": f"the leader of {faction_name(faction)} is dead (not on the map) and the "
                           "Negus did not activate it",
            "negus-dead": "the Negus is dead: the Imperial Guard moves one hex and does not attack",
            "not-near-negus": f"the Negus activates only units stacked with or adjacent to him; "
                              f"it began the segment at {where}",
        }.get(why, why)
        ids = {"no-leader": "ET-02", "not-near-negus": "ET-08", "dead-leader": "ET-09",
               "negus-dead": "ET-09"}
        check = "CB-31" if what == "attack" else ids.get(why, "ET-02")
        action = f"attacked {hex_label(target, self.board)}" if what == "attack" and target \
            else f"moved {moved} hexes"
        return [finding(check, Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} {action}; {reason}",
                        evidence={"reason": why, "faction": faction, "start_hex": start.hex if start else None,
                                  "hexes_moved": moved if what == "move" else None})]

    @REGISTRY.reports("ET-12")
    def judge_coordination(self, marker: Unit | None, after: GameState, *, step: int,
                           when: str | None) -> list[Finding]:
        """ET-12 (Event B6): Coordination placed on a leader whose activation roll is logged
        already; it is placed before the die is rolled (its activation is full without one)."""
        if marker is None or marker.hex is None or marker.counter != "ev-b6":
            return []
        return [finding("ET-12", Ruling.PROVEN, step=step, when=when, subjects=(marker.name, leader.name),
                        message=f"{marker.name} was placed on {leader.name} after its "
                                "activation roll; it is placed before the die is rolled",
                        evidence={"hex": marker.hex, "leader": leader.name})
                for leader in after.at(marker.hex) if leader.kind == "leader" and self.coordinate(leader) == "rolled"]

    def coordinate(self, leader: Unit) -> str:
        """Event B6 Coordination placed on `leader` (ET-12, judged by the events check): "rolled"
        when that leader's activation roll is already logged (too late to place it); otherwise
        its activation this turn is full without a roll ("full"), or "unknown" outside the
        Ethiopian segment."""
        seg = self.segment
        key = faction_of(leader)
        if not self.active or seg is None or key is None:
            return "unknown"
        act = seg.current
        if act is not None and act.key == key:
            if act.roll is not None:
                return "rolled"
            act.awaiting_roll, act.level = False, "full"
        self.coordinated.add((seg.turn, key))
        return "full"

    def in_offensive(self, phase: Any, attackers: Sequence[Unit]) -> bool:
        """Whether an attack is one of the Great Offensive's (CB-32): declared in it, by units of
        the offensive's front (or Negus units)."""
        seg = self._ethiopian_segment(phase)
        act = seg.current if seg is not None else None
        if act is None or not act.key.startswith("offensive:"):
            return False
        ours = [u for u in attackers if u.side == "ethiopian"]
        return bool(ours) and all(act.covers(faction_of(u)) for u in ours)

    def check_event(self, event: Any, phase: Any) -> list[Finding]:
        """The events `ActivationReader` reads: declarations, their rolls, removals."""
        if isinstance(event, ActivationDeclaration):
            return self.declaration(event.declaration, phase, step=event.step, when=event.when)
        if isinstance(event, ActivationRoll):
            return self.roll(event.roll, phase, step=event.step, when=event.when)
        if isinstance(event, EthiopianRemoval):
            return self.removal(event.unit, step=event.step, when=event.when)
        return []

    # -- End of Turn Phase: attrition ---------------------------------------------------------
    @REGISTRY.reports("FW-05")
    def reveal(self, unit: Unit, phase: Any, *, step: int, when: str | None) -> list[Finding] | None:
        """FW-05 for an Ethiopian unit flipped from its ?-side in the End of Turn Phase (the
        only Ethiopian losses there are attrition's, removed uninspected); None otherwise."""
        if not self.active or self.end_phase is None or unit.side != "ethiopian":
            return None
        return [finding("FW-05", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} was flipped from its ?-side in the End of Turn Phase; "
                                "units removed for attrition are removed without being inspected",
                        evidence={"hex": unit.hex, "level": unit.level})]

    @REGISTRY.reports("ET-11")
    def removal(self, unit: Unit, *, step: int, when: str | None) -> list[Finding]:
        """ET-11: an Ethiopian unit taken off the map in the End of Turn Phase is an attrition loss."""
        if not self.active or self.end_phase is None or unit.side != "ethiopian" or unit.hex is None:
            return []
        _, start = self.end_phase
        stack = [u for u in start.at(unit.hex) if u.side == "ethiopian" and u.kind != "air"]
        minimum = _table_property(self.board, "ethiopian-attrition", "stack_minimum") or 6
        self.removed_from.setdefault(unit.hex, []).append((step, unit.name))
        removed = self.removed_from[unit.hex]
        where = hex_label(unit.hex, self.board)
        if len(stack) < minimum:
            return [finding("ET-11", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                            message=f"{unit.name} was removed in the End of Turn Phase from {where}, "
                                    f"a stack of {len(stack)} Ethiopian units; attrition strikes stacks "
                                    f"of {minimum} or more",
                            evidence={"hex": unit.hex, "stack": len(stack), "minimum": minimum})]
        if len(removed) > 1:
            return [finding("ET-11", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                            message=f"{unit.name} was the {len(removed)}th unit removed for attrition "
                                    f"from {where}; attrition eliminates one unit a stack",
                            evidence={"hex": unit.hex, "removed": len(removed)})]
        return []

    @REGISTRY.reports("ET-11")
    def _close_attrition(self, step: int, when: str | None) -> list[Finding]:
        """ET-11 at the end of the End of Turn Phase: each declared attrition roll against the
        removals (modified 1-2: one unit; -1 in an amba or mountain hex)."""
        out: list[Finding] = []
        drm_value = _table_property(self.board, "ethiopian-attrition", "amba_mountain_drm")
        for hex_, (declared, roll) in sorted(self.attrition.items()):
            if roll is None:
                continue
            rough: bool | Unknown = False
            amba = self.board.has_feature(hex_, "amba")
            terrain = self.board.terrain(hex_)
            if amba is True or terrain == "mountain":
                rough = True
            elif isinstance(amba, Unknown) or isinstance(terrain, Unknown):
                rough = Unknown(*(amba.data if isinstance(amba, Unknown) else ()),
                                *(terrain.data if isinstance(terrain, Unknown) else ()))
            removed = len(self.removed_from.get(hex_, ()))
            readings = {roll + (drm_value or -1) if r else roll for r in
                        ((True, False) if isinstance(rough, Unknown) else (rough,))}
            outcomes = {1 if m <= 2 else 0 for m in readings}
            if removed in outcomes or removed > 1:
                continue
            ruling = Ruling.PROVEN if len(outcomes) == 1 else Ruling.POSSIBLE
            expected = next(iter(outcomes))
            out.append(finding("ET-11", ruling, step=declared, when=when,
                               message=f"the attrition roll at {hex_label(hex_, self.board)} was {roll}"
                                       f"{' (-1 in an amba or mountain hex)' if rough is True else ''}: "
                                       f"{'one unit must be eliminated' if expected else 'no unit is lost'}, "
                                       f"{removed} removed",
                               evidence={"hex": hex_, "roll": roll, "removed": removed,
                                         "amba_or_mountain": rough if isinstance(rough, bool) else None},
                               depends_on=rough.data if isinstance(rough, Unknown) else ()))
        self.attrition = {}
        return out


def _verb(what: str) -> str:
    return "attacked" if what == "attack" else "moved"


@REGISTRY.check("ET-01")
def judge_activation_event(game: Any, event: Any, view: Any) -> list[Finding]:
    """(35) An Ethiopian declaration, its roll or an attrition removal (ET-01 and the rest,
    `ActivationJudge`)."""
    return game.activation.check_event(event, game.interpreter.phase)
