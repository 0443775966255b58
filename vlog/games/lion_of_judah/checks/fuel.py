"""(40) Italian fuel (PB 14.6.1.1 with its errata, PB 14.5.4, the Extended Sequence of Play) and
the 1940-41 starting markers (PB 14.3.1).

The fuel is kept from the log's history in a `FuelLedger`, apart from the marker, and the
marker is judged against it:

* SC-01: the fuel starts at 6 and falls by one in every player phase (the Allied one and the
  Italian one of each turn) in which the Italian player moves an armour unit, an HQ or a truck,
  attacks with an armour unit or uses an air marker (placed on the map, or an Italian air shift
  in an attack declared in chat, `Attack 1605 with ...; air 1/1`) - at most one a phase,
  whatever the number of uses; by one when the Allies conquer Kismayo (1925) or Massawa (1405), by two for
  Addis Ababa (1213) (each the first time its control passes to the Allies). The German DMK is
  motorized but burns no fuel (PB 14.5.4 design note). Moves in the MAP (rail, naval) and in the
  Event Phase (an Open City evacuation) are in no player phase and cost nothing. The optional
  "Captured fuel depots" (+1 the first time an Italian unit enters an Allied USS hex) may or may
  not be in play: the ledger keeps both readings until the marker tells which.
  The marker is judged when a player phase ends (the turn track leaves its combat segment): it
  must show the fuel the ledger holds. A mismatch is reported once; it is reported again only
  when the gap between marker and ledger changes (a second mistake).
* SC-02 (errata): at fuel 0 no HQ, truck or armour moves (MV-47), no armour attacks (CB-40), no
  air marker is placed (AR-10). Judged on the first such use of a player phase: once a phase's
  fuel is paid, the phase's other uses are paid for too ("only one fuel is spent per player
  phase ..., regardless of the number of units moved"), even when that payment spent the last
  fuel.
* SU-06 (PB 14.3.1): when the log begins at the start of the scenario (the turn track shows
  turn 1 before any player phase), the fuel marker shows 6 and the prestige marker 5 when the
  first player phase begins (judged then, so markers misplaced in the starting save and markers
  moved before play are both caught; no event of strategic turn C moves them). A log that
  begins later takes the fuel its marker shows as given.

How the markers show in a module vlog writes: the counters `it-fuel` ("Italian fuel available")
and `it-ipl` ("Italian prestige level") are pieces like any other, and each box of the General
Records Track is a zone of the Off-map Boxes map named as map.json names the box ("General
Records Track box 6", box id `grt-6`). A marker's value is the number of the GRT box it stands
in; moving the marker from one box to another changes it. A module whose bindings name its GRT
locations maps them to the same box ids.

Everything here needs the phase from the turn track: without it the player phases are guessed
and nothing is judged.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.checks.common import REGISTRY, PlayLedger, finding
from vlog.games.lion_of_judah.sequence import side_name
from vlog.games.lion_of_judah.step_events import Appear, Combat, Move, PhaseTurned
from vlog.kit.tracks import box_number
from vlog.kit.tracks import marker_value as kit_marker_value

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.sequence import Phase
    from vlog.games.lion_of_judah.state import GameState, Unit
    from vlog.kit.steps import StepView

__all__ = [
    "ALLIED_USS",
    "CONQUEST_COST",
    "FUEL_MARKER",
    "IPL_MARKER",
    "FuelLedger",
    "burns_fuel",
    "fuel_action",
    "fuel_begin",
    "fuel_control",
    "judge_start_markers",
    "marker_value",
    "player_phase",
    "scenario_number",
    "starts_the_scenario",
    "track_value",
]

FUEL_MARKER = "it-fuel"
IPL_MARKER = "it-ipl"
CONQUEST_COST = {"1925": 1, "1405": 1, "1213": 2}
"""PB 14.6.1.1: Kismayo and Massawa cost one fuel when the Allies conquer them, Addis Ababa two."""
NO_FUEL_COUNTERS = frozenset({"de-dmk"})
"""PB 14.5.4 design note: the German DMK is motorized but costs no fuel."""
ARMOUR_TYPES = frozenset({"armour", "light-armour"})
ALLIED_USS = frozenset({"0505", "0508", "1001", "1122", "1327", "2311", "1910"})
"""PB 14.6.1.2: the Allied USS hexes (Djibouti once French Somaliland joins; the Italians never
enter it before)."""
DEPOTS_OPTION = "whether the optional rule Captured fuel depots (PB 14.6.1.1) is in play"
_USE_CHECK = {"move": "MV-47", "attack": "CB-40", "air": "AR-10"}
_USE_TEXT = {"move": "moved", "attack": "attacked", "air": "was placed on the map"}


def player_phase(phase: Phase | None) -> str | None:
    """'first' or 'second' for a phase in a player phase (its movement or combat segment)."""
    if phase is None or phase.segment is None:
        return None
    return phase.key.split("-", 1)[0]


def burns_fuel(unit: Unit) -> bool:
    """An Italian armour unit, HQ or truck (the DMK excepted): its move costs fuel."""
    return unit.side == "italian" and unit.counter not in NO_FUEL_COUNTERS and (
        unit.kind in ("hq", "truck") or unit.unit_type in ARMOUR_TYPES)


def scenario_number(data: GameData, scenario: str, key: str) -> int | None:
    """A number of the scenario's properties (italian_fuel_start, ipl_start), None if unknown."""
    try:
        props = data.scenario(scenario)["properties"]
    except KeyError:
        return None
    if key not in props:
        return None
    value = props[key].value
    return value if isinstance(value, int) and not isinstance(value, bool) else None


