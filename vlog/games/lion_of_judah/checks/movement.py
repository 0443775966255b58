"""Movement (rules 10.2, 11): could the unit have gone from where it was to where it is?

A move of one drag shows a unit's start and end hexes, not its path: it is legal when some path
within the rules reaches the end hex (engine/movement `check_move`). A move the log shows drag by
drag is judged along those hexes (11.1: units move hex by hex, paying for each hex entered;
`follow_route`), each forced-march roll the roll of the drag it was logged before (11.5.3), the
undo of a drag taking it off the route; it is PROVEN wrong when no route fits either or its drags
never go back, else POSSIBLE, naming the drags back (they may have been corrections). A move made
illegal by a prohibition is reported under it, with the hex: enemy units (MV-06), prohibited
terrain, hexsides and areas not in play (MV-07), forced march into desert or amba (MV-24), another
tribal faction's hex passed through (MV-42), guerrilla limits (MV-43). The hooks here give the
rules' costs:

* 11.1/11.4: the TEC cost of the hex entered for the unit's class (foot or motorized) plus the
  hexside cost (river +1 for foot units); towns and ambas use the hex's other terrain
  (errata 11.4.3), ambas are mountains (11.4.1); prohibited terrain (desert) may not be entered;
* 11.4.2: along contiguous rail/road 1 MP per hex (motorized units 1/2 per road hex), hexside
  costs still paid; dirt tracks give no benefit;
* 11.2/11.6: never into a hex with enemy units unless all are defenseless (+1 MP unless only
  RPs and trucks); PB 14.6.4.1: (40) guerrillas and Italian-controlled units may share a hex, so
  neither blocks the other's move into or through it (`blocks_entry`);
  PB 13.1.1: (35) only Eritrea, Ethiopia and Italian Somaliland are in play;
* 11.2: a minimum move of one hex; 11.5: forced march up to double the MF, one logged roll per
  hex beyond the MF, never into desert or amba hexes, only for European units and Eritrean
  colonial regulars, never HQs nor units that began the segment out of supply;
* PB 14.6.5: (40) a dummy on its front side has 4 foot MPs and may not force march;
* 10.1.5 (MV-18): a unit under an enemy air marker at the start of its movement segment has its
  MF reduced by two for the segment (the rule's -2, not the index's "1/2 MPs", inventory A-02);
  (35) an Italian marker there may instead have flown a gas attack (PB 13.6.5.1), which the log
  does not tell, so the reduction is then only possible; PB 13.6.5.1 (MV-19): (35) each Gassed
  marker interdicts one unit of its hex (which one is not logged: the units that moved on their
  full MF are counted against the hex's ungassed ones); PB 14.6.4.1 (MV-20): (40) each guerrilla
  in a hex interdicts one Italian-controlled unit there, the Italian player's choice
  (checks/movement_segment.py counts the units that moved on their full MF against the hex's uninterdicted ones);
* PB 14.6.2.2 (MV-22): (40) turns 2-4 double every hex and hexside cost, roads and rail too, in
  hexes outside Eritrea, the Ogaden and the three Somalilands (the rule's doubled costs, not the
  Extended SoP's "1/2 MPs", inventory A-03);
* PB 14.6.4.1, 14.6.1.3 (MV-43): (40) guerrillas never leave Ethiopia and never pass through a hex
  holding guerrillas of another tribal faction;
* PB 13.6.7.3 (MV-27): (35) European units and Eritrean colonial regulars entering only contiguous
  Tug hexes (the map.json tug lines) may move twice their MF without forced-march rolls (a move
  that fits no such reading stays an MV-03/MV-23 finding);
* PB 13.6.7.2 (MV-40, optional): (35) a move that only the Danakil crossing (an air-supplied
  colonial irregular along the desert's dirt track, 1 MP a desert hex) explains is possible only;
* PB 13.6.7.4 (MV-41, optional): (35) the first Italian unit into an Ethiopian town or capital is
  not an Eritrean colonial nor a colonial irregular (possible only: the option is not logged);
* 11.8 (MV-38, MV-39): in the MAP a unit taken from the map onto the turn track (a General
  Records Track box) moves by sea: only the side the scenario allows, from the coastal town or
  capital hex it began the MAP in, arriving on the next turn; one division or equivalent a MAP;
* a move beyond the allowance that only a reduction above (interdiction, rain, a faction's
  hexes) makes too long is reported under that reduction's check, with both allowances;
* 9.3: a unit out of supply at the start of the segment has half its MF (0.5 rounds up, 2.7);
* 10.2, 10.2.1: an HQ on its CS side may not move; a moving HQ shows M; it moves one hex, or
  its full M-side MF along a continuous route of dirt-track, rail or road hexes, or by truck
  (+1 MP per truck beyond the first).

Unknown terrain, hexsides, lines and factors make the verdict POSSIBLE, naming them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import MoveCheck, MovementRules, MovesFrom, best_of, check_move, follow_route
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import FOOT_MIN_COST, MOTORIZED_MIN_COST, Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding, plain_number as _num
from vlog.games.lion_of_judah.checks.movement_costs import (IN_PLAY_1935, RAINY_TURNS, _is_motorized, _tribal,
                                                            blocks_entry, is_guerrilla, movement_rules,
                                                            other_faction, rainy_season)
from vlog.games.lion_of_judah.checks.movement_facts import (CORRECTIONS, DUMMY_FRONT, FORCED_MARCH_TABLE,
                                                            INTERDICTION_MF, Interdiction, MoveFacts,
                                                            allowance_of, facts_allowance,
                                                            forced_march_surcharge, may_force_march)
from vlog.games.lion_of_judah.checks.movement_hq import judge_hq_route
from vlog.games.lion_of_judah.checks.supply import AIR_SUPPLIED
from vlog.games.lion_of_judah.state import GameState, Unit
from vlog.kit.movement import tec_cost
from vlog.kit.routes import (along, best_walk, cheapest, classes, corrections, leg_surcharges, prohibited_into,
                             route_evidence)

__all__ = [
    "INTERDICTION_MF",
    "IN_PLAY_1935",
    "RAINY_TURNS",
    "Interdiction",
    "MoveFacts",
    "allowance_of",
    "blocks_entry",
    "forced_march_surcharge",
    "judge_move",
    "may_force_march",
    "motorized_route",
    "movement_rules",
    "rainy_season",
    "within_allowance",
]

FRIENDLY_COUNTRIES = {
    ("1935-36", "italian"): ("eritrea", "italian-somaliland"),       # PB 13.1.2
    ("1935-36", "ethiopian"): ("ethiopia",),                         # PB 13.1.2
    ("1940-41", "italian"): ("eritrea", "italian-somaliland"),       # PB 14.1.2
    ("1940-41", "allied"): ("sudan", "kenya", "british-somaliland"),  # PB 14.1.2
}
"""11.5.3 ambush: a side's home country or colonial metropolises (PB 13.1.2, 14.1.2: in 1940-41
Ethiopia is friendly to neither side)."""
BEYOND_ALLOWANCE = frozenset({"MV-03", "MV-23", "MV-24", "MV-45"})
"""Checks whose findings say a move went beyond the unit's allowance."""



