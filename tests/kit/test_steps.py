"""The view of a step the driver hands a game: positions read once, chats by class, the end."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import vlog
from tests.checks.logbuild import move, restore, step, unit, write_file
from vlog.kit.registry import Registry
from vlog.kit.steps import Moved, PhaseChanged, Position, Removed, StepsChanged, StepView, event_kind, unit_events
from vlog.table import Table
from vlog.vassal.commands import Chat


def test_what_is_derived_from_a_position_is_built_once():
    calls = []
    position = Position(Table())

    def build(table):
        calls.append(table)
        return {"units": len(table.pieces)}

    first = position.derived("units", build)
    assert position.derived("units", build) is first and calls == [position.table]
    assert position.derived("other", build) == first and len(calls) == 2


def test_a_view_reads_its_chat_lines_by_class_and_leaves_reports_out_of_messages(tmp_path):
    path = write_file(tmp_path / "c.vlog", restore([unit("sb", "Sb", 100, 100)]),
                      [step([Chat("&lt;Alice&gt; - Attack 1505 with Sb"), Chat("* Sb moves *"),
                             move("sb", 200, 200, 100, 100)])])
    (logged,) = vlog.read(path).steps
    roll = object()
    view = StepView(logged, Position(Table()), Position(Table()), (roll,))
    assert view.index == 1 and not view.is_end and view.rolls == (roll,)
    assert [c.text for c in view.chats] == ["&lt;Alice&gt; - Attack 1505 with Sb", "* Sb moves *"]
    assert view.messages == ("Attack 1505 with Sb",)


def test_the_end_of_a_log_is_a_view_with_no_step():
    final = Position(Table())
    end = StepView.end(final)
    assert end.is_end and end.index is None and end.chats == () and end.messages == ()
    assert end.before is end.after is final


class U:
    """A unit as any game's state holds one: an id, where it stands, its level and steps."""

    def __init__(self, id, hex, level="1", steps=1):
        self.id, self.hex, self.level, self.steps = id, hex, level, steps

    def __repr__(self):
        return f"U({self.id}@{self.hex})"


def test_unit_events_name_what_changed_between_two_positions():
    before = {"a": U("a", "0101"), "b": U("b", "0202", steps=3), "c": U("c", "0303"),
              "d": U("d", None), "e": U("e", "0505", "front")}
    after = {"f": U("f", "0606"), "a": U("a", "0102"), "b": U("b", "0202", "2", steps=2),
             "c": U("c", None), "d": U("d", "0404"), "e": U("e", "0505", "back")}
    events = unit_events(7, before, after)
    assert all(e.step == 7 for e in events)
    kinds = [(type(e).__name__, (getattr(e, "before", None) or e.unit).id) for e in events]
    assert kinds == [("Moved", "a"), ("StepsChanged", "b"), ("Flipped", "b"), ("Moved", "c"),
                     ("Removed", "c"), ("Moved", "d"), ("Flipped", "e"), ("Placed", "f"),
                     ("Placed", "d")]
    removed = next(e for e in events if isinstance(e, Removed))
    assert removed.unit is before["c"] and removed.after is after["c"]      # sent to a box
    moved = next(e for e in events if isinstance(e, Moved))
    assert (moved.before.hex, moved.after.hex) == ("0101", "0102")


def test_a_unit_gone_from_the_table_is_removed_and_unknown_steps_never_change():
    before = {"a": U("a", "0101", steps=None), "z": U("z", "0909")}
    after = {"a": U("a", "0101", steps=2)}
    events = unit_events(None, before, after)
    assert [(type(e).__name__, e.unit.id, e.after) for e in events] == [("Removed", "z", None)]
    assert unit_events(1, before, dict(before)) == []


def test_an_event_kind_is_its_class_name_unless_the_class_names_its_own():
    @dataclass(frozen=True, slots=True)
    class Turned(PhaseChanged):
        KIND: ClassVar[str] = "phase"

    @dataclass(frozen=True, slots=True)
    class LaterTurned(Turned):
        pass

    assert event_kind(StepsChanged) == "steps-changed" and Turned(1, None, None).kind == "phase"
    assert LaterTurned(1, None, None).kind == "later-turned"      # a subclass names itself again

    class Item:
        def __init__(self, occasions):
            self.occasions = occasions

    class Known(dict):
        def item(self, short):
            return self[short]

    registry = Registry("toy", Known({"PH-01": Item(("phase",)), "MV-01": Item(("moved",))}))

    @registry.check("PH-01", event=Turned)
    def judge(game, event, view):
        return []

    assert registry.judging("phase", Turned) == (judge,) and registry.judging("moved") == ()
    try:
        registry.check("MV-01", event=Turned)(lambda *a: [])
    except ValueError as error:
        assert "'phase'" in str(error)
    else:
        raise AssertionError("an event class whose kind is no occasion of the item registered")
