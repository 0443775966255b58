"""Victory levels (PB 13.4.2, VC-03; PB 14.4.2, VC-07): a result declared in chat must be the
level the scenario's victory-level table gives for the VP total declared with it.

Players announce the end of a scenario in chat, as they do in PBEM, in the form
``Italian 24 VP: Italian tactical victory`` (a VP total and a level, "<side> strategic|tactical
victory", in one line). The level is read from `tables.json` (victory-levels-1935-36 or
-1940-41); a level whose range the data lacks gives POSSIBLE naming that cell.

The declared total is judged against the tally at the end of the scenario (VC-01, VC-02: PB
13.4.1, 13.4.4, the Italian VP at the end of turn 7; VC-05, VC-06: PB 14.4.1, the Allied VP at
the end of turn 11): the VP hexes held by a supplied unit of the scoring side in the position
where the claim is made (supply by `checks.supply.trace`), and the other VP from the log's
history (`VPHistory`, checks/vp_history.py: leaders and Italian steps lost, events announced, attacks made, air
markers lost). A term the log cannot settle (an event it does not show drawn, the IPL it does
not show) is a range naming what would settle it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.checks.common import GAME, REGISTRY, finding
from vlog.games.lion_of_judah.checks.vp_history import (BOMBING_MARKER, STEPS_MARKER, VPHistory, grt_marker,
                                                        with_event_markers)
from vlog.games.lion_of_judah.sequence import scenario_rules
from vlog.games.lion_of_judah.step_events import VictoryClaimed
from vlog.kit.victory import (ClaimReader, VictoryClaim, VPTally, VPTerm, held_hex_terms, judge_level, judge_total,
                              level_name)

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.board import Board
    from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["VictoryClaim", "claim_reader", "parse_victory_claim", "judge_victory_claim", "LEVEL_TABLES", "LEVEL_CHECKS",
           "VPTerm", "VPTally", "tally", "tally_1935", "tally_1940", "judge_vp_claim", "last_turn"]

LEVEL_TABLES = {"1935-36": "victory-levels-1935-36", "1940-41": "victory-levels-1940-41"}
"""The victory-level table of each scenario (PB 13.4.2, 14.4.2)."""
LEVEL_CHECKS = {"1935-36": "VC-03", "1940-41": "VC-07"}
"""The inventory item each scenario's level check reports under."""

def claim_reader(data: "GameData") -> ClaimReader:
    """VC-03, VC-07: results declared in chat, with the scenarios' sides and the levels' kinds."""
    return ClaimReader.from_data(data, LEVEL_TABLES.values())


_SHIPPED: list[ClaimReader] = []


def parse_victory_claim(text: str, reader: ClaimReader | None = None) -> VictoryClaim | None:
    """The VP total and level declared in one chat line, or None when the line has not both
    (`reader`: the game's, by default the shipped data's)."""
    if reader is None:
        if not _SHIPPED:
            from vlog.gamedata import load_game_data

            _SHIPPED.append(claim_reader(load_game_data(GAME)))
        reader = _SHIPPED[0]
    return reader.parse(text)


@REGISTRY.reports("VC-03", "VC-07")
def judge_victory_claim(data: "GameData", scenario: str | None, claim: VictoryClaim, *,
                        step: int | None, when: str | None) -> list[Finding]:
    """PROVEN when the declared level is not the one the table gives for the declared VP (or is
    not a level of this scenario); POSSIBLE when a range the answer turns on is not in the data."""
    if scenario not in LEVEL_TABLES:
        return []
    check, table_id = LEVEL_CHECKS[scenario], LEVEL_TABLES[scenario]
    verdict = judge_level(data.table(table_id), claim.vp, claim.level)
    if verdict is None:
        return []
    evidence: dict[str, object] = {"vp": claim.vp, "declared": claim.level}
    declared = f"{level_name(claim.level)} declared with {claim.vp} VP"
    if verdict.why == "no such level":
        message = f"{declared}: the {scenario} scenario has no such level ({', '.join(verdict.reading.labels)})"
        evidence["levels"] = list(verdict.reading.labels)
    elif verdict.why == "another level":
        message = (f"{declared}; {claim.vp} VP is an {level_name(str(verdict.actual))} ({scenario}, "
                   f"{'PB 13.4.2' if scenario == '1935-36' else 'PB 14.4.2'})")
        evidence["level"] = verdict.actual
    elif verdict.why == "range unknown":
        message = f"{declared}; the VP range of that level is not in the data"
    else:
        message = f"{declared}, outside its range {verdict.reading.ranges[claim.level]}"
        evidence["range"] = verdict.reading.ranges[claim.level]
    return [finding(check, verdict.ruling, step=step, when=when, message=message, evidence=evidence,
                    depends_on=list(verdict.depends_on))]


