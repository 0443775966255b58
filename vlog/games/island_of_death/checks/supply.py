"""Supply (8.0-8.53): the determination each player makes in his Status Phase, judged against
the Out of Supply markers the table shows when that phase ends, and its effects.

A unit is supplied when it traces a route (8.2: at most 12 hexes, never into a hex with enemy
units nor into an empty hex in enemy ZOC, never across an all-ocean hexside) to the HQ of its
formation, and that HQ traces one to a supply source of its own (8.11, 8.5):

* Axis: every Axis-controlled beach hex where Axis units have landed (the log's landings from
  the wave boxes; in the Introductory Scenario also those 22.23 names); the 80th Division's HQ
  also any Axis-controlled airfield; the Ramcke and Folgore HQs their drop-zone marker, while
  no Allied unit is in its hex (8.51);
* Allied: the Malta HQ any Allied-controlled city and any undestroyed fort; an Allied unit in or
  adjacent to one is supplied with no route (8.52). Every Allied unit belongs to the Malta
  Garrison (15.1).

Automatic supply (8.53): everything on 29 June AM and Noon, airborne units in the turn they jump,
amphibious units in the turn they land. Control is the last side to have had a unit in a hex (2.1),
from the scenario's start (22.23, 22.3); a fort is destroyed the first time an Axis unit is in it
with no Allied unit (17.1). An HQ in a box supplies nobody (8.12).

Readings: a unit the data attaches to no formation (attachments are kept on paper, 15.2) is
supplied only if some HQ of its side supplies it, so only its being out of supply is settled;
leaders, coastal guns and strongpoints are not marked (supply changes nothing for them). Where
the map the data lacks decides a route or a source, the trace names it and nothing is proven.

The marker: an Out of Supply marker in a hex marks the owner's units there (one marker may stand
for the stack). At the end of a Status Phase a hex with a unit that is certainly out of supply
shows one (SUP-02, SUP-03 for an HQ), and a hex whose units are all certainly supplied shows none.
Markers are placed and removed only in the owner's Status Phase, and not on 29 June AM or Noon
(SEQ-03). Effects (SUP-08): an out-of-supply motorized or mechanized unit moves 2 MP less
(minimum 1, 8.33), judged with the movement (checks/movement.py).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, TypeVar

from vlog.engine.judge import Ruling, Tri, Unknown, Verdict
from vlog.engine.supply import SupplyRules, SupplyTrace, TracesTo, trace_supply
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Moved, PhaseChanged, Placed, Removed

from vlog.games.island_of_death.rules import GAME, REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import Position, StepView

__all__ = ["Supply", "OUT_OF_SUPPLY", "supply_of", "out_of_supply"]

OUT_OF_SUPPLY = "marker-out-of-supply"
"""The counter of the Out of Supply markers (2.3)."""
ROUTE_HEXES = 12
"""8.2: a supply route is at most 12 hexes long."""
AUTOMATIC_TURNS = ("29 June AM", "29 June Noon")
"""8.53: all units are supplied on 29 June AM and Noon (no determination, 4.21a)."""
ALLIED_FORMATION = "Malta Garrison"
"""15.1: all Allied units form one formation, whose HQ is Malta."""
AIRFIELD_FORMATION = "80th airborne division"
"""8.51: the HQ of the 80th Division may use any Axis-controlled airfield."""
LANDED_AT_START = {"intro": (("1107", "1207", "1308"), "beach-west")}
"""22.23: in the Introductory Scenario Axis units have landed in every hex of the western beach
zone and in 1107, 1207 and 1308."""
NOT_TRACED = frozenset({"leader", "coastal-gun", "strongpoint", "marker", "warship"})
"""Pieces whose supply is not marked: markers and warships are not ground units, and supply
changes nothing for leaders, coastal guns (no attack) and strongpoints (attack 1 stays 1, 8.31)."""
WAVE_BOXES = ("first-wave", "second-wave")

SUPPLIED = SupplyTrace(Verdict(Ruling.LEGAL))
T = TypeVar("T")


class Supply(Ledger):
    """What supply needs from the log's history: who controls each hex, the beach hexes where
    Axis units landed, the forts destroyed, and each unit's status as last determined."""

    def __init__(self, game: "IslandOfDeath") -> None:
        self.game = game
        self.control: dict[str, str] = {}
        self.landed: set[str] = set()
        self.destroyed_forts: set[str] = set()
        self.status: dict[str, tuple[int, Any]] = {}
        """Unit id -> (turn, out of supply: True, False or Unknown) at its side's last Status Phase."""
        self.trail: dict[str, set[str]] = {}
        """Unit id -> the hexes it left in this phase (a marker may follow it there)."""
        self._ground: dict[str, tuple[str, str]] = {}
        """Unit id -> (hex, side) of each ground unit on the map, as the last step left them."""
        self._at: dict[str, dict[str, str]] = {}
        """Hex -> {unit id: side} of the ground units there (`_ground` by hex)."""
        self._unsettled: set[str] = set()
        """Hexes whose ground units changed since control was last worked out (`_occupy`)."""
        self._intro_control: tuple[frozenset[str], frozenset[str]] | None = None
        """22.23 as the game's data gives it (`_intro_axis_control`), read once."""

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.trail = {}
        return ()

    def begin(self, view: "StepView") -> tuple[()]:
        game = self.game
        record = game.data.scenario(game.scenario) if game.scenario else None
        props = record["properties"] if record is not None and "properties" in record else {}
        if "forts_destroyed_at_start" in props:
            self.destroyed_forts |= set(props["forts_destroyed_at_start"].value or ())
        self._ground, self._at = {}, {}
        self._see(view.after, None)
        self._occupy()
        return ()

    def step(self, view: "StepView") -> tuple[()]:
        moved = self._ground_moved(view)
        self._see(view.after, view.changed_pieces())
        if moved:
            self._occupy()
        return ()

    def _ground_moved(self, view: "StepView") -> bool:
        """Whether the step put a ground unit in another hex, took one off or set one down (only
        that changes who controls a hex); True when the pieces it changed are not known."""
        changed = view.changed_pieces()
        if changed is None:
            return True
        before, after = self.game.units(view.before), self.game.units(view.after)
        return any(_ground_hex(before.get(i)) != _ground_hex(after.get(i)) for i in changed)

    def event(self, event: Any, view: "StepView") -> tuple[()]:
        if isinstance(event, Moved) and event.before.hex is not None and event.before.is_ground_unit:
            self.trail.setdefault(event.before.id, set()).add(event.before.hex)
        if isinstance(event, (Placed, Moved)):
            unit = event.unit if isinstance(event, Placed) else event.after
            was = self.game.units(view.before).get(unit.id)
            if unit.side == "axis" and unit.hex is not None and was is not None and was.box is not None \
                    and self.game.box_type(was.box) in WAVE_BOXES:
                self.landed.add(unit.hex)                          # 8.51: the record of landings
        return ()

    def _see(self, position: "Position", changed: Iterable[str] | None) -> None:
        """Where the ground units of `position` stand, read again for the units `changed` (all
        of them when None); the hexes they left or entered wait for `_occupy`."""
        units = self.game.units(position)
        if changed is None:
            changed = set(self._ground) | set(units)
        for uid in changed:
            unit = units.get(uid)
            now = (unit.hex, unit.side) if unit is not None and unit.hex is not None and unit.is_ground_unit else None
            was = self._ground.get(uid)
            if now == was:
                continue
            if was is not None:
                del self._ground[uid]
                del self._at[was[0]][uid]
                self._unsettled.add(was[0])
            if now is not None:
                self._ground[uid] = now
                self._at.setdefault(now[0], {})[uid] = now[1]
                self._unsettled.add(now[0])

    def _occupy(self) -> None:
        """2.1, 17.1: control and destroyed forts, worked out again in the hexes whose ground
        units changed since the last time (in the others it would come out as it did then)."""
        for hex_ in self._unsettled:
            there = set(self._at.get(hex_, {}).values())
            if len(there) == 1:
                self.control[hex_] = next(iter(there))
            if there == {"axis"} and self.game.board.has_feature(hex_, "fort") is True:
                self.destroyed_forts.add(hex_)                     # 17.1
        self._unsettled = set()

    # -- what the trace reads -------------------------------------------------------------------
    def controlled_by(self, hex_: str) -> str | Unknown:
        """2.1: the last side to have had a unit in the hex; before any, the scenario's (22.23:
        the Introductory Scenario's Axis hexes; 22.3: Malta is the Allies' at the start)."""
        if hex_ in self.control:
            return self.control[hex_]
        if self.game.scenario != "intro":
            return "allied"
        if self._intro_control is None:
            self._intro_control = _intro_axis_control(self.game)
        known, columns = self._intro_control
        return "axis" if hex_ in known or hex_[:2] in columns else "allied"

    def has_landed(self, hex_: str) -> bool | Unknown:
        if hex_ in self.landed:
            return True
        start = LANDED_AT_START.get(self.game.scenario or "")
        if start is None:
            return False
        if hex_ in start[0]:
            return True
        return self.game.board.in_zone(hex_, start[1])

    def fort(self, hex_: str) -> bool | Unknown:
        """An undestroyed fort (17.1)."""
        if hex_ in self.destroyed_forts:
            return False
        return self.game.board.has_feature(hex_, "fort")

    def out_of_supply(self, unit_id: str, turn: int) -> Any:
        """True, False or Unknown as determined in this turn's Status Phase (False if none was)."""
        found = self.status.get(unit_id)
        return found[1] if found is not None and found[0] == turn else False


