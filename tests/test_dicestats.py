"""Dice statistics: the chi-square survival function against reference values, and the grouping."""
from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vlog.dicestats import (
    DiceRoll,
    chi2_sf,
    chi_square_test,
    dice_stats,
    gamma_q,
    sum_distribution,
)
from vlog.report import dice as dice_report

# Upper-tail critical values of the chi-square distribution, printed to three decimals:
# NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.4 (also in any textbook
# table, e.g. chi2.sf(3.841, 1) = 0.05). Rounding to three decimals moves p by < 0.05 %.
CRITICAL_VALUES = {
    1: (2.706, 3.841, 5.024, 6.635, 10.828),
    2: (4.605, 5.991, 7.378, 9.210, 13.816),
    5: (9.236, 11.070, 12.833, 15.086, 20.515),
    10: (15.987, 18.307, 20.483, 23.209, 29.588),
    11: (17.275, 19.675, 21.920, 24.725, 31.264),
    20: (28.412, 31.410, 34.170, 37.566, 45.315),
    100: (118.498, 124.342, 129.561, 135.807, 149.449),
}
ALPHAS = (0.10, 0.05, 0.025, 0.01, 0.001)


@pytest.mark.parametrize("df", sorted(CRITICAL_VALUES))
def test_chi2_sf_matches_table(df):
    for x, alpha in zip(CRITICAL_VALUES[df], ALPHAS, strict=True):
        assert chi2_sf(x, df) == pytest.approx(alpha, rel=1e-3), (df, x)


def test_chi2_sf_exact_quantile():
    # 3.841458820694124 is the 95 % quantile of chi-square with 1 df to double precision
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-12)


XS = (1e-6, 0.01, 0.3, 1.0, 2.5, 4.0, 7.0, 12.0, 30.0, 80.0, 300.0)


@pytest.mark.parametrize("x", XS)
def test_chi2_sf_closed_forms(x):
    # df=1: erfc(sqrt(x/2)); df=2: exp(-x/2); df=4: exp(-x/2)(1 + x/2); df=6 adds (x/2)^2/2
    h = x / 2
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(h)), rel=1e-12, abs=1e-300)
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-h), rel=1e-12, abs=1e-300)
    assert chi2_sf(x, 4) == pytest.approx(math.exp(-h) * (1 + h), rel=1e-12, abs=1e-300)
    assert chi2_sf(x, 6) == pytest.approx(math.exp(-h) * (1 + h + h * h / 2), rel=1e-12, abs=1e-300)


@given(
    a=st.floats(min_value=0.5, max_value=60),
    x=st.floats(min_value=0.01, max_value=120),
)
def test_gamma_q_recurrence(a, x):
    # Q(a+1, x) = Q(a, x) + x^a e^-x / Gamma(a+1), across the series/continued-fraction boundary
    step = math.exp(a * math.log(x) - x - math.lgamma(a + 1))
    assert gamma_q(a + 1, x) == pytest.approx(gamma_q(a, x) + step, rel=1e-9, abs=1e-14)


def test_chi2_sf_edges():
    assert chi2_sf(0.0, 5) == 1.0
    assert chi2_sf(-1.0, 5) == 1.0
    assert chi2_sf(math.inf, 5) == 0.0
    assert chi2_sf(1e6, 3) == 0.0
    assert 0.0 < chi2_sf(1000.0, 5) < 1e-200
    assert chi2_sf(5000.0, 5000) == pytest.approx(0.5, abs=0.01)   # median ~ df for large df
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)
    with pytest.raises(ValueError):
        gamma_q(1.0, math.nan)


def test_sum_distribution():
    two = sum_distribution(2, 6)
    assert [round(p * 36) for p in two] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    three = sum_distribution(3, 6)
    assert len(three) == 16 and round(three[7] * 216) == 27   # total 10 in 27 of 216 ways
    assert math.fsum(sum_distribution(5, 10)) == pytest.approx(1.0)


def test_chi_square_test_by_hand():
    test = chi_square_test([10, 20, 30], [1 / 3] * 3, "faces")
    assert test is not None
    assert (test.statistic, test.df, test.min_expected) == (pytest.approx(10.0), 2, pytest.approx(20.0))
    assert test.p_value == pytest.approx(math.exp(-5.0))
    assert test.reliable
    assert chi_square_test([0, 0], [0.5, 0.5], "faces") is None
    assert chi_square_test([3], [1.0], "faces") is None


ROLLS = [
    DiceRoll(1, "Alice", "DR", 2, 6, (1, 2), 3, "a.vlog"),
    DiceRoll(4, "Alice", "DR", 2, 6, (3, 4), 7, "a.vlog"),
    DiceRoll(9, "Bob", "dr", 1, 6, (5,), 5, "a.vlog"),
    DiceRoll(2, "Alice", "2d6", 2, 6, (6, 6), 12, "b.vlog"),
    DiceRoll(3, "Bob", "dr", 1, 6, (5,), 5, "b.vlog"),
    DiceRoll(5, "Bob", "DR", 2, 6, (2, 3), 5, "b.vlog"),
    DiceRoll(6, "Carol", "DR", 2, 6, (), 7, "b.vlog"),          # total only
    DiceRoll(7, "Bob", "dr", 1, 6, (7,), 7, "b.vlog"),          # impossible face
    DiceRoll(8, "Bob", "DR", 2, 6, (1,), 1, "b.vlog"),          # one face for two dice
    DiceRoll(10, None, "d1000", 1, 1001, (5,), 5, "b.vlog"),    # too many sides
    DiceRoll(11, "Carol", "DR+2", 2, 6, (), 14, "b.vlog"),      # modified total, no faces
]


