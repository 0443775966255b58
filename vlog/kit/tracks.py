"""Record tracks: a marker's value is the number of the track box it stands in.

A game's records (eliminated steps, prestige, fuel, VP) are markers on a printed track. In
`map.json` each box of a track carries the properties `track` (the track's id) and `number`
(its value): a game reads a marker's value through the data, never from the box's id.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["box_number", "highest_box", "marker_value", "track_marker"]


def _props(record: Any) -> Any:
    return record["properties"] if "properties" in record else {}


def box_number(data: Any, box: str | None, track: str) -> int | None:
    """The number of a box of `track` (its `number` property), None when the box is not one of
    the track's or its number is not in the data."""
    if box is None:
        return None
    for map_id in data.map_ids:
        try:
            record = data.box(box, map_id)
        except KeyError:
            continue
        props = _props(record)
        if "track" in props and props["track"].value == track and "number" in props:
            number = props["number"].value
            return number if isinstance(number, int) else None
    return None


def highest_box(data: Any, track: str) -> int | None:
    """The highest number of the track's boxes in the data (None: the data lists none)."""
    numbers = []
    for map_id in data.map_ids:
        board = data.map(map_id)
        for record in (board["boxes"] if "boxes" in board else ()):
            props = _props(record)
            if "track" in props and props["track"].value == track and "number" in props \
                    and isinstance(props["number"].value, int):
                numbers.append(props["number"].value)
    return max(numbers) if numbers else None


def track_marker(units: Iterable[Any], counter: str) -> Any | None:
    """The first piece of the marker's counter among `units`, None when none is on the table."""
    return next((u for u in units if u.counter == counter), None)


def marker_value(data: Any, units: Iterable[Any], counter: str, track: str) -> tuple[int | None, Any | None]:
    """(value, marker): the number of the track box the marker stands in; the value None when
    the marker is not on the table or stands in no box of the track."""
    marker = track_marker(units, counter)
    return (box_number(data, marker.box, track), marker) if marker is not None else (None, None)
