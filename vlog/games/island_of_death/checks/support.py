"""Artillery and warship support of a declared attack (9.3b-c, 12.2, 16.73-16.76), named on its
attack line (`; support 28`, `; defensive support 12`; none named: none).

Judged for each declaration, on the table as it stands when it is typed:

* CBT-08: the printed offensive support is at most twice the printed attack of the attacking
  ground units, the printed defensive support at most the printed defense of the defenders
  (12.21, 16.74); at most three warships support an attack and two a defense; warships and
  artillery do not support the same side of one attack (16.74);
* CBT-09: only artillery and warships support; each supporting unit is within its range of the attacked hex; artillery shows its
  prepared side, is not in an enemy ZOC (12.23) and not Demoralized (11.4); warships give no
  support on a night turn (16.76). Ammunition (the support and Out of Ammo markers) is not read.

`support_readings` gives the support each side adds, every way the log leaves open (a warship's
communications roll, 16.73, is read both ways; 9.91: Out of Supply and Disorganized -1, then the
night, city/town and other-formation halvings, each rounded up).
"""
from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from vlog.engine.judge import Ruling, Tri, Unknown
from vlog.kit.steps import Declared
from vlog.kit.units import factor

from vlog.games.island_of_death.checks.combat import named_units, speaker_side
from vlog.games.island_of_death.checks.combat_odds import DEMORALIZED, DISORGANIZED, NORMAL
from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView

__all__ = ["support_units", "support_readings", "printed_support"]

MAX_WARSHIPS = {"offensive": 3, "defensive": 2}
"""16.74: warships supporting one attack / one defense."""


def unready_artillery(game: "IslandOfDeath", unit: "Unit", zoc: Any) -> list[tuple[str, dict[str, Any], Ruling, tuple[str, ...]]]:
    """Why artillery may not fire, for support or bombardment alike: hitched (12.11), Demoralized
    (11.4), in an enemy ZOC (12.23; POSSIBLE where the map leaves the ZOC open). Each reason as
    (the message's ending, evidence, ruling, the data it depends on)."""
    out: list[tuple[str, dict[str, Any], Ruling, tuple[str, ...]]] = []
    if not unit.prepared:
        out.append(("on its hitched side (12.11)", {"unit": unit.counter, "side_shown": unit.level}, Ruling.PROVEN, ()))
    if game.combats.state(unit.id) == frozenset({DEMORALIZED}):
        out.append(("while Demoralized (11.4)", {"unit": unit.counter, "state": DEMORALIZED}, Ruling.PROVEN, ()))
    in_zoc = zoc.in_zoc(unit.hex) if zoc is not None else False
    if in_zoc is True:
        out.append((f"from {unit.hex}, in an enemy ZOC (12.23)", {"unit": unit.counter, "hex": unit.hex},
                    Ruling.PROVEN, ()))
    elif isinstance(in_zoc, Unknown):
        out.append((f"from {unit.hex}, which may be in an enemy ZOC (12.23)", {"unit": unit.counter, "hex": unit.hex},
                    Ruling.POSSIBLE, tuple(sorted(in_zoc.data))))
    return out


def printed_support(game: "IslandOfDeath", unit: "Unit", key: str) -> Any:
    """A supporting unit's printed `key` ("offensive", "defensive", "range") at its level, or
    at its prepared level for hitched artillery (the value it would fire with)."""
    record = game.data.counter(unit.counter)
    levels = record["levels"] if "levels" in record else None
    level = unit.level
    if unit.is_artillery and levels is not None and "prepared" in levels:
        level = "prepared"
    found = factor(levels, level, key, unit.counter)
    return Unknown(f"counters.json {unit.counter} level {level} {key}") if found is None else found


def support_units(game: "IslandOfDeath", names: Iterable[str], target: str, units: Any,
                  side: str | None) -> list["Unit"]:
    found = named_units(game, names, target, units, side, ground=False)
    return [u for u in found if u.is_artillery or u.kind == "warship"]


