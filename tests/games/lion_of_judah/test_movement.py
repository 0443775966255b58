"""Movement checks (MV-*) on SYNTHETIC boards (see synthetic.py), and the rulebook's examples."""
from __future__ import annotations

import pytest

from vlog.engine.movement import check_move
from vlog.findings import Basis, Severity
from vlog.games.lion_of_judah.checks.movement import MoveFacts, judge_move, movement_rules

from .synthetic import shipped_board, state, synthetic_board, unit


AREA = [f"{c:02d}{r:02d}" for c in range(14, 19) for r in range(1, 13)]
"""A block of hexes a test puts in play (SYNTHETIC zone)."""


def only(findings, check):
    assert [f.check for f in findings] == [f"lion-of-judah/{check}"], [f.message for f in findings]
    return findings[0]


@pytest.fixture
def plain(tmp_path):
    """A clear synthetic board."""
    return synthetic_board(tmp_path / "plain")


def test_river_into_mountain_costs_three(tmp_path):
    """11.1 and 11.4 examples: a foot unit crossing a river into a mountain hex pays 2 + 1 = 3."""
    board = synthetic_board(tmp_path, terrain={"1605": "mountain"}, hexsides={"1604/1605": ["river"]})
    sb = unit("sb", "1604", name="Sb")
    rules = movement_rules(board, state(sb), sb, motorized=False, minimum_move=False)
    exact = check_move(rules, "1604", "1605", 3)
    assert exact.verdict.legal and exact.route.cost == 3
    assert exact.route.steps[0].parts == (("terrain", 2), ("hexside", 1))
    assert check_move(rules, "1604", "1605", 2).verdict.proven_illegal


def test_legal_move_yields_nothing(plain):
    sb = unit("sb", "1603", name="Sb")
    assert judge_move(plain, state(sb), MoveFacts(sb, "1603", "1607"), step=4, when="T1") == []


def test_too_far_without_forced_march_roll(plain):
    sb = unit("sb", "1603", name="Sb")
    f = only(judge_move(plain, state(sb), MoveFacts(sb, "1603", "1608"), step=7, when="Turn 2"),
             "MV-23")
    assert f.basis is Basis.PROVEN and f.severity is Severity.ERROR
    assert f.step == 7 and f.when == "Turn 2" and f.rule == "11.5.1; 11.5.3"
    assert f.subjects == ("Sb",)
    assert f.evidence["allowance"] == 4 and f.evidence["cheapest_cost"] == 5
    assert f.evidence["forced_march_hexes_needed"] == 1 and f.evidence["forced_march_rolls"] == []
    assert f.message.startswith("Sb moved from 1603 to 1608 beyond its 4 MPs")


def test_forced_march_example_of_11_5_3(tmp_path):
    """11.5.3: a 5-7-4 infantry spends 3 MPs, then force-marches into a rough hex; net roll 1
    gives '1/A': it pays 2 + 1 = 3 MPs for that hex (6 in all, within double its MF)."""
    board = synthetic_board(tmp_path, terrain={"1607": "rough"})
    inf = unit("it", "1603", name="5-7-4 infantry")
    s = state(inf)
    assert judge_move(board, s, MoveFacts(inf, "1603", "1607", forced_march_rolls=(1,)),
                      step=1, when=None) == []
    f = only(judge_move(board, s, MoveFacts(inf, "1603", "1607"), step=1, when=None), "MV-23")
    assert f.evidence["cheapest_cost"] == 5 and f.evidence["forced_march_hexes_needed"] == 1


def test_forced_march_results_count(plain):
    """Eight clear hexes use exactly double the MF of 4: one '1/A' result (+1 MP) is too many."""
    sb = unit("sb", "1603", name="Sb")
    s = state(sb)
    goal = "1611"
    assert judge_move(plain, s, MoveFacts(sb, "1603", goal, forced_march_rolls=(3, 4, 5, 6)),
                      step=2, when=None) == []
    f = only(judge_move(plain, s, MoveFacts(sb, "1603", goal, forced_march_rolls=(1, 3, 3, 3)),
                        step=2, when=None), "MV-23")
    assert f.basis is Basis.PROVEN
    assert f.evidence["forced_march_rolls"] == [1, 3, 3, 3]
    assert f.evidence["forced_march_surcharges"] == [1, 0, 0, 0]
    f = only(judge_move(plain, s, MoveFacts(sb, "1603", goal, forced_march_rolls=(3, 4, 5)),
                        step=2, when=None), "MV-23")
    assert f.evidence["forced_march_hexes_needed"] == 4


