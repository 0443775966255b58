"""Combat checks (CB-*) on SYNTHETIC positions, reproducing the rulebook's combat examples.

The regular CRT cells used are the four the rulebook prints (12.11 example, example of play);
the synthetic overlay only adds clear-terrain "no shift" and, where a test says so, Ethiopian
CRT columns."""
from __future__ import annotations

import json
from operator import attrgetter

import pytest

from vlog.engine.combat import odds_level, level_name
from vlog.findings import Basis
from vlog.gamedata import load_game_data
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.combat import (
    CombatFacts, CombatMemory, judge_combat, river_shift, terrain_shift,
)
from vlog.kit.combat import strength_total

from .synthetic import state, synthetic_board, unit, write_overlay


def checks(findings):
    return [f.check.split("/")[1] for f in findings]


@pytest.fixture
def board(tmp_path):
    return synthetic_board(tmp_path, terrain={"1605": "rough", "1607": "mountain"},
                           features={"1009": ["town"], "1307": ["town"]},
                           hexsides={"1214/1314": ["river"], "1214/1313": []})


def it(id, hex_, attack=5, defense=7, steps=4, **kw):
    return unit(id, hex_, name=kw.pop("name", id), attack=attack, defense=defense, steps=steps, **kw)


def et(id, hex_, combat=1, **kw):
    return unit(id, hex_, name=kw.pop("name", id), side="ethiopian", attack=combat, defense=combat,
                steps=1, unit_class=kw.pop("unit_class", "ethiopian-shoa"), size=None, **kw)


def test_ratio_rounding_of_12_5():
    """12.5: '15 to 4 would result in 3-1; 3 to 4 would result in 1-2'."""
    assert level_name(odds_level(15, 4)) == "3:1"
    assert level_name(odds_level(3, 4)) == "1:2"


def test_12_11_example_one_to_one_roll_five(board):
    """12.11: 'At a 1:1 ratio with a modified die roll of 5, the combat result is 2/1'."""
    a, d = it("a", "1603", attack=4, steps=4), et("d", "1604", combat=4, unit_class=None)
    d = unit("d", "1604", name="Ras", side="ethiopian", attack=4, defense=4, steps=2)
    s = state(a, d)
    legal = CombatFacts("1604", (a,), (d,), 5, {"a": 2}, {"d": 1})
    assert judge_combat(board, s, legal, step=20, when=None) == []
    wrong = CombatFacts("1604", (a,), (d,), 5, {"a": 1}, {"d": 1})
    [f] = judge_combat(board, s, wrong, step=20, when="Turn 2, Italian combat")
    assert f.check == "lion-of-judah/CB-19" and f.basis is Basis.PROVEN and f.rule == "12.11; CRT"
    assert f.evidence["initial_ratio"] == "1:1" and f.evidence["cell"] == "2/1"
    assert f.evidence["modified_roll"] == 5 and f.evidence["attacker_losses"] == {"a": 1}
    assert f.step == 20 and f.when == "Turn 2, Italian combat"


def test_example_of_play_g_belu(board):
    """Example of play: 16 against 3 = 5:1, CAE HQ 1R, rough 1L -> 5:1; a 5 gives 0/3."""
    attackers = tuple(it(f"a{i}", h, attack=4) for i, h in enumerate(("1604", "1604", "1704", "1705")))
    belu = tuple(et(f"g{i}", "1605", unit_class="ethiopian-gojjam-belu") for i in range(3))
    cae = unit("cae", "1603", name="CAE", kind="hq", attack=None, defense=None, level="cs", size=None)
    s = state(*attackers, *belu, cae)
    facts = CombatFacts("1605", attackers, belu, 5, {}, {g.id: 1 for g in belu},
                        advanced=("a0",), attacker_hqs=(cae,), defender_hqs=())
    assert judge_combat(board, s, facts, step=1, when=None) == []
    short = CombatFacts("1605", attackers, belu, 5, {}, {"g0": 1, "g1": 1},
                        attacker_hqs=(cae,), defender_hqs=())
    found = judge_combat(board, s, short, step=1, when=None)
    assert checks(found) == ["CB-19"]
    assert found[0].evidence["attack"] == 16 and found[0].evidence["defense"] == 3
    assert found[0].evidence["initial_ratio"] == "5:1" and found[0].evidence["column"] == "5:1"