def _ground_hex(unit: "Unit | None") -> str | None:
    return unit.hex if unit is not None and unit.is_ground_unit else None


def _intro_axis_control(game: "IslandOfDeath") -> tuple[frozenset[str], frozenset[str]]:
    """22.23: the hexes and the columns the Axis controls at the start of the Introductory
    Scenario (the zone's other hexes are its columns' ocean hexes, which no route enters)."""
    for zone in game.data.map()["zones"]:
        if zone.id == "intro-axis-control":
            props = zone["properties"] if "properties" in zone else {}
            columns = props["columns"].value if "columns" in props else None
            known = zone["known_hexes"].value if "known_hexes" in zone else None
            return frozenset(known or ()), frozenset(columns or ())
    return frozenset(), frozenset()


def _side_is(found: str | Unknown, side: str) -> Tri:
    return Tri.of(found) if isinstance(found, Unknown) else Tri.of(found == side)


# -- the trace --------------------------------------------------------------------------------

def _rules(game: "IslandOfDeath", position: "Position", side: str, is_source) -> SupplyRules[str]:
    enemies = game.enemies(position, side)
    friends = position.derived(("island-of-death", "supply-friends", side), lambda _t: {
        u.hex for u in game.units(position).values() if u.side == side and u.hex is not None and u.is_ground_unit})
    board = game.board
    return SupplyRules(neighbours=board.neighbours, is_source=is_source, max_hexes=ROUTE_HEXES,
                       may_enter=lambda h: h not in enemies,
                       may_cross=lambda a, b: _not(board.hexside_has(a, b, "all-ocean")),
                       in_enemy_zoc=game.zoc(position, side).in_zoc,
                       friendly_occupied=lambda h: h in friends,
                       edges=position.derived((GAME, "supply-edges", side), lambda _t: {}))


