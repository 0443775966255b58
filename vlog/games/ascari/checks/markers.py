"""The informational markers as the log shows them (markers.py: a marker marks the combat unit in
its hex, 3.4): the Administrative Phase clean-up (2.0 step 4, 6.0), no fire under a RETREAT
marker (4.41 Note, 5.41), one marker of a type per unit (1.3), the Moved marker where Coatit and
Metemma do without it (S3.4, S5.42), and the Rifle marker (4.6): put in the hex of an eliminated
Rifle unit, left there when the unit in its hex is eliminated, and stopping the Spear or Cavalry
unit that enters its hex.

A reading of which unit a marker marks that the log leaves open (a hex of several combat units,
a unit that came after the marker) makes a finding POSSIBLE, naming the doubt; a marker that marks
no unit (none stands in its hex) is an occasion not settled. A log with no marker piece leaves
these checks not judged (`markers.NO_MARKERS`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.games.ascari.checks.fire import RIFLE_MARKER_SCENARIOS
from vlog.games.ascari.checks.sequence import NO_FLAGS
from vlog.games.ascari.markers import INFORMATIONAL, MOVED, NO_MARKERS, RIFLE, marker_property, markers_of, of_counter
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.engine import END
from vlog.kit.sequence import side_name
from vlog.kit.steps import Declared, MarkerMoved, Moved, PhaseChanged

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import Position, StepView

MARKER_ITEMS = ("SEQ-05", "FIR-03", "STK-04", "MOV-14", "FDR-15", "RIF-03", "MOV-10", "MOV-11")


@REGISTRY.check(*MARKER_ITEMS, on=END)
def judge_no_markers(game: "Ascari", view: "StepView") -> list:
    """A log that never shows a marker piece cannot tell a clean-up from a module whose markers
    are not bound: the marker checks say they were not judged."""
    if not game.markers.seen and game.scenario is not None:     # no scenario: already not judged
        for short in MARKER_ITEMS:
            game.not_judged(short, (NO_MARKERS,))
    return []


@REGISTRY.check("FDR-15", event=PhaseChanged)
def judge_rifle_markers_placed(game: "Ascari", event: PhaseChanged, view: "StepView") -> list:
    """When a phase ends, a Rifle marker stands in the hex of each Rifle unit eliminated in it
    (4.6, in the scenarios that use the marker: S3.51, S4.41, S5.41)."""
    return _rifle_markers_placed(game, view.before, event.step)


@REGISTRY.check("FDR-15", on=END)
def judge_rifle_markers_placed_at_end(game: "Ascari", view: "StepView") -> list:
    """The eliminations of the last phase, on the final position; those of a log that shows no
    marker piece until its end are not judged (the module's markers may not be bound)."""
    found = _rifle_markers_placed(game, view.after, None)
    if game.markers.seen:
        found = [*game.markers.rifles_unplaced, *found]
    game.markers.rifles_unplaced = []
    return found


def _rifle_markers_placed(game: "Ascari", position: "Position", step: int | None) -> list:
    lost, game.markers.rifles_lost = game.markers.rifles_lost, []
    if game.scenario not in RIFLE_MARKER_SCENARIOS:
        return []
    rifles = {m.hex for m in of_counter(markers_of(game, position), RIFLE)}
    found = []
    for unit, at in lost:
        if unit.hex in rifles:
            continue
        found.append(game.finding(
            "FDR-15", Ruling.PROVEN, step=at,
            message=f"{unit.name} was eliminated in {unit.hex} (step {at}) and no Rifle marker was put in that hex "
                    f"by the end of the phase: a Rifle marker is deployed in the hex of every eliminated Rifle unit (4.6)",
            subjects=(unit.name,), evidence={"unit": unit.name, "hex": unit.hex, "judged_at_step": step}))
    if found and not game.markers.seen:      # no marker piece yet: told at the end if the log shows one
        game.markers.rifles_unplaced += found
        return []
    return found


@REGISTRY.check("RIF-03", event=MarkerMoved)
def judge_rifle_marker_left(game: "Ascari", event: MarkerMoved, view: "StepView") -> list:
    """A Rifle marker whose hex lost a unit (eliminated: whether it held the marker or not, the
    marker stays, 4.6) is taken off the map or moved away with no unit from its hex carrying it."""
    old = event.before
    if old is None or old.counter != RIFLE or old.hex is None:
        return []
    lost = game.markers.rifle_left.pop(old.id, None)
    if lost is None:
        return []
    new = event.after
    if new is not None:
        there = {u.id for u in game.units(view.before).values() if u.hex == old.hex and u.combat}
        if any(u.id in there for u in game.units(view.after).values() if u.hex == new.hex):
            return []               # carried on by a unit that took it up there
    unit, at = lost
    gone = f"moved to {new.hex}" if new is not None else "taken off the map"
    return [game.finding(
        "RIF-03", Ruling.PROVEN, step=event.step,
        message=f"the Rifle marker in {old.hex} was {gone} after {unit.name} was eliminated there (step {at}): "
                f"the Rifle marker is left in the hex of an eliminated unit (4.6)",
        subjects=(old.name, unit.name),
        evidence={"hex": old.hex, "unit": unit.name, "eliminated_step": at, "to": new.hex if new is not None else None})]


@REGISTRY.check("SEQ-05", event=PhaseChanged)
def judge_cleanup(game: "Ascari", event: PhaseChanged, view: "StepView") -> list:
    """When a player-turn begins, the one before has had its Administrative Phase: no Fire or
    Opportunity Fire marker is left, nor a Moved, Retreat or Combat marker on a unit of the side
    that was active (the inactive side's keep theirs, 6.0). Judged on the position before the
    step that begins the new player-turn; which markers go from both sides is the data's
    (counters.json admin_removal)."""
    old, new = event.old, event.new
    if old is None or new is None or old.phasing is None or new.phasing in (None, old.phasing):
        return []
    left = of_counter(markers_of(game, view.before), *INFORMATIONAL)
    if not left:
        return []
    if not game.play.flags_declared:
        game.unsettled("SEQ-05", event.step, (NO_FLAGS,))
        return []
    active, found = old.phasing, []
    for marker in left:
        marked = game.markers.marks(view.before, marker)
        everyone = marker_property(game.data, marker.counter, "admin_removal") == "all"    # Fire, Opportunity Fire
        on_active = [u for u in marked.candidates if u.side == active]
        if not everyone and not on_active:
            if not marked.candidates:
                game.unsettled("SEQ-05", event.step, (marked.doubt,))
            continue
        unit = marked.unit if marked.unit is not None else (on_active[0] if len(on_active) == 1 else None)
        if everyone and marked.doubt is not None:
            unit = None     # removed whichever unit it marks: named only when the log tells it
        if everyone or marked.doubt is None:
            sure = True
        else:       # several units there: sure when every one is the active side's
            sure = marked.unit is None and len(on_active) == len(marked.candidates)
        on = f" on {unit.name} ({side_name(unit.side)})" if unit is not None else ""
        whose = "both players' units" if everyone else f"the active ({side_name(active)}) player's units"
        found.append(game.finding(
            "SEQ-05", Ruling.PROVEN if sure else Ruling.POSSIBLE, step=event.step,
            message=f"the {marker.name} marker in {marker.hex}{on} was still on the map when the "
                    f"{side_name(new.phasing)} player-turn began: the {side_name(active)} Administrative Phase "
                    f"removes it from {whose} (2.0 step 4, 6.0)",
            subjects=(marker.name, *((unit.name,) if unit is not None else ())),
            evidence={"marker": marker.name, "hex": marker.hex, "unit": unit.name if unit is not None else None,
                      "active": active, "removed_from": "all" if everyone else "active"},
            depends_on=() if sure else (marked.doubt,)))
    return found


@REGISTRY.check("FIR-03", event=Declared)
def judge_fire_under_retreat(game: "Ascari", event: Declared, view: "StepView") -> list:
    """A unit holding a RETREAT marker (counters.json no_fire) performs neither Fire nor
    Opportunity Fire."""
    if event.grammar != "fire":
        return []
    firer = game.piece_named(view.before, event.declaration.firer)
    if firer is None or firer.hex is None or not firer.combat:
        return []
    found = []
    for marker in of_counter(markers_of(game, view.before), *INFORMATIONAL):
        if marker.hex != firer.hex or marker_property(game.data, marker.counter, "no_fire") is not True:
            continue
        marked = game.markers.marks(view.before, marker)
        what = "Opportunity Fire" if event.declaration.opportunity else "Fire"
        found.append(game.finding(
            "FIR-03", Ruling.PROVEN if marked.doubt is None else Ruling.POSSIBLE, step=event.step,
            message=f"{firer.name} in {firer.hex} declared {what} at {event.declaration.target} under the "
                    f"Retreat marker there: a unit holding a RETREAT marker cannot fire (4.41 Note, 5.41)",
            subjects=(firer.name, marker.name),
            evidence={"firer": firer.name, "hex": firer.hex, "target": event.declaration.target,
                      "opportunity": event.declaration.opportunity,
                      "marker_step": game.markers.arrived.get(marker.id, (None,))[0]},
            depends_on=() if marked.doubt is None else (marked.doubt,)))
        break
    return found


@REGISTRY.check("STK-04", event=MarkerMoved)
def judge_two_of_a_type(game: "Ascari", event: MarkerMoved, view: "StepView") -> list:
    """A marker that comes to a unit already holding one of its type: each unit receives only one
    informational marker per type (1.3, 'no two Combat markers together')."""
    marker = event.after
    if marker is None or marker.counter not in INFORMATIONAL:
        return []
    others = [m for m in of_counter(markers_of(game, view.after), marker.counter)
              if m.hex == marker.hex and m.id != marker.id]
    if not others:
        return []
    before, old = markers_of(game, view.before), event.before
    if old is not None and old.hex is not None and all(m.id in before and before[m.id].hex == old.hex for m in others):
        return []           # moved on together (the unit's stack): told when the second came
    marked = game.markers.marks(view.after, others[0])
    if not marked.candidates or len(marked.candidates) >= 1 + len(others):
        return []           # no unit there, or as many units as markers: each may mark another
    unit = marked.unit
    on = unit.name if unit is not None else " / ".join(u.name for u in marked.candidates)
    return [game.finding(
        "STK-04", Ruling.PROVEN if marked.doubt is None else Ruling.POSSIBLE, step=event.step,
        message=f"a second {marker.name} marker was put in {marker.hex} on {on}, which already holds one "
                f"(since step {game.markers.arrived.get(others[0].id, (None,))[0]}): a unit receives only one "
                f"informational marker of each type (1.3)",
        subjects=(marker.name, *(u.name for u in marked.candidates)),
        evidence={"marker": marker.name, "hex": marker.hex, "unit": on, "markers": 1 + len(others)},
        depends_on=() if marked.doubt is None else (marked.doubt,))]


@REGISTRY.check("MOV-14", event=Moved)
def judge_rifle_stop(game: "Ascari", event: Moved, view: "StepView") -> list:
    """An Ethiopian Spear or Cavalry unit entering a hex with an abandoned Rifle marker (none of
    the hex's combat units holds it: none stands there) stops there (4.6); its move on out of that
    hex in the same phase, other than a melée retreat, is reported."""
    unit, after = event.before, event.after
    if game.scenario not in RIFLE_MARKER_SCENARIOS or unit.side != "ethiopian" \
            or unit.type not in ("spear", "cavalry") or unit.hex is None or after.hex is None \
            or game.play.is_retreat(unit, after):
        return []
    found = []
    stop = game.markers.rifle_stops.pop(unit.id, None)
    if stop is not None and stop[0] == unit.hex:
        found.append(game.finding(
            "MOV-14", Ruling.PROVEN, step=event.step,
            message=f"{unit.name} entered {unit.hex}, where a Rifle marker lay, at step {stop[1]} and moved on "
                    f"to {after.hex}: a Spear/Cavalry unit entering a Rifle marker's hex stops there (4.6)",
            subjects=(unit.name,),
            evidence={"unit": unit.name, "hex": unit.hex, "to": after.hex, "entered_step": stop[1]}))
    rifles = [m for m in of_counter(markers_of(game, view.before), RIFLE) if m.hex == after.hex]
    if rifles and not any(u.id != unit.id for u in game.markers.marks(view.before, rifles[0]).candidates):
        game.markers.rifle_stops[unit.id] = (after.hex, event.step)
    return found


NO_MOVED = {"s3": ("MOV-10", "S3.4: in Coatit Ethiopian Rifle units never get a MOVED marker"),
            "s5": ("MOV-11", "S5.42: the MOVED marker is not used in Metemma")}
"""The scenarios that do without the Moved marker: (item, rule)."""


@REGISTRY.check("MOV-10", "MOV-11", event=MarkerMoved)
def judge_moved_not_used(game: "Ascari", event: MarkerMoved, view: "StepView") -> list:
    """A Moved marker put on a unit that may not receive one: in Coatit an Ethiopian Rifle unit
    (S3.4), in Metemma any unit (S5.42); in both the Spear or Cavalry unit that stopped on a
    Rifle marker this phase receives one (4.6, FAQ Metemma)."""
    marker, rule = event.after, NO_MOVED.get(game.scenario or "")
    if rule is None or marker is None or marker.counter != MOVED or (event.before is not None and event.before.hex):
        return []
    short, words = rule
    marked = game.markers.marks(view.after, marker)
    barred = [u for u in marked.candidates if _barred(game, u, marker.hex)]
    if not barred:
        return []
    unit = barred[0]
    sure = marked.doubt is None or (len(barred) == len(marked.candidates) and marked.unit is None)
    return [game.finding(
        short, Ruling.PROVEN if sure else Ruling.POSSIBLE, step=event.step,
        message=f"a Moved marker was put in {marker.hex} on {unit.name} ({unit.type}): {words}"
                f" (only a Spear or Cavalry unit taking up a Rifle marker gets one, 4.6)",
        subjects=(marker.name, unit.name),
        evidence={"hex": marker.hex, "unit": unit.name, "type": unit.type, "scenario": game.scenario},
        depends_on=() if sure else (marked.doubt,))]


def _barred(game: "Ascari", unit, hex_: str) -> bool:
    """Whether `unit` may not receive a Moved marker in this scenario (it did not just stop on a
    Rifle marker in `hex_`)."""
    if game.markers.rifle_stops.get(unit.id, (None,))[0] == hex_:
        return False
    return game.scenario == "s5" or (unit.side == "ethiopian" and unit.type == "rifle")
