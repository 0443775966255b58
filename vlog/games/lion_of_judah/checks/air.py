"""Air markers (10.1, PB 13.6.5, PB 14.6.9): the range from an air base.

AR-01 (10.1.1): every air mission's hex is within the marker's range (4 hexes; Allied markers
in 1940-41: 5) of an air base, the base hex not counted; an air base is a friendly-controlled
town or capital hex that is itself in supply, usable the instant it is controlled.
AR-06, AR-09 and AR-11 (10.1, 10.1.5, PB 13.6.5): which missions a marker may fly in a movement segment.
AR-12 (5.2 e iv): no air marker left on the map when a new turn begins.
AR-05 (10.1.4): after its mission a marker leaves the map on the owner's 1d6 (the last die
logged before or with the step that takes it off): 5 or less to a "Committed" air box, 6 onto
the turn track (the General Records Track box of the turn two turns on); +1 for bombing and gas
missions, which a log does not tell from air support and interdiction: where one may have been
flown the finding is POSSIBLE naming it. On the scenario's last turn a 6 costs a VP instead.
AR-07 (PB 13.6.5.1; Extended SoP B ii 1): a marker placed in a combat segment on a hex that no
attack of the segment names is a bombing (air support goes to the hex an attack is declared on,
10.1.3): (35) Italian only, on an enemy unit or stack, one marker a hex, and in the Italian combat
segment before any attack is declared; (40) no side bombs (AR-11). Judged when the segment ends;
the air attack table's result is not (the table is on the player aid card).
AR-08 (PB 13.6.5.1): (35) a Gassed marker (counter `mk-gassed`) goes on Ethiopian units in a hex an
Italian air marker was placed on in the same Ethiopian movement segment (the gas attack), no more
markers than units there; under the optional Increased gas effectiveness a gas attack may also be
declared in the Italian combat segment (POSSIBLE naming it). How many units are gassed is the air
attack table's gas column (player aid card): not judged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.checks.supply import controller, trace
from vlog.games.lion_of_judah.sequence import side_name
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["air_range", "judge_air_mission", "judge_markers_left_on_map", "judge_mission_segment",
           "judge_delayed_return", "turn_track_box", "may_be_bombing", "DELAY_ROLL", "BOMBING_DRM",
           "CombatAirPlacement", "judge_bombings", "judge_gassed", "GASSED_COUNTER", "judge_second_mission",
           "SIDES_WITHOUT_AIR", "AIR_SHIFT_CAP", "air_shifts_possible"]

GASSED_COUNTER = "mk-gassed"

DELAY_ROLL = 6
"""10.1.4: a modified 6 delays the marker two turns."""
BOMBING_DRM = 1
"""10.1.4: bombing and gas missions add 1 to the delayed-return roll."""
DELAY_TURNS = 2

ALLIED_RANGE_1940 = 5   # PB 14.6.9

SIDES_WITHOUT_AIR = frozenset({("1935-36", "ethiopian")})
"""(scenario, side) pairs with no air markers: the Ethiopians of 1935-36 (15.1.2, the
1935-36 Ethiopian player's notes: the Italians have "the only air units in the game")."""
AIR_SHIFT_CAP = 2
"""10.1.3: at most two column shifts per player from air markers."""


def air_shifts_possible(scenario: str | None, side: str | None, flown: int, *, whole_segment: bool) -> int:
    """The most air shifts `side` may have won in a combat whose declaration gives no air
    clause (10.1.3: each committed marker, placed in the attacked hex, wins at most one):
    `flown` of its markers left their box (or the palette) in the combat's segment;
    `whole_segment`: the log shows that segment from its start, with the turn track telling it.
    A side without air markers in the scenario has none to commit unless the log shows one."""
    if (scenario, side) in SIDES_WITHOUT_AIR and not flown:
        return 0
    if whole_segment:
        return min(AIR_SHIFT_CAP, flown)
    return AIR_SHIFT_CAP


def air_range(board: Board, marker: Unit, scenario: str | None) -> int | Unknown:
    """The range printed on the marker (counters.json), 5 for Allied markers in 1940-41."""
    if marker.side == "allied" and scenario == "1940-41":
        return ALLIED_RANGE_1940
    if marker.counter is not None:
        levels = board.data.counter(marker.counter)["levels"] if "levels" in board.data.counter(marker.counter) else {}
        for level in levels.values():
            if "range" in level and level["range"].value is not None:
                return int(level["range"].value)
    return Unknown(f"range of air marker {marker.name}")


def towns_in_range(board: Board, state: GameState, target: str, reach: int,
                   side: str) -> tuple[list[str], list[str]]:
    """The town and capital hexes within `reach` of `target` that `side` controls (the air bases
    a marker may fly from, 10.1.1), and what the data leaves unsettled about the others (a hex's
    town/capital feature or its control), one datum each."""
    layout = board.layout
    bases: list[str] = []
    unsettled: list[str] = []
    for h in layout.within(layout.parse(target), reach):
        if not layout.on_map(h):
            continue
        hex_ = layout.name(h)
        town = [board.has_feature(hex_, f) for f in ("town", "capital")]
        if not any(t is True for t in town):
            if any(isinstance(t, Unknown) for t in town):
                unsettled.append(f"map.json town/capital feature of {hex_}")
            continue
        who = controller(board, state, hex_)
        if isinstance(who, Unknown):
            unsettled.append(f"control of {hex_}")
        elif who == side:
            bases.append(hex_)
    return bases, unsettled


@REGISTRY.reports("AR-01")
def judge_air_mission(board: Board, state: GameState, marker: Unit, target: str, *,
                      step: int | None, when: str | None) -> list[Finding]:
    """AR-01 for an air marker placed in `target` (state: the position it was placed in)."""
    reach = air_range(board, marker, state.scenario)
    if isinstance(reach, Unknown) or marker.side is None:
        return []
    bases, unknown_hexes = towns_in_range(board, state, target, reach, marker.side)
    for hex_ in bases:
        base = Unit(id=f"air-base-{hex_}", name=f"air base {hex_}", side=marker.side, hex=hex_)
        supplied = trace(board, state, base)
        if supplied is None or supplied.ruling is Ruling.POSSIBLE:
            unknown_hexes.append(hex_)
            continue
        if supplied.ruling is Ruling.LEGAL:
            return []
    where = hex_label(target, board)
    evidence: dict[str, Any] = {"hex": target, "range": reach, "hexes_unsettled": len(unknown_hexes)}
    if unknown_hexes:
        datum = (f"map.json town/capital features, control or supply of {len(unknown_hexes)} hex(es) "
                 f"within {reach} of {target}")
        return [finding("AR-01", Ruling.POSSIBLE, step=step, when=when, subjects=(marker.name,),
                        message=f"air marker {marker.name} flew to {where}; no air base is known to be "
                                f"within {reach} hexes", evidence=evidence, depends_on=(datum,))]
    return [finding("AR-01", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                    message=f"air marker {marker.name} flew to {where}, more than {reach} hexes from "
                            "any friendly-controlled, supplied town or capital",
                    evidence=evidence)]


# -- the segment a mission is flown in (10.1, 10.1.5, PB 13.6.5) --------------------------------

@REGISTRY.reports("AR-11")
def judge_mission_segment(board: Board, state: GameState, marker: Unit, target: str, *,
                          scenario: str | None, segment: str | None, phasing: str | None,
                          moved: list[str], step: int | None, when: str | None,
                          earlier_air_supply: str | None = None) -> list[Finding]:
    """AR-11 and AR-06 for an air marker placed in `target` during a movement segment whose
    phasing side the turn track tells (`moved`: names of phasing units already moved in it).

    AR-11 (10.1; 10.1.6; 10.1.7): the Ethiopians have no air in 1935-36; in 1940-41 there is no
    air supply (nor bombing), so no mission is flown in the owner's own movement segment.
    AR-06 (10.1.5; (35) gas, PB 13.6.5.1): in the enemy's movement segment a marker interdicts
    (or gasses) an enemy unit or stack, at the segment's start, one air marker per hex.
    AR-09 (PB 13.6.5.2): (35) in the Italian movement segment it is air supply, before any move.
    """
    if marker.side is None:
        return []
    where = hex_label(target, board)
    if (scenario, marker.side) in SIDES_WITHOUT_AIR:
        return [finding("AR-11", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                        message=f"Ethiopian air marker {marker.name} flew to {where}; the Ethiopians "
                                "have no air in the 1935-36 scenario",
                        evidence={"hex": target, "scenario": scenario, "side": marker.side})]
    if segment != "movement" or phasing is None:
        return []
    if marker.side == phasing:
        if scenario != "1940-41":
            return _air_supply_timing(board, marker, target, moved=moved, step=step, when=when) \
                + _air_supply_units(board, state, marker, target, earlier=earlier_air_supply, step=step,
                                    when=when)
        return [finding("AR-11", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                        message=f"air marker {marker.name} flew to {where} in its own side's movement "
                                "segment; air supply (the only mission flown there) exists only in the "
                                "1935-36 scenario",
                        evidence={"hex": target, "scenario": scenario, "side": marker.side,
                                  "segment": "own movement"})]
    return _interdiction(board, state, marker, target, scenario=scenario, phasing=phasing,
                         moved=moved, step=step, when=when)


@REGISTRY.reports("AR-09")
def _air_supply_timing(board: Board, marker: Unit, target: str, *, moved: list[str], step: int | None,
                       when: str | None) -> list[Finding]:
    """AR-09 (PB 13.6.5.2; Extended SoP B i 1): (35) air supply is designated at the start of the
    Italian movement segment, before any unit moves (the units supplied, their front and the
    one-a-turn limit are not judged here)."""
    if not moved:
        return []
    return [finding("AR-09", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                    message=f"air marker {marker.name} flew air supply to {hex_label(target, board)} after "
                            f"{_names(moved)} had moved: air supply is placed at the start of the "
                            "Italian movement segment, before any unit moves",
                    evidence={"hex": target, "moved_before": moved})]


AIR_SUPPLY_STEPS = 2
"""PB 13.6.5.2: an air marker supplies up to two steps of Italian units."""


@REGISTRY.reports("AR-09")
def _air_supply_units(board: Board, state: GameState, marker: Unit, target: str, *, earlier: str | None,
                      step: int | None, when: str | None) -> list[Finding]:
    """AR-09 (PB 13.6.5.2): air supply goes on Italian units, at most two steps of them (so on
    some unit of two steps or fewer), and no more than one air marker a turn flies it."""
    where = hex_label(target, board)
    out: list[Finding] = []
    units = [u for u in state.at(target) if u.side == "italian" and u.kind not in ("air", "marker", "rp")]
    small = [u for u in units if not (isinstance(u.steps, int) and u.steps > AIR_SUPPLY_STEPS)]
    if not units:
        out.append(finding("AR-09", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                           message=f"air marker {marker.name} flew air supply to {where}, where there is no "
                                   "Italian unit to supply", evidence={"hex": target, "italian_units": 0}))
    elif not small:
        out.append(finding("AR-09", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                           message=f"air marker {marker.name} flew air supply to {where}, where every Italian "
                                   f"unit has more than {AIR_SUPPLY_STEPS} steps: it supplies up to "
                                   f"{AIR_SUPPLY_STEPS} steps",
                           evidence={"hex": target, "steps": {u.name: u.steps for u in units}}))
    if earlier is not None:
        out.append(finding("AR-09", Ruling.PROVEN, step=step, when=when, subjects=(marker.name, earlier),
                           message=f"air marker {marker.name} flew air supply to {where}; {earlier} already "
                                   "flew air supply this turn, and no more than one marker a turn does",
                           evidence={"hex": target, "earlier_marker": earlier}))
    return out


@REGISTRY.reports("AR-06")
def _interdiction(board: Board, state: GameState, marker: Unit, target: str, *, scenario: str | None,
                  phasing: str, moved: list[str], step: int | None, when: str | None) -> list[Finding]:
    """AR-06: a non-phasing marker in a movement segment is an interdiction ((35) or a gas attack)."""
    where = hex_label(target, board)
    here = [u for u in state.at(target) if u.id != marker.id]
    enemies = [u for u in here if u.kind != "air" and u.side == phasing]
    others = [u for u in here if u.kind == "air"]
    out: list[Finding] = []
    if not enemies:
        out.append(finding("AR-06", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                           message=f"air marker {marker.name} was placed at {where} in the "
                                   f"{side_name(phasing)} movement segment, on no {side_name(phasing)} "
                                   "unit: interdiction is placed on an enemy unit or stack",
                           evidence={"hex": target, "phasing": phasing, "enemy_units": 0}))
    if others:
        gas_possible = scenario == "1935-36" and marker.side == "italian"
        out.append(finding("AR-06", Ruling.POSSIBLE if gas_possible else Ruling.PROVEN, step=step,
                           when=when, subjects=(marker.name, *(u.name for u in others)),
                           message=f"air marker {marker.name} was placed at {where}, where air marker "
                                   f"{others[0].name} already was: no more than one air marker "
                                   "interdicts a hex",
                           evidence={"hex": target, "air_markers_there": [u.name for u in others]},
                           depends_on=("whether one marker flew a gas attack (PB 13.6.5.1), which "
                                       "the log does not say",) if gas_possible else ()))
    if moved:
        out.append(finding("AR-06", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                           message=f"air marker {marker.name} was placed at {where} after "
                                   f"{_names(moved)} had moved: interdiction is placed at the start "
                                   f"of the {side_name(phasing)} movement segment",
                           evidence={"hex": target, "phasing": phasing, "moved_before": moved}))
    return out


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


@REGISTRY.reports("AR-12")
def judge_markers_left_on_map(board: Board, shown: GameState, *, turn: int, step: int | None,
                              when: str | None) -> list[Finding]:
    """AR-12 (5.2 e iv; Extended SoP D vi): the End of Turn Phase removes "any air markers
    still on hexes" (interdiction, (35) gas and air supply; air support markers left the map
    when rolled for, 10.1.4), so none is on the map when the turn track shows the next turn."""
    out: list[Finding] = []
    for marker in shown.units.values():
        if marker.kind != "air" or marker.hex is None:
            continue
        out.append(finding("AR-12", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                           message=f"air marker {marker.name} is still on the map at "
                                   f"{hex_label(marker.hex, board)} at the start of turn {turn}; the "
                                   "End of Turn Phase removes every air marker from the map",
                           evidence={"hex": marker.hex, "turn": turn}))
    return out


# -- delayed air return (10.1.4) -----------------------------------------------------------------

def turn_track_box(board: Board, box: str | None) -> int | None:
    """The turn a box of the turn track stands for (the General Records Track holds the game
    turn marker, PB 13.3.1 and 14.3.1), or None for any other box."""
    if box is None:
        return None
    record = board.box(box)
    if record is None:
        return None
    props = record.get("properties", {})
    track = props.get("track", {}).get("value") if isinstance(props, dict) else None
    number = props.get("number", {}).get("value") if isinstance(props, dict) else None
    return number if track == "grt" and isinstance(number, int) else None


def _box_type(board: Board, box: str | None) -> str | None:
    record = board.box(box)
    return record.get("type", {}).get("value") if record is not None else None


def may_be_bombing(marker: Unit, scenario: str | None, segment: str | None, phasing: str | None) -> bool:
    """(35) An Italian marker flown in the Italian combat segment may have bombed (PB 13.6.5.1)
    rather than supported an attack; one flown in the Ethiopian movement segment may have
    gassed rather than interdicted. A log does not say which."""
    if scenario != "1935-36" or marker.side != "italian":
        return False
    return (segment == "combat" and phasing == "italian") or (segment == "movement" and phasing == "ethiopian")


@REGISTRY.reports("AR-05")
def judge_delayed_return(board: Board, marker: Unit, *, roll: int | None, box: str | None,
                         turn: int | None, last_turn: int | None, bombing_possible: bool,
                         step: int | None, when: str | None) -> list[Finding]:
    """AR-05 for an air marker taken off the map into `box` after the owner's roll `roll`
    (None: no roll logged, nothing judged) on game turn `turn`."""
    if roll is None or turn is None or not 1 <= roll <= 6:
        return []
    on_track = turn_track_box(board, box)
    kind = _box_type(board, box)
    if on_track is None and kind != "air":
        return []           # deleted, or a box that is neither an air box nor the turn track
    target = turn + DELAY_TURNS
    drms = (0, BOMBING_DRM) if bombing_possible else (0,)
    legal: list[int] = []
    for drm in drms:
        delayed = roll + drm >= DELAY_ROLL
        if delayed and last_turn is not None and turn >= last_turn:
            legal.append(drm)          # the owner loses a VP instead (10.1.4; PB 13.4.1)
        elif delayed and on_track == target:
            legal.append(drm)
        elif not delayed and on_track is None:
            legal.append(drm)
    if 0 in legal:
        return []
    went = (f"onto the turn track (turn {on_track})" if on_track is not None
            else f"to the {_box_name(board, box)}")
    evidence: dict[str, Any] = {"roll": roll, "box": box, "turn": turn, "delayed_to": target,
                                "bombing_drm_possible": bombing_possible}
    if on_track is not None:
        evidence["turn_track_box"] = on_track
    if on_track is not None and on_track != target and roll + max(drms) >= DELAY_ROLL:
        why = f"a delayed marker goes to turn {target}, two turns after turn {turn}"
    elif on_track is not None:
        why = f"a {roll} sends it to a Committed box (only a modified 6 delays it)"
    else:
        why = f"a 6 delays it onto the turn track at turn {target}"
    message = f"air marker {marker.name} went {went} after a delayed-return roll of {roll}: {why}"
    if legal:           # legal only if the mission was a bombing or gas attack (+1)
        return [finding("AR-05", Ruling.POSSIBLE, step=step, when=when, subjects=(marker.name,),
                        message=message, evidence=evidence,
                        depends_on=("whether the mission was a bombing or gas attack (+1 DRM, 10.1.4), "
                                    "which the log does not say",))]
    return [finding("AR-05", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                    message=message, evidence=evidence)]


def _box_name(board: Board, box: str | None) -> str:
    record = board.box(box)
    return str(record.get("name", {}).get("value") or box) if record is not None else str(box)


# -- bombing (PB 13.6.5.1) -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CombatAirPlacement:
    """An air marker placed on the map during a combat segment."""

    marker: Unit
    hex: str
    step: int | None
    when: str | None
    declared_before: tuple[str, ...]
    """Hexes attacks were declared on earlier in the segment."""
    enemy_units: tuple[str, ...]
    """Names of the enemy units in the hex when it was placed."""


@REGISTRY.reports("AR-07", "AR-11")
def judge_bombings(board: Board, placements: list[CombatAirPlacement], targets: set[str], *,
                   scenario: str | None, phasing: str | None) -> list[Finding]:
    """AR-07 and AR-11 for the markers placed in a combat segment of `phasing`, once it has ended
    (`targets`: every hex an attack of the segment was declared on)."""
    out: list[Finding] = []
    bombed: dict[str, str] = {}
    for placed in placements:
        if placed.hex in targets:
            continue                       # air support (10.1.3), placed with its attack
        marker, where = placed.marker, hex_label(placed.hex, board)
        subject = (marker.name,)
        if scenario == "1940-41":
            out.append(finding("AR-11", Ruling.PROVEN, step=placed.step, when=placed.when, subjects=subject,
                               message=f"air marker {marker.name} was placed at {where} in a combat segment "
                                       "where no attack was declared on that hex: a bombing, which no side "
                                       "flies in 1940-41 (10.1)",
                               evidence={"hex": placed.hex, "scenario": scenario, "segment": "combat"}))
            continue
        if scenario != "1935-36" or marker.side != "italian":
            continue                       # (35) Ethiopian air: AR-11 when it was placed
        if not placed.enemy_units:
            out.append(finding("AR-07", Ruling.PROVEN, step=placed.step, when=placed.when, subjects=subject,
                               message=f"air marker {marker.name} bombed {where}, where there is no enemy "
                                       "unit and no attack was declared: bombing is placed on an enemy unit "
                                       "or stack", evidence={"hex": placed.hex, "enemy_units": 0}))
        if phasing == "italian" and placed.declared_before:
            out.append(finding("AR-07", Ruling.PROVEN, step=placed.step, when=placed.when, subjects=subject,
                               message=f"air marker {marker.name} bombed {where} after attacks were declared "
                                       f"on {', '.join(hex_label(h, board) for h in placed.declared_before)}: "
                                       "bombing is declared at the start of the combat segment",
                               evidence={"hex": placed.hex, "declared_before": list(placed.declared_before)}))
        if placed.hex in bombed:
            out.append(finding("AR-07", Ruling.PROVEN, step=placed.step, when=placed.when,
                               subjects=(marker.name, bombed[placed.hex]),
                               message=f"air marker {marker.name} bombed {where}, which {bombed[placed.hex]} "
                                       "already bombed: no more than one air marker a hex",
                               evidence={"hex": placed.hex, "first_marker": bombed[placed.hex]}))
        bombed.setdefault(placed.hex, marker.name)
    return out


# -- gas attacks (PB 13.6.5.1) --------------------------------------------------------------------

@REGISTRY.reports("AR-08")
def judge_gassed(board: Board, state: GameState, gassed: Unit, hex_: str, *, scenario: str | None,
                 segment: str | None, phasing: str | None, air_hexes: set[str], step: int | None,
                 when: str | None) -> list[Finding]:
    """AR-08 for a Gassed marker placed at `hex_` (state: the position before) in a segment the
    turn track tells; `air_hexes`: hexes Italian air markers were placed on in that segment."""
    where = hex_label(hex_, board)
    subject = (gassed.name,)
    if scenario == "1940-41":
        return [finding("AR-08", Ruling.PROVEN, step=step, when=when, subjects=subject,
                        message=f"a Gassed marker was placed at {where}; gas attacks exist only in the "
                                "1935-36 scenario (10.1)", evidence={"hex": hex_, "scenario": scenario})]
    if scenario != "1935-36" or segment is None:
        return []
    in_combat = segment == "combat" and phasing == "italian"
    if not (segment == "movement" and phasing == "ethiopian") and not in_combat:
        return [finding("AR-08", Ruling.PROVEN, step=step, when=when, subjects=subject,
                        message=f"a Gassed marker was placed at {where} outside the start of the Ethiopian "
                                "movement segment, where gas attacks are flown",
                        evidence={"hex": hex_, "segment": segment, "phasing": phasing})]
    out: list[Finding] = []
    optional = ("the optional rule Increased gas effectiveness (PB 13.6.5.1), which lets the gas attack "
                "be declared in the Italian combat segment",)
    ruling = Ruling.POSSIBLE if in_combat else Ruling.PROVEN
    if hex_ not in air_hexes:
        out.append(finding("AR-08", ruling, step=step, when=when, subjects=subject,
                           message=f"a Gassed marker was placed at {where}, where no Italian air marker flew "
                                   "a gas attack in this segment",
                           evidence={"hex": hex_, "air_marker_hexes": sorted(air_hexes)},
                           depends_on=optional if in_combat else ()))
    units = [u for u in state.at(hex_) if u.side == "ethiopian" and u.kind not in ("air", "marker")]
    markers = [u for u in state.at(hex_) if u.counter == GASSED_COUNTER]
    if len(markers) + 1 > len(units):
        out.append(finding("AR-08", Ruling.PROVEN, step=step, when=when, subjects=subject,
                           message=f"a Gassed marker was placed at {where}, making {len(markers) + 1} there "
                                   f"for {len(units)} Ethiopian unit(s): one marker per unit affected",
                           evidence={"hex": hex_, "gassed_markers": len(markers) + 1, "units": len(units)}))
    return out


@REGISTRY.reports("AR-03")
def judge_second_mission(missions: dict[str, tuple[int, int]], marker: Unit, hex_: str, turn: int, *,
                         step: int, when: str | None) -> list[Finding]:
    """AR-03 (10.1.2): an air marker flies at most one mission per game turn (judged when the
    turn track tells the turn): placed on the map twice in a turn is two missions. `missions`
    (marker -> turn and step of its last mission) is kept by the caller and noted here."""
    first = missions.get(marker.id)
    missions[marker.id] = (turn, step)
    if first is None or first[0] != turn:
        return []
    return [finding("AR-03", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                    message=f"air marker {marker.name} flew a second mission on turn {turn} "
                            f"(the first at step {first[1]})",
                    evidence={"turn": turn, "first_mission_step": first[1], "hex": hex_})]