def _not(flag: bool | Unknown) -> bool | Unknown:
    return flag if isinstance(flag, Unknown) else not flag


def _flag(tri: Tri) -> bool | Unknown:
    return bool(tri.value) if tri.known else Unknown(*tri.depends_on)


def _city_or_fort(game: "IslandOfDeath", hex_: str) -> Tri:
    """8.52: an Allied-controlled city or an undestroyed fort."""
    ledger = game.supply
    terrain = game.board.terrain(hex_)
    city = Tri.of(terrain) if isinstance(terrain, Unknown) else Tri.of(terrain == "city")
    if not city.false:
        city = city & _side_is(ledger.controlled_by(hex_), "allied")
    return city | Tri.of(ledger.fort(hex_))


def _hq_sources(game: "IslandOfDeath", position: "Position", hq: "Unit"):
    """The hexes an HQ may trace to (8.51, 8.52)."""
    ledger, board = game.supply, game.board
    if hq.side == "allied":
        return lambda h: _flag(_city_or_fort(game, h))
    units = game.units(position).values()
    drop_zones = {u.hex for u in units if u.kind == "marker" and u.formation == hq.formation and u.hex}
    allied = {u.hex for u in units if u.side == "allied" and u.hex is not None and u.is_ground_unit}

    def is_source(h: str) -> bool | Unknown:
        axis = _side_is(ledger.controlled_by(h), "axis")
        found = Tri.of(board.has_feature(h, "beach")) & Tri.of(ledger.has_landed(h)) & axis
        if hq.formation == AIRFIELD_FORMATION:
            found = found | (Tri.of(board.has_feature(h, "airfield")) & axis)
        if h in drop_zones and h not in allied:
            return True
        return _flag(found)

    return is_source


