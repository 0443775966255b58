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

`EventLedger` keeps the history (the Game holds one); each `on_*` method returns the findings
of one action, `finish` those known only when the log ends.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, GameLedger, finding
from vlog.games.lion_of_judah.step_events import EventMarker, PhaseTurned
from vlog.games.lion_of_judah.checks.fuel import marker_value
from vlog.games.lion_of_judah.state import GameState, Unit, build_state

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.sequence import Phase
    from vlog.kit.steps import StepView

__all__ = ["DRAWN_BOX", "IPL_HIGH_DATUM", "POOL_BOX", "EventInfo", "EventLedger", "event_info", "rp_markers"]

POOL_BOX = "event-cup"
DRAWN_BOX = "event-drawn"
IPL_HIGH_DATUM = "whether the IPL was high (9 or more) when Event C1 was rolled (PB 14.6.3)"
C1_NOT_SHOWN = "Event C1 French Somaliland drawn with a roll of 4-6 (the log shows no event draws)"
BDO_TURN = 9
"""PB 14.6.6: a neutral French Somaliland's BdO brigade enters as an Allied unit on turn 9."""
RP_EVENTS = {"A3": ("ethiopian", "EV-05"), "C3": ("italian", "EV-12")}
"""Events that give RPs: the side receiving them and the check judging where they went."""
IPL_MARKER = "it-ipl"
IPL_HIGH, IPL_LOW = 9, 4
"""PB 14.6.3: the IPL is high at 9 or more, low at 4 or less."""
D6_BRIGADES = 3
"""D6 Italian Defeat in Libya: three Commonwealth brigades arrive one turn earlier."""
GASSED = "mk-gassed"
"""PB 13.6.5.1: the marker a gas attack puts on each unit it affects."""
BERBERA = "2311"
IPL_LOW_DATUM = "whether the IPL was low (4 or less) when Event C2 was rolled: +1 makes a 4 a 5 (PB 14.6.3)"
VP_TABLE = "vp-hexes-1940-41"
"""PB 14.4.1: the VP of each hex (0 off the list): an open city needs a roll above it."""
OPEN_CITY_AREAS = ("eritrea", "ethiopia", "italian-somaliland")
"""D9/D10: a town or capital in Eritrea, Ethiopia or Italian Somaliland."""


@dataclass(frozen=True, slots=True)
class EventInfo:
    """What the counter data says of one event marker."""

    code: str                   # "A1" ... "D10", "open-city"
    scenario: str | None
    enters_turn: int | None     # the turn its strategic turn adds it to the pool
    held_by: str | None         # the side the text gives it to, when it is held
    returns: bool               # a No Event marker

    @property
    def open_city(self) -> bool:
        return self.code in ("D9", "D10", "open-city")


def event_info(data: GameData, counter: str | None) -> EventInfo | None:
    """The event a marker's counter stands for (None for a counter without an event code)."""
    if counter is None or counter not in data.counter_ids:
        return None
    record = data.counter(counter)
    props = record["properties"] if "properties" in record else {}

    def prop(key: str) -> Any:
        return props[key].value if key in props else None

    code = prop("event")
    if not isinstance(code, str):
        return None
    enters = prop("enters_pool_on_turn")
    return EventInfo(code, prop("scenario"), enters if isinstance(enters, int) else None,
                     prop("held_by"), prop("returns_to_pool") is True)


def rp_markers(state: GameState, side: str) -> dict[str, tuple[str | None, str | None, int]]:
    """A side's RP markers: id -> (hex, box, RPs shown), the RPs read from the face level
    ("1rp", "2rp", "3rp", "5rp": 7.3.1) of counters typed "rp"."""
    out: dict[str, tuple[str | None, str | None, int]] = {}
    for unit in state.units.values():
        if unit.unit_type != "rp" or unit.side != side:
            continue
        level = unit.level or ""
        value = int(level[:-2]) if level.endswith("rp") and level[:-2].isdigit() else 0
        out[unit.id] = (unit.hex, unit.box, value)
    return out


def _place(marker: Unit | None) -> str:
    """'pool', 'drawn', a hex number, 'gone' (deleted) or 'box:<id>' / 'off' (elsewhere)."""
    if marker is None:
        return "gone"
    if marker.hex is not None:
        return marker.hex
    if marker.box == POOL_BOX:
        return "pool"
    if marker.box == DRAWN_BOX:
        return "drawn"
    return f"box:{marker.box}" if marker.box else "off"


