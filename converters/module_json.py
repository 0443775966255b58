"""A module as JSON (schemas/module.schema.json), and the compact summary `vlog info` prints.

Grids are written with VASSAL's attribute names (`dx`, `x0`, `hLeading`, `locationFormat`, ...)
so the JSON reads like the buildFile it came from; pieces keep the AddPiece text as written and
the expanded form VASSAL places.
"""
from __future__ import annotations

from typing import Any

from vlog.errors import VlogError
from vlog.vassal import grids as G
from vlog.vassal.module import (
    BoardDef, DrawPile, MapDef, Module, PieceSlot, SetupStack, TurnLevel,
)

__all__ = ["module_to_json", "grid_to_json", "describe_module", "FORMAT", "FORMAT_VERSION"]

FORMAT = "vlog-module"
FORMAT_VERSION = 1


def _numbering_json(n: G.RegularGridNumbering | None) -> dict[str, Any] | None:
    if n is None:
        return None
    out: dict[str, Any] = {
        "first": n.first, "sep": n.sep, "hType": n.h_type, "vType": n.v_type, "hLeading": n.h_leading,
        "vLeading": n.v_leading, "hOff": n.h_off, "vOff": n.v_off, "hDescend": n.h_descend,
        "vDescend": n.v_descend, "locationFormat": n.location_format,
    }
    if isinstance(n, G.HexGridNumbering):
        out["stagger"] = n.stagger
        out["oblique"] = n.oblique
    return out


def grid_to_json(grid: object | None) -> dict[str, Any] | None:
    """One grid with VASSAL's attribute names; zones carry their own grids."""
    if grid is None:
        return None
    if isinstance(grid, G.HexGrid):
        return {"type": "hex", "dx": grid.dx, "dy": grid.dy, "x0": grid.x0, "y0": grid.y0,
                "sideways": grid.sideways, "snapTo": grid.snap_to, "edgesLegal": grid.edges_legal,
                "cornersLegal": grid.corners_legal, "snapScale": grid.snap_scale,
                "numbering": _numbering_json(grid.numbering)}
    if isinstance(grid, G.SquareGrid):
        return {"type": "square", "dx": grid.dx, "dy": grid.dy, "x0": grid.x0, "y0": grid.y0,
                "snapTo": grid.snap_to, "edgesLegal": grid.edges_legal, "cornersLegal": grid.corners_legal,
                "snapScale": grid.snap_scale, "range": grid.range, "numbering": _numbering_json(grid.numbering)}
    if isinstance(grid, G.RegionGrid):
        return {"type": "region", "snapto": grid.snap_to,
                "regions": [{"name": r.name, "originx": r.x, "originy": r.y} for r in grid.regions]}
    if isinstance(grid, G.ZonedGrid):
        return {"type": "zoned", "background": grid_to_json(grid.background),
                "zones": [{"name": z.name, "locationFormat": z.location_format, "path": z.path,
                           "useParentGrid": z.use_parent_grid, "grid": grid_to_json(z.grid)}
                          for z in grid.zones]}
    raise TypeError(f"not a grid: {type(grid).__name__}")


def _slot_json(s: PieceSlot) -> dict[str, Any]:
    return {"entryName": s.entry_name, "gpid": s.gpid, "name": s.name, "text": s.text, "expanded": s.expanded,
            "width": s.width, "height": s.height, "card": s.card, "path": list(s.path), "problems": list(s.problems)}


def _board_json(b: BoardDef) -> dict[str, Any]:
    return {"name": b.name, "image": b.image, "reversible": b.reversible, "width": b.width, "height": b.height,
            "size": list(b.size) if b.size is not None else None, "grid": grid_to_json(b.grid),
            "attributes": dict(b.attributes)}


def _stack_json(s: SetupStack, m: MapDef) -> dict[str, Any]:
    return {"name": s.name, "owningBoard": s.owning_board, "useGridLocation": s.use_grid_location,
            "location": s.location, "x": s.x, "y": s.y, "position": _position(m, s),
            "pieces": [_slot_json(p) for p in s.pieces], "attributes": dict(s.attributes)}


def _deck_json(d: DrawPile, m: MapDef) -> dict[str, Any]:
    return {"name": d.name, "owningBoard": d.owning_board, "x": d.x, "y": d.y, "width": d.width,
            "height": d.height, "faceDown": d.face_down, "shuffle": d.shuffle, "reversible": d.reversible,
            "draw": d.draw, "position": _position(m, d), "cards": [_slot_json(c) for c in d.cards],
            "attributes": dict(d.attributes)}


def _position(m: MapDef, s: SetupStack | DrawPile) -> list[int] | None:
    """The map point VASSAL places the stack at; None when the board layout is not fixed."""
    try:
        return list(m.stack_position(s))
    except VlogError:  # a map with several boards and no default layout
        return None


def _level_json(lvl: TurnLevel) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": lvl.kind, "name": lvl.name, "property": lvl.property,
                           "turnFormat": lvl.turn_format}
    if lvl.kind == "counter":
        out.update(start=lvl.start, incr=lvl.incr, loop=lvl.loop, loopLimit=lvl.loop_limit)
    else:
        out.update(list=list(lvl.items or []), first=lvl.first)
    out["levels"] = [_level_json(c) for c in lvl.levels]
    return out


