"""Combats as a log shows them, and the CRT arithmetic they are judged with, bound to a game's data.

A VASSAL log never says "this is a combat": a declaration opens one (a chat line, an activation),
and what follows until it closes belongs to it. `OpenCombat` is that open combat: the die rolls
logged while it is open (the first is its roll), the steps each of its units lost as the pieces
show them (a lower Step layer, a counter taken off the map or swapped for a weaker one in its hex,
a Step layer that wrapped round), the defenders revealed and when, the attackers that entered the
target hex. A game decides when a combat opens and closes and what its declaration holds.

Judging the result is the game's (its checks say which rule each finding breaks) from these parts:

* `crt_from_table`: a CRT from `tables.json`, its rows from the table's roll labels and the
  range a modified roll is clamped to (`roll_bounds`) read from them too;
* `strength_total`: factors added, those of halved units halved once as a group (0.5 up);
* `tec_shift`: a TEC combat entry ("1L", "2R", "none") as a column shift; `terrain_shifts`
  the readings of a hex's terrain shift when one feature controls (a town, an amba) and data
  may be missing; `majority_shift`: a shift for more than half the factors attacking across
  a hexside feature (a river);
* `loss_range` / `steps_owed` / `loss_mismatch`: what a side's pieces say it lost, what a
  result owes as far as its units have steps, and whether the two can agree; `cut_to_owed`: the
  losses of units taken off the map with steps left, cut to what their side owed;
* `marked_readings`: which units a hex's markers mark when each marks one unit there and the
  log shows fewer markers than units (Lion of Judah's Gassed markers); `modifier_sums`: every
  total of a list of modifiers any of which may apply;
* `strength_column`: the column of a strength CRT that holds a strength, shifted left;
* `SegmentAttacks`: the attacks of one combat segment or phase, for the rules that limit them
  (a hex attacked once, a unit attacking once, or again where a result lets it);
* `advance_problems`: an advance after combat against the state of the target hex (cleared,
  still held, entered by units that did not attack or may not advance, over a stacking limit).

Every function takes `Unknown` values and keeps the data they rest on, so a check can say which
datum would settle a verdict.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from vlog.engine.combat import CombatTable, halve, level_name, parse_odds
from vlog.engine.dice import parse_range
from vlog.engine.judge import Unknown, at_most, unknowns
from vlog.errors import GameDataError
from vlog.gamedata import Table
from vlog.kit.numbers import plain_number, show_number

__all__ = ["CombatUnit", "OpenCombat", "Reading", "SegmentAttacks", "TerrainControl", "advance_problems", "crt_from_table", "cut_to_owed", "loss_mismatch", "loss_range",
           "majority_shift", "marked_readings", "modifier_sums", "strength_column", "zone_readings", "roll_bounds", "steps_of", "steps_owed", "strength_total", "tec_shift",
           "terrain_row_shifts", "terrain_shifts"]

Reading = tuple[int, frozenset[str], str]
"""One reading of a shift: (shift, the data it relies on, why)."""


class CombatUnit(Protocol):
    """What the kit reads of a game's unit."""

    id: str
    name: str
    counter: str | None
    hex: str | None
    steps: Any
    level: Any


def steps_of(unit: CombatUnit) -> int:
    """A unit's steps, 1 when its data does not say."""
    return unit.steps if isinstance(unit.steps, int) else 1


# ---------------------------------------------------------------------------------------------
# the open combat


