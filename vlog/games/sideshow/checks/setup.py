"""The set-up (18.0): a log that begins at the start of the game, the first phase of September
1914 on the turn tracker, shows each unit the set-up places where 18.0 puts it (a town's hex, or
the off-map box of the Uganda units). Units the set-up lists in rows the text lacks (the Karema,
Ruanda, Urundi and Lake Tanganyika units, Mwanza's) are not judged, nor a unit the table does not hold."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.kit.units import value

from ..registry import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import StepView

    from ..rules import Sideshow


@REGISTRY.check("SET-01", on="begin")
def judge_setup(game: "Sideshow", view: "StepView") -> list["Finding"]:
    """18.0: the units stand where the set-up puts them when the log begins with the game."""
    phase = game.phase
    if game.scenario is None or phase is None or phase.inferred or phase.turn != 1 or phase.index != 0:
        return []
    by_counter: dict[str, list] = {}
    for unit in game.units(view.after).values():
        by_counter.setdefault(unit.counter, []).append(unit)
    found = []
    for entry in game.data.scenario(game.scenario)["setup"]:
        units = value(entry["units"]) if "units" in entry else None
        hex_ = value(entry["hex"]) if "hex" in entry else None
        box = value(entry["box"]) if "box" in entry else None
        if not units or (hex_ is None and box is None):
            continue
        for counter in units:
            there = by_counter.get(counter)
            if not there or any((u.hex == hex_) if hex_ else (u.hex is None and u.box == box) for u in there):
                continue
            unit = there[0]
            where = unit.hex or unit.box or "off the map"
            found.append(game.finding("SET-01", Ruling.PROVEN, step=None,
                                      message=f"{unit.name} stands in {where} at the start of the game; the set-up puts "
                                              f"it in {hex_ or box} (18.0: {value(entry['what'])})",
                                      subjects=(unit.name,),
                                      evidence={"unit": unit.name, "at": where, "setup": hex_ or box}))
    return found