def test_example_of_play_macalle(tmp_path):
    """Example of play: 48 against 5 = 9:1, 1L for the mountain, still over 7:1 -> 7:1; a
    concentric +1 turns a die of 1 into 2: result 0/2. (Macallé is a mountain town: one 1L.)"""
    board = synthetic_board(tmp_path, features={"1307": ["town"]})
    attackers = (it("n", "1407", attack=24), it("s", "1208", attack=24))
    seyum = tuple(et(f"t{i}", "1307", unit_class="ethiopian-tigray") for i in range(5))
    s = state(*attackers, *seyum)
    facts = CombatFacts("1307", attackers, seyum, 1, {}, {"t0": 1, "t1": 1}, air=(0, 0))
    assert judge_combat(board, s, facts, step=1, when=None) == []
    no_bonus = CombatFacts("1307", attackers[:1] + (it("s", "1306", attack=24),), seyum, 1, {},
                           {"t0": 1, "t1": 1}, air=(0, 0))
    [f] = judge_combat(board, s, no_bonus, step=1, when=None)
    assert f.check == "lion-of-judah/CB-19" and f.basis is Basis.POSSIBLE   # 7:1 roll 1 unprinted
    assert "CRT: column 7:1, roll 1" in f.evidence["depends_on"]


def test_12_4_example_2_rough_ten_to_one(board):
    """12.4 ex. 2: rough (1L) at 10:1 is still resolved on 7:1 (9:1 > 7:1): 0/2 on a 2."""
    a = it("a", "1604", attack=10)
    d = et("d", "1605")
    s = state(a, d)
    assert judge_combat(board, s, CombatFacts("1605", (a,), (d,), 2, {}, {"d": 1}, advanced=("a",)),
                        step=1, when=None) == []


def test_river_majority_of_12_8_1(tmp_path):
    """12.8.1: 14 factors from 1313 and 14 across the river from 1314: no shift; 13 and 14: 1L."""
    board = synthetic_board(tmp_path, hexsides={"1214/1314": ["river"], "1214/1313": []})
    d = et("d", "1214")
    even = CombatFacts("1214", (it("x", "1313", attack=14), it("y", "1314", attack=14)), (d,), 3)
    assert [s for s, _, _ in river_shift(board, even, {"x": 14, "y": 14})] == [0]
    odd = CombatFacts("1214", (it("x", "1313", attack=13), it("y", "1314", attack=14)), (d,), 3)
    assert [s for s, _, _ in river_shift(board, odd, {"x": 13, "y": 14})] == [-1]


def test_shipped_hexside_1214_1313_is_partial():
    """The shipped data knows only that 1214/1314 is a river; 1214/1313 is partly known."""
    board = Board(load_game_data("lion-of-judah"))
    odd = CombatFacts("1214", (it("x", "1313", attack=13), it("y", "1314", attack=14)), (et("d", "1214"),), 3)
    assert [s for s, _, _ in river_shift(board, odd, {"x": 13, "y": 14})] == [-1]


def test_terrain_shifts(board):
    assert [s for s, _, _ in terrain_shift(board, "1605", False)] == [-1]          # rough
    assert [s for s, _, _ in terrain_shift(board, "1009", False)] == [-1]          # Gondar: town
    assert [s for s, _, _ in terrain_shift(board, "1603", False)] == [0]           # clear
    assert [s for s, _, _ in terrain_shift(board, "1009", True)] == [0]            # Ethiopian CRT
    amba = terrain_shift(board, "1308", False)                                     # 2L, from an example
    assert [s for s, _, _ in amba] == [-2]