# ---------------------------------------------------------------------------------------------
# the judgement


def _route_evidence(check: MoveCheck[str] | None, board: Board) -> dict[str, Any]:
    return route_evidence(check, lambda h: hex_label(h, board))


def _cheapest(rules: MovementRules[str], start: str, goal: str, allowance: Any) -> MoveCheck[str]:
    """The cheapest route ignoring the allowance, within a bound (for evidence)."""
    return cheapest(rules, start, goal, allowance)


def motorized_route(board: Board, state: GameState, unit: Unit, start: str, goal: str, allowance: Any, *,
                    scenario: str | None) -> tuple[MoveCheck[str], dict[str, Any]]:
    """Whether a motorized route from `start` to `goal` fits `allowance`, and the cheapest
    route as evidence: for what a truck carries over part of its move (MV-32, MV-33)."""
    rules = movement_rules(board, state, unit, motorized=True, scenario=scenario)
    cheapest = _cheapest(rules, start, goal, allowance)
    evidence = {"cheapest_cost": _num(cheapest.route.cost) if cheapest.route is not None else None,
                **{f"cheapest_{k}": v for k, v in _route_evidence(cheapest, board).items() if k != "route_cost"}}
    return check_move(rules, start, goal, allowance), evidence


@REGISTRY.reports("MV-03", "MV-06", "MV-07", "MV-22", "MV-23", "MV-24", "MV-28", "MV-40", "MV-42", "MV-43",
                 "MV-45")
def judge_move(board: Board, state: GameState, facts: MoveFacts, *, step: int | None,
               when: str | None) -> list[Finding]:
    """Findings about one unit's move (empty when some legal reading explains it).

    A move beyond the allowance that would be legal without the interdiction (10.1.5,
    PB 14.6.4.1) or the rain (PB 14.6.2.2) is reported under that rule (MV-22; MV-18, MV-19, MV-20
    under the check the interdiction carries, registered where it is found: movement_segment.py)."""
    found = _judge_move(board, state, facts, step=step, when=when)
    over = [f for f in found if short_check(f) in BEYOND_ALLOWANCE]
    if not over:
        return found
    rest = [f for f in found if f not in over]
    tug = _tug_move(board, state, facts)
    if tug is not None and tug.ruling is Ruling.LEGAL:
        return rest                                    # PB 13.6.7.3 (MV-27)
    danakil = _danakil_move(board, state, facts)
    if danakil is not None and danakil.ruling is Ruling.LEGAL:        # PB 13.6.7.2 (MV-40)
        unit = facts.unit
        return rest + [finding(
            "MV-40", Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
            message=f"{unit.name} moved from {hex_label(facts.start, board)} to {hex_label(facts.goal, board)} "
                    "through the Danakil desert along its dirt track: legal only with the optional "
                    "Danakil desert rule (one air-supplied colonial irregular a turn)",
            evidence={**{k: v for k, v in over[0].evidence.items() if k != "depends_on"},
                      **_route_evidence(danakil, board)},
            depends_on={OPTIONAL_DANAKIL})]
    if facts.interdiction is not None:
        dry = _judge_move(board, state, replace(facts, interdiction=None), step=step, when=when)
        if not any(short_check(f) in BEYOND_ALLOWANCE for f in dry):
            return rest + [_blame_interdiction(board, facts, over[0], step=step, when=when)]
    if facts.rainy:
        dry = _judge_move(board, state, replace(facts, rainy=False), step=step, when=when)
        if not any(short_check(f) in BEYOND_ALLOWANCE for f in dry):
            return rest + [_blame_rain(board, facts, over[0], step=step, when=when)]
    return found


def short_check(f: Finding) -> str:
    return f.check.split("/", 1)[1]


OPTIONAL_DANAKIL = "whether the optional rule The Danakil desert (PB 13.6.7.2) is played"
DANAKIL_TRACK = "track-danakil"


def _danakil_move(board: Board, state: GameState, facts: MoveFacts) -> MoveCheck[str] | None:
    """MV-40 (PB 13.6.7.2, optional): (35) an air-supplied Italian colonial irregular may cross
    desert hexes along the Danakil dirt track at 1 MP each (never ending in one: MV-07 says so).
    None when the rule cannot apply; else the search that allows it."""
    unit = facts.unit
    if facts.scenario != "1935-36" or unit.unit_class != "italian-colonial-irregular" \
            or unit.id not in state.flags.get(AIR_SUPPLIED, ()) or board.terrain(facts.goal) == "desert":
        return None
    allowance, _ = facts_allowance(facts)
    if isinstance(allowance, Unknown):
        return None
    rules = movement_rules(board, state, unit, motorized=False, scenario=facts.scenario, goal=facts.goal)
    plain_line, side = rules.line_cost, rules.hexside_cost

    def line(a: str, b: str) -> Any:
        if board.terrain(b) == "desert" and DANAKIL_TRACK in board.line_ids(a, b):
            extra = side(a, b) if side is not None else 0
            return None if extra is None else 1 + extra
        return plain_line(a, b) if plain_line is not None else None

    rules.line_cost = line
    return along(rules, facts.path, facts.start, facts.goal, allowance)                       # along the logged route (11.1)


