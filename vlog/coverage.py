"""How much of a log the game's bindings cover, and what a game's verdicts may claim from it.

A rules engine sees only what the bindings tie to its data: a piece that stands for no counter
is not on its board, a box it cannot name holds nothing, a layer whose levels were guessed from
their order may show the wrong step, a turn tracker whose items it cannot read leaves the phase
to inference. Findings built on such a view blame the player for the binding. So the driver
measures the binding on the log it judges (`Coverage`), any game alike: pieces bound of those
on the table, the locations of bound pieces named as hexes or boxes, the step levels or faces
read through confirmed layer mappings, the turn tracker's items known. `guard` then lowers a
game's PROVEN findings to POSSIBLE, naming the binding they rest on: every one when a piece on
the table or a phase is unknown (a missing unit or phase changes what any check sees), the
findings naming a piece when that piece's box or step is unknown. Below `BOUND_AT_LEAST` (and
always when nothing binds) the module counts as not bound: `not_bound_finding` says so and how
to bind it.

A piece counts as bound, as `vlog.games` read it: a `CounterId` marker naming a counter, a gpid or
piece name in the bindings, or a name that is exactly one counter's printed name. A bindings
record whose counter is null says the piece is no counter of the game (a map decoration, a
marker of the module's own): it is bound to nothing on purpose.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Iterable

from vlog.errors import GameDataError
from vlog.findings import Basis, Finding, Severity
from vlog.kit.units import COUNTER_ID_PROPERTY, UNCONFIRMED_NOTE, Bindings

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.table import Table, TablePiece

__all__ = ["BOUND_AT_LEAST", "CHECK_ID", "Coverage", "Meter", "UNCONFIRMED_NOTE", "guard", "not_bound_finding",
           "binding_finding", "COUNTER_ID_PROPERTY", "total"]

CHECK_ID = "vlog/binding"
RULE = "A game's verdicts rest only on what the bindings tie to its data"
TITLE = "module bound to the game"
BOUND_AT_LEAST = 0.5
"""Below this fraction of the table's pieces bound, the module is not bound to the game."""
UNPLACED_BOX = "Unplaced"
"""The zone modules vlog writes keep for units a set-up leaves unplaced: a place of the module's
own, known to be no hex or box of the game (converters/vmod_writer.py)."""
SHOWN = 8
"""Names listed per kind in messages (evidence lists up to `KEPT`)."""
KEPT = 200