def test_loss_distribution_example_of_12_11(board):
    """12.11: a 4-step unit and two 1-step units losing two steps: the 4-step unit must take the
    first loss before either one-step unit is eliminated."""
    four = it("four", "1604", attack=2, defense=2, steps=4)
    one_a = it("oa", "1604", attack=1, defense=1, steps=1, size="regiment")
    one_b = it("ob", "1604", attack=1, defense=1, steps=1, size="regiment")
    atk = et("x", "1603", combat=12)
    s = state(four, one_a, one_b, atk)
    bad = CombatFacts("1604", (atk,), (four, one_a, one_b), 5, {}, {"oa": 1, "ob": 1},
                      ethiopian_crt=False)
    found = judge_combat(board, s, bad, step=1, when=None)
    assert "CB-20" in checks(found)
    cb20 = [f for f in found if f.check.endswith("CB-20")][0]
    assert cb20.evidence["losses"] == {"four": 0, "oa": 1, "ob": 1}
    ok = CombatFacts("1604", (atk,), (four, one_a, one_b), 5, {}, {"four": 1, "ob": 1},
                     ethiopian_crt=False)
    assert "CB-20" not in checks(judge_combat(board, s, ok, step=1, when=None))


def test_second_step_before_all_took_one(board):
    a1, a2 = it("a1", "1604", attack=3), it("a2", "1604", attack=3)
    d = et("d", "1605", combat=6)
    s = state(a1, a2, d)
    facts = CombatFacts("1605", (a1, a2), (d,), 5, {"a1": 2}, {}, ethiopian_crt=False)
    assert "CB-20" in checks(judge_combat(board, s, facts, step=1, when=None))


def test_eligibility(board):
    far = it("far", "1601", name="Sb")
    hq = unit("hq", "1604", name="1CA", kind="hq", attack=None, defense=None, size=None)
    d = et("d", "1605")
    found = judge_combat(board, state(far, hq, d), CombatFacts("1605", (far, hq), (d,), None),
                         step=1, when=None)
    assert checks(found) == ["CB-01", "CB-03"]
    assert found[0].evidence["not_adjacent"] == {"Sb": "1601"}


def test_zero_against_something_errata(board):
    """Errata 12.4: 0 vs >0 eliminates all attacking units, defenders untouched."""
    a = et("a", "1604", combat=0)
    d = it("d", "1605", attack=1, defense=2, steps=2)
    s = state(a, d)
    assert judge_combat(board, s, CombatFacts("1605", (a,), (d,), 4, {"a": 1}, {}), step=1, when=None) == []
    [f] = judge_combat(board, s, CombatFacts("1605", (a,), (d,), 4, {}, {"d": 1}), step=1, when=None)
    assert f.check == "lion-of-judah/CB-15" and f.evidence["attackers_not_eliminated"] == ["a"]


def test_advance_after_combat(board):
    a = it("a", "1604", attack=10)
    hq = unit("hq", "1604", name="1CA", kind="hq", attack=None, defense=None, size=None)
    d = et("d", "1605")
    s = state(a, hq, d)
    stay = CombatFacts("1605", (a,), (d,), 2, {}, {"d": 1}, ethiopian_crt=False)
    [f] = judge_combat(board, s, stay, step=1, when=None)
    assert f.check == "lion-of-judah/CB-23" and "no attacking unit advanced" in f.message
    hq_in = CombatFacts("1605", (a,), (d,), 2, {}, {"d": 1}, advanced=("a", "hq"), ethiopian_crt=False)
    [f] = judge_combat(board, s, hq_in, step=1, when=None)
    assert f.check == "lion-of-judah/CB-23" and "did not attack" in f.message


