"""A game map as the rules read it: neighbours, terrain, features, hexsides, lines and zones.

One `Board` views one map of the game data (`boards` gives one per map: Ascari has four, each
scenario played on one); its hex layout is the one the map names (`GameData.layout`), and it
reads the map only through GameData's accessors. Every answer the data cannot give is an
`Unknown` naming the datum (map.json hex 1213 terrain, hexside 1214/1314 features, the hexes of
a line), so the movement and supply searches can say LEGAL, POSSIBLE (naming what would settle
it) or PROVEN.

Lines: a line whose hexes are listed joins consecutive hexes. A map whose default terrain is
unknown has not been transcribed, so any two hexes may be joined by a line printed on the map
only; the answer is then `Unknown`. Once the default terrain is known, the listed lines are
taken to be all there are, unless one of the kinds a game moves along (`line_kinds`) has
unlisted hexes.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from vlog.engine.judge import Unknown, unknowns

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.hexes import HexLayout

__all__ = ["Board", "boards", "hex_label"]


def hex_label(hex_: str, board: "Board | None" = None) -> str:
    """'1213 (Addis Ababa)' when the hex has a printed name, else '1213'."""
    name = board.name_of(hex_) if board is not None else None
    return f"{hex_} ({name})" if name else hex_


_MISSING = object()


class Board:
    """Read-only rules view of one map of a game's data (its first map when `map_id` is None).

    `line_kinds` are the kinds of line whose unlisted hexes leave the lines between two hexes
    open (rail, road, track ...); None: every kind of line the map lists."""

    def __init__(self, data: "GameData", map_id: str | None = None, *, layout: "HexLayout | None" = None,
                 line_kinds: Iterable[str] | None = None):
        self.data = data
        record = data.map(map_id)
        self.map_id: str = record.id or ""
        self.layout = layout or data.layout(self.map_id)
        self._raw: dict[str, Any] = record.raw()
        self.map_known = self._raw["default_terrain"].get("value") is not None
        kinds = None if line_kinds is None else frozenset(line_kinds)
        self._line_steps: dict[frozenset[str], set[str]] = {}
        self._line_ids: dict[frozenset[str], set[str]] = {}
        self._unknown_lines: list[str] = []
        for line in self._raw.get("lines", []):
            kind = line["type"].get("value")
            hexes = line["hexes"].get("value")
            if hexes is None:
                if kinds is None or kind in kinds:
                    self._unknown_lines.append(f"map.json line {line['id']} hexes")
                continue
            for a, b in zip(hexes, hexes[1:]):
                self._line_steps.setdefault(frozenset((a, b)), set()).add(kind)
                self._line_ids.setdefault(frozenset((a, b)), set()).add(line["id"])
        self.neighbours = lru_cache(maxsize=65536)(self._neighbours)
        self._hexsides: dict[tuple[str, str, str], bool | Unknown] = {}
        self._terrain: dict[str, str | Unknown] = {}
        self._zones: dict[tuple[str, str], bool | Unknown] = {}

    @property
    def name(self) -> str:
        """The map's printed name ("Coatit"), else its id."""
        return (self._raw.get("name") or {}).get("value") or self.map_id

    # -- geometry ----------------------------------------------------------------------------
    def _neighbours(self, hex_: str) -> tuple[str, ...]:
        h = self.layout.parse(hex_)
        return tuple(self.layout.name(n) for n in self.layout.neighbours_on_map(h))

    def distance(self, a: str, b: str) -> int:
        return self.layout.distance(self.layout.parse(a), self.layout.parse(b))

    def direction(self, a: str, b: str) -> int:
        """Direction 0-5 from a to the adjacent hex b."""
        return self.layout.direction(self.layout.parse(a), self.layout.parse(b))

    def name_of(self, hex_: str) -> str | None:
        record = self._raw["hexes"].get(hex_)
        if record and "name" in record:
            return record["name"].get("value")
        return None

    # -- hexes --------------------------------------------------------------------------------
    def terrain(self, hex_: str) -> str | Unknown:
        """The hex's terrain (the map's default where none is listed), or Unknown; read once per
        hex (movement, supply and line-of-sight searches ask the same hexes many times)."""
        found = self._terrain.get(hex_, _MISSING)
        if found is _MISSING:
            datum = self.data.terrain(hex_, self.map_id)
            found = self._terrain[hex_] = Unknown(f"map.json hex {hex_} terrain") if datum.value is None else datum.value
        return found  # type: ignore[return-value]

    def features(self, hex_: str) -> tuple[str, ...] | Unknown:
        """What is printed in the hex besides its terrain (town, amba ...); Unknown when not
        transcribed (or partly: the known part is named)."""
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

    # -- what the map data lists ---------------------------------------------------------------
    def listed_hexes(self) -> tuple[str, ...]:
        """Every hex the map data says something about, in its order."""
        return tuple(self._raw.get("hexes", {}))

    def box(self, box_id: str | None) -> Mapping[str, Any] | None:
        """The map data's record of a box (its type, name, properties), None when the map lists
        no such box."""
        return next((b for b in self._raw.get("boxes", []) if b.get("id") == box_id), None)

    def line(self, line_id: str) -> Mapping[str, Any] | None:
        """The map data's record of a line (its type, name, hexes), None when the map lists none."""
        return next((line for line in self._raw.get("lines", []) if line.get("id") == line_id), None)

    # -- zones --------------------------------------------------------------------------------
    def in_zone(self, hex_: str, zone_id: str) -> bool | Unknown:
        """Is the hex in a zone (a country, region, beach zone ...)? Unknown when the zone's
        hexes are not transcribed and the hex is not among those known. Read once per hex and
        zone (a movement search asks it of every hex it reaches)."""
        key = (hex_, zone_id)
        found = self._zones.get(key, _MISSING)
        if found is _MISSING:
            found = self._zones[key] = self._in_zone(hex_, zone_id)
        return found  # type: ignore[return-value]

    def _in_zone(self, hex_: str, zone_id: str) -> bool | Unknown:
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
        raise KeyError(f"no zone {zone_id!r} on map {self.map_id!r} of {self.data.game}")

    def in_any_zone(self, hex_: str, zone_ids: Iterable[str]) -> bool | Unknown:
        """Is the hex in one of the zones (the areas in play, the zones a rule exempts)? True
        when it is in one, False when it is certainly in none, else Unknown naming the zones
        whose hexes are not known."""
        answers = [self.in_zone(hex_, z) for z in zone_ids]
        if any(a is True for a in answers):
            return True
        missing = unknowns(*answers)
        return Unknown(*missing) if missing else False

    def zone_name(self, zone_id: str) -> str:
        """The zone's name as the rulebook prints it ("Eritrea"), else its id."""
        for zone in self._raw.get("zones", []):
            if zone["id"] == zone_id:
                return (zone.get("name") or {}).get("value") or zone_id
        return zone_id

    def zones_of_type(self, zone_type: str) -> list[str]:
        """The ids of the zones of one type ("country", "region", "beach-zone" ...)."""
        return [z["id"] for z in self._raw.get("zones", []) if (z.get("type") or {}).get("value") == zone_type]

    # -- hexsides -----------------------------------------------------------------------------
    def hexside_has(self, a: str, b: str, feature: str) -> bool | Unknown:
        """Does the hexside between a and b carry `feature`? Read once per hexside and feature
        (searches ask the same hexsides many times; the data does not change under a board)."""
        key = (a, b, feature) if a <= b else (b, a, feature)
        found = self._hexsides.get(key, _MISSING)
        if found is _MISSING:
            found = self._hexsides[key] = self._hexside_has(a, b, feature)
        return found

    def _hexside_has(self, a: str, b: str, feature: str) -> bool | Unknown:
        datum = self.data.hexside(a, b, self.map_id)
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
        """Kinds of line ('rail', 'road' ...) joining adjacent a and b.

        Known lines give a definite set; an unlisted line or a line with unlisted hexes makes
        the answer Unknown unless a known line already joins them."""
        known = self._line_steps.get(frozenset((a, b)), set())
        if self.map_known and not self._unknown_lines:
            return set(known)
        if known:
            return set(known)   # an unlisted line could only add a cheaper reading
        missing = list(self._unknown_lines)
        if not self.map_known:
            missing.append(f"map.json roads and tracks between {min(a, b)} and {max(a, b)}")
        return Unknown(*missing)


def boards(data: "GameData", **options: Any) -> dict[str, Board]:
    """One board per map of the data, by map id, in the data's order."""
    return {map_id: Board(data, map_id, **options) for map_id in data.map_ids}
