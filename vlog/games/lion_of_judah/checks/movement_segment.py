"""What a movement segment's history adds to each move (checks/movement.py judges the move
itself): interdiction by air markers (MV-18), Gassed markers (MV-19) and guerrillas (MV-20),
supply at each forced-march attempt (MV-25, 9.2) and the ambushes owed (MV-26, 11.5.3), the
first Italian unit into an Ethiopian town (MV-41), and movement by sea in the MAP (MV-38, MV-39,
11.8).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown, unknowns
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.air import turn_track_box
from vlog.games.lion_of_judah.checks.common import REGISTRY, GameLedger, finding, plain_number as _num
from vlog.games.lion_of_judah.step_events import PhaseTurned
from vlog.games.lion_of_judah.checks.movement import (FRIENDLY_COUNTRIES, Interdiction, is_guerrilla, rainy_season,
                                                      short_check)
from vlog.games.lion_of_judah.checks.rail import division_share
from vlog.games.lion_of_judah.checks.supply import supply_sources, trace
from vlog.games.lion_of_judah.sequence import side_name
from vlog.games.lion_of_judah.state import GameState, Unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.steps import StepView

__all__ = [
    "GASSED",
    "AmbushLedger",
    "GasInterdiction",
    "GuerrillaInterdiction",
    "MovementLedger",
    "NavalLedger",
    "air_interdiction",
    "ambush_possible",
    "forced_march_result",
    "friendly_country",
    "judge_forced_march_supply",
    "judge_naval_move",
]


@REGISTRY.reports("MV-18")
def air_interdiction(before: GameState, unit: Unit, scenario: str | None) -> Interdiction | None:
    """MV-18 (10.1.5): an enemy air marker on the unit's hex as it first moves in the segment.

    (35) an Italian marker over Ethiopian units may have flown a gas attack instead
    (PB 13.6.5.1), which only affects the units it gasses; the log does not say which, so the
    reduction is then uncertain."""
    if unit.hex is None or unit.kind == "air":
        return None
    markers = [u for u in before.at(unit.hex) if u.kind == "air" and u.side not in (None, unit.side)]
    if not markers:
        return None
    marker = markers[0]
    source = f"air marker {marker.name} at {unit.hex}"
    if scenario == "1935-36" and marker.side == "italian":
        return Interdiction("MV-18", source, Unknown(
            f"whether air marker {marker.name} flew an interdiction or a gas attack (PB 13.6.5.1), "
            "which the log does not say"))
    return Interdiction("MV-18", source)


@dataclass(slots=True)
class _CountedInterdiction:
    """Interdiction of some of a hex's units, as many as the hex holds interdicting pieces
    (guerrillas, Gassed markers), the log not showing which: each hex's units that moved on
    their full MF are counted, and more of them than the hex's units minus the interdicted
    ones is a proven finding under `check`."""

    check: str = ""
    hexes: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Hex -> (units interdicted, units that may be) when the segment's moves began."""
    full_mf: dict[str, set[str]] = field(default_factory=dict)
    """Hex -> units that began there and needed their uninterdicted MF."""

    def _source(self, origin: str) -> str:
        raise NotImplementedError

    def interdiction(self, unit: Unit, origin: str) -> Interdiction | None:
        """An Interdiction for a unit that began the segment in a counted hex."""
        if origin not in self.hexes:
            return None
        return Interdiction(self.check, self._source(origin))

    def settle(self, found: list[Finding], unit: Unit, origin: str) -> list[Finding]:
        """Drop this check's finding while the hex has an uninterdicted unit left for this one."""
        blamed = [f for f in found if short_check(f) == self.check]
        if not blamed or origin not in self.hexes:
            return found
        interdicted, units = self.hexes[origin]
        users = self.full_mf.setdefault(origin, set())
        if unit.id in users or len(users) < units - interdicted:
            users.add(unit.id)
            return [f for f in found if f not in blamed]
        return found