def test_recon_example_of_12_11_1(tmp_path):
    """12.11.1: after an R against Ras Kassa in 1307, 1E and 2E advance and attack Amba Alagi
    1308 again with other units; GS in 1207, which did not advance, may not attack again."""
    board = synthetic_board(tmp_path)
    e1 = it("1e", "1407", name="1E", attack=8)
    e2 = it("2e", "1407", name="2E", attack=8)
    gs = it("gs", "1207", name="GS", attack=8)
    kassa = et("kassa", "1307", name="Ras Kassa", combat=1, kind="leader")
    memory = CombatMemory()
    s = state(e1, e2, gs, kassa)
    first = CombatFacts("1307", (e1, e2, gs), (kassa,), 6, {}, {"kassa": 1}, advanced=("1e", "2e"),
                        air=(0, 0), attacker_hqs=(), defender_hqs=())
    found = judge_combat(board, s, first, step=1, when=None, memory=memory)
    assert checks(found) == ["CB-19"] and found[0].basis is Basis.POSSIBLE   # 7:1, roll 6 unprinted
    memory.may_attack_again = {"1e", "2e"}      # the R result (cell unprinted in the rulebook)
    amba = et("amba", "1308", name="Tigray levy", unit_class="ethiopian-tigray")
    e1m, e2m = e1.moved_to("1307"), e2.moved_to("1307")
    other = it("o", "1309", name="Sb", attack=8)
    second = CombatFacts("1308", (e1m, e2m, other), (amba,), 3, {}, {}, air=(0, 0),
                         attacker_hqs=(), defender_hqs=())
    found = judge_combat(board, state(e1m, e2m, other, amba, gs), second, step=2, when=None, memory=memory)
    assert "CB-22" not in checks(found)
    memory.may_attack_again = set()
    third = CombatFacts("1306", (gs,), (et("z", "1306"),), 3, air=(0, 0), attacker_hqs=(), defender_hqs=())
    found = judge_combat(board, state(gs), third, step=3, when=None, memory=memory)
    assert "CB-22" in checks(found)
    again = CombatFacts("1308", (other,), (amba,), 3, air=(0, 0), attacker_hqs=(), defender_hqs=())
    assert "CB-02" in checks(judge_combat(board, state(other, amba), again, step=4, when=None, memory=memory))


def test_ethiopian_crt_example(tmp_path):
    """Example of play: Ras Imru's 10 against two 1-6 irregulars in Gondar = 5:1, +1 DRM for
    attacking from/into mountain, modified 5 'on the 4:1 table' gives 0/2+R. The shipped data
    does not know the Ethiopian CRT's columns, so 5:1 cannot be placed: POSSIBLE."""
    imru = tuple(et(f"i{i}", "1010", combat=5, unit_class="ethiopian-gojjam-imru") for i in range(2))
    irr = tuple(it(f"r{i}", "1009", attack=1, defense=1, steps=1, unit_class="italian-colonial-irregular",
                   size=None) for i in range(2))
    base = tmp_path / "base"
    board = synthetic_board(base, features={"1009": ["town"]})
    s = state(*imru, *irr, scenario="1935-36")
    facts = CombatFacts("1009", imru, irr, 4, {}, {"r0": 1, "r1": 1}, advanced=("i0",), air=(0, 0),
                        attacker_hqs=(), defender_hqs=())
    [f] = judge_combat(board, s, facts, step=1, when=None)
    assert f.basis is Basis.POSSIBLE and f.evidence["crt"] == "Ethiopian CRT"
    assert any("Ethiopian CRT columns" in d for d in f.evidence["depends_on"])
    cols = tmp_path / "cols"
    write_overlay(cols, features={"1009": ["town"]})
    tables = json.loads((cols / "tables.json").read_text())
    tables["tables"].append({"id": "crt-ethiopian", "axes": [
        {"name": "column", "labels": {"value": ["1:2", "1:1", "2:1", "3:1", "4:1"], "source": "SYNTHETIC"}},
        {"name": "roll", "labels": {"value": [str(r) for r in range(1, 8)], "source": "SYNTHETIC"}}]})
    (cols / "tables.json").write_text(json.dumps(tables))
    board4 = Board(load_game_data("lion-of-judah", overlays=[cols]))
    assert judge_combat(board4, s, facts, step=1, when=None) == []
    wrong = CombatFacts("1009", imru, irr, 4, {}, {"r0": 1}, advanced=(), air=(0, 0),
                        attacker_hqs=(), defender_hqs=())
    assert "CB-19" in checks(judge_combat(board4, s, wrong, step=1, when=None))


