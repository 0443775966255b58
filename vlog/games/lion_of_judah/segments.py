"""What Lion of Judah keeps through a segment and judges when it ends, as ledgers on the kit's
protocol (vlog/kit/ledger.py): the moves still open (MV-16, 11.2), the turn track running past
the scenario (TS-03), stacking at the end of a segment (8.1), air markers placed in a combat
segment (AR-07), what a new turn must show (TS-11, AR-12) and what a new phase starts afresh.

A phase change reaches them as a `PhaseTurned` (step_events.py: a kit `PhaseChanged` with the
position it is judged on); each reads what else it needs from the engine it serves (`game`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from vlog.engine.judge import Ruling, Unknown
from vlog.games.lion_of_judah.checks.air import (CombatAirPlacement, air_shifts_possible, judge_bombings,
                                                 judge_markers_left_on_map)
from vlog.games.lion_of_judah.checks.common import REGISTRY, GameLedger, finding
from vlog.games.lion_of_judah.step_events import PhaseTurned
from vlog.games.lion_of_judah.checks.stacking import judge_stacking
from vlog.games.lion_of_judah.checks.combat import CombatMemory
from vlog.games.lion_of_judah.checks.supply import AIR_SUPPLIED, judge_end_of_move, trace
from vlog.kit.movement import LoggedRoutes

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.lion_of_judah.state import GameState
    from vlog.kit.steps import StepView

__all__ = ["MovesInProgress", "TurnTrackTooLong", "SegmentStacking", "CombatAir",
           "TurnStart", "SegmentStart"]


class MovesInProgress(GameLedger):
    """The units moving in the current segment: where each began it, its route and the
    forced-march rolls logged for it, whether its move was reported, and the moves that may not
    be over yet."""

    def __init__(self) -> None:
        self.origins: dict[str, str] = {}
        """Unit -> the hex it began the current movement segment in."""
        self.routes = LoggedRoutes()
        """The hexes each unit's drags show in this segment (11.1), the forced-march rolls
        logged before each drag (11.5.3)."""
        self.reported: set[str] = set()
        self.pending: dict[str, tuple[int, str | None]] = {}
        """Units moved whose movement may not be over yet -> (step, when) of their last move."""

    def flush(self, state: "GameState", *, moving: frozenset[str] = frozenset(),
              step: int | None = None) -> list["Finding"]:
        """MV-16 for the units whose movement has ended: another unit moves in a later step
        (11.2: each unit or stack completes its move before another begins), the phase changes
        or the log ends. `state` is the position at that moment; `moving`: the units the step
        moves (a stack dragged as one), whose moves go on."""
        game = self.game
        out: list[Finding] = []
        if game.scenario is None:
            self.pending.clear()
            return out
        finished: set[str] = set()
        for uid, (at_step, when) in list(self.pending.items()):
            if uid in moving or (step is not None and at_step >= step):
                continue
            del self.pending[uid]
            finished.add(uid)
            unit = state.units.get(uid)
            if unit is not None and unit.hex is not None:
                state.scenario = game.scenario
                out.extend(judge_end_of_move(game.board, state, unit, step=at_step, when=when))
        return out + game.movement.moves_over(game.board, state, finished)      # MV-26

    def phase(self, change: PhaseTurned, view: "StepView") -> Iterable["Finding"]:
        found = self.flush(change.state)
        self.origins, self.reported = {}, set()
        self.routes.reset()
        return found


class TurnTrackTooLong(GameLedger):
    """TS-03: the turn track shows a turn past the scenario's last (reported once)."""

    reported = False

    @REGISTRY.reports("TS-03")
    def phase(self, change: PhaseTurned, view: "StepView") -> Iterable["Finding"]:
        new = change.new
        if not change.bound or self.reported or new.turn <= new.rules.turns:
            return ()
        self.reported = True
        return [finding("TS-03", Ruling.PROVEN, step=change.step, when=new.when(),
                        message=f"the turn track shows turn {new.turn}; the {new.scenario} "
                                f"scenario ends after turn {new.rules.turns}",
                        evidence={"turn": new.turn, "last_turn": new.rules.turns})]


class SegmentStacking(GameLedger):
    """8.1: stacking is judged on the position that closes each movement and combat segment
    (the phasing side's stacks) and the Mutual Administration Phase (every stack)."""

    def phase(self, change: PhaseTurned, view: "StepView") -> Iterable["Finding"]:
        old = change.old
        if old is not None and old.segment in ("movement", "combat") and old.phasing:
            return judge_stacking(self.game.board, change.state, step=change.step, when=old.when(),
                                  sides=(old.phasing,))
        if old is not None and old.key == "map":
            return judge_stacking(self.game.board, change.state, step=change.step, when=old.when())
        return ()


