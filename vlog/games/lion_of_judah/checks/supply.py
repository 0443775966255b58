"""Supply (rule 9, PB 13.6.6, PB 14.6.1): the trace, and the moments the rules judge it.

The trace (9.4, 9.5.1) from the unit's hex (not counted):
* #1 at most 3 hexes to a friendly-controlled unit supply source (USS) of its side;
* #2 at most 3 hexes to a road, rail or dirt-track hex, then any number of consecutive line
  hexes to the USS; the line part may not pass an enemy-controlled town or capital;
* #3 (non-HQ units) at most 2 hexes to a friendly HQ, which traces as #1 or #2; one HQ at most;
* never into desert hexes, all-sea hexes or hexes with enemy units, never across all-sea or
  impassable hexsides; into a hex adjacent to an enemy unit only when a friendly unit is there;
* a captured USS never serves its captor (9.5.1); PB 14.6.1.2: the Allied USS list;
* 9.5, PB 13.6.6.2, PB 14.6.1.3: Italian colonial irregulars, (35) Ethiopian units and (40)
  guerrillas are always in supply in Ethiopia except in the Danakil desert.

Checks: MV-16 (a unit may not end its move where it would be out of supply, 9.1) here; the
halving at the time of combat (9.3, 12.6) is judged with combat (CB-07).

SP-15 (PB 13.6.5.2): (35) units air-supplied in the Italian movement segment are in supply for
the rest of the turn: `trace` finds them supplied while their ids are in the state's
`AIR_SUPPLIED` flag (checks/placements.py sets it when air supply is flown, segments.py
clears it when a new turn begins).
SP-16 (2.4; 2.5; 7.3.3; 10.2.3; 11.7; 10.1.1): supply as the prerequisite of an action,
`judge_supply_prerequisite`: here rail movement (the unit begins the MAP in supply) and HQ
combat support (the HQ in supply when the attack is declared); breaking down, consolidation
and replacement report under RR-16, RR-17 and RR-14, air bases under AR-01.
"""
from __future__ import annotations

from typing import Any

from vlog.engine.judge import Ruling, Unknown, Verdict, unknowns
from vlog.engine.supply import SupplyRules, SupplyTrace, trace_supply, trace_via_relay
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["USS", "AIR_SUPPLIED", "supply_sources", "trace", "judge_end_of_move", "initial_controller",
           "judge_supply_prerequisite"]

AIR_SUPPLIED = "air-supplied"
"""State flag: the ids of the units air supply keeps in supply this turn (SP-15, PB 13.6.5.2)."""

USS: dict[str, dict[str, tuple[str, ...]]] = {
    # PB 13.6.6.1: Northern Front Massawa, Southern Front Mogadishu
    "1935-36": {"italian": ("1405", "2322")},
    # PB 14.6.1.1 and 14.6.1.2 (Djibouti 1910 only once French Somaliland joins, PB 14.6.6)
    "1940-41": {"italian": ("1405", "2322", "1213"),
                "allied": ("0505", "0508", "1001", "1122", "1327", "2311")},
}

_INITIAL = {
    # PB 13.1.2 / 14.1.2: the countries each side controls at the start
    "1935-36": {"italian": ("eritrea", "italian-somaliland"), "ethiopian": ("ethiopia",)},
    "1940-41": {"italian": ("eritrea", "ethiopia", "italian-somaliland"),
                "allied": ("sudan", "kenya", "british-somaliland")},
}


def initial_controller(board: Board, scenario: str | None, hex_: str) -> str | None | Unknown:
    """The side that controls a hex at the start of the scenario (None: nobody)."""
    if scenario not in _INITIAL:
        return Unknown("scenario")
    missing: list[Unknown] = []
    for side, zones in _INITIAL[scenario].items():
        for zone in zones:
            inside = board.in_zone(hex_, zone)
            if inside is True:
                return side
            if isinstance(inside, Unknown):
                missing.append(inside)
    return Unknown(*unknowns(*missing)) if missing else None


def controller(board: Board, state: GameState, hex_: str) -> str | None | Unknown:
    """3.2: the side that last had a unit there, else the initial controller."""
    if hex_ in state.control:
        return state.control[hex_]
    return initial_controller(board, state.scenario, hex_)


def supply_sources(state: GameState, side: str | None) -> tuple[str, ...]:
    sources = USS.get(state.scenario or "", {}).get(side or "", ())
    if state.scenario == "1940-41" and side == "allied" and state.flags.get("french-somaliland-joined"):
        sources = sources + ("1910",)
    return sources