@dataclass(slots=True)
class OpenCombat:
    """A combat declared and not yet closed: what the log has shown of it so far."""

    step: int
    when: str | None
    declaration: Any
    """The game's declaration (its `target` is the hex attacked)."""
    side: str | None
    before: Any
    """The position when it was declared (the game's state)."""
    roll: int | None = None
    losses: dict[str, int] = field(default_factory=dict)
    advanced: list[str] = field(default_factory=list)
    phase: Any = None
    """The phase when the attack was declared: the combat is judged against it, not against the
    phase that closes it (advancing the turn tracker closes the last combat)."""
    phase_bound: bool = False
    """Whether that phase was read from the turn tracker (not inferred)."""
    removed: set[str] = field(default_factory=set)
    """Units of the combat taken off the map whole (not swapped for a replacement counter)."""
    raised: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Units whose step level rose in the combat (a Layer wrapped round): id -> (before, after)."""
    revealed: dict[str, tuple[int, Any]] = field(default_factory=dict)
    """Defenders flipped from a hidden side: id -> (step, the unit as flipped)."""
    roll_step: int | None = None
    """The step the combat die was rolled in."""
    rolls: list[tuple[int, int]] = field(default_factory=list)
    """Every die roll while the combat was open: (total, step)."""

    @property
    def target(self) -> str:
        return self.declaration.target

    def note_rolls(self, rolls: Sequence[int], index: int) -> list[int]:
        """Rolls logged in a step while the combat is open: all are remembered, the first one
        while it has none is its roll. Returns the rolls left for other uses."""
        self.rolls.extend((r, index) for r in rolls)
        if self.roll is None and rolls:
            self.roll, self.roll_step = rolls[0], index
            return list(rolls[1:])
        return list(rolls)

    def note_advances(self, moved: Iterable[tuple[Any, Any]], around: Iterable[str]) -> list[Any]:
        """The moves (unit before, unit after) that are the attacking side's units entering the
        target hex from next to it; their ids join `advanced`."""
        around = set(around)
        advancing = [old for old, new in moved if new.hex == self.target and old.side == self.side
                     and old.hex in around]
        self.advanced.extend(old.id for old in advancing)
        return advancing

    def record(self, before: Mapping[str, Any], after: Mapping[str, Any], attackers: Iterable[Any],
               defenders: Iterable[Any], index: int | None = None, *,
               hidden: Callable[[Any], bool] = lambda unit: False) -> None:
        """Steps each unit of the combat lost in one step (units by id before and after it): a
        lower step level; removal from the map (deleted or sent to a box) loses every step; a
        unit swapped for another counter of its name in the same hex in the same step loses the
        difference. A defender that showed a `hidden` side and changed level was revealed."""
        defenders = list(defenders)
        arrived: dict[tuple[str, str | None], Any] = {}
        for uid, new in after.items():
            old = before.get(uid)
            if new.hex is not None and (old is None or old.hex is None):
                arrived.setdefault((new.name, new.hex), new)
                if new.counter:
                    arrived.setdefault((new.counter, new.hex), new)
        for u in [*attackers, *defenders]:
            was = before.get(u.id)
            if was is None or was.hex is None:
                continue
            now = after.get(u.id)
            if now is not None and u in defenders and now.level != was.level and index is not None \
                    and hidden(was):
                self.revealed.setdefault(u.id, (index, now))
            whole = was.steps if isinstance(was.steps, int) else 1
            if now is None or now.hex is None:
                swap = arrived.get((was.name, was.hex)) or (arrived.get((was.counter, was.hex))
                                                             if was.counter else None)
                lost = max(0, whole - swap.steps) if swap is not None and isinstance(swap.steps, int) else whole
                if swap is None:
                    self.removed.add(u.id)
            elif isinstance(was.steps, int) and isinstance(now.steps, int):
                lost = max(0, was.steps - now.steps)
                if now.steps > was.steps:                           # the Layer wrapped round
                    first = self.raised.get(u.id, (was.steps, now.steps))[0]
                    self.raised[u.id] = (first, now.steps)
            else:
                lost = 0
            if lost:
                self.losses[u.id] = self.losses.get(u.id, 0) + lost


@dataclass(slots=True)
class SegmentAttacks:
    """The attacks declared in one combat segment (or phase): the hexes attacked, each unit's
    attacks (target, step) in order, and the units a result lets attack again (Lion of Judah
    12.11.1: those that advanced on an R). A game starts a new one when the segment ends."""

    hexes: set[str] = field(default_factory=set)
    by_unit: dict[str, list[tuple[str, int | None]]] = field(default_factory=dict)
    may_attack_again: set[str] = field(default_factory=set)

    def hex_attacked(self, target: str) -> bool:
        return target in self.hexes

    def times(self, unit_id: str) -> int:
        return len(self.by_unit.get(unit_id, ()))

    def first(self, unit_id: str) -> tuple[str, int | None] | None:
        """The unit's first attack of the segment (target, step), None when it has not attacked."""
        attacks = self.by_unit.get(unit_id)
        return attacks[0] if attacks else None

    def attacking_again(self, unit_ids: Iterable[str], most: int = 2) -> list[str]:
        """The units that attacked already in the segment without leave to attack again, or
        `most` times."""
        return [i for i in unit_ids if self.times(i) >= 1
                and (i not in self.may_attack_again or self.times(i) >= most)]

    def note(self, target: str, unit_ids: Iterable[str], step: int | None = None) -> None:
        self.hexes.add(target)
        for i in unit_ids:
            self.by_unit.setdefault(i, []).append((target, step))


