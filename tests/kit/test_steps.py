"""The view of a step the driver hands a game: positions read once, chats by class, the end."""
from __future__ import annotations

import vlog
from tests.checks.logbuild import move, restore, step, unit, write_file
from vlog.kit.steps import Position, StepView
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
