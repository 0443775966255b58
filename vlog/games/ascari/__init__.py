"""Ascari: African battles of the Italian army, 1890-1895.

Its game data (counters, map, tables, scenarios, VASSAL bindings) lives in `data/*.json` and is
loaded with `vlog.gamedata.load_game_data("ascari")`.
"""
from __future__ import annotations

GAME = "ascari"
