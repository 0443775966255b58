"""The sequence of play (5.2, Extended Sequence of Play, PB 13.5, PB 14.5) for both scenarios.

A turn is: Mutual Administration Phase (none on turn 1), Event Phase, First Player movement and
combat segments, Second Player movement and combat segments ((35) the Ethiopian activation loop
combines a leader's movement and combat), End of Turn Phase. 1935-36: Italian first, Ethiopian
second, 7 turns; 1940-41: Allied first, Italian second, 11 turns.

The phase is read from the module's turn tracker or turn marker when the bindings name one;
otherwise it is inferred from who moves: a side's unit moving puts the game in that side's
movement segment (advancing the turn when the order requires it), a die roll with losses in
that side's combat segment. An inferred phase says so in the findings' `when`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.table import Table

__all__ = ["Phase", "SCENARIOS", "ScenarioRules", "next_phase", "infer_phase", "phase_from_table",
           "PHASES", "DATA_PHASES", "side_name", "tracker_properties"]

PHASES = ("map", "event", "first-movement", "first-combat", "second-movement", "second-combat", "end")
"""Phase keys in order within a turn."""

DATA_PHASES = {
    "mutual-administration": "map", "event": "event",
    "first-player-movement": "first-movement", "first-player-combat": "first-combat",
    # PB 13.5.4: the 1935-36 activation segment is the Ethiopian's movement and combat by leader
    "second-player-activation": "second-movement",
    "second-player-movement": "second-movement", "second-player-combat": "second-combat",
    "end-of-turn": "end",
}
"""The phase names of the game data (scenarios.json `phases`, which the bindings' turn track
maps the module's phase names to) -> the keys above."""

_PHASE_TEXT = {"map": "Mutual Administration Phase", "event": "Event Phase",
               "first-movement": "{first} movement", "first-combat": "{first} combat",
               "second-movement": "{second} movement", "second-combat": "{second} combat",
               "end": "End of Turn Phase"}


@dataclass(frozen=True, slots=True)
class ScenarioRules:
    """What the sequence needs to know about a scenario."""

    id: str
    first: str
    second: str
    turns: int


SCENARIOS = {
    "1935-36": ScenarioRules("1935-36", "italian", "ethiopian", 7),    # PB 13.1, 13.5.3
    "1940-41": ScenarioRules("1940-41", "allied", "italian", 11),      # PB 14.1, 14.5.3
}


def side_name(side: str | None) -> str:
    return {"italian": "Italian", "ethiopian": "Ethiopian", "allied": "Allied"}.get(side or "", "unknown")


@dataclass(frozen=True, slots=True)
class Phase:
    """Where the game stands: turn, phase key, and whether this was inferred from the log."""

    scenario: str
    turn: int
    key: str
    inferred: bool = False
    reason: str | None = None

    @property
    def rules(self) -> ScenarioRules:
        return SCENARIOS[self.scenario]

    @property
    def phasing(self) -> str | None:
        """The side whose segment this is (None in mutual phases)."""
        if self.key.startswith("first-"):
            return self.rules.first
        if self.key.startswith("second-"):
            return self.rules.second
        return None

    @property
    def segment(self) -> str | None:
        """'movement' or 'combat' in a player phase, else None."""
        return self.key.split("-", 1)[1] if "-" in self.key else None

    @property
    def name(self) -> str:
        """The phase as messages name it, without its turn ("Italian movement")."""
        return _PHASE_TEXT[self.key].format(first=side_name(self.rules.first),
                                            second=side_name(self.rules.second))

    def when(self) -> str:
        out = f"Turn {self.turn}, {self.name}"
        if self.inferred:
            out += f" (inferred: {self.reason})" if self.reason else " (inferred)"
        return out


def next_phase(phase: Phase) -> Phase:
    """The phase after this one (turn 1 has no MAP, PB 13.1 / 14.1)."""
    index = PHASES.index(phase.key)
    if index + 1 < len(PHASES):
        return Phase(phase.scenario, phase.turn, PHASES[index + 1], phase.inferred, phase.reason)
    return Phase(phase.scenario, phase.turn + 1, "map", phase.inferred, phase.reason)


def start_phase(scenario: str) -> Phase:
    """Both scenarios begin at the Event Phase of turn 1."""
    return Phase(scenario, 1, "event")


def infer_phase(current: Phase, side: str, segment: str) -> Phase:
    """The phase in which `side` doing `segment` ("movement" or "combat") fits, at or after
    `current`: the same phase if it already fits, else the next such phase in the sequence."""
    rules = current.rules
    order = "first" if side == rules.first else "second" if side == rules.second else None
    if order is None:
        return current
    if current.scenario == "1935-36" and order == "second" and segment == "combat":
        segment = "movement"   # PB 13.5.4: each activated leader's units move and fight in turn
    key = f"{order}-{segment}"
    if current.key == key:
        return current
    turn = current.turn
    if PHASES.index(key) < PHASES.index(current.key):
        turn += 1
    return Phase(current.scenario, turn, key, True,
                 f"the {side_name(side)} player {'moving' if segment == 'movement' else 'rolling for combat'}")


def phase_from_table(table: "Table", data: "GameData", scenario: str) -> Phase | None:
    """The phase the module's turn tracker, turn marker or properties show, by the bindings
    (one entry may give the turn, another the phase); None when the bindings name none or
    the table does not show them."""
    turn: int | None = None
    key: str | None = None
    markers = data.bindings["turn_track"]
    if not markers:
        return _default_phase(table, data, scenario)
    for marker in markers:
        value = _marker_value(table, marker["source_kind"].value, marker["name"].value)
        if value is None:
            continue
        turns = (marker["turns"].value if "turns" in marker else None) or {}
        phases = (marker["phases"].value if "phases" in marker else None) or {}
        if turn is None and value in turns:
            turn = turns[value]
        if key is None and value in phases:
            named = phases[value]
            key = named if named in PHASES else DATA_PHASES.get(named)
    if turn is None or key is None:
        return None
    return Phase(scenario, turn, key)


def _default_phase(table: "Table", data: "GameData", scenario: str) -> Phase | None:
    """Without bindings: properties `Turn` (a number or the scenario's turn label, "Oct 1935")
    and `Phase` holding the game data's phase names, as the modules vlog writes name them
    (converters/vmod_writer.py)."""
    turn = _marker_value(table, "property", "Turn")
    phase = _marker_value(table, "property", "Phase")
    if turn is None or phase not in DATA_PHASES:
        return None
    number = int(turn) if turn.strip().isdigit() else _turn_of_label(data, scenario, turn)
    return Phase(scenario, number, DATA_PHASES[phase]) if number is not None else None


def _turn_of_label(data: "GameData", scenario: str, label: str) -> int | None:
    """The turn a turn-track label names in the scenario data (PB 13.1: T1 = Oct 1935 ...)."""
    try:
        track = data.scenario(scenario)["turn_track"]
    except KeyError:
        return None
    wanted = label.strip().casefold()
    for number, row in track.items():
        shown = row["label"].value if "label" in row else None
        if isinstance(shown, str) and shown.strip().casefold() == wanted and str(number).isdigit():
            return int(number)
    return None


def _marker_value(table: "Table", kind: Any, name: Any) -> str | None:
    if not isinstance(name, str):
        return None
    if kind == "property":
        for (container, prop), value in table.global_properties.items():
            if prop == name:
                return value
        return tracker_properties(table).get(name)
    if kind == "piece":
        for piece in table.game_pieces():
            if piece.name == name:
                return table.location_name(piece)
    return None


def tracker_properties(table: "Table") -> dict[str, str]:
    """The properties the module's turn trackers set (each level's property -> its current
    value, as VASSAL's TurnLevel exposes it), read from the trackers' states on the table.

    Needs the module (the levels are defined there); tracker `TurnTrackerN` is the module's N-th."""
    trackers = getattr(table.module, "turn_trackers", None) if table.module is not None else None
    if not trackers or not table.turns:
        return {}
    from vlog.vassal.turn_tracker import TrackerRun

    out: dict[str, str] = {}
    for index, tracker in enumerate(trackers):
        state = table.turns.get(f"TurnTracker{index}")
        if state is None:
            continue
        run = TrackerRun(tracker, f"TurnTracker{index}")
        try:
            run.set_state(state)
        except (ValueError, IndexError):
            continue          # a state the module's levels cannot hold: no turn shown
        stack = list(run.levels)
        while stack:
            level = stack.pop()
            if level.level.property:
                out.setdefault(level.level.property, level.value_string())
            stack.extend(level.subs)
    return out