# ---------------------------------------------------------------------------------------------
# tables


def roll_bounds(table: Table) -> tuple[int, int] | None:
    """The lowest and highest row of a table's `roll` axis (a modified roll is clamped to
    them), None when the data does not list the rows."""
    rows = table.labels("roll").value
    if not rows:
        return None
    ranges = [parse_range(str(r), where=f"{table.id} roll {r!r}") for r in rows]
    highs = [r.high for r in ranges]
    if None in highs:
        raise GameDataError(f"tables.json {table.id}: an open-ended roll row has no highest roll")
    return min(r.low for r in ranges), max(h for h in highs if h is not None)


def crt_from_table(table: Table, *, name: str | None = None, line: str | None = None,
                   column: Callable[[str], Any] = parse_odds,
                   column_label: Callable[[Any], str] = level_name,
                   rows: Sequence[str] | None = None) -> tuple[CombatTable[Any], list[Any] | None]:
    """A CRT read from `tables.json`: (table, columns), `columns` None when the data does not
    list them (the table then has the columns its known cells name). `line`: the terrain line
    of a table with one more axis before the columns (Island of Death); `column` reads a column
    label (odds by default, `int` for strength columns); `rows` the roll rows when the data
    lacks them."""
    labels = table.labels("column").value
    rows = table.labels("roll").value or rows
    if not rows:
        raise GameDataError(f"tables.json {table.id}: the roll rows are unknown")
    cells: dict[tuple[Any, str], Any] = {}
    for key, datum in table.listed_cells().items():
        if line is not None:
            if key[0] != line:
                continue
            key = key[1:]
        col, roll = key
        cells[(column(col), roll)] = datum.value
    columns = [column(c) for c in labels] if labels else sorted({c for c, _ in cells})
    shown = name or (table["name"].value if "name" in table else table.id)
    return CombatTable.build(shown, columns, rows, cells, column_label), (columns if labels else None)


def strength_column(labels: Sequence[str] | None, strength: int, shift: int = 0) -> str | None:
    """The column of a strength CRT that holds `strength` (the highest column not above it),
    moved `shift` columns left; None when that is off the table. With no column labels in the
    data, the strength is its own column when not shifted (None otherwise)."""
    if labels is None:
        return str(strength) if shift == 0 else None
    columns = sorted(int(c) for c in labels)
    index = sum(1 for c in columns if c <= strength) - 1 - shift
    return str(columns[index]) if index >= 0 else None


# ---------------------------------------------------------------------------------------------
# strengths and shifts


