"""vlog.kit.tracks on the shipped Lion of Judah data (its General Records Track) and SYNTHETIC pieces."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vlog.gamedata import load_game_data
from vlog.kit.tracks import box_number, highest_box, marker_value, track_marker


@lru_cache(maxsize=None)
def data(game):
    return load_game_data(game)


@dataclass(frozen=True)
class Piece:
    """A SYNTHETIC marker piece."""

    counter: str
    box: str | None


def test_box_numbers_come_from_the_data_not_the_box_id():
    lion = data("lion-of-judah")
    assert box_number(lion, "grt-0", "grt") == 0 and box_number(lion, "grt-11", "grt") == 11
    assert box_number(lion, "grt-4", "another-track") is None
    assert box_number(lion, "rp-sudan", "grt") is None and box_number(lion, "no-such-box", "grt") is None
    assert box_number(lion, None, "grt") is None


def test_highest_box():
    assert highest_box(data("lion-of-judah"), "grt") == 11
    assert highest_box(data("lion-of-judah"), "no-such-track") is None


def test_marker_value_reads_the_first_piece_of_the_counter():
    lion = data("lion-of-judah")
    pieces = [Piece("it-fuel", "grt-4"), Piece("it-ipl", "event-cup")]
    assert marker_value(lion, pieces, "it-fuel", "grt") == (4, pieces[0])
    assert marker_value(lion, pieces, "it-ipl", "grt") == (None, pieces[1])
    assert marker_value(lion, pieces, "it-eliminated-steps", "grt") == (None, None)
    assert track_marker(pieces, "it-ipl") is pieces[1] and track_marker([], "it-ipl") is None
