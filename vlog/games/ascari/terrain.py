"""One scenario's map as Ascari's rules read it: elevation, what blocks movement and sight, and
what entering a hex costs a unit (3.1, 3.7, 4.2 and the scenario's own terrain, S1.3-S5.3).

The general Terrain Effects Chart is on the player aid card, not in the text: its rows (clear,
palm trees, slope, multiple slope, hilltop ...) are the `tec` table of tables.json, and where it
is null a cost or a blocking is `Unknown` naming the datum. Each scenario's terrain is the table
`tec-<scenario>`, read before the general chart for the features it lists, its movement entries
as the scenario words them:

* a number: the hex costs that much ("Fort: costs 1 MP");
* "+1 to cross ..." : the hex's terrain cost plus one (Zeriba in S1 and S2; the Coatit creek as a
  hexside, for Italian units only);
* "entire printed movement allowance ...": the unit's whole printed allowance (Metemma zeriba,
  every zeriba hex, the road not bypassing it: FAQ);
* "impassable" (river Barka, Amba Alagi rocks, Metemma water); a hex whose `passable` property
  the data gives (the partly-river Barka hexes, FAQ) is as that says;
* a note "as zeriba" (S1: the Fort and the Camp did not exist yet).

Elevation: a hex's `elevation` datum; a hex the data does not list on a map whose default terrain
is known stands at the base level 0 (a transcribed map lists every hex above it); else Unknown.
Climbing a multiple-slope hex stops the unit (FAQ Amba Alagi 2210 -> 2109, the TEC's
`movement-climbing` "stop"), as does crossing a ravine upwards (FAQ Coatit 2713 -> 2712).
A trail or road hex costs 1 and removes the slope cost, not the stop of a climb (S4.3, FAQ).
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable

from vlog.engine.judge import Unknown
from vlog.kit.board import Board

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData

__all__ = ["Terrain", "LOS_BLOCKING"]

LOS_BLOCKING = frozenset({"palm-trees", "zeriba", "fort", "slope", "multiple-slope", "hill", "hilltop"})
"""4.2: "blocking terrain like palmtrees, zeriba, fort, slopes and hilltop" (a hill hex such as
Agordat 1609 is a slope hex for LOS, FAQ). The TEC's `los` column and each scenario's add to it."""

FEATURE_ROWS = {"camp": "camp-village", "village": "camp-village", "town": "camp-village",
                "track": "trail-road", "zeriba-first-ring": "zeriba"}
"""Features the scenario charts name together ("Camp/Village")."""

STOP = "stop"
MEMO_LIMIT = 50_000
"""How many answers `Terrain.once` keeps (a long log's moves among ever-new enemy positions)."""


class Terrain:
    """The map of one scenario, read through the kit's Board (Unknown where the data is silent)."""

    def __init__(self, data: "GameData", map_id: str, scenario: str | None):
        self.data = data
        self.board = Board(data, map_id)
        self.layout = self.board.layout
        self.scenario = scenario
        self.local = f"tec-{scenario}" if scenario and f"tec-{scenario}" in data.table_ids else None
        self.hex_cost = lru_cache(maxsize=4096)(self._hex_cost)
        self.side = lru_cache(maxsize=8192)(self._side)
        # the map and the charts do not change during a log: each hex and chart cell is read once
        self._cell = lru_cache(maxsize=4096)(self._read_cell)
        self.elevation = lru_cache(maxsize=4096)(self._elevation)
        self.impassable = lru_cache(maxsize=4096)(self._impassable)
        self.blocks_sight = lru_cache(maxsize=4096)(self._blocks_sight)
        self.distance = lru_cache(maxsize=8192)(self._distance)
        self._memo: dict[Any, Any] = {}

    def once(self, key: Any, build: Callable[[], Any]) -> Any:
        """`build()` worked out once per key: what the checks derive from this map and its charts
        (movement rules and searches, sight lines, terrain DRMs), the key naming all else it
        depends on (the map does not change during a log). Past MEMO_LIMIT keys all are forgotten
        and worked out again."""
        try:
            return self._memo[key]
        except KeyError:
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
            value = self._memo[key] = build()
            return value

    # -- the charts --------------------------------------------------------------------------
    def _read_cell(self, table: str, row: str, effect: str) -> Any:
        try:
            datum = self.data.lookup(table, row, effect)
        except (KeyError, ValueError):
            return None
        return datum.value

    def _local(self, row: str, effect: str) -> Any:
        if self.local is None:
            return None
        found = self._cell(self.local, row, effect)
        if found is None and self._cell(self.local, row, "note") == "as zeriba":
            return self._cell(self.local, "zeriba", effect)
        return found

    def scenario_entry(self, row: str, effect: str) -> Any:
        """The scenario chart's entry for a row (S1.3-S5.3), None when it gives none."""
        return self._local(row, effect)

    def drm(self, hex_: str, effect: str, scenario_effect: str | None = None) -> tuple[int, tuple[str, ...]]:
        """A hex's DRM: the general chart's `effect` for its terrain plus, when given, the
        scenario chart's `scenario_effect` of its features; and the data naming what is unknown.
        Read once per hex and effect (the map and the charts do not change during a log)."""
        return self.once(("drm", hex_, effect, scenario_effect), lambda: self._drm(hex_, effect, scenario_effect))

    def _drm(self, hex_: str, effect: str, scenario_effect: str | None) -> tuple[int, tuple[str, ...]]:
        total, unknown = 0, []
        kind = self.terrain(hex_)
        found = kind if isinstance(kind, Unknown) else self.tec(kind, effect)
        if isinstance(found, Unknown):
            unknown += found.data
        elif isinstance(found, int):
            total += found
        for row in self.feature_rows(hex_) if scenario_effect else ():
            entry = self._local(row, scenario_effect)
            if isinstance(entry, int):
                total += entry
        return total, tuple(unknown)

    def tec(self, row: str, effect: str) -> Any:
        """The general chart's entry, Unknown naming it when the data lacks it."""
        found = self._cell("tec", row, effect)
        return Unknown(f"TEC {row} {effect}") if found is None else found

    # -- hexes -------------------------------------------------------------------------------
    def features(self, hex_: str) -> tuple[str, ...]:
        """The features the data lists for a hex (fort, zeriba, camp ...), known or partly known."""
        record = self.data.hex(hex_, self.board.map_id)
        if record is None or "features" not in record:
            return ()
        return tuple(record["features"].value or ())

    def feature_rows(self, hex_: str) -> list[str]:
        """The scenario chart's rows for the hex's features ("camp" -> "camp-village")."""
        rows = []
        for feature in self.features(hex_):
            row = FEATURE_ROWS.get(feature, feature)
            if self.local is not None and (self._cell(self.local, row, "movement") is not None
                                           or self._cell(self.local, row, "note") is not None
                                           or self._cell(self.local, row, "los") is not None):
                rows.append(row)
            elif self.local is not None and feature != row and self._cell(self.local, feature, "movement") is not None:
                rows.append(feature)
        return rows

    def terrain(self, hex_: str) -> str | Unknown:
        return self.board.terrain(hex_)

    def _elevation(self, hex_: str) -> int | Unknown:
        record = self.data.hex(hex_, self.board.map_id)
        if record is not None and "elevation" in record and record["elevation"].value is not None:
            return record["elevation"].value
        if self.board.map_known:
            return 0
        return Unknown(f"map.json {self.board.map_id} hex {hex_} elevation")

    def on_map(self, hex_: str) -> bool:
        return self.layout.on_map(self.layout.parse(hex_))

    def neighbours(self, hex_: str) -> tuple[str, ...]:
        return self.board.neighbours(hex_)

    def _distance(self, a: str, b: str) -> int:
        return self.board.distance(a, b)

    def _impassable(self, hex_: str) -> bool | Unknown:
        """No unit enters the hex (river Barka, rocks, water; the passable property where given)."""
        record = self.data.hex(hex_, self.board.map_id)
        if record is not None and "properties" in record and "passable" in record["properties"]:
            passable = record["properties"]["passable"].value
            if isinstance(passable, bool):
                return not passable
        for row in self.feature_rows(hex_):
            if self._local(row, "movement") == "impassable":
                return True
        for feature in self.features(hex_):
            if self._cell(self.local or "tec", feature, "movement") == "impassable":
                return True
        terrain = self.terrain(hex_)
        if isinstance(terrain, Unknown):
            return terrain
        cost = self.tec(terrain, "movement")
        if isinstance(cost, Unknown):
            return cost
        return cost == "impassable" or self._local(terrain, "movement") == "impassable"

    # -- movement ----------------------------------------------------------------------------
    def _hex_cost(self, b: str) -> Any:
        """What entering b costs any unit: a number, None (impassable), Unknown, or "allowance"
        (the whole printed allowance)."""
        if self.impassable(b) is True:
            return None
        terrain = self.terrain(b)
        base: Any
        if isinstance(terrain, Unknown):
            base = Unknown(*terrain.data, at_least=1)
        else:
            local = self._local(terrain, "movement")
            base = local if local is not None else self.tec(terrain, "movement")
            if isinstance(base, Unknown):
                base = Unknown(*base.data, at_least=1)
            elif isinstance(base, str):
                base = Unknown(f"TEC {terrain} movement {base!r}", at_least=1)
        extra = 0
        for row in self.feature_rows(b):
            entry = self._local(row, "movement")
            if isinstance(entry, int):
                base = entry                            # "costs 1 MP": the trail eliminates the slope cost
            elif isinstance(entry, str) and entry.startswith("+"):
                extra += int(entry.split()[0])
            elif isinstance(entry, str) and entry.startswith("entire printed movement allowance"):
                return "allowance"
        return base + extra if extra else base

    def _side(self, a: str, b: str) -> tuple[Any, bool | Unknown]:
        """(hexside feature that costs Italian units +1 ("creek") or None, or Unknown when the
        hexside is not transcribed; whether the unit must stop in b)."""
        stop: bool | Unknown = False
        climbing = self._climbing(a, b)
        if self.terrain(b) == "multiple-slope" and climbing is not False:
            climb = self.tec("multiple-slope", "movement-climbing")
            if isinstance(climbing, Unknown):
                stop = climbing
            elif climb == STOP:
                stop = True
            elif isinstance(climb, Unknown):
                stop = climb
        side = self.data.hexside(a, b, self.board.map_id).value
        if side is None:
            return Unknown(f"map.json {self.board.map_id} hexside {min(a, b)}/{max(a, b)} features"), \
                (stop if stop is not False else Unknown(f"map.json {self.board.map_id} hexside "
                                                        f"{min(a, b)}/{max(a, b)} features"))
        if "ravine" in side and climbing is not False:
            stop = True if climbing is True else climbing
        return ("creek" if "creek" in side else None), stop

    def _climbing(self, a: str, b: str) -> bool | Unknown:
        ha, hb = self.elevation(a), self.elevation(b)
        if isinstance(ha, Unknown) or isinstance(hb, Unknown):
            return Unknown(*{d for x in (ha, hb) if isinstance(x, Unknown) for d in x.data})
        return hb > ha

    # -- sight -------------------------------------------------------------------------------
    def _blocks_sight(self, hex_: str) -> bool | Unknown:
        """Whether the hex's terrain blocks a line of sight passing through it (4.2)."""
        for row in self.feature_rows(hex_):
            if self._local(row, "los") == "blocks":
                return True
        if any(FEATURE_ROWS.get(f, f) in LOS_BLOCKING for f in self.features(hex_)):
            return True
        terrain = self.terrain(hex_)
        if isinstance(terrain, Unknown):
            return terrain
        if terrain in LOS_BLOCKING:
            return True
        found = self.tec(terrain, "los")
        if isinstance(found, Unknown):
            return found if terrain != "clear" else False
        return found == "blocks"
