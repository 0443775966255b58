"""Rolls said for named pieces: read from chat, bound in order to the next roll of their dice."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from vlog.kit.unit_rolls import BoundRoll, RollFor, RollQueue, roll_for_parser
from vlog.vassal.commands import Chat


@dataclass
class Roll:
    n_dice: int
    total: int | None


PARSE = roll_for_parser({r"landing\s+loss(?:es)?": "landing", r"leader\s+casualty": "casualty"})


def test_the_parser_reads_the_phrases_and_the_names():
    assert PARSE(Chat("&lt;Alice&gt; - landing loss 1/33, 2/33")) == RollFor("landing", ("1/33", "2/33"))
    assert PARSE(Chat("&lt;Bob&gt; - Leader casualty roll for Beak.")) == RollFor("casualty", ("Beak",))
    assert PARSE(Chat("&lt;Bob&gt; - landing losses: 1/33 and 3/33")) == RollFor("landing", ("1/33", "3/33"))
    assert PARSE(Chat("&lt;Bob&gt; - leader casualty")) is None          # no name: not a declaration
    assert PARSE(Chat("&lt;Bob&gt; - attack 1311 with 8M")) is None


def test_each_name_takes_the_next_roll_of_its_dice_in_the_order_said():
    queue = RollQueue({"landing": 1, "casualty": 2})
    queue.declare(RollFor("landing", ("1/33", "2/33")), 3)
    queue.declare(RollFor("casualty", ("Beak",)), 4)
    # a two-dice roll goes to the casualty roll though a landing roll was said first
    assert queue.observe([Roll(2, 5)], 5) == [BoundRoll("casualty", "Beak", 4, 5, 5)]
    assert queue.observe([Roll(1, 6), Roll(1, None), Roll(1, 2)], 6) == [
        BoundRoll("landing", "1/33", 3, 6, 6), BoundRoll("landing", "2/33", 3, 2, 6)]
    assert queue.pending == [] and queue.observe([Roll(1, 4)], 7) == []   # nothing waits: the roll is no one's


def test_unrolled_declarations_are_dropped_by_kind():
    queue = RollQueue({"landing": 1, "casualty": 2})
    queue.declare(RollFor("landing", ("1/33",)), 3)
    queue.declare(RollFor("casualty", ("Beak",)), 4)
    assert queue.drop(["landing"]) == [("landing", "1/33", 3)]
    assert queue.pending == [("casualty", "Beak", 4)]
    assert queue.drop() == [("casualty", "Beak", 4)] and queue.pending == []


def test_a_kind_with_no_dice_is_refused():
    with pytest.raises(KeyError, match="overrun"):
        RollQueue({"landing": 1}).declare(RollFor("overrun", ("Beak",)), 1)
