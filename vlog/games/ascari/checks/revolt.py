"""The First Agordat Booty revolt roll (SCN-01, S1.2 and its FAQ): in the Italian movement phase,
whenever an Italian unit can trace a clear line of sight to a Booty unit on its Camel side within
3 hexes, the Italian player rolls 1d6 for it: 1-2 it stays a Camel, 3-6 it flips to its Women
side. The roll is made at the first moment the condition applies and again at each approaching
hex, for every Italian unit, until the Booty has revolted.

The occasion judged is an Italian combat unit's move that brings it within 3 hexes of a Camel
with a clear line of sight (sightlines.py), nearer than before or in sight for the first time.
Its rolls are the single d6 rolled after it and before the next move or the phase's end, none
of a fire open then (more than one d6 while a fire is open may hide a Booty roll: the missing
roll is then POSSIBLE); a move into a melée is left alone (the rolls are the melée's). Judged:

* fewer rolls than Camels due: PROVEN where each line of sight is known clear, POSSIBLE where a
  hex between has terrain or height the map data lacks (naming it);
* with as many rolls as Camels due: more of them flipped than rolls of 3-6 (PROVEN), or fewer
  (PROVEN where every line was known clear, else POSSIBLE: a blocked line owed no roll).

Not judged: the rolls due at the phase's start or when another unit's move opens a line, and
those of leaders and of revolted Women (whether either counts as "any Italian unit" the text
does not say)."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.games.ascari.revolts import REVOLT_RANGE, REVOLTS_ON, Due, Window
from vlog.games.ascari.rules import REGISTRY
from vlog.games.ascari.sightlines import clear_sight
from vlog.kit.engine import END
from vlog.kit.steps import Moved, PhaseChanged

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView

def _in_movement(game: "Ascari") -> bool:
    phase = game.phase
    return phase is not None and phase.phasing == "italian" and "movement" in phase.kinds


def _camels(game: "Ascari", view: "StepView", unit, frm: str) -> list[Due]:
    terrain = game.terrain
    assert terrain is not None
    units = list(game.units(view.after).values())
    before = list(game.units(view.before).values())
    due = []
    for booty in units:
        if booty.type != "booty" or booty.level != "front" or booty.hex is None:
            continue
        near = terrain.distance(unit.hex, booty.hex)
        if near > REVOLT_RANGE:
            continue
        sight, _ = clear_sight(game, unit, booty.hex, units)
        if sight is False:
            continue
        was = terrain.distance(frm, booty.hex)
        if was <= REVOLT_RANGE and near >= was:
            seen, _ = clear_sight(game, replace(unit, hex=frm), booty.hex, before)
            if seen is not False:
                continue                  # in sight before (or perhaps): not an approaching hex
        due.append(Due(booty.id, booty.name, booty.hex, near, sight))
    return due


def _close(game: "Ascari") -> list:
    window, game.revolts.window = game.revolts.window, None
    if window is None:
        return []
    certain = [d for d in window.due if d.sight is True]
    unknown = sorted({x for d in window.due if isinstance(d.sight, Unknown) for x in d.sight.data})
    camels = ", ".join(f"{d.name} in {d.hex} ({d.distance} hex{'es' if d.distance > 1 else ''})" for d in window.due)
    evidence = {"unit": window.unit, "from": window.frm, "to": window.to,
                "camels": [d.hex for d in window.due], "rolls": list(window.rolls)}
    moved = (f"{window.unit} moved {window.frm} -> {window.to} in the Italian movement phase, within "
             f"{REVOLT_RANGE} hexes of {camels}")
    mixed = window.fire_rolls > 1
    if mixed:
        unknown = sorted({*unknown, FIRE_DICE})
    if len(window.rolls) < len(window.due):
        proven = len(window.rolls) < len(certain) and not mixed
        if not proven and not unknown:
            return []
        return [game.finding("SCN-01", Ruling.PROVEN if proven else Ruling.POSSIBLE, step=window.step,
                             message=f"{moved} with a clear line of sight{'' if proven else ' if the hexes between are'}"
                                     f": {len(window.due)} Booty roll(s) due (1d6 each, S1.2 and FAQ: at each "
                                     f"approaching hex), {len(window.rolls)} made before the next move",
                             subjects=(window.unit, *(d.name for d in window.due)), evidence=evidence,
                             depends_on=() if proven else unknown)]
    if len(window.rolls) != len(window.due) or mixed:
        return []
    revolts = sum(r >= REVOLTS_ON for r in window.rolls)
    flips = len(window.flipped & {d.booty for d in window.due})
    if flips == revolts:
        return []
    proven = flips > revolts or not unknown
    what = (f"{flips} flipped to the Women side for {revolts} roll(s) of 3-6" if flips > revolts else
            f"only {flips} flipped to the Women side for {revolts} roll(s) of 3-6")
    return [game.finding("SCN-01", Ruling.PROVEN if proven else Ruling.POSSIBLE, step=window.step,
                         message=f"{moved}; the Booty rolls {', '.join(map(str, window.rolls))}: {what} "
                                 f"(S1.2: 1-2 stays a Camel, 3-6 revolts)"
                                 + ("" if proven else "; unless a line of sight was blocked, so that no roll was due"),
                         subjects=(window.unit, *(d.name for d in window.due)),
                         evidence={**evidence, "revolts_rolled": revolts, "flipped": flips},
                         depends_on=() if proven else unknown)]


@REGISTRY.check("SCN-01", event=Moved)
def judge_revolt_rolls(game: "Ascari", event: Moved, view: "StepView") -> list:
    """The previous move's rolls are over; this move may bring Camels in sight."""
    found = _close(game)
    unit = event.after
    if game.terrain is None or not _in_movement(game) or unit.side != "italian" or not unit.combat \
            or unit.type == "booty" \
            or unit.hex is None or event.before.hex is None or unit.hex in game.play.melees:
        return found
    due = _camels(game, view, unit, event.before.hex)
    if due:
        game.revolts.window = Window(event.step, unit.name, event.before.hex, unit.hex, due)
    return found


@REGISTRY.check("SCN-01", event=PhaseChanged)
def judge_revolt_rolls_at_phase_end(game: "Ascari", event: PhaseChanged, view: "StepView") -> list:
    return _close(game)


FIRE_DICE = ("which of the d6 rolled while a fire at the moving unit was open are the fire's (more than one "
             "was rolled: a Booty roll may be among them)")
LOG_ENDS = "the steps after the move (the log ends before another unit moves)"


@REGISTRY.check("SCN-01", on=END)
def judge_revolt_rolls_at_end(game: "Ascari", view: "StepView") -> list:
    """A log ending after the move with rolls missing: not settled (the next log may hold them)."""
    window = game.revolts.window
    if window is not None and len(window.rolls) < len(window.due):
        game.revolts.window = None
        game.unsettled("SCN-01", window.step, (LOG_ENDS,))
        return []
    return _close(game)