def _always_supplied(board: Board, state: GameState, unit: Unit, hex_: str) -> bool | Unknown | None:
    """True when the unit's class is always in supply in this hex; None when the rule does not
    apply to the unit."""
    if unit.unit_class == "italian-colonial-irregular" or unit.unit_class == "guerrilla" or (
            unit.side == "ethiopian" and state.scenario != "1940-41"):
        inside = board.in_zone(hex_, "ethiopia")
        desert = board.in_zone(hex_, "danakil-desert")
        if inside is True and desert is False:
            return True
        missing = unknowns(inside, desert)
        if missing and inside is not False and desert is not True:
            return Unknown(*missing)
        return False
    return None


def _rules(board: Board, state: GameState, side: str, sources: tuple[str, ...], *,
           max_hexes: int, relay_to: set[str] | None = None) -> SupplyRules[str]:
    occupied = state.occupied()

    def enemy_in(h: str) -> bool:
        # TS-06 (3.2 IMPORTANT): guerrillas block no enemy supply path through or next to their
        # hex; one they hold alone is still no source (they control it, is_source)
        return any(u.side != side and u.side is not None and u.kind != "air" and u.unit_class != "guerrilla"
                   for u in occupied.get(h, ()))

    enemy_hexes = {h for h in occupied if enemy_in(h)}
    zoc = {n for h in enemy_hexes for n in board.neighbours(h)}

    def is_source(h: str) -> Any:
        if relay_to is not None:
            return h in relay_to
        if h not in sources:
            return False
        who = controller(board, state, h)
        if isinstance(who, Unknown):
            return who
        return who == side

    def may_enter(h: str) -> Any:
        if h in enemy_hexes:
            return False
        terrain = board.terrain(h)
        if terrain == "desert":
            return False                                    # 9.5.1
        desert = board.in_zone(h, "danakil-desert")
        if desert is True:
            return False
        missing = unknowns(terrain, desert)
        return Unknown(*missing) if missing else True

    def may_cross(a: str, b: str) -> Any:
        parts = []
        for feature in ("all-sea", "impassable"):
            present = board.hexside_has(a, b, feature)
            if present is True:
                return False
            parts.append(present)
        missing = unknowns(*parts)
        return Unknown(*missing) if missing else True

    def line(a: str, b: str) -> Any:
        kinds = board.line_kinds(a, b)
        if isinstance(kinds, Unknown):
            return kinds
        return bool(kinds & {"road", "rail", "dirt-track"})

    def line_may_enter(h: str) -> Any:
        town = [board.has_feature(h, f) for f in ("town", "capital")]
        if not any(t is True for t in town):
            missing = unknowns(*town)
            return Unknown(*missing) if missing else True
        enemies = [u for u in occupied.get(h, ()) if u.side not in (side, None) and u.kind != "air"]
        if enemies and all(u.unit_class == "guerrilla" for u in enemies):
            return True             # TS-06: guerrillas' control blocks no path through the hex
        who = controller(board, state, h)
        if isinstance(who, Unknown):
            return who
        return who in (side, None)

    return SupplyRules(neighbours=board.neighbours, is_source=is_source, max_hexes=max_hexes,
                       may_enter=may_enter, may_cross=may_cross, in_enemy_zoc=lambda h: h in zoc,
                       friendly_occupied=lambda h: any(u.side == side for u in occupied.get(h, ())),
                       line=line, line_may_enter=line_may_enter)


