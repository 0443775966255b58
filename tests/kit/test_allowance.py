"""vlog.kit.allowance: adjustments applied in order, each noted, on SYNTHETIC factors."""
from __future__ import annotations

from vlog.engine.judge import Unknown
from vlog.kit.allowance import Allowance


def test_adjustments_apply_in_order_and_are_noted():
    a = Allowance(7).halve("half").add(2, "trucks").less(2, "interdicted", above=2)
    assert a.pair() == (4, ["half", "trucks", "interdicted"])     # 7 -> 4 (0.5 up) -> 6 -> 4


def test_set_notes_only_a_change_and_cap_only_when_above():
    assert Allowance(4).set(4, "dummy").pair() == (4, [])
    assert Allowance(6).set(4, "dummy").pair() == (4, ["dummy"])
    assert Allowance(3).cap(4, "turn 1").pair() == (3, [])
    assert Allowance(6).cap(4, "turn 1").pair() == (4, ["turn 1"])
    capped = Allowance(Unknown("factor")).cap(4, "turn 1")
    assert capped.value == 4 and capped.notes == ["turn 1"]


def test_reductions_keep_a_floor_or_are_left_unapplied():
    assert Allowance(2).less(2, "oos", floor=1).value == 1
    assert Allowance(2).less(2, "interdicted", above=2).pair() == (2, [])
    assert Allowance(3).less(2, "interdicted", above=2).pair() == (1, ["interdicted"])


def test_an_unknown_or_missing_factor_is_not_added_to_or_reduced():
    unknown = Unknown("factor")
    a = Allowance(unknown).add(2, "trucks").less(2, "interdicted")
    assert a.value is unknown and a.notes == [] and not a.known
    assert Allowance(None).halve("half").pair() == (None, [])
    halved = Allowance(unknown).halve("half")
    assert isinstance(halved.value, Unknown) and halved.notes == ["half"]