TUG_CLASSES = ("eritrean-colonial-regular",)
"""PB 13.6.7.3: European units and Italian Eritrean colonial regulars follow the river beds."""


def _tug_move(board: Board, state: GameState, facts: MoveFacts) -> MoveCheck[str] | None:
    """MV-27 (PB 13.6.7.3): (35) a European unit or Eritrean colonial regular that enters only
    contiguous Tug hexes (the Jubba and Wabi Shebeli beds, the tug lines of map.json) may double
    its MF without forced-march rolls. None when the rule does not apply to the unit; else the
    search along the beds (terrain and hexside costs as usual) within twice the allowance."""
    unit = facts.unit
    if facts.scenario != "1935-36" or unit.kind != "combat" or not (
            unit.european or unit.unit_class in TUG_CLASSES):
        return None
    allowance, _ = facts_allowance(facts)
    if isinstance(allowance, Unknown):
        return None
    motorized = _is_motorized(unit)
    found = []
    for mot in ([True, False] if isinstance(motorized, Unknown) else [bool(motorized)]):
        rules = movement_rules(board, state, unit, motorized=mot, scenario=facts.scenario, goal=facts.goal,
                               minimum_move=False)
        terrain, side = rules.enter_cost, rules.hexside_cost

        def along_bed(a: str, b: str, terrain=terrain, side=side, mot=mot) -> Any:
            kinds = board.line_kinds(a, b)
            if isinstance(kinds, Unknown):
                return Unknown(*kinds.data, at_least=MOTORIZED_MIN_COST if mot else FOOT_MIN_COST)
            if "tug" not in kinds:
                return None
            cost, extra = terrain(b), side(a, b) if side is not None else 0
            return None if cost is None or extra is None else cost + extra

        bed = MovementRules(neighbours=rules.neighbours, enter_cost=lambda h: None, line_cost=along_bed,
                            may_enter=rules.may_enter, minimum_move=False)
        found.append(along(bed, facts.path, facts.start, facts.goal, 2 * allowance))          # along the logged route (11.1)
    return best_of(*found)


def _blame_interdiction(board: Board, facts: MoveFacts, over: Finding, *, step: int | None,
                        when: str | None) -> Finding:
    """MV-18/MV-20: the move needed more than the interdicted allowance, no more than the MF."""
    unit, why = facts.unit, facts.interdiction
    assert why is not None
    full, _ = facts_allowance(facts, interdicted=False)
    data = set(over.evidence.get("depends_on", ()))       # type: ignore[arg-type]
    if isinstance(why.certain, Unknown):
        data |= why.certain.data
    ruling = Ruling.PROVEN if over.basis.value == "proven" and not data else Ruling.POSSIBLE
    evidence = {k: v for k, v in over.evidence.items() if k != "depends_on"}
    evidence.update({"allowance_without_interdiction": _num(full), "interdicted_by": why.source})
    where = f"{hex_label(facts.start, board)} to {hex_label(facts.goal, board)}"
    return finding(why.check, ruling, step=step, when=when, subjects=(unit.name,),
                   message=f"{unit.name} moved from {where}, beyond the {evidence.get('allowance')} MPs "
                           f"left it by {why.source} (10.1.5: -{INTERDICTION_MF} MF for the segment); "
                           f"only its uninterdicted {_num(full)} MPs reach the hex",
                   evidence=evidence, depends_on=data)


def _blame_rain(board: Board, facts: MoveFacts, over: Finding, *, step: int | None,
                when: str | None) -> Finding:
    """MV-22: the move fits the allowance at dry costs, not at the rainy season's doubled ones."""
    unit = facts.unit
    data = set(over.evidence.get("depends_on", ()))       # type: ignore[arg-type]
    ruling = Ruling.PROVEN if over.basis.value == "proven" else Ruling.POSSIBLE
    evidence = {k: v for k, v in over.evidence.items() if k != "depends_on"}
    evidence.update({"turn": facts.turn, "rainy_season": True})
    where = f"{hex_label(facts.start, board)} to {hex_label(facts.goal, board)}"
    return finding("MV-22", ruling, step=step, when=when, subjects=(unit.name,),
                   message=f"{unit.name} moved from {where} on turn {facts.turn}, in the rainy season: "
                           f"at doubled hex and hexside costs no path fits its {evidence.get('allowance')} "
                           "MPs (PB 14.6.2.2: outside Eritrea, the Ogaden and the Somalilands)",
                   evidence=evidence, depends_on=data)




def _judge_move(board: Board, state: GameState, facts: MoveFacts, *, step: int | None,
                when: str | None) -> list[Finding]:
    """11.1: units move hex by hex, paying for each hex entered, so a move the log shows drag by
    drag is judged along that route (`_judge_walk`); one drag is judged on its start and end
    hexes (`_judge_search`). An HQ's move (10.2.1) and the Tug (MV-27) and Danakil (MV-40)
    exceptions are searched, and held to the logged route when it is shown hop by hop (`along`). A logged route that fails while some
    other route fits is PROVEN when its drags never go back to a hex it was in, and POSSIBLE,
    naming the drags back, when they do (they may have been corrections); when no route fits
    either, the search's finding stands."""
    searched = _judge_search(board, state, facts, step=step, when=when)
    if len(facts.path) < 3 or facts.unit.kind == "hq":
        return searched
    if searched:
        walked = _judge_walk(board, state, facts, step=step, when=when)
        return searched if walked else []
    return _judge_walk(board, state, facts, step=step, when=when, reading=corrections(facts.path, CORRECTIONS))


