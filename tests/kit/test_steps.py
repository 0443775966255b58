"""The view of a step the driver hands a game: positions read once, chats by class, the end."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import vlog
from tests.checks.logbuild import move, restore, step, unit, write_file
from vlog.kit.registry import Registry
from vlog.kit.steps import (BoxMoved, Moved, PhaseChanged, Placed, Position, Removed, StepsChanged, StepView, event_kind,
                            occasion_noun, put_in_box, unit_events)
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


def test_unit_events_among_the_changed_ids_alone_are_the_same_in_the_same_order():
    """`changed` names the only ids whose units may differ: the others are the same objects on
    both sides, and the events are those of every unit, in the order of the units."""
    same = {k: U(k, f"09{n:02}") for n, k in enumerate("pqrs")}
    before = {"a": U("a", "0101"), **same, "b": U("b", "0202", steps=3), "c": U("c", "0303"),
              "d": U("d", None), "e": U("e", "0505", "front")}
    after = {"f": U("f", "0606"), "a": U("a", "0102"), **same, "b": U("b", "0202", "2", steps=2),
             "c": U("c", None), "d": U("d", "0404"), "e": U("e", "0505", "back")}
    changed = frozenset("fedcba")
    assert unit_events(7, before, after, changed) == unit_events(7, before, after)
    assert [type(e).__name__ for e in unit_events(7, before, after, frozenset("e"))] == ["Flipped"]
    assert unit_events(7, before, after, frozenset()) == []


class Boxed(U):
    """A unit of a game with off-map boxes: it stands on a hex, or in a box, or in neither."""

    def __init__(self, id, hex, box=None, level="1", steps=1):
        super().__init__(id, hex, level, steps)
        self.box = box

    def __repr__(self):
        return f"Boxed({self.id}@{self.hex or self.box})"


def test_a_unit_moved_between_boxes_is_a_box_move_and_no_move_on_the_map():
    before = {"a": Boxed("a", None, "available"), "b": Boxed("b", None, "track"), "c": Boxed("c", None),
              "d": Boxed("d", None, "pool"), "e": Boxed("e", None, "pool", steps=2)}
    after = {"a": Boxed("a", None, "track"), "b": Boxed("b", None), "c": Boxed("c", None, "pool"),
             "d": Boxed("d", None, "pool"), "e": Boxed("e", None, "track", "2", steps=1)}
    events = unit_events(4, before, after)
    assert [(type(e).__name__, e.before.id, e.before.box, e.after.box) for e in events] == [
        ("BoxMoved", "a", "available", "track"), ("BoxMoved", "b", "track", None),
        ("BoxMoved", "c", None, "pool"), ("BoxMoved", "e", "pool", "track"),
        ("StepsChanged", "e", "pool", "track"), ("Flipped", "e", "pool", "track")]
    moved = events[0]
    assert moved.step == 4 and moved.before is before["a"] and moved.after is after["a"]
    assert not any(isinstance(e, (Moved, Placed, Removed)) for e in events)
    assert unit_events(5, after, dict(after)) == []                     # still in its box
    new = unit_events(6, {}, {"n": Boxed("n", None, "track"), "o": Boxed("o", None)})
    assert [(type(e).__name__, e.before, e.after.box) for e in new] == [("BoxMoved", None, "track")]


def test_a_move_between_a_box_and_a_hex_stays_a_move_whose_ends_name_the_box():
    before = {"in": Boxed("in", None, "available"), "out": Boxed("out", "0101")}
    after = {"in": Boxed("in", "0202"), "out": Boxed("out", None, "track")}
    events = unit_events(2, before, after)
    assert [type(e).__name__ for e in events] == ["Moved", "Moved", "Removed", "Placed"]
    came, went, removed, placed = events
    assert (came.before.box, came.after.hex) == ("available", "0202")
    assert (went.before.hex, went.after.box) == ("0101", "track") and removed.after.box == "track"
    assert placed.unit is after["in"] and not any(isinstance(e, BoxMoved) for e in events)


def test_a_unit_put_in_a_box_is_read_alike_from_the_map_another_box_or_the_palette():
    before = {"hex": Boxed("hex", "0101"), "box": Boxed("box", None, "delayed"), "same": Boxed("same", None, "pool"),
              "out": Boxed("out", None, "pool"), "on": Boxed("on", None, "pool")}
    after = {"hex": Boxed("hex", None, "pool"), "box": Boxed("box", None, "pool"), "same": Boxed("same", None, "pool", "2"),
             "out": Boxed("out", None), "on": Boxed("on", "0202"), "new": Boxed("new", None, "pool")}
    events = unit_events(3, before, after)
    assert sorted(u.id for u in map(put_in_box, events) if u is not None) == ["box", "hex", "new"]
    assert all(put_in_box(e) is None for e in events if isinstance(e, (Placed, Removed)))
    assert put_in_box(PhaseChanged(3, None, "x")) is None


def test_units_of_a_game_without_boxes_never_move_between_boxes():
    before, after = {"a": U("a", None)}, {"a": U("a", None, "2")}
    assert [type(e).__name__ for e in unit_events(1, before, after)] == ["Flipped"]


def test_a_box_move_has_its_own_kind_and_reaches_no_check_of_moves_on_the_map():
    assert BoxMoved(1, None, None).kind == "box-moved" and occasion_noun("box-moved") == "move between boxes"
    assert not issubclass(BoxMoved, Moved)

    class Item:
        def __init__(self, occasions):
            self.occasions = occasions

    class Known(dict):
        def item(self, short):
            return self[short]

    registry = Registry("toy", Known({"MV-01": Item(("moved",)), "BX-01": Item(("box-moved",)),
                                      "AL-01": Item(("moved", "box-moved"))}))

    @registry.check("MV-01", event=Moved)
    def on_the_map(game, event, view):
        return []

    @registry.check("BX-01", event=BoxMoved)
    def between_boxes(game, event, view):
        return []

    @registry.check("AL-01")
    def either(game, event, view):
        return []

    assert registry.judging("box-moved", BoxMoved) == (between_boxes, either)
    assert registry.judging("moved", Moved) == (on_the_map, either)


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