def _join(*traces: SupplyTrace) -> SupplyTrace:
    """Both legs must hold: out of supply if either is, supplied if both are."""
    if any(t.ruling is Ruling.PROVEN for t in traces):
        return next(t for t in traces if t.ruling is Ruling.PROVEN)
    data = frozenset().union(*(t.depends_on for t in traces))
    path = tuple(h for t in traces for h in (t.path if not t.path or t is traces[0] else t.path[1:]))
    if not data:
        return SupplyTrace(Verdict(Ruling.LEGAL), path)
    return SupplyTrace(Verdict(Ruling.POSSIBLE, depends_on=data), path, depends_on=data)


def _best(traces: Iterable[SupplyTrace], why: str) -> SupplyTrace:
    order = {Ruling.LEGAL: 0, Ruling.POSSIBLE: 1, Ruling.PROVEN: 2}
    found = sorted(traces, key=lambda t: (order[t.ruling], len(t.depends_on), len(t.path)))
    return found[0] if found else SupplyTrace(Verdict(Ruling.PROVEN, reasons=(why,)))


def _possible(trace: SupplyTrace, *data: str) -> SupplyTrace:
    if trace.ruling is not Ruling.LEGAL:
        return trace
    return SupplyTrace(Verdict(Ruling.POSSIBLE, depends_on=frozenset(data)), trace.path, depends_on=frozenset(data))


def supply_of(game: "IslandOfDeath", position: "Position", unit: "Unit", phase: Any = None) -> SupplyTrace:
    """Is `unit` supplied in `position` (in `phase`, the current one by default)? LEGAL with its
    route, PROVEN out of supply, or POSSIBLE naming the data the answer turns on (8.1-8.53)."""
    phase = phase if phase is not None else game.phase
    label = phase.sequence.labels.get(phase.turn) if phase is not None else None
    if label in AUTOMATIC_TURNS:
        return SUPPLIED
    arrived = game.movement.arrived.get(unit.id)
    if arrived is not None and phase is not None and arrived[0] == phase.turn:
        return SUPPLIED                                             # 8.53: landed or jumped this turn
    side = unit.side
    if unit.kind == "hq":
        return _hq_trace(game, position, unit)
    direct = Tri.of(False)
    if side == "allied":
        for h in (unit.hex, *game.board.neighbours(unit.hex)):
            direct = direct | _traced(game, position, ("city-or-fort", h), lambda at=h: _city_or_fort(game, at))
        if direct.true:
            return SUPPLIED
    formation = unit.formation or (ALLIED_FORMATION if side == "allied" else None)
    hqs = [u for u in _hqs_on_map(game, position) if u.side == side and (formation is None or u.formation == formation)]
    legs = []
    for hq in hqs:
        to_hq = _traced(game, position, ("to", unit.hex, hq.hex, side),
                        lambda at=hq.hex: _traces_to(game, position, side, at).trace(unit.hex))
        legs.append(_join(to_hq, _hq_trace(game, position, hq)))
    why = f"no HQ of {formation} on the map" if formation else f"no {side} HQ on the map"
    found = _best(legs, why)
    if formation is None:
        found = _possible(found, f"the formation {unit.label()} is attached to (15.2: recorded on paper)")
    if not direct.false and found.ruling is not Ruling.LEGAL:
        data = frozenset(direct.depends_on) | found.depends_on
        return SupplyTrace(Verdict(Ruling.POSSIBLE, depends_on=data), found.path, depends_on=data)
    return found


