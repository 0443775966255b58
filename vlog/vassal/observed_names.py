"""Location names VASSAL itself wrote into a save or log, keyed by the map point they name.

Whenever VASSAL moves a piece it first records where the piece stood (Decorator.setOldProperties,
P/counters/Decorator.java): persistent properties `OldMap` (the map's `mapName`, which is also
the map id piece states and MovePiece use), `OldX`, `OldY` (`String.valueOf` of the point) and
`OldLocationName` (`Map.locationName` of that point). So every piece that has been moved carries
one (map, x, y) -> name pair computed by VASSAL with the module's grids, zones and decks and the
game's board layout. Reading them back names those exact points without the module; no other
point is named, and nothing is inferred (no grid is guessed from the pairs).

Sources: every piece state in the file (AddPiece of the restore block and of log steps, and the
new state of every ChangePiece of a piece the file added). A point two sources name differently
is dropped and counted as ambiguous; values VASSAL would not have written (empty map or name, a
coordinate that is not a Java int as `String.valueOf` prints it) are skipped and counted.

Movement reports in chat ("* X moves A -> B *", ReportState/`$location$`) are not read: their
wording is each module's own format, and in the sample logs (vasl-templates) no step that holds a
MovePiece holds any report at all, so there is nothing to check such a reading against.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ObservedNames", "observed_namer", "OLD_MAP", "OLD_X", "OLD_Y", "OLD_LOCATION_NAME"]

OLD_MAP = "OldMap"
OLD_X = "OldX"
OLD_Y = "OldY"
OLD_LOCATION_NAME = "OldLocationName"

_JAVA_INT = re.compile(r"-?(0|[1-9][0-9]{0,9})")
"""`String.valueOf(int)`: optional minus, no leading zeros, no plus sign, ASCII digits."""

Point = tuple[str, int, int]


def _java_int(text: str) -> int | None:
    """The int VASSAL printed, or None when the text is not one `String.valueOf` could give."""
    if not _JAVA_INT.fullmatch(text) or text == "-0":
        return None
    value = int(text)
    return value if -(2**31) <= value < 2**31 else None


@dataclass
class ObservedNames:
    """(map, x, y) -> the name VASSAL gave that point, learned from the file's own data.

    Callable as a dump `LocationNamer`: the learned name, or None for a point VASSAL never named
    in this file.
    """

    names: dict[Point, str] = field(default_factory=dict)
    ambiguous: set[Point] = field(default_factory=set)
    """Points named differently by two sources (dropped)."""
    skipped: int = 0
    """Old… property sets with empty or odd values (not learned)."""

    def __call__(self, map_id: str | None, x: int, y: int) -> str | None:
        if map_id is None:
            return None
        return self.names.get((map_id, x, y))

    def __len__(self) -> int:
        """How many points are named."""
        return len(self.names)

    def learn(self, map_id: str, x: int, y: int, name: str) -> None:
        """Record one pair; a second, different name for the same point drops it for good."""
        point = (map_id, x, y)
        if point in self.ambiguous:
            return
        known = self.names.get(point)
        if known is None:
            self.names[point] = name
        elif known != name:
            del self.names[point]
            self.ambiguous.add(point)

    def learn_properties(self, properties: dict[str, str]) -> None:
        """The pair in one piece's persistent properties, if it has a sound one."""
        if OLD_LOCATION_NAME not in properties and OLD_X not in properties:
            return
        map_id = properties.get(OLD_MAP, "")
        name = properties.get(OLD_LOCATION_NAME, "")
        x = _java_int(properties.get(OLD_X, ""))
        y = _java_int(properties.get(OLD_Y, ""))
        if not map_id or map_id == "null" or not name or x is None or y is None:
            self.skipped += 1
            return
        self.learn(map_id, x, y, name)


def observed_namer(obj: Any) -> ObservedNames:
    """Every (map, x, y) -> name pair VASSAL wrote into a Save or Log's piece states."""
    from vlog.vassal.commands import AddPiece, ChangePiece, walk
    from vlog.vassal.pieces import BasicPiece, Piece

    observed = ObservedNames()
    types: dict[str, str] = {}

    def learn_state(piece_id: str | None, type_: str, state: str) -> None:
        basic = Piece(piece_id, type_, state).basic
        if isinstance(basic, BasicPiece):
            observed.learn_properties(basic.properties)

    for node in walk(obj.commands):
        if isinstance(node, AddPiece):
            if node.id is not None:
                types[node.id] = node.type
            learn_state(node.id, node.type, node.state)
        elif isinstance(node, ChangePiece) and node.id in types:
            learn_state(node.id, types[node.id], node.new_state)
    return observed
