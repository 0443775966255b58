"""TS-09 (neutral French Somaliland) and CB-34 (no support for guerrillas alone in a hex) on
SYNTHETIC positions: the zones written here are test values, not the published map."""
from __future__ import annotations

import pytest

from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.areas import C1_DATUM, judge_neutral_entry
from vlog.games.lion_of_judah.checks.guerrillas import judge_guerrilla_support

from .scripted import judge_actions
from .synthetic import shipped_board, state, synthetic_board, unit

FRENCH = ("1909", "1910")
BRITISH = ("2010", "2011")


@pytest.fixture
def board(tmp_path):
    return synthetic_board(tmp_path, zones={"french-somaliland": FRENCH, "british-somaliland": BRITISH})


def allied(id, hex_, **kw):
    return unit(id, hex_, side="allied", unit_class=kw.pop("unit_class", "commonwealth"), **kw)


def guerrilla(id, hex_):
    return unit(id, hex_, side="allied", unit_class="guerrilla", attack=0, defense=1, steps=1, size=None)


# -- TS-09 -------------------------------------------------------------------------------------
def test_entering_neutral_french_somaliland_is_proven_when_the_log_says_neutral(board):
    scc = allied("scc", "2010", name="SCC")
    s = state(scc, scenario="1940-41")
    s.flags["french-somaliland-joined"] = False
    [f] = judge_neutral_entry(board, s, scc, "1910", step=7, when="Turn 1, Allied movement")
    assert f.check == "lion-of-judah/TS-09" and f.basis is Basis.PROVEN and f.rule == "PB 14.1.1; 14.6.6"
    assert f.evidence["from"] == "2010" and f.evidence["hex"] == "1910" and f.subjects == ("SCC",)
    assert "1910" in f.message


def test_entering_without_a_known_c1_draw_is_possible_naming_the_event(board):
    sb = unit("sb", "2011", name="Sb")
    [f] = judge_neutral_entry(board, state(sb, scenario="1940-41"), sb, "1909", step=3, when=None)
    assert f.basis is Basis.POSSIBLE and f.evidence["depends_on"] == [C1_DATUM]


def test_joined_french_somaliland_may_be_entered(board):
    scc = allied("scc", "2010")
    s = state(scc, scenario="1940-41")
    s.flags["french-somaliland-joined"] = True
    assert judge_neutral_entry(board, s, scc, "1910", step=1, when=None) == []


def test_moves_outside_or_within_french_somaliland_and_1935_are_not_judged(board):
    scc, bdo = allied("scc", "2010"), allied("bdo", "1910", unit_class="free-french")
    s = state(scc, bdo, scenario="1940-41")
    assert judge_neutral_entry(board, s, scc, "2011", step=1, when=None) == []
    assert judge_neutral_entry(board, s, bdo, "1909", step=1, when=None) == []
    s35 = state(scc, scenario="1935-36")
    assert judge_neutral_entry(board, s35, scc, "1910", step=1, when=None) == []


def test_unknown_borders_on_the_shipped_map_are_named():
    board = shipped_board()
    scc = allied("scc", "2010")
    [f] = judge_neutral_entry(board, state(scc, scenario="1940-41"), scc, "1910", step=1, when=None)
    assert f.basis is Basis.POSSIBLE
    assert "map.json zone french-somaliland hexes" in f.evidence["depends_on"]


# -- CB-34 -------------------------------------------------------------------------------------
def test_air_support_for_guerrillas_defending_alone_is_proven(board):
    g1, g2, sb = guerrilla("g1", "1213"), guerrilla("g2", "1213"), unit("sb", "1313", name="Sb")
    s = state(g1, g2, sb, scenario="1940-41")
    [f] = judge_guerrilla_support(board, s, "1213", (sb,), (g1, g2), None, (0, 1), step=9, when=None)
    assert f.check == "lion-of-judah/CB-34" and f.basis is Basis.PROVEN and f.rule == "PB 14.6.4.1"
    assert f.evidence == {"target": "1213", "side": "defender", "air": [0, 1], "guerrillas": ["g1", "g2"]}
    # no defending air, or a Commonwealth unit in the hex: nothing to report
    assert judge_guerrilla_support(board, s, "1213", (sb,), (g1, g2), None, (1, 0), step=9, when=None) == []
    ka = allied("ka", "1213")
    s2 = state(g1, g2, ka, sb, scenario="1940-41")
    assert judge_guerrilla_support(board, s2, "1213", (sb,), (g1, g2, ka), None, (0, 1),
                                   step=9, when=None) == []


def test_hq_or_air_support_for_attacking_guerrillas_alone_is_proven(board):
    g, sb = guerrilla("g", "1213"), unit("sb", "1313", name="Sb")
    s = state(g, sb, scenario="1940-41")
    [f] = judge_guerrilla_support(board, s, "1313", (g,), (sb,), ("K",), None, step=4, when=None)
    assert f.evidence["side"] == "attacker" and f.evidence["hqs"] == ["K"]
    [f] = judge_guerrilla_support(board, s, "1313", (g,), (sb,), (), (2, 0), step=4, when=None)
    assert f.evidence["air"] == [2, 0] and "air 2R" in f.message
    assert judge_guerrilla_support(board, s, "1313", (g,), (sb,), (), (0, 0), step=4, when=None) == []


def test_guerrillas_attacking_with_commonwealth_units_share_their_support(board):
    g, ka, sb = guerrilla("g", "1213"), allied("ka", "1212"), unit("sb", "1313", name="Sb")
    s = state(g, ka, sb, scenario="1940-41")
    assert judge_guerrilla_support(board, s, "1313", (g, ka), (sb,), ("K",), (1, 0),
                                   step=4, when=None) == []
    # a guerrilla stacked with a Commonwealth unit is not alone either
    stacked = state(g, allied("kb", "1213"), sb, scenario="1940-41")
    assert judge_guerrilla_support(board, stacked, "1313", (g,), (sb,), ("K",), None,
                                   step=4, when=None) == []


