"""Set-up areas: where each unit may stand when a scenario begins (SU-01, SU-02, SU-05).

The scenario data's placements say which counters go where: "at or within N hexes of H" in a
country, anywhere in a country, or exactly in one hex (PB 13.3.2, 13.3.3, 14.3.2, 14.3.3). A
unit on the map at the start is legal when some placement that names its counter allows its
hex; the check runs on the position a log (or save) begins with when the turn track shows the
scenario's start (turn 1, Event Phase: both scenarios begin there, PB 13.1, 14.1), and on each
unit a log places or moves while it sets up (`placements.setting_up`: set-up is not an event),
where it is put down (the KZ exception is then weighed for that unit alone). Countries are disjoint, so a hex known to lie in another country is outside;
a hex of a country whose borders the data lacks leaves the verdict POSSIBLE, naming them.

SU-07: in 1940-41 the guerrillas of each faction on the map at the start must fit the scenario
or one of the 1935-36 results' adjustments (PB 14.3.4); a single log cannot say which result, so
any consistent one is accepted.

Not judged here: how many units each other placement puts down (several placements share counters,
and Ethiopian units are drawn at random), units placed by setup code (the codes are printed on
the counters only, PB 14.3.2), the markers and boxes (SU-03, SU-06; the 1935-36 RP boxes and
trucks in boxes when play begins: `judge_start_boxes_1935`).
"""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.checks.fuel import fuel_begin, starts_the_scenario
from vlog.games.lion_of_judah.checks.garrison import judge_garrisons
from vlog.games.lion_of_judah.checks.recruitment import GUERRILLA_HOMES
from vlog.games.lion_of_judah.sequence import phase_from_table
from vlog.games.lion_of_judah.state import build_state
from vlog.kit.engine import BEGIN
from vlog.kit.schedules import Placement, in_area, placements, setup_areas

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.steps import StepView
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.board import Board
    from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["judge_setup_areas", "judge_set_up", "campaign_readings", "judge_campaign_guerrillas",
           "judge_start_boxes_1935"]

CHECK_OF_SIDE = {("1935-36", "ethiopian"): "SU-01", ("1935-36", "italian"): "SU-02",
                 ("1940-41", "allied"): "SU-05", ("1940-41", "ethiopian"): "SU-05"}
"""The inventory item judging each side's set-up in each scenario (the Allied player controls the
1940-41 guerrillas, PB 14.3.3; the Italian set-up, SU-04, goes by codes printed on the counters, which the data does not list)."""
KZ_BATTALION = "et-kz-battalion"
"""PB 13.3.2: one battalion-size Imperial Guard unit may instead stand at or next to another leader."""
NEGUS = "et-negus"
GUERRILLA_PLACEMENT = "al-guerrillas-"
"""PB 14.3.3: the Allied guerrilla placements, never in an Italian-occupied hex."""


def _in_zone(board: "Board", hex_: str, zone: str, countries: list[str]) -> bool | Unknown:
    """In the zone; a hex known to be in another country is not (countries do not overlap)."""
    inside = board.in_zone(hex_, zone)
    if isinstance(inside, Unknown) and zone in countries:
        if any(board.in_zone(hex_, other) is True for other in countries if other != zone):
            return False
    return inside


def _in_area(board: "Board", hex_: str, area: Placement, countries: list[str]) -> bool | Unknown:
    return in_area(hex_, area, distance=board.distance,
                   in_zone=lambda h, zone: _in_zone(board, h, zone, countries))


def _next_to_another_leader(board: "Board", state: "GameState", unit: "Unit") -> bool:
    return any(u.kind == "leader" and u.side == "ethiopian" and u.counter != NEGUS and u.hex is not None
               and board.distance(u.hex, unit.hex) <= 1 for u in state.units.values())


