"""Island of Death: the invasion of Malta, 1942.

Its game data (counters, map, tables, scenarios, VASSAL bindings) lives in `data/*.json` and is
loaded with `vlog.gamedata.load_game_data("island-of-death")`.
"""
from __future__ import annotations

GAME = "island-of-death"
