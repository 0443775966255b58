"""vlog.kit.sight on Island of Death's hex grid (the shipped data's layout): a hex seen next to an
observer, or two away past a hex between that does not hide it, and what terrain the data lacks
leaves open."""
from __future__ import annotations

import pytest

from vlog.engine.judge import Unknown
from vlog.gamedata import load_game_data
from vlog.kit.board import Board
from vlog.kit.sight import hexes_between, seen


@pytest.fixture(scope="module")
def board():
    return Board(load_game_data("island-of-death"))


def test_the_hexes_between_two_hexes_two_apart_touch_both(board):
    between = hexes_between(board, "1309", "1210")        # 10.12 example: 1310 is next to 1210 and 1309
    assert "1310" in between and 1 <= len(between) <= 2
    assert all(board.distance(h, "1309") == 1 and board.distance(h, "1210") == 1 for h in between)
    straight = hexes_between(board, "1309", "1311")       # one column: one hex between, 1310
    assert straight == ("1310",)


def hides_only(*hexes):
    return lambda h: h in hexes


def test_next_to_an_observer_is_seen_whatever_hides_it(board):
    assert seen(board, "1210", ["1310"], far=False, hides=hides_only("1210")) is True


def test_two_away_is_seen_only_when_far_and_nothing_hides_it(board):
    assert seen(board, "1311", ["1309"], far=True, hides=hides_only()) is True
    assert seen(board, "1311", ["1309"], far=False, hides=hides_only()) is False      # night: only next to
    assert seen(board, "1311", ["1309"], far=True, hides=hides_only("1311")) is False  # the target hides
    assert seen(board, "1311", ["1309"], far=True, hides=hides_only("1310")) is False  # the hex between does
    assert seen(board, "1312", ["1309"], far=True, hides=hides_only()) is False        # three away


def test_a_line_along_a_hexside_is_blocked_only_when_both_hexes_between_hide(board):
    between = hexes_between(board, "1309", "1210")
    if len(between) == 2:
        assert seen(board, "1210", ["1309"], far=True, hides=hides_only(between[0])) is True
        assert seen(board, "1210", ["1309"], far=True, hides=hides_only(*between)) is False


def test_unknown_terrain_leaves_it_open_naming_the_data(board):
    def hides(h):
        return Unknown(f"map.json hex {h} terrain") if h == "1310" else False
    found = seen(board, "1311", ["1309"], far=True, hides=hides)
    assert isinstance(found, Unknown) and found.data == {"map.json hex 1310 terrain"}

    def target_unknown(h):
        return Unknown(f"map.json hex {h} terrain") if h == "1311" else False
    found = seen(board, "1311", ["1309"], far=True, hides=target_unknown)
    assert isinstance(found, Unknown) and found.data == {"map.json hex 1311 terrain"}
    assert seen(board, "1311", ["1310"], far=True, hides=target_unknown) is True       # next to it: seen