@REGISTRY.reports("SU-01", "SU-02", "SU-05")
def judge_setup_areas(board: "Board", data: "GameData", state: "GameState", scenario: str | None, *,
                      step: int | None, when: str | None, only: str | None = None) -> list[Finding]:
    """A finding for each unit on the map outside every set-up area its counter has (`only`: the
    unit of that id alone, one a log sets up)."""
    if scenario is None:
        return []
    areas = setup_areas(data, scenario)
    countries = board.zones_of_type("country")
    italian_hexes = {u.hex for u in state.units.values() if u.side == "italian" and u.hex is not None}
    kz_exception_used = False
    verb, verbs = ("is set up", "are set up") if only is not None else ("begins the scenario", "begin the scenario")
    out: list[Finding] = []
    unsettled: dict[str, list[tuple["Unit", list[Placement], list[str]]]] = {}
    for unit in state.units.values():
        short = CHECK_OF_SIDE.get((scenario, unit.side or ""))
        own = areas.get(unit.counter or "")
        if short is None or unit.hex is None or not own or (only is not None and unit.id != only):
            continue
        occupied = unit.hex in italian_hexes
        unknown: list[str] = []
        legal = False
        for area in own:
            inside = _in_area(board, unit.hex, area, countries)
            if area.placement.startswith(GUERRILLA_PLACEMENT) and occupied:
                inside = False
            if inside is True:
                legal = True
                break
            if isinstance(inside, Unknown):
                unknown.extend(inside.data)
        if legal:
            continue
        if unit.counter == KZ_BATTALION and not kz_exception_used and _next_to_another_leader(board, state, unit):
            kz_exception_used = True
            continue
        if unknown:
            unsettled.setdefault(short, []).append((unit, own, unknown))
            continue
        extra = (" (guerrillas never set up in an Italian-occupied hex)"
                 if occupied and any(a.placement.startswith(GUERRILLA_PLACEMENT) for a in own) else "")
        out.append(finding(
            short, Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
            message=f"{unit.name} {verb} at {hex_label(unit.hex, board)}, outside its "
                    f"set-up area: {_areas_text(own, board)}{extra}",
            evidence={"hex": unit.hex, "counter": unit.counter, "areas": _areas_json(own, unit.hex, board)}))
    for short, cases in unsettled.items():     # one finding per side: the data's borders settle them all
        out.append(finding(
            short, Ruling.POSSIBLE, step=step, when=when, subjects=tuple(u.name for u, _, _ in cases),
            depends_on=[d for _, _, unknown in cases for d in unknown],
            message=f"{len(cases)} unit(s) {verbs} in hexes the data does not place in their "
                    "set-up country: " + "; ".join(
                        f"{u.name} at {hex_label(u.hex, board)} ({_areas_text(own, board)})"
                        for u, own, _ in cases[:3]) + ("; ..." if len(cases) > 3 else ""),
            evidence={"units": [{"unit": u.name, "hex": u.hex, "counter": u.counter,
                                 "areas": _areas_json(own, u.hex, board)} for u, own, _ in cases]}))
    return out


def _areas_text(own: list[Placement], board: "Board") -> str:
    return "; or ".join(a.describe(lambda h: hex_label(h, board), board.zone_name) for a in own)


def _areas_json(own: list[Placement], hex_: str, board: "Board") -> list[dict]:
    return [{"placement": a.placement, "hex": a.hex, "within": a.within, "zone": a.zone,
             "distance": board.distance(hex_, a.hex) if a.hex else None} for a in own]


CAMPAIGN_RESULTS = "PB 14.3.4"


def _guerrilla_counts(data: "GameData") -> dict[str, int]:
    """The 1940-41 set-up's guerrillas by counter (the Allied guerrilla placements' counts)."""
    out: dict[str, int] = {}
    for entry in placements(data, "1940-41"):
        if entry.placement.startswith(GUERRILLA_PLACEMENT) and isinstance(entry.count, int):
            for counter in entry.units:
                out[counter] = out.get(counter, 0) + entry.count
    return out


def campaign_readings(base: dict[str, int]) -> dict[str, dict[str, int]]:
    """The guerrilla counts each 1935-36 result allows (PB 14.3.4), the plain scenario included;
    after an Ethiopian tactical victory one more unit *may* be drawn for up to two factions."""
    names = {c: GUERRILLA_HOMES.get(c, (c,))[0] for c in base}
    readings = {"the scenario (or an Italian tactical victory in 1935-36)": dict(base),
                "an Italian strategic victory in 1935-36 (each faction one fewer)":
                    {c: n - 1 for c, n in base.items()},
                "an Ethiopian strategic victory in 1935-36 (each faction one more)":
                    {c: n + 1 for c, n in base.items()}}
    for extra in (1, 2):
        for chosen in combinations(sorted(base), extra):
            readings["an Ethiopian tactical victory in 1935-36 (one more for "
                     + " and ".join(names[c] for c in chosen) + ")"] = {c: n + (c in chosen) for c, n in base.items()}
    return readings


@REGISTRY.reports("SU-07")
def judge_campaign_guerrillas(data: "GameData", state: "GameState", *, step: int | None,
                              when: str | None) -> list[Finding]:
    """SU-07: the 1940-41 start's guerrillas by faction fit the scenario or one campaign result."""
    base = _guerrilla_counts(data)
    if not base:
        return []
    shown = {c: 0 for c in base}
    for unit in state.units.values():
        if unit.counter in shown and unit.hex is not None:
            shown[unit.counter] += 1
    readings = campaign_readings(base)
    if any(shown == counts for counts in readings.values()):
        return []
    return [finding(
        "SU-07", Ruling.PROVEN, step=step, when=when, subjects=tuple(sorted(shown)),
        message="the guerrillas on the map when the 1940-41 scenario begins ("
                + ", ".join(f"{n} {GUERRILLA_HOMES.get(c, (c,))[0]}" for c, n in sorted(shown.items()))
                + ") fit neither the scenario's set-up nor any 1935-36 result's adjustment",
        evidence={"shown": shown, "readings": readings, "rule": CAMPAIGN_RESULTS})]