def within_allowance(board: Board, state: GameState, unit: Unit, path: tuple[str, ...], *,
                     oos: bool | Unknown, scenario: str | None, turn: int | None, rainy: bool) -> bool:
    """True when the route the log shows (`path`, hop by hop) certainly fits the least allowance
    the unit may have (interdicted, 10.1.5; not motorized): its last drag was then no forced
    march, and a roll logged before it is no forced-march roll (11.5.1, 11.5.3: the march is
    declared when the unit first tries to spend more MPs than it has)."""
    if len(path) < 2 or any(b not in board.neighbours(a) for a, b in zip(path, path[1:]) if a != b):
        return False
    least, _ = allowance_of(unit, oos, scenario=scenario, turn=turn,
                            interdiction=Interdiction("MV-18", "the least allowance"))
    if isinstance(least, Unknown):
        return False
    motorized = _is_motorized(unit)
    for mot in ([True, False] if isinstance(motorized, Unknown) else [bool(motorized)]):
        rules = movement_rules(board, state, unit, motorized=mot, scenario=scenario, minimum_move=False,
                               rainy=rainy, goal=path[-1])
        if follow_route(rules, path, least).ruling is not Ruling.LEGAL:
            return False
    return True


def _hop_prohibition(board: Board, state: GameState, unit: Unit, frm: str, to: str, *,
                     scenario: str | None, end: bool) -> tuple[str, str]:
    """Which prohibition keeps `unit` from the hop `frm` -> `to` (`end`: the route ends there):
    the check that reports it and why."""
    here = state.at(to)
    enemies = [u.name for u in here if blocks_entry(unit, u)]
    if enemies:
        return "MV-06", f"{hex_label(to, board)} holds enemy units ({', '.join(enemies)}) (11.2)"
    others = other_faction(unit, here, scenario) if not end else []
    if others:
        return "MV-42", (f"it passes through {hex_label(to, board)}, a hex of another tribal faction "
                         f"({', '.join(others)}) (PB 13.6.1)")
    if is_guerrilla(unit, scenario):
        rivals = sorted({u.faction or "?" for u in here if is_guerrilla(u, scenario)
                         and u.faction != unit.faction}) if not end else []
        if rivals:
            return "MV-43", (f"it passes through {hex_label(to, board)}, a hex of another faction's "
                             f"guerrillas ({', '.join(rivals)}) (PB 14.6.4.1)")
        if board.in_zone(to, "ethiopia") is False:
            return "MV-43", f"{hex_label(to, board)} is outside Ethiopia, which guerrillas never leave (PB 14.6.1.3)"
    prohibited = _prohibited(board, to, unit, scenario)
    if prohibited is not None and prohibited[0] is Ruling.PROVEN:
        return "MV-07", prohibited[1]
    for feature, what in (("all-sea", "an all-sea hexside"), ("impassable", "an impassable hexside")):
        if board.hexside_has(frm, to, feature) is True:
            return "MV-07", f"the hexside {frm}/{to} is {what} (11.2)"
    return "MV-03", f"{hex_label(to, board)} may not be entered from {hex_label(frm, board)}"


def _judge_walk(board: Board, state: GameState, facts: MoveFacts, *, step: int | None,
                when: str | None, reading: str | None = None) -> list[Finding]:
    """The move judged along the hexes the log shows (`facts.path`), a forced-march roll being
    the roll of the drag it was logged before (11.5.3); `reading`: what would make the route's
    failure no mistake (its findings are then POSSIBLE, naming it)."""
    unit, path = facts.unit, facts.path

    def failing(check: str, message: str, evidence: dict[str, Any]) -> list[Finding]:
        if reading is None:
            return [finding(check, Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                            message=message, evidence=evidence)]
        return [finding(check, Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                        message=f"{message}; a cheaper route fits only if the drags back were corrections",
                        evidence=evidence, depends_on={reading})]

    allowance, notes = facts_allowance(facts)
    if isinstance(allowance, Unknown):
        return []
    candidates = classes(_is_motorized(unit))
    eligible, why_not = may_force_march(unit, facts.out_of_supply_at_start)
    leg_rolls = tuple(facts.path_rolls) + ((),) * (len(path) - 1 - len(facts.path_rolls))
    marches: list[tuple[Any, ...]] | None = None
    surcharge_data: set[str] = set()
    if eligible:
        marches, surcharge_data = leg_surcharges(board.data, FORCED_MARCH_TABLE, leg_rolls)
    walks = []
    for mot in candidates:
        rules = movement_rules(board, state, unit, motorized=mot, scenario=facts.scenario,
                               minimum_move=False, rainy=facts.rainy, goal=facts.goal)
        if eligible:
            rules.forced_march = allowance
            rules.forced_march_into = _fm_into(board)
        walks.append((mot, follow_route(rules, path, allowance, marches)))
    legal = [w for _, w in walks if w.ruling is Ruling.LEGAL]
    if legal:
        fm_hexes = legal[0].check.route.forced_march_hexes if legal[0].check.route else 0
        if not (surcharge_data and fm_hexes):
            return []
    mot, walk = best_walk(walks)
    route = walk.check.route
    where = f"{hex_label(facts.start, board)} to {hex_label(facts.goal, board)}"
    logged = " -> ".join(hex_label(h, board) for h in path)
    evidence: dict[str, Any] = {
        "from": facts.start, "to": facts.goal, "movement_factor": _num(unit.movement),
        "allowance": _num(allowance), "adjustments": notes,
        "motorized": mot if len(candidates) == 1 else None,
        "logged_route": list(path), "logged_rolls": [list(r) for r in leg_rolls],
        "logged_cost": _num(walk.spent),
        "route_explained": route.explain(lambda h: hex_label(h, board)) if route is not None else None,
    }
    if walk.ruling is not Ruling.PROVEN:
        data = set(walk.check.verdict.depends_on) | surcharge_data
        return [finding("MV-23" if eligible and walk.check.route and walk.check.route.forced_march_hexes else "MV-03",
                        Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} moved from {where} along {logged}: the route fits its "
                                f"{_num(allowance)} MPs only on data the game lacks",
                        evidence=evidence, depends_on=data)]
    i = walk.failed_at or 0
    frm, to = path[i], path[i + 1]
    hop = f"the drag from {hex_label(frm, board)} into {hex_label(to, board)}"
    evidence.update({"failed_hop": [frm, to]})
    if walk.failure == "entry":
        check, why = _hop_prohibition(board, state, unit, frm, to, scenario=facts.scenario,
                                      end=i + 2 == len(path))
        evidence["prohibition"] = why
        return failing(check, f"{unit.name} moved from {where} along {logged}: {hop} is prohibited: {why}",
                        evidence=evidence)
    if walk.failure == "forced march into":
        what = _fm_terrain(board, to)
        return failing("MV-24", f"{unit.name} moved from {where} along {logged}: {hop} is a forced march "
                                f"(beyond its {_num(allowance)} MPs) into {what}, where no unit may "
                                "force march (11.5.2)",
                        evidence={**evidence, "hex": to, "terrain": what})
    if walk.failure == "leg":
        named = _leg_prohibition(board, state, facts, candidates, allowance, marches, eligible, i)
        if named is not None:
            check, why, barred = named
            evidence.update({"prohibition": why, "hexes": barred})
            return failing(check, f"{unit.name} moved from {where} along {logged}: the drag from "
                                  f"{hex_label(frm, board)} to {hex_label(to, board)} {why}", evidence=evidence)
    rolls = [r for leg in leg_rolls for r in leg]
    if walk.failure == "forced march roll":
        elsewhere = [f"{r} before the drag into {hex_label(path[j + 1], board)}"
                     for j, leg in enumerate(leg_rolls) for r in leg]
        return failing("MV-23", f"{unit.name} moved from {where} along {logged}: {hop} goes beyond its "
                                f"{_num(allowance)} MPs with no forced-march roll logged before it"
                                + (f" (roll(s) logged: {'; '.join(elsewhere)})" if elsewhere else ""),
                        evidence={**evidence, "forced_march_rolls": rolls})
    over = f"{hop} brings the route's cost beyond its {_num(allowance)} MPs"
    if not eligible:
        dummy = unit.kind == "dummy" and unit.level == DUMMY_FRONT
        if rolls or dummy:
            return failing("MV-45" if dummy else "MV-24", f"{unit.name} moved from {where} along {logged}: {over}: {why_not}",
                            evidence={**evidence, "forced_march_rolls": rolls})
        return failing("MV-03", f"{unit.name} moved from {where} along {logged}: {over}", evidence=evidence)
    return failing("MV-23", f"{unit.name} moved from {where} along {logged}: {over}, forced march "
                            f"(twice its MPs, the logged rolls' extra MPs) included",
                    evidence={**evidence, "forced_march_rolls": rolls})


