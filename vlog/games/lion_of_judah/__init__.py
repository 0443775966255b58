"""Lion of Judah (Compass Games): the war for Ethiopia, 1935-1941.

Its game data (counters, map, tables, scenarios, VASSAL bindings) lives in `data/*.json` and is
loaded with `vlog.gamedata.load_game_data("lion-of-judah")`.
"""
from __future__ import annotations

GAME = "lion-of-judah"
