"""Set-up areas the text gives by hex rows and columns: Agordat's free deployment (S2.12: the
Italians in columns 15xx-18xx, the Dervishes in columns 27xx-33xx up to line xx05, both inclusive,
FAQ; or the historical set-up, the Dervishes within 4 hexes of 3101, S2.11) and Metemma's
Dervishes (S5.12: columns 18xx-28xx, inclusive, FAQ). A unit brought onto the map before the
first flag is being set up. PROVEN when the log starts with that side's set-up to make (none of
its units on the map) or at the scenario's set-up; otherwise the placement may be of a later
moment and the finding is POSSIBLE. "Up to line xx05" is read as rows 01-05 (inventory 6.2 item
19): a Dervish unit in those columns below row 05 is POSSIBLE, naming that reading."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.sequence import side_name
from vlog.kit.steps import Placed

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView

ROWS_READING = "the reading of S2.12's 'up to line xx05' as rows 01 to 05 (inventory 6.2 item 19)"
LATER = "whether the log begins before the set-up (units of the side were on the map at its start)"


def _area(game: "Ascari", side: str, col: int, row: int, hex_: str) -> tuple[str, str, Ruling | None] | None:
    """(item, the area's words, None when inside / the ruling when outside) for the scenario and
    side; None when the scenario gives the side no area by rows and columns."""
    if game.scenario == "s2" and side == "italian":
        return "SET-02", "columns 15xx to 18xx (S2.12)", None if 15 <= col <= 18 else Ruling.PROVEN
    if game.scenario == "s2" and side == "dervish":
        assert game.terrain is not None
        words = "columns 27xx to 33xx up to line xx05 (S2.12), or within 4 hexes of 3101 (S2.11)"
        if game.terrain.distance(hex_, "3101") <= 4 or (27 <= col <= 33 and row <= 5):
            return "SET-02", words, None
        return "SET-02", words, Ruling.POSSIBLE if 27 <= col <= 33 else Ruling.PROVEN
    if game.scenario == "s5" and side == "dervish":
        return "SET-07", "columns 18xx to 28xx (S5.12)", None if 18 <= col <= 28 else Ruling.PROVEN
    return None


@REGISTRY.check("SET-02", "SET-07", event=Placed)
def judge_setup_area(game: "Ascari", event: Placed, view: "StepView") -> list:
    unit = event.unit
    if game.play.flags_declared or game.terrain is None or unit.hex is None or unit.side is None:
        return []
    where = game.terrain.layout.parse(unit.hex)
    found = _area(game, unit.side, where.col, where.row, unit.hex)
    if found is None or found[2] is None:
        return []
    item, words, ruling = found
    depends = [ROWS_READING] if ruling is Ruling.POSSIBLE else []
    if ruling is Ruling.PROVEN and not game.started_at_setup and unit.side in game.sides_at_start:
        ruling, depends = Ruling.POSSIBLE, [LATER]
    return [game.finding(item, ruling, step=event.step,
                         message=f"{unit.name} ({side_name(unit.side)}) was set up in {unit.hex}, outside {words}",
                         subjects=(unit.name,), evidence={"hex": unit.hex, "side": unit.side, "area": words},
                         depends_on=depends)]
