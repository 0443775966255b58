"""The odds of one declared attack (9.3 b-g): strengths, modifiers and shifts, read every way the
log and the data leave open, down to the CRT line and column each reading uses.

A reading is one way the combat may stand: the attack and defense totals, the shifts that
apply and the line. Whatever the log does not settle is read each possible way, each reading
naming what it relies on (a unit's morale state, its supply, an unassigned unit's formation,
a leader's command roll); whatever the data lacks is an `Unknown` naming the datum.

Readings taken where the text leaves a choice:
* A-5: morale averages count the ground units taking part, not leaders nor supporting artillery;
* 9.91: the Out of Supply and Disorganized -1 and the Demoralized halving are applied per unit,
  the city and fort doubling to the hex's total;
* 9.92: the armor bonus needs a tank stacked with an infantry-type unit of the same side in the
  combat (glider and commando units count as infantry);
* integrity: every unit with the regiment's (brigade's) number on the map, none a remnant or
  Demoralized, all attacking (defending) here;
* a unit the data puts in no formation (attached on paper, 15.2) may or may not make a mix.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from vlog.engine.combat import CombatTable, ColumnScale, level_name, odds_level, parse_odds
from vlog.engine.judge import Tri, Unknown
from vlog.kit.combat import crt_from_table

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit

__all__ = ["Reading", "Crt", "odds_readings", "NORMAL", "DISORGANIZED", "DEMORALIZED", "STATES"]

NORMAL, DISORGANIZED, DEMORALIZED = "normal", "disorganized", "demoralized"
STATES = (NORMAL, DISORGANIZED, DEMORALIZED)
INFANTRY_LIKE = frozenset({"infantry", "paratroop", "marine", "motorcycle", "engineer", "paratroop-engineer",
                           "glider", "glider-engineer", "glider-motorcycle", "commando"})
ENGINEERS = frozenset({"engineer", "paratroop-engineer", "glider-engineer"})
NOT_TAKING_PART = frozenset({"leader", "coastal-gun", "marker", "warship"})
MAX_COMBOS = 64
"""Beyond this many combinations of unsettled unit states the totals are not enumerated."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One way the combat stands: the shifted odds level on a line (None: unknown line), or
    Unknown, and the data and assumptions it relies on."""

    level: int | Unknown
    line: str | Unknown
    why: str
    deps: frozenset[str] = frozenset()
    totals: tuple[Any, Any] = (None, None)


class Crt:
    """The CRT of the data: its lines, their columns, and a table per line."""

    def __init__(self, game: "IslandOfDeath") -> None:
        data = game.data
        table = data.table("crt")
        props = table["properties"] if "properties" in table else {}

        def prop(name: str) -> Any:
            return props[name].value if name in props else None

        self.lines: list[str] | None = table.labels("terrain_line").value
        self.terrain_lines: dict[str, str] | None = prop("terrain_lines")
        self.night_line: str | None = prop("night_line")
        columns = prop("line_columns")
        self.scales: dict[str, ColumnScale[int]] = {}
        self.tables: dict[str, CombatTable[Any]] = {}
        if self.lines and columns:
            for line in self.lines:
                if line in columns:
                    self.scales[line] = ColumnScale(tuple(parse_odds(c) for c in columns[line]), "cancel")
                    self.tables[line] = crt_from_table(table, name=f"CRT ({line})", line=line)[0]

    def line_of(self, game: "IslandOfDeath", hex_: str, night: bool) -> str | Unknown:
        """9.3f, 10.2: the night line on a night turn, else the line of the defender's terrain most
        favourable to him."""
        if night:
            return self.night_line or Unknown("tables.json crt night_line")
        if not self.terrain_lines or not self.lines:
            return Unknown("tables.json crt terrain_lines")
        terrain = game.board.terrain(hex_)
        fort = Tri.of(game.supply.fort(hex_))
        if isinstance(terrain, Unknown) or not fort.known:
            return Unknown(*(terrain.data if isinstance(terrain, Unknown) else ()), *fort.depends_on)
        kinds = [terrain] + (["fort"] if fort.true else [])
        lines = [self.terrain_lines.get(k) for k in kinds]
        if any(line is None or line not in self.lines for line in lines):
            return Unknown(f"tables.json crt terrain_lines {', '.join(k for k, l in zip(kinds, lines) if l is None)}")
        return max(lines, key=self.lines.index)


def _value(factor: Any, what: str) -> Any:
    if factor is None:
        return Unknown(what)
    return factor


def _strength(unit: "Unit", state: str, attacking: bool, out_of_supply: bool) -> Any:
    """9.91, 11.3, 11.4: one unit's modified attack or defense strength."""
    base = _value(unit.attack if attacking else unit.defense,
                  f"counters.json {unit.counter} level {unit.level} {'attack' if attacking else 'defense'}")
    if isinstance(base, Unknown):
        return base
    if attacking and out_of_supply and base > 0:
        base = max(1, base - 1)
    if state == DISORGANIZED and attacking and base > 0:
        base = max(1, base - 1)
    if state == DEMORALIZED:
        base = math.ceil(base / 2)
    return base