def strength_total(units: Iterable[CombatUnit], halved: frozenset[str],
                   factor: Callable[[Any], Any]) -> tuple[Any, dict[str, Any]]:
    """Add the factors of the units to halve, halve once (0.5 up), add the rest. Returns the
    total and each unit's factor as evidence shows it (None when unknown)."""
    full: Any = 0
    half: Any = 0
    shown: dict[str, Any] = {}
    for u in units:
        value = factor(u)
        if value is None:
            value = 0
        shown[u.name] = None if isinstance(value, Unknown) else plain_number(value)
        if u.id in halved:
            half = half + value
        else:
            full = full + value
    halved_total = halve(half) if (isinstance(half, Unknown) or half) else 0
    return full + halved_total, shown


def tec_shift(value: Any) -> Any:
    """A TEC combat entry as a column shift: '1L' -> -1, '2R' -> +2, 'none' -> 0; an entry of
    another kind ('defense doubled') is Unknown naming it."""
    if isinstance(value, Unknown):
        return value
    if isinstance(value, int):
        return value
    text = str(value).strip().upper()
    if text in ("NONE", "0", "-", ""):
        return 0
    if text.endswith("L") and text[:-1].isdigit():
        return -int(text[:-1])
    if text.endswith("R") and text[:-1].isdigit():
        return int(text[:-1])
    return Unknown(f"TEC combat entry {value!r}")


@dataclass(frozen=True, slots=True)
class TerrainControl:
    """A feature whose shift replaces the hex's other terrain when present (Lion of Judah errata
    12.8: a town, city or amba controls): `present` one answer per map feature that counts."""

    why: str
    present: tuple[bool | Unknown, ...]
    shift: Any


def _add(out: list[Reading], shift: Any, deps: frozenset[str], why: str, possible: Sequence[int]) -> None:
    if isinstance(shift, Unknown):
        out.extend((s, deps | shift.data, f"{why} ({s})") for s in possible)
    else:
        out.append((shift, deps, why))


def terrain_shifts(controls: Sequence[TerrainControl], otherwise: Callable[[frozenset[str]], list[Reading]],
                   *, possible: Sequence[int] = (0, -1, -2)) -> list[Reading]:
    """The readings of one hex's terrain shift (shifts are not cumulative): the first control
    present gives the shift; a control the data may or may not show adds its reading and the
    search goes on; with none present `otherwise(data relied on)` gives the rest. An unknown
    shift is each of `possible`."""
    out: list[Reading] = []
    deps: frozenset[str] = frozenset()
    for control in controls:
        if any(p is True for p in control.present):
            _add(out, control.shift, deps, control.why, possible)
            return out
        missing = unknowns(*control.present)
        if missing:
            _add(out, control.shift, deps | missing, control.why, possible)
            deps = deps | missing
    return out + otherwise(deps)


def terrain_row_shifts(terrain: Any, shift_of: Callable[[str], Any], deps: frozenset[str], *,
                       possible: Sequence[int] = (0, -1, -2),
                       unknown_terrain: Sequence[int] = (0, -1)) -> list[Reading]:
    """The shift of the hex's own terrain row (`shift_of(terrain)`), or each of
    `unknown_terrain` when the map data lacks the terrain."""
    if isinstance(terrain, Unknown):
        return [(s, deps | terrain.data, f"terrain unknown ({s})") for s in unknown_terrain]
    out: list[Reading] = []
    _add(out, shift_of(terrain), deps, terrain, possible)
    return out


