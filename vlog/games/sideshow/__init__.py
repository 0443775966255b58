"""Sideshow: the campaign for German East Africa, 1914-1918.

Its game data (counters, map, tables, scenarios, VASSAL bindings) lives in `data/*.json` and is
loaded with `vlog.gamedata.load_game_data("sideshow")`.
"""
from __future__ import annotations

GAME = "sideshow"