def test_forced_march_with_unknown_table_is_possible():
    """The shipped data lacks the forced march table: the roll's effect is named."""
    board = shipped_board()
    sb = unit("sb", "1603", name="Sb")
    findings = judge_move(board, state(sb), MoveFacts(sb, "1603", "1608", forced_march_rolls=(4,)),
                          step=3, when=None)
    f = only(findings, "MV-23")
    assert f.basis is Basis.POSSIBLE and f.severity is Severity.WARNING
    assert "forced march table, roll 4" in f.evidence["depends_on"]


def test_unknown_terrain_far_move_is_still_proven():
    """Even if every unknown hex cost the least the rules allow (1 MP), 7 hexes exceed 4 + 4."""
    board = shipped_board()
    sb = unit("sb", "1603", name="Sb")
    f = only(judge_move(board, state(sb), MoveFacts(sb, "1603", "1612"), step=3, when=None),
             "MV-03")
    assert f.basis is Basis.PROVEN
    assert "even by forced march" in f.message


def test_no_forced_march_into_amba(tmp_path):
    """11.4.1, 11.5.2: no forced march into an amba hex: one drag that only a forced march into
    the amba explains is reported under the prohibition (MV-24), naming the hex, not as a move
    beyond the allowance (MV-03); one that no forced march explains at all stays MV-03."""
    board = synthetic_board(tmp_path, features={"1607": ["amba"]}, terrain={"1607": "mountain"})
    sb = unit("sb", "1603", name="Sb")
    f = only(judge_move(board, state(sb), MoveFacts(sb, "1603", "1607", forced_march_rolls=(3,)),
                        step=5, when=None), "MV-24")
    assert f.basis is Basis.PROVEN and f.evidence["cheapest_cost"] == 5
    assert f.evidence["forced_march_into"] == ["1607"] and "1607 (amba)" in f.message
    far = only(judge_move(board, state(sb), MoveFacts(sb, "1603", "1612", forced_march_rolls=(3,)),
                          step=5, when=None), "MV-03")
    assert "even by forced march" in far.message


def test_out_of_supply_halves_and_bars_forced_march(plain):
    sb = unit("sb", "1603", name="Sb")
    facts = MoveFacts(sb, "1603", "1606", out_of_supply_at_start=True, forced_march_rolls=(3,))
    f = only(judge_move(plain, state(sb), facts, step=5, when=None), "MV-24")
    assert f.evidence["allowance"] == 2 and f.evidence["movement_factor"] == 4
    assert "out of supply" in f.message
    assert judge_move(plain, state(sb), MoveFacts(sb, "1603", "1605", out_of_supply_at_start=True),
                      step=5, when=None) == []


def test_non_european_may_not_force_march(plain):
    levy = unit("lv", "1603", name="Shoa levy", side="ethiopian", unit_class="ethiopian-shoa",
                movement=3, size=None)
    f = only(judge_move(plain, state(levy), MoveFacts(levy, "1603", "1607", forced_march_rolls=(2,)),
                        step=1, when=None), "MV-24")
    assert "European" in f.message
    f = only(judge_move(plain, state(levy), MoveFacts(levy, "1603", "1607"), step=1, when=None), "MV-03")
    assert f.evidence["allowance"] == 3 and f.evidence["cheapest_cost"] == 4


def test_minimum_move_into_costly_hex(tmp_path):
    """11.2: a unit may always move one hex spending all its MPs."""
    board = synthetic_board(tmp_path, terrain={"1604": "mountain"}, hexsides={"1603/1604": ["river"]})
    slow = unit("s", "1603", name="Slow", movement=1)
    assert judge_move(board, state(slow), MoveFacts(slow, "1603", "1604"), step=1, when=None) == []


