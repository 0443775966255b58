"""The Lion of Judah map as the rules read it: neighbours, terrain, hexsides, lines and areas.

Every answer the game data cannot give is an `Unknown` naming the datum (map.json hex 1213
terrain, hexside 1214/1314 features, the hexes of a line), with the lower bound the rules
guarantee, so the movement and supply searches can say LEGAL, POSSIBLE (naming what would
settle it) or PROVEN.

Errata 11.4.3/12.8: a town/city or amba "always controls" for terrain effects; for movement
the other terrain of the hex counts, and 11.4.1 ambas are mountains for movement. The map
data's `terrain` is that other (predominant) terrain and `features` list town, capital, amba.

Lines (rail, road, dirt track): a line whose hexes are listed joins consecutive hexes. Roads
not listed as lines are printed on the map only; while the map's default terrain is unknown
(the map has not been transcribed) any pair of hexes may be joined by an unlisted road, so a
road is an `Unknown` there; once an overlay gives the default terrain the listed lines are
taken to be all the lines there are.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Unknown
from vlog.hexes import LAYOUTS, HexLayout

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData

__all__ = ["Board", "FOOT_MIN_COST", "MOTORIZED_MIN_COST", "hex_label"]

FOOT_MIN_COST = 1
"""No hex costs a foot unit less than 1 MP (11.4.2: road and rail hexes cost 1)."""
MOTORIZED_MIN_COST = Fraction(1, 2)
"""No hex costs a motorized unit less than the road rate of 1/2 MP (11.4.2)."""


def hex_label(hex_: str, board: "Board | None" = None) -> str:
    """'1213 (Addis Ababa)' when the hex has a printed name, else '1213'."""
    name = board.name_of(hex_) if board is not None else None
    return f"{hex_} ({name})" if name else hex_


class Board:
    """Read-only rules view of the (single) Lion of Judah map."""

    def __init__(self, data: "GameData", layout: HexLayout | None = None):
        self.data = data
        self.layout = layout or LAYOUTS["lion-of-judah"]
        board = data.map()
        self._raw: dict[str, Any] = board._raw  # type: ignore[attr-defined]
        self.map_known = self._raw["default_terrain"].get("value") is not None
        self._line_steps: dict[frozenset[str], set[str]] = {}
        self._line_ids: dict[frozenset[str], set[str]] = {}
        self._unknown_lines: list[str] = []
        for line in self._raw.get("lines", []):
            kind = line["type"].get("value")
            hexes = line["hexes"].get("value")
            if hexes is None:
                if kind in ("rail", "road", "dirt-track"):
                    self._unknown_lines.append(f"map.json line {line['id']} hexes")
                continue
            for a, b in zip(hexes, hexes[1:]):
                self._line_steps.setdefault(frozenset((a, b)), set()).add(kind)
                self._line_ids.setdefault(frozenset((a, b)), set()).add(line["id"])
        self.neighbours = lru_cache(maxsize=65536)(self._neighbours)

    # -- geometry ----------------------------------------------------------------------------
    def _neighbours(self, hex_: str) -> tuple[str, ...]:
        h = self.layout.parse(hex_)
        return tuple(self.layout.name(n) for n in self.layout.neighbours_on_map(h))

    def distance(self, a: str, b: str) -> int:
        return self.layout.distance(self.layout.parse(a), self.layout.parse(b))

    def direction(self, a: str, b: str) -> int:
        """Direction 0-5 from a to the adjacent hex b (for concentric attacks, 12.9)."""
        return self.layout.direction(self.layout.parse(a), self.layout.parse(b))

    def name_of(self, hex_: str) -> str | None:
        record = self._raw["hexes"].get(hex_)
        if record and "name" in record:
            return record["name"].get("value")
        return None

    # -- hexes --------------------------------------------------------------------------------
    def terrain(self, hex_: str) -> str | Unknown:
        """Predominant terrain other than town/amba (errata 11.4.3), or Unknown."""
        datum = self.data.terrain(hex_)
        if datum.value is None:
            return Unknown(f"map.json hex {hex_} terrain")
        return datum.value

    def features(self, hex_: str) -> tuple[str, ...] | Unknown:
        """Town, capital, amba ... printed in the hex; Unknown when not transcribed."""
        record = self._raw["hexes"].get(hex_)
        if record is not None and "features" in record:
            value = record["features"].get("value")
            if value is not None and not record["features"].get("partial"):
                return tuple(value)
            if value is not None:
                return Unknown(f"map.json hex {hex_} features (partly known: {', '.join(value) or 'none'})")
        if self.map_known:
            return ()
        return Unknown(f"map.json hex {hex_} features")

    def has_feature(self, hex_: str, feature: str) -> bool | Unknown:
        record = self._raw["hexes"].get(hex_)
        if record is not None and "features" in record:
            value = record["features"].get("value")
            if value is not None and feature in value:
                return True
        found = self.features(hex_)
        if isinstance(found, Unknown):
            return found
        return feature in found

    def tec(self, row: str, effect: str) -> Any:
        """A TEC entry (number, '+1', 'prohibited', '1L' ...) or Unknown naming the cell."""
        datum = self.data.lookup("tec", row, effect)
        if datum.value is None:
            return Unknown(f"TEC {row} {effect}")
        return datum.value

    def in_zone(self, hex_: str, zone_id: str) -> bool | Unknown:
        """Is the hex in a country, region or the Danakil desert? Unknown when not transcribed."""
        for zone in self._raw.get("zones", []):
            if zone["id"] != zone_id:
                continue
            hexes = zone["hexes"].get("value")
            if hexes is not None:
                return hex_ in hexes
            known = zone.get("known_hexes", {}).get("value") or []
            if hex_ in known:
                return True
            return Unknown(f"map.json zone {zone_id} hexes")
        raise KeyError(f"no zone {zone_id!r} on the Lion of Judah map")

    def zone_name(self, zone_id: str) -> str:
        """The zone's name as the rulebook prints it ("Eritrea"), else its id."""
        for zone in self._raw.get("zones", []):
            if zone["id"] == zone_id:
                return (zone.get("name") or {}).get("value") or zone_id
        return zone_id

    def zones_of_type(self, zone_type: str) -> list[str]:
        """The ids of the zones of one type ("country", "region", "desert")."""
        return [z["id"] for z in self._raw.get("zones", []) if (z.get("type") or {}).get("value") == zone_type]

    # -- hexsides -----------------------------------------------------------------------------
    def hexside_has(self, a: str, b: str, feature: str) -> bool | Unknown:
        datum = self.data.hexside(a, b)
        if datum.value is None:
            return Unknown(f"map.json hexside {min(a, b)}/{max(a, b)} features")
        if feature in datum.value:
            return True
        if datum.partial:
            return Unknown(f"map.json hexside {min(a, b)}/{max(a, b)} features "
                           f"(partly known: {', '.join(datum.value) or 'none'})")
        return False

    # -- lines --------------------------------------------------------------------------------
    def line_ids(self, a: str, b: str) -> set[str]:
        """Ids of the listed lines joining adjacent a and b (map.json lines)."""
        return set(self._line_ids.get(frozenset((a, b)), ()))

    def line_kinds(self, a: str, b: str) -> set[str] | Unknown:
        """Kinds of line ('rail', 'road', 'dirt-track') joining adjacent a and b.

        Known lines give a definite set; an unlisted road or a line with unlisted hexes makes
        the answer Unknown unless a known line already joins them."""
        known = self._line_steps.get(frozenset((a, b)), set())
        if self.map_known and not self._unknown_lines:
            return set(known)
        if known:
            return set(known)   # an unlisted road could only add a cheaper reading
        missing = list(self._unknown_lines)
        if not self.map_known:
            missing.append(f"map.json roads and tracks between {min(a, b)} and {max(a, b)}")
        return Unknown(*missing)
