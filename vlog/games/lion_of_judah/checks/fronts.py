"""(35) The Italian fronts (PB 13.2.1, PB 13.6.5.3): which front a unit or air base belongs to,
and the air markers that belong to one front.

SP-17 (PB 13.2.1): units and air bases in Eritrea are of the Northern Front, those in Italian
Somaliland of the Southern Front; one in Ethiopia belongs to the front(s) whose USS (PB 13.6.6.1:
Massawa 1405 north, Mogadishu 2322 south) it can trace supply to (9.4), to either at the Italian
player's choice when it traces to both - the fronts are then "connected". `front_association`
tells it; its findings show under AR-02.

AR-02 (PB 13.2.1; PB 13.6.5.3): the E markers (III Br, two of them) fly only from Northern Front
air bases, the S marker (7 St) only from Southern Front ones (the front is the counter's
`properties.front` in counters.json). A mission whose hex is within the marker's range of an air
base only of the other front is the finding (no air base at all is AR-01's). Not judged: markers
without a printed front (reinforcement markers are assigned on arrival, which a log does not
show); any marker once the fronts are connected (the Italian may then reassign each MAP).
AR-02 in combat, `judge_air_support_front`: a marker placed on a hex an attack names supports the
Italian units of that combat (the attackers, or the defenders when the Italians defend); it
supports only units of its front, so a combat whose Italian units are all of the other front is
the finding (possible while some unit's front rests on map data vlog lacks).
AR-02 with PB 13.6.5.2, `judge_air_supply_front`: air supply flies from a Northern Front air base
to Northern Front units, so a Southern Front marker flies none (unless the fronts are connected)
and no unit that traces supply to the Southern Front only is air supplied.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.air import air_range, towns_in_range
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.checks.rail import division_share
from vlog.games.lion_of_judah.checks.supply import trace
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["FRONT_USS", "FRONT_ZONES", "FrontAssociation", "front_association", "marker_front",
           "fronts_connected", "judge_air_front", "judge_air_supply_front", "judge_air_support_front",
           "counts_for_pressure"]

FRONT_USS = {"northern": "1405", "southern": "2322"}
"""PB 13.6.6.1: each Italian front's unit supply source (Massawa, Mogadishu)."""
FRONT_ZONES = {"northern": "eritrea", "southern": "italian-somaliland"}
"""PB 13.2.1: the colony whose units and air bases are of each front."""
FRONT_NAMES = {"northern": "Northern Front", "southern": "Southern Front"}


@dataclass(frozen=True)
class FrontAssociation:
    """The fronts a unit or air base belongs to; `depends_on` names what vlog lacks to settle
    a front it may also belong to."""
    fronts: frozenset[str]
    depends_on: tuple[str, ...] = ()


def front_association(board: Board, state: GameState, unit: Unit, hex_: str | None = None) -> FrontAssociation:
    """SP-17: the Italian front(s) of `unit` (at `hex_`, default its hex) in 1935-36."""
    hex_ = hex_ or unit.hex
    if hex_ is None:
        return FrontAssociation(frozenset())
    missing: list[str] = []
    for front, zone in FRONT_ZONES.items():
        inside = board.in_zone(hex_, zone)
        if inside is True:
            return FrontAssociation(frozenset({front}))
        if isinstance(inside, Unknown):
            missing.extend(inside.data)
    fronts: set[str] = set()
    for front, uss in FRONT_USS.items():
        result = trace(board, state, unit, hex_, sources=(uss,))
        if result is None:
            missing.append(f"supply of {hex_} to the {FRONT_NAMES[front]} USS {uss}")
        elif result.ruling is Ruling.LEGAL:
            fronts.add(front)
        elif result.ruling is Ruling.POSSIBLE:
            missing.extend(result.verdict.depends_on)
    return FrontAssociation(frozenset(fronts), tuple(dict.fromkeys(missing)))


def marker_front(board: Board, marker: Unit) -> str | None:
    """The front printed on an Italian air marker (counters.json properties.front), else None."""
    if marker.counter is None:
        return None
    record = board.data.counter(marker.counter)
    props = record["properties"] if "properties" in record else {}
    if "front" not in props:
        return None
    value = props["front"].value
    return value if value in FRONT_USS else None


def fronts_connected(board: Board, state: GameState) -> bool:
    """PB 13.2.1: some Italian unit in Ethiopia traces supply to both fronts' USSs."""
    for unit in state.units.values():
        if unit.side != "italian" or unit.hex is None or unit.kind in ("air", "rp", "marker"):
            continue
        if board.in_zone(unit.hex, "ethiopia") is not True:
            continue
        if front_association(board, state, unit).fronts == frozenset(FRONT_USS):
            return True
    return False


