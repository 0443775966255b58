"""Where eliminated units go (9.31, 9.33): an Allied unit to the Replacement Track, except, from
1916, the Uganda unit, the East Africa Regiment and the East Africa Mounted Rifles, which are
never rebuilt (REI-10); of the German units only Field Companies go to the Replacement Box, the
others leave play for good (ATT-11), judged at each unit put in a box: from the map (`Moved`), or
from another box or straight onto the table (`BoxMoved`). That a unit was eliminated (0 SP, on the OB sheets) and the captured units
(8.27) are not judged."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.kit.steps import BoxMoved, Moved, put_in_box
from vlog.kit.units import value

from ..registry import REGISTRY
from .common import ALLIED, GERMAN
from .random_events import year_month

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import StepView

    from ..rules import Sideshow

__all__: list[str] = []

TRACK, GERMAN_BOX, FK = "replacement-track", "german-replacement", "de-fk-"


def _not_rebuilt_from(game: "Sideshow", counter: str) -> int | None:
    try:
        record = game.data.counter(counter)
    except KeyError:
        return None
    props = record["properties"] if "properties" in record else None
    return value(props["not_rebuilt_from"]) if props is not None and "not_rebuilt_from" in props else None


@REGISTRY.check("REI-10", "ATT-11", event=BoxMoved)
@REGISTRY.check("REI-10", "ATT-11", event=Moved)
def judge_eliminated(game: "Sideshow", moved: "Moved | BoxMoved", view: "StepView") -> list["Finding"]:
    """9.31, 9.33: the boxes eliminated units go to."""
    unit = put_in_box(moved)
    if unit is None or unit.box not in (TRACK, GERMAN_BOX):
        return []
    if unit.side == ALLIED and unit.box == TRACK:
        month = year_month(game, game.phase.turn) if game.phase is not None and not game.phase.inferred else None
        year = _not_rebuilt_from(game, unit.counter)
        if year is None or month is None or month[0] < year:
            return []
        return [game.finding("REI-10", Ruling.PROVEN, step=moved.step,
                             message=f"{unit.name} was put on the Replacement Track in {month[0]}; from "
                                     f"{year} it is not rebuilt (9.31)",
                             subjects=(unit.name,), evidence={"unit": unit.name, "year": month[0], "from": year})]
    if unit.side == GERMAN and unit.box == GERMAN_BOX and not unit.counter.startswith(FK):
        return [game.finding("ATT-11", Ruling.PROVEN, step=moved.step,
                             message=f"{unit.name} was put in the Replacement Box; only Field Companies are "
                                     "rebuilt, the other German units leave play for good (9.33)",
                             subjects=(unit.name,), evidence={"unit": unit.name})]
    return []
