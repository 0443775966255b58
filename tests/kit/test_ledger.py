"""The ledger protocol: every ledger hears the same five hooks, in the order they were added."""
from __future__ import annotations

import pytest

from vlog.kit.ledger import Ledger, Ledgers
from vlog.kit.steps import Changed, Moved, PhaseChanged, Placed, Position, StepsChanged, StepView
from vlog.table import Table


class Segment(Ledger):
    """Counts the moves of a segment, reports their number when the phase changes."""

    def __init__(self):
        self.moves, self.heard = 0, []

    def begin(self, view):
        self.heard.append("begin")
        return ()

    def event(self, event, view):
        if isinstance(event, Moved):
            self.moves += 1
        return ()

    def phase(self, change, view):
        found, self.moves = [f"{self.moves} moves before {change.new}"], 0
        return found

    def end(self, view):
        return [f"{self.moves} moves at the end"]


class Steps(Ledger):
    def step(self, view):
        return [f"step {view.index}"]


def test_every_ledger_hears_every_hook_and_what_they_find_is_gathered_in_order():
    segment, steps = Segment(), Steps()
    ledgers = Ledgers(segment, steps)
    start = Position(Table())
    view = StepView(None, start, start)
    assert ledgers.begin(view) == [] and segment.heard == ["begin"]
    assert ledgers.step(view) == ["step None"]
    ledgers.event(Moved(1, None, None), view)
    ledgers.event(Moved(2, None, None), view)
    assert ledgers.phase(PhaseChanged(3, "movement", "combat"), view) == ["2 moves before combat"]
    ledgers.event(Moved(4, None, None), view)
    assert ledgers.end(StepView.end(start)) == ["1 moves at the end"]
    assert list(ledgers) == [segment, steps] and len(ledgers) == 2


def test_only_ledgers_are_added():
    with pytest.raises(TypeError, match="dict is not a Ledger"):
        Ledgers().add({})


class Kinds(Ledger):
    """Reads only changes (StepsChanged among them, a subclass) and placements."""

    events = (Changed, Placed)

    def __init__(self):
        self.heard = []

    def event(self, event, view):
        self.heard.append(type(event).__name__)
        return ()


class Everything(Kinds):
    events = None


def test_a_ledger_naming_its_event_kinds_hears_only_those_and_their_subclasses():
    kinds, everything = Kinds(), Everything()
    ledgers = Ledgers(kinds, everything)
    start = Position(Table())
    view = StepView(None, start, start)
    for event in (Moved(1, None, None), StepsChanged(1, None, None), Placed(2, None), Moved(3, None, None)):
        ledgers.event(event, view)
    assert kinds.heard == ["StepsChanged", "Placed"]
    assert everything.heard == ["Moved", "StepsChanged", "Placed", "Moved"]


def test_a_ledger_added_later_is_told_events_already_sorted_by_kind():
    ledgers = Ledgers(Kinds())
    start = Position(Table())
    view = StepView(None, start, start)
    ledgers.event(Moved(1, None, None), view)
    late = ledgers.add(Everything())
    ledgers.event(Moved(2, None, None), view)
    assert late.heard == ["Moved"]


def test_a_ledger_is_told_only_the_hooks_it_overrides():
    class Counting(Ledger):
        def step(self, view):
            return ["stepped"]

    ledgers = Ledgers(Counting(), Steps())
    assert ledgers._told["step"] == list(ledgers) and ledgers._told["event"] == []
    start = Position(Table())
    view = StepView(None, start, start)
    assert ledgers.step(view) == ["stepped", "step None"]
    assert ledgers.begin(view) == [] and ledgers.end(StepView.end(start)) == []