def _morale(units: Sequence["Unit"], states: dict[str, str]) -> Any:
    """11.1: the average morale, Demoralized units at -1, rounded up."""
    values = []
    for u in units:
        m = u.morale
        if m is None or isinstance(m, Unknown):
            return m if isinstance(m, Unknown) else Unknown(f"counters.json {u.counter} level {u.level} morale")
        values.append(m - (1 if states[u.id] == DEMORALIZED else 0))
    return math.ceil(sum(values) / len(values)) if values else 0


def _formation_mix(game: "IslandOfDeath", attackers: Sequence["Unit"]) -> list[tuple[int, str, frozenset[str]]]:
    """9.92, 9.95: -1 when units of more than one formation attack; a remnant is of none."""
    known: set[str] = set()
    unassigned = []
    for u in attackers:
        if u.remnant:
            known.add(f"remnant {u.name}")
        elif u.side == "allied":
            known.add("Malta Garrison")                      # 15.1: the Allies are one formation
        elif u.formation:
            known.add(u.formation)
        else:
            unassigned.append(u)
    if len(known) > 1:
        return [(-1, "mixed formations", frozenset())]
    if unassigned and (known or len(unassigned) > 1):
        deps = frozenset(f"the formation {u.name} is attached to (15.2, kept on paper)" for u in unassigned)
        return [(0, "one formation", deps), (-1, "mixed formations", deps)]
    return [(0, "", frozenset())]


def _integrity(game: "IslandOfDeath", side_units: Sequence["Unit"], everyone: Iterable["Unit"],
               states: dict[str, str]) -> bool:
    """9.92: all the units of one regiment or brigade on the map, none Demoralized or a remnant,
    all in this side of the combat."""
    here = {u.id for u in side_units}
    regiments: dict[str, list["Unit"]] = {}
    for u in everyone:
        reg = _regiment(game, u)
        if reg is not None:
            regiments.setdefault(reg, []).append(u)
    for u in side_units:
        reg = _regiment(game, u)
        if reg is None:
            continue
        members = regiments[reg]
        if len(members) > 1 and all(m.id in here and m.hex is not None and not m.remnant
                                    and states.get(m.id) != DEMORALIZED for m in members):
            return True
    return False


def _regiment(game: "IslandOfDeath", unit: "Unit") -> str | None:
    record = game.data.counter(unit.counter)
    props = record["properties"] if "properties" in record else {}
    for key in ("regiment", "brigade"):
        if key in props and props[key].value:
            return f"{unit.side} {key} {props[key].value}"
    return None


def _armor(units: Sequence["Unit"], states: dict[str, str]) -> bool:
    """9.92: a non-Demoralized tank stacked with an infantry-type unit of the combat."""
    for tank in units:
        if tank.kind == "tank" and states[tank.id] != DEMORALIZED:
            if any(u.hex == tank.hex and u.kind in INFANTRY_LIKE for u in units):
                return True
    return False


