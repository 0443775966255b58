"""What several Sideshow checks read: a player's side, the month of a turn, the commanders in
command (10.11, 10.14) and the limits the rules state as numbers (tables.json `limits`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.kit.units import value

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.table import Table

__all__ = ["ALLIED", "GERMAN", "other", "known_turn", "RECYCLED", "came_from_box", "side_of", "month_of", "commander", "allied_ratings", "limit", "lake_port"]

ALLIED, GERMAN = "allied", "german"


def other(side: str) -> str:
    return GERMAN if side == ALLIED else ALLIED


def known_turn(game: Any) -> int | None:
    """The turn the table shows (None when it shows none: a turn inferred from who acts may lag
    behind the log, so nothing that depends on the month is judged on it)."""
    phase = game.phase
    return phase.turn if phase is not None and not phase.inferred else None


def side_of(table: "Table", player: str | None) -> str | None:
    """The side of the player a chat line or a roll names ('Alice' -> 'german'), None when the
    log's players do not say."""
    if player is None:
        return None
    for entry in table.players.values():
        if entry.name == player and entry.side:
            side = entry.side.strip().casefold()
            return side if side in (ALLIED, GERMAN) else None
    return None


def _track(data: "GameData", scenario: str) -> Any:
    record = data.scenario(scenario)
    return record["turn_track"] if "turn_track" in record else {}


def month_of(labels: dict[int, str], turn: int | None) -> str | None:
    """'Mar' for a turn labelled 'Mar 1915'; None when the turn or its label is not known."""
    label = labels.get(turn) if turn is not None else None
    return label.split()[0] if label else None


def turn_property(data: "GameData", scenario: str, turn: int, name: str) -> Any:
    track = _track(data, scenario)
    row = track[str(turn)] if str(turn) in track else None
    return value(row["properties"][name]) if row is not None and "properties" in row \
        and name in row["properties"] else None


def commander(data: "GameData", scenario: str, side: str, turn: int | None) -> tuple[str | None, int | None]:
    """The side's Overall Field Commander in a turn and his Initiative Rating: von Lettow (4)
    for the German (10.11); for the Allies the latest arrival of the 10.14 chart, who takes
    effect at the very beginning of his turn (10.12). (None, None) when the turn is not known."""
    chart = data.table("allied-ofc-arrival")
    if side == GERMAN:
        return value(chart["properties"]["german_ofc"]), value(chart["properties"]["german_initiative"])
    if turn is None:
        return None, None
    name, rating = None, None
    for number in range(1, turn + 1):
        arrives = turn_property(data, scenario, number, "allied_ofc_arrives")
        if arrives is not None:
            name, rating = arrives, turn_property(data, scenario, number, "allied_initiative")
    return name, rating


def allied_ratings(data: "GameData") -> frozenset[int]:
    """Every Initiative Rating an Allied OFC has (10.14): the readings of a turn not known."""
    chart = data.table("allied-ofc-arrival")
    return frozenset(v for (_, field), d in chart.listed_cells().items()
                     if field == "initiative" and isinstance(v := d.value, int))


RECYCLED = frozenset({"available", "delayed", "replacement-track"})
"""Boxes a unit comes back from as a replacement or a delayed reinforcement (9.2, 9.3): it
enters through Mombasa, not where its first arrival put it."""


def came_from_box(view: Any, game: Any, unit_id: str) -> str | None:
    """The box a unit stood in before the step (None: it was not on the table, or on the map)."""
    before = game.units(view.before).get(unit_id)
    return before.box if before is not None else None


def limit(data: "GameData", fact: str) -> Any:
    """A number the rules state (tables.json `limits`: 'allied_op_save_max' -> 10)."""
    return data.lookup("limits", fact).value


LAKE_PORT = "lake-port"


def lake_port(game: "Sideshow", hex_: str | None) -> bool:
    """Whether the data lists the hex as a Lake Victoria port (14.0: Mwanza, Bukoba; Kisumu and
    Karangu have no hex number in the text)."""
    record = game.data.hex(hex_) if hex_ is not None else None
    return record is not None and "features" in record and LAKE_PORT in (value(record["features"]) or ())