# -- TS-09 through a replayed log --------------------------------------------------------------
TS09_ACTIONS = """as Bob
move "SCC" along 2110 on "Main Map"
turn next
move "SCC" along 2109
"""


def test_a_replayed_entry_into_french_somaliland_is_possible_naming_event_c1(tmp_path):
    """The SCC placed at 2110 (British Somaliland) enters 2109 (French Somaliland, synthetic
    overlay) in the Allied movement of turn 1: the log shows no C1 draw, so POSSIBLE."""
    found = [f for f in judge_actions(tmp_path, TS09_ACTIONS, scenario="1940-41", name="ts09")
             if f.check.startswith("lion-of-judah/")]
    assert [(f.check, f.step, f.basis) for f in found] == [("lion-of-judah/TS-09", 3, Basis.POSSIBLE)]
    assert found[0].evidence["from"] == "2110" and found[0].evidence["hex"] == "2109"
    assert found[0].evidence["depends_on"] == [C1_DATUM] and found[0].when == "Turn 1, Allied movement"


# -- CB-36 -------------------------------------------------------------------------------------
def test_italian_units_attack_guerrillas_in_their_own_hex_and_guerrillas_them(board):
    """PB 14.6.4.1: Italian units 'may attack guerrilla units in their same or an adjacent
    hex'; an attack inside any other hex is still CB-01's 'not adjacent'."""
    from vlog.games.lion_of_judah.checks.combat import CombatFacts, judge_combat

    g, sb = guerrilla("g", "1213"), unit("sb", "1213", name="Sb")
    shared = state(g, sb, scenario="1940-41")
    only_no_roll = ["lion-of-judah/CB-04"]        # eligible; declared with no roll logged (CB-04)
    assert [f.check for f in judge_combat(board, shared, CombatFacts("1213", (sb,), (g,), None),
                                          step=5, when=None)] == only_no_roll
    # guerrillas in the hex join a Commonwealth attack from next door (CB-33: never alone)
    kb = allied("kb", "1212", name="KB")
    with_kb = state(g, sb, kb, scenario="1940-41")
    assert [f.check for f in judge_combat(board, with_kb, CombatFacts("1213", (g, kb), (sb,), None),
                                          step=5, when=None)] == only_no_roll
    # the same attack in 1935-36, or a Commonwealth unit attacking its own hex: not adjacent
    old = state(g, sb, scenario="1935-36")
    [f] = judge_combat(board, old, CombatFacts("1213", (sb,), (g,), None), step=5, when=None)
    assert f.check == "lion-of-judah/CB-01" and f.evidence["not_adjacent"] == {"Sb": "1213"}
    ka = allied("ka", "1213", name="KA")
    mixed = state(g, sb, ka, scenario="1940-41")
    found = judge_combat(board, mixed, CombatFacts("1213", (sb,), (g, ka), None), step=5, when=None)
    assert [f.check for f in found] == ["lion-of-judah/CB-01"]


def test_guerrillas_sharing_an_amba_with_italians_get_only_its_other_terrain(board):
    """PB 14.6.4.1: e.g. the mountain's shift, not the amba's (Amba Aradam, 1208)."""
    from vlog.games.lion_of_judah.checks.combat import terrain_shift

    assert board.has_feature("1208", "amba") is True and board.terrain("1208") == "mountain"
    assert terrain_shift(board, "1208", False) == [(-2, frozenset(), "amba")]
    assert terrain_shift(board, "1208", False, shared=True) == [(-1, frozenset(), "mountain")]


def test_a_shared_amba_combat_is_read_on_the_mountain_column(board):
    """Sb attacks the guerrilla in Amba Aradam with it: 2 vs 1 is 2:1, one left (mountain) makes
    it 1:1 -- the amba's two left (1:2) is no reading any more."""
    from vlog.games.lion_of_judah.checks.combat import CombatFacts, judge_combat

    g, sb = guerrilla("g", "1208"), unit("sb", "1208", name="Sb", attack=2)
    found = judge_combat(board, state(g, sb, scenario="1940-41"),
                         CombatFacts("1208", (sb,), (g,), 3, {"sb": 0}, {"g": 0}), step=5, when=None)
    [f] = [f for f in found if f.check.endswith("CB-19")]
    assert f.evidence["initial_ratio"] == "2:1" and f.evidence["shifts"] == -1
    assert f.evidence["column"] == "1:1" and f.evidence["reading"].startswith("mountain")


# -- TS-07 -------------------------------------------------------------------------------------
def test_a_face_down_dummy_takes_control_until_revealed_as_a_true_dummy():
    """PB 14.6.5: face-down dummies count as units that control hexes 'for all purposes
    (including VPs)'; a revealed true Dummy is defenseless and takes none."""
    from vlog.games.lion_of_judah.interpret import update_control

    face_down = unit("d1", "2311", name="Dummy", side="allied", kind="dummy", attack=None,
                     unit_class="commonwealth", level="front")
    s = state(face_down, scenario="1940-41")
    s.control["2311"] = "italian"
    update_control(s)
    assert s.control["2311"] == "allied"
    true_dummy = unit("d2", "2310", name="Dummy", side="allied", kind="dummy", attack=None,
                      unit_class="commonwealth", level="dummy")
    s2 = state(true_dummy, scenario="1940-41")
    s2.control["2310"] = "italian"
    update_control(s2)
    assert s2.control["2310"] == "italian"