def _leg_prohibition(board: Board, state: GameState, facts: MoveFacts, candidates: list[bool], allowance: Any,
                     marches: list[tuple[Any, ...]] | None, eligible: bool, i: int
                     ) -> tuple[str, str, list[str]] | None:
    """The prohibition that alone makes the logged route's drag `i` (to a hex not adjacent, a leg
    searched) fail, as for one drag (`_blocked_by`): the hex it ends in is one the unit may not
    enter there (enemy units, MV-06; another faction's hex passed through, MV-42/MV-43; terrain
    or areas, MV-07), or the route fits only with a prohibition left out, every path of the leg
    passing where it forbids. The check, why (completing "the drag from A to B ...") and the
    hexes; None when no prohibition explains the failure."""
    unit, path, scenario = facts.unit, facts.path, facts.scenario
    frm, to = path[i], path[i + 1]
    check, why = _hop_prohibition(board, state, unit, frm, to, scenario=scenario, end=i + 2 == len(path))
    if check != "MV-03":
        return check, f"is prohibited: {why}", [to]
    guerrilla = is_guerrilla(unit, scenario)
    relaxations = [("enemies", "MV-06")] + ([("areas", "MV-07")] if scenario == "1935-36" else [])
    if guerrilla or _tribal(unit, scenario) is not None:
        relaxations.append(("tribal", "MV-43" if guerrilla else "MV-42"))
    for relax, check in relaxations:
        for mot in candidates:
            rules = movement_rules(board, state, unit, motorized=mot, scenario=scenario, minimum_move=False,
                                   rainy=facts.rainy, goal=facts.goal, tribal=relax != "tribal",
                                   relax=frozenset({relax}) - {"tribal"})
            if eligible:
                rules.forced_march = allowance
                rules.forced_march_into = _fm_into(board)
            walk = follow_route(rules, path, allowance, marches)
            if walk.ruling is Ruling.PROVEN or walk.check.route is None:
                continue
            passed = [st.to for st in walk.check.route.steps if st.to != facts.goal]
            if relax == "enemies":
                barred = [h for h in passed if any(blocks_entry(unit, u) for u in state.at(h))]
                what = "holding enemy units (11.2)"
            elif relax == "areas":
                barred = [h for h in passed if not any(board.in_zone(h, z) is True for z in IN_PLAY_1935)]
                what = "not in play in 1935-36 (PB 13.1.1)"
            elif guerrilla:
                barred = [h for h in passed if board.in_zone(h, "ethiopia") is False or any(
                    is_guerrilla(u, scenario) and u.faction != unit.faction for u in state.at(h))]
                what = "outside Ethiopia or holding another faction's guerrillas (PB 14.6.4.1, 14.6.1.3)"
            else:
                barred = [h for h in passed if other_faction(unit, state.at(h), scenario)]
                what = "hexes of another tribal faction (PB 13.6.1)"
            if barred:
                named = ", ".join(hex_label(h, board) for h in dict.fromkeys(barred))
                return check, (f"fits its {_num(allowance)} MPs" + (" (forced march included)" if eligible else "")
                               + f" only through {named}, {what}"), list(dict.fromkeys(barred))
    return None


