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
  only attackers, within the hex's stacking limit.

Where the data lacks a value (a CRT cell, terrain, a hidden factor) the verdict is POSSIBLE and
names it; several readings (air results not in the log, terrain unknown) are all tried.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Iterable, Mapping

from vlog.engine.combat import (
    INFINITE_LEVEL, CombatTable, LossTaker, concentric, halve, level_name, loss_violations,
    odds_columns, odds_level, parse_odds, parse_result,
)
from vlog.engine.dice import clamp
from vlog.engine.judge import FALSE, TRUE, Explanation, Ruling, Tri, Unknown, at_most, judge, unknowns
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import finding
from vlog.games.lion_of_judah.checks.guerrillas import attacks_within_its_hex
from vlog.games.lion_of_judah.checks.stacking import division_weight, stacking_limit
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["CombatFacts", "CombatMemory", "judge_combat", "crt", "attack_total", "terrain_shift"]

SCALE = odds_columns("1:3", "7:1")
ROLL_LOW, ROLL_HIGH = 1, 7
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


@dataclass(slots=True)
class CombatMemory:
    """What a combat segment remembers between combats (12.2, 12.11.1)."""

    attacked_hexes: set[str] = field(default_factory=set)
    attacks_by_unit: dict[str, int] = field(default_factory=dict)
    recon_units: set[str] = field(default_factory=set)
    """Units that advanced on an R result in the combat just resolved."""


# ---------------------------------------------------------------------------------------------
# tables


def crt(board: Board, ethiopian: bool) -> tuple[CombatTable[int] | None, list[int] | None]:
    """The regular or Ethiopian CRT from the data: (table, columns) — columns None when the
    printed columns are unknown (the Ethiopian CRT)."""
    table = board.data.table("crt-ethiopian" if ethiopian else "crt")
    cols = table.labels("column").value
    rows = table.labels("roll").value or [str(r) for r in range(ROLL_LOW, ROLL_HIGH + 1)]
    cells: dict[tuple[int, str], str | None] = {}
    for key, datum in table.listed_cells().items():
        column, roll = key
        cells[(parse_odds(column), roll)] = datum.value
    columns = [parse_odds(c) for c in cols] if cols else sorted({c for c, _ in cells})
    name = "Ethiopian CRT" if ethiopian else "CRT"
    return CombatTable.build(name, columns, rows, cells, level_name), (columns if cols else None)


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


def attack_total(units: Iterable[Unit], halved: frozenset[str], key: str) -> tuple[Any, dict[str, Any]]:
    """12.6: add the factors of the units to halve, halve once (0.5 up), add the rest."""
    full: Any = 0
    half: Any = 0
    shown: dict[str, Any] = {}
    for u in units:
        value = getattr(u, key)
        if value is None:
            value = 0
        shown[u.name] = None if isinstance(value, Unknown) else _n(value)
        if u.id in halved:
            half = half + value
        else:
            full = full + value
    halved_total = halve(half) if (isinstance(half, Unknown) or half) else 0
    return full + halved_total, shown


def terrain_shift(board: Board, hex_: str, ethiopian: bool) -> list[tuple[int, frozenset[str], str]]:
    """Candidate terrain shifts (negative = left) with the data each relies on.

    Errata 12.8: a town/city or amba controls; terrain shifts are not cumulative. On the
    Ethiopian CRT only the amba benefits the defender (PB 13.6.2.3, example of play)."""
    feats = {f: board.has_feature(hex_, f) for f in ("amba", "town", "capital")}
    amba_shift = _shift(board.tec("amba", "combat"))
    town_shift = _shift(board.tec("town", "combat"))
    out: list[tuple[int, frozenset[str], str]] = []

    def add(shift: Any, deps: frozenset[str], why: str) -> None:
        if isinstance(shift, Unknown):
            for s in (0, -1, -2):
                out.append((s, deps | shift.data, f"{why} ({s})"))
        else:
            out.append((shift, deps, why))

    amba = feats["amba"]
    if amba is True:
        add(amba_shift, frozenset(), "amba")
        return out
    amba_deps = amba.data if isinstance(amba, Unknown) else frozenset()
    if amba_deps:
        add(amba_shift, amba_deps, "amba")
    if ethiopian:
        out.append((0, amba_deps, "no terrain shift on the Ethiopian CRT"))
        return out
    town = [feats["town"], feats["capital"]]
    if any(t is True for t in town):
        add(town_shift, amba_deps, "town/city")
        return out
    town_deps = unknowns(*town)
    if town_deps:
        add(town_shift, amba_deps | town_deps, "town/city")
    terrain = board.terrain(hex_)
    deps = amba_deps | town_deps
    if isinstance(terrain, Unknown):
        for s in (0, -1):
            out.append((s, deps | terrain.data, f"terrain unknown ({s})"))
        return out
    add(_shift(board.tec(terrain, "combat")), deps, terrain)
    return out