@dataclass(slots=True)
class GuerrillaInterdiction(_CountedInterdiction):
    """MV-20 (PB 14.6.4.1): (40) for each guerrilla in a hex one Italian-controlled unit there,
    the Italian player's choice, is interdicted for the Italian movement segment; never one
    already under an air marker (not cumulative)."""

    check: str = "MV-20"

    def _source(self, origin: str) -> str:
        return f"{self.hexes[origin][0]} guerrilla unit(s) at {origin} (PB 14.6.4.1)"

    def start_segment(self, state: GameState, scenario: str | None, phasing: str | None) -> None:
        self.hexes, self.full_mf = {}, {}
        if scenario != "1940-41" or phasing != "italian":
            return
        for hex_, units in state.occupied().items():
            guerrillas = sum(1 for u in units if is_guerrilla(u, scenario))
            italians = sum(1 for u in units if u.side == "italian" and u.kind not in ("air", "rp"))
            if guerrillas and italians and not any(u.kind == "air" and u.side == "allied" for u in units):
                self.hexes[hex_] = (guerrillas, italians)

    @REGISTRY.reports("MV-20")
    def interdiction(self, unit: Unit, origin: str) -> Interdiction | None:
        if unit.side != "italian":
            return None
        return _CountedInterdiction.interdiction(self, unit, origin)


OPTIONAL_FIRST_TO_ENTER = "whether the optional rule First to enter (PB 13.6.7.4) is played"
GASSED = "mk-gassed"
"""The Gassed marker's counter (PB 13.6.5.1)."""


@dataclass(slots=True)
class GasInterdiction(_CountedInterdiction):
    """MV-19 (PB 13.6.5.1): (35) units under a Gassed marker suffer the interdiction effect.

    Convention (as for gassed attackers in combat): a Gassed marker in a hex marks one unit of
    the side gassed there, chosen at random, which the log does not show. The markers are
    placed at the start of the Ethiopian movement segment, after the turn track shows it, so
    each hex is counted when the first unit leaves it."""

    check: str = "MV-19"
    seen: set[str] = field(default_factory=set)

    def start_segment(self) -> None:
        self.hexes, self.full_mf, self.seen = {}, {}, set()

    def _source(self, origin: str) -> str:
        return f"{self.hexes[origin][0]} Gassed marker(s) at {origin} (PB 13.6.5.1)"

    @REGISTRY.reports("MV-19")
    def count(self, before: GameState, unit: Unit, origin: str) -> None:
        """Counts the hex `origin` as it stands before its first unit moves out."""
        if origin in self.seen or unit.hex != origin:
            return
        self.seen.add(origin)
        here = before.at(origin)
        markers = sum(1 for u in here if u.counter == GASSED)
        units = sum(1 for u in here if u.side == unit.side and u.kind not in ("air", "marker", "rp"))
        if markers and units:
            self.hexes[origin] = (min(markers, units), units)


# ---------------------------------------------------------------------------------------------
# forced march: supply at each attempt (9.2), ambush (11.5.3)


def forced_march_result(board: Board, roll: int) -> tuple[Any, bool | Unknown]:
    """The forced march table's cell for a roll and whether it is an ambush ('A', 11.5.3); the
    roll is read as the table's row, like the MP surcharge (the PAC's DRMs are not known)."""
    cell = board.data.table("forced-march").lookup(str(roll)).value
    if cell is None:
        return None, Unknown(f"forced march table, roll {roll}")
    parts = [p.strip().upper() for p in str(cell).split("/")]
    return cell, "A" in parts[1:] or parts[0] == "A"


def friendly_country(board: Board, hex_: str, side: str | None, scenario: str | None) -> bool | Unknown:
    """11.5.3, PB 13.1.2, PB 14.1.2: is the hex in the side's home country or colonial metropolis?"""
    zones = FRIENDLY_COUNTRIES.get((scenario or "", side or ""), ())
    answers = [board.in_zone(hex_, z) for z in zones]
    if any(a is True for a in answers):
        return True
    missing = unknowns(*answers)
    return Unknown(*missing) if missing else False