def _judge_search(board: Board, state: GameState, facts: MoveFacts, *, step: int | None,
                  when: str | None) -> list[Finding]:
    """The move judged from its start and end hexes alone: some path within the rules."""
    unit, start, goal = facts.unit, facts.start, facts.goal
    out: list[Finding] = []
    subjects = (unit.name,)
    where = f"{hex_label(start, board)} to {hex_label(goal, board)}"

    # 11.2: never into enemy units (defenseless ones excepted, 11.6; guerrillas and
    # Italian-controlled units share hexes, PB 14.6.4.1)
    enemies = [u for u in state.at(goal) if blocks_entry(unit, u)]
    if enemies:
        names = ", ".join(u.name for u in enemies)
        out.append(finding("MV-06", Ruling.PROVEN, step=step, when=when, subjects=subjects,
                           message=f"{unit.name} moved from {where}, a hex holding enemy units ({names})",
                           evidence={"hex": goal, "enemy_units": [u.name for u in enemies]}))
        return out

    # 11.2, 11.4, PB 13.1.1: prohibited terrain, areas not in play
    prohibited = _prohibited(board, goal, unit, facts.scenario)
    if prohibited is not None:
        ruling, why, data = prohibited
        out.append(finding("MV-07", ruling, step=step, when=when, subjects=subjects,
                           message=f"{unit.name} moved from {where}: {why}",
                           evidence={"hex": goal, "terrain": _num(board.terrain(goal))},
                           depends_on=data))
        if ruling is Ruling.PROVEN:
            return out

    # PB 14.6.4.1, 14.6.1.3: (40) guerrillas end every move in Ethiopia and never leave it
    if is_guerrilla(unit, facts.scenario):
        inside = board.in_zone(goal, "ethiopia")
        if inside is not True:
            ruling = Ruling.PROVEN if inside is False else Ruling.POSSIBLE
            out.append(finding("MV-43", ruling, step=step, when=when, subjects=subjects,
                               message=f"guerrilla {unit.name} moved from {where}, outside Ethiopia: "
                                       "guerrillas may not leave Ethiopia (PB 14.6.1.3, 14.6.4.1)",
                               evidence={"from": start, "to": goal, "in_ethiopia": False},
                               depends_on=() if inside is False else inside.data))
            return out

    # 10.2: HQs on CS may not move; a moved HQ shows its M side
    if unit.kind == "hq":
        shown = facts.after_level if facts.after_level is not None else unit.level
        if shown is not None and shown != "m":
            out.append(finding("MV-28", Ruling.PROVEN, step=step, when=when, subjects=subjects,
                               message=f"HQ {unit.name} moved from {where} but shows its "
                                       f"{shown.upper()} side; a moving HQ must be flipped to M",
                               evidence={"side_shown": shown, "required": "m"}))
        return out + judge_hq_route(board, state, facts, step=step, when=when)

    candidates = classes(_is_motorized(unit))
    allowance, notes = facts_allowance(facts)
    if isinstance(allowance, Unknown):
        return out   # no factor to compare against: nothing can be judged about the cost
    plain = best_of(*(plain_check(board, state, unit, start, goal, allowance, motorized=mot,
                                  scenario=facts.scenario, rainy=facts.rainy) for mot in candidates))
    if plain.ruling is Ruling.LEGAL:
        return out
    if _tribal(unit, facts.scenario) is not None:
        free = best_of(*(check_move(movement_rules(board, state, unit, motorized=mot,
                                                   scenario=facts.scenario, tribal=False,
                                                   rainy=facts.rainy),
                                    start, goal, allowance) for mot in candidates))
        if free.ruling is Ruling.LEGAL:
            others = sorted({u.faction or "?" for u in state.units.values()
                             if u.side == "ethiopian" and u.hex in (free.route.hexes[1:-1] if free.route else ())
                             and _tribal(u, facts.scenario) not in (None, _tribal(unit, facts.scenario))})
            out.append(finding("MV-42", plain.ruling, step=step, when=when, subjects=subjects,
                               message=f"{unit.name} moved from {where}: every path within its "
                                       f"{_num(allowance)} MPs passes through hexes of another tribal "
                                       f"faction ({', '.join(others)})",
                               evidence={"from": start, "to": goal, "allowance": _num(allowance),
                                         "faction": unit.faction, "other_factions": others,
                                         **_route_evidence(free, board)},
                               depends_on=plain.verdict.depends_on))
            return out
    if is_guerrilla(unit, facts.scenario):
        free = best_of(*(check_move(movement_rules(board, state, unit, motorized=mot,
                                                   scenario=facts.scenario, tribal=False,
                                                   rainy=facts.rainy),
                                    start, goal, allowance) for mot in candidates))
        if free.ruling is Ruling.LEGAL:
            route = free.route.hexes if free.route else ()
            others = sorted({u.faction or "?" for u in state.units.values() if u.hex in route[1:-1]
                             and is_guerrilla(u, facts.scenario) and u.faction != unit.faction})
            outside = [h for h in route[1:] if board.in_zone(h, "ethiopia") is False]
            why = [f"hexes of another faction's guerrillas ({', '.join(others)})"] if others else []
            why += [f"hexes outside Ethiopia ({', '.join(outside)})"] if outside else []
            out.append(finding("MV-43", plain.ruling, step=step, when=when, subjects=subjects,
                               message=f"guerrilla {unit.name} moved from {where}: every path within its "
                                       f"{_num(allowance)} MPs passes through "
                                       f"{' or '.join(why) or 'hexes guerrillas may not enter'} "
                                       "(PB 14.6.4.1)",
                               evidence={"from": start, "to": goal, "allowance": _num(allowance),
                                         "faction": unit.faction, "other_factions": others,
                                         "outside_ethiopia": outside, **_route_evidence(free, board)},
                               depends_on=plain.verdict.depends_on))
            return out
    rules0 = movement_rules(board, state, unit, motorized=candidates[0], scenario=facts.scenario, goal=facts.goal,
                            rainy=facts.rainy)
    cheapest = _cheapest(rules0, start, goal, allowance)
    base_evidence: dict[str, Any] = {
        "from": start, "to": goal, "movement_factor": _num(unit.movement),
        "allowance": _num(allowance), "adjustments": notes,
        "motorized": candidates[0] if len(candidates) == 1 else None,
        "cheapest_cost": _num(cheapest.route.cost) if cheapest.route is not None else None,
        **{f"cheapest_{k}": v for k, v in _route_evidence(cheapest, board).items() if k != "route_cost"},
    }

    # forced march (11.5): each hex beyond the MF needs a logged roll
    eligible, why_not = may_force_march(unit, facts.out_of_supply_at_start)
    rolls = facts.forced_march_rolls
    if not eligible:
        dummy = unit.kind == "dummy" and unit.level == DUMMY_FRONT           # PB 14.6.5 (MV-45)
        if not dummy and not rolls:
            blocked = _blocked_by(board, state, facts, candidates, allowance, base_evidence, forced=False,
                                  step=step, when=when) if plain.ruling is Ruling.PROVEN else None
            return out + [blocked or _mv03(unit, where, allowance, plain, base_evidence, step, when)]
        rolled = f" with forced-march roll(s) {', '.join(map(str, rolls))}" if rolls else ""
        moved = f"moved from {where}{rolled}" if dummy else f"force-marched from {where}"
        out.append(finding("MV-45" if dummy else "MV-24", plain.ruling, step=step, when=when, subjects=subjects,
                           message=f"{unit.name} {moved} beyond its {_num(allowance)} MPs: {why_not}",
                           evidence={**base_evidence, "forced_march_rolls": list(rolls)},
                           depends_on=plain.verdict.depends_on))
        return out
    unlimited = _fm_search(board, state, unit, candidates, allowance, facts, None)
    if unlimited.ruling is Ruling.PROVEN or unlimited.route is None:
        into = _fm_search(board, state, unit, candidates, allowance, facts, None, anywhere=True)
        if into.ruling is not Ruling.PROVEN and into.route is not None:        # 11.5.2 (MV-24)
            barred = [s.to for s in into.route.steps if s.forced_march and _fm_into(board)(s.to) is not True]
            named = ", ".join(f"{hex_label(h, board)} ({_fm_terrain(board, h)})" for h in barred)
            out.append(finding("MV-24", Ruling.PROVEN, step=step, when=when, subjects=subjects,
                               message=f"{unit.name} moved from {where}: beyond its {_num(allowance)} MPs "
                                       f"every path force-marches into {named}, where no unit may force "
                                       "march (11.5.2)",
                               evidence={**base_evidence, **_route_evidence(into, board), "hex": barred[-1] if barred else None,
                                         "forced_march_into": barred, "forced_march_rolls": list(rolls)},
                               ))
            return out
        blocked = _blocked_by(board, state, facts, candidates, allowance, base_evidence, forced=True,
                              step=step, when=when)
        return out + [blocked or _mv03(unit, where, allowance, plain, base_evidence, step, when,
                                       doubled=True)]
    need = unlimited.route.forced_march_hexes
    if not rolls:
        if plain.ruling is Ruling.POSSIBLE:
            return out + [_mv03(unit, where, allowance, plain, base_evidence, step, when)]
        out.append(finding("MV-23", Ruling.PROVEN, step=step, when=when, subjects=subjects,
                           message=f"{unit.name} moved from {where} beyond its {_num(allowance)} MPs "
                                   f"without a forced-march roll ({need} forced-march hex(es) needed)",
                           evidence={**base_evidence, **_route_evidence(unlimited, board),
                                     "forced_march_rolls": [], "forced_march_hexes_needed": need}))
        return out
    surcharges, surcharge_data = leg_surcharges(board.data, FORCED_MARCH_TABLE, [rolls])
    costs = list(surcharges[0])
    logged = _fm_search(board, state, unit, candidates, allowance, facts, tuple(costs))
    evidence = {**base_evidence, **_route_evidence(logged if logged.route else unlimited, board),
                "forced_march_rolls": list(rolls), "forced_march_surcharges": costs,
                "forced_march_hexes_needed": need}
    if logged.ruling is Ruling.LEGAL and not (surcharge_data and logged.route is not None
                                              and logged.route.forced_march_hexes):
        return out
    if logged.ruling is Ruling.PROVEN:
        out.append(finding("MV-23", Ruling.PROVEN, step=step, when=when, subjects=subjects,
                           message=f"{unit.name} force-marched from {where}: with {len(rolls)} "
                                   f"forced-march roll(s) ({', '.join(map(str, rolls))}) no path "
                                   f"reaches the hex; {need} forced-march hex(es) needed at best",
                           evidence=evidence))
        return out
    data = set(logged.verdict.depends_on) | set(surcharge_data)
    out.append(finding("MV-23", Ruling.POSSIBLE, step=step, when=when, subjects=subjects,
                       message=f"{unit.name} force-marched from {where} with roll(s) "
                               f"{', '.join(map(str, rolls))}", evidence=evidence, depends_on=data))
    return out


