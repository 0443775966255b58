"""The sequence of play (5.2, Extended Sequence of Play, PB 13.5, PB 14.5) for both scenarios.

A turn is: Mutual Administration Phase (none on turn 1), Event Phase, First Player movement and
combat segments, Second Player movement and combat segments ((35) the Ethiopian activation loop
combines a leader's movement and combat), End of Turn Phase. The sides in their order, the
number of turns and the phases come from scenarios.json (vlog.kit.sequence): 1935-36 Italian
first, Ethiopian second, 7 turns; 1940-41 Allied first, Italian second, 11 turns.

The phase is read from the module's turn tracker or turn marker when the bindings name one;
otherwise it is inferred from who moves: a side's unit moving puts the game in that side's
movement segment (advancing the turn when the order requires it), a die roll with losses in
that side's combat segment. An inferred phase says so in the findings' `when`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from vlog.kit import sequence as kit_sequence
from vlog.kit.sequence import side_name, tracker_properties

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.table import Table

__all__ = ["Phase", "ScenarioRules", "next_phase", "infer_phase", "phase_from_table",
           "PHASES", "DATA_PHASES", "PHASE_KINDS", "side_name", "tracker_properties"]

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

PHASE_KINDS = {"movement": "movement", "combat": "combat", "activation": ("movement", "combat")}
"""What the player segments are for (by the data's phase names without their side)."""

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
    activation: bool = False
    """PB 13.5.4: the second player moves and fights leader by leader in one segment."""


@lru_cache(maxsize=None)
def scenario_rules(scenario: str) -> ScenarioRules:
    """A scenario's sides, turns and segments, from the game's scenarios.json."""
    from vlog.gamedata import load_game_data

    built = kit_sequence.sequence_of(load_game_data("lion-of-judah"), scenario, kinds=PHASE_KINDS)
    first, second = built.sides
    if built.turns is None:
        raise ValueError(f"lion-of-judah scenario {scenario}: the data gives no number of turns")
    return ScenarioRules(scenario, first, second, built.turns,
                         activation=any(p.stem == "activation" for p in built.phases))


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
        return scenario_rules(self.scenario)

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
        return _phase_name(self.scenario, self.key)

    def when(self) -> str:
        return _when(self)


@lru_cache(maxsize=None)
def _phase_name(scenario: str, key: str) -> str:
    rules = scenario_rules(scenario)
    return _PHASE_TEXT[key].format(first=side_name(rules.first), second=side_name(rules.second))


@lru_cache(maxsize=4096)
def _when(phase: Phase) -> str:
    """'Turn 3, Italian movement (inferred: ...)': findings and events of every step name it."""
    out = f"Turn {phase.turn}, {phase.name}"
    if phase.inferred:
        out += f" (inferred: {phase.reason})" if phase.reason else " (inferred)"
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
    if rules.activation and order == "second" and segment == "combat":
        segment = "movement"   # PB 13.5.4: each activated leader's units move and fight in turn
    key = f"{order}-{segment}"
    if current.key == key:
        return current
    turn = current.turn
    if PHASES.index(key) < PHASES.index(current.key):
        turn += 1
    return Phase(current.scenario, turn, key, True,
                 f"the {side_name(side)} player {'moving' if segment == 'movement' else 'rolling for combat'}")


def _key_of(name: str) -> str | None:
    return name if name in PHASES else DATA_PHASES.get(name)


def phase_from_table(table: "Table", data: "GameData", scenario: str) -> Phase | None:
    """The phase the module's turn tracker, turn marker or properties show, by the bindings
    (vlog.kit.sequence.shown_on_table, read again only when what it reads changed:
    `ShownReader`); None when the table does not show them."""
    reader = _READERS.get((id(data), scenario))
    if reader is None or reader.data is not data:
        if len(_READERS) >= 16:
            _READERS.clear()
        reader = _READERS[(id(data), scenario)] = kit_sequence.ShownReader(data, scenario, phase_of=_key_of)
    shown = reader(table)
    return _phase(scenario, shown.turn, shown.phase) if shown is not None else None


_READERS: dict[tuple[int, str], kit_sequence.ShownReader] = {}
"""(id(data), scenario) -> the reader of the phase its tables show: asked at every step."""


@lru_cache(maxsize=4096)
def _phase(scenario: str, turn: int, key: str) -> Phase:
    return Phase(scenario, turn, key)