def ambush_possible(board: Board, state: GameState, unit: Unit, hexes: tuple[str, ...],
                    scenario: str | None) -> tuple[bool | Unknown, list[str]]:
    """11.5.3: a forced march to or from a hex not in a friendly country or next to an enemy
    unit may be ambushed; the reasons found (hex by hex)."""
    reasons: list[str] = []
    missing: set[str] = set()
    for hex_ in hexes:
        near = sorted({u.name for n in board.neighbours(hex_) for u in state.at(n)
                       if u.kind != "air" and u.side not in (None, unit.side)})
        if near:
            reasons.append(f"{hex_} is next to enemy units ({', '.join(near[:3])})")
            continue
        home = friendly_country(board, hex_, unit.side, scenario)
        if home is False:
            reasons.append(f"{hex_} is not in a friendly country")
        elif isinstance(home, Unknown):
            missing |= home.data
    if reasons:
        return True, reasons
    return (Unknown(*missing) if missing else False), reasons


@REGISTRY.reports("MV-25")
def judge_forced_march_supply(board: Board, state: GameState, unit: Unit, frm: str, to: str,
                              rolls: tuple[int, ...], *, step: int | None, when: str | None
                              ) -> list[Finding]:
    """MV-25 (9.2; 11.5.2): supply is checked when a unit attempts to force march into a new
    hex, and a unit out of supply may not. Judged for a one-hex drag that brings its own
    forced-march roll(s), from the hex the unit stands in (`state`: the position before it)."""
    if not rolls or to not in board.neighbours(frm):
        return []
    result = trace(board, state, unit, frm)
    if result is None or result.ruling is Ruling.LEGAL:
        return []
    return [finding("MV-25", result.ruling, step=step, when=when, subjects=(unit.name,),
                    message=f"{unit.name} force-marched from {hex_label(frm, board)} into "
                            f"{hex_label(to, board)} (roll {', '.join(map(str, rolls))}) out of supply "
                            f"in {hex_label(frm, board)}: supply is checked at each forced-march "
                            "attempt, and a unit out of supply may not force march (9.2, 11.5.2)",
                    evidence={"from": frm, "to": to, "forced_march_rolls": list(rolls),
                              "supply_sources": list(supply_sources(state, unit.side)),
                              "reasons": list(result.verdict.reasons)},
                    depends_on=result.verdict.depends_on)]


@dataclass(slots=True)
class _Ambush:
    step: int | None
    when: str | None
    roll: int
    cell: Any
    due: bool | Unknown
    reasons: list[str]
    hexes: tuple[str, ...]
    units: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