MOVE_CHECKS_KEPT = 1024
"""The units' searches a board keeps (`plain_check`)."""


def plain_check(board: Board, state: GameState, unit: Unit, start: str, goal: str, allowance: Any, *,
                motorized: bool, scenario: str | None, rainy: bool) -> MoveCheck[str]:
    """`check_move` of the unit's move under `movement_rules`, from one search kept while the
    other units on the map stand as they stood: a drag taken back and made again is not
    searched again, and a unit dragged hex by hex carries one search on from hex to hex
    (`MovesFrom`) unless its rules depend on the goal (a tribal faction's or a guerrilla's may
    end in a hex it may not pass through). The rules read the unit but for where it stands (its
    own hex counts for nothing: it is neither its enemy nor of another faction), the scenario,
    the rain, the goal and the other units on the map. Those are the position's own objects (a
    unit the log changed is another), and the search keeps them, so an id in its key is never
    another unit's; the unit is compared whole, its place aside."""
    others = tuple(u for u in state.units.values() if u.hex is not None and u.id != unit.id)
    by_goal = _tribal(unit, scenario) is not None or is_guerrilla(unit, scenario)
    key = (unit.id, start, goal if by_goal else None, allowance, motorized, scenario, rainy, tuple(map(id, others)))
    kept = board.move_checks.get(key)
    if kept is None or replace(kept[0][0], hex=unit.hex, box=unit.box) != unit:
        rules = movement_rules(board, state, unit, motorized=motorized, scenario=scenario,
                               goal=goal if by_goal else None, rainy=rainy)
        if len(board.move_checks) >= MOVE_CHECKS_KEPT:
            board.move_checks.clear()
        kept = board.move_checks[key] = ((unit, others), MovesFrom(rules, start, allowance), {})
    answers = kept[2]
    if goal not in answers:
        answers[goal] = kept[1].check(goal)
    return answers[goal]