def test_groups_counts_and_means():
    stats = dice_stats(ROLLS)
    assert stats.logs == ("a.vlog", "b.vlog")
    assert [(g.player, g.kind, g.rolls) for g in stats.players] == [
        ("Alice", "2d6", 3), ("Bob", "1d6", 2), ("Bob", "2d6", 1), ("Carol", "2d6", 1),
    ]
    assert [(g.kind, g.rolls, g.everyone) for g in stats.everyone] == [("2d6", 5, True), ("1d6", 2, True)]
    alice = stats.players[0]
    assert alice.names == ("DR", "2d6")
    assert alice.dice_rolled == 6
    assert alice.face_counts == (1, 1, 1, 1, 0, 2)
    assert alice.mean_face == pytest.approx(22 / 6)
    assert alice.mean_total == pytest.approx(22 / 3)
    assert (alice.expected_face, alice.expected_total) == (3.5, 7.0)
    assert alice.total_counts == ((3, 1), (7, 1), (12, 1))
    # six faces, one expected per face: (0+0+0+0+1+1)/1 = 2 with 5 df
    assert alice.test is not None and alice.test.basis == "faces"
    assert (alice.test.statistic, alice.test.df) == (pytest.approx(2.0), 5)
    assert alice.test.p_value == pytest.approx(chi2_sf(2.0, 5))
    assert not alice.test.reliable
    everyone_2d6 = stats.everyone[0]
    assert everyone_2d6.face_counts == (1, 2, 2, 1, 0, 2)
    assert everyone_2d6.mean_total == pytest.approx((3 + 7 + 12 + 5 + 7) / 5)  # Carol's total counts too


def test_totals_only_group_tests_the_sum_law():
    carol = dice_stats(ROLLS).players[3]
    assert (carol.dice_rolled, carol.mean_face, carol.mean_total) == (0, None, 7.0)
    assert carol.face_counts == (0,) * 6
    # one roll of 7 (p = 6/36) among 11 totals: sum E - 2 O + O^2/E = 1 - 2 + 6 = 5 with 10 df
    assert carol.test is not None and carol.test.basis == "totals"
    assert (carol.test.statistic, carol.test.df) == (pytest.approx(5.0), 10)


def test_rejected_rolls_are_listed_with_reasons():
    rejected = dice_stats(ROLLS).rejected
    assert [(r.log, r.step, r.reason) for r in rejected] == [
        ("b.vlog", 7, "face 7 is outside 1..6"),
        ("b.vlog", 8, "1 faces reported for 2 dice"),
        ("b.vlog", 10, "1001 sides is outside 2..1000"),
        ("b.vlog", 11, "total 14 is impossible for 2d6 (modified total?)"),
    ]


def test_loaded_die_is_detected_and_fair_die_is_not():
    fair = [DiceRoll(i, "A", "d", 1, 6, (i % 6 + 1,), i % 6 + 1) for i in range(600)]
    loaded = [DiceRoll(i, "A", "d", 1, 6, (6 if i % 3 == 0 else i % 5 + 1,), 0) for i in range(600)]
    (fair_group,) = dice_stats(fair).players
    (loaded_group,) = dice_stats(loaded).players
    assert fair_group.test is not None and fair_group.test.statistic == 0.0 and fair_group.test.p_value == 1.0
    assert loaded_group.test is not None and loaded_group.test.p_value < 1e-10
    assert fair_group.test.reliable


def test_empty_input():
    stats = dice_stats([])
    assert (stats.players, stats.everyone, stats.rejected, stats.logs) == ((), (), (), ())


def test_json_and_text_renderers():
    stats = dice_stats(ROLLS)
    data = json.loads(dice_report.render_json(stats))
    assert data == stats.to_dict()
    assert data["players"][0]["face_counts"] == [1, 1, 1, 1, 0, 2]
    assert data["players"][0]["test"]["df"] == 5
    text = dice_report.render(stats, width=120)
    assert "Alice      2d6    3       7.33 (7.00)    2.00 (5)    0.8491*    1.0000" in text
    assert "roll dr    1d6    2       5.00 (3.50)    10.00 (5)   0.0752*    0.2257" in text
    assert "Holm's step-down method for the groups tested in each family (4 by player and kind, 3 by roll" in text
    assert "1:1 2:1 3:1 4:1 5:0 6:2" in text
    assert "totals 7:1" in text
    assert "4 roll(s) not counted:" in text
    assert "  b.vlog step 7: dr: face 7 is outside 1..6" in text
    assert "* some expected counts are below 5" in text


def test_holm_correction_multiplies_the_ith_smallest_by_m_minus_i_plus_1_and_keeps_order():
    from vlog.dicestats import holm

    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.5, 0.6]) == [1.0, 1.0]          # capped at 1
    assert holm([]) == []


def test_rolls_are_grouped_by_roll_name_with_corrected_p_values():
    stats = dice_stats(ROLLS)
    names = {(g.roll_name, g.kind): g for g in stats.by_name}
    assert set(names) == {("DR", "2d6"), ("dr", "1d6"), ("2d6", "2d6")}
    assert sum(g.rolls for g in stats.by_name) == sum(g.rolls for g in stats.everyone)
    tested = [g for g in stats.by_name if g.test is not None]
    from vlog.dicestats import holm
    assert [g.p_adjusted for g in tested] == holm([g.test.p_value for g in tested])
    data = stats.to_dict()
    assert data["correction"] == {"method": "holm", "tests": {"players": 4, "by_name": 3, "everyone": 2}}