def _hqs_on_map(game: "IslandOfDeath", position: "Position") -> list["Unit"]:
    return position.derived((GAME, "hqs-on-map"), lambda _t: [
        u for u in game.units(position).values() if u.kind == "hq" and u.hex is not None])


def _traces_to(game: "IslandOfDeath", position: "Position", side: str, hex_: str) -> TracesTo[str]:
    """The routes of `side`'s units to an HQ in `hex_`, searched together (8.2)."""
    return _traced(game, position, ("traces-to", hex_, side), lambda: TracesTo(
        _rules(game, position, side, lambda h: h == hex_), hex_))


def _hq_trace(game: "IslandOfDeath", position: "Position", hq: "Unit") -> SupplyTrace:
    """8.11: the HQ's route to a source of its own."""
    return _traced(game, position, ("hq", hq.id), lambda: trace_supply(
        _rules(game, position, hq.side, _hq_sources(game, position, hq)), hq.hex))


def _traced(game: "IslandOfDeath", position: "Position", key: tuple, trace: Callable[[], T]) -> T:
    """`trace()` for the route (or source) `key` names, traced again only when something a route
    reads has changed since it was last traced: the units (where they stand, what they are) and
    what the ledger knows of control, landings and forts."""
    def build(_table: Any) -> dict[tuple, Any]:
        ledger = game.supply
        inputs = (game.scenario, game.units(position), dict(ledger.control), frozenset(ledger.landed),
                  frozenset(ledger.destroyed_forts))
        return game.recalled((GAME, "supply"), inputs, dict)
    traces = position.derived((GAME, "supply"), build)
    found = traces.get(key)
    if found is None:
        found = traces[key] = trace()
    return found


def out_of_supply(trace: SupplyTrace) -> bool | Unknown:
    if trace.ruling is Ruling.PROVEN:
        return True
    if trace.ruling is Ruling.LEGAL:
        return False
    return Unknown(*trace.depends_on)


# -- the checks -------------------------------------------------------------------------------

def _status_phase(phase: Any) -> bool:
    return phase is not None and "status" in phase.kinds