@dataclass(frozen=True, slots=True)
class Coverage:
    """The binding measured on one log: counts, and the names of what is not bound."""

    pieces: int = 0
    pieces_bound: int = 0
    unbound_pieces: tuple[str, ...] = ()
    placed: int = 0
    """Locations where bound pieces stood (distinct names)."""
    placed_bound: int = 0
    unbound_locations: tuple[str, ...] = ()
    stepped: int = 0
    """Bound pieces whose counter has several step levels or faces."""
    stepped_bound: int = 0
    unconfirmed_layers: tuple[str, ...] = ()
    """Layer names whose mapping is taken from the order of levels (or missing) on such pieces."""
    phases: int = 0
    """Items of the module's turn tracker levels."""
    phases_known: int = 0
    unknown_phases: tuple[str, ...] = ()
    module_mismatch: str | None = None
    """'the log was written with module X, not Y' when the module given is not the log's."""
    proposed_calibrations: tuple[str, ...] = ()
    """Ids of the calibrations that named where bound pieces stood while only proposed by
    `vlog bind` (not confirmed by its review): every hex they name may be off."""
    piece_names_unplaced: frozenset[str] = field(default=frozenset(), compare=False)
    """Names of bound pieces standing in an unbound location."""
    piece_names_unstepped: frozenset[str] = field(default=frozenset(), compare=False)
    """Names of bound pieces whose step or face is read through no confirmed mapping."""

    @property
    def fraction(self) -> float:
        return self.pieces_bound / self.pieces if self.pieces else 1.0

    @property
    def bound(self) -> bool:
        """False when nothing on the table binds or too little does: judging would be guessing."""
        return not self.pieces or (self.pieces_bound > 0 and self.fraction >= BOUND_AT_LEAST)

    @property
    def complete(self) -> bool:
        return (self.pieces_bound == self.pieces and self.placed_bound == self.placed
                and self.stepped_bound == self.stepped and self.phases_known == self.phases
                and self.module_mismatch is None and not self.proposed_calibrations)

    def global_gaps(self) -> list[str]:
        """What leaves every verdict of the game in doubt (unbound pieces, unknown phases, wrong module)."""
        out = []
        if self.module_mismatch:
            out.append(self.module_mismatch)
        if self.pieces_bound < self.pieces:
            out.append(f"{self.pieces - self.pieces_bound} of {self.pieces} pieces on the table are bound to no "
                       f"counter ({_some(self.unbound_pieces)})")
        if self.phases_known < self.phases:
            out.append(f"{self.phases - self.phases_known} of {self.phases} turn tracker items are no known turn "
                       f"or phase ({_some(self.unknown_phases)})")
        if self.proposed_calibrations:
            out.append(f"the hexes of the boards without a grid are named by calibrations `vlog bind` proposed and "
                       f"nobody confirmed against the printed map ({_some(self.proposed_calibrations)}; confirm them "
                       f"with `vlog bind MODULE --game GAME --data BINDINGS --review`)")
        return out

    def summary(self) -> str:
        """One line: the four measures."""
        parts = [f"pieces {self.pieces_bound} of {self.pieces} bound"]
        if self.placed:
            parts.append(f"locations {self.placed_bound} of {self.placed} bound")
        if self.stepped:
            parts.append(f"steps/faces {self.stepped_bound} of {self.stepped} pieces read through confirmed layers")
        if self.phases:
            parts.append(f"turn tracker items {self.phases_known} of {self.phases} known")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"pieces": {"on_table": self.pieces, "bound": self.pieces_bound,
                           "unbound": list(self.unbound_pieces)},
                "locations": {"seen": self.placed, "bound": self.placed_bound,
                              "unbound": list(self.unbound_locations)},
                "layers": {"stepped_pieces": self.stepped, "confirmed": self.stepped_bound,
                           "unconfirmed": list(self.unconfirmed_layers)},
                "phases": {"items": self.phases, "known": self.phases_known,
                           "unknown": list(self.unknown_phases)},
                "module_mismatch": self.module_mismatch,
                "calibrations": {"proposed": list(self.proposed_calibrations)},
                "bound": self.bound, "complete": self.complete}