def majority_shift(units: Iterable[CombatUnit], factors: Mapping[str, Any],
                   across: Callable[[CombatUnit], bool | Unknown], *, feature: str,
                   shift: int = -1, shown: str = "1L") -> list[Reading]:
    """`shift` when more than half the factors attack across a hexside `feature` (Lion of Judah
    12.8.1: a river, 1L); both readings when the map data or a factor leaves it open."""
    across_total: Any = 0
    total: Any = 0
    deps: set[str] = set()
    for u in units:
        value = factors.get(u.id, 0)
        total = total + value
        if u.hex is None:
            continue
        crossed = across(u)
        if crossed is True:
            across_total = across_total + value
        elif isinstance(crossed, Unknown):
            deps |= crossed.data
    if isinstance(across_total, Unknown) or isinstance(total, Unknown):
        data = frozenset(deps) | unknowns(across_total, total)
        return [(0, data, f"{feature} shift unknown (0)"), (shift, data, f"{feature} shift unknown ({shown})")]
    counted = f"{feature}: {plain_number(across_total)} of {plain_number(total)} factors across"
    if across_total * 2 > total:
        return [(shift, frozenset(), counted)]
    if deps:
        return [(0, frozenset(deps), f"{feature} (0)"), (shift, frozenset(deps), f"{feature} ({shown})")]
    return [(0, frozenset(), counted)]


def marked_readings(hexes: Iterable[tuple[int, Sequence[str], int]], cap: int = 256
                    ) -> tuple[frozenset[str], ...] | None:
    """Each possible set of marked units of a combat when a marker in a hex marks one unit there.
    `hexes`: per hex, (markers, the combat's unit ids there, the other units there a marker could
    mark); with as many markers as units all are marked, with fewer every choice is a reading
    (at most `cap` per hex and in all). None when no hex has a marker."""
    per_hex: list[list[frozenset[str]]] = []
    for markers, mine, others in hexes:
        if not markers:
            continue
        if markers >= len(mine) + others:
            per_hex.append([frozenset(mine)])
            continue
        ks = range(max(0, markers - others), min(markers, len(mine)) + 1)
        subsets = itertools.chain.from_iterable(itertools.combinations(mine, k) for k in ks)
        per_hex.append([frozenset(c) for c in itertools.islice(subsets, cap)])
    if not per_hex:
        return None
    combos = itertools.islice(itertools.product(*per_hex), cap)
    return tuple(frozenset().union(*combo) for combo in combos)


def zone_readings(inside: Sequence[bool | Unknown], modifier: int, why: str) -> list[Reading]:
    """The readings of a modifier that applies when a hex is in any of some zones (`inside`, one
    answer per zone): it alone when one answer is True, none (0, "") when all are False, both
    (none first) resting on the data an Unknown answer names otherwise."""
    if any(i is True for i in inside):
        return [(modifier, frozenset(), why)]
    if all(i is False for i in inside):
        return [(0, frozenset(), "")]
    deps = unknowns(*inside)
    return [(0, deps, ""), (modifier, deps, why)]


def modifier_sums(modifiers: Iterable[int]) -> list[int]:
    """Every total of `modifiers` when any of them may apply (0 when none does), in order."""
    sums = {0}
    for m in modifiers:
        sums |= {x + m for x in sums}
    return sorted(sums)


# ---------------------------------------------------------------------------------------------
# losses


def loss_range(takers: Iterable[CombatUnit], losses: Mapping[str, int], *, removed: Iterable[str] = (),
               raised: Mapping[str, tuple[int, int]] | None = None) -> tuple[int, int]:
    """The steps a side may have meant to lose, as its pieces show: a unit taken off the map
    lost from one step to all it had (whether the removal was due is another question), a unit
    whose Step layer rose lost from one step to all it had (the layer wrapped round)."""
    removed = set(removed)
    raised = raised or {}
    low = high = 0
    for u in takers:
        if u.id in raised:
            low, high = low + 1, high + raised[u.id][0]
        elif u.id in removed and steps_of(u) > 1:
            low, high = low + 1, high + losses.get(u.id, steps_of(u))
        else:
            low, high = low + losses.get(u.id, 0), high + losses.get(u.id, 0)
    return low, high


def steps_owed(due: int, takers: Iterable[CombatUnit]) -> int:
    """The steps a result owes a side, as far as its units have steps."""
    return min(due, sum(steps_of(u) for u in takers))


