"""The Turn counter (2.0 step 5, FAQ Coatit): it is moved on only after both players have been
active, one turn at a time, and not beyond the scenario's last turn (S3.2: 16 turns; S4.2: 15,
07.00 to 14.00). The counter is the module's turn tracker `Turn` property as the table shows it;
who has been active is known from the `flag SIDE` lines (chat.py), so a log without them leaves
each advance an occasion not settled. The first advance of a log that does not begin with the
scenario's set-up may follow a player-turn played before the log: a finding on it is POSSIBLE."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.games.ascari.checks.sequence import BEGINS_AT_START, NO_FLAGS
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.engine import END
from vlog.kit.sequence import marker_value, side_name
from vlog.kit.steps import Stepped

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView


def turn_shown(view_position) -> int | None:
    """The Turn counter's number on the table (its tracker property), None when it shows none;
    read once per position (a step's table after is the next one's before)."""
    return view_position.derived(("ascari", "turn shown"), _turn_shown)


def _turn_shown(table) -> int | None:
    text = marker_value(table, "property", "Turn")
    return int(text) if text is not None and text.strip().isdigit() else None


@REGISTRY.check("SEQ-06", event=Stepped)
def judge_turn_counter(game: "Ascari", event: Stepped, view: "StepView") -> list:
    play = game.play
    before, after = turn_shown(view.before), turn_shown(view.after)
    play.turn_seen = play.turn_seen or before is not None or after is not None
    if before is None or after is None or after == before or game.sequence is None:
        return []
    since, play.turn_flags = play.flags[play.turn_flags:], len(play.flags)
    first_advance, play.turn_advanced = not play.turn_advanced, True
    if after < before:
        return []                      # moved back: a correction, not an advance
    found = []
    turns = game.data.scenario(game.scenario)["turns"].value if game.scenario is not None else None
    if isinstance(turns, int) and after > turns:
        found.append(game.finding("SEQ-06", Ruling.PROVEN, step=event.step,
                                  message=f"the Turn counter was moved from {before} to {after}: scenario "
                                          f"{game.scenario} has {turns} turns and ends with turn {turns}",
                                  evidence={"from": before, "to": after, "turns": turns}))
    if not play.flags_declared:
        game.unsettled("SEQ-06", event.step, (NO_FLAGS,))
        return found
    sides = {side for side, _ in since}
    missing = [s for s in game.sequence.sides if s not in sides]
    if after > before + 1 or missing:
        ruling = Ruling.POSSIBLE if first_advance and not game.started_at_setup and after == before + 1 \
            else Ruling.PROVEN
        why = (f"it moved {after - before} turns at once" if after > before + 1 else
               f"the {' and '.join(side_name(s) for s in missing)} player has not been active since "
               f"{'the log began' if first_advance else 'it was last moved'}")
        found.append(game.finding("SEQ-06", ruling, step=event.step,
                                  message=f"the Turn counter was moved from {before} to {after}, but {why}: "
                                          f"it moves on one turn after both players have been active",
                                  evidence={"from": before, "to": after, "active_since": sorted(sides),
                                            "missing": missing},
                                  depends_on=() if ruling is Ruling.PROVEN else (BEGINS_AT_START,)))
    return found


NO_COUNTER = "the Turn counter (the table shows no turn tracker `Turn` property)"


@REGISTRY.check("SEQ-06", on=END)
def judge_no_counter(game: "Ascari", view: "StepView") -> list:
    """A log whose table never shows the Turn counter gives SEQ-06 nothing to judge: it says so."""
    if not game.play.turn_seen:
        game.not_judged("SEQ-06", (NO_COUNTER,))
    return []