@dataclass(slots=True)
class AmbushLedger:
    """MV-26 (11.5.3): an ambush result ('A') on a forced march to or from a hex not in a
    friendly country or next to an enemy unit costs the moving stack - not each unit - one step,
    the owner's choice.

    The units dragged in one step are the moving stack; the last roll a drag brings is the one
    for the hex it ends in (earlier rolls of a multi-hex drag are for hexes not shown, and are
    not judged). When the stack's movement is over (another unit moves, the phase changes, the
    log ends) its units must together have lost at least one step since the segment began for
    each ambush they suffered."""

    steps_at_start: dict[str, int] = field(default_factory=dict)
    pending: dict[int | None, _Ambush] = field(default_factory=dict)
    credited: dict[str, int] = field(default_factory=dict)
    """Unit -> its steps lost already counted against an earlier ambush."""

    def start_segment(self, state: GameState, phasing: str | None) -> None:
        self.pending, self.credited = {}, {}
        self.steps_at_start = {u.id: u.steps for u in state.units.values()
                               if u.side == phasing and u.hex is not None and isinstance(u.steps, int)}

    def record(self, board: Board, before: GameState, unit: Unit, frm: str, to: str,
               rolls: tuple[int, ...], scenario: str | None, *, step: int | None,
               when: str | None) -> None:
        """A drag from `frm` to `to` that brought forced-march rolls (`before`: the position)."""
        if not rolls or unit.id not in self.steps_at_start:
            return
        entry = self.pending.get(step)
        if entry is None:
            cell, ambush = forced_march_result(board, rolls[-1])
            if ambush is False:
                return
            hexes = (frm, to) if to in board.neighbours(frm) else (to,)
            due, reasons = ambush_possible(board, before, unit, hexes, scenario)
            if due is False:
                return
            if isinstance(ambush, Unknown):
                due = Unknown(*ambush.data, *(due.data if isinstance(due, Unknown) else ()))
            entry = self.pending[step] = _Ambush(step, when, rolls[-1], cell, due, reasons, hexes)
        entry.units.append(unit.id)
        entry.names.append(unit.name)

    @REGISTRY.reports("MV-26")
    def settle(self, board: Board, state: GameState, finished: set[str]) -> list[Finding]:
        """Findings for the ambushes of stacks whose movement is over (`state`: the position now)."""
        out: list[Finding] = []
        for key, entry in list(self.pending.items()):
            if not set(entry.units) <= finished:
                continue
            del self.pending[key]
            lost = {}
            for uid in entry.units:
                now = state.units.get(uid)
                steps_now = 0 if now is None or now.hex is None else now.steps
                if not isinstance(steps_now, int):
                    lost = None
                    break
                lost[uid] = self.steps_at_start[uid] - steps_now - self.credited.get(uid, 0)
            if lost is None:
                continue
            loser = next((uid for uid, n in lost.items() if n > 0), None)
            if loser is not None:
                self.credited[loser] = self.credited.get(loser, 0) + 1
                continue
            ruling = Ruling.PROVEN if entry.due is True else Ruling.POSSIBLE
            where = " to ".join(hex_label(h, board) for h in entry.hexes)
            out.append(finding(
                "MV-26", ruling, step=entry.step, when=entry.when, subjects=tuple(entry.names),
                message=f"{', '.join(entry.names)} force-marched ({where}) with roll {entry.roll}"
                        + (f", '{entry.cell}' on the forced march table" if entry.cell is not None else "")
                        + ": an ambush, yet the moving stack lost no step (11.5.3)"
                        + (f" ({'; '.join(entry.reasons)})" if entry.reasons else ""),
                evidence={"hexes": list(entry.hexes), "roll": entry.roll, "result": entry.cell,
                          "ambush_because": entry.reasons, "stack": entry.names, "steps_lost": 0},
                depends_on=entry.due.data if isinstance(entry.due, Unknown) else ()))
        return out