# ---------------------------------------------------------------------------------------------
# the VP tally (PB 13.4.1, 13.4.4: VC-01, VC-02; PB 14.4.1: VC-05, VC-06)

def last_turn(scenario: str) -> int:
    """The turn at whose end the scenario's VP are counted, its last (scenarios.json `turns`:
    PB 13.4.1 turn 7, PB 14.4.1 turn 11)."""
    return scenario_rules(scenario).turns


VP_HEXES = {"1935-36": "vp-hexes-1935-36", "1940-41": "vp-hexes-1940-41"}
SCORING_SIDE = {"1935-36": "italian", "1940-41": "allied"}
HEX_CHECKS = {"1935-36": "VC-01", "1940-41": "VC-05"}
OTHER_CHECKS = {"1935-36": "VC-02", "1940-41": "VC-06"}
BERBERA = "2311"
ADDIS_ABABA = "1213"
_OCCUPYING_KINDS = ("combat", "hq", "truck", "leader", "dummy")


def _occupants(state: "GameState", hex_: str, side: str) -> list["Unit"]:
    """Units of `side` in the hex that occupy it (not air or RP markers, nor other markers)."""
    return [u for u in state.at(hex_) if u.side == side and u.kind in _OCCUPYING_KINDS
            and u.unit_type != "marker" and (u.kind != "combat" or u.defense is not None)
            and not (u.kind == "dummy" and u.level == "reverse")]


def _hex_terms(board: "Board", state: "GameState", scenario: str) -> list[VPTerm]:
    """VC-01 / VC-05: each VP hex occupied by at least one supplied unit of the scoring side."""
    from vlog.games.lion_of_judah.board import hex_label
    from vlog.games.lion_of_judah.checks.supply import trace

    side = SCORING_SIDE[scenario]

    def occupants(hex_: str) -> list["Unit"]:
        units = _occupants(state, hex_, side)
        if scenario == "1940-41" and hex_ == ADDIS_ABABA:
            units = [u for u in units if u.unit_class != "guerrilla"]   # PB 14.4.1
        return units

    return held_hex_terms(board.data.table(VP_HEXES[scenario]), HEX_CHECKS[scenario],
                          "PB 13.4.1" if scenario == "1935-36" else "PB 14.4.1", occupants,
                          lambda unit: trace(board, state, unit), lambda hex_: hex_label(hex_, board))