def _strength(game: "IslandOfDeath", unit: "Unit", key: str, state: str, out_of_supply: Any,
              halvings: int) -> list[tuple[int | Unknown, frozenset[str]]]:
    """9.91, 10.22, 12.22: one unit's support, each reading with the data it relies on."""
    base = printed_support(game, unit, key)
    if isinstance(base, Unknown):
        return [(base, frozenset(base.data))]
    if unit.is_artillery and state == DEMORALIZED:
        return [(0, frozenset())]
    out = []
    for oos in ([out_of_supply] if not isinstance(out_of_supply, Unknown) else [False, True]):
        deps = frozenset(out_of_supply.data) if isinstance(out_of_supply, Unknown) else frozenset()
        value = base
        if unit.is_artillery and oos is True:
            value = max(1, value - 1)
        if unit.is_artillery and state == DISORGANIZED:
            value = max(2, value - 1)
        for _ in range(halvings):
            value = math.ceil(value / 2)
        out.append((value, deps))
    return out


def support_readings(game: "IslandOfDeath", supporters: Sequence["Unit"], key: str, fighting: Sequence["Unit"],
                     target: str, states: dict[str, frozenset[str]], night: bool
                     ) -> list[tuple[Any, str, frozenset[str]]]:
    """Every reading of the support one side adds: (total, why, data relied on)."""
    if not supporters:
        return [(0, "", frozenset())]
    terrain = game.board.terrain(target)
    turn = game.phase.turn if game.phase is not None else None
    per_unit: list[list[tuple[Any, str, frozenset[str]]]] = []
    for unit in supporters:
        halvings = 1 if night else 0
        town = Tri.of(terrain in ("city", "town")) if not isinstance(terrain, Unknown) else Tri.of(terrain)
        if unit.is_artillery and unit.side == "axis" and not any(u.formation == unit.formation for u in fighting):
            halvings += 1                                        # 12.22: no unit of its formation
        choices: list[tuple[Any, str, frozenset[str]]] = []
        for in_town in ([town.value] if town.known or key != "offensive" or not unit.is_artillery
                        else [False, True]):
            h = halvings + (1 if key == "offensive" and unit.is_artillery and in_town else 0)
            town_deps = frozenset() if town.known or key != "offensive" else frozenset(town.depends_on)
            for state in sorted(states.get(unit.id, frozenset({NORMAL}))):
                oos = game.supply.out_of_supply(unit.id, turn) if turn is not None else False
                for value, deps in _strength(game, unit, key, state, oos, h):
                    extra = frozenset({f"the morale state of {unit.name}"}) if len(states.get(unit.id, ())) > 1 else frozenset()
                    choices.append((value, f"{unit.name} {value if isinstance(value, int) else '?'}",
                                    deps | town_deps | extra))
        if unit.kind == "warship":
            # 16.73: a failed communications roll takes its support off
            choices = choices + [(0, f"{unit.name} 0 (communications failed)",
                                  frozenset({f"the communications roll of {unit.name} (16.73)"}))]
            choices = [(v, w, d | frozenset({f"the communications roll of {unit.name} (16.73)"})) for v, w, d in choices]
        per_unit.append(choices)
    out: dict[Any, tuple[Any, str, frozenset[str]]] = {}
    for picked in itertools.product(*per_unit):
        total: Any = 0
        deps: frozenset[str] = frozenset()
        for value, _why, more in picked:
            total = total + value
            deps = deps | more
        why = f"{key} support " + ", ".join(w for _v, w, _d in picked)
        k = total if isinstance(total, int) else "?"
        if k not in out or len(deps) < len(out[k][2]):
            out[k] = (total, why, deps)
    return list(out.values())