def _shift(value: Any) -> Any:
    """A TEC combat entry as a shift: '1L' -> -1, '2R' -> +2, 'none' -> 0."""
    if isinstance(value, Unknown):
        return value
    if isinstance(value, int):
        return value
    text = str(value).strip().upper()
    if text in ("NONE", "0", "-", ""):
        return 0
    if text.endswith("L") and text[:-1].isdigit():
        return -int(text[:-1])
    if text.endswith("R") and text[:-1].isdigit():
        return int(text[:-1])
    return Unknown(f"TEC combat entry {value!r}")


def river_shift(board: Board, facts: CombatFacts, attack_by_unit: Mapping[str, Any]
                ) -> list[tuple[int, frozenset[str], str]]:
    """12.8.1: 1L when more than half the attack factors attack across a river."""
    across: Any = 0
    total: Any = 0
    deps: set[str] = set()
    for u in facts.attackers:
        value = attack_by_unit.get(u.id, 0)
        total = total + value
        if u.hex is None:
            continue
        river = board.hexside_has(u.hex, facts.target, "river")
        if river is True:
            across = across + value
        elif isinstance(river, Unknown):
            deps |= river.data
    if isinstance(across, Unknown) or isinstance(total, Unknown):
        data = frozenset(deps) | unknowns(across, total)
        return [(0, data, "river shift unknown (0)"), (-1, data, "river shift unknown (1L)")]
    if across * 2 > total:
        return [(-1, frozenset(), f"river: {_n(across)} of {_n(total)} factors across")]
    if deps:
        return [(0, frozenset(deps), "river (0)"), (-1, frozenset(deps), "river (1L)")]
    return [(0, frozenset(), f"river: {_n(across)} of {_n(total)} factors across")]


# ---------------------------------------------------------------------------------------------
# the judgement


def _n(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, Unknown):
        return None
    return value


