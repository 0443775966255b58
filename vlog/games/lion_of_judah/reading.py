"""How Lion of Judah reads a step beyond the kit's events, and what stays open at the log's end.

The kit's engine tells each step as `Stepped`, the unit events and the chat declarations
(vlog/kit/engine.py); Lion of Judah keeps its own sequence of play, so its interpreter
(interpret.py) reads from those the game's own events (step_events.py): moves with their
forced-march rolls, phase changes inferred from play, combats, placements. `StepReader` then
adds what needs the whole step once read: the RP ledger's view of it (`Logistics`), the
breakdown units and rebuilt counters of the MAP, and the findings of the ledgers that judge a
step as it is read (the colonial desertion SC-04, the Ethiopian reinforcements RR-05, the
General Records Track markers SU-03 and VC-02), then the victory claims of its chat.

As a ledger (vlog/kit/ledger.py) it hands the interpreter the scenario the log plays (`begin`)
and closes what the log leaves open (`end`): the moves not yet judged over (MV-16) and the
last combat.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from vlog.games.lion_of_judah.checks.allied_1940 import allied_action
from vlog.games.lion_of_judah.checks.common import GameLedger
from vlog.games.lion_of_judah.checks.ethiopian_reinforcements import count_step
from vlog.games.lion_of_judah.checks.fuel import fuel_action, starts_the_scenario
from vlog.games.lion_of_judah.checks.logistics import logistics_event
from vlog.games.lion_of_judah.checks.setup import judge_start_boxes_1935
from vlog.games.lion_of_judah.checks.vp_history import judge_start_markers_1935, judge_steps_marker
from vlog.games.lion_of_judah.interpret import declared, state_of
from vlog.games.lion_of_judah.step_events import (Combat, DesertionJudged, Judged, MarkersJudged,
                                                  ReinforcementsJudged, VictoryClaimed)
from vlog.kit.steps import Event

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.lion_of_judah.state import GameState
    from vlog.kit.steps import StepView

__all__ = ["StepReader"]


class StepReader(GameLedger):
    """Reads each step into Lion of Judah's events (`read`) and closes what the log leaves open."""

    def __init__(self) -> None:
        self.last_after: "GameState | None" = None
        """The position after the previous step (the next step's position before)."""
        self.last_roll_step: int | None = None
        """The last step whose chat reports a die roll (AR-05 reads a roll made with or just before)."""

    def begin(self, view: "StepView") -> Iterable["Finding"]:
        game = self.game
        game.interpreter.scenario = game.activation.scenario = game.scenario
        return ()

    def event(self, event: Event, view: "StepView") -> Iterable["Finding"]:
        """The findings of the ledgers that judged the step as it was read, in their place."""
        return event.findings if isinstance(event, Judged) else ()

    def read(self, view: "StepView", told: Sequence[Event]) -> list[Event]:
        """The game's events of a step, after the kit's (`told`: its unit events and chat
        declarations, which the interpreter reads)."""
        game, interpreter, step = self.game, self.game.interpreter, view.step
        assert step is not None
        if game.scenario == "1940-41":      # RR-26: Djibouti an Allied supply source once it joined
            interpreter.flags["french-somaliland-joined"] = game.events.french_somaliland_joined()
        rp_before = (interpreter.phase, state_of(view.before, game.data, game.scenario, interpreter.cache))
        before = self.last_after if self.last_after is not None else state_of(
            view.before, game.data, game.scenario, control=interpreter.control)
        events = list(interpreter.interpret(view, told))
        events.append(logistics_event(interpreter, step.index, *rp_before, events))
        after = interpreter._after
        if after is not None:                   # RR-16, RR-18, RR-19: what the MAP shows
            phase = interpreter.phase
            game.formations.note_step(before, after, in_map=interpreter.phase_bound and phase is not None
                                      and phase.key == "map")
            self.last_after = after
            game.rebuilds.note_step(before, after, step=step.index, in_combat=interpreter.pending is not None
                                    or any(isinstance(e, Combat) for e in events))     # RR-15
        if interpreter.pending is not None:        # AR-07: the hexes this segment attacks
            game.combat_air.targets.setdefault(interpreter.pending.declaration.target, interpreter.pending.step)
        if any(r.total is not None for r in view.rolls):
            self.last_roll_step = step.index
        turn = interpreter.phase.turn if interpreter.phase is not None else None
        if game.scenario == "1940-41" and after is not None:      # SC-04 (checks/desertion.py)
            phase = interpreter.phase
            deserted = game.desertion.note_step(
                game.board, game.data, step=step.index, before=before, after=after,
                rolls=[r.total for r in view.rolls if r.total is not None], chats=list(view.messages),
                turn=turn, in_map=interpreter.phase_bound and phase is not None and phase.key == "map",
                when=interpreter.when())
            if deserted:
                events.append(DesertionJudged(step.index, tuple(deserted)))
        if game.scenario == "1935-36":          # RR-05 (checks/ethiopian_reinforcements.py)
            counted = count_step(game.reinforcement_count, game.board, list(events), list(view.messages),
                                 phase=interpreter.phase, bound=interpreter.phase_bound,
                                 gone_leaders=interpreter.gone_leaders, step=step.index)
            if counted:
                events.append(ReinforcementsJudged(step.index, tuple(counted)))
        marker_findings = self._note_vp_history(view, turn)
        if marker_findings:                     # SU-03, VC-02 (the GRT markers)
            events.append(MarkersJudged(step.index, tuple(marker_findings)))
        for claim in declared(told, "victory-claim"):          # VC-03, VC-07
            events.append(VictoryClaimed(step.index, claim, when=interpreter.when(), turn=turn,
                                       state=interpreter.last_states[1] if interpreter.last_states else None))
        return events

    def _note_vp_history(self, view: "StepView", turn: int | None) -> list["Finding"]:
        """Feeds the VP history with this step (VC-01, VC-02, VC-05, VC-06); (35) judges the GRT
        markers on the position before it: where the log begins at turn 1 (SU-03) and when the
        turn track shows a new turn (the eliminated steps marker, VC-02)."""
        game, interpreter, index = self.game, self.game.interpreter, view.index
        out: list[Finding] = []
        history = game.vp_history
        states = interpreter.last_states
        if states is not None and turn is not None and game.scenario == "1935-36":
            when, phase = interpreter.when(), interpreter.phase
            if history.first_turn == 1 and not history.start_markers_judged and turn == 1 \
                    and phase is not None and phase.phasing is not None:
                history.start_markers_judged = True          # SU-03 when play begins
                out += judge_start_markers_1935(states[0], step=index, when=when, data=game.data)
                out += judge_start_boxes_1935(game.data, states[0], step=index, when=when)
            elif history.last_turn is not None and turn > history.last_turn:
                out += judge_steps_marker(game.board, states[0], history, turn=history.last_turn,
                                          step=index, when=when)
        if states is not None:
            history.observe(states[0], states[1], step=index, turn=turn,    # set-up changes are no losses
                            setting_up=interpreter.phase_bound and starts_the_scenario(interpreter.phase))
        history.note_turn(turn)
        for line in view.chats:
            history.note_chat(line.text, step=index, turn=turn)
        return out

    def end(self, view: "StepView") -> Iterable["Finding"]:
        """The moves still open (MV-16) and the last combat, judged on the final position."""
        from vlog.games.lion_of_judah.checks.attacks import judge_attack

        game, interpreter = self.game, self.game.interpreter
        out: list[Finding] = []
        if game.moves.pending:
            final = state_of(view.after, game.data, game.scenario, control=interpreter.control)
            final.flags.update(interpreter.flags)          # SP-15: air supply still counts
            out.extend(game.moves.flush(final))
        for combat in interpreter.finish():             # an attack still open: an occasion too
            if game.tally is not None:
                game.tally.met(combat.kind, combat.step)
            out.extend(judge_attack(game, combat, view))
            if game.scenario == "1940-41":      # the last attack's fuel (CB-40) and the Negus (CB-39)
                out += fuel_action(game.fuel, game.data, combat, phase=interpreter.phase,
                                   phase_bound=interpreter.phase_bound)
                allied_action(game.negus, combat, phase=interpreter.phase, phase_bound=interpreter.phase_bound,
                              joined=None)
        return out

