"""Supply as a prerequisite (SP-16) and air supply lasting the turn (SP-15) on SYNTHETIC positions."""
from __future__ import annotations

from dataclasses import replace

import pytest

from vlog.engine.judge import Ruling
from vlog.findings import Basis, Severity
from vlog.games.lion_of_judah.checks.supply import AIR_SUPPLIED, judge_supply_prerequisite, trace

from .scripted import judge_actions
from .synthetic import shipped_board, state, synthetic_board, unit

ERITREA = [f"{c:02d}{r:02d}" for c in range(12, 18) for r in range(2, 16)]


@pytest.fixture
def board(tmp_path):
    return synthetic_board(tmp_path, zones={"eritrea": ERITREA})


def test_rail_movement_needs_supply_at_the_start_of_the_map(board):
    near = unit("sb", "1406", name="Sb")                 # 1 hex from Massawa 1405
    assert judge_supply_prerequisite(board, state(near, scenario="1935-36"), near, "rail",
                                     step=4, when="Turn 2, Mutual Administration Phase") == []
    far = replace(near, hex="1413")                      # 8 hexes from Massawa, no line near
    [f] = judge_supply_prerequisite(board, state(far, scenario="1935-36"), far, "rail",
                                    step=4, when="Turn 2, Mutual Administration Phase")
    assert f.check == "lion-of-judah/SP-16" and f.basis is Basis.PROVEN and f.severity is Severity.ERROR
    assert f.rule.startswith("2.4") and f.step == 4 and f.subjects == ("Sb",)
    assert f.message == ("Sb moved by rail in the MAP while out of supply at 1413: a unit must begin "
                         "the MAP in supply to move by rail (11.7)")
    assert f.evidence["action"] == "rail" and f.evidence["hex"] == "1413"
    assert f.evidence["supply_sources"] == ["1405", "2322"]


def test_the_position_judged_is_the_one_given(board):
    """rules.py passes the position at the start of the MAP: where the unit stood then counts."""
    moved_since = replace(unit("sb", "1406", name="Sb"), hex="1413")
    at_start = state(unit("sb", "1406", name="Sb"), scenario="1935-36")
    assert judge_supply_prerequisite(board, at_start, moved_since, "rail", step=1, when=None) == []


def test_hq_support_needs_supply(board):
    hq = unit("hq", "1413", name="1CA", kind="hq", size=None)
    [f] = judge_supply_prerequisite(board, state(hq, scenario="1935-36"), hq, "hq-support",
                                    where="1414", step=7, when="Turn 2, Italian combat")
    assert f.basis is Basis.PROVEN and f.evidence["target"] == "1414"
    assert f.message == ("1CA supported an attack while out of supply at 1413: an HQ gives combat "
                         "support only while in supply (10.2.3)")
    at_massawa = replace(hq, hex="1405")
    assert judge_supply_prerequisite(board, state(at_massawa, scenario="1935-36"), at_massawa,
                                     "hq-support", step=7, when=None) == []


def test_unknown_map_data_makes_it_possible():
    hq = unit("hq", "1610", name="1CA", kind="hq", size=None)
    findings = judge_supply_prerequisite(shipped_board(), state(hq, scenario="1935-36"), hq, "hq-support",
                                         step=1, when=None)
    assert [f.basis for f in findings] == [Basis.POSSIBLE]
    assert findings[0].evidence["depends_on"]


def test_air_supplied_units_are_in_supply_for_the_turn(board):
    """SP-15 (PB 13.6.5.2): the flag rules.py keeps for the turn makes the trace succeed."""
    far = unit("gs", "1413", name="GS", steps=2, size="brigade")
    s = state(far, scenario="1935-36")
    assert trace(board, s, far).ruling is Ruling.PROVEN
    s.flags[AIR_SUPPLIED] = frozenset({"gs"})
    result = trace(board, s, far)
    assert result.ruling is Ruling.LEGAL and "air supply" in result.verdict.reasons[0]
    other = unit("sl", "1413", name="SL", steps=2, size="brigade")   # not designated: no supply
    assert trace(board, state(far, other, scenario="1935-36"), other).ruling is Ruling.PROVEN


# -- SP-15 replayed: an air-supplied brigade ends its move where it traces no supply -------------

SP15_ACTIONS = """as Alice
move "GS" along 1707 on "Main Map"
turn next
{air}
move "GS" along 1807
{later}"""


NEXT_TURN = """turn next
turn next
as Bob
turn next
turn next
turn next
as Alice
turn next
turn next
turn next
move "GS" along 1707
"""
"""From the Italian movement of turn 1 to that of turn 2 (combat, the Ethiopian activation,
movement and combat, End of Turn, MAP, Event), where GS moves back to 1707."""


def _replay_sp15(tmp_path, air: str, later: str = "") -> list[tuple[str, int]]:
    findings = judge_actions(tmp_path, SP15_ACTIONS.format(air=air, later=later), name="sp15")
    return [(f.check.split("/")[1], f.step) for f in findings]


def test_air_supply_keeps_a_unit_in_supply_for_the_turn(tmp_path):
    """SP-15 (PB 13.6.5.2): GS, set up at 1707 out of supply, moves to 1807, also out of supply:
    MV-16 without air supply, nothing once III Br flew air supply to it at the segment's start."""
    assert _replay_sp15(tmp_path, "") == [("MV-16", 3)]
    assert _replay_sp15(tmp_path, 'move @1704067200070 along 1707 on "Main Map"') == []
    # the air supply ends with the turn: on turn 2 GS ends another move out of supply
    air = 'move @1704067200070 along 1707 on "Main Map"\nmove @1704067200070 along "Northern Front air marker box" on "Off-map Boxes"'
    assert _replay_sp15(tmp_path, air, NEXT_TURN) == [("MV-16", 14)]      # GS's move on turn 2