def _some(names: Iterable[str]) -> str:
    names = list(names)
    shown = ", ".join(repr(n) for n in names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")


class _Bindings:
    """What the measure asks of a game's bindings (read once by the kit, `Bindings.of`): is a
    piece bound, to which counter; is a location named; is a step read through a confirmed layer."""

    def __init__(self, data: "GameData"):
        binds = Bindings.of(data)
        self.data = data
        self.binds = binds
        self.locations = [loc.pattern for loc in binds.locations]
        self.box_names = set(binds.box_names) | {     # the boxes' printed names and their ids
            box.id for map_id in data.map_ids if "boxes" in data.map(map_id) for box in data.map(map_id)["boxes"]}
        self.layouts = []
        """The hex layout of each of the game's maps (GameData.layout), as its map data names it."""
        for map_id in data.map_ids:
            try:
                self.layouts.append(data.layout(map_id))
            except GameDataError:
                continue
        self.counters: dict[tuple[str, str], tuple[bool, str | None]] = {}

    def counter_of(self, piece: "TablePiece") -> tuple[bool, str | None]:
        """(bound, counter): bound with None when the bindings say the piece is no counter."""
        marked = piece.properties.get(COUNTER_ID_PROPERTY)
        if marked and marked in self.data.counter_ids:
            return True, marked
        gpid, name = piece.piece.gpid or "", piece.name
        key = (gpid, name)
        if key not in self.counters:
            b = self.binds
            gpids, names = b.no_counter
            if gpid and (gpid in b.by_gpid or gpid in gpids):
                found = (True, b.by_gpid.get(gpid))
            elif name in b.by_name or name in names:
                found = (True, b.by_name.get(name))
            else:
                named = self.data.counters_named(name) if name else ()
                found = (len(named) == 1, named[0] if len(named) == 1 else None)
            self.counters[key] = found
        return self.counters[key]

    def location_bound(self, name: str) -> bool:
        for pattern in self.locations:
            if pattern.fullmatch(name):
                return True   # a record with neither hex nor box says the place is none of the game's
        if name in self.box_names or name == UNPLACED_BOX:
            return True
        return self._is_hex(name)

    def _is_hex(self, name: str) -> bool:
        for layout in self.layouts:
            try:
                if layout.on_map(layout.parse(name)):
                    return True
            except Exception:  # noqa: BLE001 - any name the layout cannot read is no hex
                continue
        return False

    def step_read(self, piece: "TablePiece", counter: str) -> tuple[bool, tuple[str, ...]]:
        """(confirmed, layers to confirm) for a piece whose counter has several levels."""
        record = self.data.counter(counter)
        unit_class = record["class"].value if "class" in record else None
        pending: list[str] = []
        for layer in piece.layers:
            for applies, _, confirmed in self.binds.layers.get(layer.name, ()):
                if applies is not None and counter not in applies and unit_class not in applies:
                    continue
                if confirmed:
                    return True, ()
                pending.append(layer.name)
        if piece.properties.get(COUNTER_ID_PROPERTY) == counter and any(
                layer.name in ("Step", "Face") for layer in piece.layers):
            return True, ()   # modules vlog writes: level N of "Step"/"Face" is the counter's N-th level
        if not pending and all(layer.level == 1 for layer in piece.layers):
            return True, ()   # no layer mapped, none turned: the counter's first level, as the games read it
        return False, tuple(pending) or tuple(f"{layer.name} (no mapping)" for layer in piece.layers)


class Meter:
    """Measures the binding while the driver walks a log: `see` the table at the start and the
    pieces each step touched, then `result`."""

    def __init__(self, data: "GameData", module: object | None, log: object | None = None):
        self.binds = _Bindings(data)
        self.data = data
        self.pieces: dict[str, bool] = {}
        self.unbound: dict[str, None] = {}
        self.places: dict[str, bool] = {}
        self.unplaced: set[str] = set()
        self.stepped: dict[str, bool] = {}
        self.layers_pending: dict[str, None] = {}
        self.unstepped: set[str] = set()
        self.levels = {cid: len(data.counter(cid)["levels"]) if "levels" in data.counter(cid) else 0
                       for cid in data.counter_ids}
        self.module_mismatch = _mismatch(log, module)
        self.proposed: dict[str, None] = {}
        self.phases, self.unknown_phases = _tracker_items(module, data)
        self._step_reads: dict[tuple[str, str, str], tuple[bool, tuple[str, ...]]] = {}
        """(counter, piece type, piece state) -> `step_read`'s answer: it reads only the piece's
        layers and properties, which its type and state hold (a move changes neither)."""

    def see(self, table: "Table", ids: Iterable[str] | None = None) -> None:
        """Looks at every game piece on the table (ids None) or at those with these ids."""
        if ids is None:
            pieces: Iterable[Any] = table.game_pieces()
        else:
            pieces = [p for p in (table.get(i) for i in ids) if p is not None and not p.is_container]
        for piece in pieces:
            if piece.point[0] is None:
                continue   # not on a map: nothing a check sees
            bound, counter = self.binds.counter_of(piece)
            self.pieces[piece.id] = bound
            if not bound:
                self.unbound.setdefault(piece.name or f"piece {piece.id}", None)
                continue
            if counter is None:
                continue
            covered, location, proposed = self.binds.binds.calibrated_name(table, piece.point)
            if proposed is not None:
                self.proposed.setdefault(proposed, None)
            if not covered:
                location = table.location_name(piece)
            elif location is None:
                location = f"{piece.point[0]} ({piece.point[1]}, {piece.point[2]}), named by no calibrated hex"
            if location is not None:
                placed = self.places.get(location)
                if placed is None:
                    placed = self.places[location] = self.binds.location_bound(location)
                if not placed:
                    self.unplaced.add(piece.name)
            if self.levels.get(counter, 0) > 1:
                key = (counter, piece.type, piece.state)
                known = self._step_reads.get(key)
                if known is None:
                    if len(self._step_reads) >= 100_000:
                        self._step_reads.clear()
                    known = self._step_reads[key] = self.binds.step_read(piece, counter)
                confirmed, pending = known
                self.stepped[piece.id] = confirmed
                if not confirmed:
                    self.unstepped.add(piece.name)
                    for name in pending:
                        self.layers_pending.setdefault(name, None)

    def result(self) -> Coverage:
        bound = sum(1 for b in self.pieces.values() if b)
        unbound_places = [name for name, ok in self.places.items() if not ok]
        placed_by_bound = len(self.places)
        return Coverage(
            pieces=len(self.pieces), pieces_bound=bound, unbound_pieces=tuple(list(self.unbound)[:KEPT]),
            placed=placed_by_bound, placed_bound=placed_by_bound - len(unbound_places),
            unbound_locations=tuple(sorted(unbound_places)[:KEPT]),
            stepped=len(self.stepped), stepped_bound=sum(1 for b in self.stepped.values() if b),
            unconfirmed_layers=tuple(list(self.layers_pending)[:KEPT]),
            phases=self.phases, phases_known=self.phases - len(self.unknown_phases),
            unknown_phases=tuple(self.unknown_phases[:KEPT]), module_mismatch=self.module_mismatch,
            proposed_calibrations=tuple(self.proposed),
            piece_names_unplaced=frozenset(self.unplaced), piece_names_unstepped=frozenset(self.unstepped))


def total(measured: Iterable[Coverage]) -> Coverage:
    """The coverage of several logs added up (names kept once, in order): a report's summary."""
    measured = list(measured)

    def names(attr: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for c in measured for n in getattr(c, attr)))[:KEPT]

    return Coverage(
        pieces=sum(c.pieces for c in measured), pieces_bound=sum(c.pieces_bound for c in measured),
        unbound_pieces=names("unbound_pieces"),
        placed=sum(c.placed for c in measured), placed_bound=sum(c.placed_bound for c in measured),
        unbound_locations=names("unbound_locations"),
        stepped=sum(c.stepped for c in measured), stepped_bound=sum(c.stepped_bound for c in measured),
        unconfirmed_layers=names("unconfirmed_layers"),
        phases=sum(c.phases for c in measured), phases_known=sum(c.phases_known for c in measured),
        unknown_phases=names("unknown_phases"),
        module_mismatch=next((c.module_mismatch for c in measured if c.module_mismatch), None),
        proposed_calibrations=names("proposed_calibrations"))


