"""The ledger protocol: every ledger hears the same five hooks, in the order they were added."""
from __future__ import annotations

import pytest

from vlog.kit.ledger import Ledger, Ledgers
from vlog.kit.steps import Moved, PhaseChanged, Position, StepView
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