GRT = "grt"
"""The General Records Track's id in map.json (its boxes' `track` property)."""


def track_value(data: GameData, box: str | None) -> int | None:
    """The number of a General Records Track box (vlog/kit/tracks.py), or None."""
    return box_number(data, box, GRT)


def marker_value(data: GameData, state: GameState, counter: str) -> tuple[int | None, Unit | None]:
    """(value, marker) of the marker piece standing for `counter`: the number of its GRT box."""
    return kit_marker_value(data, state.units.values(), counter, GRT)


@dataclass(slots=True)
class FuelLedger(PlayLedger):
    """The Italian fuel the rules give at each moment of the log."""

    only = "1940-41"

    possible: set[int] = field(default_factory=set)
    """Every fuel value some reading of the rules gives (more than one only while the optional
    captured fuel depots may or may not be in play); empty: the fuel is not known."""
    charged: dict[tuple[int, str], tuple[int, str]] = field(default_factory=dict)
    """(turn, 'first'/'second') -> (step, what) of the use that spent the phase's fuel."""
    history: list[dict[str, Any]] = field(default_factory=list)
    """Each change of the fuel: step, why, the values after."""
    conquered: set[str] = field(default_factory=set)
    depot_taken: bool = False
    doubts: set[str] = field(default_factory=set)
    """What keeps more than one value possible (named by POSSIBLE findings)."""
    from_start: bool = False
    """The log begins at the start of the scenario, so the control the log shows is all there is."""
    start_judged: bool = False
    reported_gap: frozenset[int] | None = None
    short_reported: set[tuple[int, str]] = field(default_factory=set)

    def play(self, event: Any) -> list[Finding]:
        """(40) The fuel side of each event of play (SC-01, MV-47, CB-40, AR-10)."""
        game = self.game
        return fuel_action(self, game.data, event, phase=game.interpreter.phase,
                           phase_bound=game.interpreter.phase_bound)

    def step(self, view: "StepView") -> list[Finding]:
        game = self.game                # fuel lost to conquests (PB 14.6.1.1)
        if game.scenario == "1940-41":
            fuel_control(self, game.interpreter.control, game.interpreter._after, step=view.index)
        return []

    @property
    def known(self) -> bool:
        return bool(self.possible)

    def start(self, value: int, why: str, step: int | None = None) -> None:
        self.possible = {value}
        self.history.append({"step": step, "why": why, "fuel": [value]})

    def _change(self, delta: int, why: str, step: int | None) -> None:
        self.possible = {max(0, v + delta) for v in self.possible}
        self.history.append({"step": step, "why": why, "fuel": sorted(self.possible)})

    # -- uses ------------------------------------------------------------------------------------
    @REGISTRY.reports(*_USE_CHECK.values())
    def use(self, use: str, phase: Phase | None, subjects: Iterable[str], *, step: int | None,
            when: str | None, what: str) -> list[Finding]:
        """A fuel use (`use`: "move", "attack" or "air") in `phase`: charges the player phase's
        one fuel, or reports the use when there was none left (SC-02: MV-47, CB-40, AR-10)."""
        pp = player_phase(phase)
        if pp is None or phase is None or not self.known:
            return []
        key = (phase.turn, pp)
        if key in self.charged:
            return []
        before = sorted(self.possible)
        self.charged[key] = (step if step is not None else -1, f"{what} {_USE_TEXT[use]}")
        out: list[Finding] = []
        if 0 in self.possible and key not in self.short_reported:
            self.short_reported.add(key)
            proven = self.possible == {0}
            out.append(finding(
                _USE_CHECK[use], Ruling.PROVEN if proven else Ruling.POSSIBLE, step=step, when=when,
                subjects=tuple(subjects),
                message=f"{what} {_USE_TEXT[use]} with the Italian fuel at 0: without fuel no HQ, "
                        "truck or armour unit moves, no armour attacks and no air marker is used",
                evidence={"fuel": before, "use": use, "turn": phase.turn, "player_phase": pp,
                          "fuel_history": self.history[-6:]},
                depends_on=() if proven else tuple(sorted(self.doubts))))
        if self.possible != {0}:
            self._change(-1, f"{what} {_USE_TEXT[use]} (turn {phase.turn}, {pp} player phase)", step)
        return out

    def conquest(self, hex_: str, *, step: int | None, doubt: str | None = None) -> None:
        """The Allies took control of Kismayo, Massawa or Addis Ababa (the first time each);
        `doubt` names why it may not be a conquest that costs fuel (both readings kept)."""
        if hex_ in self.conquered or hex_ not in CONQUEST_COST or not self.known:
            return
        self.conquered.add(hex_)
        cost = CONQUEST_COST[hex_]
        if doubt is None:
            self._change(-cost, f"the Allies conquered {hex_}", step)
            return
        self.possible |= {max(0, v - cost) for v in self.possible}
        self.doubts.add(doubt)
        self.history.append({"step": step, "why": f"the Allies took control of {hex_} ({doubt})",
                             "fuel": sorted(self.possible)})

    def depot(self, hex_: str, *, step: int | None) -> None:
        """An Italian unit entered an Allied USS hex: +1 if the optional rule is in play."""
        if self.depot_taken or not self.known:
            return
        self.depot_taken = True
        self.possible |= {v + 1 for v in self.possible}
        self.doubts.add(DEPOTS_OPTION)
        self.history.append({"step": step, "why": f"an Italian unit entered the Allied USS hex {hex_} "
                                                   "(+1 under the optional captured fuel depots)",
                             "fuel": sorted(self.possible)})

    # -- the marker ------------------------------------------------------------------------------
    @REGISTRY.reports("SC-01")
    def judge_marker(self, shown: int | None, marker: Unit | None, closed: Phase, *,
                     step: int | None) -> list[Finding]:
        """SC-01 at the end of player phase `closed`: the marker shows the ledger's fuel."""
        pp = player_phase(closed)
        if not self.known or pp is None or marker is None:
            return []
        if shown is None:
            return []          # off the track: nothing to read (a module this does not know)
        if shown in self.possible:
            self.possible = {shown}     # the marker tells which reading holds
            self.reported_gap = None
            return []
        gap = frozenset(shown - v for v in self.possible)
        if gap == self.reported_gap:
            return []
        self.reported_gap = gap
        expected = sorted(self.possible)
        spent = self.charged.get((closed.turn, pp))
        why = (f"fuel was spent in it: {spent[1]} at step {spent[0]}" if spent is not None
               else "no fuel was spent in it")
        text = " or ".join(str(v) for v in expected)
        return [finding("SC-01", Ruling.PROVEN, step=step, when=closed.when(), subjects=(marker.name,),
                        message=f"the {marker.name} marker shows {shown} at the end of the "
                                f"{side_name(closed.phasing)} player phase of turn {closed.turn}; "
                                f"the fuel is {text} ({why})",
                        evidence={"shown": shown, "expected": expected, "turn": closed.turn,
                                  "player_phase": pp, "spent_this_phase": spent is not None,
                                  "fuel_history": self.history[-6:]})]