def _mismatch(log: object | None, module: object | None) -> str | None:
    log_name, mod_name = getattr(log, "module_name", None), getattr(module, "name", None)
    if log_name and mod_name and log_name != mod_name:
        return f"the log was written with module {log_name!r}, not {mod_name!r}"
    return None


def _tracker_items(module: object | None, data: "GameData") -> tuple[int, list[str]]:
    """(items, unknown items) of the module's turn tracker list levels: an item is known when
    the bindings' turn track maps it or it is a turn label or phase name of the game data."""
    trackers = getattr(module, "turn_trackers", None) or ()
    if not trackers:
        return 0, []
    known: set[str] = set()
    for record in data.bindings["turn_track"] if "turn_track" in data.bindings else ():
        for key in ("turns", "phases"):
            datum = record[key] if key in record else None
            if datum is not None and not str(datum.note or "").startswith(UNCONFIRMED_NOTE):
                known.update((datum.value or {}).keys())
    for scenario_id in data.scenario_ids:
        scenario = data.scenario(scenario_id)
        known.update(p for p in ((scenario["phases"].value if "phases" in scenario else None) or ())
                     if isinstance(p, str))
        track = scenario["turn_track"] if "turn_track" in scenario else {}
        for number in track:
            row = track[number]
            label = row["label"].value if "label" in row else None
            if isinstance(label, str):
                known.add(label)
    items: list[str] = []

    def walk(levels: Iterable[Any]) -> None:
        for level in levels:
            if level.kind != "counter":
                items.extend(i for i in (level.items or ()) if isinstance(i, str))
            walk(level.levels)

    for tracker in trackers:
        walk(tracker.levels)
    return len(items), [i for i in items if i not in known]


# -------------------------------------------------------------------------------------------- verdicts


