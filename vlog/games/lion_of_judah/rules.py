"""The Lion of Judah rules engine as the replay drives it (`vlog.games.base.Game`).

`interpret` (interpret.py) turns each step into moves, phase changes and combats; `check`
judges each against the position before the step with the checks of `checks/`; stacking is
judged on the position that closes each movement and combat segment (8.1); the supply at the
start of a movement segment (9.2) sets which units have half their MF and may not force march.

The scenario is given, or read from the pieces on the table: Allied units mean 1940-41,
Ethiopian units without Allied ones 1935-36.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Sequence

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.gamedata import GameData, load_game_data
from vlog.games.base import CheckSpec, Context, Game
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.activation import EVENTS as ACTIVATION_EVENTS, ActivationJudge
from vlog.games.lion_of_judah.checks.air import (GASSED_COUNTER, judge_air_mission, judge_delayed_return,
                                                  judge_gassed, judge_mission_segment, judge_second_mission,
                                                  may_be_bombing)
from vlog.games.lion_of_judah.checks.allied_1940 import NegusWatch, allied_action, judge_negus_with_gideon
from vlog.games.lion_of_judah.checks.areas import judge_neutral_entry
from vlog.games.lion_of_judah.checks.combat import CombatFacts, CombatMemory, gassed_readings, judge_combat
from vlog.games.lion_of_judah.checks.combat_fog import counter_guerrilla_applies, judge_dummy_flip
from vlog.games.lion_of_judah.checks.common import INVENTORY
from vlog.games.lion_of_judah.checks.desertion import DesertionWatch
from vlog.games.lion_of_judah.checks.ethiopian_reinforcements import ReinforcementCount, count_step
from vlog.games.lion_of_judah.checks.ethiopian_rps import RpCarryLedger, RpGainLedger, judge_rp_use
from vlog.games.lion_of_judah.checks.events import EventLedger
from vlog.games.lion_of_judah.checks.fronts import (counts_for_pressure, judge_air_front, judge_air_supply_front,
                                                    judge_air_support_front)
from vlog.games.lion_of_judah.checks.fuel import (FuelLedger, fuel_action, fuel_begin,
                                                   starts_the_scenario)
from vlog.games.lion_of_judah.checks.garrison import judge_garrisons
from vlog.games.lion_of_judah.checks.guerrillas import judge_guerrilla_support
from vlog.games.lion_of_judah.checks.logistics import RpLedger, judge_logistics, logistics_event
from vlog.games.lion_of_judah.checks.motorization import MotorizationLedger, places_under
from vlog.games.lion_of_judah.checks.movement import MoveFacts, judge_move, may_force_march
from vlog.games.lion_of_judah.checks.movement_segment import MovementLedger, NavalLedger, judge_naval_move
from vlog.games.lion_of_judah.checks.prestige import PrestigeWatch, prestige_action
from vlog.games.lion_of_judah.checks.rail import RailLedger, judge_rail_move
from vlog.games.lion_of_judah.checks.rebuilding import RebuildLedger
from vlog.games.lion_of_judah.checks.recruitment import GUERRILLA_HOMES, RecruitLedger, judge_recruit
from vlog.games.lion_of_judah.checks.reinforcements import (EA_BRIGADES, DummyArrivals, KarWithdrawal,
                                                            judge_event_irregulars, judge_placement)
from vlog.games.lion_of_judah.checks.replacements import (FormationLedger, judge_breakdown_return,
                                                           judge_kar_regiment, judge_step_gain)
from vlog.games.lion_of_judah.checks.setup import (judge_campaign_guerrillas, judge_setup_areas,
                                                   judge_start_boxes_1935)
from vlog.games.lion_of_judah.checks.sequence_of_play import (judge_attack_out_of_segment, judge_flip_outside_combat,
                                                              judge_hidden_entry, judge_move_out_of_segment,
                                                              judge_off_side_move)
from vlog.games.lion_of_judah.checks.stack_moves import StackMoves
from vlog.games.lion_of_judah.checks.supply import AIR_SUPPLIED, judge_supply_prerequisite, trace
from vlog.games.lion_of_judah.checks.trucks import TruckLedger
from vlog.games.lion_of_judah.checks.victory import LAST_TURN, judge_victory_claim, judge_vp_claim, tally
from vlog.games.lion_of_judah.checks.vp_history import VPHistory, judge_start_markers_1935, judge_steps_marker
from vlog.games.lion_of_judah.interpret import CHAT, Interpreter, state_of, units_named
from vlog.games.lion_of_judah.segments import (CombatAir, MovesInProgress, SegmentStacking, TurnStart,
                                               TurnTrackTooLong)
from vlog.games.lion_of_judah.sequence import Phase, phase_from_table
from vlog.games.lion_of_judah.state import GameState, build_state
from vlog.games.lion_of_judah.step_events import (Appear, Combat, DesertionJudged, DummyFlip, EventMarker, Judged,
                                                  Logistics, MarkersJudged, Move, PhaseTurned, ReinforcementsJudged,
                                                  Reveal, StepGain, VictoryClaim)
from vlog.kit.steps import Event
from vlog.games.lion_of_judah.sudden_death import SuddenDeath
from vlog.kit.ledger import Ledgers
from vlog.kit.steps import Position, StepView

if TYPE_CHECKING:  # pragma: no cover
    from vlog.table import Table
    from vlog.vassal.commands import Chat
    from vlog.vassal.savefile import Step

__all__ = ["LionOfJudah", "game", "detect_scenario"]

AIR_SUPPLY_STEPS = 2
"""PB 13.6.5.2: up to two steps of Northern Front units are supplied by an air marker."""


def detect_scenario(state: GameState) -> str | None:
    """1940-41 when Allied units are on the table, 1935-36 when Ethiopian ones are."""
    sides = {u.side for u in state.units.values()}
    if "allied" in sides:
        return "1940-41"
    if "ethiopian" in sides:
        return "1935-36"
    return None


class LionOfJudah(Game):
    """Judges Lion of Judah logs against the rules inventory's implemented checks."""

    id: ClassVar[str] = "lion-of-judah"
    checks: ClassVar[tuple[CheckSpec, ...]] = INVENTORY.specs()

    def __init__(self, data: GameData | None = None, *, scenario: str | None = None):
        self.data = data if data is not None else load_game_data("lion-of-judah")
        self.board = Board(self.data)
        self.scenario = scenario
        self.interpreter = Interpreter(self.data, scenario)
        self.activation = ActivationJudge(self.board, scenario)
        """(35) The Ethiopian activations (checks/activation.py)."""
        self.interpreter.activation.needs_roll = self.activation.needs_roll
        self.combat_memory = CombatMemory()
        self.oos_at_start: dict[str, bool | Unknown] = {}
        self.air_missions: dict[str, tuple[int, int]] = {}
        self.stack_moves = StackMoves(self.board)
        """The stacks moving in the current movement segment (MV-08, checks/stack_moves.py)."""
        self.moves = MovesInProgress()
        """Where each unit began the segment, its forced-march rolls, moves not yet over (segments.py)."""
        self.desertion = DesertionWatch()
        """(40) The colonial desertion roll and the units removed in each MAP (SC-04)."""
        self.reinforcement_count = ReinforcementCount()
        """(35) The Ethiopian reinforcements of each MAP and what raised them (RR-05)."""
        self.rail = RailLedger()
        """Rail movement in each MAP (11.7): origins, loads per line, units reported."""
        self.recruits = RecruitLedger()
        """(40) Guerrillas recruited in each MAP, by faction (SC-05)."""
        self.logistics = RpLedger(self.board, self.data)
        """RPs in the storage boxes, trucks and RP routes (checks/logistics.py)."""
        self.trucks = TruckLedger(self.board, self.data)
        """What each truck carried in each turn (MV-31, checks/trucks.py)."""
        self.motorization = MotorizationLedger(self.board)
        """Combat units moving motorized since the last MAP (HQ-08, MV-34, checks/motorization.py)."""
        self.movement = MovementLedger()
        self.rp_carry = RpCarryLedger(self.board)          # MV-50 (PB 13.6.4.2)
        self.rp_gain = RpGainLedger(self.board)            # CB-28 (PB 13.6.4.1)
        """Interdiction, rain, forced-march supply and ambushes in a movement segment (MV-18..MV-26)."""
        self.naval = NavalLedger()
        """Units moved by sea in each MAP (11.8, MV-38, MV-39)."""
        self.vp_history = VPHistory()
        """What the VP tally needs from the history (VC-01, VC-02, VC-05, VC-06)."""
        self.fuel = FuelLedger()
        """(40) The Italian fuel from the log's history (PB 14.6.1.1; checks/fuel.py)."""
        self.events = EventLedger(self.data, self.board)
        """The event pool, the draws and the held events (checks/events.py)."""
        self.negus = NegusWatch()
        """(40) The Negus's fate with the Gideon Force (PB 14.6.4.4; checks/allied_1940.py)."""
        self.prestige = PrestigeWatch()
        """(40) The IPL marker across each player phase (PB 14.6.3.2; checks/prestige.py)."""
        self.mission_flown: dict[str, tuple[str | None, str | None]] = {}
        """Air marker -> (segment, phasing side) of its last mission: bombing/gas add 1 (AR-05)."""
        self.map_start: GameState | None = None
        """The position when the current MAP began: rail movers must be in supply there (SP-16)."""
        self.formations = FormationLedger()
        """Breakdown units and columns formed in the MAP, steps given up, trucks removed (RR-16..19)."""
        self.rebuilds = RebuildLedger()
        """Counters eliminated in a combat, judged when placed again (RR-15, checks/rebuilding.py)."""
        self.last_after: GameState | None = None
        """The position after the previous step (the next step's position before)."""
        self.last_roll_step: int | None = None
        """The last step whose chat reports a die roll (AR-05 reads a roll made with or just before)."""
        self.kar = KarWithdrawal()
        """(40) The KAR brigades' withdrawal in the MAP of turn 5 (RR-20)."""
        self.dummies = DummyArrivals()
        """(40) The reinforcement dummies placed in each MAP (RR-23)."""
        self.kar_regiments: set[str] = set()
        """(40) The BF and GF regiments placed so far (RR-27)."""
        self.air_supply_flown: dict[int, str] = {}
        """(35) Turn -> the air marker that flew air supply in it (AR-09: one a turn)."""
        self.combat_air = CombatAir()
        """Air markers placed in the segment and the hexes it attacks (AR-07, AR-08; segments.py)."""
        self.sudden_death = SuddenDeath()
        """VC-04, VC-08: when the game ended and whether play after it was reported."""
        self.ledgers = Ledgers(self.moves, self.activation, self.events, self.motorization, self.stack_moves,
                               TurnTrackTooLong(), SegmentStacking(), self.formations, self.combat_air, self.kar,
                               TurnStart(), self.movement, self.sudden_death, self.fuel, self.negus)
        """What is kept from step to step, told of the log in this order (vlog/kit/ledger.py):
        the phase changes in the order they are judged, then the steps."""
        for ledger in self.ledgers:
            ledger.game = self

    def final_state(self, view: StepView) -> GameState:
        """The position after the view's step (at the end: the final position)."""
        return state_of(view.after, self.data, self.scenario)

    @property
    def scenario_mark(self) -> str | None:
        """The inventory's mark of the scenario the log plays ('35' for 1935-36), None unknown:
        the replay reports the other scenario's rules as not judged."""
        return self.scenario[2:4] if self.scenario else None

    # -- hooks -----------------------------------------------------------------------------------
    def begin(self, table: "Table", ctx: Context) -> Iterable[Finding]:
        start = Position(table)
        self.ledgers.begin(StepView(None, start, start))
        if self.scenario is None:
            self.scenario = detect_scenario(build_state(table, self.data))
            self.interpreter.scenario = self.scenario
        self.activation.scenario = self.scenario
        if self.scenario is None:
            return ()
        start = build_state(table, self.data, scenario=self.scenario)
        phase = phase_from_table(table, self.data, self.scenario)
        out: list[Finding] = []
        if starts_the_scenario(phase):          # SU-01, SU-02, SU-05 (checks/setup.py)
            out += judge_setup_areas(self.board, self.data, start, self.scenario, step=0, when=phase.when())
            if self.scenario == "1940-41":      # SU-07: the campaign's guerrilla adjustments
                out += judge_campaign_guerrillas(self.data, start, step=0, when=phase.when())
        if self.scenario == "1940-41":          # SU-06, the fuel the log begins with
            out += fuel_begin(self.fuel, self.data, start, phase)
            if starts_the_scenario(phase):      # SC-09 (checks/garrison.py)
                out += judge_garrisons(self.board, start, step=0, when=phase.when())
        return out

    def interpret(self, step: "Step", table: "Table", ctx: Context | None = None) -> Sequence[Event]:
        rolls = ctx.rolls if ctx is not None else ()
        if self.scenario == "1940-41":      # RR-26: Djibouti an Allied supply source once it joined
            self.interpreter.flags["french-somaliland-joined"] = self.events.french_somaliland_joined()
        view = ctx.view
        rp_before = (self.interpreter.phase, state_of(view.before, self.data, self.scenario, self.interpreter.cache))
        before = self.last_after if self.last_after is not None else state_of(
            view.before, self.data, self.scenario, control=self.interpreter.control)
        actions = list(self.interpreter.interpret(view))
        actions.append(logistics_event(self.interpreter, step.index, *rp_before, actions))
        after = self.interpreter._after
        if after is not None:                   # RR-16, RR-18, RR-19: what the MAP shows
            phase = self.interpreter.phase
            self.formations.note_step(before, after, in_map=self.interpreter.phase_bound and phase is not None
                                      and phase.key == "map")
            self.last_after = after
            self.rebuilds.note_step(before, after, step=step.index, in_combat=self.interpreter.pending is not None
                                    or any(isinstance(a, Combat) for a in actions))     # RR-15
        if self.interpreter.pending is not None:        # AR-07: the hexes this segment attacks
            self.combat_air.targets.setdefault(self.interpreter.pending.declaration.target,
                                               self.interpreter.pending.step)
        if any(r.total is not None for r in rolls):
            self.last_roll_step = step.index
        if ctx is not None:
            ctx.when = self.interpreter.when()
        turn = self.interpreter.phase.turn if self.interpreter.phase is not None else None
        if self.scenario == "1940-41" and after is not None:      # SC-04 (checks/desertion.py)
            phase = self.interpreter.phase
            deserted = self.desertion.note_step(
                self.board, self.data, step=step.index, before=before, after=after,
                rolls=[r.total for r in rolls if r.total is not None],
                chats=list(view.messages),
                turn=turn, in_map=self.interpreter.phase_bound and phase is not None and phase.key == "map",
                when=self.interpreter.when())
            if deserted:
                actions.append(DesertionJudged(step.index, tuple(deserted)))
        if self.scenario == "1935-36":          # RR-05 (checks/ethiopian_reinforcements.py)
            counted = count_step(self.reinforcement_count, self.board, list(actions),
                                 list(view.messages),
                                 phase=self.interpreter.phase, bound=self.interpreter.phase_bound,
                                 gone_leaders=self.interpreter.gone_leaders, step=step.index)
            if counted:
                actions.append(ReinforcementsJudged(step.index, tuple(counted)))
        marker_findings = self._note_vp_history(step, view.chats, turn)
        if marker_findings:                     # SU-03, VC-02 (the GRT markers)
            actions.append(MarkersJudged(step.index, tuple(marker_findings)))
        for claim in CHAT.read("victory-claim", step.commands):          # VC-03, VC-07
            actions.append(VictoryClaim(step.index, claim, when=self.interpreter.when(), turn=turn,
                                        state=self.interpreter.last_states[1] if self.interpreter.last_states else None))
        self.ledgers.step(view)     # the game may end here (VC-04, VC-08), fuel lost to conquests
        return actions

    def check(self, action: Event, table: "Table", ctx: Context) -> Iterable[Finding]:
        if isinstance(action, Judged):          # SC-04, RR-05, the GRT markers: judged as read
            return list(action.findings)
        if isinstance(action, Logistics):       # RPs, boxes, trucks (checks/logistics.py)
            self.logistics.halved_income = self.events.played_turns("C4")      # EV-13
            self.motorization.note_step(action.before, action.after, step=action.step)
            return judge_logistics(self.logistics, action, self.scenario) + self.trucks.observe(
                action.before, action.after, step=action.step, phase=action.new,
                bound=action.bound, scenario=self.scenario, when=action.when)
        if isinstance(action, VictoryClaim):    # announcing the result is not play (VC-04/VC-08)
            return judge_victory_claim(self.data, self.scenario, action.claim,
                                       step=action.step, when=action.when) + self._check_vp(action)
        out = self.sudden_death.play(action)
        if self.scenario == "1940-41":          # SC-01, MV-47, CB-40, AR-10 (checks/fuel.py)
            out += fuel_action(self.fuel, self.data, action, phase=self.interpreter.phase,
                               phase_bound=self.interpreter.phase_bound)
            events = getattr(self, "events", None)      # CB-39, MV-48 (checks/allied_1940.py)
            out += allied_action(self.negus, action, phase=self.interpreter.phase,
                                 phase_bound=self.interpreter.phase_bound,
                                 joined=events.french_somaliland_joined() if events is not None else None)
            out += prestige_action(self.prestige, self.board, self.data, action)      # SC-03
        if isinstance(action, EventMarker):
            return out + self._check_event_marker(action)
        if isinstance(action, ACTIVATION_EVENTS):
            return out + self.activation.check_event(action, self.interpreter.phase)
        if isinstance(action, Move):
            return out + self._check_move(action)
        if isinstance(action, PhaseTurned):
            return out + self._check_phase(action, ctx)
        if isinstance(action, Combat):
            return out + self._check_combat(action)
        if isinstance(action, DummyFlip):                 # FW-06 (PB 14.6.5)
            phase = self.interpreter.phase
            return out + judge_dummy_flip(self.board, action.unit, action.level,
                                          entered=action.entered, step=action.step,
                                          when=action.when, removed=action.removed,
                                          phase_key=phase.key if self.interpreter.phase_bound and phase else None)
        if isinstance(action, Reveal):
            return out + self._check_reveal(action)
        if isinstance(action, Appear):
            return out + self._check_appear(action)
        if isinstance(action, StepGain):
            return out + self._check_step_gain(action)
        return out

    def _note_vp_history(self, step: "Step", chats: Sequence[Chat], turn: int | None) -> list[Finding]:
        """Feeds the VP history with this step (VC-01, VC-02, VC-05, VC-06); (35) judges the GRT
        markers on the position before it: where the log begins at turn 1 (SU-03) and when the
        turn track shows a new turn (the eliminated steps marker, VC-02)."""
        out: list[Finding] = []
        history = self.vp_history
        states = self.interpreter.last_states
        if states is not None and turn is not None and self.scenario == "1935-36":
            when, phase = self.interpreter.when(), self.interpreter.phase
            if history.first_turn == 1 and not history.start_markers_judged and turn == 1                     and phase is not None and phase.phasing is not None:
                history.start_markers_judged = True          # SU-03 when play begins
                out += judge_start_markers_1935(states[0], step=step.index, when=when, data=self.data)
                out += judge_start_boxes_1935(self.data, states[0], step=step.index, when=when)
            elif history.turns_seen and turn > max(history.turns_seen):
                out += judge_steps_marker(self.board, states[0], history, turn=max(history.turns_seen),
                                          step=step.index, when=when)
        if states is not None:
            history.observe(states[0], states[1], step=step.index, turn=turn,    # set-up changes are no losses
                            setting_up=self.interpreter.phase_bound and starts_the_scenario(self.interpreter.phase))
        history.note_turn(turn)
        for line in chats:
            self.vp_history.note_chat(line.text, step=step.index, turn=turn)
        return out

    def _check_vp(self, action: VictoryClaim) -> list[Finding]:
        """VC-01/VC-02, VC-05/VC-06: a total declared at the end of the last turn (or when the
        turn is not known) against the tally; none after a sudden death (VC-04, VC-08)."""
        state, turn = action.state, action.turn
        if state is None or self.scenario not in LAST_TURN or self.sudden_death.at is not None:
            return []
        if turn is not None and turn < LAST_TURN[self.scenario]:
            return []
        state.scenario = self.scenario
        result = tally(self.board, state, self.vp_history, self.scenario)
        if result is None:
            return []
        return judge_vp_claim(result, action.claim, step=action.step, when=action.when)

    def _check_step_gain(self, action: StepGain) -> list[Finding]:
        phase = self.interpreter.phase
        before = action.before
        before.scenario = self.scenario
        key = phase.key if (phase is not None and self.interpreter.phase_bound) else None
        return judge_step_gain(self.board, before, action.unit, action.steps_after,
                               consolidated_with=action.consolidated_with, phase_key=key,
                               step=action.step, when=action.when)

    def _check_appear(self, action: Appear) -> list[Finding]:
        """Reinforcements: judged in the Mutual Administration Phase shown by the turn track;
        air markers taken from their boxes: their range (AR-01) whenever they are placed."""
        unit = action.unit
        if unit.kind == "rp" and unit.side == "ethiopian":              # CB-28 (PB 13.6.4.1)
            open_ = self.interpreter.pending
            if open_ is not None:
                self.rp_gain.note_attack(open_.step, open_.declaration.target,
                                         units_named(open_.before, open_.declaration.attackers,
                                                     open_.side), open_.before, open_.side, open_.phase)
            return self.rp_gain.on_place(unit, action.after, self.interpreter.phase,
                                         self.interpreter.phase_bound, scenario=self.scenario,
                                         step=action.step, when=action.when)
        if unit.kind == "rp":
            return []           # RP markers leave their boxes only on trucks (checks/logistics.py)
        if unit.kind == "air":
            before = action.before
            before.scenario = self.scenario
            if self.scenario is None:
                return []
            phase = self.interpreter.phase
            out = [] if not self.interpreter.phase_bound or phase is None else judge_second_mission(   # AR-03
                self.air_missions, unit, action.hex, phase.turn, step=action.step, when=action.when)
            out += self._mission_segment(action, unit, before)
            out += self._bombing_after_league(action, unit)
            self._air_supply(unit, action.hex, before)
            if self.interpreter.phase_bound and phase is not None and phase.segment == "movement" \
                    and phase.phasing == unit.side:          # AR-02: air supply's front (checks/fronts.py)
                out += judge_air_supply_front(self.board, before, unit, action.hex, step=action.step,
                                              when=action.when)
            self._combat_air(unit, action, before)
            if unit.side == "italian":
                self.combat_air.air_hexes.add(action.hex)
            return out + judge_air_mission(self.board, before, unit, action.hex,
                                           step=action.step, when=action.when) \
                + judge_air_front(self.board, before, unit, action.hex, step=action.step,
                                  when=action.when)               # AR-02 (checks/fronts.py)
        out: list[Finding] = self.events.on_placement(unit, action.hex, action.before,
                                                      self.interpreter.phase, self.interpreter.phase_bound,
                                                      step=action.step, when=action.when)  # EV-11
        out += judge_hidden_entry(self.board, unit, step=action.step, when=action.when)
        phase = self.interpreter.phase
        if self.interpreter.phase_bound and phase is not None and phase.key == "event" \
                and self.scenario == "1935-36" and unit.unit_class == "italian-colonial-irregular":
            before = action.before
            before.scenario = self.scenario
            return out + judge_event_irregulars(self.board, before, unit, turn=phase.turn,
                                                step=action.step, when=action.when)
        if self.scenario == "1940-41" and unit.counter in EA_BRIGADES and unit.counter not in self.kar.entered:
            bound = self.interpreter.phase_bound and phase is not None
            return out + self.kar.note_placed(self.board, unit, turn=phase.turn if bound else None,
                                              in_map=bound and phase.key == "map", step=action.step,
                                              when=action.when)          # RR-20 (PB 14.6.7)
        if unit.counter == GASSED_COUNTER and self.interpreter.phase_bound and phase is not None:   # AR-08
            before = action.before
            return out + judge_gassed(self.board, before, unit, action.hex, scenario=self.scenario,
                                      segment=phase.segment, phasing=phase.phasing,
                                      air_hexes=set(self.combat_air.air_hexes), step=action.step,
                                      when=action.when)
        if unit.counter in ("gb-bf", "gb-gf") and unit.counter not in self.kar_regiments:   # RR-27
            self.kar_regiments.add(unit.counter)       # placed anywhere in Sudan, not at an entry hex
            return out + judge_kar_regiment(self.board, self.formations, unit, self.scenario,
                                            len(self.kar_regiments) - 1, step=action.step,
                                            when=action.when)
        if unit.unit_type == "breakdown":               # RR-18 (2.4; PB 14.3.3), in any phase
            back = judge_breakdown_return(self.board, self.formations, unit, self.scenario, step=action.step,
                                          when=action.when)
            if back:
                return out + back
        if not self.interpreter.phase_bound or phase is None or phase.key != "map":
            return out
        self.rail.placed.add((phase.turn, unit.id))     # it did not begin this MAP on a line (MV-36)
        before, after = action.before, action.after
        before.scenario = after.scenario = self.scenario
        if unit.unit_type == "breakdown" or (unit.unit_type == "column" and self.scenario == "1935-36"):
            self.formations.note_formed(unit, before, step=action.step, when=action.when)
            return out                                  # judged when the MAP ends (RR-16, RR-19)
        if self.scenario == "1940-41" and unit.counter in GUERRILLA_HOMES:    # SC-05 (PB 14.6.4.1)
            return out + judge_recruit(self.board, before, unit, self.recruits, turn=phase.turn,
                                       step=action.step, when=action.when)
        after.flags["french-somaliland-joined"] = self.events.french_somaliland_joined() is True  # RR-11
        out += self.rebuilds.judge(self.board, unit, self.scenario, step=action.step,
                                   when=action.when)               # RR-15 (7.3.4)
        if self.scenario == "1940-41":                  # RR-23: two dummies a turn
            out += self.dummies.note(self.board, unit, turn=phase.turn, step=action.step, when=action.when)
        return out + judge_placement(self.board, before, after, action.unit,
                                     turn=self.events.entry_turn(unit, phase.turn),   # EV-14: D6 early
                                     step=action.step, when=action.when,
                                     gone_leaders=self.interpreter.gone_leaders)

    def _combat_air(self, marker: Any, action: Appear, before: GameState) -> None:
        """AR-07: a marker placed in a combat segment the turn track tells, judged when it ends."""
        phase = self.interpreter.phase
        if self.interpreter.phase_bound and phase is not None and phase.segment == "combat":
            self.combat_air.place(marker, action.hex, before, step=action.step, when=action.when)

    def _air_supply(self, marker: Any, hex_: str, before: GameState) -> None:
        """SP-15 (PB 13.6.5.2): (35) an Italian marker placed in the Italian movement segment
        flies air supply to the Italian units under it, up to two steps (so never a unit of more
        steps): they count as in supply for the rest of the turn, from the segment's start."""
        phase = self.interpreter.phase
        if self.scenario != "1935-36" or marker.side != "italian" or not self.interpreter.phase_bound \
                or phase is None or phase.segment != "movement" or phase.phasing != "italian":
            return
        supplied = [u.id for u in before.at(hex_) if u.side == "italian" and u.kind not in ("air", "rp")
                    and not (isinstance(u.steps, int) and u.steps > AIR_SUPPLY_STEPS)]
        if supplied:
            known = self.interpreter.flags.get(AIR_SUPPLIED, frozenset())
            self.interpreter.flags[AIR_SUPPLIED] = frozenset(known) | frozenset(supplied)
            for uid in supplied:
                self.oos_at_start.pop(uid, None)

    def _delayed_return(self, action: Move, marker: Any, after: GameState) -> list[Finding]:
        """AR-05 (10.1.4): the marker taken off the map goes where the last roll logged says."""
        phase = self.interpreter.phase
        if not self.interpreter.phase_bound or phase is None or self.scenario is None:
            return []
        now = after.units.get(marker.id)
        rolls = action.rolls
        if self.last_roll_step is None or self.last_roll_step < action.step - 1:
            rolls = ()          # 10.1.4: rolled right after the mission; an older roll was for else
        segment, phasing = self.mission_flown.get(marker.id, ("unknown", None))
        bombing = may_be_bombing(marker, self.scenario, segment, phasing) if segment != "unknown" \
            else (self.scenario == "1935-36" and marker.side == "italian")
        return judge_delayed_return(self.board, marker, roll=rolls[-1] if rolls else None,
                                    box=now.box if now is not None else None, turn=phase.turn,
                                    last_turn=phase.rules.turns, bombing_possible=bombing,
                                    step=action.step, when=action.when)

    def _mission_segment(self, action: Appear, marker: Any, before: GameState) -> list[Finding]:
        """AR-06, AR-11: the missions a marker may fly in the movement segment the turn track tells."""
        phase = self.interpreter.phase
        bound = self.interpreter.phase_bound and phase is not None
        phasing = phase.phasing if bound else None
        self.mission_flown[marker.id] = (phase.segment if bound else "unknown", phasing)
        moved = [before.units[uid].name for uid in self.moves.origins
                 if uid in before.units and before.units[uid].side == phasing]
        earlier = None
        if bound and self.scenario == "1935-36" and marker.side == "italian" and phase.segment == "movement" \
                and phasing == "italian":               # air supply: one marker a turn (AR-09)
            earlier = self.air_supply_flown.get(phase.turn)
            self.air_supply_flown.setdefault(phase.turn, marker.name)
        return judge_mission_segment(self.board, before, marker, action.hex,
                                     scenario=self.scenario, segment=phase.segment if bound else None,
                                     phasing=phasing, moved=moved, step=action.step,
                                     when=action.when, earlier_air_supply=earlier)

    def _check_event_marker(self, action: EventMarker) -> list[Finding]:
        """An event marker changed place (checks/events.py): draws, the pool, held events played."""
        action.before.scenario = action.after.scenario = self.scenario
        out = self.events.on_marker(action.marker, action.old, action.new, self.interpreter.phase,
                                    self.interpreter.phase_bound, action.before, action.after,
                                    step=action.step, when=action.when)
        return out + self.activation.judge_coordination(action.new, action.after, step=action.step,
                                                        when=action.when)

    def _bombing_after_league(self, action: Appear, marker: Any) -> list[Finding]:
        """EV-06 (A4): no bombing in the turn League of Nations is drawn (checks/events.py)."""
        pending = self.interpreter.pending
        return self.events.on_air_mission(marker, action.hex, self.interpreter.phase,
                                          self.interpreter.phase_bound,
                                          pending.declaration.target if pending is not None else None,
                                          step=action.step, when=action.when)

    def _check_reveal(self, action: Reveal) -> list[Finding]:
        """FW-02 (2.3.7, 12.3): ?-side units are flipped only when revealed in a combat."""
        unit = action.unit
        attrition = self.activation.reveal(unit, self.interpreter.phase, step=action.step,
                                           when=action.when)
        if attrition is not None:       # FW-05: in the End of Turn Phase (PB 13.6.3)
            return attrition
        return judge_flip_outside_combat(unit, action.level, step=action.step, when=action.when)

    def end(self, table: "Table", ctx: Context) -> Iterable[Finding]:
        out: list[Finding] = []
        if self.moves.pending:
            final = state_of(ctx.view.after, self.data, self.scenario, control=self.interpreter.control)
            final.flags.update(self.interpreter.flags)          # SP-15: air supply still counts
            out.extend(self.moves.flush(final))
        for action in self.interpreter.finish():
            out.extend(self._check_combat(action))
            if self.scenario == "1940-41":      # the last attack's fuel (CB-40) and the Negus (CB-39)
                out += fuel_action(self.fuel, self.data, action, phase=self.interpreter.phase,
                                   phase_bound=self.interpreter.phase_bound)
                allied_action(self.negus, action, phase=self.interpreter.phase,
                              phase_bound=self.interpreter.phase_bound, joined=None)
        out.extend(self.ledgers.end(ctx.view))
        out.extend(self.logistics.finish(self.final_state(ctx.view), scenario=self.scenario))
        return out

    # -- moves -----------------------------------------------------------------------------------
    def _check_move(self, action: Move) -> list[Finding]:
        unit = action.unit
        before: GameState = action.before
        after: GameState = action.after
        before.scenario = after.scenario = self.scenario
        when = action.when
        out: list[Finding] = []
        phase = self.interpreter.phase
        if unit.kind == "air":
            # taken from its box onto the map it also appears: judged there once (AR-01, AR-03)
            if unit.hex is not None and action.to is not None and self.scenario is not None:
                return judge_air_mission(self.board, before, unit, action.to, step=action.step, when=when) \
                    + judge_air_front(self.board, before, unit, action.to, step=action.step, when=when)
            if unit.hex is not None and action.to is None:
                return out + self._delayed_return(action, unit, after)
            return out          # air markers fly missions; they do not move (10.1)
        if unit.hex is not None and action.to is None and phase is not None \
                and self.interpreter.phase_bound and phase.key == "map":       # MV-38, MV-39 (11.8)
            gone = after.units.get(unit.id)
            return out + judge_naval_move(self.board, before, unit,
                                          self.rail.origins.get((phase.turn, unit.id), unit.hex),
                                          gone.box if gone is not None else None, scenario=self.scenario,
                                          turn=phase.turn, ledger=self.naval, step=action.step, when=when)
        if unit.hex is None or action.to is None:
            return out          # placed from or sent to a box: reinforcements, eliminations
        out.extend(self.activation.move(unit, unit.hex, action.to, phase, step=action.step, when=when))
        if self.scenario == "1940-41" and unit.counter == "et-negus" and action.to is not None:
            out.extend(judge_negus_with_gideon(self.board, unit, action.to, after, step=action.step, when=when))
        out.extend(self.events.on_unit_move(unit, action.to, phase, self.interpreter.phase_bound,
                                            step=action.step, when=when))          # MV-46, ET-13
        before.flags["french-somaliland-joined"] = self.events.french_somaliland_joined()
        if self.scenario == "1940-41":                  # TS-09 (PB 14.1.1)
            out.extend(judge_neutral_entry(self.board, before, unit, action.to, step=action.step,
                                           when=when))
        if phase is not None and self.interpreter.phase_bound and phase.segment != "movement":
            if phase.key == "map":      # map to map in the MAP: rail movement (11.7)
                if places_under(self.board, unit, self.rail.origins.get((phase.turn, unit.id), unit.hex),
                                action.to, after):
                    return out          # a truck goes under a unit next to it (10.3.2, 10.3.3)
                first = (phase.turn, unit.id) not in self.rail.origins
                origin = self.rail.origins.setdefault((phase.turn, unit.id), unit.hex)
                if first and self.map_start is not None and (phase.turn, unit.id) not in self.rail.placed:
                    self.map_start.scenario = self.scenario
                    out.extend(judge_supply_prerequisite(self.board, self.map_start, unit, "rail",
                                                         step=action.step, when=when))   # SP-16
                return out + judge_rail_move(self.board, before, unit, origin, action.to,
                                             scenario=self.scenario, turn=phase.turn,
                                             ledger=self.rail, step=action.step, when=when)
            return out + judge_move_out_of_segment(unit, phase, step=action.step, when=when)
        out.extend(self.rp_carry.on_move(before, after, unit, action.to, phase,   # MV-50
                                         self.interpreter.phase_bound, scenario=self.scenario,
                                         oos_at_start=self.oos_at_start.get(unit.id, False),
                                         step=action.step, when=when))
        if unit.kind == "rp":
            return out          # an RP moves with the truck carrying it (checks/logistics.py)
        in_movement = phase is not None and self.interpreter.phase_bound and phase.segment == "movement"
        if in_movement:                                  # MV-04, MV-08
            out.extend(judge_off_side_move(unit, phase, step=action.step, when=when))
            out.extend(self.stack_moves.move(unit, unit.hex, action.to, step=action.step, when=when))
        # a unit dragged hex by hex is judged from where it began the segment, with every
        # forced-march roll logged for it so far; its supply when its movement ends (9.1)
        out.extend(self.moves.flush(before, moving=unit.id, step=action.step))
        origin = self.moves.origins.setdefault(unit.id, unit.hex)
        rolls = self.moves.fm_rolls.setdefault(unit.id, [])
        rolls.extend(action.forced_march_rolls)
        self.moves.pending[unit.id] = (action.step, when)
        eligible, _ = may_force_march(unit, self.oos_at_start.get(unit.id, False))
        out.extend(self.movement.on_drag(self.board, before, unit, origin, action.to,   # MV-25, MV-26
                                         tuple(action.forced_march_rolls), eligible=eligible,
                                         step=action.step, when=when))
        if unit.id in self.moves.reported or origin == action.to:
            return out
        riders = self.motorization.riders(unit, origin, action.to, before, after, phase, self.trucks,
                                          step=action.step, when=when) if in_movement else set()
        start_unit = replace(unit, hex=origin, motorized=True) if riders else replace(unit, hex=origin)
        facts = MoveFacts(start_unit, origin, action.to, after_level=action.after_level,
                          forced_march_rolls=tuple(rolls),
                          out_of_supply_at_start=self.oos_at_start.get(unit.id, False),
                          scenario=self.scenario, turn=phase.turn if phase is not None else None,
                          trucks=self.trucks.hq_trucks(unit, origin, action.to, before, after, phase)
                          if unit.kind == "hq" else 0,           # HQ-09 (checks/trucks.py)
                          motorized_by=len(riders),              # MV-34 (checks/motorization.py)
                          **self.movement.facts(unit))
        judged = self.movement.judged(judge_move(self.board, before, facts, step=action.step, when=when),
                                      unit, origin)
        if judged:
            self.moves.reported.add(unit.id)
        return out + judged

    # -- phases ------------------------------------------------------------------------------------
    def _check_phase(self, action: PhaseTurned, ctx: Context) -> list[Finding]:
        old: Phase | None = action.old
        new: Phase = action.new
        state: GameState = action.state
        state.scenario = self.scenario
        out = self.ledgers.phase(action, ctx.view)
        if old is not None and new.turn > old.turn:       # SP-15: air supply lasts the turn
            self.interpreter.flags.pop(AIR_SUPPLIED, None)
            state.flags.pop(AIR_SUPPLIED, None)
        self.combat_memory = CombatMemory()
        self.oos_at_start = {}
        if self.interpreter.phase_bound and new.key == "map":
            self.map_start = state
        if new.segment == "movement" and new.phasing and self.scenario is not None:
            for unit in state.units.values():
                if unit.side == new.phasing and unit.hex is not None and unit.kind == "combat":
                    result = trace(self.board, state, unit)
                    if result is None:
                        continue
                    if result.ruling is Ruling.PROVEN:
                        self.oos_at_start[unit.id] = True
                    elif result.ruling is Ruling.POSSIBLE:
                        self.oos_at_start[unit.id] = Unknown(*result.depends_on)
        return out

    # -- combat ------------------------------------------------------------------------------------
    def _check_combat(self, action: Combat) -> list[Finding]:
        pending = action.pending
        before: GameState = pending.before
        before.scenario = self.scenario
        decl = pending.declaration
        attackers = action.attackers
        defenders = action.defenders
        pressure = counts_for_pressure(self.board, before, decl.target, attackers) \
            if self.scenario == "1935-36" and pending.side == "italian" else True      # Event A1
        self.vp_history.note_attack(pending.side, pending.phase.turn if pending.phase is not None else None,
                                    for_a1=pressure)
        if not attackers:
            return []      # attackers not named: nothing to judge the odds on
        phase = pending.phase           # the phase it was declared in, not the one closing it
        out = judge_attack_out_of_segment(self.board, decl.target, attackers, phase, bound=pending.phase_bound,
                                          scenario=self.scenario, step=action.step, when=action.when)
        oos = set()
        for u in (*attackers, *defenders):
            result = trace(self.board, before, u)
            if result is not None and result.ruling is Ruling.PROVEN:
                oos.add(u.id)
        self.rp_gain.note_attack(pending.step, decl.target, tuple(attackers), before, pending.side,
                                 phase)                                  # CB-28
        hqs_a = units_named(before, decl.hqs, pending.side)
        for hq in hqs_a or ():                              # SP-16 (10.2.3)
            out.extend(judge_supply_prerequisite(self.board, before, hq, "hq-support", where=decl.target,
                                                 step=action.step, when=action.when))
        nearby = tuple(u for u in before.units.values() if u.kind == "hq")
        facts = CombatFacts(
            decl.target, tuple(attackers), tuple(defenders), pending.roll,
            {k: v for k, v in pending.losses.items() if k in {u.id for u in attackers}},
            {k: v for k, v in pending.losses.items() if k in {u.id for u in defenders}},
            advanced=tuple(pending.advanced), out_of_supply=frozenset(oos),
            air=decl.air, attacker_hqs=hqs_a, defender_hqs=None if decl.hqs is None else (),
            nearby=nearby, removed=frozenset(pending.removed), raised=dict(pending.raised),
            revealed=dict(pending.revealed), roll_step=pending.roll_step, declared_step=pending.step)
        gas = gassed_readings(before, attackers)                 # CB-08 (PB 13.6.5.1)
        if gas is not None:
            facts = replace(facts, gassed=frozenset.intersection(*gas), gassed_readings=gas)
        facts = replace(facts, rolls_seen=len(pending.rolls))
        rp_shift, rp_found = judge_rp_use(                          # CB-27 (PB 13.6.4.3)
            self.board, before, getattr(self.interpreter, "_after", None) or before, decl.target,
            pending.side, tuple(attackers), tuple(defenders), scenario=self.scenario,
            step=action.step, when=action.when)
        out.extend(rp_found)
        facts = replace(facts, rp_shift=rp_shift)
        if self.activation.in_offensive(phase, attackers):        # CB-32 (PB 13.6.2.4)
            facts = replace(facts, great_offensive=True)
        if counter_guerrilla_applies(self.scenario, pending.side, defenders):   # CB-37 (PB 14.6.4.5)
            first = pending.rolls[0] if pending.rolls else (None, None)
            second = pending.rolls[1] if len(pending.rolls) > 1 else (None, None)
            facts = replace(facts, counter_guerrilla=first, roll=second[0], roll_step=second[1])
        out.extend(self.activation.attack(attackers, decl.target, phase, step=action.step,
                                          when=action.when))      # CB-30, CB-31 (35)
        italians = [u for u in (attackers if pending.side == "italian" else defenders) if u.side == "italian"]
        for placed in self.combat_air.placed:            # AR-02: air support to its own front
            if placed.hex == decl.target:
                out.extend(judge_air_support_front(self.board, before, placed.marker, decl.target, italians,
                                                   step=placed.step, when=placed.when))
        out.extend(judge_guerrilla_support(self.board, before, decl.target, attackers, defenders,
                                           decl.hqs, decl.air, step=action.step,
                                           when=action.when))      # CB-34
        return out + judge_combat(self.board, before, facts, step=action.step,
                                  when=action.when, memory=self.combat_memory)


def game(data: GameData | None = None, *, scenario: str | None = None) -> LionOfJudah:
    """The factory `vlog.games.base.find_game` calls; `data` carries user overlays (`--data`),
    `scenario` ("1935-36" or "1940-41") overrides the scenario read from the pieces."""
    return LionOfJudah(data, scenario=scenario)