def _per_unit_factors(units: Iterable[Unit], halved: frozenset[str], key: str) -> dict[str, Any]:
    """Each unit's contribution for the river majority (halving applied per unit, 0.5 up)."""
    out = {}
    for u in units:
        value = getattr(u, key) or 0
        out[u.id] = halve(value) if u.id in halved else value
    return out


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
    if facts.target in memory.attacked_hexes:
        add("CB-02", Ruling.PROVEN, f"{target} was attacked a second time this combat segment",
            {"attacked_before": True})
    twice = [u for u in attackers if memory.attacks_by_unit.get(u.id, 0) >= 1
             and (u.id not in memory.recon_units or memory.attacks_by_unit.get(u.id, 0) >= 2)]
    if twice:
        add("CB-22", Ruling.PROVEN, f"{', '.join(u.name for u in twice)} attacked {target} again "
            "this combat segment without a Recon result allowing it (12.11.1)",
            {"attacks_before": {u.name: memory.attacks_by_unit.get(u.id, 0) for u in twice}})
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
                f"{_show(weight)} divisions attacked {target} from {hex_label(hex_, board)}; the "
                f"defending hex's stacking limit is {_show(limit)}",
                {"from": hex_, "divisions": _n(weight) if not isinstance(weight, Unknown) else None,
                 "limit": _n(limit) if not isinstance(limit, Unknown) else None},
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
    memory.attacked_hexes.add(facts.target)
    for u in attackers:
        memory.attacks_by_unit[u.id] = memory.attacks_by_unit.get(u.id, 0) + 1

    # -- defenseless defenders (12.13) -------------------------------------------------------
    if defenders and all(u.defenseless for u in defenders):
        wrong_a = {u.name: facts.attacker_losses.get(u.id, 0) for u in attackers if facts.attacker_losses.get(u.id, 0)}
        kept = [u.name for u in defenders
                if u.id not in facts.removed and facts.defender_losses.get(u.id, 0) < 1]
        if wrong_a or kept:
            add("CB-24", Ruling.PROVEN, f"an attack on {target}, held only by defenseless units, "
                "must eliminate them all with no attacker loss",
                {"attacker_losses": wrong_a, "defenders_not_eliminated": kept})
        _advance(board, facts, add, target)
        memory.recon_units = set(facts.advanced) if not any(u.kind == "dummy" for u in defenders) else set()
        return out

    # -- strengths ---------------------------------------------------------------------------
    # PB 14.6.4.1: guerrillas attack with 0 factors; stacked with other Allied units they add
    # no defence
    attackers_counted = tuple(replace(u, attack=0) if u.unit_class == "guerrilla" else u for u in attackers)
    others = [u for u in defenders if u.unit_class != "guerrilla" and u.side == "allied"]
    defenders_counted = tuple(replace(u, defense=0) if u.unit_class == "guerrilla" and others else u
                              for u in defenders)
    halved_attack = facts.out_of_supply | facts.gassed
    attack, attack_shown = attack_total(attackers_counted, halved_attack, "attack")
    defense, defense_shown = attack_total(defenders_counted, facts.out_of_supply, "defense")
    evidence: dict[str, Any] = {"attack": _n(attack), "defense": _n(defense),
                                "attack_factors": attack_shown, "defense_factors": defense_shown,
                                "halved": sorted(u.name for u in attackers + defenders
                                                 if u.id in facts.out_of_supply | facts.gassed),
                                "roll": facts.roll, "crt": "Ethiopian CRT" if ethiopian else "CRT"}

    # 0 vs x errata (12.4): attackers eliminated, defenders untouched
    if not isinstance(attack, Unknown) and not isinstance(defense, Unknown) and attack == 0 and defense > 0:
        survivors = [u.name for u in attackers if facts.attacker_losses.get(u.id, 0) < _steps(u)]
        touched = {u.name: facts.defender_losses.get(u.id) for u in defenders if facts.defender_losses.get(u.id)}
        if survivors or touched:
            add("CB-15", Ruling.PROVEN, f"an attack of 0 against {_n(defense)} on {target} eliminates "
                "every attacking unit and leaves the defenders untouched (errata 12.4)",
                {**evidence, "attackers_not_eliminated": survivors, "defender_losses": touched})
        memory.recon_units = set()
        return out

    if facts.roll is None:
        _distribution(facts, add, target)
        _advance(board, facts, add, target)
        memory.recon_units = set()
        return out   # no die in the log: the result itself cannot be judged
    attack_units = _per_unit_factors(attackers, halved_attack, "attack")
    terrain = terrain_shift(board, facts.target, ethiopian)
    river = river_shift(board, facts, attack_units)
    air = [((facts.air[0], facts.air[1]), frozenset(), "")] if facts.air is not None else [
        ((a, d), frozenset({"air support results (not in the log)"}) if (a or d) else frozenset(),
         f"air {a}R/{d}L" if (a or d) else "") for a in range(3) for d in range(3)]
    drms = _drm_candidates(board, facts, ethiopian)
    table, columns = crt(board, ethiopian)
    known_columns = sorted({c for (c, _r) in table.cells}) if table is not None else []
    level0 = odds_level(attack, defense)
    evidence["initial_ratio"] = None if isinstance(level0, Unknown) else (
        "1:1" if abs(level0) >= INFINITE_LEVEL and attack == 0 else level_name(max(-INFINITE_LEVEL + 1, level0)))
    if isinstance(level0, Unknown):
        deps0 = level0.data
        add("CB-19", Ruling.POSSIBLE, f"the result of the attack on {target} cannot be checked: "
            "a combat factor is unknown", evidence, depends_on=deps0)
        _distribution(facts, add, target)
        _advance(board, facts, add, target)
        memory.recon_units = set()
        return out

    explanations: list[Explanation] = []
    seen: set[tuple] = set()
    for (t_shift, t_deps, t_why), (r_shift, r_deps, r_why), ((air_a, air_d), a_deps, a_why), \
            (hq_a, hq_d, h_why, h_hidden), (drm, d_deps, d_why) in itertools.product(
                terrain, river, air, hq_shift_candidates, drms):
        air_net = max(-2, min(2, air_a)) - max(-2, min(2, air_d))
        hq_net = min(2, hq_a) - min(2, hq_d)
        shift = t_shift + r_shift + air_net + hq_net
        level = level0 if abs(level0) >= INFINITE_LEVEL else level0 + shift
        column, col_datum = _column(level, columns, known_columns)
        modified = clamp(facts.roll + drm, ROLL_LOW, ROLL_HIGH)
        deps = set(t_deps | r_deps | a_deps | d_deps)
        if h_hidden:
            deps.add("HQ support (not in the log)")
        why = "; ".join(x for x in (t_why, r_why, a_why, h_why, d_why) if x)
        key = (column, modified, frozenset(deps))
        if key in seen:
            continue
        seen.add(key)
        reading = {"shifts": shift, "final_level": level, "column": level_name(column) if column is not None else None,
                   "modified_roll": modified, "drm": drm, "reading": why}
        if column is None:
            explanations.append(Explanation(Tri(None, frozenset(deps | {col_datum})), why, reading))
            continue
        cell = table.lookup(column, modified)
        if isinstance(cell, Unknown):
            explanations.append(Explanation(Tri(None, frozenset(deps | cell.data)), why, {**reading, "cell": None}))
            continue
        problems = _loss_problems(facts, cell)
        reading["cell"] = cell
        if problems:
            explanations.append(Explanation(FALSE, f"{why}: {table.name} {level_name(column)}, roll "
                                                   f"{modified} gives {cell}; " + "; ".join(problems), reading))
        else:
            explanations.append(Explanation(TRUE if not deps else Tri(None, frozenset(deps)), why, reading))
    verdict = judge(explanations)
    observed = {"attacker_losses": {u.name: facts.attacker_losses.get(u.id, 0) for u in attackers},
                "defender_losses": {u.name: facts.defender_losses.get(u.id, 0) for u in defenders}}
    best = verdict.best or (explanations[0] if explanations else None)
    if verdict.ruling is not Ruling.LEGAL:
        detail = dict(best.evidence) if best is not None else {}
        message = (f"the attack on {target} ({_n(attack)} vs {_n(defense)}, die {facts.roll}) was "
                   "resolved with losses no reading of the CRT gives" if verdict.ruling is Ruling.PROVEN
                   else f"the result of the attack on {target} ({_n(attack)} vs {_n(defense)}, die "
                        f"{facts.roll}) rests on data vlog lacks")
        add("CB-19", verdict.ruling, message,
            {**evidence, **detail, **observed, "readings_rejected": list(verdict.reasons)[:6]},
            subjects=names + tuple(u.name for u in defenders), depends_on=verdict.depends_on)
    # loss distribution (12.11) whatever the cell
    _distribution(facts, add, target)
    cell_text = (verdict.best.evidence.get("cell") if verdict.best is not None else None)
    _advance(board, facts, add, target)
    recon = isinstance(cell_text, str) and "R" in parse_result(cell_text).extras
    memory.recon_units = set(facts.advanced) if recon else set()
    return out