def loss_mismatch(takers: Sequence[CombatUnit], losses: Mapping[str, int], due: int, *,
                  removed: Iterable[str] = (), raised: Mapping[str, tuple[int, int]] | None = None) -> int | None:
    """The steps the side's pieces show taken when no reading of them (`loss_range`) is `due`
    steps; None when one is."""
    low, high = loss_range(takers, losses, removed=removed, raised=raised)
    return None if low <= due <= high else sum(losses.get(u.id, 0) for u in takers)


def cut_to_owed(removed: Iterable[CombatUnit], losses: Mapping[str, int], excess: int
                ) -> tuple[dict[str, int], list[CombatUnit]]:
    """Losses with `excess` steps taken back from units removed from the map (each keeps its
    removal as at least one step lost), in order: (the losses, the units whose loss was cut).
    A side that owed fewer steps than a removal took meant the steps it owed."""
    adjusted = dict(losses)
    cut_units = []
    for u in removed:
        cut = min(excess, losses.get(u.id, steps_of(u)) - 1)
        if cut <= 0:
            continue
        excess -= cut
        adjusted[u.id] = losses.get(u.id, steps_of(u)) - cut
        cut_units.append(u)
    return adjusted, cut_units


# ---------------------------------------------------------------------------------------------
# advance after combat


def advance_problems(attackers: Sequence[CombatUnit], defenders: Sequence[CombatUnit], advanced: Sequence[str], *,
                     attacker_losses: Mapping[str, int], defender_losses: Mapping[str, int],
                     removed: Iterable[str] = (), raised: Iterable[str] = (), gone: Iterable[str] = (),
                     defenseless: Callable[[CombatUnit], bool] = lambda u: False,
                     barred: Callable[[CombatUnit], bool] = lambda u: False, barred_label: str = "",
                     stays: Callable[[CombatUnit], bool] | None = None,
                     weight: Callable[[CombatUnit], Any] | None = None, limit: Any = None,
                     weight_name: str = "divisions") -> list[str]:
    """What is wrong with an advance after combat (`advanced`: ids of the units that entered the
    target hex). The hex is cleared when every defender left it (removed, `gone` without loss,
    or lost all its steps); defenseless defenders that stay neither forbid an advance nor clear
    the hex. Wrong: units that did not attack, units `barred` from advancing (named with
    `barred_label`), no advance by a surviving attacker into a cleared hex (attackers removed,
    `raised` or that `stays` (by default `barred`) are no survivors), an advance into a hex
    still held, and, with `weight` and `limit`, more `weight_name` advancing than the limit."""
    stays = stays or barred
    removed, raised, gone = set(removed), set(raised), set(gone)
    left = [u.id in removed or u.id in gone or defender_losses.get(u.id, 0) >= max(steps_of(u), 1)
            for u in defenders]
    cleared = all(left)
    eliminated = all(g or defenseless(u) for g, u in zip(left, defenders))
    by_id = {u.id: u for u in attackers}
    problems = []
    movers = [by_id.get(i) for i in advanced]
    strangers = [i for i in advanced if i not in by_id]
    if strangers:
        problems.append(f"{len(strangers)} unit(s) that did not attack advanced")
    shut_out = [u.name for u in movers if u is not None and barred(u)]
    if shut_out:
        problems.append(f"{barred_label}{' ' if barred_label else ''}{', '.join(shut_out)} advanced")
    survivors = [u for u in attackers if attacker_losses.get(u.id, 0) < steps_of(u) and not stays(u)
                 and u.id not in removed and u.id not in raised]
    if cleared and defenders and survivors and not advanced:
        problems.append("no attacking unit advanced into the cleared hex")
    if advanced and not eliminated:
        problems.append("units advanced into a hex still held by the defender")
    if weight is not None and advanced:
        total: Any = 0
        for u in movers:
            if u is not None:
                w = weight(u)
                total = total + (w if w is not None else 0)
        if at_most(total, limit).false:
            problems.append(f"{show_number(total)} {weight_name} advanced, over the hex's limit of "
                            f"{show_number(limit)}")
    return problems
