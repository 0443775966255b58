"""The Island of Death rules engine: a declaration on the kit (vlog/kit/engine.py).

The checks live in checks/<concern>.py, registered with the inventory items they report; the
units are read through the bindings (units.py), the map through the kit's board (terrain.py
adds the ZOC and movement hooks of 5.0-6.5), the sequence of play from scenarios.json with the
kinds of phase declared here. What the game keeps from step to step is in its ledgers.
"""
from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, TypeVar

from vlog.kit.board import Board
from vlog.kit.chat import ChatGrammars
from vlog.kit.engine import RulesEngine
from vlog.kit.inventory import load_inventory
from vlog.kit.registry import Registry
from vlog.kit.schedules import scenario_of_setup

from vlog.games.island_of_death.terrain import ClassTerrain, by_hex, zoc_of
from vlog.games.island_of_death.units import Unit, make_unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.engine.zoc import ZocMap
    from vlog.gamedata import GameData
    from vlog.kit.ledger import Ledger
    from vlog.findings import Finding
    from vlog.games.base import Context
    from vlog.kit.steps import Position
    from vlog.table import Table

GAME = "island-of-death"
T = TypeVar("T")
INVENTORY = load_inventory(GAME)
REGISTRY = Registry(GAME, INVENTORY)
GRAMMARS = ChatGrammars()

PHASE_KINDS = {
    "initial-segment": "initial",
    "status": "status",                        # 4.21, 4.31: supply, ammunition, leaders
    "amphibious-landing": "landing",           # 4.22
    "airborne-landing": "landing",             # 4.23
    "movement": "movement",                    # 4.24, 4.32
    "combat": "combat",                        # 4.25, 4.33
    "penetration": "combat",                   # 4.26, 4.34: attacks by units that advanced
    "surrender": "surrender",                  # 4.41
    "turn-transition": "transition",           # 4.42
}
"""What each phase of scenarios.json is for (by its name without the side)."""