def _steps(u: Unit) -> int:
    return u.steps if isinstance(u.steps, int) else 1


def _takers(units: Iterable[Unit], defending: bool) -> list[Unit]:
    """Units that absorb step losses: never HQs (12.11), nor guerrillas defending with other
    Allied units (PB 14.6.4.1)."""
    units = [u for u in units if u.kind != "hq"]
    if defending and any(u.unit_class != "guerrilla" and u.side == "allied" for u in units):
        units = [u for u in units if u.unit_class != "guerrilla"]
    return units


def _loss_problems(facts: CombatFacts, cell: str) -> list[str]:
    result = parse_result(cell)
    problems = []
    for side, units, losses, due in (("attacker", facts.attackers, facts.attacker_losses, result.attacker.number),
                                     ("defender", facts.defenders, facts.defender_losses, result.defender.number)):
        takers = _takers(units, side == "defender")
        available = sum(_steps(u) for u in takers)
        taken = sum(losses.get(u.id, 0) for u in takers)
        expected = min(due, available)
        if taken != expected:
            problems.append(f"the {side} lost {taken} step(s), {expected} due")
    return problems


def _guerrilla_losses(facts: CombatFacts, add: Any, target: str) -> None:
    """PB 14.6.4.1 (CB-35): guerrillas defending with other Allied units cannot absorb losses,
    and are eliminated when those units are."""
    regular = [u for u in facts.defenders if u.unit_class != "guerrilla" and u.side == "allied"]
    guerrillas = [u for u in facts.defenders if u.unit_class == "guerrilla"]
    if not regular or not guerrillas:
        return
    survivors = [u for u in regular if facts.defender_losses.get(u.id, 0) < _steps(u)]
    took = [u.name for u in guerrillas if facts.defender_losses.get(u.id, 0)]
    if took and survivors:
        add("CB-35", Ruling.PROVEN, f"guerrillas ({', '.join(took)}) absorbed losses defending {target} "
            "with other Allied units, which survived", {"guerrillas_lost": took,
                                                         "survivors": [u.name for u in survivors]})
    kept = [u.name for u in guerrillas if facts.defender_losses.get(u.id, 0) < _steps(u)]
    if not survivors and kept:
        add("CB-35", Ruling.PROVEN, f"guerrillas ({', '.join(kept)}) stayed in {target} after the "
            "other Allied units there were eliminated", {"guerrillas_left": kept})