def odds_readings(game: "IslandOfDeath", target: str, attackers: Sequence["Unit"], defenders: Sequence["Unit"],
                  everyone: Iterable["Unit"], states: dict[str, frozenset[str]], crt: Crt, *,
                  offense: Sequence[tuple[Any, str, frozenset[str]]] = ((0, "", frozenset()),),
                  defense_support: Sequence[tuple[Any, str, frozenset[str]]] = ((0, "", frozenset()),)
                  ) -> list[Reading]:
    """Every reading of the combat's final odds level and line (9.3 b-g); `offense` and
    `defense_support` the readings of the support each side adds (checks/support.py)."""
    phase = game.phase
    night = game.day_part() == "Night"
    turn = phase.turn if phase is not None else None
    line = crt.line_of(game, target, night)
    everyone = list(everyone)
    fighting_att = [u for u in attackers if u.kind not in NOT_TAKING_PART]
    fighting_def = [u for u in defenders if u.kind not in NOT_TAKING_PART]
    involved = fighting_att + fighting_def
    open_units = [u for u in involved if len(states.get(u.id, frozenset({NORMAL}))) > 1]
    if 2 ** len(open_units) > MAX_COMBOS and len(open_units) > 6:
        deps = frozenset(f"the morale state of {u.name}" for u in open_units)
        return [Reading(Unknown(*deps), line, "too many unsettled morale states", deps)]
    supply = {}
    for u in fighting_att:
        found = game.supply.out_of_supply(u.id, turn) if turn is not None else False
        supply[u.id] = found
    doubled = Tri.of(game.supply.fort(target))
    terrain = game.board.terrain(target)
    if not isinstance(terrain, Unknown) and terrain == "city":
        doubled = Tri.of(True)
    elif isinstance(terrain, Unknown):
        doubled = doubled | Tri.of(terrain)
    fort = Tri.of(game.supply.fort(target))
    markers = [u for u in everyone if u.hex == target and u.counter == "ax-air-support"]
    out: dict[tuple[Any, Any], Reading] = {}
    choices = [sorted(states.get(u.id, frozenset({NORMAL}))) for u in open_units]
    supply_open = [u for u in fighting_att if isinstance(supply[u.id], Unknown)]
    for combo in itertools.product(*choices, *([False, True] for _ in supply_open)):
        st = {u.id: next(iter(states.get(u.id, frozenset({NORMAL})))) for u in involved}
        deps: set[str] = set()
        for u, s in zip(open_units, combo):
            st[u.id] = s
            deps.add(f"the morale state of {u.name} (its recovery roll, 11.51)")
        oos = {u.id: supply[u.id] is True for u in fighting_att}
        for u, flag in zip(supply_open, combo[len(open_units):]):
            oos[u.id] = flag
            deps |= set(supply[u.id].data)
        attack: Any = 0
        for u in fighting_att:
            attack = attack + _strength(u, st[u.id], True, oos[u.id])
        defense: Any = 0
        for u in fighting_def:
            defense = defense + _strength(u, st[u.id], False, False)
        for doubling, (sa, wa, da), (sd, wd, dd) in itertools.product(
                [doubled.value] if doubled.known else [False, True], offense, defense_support):
            d_total = (defense * 2 if doubling else defense) + sd
            a_total = attack + sa
            d2 = set(deps) | set(da) | set(dd) | (set() if doubled.known else set(doubled.depends_on))
            base = odds_level(a_total, d_total)
            shifts: list[list[tuple[int, str, frozenset[str]]]] = []
            if _armor(fighting_att, st):
                shifts.append([(2, "armor attacking", frozenset())])
            if _armor(fighting_def, st):
                shifts.append([(-1, "armor defending", frozenset())])
            hexes = {u.hex for u in fighting_att if not u.is_artillery}
            if len(hexes) >= 4:
                shifts.append([(1, "envelopment", frozenset())])
            if fort.true and all(any(u.hex == h and u.kind in ENGINEERS for u in fighting_att) for h in hexes):
                shifts.append([(1, "engineers against a fort", frozenset())])
            elif not fort.known and all(any(u.hex == h and u.kind in ENGINEERS for u in fighting_att) for h in hexes):
                shifts.append([(0, "", fort.depends_on), (1, "engineers against a fort", fort.depends_on)])
            if _integrity(game, fighting_att, everyone, st):
                shifts.append([(2, "attacker integrity", frozenset())])
            if _integrity(game, fighting_def, everyone, st):
                shifts.append([(-1, "defender integrity", frozenset())])
            shifts.append(_formation_mix(game, fighting_att))
            morale_a, morale_d = _morale(fighting_att, st), _morale(fighting_def, st)
            if isinstance(morale_a, Unknown) or isinstance(morale_d, Unknown):
                data = set()
                for m in (morale_a, morale_d):
                    if isinstance(m, Unknown):
                        data |= m.data
                shifts.append([(Unknown(*data), "morale", frozenset(data))])     # type: ignore[list-item]
            else:
                diff = max(-2, min(3, morale_a - morale_d))
                shifts.append([(diff, f"morale {morale_a} - {morale_d}", frozenset())])
            if markers and not night and fighting_att and fighting_att[0].side == "axis":
                shifts.append([(len(markers), f"{len(markers)} air support", frozenset())])
            leaders_a = [u for u in attackers if u.is_leader and u.hex in hexes]
            leaders_d = [u for u in defenders if u.is_leader]
            if leaders_a:
                shifts.append([(0, "", frozenset()), (1, "attacker's command roll", frozenset())])
            if leaders_d:
                shifts.append([(0, "", frozenset()), (-1, "defender's command roll", frozenset())])
            for picked in itertools.product(*shifts):
                data = set(d2)
                total: Any = 0
                whys = []
                for amount, why, more in picked:
                    total = total + amount
                    data |= more
                    if why and amount != 0:
                        whys.append(f"{why} {amount:+d}" if isinstance(amount, int) else why)
                if isinstance(base, Unknown) or isinstance(total, Unknown):
                    level: Any = Unknown(*((base.data if isinstance(base, Unknown) else frozenset())
                                           | (total.data if isinstance(total, Unknown) else frozenset())))
                else:
                    level = base + total
                whys = [w for w in (wa, wd) if w] + whys
                shown = f"{_num(a_total)} to {_num(d_total)}" + (f" ({level_name(base)})" if isinstance(base, int) else "")
                why = shown + ("; " + ", ".join(whys) if whys else "")
                key = (level if isinstance(level, int) else "?", line if isinstance(line, str) else "?")
                if key not in out or len(data) < len(out[key].deps):
                    out[key] = Reading(level, line, why, frozenset(data), (a_total, d_total))
    return list(out.values())


def _num(value: Any) -> str:
    return "?" if isinstance(value, Unknown) else str(value)
