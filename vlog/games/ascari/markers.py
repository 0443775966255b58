"""The informational markers a log shows (1.3: Moved, Combat, Retreat, Fire, Opportunity Fire;
4.6: the Rifle marker) and which unit each marks.

Markers are pieces of counters.json type "marker"; the rules engine leaves them out of its units
(rules.py `transform`: they do not affect stacking, 3.4) and this module reads them from each
position. A marker marks the combat unit in its hex (one combat unit per hex, 3.4; leaders are no
combat units): VASSAL stacks a marker on the unit it is dropped on, and a unit moved with its
markers carries them along. The reading is sure when one combat unit stands in the marker's hex
and stood there when the marker came to it (it was placed on the unit, or moved with it); a hex
of several combat units, or a unit that came after the marker (a marker left behind by another),
leaves it a doubt, which the checks name.

A log that shows no marker piece at all (a module whose markers vlog does not bind, or a game
played without them) gives the marker checks nothing to judge: they say so at the end (`NO_MARKERS`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from vlog.games.ascari.units import MARKER
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Event, MarkerMoved, PhaseChanged, Removed
from vlog.kit.units import Bindings, value

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.games.ascari.units import Unit
    from vlog.kit.steps import Position, StepView
    from vlog.table import Table

__all__ = ["Marker", "Marked", "Markers", "MOVED", "COMBAT", "RETREAT", "FIRE", "OPPORTUNITY_FIRE", "RIFLE",
           "INFORMATIONAL", "NO_MARKERS", "markers_of", "marker_counters", "marker_property", "of_counter"]

MOVED, COMBAT, RETREAT = "mk-moved", "mk-combat", "mk-retreat"
FIRE, OPPORTUNITY_FIRE, RIFLE = "mk-fire", "mk-opportunity-fire", "mk-rifle"
INFORMATIONAL = (MOVED, COMBAT, RETREAT, FIRE, OPPORTUNITY_FIRE)
"""1.3: the informational markers (the Rifle marker is a scenario's marker, 4.6)."""
NO_MARKERS = ("marker pieces (counters.json mk-moved, mk-combat, mk-retreat, mk-fire, mk-opportunity-fire, "
              "mk-rifle): the log shows none, so the module's markers are not bound or none was placed")


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker piece: its piece id, counter, name and hex (None off the map)."""

    id: str
    counter: str
    name: str
    hex: str | None


@dataclass(frozen=True, slots=True)
class Marked:
    """Which unit a marker marks: `unit` when the log tells it, `candidates` the combat units in
    its hex, and `doubt` what leaves the reading open (None: sure)."""

    unit: "Unit | None"
    candidates: tuple["Unit", ...]
    doubt: str | None


def markers_of(game: "Ascari", position: "Position") -> dict[str, Marker]:
    """The marker pieces of a position by piece id, read once per position."""
    return position.derived(("ascari-markers", id(game)), lambda table: _read(game, table))


def _read(game: "Ascari", table: "Table") -> dict[str, Marker]:
    kinds = game.marker_counters
    if not kinds:
        return {}
    binds = Bindings.of(game.data)
    out: dict[str, Marker] = {}
    for piece in table.game_pieces():
        counter, _, name = binds.face_of(piece)
        if counter in kinds:
            out[piece.id] = Marker(piece.id, counter, name or counter, binds.place_of(table, piece).hex)
    return out


def marker_counters(data: Any) -> frozenset[str]:
    """The counters of type "marker" in the game data."""
    return frozenset(c for c in data.counter_ids
                     if "type" in data.counter(c) and value(data.counter(c)["type"]) == MARKER)


def marker_property(data: Any, counter: str, name: str) -> Any:
    """A marker's property in counters.json (its printed DRM, its clean-up), None when absent."""
    props = data.counter(counter)["properties"] if "properties" in data.counter(counter) else {}
    return value(props[name]) if name in props else None


def combat_units_in(game: "Ascari", position: "Position", hex_: str) -> tuple["Unit", ...]:
    return tuple(u for u in game.units(position).values() if u.hex == hex_ and u.combat)


class Markers(Ledger):
    """Where each marker came to its hex (`arrived`: piece id -> (step, the combat units there
    then)), whether the log showed any marker (`seen`), the Ethiopian Spear/Cavalry units
    stopped by a Rifle marker this phase (`rifle_stops`: piece id -> (hex, step), MOV-14), the
    Rifle units eliminated this phase (`rifles_lost`: (unit, step), FDR-15) and the Rifle markers
    whose hex lost a unit (`rifle_left`: marker piece id -> (the unit, the step), RIF-03)."""

    def __init__(self, game: "Ascari"):
        self.game = game
        self.arrived: dict[str, tuple[int | None, frozenset[str]]] = {}
        self.seen = False
        self.rifle_stops: dict[str, tuple[str, int | None]] = {}
        self.rifles_lost: list[tuple["Unit", int | None]] = []
        self.rifle_left: dict[str, tuple["Unit", int | None]] = {}
        self.rifles_unplaced: list = []
        """FDR-15's findings of the phases that ended before the log showed a marker piece."""

    def _arrive(self, position: "Position", markers: Iterable[Marker], step: int | None) -> None:
        for marker in markers:
            self.seen = True
            if marker.hex is not None:
                self.arrived[marker.id] = (step, frozenset(u.id for u in combat_units_in(self.game, position, marker.hex)))

    def begin(self, view: "StepView") -> Iterable:
        self._arrive(view.after, markers_of(self.game, view.after).values(), None)
        return ()

    def event(self, event: Event, view: "StepView") -> Iterable:
        if isinstance(event, MarkerMoved) and event.after is not None:
            self._arrive(view.after, (event.after,), event.step)
        elif isinstance(event, Removed) and event.unit.hex is not None and event.unit.combat:
            if event.unit.type == "rifle":
                self.rifles_lost.append((event.unit, event.step))
            for marker in of_counter(markers_of(self.game, view.before), RIFLE):
                if marker.hex == event.unit.hex:
                    self.rifle_left[marker.id] = (event.unit, event.step)
        return ()

    def phase(self, change: PhaseChanged, view: "StepView") -> Iterable:
        self.rifle_stops.clear()
        return ()

    def moved(self, view: "StepView") -> list[Event]:
        """The engine's `more_events`: a `MarkerMoved` for each marker the step placed, moved
        or took off the map (before, after: the marker, or None off the table or the map)."""
        if not self.game.marker_counters:
            return []
        before, after = markers_of(self.game, view.before), markers_of(self.game, view.after)
        if before is after or (not before and not after):
            return []
        out: list[Event] = []
        for mid, now in after.items():
            old = before.get(mid)
            if (old is None and now.hex is not None) or (old is not None and old.hex != now.hex):
                out.append(MarkerMoved(view.index, old, now if now.hex is not None else None))
        out += [MarkerMoved(view.index, old, None) for mid, old in before.items()
                if mid not in after and old.hex is not None]
        return out

    def marks(self, position: "Position", marker: Marker) -> Marked:
        """The unit a marker marks in a position (see the module's docstring)."""
        assert marker.hex is not None
        here = combat_units_in(self.game, position, marker.hex)
        if not here:
            return Marked(None, (), f"which unit the {marker.name} marker in {marker.hex} marks "
                                    f"(no combat unit stands there)")
        if len(here) > 1:
            names = ", ".join(u.name for u in here)
            return Marked(None, here, f"which of {names} in {marker.hex} the {marker.name} marker marks")
        unit = here[0]
        step, there = self.arrived.get(marker.id, (None, frozenset()))
        if unit.id in there:
            return Marked(unit, here, None)
        when = f"at step {step}" if step is not None else "before the log"
        return Marked(unit, here, f"whether the {marker.name} marker in {marker.hex} marks {unit.name}, which "
                                  f"came there after the marker ({when})")


def of_counter(markers: dict[str, Marker] | Sequence[Marker], *counters: str) -> list[Marker]:
    """The markers on the map of the given counters."""
    items = markers.values() if isinstance(markers, dict) else markers
    return [m for m in items if m.counter in counters and m.hex is not None]
