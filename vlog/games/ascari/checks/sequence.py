"""The sequence of play (2.0, the scenarios' first player): flags alternate between the sides,
the scenario's first side is flagged first, only the active side moves (an inactive unit changes
hex only by a melée retreat), and in Agordat (S2) the Dervishes do not move on turn 1 (the turn
is counted from the flags).

Which side is active is known from `flag SIDE` declarations (chat.py); a log without them has
its player-turns inferred from who moves, so these checks then have nothing to hold play against:
each move before the first flag is an occasion not settled, and a log with no flag at all leaves
SEQ-01 and SEQ-02 not judged, both naming the flag lines that would settle them. Whether the log begins with the scenario's first turn is known when its
starting position is the scenario's set-up (every unit the set-up places on a hex stands there);
otherwise a finding that rests on it is POSSIBLE and says so.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.engine import END
from vlog.kit.sequence import side_name
from vlog.kit.steps import Declared, Moved, Placed

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView

NO_FLAGS = "the `flag SIDE` chat lines (without them the active side is inferred from who moves)"
"""What SEQ-01..04 and MOV-17 lack on a log, or a part of one, that declares no flag."""
BEGINS_AT_START = "whether the log begins with the scenario's first turn (its start is not the set-up)"


def _first_turn(game: "Ascari") -> Ruling:
    """PROVEN when the log began with the scenario's set-up, else POSSIBLE."""
    return Ruling.PROVEN if game.started_at_setup else Ruling.POSSIBLE


@REGISTRY.check("SEQ-01", "SEQ-02", event=Declared)
def judge_flags(game: "Ascari", event: Declared, view: "StepView") -> list:
    """Each flag turns to the other side; the first to the scenario's first side."""
    if event.grammar != "flag" or game.sequence is None:
        return []
    flags = game.play.flags
    side = event.declaration.side
    if side not in game.sequence.sides:
        return []
    if len(flags) >= 2 and flags[-2][0] == side:
        return [game.finding("SEQ-01", Ruling.PROVEN, step=event.step,
                             message=f"the flag was turned to the {side_name(side)} side twice in a row "
                                     f"(steps {flags[-2][1]} and {event.step}): the sides alternate",
                             evidence={"side": side, "previous_flag_step": flags[-2][1]})]
    first = game.sequence.sides[0]
    if len(flags) == 1 and side != first:
        ruling = _first_turn(game)
        return [game.finding("SEQ-02", ruling, step=event.step,
                             message=f"the first flag of the log is {side_name(side)}; in scenario "
                                     f"{game.scenario} the {side_name(first)} player is active first",
                             evidence={"side": side, "first_side": first, "scenario": game.scenario},
                             depends_on=() if ruling is Ruling.PROVEN else (BEGINS_AT_START,))]
    return []


@REGISTRY.check("SEQ-01", "SEQ-02", on=END)
def judge_no_flags(game: "Ascari", view: "StepView") -> list:
    """A log without a flag gives SEQ-01 and SEQ-02 nothing to judge: they say so."""
    if not game.play.flags_declared:
        game.not_judged("SEQ-01", (NO_FLAGS,))
        game.not_judged("SEQ-02", (NO_FLAGS,))
    return []


def _unflagged(game: "Ascari", short: str, event: Moved) -> bool:
    """Before the first flag a move cannot be held against the player-turn: an occasion not
    settled, naming the flags (True); False once flags are declared."""
    if game.play.flags_declared:
        return False
    if event.before.hex is not None and event.after.hex is not None \
            and not game.play.is_retreat(event.before, event.after):
        game.unsettled(short, event.step, (NO_FLAGS,))
    return True


@REGISTRY.check("SEQ-04", "MOV-20", event=Moved)
def judge_inactive_move(game: "Ascari", event: Moved, view: "StepView") -> list:
    """Only the active player's units move; the inactive player's retreat from a melée. A Booty
    unit is the Dervish player's on its Camel side, the Italian's on its Women side (MOV-20, S1.2)."""
    phase, unit = game.phase, event.before
    short = "MOV-20" if unit.type == "booty" else "SEQ-04"
    if _unflagged(game, short, event) or phase is None or unit.hex is None or event.after.hex is None \
            or unit.side == phase.phasing or game.play.is_retreat(unit, event.after):
        return []
    booty = (f" (a Booty unit on its {'Camel' if unit.level == 'front' else 'Women'} side is moved by the "
             f"{side_name(unit.side)} player, S1.2)") if short == "MOV-20" else ""
    return [game.finding(short, Ruling.PROVEN, step=event.step,
                         message=f"{unit.name} ({side_name(unit.side)}) moved {unit.hex} -> {event.after.hex} "
                                 f"in the {side_name(phase.phasing)} player-turn, and not as a melée retreat{booty}",
                         subjects=(unit.name,),
                         evidence={"unit_side": unit.side, "active": phase.phasing, "from": unit.hex,
                                   "to": event.after.hex})]