def _distribution(facts: CombatFacts, add: Any, target: str) -> None:
    _guerrilla_losses(facts, add, target)
    before = []
    for side, units, losses, first_rule in (("attacker", facts.attackers, facts.attacker_losses, True),
                                            ("defender", facts.defenders, facts.defender_losses, False)):
        takers = [LossTaker(u.name, _steps(u), losses.get(u.id, 0),
                            attack=_n(u.attack) if not isinstance(u.attack, Unknown) else 1)
                  for u in _takers(units, side == "defender")]
        taken = sum(t.lost for t in takers)
        problems = [p for p in loss_violations(takers, taken, spread_before_second=True,
                                               first_from_attacking_unit=first_rule,
                                               first_from_largest=True)
                    if "due" not in p]
        hq_losses = [u.name for u in units if u.kind == "hq" and losses.get(u.id, 0)]
        if hq_losses:
            problems.append(f"HQ {', '.join(hq_losses)} absorbed a step loss")
        if problems:
            add("CB-20", Ruling.PROVEN, f"the {side}'s losses in the attack on {target} were "
                f"distributed against 12.11: {'; '.join(problems)}",
                {"side": side, "losses": {t.name: t.lost for t in takers}, "problems": problems},
                subjects=[t.name for t in takers])
            before.append(side)


def _advance(board: Board, facts: CombatFacts, add: Any, target: str) -> None:
    """12.12: a cleared hex must be entered by at least one attacker; never HQs."""
    # the hex is cleared when every defender left it; defenseless ones that stay are CB-24's
    # finding, so they neither make an advance into the hex wrong nor leave it cleared
    gone = [u.id in facts.removed or facts.defender_losses.get(u.id, 0) >= max(_steps(u), 1)
            for u in facts.defenders]
    cleared = all(gone)
    eliminated = all(g or u.defenseless for g, u in zip(gone, facts.defenders))
    attackers = {u.id: u for u in facts.attackers}
    problems = []
    movers = [attackers.get(i) for i in facts.advanced]
    strangers = [i for i in facts.advanced if i not in attackers]
    if strangers:
        problems.append(f"{len(strangers)} unit(s) that did not attack advanced")
    hqs = [u.name for u in movers if u is not None and u.kind == "hq"]
    if hqs:
        problems.append(f"HQ {', '.join(hqs)} advanced")
    survivors = [u for u in facts.attackers if facts.attacker_losses.get(u.id, 0) < _steps(u)
                 and u.kind not in ("hq", "truck")]
    if cleared and facts.defenders and survivors and not facts.advanced:
        problems.append("no attacking unit advanced into the cleared hex")
    if facts.advanced and not eliminated:
        problems.append("units advanced into a hex still held by the defender")
    weight: Any = 0
    for u in movers:
        if u is not None:
            w = division_weight(u)
            weight = weight + (w if w is not None else 0)
    limit = stacking_limit(board, facts.target)
    if facts.advanced and at_most(weight, limit).false:
        problems.append(f"{_show(weight)} divisions advanced, over the hex's limit of {_show(limit)}")
    if problems:
        add("CB-23", Ruling.PROVEN, f"advance after the attack on {target}: {'; '.join(problems)}",
            {"advanced": [attackers[i].name if i in attackers else i for i in facts.advanced],
             "problems": problems})


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


def _show(value: Any) -> str:
    if isinstance(value, Unknown):
        return f"{_show(value.at_least)}-{_show(value.at_most)}"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    return str(value)
