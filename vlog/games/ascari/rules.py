"""The Ascari rules engine: a declaration on the kit's RulesEngine; the checks are in checks/.

Ascari's data gives one player's sequence (flip the flag, movement with melée and the inactive
player's opportunity fire, fire combat, administrative phase: 2.0), played by each side in turn,
the scenario's first side first (S1.12-S5.12). The module's turn tracker shows the phase but not
the active side, so the player-turn is followed from play: a `flag SIDE` line (chat.py) turns it,
and without flags a side whose units move (other than by a melée retreat) or who declares fire in
its Fire Combat Phase is taken to be active; the inference is stated in every finding's `when`.
A game turn is one player-turn of each side (FAQ Coatit).

The scenario is the one given, else the one whose set-up the starting position matches best; its
map is then every unit's map (each scenario is played on one of the four maps).
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Mapping

from vlog.gamedata import load_game_data
from vlog.games.ascari.chat import GRAMMARS
from vlog.games.ascari.fire_table import read_hit
from vlog.games.ascari.fires import Fires
from vlog.games.ascari.markers import Markers, marker_counters
from vlog.games.ascari.play import Play
from vlog.games.ascari.revolts import Revolts
from vlog.games.ascari.terrain import Terrain
from vlog.games.ascari.units import MARKER, Unit, make_unit
from vlog.games.base import Clock
from vlog.kit.engine import RulesEngine
from vlog.kit.inventory import load_inventory
from vlog.kit.registry import Registry
from vlog.kit.sequence import side_name
from vlog.kit.steps import Position as StepsPosition

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.kit import sequence as seq
    from vlog.kit.steps import Position, StepView
    from vlog.table import Table

__all__ = ["Ascari", "INVENTORY", "REGISTRY", "NO_SCENARIO"]

INVENTORY = load_inventory("ascari")
REGISTRY = Registry("ascari", INVENTORY)
NO_SCENARIO = ("the scenario (the log's start matches no single scenario's set-up: give it, "
               "`vlog check --scenario`)")
"""What every check lacks when the scenario is not known: its map, sides and special rules."""


class Ascari(RulesEngine):
    id = "ascari"
    inventory = INVENTORY
    registry = REGISTRY
    grammars = GRAMMARS
    phase_kinds = {"flip-turn-flag": "flag", "movement-melee-opportunity-fire": "movement",
                   "fire-combat": "fire", "administrative": "administrative"}
    player_turns = True

    def __init__(self, data: "GameData | None" = None, *, scenario: str | None = None):
        super().__init__(data if data is not None else load_game_data("ascari"), scenario=scenario)
        self.play = Play(self)
        self.fires = Fires(self)
        self.revolts = Revolts(self)
        self.markers = Markers(self)
        self.marker_counters = marker_counters(self.data)
        """The informational markers' counters (markers.py), none in data without them."""
        self.hits = lru_cache(maxsize=1024)(partial(read_hit, self.data))
        """The fire and artillery tables' result of a roll (fire_table.read_hit), each read once."""
        self._property = lru_cache(maxsize=64)(self._read_property)
        self._when: tuple[object, str | None] = (None, None)
        self.terrain: Terrain | None = None
        self.started_at_setup = False
        """Whether the log's starting position is the scenario's set-up (so it begins with turn 1)."""
        self.sides_at_start: frozenset[str] = frozenset()
        """The sides with a unit on the map in the log's starting position."""

    def scenario_property(self, name: str):
        """The value of a property of the scenario's record (scenarios.json `properties`), None
        when it has none or no scenario is known; read once per scenario (the data do not change)."""
        return self._property(self.scenario, name) if self.scenario is not None else None

    def _read_property(self, scenario: str, name: str):
        record = self.data.scenario(scenario)
        props = record["properties"] if "properties" in record else {}
        return props[name].value if name in props else None

    def make_unit(self, data: "GameData", counter: str, level: str | None) -> Unit:
        return make_unit(data, counter, level)

    def transform(self, unit: Unit) -> Unit | None:
        """A unit on the scenario's map (the module's one map shows whichever board is in play);
        an informational marker is no unit (markers.py reads them, 1.3, 3.4)."""
        if unit.type == MARKER:
            return None
        if unit.hex is not None and unit.map is None and self.terrain is not None:
            return dataclasses.replace(unit, map=self.terrain.board.map_id)
        return unit

    def new_ledgers(self) -> list:
        self.play = Play(self)
        self.fires = Fires(self)
        self.revolts = Revolts(self)
        self.markers = Markers(self)
        return [self.play, self.fires, self.revolts, self.markers]

    def more_events(self, view: "StepView", events):
        """A melée is over (play.py), a fire's result is due (fires.py), markers placed, moved or
        taken off (markers.py)."""
        return [*self.play.resolved(view, events), *self.fires.resolved(view, events), *self.markers.moved(view)]

    def end(self, table, ctx):
        """A melée or a fire still open when the log ends is an occasion all the same: each is told
        and judged on the final position (the checks say what that position cannot settle)."""
        found = list(super().end(table, ctx))
        for event in [*self.play.open_at_end(), *self.fires.open_at_end()]:
            if self.tally is not None:
                self.tally.met(event.kind, event.step)
            found.extend(self.check(event, table, ctx))
        return found

    def detect_scenario(self, units: Mapping[str, Unit]) -> str | None:
        """The scenario whose set-up lists the most units standing at their listed hex, then the
        most units of the start (on the map or not) that only its set-up lists, then the most it
        lists at all, among those whose sides are the units'; None when that leaves more than one.
        (S1's set-up names no hexes: its start holds Fara, Faragiallah and the Booty unplaced.)"""
        placed = {(u.counter, u.hex) for u in units.values() if u.hex is not None}
        present = [u.counter for u in units.values()]
        sides = {u.side for u in units.values()}
        listed: dict[str, set[str]] = {}
        candidates: list[tuple[str, int]] = []
        for scenario in self.data.scenario_ids:
            record = self.data.scenario(scenario)
            listed[scenario] = set()
            hits = 0
            for entry in self.data.setup(scenario):
                hex_ = entry["hex"].value if "hex" in entry else None
                for counter in (entry["units"].value if "units" in entry else None) or ():
                    listed[scenario].add(counter)
                    hits += (counter, hex_) in placed
            if sides <= set(record["sides"].value or ()):
                candidates.append((scenario, hits))
        best: list[tuple[tuple[int, int, int], str]] = []
        for scenario, hits in candidates:
            others = set().union(*(v for k, v in listed.items() if k != scenario))
            own = sum(c in listed[scenario] and c not in others for c in present)
            best.append(((hits, own, sum(c in listed[scenario] for c in present)), scenario))
        best.sort(reverse=True)
        if not best or (len(best) > 1 and best[0][0] == best[1][0]):
            return None
        return best[0][1]

    def begin(self, table, ctx):
        if ctx.continues and self.scenario is not None:
            return super().begin(table, ctx)     # the same battle goes on: its map, set-up and control stay
        self.terrain = None
        self.started_at_setup = False
        found = list(super().begin(table, ctx))
        if self.scenario is None:      # no map, no sides, no sequence: nothing can be judged
            for short in self.inventory.implemented():
                self.not_judged(short, (NO_SCENARIO,))
        if self.scenario is not None:
            self.terrain = Terrain(self.data, self.data.scenario(self.scenario)["map"].value, self.scenario)
            self._cache = type(self._cache)()      # units read before the map was known
            self.started_at_setup = self._at_setup(self.units(StepsPosition(table)))
            self.play.seed_control(self.units(StepsPosition(table)).values())
        self.sides_at_start = frozenset(u.side for u in self.units(StepsPosition(table)).values()
                                        if u.hex is not None and u.side is not None)
        return found

    def _at_setup(self, units: Mapping[str, Unit]) -> bool:
        """Whether every unit the scenario's set-up places on a hex stands there (and it places some)."""
        assert self.scenario is not None
        placed = {(u.counter, u.hex) for u in units.values()}
        wanted = [(c, entry["hex"].value) for entry in self.data.setup(self.scenario)
                  if "hex" in entry and entry["hex"].value
                  for c in ((entry["units"].value if "units" in entry else None) or ())]
        return bool(wanted) and all(w in placed for w in wanted)

    # -- the sequence of play, followed from play ----------------------------------------------
    def clock(self, table: "Table") -> Clock | None:
        """Where play has reached; before the first phase is inferred, the scenario's opening
        when every unit stands where the set-up places it, or none is on the map yet (a set-up
        by areas, made, cannot be told from later play: None)."""
        found = super().clock(table)
        before_play = self.started_at_setup or not self.sides_at_start     # set up, or nothing placed yet
        if found is None and self.phase is None and before_play and self.sequence is not None:
            first = self.sequence.first()
            return Clock(self.sequence.scenario, first.turn, first.index, True, "the set-up, before turn 1")
        return found

    def phase_at(self, position: "Position") -> "seq.Position | None":
        """The tracker shows no active side: the phase is always followed from play."""
        return None

    def infer_phase(self, view: "StepView", current: "seq.Position | None") -> "seq.Position | None":
        if self.sequence is None or view.step is None:
            return current
        now = current if current is not None else dataclasses.replace(
            self.sequence.first(), inferred=True, reason="the log is taken to begin with the scenario's first turn")
        flags = self.grammars.read("flag", view.step.commands)
        if flags:
            side = flags[-1].side
            if side in self.sequence.sides and not (now.phasing == side and "flag" in now.kinds):
                return now.infer(side, "flag", f"flag {side} declared") or now
            return now
        for fire in self.grammars.read("fire", view.step.commands):
            firer = self.piece_named(view.before, fire.firer)
            if not fire.opportunity and firer is not None and firer.side == now.phasing \
                    and "fire" not in now.kinds:
                now = now.infer(firer.side, "fire", f"{firer.side} fire declared") or now
        before, after = self.units(view.before), self.units(view.after)
        for uid, old in before.items():
            new = after.get(uid)
            if new is old:           # an unchanged piece keeps its unit (vlog/kit/units.py): no move
                continue
            if new is None or new.hex == old.hex or old.hex is None or new.hex is None \
                    or self.play.is_retreat(old, new) or old.side not in self.sequence.sides:
                continue
            if old.side == now.phasing and "flag" in now.kinds:
                now = now.infer(old.side, "movement", f"{old.side} units move") or now
            elif old.side != now.phasing and not self.play.flags_declared:
                now = now.infer(old.side, "movement", f"{old.side} units move") or now
        return now

    def when(self) -> str | None:
        """'Turn 3 (07.00), Italian movement-melee-opportunity-fire (inferred)'."""
        phase = self.phase
        if self._when[0] is phase and phase is not None:      # asked at every step: worded once per phase
            return self._when[1]
        text = super().when()
        if phase is not None and text is not None and phase.phasing is not None:
            text = text.replace(f", {phase.name}", f", {side_name(phase.phasing)} {phase.name}", 1)
        self._when = (phase, text)
        return text

    @property
    def scenario_mark(self) -> str | None:
        """The scenario the log plays ('s1'), None unknown: the replay reports the rules the
        inventory marks with another scenario as not judged."""
        return self.scenario

    def active_side(self) -> str | None:
        return self.phase.phasing if self.phase is not None else None

    def piece_named(self, position: "Position", name: str) -> Unit | None:
        """The unit a chat line names by its piece name (case aside); None when none or several."""
        names = position.derived((Ascari, "names", id(self)), lambda _table: self._names(position))
        found = names.get(name.casefold())
        return found[0] if found is not None and len(found) == 1 else None

    def _names(self, position: "Position") -> dict[str, list[Unit]]:
        """Each unit of a position by its piece name, case aside (read once per position)."""
        out: dict[str, list[Unit]] = {}
        for unit in self.units(position).values():
            out.setdefault(unit.name.casefold(), []).append(unit)
        return out


from vlog.games.ascari import checks  # noqa: E402,F401  (registers the checks)