def test_hq_support_rules(board):
    a = it("a", "1604", attack=4)
    d = et("d", "1605", combat=4)
    moving = unit("hq", "1601", name="2CA", kind="hq", attack=None, defense=None, level="m", size=None)
    s = state(a, d, moving)
    facts = CombatFacts("1605", (a,), (d,), 5, {"a": 2}, {"d": 1}, attacker_hqs=(moving,), defender_hqs=())
    found = [f for f in judge_combat(board, s, facts, step=1, when=None) if f.check.endswith("CB-13")]
    assert len(found) == 1 and "M side" in found[0].message and "not in or adjacent" in found[0].message


def test_halving_once(board):
    """12.6 (CB-07): factors of units to halve are added, halved once, 0.5 up; out of supply
    and gassed together still halve once."""
    a1, a2 = it("a1", "1604", attack=3), it("a2", "1604", attack=4)
    d = et("d", "1605", combat=1)
    s = state(a1, a2, d)
    facts = CombatFacts("1605", (a1, a2), (d,), None, out_of_supply=frozenset({"a1"}),
                        gassed=frozenset({"a1", "a2"}), ethiopian_crt=False)
    assert strength_total(facts.attackers, facts.out_of_supply | facts.gassed, attrgetter("attack"))[0] == 4
    lone = CombatFacts("1605", (a1,), (d,), 5, {}, {}, out_of_supply=frozenset({"a1"}), air=(0, 0),
                       attacker_hqs=(), defender_hqs=(), ethiopian_crt=False)
    found = judge_combat(board, s, lone, step=1, when=None)
    assert found[0].evidence["attack"] == 2 and found[0].evidence["halved"] == ["a1"]


def test_stacking_limit_per_attacking_hex(board):
    """12.8.2 (CB-11, ST-10): attackers from one hex within the defending hex's limit: a rough
    hex allows 3 divisions from each hex."""
    attackers = tuple(it(f"a{i}", "1604", attack=1) for i in range(4))
    d = et("d", "1605", combat=1)
    found = judge_combat(board, state(*attackers, d), CombatFacts("1605", attackers, (d,), None),
                         step=1, when=None)
    assert checks(found)[0] == "CB-11"
    assert found[0].evidence["divisions"] == 4 and found[0].evidence["limit"] == 3


def test_advance_within_the_stacking_limit(board):
    """12.12 (ST-11): no more than the hex's stacking limit may advance."""
    attackers = tuple(it(f"a{i}", h, attack=5) for i, h in enumerate(("1604", "1604", "1704", "1704")))
    d = et("d", "1605", combat=1)
    facts = CombatFacts("1605", attackers, (d,), None, {}, {"d": 1}, advanced=tuple(a.id for a in attackers))
    found = judge_combat(board, state(*attackers, d), facts, step=1, when=None)
    assert checks(found) == ["CB-23"] and "over the hex's limit of 3" in found[0].message


def test_air_and_hq_shifts_are_capped(board):
    """12.4 steps 4-5 (CB-13, CB-14): at most two air and two HQ shifts per side: 1:1 with three
    logged air shifts is still 3:1, where roll 5 is unprinted, not 4:1."""
    a, d = it("a", "1603", attack=4), unit("d", "1604", name="Ras", side="ethiopian", attack=4,
                                          defense=4, steps=2)
    facts = CombatFacts("1604", (a,), (d,), 5, {"a": 2}, {"d": 1}, air=(3, 0), attacker_hqs=(),
                        defender_hqs=())
    [f] = judge_combat(board, state(a, d), facts, step=1, when=None)
    assert f.evidence["column"] == "3:1" and f.basis is Basis.POSSIBLE


def test_die_clamped_to_seven(tmp_path):
    """12.7 (CB-16): a modified roll above 7 counts as 7: 7:1 with a 6 and the concentric +1 is
    row 7 (unprinted), not an error."""
    board = synthetic_board(tmp_path, features={"1307": ["town"]})
    attackers = (it("n", "1407", attack=24), it("s", "1208", attack=24))
    seyum = tuple(et(f"t{i}", "1307", unit_class="ethiopian-tigray") for i in range(5))
    facts = CombatFacts("1307", attackers, seyum, 6, {}, {"t0": 1, "t1": 1}, air=(0, 0),
                        attacker_hqs=(), defender_hqs=())
    [f] = judge_combat(board, state(*attackers, *seyum), facts, step=1, when=None)
    assert f.evidence["modified_roll"] == 7 and "CRT: column 7:1, roll 7" in f.evidence["depends_on"]