@REGISTRY.check("SUP-01", "SUP-02", "SUP-03", event=PhaseChanged)
def judge_determination(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """8.0-8.13: as the owner's Status Phase ends, every hex holding a unit certainly out of
    supply shows an Out of Supply marker, and none whose units are all certainly supplied."""
    old = event.old
    if not _status_phase(old) or old.phasing is None:
        return []
    side, position = old.phasing, view.before
    label = old.sequence.labels.get(old.turn)
    units = game.units(position).values()
    marked = {u.hex for u in units if u.counter == OUT_OF_SUPPLY and u.hex is not None}
    stacks: dict[str, list[Unit]] = {}
    for unit in units:
        if unit.side == side and unit.hex is not None and unit.is_ground_unit and unit.kind not in NOT_TRACED:
            stacks.setdefault(unit.hex, []).append(unit)
    out: list["Finding"] = []
    data: set[str] = set()
    when = game.when_of(old)
    for hex_, stack in sorted(stacks.items()):
        traces = {u.id: supply_of(game, position, u, old) for u in stack}
        for u in stack:
            game.supply.status[u.id] = (old.turn, out_of_supply(traces[u.id]))
        if label in AUTOMATIC_TURNS:
            continue                                          # SEQ-03 judges markers placed then
        cut = [u for u in stack if traces[u.id].ruling is Ruling.PROVEN]
        unsure = [u for u in stack if traces[u.id].ruling is Ruling.POSSIBLE]
        if hex_ not in marked and cut:
            short = "SUP-03" if any(u.kind == "hq" for u in cut) else "SUP-02"
            reasons = sorted({r for u in cut for r in traces[u.id].verdict.reasons})
            out.append(game.finding(
                short, Ruling.PROVEN, step=event.step,
                message=f"{', '.join(u.label() for u in cut)} in {hex_} out of supply ({'; '.join(reasons)}) "
                        f"and not marked Out of Supply when the {old.name} phase ended",
                subjects=tuple(u.name for u in cut),
                evidence={"hex": hex_, "units": [u.counter for u in cut], "marked": False, "reasons": reasons}))
        elif hex_ in marked and not cut and not unsure:
            short = "SUP-03" if any(u.kind == "hq" for u in stack) else "SUP-02"
            routes = {u.counter: list(traces[u.id].path) for u in stack}
            out.append(game.finding(
                short, Ruling.PROVEN, step=event.step,
                message=f"Out of Supply marker in {hex_}, but {', '.join(u.label() for u in stack)} "
                        f"{'is' if len(stack) == 1 else 'are'} in supply when the {old.name} phase ended",
                subjects=tuple(u.name for u in stack),
                evidence={"hex": hex_, "units": [u.counter for u in stack], "marked": True, "routes": routes}))
        elif unsure and (hex_ in marked or not cut):
            data |= {d for u in unsure for d in traces[u.id].depends_on}
    if data:
        game.unsettled("SUP-02", event.step, sorted(data))
    return [replace(f, when=when) for f in out]


@REGISTRY.check("SEQ-03", event=Placed)
def judge_marker_placed(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """8.0, 8.13: an Out of Supply marker is placed only in its owner's Status Phase."""
    marker = event.unit
    if marker.counter != OUT_OF_SUPPLY or marker.hex is None:
        return []
    return _marker_change(game, event.step, view.after, marker.hex, "placed on")


@REGISTRY.check("SEQ-03", event=Removed)
def judge_marker_removed(game: "IslandOfDeath", event: Removed, view: "StepView") -> list["Finding"]:
    """A marker goes with its units: removed outside the Status Phase only when they left."""
    marker = event.unit
    if marker.counter != OUT_OF_SUPPLY or marker.hex is None:
        return []
    before, after = game.units(view.before), game.units(view.after)
    stayed = [u for u in before.values() if u.hex == marker.hex and u.is_ground_unit
              and u.id in after and after[u.id].hex == marker.hex]
    if not stayed:
        return []
    return _marker_change(game, event.step, view.before, marker.hex, "removed from")


@REGISTRY.check("SEQ-03", event=Moved)
def judge_marker_moved(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """A marker that follows a unit from its hex (moved there in this phase) marks it still;
    moved onto units that never were in its hex, it marks other units."""
    marker, after = event.before, event.after
    if marker.counter != OUT_OF_SUPPLY or marker.hex is None or after.hex is None:
        return []
    trail = game.supply.trail
    if any(u.hex == after.hex and marker.hex in trail.get(u.id, ()) for u in game.units(view.after).values()):
        return []
    return _marker_change(game, event.step, view.after, after.hex, "moved onto")


def _marker_change(game: "IslandOfDeath", step: int | None, position: "Position", hex_: str,
                   what: str) -> list["Finding"]:
    phase = game.phase
    if phase is None:
        return []
    owners = {u.side for u in game.units(position).values() if u.hex == hex_ and u.is_ground_unit}
    if len(owners) != 1:
        return []                                   # on no unit (or on both sides'): marks nothing
    owner = next(iter(owners))
    label = phase.sequence.labels.get(phase.turn)
    if _status_phase(phase) and phase.phasing == owner and label not in AUTOMATIC_TURNS:
        return []
    why = (f"there is no supply determination on {label} (8.53)" if label in AUTOMATIC_TURNS
           else f"supply markers change only in the {owner} Status Phase (8.0, 8.13)")
    return [game.finding("SEQ-03", Ruling.PROVEN, step=step,
                         message=f"Out of Supply marker {what} {owner} units in {hex_} in the {phase.name} phase: {why}",
                         evidence={"hex": hex_, "owner": owner, "phase": phase.name, "turn": phase.turn})]