def module_to_json(module: Module) -> dict[str, Any]:
    """The whole model as JSON data (validates against schemas/module.schema.json)."""
    maps = []
    for m in module.maps:
        maps.append({
            "mapName": m.map_name, "kind": m.kind, "edgeWidth": m.edge_width, "edgeHeight": m.edge_height,
            "setup": m.setup,
            "layout": None if m.layout is None else [
                {"board": n, "column": c, "row": r, "reversed": rev} for n, c, r, rev in m.layout],
            "boards": [_board_json(b) for b in m.boards],
            "setupStacks": [_stack_json(s, m) for s in m.setup_stacks],
            "decks": [_deck_json(d, m) for d in m.decks],
            "attributes": dict(m.attributes),
        })
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "name": module.name, "version": module.version, "vassalVersion": module.vassal_version,
        "description": module.description, "nextPieceSlotId": module.next_piece_slot_id, "root": module.root,
        "source": module.source, "metadata": dict(module.metadata), "attributes": dict(module.attributes),
        "extensions": [{"name": e.name, "version": e.version, "description": e.description, "module": e.module,
                        "extensionId": e.extension_id, "source": e.source} for e in module.extensions],
        "maps": maps,
        "prototypes": [{"name": p.name, "description": p.description, "text": p.text}
                       for p in module.prototypes.values()],
        "pieceSlots": [_slot_json(s) for s in module.piece_slots],
        "dice": [{"name": d.name, "nDice": d.n_dice, "nSides": d.n_sides, "plus": d.plus,
                  "addToTotal": d.add_to_total, "reportTotal": d.report_total, "reportFormat": d.report_format,
                  "sortDice": d.sort_dice, "keepDice": d.keep_dice, "keepOption": d.keep_option,
                  "keepCount": d.keep_count, "prompt": d.prompt, "attributes": dict(d.attributes)}
                 for d in module.dice],
        "specialDice": [{"name": s.name, "dice": [{"name": d.name, "faces": d.faces} for d in s.dice],
                         "attributes": dict(s.attributes)} for s in module.special_dice],
        "turnTrackers": [{"name": t.name, "levels": [_level_json(lv) for lv in t.levels],
                          "attributes": dict(t.attributes)} for t in module.turn_trackers],
        "globalProperties": [{"name": g.name, "initialValue": g.initial_value, "description": g.description,
                              "isNumeric": g.numeric, "min": g.min, "max": g.max, "wrap": g.wrap,
                              "scope": g.scope, "mapName": g.map_name, "zone": g.zone}
                             for g in module.global_properties],
        "sides": list(module.sides),
        "globalOptions": dict(module.global_options),
        "problems": list(module.problems),
    }


def _grid_summary(grid: object | None) -> dict[str, Any] | None:
    j = grid_to_json(grid)
    if j is None:
        return None
    if j["type"] == "region":
        return {"type": "region", "snapto": j["snapto"], "regions": len(j["regions"])}
    if j["type"] == "zoned":
        return {"type": "zoned", "background": _grid_summary(grid.background), "zones": len(grid.zones),
                "zoneGrids": sorted({(_grid_summary(z.grid) or {}).get("type", "none") for z in grid.zones})}
    return j


def describe_module(module: Module) -> dict[str, Any]:
    """A compact summary: maps, boards and grid settings, counts of pieces, dice and turn levels."""
    def levels(lv: list[TurnLevel]) -> list[dict[str, Any]]:
        return [{"name": x.name, "kind": x.kind,
                 **({"items": len(x.items or [])} if x.kind == "list" else {"start": x.start, "incr": x.incr}),
                 "levels": levels(x.levels)} for x in lv]

    return {
        "name": module.name, "version": module.version, "vassalVersion": module.vassal_version,
        "kind": "extension" if module.is_extension else "module",
        "extensions": [e.name for e in module.extensions],
        "maps": [{"mapName": m.map_name, "kind": m.kind,
                  "boards": [{"name": b.name, "size": list(b.size) if b.size else None,
                              "grid": _grid_summary(b.grid)} for b in m.boards],
                  "setupStacks": len(m.setup_stacks), "decks": len(m.decks)} for m in module.maps],
        "counts": {"pieceSlots": len(module.piece_slots), "prototypes": len(module.prototypes),
                   "setupStacks": len(module.setup_stacks), "decks": len(module.decks),
                   "globalProperties": len(module.global_properties)},
        "dice": [{"name": d.name, "nDice": d.n_dice, "nSides": d.n_sides, "plus": d.plus} for d in module.dice]
        + [{"name": s.name, "special": [d.name for d in s.dice]} for s in module.special_dice],
        "turnTrackers": [{"name": t.name, "levels": levels(t.levels)} for t in module.turn_trackers],
        "sides": list(module.sides),
        "problems": len(module.problems) + sum(len(s.problems) for s in module.piece_slots),
    }