def test_defenseless_defenders(board):
    """12.13 (CB-24): an HQ alone is eliminated, the attacker loses nothing."""
    a = it("a", "1604", attack=5)
    hq = unit("hq", "1605", name="EAF", side="allied", kind="hq", attack=None, defense=None, size=None)
    ok = CombatFacts("1605", (a,), (hq,), None, {}, {"hq": 1}, advanced=("a",))
    assert judge_combat(board, state(a, hq), ok, step=1, when=None) == []
    bad = CombatFacts("1605", (a,), (hq,), None, {"a": 1}, {}, advanced=("a",))
    assert checks(judge_combat(board, state(a, hq), bad, step=1, when=None)) == ["CB-24"]


def test_defenseless_defender_left_in_the_hex_is_not_a_cleared_hex(board):
    """12.13 and 12.12: a truck attacked alone and not eliminated is CB-24's finding only: its
    hex was not cleared, so no advance was due (CB-23 stays silent)."""
    a = it("a", "1604", attack=5)
    truck = unit("tr", "1605", name="Italian truck", kind="truck", attack=None, defense=None,
                 size=None, steps=1)
    kept = CombatFacts("1605", (a,), (truck,), 3, {}, {})
    assert checks(judge_combat(board, state(a, truck), kept, step=1, when=None)) == ["CB-24"]


def test_a_defender_of_no_steps_taken_off_clears_the_hex(board):
    """12.12: an HQ (no steps to lose) removed in the attack leaves the hex cleared: an
    attacker must advance (CB-23), and none has to when the HQ is still there (CB-24 only)."""
    a = it("a", "1604", attack=5)
    hq = unit("hq", "1605", name="EAF", side="allied", kind="hq", attack=None, defense=None,
              size=None, steps=0)
    gone = CombatFacts("1605", (a,), (hq,), None, {}, {}, removed=frozenset({"hq"}))
    found = judge_combat(board, state(a, hq), gone, step=1, when=None)
    assert checks(found) == ["CB-23"] and "no attacking unit advanced" in found[0].message
    stays = CombatFacts("1605", (a,), (hq,), None, {}, {})
    assert checks(judge_combat(board, state(a, hq), stays, step=1, when=None)) == ["CB-24"]


def test_one_faction_per_ethiopian_combat(board):
    """PB 13.6.2.2 (CB-29): one tribal faction per combat; KZ units join any."""
    shoa = et("s", "1604", unit_class="ethiopian-shoa", faction="shoa")
    tigray = et("t", "1704", unit_class="ethiopian-tigray", faction="tigray")
    kz = et("kz", "1704", unit_class="imperial-guard")
    d = it("d", "1605")
    s = state(shoa, tigray, kz, d, scenario="1935-36")
    assert "CB-29" in checks(judge_combat(board, s, CombatFacts("1605", (shoa, tigray), (d,), None),
                                          step=1, when=None))
    assert "CB-29" not in checks(judge_combat(board, s, CombatFacts("1605", (shoa, kz), (d,), None),
                                              step=1, when=None))


def test_hqs_never_absorb_losses(board):
    """12.11 (HQ-01): HQs may never be used to satisfy a step loss."""
    a = it("a", "1604", attack=4)
    hq = unit("hq", "1605", name="CAE", kind="hq", side="ethiopian", attack=None, defense=None, size=None)
    d = et("d", "1605", combat=4)
    facts = CombatFacts("1605", (a,), (d, hq), None, {}, {"hq": 1}, ethiopian_crt=False)
    found = [f for f in judge_combat(board, state(a, d, hq), facts, step=1, when=None)
             if f.check.endswith("CB-20")]
    assert found and "HQ CAE absorbed a step loss" in found[0].message