@dataclass(slots=True)
class MovementLedger(GameLedger):
    """What a movement segment's history adds to each move (the engine keeps one): interdiction
    (MV-18, MV-20), the rainy season (MV-22), supply at each forced-march drag (MV-25) and the
    ambushes owed (MV-26)."""

    scenario: str | None = None
    rainy: bool = False
    """PB 14.6.2.2: the turn track shows a rainy-season turn (an inferred turn is not used)."""
    interdicted: dict[str, Interdiction | None] = field(default_factory=dict)
    """Unit -> its interdiction, fixed when it first moves in the segment."""
    guerrillas: GuerrillaInterdiction = field(default_factory=GuerrillaInterdiction)
    gas: GasInterdiction = field(default_factory=GasInterdiction)
    entered: set[str] = field(default_factory=set)
    """(35) Ethiopian towns and capitals an Italian unit has entered in the log (MV-41)."""
    ambushes: AmbushLedger = field(default_factory=AmbushLedger)

    def start_segment(self, state: GameState, scenario: str | None, phasing: str | None, *,
                      turn: int | None) -> None:
        """A movement segment begins (`turn`: None unless the turn track tells it)."""
        self.scenario, self.rainy, self.interdicted = scenario, rainy_season(scenario, turn), {}
        self.guerrillas.start_segment(state, scenario, phasing)
        self.gas.start_segment()
        self.ambushes.start_segment(state, phasing)

    def phase(self, change: PhaseTurned, view: "StepView") -> list[Finding]:
        new = change.new            # MV-18, MV-20, MV-22, MV-26
        if new.segment == "movement" and new.phasing:
            self.start_segment(change.state, self.game.scenario, new.phasing, turn=new.turn if change.bound else None)
        else:
            self.end_segment()
        return []

    def end_segment(self) -> None:
        self.rainy, self.interdicted = False, {}
        self.guerrillas = GuerrillaInterdiction()
        self.gas = GasInterdiction()

    @REGISTRY.reports("MV-18", "MV-25", "MV-41")
    def on_drag(self, board: Board, before: GameState, unit: Unit, origin: str, to: str,
                rolls: tuple[int, ...], *, eligible: bool, step: int | None,
                when: str | None) -> list[Finding]:
        """One logged drag of `unit` (as it stands in `before`) to `to` with the rolls it brought;
        `eligible`: the unit may force march at all (else MV-24 speaks)."""
        if unit.id not in self.interdicted and unit.hex is not None:
            self.gas.count(before, unit, origin)
            self.interdicted[unit.id] = self.gas.interdiction(unit, origin) \
                or air_interdiction(before, unit, self.scenario) \
                or self.guerrillas.interdiction(unit, origin)
        first = self.first_entry(board, before, unit, to, step=step, when=when)
        if not rolls or unit.hex is None or not eligible:
            return first
        self.ambushes.record(board, before, unit, unit.hex, to, rolls, self.scenario, step=step, when=when)
        return first + judge_forced_march_supply(board, before, unit, unit.hex, to, rolls, step=step,
                                                 when=when)

    @REGISTRY.reports("MV-41")
    def first_entry(self, board: Board, before: GameState, unit: Unit, to: str, *, step: int | None,
                    when: str | None) -> list[Finding]:
        """MV-41 (PB 13.6.7.4, optional "First to enter"): (35) the first Italian unit into an
        Ethiopian capital or town is a regular or Black Shirt unit, never an Eritrean colonial or
        a colonial irregular. Always possible: the log does not say the option is played. A hex
        counts as entered once an Italian unit stands in it or the Italian player controls it."""
        if self.scenario != "1935-36" or unit.side != "italian" or unit.kind != "combat" or to in self.entered:
            return []
        place = [board.has_feature(to, f) for f in ("town", "capital")]
        inside = board.in_zone(to, "ethiopia")
        if not any(p is True for p in place) or inside is False:
            return []          # not (known to be) an Ethiopian town or capital
        held = before.control.get(to) == "italian" or any(u.side == "italian" for u in before.at(to))
        self.entered.add(to)
        if held or unit.unit_class not in ("eritrean-colonial-regular", "italian-colonial-irregular"):
            return []
        return [finding("MV-41", Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} ({unit.unit_class.replace('-', ' ')}) is the first Italian unit "
                                f"to enter {hex_label(to, board)}, an Ethiopian town or capital: with the "
                                "optional rule the first must be a regular or Black Shirt unit",
                        evidence={"hex": to, "class": unit.unit_class},
                        depends_on={OPTIONAL_FIRST_TO_ENTER, *unknowns(inside)})]

    def facts(self, unit: Unit) -> dict[str, Any]:
        """The MoveFacts fields this history sets."""
        return {"interdiction": self.interdicted.get(unit.id), "rainy": self.rainy}

    def judged(self, found: list[Finding], unit: Unit, origin: str) -> list[Finding]:
        return self.gas.settle(self.guerrillas.settle(found, unit, origin), unit, origin)

    def moves_over(self, board: Board, state: GameState, finished: set[str]) -> list[Finding]:
        return self.ambushes.settle(board, state, finished)


# ---------------------------------------------------------------------------------------------
# naval movement in the MAP (11.8; PB 13.5.1; PB 14.5.1)

NAVAL_SIDES = {"1935-36": ("italian",), "1940-41": ("allied",)}
"""PB 13.5.1: (35) the Italian player only; PB 14.5.1: (40) the Allied player only."""
NAVAL_DIVISIONS = 1
"""11.8: one division or equivalent (two non-division units; HQs and trucks 1/2) a MAP."""


@dataclass(slots=True)
class NavalLedger:
    """What each side has moved by sea in each MAP (11.8)."""

    carried: dict[tuple[int | None, str], list[Unit]] = field(default_factory=dict)


