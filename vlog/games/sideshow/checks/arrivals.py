"""The Available Box (4.0 phase 1A, 9.23): the units in it at the start of a turn are placed in
Mombasa (or the town their entry names) in the Availability Phase, with no Operation (SEQ-03).

KAR arrivals (4.0 phase 1D, 9.21, 9.28): the KAR battalions of the KAR Availability Chart are
placed in the town it names in the Replacement/Reinforcement Availability Phase of their month,
with no Operation. Those of 'Uganda*' go to the Uganda box and enter the map later through 1033
or 1016 (checks/movement.py, MOV-14).

SEQ-06 judges each such battalion's first coming onto the map in the log: not before its month,
in its town, in the Availability Phase where the turn tracker shows the phase.

The other units of the Reinforcement Schedule (9.27, 9.22) come into play in their month: into
the Available or the Delayed Box, or (1, 2 SA Rf, Kal Mtd, Murray) straight into their town.
SEQ-05 judges each one's first coming into play (the map, the Available or the Delayed Box) in
the log: not before its month, where the turn tracker shows the turn.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Moved, Placed, Stepped
from vlog.kit.units import value

from ..registry import REGISTRY
from .common import RECYCLED, came_from_box, known_turn

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import StepView

    from ..rules import Sideshow

__all__ = ["Arrivals"]

AVAILABILITY = "reinforcement-availability"
IN_PLAY = frozenset({"available", "delayed"})
"""The boxes a scheduled unit goes to in its month (9.22)."""
AVAILABLE = "available"
MOMBASA = "Mombasa"


class Arrivals(Ledger):
    """The KAR schedule (counter -> its month and town) and the counters already seen on the map."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.schedule: dict[str, tuple[int, str, str]] = {}
        self.places: dict[str, str] = {}
        """Counter -> the hex its scheduled entry names (9.27: Karonga, Fife), where not Mombasa."""
        self.seen: set[str] = set()
        self.scheduled: dict[str, tuple[int, str]] = {}
        """Counter -> the month 9.27 schedules it in and the schedule's words (KAR aside)."""
        self.in_play: set[str] = set()
        """Counters seen on the map or in the Available or Delayed Box."""

    def begin(self, view: "StepView") -> Iterable["Finding"]:
        if self.game.scenario is not None:
            for entry in self.game.data.scenario(self.game.scenario)["reinforcements"]:
                turns = value(entry["turns"]) if "turns" in entry else None
                hex_ = value(entry["hex"]) if "hex" in entry else None
                for unit in value(entry["units"]) or () if "units" in entry else ():
                    if hex_:
                        self.places[unit] = hex_
                    if "-kar-" in (entry.id or "") and turns and hex_:
                        self.schedule[unit] = (min(turns), hex_, value(entry["what"]) or "")
                    elif turns and value(entry["side"]) == "allied":
                        self.scheduled[unit] = (min(turns), value(entry["what"]) or "")
        units = self.game.units(view.after).values()       # added to what a log before this one showed
        self.seen |= {u.counter for u in units if u.hex is not None}
        self.in_play |= {u.counter for u in units if u.hex is not None or u.box in IN_PLAY}
        return ()


@REGISTRY.check("SEQ-03", event=Moved)
def judge_from_available(game: "Sideshow", moved: "Moved", view: "StepView") -> list["Finding"]:
    """4.0 phase 1A, 9.23: the Available Box empties into Mombasa (or the town a unit's entry
    names) in the Availability Phase, with no Operation."""
    if moved.before.box != AVAILABLE or moved.after.hex is None:
        return []
    unit, town = moved.before, game.arrivals.places.get(moved.before.counter)
    # Mombasa, or the town the unit's entry names: a returning replacement is not 'noted otherwise'
    allowed = tuple(dict.fromkeys((*game.data.hexes_named(MOMBASA), *((town,) if town else ()))))
    problem = None
    if moved.after.hex not in allowed:
        problem = f"to {moved.after.hex}, not to {' or '.join(allowed)}"
    elif game.phase is not None and not game.phase.inferred and game.phase.name != AVAILABILITY:
        problem = f"in {game.phase.name}, not in the Replacement/Reinforcement Availability Phase"
    if problem is None:
        return []
    return [game.finding("SEQ-03", Ruling.PROVEN, step=moved.step,
                         message=f"{unit.name} left the Available Box {problem} (4.0 phase 1A, 9.23)",
                         subjects=(unit.name,),
                         evidence={"unit": unit.name, "hex": moved.after.hex, "allowed": list(allowed),
                                   "phase": game.phase.name if game.phase else None})]


@REGISTRY.check("SEQ-06", event=Placed)
def judge_kar_arrival(game: "Sideshow", placed: "Placed", view: "StepView") -> list["Finding"]:
    """9.21, 9.28: a scheduled KAR battalion comes on in its month, in its town, in phase 1D."""
    ledger, unit = game.arrivals, placed.unit
    if unit.counter in ledger.seen:
        return []
    ledger.seen.add(unit.counter)
    if came_from_box(view, game, unit.id) in RECYCLED:
        return []                                  # a replacement or a delayed unit: not its arrival
    if unit.counter not in ledger.schedule:
        return []
    turn, town, what = ledger.schedule[unit.counter]
    shown = known_turn(game)
    label = game.sequence.labels.get(turn, f"turn {turn}") if game.sequence else f"turn {turn}"
    evidence = {"unit": unit.name, "hex": unit.hex, "scheduled_turn": turn, "scheduled_hex": town, "turn": shown}
    problem = None
    if shown is not None and shown < turn:
        problem = f"before its month, {label}"
    elif unit.hex != town:
        problem = f"in {unit.hex}, not in {town}"
    elif game.phase is not None and not game.phase.inferred and game.phase.name != AVAILABILITY:
        problem = f"in {game.phase.name}, not in the Replacement/Reinforcement Availability Phase"
        evidence["phase"] = game.phase.name
    if problem is None:
        return []
    return [game.finding("SEQ-06", Ruling.PROVEN, step=placed.step,
                         message=f"{unit.name} came onto the map {problem} (9.28: {what}, {label})",
                         subjects=(unit.name,), evidence=evidence)]


@REGISTRY.check("SEQ-05", event=Stepped)
def judge_scheduled_arrival(game: "Sideshow", stepped: "Stepped", view: "StepView") -> list["Finding"]:
    """9.22, 9.27: a scheduled unit comes into play (the Available or Delayed Box, or its town)
    not before its month (a move between boxes is no move on the map: each step's places are read)."""
    ledger, found = game.arrivals, []
    turn = known_turn(game)
    for unit in game.units(view.after).values():
        if unit.counter in ledger.in_play or not (unit.hex is not None or unit.box in IN_PLAY):
            continue
        ledger.in_play.add(unit.counter)
        if unit.counter not in ledger.scheduled or turn is None:
            continue
        month, what = ledger.scheduled[unit.counter]
        if turn >= month:
            continue
        label = game.sequence.labels.get(month, f"turn {month}") if game.sequence else f"turn {month}"
        where = unit.hex or {"available": "the Available Box", "delayed": "the Delayed Box"}[unit.box]
        found.append(game.finding("SEQ-05", Ruling.PROVEN, step=stepped.step,
                                  message=f"{unit.name} came into play in {where} in turn {turn}, before its month, "
                                          f"{label} (9.27: {what})",
                                  subjects=(unit.name,),
                                  evidence={"unit": unit.name, "where": where, "turn": turn, "scheduled_turn": month}))
    return found
