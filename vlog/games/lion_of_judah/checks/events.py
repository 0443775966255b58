"""Events (6.; PB 13.7; PB 14.7; Random Events Summary), judged from where the event markers stand.

How a log shows events (modules vlog writes: one piece per event marker of counters.json, type
"event"; any other module whose bindings name the markers and boxes):

* the event pool is the box "event cup" (map.json `event-cup`): the markers of strategic turn A
  (1935-36) or C (1940-41) stand there at the start (PB 13.3.1, 14.3.1); those of B and D are put
  in it, added from the palette or moved there, at the start of turn 5 or 4 (PB 13.7, 14.7; the
  MAP's first step, 5.2 a i);
* a draw is an event marker leaving the cup; it goes to the box "Events drawn" (`event-drawn`);
  a No Event marker (A5, C5) goes back to the cup; any other stays there or is deleted (removed
  from the game, 6.2). An event the text gives to a player (B6, B7, C4, D8, D9, D10) is held
  while it stays in "Events drawn" and is played when it leaves it: B6 onto the hex of the leader
  it coordinates, B7 onto the hex it marks, D9 or D10 (or the "Open City" marker) onto the town it
  opens; C4 and D8 (played in a MAP) to anywhere else, or deleted;
* the die rolls for an event (C1, C2, D9/D10) are those the log reports in the Event Phase after
  the draw (for D9/D10: after the Open City marker is placed);
* the other pieces an event involves are read as the other checks read them: RPs (A3, C3) from
  the RP markers' faces ("1rp" ... "5rp", 7.3.1) on hexes or in RP storage boxes, the IPL (C1,
  C2, D9/D10) from the prestige marker's General Records Track box, a gas attack (A4) from a
  Gassed marker placed, the optional rule "Less randomness" from C2 standing in "Events drawn"
  when the log begins.

A log in which no marker ever leaves the cup shows no draws (the players keep the events off
the table): nothing is judged on the pool then. The Event Phase is known only from the turn
tracker; with an inferred sequence no per-phase item is judged.

`EventLedger` keeps the history (the engine holds one); each `on_*` method returns the findings
of one event of play, `finish` those known only when the log ends. What an event marker is
lives in checks/event_cards.py, what the drawn events do to play in checks/event_effects.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, GameLedger, finding
from vlog.games.lion_of_judah.checks.event_cards import (D6_BRIGADES, IPL_HIGH, IPL_HIGH_DATUM, IPL_MARKER, RP_EVENTS,
                                                         Draw, EventInfo, event_info, on_map, place_of, rp_markers)
from vlog.games.lion_of_judah.checks.event_effects import EventEffects
from vlog.games.lion_of_judah.step_events import EventMarker, PhaseTurned
from vlog.games.lion_of_judah.checks.fuel import marker_value
from vlog.games.lion_of_judah.state import GameState, Unit, build_state

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.sequence import Phase
    from vlog.kit.steps import StepView

__all__ = ["EventLedger"]

@dataclass(slots=True)
class EventLedger(EventEffects, GameLedger):
    """The event history of one log: the pool, the draws of each Event Phase, held and played
    events, and the effects later checks need (open cities, the Wireless Interception stack,
    French Somaliland)."""

    data: GameData
    board: Board
    info: dict[str, EventInfo] = field(default_factory=dict)
    """Piece id -> its event."""
    names: dict[str, str] = field(default_factory=dict)
    counters: dict[str, str] = field(default_factory=dict)
    """Piece id -> its counter id (markers the log has shown)."""
    places: dict[str, str] = field(default_factory=dict)
    """Piece id -> where the marker stands now (see `place_of`)."""
    c2_optional: str | None = None
    """C2's piece when the log begins with it out of the pool, held: the optional rule "Less
    randomness for British Somaliland" (the Italian player holds it; it is a later turn's event)."""
    drawn: dict[str, Draw] = field(default_factory=dict)
    """Piece id -> its (last) draw."""
    any_draw: bool = False
    phase_draws: list[Draw] = field(default_factory=list)
    """The draws of the Event Phase in progress."""
    undrawn_phases: list[tuple[int, int, str]] = field(default_factory=list)
    """(turn, step that ended it, when) of each Event Phase that ended without a draw."""
    played: dict[str, tuple[int | None, int]] = field(default_factory=dict)
    """Piece id -> (turn, step) it was played (left "Events drawn" for the map or the game)."""
    reported: set[tuple[str, str]] = field(default_factory=set)
    open_cities: dict[str, str] = field(default_factory=dict)
    """Hex -> piece id of the Open City marker on it."""
    wireless: tuple[str, frozenset[str], int] | None = None
    """(hex, ids of the units in it when marked, step) while B7 is on the map."""
    c1_roll: int | None = None
    city_rolls: dict[str, list[int]] = field(default_factory=dict)
    """Hex -> the rolls after an Open City marker was placed there, in the Event Phase in progress."""
    c1_drawn: bool = False
    league_turn: int | None = None
    d7_drawn: bool = False
    early_brigades: int = 0
    """D6 drawn after D7: Commonwealth brigades still allowed to enter a turn early."""
    ipl_at_draw: dict[str, int | None] = field(default_factory=dict)
    """Event code -> the IPL (the prestige marker's GRT box, PB 14.6.3) when it was drawn."""
    berbera_closed: tuple[int, Ruling, tuple[str, ...]] | None = None
    """C2 rolled 1-4: (step of the roll, PROVEN or POSSIBLE (a 4: the IPL decides), data)."""
    rp_at_draw: dict[str, dict[str, tuple[str | None, str | None, int]]] = field(default_factory=dict)
    """A3 / C3 drawn in the Event Phase in progress -> the side's RP markers when it was drawn."""
    """The turn A4 League of Nations was drawn."""
    last_roll_step: int | None = None
    last_move_step: dict[str, int] = field(default_factory=dict)
    """Side -> the step of its last unit move."""

    # -- reading --------------------------------------------------------------------------------
    def start(self, state: GameState) -> None:
        """The markers as the log's starting position shows them."""
        for pid, marker in state.events.items():
            info = self._learn(pid, marker)
            self.places[pid] = place_of(marker)
            if info is not None and info.code == "C2" and self.places[pid] == "drawn":
                self.c2_optional = pid

    def _learn(self, pid: str, marker: Unit) -> EventInfo | None:
        if pid not in self.info:
            found = event_info(self.data, marker.counter)
            if found is None:
                return None
            self.info[pid] = found
            self.names[pid] = marker.name
            self.counters[pid] = marker.counter  # type: ignore[assignment]
        return self.info[pid]

    def note_rolls(self, step: int, rolls: list[int]) -> None:
        """Die rolls a step reports: those of the Event Phase go to the last draw (C1, D9/D10)."""
        if not rolls:
            return
        self.last_roll_step = step
        waiting = [h for h, r in self.city_rolls.items() if not r]
        if waiting:                             # D9/D10: the roll against the hex's VP
            self.city_rolls[waiting[-1]].extend(rolls)
            return
        if self.phase_draws:
            self.phase_draws[-1].rolls.extend(rolls)
            last = self.phase_draws[-1]
            if self.info.get(last.marker, None) is not None and self.info[last.marker].code == "C1" \
                    and self.c1_roll is None:
                self.c1_roll = rolls[0]

    def played_turns(self, code: str) -> set[int]:
        """The turns a held event (by code, "C4") was played in."""
        return {turn for pid, (turn, _) in self.played.items()
                if turn is not None and pid in self.info and self.info[pid].code == code}

    def french_somaliland_joined(self) -> bool | Unknown | None:
        """PB 14.6.6 / C1: True after a C1 roll of 5-6 (4-6 when the IPL is not high), False while
        C1 is undrawn or failed, Unknown on a 4 (the IPL decides), None when the log shows no
        event draws at all."""
        if not self.any_draw:
            return None
        if not self.c1_drawn or self.c1_roll is None:
            return False
        if self.c1_roll >= 5:
            return True
        if self.c1_roll == 4:
            ipl = self.ipl_at_draw.get("C1")
            return Unknown(IPL_HIGH_DATUM) if ipl is None else ipl < IPL_HIGH   # high: -1 makes it a 3
        return False

    # -- the markers ----------------------------------------------------------------------------
    def on_marker(self, pid: str, old: Unit | None, new: Unit | None, phase: Phase | None,
                  bound: bool, before: GameState, after: GameState, *, step: int,
                  when: str | None) -> list[Finding]:
        """One event marker that changed place in a step."""
        marker = new or old
        assert marker is not None
        info = self._learn(pid, marker)
        if info is None:
            return []
        was = self.places.get(pid, place_of(old))
        now = place_of(new)
        self.places[pid] = now
        turn = phase.turn if (bound and phase is not None) else None
        out: list[Finding] = []
        name = self.names[pid]
        if was == "pool" and now != "pool":
            out += self._draw(pid, info, phase, bound, before, step=step, when=when)
        elif pid == self.c2_optional and was == "drawn" and pid not in self.drawn:
            out += self._draw(pid, info, phase, bound, before, step=step, when=when)   # the turn's event
        elif now == "pool" and was != "pool":
            out += self._into_pool(pid, info, old, turn, step=step, when=when)
        if on_map(was) and not on_map(now):
            if self.open_cities.get(was) == pid:
                del self.open_cities[was]
            if self.wireless is not None and self.wireless[0] == was and info.code == "B7":
                self.wireless = None
        if was in ("drawn", "pool") and now not in ("drawn", "pool"):
            out += self._play(pid, info, name, now, phase, bound, before, after, step=step, when=when)
        elif info.code == "open-city" and on_map(now) and not on_map(was):
            out += self._open_city(pid, info, name, now, phase, bound, before, step=step, when=when)
        return out

    @REGISTRY.reports("EV-02")
    def _draw(self, pid: str, info: EventInfo, phase: Phase | None, bound: bool, before: GameState,
              *, step: int, when: str | None) -> list[Finding]:
        """EV-01 (the pool holds what the turn's strategic turns put in it, less what left it),
        EV-02 (one draw, in the Event Phase)."""
        out: list[Finding] = []
        name = self.names[pid]
        turn = phase.turn if (bound and phase is not None) else None
        draw = Draw(pid, name, turn, step)
        self.any_draw = True
        if bound and phase is not None and phase.key != "event":
            out.append(finding("EV-02", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"event {name} was drawn in the {phase.name}; "
                                       "an event is drawn in the Event Phase only (6.2)",
                               evidence={"event": info.code, "phase": phase.key, "turn": phase.turn}))
        elif bound and phase is not None and self.phase_draws:
            first = self.phase_draws[0]
            out.append(finding("EV-02", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"a second event, {name}, was drawn in the Event Phase of turn "
                                       f"{phase.turn} (the first, {first.name}, at step {first.step}); "
                                       "one event is drawn each Event Phase (6.2)",
                               evidence={"event": info.code, "turn": phase.turn, "first_event":
                                         self.info[first.marker].code, "first_step": first.step}))
        if turn is not None and phase is not None and phase.scenario is not None:
            out += self._judge_pool(pid, phase.scenario, turn, before, step=step, when=when)
        self.phase_draws.append(draw)
        self.drawn[pid] = draw
        if info.code == "C1":
            self.c1_drawn, self.c1_roll = True, None
        if info.code == "D7":
            self.d7_drawn = True
        if info.code == "D6" and self.d7_drawn:
            self.early_brigades = D6_BRIGADES
        if info.code in ("C1", "C2", "D9", "D10"):
            self.ipl_at_draw[info.code] = marker_value(self.data, before, IPL_MARKER)[0]
        if info.code == "A4" and turn is not None:
            self.league_turn = turn
        if info.code in RP_EVENTS:
            self.rp_at_draw[info.code] = rp_markers(before, RP_EVENTS[info.code][0])
        return out

    @REGISTRY.reports("EV-01")
    def _judge_pool(self, drawn_pid: str, scenario: str, turn: int, before: GameState, *,
                    step: int, when: str | None) -> list[Finding]:
        """EV-01: the pool a draw is made from, against PB 13.7 / 14.7 and the draws before."""
        in_pool = {pid for pid, m in before.events.items() if place_of(m) == "pool"}
        for pid, m in before.events.items():
            self._learn(pid, m)
        extra, missing = [], []
        for pid, info in sorted(self.info.items(), key=lambda kv: self.names[kv[0]]):
            if info.code == "open-city" or info.enters_turn is None or pid == self.c2_optional:
                continue
            belongs = info.scenario == scenario and info.enters_turn <= turn
            gone = pid in self.drawn and not info.returns
            expected = belongs and not gone
            if pid in in_pool and not expected:
                why = ("it belongs to the other scenario" if info.scenario != scenario else
                       f"its strategic turn adds it at the start of turn {info.enters_turn}"
                       if info.enters_turn > turn else
                       f"it was drawn at step {self.drawn[pid].step} and only No Event markers return")
                extra.append((pid, why))
            elif pid not in in_pool and expected and pid != drawn_pid:
                missing.append((pid, (f"its strategic turn adds it from turn {info.enters_turn} and it "
                                      "has not been drawn")))
        out: list[Finding] = []
        shown = set(self.counters.values())
        for cid in self.data.counter_ids:       # markers the pool should hold that no piece shows
            info = event_info(self.data, cid)
            if info is None or cid in shown or info.code == "open-city" or info.enters_turn is None \
                    or info.scenario != scenario or info.enters_turn > turn or ("EV-01", cid) in self.reported:
                continue
            self.reported.add(("EV-01", cid))
            name = self.data.counter(cid)["name"].value or cid
            out.append(finding("EV-01", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"event {name} was not in the event pool for the draw of turn {turn}: "
                                       f"its strategic turn adds it from turn {info.enters_turn}, and no piece "
                                       "of it is on the table (6.1; PB 13.7; PB 14.7)",
                               evidence={"event": info.code, "turn": turn, "in_pool": False}))
        for pid, why in extra:
            if ("EV-01", pid) in self.reported:
                continue
            self.reported.add(("EV-01", pid))
            out.append(finding("EV-01", Ruling.PROVEN, step=step, when=when, subjects=(self.names[pid],),
                               message=f"event {self.names[pid]} was in the event pool for the draw of "
                                       f"turn {turn}, but {why} (6.1; PB 13.7; PB 14.7)",
                               evidence={"event": self.info[pid].code, "turn": turn, "in_pool": True}))
        for pid, why in missing:
            if ("EV-01", pid) in self.reported:
                continue
            self.reported.add(("EV-01", pid))
            out.append(finding("EV-01", Ruling.PROVEN, step=step, when=when, subjects=(self.names[pid],),
                               message=f"event {self.names[pid]} was not in the event pool for the draw "
                                       f"of turn {turn}: {why} (6.1; PB 13.7; PB 14.7)",
                               evidence={"event": self.info[pid].code, "turn": turn, "in_pool": False}))
        return out

    @REGISTRY.reports("EV-01", "EV-02")
    def _into_pool(self, pid: str, info: EventInfo, old: Unit | None, turn: int | None, *,
                   step: int, when: str | None) -> list[Finding]:
        """EV-02: only No Event markers go back to the pool once drawn."""
        name = self.names[pid]
        if pid in self.drawn and not info.returns:
            self.reported.add(("EV-01", pid))     # the pool check would report it again
            return [finding("EV-02", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                            message=f"event {name}, drawn at step {self.drawn[pid].step}, was put back in "
                                    "the event pool; only No Event markers return to it (6.2)",
                            evidence={"event": info.code, "drawn_step": self.drawn[pid].step})]
        if pid not in self.drawn and turn is not None and info.enters_turn is not None \
                and turn < info.enters_turn and ("EV-01", pid) not in self.reported:
            self.reported.add(("EV-01", pid))
            return [finding("EV-01", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                            message=f"event {name} was put in the event pool on turn {turn}; its "
                                    f"strategic turn adds it at the start of turn {info.enters_turn} "
                                    "(PB 13.7; PB 14.7)",
                            evidence={"event": info.code, "turn": turn,
                                      "enters_turn": info.enters_turn, "in_pool": True})]
        return []

    # -- held events played ---------------------------------------------------------------------
    @REGISTRY.reports("EV-02")
    def _play(self, pid: str, info: EventInfo, name: str, now: str, phase: Phase | None, bound: bool,
              before: GameState, after: GameState, *, step: int, when: str | None) -> list[Finding]:
        """A marker leaving the pool or "Events drawn" for the map, another box or the game."""
        turn = phase.turn if (bound and phase is not None) else None
        out: list[Finding] = []
        if info.held_by is None and not info.open_city:
            return out              # an event resolved when drawn: its marker may go anywhere
        if on_map(now) and pid in self.played:
            first = self.played[pid]
            out.append(finding("EV-02", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"event {name} was played again at {hex_label(now, self.board)} "
                                       f"(first at step {first[1]}); a played event is removed from the "
                                       "game (6.2)",
                               evidence={"event": info.code, "hex": now, "first_step": first[1]}))
            return out
        if on_map(now) or info.code in ("C4", "D8"):
            self.played[pid] = (turn, step)
        draw = self.drawn.get(pid)
        if info.code in ("C4", "D8"):
            return out + self._played_in_map(pid, info, name, phase, bound, draw, step=step, when=when)
        if not on_map(now):
            return out
        if info.code == "B6":
            return out + self._coordination(name, now, phase, bound, after, step=step, when=when)
        if info.code == "B7":
            return out + self._wireless(name, now, phase, bound, before, step=step, when=when)
        if info.open_city:
            return out + self._open_city(pid, info, name, now, phase, bound, before, step=step, when=when)
        return out

    @REGISTRY.reports("EV-13", "EV-16")
    def _played_in_map(self, pid: str, info: EventInfo, name: str, phase: Phase | None, bound: bool,
                       draw: Draw | None, *, step: int, when: str | None) -> list[Finding]:
        """EV-13 (C4), EV-16 (D8): played in the MAP of a later turn than the draw."""
        if not bound or phase is None:
            return []
        check = "EV-13" if info.code == "C4" else "EV-16"
        wrong_phase = phase.key != "map"
        same_turn = draw is not None and draw.turn is not None and draw.turn >= phase.turn
        if not (wrong_phase or same_turn):
            return []
        why = (f"in the {phase.name}" if wrong_phase else
               f"on turn {phase.turn}, the turn it was drawn")
        return [finding(check, Ruling.PROVEN, step=step, when=when, subjects=(name,),
                        message=f"event {name} was played {why}; it is played in the Mutual "
                                "Administration Phase of a later turn",
                        evidence={"event": info.code, "phase": phase.key, "turn": phase.turn,
                                  "drawn_turn": draw.turn if draw is not None else None})]

    # -- phases ---------------------------------------------------------------------------------
    def on_phase(self, old: Phase | None, new: Phase, bound: bool, state: GameState, *,
                 step: int) -> list[Finding]:
        """The end of an Event Phase: a draw was made (judged at the log's end, once it is known
        that the log shows draws), No Event went back, C1 was rolled, D9/D10 were used or
        discarded at once. A new turn ends Wireless Interception's hold."""
        out: list[Finding] = []
        if bound and old is not None and old.key == "event" and (old.turn, old.key) != (new.turn, new.key):
            out += self._end_event_phase(old, state, step=step)
        if bound and new.key == "event":
            self.phase_draws = []
        if old is not None and (new.turn != old.turn or old.key == "second-movement"):
            self.wireless = None                # the hold lasts the activation, within the segment
        return out

    @REGISTRY.reports("EV-02", "EV-10", "EV-17")
    def _end_event_phase(self, old: Phase, state: GameState, *, step: int) -> list[Finding]:
        out: list[Finding] = []
        when = old.when()
        if not self.phase_draws:
            self.undrawn_phases.append((old.turn, step, when))
        for draw in self.phase_draws:
            info = self.info[draw.marker]
            place = self.places.get(draw.marker)
            if info.returns and place != "pool":
                out.append(finding("EV-02", Ruling.PROVEN, step=step, when=when, subjects=(draw.name,),
                                   message=f"{draw.name}, drawn at step {draw.step}, was not returned to the "
                                           "event pool; No Event markers go back to it (6.2)",
                                   evidence={"event": info.code, "drawn_step": draw.step, "place": place}))
            if info.code == "C2":
                out += self._war_office(draw, state, step=step, when=when)
            if info.code == "C1" and not draw.rolls:
                out.append(finding("EV-10", Ruling.PROVEN, step=step, when=when, subjects=(draw.name,),
                                   message=f"{draw.name} was drawn at step {draw.step} and no die roll "
                                           "followed in the Event Phase; the event is resolved at once "
                                           "with a roll (6.2)",
                                   evidence={"event": "C1", "drawn_step": draw.step, "rolls": []}))
            if info.open_city and place == "drawn":
                out.append(finding("EV-17", Ruling.PROVEN, step=step, when=when, subjects=(draw.name,),
                                   message=f"{draw.name}, drawn at step {draw.step}, was neither used nor "
                                           "discarded in the Event Phase; the Allied player uses or discards "
                                           "it at once",
                                   evidence={"event": info.code, "drawn_step": draw.step,
                                             "problems": ["held past the Event Phase"]}))
        out += self._open_city_rolls(old, state, step=step)
        out += self._rp_received(old, state, step=step)
        self.phase_draws = []
        return out

    def begin(self, view: "StepView") -> list[Finding]:
        self.start(build_state(view.after.table, self.data))
        return []

    def step(self, view: "StepView") -> list[Finding]:
        self.note_rolls(view.index, [r.total for r in view.rolls if r.total is not None])
        return []

    def phase(self, change: PhaseTurned, view: "StepView") -> list[Finding]:
        return self.on_phase(change.old, change.new, change.bound, change.state, step=change.step)

    def end(self, view: "StepView") -> list[Finding]:
        return self.finish()

    @REGISTRY.reports("EV-02")
    def finish(self) -> list[Finding]:
        """EV-02 for each Event Phase that ended without a draw, once the log has shown that it
        records draws (a log that never draws keeps the events off the table)."""
        if not self.any_draw:
            return []
        return [finding("EV-02", Ruling.PROVEN, step=step, when=when,
                        message=f"no event was drawn in the Event Phase of turn {turn}; one event is drawn "
                                "each Event Phase (6.2)",
                        evidence={"turn": turn, "draws": 0})
                for turn, step, when in self.undrawn_phases]


@REGISTRY.check("EV-01", event=EventMarker)
def judge_marker_moved(game: Any, action: EventMarker, view: Any) -> list[Finding]:
    """An event marker changed place: draws, the pool, held events played (EV-01 and the rest,
    `EventLedger.on_marker`), and (35) the coordination an event gives (ET-12)."""
    action.before.scenario = action.after.scenario = game.scenario
    out = game.events.on_marker(action.marker, action.old, action.new, game.interpreter.phase,
                                game.interpreter.phase_bound, action.before, action.after,
                                step=action.step, when=action.when)
    return out + game.activation.judge_coordination(action.new, action.after, step=action.step,
                                                    when=action.when)
