"""The Lion of Judah rules engine: a declaration on the kit's engine (vlog/kit/engine.py).

The kit tells each step as `Stepped`, the unit events and the chat declarations; Lion of Judah
keeps its own sequence of play (`reads_sequence = False`: first and second player segments,
phases inferred from who moves and who attacks when the turn track does not show them), so
its `StepReader` (reading.py) reads from them the game's own events (step_events.py). The
engine tells each event to the ledgers below, in their order, then calls the checks whose
inventory items list its kind among their occasions (data/inventory.json): checks/moves.py
(moves), checks/attacks.py (combats), checks/placements.py (placements and air missions) and
the entries of checks/activation.py, events.py, combat_fog.py, sequence_of_play.py,
victory.py and setup.py (the starting position).

The scenario is given, or read from the pieces on the table: Allied units mean 1940-41,
Ethiopian units without Allied ones 1935-36. The logs of one run are judged as one game's, in
order: what the engine keeps (its ledgers, the scenario read from the first log) carries on
from one log to the next.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

# the check modules register the functions the engine calls (checks/common.py REGISTRY)
import vlog.games.lion_of_judah.checks.attacks  # noqa: F401
import vlog.games.lion_of_judah.checks.moves  # noqa: F401
import vlog.games.lion_of_judah.checks.placements  # noqa: F401
from vlog.engine.judge import Unknown
from vlog.games.base import Clock
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.activation import ActivationJudge
from vlog.games.lion_of_judah.checks.allied_1940 import NegusWatch
from vlog.games.lion_of_judah.checks.combat import CombatMemory
from vlog.games.lion_of_judah.checks.common import INVENTORY, REGISTRY
from vlog.games.lion_of_judah.checks.desertion import DesertionWatch
from vlog.games.lion_of_judah.checks.ethiopian_reinforcements import ReinforcementCount
from vlog.games.lion_of_judah.checks.ethiopian_rps import RpCarryLedger, RpGainLedger
from vlog.games.lion_of_judah.checks.events import EventLedger
from vlog.games.lion_of_judah.checks.fuel import FuelLedger
from vlog.games.lion_of_judah.checks.logistics import RpLedger
from vlog.games.lion_of_judah.checks.motorization import MotorizationLedger
from vlog.games.lion_of_judah.checks.movement_segment import MovementLedger, NavalLedger
from vlog.games.lion_of_judah.checks.prestige import PrestigeWatch
from vlog.games.lion_of_judah.checks.rail import RailLedger
from vlog.games.lion_of_judah.checks.rebuilding import RebuildLedger
from vlog.games.lion_of_judah.checks.recruitment import RecruitLedger
from vlog.games.lion_of_judah.checks.reinforcements import DummyArrivals, KarWithdrawal
from vlog.games.lion_of_judah.checks.replacements import FormationLedger, StepGains
from vlog.games.lion_of_judah.checks.stack_moves import StackMoves
from vlog.games.lion_of_judah.checks.trucks import TruckLedger
from vlog.games.lion_of_judah.checks.vp_history import VPHistory
from vlog.games.lion_of_judah.interpret import CHAT, Interpreter, state_of, units_of
from vlog.games.lion_of_judah.reading import StepReader
from vlog.games.lion_of_judah.segments import (CombatAir, MovesInProgress, SegmentStacking, SegmentStart, TurnStart,
                                               TurnTrackTooLong)
from vlog.games.lion_of_judah.sequence import PHASES, phase_from_table, start_phase
from vlog.games.lion_of_judah.state import GameState, Unit
from vlog.games.lion_of_judah.sudden_death import SuddenDeath
from vlog.kit.engine import RulesEngine
from vlog.kit.ledger import Ledger, Ledgers

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.kit.steps import Event, Position, StepView
    from vlog.table import Table

__all__ = ["LionOfJudah", "game"]


class LionOfJudah(RulesEngine):
    """Judges Lion of Judah logs against the rules inventory's implemented checks."""

    id = "lion-of-judah"
    inventory = INVENTORY
    registry = REGISTRY
    grammars = CHAT
    reads_sequence = False

    def __init__(self, data: "GameData | None" = None, *, scenario: str | None = None):
        super().__init__(data, scenario=scenario)
        self.board = Board(self.data)
        self.interpreter = Interpreter(self.data, scenario)
        self.activation = ActivationJudge(self.board, scenario)
        """(35) The Ethiopian activations (checks/activation.py)."""
        self.interpreter.activation.needs_roll = self.activation.needs_roll
        self.combat_memory = CombatMemory()
        self.oos_at_start: dict[str, bool | Unknown] = {}
        """Units out of supply at the start of the movement segment (9.2; segments.SegmentStart)."""
        self.map_start: GameState | None = None
        """The position when the current MAP began: rail movers must be in supply there (SP-16)."""
        self.air_missions: dict[str, tuple[int, int]] = {}
        self.mission_flown: dict[str, tuple[str | None, str | None]] = {}
        """Air marker -> (segment, phasing side) of its last mission: bombing/gas add 1 (AR-05)."""
        self.air_supply_flown: dict[int, str] = {}
        """(35) Turn -> the air marker that flew air supply in it (AR-09: one a turn)."""
        self.kar_regiments: set[str] = set()
        """(40) The BF and GF regiments placed so far (RR-27)."""
        self.reader = StepReader()
        self.moves = MovesInProgress()
        self.stack_moves = StackMoves(self.board)
        self.desertion = DesertionWatch()
        self.reinforcement_count = ReinforcementCount()
        self.rail = RailLedger()
        self.recruits = RecruitLedger()
        self.logistics = RpLedger(self.board, self.data)
        self.trucks = TruckLedger(self.board, self.data)
        self.motorization = MotorizationLedger(self.board)
        self.movement = MovementLedger()
        self.rp_carry = RpCarryLedger(self.board)          # MV-50 (PB 13.6.4.2)
        self.rp_gain = RpGainLedger(self.board)            # CB-28 (PB 13.6.4.1)
        self.naval = NavalLedger()
        self.vp_history = VPHistory()
        self.fuel = FuelLedger()
        self.events = EventLedger(self.data, self.board)
        self.negus = NegusWatch()
        self.prestige = PrestigeWatch()
        self.formations = FormationLedger()
        self.rebuilds = RebuildLedger()
        self.kar = KarWithdrawal()
        self.dummies = DummyArrivals()
        self.combat_air = CombatAir()
        self.sudden_death = SuddenDeath()
        self.ledgers = Ledgers(self.reader, self.sudden_death, self.fuel, self.negus, self.prestige,
                               self.moves, self.activation, self.events, self.motorization, self.stack_moves,
                               TurnTrackTooLong(), SegmentStacking(), self.formations, self.combat_air, self.kar,
                               TurnStart(), self.movement, StepGains(), SegmentStart(), self.logistics)
        """What is kept from step to step, told of the log in this order (vlog/kit/ledger.py): the
        step's reader (which also closes what the log leaves open), what follows every event of
        play (sudden death, fuel, the Negus, the IPL), the phase changes in the order they are
        judged, what a new phase starts afresh, and the RPs of each step once read."""
        for ledger in self.ledgers:
            ledger.game = self

    # -- what the game declares --------------------------------------------------------------------

    def new_ledgers(self) -> Sequence[Ledger]:
        """The engine's own ledgers: the logs of one run are one game's, in order."""
        return tuple(self.ledgers)

    def units(self, position: "Position") -> dict[str, Unit]:
        """The units of a position as Lion of Judah's state reads them (event markers apart);
        read without the unit cache while the scenario is not known, as the scenario changes
        the units a counter makes (1940-41: the Ethiopians under Allied control)."""
        cache = self.interpreter.cache if self.scenario is not None else None
        return units_of(position, self.data, self.scenario, cache)

    def detect_scenario(self, units: Mapping[str, Unit]) -> str | None:
        """1940-41 when Allied units are on the table, 1935-36 when Ethiopian ones are (the
        scenario read from an earlier log of the run stays)."""
        if self.scenario is not None:
            return self.scenario
        sides = {u.side for u in units.values()}
        if "allied" in sides:
            return "1940-41"
        if "ethiopian" in sides:
            return "1935-36"
        return None

    def more_events(self, view: "StepView", events: Sequence["Event"]) -> Sequence["Event"]:
        return self.reader.read(view, events)

    def when(self) -> str | None:
        return self.interpreter.when()

    def clock(self, table: "Table") -> Clock | None:
        """The interpreter's phase; before the first step, the one the table shows or the
        scenario's first (the Event Phase of turn 1)."""
        if self.scenario is None:
            return None
        first = start_phase(self.scenario)
        phase = self.interpreter.phase or phase_from_table(table, self.data, self.scenario) or first
        return Clock(self.scenario, phase.turn, PHASES.index(phase.key),
                     (phase.turn, phase.key) == (first.turn, first.key), phase.when())

    def final_state(self, view: "StepView") -> GameState:
        """The position after the view's step (at the end: the final position)."""
        return state_of(view.after, self.data, self.scenario)

    @property
    def scenario_mark(self) -> str | None:
        """The inventory's mark of the scenario the log plays ('35' for 1935-36), None unknown:
        the replay reports the other scenario's rules as not judged."""
        return self.scenario[2:4] if self.scenario else None


def game(data: "GameData | None" = None, *, scenario: str | None = None) -> LionOfJudah:
    """The factory `vlog.games.base.find_game` calls; `data` carries user overlays (`--data`),
    `scenario` ("1935-36" or "1940-41") overrides the scenario read from the pieces."""
    return LionOfJudah(data, scenario=scenario)