def _on_map(place: str) -> bool:
    return place.isdigit()


@dataclass(slots=True)
class _Draw:
    marker: str
    name: str
    turn: int | None
    step: int
    rolls: list[int] = field(default_factory=list)


@dataclass(slots=True)
class EventLedger(GameLedger):
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
    """Piece id -> where the marker stands now (see `_place`)."""
    c2_optional: str | None = None
    """C2's piece when the log begins with it out of the pool, held: the optional rule "Less
    randomness for British Somaliland" (the Italian player holds it; it is a later turn's event)."""
    drawn: dict[str, _Draw] = field(default_factory=dict)
    """Piece id -> its (last) draw."""
    any_draw: bool = False
    phase_draws: list[_Draw] = field(default_factory=list)
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
            self.places[pid] = _place(marker)
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
        was = self.places.get(pid, _place(old))
        now = _place(new)
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
        if _on_map(was) and not _on_map(now):
            if self.open_cities.get(was) == pid:
                del self.open_cities[was]
            if self.wireless is not None and self.wireless[0] == was and info.code == "B7":
                self.wireless = None
        if was in ("drawn", "pool") and now not in ("drawn", "pool"):
            out += self._play(pid, info, name, now, phase, bound, before, after, step=step, when=when)
        elif info.code == "open-city" and _on_map(now) and not _on_map(was):
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
        draw = _Draw(pid, name, turn, step)
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
        in_pool = {pid for pid, m in before.events.items() if _place(m) == "pool"}
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
        if _on_map(now) and pid in self.played:
            first = self.played[pid]
            out.append(finding("EV-02", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"event {name} was played again at {hex_label(now, self.board)} "
                                       f"(first at step {first[1]}); a played event is removed from the "
                                       "game (6.2)",
                               evidence={"event": info.code, "hex": now, "first_step": first[1]}))
            return out
        if _on_map(now) or info.code in ("C4", "D8"):
            self.played[pid] = (turn, step)
        draw = self.drawn.get(pid)
        if info.code in ("C4", "D8"):
            return out + self._played_in_map(pid, info, name, phase, bound, draw, step=step, when=when)
        if not _on_map(now):
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
                       draw: _Draw | None, *, step: int, when: str | None) -> list[Finding]:
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

    @REGISTRY.reports("ET-12")
    def _coordination(self, name: str, hex_: str, phase: Phase | None, bound: bool, after: GameState,
                      *, step: int, when: str | None) -> list[Finding]:
        """ET-12 (B6): placed on an Ethiopian leader when it activates: in the Ethiopian
        activation segment, on a hex with an Ethiopian leader."""
        out: list[Finding] = []
        leaders = [u for u in after.at(hex_) if u.kind == "leader" and u.side == "ethiopian"]
        if not leaders:
            out.append(finding("ET-12", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"{name} was placed at {hex_label(hex_, self.board)}, "
                                       "where no Ethiopian leader stands; it is placed on a leader "
                                       "being activated",
                               evidence={"hex": hex_, "leaders": []}))
        if bound and phase is not None and phase.key != "second-movement":
            out.append(finding("ET-12", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"{name} was placed in the "
                                       f"{phase.name}; it is placed when a leader "
                                       "is activated, in the Ethiopian activation segment",
                               evidence={"hex": hex_, "phase": phase.key}))
        return out

    @REGISTRY.reports("ET-13")
    def _wireless(self, name: str, hex_: str, phase: Phase | None, bound: bool, before: GameState,
                  *, step: int, when: str | None) -> list[Finding]:
        """ET-13 (B7): on a hex of Ethiopian units not within one hex of the Negus; in the
        Ethiopian movement segment only right after an activation roll, before that tribe moves."""
        out: list[Finding] = []
        units = [u for u in before.at(hex_) if u.side == "ethiopian" and u.kind != "air"]
        if not bound or phase is None or phase.key == "second-movement":
            # played in the Ethiopian movement it holds the stack; elsewhere it is the air use (AR-13)
            self.wireless = (hex_, frozenset(u.id for u in units), step)
        if not units:
            out.append(finding("ET-13", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"{name} was placed at {hex_label(hex_, self.board)}, "
                                       "a hex without Ethiopian units",
                               evidence={"hex": hex_, "ethiopian_units": []}))
        negus = [u for u in before.units.values() if u.counter == "et-negus" and u.hex is not None]
        near = [u for u in negus if self.board.distance(u.hex, hex_) <= 1]  # type: ignore[arg-type]
        if near:
            out.append(finding("ET-13", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"{name} was placed at {hex_label(hex_, self.board)}, "
                                       f"within one hex of the Negus ({near[0].hex}); it marks units "
                                       "not within one hex (inclusive) of the Negus",
                               evidence={"hex": hex_, "negus_hex": near[0].hex}))
        if bound and phase is not None and phase.scenario == "1935-36" and phase.key == "second-movement":
            moved = self.last_move_step.get("ethiopian")
            rolled = self.last_roll_step
            if rolled is None or (moved is not None and moved > rolled):
                out.append(finding("ET-13", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                                   message=f"{name} was played in the Ethiopian movement "
                                           "segment but not right after a tribal activation roll "
                                           f"(last roll: step {rolled}; last Ethiopian move: step {moved})",
                                   evidence={"hex": hex_, "last_roll_step": rolled,
                                             "last_ethiopian_move_step": moved}))
        return out

    @REGISTRY.reports("EV-17")
    def _open_city(self, pid: str, info: EventInfo, name: str, hex_: str, phase: Phase | None,
                   bound: bool, before: GameState, *, step: int, when: str | None) -> list[Finding]:
        """EV-17 (D9/D10): used at once, on a town or capital of Eritrea, Ethiopia or Italian
        Somaliland next to a Commonwealth unit and not surrounded by Allied units."""
        self.open_cities[hex_] = pid
        if bound and phase is not None and phase.key == "event":
            self.city_rolls[hex_] = []
        out: list[Finding] = []
        problems: list[str] = []
        depends: list[str] = []
        town = [self.board.has_feature(hex_, f) for f in ("town", "capital")]
        if not any(t is True for t in town):
            if any(isinstance(t, Unknown) for t in town):
                depends.extend(d for t in town if isinstance(t, Unknown) for d in t.data)
            else:
                problems.append("it is not a town or capital")
        areas = [self.board.in_zone(hex_, z) for z in OPEN_CITY_AREAS]
        if not any(a is True for a in areas):
            if any(isinstance(a, Unknown) for a in areas):
                depends.extend(d for a in areas if isinstance(a, Unknown) for d in a.data)
            else:
                problems.append("it is not in Eritrea, Ethiopia or Italian Somaliland")
        around = self.board.neighbours(hex_)
        commonwealth = [u for n in around for u in before.at(n)
                        if u.side == "allied" and u.unit_class != "guerrilla" and u.kind != "air"
                        and (self.data.counter(u.counter)["nationality"].value
                             if u.counter and "nationality" in self.data.counter(u.counter) else None)
                        == "british-commonwealth"]
        if not commonwealth:
            problems.append("no Commonwealth unit is next to it")
        if around and all(any(u.side == "allied" and u.kind != "air" for u in before.at(n)) for n in around):
            problems.append("Allied units surround it completely")
        if bound and phase is not None:
            draw = self.drawn.get(pid)
            if info.code != "open-city" and (phase.key != "event" or draw is None or draw.turn != phase.turn):
                problems.append("it was not played at once, in the Event Phase it was drawn")
            ipl = self.ipl_at_draw.get(info.code) if info.code != "open-city" else next(
                (self.ipl_at_draw.get(self.info[d.marker].code) for d in self.phase_draws
                 if self.info[d.marker].open_city), None)
            if ipl is not None and ipl >= IPL_HIGH:
                problems.append(f"the IPL was {ipl} (high) when the event was drawn: it is discarded")
            if info.code == "open-city" and (phase.key != "event" or not any(
                    self.info[d.marker].open_city for d in self.phase_draws)):
                problems.append("no Città Aperta event (D9, D10) was drawn in this Event Phase")
        if not problems and not depends:
            return out
        ruling = Ruling.PROVEN if problems else Ruling.POSSIBLE
        reasons = "; ".join(problems) or "the hex may not qualify"
        out.append(finding("EV-17", ruling, step=step, when=when, subjects=(name,),
                           message=f"{name} was played on {hex_label(hex_, self.board)}: {reasons}",
                           evidence={"event": info.code, "hex": hex_, "problems": problems},
                           depends_on=() if problems else depends))
        return out

    # -- units ----------------------------------------------------------------------------------
    @REGISTRY.reports("ET-13", "MV-46")
    def on_unit_move(self, unit: Unit, to: str, phase: Phase | None, bound: bool, *, step: int,
                     when: str | None) -> list[Finding]:
        """MV-46 (no Italian move into an open city), ET-13 (the marked stack stays put)."""
        if unit.side is not None:
            self.last_move_step[unit.side] = step
        out: list[Finding] = []
        if unit.side == "italian" and to in self.open_cities:
            marker = self.names.get(self.open_cities[to], "Open City")
            out.append(finding("MV-46", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                               message=f"{unit.name} moved into {hex_label(to, self.board)}, which holds the "
                                       f"open city marker {marker}; Italian units enter an open city only "
                                       "by advance after combat",
                               evidence={"hex": to, "from": unit.hex, "marker": marker}))
        out += self._free_french(unit, to, phase, bound, step=step, when=when)
        if self.wireless is not None and unit.id in self.wireless[1] and unit.hex == self.wireless[0] \
                and bound and phase is not None and phase.key == "second-movement" \
                and phase.scenario == "1935-36" and ("ET-13-move", unit.id) not in self.reported:
            self.reported.add(("ET-13-move", unit.id))
            out.append(finding("ET-13", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                               message=f"{unit.name} moved out of {hex_label(unit.hex, self.board)} under the "
                                       "Wireless Interception marker; the marked stack may not move during "
                                       "that activation",
                               evidence={"hex": unit.hex, "to": to, "marked_at_step": self.wireless[2]}))
        return out

    @REGISTRY.reports("SC-08")
    def _free_french(self, unit: Unit, to: str, phase: Phase | None, bound: bool, *, step: int,
                     when: str | None) -> list[Finding]:
        """SC-08 (PB 14.6.6): the Free French units in Djibouti are not Allied-controlled until C1
        makes French Somaliland join; the BdO enters as an Allied unit on turn 9 if it has not."""
        if unit.counter is None or unit.side != "allied" or (phase is not None and phase.scenario != "1940-41"):
            return []
        record = self.data.counter(unit.counter)
        if "nationality" not in record or record["nationality"].value != "free-french":
            return []
        if unit.counter == "ff-bdo" and bound and phase is not None and phase.turn >= BDO_TURN:
            return []
        joined = self.french_somaliland_joined()
        if joined is True or ("SC-08", unit.id) in self.reported:
            return []
        self.reported.add(("SC-08", unit.id))
        depends = (C1_NOT_SHOWN,) if joined is None else joined.data if isinstance(joined, Unknown) else ()
        return [finding("SC-08", Ruling.POSSIBLE if depends else Ruling.PROVEN, step=step, when=when,
                        subjects=(unit.name,),
                        message=f"{unit.name} moved to {hex_label(to, self.board)} while French Somaliland "
                                "had not joined the Allies (Event C1); the Free French units are not "
                                "Allied-controlled until then",
                        evidence={"from": unit.hex, "hex": to, "c1_drawn": self.c1_drawn,
                                  "c1_roll": self.c1_roll}, depends_on=depends)]

    def entry_turn(self, unit: Unit, turn: int) -> int:
        """EV-14 (D6): the turn a reinforcement is judged against for its entry turn (RR-01): after
        D6 (drawn after D7) up to three Commonwealth brigades may enter one turn early, and each
        that does uses one of the three; otherwise (D6 before D7 is discarded) the turn itself."""
        scheduled = unit.properties.get("entry_turn") if unit.properties else None
        if self.early_brigades <= 0 or unit.side != "allied" or unit.size != "brigade" \
                or not isinstance(scheduled, int) or scheduled != turn + 1 or unit.counter is None:
            return turn
        record = self.data.counter(unit.counter)
        if "nationality" not in record or record["nationality"].value != "british-commonwealth":
            return turn
        self.early_brigades -= 1
        return turn + 1

    @REGISTRY.reports("EV-06")
    def on_air_mission(self, marker: Unit, hex_: str, phase: Phase | None, bound: bool,
                       attacked: str | None, *, step: int, when: str | None) -> list[Finding]:
        """EV-06 (A4): no bombing in the turn League of Nations is drawn. A bombing is an Italian
        air marker placed in the Italian combat segment on a hex that is not the target of the
        attack being resolved (air support is committed to a declared attack, 12.4 step 3; a
        bombing is placed at the segment's start, PB 13.6.5.1). Gas attacks share the Ethiopian
        movement segment with interdiction and are not told apart."""
        if not bound or phase is None or self.league_turn != phase.turn or marker.side != "italian" \
                or phase.scenario != "1935-36" or phase.key != "first-combat" or hex_ == attacked:
            return []
        return [finding("EV-06", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                        message=f"air marker {marker.name} was placed on {hex_label(hex_, self.board)} in the "
                                f"Italian combat segment of turn {phase.turn}, not on a declared attack: a "
                                "bombing mission, barred on the turn Event A4 League of Nations is drawn",
                        evidence={"hex": hex_, "turn": phase.turn, "attack_target": attacked})]

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

    def _british_somaliland_italians(self, state: GameState) -> tuple[list[str], list[str]]:
        """Names of the Italian-controlled units in British Somaliland, and the map data that
        would settle the hexes not known to be in it or out of it."""
        names, depends = [], []
        for u in state.units.values():
            if u.side != "italian" or u.hex is None or u.kind == "air":
                continue
            inside = self.board.in_zone(u.hex, "british-somaliland")
            if inside is True:
                names.append(u.name)
            elif isinstance(inside, Unknown):
                depends.extend(inside.data)
        return names, sorted(set(depends))

    @REGISTRY.reports("EV-11")
    def _war_office(self, draw: _Draw, state: GameState, *, step: int, when: str) -> list[Finding]:
        """EV-11 (C2): with Italian-controlled units in British Somaliland the Allied player rolls
        (+1 when the IPL is low): 1-4 closes Berbera to reinforcements and rebuilt units."""
        italians, _ = self._british_somaliland_italians(state)
        if not italians:
            return []                           # discarded: no effect
        if not draw.rolls:
            return [finding("EV-11", Ruling.PROVEN, step=step, when=when, subjects=(draw.name,),
                            message=f"{draw.name} was drawn at step {draw.step} with Italian-controlled units "
                                    f"in British Somaliland ({', '.join(italians)}) and no die roll followed "
                                    "in the Event Phase",
                            evidence={"event": "C2", "drawn_step": draw.step, "italian_units": italians,
                                      "rolls": []})]
        roll = draw.rolls[0]
        if roll <= 3:
            self.berbera_closed = (draw.step, Ruling.PROVEN, ())
        elif roll == 4:
            ipl = self.ipl_at_draw.get("C2")
            if ipl is None:
                self.berbera_closed = (draw.step, Ruling.POSSIBLE, (IPL_LOW_DATUM,))
            elif ipl > IPL_LOW:                 # not low: no +1, the 4 closes Berbera
                self.berbera_closed = (draw.step, Ruling.PROVEN, ())
        return []

    @REGISTRY.reports("EV-06", "EV-11")
    def on_placement(self, unit: Unit, hex_: str, before: GameState, phase: Phase | None, bound: bool,
                     *, step: int, when: str | None) -> list[Finding]:
        """EV-11 (C2): no Allied reinforcement or rebuilt unit placed at Berbera (2311) while C2
        holds, that is until no Italian-controlled unit is left in British Somaliland. EV-06 (A4):
        a Gassed marker placed in the turn League of Nations is drawn shows a gas attack."""
        if unit.counter == GASSED and bound and phase is not None and self.league_turn == phase.turn:
            return [finding("EV-06", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                            message=f"a Gassed marker was placed at {hex_label(hex_, self.board)} on turn "
                                    f"{phase.turn}: a gas attack, barred on the turn Event A4 League of "
                                    "Nations is drawn",
                            evidence={"hex": hex_, "turn": phase.turn, "marker": GASSED})]
        if self.berbera_closed is None or unit.side != "allied" or hex_ != BERBERA:
            return []
        italians, depends = self._british_somaliland_italians(before)
        if not italians:
            if not depends:
                self.berbera_closed = None      # the order lapses (C2)
            return []
        drawn_step, ruling, data = self.berbera_closed
        return [finding("EV-11", ruling, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} was placed at {hex_label(hex_, self.board)} while War Office No "
                                f"Resistance Orders (C2, step {drawn_step}) closes it: Italian-controlled units "
                                f"are in British Somaliland ({', '.join(italians)})",
                        evidence={"hex": hex_, "italian_units": italians, "c2_step": drawn_step},
                        depends_on=data)]

    @REGISTRY.reports("EV-17")
    def _open_city_rolls(self, old: Phase, state: GameState, *, step: int) -> list[Finding]:
        """EV-17 (D9/D10): the die decides: above the hex's VP the Italian units leave it (and
        only then does the Open City marker stay); otherwise the marker goes."""
        out: list[Finding] = []
        when = old.when()
        table = self.data.table(VP_TABLE) if VP_TABLE in self.data.table_ids else None
        for hex_, rolls in self.city_rolls.items():
            pid = self.open_cities.get(hex_)
            if pid is None:
                continue                    # the marker left the hex: a failed roll, or discarded
            name = self.names.get(pid, "Open City")
            if not rolls:
                out.append(finding("EV-17", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                                   message=f"{name} stays on {hex_label(hex_, self.board)} with no die roll "
                                           "logged after it was placed; the roll must beat the hex's VP",
                                   evidence={"hex": hex_, "problems": ["no roll"]}))
                continue
            datum = table.lookup(hex_) if table is not None else None
            vp = datum.value if datum is not None and datum.known else None
            if vp is None:
                continue
            italians = [u.name for u in state.at(hex_) if u.side == "italian" and u.kind != "air"]
            if rolls[0] <= vp:
                out.append(finding("EV-17", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                                   message=f"{name} stays on {hex_label(hex_, self.board)} after a roll of "
                                           f"{rolls[0]}, not above its {vp} VP: the city is not open",
                                   evidence={"hex": hex_, "roll": rolls[0], "vp": vp,
                                             "problems": ["roll not above the VP"]}))
            elif italians:
                out.append(finding("EV-17", Ruling.PROVEN, step=step, when=when, subjects=tuple(italians),
                                   message=f"{', '.join(italians)} still in {hex_label(hex_, self.board)} when the "
                                           f"Event Phase ends, after it was declared an open city (roll "
                                           f"{rolls[0]} above {vp} VP); the Italian units move out",
                                   evidence={"hex": hex_, "roll": rolls[0], "vp": vp, "italian_units": italians,
                                             "problems": ["Italian units stayed"]}))
        self.city_rolls = {}
        return out

    @REGISTRY.reports(*(check for _, check in RP_EVENTS.values()))
    def _rp_received(self, old: Phase, state: GameState, *, step: int) -> list[Finding]:
        """EV-05 (A3): two Ethiopian RPs, each on a map hex with an Ethiopian leader; EV-12 (C3):
        two Italian RPs, both in the same Italian RP storage box. Counted from the RP markers
        (7.3.1: each shows 1, 2, 3 or 5 RPs) added between the draw and the Phase's end."""
        out: list[Finding] = []
        when = old.when()
        for code, at_draw in self.rp_at_draw.items():
            side, check = RP_EVENTS[code]
            added: dict[str, int] = {}          # hex or box -> RPs added there
            for uid, (hex_, box, value) in rp_markers(state, side).items():
                was = at_draw.get(uid)
                gain = value - (was[2] if was is not None and was[:2] == (hex_, box) else 0)
                if gain > 0:
                    where = hex_ or f"box:{box}"
                    added[where] = added.get(where, 0) + gain
            total = sum(added.values())
            problems: list[str] = []
            if total != 2:
                problems.append(f"{total} RPs were placed, not two")
            if code == "A3":
                for where in added:
                    leaders = [u for u in state.at(where) if u.kind == "leader" and u.side == "ethiopian"] \
                        if where.isdigit() else []
                    if not leaders:
                        problems.append(f"RPs placed at {where if where.isdigit() else where[4:] + ' box'}, "
                                        "not on a map hex with an Ethiopian leader")
            else:
                boxes = [w[4:] for w in added if w.startswith("box:")]
                if len(added) > 1:
                    problems.append(f"the RPs were split between {', '.join(sorted(w.removeprefix('box:') for w in added))}")
                if any(not b.startswith("rp-italian") for b in boxes) or any(w.isdigit() for w in added):
                    problems.append("RPs placed outside the Italian RP storage boxes")
            if problems:
                name = next((n for pid, n in self.names.items() if self.info[pid].code == code), code)
                out.append(finding(check, Ruling.PROVEN, step=step, when=when, subjects=(name,),
                                   message=f"{name}: " + "; ".join(problems),
                                   evidence={"event": code, "rp_added": dict(sorted(added.items())),
                                             "problems": problems}))
        self.rp_at_draw = {}
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