def _blocked_by(board: Board, state: GameState, facts: MoveFacts, candidates: list[bool], allowance: Any,
                evidence: dict[str, Any], *, forced: bool, step: int | None, when: str | None) -> Finding | None:
    """The prohibition a move too long for every allowed path breaks, when some path within the
    allowance (forced march included when `forced`) passes only where it forbids: enemy units'
    hexes (MV-06, 11.2) or, (35), hexes not in play (MV-07, PB 13.1.1), the hexes named."""
    unit, start, goal = facts.unit, facts.start, facts.goal
    relaxations = [("enemies", "MV-06")] + ([("areas", "MV-07")] if facts.scenario == "1935-36" else [])
    for relax, check in relaxations:
        found = []
        for mot in candidates:
            rules = movement_rules(board, state, unit, motorized=mot, scenario=facts.scenario,
                                   rainy=facts.rainy, goal=goal, relax=frozenset({relax}),
                                   minimum_move=not forced)
            if forced:
                rules.forced_march = allowance
                rules.forced_march_into = _fm_into(board)
            found.append(check_move(rules, start, goal, allowance))
        best = best_of(*found)
        if best.ruling is Ruling.PROVEN or best.route is None:
            continue
        route = best.route.hexes[1:-1]
        if relax == "enemies":
            barred = [h for h in route if any(blocks_entry(unit, u) for u in state.at(h))]
            why = "holding enemy units (11.2)"
        else:
            barred = [h for h in route if not any(board.in_zone(h, z) is True for z in IN_PLAY_1935)]
            why = "not in play in 1935-36 (PB 13.1.1)"
        if not barred:
            continue
        where = f"{hex_label(start, board)} to {hex_label(goal, board)}"
        named = ", ".join(hex_label(h, board) for h in barred)
        return finding(check, Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                       message=f"{unit.name} moved from {where}: every path within its {_num(allowance)} MPs"
                               + (" (forced march included)" if forced else "")
                               + f" passes through {named}, {why}",
                       evidence={**evidence, **_route_evidence(best, board), "hexes": barred})
    return None


def _mv03(unit: Unit, where: str, allowance: Any, plain: MoveCheck[str], evidence: dict[str, Any],
          step: int | None, when: str | None, doubled: bool = False) -> Finding:
    ruling = plain.ruling
    if ruling is Ruling.PROVEN:
        reason = "no path within its allowance" + (", even by forced march" if doubled else "")
    else:
        reason = "only a path relying on unknown map data"
    return finding("MV-03", ruling, step=step, when=when, subjects=(unit.name,),
                   message=f"{unit.name} moved from {where} with {_num(allowance)} MPs: {reason}",
                   evidence={**evidence, **({"reasons": list(plain.verdict.reasons)}
                                            if plain.verdict.reasons else {})},
                   depends_on=plain.verdict.depends_on)


def _fm_terrain(board: Board, hex_: str) -> str:
    return "amba" if board.has_feature(hex_, "amba") is True else str(_num(board.terrain(hex_)))


def _fm_search(board: Board, state: GameState, unit: Unit, candidates: list[bool], allowance: Any,
               facts: MoveFacts, costs: tuple[Any, ...] | None, *, anywhere: bool = False) -> MoveCheck[str]:
    """The move with forced march up to double the allowance; `costs` are the extra MPs of
    the logged rolls in order (None: as many forced-march hexes as needed, no surcharge);
    `anywhere`: forced march into any hex, desert and ambas too (what 11.5.2 alone forbids)."""
    found = []
    for mot in candidates:
        rules = movement_rules(board, state, unit, motorized=mot, scenario=facts.scenario, goal=facts.goal,
                               minimum_move=False, rainy=facts.rainy)
        rules.forced_march = allowance
        rules.forced_march_costs = costs
        rules.forced_march_into = None if anywhere else _fm_into(board)
        found.append(check_move(rules, facts.start, facts.goal, allowance))
    return best_of(*found)


def _prohibited(board: Board, hex_: str, unit: Unit, scenario: str | None
                ) -> tuple[Ruling, str, frozenset[str]] | None:
    """Why no unit may end in the hex (PROVEN), or that it may depend on data (POSSIBLE).

    Only definite or 1935-36 area facts are reported here; unknown terrain is left to the
    route search, which names it."""
    terrain = board.terrain(hex_)
    if not isinstance(terrain, Unknown):
        row = "mountain" if terrain == "amba" else terrain
        effect = "movement-motorized" if _is_motorized(unit) is True else "movement-foot"
        if tec_cost(board.tec(row, effect), 0) is None:
            return Ruling.PROVEN, f"{hex_label(hex_, board)} is {terrain}, prohibited terrain (11.2)", frozenset()
    if scenario == "1935-36" and board.in_any_zone(hex_, IN_PLAY_1935) is False:
        return (Ruling.PROVEN, (f"{hex_label(hex_, board)} is outside Eritrea, Ethiopia and "
                                "Italian Somaliland, not in play in 1935-36 (PB 13.1.1)"), frozenset())
    return None


def _fm_into(board: Board) -> Callable[[str], bool | Unknown]:
    """11.5.2: never force march into a desert or amba hex."""
    return prohibited_into(board, features=("amba",), terrains=("desert",))