@REGISTRY.check("MOV-17", event=Moved)
def judge_dervish_turn_one(game: "Ascari", event: Moved, view: "StepView") -> list:
    """S2.12: during the first turn the Dervishes cannot move (they may fire)."""
    phase, unit = game.phase, event.before
    if game.scenario is None or phase is None or phase.turn != 1 or unit.side != "dervish":
        return []
    if game.scenario_property("dervish_no_move_turn_1") is not True:
        return []
    if _unflagged(game, "MOV-17", event) or phase.phasing != "dervish":
        return []
    if unit.hex is None or event.after.hex is None or game.play.is_retreat(unit, event.after):
        return []
    ruling = _first_turn(game)
    return [game.finding("MOV-17", ruling, step=event.step,
                         message=f"{unit.name} moved {unit.hex} -> {event.after.hex} on turn 1 of scenario "
                                 f"{game.scenario}: the Dervishes may not move on the first turn",
                         subjects=(unit.name,),
                         evidence={"turn": 1, "from": unit.hex, "to": event.after.hex},
                         depends_on=() if ruling is Ruling.PROVEN else (BEGINS_AT_START,))]


@REGISTRY.check("SEQ-03", event=Moved)
def judge_move_after_fire(game: "Ascari", event: Moved, view: "StepView") -> list:
    """2.0: no voluntary movement once the active player's Fire Combat Phase has begun (known
    from the flags: without them a later move may be that side's next player-turn)."""
    phase, unit = game.phase, event.before
    if _unflagged(game, "SEQ-03", event) or phase is None or "fire" not in phase.kinds or unit.side != phase.phasing \
            or unit.hex is None or event.after.hex is None or game.play.is_retreat(unit, event.after):
        return []
    return [game.finding("SEQ-03", Ruling.PROVEN, step=event.step,
                         message=f"{unit.name} moved {unit.hex} -> {event.after.hex} in the "
                                 f"{side_name(phase.phasing)} Fire Combat Phase: movement comes before it",
                         subjects=(unit.name,), evidence={"from": unit.hex, "to": event.after.hex,
                                                          "phase": phase.name})]


ENTRY = {"s4": ("ethiopian", "row", 13, "S4.12: the bottom map edge, row xx13"),
         "s5": ("ethiopian", "column", 33, "S5.12: the hexes of column 33xx")}
"""Where a scenario's side enters the map: (side, row or column, its number, the rule's words)."""


@REGISTRY.check("MOV-18", "MOV-19", event=Placed)
def judge_entry_hex(game: "Ascari", event: Placed, view: "StepView") -> list:
    """Amba Alagi's Ethiopians enter on row xx13, Metemma's on column 33xx, when they are active."""
    unit = event.unit
    entry = ENTRY.get(game.scenario or "")
    if entry is None or unit.hex is None or unit.side != entry[0] or game.terrain is None:
        return []
    side, axis, number, words = entry
    where = game.terrain.layout.parse(unit.hex)
    if (where.row if axis == "row" else where.col) == number:
        return []
    short = "MOV-18" if game.scenario == "s4" else "MOV-19"
    return [game.finding(short, Ruling.PROVEN, step=event.step,
                         message=f"{unit.name} entered the map at {unit.hex}; {side_name(side)} units enter from "
                                 f"{words}",
                         subjects=(unit.name,), evidence={"hex": unit.hex, axis: number})]


SUDDEN_DEATH_AT_ONCE = frozenset({"s3"})
"""Scenarios where occupying is winning at once, as the FAQ (Coatit) says; elsewhere "occupy" is
read the same way by analogy (inventory 6.2 item 17) and a finding resting on it is POSSIBLE."""


@REGISTRY.check("SEQ-07", "VIC-01", "VIC-02", "VIC-03", "VIC-04", event=Moved)
def judge_play_after_win_by_move(game: "Ascari", event: Moved, view: "StepView") -> list:
    return _after_win(game, event.step, f"{event.before.name} moved {event.before.hex} -> {event.after.hex}")


@REGISTRY.check("SEQ-07", "VIC-01", "VIC-02", "VIC-03", "VIC-04", event=Declared)
def judge_play_after_win_by_fire(game: "Ascari", event: Declared, view: "StepView") -> list:
    if event.grammar != "fire":
        return []
    return _after_win(game, event.step, f"{event.declaration.firer} fired at {event.declaration.target}")


def _after_win(game: "Ascari", step: int | None, what: str) -> list:
    """Victory is sudden death (FAQ Coatit): play after a side has won is reported once, under
    SEQ-07 for a win by occupation, under the scenario's victory item for one by eliminations
    (S2.3, S3.6, S4.5: the enemy units eliminated in this log, the leaders named, the hexes held)
    or by exits (S1.4: the units taken off the map from column 15xx)."""
    won = game.play.won
    if won is None or game.play.after_win_reported or step is None or won[1] is None or step <= won[1]:
        return []
    game.play.after_win_reported = True
    side, at, hexes = won
    ruling = Ruling.PROVEN if game.scenario in SUDDEN_DEATH_AT_ONCE else Ruling.POSSIBLE
    how = game.play.won_by or f"occupying {', '.join(hexes)}"
    return [game.finding(game.play.won_item or "SEQ-07", ruling, step=step,
                         message=f"{what} after the {side_name(side)} side won at step {at} by {how} "
                                 f"(sudden death, S{game.scenario[1:]} victory conditions)",
                         evidence={"winner": side, "won_at_step": at, "hexes": list(hexes), "by": how},
                         depends_on=() if ruling is Ruling.PROVEN else
                         (f"whether {how.split()[0]} wins at once in scenario "
                          f"{game.scenario} (the Coatit FAQ's reading, taken by analogy)",))]
