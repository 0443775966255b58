"""Odd or hostile logs never crash the rules engine: findings or nothing, never an exception."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from vlog.games.lion_of_judah.checks.movement import MoveFacts, judge_move
from vlog.games.lion_of_judah.interpret import parse_attack

from .synthetic import shipped_board, state, unit

BOARD = shipped_board()
HEXES = st.builds(lambda c, r: f"{c:02d}{r:02d}", st.integers(0, 99), st.integers(0, 99))


@given(st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_chat_lines_parse_or_are_ignored(text):
    decl = parse_attack(text)
    assert decl is None or (len(decl.target) == 4 and decl.target.isdigit())


@given(HEXES, HEXES, st.lists(st.integers(-3, 12), max_size=4), st.integers(0, 9))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_move_is_judged(start, goal, rolls, mf):
    mover = unit("u", start, name="Sb", movement=mf)
    findings = judge_move(BOARD, state(mover), MoveFacts(mover, start, goal, forced_march_rolls=tuple(rolls),
                                                         scenario="1935-36"), step=1, when=None)
    for f in findings:
        assert f.check.startswith("lion-of-judah/") and f.step == 1
