"""(40) Dummy counters on their front side: 4 foot MPs, no forced march (MV-45, PB 14.6.5), on a
SYNTHETIC clear board."""
from __future__ import annotations

import pytest

from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.movement import MoveFacts, allowance_of, judge_move, may_force_march
from vlog.games.lion_of_judah.checks.movement_facts import DUMMY_MF

from .synthetic import state, synthetic_board, unit


@pytest.fixture
def plain(tmp_path):
    return synthetic_board(tmp_path / "plain")


def dummy(hex_="1603", *, level="front", movement=None):
    return unit("dm", hex_, name="Dummy", side="allied", kind="dummy", unit_class="commonwealth",
                size=None, attack=None, defense=None, movement=movement, level=level)


def only(findings, check):
    assert [f.check for f in findings] == [f"lion-of-judah/{check}"], [f.message for f in findings]
    return findings[0]


def test_front_side_has_four_foot_mps_even_without_data():
    mf, notes = allowance_of(dummy(movement=None), False, scenario="1940-41", turn=1)
    assert mf == DUMMY_MF == 4
    assert notes == ["4 foot MPs: a dummy on its front side (PB 14.6.5)"]
    mf, notes = allowance_of(dummy(movement=4), False, scenario="1940-41", turn=1)
    assert (mf, notes) == (4, [])


def test_front_side_may_not_force_march():
    allowed, why = may_force_march(dummy(), False)
    assert not allowed and why == "a dummy on its front side may not force march (PB 14.6.5)"


def test_four_hexes_legal_five_too_far(plain):
    d = dummy()
    assert judge_move(plain, state(d), MoveFacts(d, "1603", "1607"), step=3, when=None) == []
    f = only(judge_move(plain, state(d), MoveFacts(d, "1603", "1608"), step=3, when=None), "MV-45")
    assert f.basis is Basis.PROVEN and f.rule == "PB 14.6.5" and f.subjects == ("Dummy",)
    assert f.message == ("Dummy moved from 1603 to 1608 beyond its 4 MPs: a dummy on its front "
                         "side may not force march (PB 14.6.5)")
    assert f.evidence["allowance"] == 4 and f.evidence["cheapest_cost"] == 5


def test_a_forced_march_roll_does_not_help(plain):
    d = dummy()
    f = only(judge_move(plain, state(d), MoveFacts(d, "1603", "1608", forced_march_rolls=(3,)),
                        step=3, when=None), "MV-45")
    assert f.basis is Basis.PROVEN and f.evidence["forced_march_rolls"] == [3]
    assert f.message.startswith("Dummy moved from 1603 to 1608 with forced-march roll(s) 3 beyond")


def test_a_revealed_dummy_is_not_judged_as_one(plain):
    """Revealed as a 0-x-4 unit it moves as a regular unit: a too-long move is MV-03."""
    d = dummy(level="reverse", movement=4)
    only(judge_move(plain, state(d), MoveFacts(d, "1603", "1608"), step=3, when=None), "MV-03")


def test_a_revealed_dummy_uses_its_own_factor():
    mf, notes = allowance_of(dummy(level="reverse", movement=None), False, scenario="1940-41", turn=1)
    assert notes == [] and mf != DUMMY_MF
