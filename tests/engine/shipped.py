"""The shipped game data, read into the engine's table types for the rulebook-example tests.

The examples must be reproduced with each game's own data: a table cell, terrain effect or
modifier mistyped in vlog/games/<game>/data/*.json makes the example that prints it fail.
Every helper asserts the datum is known, so an example never runs on a value the data lacks.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from vlog.engine.combat import CombatTable, level_name, parse_odds
from vlog.engine.dice import parse_range
from vlog.gamedata import GameData, load_game_data


@lru_cache(maxsize=None)
def game(name: str) -> GameData:
    return load_game_data(name)


def known(name: str, table: str, *labels: str | int) -> Any:
    """A table cell the data must know."""
    datum = game(name).lookup(table, *labels)
    assert datum.known, f"{name} data: {table} {labels} is unknown ({datum.note})"
    return datum.value


def prop(name: str, table: str, key: str) -> Any:
    datum = game(name).table(table)["properties"][key]
    assert datum.known, f"{name} data: {table} property {key} is unknown"
    return datum.value


def column_shift(name: str, terrain: str, effect: str = "combat", table: str = "tec") -> int:
    """A terrain's column shift as printed ("1L" -> -1, "2R" -> +2)."""
    text = known(name, table, terrain, effect)
    match = re.fullmatch(r"([0-9]+)([LR])", str(text))
    assert match, f"{name} data: {terrain} {effect} is {text!r}, not a column shift"
    return int(match.group(1)) * (-1 if match.group(2) == "L" else 1)


def labels(name: str, table: str, axis: str) -> list[str]:
    datum = game(name).table(table).labels(axis)
    assert datum.known, f"{name} data: the {axis} labels of {table} are unknown"
    return list(datum.value)


def odds_table(name: str, table: str, *fixed: str, title: str | None = None) -> CombatTable[int]:
    """An odds CRT (axes [fixed...,] column, roll) with the cells the data knows; columns are the
    printed labels when the data has them, else the columns its known cells name."""
    tb = game(name).table(table)
    cells = {key[len(fixed):]: d.value for key, d in tb.listed_cells().items()
             if key[:len(fixed)] == tuple(fixed) and d.known}
    printed = tb.labels("column")
    names = list(printed.value) if printed.known else sorted({c for c, _ in cells}, key=parse_odds)
    columns = [parse_odds(c) for c in names]
    return CombatTable.build(title or f"{name} {table}", columns, labels(name, table, "roll"),
                             {(parse_odds(c), r): str(v) for (c, r), v in cells.items()},
                             column_label=level_name)


def hit_rolls(rolls: list[int]) -> Any:
    """A list of hitting rolls as the engine's die range (the data lists them one by one)."""
    assert rolls == list(range(min(rolls), max(rolls) + 1)), f"hitting rolls {rolls} are not one run"
    return parse_range(f"{min(rolls)}-{max(rolls)}")