@REGISTRY.reports("AR-02")
def judge_air_front(board: Board, state: GameState, marker: Unit, target: str, *,
                    step: int | None, when: str | None) -> list[Finding]:
    """AR-02 for an Italian air marker placed in `target` (state: the position it was placed in)."""
    if state.scenario != "1935-36" or marker.side != "italian":
        return []
    front = marker_front(board, marker)
    reach = air_range(board, marker, state.scenario)
    if front is None or isinstance(reach, Unknown):
        return []
    bases, missing = towns_in_range(board, state, target, reach, "italian")
    other_bases: list[str] = []
    for hex_ in bases:
        base = Unit(id=f"air-base-{hex_}", name=f"air base {hex_}", side="italian", hex=hex_)
        association = front_association(board, state, base)
        if front in association.fronts:
            return []
        missing.extend(association.depends_on)
        if association.fronts:
            other_bases.append(hex_)
    if not other_bases or fronts_connected(board, state):
        return []            # no base at all: AR-01; connected fronts: markers may be reassigned
    where = hex_label(target, board)
    other = next(f for f in FRONT_USS if f != front)
    evidence: dict[str, Any] = {"hex": target, "range": reach, "marker_front": front,
                                "other_front_bases": other_bases}
    message = (f"air marker {marker.name} ({FRONT_NAMES[front]}) flew to {where}; the air bases within "
               f"{reach} hexes ({', '.join(hex_label(b, board) for b in other_bases[:3])}) are of the "
               f"{FRONT_NAMES[other]}: it flies only from {FRONT_NAMES[front]} air bases (PB 13.6.5.3)")
    depends = tuple(dict.fromkeys(missing))
    return [finding("AR-02", Ruling.POSSIBLE if depends else Ruling.PROVEN, step=step, when=when,
                    subjects=(marker.name,), message=message, evidence=evidence, depends_on=depends)]


@REGISTRY.reports("AR-02")
def judge_air_supply_front(board: Board, state: GameState, marker: Unit, target: str, *,
                           step: int | None, when: str | None) -> list[Finding]:
    """AR-02 for an Italian marker flying air supply to `target` (the Italian movement segment of
    1935-36; state: the position it was placed in)."""
    if state.scenario != "1935-36" or marker.side != "italian":
        return []
    where = hex_label(target, board)
    out: list[Finding] = []
    front = marker_front(board, marker)
    if front == "southern" and not fronts_connected(board, state):
        out.append(finding("AR-02", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                           message=f"air marker {marker.name} (Southern Front) flew air supply to {where}: "
                                   "air supply flies from a Northern Front air base to Northern Front "
                                   "units (PB 13.6.5.2, 13.6.5.3)",
                           evidence={"hex": target, "marker_front": front, "mission": "air supply"}))
    for u in state.at(target):
        if u.side != "italian" or u.kind in ("air", "rp", "marker"):
            continue
        association = front_association(board, state, u)
        if association.fronts == {"southern"} and not association.depends_on:
            out.append(finding("AR-02", Ruling.PROVEN, step=step, when=when, subjects=(marker.name, u.name),
                               message=f"air marker {marker.name} flew air supply to {u.name} at {where}, "
                                       "which traces supply to the Southern Front only: such units are "
                                       "not supplied by air (PB 13.6.5.2)",
                               evidence={"hex": target, "unit": u.name, "unit_fronts": ["southern"],
                                         "mission": "air supply"}))
    return out


@REGISTRY.reports("AR-02")
def judge_air_support_front(board: Board, state: GameState, marker: Unit, target: str, supported: list[Unit], *,
                            step: int | None, when: str | None) -> list[Finding]:
    """AR-02 for an Italian marker supporting the Italian units `supported` in the combat on
    `target` (PB 13.6.5.3: it supports only units of its front; state: the position at the
    attack's declaration)."""
    front = marker_front(board, marker)
    if state.scenario != "1935-36" or marker.side != "italian" or front is None or not supported:
        return []
    missing: list[str] = []
    others: list[str] = []
    for u in supported:
        association = front_association(board, state, u)
        if front in association.fronts:
            return []
        missing.extend(association.depends_on)
        if association.fronts:
            others.append(u.name)
    if not others or fronts_connected(board, state):
        return []
    depends = tuple(dict.fromkeys(missing))
    other = next(f for f in FRONT_USS if f != front)
    return [finding("AR-02", Ruling.POSSIBLE if depends else Ruling.PROVEN, step=step, when=when,
                    subjects=(marker.name, *others),
                    message=f"air marker {marker.name} ({FRONT_NAMES[front]}) supported the combat on "
                            f"{hex_label(target, board)}, whose Italian units ({', '.join(others)}) are of "
                            f"the {FRONT_NAMES[other]}: it supports only {FRONT_NAMES[front]} units "
                            "(PB 13.6.5.3)",
                    evidence={"hex": target, "marker_front": front, "units": others, "units_front": other,
                              "mission": "air support"}, depends_on=depends)]


def counts_for_pressure(board: Board, state: GameState, target: str, attackers: list[Unit]) -> bool | None:
    """Event A1 (Mussolini's Pressure, 1935-36): whether an Italian attack counts among the four
    required -- against a Northern Front hex (SP-17: one an Italian unit there would trace to
    Massawa from) by at least a division or equivalent (non-division units count one half, 11.7's
    measure); None when map or counter data vlog lacks leaves it open."""
    association = front_association(board, state, Unit(id="a1-target", name=target, side="italian", hex=target))
    if "northern" in association.fronts:
        northern: bool | None = True
    elif association.depends_on:
        northern = None
    else:
        northern = False
    shares = [division_share(u) for u in attackers]
    total = sum(sh for sh in shares if sh is not None and not isinstance(sh, Unknown))
    if total >= 1:
        size: bool | None = True
    elif any(isinstance(sh, Unknown) for sh in shares):
        size = None
    else:
        size = False
    if northern is False or size is False:
        return False
    return True if northern and size else None
