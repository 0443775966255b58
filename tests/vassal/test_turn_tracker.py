"""The TurnTracker port: next() rolls nested counter and list levels over as VASSAL does, states
are written in VASSAL's nested SequenceEncoder form and read back, inactive list items are skipped."""
from __future__ import annotations

from vlog.vassal.turn_tracker import TrackerRun, format_text
from vlog.vassal.module import TurnLevel, TurnTracker


def tracker(loop: bool = True) -> TrackerRun:
    phase = TurnLevel(kind="list", name="Phase", property="Phase", turn_format=None, items=["Move", "Fire", "End"], first=0)
    turn = TurnLevel(kind="counter", name="Turn", property="Turn", turn_format="T$value$", start=1, incr=1,
                     loop=loop, loop_limit=2, levels=[phase])
    return TrackerRun(TurnTracker(name="Turn", levels=[turn], attributes={"turnFormat": "$level1$ $level2$"}), "TurnTracker0")


def test_next_rolls_over_nested_levels():
    run = tracker()
    seen = [run.turn_string()]
    for _ in range(6):
        run.next()
        seen.append(run.turn_string())
    assert seen == ["T1 Move", "T1 Fire", "T1 End", "T2 Move", "T2 Fire", "T2 End", "T1 Move"]


def test_counter_without_loop_keeps_counting():
    run = tracker(loop=False)
    for _ in range(9):
        run.next()
    assert run.turn_string() == "T4 Move"


def test_state_round_trip_and_inactive_items():
    run = tracker()
    run.next()
    state = run.state()
    assert state == "0|1;0;true;2;1\\;0\\;0\\;true,true,true"
    other = tracker()
    other.set_state(state)
    assert other.state() == state and other.turn_string() == "T1 Fire"
    other.set_state("0|1;0;true;2;0\\;0\\;0\\;true,false,true")
    other.next()
    assert other.turn_string() == "T1 End"


def test_set_level_and_format_text():
    run = tracker()
    path = run.find("Phase")[0]
    run.set_level(path, "End")
    assert run.turn_string() == "T1 End"
    assert format_text("a $x$ b $y$ $unclosed", {"x": "1"}) == "a 1 b  unclosed"
