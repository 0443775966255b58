"""Moving stacks (MV-08, rule 11.3) on SYNTHETIC positions: hops fed as rules.py feeds them."""
from __future__ import annotations

import pytest

from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.stack_moves import PERMISSION, StackMoves

from .synthetic import synthetic_board, unit


@pytest.fixture
def moves(tmp_path) -> StackMoves:
    return StackMoves(synthetic_board(tmp_path))


SB, SL, GS = unit("sb", "1405", name="Sb"), unit("sl", "1405", name="SL"), unit("gs", "1305", name="GS")


def hop(moves, u, a, b, step):
    return [(f.check.split("/")[1], f.basis) for f in moves.move(u, a, b, step=step, when=None)]


def test_a_stack_moved_piece_by_piece_is_one_move(moves):
    assert hop(moves, SB, "1405", "1505", 1) == [] and hop(moves, SL, "1405", "1505", 2) == []
    assert hop(moves, SB, "1505", "1506", 3) == [] and hop(moves, SL, "1505", "1506", 4) == []
    assert hop(moves, GS, "1305", "1306", 5) == []          # the next stack


def test_moving_again_after_another_stack_began_is_possible(moves):
    assert hop(moves, SB, "1405", "1505", 1) == []
    assert hop(moves, GS, "1305", "1306", 2) == []
    [f] = moves.move(SB, "1505", "1506", step=3, when=None)
    assert f.check == "lion-of-judah/MV-08" and f.basis is Basis.POSSIBLE
    assert f.evidence["depends_on"] == [PERMISSION] and f.evidence["other"] == "GS"
    assert hop(moves, SB, "1506", "1507", 4) == []          # reported once a segment
    moves.reset()
    assert hop(moves, SB, "1506", "1507", 5) == []          # a new segment


def test_a_stack_formed_on_the_way_does_not_move_on_together(moves):
    """Sb reaches GS at 1305 and the two are dragged on in one step: they began apart."""
    assert hop(moves, SB, "1405", "1305", 1) == []
    assert hop(moves, GS, "1305", "1206", 2) == []
    [f] = moves.move(SB, "1305", "1206", step=2, when=None)
    assert f.check == "lion-of-judah/MV-08" and f.basis is Basis.PROVEN
    assert f.evidence == {"units": ["Sb", "GS"], "from": "1305", "to": "1206",
                          "began_at": {"Sb": "1405", "GS": "1305"}}


def test_a_unit_dropped_off_moves_no_further_unless_it_follows(moves):
    assert hop(moves, SB, "1405", "1505", 1) == [] and hop(moves, SL, "1405", "1505", 1) == []   # one drag
    assert hop(moves, SB, "1505", "1506", 2) == []
    assert hop(moves, SL, "1505", "1406", 3) == [("MV-08", Basis.PROVEN)]
    follow = StackMoves(moves.board)
    assert hop(follow, SB, "1405", "1505", 1) == [] and hop(follow, SL, "1405", "1505", 1) == []
    assert hop(follow, SB, "1505", "1506", 2) == [] and hop(follow, SL, "1505", "1506", 3) == []


@pytest.mark.parametrize("kind", ["truck", "air", "rp", "marker"])
def test_carriers_and_markers_are_left_out(moves, kind):
    t = unit("t", "1405", name="T", kind=kind)
    assert hop(moves, t, "1405", "1505", 1) == []
    assert hop(moves, GS, "1305", "1306", 2) == []
    assert hop(moves, t, "1505", "1506", 3) == []
