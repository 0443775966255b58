"""The sequence of play a scenario's data gives: sides, turns, the phases of a game turn, and the
turn and phase the table shows.

scenarios.json lists each scenario's `sides` (in the order they play), its number of `turns`
(null where the rulebook sets no limit) and the `phases` of one game turn, by name. What a phase
is for is the game's declaration (`kinds`: phase name -> kinds such as "movement", "combat",
"landing", "operations"); whose phase it is follows from its name: a name beginning with a side
("axis-movement") is that side's, "first-player-..." and "second-player-..." the first and second
side's, any other phase mutual or given to the side that acts in it (an operations segment whose
player the initiative decides). A game whose data lists one player's sequence (Ascari: each side
plays the same phases in turn) declares `player_turns`, and the list is played once per side.

The phase on the table comes from the module's turn tracker or turn marker as the bindings name
them (`shown_on_table`); where the table shows none, a game infers it from who acts (`infer`),
and the phase it infers carries the reason, so findings say the phase was inferred.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.table import Table

__all__ = ["PhaseSpec", "Sequence", "Position", "Shown", "ShownReader", "sequence_of", "side_name", "shown_on_table",
           "marker_value", "tracker_properties", "turn_of_label"]

ORDINALS = ("first-player", "second-player")
"""Phase-name prefixes naming the side by its place in the scenario's `sides`."""


def side_name(side: str | None) -> str:
    """A side as messages name it ("italian" -> "Italian", "british-commonwealth" ->
    "British Commonwealth"); "unknown" for none."""
    return side.replace("-", " ").title() if side else "unknown"


@dataclass(frozen=True, slots=True)
class PhaseSpec:
    """One phase of a game turn: its name in the data, its side (None: mutual, or the side
    acting in it) and the kinds the game declares for it (none: administrative)."""

    name: str
    side: str | None = None
    kinds: frozenset[str] = frozenset()

    @property
    def stem(self) -> str:
        """The name without its side ("movement" for "axis-movement" or "first-player-movement")."""
        return _stem(self.name, (self.side,) if self.side else ())


def _stem(name: str, prefixes: Iterable[str]) -> str:
    for prefix in (*ORDINALS, *prefixes):
        if name.startswith(prefix + "-"):
            return name[len(prefix) + 1:]
    return name


@dataclass(frozen=True, slots=True)
class Sequence:
    """A scenario's sequence of play, built from its data (`sequence_of`)."""

    scenario: str
    sides: tuple[str, ...]
    turns: int | None
    """The last turn; None where the data gives no limit."""
    phases: tuple[PhaseSpec, ...]
    """The phases of one game turn, in order (a player-turn sequence once per side)."""
    labels: Mapping[int, str]
    """Turn -> its label on the turn track ("Oct 1935", "30 June AM"), where the data gives one."""
    start: int = 0
    """Index of the phase turn 1 begins with (the scenario's `starts_at`)."""

    def index(self, name: str, side: str | None = None) -> int:
        """The index of a phase by its name (and side, where a player turn repeats it)."""
        for i, spec in enumerate(self.phases):
            if spec.name == name and (side is None or spec.side in (side, None)):
                return i
        raise KeyError(f"scenario {self.scenario} has no phase {name!r}"
                       + (f" for side {side!r}" if side else ""))

    def first(self) -> "Position":
        return Position(self, 1, self.start)

    def at(self, turn: int, name: str, side: str | None = None) -> "Position":
        return Position(self, turn, self.index(name, side))


@dataclass(frozen=True, slots=True)
class Position:
    """Where a game stands in its sequence: turn and phase, and whether that was inferred
    from the log (with the reason) rather than shown on the table. `actor` is the side acting
    in a phase the data gives no side (set when inferred from who acts)."""

    sequence: Sequence
    turn: int
    index: int
    inferred: bool = False
    reason: str | None = None
    actor: str | None = None

    @property
    def spec(self) -> PhaseSpec:
        return self.sequence.phases[self.index]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def phasing(self) -> str | None:
        """The side whose phase this is (None in a mutual phase)."""
        return self.spec.side or self.actor

    @property
    def kinds(self) -> frozenset[str]:
        return self.spec.kinds

    @property
    def past_last_turn(self) -> bool:
        return self.sequence.turns is not None and self.turn > self.sequence.turns

    def next(self) -> "Position":
        """The phase after this one (the first phase of the next turn after the last)."""
        if self.index + 1 < len(self.sequence.phases):
            return replace(self, index=self.index + 1, actor=None)
        return replace(self, turn=self.turn + 1, index=0, actor=None)

    def infer(self, side: str, kind: str, reason: str) -> "Position | None":
        """The phase in which `side` acting in a phase of `kind` fits, at or after this one:
        this phase if it fits, else the next that does (in a later turn if need be), inferred
        for `reason`. None when no phase of the turn fits."""
        phases = self.sequence.phases
        for step in range(len(phases) + 1):
            index = (self.index + step) % len(phases)
            spec = phases[index]
            if kind not in spec.kinds or spec.side not in (side, None):
                continue
            if step == 0:
                if spec.side is not None or self.actor == side:
                    return self
                if self.actor is None:
                    return replace(self, actor=side)
                continue        # the other side acts in this phase: the next one that fits
            turn = self.turn + (self.index + step) // len(phases)
            return Position(self.sequence, turn, index, True, reason, None if spec.side else side)
        return None


