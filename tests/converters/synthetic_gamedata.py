"""SYNTHETIC game data for the writer tests: invented for testing only, never game facts.

Every value below is made up to exercise the writers (steps and faces, an unknown unit type,
known and unknown terrain, a river hexside, boxes, 1d6 and 2d6 tables, a scenario with exact,
box, zone and area placements). It is validated against the project's game-data schemas, so
the writers see data shaped exactly like the shipped games'.
"""
from __future__ import annotations

import copy

from vlog import gamedata as GD

SRC = {"source": "SYNTHETIC test data"}


def known(value):
    return {"value": value, **SRC}


def unknown(note="SYNTHETIC: left unknown on purpose"):
    return {"value": None, "note": note}


def _counter(cid, name, side, nationality, type_, levels, steps):
    rec = {"id": cid, "name": known(name), "side": known(side), "nationality": known(nationality),
           "type": known(type_) if type_ else unknown(), "steps": known(steps) if steps is not None else unknown(),
           "levels": levels}
    return rec


def _factors(a, d, m):
    return {"attack": known(a) if a is not None else unknown(), "defense": known(d), "movement": known(m)}


def synthetic_documents(layout: str = "island-of-death") -> dict:
    head = lambda kind: {"kind": kind, "game": "island-of-death", "complete": known(True)}  # noqa: E731
    counters = head("counters") | {"counters": [
        _counter("r-1", "1R", "red", "redland", "infantry",
                 {"3": _factors(4, 4, 3), "2": _factors(None, 3, 3), "1": _factors(1, 2, 3)}, 3),
        _counter("r-hq", "HQ", "red", "redland", "hq", {"front": _factors(0, 1, 5), "back": _factors(0, 1, 2)}, 0),
        _counter("b-1", "1B", "blue", "blueland", None, {"full": _factors(2, 2, 4)}, 1),
        _counter("b-cav", "Cav", "blue", "blueland", "cavalry", {}, None),
    ]}
    hexes = {
        "0203": {"terrain": known("clear"), "name": known("Redtown")},
        "0304": {"terrain": known("forest")},
        "0405": {"terrain": known("marshland")},
        "0608": {"features": known(["town"])},
    }
    mp = head("map") | {"maps": [{
        "id": "main", "name": known("Synthetic Board"), "layout": known(layout),
        "default_terrain": unknown(), "default_hexside": unknown(),
        "hexes": hexes,
        "hexsides": {"0304/0305": {"features": known(["river"])}},
        "lines": [{"id": "road-1", "type": known("road"), "hexes": known(["0203", "0304", "0405"])}], "zones": [{"id": "north", "type": known("region"), "name": known("North"), "hexes": unknown()}],
        "boxes": [{"id": "pool", "type": known("pool"), "name": known("Red pool")},
                  {"id": "dead", "type": known("eliminated"), "name": known("Eliminated")}],
    }]}
    tables = head("tables") | {"tables": [
        {"id": "crt", "name": known("CRT"), "type": "die", "dice": known("1d6"),
         "axes": [{"name": "roll", "labels": known(["1", "2"])}], "cells": {"1": known("AE"), "2": known("DE")},
         "default_cell": unknown()},
        {"id": "events", "name": known("Events"), "type": "die", "dice": known("2d6"),
         "axes": [{"name": "roll", "labels": known(["2"])}], "cells": {"2": known("none")}, "default_cell": unknown()},
    ]}
    scenarios = head("scenarios") | {"scenarios": [{
        "id": "s1", "name": known("Synthetic scenario"), "map": known("main"), "sides": known(["red", "blue"]),
        "turns": known(3), "phases": known(["move", "fight", "end"]),
        "turn_track": {"1": {"label": known("T1")}, "2": {"label": known("T2")}, "3": {"label": known("T3")}},
        "setup": [
            {"id": "red-town", "side": known("red"), "what": known("1R and HQ in Redtown"),
             "units": known(["r-1", "r-hq"]), "hex": known("0203")},
            {"id": "blue-a", "side": known("blue"), "what": known("two 1B in 0608"),
             "units": known(["b-1"]), "count": known(2), "hex": known("0608")},
            {"id": "blue-b", "side": known("blue"), "what": known("Cav within 1 of 0405"),
             "units": known(["b-cav"]), "hex": known("0405"), "within": known(1)},
            {"id": "red-pool", "side": known("red"), "what": known("1R in the pool"),
             "units": known(["r-1"]), "box": known("pool")},
            {"id": "blue-north", "side": known("blue"), "what": known("1B anywhere in the north"),
             "units": known(["b-1"]), "zone": known("north")},
            {"id": "ghost", "side": known("blue"), "what": known("a unit with no counter"),
             "units": known(["no-such-counter"]), "hex": known("0304")},
            {"id": "points", "side": known("red"), "what": known("3 points"), "count": known(3)},
        ],
        "reinforcements": [],
        "properties": {"starts_at": known("fight")},
    }]}
    bindings = head("bindings") | {"module": {"name": unknown(), "version": unknown()},
                                   "pieces": [], "layers": [], "locations": [], "turn_track": []}
    return {"counters": counters, "map": mp, "tables": tables, "scenarios": scenarios, "bindings": bindings}


def synthetic_game(layout: str = "island-of-death") -> GD.GameData:
    docs = synthetic_documents(layout)
    files = {kind: f"synthetic/{kind}.json" for kind in docs}
    for kind, doc in docs.items():
        GD._validate(kind, doc, files[kind])
    return GD.GameData(game="island-of-death", title="Synthetic Game", documents=copy.deepcopy(docs), files=files)
