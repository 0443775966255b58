"""The one list of games (vlog.games.GAMES): every other list of game names follows it, names
are found however a user spells them, and a typo gets the nearest game."""
from __future__ import annotations

import importlib

import pytest

import converters.fixtures
import vlog.games
from vlog import gamedata
from vlog.errors import UnknownGameError
from vlog.games import GAMES, game_ids, lookup, nearest
from vlog.games.base import Game, find_game, known_games


def test_the_other_lists_of_games_are_the_list():
    assert list(gamedata.GAMES) == list(known_games()) == list(game_ids())
    assert converters.fixtures.GAMES == game_ids()
    assert [g.package for g in GAMES] == list(gamedata.GAMES.values())


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.id)
def test_each_entry_names_its_package_data_and_engine(entry):
    package = importlib.import_module(entry.module)
    assert gamedata.load_game_data(entry.id).game == entry.id
    if entry.engine is not None:
        module, cls = entry.engine.split(":")
        engine = getattr(importlib.import_module(f"{package.__name__}.{module}"), cls)
        assert issubclass(engine, Game) and engine.id == entry.id


def test_names_are_found_however_they_are_spelt():
    for name in ("lion-of-judah", "Lion of Judah", "lion_of_judah", " LOJ "):
        assert lookup(name).id == "lion-of-judah"
    assert lookup("iod").id == "island-of-death"
    assert lookup("chess") is None


def test_a_typo_is_answered_with_the_nearest_game():
    assert nearest("lion-of-juda") == "lion-of-judah"
    assert nearest("Ascary") == "ascari"
    assert nearest("chess") is None
    with pytest.raises(UnknownGameError, match="unknown game 'side-show'; did you mean 'sideshow'"):
        find_game("side-show")
    with pytest.raises(UnknownGameError, match="no game data for 'lion-of-juda'; did you mean 'lion-of-judah'"):
        gamedata.load_game_data("lion-of-juda")
    with pytest.raises(UnknownGameError) as caught:
        find_game("chess")
    assert "did you mean" not in caught.value.message


def test_an_engine_is_built_on_the_data_it_is_given():
    data = gamedata.load_game_data("loj")
    assert find_game("loj", data).data is data


def test_a_game_added_to_the_list_is_found(monkeypatch):
    monkeypatch.setattr(vlog.games, "GAMES", (*GAMES, vlog.games.GameEntry("toy", "toy")))
    assert lookup("TOY").package == "toy" and "toy" in known_games()