def test_prohibited_terrain_and_enemy_hex(tmp_path):
    board = synthetic_board(tmp_path, terrain={"1604": "desert"})
    sb = unit("sb", "1603", name="Sb")
    f = only(judge_move(board, state(sb), MoveFacts(sb, "1603", "1604"), step=2, when=None), "MV-07")
    assert f.basis is Basis.PROVEN and f.evidence["terrain"] == "desert"
    enemy = unit("ras", "1703", name="Ras Kassa", side="ethiopian", kind="leader")
    f = only(judge_move(board, state(sb, enemy), MoveFacts(sb, "1603", "1703"), step=2, when=None),
             "MV-06")
    assert f.evidence["enemy_units"] == ["Ras Kassa"]


def test_defenseless_hex_costs_one_more(plain):
    """11.6: entering a hex holding only an enemy HQ costs +1 MP; only RPs/trucks cost nothing."""
    sb = unit("sb", "1603", name="Sb")
    hq = unit("hq", "1607", name="EAF", side="allied", kind="hq", attack=None, defense=None)
    truck = unit("tr", "1607", name="K", side="allied", kind="truck", attack=None, defense=None)
    assert judge_move(plain, state(sb, truck), MoveFacts(sb, "1603", "1607"), step=1, when=None) == []
    f = only(judge_move(plain, state(sb, hq), MoveFacts(sb, "1603", "1607"), step=1, when=None), "MV-23")
    assert f.evidence["cheapest_cost"] == 5


def test_outside_1935_play_area(tmp_path):
    board = synthetic_board(tmp_path, zones={"eritrea": ["1603", "1604"], "sudan": ["1503"]})
    sb = unit("sb", "1603", name="Sb")
    s = state(sb, scenario="1935-36")
    assert judge_move(board, s, MoveFacts(sb, "1603", "1604", scenario="1935-36"), step=1, when=None) == []
    f = only(judge_move(board, s, MoveFacts(sb, "1603", "1503", scenario="1935-36"), step=1, when=None),
             "MV-07")
    assert "PB 13.1.1" in f.message


def test_hq_sides_and_routes(tmp_path):
    board = synthetic_board(tmp_path, lines={"test-road": ("road", ["1603", "1604", "1605", "1606"])})
    cs = unit("hq", "1603", name="1CA", kind="hq", attack=None, defense=None, movement=4,
              level="cs", motorized=True)
    s = state(cs)
    f = only(judge_move(board, s, MoveFacts(cs, "1603", "1604", after_level="cs"), step=1, when=None),
             "MV-28")
    assert f.evidence == {"side_shown": "cs", "required": "m"}
    m = unit("hq", "1603", name="1CA", kind="hq", attack=None, defense=None, movement=4,
             level="m", motorized=True)
    s = state(m)
    assert judge_move(board, s, MoveFacts(m, "1603", "1604", after_level="m"), step=1, when=None) == []
    assert judge_move(board, s, MoveFacts(m, "1603", "1606", after_level="m"), step=1, when=None) == []
    f = only(judge_move(board, s, MoveFacts(m, "1603", "1704", after_level="m"), step=1, when=None),
             "MV-29")
    assert f.evidence["distance"] == 2 and f.basis is Basis.PROVEN
    assert judge_move(board, s, MoveFacts(m, "1603", "1704", after_level="m", trucks=1),
                      step=1, when=None) == []


def test_no_path_through_another_faction(tmp_path):
    """PB 13.6.1 (MV-42): an Ethiopian unit may not move through another faction's hex; Negus
    units may."""
    board = synthetic_board(tmp_path, terrain={h: "desert" for h in ("1503", "1703", "1502", "1702")},
                            zones={"ethiopia": AREA})
    levy = unit("lv", "1602", name="Shoa levy", side="ethiopian", unit_class="ethiopian-shoa",
                faction="shoa", movement=2, size=None)
    tigray = unit("tg", "1603", name="Tigray levy", side="ethiopian", unit_class="ethiopian-tigray",
                  faction="tigray", movement=6, size=None)
    s = state(levy, tigray, scenario="1935-36")
    f = only(judge_move(board, s, MoveFacts(levy, "1602", "1604", scenario="1935-36"), step=6, when=None),
             "MV-42")
    assert f.basis is Basis.PROVEN and f.evidence["other_factions"] == ["tigray"]
    kz = unit("kz", "1602", name="KZ", side="ethiopian", unit_class="imperial-guard", movement=2,
              size="battalion")
    assert judge_move(board, state(kz, tigray, scenario="1935-36"),
                      MoveFacts(kz, "1602", "1604", scenario="1935-36"), step=6, when=None) == []