def trace(board: Board, state: GameState, unit: Unit, hex_: str | None = None, *,
          sources: tuple[str, ...] | None = None) -> SupplyTrace[str] | None:
    """Is the unit (at `hex_`, default its own hex) in supply? None when vlog cannot judge it
    (unknown side or scenario; (35) an Ethiopian unit in a desert hex of Ethiopia). `sources`
    narrows the USSs traced to (SP-17: one Italian front's USS), default all of the side's."""
    hex_ = hex_ or unit.hex
    side = unit.side
    if hex_ is None or side is None or state.scenario not in USS:
        return None
    if unit.id in state.flags.get(AIR_SUPPLIED, ()):       # SP-15: supplied for the turn
        return SupplyTrace(Verdict(Ruling.LEGAL, reasons=("air supply (PB 13.6.5.2)",)), (hex_,))
    always = _always_supplied(board, state, unit, hex_)
    if always is True:
        return SupplyTrace(Verdict(Ruling.LEGAL), (hex_,))
    if unit.side == "ethiopian" and state.scenario != "1940-41":     # SP-12 (PB 13.6.6.2)
        from vlog.games.lion_of_judah.checks.ethiopian_supply import trace_outside_ethiopia
        return trace_outside_ethiopia(board, state, unit, hex_)
    sources = supply_sources(state, side) if sources is None else sources
    direct = _rules(board, state, side, sources, max_hexes=3)
    if unit.kind == "hq":
        result = trace_supply(direct, hex_)
    else:
        hqs = {u.hex for u in state.units.values() if u.kind == "hq" and u.side == side and u.hex}
        to_relay = _rules(board, state, side, sources, max_hexes=2, relay_to=hqs)
        result = trace_via_relay(to_relay, direct, hex_, direct=direct) if hqs else trace_supply(direct, hex_)
    if isinstance(always, Unknown) and result.ruling is Ruling.PROVEN:
        return SupplyTrace(Verdict(Ruling.POSSIBLE, depends_on=always.data), (hex_,), depends_on=always.data)
    return result


@REGISTRY.reports("MV-16")
def judge_end_of_move(board: Board, state_after: GameState, unit: Unit, *, step: int | None,
                      when: str | None, advance: bool = False) -> list[Finding]:
    """MV-16 (9.1): a unit may not end its movement out of supply (advance after combat excepted,
    12.12). `state_after` is the position after the move, `unit` the unit there."""
    if advance or unit.hex is None or unit.kind in ("air", "rp"):
        return []
    result = trace(board, state_after, unit)
    if result is None or result.ruling is Ruling.LEGAL:
        return []
    where = hex_label(unit.hex, board)
    sources = list(supply_sources(state_after, unit.side))
    if result.ruling is Ruling.PROVEN:
        message = (f"{unit.name} ended its move in {where}, out of supply: no trace of 3 hexes to a "
                   "supply source or to a line leading to one (9.4)")
    else:
        message = (f"{unit.name} ended its move in {where}, in supply only if map data vlog lacks "
                   "allow a trace (9.4)")
    return [finding("MV-16", result.ruling, step=step, when=when, subjects=(unit.name,),
                    message=message,
                    evidence={"hex": unit.hex, "supply_sources": sources,
                              "reasons": list(result.verdict.reasons),
                              "path": list(result.path)},
                    depends_on=result.verdict.depends_on)]


PREREQUISITE_ACTIONS = {
    "rail": ("moved by rail in the MAP", "a unit must begin the MAP in supply to move by rail (11.7)"),
    "hq-support": ("supported an attack", "an HQ gives combat support only while in supply (10.2.3)"),
    "motorize": ("was motorized in the MAP",
                 "trucks motorize an infantry or mountain-infantry division only while it is in supply (10.3.2)"),
}
"""SP-16: action -> (what the unit did, the rule that asks for supply)."""


@REGISTRY.reports("SP-16")
def judge_supply_prerequisite(board: Board, state: GameState, unit: Unit, action: str, *,
                              step: int | None, when: str | None, where: str | None = None) -> list[Finding]:
    """SP-16 for `unit` doing `action` (a key of PREREQUISITE_ACTIONS); `state` is the position
    at the moment the rules test supply (rail, motorisation: the start of the MAP; HQ support: the
    attack's declaration). PROVEN when no trace exists, POSSIBLE when one rests on data vlog lacks."""
    did, rule = PREREQUISITE_ACTIONS[action]
    placed = state.units.get(unit.id, unit)
    if placed.hex is None:
        return []
    result = trace(board, state, placed)
    if result is None or result.ruling is Ruling.LEGAL:
        return []
    at = hex_label(placed.hex, board)
    if result.ruling is Ruling.PROVEN:
        message = f"{unit.name} {did} while out of supply at {at}: {rule}"
    else:
        message = f"{unit.name} {did} from {at}, in supply only if map data vlog lacks allow a trace: {rule}"
    evidence: dict[str, Any] = {"action": action, "hex": placed.hex,
                                "supply_sources": list(supply_sources(state, unit.side)),
                                "reasons": list(result.verdict.reasons)}
    if where is not None:
        evidence["target"] = where
    return [finding("SP-16", result.ruling, step=step, when=when, subjects=(unit.name,), message=message,
                    evidence=evidence, depends_on=result.verdict.depends_on)]
