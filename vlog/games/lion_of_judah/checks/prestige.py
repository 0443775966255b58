"""(40) The Italian prestige level (IPL, PB 14.6.3 and 14.6.3.2): what moves its marker.

SC-03: the IPL starts at 5 (judged with the fuel marker under SU-06, checks/fuel.py) and is
adjusted, by the player aid card's table (absent from the game data), immediately when control of
a hex changes or when the Negus ends a move inside Ethiopia - the first time it enters Ethiopia
the IPL falls by 2 (PB 14.6.4.4) - and by events (drawn in the Event Phase). So within a player
phase the marker moves only if a hex changed hands or the Negus moved in Ethiopia. Judged when a
player phase ends (the turn track leaves its combat segment), against the marker when it began:

* the marker moved though no hex changed control and the Negus did not move in Ethiopia;
* the Negus entered Ethiopia for the first time, no hex changed control, and the marker did not
  move at all.

Both are POSSIBLE only, naming the adjustment table: whether it holds adjustments with other
causes, and what the Negus's own adjustment is, is on the player aid card. A hex counts as
changing control when the log's control differs from the control the scenario starts with
(PB 14.1.2, by country); where the map data does not place the hex in a country the change is
taken as possible, so nothing is reported. The marker's value is its General Records Track box
(see checks/fuel.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.checks.common import REGISTRY, PlayLedger, finding
from vlog.games.lion_of_judah.checks.fuel import IPL_MARKER, marker_value, player_phase
from vlog.games.lion_of_judah.interpret import update_control
from vlog.games.lion_of_judah.sequence import side_name
from vlog.games.lion_of_judah.state import GameState
from vlog.games.lion_of_judah.step_events import Move, PhaseTurned

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.lion_of_judah.board import Board

__all__ = ["NEGUS_FIRST_ENTRY", "PAC_TABLE", "PrestigeWatch", "prestige_action"]

PAC_TABLE = "the IPL adjustment table (player aid card; PB 14.6.3.2)"
NEGUS_FIRST_ENTRY = -2
"""PB 14.6.4.4: the first time the Negus enters Ethiopian territory the IPL falls by two."""


@dataclass
class PrestigeWatch(PlayLedger):
    """The IPL marker across each player phase, and what could have moved it (a ledger,
    vlog/kit/ledger.py: (40) it follows each event of play and each phase change)."""

    only = "1940-41"
    at_start: int | None = None
    control_at_start: dict[str, str] = field(default_factory=dict)
    negus_moves: list[tuple[int, str]] = field(default_factory=list)
    negus_first_entry: int | None = None
    negus_entered: bool = False
    open: bool = False

    def negus_move(self, board: Board, to: str, *, step: int) -> None:
        """The Negus moved to `to`: in (or possibly in) Ethiopia it may adjust the IPL."""
        inside = board.in_zone(to, "ethiopia")
        if inside is False:
            return
        self.negus_moves.append((step, to))
        if inside is True and not self.negus_entered:
            self.negus_entered = True
            self.negus_first_entry = step

    def play(self, event: Any) -> list[Finding]:
        return prestige_action(self, self.game.board, self.game.data, event)

    def close_phase(self, board: Board, data: Any, action: Any) -> list[Finding]:
        """A change of phase: judge the player phase it closes, watch the one it opens."""
        old, new, state = action.old, action.new, action.state
        if not action.bound:
            return []
        out: list[Finding] = []
        closes = old is not None and player_phase(old) is not None and (
            player_phase(new) != player_phase(old) or new.turn != old.turn)
        if closes and self.open:
            out = self._judge(board, data, state, old, step=action.step)
            self.open = False
        opens = player_phase(new) is not None and (old is None or player_phase(old) != player_phase(new)
                                                   or old.turn != new.turn)
        if opens:
            self.at_start = marker_value(data, state, IPL_MARKER)[0]
            self.control_at_start = _control_shown(state)
            self.negus_moves, self.negus_first_entry = [], None
            self.open = True
        return out

    def _changed_hands(self, board: Board, data: Any, state: GameState) -> list[str]:
        """Hexes whose control may differ from the phase's start (unknown countries count)."""
        out = []
        for hex_, side in state.control.items():
            before = self.control_at_start.get(hex_)
            if before is None:
                before = _initial_control(board, data, hex_)
            if before != side:
                out.append(hex_)
        return out

    @REGISTRY.reports("SC-03")
    def _judge(self, board: Board, data: Any, state: GameState, closed: Any, *,
               step: int) -> list[Finding]:
        shown, marker = marker_value(data, state, IPL_MARKER)
        if shown is None or self.at_start is None or marker is None:
            return []
        changed = self._changed_hands(board, data, state)
        if changed:
            return []
        where = f"the {side_name(closed.phasing)} player phase of turn {closed.turn}"
        evidence = {"ipl_at_start": self.at_start, "ipl_at_end": shown, "turn": closed.turn,
                    "player_phase": player_phase(closed)}
        if shown != self.at_start and not self.negus_moves:
            return [finding("SC-03", Ruling.POSSIBLE, step=step, when=closed.when(), subjects=(marker.name,),
                            message=f"the {marker.name} marker moved from {self.at_start} to {shown} in "
                                    f"{where}, in which no hex changed control and the Negus did not move "
                                    "in Ethiopia", evidence=evidence, depends_on=(PAC_TABLE,))]
        if self.negus_first_entry is not None and shown == self.at_start:
            evidence["negus_first_entry_step"] = self.negus_first_entry
            return [finding("SC-03", Ruling.POSSIBLE, step=step, when=closed.when(), subjects=(marker.name,),
                            message=f"the Negus first entered Ethiopia in {where} (step "
                                    f"{self.negus_first_entry}), which lowers the IPL by 2, yet the "
                                    f"{marker.name} marker stayed at {shown}",
                            evidence=evidence, depends_on=(PAC_TABLE,))]
        return []


def _control_shown(state: GameState) -> dict[str, str]:
    """The control the position shows (3.2): the log's history, with every occupied hex settled
    by its occupants (a log's first steps may not have recorded the set-up's yet)."""
    shown = GameState(state.units, state.scenario, control=dict(state.control))
    update_control(shown)
    return shown.control


def _initial_control(board: Board, data: Any, hex_: str) -> str | None:
    """PB 14.1.2: the side controlling the hex's country at the start; None when unknown."""
    try:
        props = data.scenario("1940-41")["properties"]
        initial = props["initial_control"].value if "initial_control" in props else None
    except KeyError:
        return None
    for side, zones in (initial or {}).items():
        for zone in zones:
            try:
                if board.in_zone(hex_, zone) is True:
                    return side
            except KeyError:
                continue
    return None


def prestige_action(watch: PrestigeWatch, board: Board, data: Any, action: Any) -> list[Finding]:
    """The IPL side of one engine event (the engine's dispatch calls this in 1940-41)."""
    if isinstance(action, PhaseTurned):
        return watch.close_phase(board, data, action)
    if isinstance(action, Move):
        unit, to = action.unit, action.to
        if unit.counter == "et-negus" and unit.hex is not None and to is not None:
            watch.negus_move(board, to, step=action.step)
    return []