def _steps_term(history: VPHistory, last: int) -> VPTerm:
    """13.4.4: -1 VP per two Italian steps lost (HQs one step; trucks, colonial irregulars not)."""
    lost = history.italian_steps_lost
    known = sum(int(e["steps"]) for e in lost if isinstance(e["steps"], int))
    unknown = [str(e["unit"]) for e in lost if not isinstance(e["steps"], int)]
    low_steps, high_steps = known + len(unknown), known + 4 * len(unknown)
    depends = [f"counters.json steps of {name}" for name in unknown]
    evidence: dict[str, object] = {"steps_lost": known if not unknown else [low_steps, high_steps],
                                   "losses": [dict(e) for e in lost]}
    start = history.markers_at_start.get(STEPS_MARKER, (None, None))[0]
    if not history.covers(1, last) and start is not None and not any(a < last and b > 1 for a, b in history.gaps):
        low_steps, high_steps = low_steps + start, high_steps + start
        evidence.update(marker_at_start=start, steps_lost=low_steps if low_steps == high_steps else
                        [low_steps, high_steps])
        return VPTerm("VC-02", "PB 13.4.4", f"{start} Italian steps lost before this log (the eliminated steps "
                      f"marker) and {known} in it", -(high_steps // 2), -(low_steps // 2), evidence,
                      tuple(depends))
    if not history.covers(1, last):
        depends.append("Italian steps lost in turns the log does not show (the eliminated steps marker, PB 13.4.4)")
        return VPTerm("VC-02", "PB 13.4.4", f"Italian steps lost: {known} in this log, more before it", -99,
                      -(low_steps // 2), evidence, tuple(depends))
    return VPTerm("VC-02", "PB 13.4.4", f"{known if not unknown else f'{low_steps}-{high_steps}'} Italian "
                  "steps lost", -(high_steps // 2), -(low_steps // 2), evidence, tuple(depends))


def _leader_counters(board: "Board") -> list[str]:
    data = board.data
    out = []
    for cid in data.counter_ids:
        record = data.counter(cid)
        if "type" in record and record["type"].value == "leader" and "side" in record \
                and record["side"].value == "ethiopian":
            out.append(cid)
    return out


def _counter_name(board: "Board", cid: str) -> str:
    record = board.data.counter(cid)
    return str(record["name"].value) if "name" in record and record["name"].value else cid


def _leader_terms(board: "Board", state: "GameState", history: VPHistory, last: int) -> list[VPTerm]:
    """PB 13.4.1: +1 per Ethiopian leader (not the Negus) eliminated, +2 for the Negus. Every
    leader begins on the map (PB 13.3.2) and one that dies never returns (PB 13.6.2), so a leader
    off the map at the end was eliminated."""
    on_map = {u.counter for u in state.units.values() if u.kind == "leader" and u.hex is not None}
    pieces = {u.counter for u in state.units.values() if u.kind == "leader"}
    out: list[VPTerm] = []
    for cid in _leader_counters(board):
        if cid in on_map:
            continue
        value = 2 if cid == "et-negus" else 1
        name = history.leaders_seen.get(cid) or _counter_name(board, cid)
        if cid in history.leaders_left:
            at_step, deleted = history.leaders_left[cid]
            out.append(VPTerm("VC-02", "PB 13.4.1", f"{name} eliminated", value, value,
                              {"leader": name, "step": at_step, "vp": value}))
        elif cid in history.leaders_seen or (history.covers(1, last) and cid not in pieces):
            continue     # on the map in this log (then back) or never in this game
        else:
            out.append(VPTerm("VC-02", "PB 13.4.1", f"{name} not on the map in this log", 0, value,
                              {"leader": name, "vp": value},
                              (f"whether {name} was eliminated before this log",)))
    return out


def _events_shown(history: VPHistory, first: int, last: int) -> bool:
    return all(t in history.events for t in range(first, last + 1))


def _event_turn(history: VPHistory, event: str) -> int | None:
    return next((t for t, (e, _) in sorted(history.events.items()) if e == event), None)


def _mussolini_term(history: VPHistory, last: int) -> VPTerm:
    """Event A1 (PB 13.7 events): -2 VP per attack of the four required not made that turn."""
    turn = _event_turn(history, "A1")
    if turn is not None:
        made, maybe = history.pressure.get(turn, (0, 0))
        missing = max(0, 4 - made)
        evidence = {"event": "A1", "turn": turn, "attacks": made, "missing": missing,
                    "attacks_declared": history.attacks.get(("italian", turn), 0)}
        if maybe:
            evidence["attacks_uncertain"] = maybe
        if missing == 0:
            return VPTerm("VC-02", "Event A1", f"Mussolini's Pressure on turn {turn}: 4 attacks made", 0, 0, evidence)
        why = (f"whether the fronts were connected when Event A1 was drawn on turn {turn} (PB 13.2.1: "
               "then discarded)",)
        if maybe:
            why += (f"whether {maybe} attack(s) of turn {turn} were on the Northern Front by a division or "
                    "equivalent (map or counter data vlog lacks)",)
        return VPTerm("VC-02", "Event A1", f"Mussolini's Pressure on turn {turn}: {made} of 4 attacks made "
                      "(on Northern Front hexes, each by a division or equivalent)",
                      -2 * missing, 0, evidence, why)
    unshown = [t for t in range(1, last + 1) if t not in history.events]
    if not unshown:
        return VPTerm("VC-02", "Event A1", "Mussolini's Pressure not drawn", 0, 0,
                      {"event": "A1", "events": {t: e for t, (e, _) in sorted(history.events.items())}})
    worst = max(4 - min(4, history.pressure.get(t, (0, 0))[0]) if t in history.turns_seen else 4
                for t in unshown)
    return VPTerm("VC-02", "Event A1", "Mussolini's Pressure", -2 * worst, 0,
                  {"event": "A1", "turns_without_event": unshown},
                  (f"Event A1 (Mussolini's Pressure): the log does not show the event drawn on turn"
                   f"{'s' if len(unshown) > 1 else ''} {', '.join(map(str, unshown))}",))


def _league_term(history: VPHistory, last: int, marker: "Unit | None" = None) -> VPTerm:
    """Event A4 (PB 13.6.5.1): -1 VP when its die roll is lower than the bombing attacks marker.
    Bombing and gas missions are among the Italian air markers placed on Ethiopian units; a
    marker at 0 or 1 can never lose the VP (a die roll is at least 1)."""
    turn = _event_turn(history, "A4")
    before = [m for m in history.air_on_enemies if turn is None or (m[1] is not None and m[1] < turn)]
    seen_all = history.covers(1, turn if turn is not None else last)
    evidence = {"event": "A4", "turn": turn, "possible_bombing_missions": len(before),
                "missions": [{"step": s, "marker": n, "hex": h} for s, _, n, h in before]}
    if seen_all and len(before) <= 1:
        what = "League of Nations: no VP lost (at most one bombing or gas mission before it)"
        return VPTerm("VC-02", "Event A4", what, 0, 0, evidence)
    if turn is None and _events_shown(history, 1, last):
        return VPTerm("VC-02", "Event A4", "League of Nations not drawn", 0, 0, evidence)
    if turn is not None and marker is not None:       # flipped as the reminder of the lost VP
        flipped = marker.level not in (None, "front")
        return VPTerm("VC-02", "Event A4", f"League of Nations: the bombing attacks marker "
                      f"{'flipped (1 VP lost)' if flipped else 'not flipped'}", -1 if flipped else 0,
                      -1 if flipped else 0, {**evidence, "marker_face": marker.level})
    depends = ("the Italian bombing attacks marker and the Event A4 die roll (PB 13.6.5.1)",) if turn is not None \
        else ("Event A4 (League of Nations): not shown drawn, and the bombing attacks marker (PB 13.6.5.1)",)
    return VPTerm("VC-02", "Event A4", "League of Nations", -1, 0, evidence, depends)


def _great_offensive_term(history: VPHistory) -> VPTerm:
    """PB 13.6.2.4: +2 VP per attack of the three required not made (one fewer per gassed hex)."""
    if history.great_offensive is not None:
        turn, at_step = history.great_offensive
        made = history.attacks.get(("ethiopian", turn), 0)
        gas = sum(1 for m in history.air_on_enemies if m[1] == turn)
        most, least = max(0, 3 - made), max(0, 3 - made - gas)
        evidence = {"turn": turn, "step": at_step, "attacks": made, "possible_gas_attacks": gas}
        depends = (f"which Italian air missions on turn {turn} were gas attacks (PB 13.6.5.1)",) if most != least else ()
        return VPTerm("VC-02", "PB 13.6.2.4", f"Great Offensive on turn {turn}: {made} of 3 attacks made",
                      2 * least, 2 * most, evidence, depends)
    if history.covers(2, 5):
        return VPTerm("VC-02", "PB 13.6.2.4", "no Great Offensive", 0, 0, {})
    return VPTerm("VC-02", "PB 13.6.2.4", "Great Offensive", 0, 6, {},
                  ("a Great Offensive on a turn (2-5) the log does not show",))


def _air_lost_term(history: VPHistory, side: str, last: int, check: str) -> VPTerm:
    """10.1.4: an air marker delayed on the last turn costs its owner 1 VP instead."""
    lost = [(s, n) for s, t, n, sd in history.air_deleted if t == last and sd == side]
    return VPTerm(check, "10.1.4", f"{len(lost)} air marker{'s' if len(lost) != 1 else ''} lost on turn {last}",
                  -len(lost), -len(lost), {"markers": [{"step": s, "marker": n} for s, n in lost]})


def tally_1935(board: "Board", state: "GameState", history: VPHistory) -> VPTally:
    """The Italian VP at the end of turn 7 (PB 13.4.1)."""
    last = last_turn("1935-36")
    terms = _hex_terms(board, state, "1935-36") + _leader_terms(board, state, history, last)
    terms += [_steps_term(history, last), _mussolini_term(history, last), _league_term(history, last, grt_marker(state, BOMBING_MARKER)),
              _great_offensive_term(history), _air_lost_term(history, "italian", last, "VC-02")]
    return VPTally("1935-36", tuple(terms))


def _ipl_level(board: "Board", value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        table = board.data.table("ipl-effects")
        props = table["properties"] if "properties" in table else {}
        low = props["low_max"].value if "low_max" in props else None
        high = props["high_min"].value if "high_min" in props else None
        if low is not None and value <= low:
            return "low"
        if high is not None and value >= high:
            return "high"
        if low is not None and high is not None:
            return "medium"
    return None


def _ipl_term(board: "Board", history: VPHistory, last: int) -> VPTerm:
    """PB 14.4.1: -2 VP per turn beginning at high IPL, +1 per turn beginning at low IPL, judged
    in the MAP (turn 1 has none: the scenario begins with the event phase, PB 14.1)."""
    low = high = 0
    unknown: list[int] = []
    levels: dict[int, str] = {}
    for turn in range(2, last + 1):
        level = _ipl_level(board, history.ipl_at_start.get(turn))
        if level is None:
            unknown.append(turn)
            low, high = low - 2, high + 1
            continue
        levels[turn] = level
        points = -2 if level == "high" else 1 if level == "low" else 0
        low, high = low + points, high + points
    depends = (f"the IPL at the start of turn{'s' if len(unknown) > 1 else ''} "
               f"{', '.join(map(str, unknown))} (PB 14.6.3)",) if unknown else ()
    return VPTerm("VC-06", "PB 14.4.1", "turns begun at high or low IPL", low, high,
                  {"ipl": levels, "turns_unknown": unknown}, depends)


def _negus_term(state: "GameState", history: VPHistory, last: int) -> VPTerm:
    """PB 14.4.1: -5 VP if the Negus is killed or captured (PB 14.6.4.4: killed in combat, or
    with the Gideon Force on a 1-3; on a 4-6 he escapes and may return)."""
    if any(u.counter == "et-negus" and u.hex is not None for u in state.units.values()):
        return VPTerm("VC-06", "PB 14.4.1", "the Negus on the map", 0, 0, {})
    if "et-negus" in history.leaders_left:
        at_step, deleted = history.leaders_left["et-negus"]
        if deleted:
            return VPTerm("VC-06", "PB 14.4.1", "the Negus killed or captured", -5, -5, {"step": at_step})
        return VPTerm("VC-06", "PB 14.4.1", "the Negus off the map", -5, 0, {"step": at_step},
                      ("whether the Negus was killed or escaped (PB 14.6.4.4)",))
    if "et-negus" in history.leaders_seen or history.covers(1, last):
        return VPTerm("VC-06", "PB 14.4.1", "the Negus never killed", 0, 0, {})
    return VPTerm("VC-06", "PB 14.4.1", "the Negus not on the map in this log", -5, 0, {},
                  ("whether the Negus was killed before this log",))


def _berbera_term(board: "Board", state: "GameState") -> VPTerm:
    from vlog.games.lion_of_judah.board import hex_label

    italians = _occupants(state, BERBERA, "italian")
    points = -2 if italians else 0
    return VPTerm("VC-06", "PB 14.4.1", f"{hex_label(BERBERA, board)} "
                  f"{'occupied by ' + italians[0].name if italians else 'not occupied by an Italian unit'}",
                  points, points, {"hex": BERBERA, "italian_units": [u.name for u in italians]})


def _open_city_term(state: "GameState", hexes: list[VPTerm], history: VPHistory, last: int) -> VPTerm:
    """Events D9, D10 (Open City): a hex with the marker is worth half its VP, rounded down."""
    drawn = [t for t, (e, _) in history.events.items() if e in ("D9", "D10")]
    marked = {u.hex for u in with_event_markers(state).values()
              if u.counter == "ev-open-city" and u.hex is not None}
    if marked:
        cut = [(str(t.evidence["hex"]), int(t.evidence.get("vp", 0))) for t in hexes
               if t.known and t.low > 0 and t.evidence.get("hex") in marked]
        points = -sum(v - v // 2 for _, v in cut)
        return VPTerm("VC-06", "Events D9/D10", f"Open City marker on {', '.join(sorted(marked))}", points, points,
                      {"open_city_hexes": sorted(marked), "halved": [h for h, _ in cut]})
    if not drawn and _events_shown(history, 4, last):
        return VPTerm("VC-06", "Events D9/D10", "no Open City drawn", 0, 0, {})
    held = sorted((int(t.evidence.get("vp", 0)) for t in hexes if t.high > 0), reverse=True)[:2]
    worst = -sum(v - v // 2 for v in held)
    if worst == 0:
        return VPTerm("VC-06", "Events D9/D10", "no Open City on a held hex worth more than 1", 0, 0, {})
    what = "Open City drawn" if drawn else "Open City (Events D9, D10) not shown"
    return VPTerm("VC-06", "Events D9/D10", what, worst, 0, {"turns_drawn": drawn},
                  ("which VP hexes hold an Open City marker (Events D9, D10)",))


def tally_1940(board: "Board", state: "GameState", history: VPHistory) -> VPTally:
    """The Allied VP at the end of turn 11 (PB 14.4.1)."""
    last = last_turn("1940-41")
    hexes = _hex_terms(board, state, "1940-41")
    terms = hexes + [_open_city_term(state, hexes, history, last), _negus_term(state, history, last),
                     _berbera_term(board, state), _ipl_term(board, history, last),
                     _air_lost_term(history, "allied", last, "VC-06")]
    return VPTally("1940-41", tuple(terms))


def tally(board: "Board", state: "GameState", history: VPHistory, scenario: str | None) -> VPTally | None:
    if scenario == "1935-36":
        return tally_1935(board, state, history)
    if scenario == "1940-41":
        return tally_1940(board, state, history)
    return None


@REGISTRY.reports("VC-01", "VC-02", "VC-05", "VC-06")
def judge_vp_claim(result: VPTally, claim: VictoryClaim, *, step: int | None, when: str | None) -> list[Finding]:
    """VC-01/VC-02 (1935-36), VC-05/VC-06 (1940-41): the declared VP total against the tally.
    PROVEN when no reading of the log gives the declared total (reported under VC-02/VC-06 when
    the declared total is what the VP hexes alone give, so the other VP are what is wrong, else
    under VC-01/VC-05); POSSIBLE, under the item of the first open term, when the total is one
    the open terms allow but not the only one."""
    verdict = judge_total(result, claim.vp)
    if verdict is None:
        return []
    low, high, scenario = result.low, result.high, result.scenario
    side = "Italian" if scenario == "1935-36" else "Allied"
    total = f"{low} VP" if low == high else f"between {low} and {high} VP"
    message = (f"{side} {claim.vp} VP declared; the tally at the end of turn {last_turn(scenario)} is {total} "
               f"({result.listing('no VP hex held, nothing else scored')})")
    evidence: dict[str, object] = {"vp": claim.vp, "tally": low if low == high else [low, high],
                                   "terms": [t.as_evidence() for t in result.terms]}
    if verdict.ruling is Ruling.PROVEN:
        hex_low, hex_high = result.points_of(HEX_CHECKS[scenario])
        check = OTHER_CHECKS[scenario] if hex_low == hex_high == claim.vp else HEX_CHECKS[scenario]
    else:
        check = result.open_terms[0].check
    return [finding(check, verdict.ruling, step=step, when=when, message=message, evidence=evidence,
                    depends_on=list(verdict.depends_on))]


@REGISTRY.check("VC-03", event=VictoryClaimed)
def judge_claim(game: Any, action: VictoryClaimed, view: Any) -> list[Finding]:
    """A result announced in chat (VC-03, VC-07: the level; VC-01, VC-02, VC-05, VC-06: the
    total). Announcing the result is not play (no VC-04/VC-08)."""
    return judge_victory_claim(game.data, game.scenario, action.claim, step=action.step,
                               when=action.when) + _claimed_total(game, action)


def _claimed_total(game: Any, action: VictoryClaimed) -> list[Finding]:
    """VC-01/VC-02, VC-05/VC-06: a total declared at the end of the last turn (or when the
    turn is not known) against the tally; none after a sudden death (VC-04, VC-08)."""
    state, turn = action.state, action.turn
    if state is None or game.scenario not in SCORING_SIDE or game.sudden_death.at is not None:
        return []
    if turn is not None and turn < last_turn(game.scenario):
        return []
    state.scenario = game.scenario
    result = tally(game.board, state, game.vp_history, game.scenario)
    if result is None:
        return []
    return judge_vp_claim(result, action.claim, step=action.step, when=action.when)