def guerrilla(id, hex_):
    return unit(id, hex_, name=f"Guerrilla {id}", side="allied", unit_class="guerrilla", attack=1,
                defense=1, steps=1, size=None)


def test_guerrillas_join_only_commonwealth_attacks(board):
    """PB 14.6.4.1 (CB-33): guerrillas attack with Commonwealth units only, with 0 factors."""
    g = guerrilla("g", "1604")
    kar = unit("kar", "1704", name="KAR1", side="allied", unit_class=None, attack=3, defense=3,
               steps=2, size="brigade")
    d = it("d", "1605", attack=1, defense=3, steps=2)
    s = state(g, kar, d, scenario="1940-41")
    alone = judge_combat(board, s, CombatFacts("1605", (g,), (d,), None), step=1, when=None)
    assert "CB-33" in checks(alone)
    together = CombatFacts("1605", (g, kar), (d,), 5, air=(0, 0), attacker_hqs=(), defender_hqs=())
    found = judge_combat(board, s, together, step=1, when=None)
    assert "CB-33" not in checks(found)
    assert found[0].evidence["attack"] == 3          # the guerrilla adds nothing


def test_guerrillas_defending_with_regulars(board):
    """PB 14.6.4.1 (CB-35): they add no defence and cannot absorb losses."""
    g = guerrilla("g", "1605")
    kar = unit("kar", "1605", name="KAR1", side="allied", unit_class=None, attack=3, defense=3,
               steps=2, size="brigade")
    a = it("a", "1604", attack=3)
    s = state(g, kar, a, scenario="1940-41")
    facts = CombatFacts("1605", (a,), (kar, g), None, {}, {"g": 1})
    assert "CB-35" in checks(judge_combat(board, s, facts, step=1, when=None))
    wiped = CombatFacts("1605", (a,), (kar, g), None, {}, {"kar": 2}, advanced=())
    found = judge_combat(board, s, wiped, step=1, when=None)
    assert "CB-35" in checks(found) and "CB-20" not in checks(found)


def test_attack_on_an_empty_hex(board):
    a = it("a", "1604")
    [f] = judge_combat(board, state(a), CombatFacts("1605", (a,), (), 3), step=1, when=None)
    assert f.check == "lion-of-judah/CB-01" and f.evidence == {"target": "1605", "defenders": []}


# -- CB-04: a declared attack is carried out -------------------------------------------------------

def _no_roll(data):
    """Sb (5) attacks a Shoa levy (2) in clear 1107 from 1207: declared, no roll, no loss."""
    sb, lv = it("sb", "1207", name="Sb"), et("lv", "1107", combat=2, name="levy")
    return judge_combat(Board(data), state(sb, lv, scenario="1935-36"), CombatFacts("1107", (sb,), (lv,), None),
                        step=4, when=None)


def test_cb04_no_roll_no_loss_is_a_cancelled_attack(synthetic, shipped):
    [f] = _no_roll(synthetic)           # every roll of the synthetic CRT's 2:1 column costs steps
    assert f.check == "lion-of-judah/CB-04" and f.basis is Basis.PROVEN and f.rule == "12.3"
    assert f.evidence == {"target": "1107", "attackers": ["Sb"], "defenders": ["levy"]}
    [g] = _no_roll(shipped)             # the published CRT's cells are not in the data
    assert g.check == "lion-of-judah/CB-04" and g.basis is Basis.POSSIBLE


def test_cb04_a_roll_without_loss_may_explain_it(tmp_path):
    """With a CRT whose 2:1 column has a 0/0 cell, a roll outside the log could explain it."""
    import shutil

    from .conftest import SYNTHETIC_DATA
    overlay = tmp_path / "data"
    shutil.copytree(SYNTHETIC_DATA, overlay)
    raw = json.loads((overlay / "tables.json").read_text())
    crt = next(t for t in raw["tables"] if t["id"] == "crt")
    for column in crt["cells"].values():
        column["6"] = {"value": "0/0", "source": "SYNTHETIC test cell"}
    (overlay / "tables.json").write_text(json.dumps(raw))
    assert _no_roll(load_game_data("lion-of-judah", overlays=[overlay])) == []
