"""Resource points, their storage boxes, RP routes and trucks (7.3, 10.3; PB 13.5.2.1, 14.2,
14.5.2).

How a module shows them (the modules vlog writes; another module's bindings may say the same):

* RP markers are pieces of the counters of type "rp" (counters.json `it-rp-2-1`, `it-rp-5-3`,
  `al-rp-2-1` ... one per side and denomination, 7.3.1). The side up is the counter's face level:
  a level key `<n>rp` is worth n RPs ("2rp" and "1rp" for the 2/1 marker, "5rp" and "3rp" for
  the 5/3 one); in a vlog-built module the `Face` Layer shows it.
* An RP storage box is a zone of the off-map boxes map named as the box (map.json boxes of type
  `rp-storage`, which also give the box's side and its USS hexes); markers and trucks in that
  zone are in the box. A marker on a map hex is carried by a truck (10.3.1) or is an Ethiopian
  RP (PB 13.6.4).
* Spending flips a marker to its lower side or deletes it; making change deletes a marker and
  adds others; income adds markers to a box (from the palette). Only the RPs in each box are
  judged, never which markers show them, and a flip, deletion or addition counts the same in
  any order within a phase.

`RpLedger` keeps, phase by phase, the RPs each side's markers gained or lost in each box apart
from moves between boxes and the map, and judges at the end of each phase (the turn track
moving on, or the log's end) whether the losses are covered by what the rules let that side
spend in that phase (HQ-10) and the gains by its income (RR-04, RR-09, RR-12). Moves of markers
and trucks between the map and the boxes are judged as they happen (MV-32, HQ-06); the state
at the end of each phase for RPs left on the map (MV-35, CB-25) and boxes whose USS the enemy
entered (HQ-07). `judge_rp_route` (checks/rp_boxes.py) judges an HQ's RP route (HQ-02) when it supports a combat,
and the phase's end whether each box's losses are covered by HQs named in attacks that reach it
(`boxes_reached`) and the spending whose box the log does not tell (defensive support, bribes).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any, Iterable

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, GameLedger, finding
from vlog.games.lion_of_judah.checks.rp_boxes import (MAX_BOX_TRUCKS, boxes_reached, datum_value, judge_rp_route,
                                                      rp_boxes, rp_value, trucks_in_box)
from vlog.games.lion_of_judah.sequence import side_name
from vlog.games.lion_of_judah.state import GameState, Unit, changed_ids
from vlog.games.lion_of_judah.step_events import Appear, Combat, Logistics, StepGain

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.board import Board
    from vlog.games.lion_of_judah.sequence import Phase

__all__ = ["RpLedger", "logistics_event", "judge_logistics"]

HQS_PER_COMBAT = 2
"""10.2.3: at most two HQs per player support one combat (one RP each)."""


# ---------------------------------------------------------------------------------------------
# RP routes (7.3.2)


# ---------------------------------------------------------------------------------------------
# the ledger


@dataclass(slots=True)
class _PhaseBook:
    """What happened to the RPs in the boxes during one phase."""

    net: dict[tuple[str, str], int] = field(default_factory=dict)
    """(box, side of the markers) -> RPs gained (+) or lost (-) other than by moves."""
    allowance: dict[str, int] = field(default_factory=dict)
    """side -> RPs the rules let it spend in the phase so far."""
    unbounded: set[str] = field(default_factory=set)
    """Sides whose spending in this phase the log cannot bound (bribes, Mission 101 ...)."""
    first_step: dict[str, int] = field(default_factory=dict)
    """side -> the step of its first RP lost in the phase."""
    gain_step: dict[tuple[str, str], int] = field(default_factory=dict)
    declarations: set[int] = field(default_factory=set)
    supports: list[tuple[str, str, frozenset[str], int]] = field(default_factory=list)
    """(side, HQ name, the boxes it may reach by an RP route, step) for each HQ named in an attack."""
    ethiopian_attacks: int = 0
    """(35) Ethiopian attacks declared in the phase so far (each may give an RP, PB 13.6.4.1)."""
    bribes: int = 0
    """(35) Italian bribes the Ethiopian activation segment allows: one per Ethiopian leader on
    the map when it began (PB 13.6.2.1)."""


@dataclass(slots=True)
class _BoxLoss:
    box: str
    side: str
    step: int
    hex: str
    entered_by: str
    pieces: dict[str, str]
    """Piece id -> name of the RPs and trucks in the box when the enemy entered."""


class RpLedger(GameLedger):
    """RP totals per box from the log's history, and the judgements made on them (a ledger,
    vlog/kit/ledger.py: it judges each step once read, the `Logistics` event, and the last
    phase when the log ends)."""

    def __init__(self, board: "Board", data: "GameData"):
        self.board = board
        self.data = data
        self.boxes = rp_boxes(data)
        self.book = _PhaseBook()
        self.current: "Phase | None" = None
        self.phase_bound = False
        self.sides_shown: set[str] = set()
        """Sides whose RP markers the log shows (in a box or on the map) at any time."""
        self.sides_read: object = None
        """The last units (a state's dict) `sides_shown` was read from."""
        self.losses: list[_BoxLoss] = []
        self.reported: set[tuple[str, str]] = set()
        self.started = False
        self.french_joined: bool | Unknown | None = None
        """(40) Whether French Somaliland has joined (Event C1, the positions' flag the event
        history sets): its +1 RP to the British Somaliland box (RR-26)."""
        self.halved_income: set[int] = set()
        """(40) Turns Event C4 was played in: the Allies receive half their RPs (EV-13)."""
        self.roads: dict[str, int] = {}
        self.road_builders: dict[str, str] = {}
        """Road marker -> the side whose HQ stood by it when it was placed (HQ-05)."""
        """Road marker -> the turn it was placed (10.2.2.1)."""
        """Whether play has begun (the setup ends with the Event Phase of turn 1)."""

    # -- the ledger's hooks -----------------------------------------------------------------------
    def event(self, event: Any, view: Any) -> list[Finding]:
        """A step once read: the RPs, boxes and trucks it moved (checks/trucks.py with them)."""
        if not isinstance(event, Logistics):
            return []
        game = self.game
        self.halved_income = game.events.played_turns("C4")      # EV-13
        game.motorization.note_step(event.before, event.after, step=event.step)
        return judge_logistics(self, event, game.scenario) + game.trucks.observe(
            event.before, event.after, step=event.step, phase=event.new, bound=event.bound,
            scenario=game.scenario, when=event.when)

    def end(self, view: Any) -> list[Finding]:
        game = self.game
        return self.finish(game.final_state(view), scenario=game.scenario)

    # -- per step ----------------------------------------------------------------------------
    def observe(self, before: GameState, after: GameState, *, step: int, old_phase: "Phase | None",
                new_phase: "Phase | None", bound: bool, scenario: str | None, when: str | None,
                events: Iterable[Any] = (), declarations: Iterable[tuple[Any, str | None]] = ()) -> list[Finding]:
        """Judge one step: `before` and `after` are the positions around it, `old_phase` the
        phase before it, `new_phase` after it (a change closes the old phase on `before`);
        `events` the step's events (step gains, placements); `declarations` the attacks
        declared in it with the declaring side."""
        out: list[Finding] = []
        if "french-somaliland-joined" in after.flags:           # RR-26, as the event history tells
            self.french_joined = after.flags["french-somaliland-joined"]
        for state in (before, after):
            if state.units is not self.sides_read:      # the units of a step that changed none: read
                self.sides_shown.update(u.side for u in state.units.values() if u.kind == "rp" and u.side)
                self.sides_read = state.units
        changed = old_phase is not None and new_phase is not None and \
            (old_phase.turn, old_phase.key) != (new_phase.turn, new_phase.key)
        if not self.started:
            # the setup, until the game is past the Event Phase of turn 1 where both
            # scenarios begin (the turn track first moving on): placements not judged
            self.started = new_phase is not None and (new_phase.turn, new_phase.key) != (1, "event")
            self.current, self.phase_bound = new_phase, bound
            if self.started:
                self._open_phase(new_phase, bound, before)   # type: ignore[arg-type]
            else:
                return out
        if changed:
            out += self.close_phase(before, scenario=scenario, step=step)
        if new_phase is not None and (self.current is None or (self.current.turn, self.current.key)
                                      != (new_phase.turn, new_phase.key)):
            self._open_phase(new_phase, bound, before)
        self.current, self.phase_bound = new_phase, bound
        if scenario != "1935-36" and before.units is not after.units:
            # (35) the Italian boxes' USS are Massawa and Mogadishu, whose capture ends the
            # game at once (PB 13.4.3): the box loss never matters there; no unit changed, none came
            self._box_entries(before, after, step=step)
        out += self._moves(before, after, step=step, scenario=scenario, when=when)
        out += self._roads(before, after, step=step, when=when)
        if scenario == "1935-36":
            out += self._ethiopian_rps(before, after, declarations, step=step, when=when)
        self._spending_allowed(events, declarations, after, scenario)
        return out

    def _open_phase(self, phase: "Phase", bound: bool, state: GameState) -> None:
        self.book = _PhaseBook()
        if phase.scenario == "1935-36" and phase.key == "second-movement":
            self.book.bribes = sum(1 for u in state.units.values()
                                   if u.kind == "leader" and u.side == "ethiopian" and u.hex is not None)

    def _where(self, unit: Unit | None) -> tuple[str, str | None]:
        if unit is None:
            return "gone", None
        if unit.box is not None and unit.box in self.boxes:
            return "box", unit.box
        if unit.hex is not None:
            return "hex", unit.hex
        return "gone", None

    def _moves(self, before: GameState, after: GameState, *, step: int, scenario: str | None,
               when: str | None) -> list[Finding]:
        out: list[Finding] = []
        in_map = self.current is not None and self.current.key == "map"
        changed = changed_ids(before, after)        # an unchanged RP or truck moved nothing
        ids = [uid for uid in changed if before.units[uid].kind in ("rp", "truck")]
        if after.units is not before.units:
            ids += [uid for uid in after.units if uid not in before.units and after.units[uid].kind in ("rp", "truck")]
        for uid in ids:
            old, new = before.units.get(uid), after.units.get(uid)
            unit = new or old
            assert unit is not None
            (wo, po), (wn, pn) = self._where(old), self._where(new)
            if unit.kind == "truck":
                if (wo, po) != (wn, pn) and "box" in (wo, wn) and (wo, wn) != ("box", "box"):
                    out += self._truck_box_move(unit, wo, po, wn, pn, after, step=step, when=when)
                continue
            side = unit.side or "?"
            if wo == "box" and wn == "box" and po == pn:
                self._net(po, side, rp_value(new) - rp_value(old), step)    # type: ignore[arg-type]
            elif wo == "box" and wn == "gone":
                if not any(loss.box == po and loss.side == side for loss in self.losses):
                    self._net(po, side, -rp_value(old), step)   # type: ignore[arg-type]  # not HQ-07's
            elif wo == "gone" and wn == "box":
                self._net(pn, side, rp_value(new), step)                    # type: ignore[arg-type]
            elif wo == "box" and wn == "hex":
                out += self._load(unit, po, pn, after, in_map=in_map, step=step, when=when)  # type: ignore[arg-type]
            elif wo == "hex" and wn == "box":
                out += self._unload(unit, po, pn, step=step, when=when)      # type: ignore[arg-type]
            elif wo == "box" and wn == "box" and not in_map and self.phase_bound:
                out.append(self._report("MV-32", unit, step, when,
                                        f"{unit.name} went from the {self.boxes[po].name} to the "  # type: ignore[index]
                                        f"{self.boxes[pn].name} without a truck carrying it through "  # type: ignore[index]
                                        "their USS hexes (outside the MAP's rail and naval movement)",
                                        {"from_box": po, "to_box": pn}))
        out += self._spent_on_map(before, after, changed, step=step, when=when)
        return [f for f in out if f is not None]

    def _spent_on_map(self, before: GameState, after: GameState, changed: list[str], *, step: int,
                      when: str | None) -> list[Finding]:
        """RR-25 (7.3.2): RPs are used only while in a storage box; (35) Ethiopian RPs excepted
        (PB 13.6.4). An RP marker flipped down on a map hex, its side's RPs in that hex falling
        with it (not change made with another marker), was spent on the map."""
        out: list[Finding] = []
        for uid in changed:                         # `changed_ids`: an RP flipped is another unit
            old, new = before.units[uid], after.units.get(uid)
            if old.kind != "rp" or new is None or old.hex is None or new.hex != old.hex \
                    or old.side in (None, "ethiopian") or rp_value(new) >= rp_value(old):
                continue
            def total(state: GameState) -> int:
                return sum(rp_value(u) for u in state.at(old.hex) if u.kind == "rp" and u.side == old.side)
            if total(after) < total(before):
                out.append(self._report(
                    "RR-25", new, step, when,
                    f"{new.name} was flipped from {rp_value(old)} to {rp_value(new)} RP at "
                    f"{hex_label(old.hex, self.board)}: RPs are used only while in an RP storage box",
                    {"hex": old.hex, "rp_before": rp_value(old), "rp_after": rp_value(new),
                     "hex_rps_before": total(before), "hex_rps_after": total(after)}))
        return out

    def _net(self, box: str, side: str, delta: int, step: int) -> None:
        if not delta:
            return
        key = (box, side)
        self.book.net[key] = self.book.net.get(key, 0) + delta
        if delta < 0:
            self.book.first_step.setdefault(side, step)
        else:
            self.book.gain_step.setdefault(key, step)

    @REGISTRY.reports("HQ-05", "HQ-06", "MV-14", "MV-32", "RR-08", "RR-25")
    def _report(self, check: str, unit: Unit, step: int, when: str | None, message: str,
                evidence: dict[str, Any], ruling: Ruling = Ruling.PROVEN) -> Finding:
        return finding(check, ruling, step=step, when=when, subjects=(unit.name,), message=message,
                       evidence=evidence)

    def _load(self, unit: Unit, box_id: str, hex_: str, after: GameState, *, in_map: bool,
              step: int, when: str | None) -> list[Finding]:
        """MV-32 (10.3.1): an RP leaves its box only onto a USS hex associated with the box,
        onto a truck of its side there (in the MAP, rail and naval movement start there too)."""
        box = self.boxes[box_id]
        problems = []
        if box.uss and hex_ not in box.uss:
            problems.append(f"{hex_label(hex_, self.board)} is not a USS hex of that box "
                            f"({', '.join(box.uss)})")
        trucks = [u.name for u in after.at(hex_) if u.kind == "truck" and u.side == unit.side]
        if not in_map and not trucks:
            problems.append("no truck of its side is there to carry it")
        if not problems:
            return []
        return [self._report("MV-32", unit, step, when,
                             f"{unit.name} was taken from the {box.name} to {hex_label(hex_, self.board)}: "
                             + "; ".join(problems),
                             {"box": box_id, "hex": hex_, "uss": list(box.uss), "trucks": trucks})]

    def _unload(self, unit: Unit, hex_: str, box_id: str, *, step: int, when: str | None) -> list[Finding]:
        """MV-32 (10.3.1): an RP goes into a box only from a USS hex associated with it."""
        box = self.boxes[box_id]
        if not box.uss or hex_ in box.uss:
            return []
        return [self._report("MV-32", unit, step, when,
                             f"{unit.name} was put into the {box.name} from {hex_label(hex_, self.board)}, "
                             f"which is not a USS hex of that box ({', '.join(box.uss)})",
                             {"box": box_id, "hex": hex_, "uss": list(box.uss)})]

    def _truck_box_move(self, truck: Unit, wo: str, po: str | None, wn: str, pn: str | None,
                        after: GameState, *, step: int, when: str | None) -> list[Finding]:
        """HQ-06 (7.3.2; 10.3): a truck enters a box in the MAP from the box's USS hex, or
        goes back from the box to that hex in the MAP; at most three trucks in a box."""
        box_id = pn if wn == "box" else po
        assert box_id is not None
        box = self.boxes[box_id]
        hex_ = po if wo == "hex" else pn if wn == "hex" else None
        problems = []
        if self.phase_bound and self.current is not None and self.current.key != "map":
            problems.append(f"outside the Mutual Administration Phase ({self.current.when()})")
        if hex_ is not None and box.uss and hex_ not in box.uss:
            problems.append(f"{hex_label(hex_, self.board)} is not a USS hex of that box "
                            f"({', '.join(box.uss)})")
        count = len(trucks_in_box(after, box_id))
        if wn == "box" and count > MAX_BOX_TRUCKS:
            problems.append(f"the box then holds {count} trucks (at most {MAX_BOX_TRUCKS})")
        if not problems:
            return []
        verb = (f"entered the {box.name} from {hex_label(hex_, self.board)}" if wn == "box" and hex_
                else f"entered the {box.name}" if wn == "box"
                else f"left the {box.name} for {hex_label(hex_ or '?', self.board)}")
        named = truck.name if "truck" in truck.name.lower() else f"truck {truck.name}"
        return [self._report("HQ-06", truck, step, when, f"{named} {verb}: " + "; ".join(problems),
                             {"box": box_id, "hex": hex_, "uss": list(box.uss), "trucks_in_box": count})]

    # -- (35) Ethiopian RPs (PB 13.6.4) ----------------------------------------------------------
    def _ethiopian_rps(self, before: GameState, after: GameState,
                       declarations: Iterable[tuple[Any, str | None]], *, step: int,
                       when: str | None) -> list[Finding]:
        """RR-08 (PB 13.5.2.2; 13.6.4.1): Ethiopian RPs come only from Event A3 (the Event
        Phase, judged under EV-05) and from an 'R' result of an Ethiopian attack: one appearing
        on the map elsewhere than in the Event Phase, or in a segment with no Ethiopian attack
        declared before it, breaks the rule."""
        self.book.ethiopian_attacks += sum(1 for _, side in declarations if side == "ethiopian")
        phase = self.current if self.phase_bound else None
        if phase is None or phase.key == "event":
            return []
        out: list[Finding] = []
        for uid, new in (after.units.items() if after.units is not before.units else ()):   # none placed
            if new.kind != "rp" or new.side != "ethiopian" or new.hex is None:
                continue
            old = before.units.get(uid)
            if old is not None and old.hex is not None:
                continue
            attacks = self.book.ethiopian_attacks if phase.key.startswith("second-") else 0
            if attacks:
                continue            # an 'R' result may have given it (PB 13.6.4.1)
            out.append(self._report(
                "RR-08", new, step, when,
                f"an Ethiopian RP was placed at {hex_label(new.hex, self.board)} in the "
                f"{phase.name} of turn {phase.turn}, with no Ethiopian attack before "
                "it in the segment: the Ethiopians get RPs only from Event A3 and 'R' results",
                {"hex": new.hex, "phase": phase.key, "turn": phase.turn, "ethiopian_attacks": attacks}))
        return out

    # -- roads (10.2.2) ------------------------------------------------------------------------
    def _roads(self, before: GameState, after: GameState, *, step: int, when: str | None) -> list[Finding]:
        """HQ-05 (10.2.2, 10.2.2.1): a road marker is placed under construction in the MAP, in a
        non-desert hex its builder controls, with the builder's HQ in or next to it, and with a
        friendly unit in it when enemy units are adjacent (and while it is under construction:
        `_roads_left_alone`); MV-14: it is flipped to its road side only in a later MAP (before
        that the hex is no road, and RP routes ignore it)."""
        out: list[Finding] = []
        phase = self.current if self.phase_bound else None
        for uid, new in (after.units.items() if after.units is not before.units else ()):   # none placed or flipped
            if new.counter != "road-marker" or new.hex is None:
                continue
            old = before.units.get(uid)
            if old is None or old.hex is None:
                out += self._road_placed(new, before, after, phase, step=step, when=when)
            elif old.level != new.level and new.level == "road":
                placed = self.roads.get(uid)
                if phase is not None and (phase.key != "map" or (placed is not None and phase.turn <= placed)):
                    out.append(self._report(
                        "MV-14", new, step, when,
                        f"the road marker at {hex_label(new.hex, self.board)} was flipped to its road side in "
                        f"the {phase.name} of turn {phase.turn}"
                        + (", the turn it was placed" if placed == phase.turn else "")
                        + ": a road is finished only in the next MAP's step vii",
                        {"hex": new.hex, "placed_turn": placed, "turn": phase.turn, "phase": phase.key}))
        return out

    def _roads_left_alone(self, state: GameState, *, step: int | None, when: str | None) -> list[Finding]:
        """HQ-05 (10.2.2.1): a road under construction in a hex without a unit of its builder and
        next to an enemy unit is removed (its RPs lost): one still there when a phase ends."""
        out: list[Finding] = []
        for uid, side in list(self.road_builders.items()):
            marker = state.units.get(uid)
            if marker is None or marker.hex is None or marker.level == "road":
                continue
            around = self.board.neighbours(marker.hex)
            friends = [u for u in state.at(marker.hex) if u.side == side and u.kind not in ("air", "marker", "rp")]
            enemies = sorted(u.name for u in state.units.values() if u.hex in around and u.side not in (None, side)
                             and u.kind not in ("air", "marker"))
            if friends or not enemies:
                continue
            del self.road_builders[uid]          # reported once
            out.append(self._report(
                "HQ-05", marker, step, when,
                f"the road under construction at {hex_label(marker.hex, self.board)} has no "
                f"{side_name(side)} unit with it and enemy units next to it ({', '.join(enemies)}): "
                "such a marker is removed and its RPs are lost (10.2.2.1)",
                {"hex": marker.hex, "builder": side, "enemies_adjacent": enemies}))
        return out

    def _road_placed(self, marker: Unit, before: GameState, after: GameState, phase: "Phase | None", *,
                     step: int, when: str | None) -> list[Finding]:
        hex_ = marker.hex
        assert hex_ is not None
        if phase is not None:
            self.roads[marker.id] = phase.turn
        problems = []
        if phase is not None and phase.key != "map":
            problems.append(f"outside the Mutual Administration Phase ({phase.when()})")
        if marker.level == "road":
            problems.append("on its road side (a new road is placed under construction, 10.2.2.1)")
        terrain = self.board.terrain(hex_)
        if isinstance(terrain, str) and terrain == "desert":
            problems.append("in a desert hex")
        around = (hex_, *self.board.neighbours(hex_))
        hqs = [u for u in before.units.values() if u.kind == "hq" and u.hex in around]
        if not hqs:
            problems.append("with no HQ in or next to the hex")
        sides = {u.side for u in hqs if u.side}
        owner = after.control.get(hex_) or before.control.get(hex_)
        if sides and owner is not None and owner not in sides:
            problems.append(f"in a hex the {side_name(owner)} player controls")
        enemy_near = [u.name for u in before.units.values() if u.hex in around[1:] and u.side is not None
                      and sides and u.side not in sides and u.kind not in ("air", "marker")]
        friends_in = [u for u in before.units.values() if u.hex == hex_ and u.side in sides
                      and u.kind not in ("air", "marker", "rp")]
        if enemy_near and not friends_in:
            problems.append(f"next to enemy units ({', '.join(enemy_near)}) with no friendly unit in it")
        elif len(sides) == 1:
            self.road_builders[marker.id] = next(iter(sides))      # judged again as phases end
        if not problems:
            return []
        return [self._report("HQ-05", marker, step, when,
                             f"a road marker was placed at {hex_label(hex_, self.board)} " + "; ".join(problems),
                             {"hex": hex_, "hqs": [u.name for u in hqs], "level": marker.level,
                              "phase": phase.key if phase is not None else None})]

    # -- what the rules let a side spend --------------------------------------------------------
    def _spending_allowed(self, events: Iterable[Any], declarations: Iterable[tuple[Any, str | None]],
                          after: GameState, scenario: str | None) -> None:
        phase = self.current
        if phase is None:
            return
        allow = self.book.allowance
        for decl, side in declarations:
            if id(decl) in self.book.declarations:
                continue
            self.book.declarations.add(id(decl))
            for s in ("italian", "ethiopian", "allied"):
                if s == side:
                    own = HQS_PER_COMBAT if decl.hqs is None else len(decl.hqs)
                    if scenario == "1940-41" and s == "allied":
                        own += 1        # PB 14.6.4.2 optional guerrilla coordination: one RP
                    allow[s] = allow.get(s, 0) + own
                else:
                    allow[s] = allow.get(s, 0) + HQS_PER_COMBAT      # defensive support
        if phase.key == "map":
            for event in events:
                if not isinstance(event, (StepGain, Appear)):
                    continue
                unit = event.unit
                if unit.side is None and unit.counter != "road-marker":
                    continue
                if isinstance(event, StepGain) and isinstance(unit.steps, int):
                    allow[unit.side] = allow.get(unit.side, 0) + max(0, event.steps_after - unit.steps)
                elif isinstance(event, Appear) and unit.counter == "road-marker":
                    for s in ("italian", "allied"):
                        allow[s] = allow.get(s, 0) + 2              # 10.2.2.1: 1 or 2 RPs a road
                elif isinstance(event, Appear) and unit.kind != "rp":
                    cost = 2 if unit.kind == "hq" else unit.steps if isinstance(unit.steps, int) and unit.steps else 4
                    allow[unit.side] = allow.get(unit.side, 0) + cost   # 7.3.4 rebuilding
            if scenario == "1940-41":
                self.book.unbounded.add("allied")   # bribes, Mission 101 (PB 14.6.3.1, 14.6.4.2)
        if phase.key == "event":
            self.book.unbounded.update(("italian", "allied"))   # event bribes, C3 (A2, B8, C3)

    # -- boxes whose USS the enemy enters ----------------------------------------------------
    def _box_entries(self, before: GameState, after: GameState, *, step: int) -> None:
        for box in self.boxes.values():
            for hex_ in box.uss:
                came = [u for u in after.at(hex_) if u.side is not None and u.kind != "air"
                        and (before.units.get(u.id) is None or before.units[u.id].hex != hex_)]
                held = [u for u in before.units.values() if u.box == box.id and u.kind in ("rp", "truck")]
                for side in {u.side for u in held if u.side}:
                    enemies = [u for u in came if u.side != side and u.unit_class != "guerrilla"]
                    if not enemies:
                        continue
                    pieces = {u.id: u.name for u in held if u.side == side}
                    if not any(l.box == box.id and l.side == side and l.hex == hex_ for l in self.losses):
                        self.losses.append(_BoxLoss(box.id, side, step, hex_, enemies[0].name, pieces))

    # -- end of a phase ----------------------------------------------------------------------
    def close_phase(self, state: GameState, *, scenario: str | None, step: int | None) -> list[Finding]:
        """The judgements made on the position that closes a phase (or ends the log)."""
        phase = self.current
        when = phase.when() if phase is not None else None
        out: list[Finding] = []
        out += self._left_on_map(state, step=step, when=when)
        out += self._box_losses(state, step=step, when=when)
        out += self._roads_left_alone(state, step=step, when=when)
        if phase is not None and self.phase_bound and scenario is not None:
            out += self._accounts(phase, scenario, step=step)
        self.book = _PhaseBook()
        return out

    @REGISTRY.reports("CB-25", "MV-35")
    def _left_on_map(self, state: GameState, *, step: int | None, when: str | None) -> list[Finding]:
        """MV-35 (7.3.2): an RP marker is on the map only while a truck carries it ((35)
        Ethiopian RPs excepted, PB 13.6.4); CB-25 (7.3.1): an RP alone with an enemy unit is
        eliminated."""
        out: list[Finding] = []
        for unit in state.units.values():
            if unit.kind != "rp" or unit.hex is None:
                continue
            here = state.at(unit.hex)
            enemies = [u for u in here if u.side not in (None, unit.side) and u.kind != "air"]
            friends = [u for u in here if u.side == unit.side and u.id != unit.id]
            if enemies and all(u.defenseless for u in friends):
                key = ("CB-25", unit.id + "@" + unit.hex)
                if key not in self.reported:
                    self.reported.add(key)
                    out.append(finding("CB-25", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                                       message=f"{unit.name} is still at {hex_label(unit.hex, self.board)} "
                                               f"alone with the enemy ({', '.join(u.name for u in enemies)}) "
                                               "when the phase ends: an RP alone with an enemy unit is "
                                               "eliminated, never captured",
                                       evidence={"hex": unit.hex, "enemies": [u.name for u in enemies],
                                                 "friends": [u.name for u in friends]}))
                continue
            if unit.side == "ethiopian":
                continue
            if any(u.kind == "truck" for u in friends):
                continue
            key = ("MV-35", unit.id + "@" + unit.hex)
            if key in self.reported:
                continue
            self.reported.add(key)
            out.append(finding("MV-35", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                               message=f"{unit.name} is on the map at {hex_label(unit.hex, self.board)} "
                                       "without a truck carrying it when the phase ends: RP markers are "
                                       "on the map only while a truck carries them between boxes",
                               evidence={"hex": unit.hex, "with": [u.name for u in friends]}))
        return out

    @REGISTRY.reports("HQ-07")
    def _box_losses(self, state: GameState, *, step: int | None, when: str | None) -> list[Finding]:
        """HQ-07 (7.3.2): when an enemy unit enters the USS hex of a box, the RPs and trucks in
        the box are eliminated at once; judged when the phase ends."""
        out: list[Finding] = []
        for loss in self.losses:
            left = [name for pid, name in loss.pieces.items()
                    if pid in state.units and state.units[pid].box == loss.box]
            if not left:
                continue
            box = self.boxes[loss.box]
            single = len(box.uss) == 1
            out.append(finding(
                "HQ-07", Ruling.PROVEN if single else Ruling.POSSIBLE, step=loss.step, when=when,
                subjects=tuple(left),
                message=f"{loss.entered_by} entered {hex_label(loss.hex, self.board)}, the USS of the "
                        f"{box.name}, at step {loss.step}, but {', '.join(left)} stayed in the box to the "
                        "end of the phase: its RPs and trucks are eliminated at once",
                evidence={"box": loss.box, "hex": loss.hex, "entered_by": loss.entered_by,
                          "left_in_box": left, "uss": list(box.uss)},
                depends_on=() if single else (f"whether entering one of the {len(box.uss)} USS hexes of "
                                              f"the {box.name} eliminates its RPs (7.3.2 speaks of one)",)))
        self.losses = []
        return out

    @REGISTRY.reports("HQ-10")
    def _accounts(self, phase: "Phase", scenario: str, *, step: int | None) -> list[Finding]:
        """HQ-10 (7.3.1): RPs leave the boxes only as the rules spend them; RR-04 (PB 13.5.2.1),
        RR-09 (PB 14.5.2.1), RR-12 (PB 14.5.2.2): RPs arrive only as the scenario's income."""
        out: list[Finding] = []
        book = self.book
        when = phase.when()
        sides = {side for _, side in book.net}
        for side in sorted(sides):
            spent = -sum(min(0, v) for (b, s), v in book.net.items() if s == side)
            gains = {b: v for (b, s), v in book.net.items() if s == side and v > 0}
            if spent and side not in book.unbounded:
                allowed = book.allowance.get(side, 0) + (book.bribes if side == "italian" else 0)
                if spent > allowed:
                    out.append(finding(
                        "HQ-10", Ruling.PROVEN, step=book.first_step.get(side, step), when=when,
                        message=f"the {side_name(side)} RP storage boxes lost {spent} RP"
                                f"{'s' if spent != 1 else ''} in the {phase.name} of turn "
                                f"{phase.turn}; the rules let that side spend at most {allowed} there "
                                f"({self._allowance_text(phase, side, scenario)})",
                        evidence={"side": side, "spent": spent, "allowed": allowed, "turn": phase.turn,
                                  "phase": phase.key,
                                  "boxes": {b: v for (b, s), v in sorted(book.net.items()) if s == side}}))
                else:
                    out += self._boxes_spent_from(phase, side, step=step)
            if gains:
                out += self._income(phase, scenario, side, gains, step=step)
        return out

    def note_support(self, side: str, hq: Unit, reached: frozenset[str], step: int) -> None:
        """An HQ named in an attack spends its RP from a box it reaches by an RP route (HQ-02)."""
        self.book.supports.append((side, hq.name, reached, step))

    @REGISTRY.reports("HQ-02")
    def _boxes_spent_from(self, phase: "Phase", side: str, *, step: int | None) -> list[Finding]:
        """HQ-02 per box: the RPs each box lost are covered by HQs named in attacks that reach
        it (7.3.2) and the spending whose box the log does not tell (defensive support, bribes,
        HQs not found); checked over every set of boxes (Hall's condition)."""
        book = self.book
        lost = {b: -v for (b, s), v in book.net.items() if s == side and v < 0}
        supports = [(name, reached, at) for s, name, reached, at in book.supports if s == side]
        if not supports or not lost:
            return []
        free = book.allowance.get(side, 0) + (book.bribes if side == "italian" else 0) - len(supports)
        boxes = sorted(lost)
        for size in range(1, len(boxes) + 1):
            for chosen in combinations(boxes, size):
                covering = [(name, at) for name, reached, at in supports if reached & set(chosen)]
                need = sum(lost[b] for b in chosen)
                if need <= free + len(covering):
                    continue
                names = ", ".join(self.boxes[b].name if b in self.boxes else b for b in chosen)
                return [finding(
                    "HQ-02", Ruling.PROVEN, step=book.first_step.get(side, step), when=phase.when(),
                    message=f"{names} lost {need} RP{'s' if need != 1 else ''} in the "
                            f"{phase.name} of turn {phase.turn}; the HQs named in attacks "
                            f"({', '.join(name for name, _, _ in supports)}) account for {len(covering)} "
                            f"from there" + (f" and other spending for {free} from any box" if free > 0 else "")
                            + " (7.3.2: an HQ spends from a box whose USS its RP route reaches)",
                    evidence={"side": side, "boxes": {b: -lost[b] for b in chosen},
                              "hqs_reaching": [n for n, _ in covering],
                              "hqs_named": {n: sorted(r) for n, r, _ in supports}, "other_spending": free})]
        return []

    @staticmethod
    def _allowance_text(phase: "Phase", side: str, scenario: str) -> str:
        if phase.segment == "combat" or (scenario == "1935-36" and phase.key == "second-movement"):
            text = "one RP per HQ named in an attack, at most two per combat for the defender"
            if scenario == "1935-36" and side == "italian" and phase.key == "second-movement":
                text += ", one bribe per Ethiopian leader"
            return text
        if phase.key == "map":
            return "one RP per step replaced, per step rebuilt (two for an HQ), two per road begun"
        if phase.segment == "movement":
            return "nothing is spent in a movement segment; trucks only carry RPs"
        return "nothing is spent in this phase"

    @REGISTRY.reports("RR-04", "RR-09", "RR-12")
    def _income(self, phase: "Phase", scenario: str, side: str, gains: dict[str, int], *,
                step: int | None) -> list[Finding]:
        total = sum(gains.values())
        first = min(self.book.gain_step.get((b, side), step or 0) for b in gains)
        when = phase.when()
        boxes_text = ", ".join(f"{self.boxes[b].name} +{v}" for b, v in sorted(gains.items()))
        evidence: dict[str, Any] = {"side": side, "turn": phase.turn, "phase": phase.key, "gained": gains}
        if scenario == "1935-36" and side == "italian":
            income = self._schedule(scenario, side, phase.turn) if phase.key == "map" else {}
            over = {b: v for b, v in gains.items() if v > income.get(b, 0)}
            if not over:
                return []
            evidence["income"] = income
            return [finding("RR-04", Ruling.PROVEN, step=first, when=when,
                            message=f"the Italian RP boxes gained {boxes_text} in the {phase.name} "
                                    f"of turn {phase.turn}; the scenario gives "
                                    + (", ".join(f"{self.boxes[b].name} +{v}" for b, v in sorted(income.items()))
                                       or "none then"),
                            evidence=evidence)]
        if scenario == "1940-41" and side == "allied":
            income_total = sum(self._schedule(scenario, side, phase.turn).values()) if phase.key == "map" else 0
            halved = phase.key == "map" and phase.turn in self.halved_income
            if halved:          # EV-13: half (rounded up: the text does not say)
                income_total = -(-income_total // 2)
                evidence["halved_by"] = "C4"
            bs = gains.get("rp-british-somaliland", 0)
            problems = []
            if total > income_total:
                problems.append(f"the scenario gives {income_total} RP{'s' if income_total != 1 else ''} "
                                f"{'that turn' if phase.key == 'map' else 'outside the MAP'}"
                                + (" (half the turn's RPs, Event C4 Italian Red Sea Fleet played)" if halved else ""))
            if phase.key == "map" and bs > 1:
                problems.append("at most one RP a turn goes into the British Somaliland box")
            if not problems:
                return []
            ruling = Ruling.PROVEN
            depends: tuple[str, ...] = ()
            if phase.key == "event" and total == 1 and bs == 1:     # RR-26: C1, French Somaliland joins
                joined = self.french_joined
                if joined is True:
                    return []
                if joined is None:
                    ruling, depends = Ruling.POSSIBLE, ("Event C1 (French Somaliland joins: one RP to the "
                                                        "British Somaliland box), not shown in the log",)
                elif isinstance(joined, Unknown):
                    ruling, depends = Ruling.POSSIBLE, tuple(sorted(joined.data))
                else:
                    problems.append("French Somaliland has not joined the Allies (Event C1), which alone "
                                    "gives an RP then")
            evidence["income"] = income_total
            return [finding("RR-09", ruling, step=first, when=when,
                            message=f"the Allied RP boxes gained {boxes_text} in the {phase.name} "
                                    f"of turn {phase.turn}: " + "; ".join(problems),
                            evidence=evidence, depends_on=depends)]
        if scenario == "1940-41" and side == "italian":
            ruling = Ruling.PROVEN
            depends = ()
            if phase.key == "event" and total <= 2 and len(gains) == 1:
                ruling, depends = Ruling.POSSIBLE, ("Event C3 (Blockade Runner: two RPs into one Italian "
                                                    "box), not shown in the log",)
            return [finding("RR-12", ruling, step=first, when=when,
                            message=f"the Italian RP boxes gained {boxes_text} in the {phase.name} "
                                    f"of turn {phase.turn}; the Italians receive no RPs after the start "
                                    "but the two of Event C3",
                            evidence=evidence, depends_on=depends)]
        return []

    def _schedule(self, scenario: str, side: str, turn: int) -> dict[str, int]:
        """Box (or "" when the player chooses) -> RPs the scenario's reinforcements give the
        side on a turn (scenarios.json reinforcements with points)."""
        out: dict[str, int] = {}
        for raw in self.data.documents["scenarios"]["scenarios"]:
            if raw.get("id") != scenario:
                continue
            for entry in raw.get("reinforcements") or ():
                points, turns = datum_value(entry.get("points")), datum_value(entry.get("turns"))
                if datum_value(entry.get("side")) != side or not isinstance(points, int) \
                        or not isinstance(turns, list) or turn not in turns:
                    continue
                box = datum_value(entry.get("box")) or ""
                out[box] = out.get(box, 0) + points
        return out

    def finish(self, state: GameState, *, scenario: str | None) -> list[Finding]:
        """The log ended: the last phase closes on the final position."""
        if not self.started:
            return []
        return self.close_phase(state, scenario=scenario, step=None)


# ---------------------------------------------------------------------------------------------
# the step as the ledger reads it (reading.py makes the event, the ledger judges it)


def logistics_event(interpreter: Any, step: int, old_phase: "Phase | None", before: GameState,
                    events: Iterable[Any]) -> Logistics:
    """The step as the ledger sees it, once the interpreter has read it: the positions around
    it, the phase before and after, its other events and the attacks declared in it."""
    events = tuple(events)
    after = getattr(interpreter, "_after", None) or before
    declared = []
    pending = interpreter.pending
    if pending is not None and pending.step == step:
        declared.append((pending.declaration, pending.side, pending.before))
    for event in events:
        closed = event.pending if isinstance(event, Combat) else None
        if closed is not None and closed.step == step and closed is not pending:
            declared.append((closed.declaration, closed.side, closed.before))
    return Logistics(step, before, after, old_phase, interpreter.phase, interpreter.phase_bound, events,
                     tuple(declared), when=interpreter.when())


def judge_logistics(ledger: RpLedger, event: Logistics, scenario: str | None) -> list[Finding]:
    """The ledger's judgements on a step, and HQ-02 for the HQs named in its attacks."""
    out = ledger.observe(event.before, event.after, step=event.step, old_phase=event.old,
                         new_phase=event.new, bound=event.bound, scenario=scenario,
                         when=event.when, events=event.events,
                         declarations=[(d, s) for d, s, _ in event.declarations])
    if scenario is None:
        return out
    for decl, side, before in event.declarations:
        for hq in [u for u in before.units.values() if decl.hqs and u.name in decl.hqs
                   and u.kind == "hq" and (side is None or u.side == side)]:
            out += judge_rp_route(ledger.board, before, hq, ledger.boxes, scenario=scenario,
                                  rps_shown=hq.side in ledger.sides_shown, step=event.step,
                                  when=event.when, target=decl.target)
            sure, maybe = boxes_reached(ledger.board, before, hq, ledger.boxes, scenario=scenario)
            if hq.side is not None and (sure or maybe):         # none: the route's own HQ-02
                ledger.note_support(hq.side, hq, sure | maybe, event.step)
    return out