@REGISTRY.reports("MV-38", "MV-39")
def judge_naval_move(board: Board, state: GameState, unit: Unit, origin: str, box: str | None, *,
                     scenario: str | None, turn: int | None, ledger: NavalLedger,
                     step: int | None, when: str | None) -> list[Finding]:
    """MV-38 and MV-39 for a unit taken from the map onto the turn track in the MAP (`box`: the
    General Records Track box it was put in; `origin`: where it began the MAP).

    MV-38 (11.8; PB 13.5.1; PB 14.5.1): only the side the scenario allows ((35) Italian, (40)
    Allied); from a coastal hex holding a town or capital where the unit began the MAP; onto the
    turn track to arrive on the following turn. MV-39 (11.8 and its example): at most one
    division or equivalent a MAP (RPs do not go on the turn track and are not counted here)."""
    on_track = turn_track_box(board, box)
    if on_track is None or unit.kind in ("air", "marker", "rp") or scenario not in NAVAL_SIDES:
        return []
    out: list[Finding] = []
    subjects = (unit.name,)
    moved = (f"{unit.name} was taken from {hex_label(unit.hex or origin, board)} onto the turn track "
             f"(turn {on_track}) in the MAP of turn {turn}")
    evidence: dict[str, Any] = {"from": origin, "box": box, "arrives": on_track, "turn": turn,
                                "side": unit.side, "scenario": scenario}
    if unit.side not in NAVAL_SIDES[scenario]:
        who, rule = ("Ethiopian", "PB 13.5.1") if scenario == "1935-36" else (side_name(unit.side), "PB 14.5.1")
        return [finding("MV-38", Ruling.PROVEN, step=step, when=when, subjects=subjects,
                        message=f"{moved}: naval movement, which the {who} player may not use in the "
                                f"{scenario} scenario ({rule})", evidence=evidence)]
    if turn is not None and on_track != turn + 1:
        out.append(finding("MV-38", Ruling.PROVEN, step=step, when=when, subjects=subjects,
                           message=f"{moved}: a unit moved by sea arrives as a reinforcement on the "
                                   f"following turn, {turn + 1} (11.8)", evidence=evidence))
    coastal = board.has_feature(origin, "coastal")
    towns = [board.has_feature(origin, f) for f in ("town", "capital")]
    town: bool | Unknown = True if any(t is True for t in towns) else \
        (Unknown(*unknowns(*towns)) if unknowns(*towns) else False)
    if coastal is False or town is False:
        out.append(finding("MV-38", Ruling.PROVEN, step=step, when=when, subjects=subjects,
                           message=f"{moved}, but {hex_label(origin, board)}, where it began the MAP, is "
                                   "not a coastal hex with a town or capital (11.8)", evidence=evidence))
    elif coastal is not True or town is not True:
        out.append(finding("MV-38", Ruling.POSSIBLE, step=step, when=when, subjects=subjects,
                           message=f"{moved}; whether {hex_label(origin, board)} is a coastal hex with a "
                                   "town or capital (11.8) is not in the map data",
                           evidence=evidence, depends_on=unknowns(coastal, town)))
    carried = ledger.carried.setdefault((turn, unit.side or ""), [])
    if any(u.id == unit.id for u in carried):
        return out
    carried.append(unit)
    shares = [division_share(u) for u in carried]
    known = [s for s in shares if s is not None and not isinstance(s, Unknown)]
    unknown_sizes = [s for s in shares if isinstance(s, Unknown)]
    load = sum(known, Fraction(0))
    if load > NAVAL_DIVISIONS or (unknown_sizes and load + Fraction(1, 2) * len(unknown_sizes) > NAVAL_DIVISIONS):
        ruling = Ruling.PROVEN if load > NAVAL_DIVISIONS else Ruling.POSSIBLE
        out.append(finding("MV-39", ruling, step=step, when=when, subjects=tuple(u.name for u in carried),
                           message=f"{moved}: with {', '.join(u.name for u in carried[:-1])} already moved "
                                   f"by sea in this MAP that is {_num(load)} division(s) or more; naval "
                                   f"movement carries one division or equivalent a MAP (11.8)",
                           evidence={**evidence, "units": [u.name for u in carried],
                                     "division_equivalents": str(load)},
                           depends_on=frozenset().union(*(s.data for s in unknown_sizes))))
    return out
