"""Set-up areas and arrivals, read from a scenario in `scenarios.json`.

A scenario's `setup` and `reinforcements` entries say which counters go where and when: exactly
in a hex, "at or within N hexes of" one, anywhere in a zone (a country), or into a box; the
reinforcements on which turns. `Placement` is one such entry as the kit reads it (a value the
data lacks is None); `setup_areas` gives each counter the map areas that may hold it when play
begins, `arrivals` each counter the turns it may arrive on; `in_area` says whether a hex lies in
an area, through the game's distance and zone answers (which may be `Unknown`);
`scenario_of_setup` the scenario a starting position was set up for.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from vlog.engine.judge import Unknown

__all__ = ["Placement", "arrivals", "in_area", "placements", "scenario_of_setup", "setup_areas"]


@dataclass(frozen=True, slots=True)
class Placement:
    """One set-up or reinforcement entry: `hex` and `within` (0 or None: that hex only), `zone`,
    `box`; `units` the counters it names, `count` how many it puts down, `turns` when."""

    placement: str
    side: str | None = None
    hex: str | None = None
    within: int | None = None
    zone: str | None = None
    box: str | None = None
    units: tuple[str, ...] = ()
    count: int | None = None
    turns: tuple[int, ...] | None = None

    @property
    def on_map(self) -> bool:
        """A map area (a hex or a zone), not a box."""
        return self.box is None and (self.hex is not None or self.zone is not None)

    def describe(self, hex_label: Callable[[str], str], zone_name: Callable[[str], str]) -> str:
        """'exactly in <hex>', 'at or within 2 hexes of <hex> in <zone>', 'anywhere in <zone>'."""
        zone = f" in {zone_name(self.zone)}" if self.zone else ""
        if self.hex is None:
            return f"anywhere{zone}"
        if not self.within:
            return f"exactly in {hex_label(self.hex)}"
        return f"at or within {self.within} hexes of {hex_label(self.hex)}{zone}"


def _value(record: Any, key: str) -> Any:
    return record[key].value if key in record else None


def placements(data: Any, scenario: str, kind: str = "setup") -> tuple[Placement, ...]:
    """The scenario's `setup` or `reinforcements` entries (`data`: a `GameData`)."""
    records = data.setup(scenario) if kind == "setup" else data.reinforcements(scenario)
    out = []
    for record in records:
        turns = _value(record, "turns")
        out.append(Placement(record["id"] if "id" in record else "", _value(record, "side"),
                             _value(record, "hex"), _value(record, "within"), _value(record, "zone"),
                             _value(record, "box"), tuple(_value(record, "units") or ()),
                             _value(record, "count"), tuple(turns) if turns is not None else None))
    return tuple(out)


def setup_areas(data: Any, scenario: str) -> dict[str, list[Placement]]:
    """Counter id -> the map placements of the set-up that name it (box placements left out)."""
    out: dict[str, list[Placement]] = {}
    for area in placements(data, scenario):
        if not area.on_map:
            continue
        for counter in area.units:
            out.setdefault(counter, []).append(area)
    return out


def scenario_of_setup(data: Any, units: Iterable[tuple[str, str | None]]) -> str | None:
    """The scenario whose set-up puts the most of these (counter, hex) pairs exactly where they
    stand: the scenario a starting position was set up for. None when none fits or two fit
    equally well (a game then says which, or the user does)."""
    standing = {(counter, hex_) for counter, hex_ in units if hex_ is not None}
    scores = []
    for scenario in data.scenario_ids:
        fits = sum(1 for area in placements(data, scenario) if area.hex is not None and not area.within
                   for counter in area.units if (counter, area.hex) in standing)
        scores.append((fits, scenario))
    scores.sort(reverse=True)
    if not scores or scores[0][0] == 0 or (len(scores) > 1 and scores[1][0] == scores[0][0]):
        return None
    return scores[0][1]


def arrivals(data: Any, scenario: str) -> dict[str, list[Placement]]:
    """Counter id -> the reinforcement entries that bring it (their `turns` None when the data
    lacks them)."""
    out: dict[str, list[Placement]] = {}
    for entry in placements(data, scenario, "reinforcements"):
        for counter in entry.units:
            out.setdefault(counter, []).append(entry)
    return out


def in_area(hex_: str, area: Placement, *, distance: Callable[[str, str], int],
            in_zone: Callable[[str, str], bool | Unknown]) -> bool | Unknown:
    """Whether a hex lies in a placement's map area: within its distance of its hex, and in its
    zone (the zone answer may be `Unknown` where the data lacks a border)."""
    if area.hex is not None and distance(hex_, area.hex) > (area.within or 0):
        return False
    return in_zone(hex_, area.zone) if area.zone else True