def sequence_of(data: "GameData", scenario: str, *, kinds: Mapping[str, str | Iterable[str]] | None = None,
                player_turns: bool = False) -> Sequence:
    """The sequence of a scenario from scenarios.json. `kinds` declares what each phase is for,
    by the phase's name or its stem (the name without its side); `player_turns`: the data's
    phases are one player's turn, played once by each side in order."""
    record = data.scenario(scenario)
    sides = tuple(record["sides"].value or ())
    turns = record["turns"].value
    names = tuple(record["phases"].value or ())
    kinds = kinds or {}

    def spec(name: str, side: str | None) -> PhaseSpec:
        if side is None:
            side = next((s for s in sides if name.startswith(s + "-")), None)
        if side is None:
            for n, ordinal in enumerate(ORDINALS):
                if name.startswith(ordinal + "-") and n < len(sides):
                    side = sides[n]
        declared = kinds.get(name, kinds.get(_stem(name, sides)))
        found = frozenset((declared,) if isinstance(declared, str) else declared or ())
        return PhaseSpec(name, side, found)

    if player_turns:
        phases = tuple(spec(name, side) for side in sides for name in names)
    else:
        phases = tuple(spec(name, None) for name in names)
    properties = record["properties"] if "properties" in record else {}
    starts_at = properties["starts_at"].value if "starts_at" in properties else None
    start = names.index(starts_at) if starts_at in names else 0
    return Sequence(scenario, sides, turns if isinstance(turns, int) else None, phases, _labels(data, scenario),
                    start)


# ---------------------------------------------------------------------------------------------
# the turn and phase the table shows


@dataclass(frozen=True, slots=True)
class Shown:
    """The turn and phase the table shows (the phase as the game names it)."""

    turn: int
    phase: str


def shown_on_table(table: "Table", data: "GameData", scenario: str, *,
                   phase_of: Callable[[str], str | None] | None = None) -> Shown | None:
    """The turn and phase the module's turn tracker, turn marker or properties show, by the
    bindings' `turn_track` (one entry may give the turn, another the phase); without such
    bindings, properties `Turn` (a number or the scenario's turn label) and `Phase` (a phase
    name of the data), as the modules vlog writes name them. `phase_of` turns a phase name
    into the game's phase (None: not a phase); by default the scenario's data phase names.
    None when the table shows no turn or phase."""
    markers, names = _turn_reading(data, scenario)
    if phase_of is None:
        if names is None:
            data.scenario(scenario)     # raises, naming the scenario the data lacks
        phase_of = lambda name: name if name in names else None  # noqa: E731
    if not markers:
        turn_text = marker_value(table, "property", "Turn")
        shown = marker_value(table, "property", "Phase")
        phase = phase_of(shown) if shown is not None else None
        if turn_text is None or phase is None:
            return None
        number = int(turn_text) if turn_text.strip().isdigit() else turn_of_label(data, scenario, turn_text)
        return Shown(number, phase) if number is not None else None
    turn: int | None = None
    key: str | None = None
    for kind, name, turns, phases in markers:
        value = marker_value(table, kind, name)
        if value is None:
            continue
        if turn is None and value in turns:
            turn = turns[value]
        if key is None and value in phases:
            key = phase_of(phases[value])
    if turn is None or key is None:
        return None
    return Shown(turn, key)


