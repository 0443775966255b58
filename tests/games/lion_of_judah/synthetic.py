"""SYNTHETIC test data for the Lion of Judah rules: NOT the published map or charts.

Tests judge checks on small made-up positions. The map overlay written here gives a plain
clear map with the few terrain, hexside and line facts a test asks for; the TEC cells the
rulebook does not print (clear costs, motorized costs) and a forced march table are invented
for the tests and marked "SYNTHETIC" as their source. Where the rulebook gives a value (rough
and mountain foot cost 2, river +1, road 1 and 1/2) the shipped data is used unchanged.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Mapping

from vlog.gamedata import GameData, load_game_data
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.state import GameState, Unit

SRC = "SYNTHETIC test data, not the published chart"
GAME = "lion-of-judah"


def _d(value: Any) -> dict[str, Any]:
    return {"value": value, "source": SRC}


# invented cells, each marked SYNTHETIC
SYNTHETIC_TEC = {
    "clear": {"movement-foot": 1, "movement-motorized": 1, "combat": "none"},
    "rough": {"movement-motorized": 2},
    "mountain": {"movement-motorized": 3},
    "river-hexside": {"movement-motorized": "+1"},
}
SYNTHETIC_FORCED_MARCH = {"1": "1/A", "2": "1", "3": "0", "4": "0", "5": "0/A", "6": "0"}

REAL_LINES = ("rail-massawa-dongolaas", "rail-sudan", "rail-djibouti-addis", "track-asmara-addis",
              "track-danakil", "tug-jubba", "tug-wabi-shebeli")
ZONES = ("eritrea", "ethiopia", "italian-somaliland", "sudan", "kenya", "british-somaliland",
         "french-somaliland", "tigray", "ogaden", "danakil-desert")


def write_overlay(folder: Path, *, terrain: Mapping[str, str] = {},
                  features: Mapping[str, Iterable[str]] = {},
                  hexsides: Mapping[str, Iterable[str]] = {},
                  lines: Mapping[str, tuple[str, Iterable[str]]] = {},
                  zones: Mapping[str, Iterable[str]] | None = None,
                  tec: Mapping[str, Mapping[str, Any]] | None = None,
                  forced_march: Mapping[str, str] | None = None) -> Path:
    """Write map and table overlay files for one synthetic board into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    hexes: dict[str, Any] = {}
    for h, t in terrain.items():
        hexes.setdefault(h, {})["terrain"] = _d(t)
    for h, f in features.items():
        hexes.setdefault(h, {})["features"] = _d(list(f))
    map_lines = [{"id": lid, "type": _d("rail"), "hexes": _d([])} for lid in REAL_LINES]
    for lid, (kind, path) in lines.items():
        map_lines.append({"id": lid, "type": _d(kind), "hexes": _d(list(path))})
    zone_list = [{"id": z, "type": _d("country"), "hexes": _d(list((zones or {}).get(z, ())))}
                 for z in ZONES]
    board = {"id": "main", "layout": _d("lion-of-judah"), "default_terrain": _d("clear"),
             "default_hexside": _d([]), "hexes": hexes,
             "hexsides": {k: {"features": _d(list(v))} for k, v in hexsides.items()},
             "lines": map_lines, "zones": zone_list, "boxes": []}
    (folder / "map.json").write_text(json.dumps({"kind": "map", "game": GAME, "maps": [board]}))
    cells: dict[str, Any] = {}
    for row, effects in (SYNTHETIC_TEC if tec is None else tec).items():
        cells[row] = {effect: _d(value) for effect, value in effects.items()}
    fm = SYNTHETIC_FORCED_MARCH if forced_march is None else forced_march
    tables = [
        {"id": "tec", "cells": cells},
        {"id": "forced-march", "axes": [{"name": "roll", "labels": _d(sorted(fm))}],
         "cells": {k: _d(v) for k, v in fm.items()}},
    ]
    (folder / "tables.json").write_text(json.dumps({"kind": "tables", "game": GAME, "tables": tables}))
    return folder


def synthetic_board(folder: Path, **kwargs: Any) -> Board:
    """A Board over the shipped data plus a synthetic overlay written to `folder`."""
    write_overlay(folder, **kwargs)
    return Board(load_game_data(GAME, overlays=[folder]))


def shipped_board() -> Board:
    """The board with only the shipped (rulebook) data: most terrain unknown."""
    return Board(load_game_data(GAME))


def state(*units: Unit, scenario: str | None = None) -> GameState:
    return GameState({u.id: u for u in units}, scenario=scenario)


def unit(id: str, hex_: str | None, *, name: str | None = None, side: str = "italian",
         kind: str = "combat", attack: Any = 5, defense: Any = 7, movement: Any = 4,
         steps: Any = 4, unit_class: str | None = "italian-regular", size: str | None = "division",
         motorized: Any = False, level: str | None = None, faction: str | None = None,
         hidden: bool = False, unit_type: str | None = None) -> Unit:
    """A SYNTHETIC unit (default: an Italian regular 5-7-4 division like Sb, 2.3.2)."""
    return Unit(id=id, name=name or id, side=side, hex=hex_, kind=kind, level=level,
                unit_class=unit_class, unit_type=unit_type, size=size, motorized=motorized,
                steps=steps, attack=attack, defense=defense, movement=movement, faction=faction,
                hidden=hidden)


def data_with(folder: Path, **kwargs: Any) -> GameData:
    write_overlay(folder, **kwargs)
    return load_game_data(GAME, overlays=[folder])