def test_shoa_turn_one(tmp_path):
    """PB 13.6.7.1 (MV-21): on turn 1 all Shoa units have only 4 MPs."""
    plain = synthetic_board(tmp_path, zones={"ethiopia": AREA})
    levy = unit("lv", "1603", name="Shoa levy", side="ethiopian", unit_class="ethiopian-shoa",
                faction="shoa", movement=6, size=None)
    s = state(levy)
    facts = MoveFacts(levy, "1603", "1608", scenario="1940-41", turn=1)
    assert judge_move(plain, s, facts, step=1, when=None) == []
    f = only(judge_move(plain, s, MoveFacts(levy, "1603", "1608", scenario="1935-36", turn=1),
                        step=1, when=None), "MV-03")
    assert f.evidence["allowance"] == 4 and "PB 13.6.7.1" in f.evidence["adjustments"][0]


def test_asmara_addis_track_is_a_road_in_1940(tmp_path):
    """PB 14.6.2.1 (MV-13): in 1940-41 the Asmara - Addis Ababa dirt track is a road: a
    motorized unit pays 1/2 MP per hex along it; dirt tracks otherwise give no benefit."""
    board = synthetic_board(tmp_path, terrain={h: "mountain" for h in ("1604", "1605", "1606", "1607")},
                            lines={"track-asmara-addis": ("dirt-track", ["1603", "1604", "1605", "1606",
                                                                         "1607"])})
    armour = unit("cv", "1603", name="CV", movement=2, motorized=True, size="regiment",
                  unit_class=None)
    s = state(armour)
    facts40 = MoveFacts(armour, "1603", "1607", scenario="1940-41")
    assert judge_move(board, s, facts40, step=1, when=None) == []
    f = only(judge_move(board, s, MoveFacts(armour, "1603", "1607"), step=1, when=None), "MV-03")
    assert f.evidence["allowance"] == 2 and f.evidence["cheapest_cost"] == 7   # around the mountains


def test_town_and_amba_use_the_other_terrain(tmp_path):
    """Errata 11.4.3 (MV-10): a town hex costs its other terrain; 11.4.1 (MV-11): an amba is a
    mountain for movement."""
    board = synthetic_board(tmp_path, terrain={"1604": "clear", "1605": "amba"},
                            features={"1604": ["town"], "1605": ["amba"]})
    sb = unit("sb", "1603", name="Sb", movement=3)
    rules = movement_rules(board, state(sb), sb, motorized=False, minimum_move=False)
    route = check_move(rules, "1603", "1605", 3).route
    assert [s.cost for s in route.steps] == [1, 2]


def test_foot_units_along_a_road(tmp_path):
    """11.4.2 (MV-12): 1 MP per road hex whatever the terrain; hexside costs still paid."""
    board = synthetic_board(tmp_path, terrain={h: "mountain" for h in ("1604", "1605", "1606")},
                            hexsides={"1605/1606": ["river"]},
                            lines={"road": ("road", ["1603", "1604", "1605", "1606"])})
    sb = unit("sb", "1603", name="Sb", movement=4)
    rules = movement_rules(board, state(sb), sb, motorized=False, minimum_move=False)
    route = check_move(rules, "1603", "1606", 4).route
    assert route.cost == 4 and [s.via for s in route.steps] == ["line", "line", "line"]