class CombatAir(GameLedger):
    """AR-07: the air markers placed in the current combat segment and the hexes it attacks,
    judged as support or bombing when the segment (or the log) ends; AR-08: the hexes Italian
    air markers were placed on in the current segment; 10.1.3: which sides may have committed
    air to a combat whose declaration gives no air clause (`shifts_possible`)."""

    def __init__(self) -> None:
        self.placed: list[CombatAirPlacement] = []
        self.targets: dict[str, int] = {}
        """Hexes attacked in the current segment -> the step the attack was declared in."""
        self.air_hexes: set[str] = set()
        self.flown: dict[str, set[str]] = {}
        """Side -> its air markers placed on the map (from a box or the palette) in the current segment."""
        self.whole_segment = False
        """The log shows the current segment from its start, the turn track telling it."""

    def fly(self, marker: Any) -> None:
        """An air marker left its box (or the palette) for the map."""
        if marker.side is not None:
            self.flown.setdefault(marker.side, set()).add(marker.id)

    def shifts_possible(self, side: str | None, in_hex: Iterable[Any] = ()) -> int:
        """10.1.3: the most air shifts `side` may have won in a combat of the current segment
        declared without an air clause (checks/air.py `air_shifts_possible`); `in_hex`: the units
        in the attacked hex when it was declared (a marker of the side already there, placed
        early, is counted too)."""
        flown = set(self.flown.get(side or "", ())) | {u.id for u in in_hex if u.kind == "air" and u.side == side}
        return air_shifts_possible(self.game.scenario, side, len(flown), whole_segment=self.whole_segment)

    def place(self, marker: Any, hex_: str, before: "GameState", *, step: int, when: str | None) -> None:
        """A marker placed in a combat segment the turn track tells."""
        self.placed.append(CombatAirPlacement(
            marker, hex_, step, when,
            tuple(h for h, at in self.targets.items() if at < step and h != hex_),
            tuple(u.name for u in before.at(hex_) if u.side not in (None, marker.side)
                  and u.kind not in ("air", "marker"))))

    def _close(self, phase: Any) -> list["Finding"]:
        game = self.game
        out = judge_bombings(game.board, self.placed, set(self.targets), scenario=game.scenario,
                             phasing=phase.phasing if phase is not None else None) if self.placed else []
        self.placed, self.targets = [], {}
        return out

    def phase(self, change: PhaseTurned, view: "StepView") -> Iterable["Finding"]:
        found = self._close(change.old)
        self.air_hexes = set()
        self.flown = {}
        self.whole_segment = change.bound and change.old is not None
        return found

    def end(self, view: "StepView") -> Iterable["Finding"]:
        return self._close(self.game.interpreter.phase)


class TurnStart(GameLedger):
    """What a new turn shows: every HQ on its CS side (TS-11), no air marker left on the map
    (AR-12, judged on the turn the track shows)."""

    @REGISTRY.reports("TS-11")
    def phase(self, change: PhaseTurned, view: "StepView") -> Iterable["Finding"]:
        old, new = change.old, change.new
        if old is None or new.turn <= old.turn:
            return ()
        # a turn track change is judged on the position it shows; an inferred new turn (a
        # move) on the position before that move, which may flip an HQ for the new turn
        shown = change.shown if change.shown is not None else change.state
        out = [finding("TS-11", Ruling.PROVEN, step=change.step, when=new.when(), subjects=(hq.name,),
                       message=f"HQ {hq.name} still shows its M side at the start of turn "
                               f"{new.turn}; every HQ flips to CS in the End of Turn Phase",
                       evidence={"hq": hq.name, "turn": new.turn})
               for hq in shown.units.values() if hq.kind == "hq" and hq.level == "m"]
        if change.shown is not None:
            out.extend(judge_markers_left_on_map(self.game.board, shown, turn=new.turn, step=change.step,
                                                 when=new.when()))
        return out


class SegmentStart(GameLedger):
    """What a new phase starts afresh, once the other ledgers have closed the old one: air
    supply lasts the turn (SP-15), the combat memory and the supply at the start of a movement
    segment (9.2: units out of supply then have half their MF and may not force march), and
    the position the MAP began in (rail movers must be in supply there, SP-16)."""

    def phase(self, change: PhaseTurned, view: "StepView") -> Iterable["Finding"]:
        game, old, new, state = self.game, change.old, change.new, change.state
        state.scenario = game.scenario
        if old is not None and new.turn > old.turn:       # SP-15: air supply lasts the turn
            game.interpreter.flags.pop(AIR_SUPPLIED, None)
            state.flags.pop(AIR_SUPPLIED, None)
        game.combat_memory = CombatMemory()
        game.oos_at_start = {}
        if game.interpreter.phase_bound and new.key == "map":
            game.map_start = state
        if new.segment == "movement" and new.phasing and game.scenario is not None:
            for unit in state.units.values():
                if unit.side == new.phasing and unit.hex is not None and unit.kind == "combat":
                    result = trace(game.board, state, unit)
                    if result is None:
                        continue
                    if result.ruling is Ruling.PROVEN:
                        game.oos_at_start[unit.id] = True
                    elif result.ruling is Ruling.POSSIBLE:
                        game.oos_at_start[unit.id] = Unknown(*result.depends_on)
        return ()