START_TRUCKS_1935 = {"rp-southern-front": 1, "rp-northern-front": 2}
"""PB 13.3.3: the trucks each Italian front sets up, on the map in its colony or in its RP box."""


def _start_rps(data: "GameData", scenario: str) -> dict[str, tuple[int, str]]:
    """RP box -> (RPs, the setup entry's words) from the scenario's setup entries of RP counters."""
    out: dict[str, tuple[int, str]] = {}
    for entry in data.scenario(scenario)["setup"]:
        box = entry["box"].value if "box" in entry else None
        count = entry["count"].value if "count" in entry else None
        units = entry["units"].value if "units" in entry else None
        if isinstance(box, str) and isinstance(count, int) and units and all(
                c in data.counter_ids and data.counter(c)["type"].value == "rp" for c in units):
            out[box] = (count, str(entry["what"].value if "what" in entry else box))
    return out


@REGISTRY.reports("SU-03")
def judge_start_boxes_1935(data: "GameData", state: "GameState", *, step: int | None,
                           when: str | None) -> list[Finding]:
    """SU-03 (PB 13.3.3): when 1935-36 play begins, each Italian RP storage box holds the RPs the
    setup gives it (the text's "4 x RP markers" read as markers or as RPs: either count passes),
    and no box more trucks than its front sets up (RPs only when the table shows Italian RP
    markers somewhere)."""
    from vlog.games.lion_of_judah.checks.rp_boxes import rp_value

    out: list[Finding] = []
    shown = any(u.kind == "rp" and u.side == "italian" for u in state.units.values())
    for box, (count, what) in sorted(_start_rps(data, "1935-36").items() if shown else ()):
        markers = [u for u in state.units.values() if u.kind == "rp" and u.box == box]
        rps = sum(rp_value(u) for u in markers)
        if count in (rps, len(markers)):
            continue
        out.append(finding("SU-03", Ruling.PROVEN, step=step, when=when, subjects=(box,),
                           message=f"the {box} box holds {len(markers)} RP marker(s) worth {rps} RP(s) when "
                                   f"play begins; the 1935-36 set-up puts {what} there (PB 13.3.3)",
                           evidence={"box": box, "markers": len(markers), "rps": rps, "expected": count}))
    for box, allowed in START_TRUCKS_1935.items():
        trucks = sorted(u.name for u in state.units.values() if u.kind == "truck" and u.box == box)
        if len(trucks) > allowed:
            out.append(finding("SU-03", Ruling.PROVEN, step=step, when=when, subjects=(box,),
                               message=f"the {box} box holds {len(trucks)} trucks when play begins; its "
                                       f"front sets up {allowed} (PB 13.3.3)",
                               evidence={"box": box, "trucks": len(trucks), "allowed": allowed}))
    return out


@REGISTRY.check("SU-01", "SU-02", "SU-05", "SU-06", "SU-07", "SC-09", on=BEGIN)
def judge_start(game: Any, view: "StepView") -> list[Finding]:
    """The log's starting position: where a log begins the scenario, its set-up areas (SU-01,
    SU-02, SU-05) and (40) the campaign's guerrilla adjustments (SU-07) and garrisons (SC-09);
    (40) the fuel the log begins with (SU-06)."""
    if game.scenario is None:
        return []
    table = view.after.table
    start = build_state(table, game.data, scenario=game.scenario)
    phase = phase_from_table(table, game.data, game.scenario)
    out: list[Finding] = []
    if starts_the_scenario(phase):
        out += judge_setup_areas(game.board, game.data, start, game.scenario, step=0, when=phase.when())
        if game.scenario == "1940-41":
            out += judge_campaign_guerrillas(game.data, start, step=0, when=phase.when())
    if game.scenario == "1940-41":
        out += fuel_begin(game.fuel, game.data, start, phase)
        if starts_the_scenario(phase):
            out += judge_garrisons(game.board, start, step=0, when=phase.when())
    return out



@REGISTRY.reports("SU-01", "SU-02", "SU-05")
def judge_set_up(game: Any, uid: str, after: "GameState | None", *, step: int | None,
                 when: str | None) -> list[Finding]:
    """A unit a log places or moves while setting up (checks/placements.py, checks/moves.py): where
    it is put down, inside its set-up area (set-up is not an event)."""
    if game.scenario is None or after is None or uid not in after.units:
        return []
    after.scenario = game.scenario
    return judge_setup_areas(game.board, game.data, after, game.scenario, step=step, when=when, only=uid)