@REGISTRY.check("CBT-08", "CBT-09", event=Declared)
def judge_support(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """12.2, 16.73-16.76 on the support an attack line names."""
    if event.grammar != "attack":
        return []
    attack = event.declaration
    if not attack.support and not attack.defensive_support:
        return []
    units = game.units(view.before)
    side = speaker_side(game, view)
    attackers = named_units(game, attack.attackers, attack.target, units, side)
    side = side or (attackers[0].side if attackers else (game.phase.phasing if game.phase is not None else None))
    defenders = [u for u in units.values() if u.hex == attack.target and u.is_ground_unit and u.side != side]
    other = defenders[0].side if defenders else None
    night = game.day_part() == "Night"
    out: list["Finding"] = []

    def finding(short: str, message: str, evidence: dict[str, Any], ruling: Ruling = Ruling.PROVEN,
                depends_on: tuple[str, ...] = ()) -> None:
        out.append(game.finding(short, ruling, step=event.step, message=message,
                                evidence={"target": attack.target, **evidence}, depends_on=depends_on))

    for key, names, own, fighting, stat in (("offensive", attack.support, side, attackers, "attack"),
                                            ("defensive", attack.defensive_support, other, defenders, "defense")):
        if not names:
            continue
        named = named_units(game, names, attack.target, units, own, ground=False)
        for unit in named:
            if not unit.is_artillery and unit.kind != "warship":
                finding("CBT-09", f"{unit.label()} is named as giving {key} support to {attack.target}: only "
                                  f"artillery and warships support (9.3b-c, 12.0)", {"unit": unit.counter, "kind": unit.kind})
        supporters = [u for u in named if u.is_artillery or u.kind == "warship"]
        warships = [u for u in supporters if u.kind == "warship"]
        guns = [u for u in supporters if u.is_artillery]
        if warships and guns:
            finding("CBT-08", f"warships ({', '.join(u.name for u in warships)}) and artillery "
                              f"({', '.join(u.name for u in guns)}) both give {key} support to the attack on "
                              f"{attack.target} (16.74)", {"support": key, "warships": [u.counter for u in warships],
                                                           "artillery": [u.counter for u in guns]})
        if len(warships) > MAX_WARSHIPS[key]:
            finding("CBT-08", f"{len(warships)} warships give {key} support to the attack on {attack.target}: at "
                              f"most {MAX_WARSHIPS[key]} (16.74)",
                    {"support": key, "count": len(warships), "limit": MAX_WARSHIPS[key]})
        printed = [printed_support(game, u, key) for u in supporters]
        ground = [u for u in fighting if u.kind not in ("leader", "coastal-gun", "marker", "warship")]
        strength = [getattr(u, stat) for u in ground]
        if all(isinstance(v, int) for v in printed) and all(isinstance(v, int) for v in strength):
            limit = (2 if key == "offensive" else 1) * sum(strength)
            if sum(printed) > limit:
                finding("CBT-08", f"{key} support {sum(printed)} (printed) on the attack on {attack.target} is more "
                                  f"than {'twice the printed attack' if key == 'offensive' else 'the printed defense'}"
                                  f" of the {'attackers' if key == 'offensive' else 'defenders'}, {limit} (12.21, 16.74)",
                        {"support": key, "printed_support": sum(printed), "limit": limit})
        else:
            data = sorted({d for v in [*printed, *strength] if isinstance(v, Unknown) for d in v.data})
            game.unsettled("CBT-08", event.step, data or ["counters.json support factors"])
        zoc = game.zoc(view.before, own) if own is not None else None
        for unit in supporters:
            reach = printed_support(game, unit, "range")
            distance = game.board.distance(unit.hex, attack.target)
            if isinstance(reach, int) and distance > reach:
                finding("CBT-09", f"{unit.label()} gives {key} support to {attack.target}, {distance} hexes away: its "
                                  f"range is {reach} (9.11)", {"unit": unit.counter, "distance": distance, "range": reach})
            elif isinstance(reach, Unknown):
                game.unsettled("CBT-09", event.step, sorted(reach.data))
            if unit.kind == "warship" and night:
                finding("CBT-09", f"the warship {unit.label()} gives {key} support on a night turn (16.76)",
                        {"unit": unit.counter, "night": True})
            if not unit.is_artillery:
                continue
            for ending, evidence, ruling, data in unready_artillery(game, unit, zoc):
                finding("CBT-09", f"{unit.label()} gives {key} support {ending}", evidence, ruling, data)
    return out
