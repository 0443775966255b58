"""Units a Random Event brings into play (16.2 A, B, C, G, H, R, T), and the German units that
start off the map (18.0 notes a-d): where and after what each first comes onto the map.

The players name the event a roll gave (`event C`, checks/random_events.py); whether a named
event takes effect is 16.2's: who rolled it, in which month, how often it came before. Each
unit below comes only with the occurrence of its event that brings it:

* A, Kronberg (German roll, March-May 1915, once): Kron Mar and Kron in a GEA port the Allies
  do not occupy, not Dar es Salaam (EVT-02); B, Marie von Stettin (German roll, March-May 1916,
  once): v.Stn likewise (EVT-03);
* C, Konigsberg (from January 1915; a second roll in one turn is no event): the 2nd brings the
  Angel Batterie (and the RNAS to an Allied port, REI-11), the 3rd Konigsberg Kompanie "a", both
  in Dar es Salaam or, with Dar held by the Allies, a town south of it; the 4th the "b" Kompanie
  and the Wenig Batterie in Dar, or with Dar held only those two at Morogoro, none if Morogoro is
  held too (EVT-04);
* H, The African Queen (Allied roll, December 1915 on, once): 1 MRK, through hex 5434 in a
  Movement Operation (EVT-09, MOV-17);
* T, German Volunteers (A rolled by the German from June 1915): the 1st brings Abteilung Urundi
  through 2234-2733 unless the Belgians are in (EVT-19, MOV-18), the 2nd Abteilung Arusha in
  Arusha and the Delta and Dar es Salaam Abteilungen in Dar, none into a town the Allies hold;
* G, The Belgians (Allied roll, March 1916 on, after H, once): Olsen as if from Ruanda
  (1434-2133), Molitor as if from Urundi (EVT-08, MOV-15);
* R, Portugal (1916 on, once): de Silviera in a south map-edge hex 7005-7010, Gil the same way
  two turns later (EVT-17, MOV-16).

An arrival before its event is PROVEN only when every Random Event roll so far was labelled and
named, with the turn and the roller known; otherwise POSSIBLE, naming what would settle it. A
range of map-edge hexes the text gives by its two ends (1434-2133) is judged by its hexrows: a
hex outside them is PROVEN wrong, one inside them but off the ends' rows is POSSIBLE (the map's
edge is printed on the map only). Vogel (2.24: a Konigsberg gun) is not judged: 16.2 C's "all
Konigsberg artillery units" names no counter. That a port is in GEA is not judged (GEA's
borders are not in the data).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Placed
from vlog.kit.units import value

from ..registry import REGISTRY
from .common import ALLIED, GERMAN, RECYCLED, came_from_box, known_turn
from .occurrences import MAYBE, YES, effective, unsettled

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import StepView

    from ..rules import Sideshow

__all__ = ["ARRIVALS", "EventArrivals", "entry_verdict"]

DAR, MOROGORO, ARUSHA = "4605", "4511", "2914"


@dataclass(frozen=True, slots=True)
class Arrival:
    """Counters the `nth` occurrence of event `letter` that takes effect brings, `delay` turns
    later; `place` says where (see `_place`); `check` judges the timing, `place_check` the place."""

    check: str
    letter: str
    nth: int
    units: frozenset[str]
    place: str
    place_check: str
    rule: str
    delay: int = 0


ARRIVALS = (
    Arrival("EVT-02", "A", 1, frozenset({"de-kron-mar", "de-kron"}), "port", "EVT-02", "16.2 A"),
    Arrival("EVT-03", "B", 1, frozenset({"de-v-stn"}), "port", "EVT-03", "16.2 B"),
    Arrival("EVT-04", "C", 2, frozenset({"de-angel"}), "dar", "EVT-04", "16.2 C"),
    Arrival("EVT-04", "C", 2, frozenset({"al-rnas"}), "allied-port", "REI-11", "16.2 C, 11.0"),
    Arrival("EVT-04", "C", 3, frozenset({"de-kngbg-kp-a"}), "dar", "EVT-04", "16.2 C"),
    Arrival("EVT-04", "C", 4, frozenset({"de-kngbg-kp-b", "de-wenig"}), "dar-4th", "EVT-04", "16.2 C"),
    Arrival("EVT-09", "H", 1, frozenset({"de-mrk-1"}), "zone:entry-1-mrk", "MOV-17", "16.2 H"),
    Arrival("EVT-19", "T", 1, frozenset({"de-abt-urundi"}), "zone:entry-urundi", "MOV-18", "16.2 T"),
    Arrival("EVT-19", "T", 2, frozenset({"de-abt-arusha"}), f"town:{ARUSHA}", "EVT-19", "16.2 T"),
    Arrival("EVT-19", "T", 2, frozenset({"de-abt-delta", "de-abt-dar"}), f"town:{DAR}", "EVT-19", "16.2 T"),
    Arrival("EVT-08", "G", 1, frozenset({"be-olsen"}), "zone:entry-ruanda", "MOV-15", "16.2 G"),
    Arrival("EVT-08", "G", 1, frozenset({"be-molitor"}), "zone:entry-urundi", "MOV-15", "16.2 G"),
    Arrival("EVT-17", "R", 1, frozenset({"pt-de-silviera"}), "zone:entry-portuguese", "MOV-16", "16.2 R"),
    Arrival("EVT-17", "R", 1, frozenset({"pt-gil"}), "zone:entry-portuguese", "MOV-16", "16.2 R", delay=2),
)
BY_COUNTER = {counter: arrival for arrival in ARRIVALS for counter in arrival.units}

OFF_MAP_STARTS = {"off-map-karema": ("move",), "off-map-ruanda": ("move",), "off-map-urundi": ("move",),
                  "lake-tanganyika": ("move", "rail")}
"""18.0 notes a-d: the boxes of the German units that start off the map, and the Operations they enter in."""


class EventArrivals(Ledger):
    """The counters on the map at the start or seen since: only a first coming onto it is an arrival."""

    def __init__(self, game: "Sideshow") -> None:
        self.game = game
        self.seen: set[str] = set()

    def begin(self, view: "StepView") -> Iterable["Finding"]:
        self.seen |= {u.counter for u in self.game.units(view.after).values() if u.hex is not None}
        return ()


def _zone(game: "Sideshow", zone_id: str):
    board = game.data.map()
    return next((z for z in board["zones"] if z.id == zone_id), None) if "zones" in board else None


def entry_verdict(game: "Sideshow", zone_id: str, hex_: str) -> tuple[Ruling | None, str]:
    """Whether `hex_` is one of a zone's entry hexes: None (it is), PROVEN (it is not) or
    POSSIBLE (only the map's edge could say), with the hexes as the text gives them."""
    zone = _zone(game, zone_id)
    if zone is None:
        return None, "?"
    hexes = value(zone["hexes"]) if "hexes" in zone else None
    if hexes:
        return (None if hex_ in hexes else Ruling.PROVEN), " or ".join(hexes)
    ends = value(zone["known_hexes"]) if "known_hexes" in zone else None
    if not ends or not hex_.isdigit() or len(hex_) != 4:
        return None, "?"
    shown = "-".join(ends)
    rows = sorted(int(e[:2]) for e in ends)
    if hex_ in ends:
        return None, shown
    if not rows[0] <= int(hex_[:2]) <= rows[1]:
        return Ruling.PROVEN, shown
    return (None if int(hex_[2:]) >= min(int(e[2:]) for e in ends) else Ruling.POSSIBLE), shown


def _held(units: dict, hex_: str, side: str) -> list[str]:
    return sorted(u.name for u in units.values() if u.hex == hex_ and u.side == side)


def _has(game: "Sideshow", hex_: str, feature: str) -> bool:
    record = game.data.hex(hex_)
    return record is not None and "features" in record and feature in (value(record["features"]) or ())


def _place(game: "Sideshow", arrival: Arrival, unit, units: dict) -> tuple[Ruling, str, list[str]] | None:
    """What is wrong with where the unit came on: (ruling, why, what would settle it), None if nothing."""
    hex_, place = unit.hex, arrival.place
    if place in ("port", "allied-port"):
        enemy = GERMAN if place == "allied-port" else ALLIED
        if place == "port" and hex_ == DAR:
            return Ruling.PROVEN, "in Dar es Salaam, which it never comes to", []
        if held := _held(units, hex_, enemy):
            return Ruling.PROVEN, f"in {hex_}, where {', '.join(held)} stood", []
        if not _has(game, hex_, "port"):
            return Ruling.POSSIBLE, f"in {hex_}, a hex the data does not list as a port", ["map.json hexes features (the ports)"]
        return None
    if place in ("dar", "dar-4th"):
        dar_held = _held(units, DAR, ALLIED)
        if not dar_held:
            return None if hex_ == DAR else (Ruling.PROVEN, f"in {hex_}, not in Dar es Salaam ({DAR})", [])
        if place == "dar-4th":
            if unit.counter not in ("de-kngbg-kp-b", "de-wenig"):
                return Ruling.PROVEN, f"with Dar es Salaam held by the Allies ({', '.join(dar_held)})", []
            if held := _held(units, MOROGORO, ALLIED):
                return Ruling.PROVEN, f"with Dar es Salaam and Morogoro held by the Allies ({', '.join(held)})", []
            return None if hex_ == MOROGORO else (Ruling.PROVEN, f"in {hex_}, not at Morogoro ({MOROGORO}), "
                                                  "with Dar es Salaam held by the Allies", [])
        if int(hex_[:2]) <= int(DAR[:2]) or _held(units, hex_, ALLIED):
            return Ruling.PROVEN, f"in {hex_}, not in a town south of Dar es Salaam, which the Allies hold", []
        if not _has(game, hex_, "town"):
            return Ruling.POSSIBLE, f"in {hex_}, a hex the data does not list as a town", ["map.json hexes features (the towns)"]
        return None
    if place.startswith("town:"):
        town = place[5:]
        if held := _held(units, town, ALLIED):
            return Ruling.PROVEN, f"into {town}, held by {', '.join(held)}: then it does not arrive", []
        return None if hex_ == town else (Ruling.PROVEN, f"in {hex_}, not in {town}", [])
    ruling, shown = entry_verdict(game, place[5:], hex_)
    if ruling is None:
        return None
    return ruling, f"in {hex_}, not through {shown}", [f"map.json zones {place[5:]} hexes"] if ruling is Ruling.POSSIBLE else []


@REGISTRY.check("EVT-02", "EVT-03", "EVT-04", "EVT-08", "EVT-09", "EVT-17", "EVT-19", "MOV-15", "MOV-16",
                "MOV-17", "MOV-18", "REI-11", event=Placed)
def judge_event_arrival(game: "Sideshow", placed: "Placed", view: "StepView") -> list["Finding"]:
    """16.2: a unit an event brings comes onto the map only after that event, where it says."""
    unit, ledger = placed.unit, game.event_arrivals
    arrival = BY_COUNTER.get(unit.counter)
    if arrival is None or unit.counter in ledger.seen or unit.hex is None:
        return []
    ledger.seen.add(unit.counter)
    if came_from_box(view, game, unit.id) in RECYCLED | {"german-replacement"}:
        return []
    occurrences = effective(game, arrival.letter)
    sure = [n for n, s in occurrences if s == YES]
    maybe = [n for n, s in occurrences if s == MAYBE]
    turn = known_turn(game)
    evidence = {"unit": unit.name, "hex": unit.hex, "event": arrival.letter, "nth": arrival.nth,
                "occurrences": [n.step for n in sure], "turn": turn}
    maybe_doubt = [f"whether event {arrival.letter} of step(s) {', '.join(str(n.step) for n in maybe)} took effect "
                   "(16.2: its roller, its month)"] if maybe else []
    if len(sure) < arrival.nth:
        doubts = unsettled(game) + maybe_doubt
        ordinal = {1: "", 2: "2nd ", 3: "3rd ", 4: "4th "}[arrival.nth]
        return [game.finding(arrival.check, Ruling.POSSIBLE if doubts else Ruling.PROVEN, step=placed.step,
                             message=f"{unit.name} came onto the map in {unit.hex} with no {ordinal}event "
                                     f"{arrival.letter} that takes effect before it (named so far: {len(sure)}) "
                                     f"({arrival.rule})",
                             subjects=(unit.name,), evidence=evidence, depends_on=doubts)]
    occurrence = sure[arrival.nth - 1]
    if arrival.delay and (occurrence.turn is None or turn is None or occurrence.turn + arrival.delay > turn):
        doubts = maybe_doubt + (["the turn tracker's turn"] if occurrence.turn is None or turn is None else [])
        if not doubts or (turn is not None and occurrence.turn is not None):
            return [game.finding(arrival.check, Ruling.POSSIBLE if doubts else Ruling.PROVEN, step=placed.step,
                                 message=f"{unit.name} came onto the map in {unit.hex} in turn {turn}, before "
                                         f"{arrival.delay} turns after event {arrival.letter} (step {occurrence.step}, "
                                         f"turn {occurrence.turn}) ({arrival.rule})",
                                 subjects=(unit.name,), evidence={**evidence, "event_turn": occurrence.turn},
                                 depends_on=doubts)]
    units = game.units(view.before)
    if arrival.letter == "T" and arrival.nth == 1 and (belgians := sorted(
            u.name for u in units.values() if u.counter in ("be-olsen", "be-molitor") and u.hex is not None)):
        return [game.finding("EVT-19", Ruling.PROVEN, step=placed.step,
                             message=f"{unit.name} came onto the map in {unit.hex} with the Belgians in the war "
                                     f"({', '.join(belgians)}): then it does not arrive (16.2 T)",
                             subjects=(unit.name,), evidence={**evidence, "belgians": belgians})]
    wrong = _place(game, arrival, unit, units)
    found = []
    if wrong is not None:
        ruling, why, doubts = wrong
        found.append(game.finding(arrival.place_check, ruling, step=placed.step,
                                  message=f"{unit.name}, brought by event {arrival.letter}, came onto the map {why} "
                                          f"({arrival.rule})", subjects=(unit.name,),
                                  evidence={**evidence, "why": why}, depends_on=doubts))
    if arrival.place_check in ("MOV-17",):
        found += _operation(game, placed, unit, ("move",), arrival.place_check, "16.2 H")
    return found


def _operation(game: "Sideshow", placed: "Placed", unit, kinds: tuple[str, ...], check: str, rule: str) -> list["Finding"]:
    """18.0, 16.2 H: a unit from off the map enters in a Movement (or Rail Movement) Operation."""
    current = game.operations.current.get(unit.side) if unit.side in (ALLIED, GERMAN) else None
    if current is None or current.op.kind in kinds:
        return []
    return [game.finding(check, Ruling.PROVEN, step=placed.step,
                         message=f"{unit.name} came onto the map in {unit.hex} in the {current.op.title} Operation of "
                                 f"step {current.step}; it enters in a "
                                 f"{' or '.join('Rail Movement' if k == 'rail' else 'Movement' for k in kinds)} "
                                 f"Operation ({rule})",
                         subjects=(unit.name,), evidence={"unit": unit.name, "hex": unit.hex,
                                                          "operation": current.op.kind, "operation_step": current.step})]


@REGISTRY.check("MOV-13", event=Placed)
def judge_off_map_start(game: "Sideshow", placed: "Placed", view: "StepView") -> list["Finding"]:
    """18.0 notes a-d: a German unit that starts off the map enters through its hexes, in a
    Movement Operation (the Lake Tanganyika unit also by Rail Movement)."""
    unit, box = placed.unit, came_from_box(view, game, placed.unit.id)
    if box not in OFF_MAP_STARTS or game.scenario is None or unit.hex is None:
        return []
    entry = next((e for e in game.data.scenario(game.scenario)["setup"]
                  if "box" in e and value(e["box"]) == box and "zone" in e), None)
    found = []
    if entry is not None:
        ruling, shown = entry_verdict(game, value(entry["zone"]), unit.hex)
        if ruling is not None:
            found.append(game.finding("MOV-13", ruling, step=placed.step,
                                      message=f"{unit.name} entered from {box} in {unit.hex}, not through {shown} "
                                              f"(18.0: {value(entry['what'])})",
                                      subjects=(unit.name,),
                                      evidence={"unit": unit.name, "hex": unit.hex, "box": box, "entry": shown},
                                      depends_on=[f"map.json zones {value(entry['zone'])} hexes"]
                                      if ruling is Ruling.POSSIBLE else ()))
    return found + _operation(game, placed, unit, OFF_MAP_STARTS[box], "MOV-13", "18.0")
