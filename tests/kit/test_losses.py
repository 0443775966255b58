"""vlog.kit.losses on SYNTHETIC units: what a side lost, step by step."""
from __future__ import annotations

from dataclasses import dataclass, replace

from vlog.kit.losses import StepLossHistory, arrivals


@dataclass(frozen=True)
class U:
    """A SYNTHETIC unit with the fields the step-loss history reads."""

    id: str
    name: str
    hex: str | None = "0101"
    steps: object = 2
    side: str = "red"
    counter: str | None = None
    box: str | None = None
    breakdown: bool = False


def history() -> StepLossHistory:
    return StepLossHistory("red", lambda u: True, lambda u: u.steps if isinstance(u.steps, int) else None,
                           lambda u: u.breakdown)


def by_id(*units: U) -> dict[str, U]:
    return {u.id: u for u in units}


def test_arrivals_are_units_new_on_the_map():
    a, b = U("a", "A"), U("b", "B", hex=None)
    assert arrivals(by_id(b), by_id(a, replace(b, hex="0202"))) == [a, replace(b, hex="0202")]
    assert arrivals(by_id(a), by_id(a)) == []


def test_reduced_removed_and_sent_to_a_box():
    h = history()
    a, b, c = U("a", "A", steps=3), U("b", "B"), U("c", "C")
    h.observe(by_id(a, b, c), by_id(replace(a, steps=1), replace(c, hex=None, box="dead")), step=4, turn=2)
    assert [(e["unit"], e["steps"], e["how"]) for e in h.entries] == [
        ("A", 2, "reduced"), ("B", 2, "deleted"), ("C", 2, "sent off the map to dead")]
    assert h.known_steps() == 6


def test_the_other_side_and_units_that_do_not_count_are_not_recorded():
    h = StepLossHistory("red", lambda u: u.name != "HQ", lambda u: 1, lambda u: False)
    blue, hq = U("b", "B", side="blue"), U("h", "HQ")
    h.observe(by_id(blue, hq), by_id(), step=1, turn=1)
    assert h.entries == []


def test_unknown_steps_of_a_removed_unit_are_kept_unknown():
    h = history()
    h.observe(by_id(U("a", "A", steps=None)), by_id(), step=1, turn=1)
    assert h.entries[0]["steps"] is None and h.known_steps() == 0


def test_a_replacement_counter_loses_the_difference_in_one_step_or_two():
    four, two = U("a", "A", steps=4), U("a2", "A", steps=2)
    h = history()
    h.observe(by_id(four), by_id(two), step=1, turn=1)
    assert [(e["steps"], e["how"]) for e in h.entries] == [(2, "replaced by a reduced counter")]
    h = history()
    h.observe(by_id(four), by_id(), step=1, turn=1)
    h.observe(by_id(), by_id(two), step=2, turn=1)
    assert [(e["steps"], e["how"]) for e in h.entries] == [(2, "replaced by a reduced counter")]
    h = history()                                   # placed again whole: no loss at all
    h.observe(by_id(four), by_id(), step=1, turn=1)
    h.observe(by_id(), by_id(replace(four, id="a3")), step=2, turn=1)
    assert h.entries == []


def test_a_break_down_is_no_loss_in_either_order_but_a_later_reduction_is():
    unit, part = U("a", "A", steps=4), U("p", "part", steps=1, breakdown=True)
    three = replace(unit, steps=3)
    for order in ("same step", "reduce first", "place first"):
        h = history()
        if order == "same step":
            h.observe(by_id(unit), by_id(three, part), step=1, turn=1)
        elif order == "reduce first":
            h.observe(by_id(unit), by_id(three), step=1, turn=1)
            h.observe(by_id(three), by_id(three, part), step=2, turn=1)
        else:
            h.observe(by_id(unit), by_id(unit, part), step=1, turn=1)
            h.observe(by_id(unit, part), by_id(three, part), step=2, turn=1)
        assert h.entries == [], order
        h.observe(by_id(three, part), by_id(replace(unit, steps=2), part), step=3, turn=1)
        assert [e["steps"] for e in h.entries] == [1], order


def test_a_reduction_on_another_turn_is_not_a_break_down():
    unit, part = U("a", "A", steps=4), U("p", "part", steps=1, breakdown=True)
    h = history()
    h.observe(by_id(unit), by_id(replace(unit, steps=3)), step=1, turn=1)
    h.observe(by_id(replace(unit, steps=3)), by_id(replace(unit, steps=3), part), step=2, turn=2)
    assert [e["steps"] for e in h.entries] == [1]


def test_consolidation_is_no_loss_in_one_step_or_two():
    unit, part = U("a", "A", steps=3), U("p", "part", steps=1, breakdown=True)
    h = history()
    h.observe(by_id(unit, part), by_id(replace(unit, steps=4)), step=1, turn=1)
    assert h.entries == []
    h = history()
    h.observe(by_id(unit, part), by_id(unit), step=1, turn=1)
    assert [e["how"] for e in h.entries] == ["deleted"]
    h.observe(by_id(unit), by_id(replace(unit, steps=4)), step=2, turn=1)
    assert h.entries == []