@REGISTRY.reports("SU-06")
def judge_start_markers(data: GameData, state: GameState, *, step: int | None,
                        when: str | None) -> list[Finding]:
    """SU-06 (PB 14.3.1): at the start of the 1940-41 scenario the fuel marker is in GRT box 6
    and the prestige marker in box 5 (markers not on the table are not judged)."""
    out: list[Finding] = []
    for counter, key, label in ((FUEL_MARKER, "italian_fuel_start", "fuel"),
                                (IPL_MARKER, "ipl_start", "prestige level")):
        wanted = scenario_number(data, "1940-41", key)
        shown, marker = marker_value(data, state, counter)
        if wanted is None or marker is None or shown == wanted:
            continue
        where = f"GRT box {shown}" if shown is not None else "no box of the General Records Track"
        out.append(finding("SU-06", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                           message=f"the {marker.name} marker starts in {where}; the 1940-41 scenario "
                                   f"starts with the Italian {label} at {wanted} (GRT box {wanted})",
                           evidence={"marker": counter, "shown": shown, "expected": wanted,
                                     "box": marker.box}))
    return out


# -- what the engine calls --------------------------------------------------------------------------

def starts_the_scenario(phase: Phase | None) -> bool:
    """The turn track shows turn 1 before any player phase (PB 14.1: the scenario begins at the
    start of the Event Phase)."""
    return phase is not None and phase.turn == 1 and phase.key in ("map", "event")


