"""Combat (rule 12, PB 13.6.2.3): eligibility, the column and the die, the result, losses, advance.

One combat as the log shows it: the target hex, the attacking and defending units, the die,
and the steps each unit lost, the units that advanced. The checks:

* CB-01 (12.1): attackers adjacent to the target hex;  CB-03 (2.3.7): no HQ or truck attacks;
* CB-02 (12.2): a hex is attacked at most once per combat segment; CB-22 (12.11.1): a unit
  attacks a second time only after advancing on an R result, at most twice a phase;
* CB-11 (12.8.2): attackers from each adjacent hex within the defending hex's stacking limit;
* CB-29 (PB 13.6.2.2): one tribal faction per Ethiopian combat (Negus units join any);
* CB-13 (10.2.3): supporting HQs on their CS side, the attacker's in or next to the attacking
  units' hexes, the defender's in or next to the defending hex; at most two a side;
* the column: CB-06 (12.5) ratio rounded down, CB-07 (12.6) halving out-of-supply and gassed
  units once (0.5 up), CB-09 (12.8, errata) one terrain shift (town/city 1L, amba, TEC), CB-10
  (12.8.1) river 1L when more than half the attack factors cross one, CB-14 air and CB-13 HQ
  shifts at most two a side, CB-15 (12.4 step 6 and errata) the extended scale clamped to 1:3
  and 7:1, 0 vs x eliminates the attackers, 0 vs 0 is 1:1; CB-26 the Ethiopian CRT with its
  own modifiers only (amba and river for the defender, +1 DRM from amba or mountain hexes);
* the die: CB-12 (12.9) concentric +1 (not against an amba), CB-16 (12.7) clamped to 1..7;
* CB-19 (12.11): the losses of each side are the CRT cell's, as far as its units have steps;
  CB-20: no second step from a unit before every unit has lost one, the attacker's first loss
  not from a zero-attack unit; CB-24 (12.13) defenseless defenders: all eliminated, no loss;
* CB-23 (12.12): a cleared hex must be entered by at least one attacking unit, never an HQ,
  only attackers, within the hex's stacking limit;
* CB-21 (2.3.9): the pieces show the losses: a unit whose Step layer rose in the combat (a
  reduced unit flipped back to full strength instead of being removed), a unit taken off the map
  with steps left over what its side owed (the removal counted as the steps due, so CB-19 and
  CB-20 judge the losses the side meant);
* CB-08 (PB 13.6.5.1): units under a Gassed marker attack at half (defend at full): a result that
  only the attackers' full strength explains is reported as CB-08. A log shows a gas attack's
  result by one Gassed marker (counter `mk-gassed`) per affected unit in its hex; where a hex
  holds fewer markers than units, every choice of the gassed units is tried;
* CB-38 (PB 14.6.5): a dummy defending is flipped once the attackers are declared; a true Dummy
  is removed (defenseless, no loss, no Recon) and a 0-x-4 fights as a unit; FW-06: a dummy is
  flipped only in combat or when an enemy unit tries to enter its hex, and never back;
* CB-05 (12.4): the defenders are revealed after the attack is declared and before the die is
  rolled;
* CB-18 (PB 14.6.4.1): (40) an Italian attack whose attacking unit must trace its supply line
  through a guerrilla hex (the target's guerrillas ignored) shifts 1L; else one whose line must pass
  next to one (even where an Italian unit stands) has -1 DRM; not cumulative. Judged by tracing
  each attacker's supply avoiding those hexes; a result only the unmodified attack explains is
  reported as CB-18;
* CB-37, FW-08 (PB 14.6.4.5): (40) an Italian attack on a hex held only by guerrillas rolls the
  counter-guerrilla die first (the first roll after the declaration; the combat die is the
  second): a modified 1-4 and the guerrillas escape unrevealed, with no combat; 5+ and the attack
  goes on. Its modifiers: +1 in Tigray or the Ogaden (PB 14.6.4.1) and the player aid card's
  (`tables.json` counter-guerrilla `modifiers`: unknown in the rulebook data, so the outcome is
  possible only; a list of DRMs, any of which may apply, when given).

Where the data lacks a value (a CRT cell, terrain, a hidden factor) the verdict is POSSIBLE and
names it; several readings (air results not in the log, terrain unknown) are all tried.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any, Iterable, Mapping

from vlog.engine.combat import (INFINITE_LEVEL, CombatTable, concentric, halve, level_name, odds_columns, odds_level,
                                parse_result)
from vlog.engine.dice import clamp
from vlog.engine.judge import FALSE, TRUE, Explanation, Ruling, Tri, Unknown, at_most, judge, unknowns
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.activation_rules import offensive_effects, with_extra_attacker_loss
from vlog.games.lion_of_judah.checks.combat_fog import (as_revealed, defenseless, judge_counter_guerrilla,
                                                        judge_dummies, judge_reveal_order)
from vlog.games.lion_of_judah.checks.combat_losses import (judge_advance, judge_distribution, judge_raised, loss_problems,
                                                           removed_with_steps_left)
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding, plain_number, show_number
from vlog.games.lion_of_judah.checks.guerrillas import attacks_within_its_hex
from vlog.games.lion_of_judah.checks.stacking import division_weight, stacking_limit
from vlog.games.lion_of_judah.state import GameState, Unit
from vlog.kit.combat import (SegmentAttacks, TerrainControl, crt_from_table, majority_shift, marked_readings, steps_of,
                             strength_total, tec_shift, terrain_row_shifts, terrain_shifts)

__all__ = ["CombatFacts", "CombatMemory", "GASSED_COUNTER", "crt", "gassed_readings", "judge_combat", "terrain_shift"]

SCALE = odds_columns("1:3", "7:1")
ROWS = [str(r) for r in range(1, 8)]
"""12.7: a modified combat roll is 1 to 7 (the rows when the data lacks a CRT's)."""
CAP = {"air": (-2, 2), "hq": (-2, 2)}


@dataclass(frozen=True, slots=True)
class CombatFacts:
    """One combat as the log shows it. Losses map unit ids to steps lost; `air` is the net
    (attacker shifts right, defender shifts left) when the log shows the air results, None
    when it does not; `attacker_hqs`/`defender_hqs` None when the log does not say."""

    target: str
    attackers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    roll: int | None
    attacker_losses: Mapping[str, int] = field(default_factory=dict)
    defender_losses: Mapping[str, int] = field(default_factory=dict)
    advanced: tuple[str, ...] = ()
    out_of_supply: frozenset[str] = frozenset()
    gassed: frozenset[str] = frozenset()
    air: tuple[int, int] | None = (0, 0)
    attacker_hqs: tuple[Unit, ...] | None = ()
    defender_hqs: tuple[Unit, ...] | None = ()
    ethiopian_crt: bool | None = None
    nearby: tuple[Unit, ...] = ()
    """Other units around the combat (HQs that could have given support unlogged)."""
    removed: frozenset[str] = frozenset()
    """Units taken off the map in the combat (a unit of no steps, an HQ, loses none when
    eliminated: its removal is what shows it)."""
    raised: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Units whose step level rose during the combat: id -> (steps before, steps after)."""
    gassed_readings: tuple[frozenset[str], ...] | None = None
    """Each possible set of gassed attackers (None: `gassed` alone, PB 13.6.5.1)."""
    revealed: Mapping[str, tuple[int, Unit]] = field(default_factory=dict)
    """Defenders flipped during the combat: id -> (step of the flip, the unit as flipped)."""
    roll_step: int | None = None
    """The step the combat die was rolled in."""
    declared_step: int | None = None
    counter_guerrilla: tuple[int | None, int | None] | None = None
    """(40) the counter-guerrilla roll and its step, (None, None) when the log shows none; None
    when the attack needs none (PB 14.6.4.5)."""
    rolls_seen: int = 0
    great_offensive: bool = False
    """(35) an Ethiopian attack of the Great Offensive: shifts and one more loss (CB-32, activation.py)."""
    """How many die rolls the log shows while the combat was open."""
    rp_shift: int = 0
    """(35) Ethiopian RPs used: +1 each for Ethiopian attackers, -1 each for defenders (CB-27)."""
    air_limits: tuple[int, int] = (CAP["air"][1], CAP["air"][1])
    """When `air` is None: the most air shifts the attacker and the defender may have won (10.1.3:
    one a committed marker; 0 for a side none of whose markers left its box in the segment, or
    that has none in the scenario; checks/air.py `air_shifts_possible`)."""


CombatMemory = SegmentAttacks
"""What a combat segment remembers between combats (12.2, 12.11.1; vlog/kit/combat.py): the
units that may attack again are those that advanced on an R result in the combat just resolved."""


# ---------------------------------------------------------------------------------------------
# tables


def crt(board: Board, ethiopian: bool) -> tuple[CombatTable[int] | None, list[int] | None]:
    """The regular or Ethiopian CRT from the data: (table, columns) — columns None when the
    printed columns are unknown (the Ethiopian CRT)."""
    table = board.data.table("crt-ethiopian" if ethiopian else "crt")
    return crt_from_table(table, name="Ethiopian CRT" if ethiopian else "CRT", rows=ROWS)


def _column(level: int, columns: list[int] | None, known: list[int]) -> tuple[int | None, str | None]:
    """The printed column for a shifted level, or (None, datum) when the columns are unknown."""
    if columns is not None:
        choice = SCALE.select(level) if columns == list(SCALE.columns) else None
        if choice is None:
            lo, hi = columns[0], columns[-1]
            return max(lo, min(hi, level)), None
        return choice.column, None
    if level in known:
        return level, None
    return None, "Ethiopian CRT columns (the lowest and highest printed columns)"


# ---------------------------------------------------------------------------------------------
# strengths and shifts


def terrain_shift(board: Board, hex_: str, ethiopian: bool, *,
                  shared: bool = False) -> list[tuple[int, frozenset[str], str]]:
    """Candidate terrain shifts (negative = left) with the data each relies on.

    Errata 12.8: a town/city or amba controls; terrain shifts are not cumulative. On the
    Ethiopian CRT only the amba benefits the defender (PB 13.6.2.3, example of play).
    `shared`: (40) guerrillas defending a hex they share with Italian units get only the
    hex's other terrain, never the town, city or amba (PB 14.6.4.1, CB-36)."""
    if shared:
        feats: dict[str, Any] = {f: False for f in ("amba", "town", "capital")}
    else:
        feats = {f: board.has_feature(hex_, f) for f in ("amba", "town", "capital")}
    amba = TerrainControl("amba", (feats["amba"],), tec_shift(board.tec("amba", "combat")))
    if ethiopian:
        return terrain_shifts([amba], lambda deps: [(0, deps, "no terrain shift on the Ethiopian CRT")])
    town = TerrainControl("town/city", (feats["town"], feats["capital"]), tec_shift(board.tec("town", "combat")))
    return terrain_shifts([amba, town], lambda deps: terrain_row_shifts(
        board.terrain(hex_), lambda row: tec_shift(board.tec(row, "combat")), deps))


def river_shift(board: Board, facts: CombatFacts, attack_by_unit: Mapping[str, Any]
                ) -> list[tuple[int, frozenset[str], str]]:
    """12.8.1: 1L when more than half the attack factors attack across a river."""
    return majority_shift(facts.attackers, attack_by_unit,
                          lambda u: board.hexside_has(u.hex, facts.target, "river"), feature="river")


# ---------------------------------------------------------------------------------------------
# the judgement


def _per_unit_factors(units: Iterable[Unit], halved: frozenset[str], key: str) -> dict[str, Any]:
    """Each unit's contribution for the river majority (halving applied per unit, 0.5 up)."""
    out = {}
    for u in units:
        value = getattr(u, key) or 0
        out[u.id] = halve(value) if u.id in halved else value
    return out


NO_ROLL_LOGGED = "a combat roll made outside the log (a result with no loss)"
"""CB-04: what would make a declared attack without a logged roll or loss legal."""


def _no_loss_roll(board: Board, state: GameState, facts: CombatFacts) -> Ruling:
    """CB-04: LEGAL when some die roll gives this combat a result without loss (a roll outside
    the log would explain the silence), PROVEN when none does, POSSIBLE when table cells vlog
    lacks leave it open."""
    open_cells = False
    for roll in range(1, 7):
        probe = replace(facts, roll=roll, roll_step=facts.declared_step, rolls_seen=1)
        wrong = [f for f in judge_combat(board, state, probe, step=None, when=None, memory=CombatMemory())
                 if f.check.endswith("/CB-19")]
        if not wrong:
            return Ruling.LEGAL
        open_cells = open_cells or any(f.basis.value == "possible" for f in wrong)
    return Ruling.POSSIBLE if open_cells else Ruling.PROVEN


@REGISTRY.reports("CB-01", "CB-02", "CB-03", "CB-04", "CB-08", "CB-11", "CB-13", "CB-15", "CB-18", "CB-19",
                 "CB-22", "CB-24", "CB-29", "CB-33")
def judge_combat(board: Board, state: GameState, facts: CombatFacts, *, step: int | None,
                 when: str | None, memory: CombatMemory | None = None) -> list[Finding]:
    """Findings about one combat (empty when some legal reading explains what the log shows)."""
    out: list[Finding] = []
    memory = memory if memory is not None else CombatMemory()
    target = hex_label(facts.target, board)
    attackers, defenders = facts.attackers, facts.defenders
    names = tuple(u.name for u in attackers)
    ethiopian = facts.ethiopian_crt if facts.ethiopian_crt is not None else (
        bool(attackers) and all(u.side == "ethiopian" for u in attackers) and state.scenario != "1940-41")

    def add(short: str, ruling: Ruling, message: str, evidence: dict[str, Any],
            subjects: Iterable[str] = names, depends_on: Iterable[str] = ()) -> None:
        out.append(finding(short, ruling, step=step, when=when, subjects=subjects, message=message,
                           evidence={"target": facts.target, **evidence}, depends_on=depends_on))

    # -- eligibility -------------------------------------------------------------------------
    if not defenders:
        add("CB-01", Ruling.PROVEN, f"{target}, declared as attacked, holds no enemy unit (12.2: "
            "an occupied enemy hex is attacked)", {"defenders": []})
        return out
    neighbours = set(board.neighbours(facts.target))
    far = [u for u in attackers if u.hex not in neighbours
           and not attacks_within_its_hex(state, facts.target, u, defenders)]      # CB-36
    if far:
        add("CB-01", Ruling.PROVEN, f"{', '.join(u.name for u in far)} attacked {target} from a "
            "hex not adjacent to it", {"not_adjacent": {u.name: u.hex for u in far}})
    no_factor = [u for u in attackers if u.kind in ("hq", "truck", "rp", "air")]
    if no_factor:
        add("CB-03", Ruling.PROVEN, f"{', '.join(u.name for u in no_factor)} attacked {target}; "
            "HQs and trucks have no combat factor and never attack",
            {"units": [u.name for u in no_factor]})
    if memory.hex_attacked(facts.target):
        add("CB-02", Ruling.PROVEN, f"{target} was attacked a second time this combat segment",
            {"attacked_before": True})
    again = set(memory.attacking_again(u.id for u in attackers))
    twice = [u for u in attackers if u.id in again]
    if twice:
        add("CB-22", Ruling.PROVEN, f"{', '.join(u.name for u in twice)} attacked {target} again "
            "this combat segment without a Recon result allowing it (12.11.1)",
            {"attacks_before": {u.name: memory.times(u.id) for u in twice}})
    limit = stacking_limit(board, facts.target)
    by_hex: dict[str, list[Unit]] = {}
    for u in attackers:
        if u.hex is not None:
            by_hex.setdefault(u.hex, []).append(u)
    for hex_, units in by_hex.items():
        weight: Any = 0
        for u in units:
            w = division_weight(u)
            if w is not None:
                weight = weight + w
        fits = at_most(weight, limit)
        if not fits.true:
            add("CB-11", Ruling.PROVEN if fits.false else Ruling.POSSIBLE,
                f"{show_number(weight)} divisions attacked {target} from {hex_label(hex_, board)}; the "
                f"defending hex's stacking limit is {show_number(limit)}",
                {"from": hex_, "divisions": plain_number(weight) if not isinstance(weight, Unknown) else None,
                 "limit": plain_number(limit) if not isinstance(limit, Unknown) else None},
                subjects=[u.name for u in units], depends_on=fits.depends_on)
    guerrillas = [u for u in attackers if u.unit_class == "guerrilla"]
    if guerrillas:
        partners = [u for u in attackers if u.unit_class != "guerrilla"]
        french = [u for u in partners if (u.counter or "").startswith("ff-")]
        if not partners or french:
            why = ("with Free French units" if french else "without Commonwealth units")
            add("CB-33", Ruling.PROVEN, f"guerrillas attacked {target} {why}; they may join only "
                "attacks by Commonwealth units (PB 14.6.4.1)",
                {"guerrillas": [u.name for u in guerrillas], "partners": [u.name for u in partners]})
    if ethiopian:
        factions = {u.faction or u.unit_class for u in attackers
                    if u.unit_class != "imperial-guard" and u.name != "Negus"}
        if len(factions) > 1:
            add("CB-29", Ruling.PROVEN, f"units of several tribal factions "
                f"({', '.join(sorted(str(f) for f in factions))}) attacked {target} together",
                {"factions": sorted(str(f) for f in factions)})
    hq_shift_candidates = _hq_support(board, facts, add, target)

    # remember this combat for the next one
    memory.note(facts.target, (u.id for u in attackers), step)

    # -- (40) the counter-guerrilla roll (PB 14.6.4.5) ----------------------------------------
    if facts.counter_guerrilla is not None and judge_counter_guerrilla(board, facts, add, target) == "escape":
        memory.may_attack_again = set()
        return out

    # -- dummies (PB 14.6.5) and the order of the combat (12.4) ------------------------------
    judge_reveal_order(facts, add, target)                                       # CB-05
    dummies_gone = judge_dummies(board, facts, add, target)                     # CB-38
    facts = as_revealed(board, facts)
    defenders = facts.defenders

    # -- defenseless defenders (12.13) -------------------------------------------------------
    fights = [u for u in defenders if u.id not in dummies_gone]
    if defenders and all(defenseless(board, u) is True for u in fights):
        wrong_a = {u.name: facts.attacker_losses.get(u.id, 0) for u in attackers if facts.attacker_losses.get(u.id, 0)}
        kept = [u.name for u in fights
                if u.id not in facts.removed and facts.defender_losses.get(u.id, 0) < 1]
        if wrong_a or kept:
            add("CB-24", Ruling.PROVEN, f"an attack on {target}, held only by defenseless units, "
                "must eliminate them all with no attacker loss",
                {"attacker_losses": wrong_a, "defenders_not_eliminated": kept})
        judge_advance(board, facts, add, target, gone=dummies_gone)
        memory.may_attack_again = set(facts.advanced) if not any(u.kind == "dummy" for u in defenders) else set()
        return out
    if dummies_gone:            # true Dummies go with no loss; the others fight (PB 14.6.5)
        facts = replace(facts, defenders=tuple(fights),
                        defender_losses={k: v for k, v in facts.defender_losses.items() if k not in dummies_gone})
        defenders = facts.defenders

    # -- strengths ---------------------------------------------------------------------------
    # PB 14.6.4.1: guerrillas attack with 0 factors; stacked with other Allied units they add
    # no defence
    attackers_counted = tuple(replace(u, attack=0) if u.unit_class == "guerrilla" else u for u in attackers)
    others = [u for u in defenders if u.unit_class != "guerrilla" and u.side == "allied"]
    defenders_counted = tuple(replace(u, defense=0) if u.unit_class == "guerrilla" and others else u
                              for u in defenders)
    gas_readings = facts.gassed_readings if facts.gassed_readings else (facts.gassed,)
    first_gas = gas_readings[0]
    halved_attack = facts.out_of_supply | first_gas
    attack, attack_shown = strength_total(attackers_counted, halved_attack, attrgetter("attack"))
    defense, defense_shown = strength_total(defenders_counted, facts.out_of_supply, attrgetter("defense"))
    evidence: dict[str, Any] = {"attack": plain_number(attack), "defense": plain_number(defense),
                                "attack_factors": attack_shown, "defense_factors": defense_shown,
                                "halved": sorted(u.name for u in attackers + defenders
                                                 if u.id in facts.out_of_supply | first_gas),
                                "roll": facts.roll, "crt": "Ethiopian CRT" if ethiopian else "CRT"}
    if facts.air is None and facts.air_limits != (CAP["air"][1], CAP["air"][1]):
        evidence["air_shifts_possible"] = {"attacker": facts.air_limits[0], "defender": facts.air_limits[1]}
    gassed_any = frozenset().union(*gas_readings)
    if gassed_any:
        evidence["gassed"] = sorted(u.name for u in attackers if u.id in gassed_any)

    # 0 vs x errata (12.4): attackers eliminated, defenders untouched
    if not isinstance(attack, Unknown) and not isinstance(defense, Unknown) and attack == 0 and defense > 0:
        survivors = [u.name for u in attackers if facts.attacker_losses.get(u.id, 0) < steps_of(u)]
        touched = {u.name: facts.defender_losses.get(u.id) for u in defenders if facts.defender_losses.get(u.id)}
        if survivors or touched:
            add("CB-15", Ruling.PROVEN, f"an attack of 0 against {plain_number(defense)} on {target} eliminates "
                "every attacking unit and leaves the defenders untouched (errata 12.4)",
                {**evidence, "attackers_not_eliminated": survivors, "defender_losses": touched})
        memory.may_attack_again = set()
        return out

    if facts.roll is None:
        if not out and not any(facts.attacker_losses.values()) and not any(facts.defender_losses.values()) \
                and not facts.removed and not facts.advanced:       # an attack otherwise in order
            ruling = _no_loss_roll(board, state, facts)
            if ruling is not Ruling.LEGAL:
                add("CB-04", ruling, f"an attack on {target} was declared and the log shows no die roll, "
                    "loss or advance for it: once declared an attack may not be cancelled (12.3)"
                    + ("; no roll of the die gives it a result without loss" if ruling is Ruling.PROVEN else ""),
                    {"attackers": [u.name for u in attackers], "defenders": [u.name for u in defenders]},
                    depends_on=(NO_ROLL_LOGGED,) if ruling is Ruling.POSSIBLE else ())
        judge_raised(facts, add, target)
        judge_distribution(facts, add, target)
        judge_advance(board, facts, add, target, gone=dummies_gone)
        memory.may_attack_again = set()
        return out   # no die in the log: the result itself cannot be judged
    table, columns = crt(board, ethiopian)
    level0 = odds_level(attack, defense)
    evidence["initial_ratio"] = None if isinstance(level0, Unknown) else (
        "1:1" if abs(level0) >= INFINITE_LEVEL and attack == 0 else level_name(max(-INFINITE_LEVEL + 1, level0)))
    if isinstance(level0, Unknown):
        deps0 = level0.data
        add("CB-19", Ruling.POSSIBLE, f"the result of the attack on {target} cannot be checked: "
            "a combat factor is unknown", evidence, depends_on=deps0)
        judge_raised(facts, add, target)
        judge_distribution(facts, add, target)
        judge_advance(board, facts, add, target, gone=dummies_gone)
        memory.may_attack_again = set()
        return out

    lines = guerrilla_line_modifiers(board, state, facts) if state.scenario == "1940-41" else [_NO_LINE]
    shared = state.scenario == "1940-41" and bool(facts.defenders) \
        and all(d.unit_class == "guerrilla" for d in facts.defenders) \
        and any(u.side == "italian" for u in state.at(facts.target))      # CB-36 (PB 14.6.4.1)
    context = _Readings(board, facts, ethiopian, table, columns, hq_shift_candidates,
                        attackers_counted, defense, lines, shared_hex=shared)
    explanations = context.explain(facts.out_of_supply, gas_readings)
    if len(gas_readings) >= GAS_READINGS_CAP:       # not every choice of gassed units was tried
        explanations.append(Explanation(Tri(None, frozenset({GAS_UNTRIED})), "other gassed units", {}))
    verdict = judge(explanations)
    if verdict.ruling is Ruling.PROVEN and _NO_LINE not in lines:
        plain = judge(context.explain(facts.out_of_supply, gas_readings, lines=[_NO_LINE]))
        if plain.ruling is Ruling.LEGAL:                                      # CB-18
            mod = lines[0]
            add("CB-18", Ruling.PROVEN, f"the attack on {target} was resolved without the guerrillas' "
                f"effect on the attackers' supply lines ({mod[3]}; PB 14.6.4.1)",
                {**evidence, "attacker_losses": {u.name: facts.attacker_losses.get(u.id, 0) for u in attackers},
                 "defender_losses": {u.name: facts.defender_losses.get(u.id, 0) for u in defenders},
                 "guerrilla_shift": mod[0], "guerrilla_drm": mod[1],
                 "unmodified_reading": {k: (plain.best.evidence if plain.best else {}).get(k)
                                        for k in ("column", "modified_roll", "cell")}},
                subjects=names + tuple(u.name for u in defenders))
            verdict = plain
            explanations = context.explain(facts.out_of_supply, gas_readings, lines=[_NO_LINE])
    observed = {"attacker_losses": {u.name: facts.attacker_losses.get(u.id, 0) for u in attackers},
                "defender_losses": {u.name: facts.defender_losses.get(u.id, 0) for u in defenders}}
    best = verdict.best or (explanations[0] if explanations else None)
    if verdict.ruling is Ruling.PROVEN and gassed_any:
        ungassed = judge(context.explain(facts.out_of_supply, (frozenset(),)))
        if ungassed.ruling is Ruling.LEGAL:                                   # CB-08
            names_gassed = sorted(u.name for u in attackers if u.id in gassed_any)
            full = ungassed.best.evidence if ungassed.best is not None else {}
            add("CB-08", Ruling.PROVEN, f"the attack on {target} was resolved as if "
                f"{', '.join(names_gassed)} attacked at full strength; units under a Gassed marker "
                "attack at half (PB 13.6.5.1)",
                {**evidence, **observed, "gassed": names_gassed,
                 "full_strength_reading": {k: full.get(k) for k in ("column", "modified_roll", "cell")}},
                subjects=names + tuple(u.name for u in defenders))
            verdict = ungassed
    if verdict.ruling not in (Ruling.LEGAL,) and not any(f.check.endswith(("/CB-08", "/CB-18")) for f in out):
        detail = dict(best.evidence) if best is not None else {}
        message = (f"the attack on {target} ({plain_number(attack)} vs {plain_number(defense)}, die {facts.roll}) was "
                   "resolved with losses no reading of the CRT gives" if verdict.ruling is Ruling.PROVEN
                   else f"the result of the attack on {target} ({plain_number(attack)} vs {plain_number(defense)}, die "
                        f"{facts.roll}) rests on data vlog lacks")
        add("CB-19", verdict.ruling, message,
            {**evidence, **detail, **observed, "readings_rejected": list(verdict.reasons)[:6]},
            subjects=names + tuple(u.name for u in defenders), depends_on=verdict.depends_on)
    # the pieces against the result (2.3.9), then loss distribution (12.11) whatever the cell
    judge_raised(facts, add, target)
    if verdict.ruling is not Ruling.PROVEN:
        facts = removed_with_steps_left(facts, explanations, add, target)
    judge_distribution(facts, add, target)
    cell_text = (verdict.best.evidence.get("cell") if verdict.best is not None else None)
    judge_advance(board, facts, add, target, gone=dummies_gone)
    recon = isinstance(cell_text, str) and "R" in parse_result(cell_text).extras
    memory.may_attack_again = set(facts.advanced) if recon else set()
    return out


class _Readings:
    """Every reading of one combat's column and die (terrain, river, air, HQs, DRMs, and which
    attackers are halved), each judged against the losses the log shows."""

    def __init__(self, board: Board, facts: CombatFacts, ethiopian: bool,
                 table: CombatTable[int] | None, columns: list[int] | None,
                 hq_candidates: list[tuple[int, int, str, bool]], attackers_counted: tuple[Unit, ...],
                 defense: Any, lines: list[tuple[int, int, frozenset[str], str]] | None = None,
                 shared_hex: bool = False):
        self.board, self.facts, self.ethiopian = board, facts, ethiopian
        self.table, self.columns = table, columns
        self.known_columns = sorted({c for (c, _r) in table.cells}) if table is not None else []
        self.rolls = (table.rows[0].low, table.rows[-1].high)      # 12.7: clamped to the CRT's rows
        self.hq_candidates = hq_candidates
        self.attackers_counted = attackers_counted
        self.defense = defense
        self.terrain = terrain_shift(board, facts.target, ethiopian, shared=shared_hex)
        most_a, most_d = facts.air_limits
        self.air = [((facts.air[0], facts.air[1]), frozenset(), "")] if facts.air is not None else [
            ((a, d), frozenset({"air support results (not in the log)"}) if (a or d) else frozenset(),
             f"air {a}R/{d}L" if (a or d) else "") for a in range(most_a + 1) for d in range(most_d + 1)]
        self.drms = _drm_candidates(board, facts, ethiopian)
        self.lines = lines or [_NO_LINE]

    def explain(self, out_of_supply: frozenset[str], gas_readings: Iterable[frozenset[str]],
                lines: list[tuple[int, int, frozenset[str], str]] | None = None) -> list[Explanation]:
        facts = self.facts
        lines = lines or self.lines
        explanations: list[Explanation] = []
        seen: set[tuple] = set()
        done_gas: set[tuple] = set()
        for gassed in gas_readings:
            halved = out_of_supply | gassed
            attack, _ = strength_total(self.attackers_counted, halved, attrgetter("attack"))
            attack_units = _per_unit_factors(facts.attackers, halved, "attack")
            key_gas = (plain_number(attack), tuple(sorted((k, str(v)) for k, v in attack_units.items())))
            if key_gas in done_gas:
                continue
            done_gas.add(key_gas)
            level0 = odds_level(attack, self.defense)
            if isinstance(level0, Unknown):
                explanations.append(Explanation(Tri(None, level0.data), "a combat factor is unknown", {}))
                continue
            gas_why = (f"gassed: {', '.join(sorted(u.name for u in facts.attackers if u.id in gassed))}"
                       if gassed else "")
            river = river_shift(self.board, facts, attack_units)
            for (t_shift, t_deps, t_why), (r_shift, r_deps, r_why), ((air_a, air_d), a_deps, a_why), \
                    (hq_a, hq_d, h_why, h_hidden), (drm0, d_deps, d_why), (g_shift, g_drm, g_deps, g_why) \
                    in itertools.product(self.terrain, river, self.air, self.hq_candidates, self.drms, lines):
                air_net = max(-2, min(2, air_a)) - max(-2, min(2, air_d))
                hq_net = min(2, hq_a) - min(2, hq_d)
                go_shift, go_loss = offensive_effects(facts.attackers, gassed) if facts.great_offensive else (0, 0)
                go_why = f"Great Offensive {go_shift}R, +{go_loss} Ethiopian loss" if facts.great_offensive else ""
                shift = t_shift + r_shift + air_net + hq_net + g_shift + go_shift + facts.rp_shift
                drm = drm0 + g_drm
                level = level0 if abs(level0) >= INFINITE_LEVEL else level0 + shift
                column, col_datum = _column(level, self.columns, self.known_columns)
                modified = clamp(facts.roll + drm, *self.rolls)
                deps = set(t_deps | r_deps | a_deps | d_deps | g_deps)
                if h_hidden:
                    deps.add("HQ support (not in the log)")
                rp_why = f"Ethiopian RPs {facts.rp_shift:+d}" if facts.rp_shift else ""
                why = "; ".join(x for x in (gas_why, t_why, r_why, a_why, h_why, d_why, g_why, go_why,
                                              rp_why) if x)
                key = (column, modified, frozenset(deps))
                if key in seen:
                    continue
                seen.add(key)
                reading = {"shifts": shift, "final_level": level,
                           "column": level_name(column) if column is not None else None,
                           "modified_roll": modified, "drm": drm, "reading": why}
                if column is None:
                    explanations.append(Explanation(Tri(None, frozenset(deps | {col_datum})), why, reading))
                    continue
                cell = self.table.lookup(column, modified)
                if isinstance(cell, Unknown):
                    explanations.append(Explanation(Tri(None, frozenset(deps | cell.data)), why,
                                                    {**reading, "cell": None}))
                    continue
                problems = loss_problems(facts, with_extra_attacker_loss(cell, go_loss))
                reading["cell"] = cell
                if problems:
                    explanations.append(Explanation(FALSE, f"{why}: {self.table.name} {level_name(column)}, "
                                                           f"roll {modified} gives {cell}; " + "; ".join(problems),
                                                    reading))
                else:
                    explanations.append(Explanation(TRUE if not deps else Tri(None, frozenset(deps)), why, reading))
        return explanations


# ---------------------------------------------------------------------------------------------
# dummies (PB 14.6.5) and the order of a combat (12.4)

GASSED_COUNTER = "mk-gassed"
"""The Gassed marker's counter id (PB 13.6.5.1)."""
GAS_READINGS_CAP = 256
"""At most this many choices of gassed attackers are tried (a hex with fewer markers than
units); when there are more, a result none of them explains is only possible (GAS_UNTRIED)."""
GAS_UNTRIED = "which units the Gassed markers mark (more choices than vlog tries)"


def gassed_readings(state: GameState, attackers: Iterable[Unit]) -> tuple[frozenset[str], ...] | None:
    """Each possible set of gassed attackers: one Gassed marker in a hex marks one unit there
    (PB 13.6.5.1: the result is the number of units affected); with as many markers as units
    all are gassed, with fewer every choice is a reading. None when no attacker's hex has one."""
    attackers = list(attackers)
    hexes = []
    for hex_ in dict.fromkeys(u.hex for u in attackers if u.hex is not None):
        here = state.at(hex_)
        side = {u.side for u in attackers if u.hex == hex_}
        units = [u for u in here if u.counter != GASSED_COUNTER and u.kind not in ("marker", "air")
                 and u.side in side]
        mine = [u.id for u in attackers if u.hex == hex_]
        hexes.append((sum(1 for u in here if u.counter == GASSED_COUNTER), mine, len(units) - len(mine)))
    return marked_readings(hexes, GAS_READINGS_CAP)


_NO_LINE: tuple[int, int, frozenset[str], str] = (0, 0, frozenset(), "")
"""No guerrilla on or next to any attacker's supply line (CB-18)."""


def guerrilla_line_modifiers(board: Board, state: GameState, facts: CombatFacts
                             ) -> list[tuple[int, int, frozenset[str], str]]:
    """CB-18 (PB 14.6.4.1): (40) the readings of the guerrillas' effect on an Italian attack as
    (shift, DRM, data relied on, why): 1L when some attacker in supply can trace its supply only
    through a guerrilla hex, else -1 DRM when only through or next to one; the target's guerrillas
    ignored; not cumulative."""
    italians = [u for u in facts.attackers if u.side == "italian" and u.kind == "combat" and u.hex]
    guerrilla_hexes = {u.hex for u in state.units.values() if u.unit_class == "guerrilla" and u.hex
                       and u.side not in (None, "italian")} - {facts.target}
    if not italians or not guerrilla_hexes:
        return [_NO_LINE]
    near = guerrilla_hexes | {n for h in guerrilla_hexes for n in board.neighbours(h)}
    through = _must_pass(board, state, italians, guerrilla_hexes)
    if through is True:
        return [(-1, 0, frozenset(), "a supply line through a guerrilla hex 1L")]
    adjacent = _must_pass(board, state, italians, near)
    by_adjacent = ([(0, -1, frozenset(), "a supply line next to guerrillas -1")] if adjacent is True else
                   [_NO_LINE] if adjacent is False else
                   [(0, -1, adjacent.data, "a supply line next to guerrillas -1"),
                    (0, 0, adjacent.data, "no supply line next to guerrillas")])
    if through is False:
        return by_adjacent
    return [(-1, 0, through.data, "a supply line through a guerrilla hex 1L")] + \
        [(s, d, deps | through.data, why) for s, d, deps, why in by_adjacent]


def _must_pass(board: Board, state: GameState, units: list[Unit], avoid: set[str]) -> bool | Unknown:
    """Whether some unit in supply has no supply line avoiding `avoid` (its own hex aside)."""
    from vlog.engine.supply import trace_supply, trace_via_relay
    from vlog.games.lion_of_judah.checks import supply as sup

    # 3.2 IMPORTANT: guerrillas block no enemy supply path through or next to their hex (their
    # control of a hex stays in `state.control`)
    state = replace(state, units={k: u for k, u in state.units.items() if u.unit_class != "guerrilla"})
    deps: set[str] = set()
    for u in units:
        if sup.AIR_SUPPLIED in state.flags and u.id in state.flags.get(sup.AIR_SUPPLIED, ()):
            continue
        if sup._always_supplied(board, state, u, u.hex) is True:
            continue                                        # supplied without a line
        plain = sup.trace(board, state, u)
        if plain is None or plain.ruling is not Ruling.LEGAL:
            continue                                        # no supply line to speak of
        blocked = avoid - {u.hex}
        sources = sup.supply_sources(state, u.side)
        direct = _avoiding(sup._rules(board, state, u.side, sources, max_hexes=3), blocked)
        hqs = {h.hex for h in state.units.values() if h.kind == "hq" and h.side == u.side and h.hex}
        if hqs:
            relay = _avoiding(sup._rules(board, state, u.side, sources, max_hexes=2, relay_to=hqs), blocked)
            result = trace_via_relay(relay, direct, u.hex, direct=direct)
        else:
            result = trace_supply(direct, u.hex)
        if result.ruling is Ruling.PROVEN:
            return True
        if result.ruling is Ruling.POSSIBLE:
            deps |= set(result.depends_on) or {"supply lines (unknown terrain)"}
    return Unknown(*deps) if deps else False


def _avoiding(rules: Any, avoid: set[str]) -> Any:
    """Supply rules that never enter `avoid`."""
    enter, line_enter = rules.may_enter, rules.line_may_enter
    return replace(rules, may_enter=lambda h: False if h in avoid else (enter(h) if enter else True),
                   line_may_enter=lambda h: False if h in avoid else (line_enter(h) if line_enter else True))


def _hq_support(board: Board, facts: CombatFacts, add: Any, target: str) -> list[tuple[int, int, str, bool]]:
    """HQ shifts as logged (checking 10.2.3), or every count the eligible HQs allow."""
    attack_hexes = {u.hex for u in facts.attackers if u.hex}
    around_attack = attack_hexes | {n for h in attack_hexes for n in board.neighbours(h)}
    around_defense = {facts.target, *board.neighbours(facts.target)}
    for hqs, area, side in ((facts.attacker_hqs, around_attack, "attacker"),
                            (facts.defender_hqs, around_defense, "defender")):
        for hq in hqs or ():
            problems = []
            if hq.kind != "hq":
                problems.append("is not an HQ")
            if hq.level == "m":
                problems.append("shows its M side (an HQ that moved cannot support)")
            if hq.hex not in area:
                problems.append("is not in or adjacent to the " + ("attacking units" if side == "attacker"
                                                                   else "defending hex"))
            if problems:
                add("CB-13", Ruling.PROVEN, f"HQ {hq.name} supported the {side} at {target} but "
                    + " and ".join(problems), {"hq": hq.name, "hq_hex": hq.hex, "side": side},
                    subjects=[hq.name])
        if hqs is not None and len(hqs) > 2:
            add("CB-13", Ruling.PROVEN, f"{len(hqs)} HQs supported the {side} at {target}; at most two",
                {"hqs": [h.name for h in hqs], "side": side}, subjects=[h.name for h in hqs])
    counts = []
    for hqs, area, side in ((facts.attacker_hqs, around_attack, facts.attackers),
                            (facts.defender_hqs, around_defense, facts.defenders)):
        if hqs is not None:
            counts.append([(min(2, len(hqs)), False)])
            continue
        own = {u.side for u in side}
        eligible = [u for u in board_units(facts) if u.kind == "hq" and u.side in own
                    and u.level != "m" and u.hex in area]
        counts.append([(n, n > 0) for n in range(min(2, len(eligible)) + 1)])
    out = []
    for (a, a_hidden), (d, d_hidden) in itertools.product(*counts):
        why = "" if not (a or d) else f"HQ support {a}R/{d}L"
        hidden = a_hidden or d_hidden
        out.append((a, d, why + (" (not in the log)" if hidden else ""), hidden))
    return out


def board_units(facts: CombatFacts) -> tuple[Unit, ...]:
    """HQs the combat may draw on: those listed in `facts.nearby` (HQs around the combat)."""
    return facts.nearby


def _drm_candidates(board: Board, facts: CombatFacts, ethiopian: bool) -> list[tuple[int, frozenset[str], str]]:
    """Concentric +1 (12.9, not against an amba) and, on the Ethiopian CRT, +1 when at least
    half the attacking units attack into or from an amba or mountain hex (PB 13.6.2.3)."""
    directions = [board.direction(facts.target, u.hex) for u in facts.attackers
                  if u.hex in set(board.neighbours(facts.target))]
    candidates = [(0, frozenset(), "")]
    if concentric(directions):
        amba = board.has_feature(facts.target, "amba")
        if amba is False:
            candidates = [(1, frozenset(), "concentric +1")]
        elif isinstance(amba, Unknown):
            candidates = [(1, amba.data, "concentric +1"), (0, amba.data, "no concentric (amba)")]
    if not ethiopian:
        return candidates
    out = []
    rough: list[Any] = []
    for u in facts.attackers:
        hexes = [facts.target] + ([u.hex] if u.hex else [])
        flags = []
        for h in hexes:
            terrain = board.terrain(h)
            amba = board.has_feature(h, "amba")
            if terrain == "mountain" or amba is True:
                flags.append(True)
            elif isinstance(terrain, Unknown) or isinstance(amba, Unknown):
                flags.append(Unknown(*unknowns(terrain, amba)))
        rough.append(True if True in flags else (next((f for f in flags if isinstance(f, Unknown)), False)))
    sure = sum(1 for f in rough if f is True)
    maybe = sum(1 for f in rough if isinstance(f, Unknown))
    need = len(facts.attackers) / 2
    for drm, deps, why in candidates:
        if sure >= need:
            out.append((drm + 1, deps, (why + "; " if why else "") + "mountain/amba +1"))
        elif sure + maybe >= need:
            data = unknowns(*rough)
            out.append((drm + 1, deps | data, (why + "; " if why else "") + "mountain/amba +1"))
            out.append((drm, deps | data, why))
        else:
            out.append((drm, deps, why))
    return out