def test_who_may_force_march():
    """11.5.2 with 2.3.4: European units (Italian regulars incl. armour, Commonwealth) and
    Eritrean colonial regulars may; colonial irregulars, Ethiopians, guerrillas, HQs may not."""
    from vlog.games.lion_of_judah.checks.movement import may_force_march

    cases = {
        ("italian", "italian-regular", "combat"): True,
        ("italian", None, "combat"): True,                      # light tanks: class not in the text
        ("italian", "eritrean-colonial-regular", "combat"): True,
        ("italian", "italian-colonial-irregular", "combat"): False,
        ("allied", None, "combat"): True,
        ("allied", "guerrilla", "combat"): False,
        ("ethiopian", "ethiopian-shoa", "combat"): False,
        ("italian", None, "hq"): False,
    }
    for (side, cls, kind), ok in cases.items():
        u = unit("u", "1603", side=side, unit_class=cls, kind=kind)
        assert may_force_march(u, False)[0] is ok, (side, cls, kind)
    assert may_force_march(unit("u", "1603"), True)[0] is False


def test_a_search_is_kept_only_while_what_it_reads_stands(plain):
    """`plain_check` answers as `check_move` does, from its keeping when the same unit (wherever
    it stands now) asks the same move among the same other units, afresh when another unit
    stands elsewhere or the unit itself differs."""
    from dataclasses import replace

    from vlog.games.lion_of_judah.checks.movement import plain_check

    def fresh(position, mover, goal, allowance=4):
        rules = movement_rules(plain, position, mover, motorized=False, goal=goal)
        return check_move(rules, "1603", goal, allowance)

    sb = unit("sb", "1603", name="Sb")
    enemy = unit("ras", "1606", name="Ras", side="ethiopian", unit_class="tribal-levy", faction="tigray")
    first = state(sb, enemy)
    asked = plain_check(plain, first, sb, "1603", "1607", 4, motorized=False, scenario=None, rainy=False)
    assert asked == fresh(first, sb, "1607")
    assert len(plain.move_checks) == 1
    dragged = replace(sb, hex="1604")                   # the unit itself stands elsewhere: kept
    again = plain_check(plain, state(dragged, enemy), dragged, "1603", "1607", 4, motorized=False,
                        scenario=None, rainy=False)
    assert again is asked and len(plain.move_checks) == 1
    moved = replace(enemy, hex="1505")                  # another unit moved: searched again
    there = state(sb, moved)
    assert plain_check(plain, there, sb, "1603", "1607", 4, motorized=False, scenario=None,
                       rainy=False) == fresh(there, sb, "1607") != asked
    other = replace(sb, level="2")                      # the unit differs: searched again, kept for it
    plain_check(plain, first, other, "1603", "1607", 4, motorized=False, scenario=None, rainy=False)
    assert [units[0] for units, *_ in plain.move_checks.values()].count(other) == 1
    assert [units[0] for units, *_ in plain.move_checks.values()].count(sb) == 1      # the one among `there`


def test_a_kept_search_answers_every_goal_as_a_search_of_its_own(tmp_path):
    """A unit dragged hex by hex carries one search on from goal to goal; each answer is the one
    `check_move` gives for that goal alone, over mixed terrain, past enemies, for an Italian
    unit (rules the same for every goal) and a tribal levy (its rules depend on the goal)."""
    from vlog.games.lion_of_judah.checks.movement import plain_check

    board = synthetic_board(tmp_path, terrain={"1605": "mountain", "1704": "rough", "1506": "swamp"},
                            hexsides={"1604/1605": ["river"]})
    sb = unit("sb", "1603", name="Sb")
    levy = unit("lv", "1603", name="Levy", side="ethiopian", unit_class="tribal-levy", faction="tigray")
    other = unit("ot", "1705", name="Other levy", side="ethiopian", unit_class="tribal-levy", faction="gojjam")
    ras = unit("ras", "1606", name="Ras", side="ethiopian", unit_class="tribal-levy", faction="tigray")
    goals = ["1604", "1605", "1704", "1705", "1506", "1607", "1608", "1603", "1706", "1605"]
    for mover, scenario, position in ((sb, None, state(sb, ras)), (levy, None, state(levy, other, sb))):
        for allowance in (2, 4, 6):
            for goal in goals:
                rules = movement_rules(board, position, mover, motorized=False, scenario=scenario, goal=goal)
                assert plain_check(board, position, mover, "1603", goal, allowance, motorized=False,
                                   scenario=scenario, rainy=False) == check_move(rules, "1603", goal, allowance), \
                    (mover.name, allowance, goal)