def fuel_begin(ledger: FuelLedger, data: GameData, state: GameState,
               phase: Phase | None) -> list[Finding]:
    """Sets the fuel the log begins with: 6 at the start of the scenario (the markers are
    judged when the first player phase begins), else what the marker shows when the turn track
    tells the phase."""
    if phase is None:
        return []
    if starts_the_scenario(phase):
        start = scenario_number(data, "1940-41", "italian_fuel_start")
        if start is not None:
            ledger.start(start, "the 1940-41 scenario starts with 6 fuel (PB 14.6.1.1)", 0)
            ledger.from_start = True
            # Allied units already in one of these hexes when the scenario starts conquered nothing
            ledger.conquered |= {h for h in CONQUEST_COST
                                 if any(u.side == "allied" and u.has_combat_factor for u in state.at(h))}
        return []
    shown, _ = marker_value(data, state, FUEL_MARKER)
    if shown is not None:
        ledger.start(shown, f"the fuel marker at the start of the log ({phase.when()})", 0)
    return []


def fuel_action(ledger: FuelLedger, data: GameData, action: Any, *, phase: Phase | None,
                phase_bound: bool) -> list[Finding]:
    """The fuel side of one engine event (step_events.py; 1940-41 only): a use of fuel, an
    Italian unit into an Allied USS hex, or the end of a player phase (the marker judged)."""
    if isinstance(action, PhaseTurned):
        old, new = action.old, action.new
        out: list[Finding] = []
        if action.bound and ledger.from_start and not ledger.start_judged \
                and player_phase(new) is not None and new.turn == 1:
            ledger.start_judged = True         # SU-06 when play begins
            out = judge_start_markers(data, action.state, step=action.step, when=new.when())
            shown, _ = marker_value(data, action.state, FUEL_MARKER)
            if shown is not None and ledger.possible and shown not in ledger.possible:
                ledger.reported_gap = frozenset(shown - v for v in ledger.possible)
        if not action.bound or old is None or player_phase(old) is None:
            return out
        if player_phase(new) == player_phase(old) and new.turn == old.turn:
            return out
        shown, marker = marker_value(data, action.state, FUEL_MARKER)
        return out + ledger.judge_marker(shown, marker, old, step=action.step)
    if isinstance(action, Combat):
        pending = action.pending
        if not pending.phase_bound:
            return []
        armour = [u for u in action.attackers if u.side == "italian" and u.unit_type in ARMOUR_TYPES
                  and u.counter not in NO_FUEL_COUNTERS]
        out = []
        if armour:
            names = ", ".join(u.name for u in armour)
            out += ledger.use("attack", pending.phase, [u.name for u in armour], step=action.step,
                              when=action.when, what=f"armour unit {names}")
        air = pending.declaration.air
        if air is not None and pending.side in ("italian", "allied"):
            # the declaration's net air shifts (attacker/defender): an Italian shift means an
            # Italian air marker flew in the combat, even where none was placed on the map
            italian = air[0] if pending.side == "italian" else air[1]
            if italian > 0:
                out += ledger.use("air", pending.phase, ["Italian air support"], step=action.step,
                                  when=action.when, what=f"Italian air support ({italian} shift(s) declared)")
        return out
    if not phase_bound or not isinstance(action, (Move, Appear)):
        return []
    unit = action.unit
    if unit.side != "italian":
        return []
    to = action.to if isinstance(action, Move) else action.hex
    if unit.kind == "air":
        if to is None:
            return []           # back to its box
        return ledger.use("air", phase, [unit.name], step=action.step, when=action.when,
                          what=f"air marker {unit.name}")
    if not isinstance(action, Move) or unit.hex is None or to is None:
        return []
    out = []
    if to in ALLIED_USS and unit.has_combat_factor:
        ledger.depot(to, step=action.step)
    if burns_fuel(unit):
        label = {"hq": "HQ", "truck": "truck"}.get(unit.kind, "armour unit")
        what = unit.name if label.casefold() in unit.name.casefold() else f"{label} {unit.name}"
        out += ledger.use("move", phase, [unit.name], step=action.step, when=action.when, what=what)
    return out


def fuel_control(ledger: FuelLedger, control: dict[str, str], state: GameState | None, *,
                 step: int | None) -> None:
    """PB 14.6.1.1: fuel lost when the Allies conquer Kismayo, Massawa or Addis Ababa. Taken by
    guerrillas alone (TS-06: they control the hex) or in a log that begins later (the hex may
    have been Allied before), the loss is only one of the readings kept."""
    for hex_ in CONQUEST_COST:
        if control.get(hex_) != "allied" or hex_ in ledger.conquered:
            continue
        there = [u for u in state.at(hex_) if u.side == "allied"] if state is not None else []
        doubt = None
        if not ledger.from_start:
            doubt = f"whether {hex_} was Allied before the log began"
        elif there and all(u.unit_class == "guerrilla" for u in there):
            doubt = f"whether guerrillas alone conquer {hex_} for the fuel rule (PB 14.6.1.1, 14.6.4.1)"
        ledger.conquest(hex_, step=step, doubt=doubt)
