"""The odds of one Island of Death combat (9.3b-g) on the rulebook's own combat example (9.95):
three 6-7-6 paratroop battalions of the 186th Regiment (morale 6) and a 1-8 tank company
(morale 4, another formation) attack two British 6-6 battalions (morale 4) in clear terrain by
day from three hexes, with 5 + 5 offensive and 3 defensive artillery support: 29 to 15, 1:1,
+2 integrity, +2 morale, +2 armor, -1 mixed formations: 6:1 on "All Other Terrains"."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from vlog.engine.combat import level_name

import vlog.games.island_of_death.rules  # noqa: F401  (loads the checks in order)
from vlog.games.island_of_death.checks.combat_odds import DEMORALIZED, NORMAL, Crt, odds_readings
from vlog.games.island_of_death.units import Unit

LINE = "All Other Terrains (day turns)"


def _unit(uid: str, kind: str, hex_: str, side: str, attack: int | None, defense: int | None, morale: int,
          formation: str | None, size: str = "battalion") -> Unit:
    return Unit(id=uid, name=uid, counter=uid, side=side, kind=kind, size=size, movement_class="foot",
                movement=6, attack=attack, defense=defense, morale=morale, formation=formation, hex=hex_,
                level="full")


def _game(regiments: dict[str, str], night: bool = False) -> Any:
    def counter(cid: str) -> Any:
        props = {"regiment": SimpleNamespace(value=regiments[cid])} if cid in regiments else {}
        return {"properties": props}

    return SimpleNamespace(
        phase=SimpleNamespace(turn=2, phasing="axis"),
        day_part=lambda: "Night" if night else "AM",
        supply=SimpleNamespace(out_of_supply=lambda uid, turn: False, fort=lambda hex_: False),
        board=SimpleNamespace(terrain=lambda hex_: "clear"),
        data=SimpleNamespace(counter=counter))


def _crt() -> Crt:
    crt = Crt.__new__(Crt)
    crt.lines = [LINE, "Night Attacks (all terrain types)"]
    crt.terrain_lines = {"clear": LINE}
    crt.night_line = "Night Attacks (all terrain types)"
    crt.scales, crt.tables = {}, {}
    return crt


FOLGORE = "185th Folgore paratroop division"
PARAS = [_unit(f"para{i}", "paratroop", h, "axis", 6, 7, 6, FOLGORE) for i, h in enumerate(("1210", "1211", "1312"))]
TANK = _unit("tank", "tank", "1210", "axis", 1, None, 4, None, "company")
BRITISH = [_unit(f"brit{i}", "infantry", "1311", "allied", 6, 6, 4, None) for i in range(2)]
REGIMENT = {u.id: "186" for u in PARAS}


def _readings(attackers: list[Unit], defenders: list[Unit], states: dict[str, frozenset[str]] | None = None,
              night: bool = False) -> list[Any]:
    everyone = attackers + defenders
    return odds_readings(_game(REGIMENT, night), "1311", attackers, defenders, everyone, states or {}, _crt(),
                         offense=[(10, "offensive support 10", frozenset())],
                         defense_support=[(3, "defensive support 3", frozenset())])


def test_the_combat_example_of_9_95_is_6_to_1_on_the_clear_line() -> None:
    readings = _readings(PARAS + [TANK], BRITISH)
    # the tank is unassigned in the data: it may or may not belong to the paratroops' formation
    assert sorted(level_name(r.level) for r in readings) == ["6:1", "7:1"]
    example = next(r for r in readings if level_name(r.level) == "6:1")
    assert example.totals == (29, 15) and example.line == LINE
    assert "mixed formations -1" in example.why and "attacker integrity +2" in example.why
    assert "armor attacking +2" in example.why and "morale 6 - 4 +2" in example.why


def test_a_demoralized_battalion_halves_its_attack_and_breaks_integrity() -> None:
    states = {"para0": frozenset({DEMORALIZED})}
    (reading, *_rest) = sorted(_readings(PARAS + [TANK], BRITISH, states), key=lambda r: r.level)
    assert reading.totals == (26, 15)                # 6 halved to 3
    assert "attacker integrity" not in reading.why


def test_an_unsettled_state_is_read_both_ways_naming_it() -> None:
    states = {"brit0": frozenset({NORMAL, DEMORALIZED})}
    readings = _readings(PARAS + [TANK], BRITISH, states)
    assert {r.totals[1] for r in readings} == {15, 12}    # 6 + 6 + 3, or 3 + 6 + 3
    assert all(any("brit0" in d for d in r.deps) for r in readings)


def test_the_night_line_on_a_night_turn() -> None:
    assert {r.line for r in _readings(PARAS, BRITISH, night=True)} == {"Night Attacks (all terrain types)"}
