"""Verdicts and unknown values, die ranges, retreat and advance paths."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from vlog.engine.combat import check_advance, check_retreat, find_retreats
from vlog.engine.dice import DieRange, check_roll, parse_range, row_for, sequential_2d6
from vlog.engine.judge import (FALSE, TRUE, Explanation, Ruling, Tri, Unknown, all_of, any_of,
                               at_most, judge, lower_bound, unknowns, verdict_of)
from vlog.errors import GameDataError

from tests.engine.gridutil import oddq_distance, oddq_neighbours

# ---------------------------------------------------------------------------------------------
# unknown values and verdicts


def test_unknown_propagates_through_arithmetic():
    a = Unknown("CRT 3:1 roll 4")
    b = Unknown("terrain of 1213", at_least=1)
    total = a + 2 + b
    assert isinstance(total, Unknown)
    assert total.data == {"CRT 3:1 roll 4", "terrain of 1213"}
    assert lower_bound(total) == 3
    assert lower_bound(2 + b) == 3
    assert isinstance(b * 2, Unknown) and isinstance(10 - b, Unknown)
    assert unknowns(1, a, b) == {"CRT 3:1 roll 4", "terrain of 1213"}
    with pytest.raises(TypeError):
        bool(a)
    with pytest.raises(ValueError):
        Unknown()
    with pytest.raises(ValueError):
        Unknown("x", at_least=5, at_most=2)


def test_bounded_comparison():
    limit = Unknown("terrain", at_least=3, at_most=4)
    assert at_most(3, limit).true
    assert at_most(5, limit).false
    undecided = at_most(4, limit)
    assert not undecided.known and undecided.depends_on == {"terrain"}
    assert at_most(2, 3).true and at_most(Fraction(7, 2), 3).false


def test_kleene_logic():
    u = Tri(None, frozenset({"x"}))
    assert (u & FALSE).false and (u | TRUE).true
    assert (u & TRUE).depends_on == {"x"}
    assert all_of([True, Unknown("y"), True]).depends_on == {"y"}
    assert all_of([True, Unknown("y"), False]).false
    assert any_of([False, Unknown("y")]).depends_on == {"y"}
    assert (~TRUE).false and not (~u).known


def test_judge_picks_the_best_reading():
    legal = Explanation(TRUE, "path via road")
    possible = Explanation(Tri(None, frozenset({"terrain of 0503"})), "via 0503")
    wide = Explanation(Tri(None, frozenset({"a", "b"})), "via a and b")
    wrong = Explanation(FALSE, "too far by 2 MP")
    assert judge([wrong, possible, legal]).ruling is Ruling.LEGAL
    verdict = judge([wrong, wide, possible])
    assert verdict.ruling is Ruling.POSSIBLE
    assert verdict.depends_on == {"terrain of 0503"}
    assert verdict.describe() == "possible, depends on terrain of 0503"
    proven = judge([wrong])
    assert proven.ruling is Ruling.PROVEN and proven.reasons == ("too far by 2 MP",)
    assert proven.describe() == "illegal: too far by 2 MP"
    assert judge([]).ruling is Ruling.PROVEN
    assert verdict_of(Unknown("q")).ruling is Ruling.POSSIBLE


def test_rulings_map_to_finding_basis():
    from vlog.findings import Basis

    assert Ruling.PROVEN.finding_basis is Basis.PROVEN
    assert Ruling.POSSIBLE.finding_basis is Basis.POSSIBLE
    assert Ruling.LEGAL.finding_basis is None


# ---------------------------------------------------------------------------------------------
# dice


def test_die_ranges():
    assert parse_range("1-4") == DieRange(1, 4)
    assert parse_range("5+") == DieRange(5, None)
    assert parse_range("3 - 6") == DieRange(3, 6)     # Ascari prints "3 - 4 - 5 - 6"
    assert parse_range("4–9") == DieRange(4, 9)
    assert str(DieRange(5, None)) == "5+" and str(DieRange(2, 2)) == "2"
    # LoJ PB 14.6.4.5 counter-guerrilla table (inventory 3.1.1): "1-4 Nothing happens", "5+ Attack"
    rows = [parse_range("1-4"), parse_range("5+")]
    assert [row_for(r, rows) for r in (0, 1, 4, 5, 9)] == [None, 0, 0, 1, 1]
    assert True not in DieRange(0, 3)


@pytest.mark.parametrize("text", ["", "x", "1-", "5-2", "1--2", "+5", "1/2", "9" * 60])
def test_bad_ranges_raise(text):
    with pytest.raises(GameDataError):
        parse_range(text)


def test_rolls():
    # Sideshow 16.0 (inventory EVT-01): "2 then 3 = 23".
    assert sequential_2d6(2, 3) == 23
    assert check_roll(12, dice=2) == 12
    for bad in (0, 7, 1.5, True, "3"):
        with pytest.raises(GameDataError):
            check_roll(bad)


@given(st.text(max_size=20))
def test_parse_range_only_raises_game_data_error(text):
    try:
        parse_range(text)
    except GameDataError:
        pass


# ---------------------------------------------------------------------------------------------
# retreat and advance

NB = oddq_neighbours(10, 10)


def test_sideshow_retreat_moves_away_from_the_attack_hex():
    # Sideshow 8.26 (sideshow.txt:417): retreat "a number of hexes away from the attack hex
    # equal to one dieroll"; 8.27: not into enemy-occupied or impassable hexes.
    attack = (5, 5)
    enemy = {(5, 3)}

    def away(h):
        return oddq_distance(attack, h)

    ok = [(5, 5), (5, 4), (4, 4)]
    assert check_retreat(ok, length=2, neighbours=NB, may_enter=lambda h: h not in enemy,
                         distance=away) == []
    back = [(5, 5), (5, 4), (5, 5)]
    problems = check_retreat(back, length=2, neighbours=NB, may_enter=lambda h: True,
                             distance=away)
    assert any("does not move away" in p for p in problems)
    assert any("entered twice" in p for p in problems)
    into_enemy = [(5, 5), (5, 4), (5, 3)]
    assert any("may not be entered" in p for p in
               check_retreat(into_enemy, length=2, neighbours=NB,
                             may_enter=lambda h: h not in enemy, distance=away))
    jump = [(5, 5), (5, 3)]
    assert any("not adjacent" in p for p in
               check_retreat(jump, length=(1, 4), neighbours=NB, may_enter=lambda h: True))
    short = [(5, 5), (5, 4)]
    assert check_retreat(short, length=3, neighbours=NB, may_enter=lambda h: True) != []


def test_no_retreat_means_none_found():
    # a unit surrounded by enemies (Sideshow 8.27: "a unit that cannot leave the attack hex is
    # eliminated") has no legal retreat path.
    start = (5, 5)
    blocked = set(NB(start))
    assert find_retreats(start, length=1, neighbours=NB, may_enter=lambda h: h not in blocked) == []
    paths = find_retreats(start, length=2, neighbours=NB, may_enter=lambda h: True,
                          distance=lambda h: oddq_distance(start, h))
    assert paths and all(oddq_distance(start, p[-1]) == 2 for p in paths)
    assert all(check_retreat(p, length=2, neighbours=NB, may_enter=lambda h: True,
                             distance=lambda h: oddq_distance(start, h)) == [] for p in paths)


def test_iod_advance_example():
    # IoD combat example (island-of-death.txt:363): after the defender retreats two hexes the
    # attackers "may then advance into the attacked hex and one hex beyond it"; 9.85
    # (island-of-death.txt:328): "an advance of 3 ... If it left an enemy ZOC, the advance
    # would be reduced from 3 to 2 hexes".
    # The foot (2) and motorized/mechanized (3) maxima are the data's limits (9.86, line 329).
    from tests.engine import shipped

    foot = shipped.known("island-of-death", "limits", "advance_foot_max")
    mot_mech = shipped.known("island-of-death", "limits", "advance_mot_mech_max")
    assert (foot, mot_mech) == (2, 3)
    attacker, attacked = (4, 4), (5, 4)
    beyond = (6, 4)
    assert check_advance([attacker, attacked, beyond], attacked=attacked, max_hexes=foot,
                         neighbours=NB, may_enter=lambda h: True) == []
    third = (7, 4)
    assert check_advance([attacker, attacked, beyond, third], attacked=attacked, max_hexes=mot_mech - 1,
                         neighbours=NB, may_enter=lambda h: True) != []
    sideways = [attacker, (4, 5)]
    assert any("must first enter" in p for p in
               check_advance(sideways, attacked=attacked, max_hexes=2, neighbours=NB,
                             may_enter=lambda h: True))
    assert check_advance([attacker], attacked=attacked, max_hexes=2, neighbours=NB,
                         may_enter=lambda h: True) == []


def test_value_or_unknown_names_the_datum():
    from vlog.engine.judge import value_or_unknown

    class FakeDatum:
        def __init__(self, value):
            self.value, self.file, self.path = value, "map.json", "$.hexes.1213.terrain"

    assert value_or_unknown(FakeDatum("mountain")) == "mountain"
    missing = value_or_unknown(FakeDatum(None), at_least=1)
    assert isinstance(missing, Unknown)
    assert missing.data == {"map.json $.hexes.1213.terrain"} and missing.at_least == 1
    assert value_or_unknown(FakeDatum(None), "TEC swamp").data == {"TEC swamp"}
    assert value_or_unknown(3) == 3