class IslandOfDeath(RulesEngine):
    id = GAME
    inventory = INVENTORY
    registry = REGISTRY
    grammars = GRAMMARS
    phase_kinds = PHASE_KINDS
    player_turns = False

    def make_unit(self, data: "GameData", counter: str, level: str | None) -> Unit:
        return make_unit(data, counter, level)

    def detect_scenario(self, units: Mapping[str, Unit]) -> str | None:
        """The scenario whose set-up the starting position shows (22.24, 22.33)."""
        return scenario_of_setup(self.data, ((u.counter, u.hex) for u in units.values()))

    def begin(self, table: "Table", ctx: "Context") -> Iterable["Finding"]:
        self.tally = ctx.tally
        return super().begin(table, ctx)

    def new_ledgers(self) -> list["Ledger"]:
        from vlog.games.island_of_death.checks.bombardment import Bombardments
        from vlog.games.island_of_death.checks.breakdown import Breakdown
        from vlog.games.island_of_death.checks.combat import Attacks
        from vlog.games.island_of_death.checks.combat_result import Combats
        from vlog.games.island_of_death.checks.landings import Landings
        from vlog.games.island_of_death.checks.movement import Movement
        from vlog.games.island_of_death.checks.replacements import Replacements
        from vlog.games.island_of_death.checks.sequence import Timeline
        from vlog.games.island_of_death.checks.strategic import Strategic
        from vlog.games.island_of_death.checks.strongpoints import Dismantling
        from vlog.games.island_of_death.checks.supply import Supply
        from vlog.games.island_of_death.checks.victory import Surrender
        from vlog.games.island_of_death.checks.weather import Weather

        self.movement, self.timeline, self.attacks = Movement(), Timeline(), Attacks()
        self.surrender, self.supply, self.breakdown = Surrender(), Supply(self), Breakdown()
        self.combats, self.strategic, self.landings = Combats(self), Strategic(self), Landings()
        self.bombardments, self.weather, self.dismantling = Bombardments(), Weather(), Dismantling()
        self.replacements = Replacements()
        return [self.movement, self.timeline, self.attacks, self.surrender, self.supply, self.breakdown, self.combats,
                self.strategic, self.landings, self.bombardments, self.weather, self.dismantling, self.replacements,
                *self._fire_ledgers(), *self._roll_ledgers()]

    def _fire_ledgers(self) -> list["Ledger"]:
        """The ledgers of fire tied to its dice: communications, bombardment losses, penetration
        attempts, coastal guns."""
        from vlog.games.island_of_death.checks.bombardment_targets import BombardmentLosses
        from vlog.games.island_of_death.checks.coastal_guns import CoastalGuns
        from vlog.games.island_of_death.checks.communications import Communications
        from vlog.games.island_of_death.checks.penetration import Penetrations

        self.communications, self.bombardment_losses = Communications(self), BombardmentLosses(self)
        self.penetrations, self.coastal_guns = Penetrations(self), CoastalGuns(self)
        return [self.communications, self.bombardment_losses, self.penetrations, self.coastal_guns]

    def _roll_ledgers(self) -> list["Ledger"]:
        """The ledgers of the rolls made for one piece and what they decide (leaders, HQs,
        landing and airborne losses, security companies)."""
        from vlog.games.island_of_death.checks.headquarters import Headquarters
        from vlog.games.island_of_death.checks.leaders import Leaders
        from vlog.games.island_of_death.checks.security import Security
        from vlog.games.island_of_death.checks.unit_rolls import UnitRolls

        self.unit_rolls, self.leaders = UnitRolls(self), Leaders(self)
        self.headquarters, self.security = Headquarters(), Security()
        return [self.unit_rolls, self.leaders, self.headquarters, self.security]

    # -- the map and the units as the checks read them --------------------------------------
    @cached_property
    def board(self) -> Board:
        return Board(self.data)

    def terrain(self, movement_class: str) -> ClassTerrain:
        """What the map costs a movement class, read once per game and class."""
        found = self._terrains.get(movement_class)
        if found is None:
            found = self._terrains[movement_class] = ClassTerrain(self.data, self.board, movement_class)
        return found

    @cached_property
    def _terrains(self) -> dict[str, ClassTerrain]:
        return {}

    def enemies(self, position: "Position", side: str) -> dict[str, list[Unit]]:
        """The ground units of `side`'s enemies by hex, read once per position (and kept while a
        step changes none of them: in a Movement Phase only the other side's units move)."""
        return self._kept(position, ("enemies", side), lambda u: _enemy(u, side), by_hex)

    def leaders_on_map(self, position: "Position", side: str) -> list[Unit]:
        """`side`'s leaders on the map, in table order, read once per position (and kept while a
        step changes none of them)."""
        return self._kept(position, ("leaders", side),
                          lambda u: u.is_leader and u.side == side and u.hex is not None, list)

    def _kept(self, position: "Position", key: tuple, picked: Callable[[Unit], bool],
              build: Callable[[Iterable[Unit]], T]) -> T:
        """`build(the units picked, in table order)` once per position, and the very answer of the
        position the table was copied from when the step set or took off none of the units picked
        there or here (the others cannot change it)."""
        def derive(_table: Any) -> T:
            units = self.units(position)
            kept = self._kept_answers.get(key)
            changed = position.table.changed_since_copy()
            if kept is not None and changed is not None and changed[0] == kept[0] \
                    and not _touches(changed[1], kept[1], units, picked):
                ids, found = kept[1], kept[2]
            else:
                ids = {uid for uid, u in units.items() if picked(u)}
                found = build(u for uid, u in units.items() if uid in ids)
            self._kept_answers[key] = (position.table.revision, ids, found)
            return found
        return position.derived((GAME, *key), derive)

    @cached_property
    def _kept_answers(self) -> dict[tuple, tuple[int, set[str], Any]]:
        """What `_kept` last built for each key: the table revision, the ids of the units picked
        and the answer."""
        return {}

    def zoc(self, position: "Position", side: str) -> "ZocMap[str]":
        """The enemy ZOC `side`'s units move and trace supply through, worked out again only when
        the enemy units changed (through a phase only the moving side's units do)."""
        def build(_table: Any) -> "ZocMap[str]":
            enemies = self.enemies(position, side)
            return self.recalled((GAME, "zoc", side), enemies, lambda: zoc_of(enemies, self.board))
        return position.derived((GAME, "zoc", side), build)

    # -- the time of day and the boxes ------------------------------------------------------
    def day_part(self, phase: Any = None) -> str | None:
        """'AM', 'Noon', 'PM' or 'Night': the last word of the turn's label on the track."""
        phase = phase if phase is not None else self.phase
        if phase is None:
            return None
        label = phase.sequence.labels.get(phase.turn)
        return label.split()[-1] if label else None

    def delayed_reaction(self) -> dict[str, int]:
        """17.7: turn label -> the hexes within which an Axis unit lets an Allied unit move
        (the scenario's `delayed_reaction`; none in a scenario without the rule)."""
        record = self.data.scenario(self.scenario) if self.scenario else None
        props = record["properties"] if record is not None and "properties" in record else {}
        return dict(props["delayed_reaction"].value or {}) if "delayed_reaction" in props else {}

    def box_type(self, box: str) -> str | None:
        """A box's type in map.json ("first-wave", "follow-up", "pool" ...)."""
        return self._boxes.get(box, (None, None))[0]

    def box_name(self, box: str) -> str:
        return self._boxes.get(box, (None, box))[1] or box

    @cached_property
    def _boxes(self) -> dict[str, tuple[str | None, str | None]]:
        out = {}
        for box in self.data.map()["boxes"]:
            out[box.id] = (box["type"].value if "type" in box else None, box["name"].value if "name" in box else None)
        return out

    def when_of(self, phase: Any) -> str | None:
        """'Turn 3 (30 June PM), axis-movement' for a phase other than the current one (the
        phase a finding at its end belongs to), as the engine's `when` says the current one."""
        if phase is None:
            return None
        label = phase.sequence.labels.get(phase.turn)
        return f"Turn {phase.turn}" + (f" ({label})" if label else "") + f", {phase.name}" \
            + (" (inferred)" if phase.inferred else "")

    def unsettled(self, short: str, step: int | None, data: Iterable[str]) -> None:
        """An occasion of check `short` the data could not settle (no finding: the report says
        the check was not judged there, naming the data)."""
        tally = getattr(self, "tally", None)
        if tally is not None:                        # set by `begin` from the replay's context
            tally.unsettled(INVENTORY.check_id(short), step, data)


def _touches(changed: Iterable[str], ids: set[str], units: Mapping[str, Unit], picked: Callable[[Unit], bool]) -> bool:
    """Whether a piece `changed` is one of the units picked before (`ids`) or one picked now."""
    for uid in changed:
        if uid in ids:
            return True
        unit = units.get(uid)
        if unit is not None and picked(unit):
            return True
    return False


def _enemy(unit: Unit, side: str) -> bool:
    """A ground unit on the map that is not `side`'s (what `by_hex` of the enemies keeps)."""
    return unit.side != side and unit.hex is not None and unit.is_ground_unit


from vlog.games.island_of_death.checks import (  # noqa: E402,F401  (registers the checks)
    airborne, bombardment, breakdown, combat, combat_moves, combat_result, landings, movement, replacements, sequence,
    stacking, strategic, strongpoints, supply, support, victory, warships, weather)
from vlog.games.island_of_death.checks import (  # noqa: E402,F401  (the checks of fire tied to its dice)
    bombardment_targets, coastal_guns, communications, penetration)
from vlog.games.island_of_death.checks import (  # noqa: E402,F401  (the rolls made for one piece)
    airborne_losses, headquarters, landing_losses, leaders, security, unit_rolls)