class ShownReader:
    """`shown_on_table` of one data set and scenario for the tables of a replay, read again only
    when a table's turn trackers or the global properties it reads differ from the last table
    read (or the bindings read the turn from a marker piece, which any step may move): most
    steps change neither, and the phase is asked for at every one."""

    def __init__(self, data: "GameData", scenario: str, *, phase_of: Callable[[str], str | None] | None = None):
        self.data, self.scenario, self.phase_of = data, scenario, phase_of
        markers = _turn_reading(data, scenario)[0]
        self.by_piece = any(kind == "piece" for kind, *_ in markers)
        self.names = frozenset(name for kind, name, *_ in markers if kind == "property") if markers \
            else frozenset(("Turn", "Phase"))
        """The global properties `shown_on_table` reads (`marker_value`: the first of each name)."""
        self._last: tuple[object, dict[str, str], dict[tuple[str, str], str], list, Shown | None] | None = None

    def _read(self, properties: dict[tuple[str, str], str]) -> list[tuple[tuple[str, str], str]]:
        names = self.names
        return [(key, value) for key, value in properties.items() if key[1] in names]

    def __call__(self, table: "Table") -> Shown | None:
        last, properties = self._last, table.global_properties
        if last is not None and not self.by_piece and last[0] is table.module and last[1] == table.turns:
            if last[2] == properties:
                return last[4]
            read = self._read(properties)
            if read == last[3]:             # other properties changed: what is shown has not
                self._last = (last[0], last[1], dict(properties), read, last[4])
                return last[4]
        shown = shown_on_table(table, self.data, self.scenario, phase_of=self.phase_of)
        self._last = (table.module, dict(table.turns), dict(properties), self._read(properties), shown)
        return shown


_TURN_READING: dict[tuple[int, str], tuple[object, tuple, frozenset[str] | None]] = {}
"""(id(data), scenario) -> (the data, its turn-track bindings, the scenario's phase names): the
table's turn is read at every step, the data that says how only once."""


def _turn_reading(data: "GameData", scenario: str) -> tuple[tuple, frozenset[str] | None]:
    """The bindings' turn-track entries as (source kind, name, turns, phases), and the
    scenario's phase names, read once per data set and scenario."""
    entry = _TURN_READING.get((id(data), scenario))
    if entry is None or entry[0] is not data:
        if len(_TURN_READING) >= 64:
            _TURN_READING.clear()
        markers = tuple(
            (m["source_kind"].value, m["name"].value,
             (m["turns"].value if "turns" in m else None) or {}, (m["phases"].value if "phases" in m else None) or {})
            for m in data.bindings["turn_track"])
        try:
            names: frozenset[str] | None = frozenset(data.scenario(scenario)["phases"].value or ())
        except KeyError:
            names = None            # an unknown scenario: only a game's own phase_of can read it
        entry = _TURN_READING[(id(data), scenario)] = (data, markers, names)
    return entry[1], entry[2]


def _labels(data: "GameData", scenario: str) -> dict[int, str]:
    try:
        record = data.scenario(scenario)
    except KeyError:
        return {}
    track = record["turn_track"] if "turn_track" in record else {}
    out: dict[int, str] = {}
    for number in track:
        row = track[number]
        shown = row["label"].value if "label" in row else None
        if isinstance(shown, str) and str(number).isdigit():
            out[int(number)] = shown
    return out


def turn_of_label(data: "GameData", scenario: str, label: str) -> int | None:
    """The turn a turn-track label names in the scenario data ("Oct 1935" -> 1), case and
    surrounding spaces aside; None when none does."""
    wanted = label.strip().casefold()
    return next((turn for turn, shown in _labels(data, scenario).items()
                 if shown.strip().casefold() == wanted), None)


def marker_value(table: "Table", kind: Any, name: Any) -> str | None:
    """What a turn marker shows: a global property's (or turn tracker level's) value, or the
    location of the piece of that name."""
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
    key = tuple(sorted(table.turns.items()))
    entry = _TRACKERS_READ.get(id(table.module))
    if entry is None or entry[0] is not table.module:
        if len(_TRACKERS_READ) >= 8:
            _TRACKERS_READ.clear()
        entry = _TRACKERS_READ[id(table.module)] = (table.module, {}, {})
    known = entry[1]
    if key not in known:
        if len(known) >= 1024:
            known.clear()
        known[key] = _tracker_properties(trackers, table.turns, entry[2])
    return dict(known[key])


_TRACKERS_READ: dict[int, tuple[object, dict[tuple, dict[str, str]], dict[int, Any]]] = {}
"""id(module) -> (the module, tracker states -> their properties, tracker index -> the tracker
run that reads its states): a tracker's state changes at a few steps of a log, and its
properties are asked for at every one."""


def _tracker_properties(trackers: Any, turns: dict[str, str], runs: dict[int, Any]) -> dict[str, str]:
    from vlog.vassal.turn_tracker import TrackerRun

    out: dict[str, str] = {}
    for index, tracker in enumerate(trackers):
        state = turns.get(f"TurnTracker{index}")
        if state is None:
            continue
        run = runs.get(index)
        if run is None or run.tracker is not tracker:     # one run per tracker: set_state sets
            run = runs[index] = TrackerRun(tracker, f"TurnTracker{index}")   # every field read
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