def guard(findings: Iterable[Finding], coverage: Coverage, game_id: str) -> list[Finding]:
    """The game's findings with PROVEN lowered to POSSIBLE (an error to a warning) where they rest
    on what is not bound."""
    gaps = coverage.global_gaps()
    prefix = game_id + "/"
    out = []
    for finding in findings:
        if finding.basis is not Basis.PROVEN or not finding.check.startswith(prefix):
            out.append(finding)
            continue
        reasons = list(gaps)
        placed = [s for s in finding.subjects if s in coverage.piece_names_unplaced]
        stepped = [s for s in finding.subjects if s in coverage.piece_names_unstepped]
        if placed:
            reasons.append(f"{_some(placed)} stand(s) where the bindings name no hex or box")
        if stepped:
            reasons.append(f"the step or face of {_some(stepped)} is read through no confirmed layer mapping")
        if not reasons:
            out.append(finding)
            continue
        out.append(replace(finding, basis=Basis.POSSIBLE,           # a POSSIBLE finding warns, as everywhere
                           severity=Severity.WARNING if finding.severity is Severity.ERROR else finding.severity,
                           message=f"{finding.message} (possible: rests on the binding: {reasons[0]})",
                           evidence={**finding.evidence, "binding": reasons}))
    return out


HOW_TO_BIND = ("to bind it: `vlog bind MODULE --game {game} -o BINDINGS/bindings.json`, then `vlog bind MODULE "
               "--game {game} --data BINDINGS --review`, then judge with --data BINDINGS (README: Using your own "
               "module)")
ANYWAY = "--judge-anyway judges it all the same, findings resting on the binding then POSSIBLE"


def not_bound_finding(coverage: Coverage, game_id: str, module_label: str | None) -> Finding:
    """The run's verdict when the module is not bound to the game (or is not the log's): nothing judged."""
    what = f"module {module_label!r}" if module_label else "the module"
    if coverage.module_mismatch:
        text = (f"{coverage.module_mismatch[0].upper()}{coverage.module_mismatch[1:]}, so the rules of {game_id} "
                f"were not judged: give the log's own module with --module; {ANYWAY}")
    elif coverage.pieces_bound == 0:
        text = (f"None of the {coverage.pieces} pieces on the table is a unit of {game_id}: {what} is not bound to "
                f"the game, so its rules were not judged; {HOW_TO_BIND.format(game=game_id)}; {ANYWAY}")
    else:
        text = (f"Only {coverage.pieces_bound} of {coverage.pieces} pieces on the table are bound to {game_id} "
                f"(fewer than {BOUND_AT_LEAST:.0%}): {what} is not bound to the game, so its rules were not judged; "
                f"{HOW_TO_BIND.format(game=game_id)}; {ANYWAY}")
    return Finding(check=CHECK_ID, rule=RULE, severity=Severity.ERROR, basis=Basis.PROVEN, step=None, when=None,
                   message=text, subjects=(), evidence={"coverage": coverage.to_dict()})


def binding_finding(coverage: Coverage, game_id: str) -> Finding | None:
    """A WARNING saying what of the log the bindings leave unknown; None when they cover it all."""
    if coverage.complete:
        return None
    gaps = coverage.global_gaps()
    if coverage.placed_bound < coverage.placed:
        gaps.append(f"{coverage.placed - coverage.placed_bound} of {coverage.placed} locations where units stood "
                    f"are no hex or box of the bindings ({_some(coverage.unbound_locations)})")
    if coverage.stepped_bound < coverage.stepped:
        gaps.append(f"{coverage.stepped - coverage.stepped_bound} of {coverage.stepped} pieces show their step or "
                    f"face through layers not confirmed ({_some(coverage.unconfirmed_layers)})")
    return Finding(check=CHECK_ID, rule=RULE, severity=Severity.WARNING, basis=Basis.PROVEN, step=None, when=None,
                   message=f"The module is bound to {game_id} only in part ({coverage.summary()}): "
                           f"{'; '.join(gaps)}; findings resting on these are POSSIBLE. To complete the binding: "
                           f"`vlog bind MODULE --game {game_id} --data BINDINGS --review`",
                   subjects=(), evidence={"coverage": coverage.to_dict()})
