"""What the VP tally needs from the log's history (VPHistory: leaders and Italian steps lost,
events announced, attacks made, air markers lost, the IPL), and the General Records Track markers
that show some of it: (35) where they stand when play begins (SU-03) and the eliminated steps
marker when the turn track moves on (VC-02). checks/victory.py tallies and judges the claims.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.state import changed_ids
from vlog.kit.losses import StepLossHistory
from vlog.kit.steps import in_order
from vlog.kit.tracks import highest_box

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData
    from vlog.games.lion_of_judah.board import Board
    from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["BOMBING_MARKER", "STEPS_MARKER", "VPHistory", "grt_marker", "highest_grt_box", "judge_start_markers_1935",
           "judge_steps_marker", "steps_lost_so_far", "track_value", "with_event_markers"]
BOMBING_MARKER = "it-bombing-attacks"
"""PB 13.3.1, 13.6.5.1: the Italian bombing attacks marker on the GRT (flipped when Event A4 costs a VP)."""
STEPS_MARKER = "it-eliminated-steps"
"""PB 13.3.1, 13.4.4: the Italian eliminated steps marker on the GRT."""
_EVENT = re.compile(r"\bevent\s+(?P<id>[A-D](?:10|[1-9]))\b", re.IGNORECASE)
_IPL = re.compile(r"\bIPL\s*(?:is\s+|at\s+|=\s*|:\s*)?(?P<n>\d{1,2})\b", re.IGNORECASE)
_GREAT_OFFENSIVE = re.compile(r"\bgreat\s+offensive\b", re.IGNORECASE)


@dataclass(slots=True)
class VPHistory:
    """What the VP tally needs from the log's history, gathered step by step.

    Conventions (as players report them in PBEM): an event drawn is announced in chat as
    ``Event A4`` (the event's id, with or without its name, PB 13.7/14.7); a Great Offensive is
    announced in chat naming it ("Great Offensive on the Northern Front", PB 13.6.2.4); an air
    marker lost to a delayed return on the last turn (10.1.4) is deleted from the table.
    Event markers taken out of the event cup are drawn too; the IPL each turn begins at is the
    GRT box of the IPL marker before the first step of that turn (PB 14.4.1, 14.6.3), or, where
    the table has no IPL marker, the level the players report in chat that turn ("IPL 5");
    turns whose IPL the log does not show leave their VP open.
    """

    turns_seen: set[int] = field(default_factory=set)
    last_turn: int | None = None
    """The highest of `turns_seen` (asked at every step)."""
    first_turn: int | None = None
    gaps: list[tuple[int, int]] = field(default_factory=list)
    """Turn-track jumps (from, to) that skip whole turns: the log does not show those turns."""
    italian_losses: StepLossHistory = field(default_factory=lambda: StepLossHistory(
        "italian", counts_for_vp, whole_steps, lambda u: u.unit_type == "breakdown"))
    """13.4.4: Italian steps lost (2.4 break-downs, 2.5 consolidations and 2.3.9 replacement
    counters recognised, vlog/kit/losses.py)."""
    leaders_seen: dict[str, str] = field(default_factory=dict)
    """Leader counter -> name, for leaders seen on the map in this log."""
    leaders_left: dict[str, tuple[int, bool]] = field(default_factory=dict)
    """Leader counter -> (step it left the map, deleted from the table (True) or sent to a box)."""
    air_deleted: list[tuple[int, int | None, str, str | None]] = field(default_factory=list)
    """(step, turn, name, side) of air markers deleted from the table."""
    air_on_enemies: list[tuple[int, int | None, str, str]] = field(default_factory=list)
    """(step, turn, marker, hex) of Italian air markers placed on hexes holding Ethiopian units."""
    events: dict[int, tuple[str, int]] = field(default_factory=dict)
    """Turn -> (event id, step) announced."""
    attacks: dict[tuple[str, int], int] = field(default_factory=dict)
    """(side, turn) -> attacks declared."""
    pressure: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Turn -> (Italian attacks that count for Event A1, attacks that may count)."""
    great_offensive: tuple[int, int] | None = None
    """(turn, step) of the Great Offensive announced."""
    markers_at_start: dict[str, tuple[int | None, str | None]] = field(default_factory=dict)
    """GRT marker counter -> (box number, face) where the log first shows it (PB 13.3.1)."""
    steps_marker_reported: bool = False
    start_markers_judged: bool = False
    ipl_at_start: dict[int, str | int] = field(default_factory=dict)
    """Turn -> the IPL it began at (the marker's GRT box) or "high"/"medium"/"low" (PB 14.6.3)."""
    last_after: object = field(default=None, repr=False, compare=False)
    """The units (a state's dict) of the last step's position after: when the next step starts
    from it, only the units that step changed need walking (the others were walked before)."""
    walked: object = field(default=None, repr=False, compare=False)
    """The last units (a state's dict) walked as a step's position before: a step that changed
    no unit has the same dict before and after, and all it adds is what that walk added."""

    def note_turn(self, turn: int | None) -> None:
        if turn is None:
            return
        if self.first_turn is None:
            self.first_turn = turn
        elif self.last_turn is not None and turn > self.last_turn + 1:
            self.gaps.append((self.last_turn, turn))
        self.turns_seen.add(turn)
        if self.last_turn is None or turn > self.last_turn:
            self.last_turn = turn

    def note_attack(self, side: str | None, turn: int | None, *, for_a1: bool | None = True) -> None:
        """An attack declared; `for_a1`: whether it counts for Event A1 (an Italian attack on a
        Northern Front hex by a division or equivalent), None when the data cannot say."""
        if side is not None and turn is not None:
            self.attacks[(side, turn)] = self.attacks.get((side, turn), 0) + 1
            if side == "italian" and for_a1 is not False:
                sure, maybe = self.pressure.get(turn, (0, 0))
                self.pressure[turn] = (sure + 1, maybe) if for_a1 else (sure, maybe + 1)

    def note_chat(self, text: str, *, step: int, turn: int | None) -> None:
        if turn is None:
            return
        event = _EVENT.search(text)
        if event is not None and turn not in self.events:
            self.events[turn] = (event.group("id").upper(), step)
        ipl = _IPL.search(text)
        if ipl is not None and turn not in self.ipl_at_start:
            self.ipl_at_start[turn] = int(ipl.group("n"))
        if _GREAT_OFFENSIVE.search(text) and self.great_offensive is None:
            self.great_offensive = (turn, step)

    def _markers(self, before: "GameState", after: "GameState", *, step: int, turn: int | None) -> None:
        """Event markers leaving the event cup are drawn (6.2); the IPL marker's GRT box when a
        turn is first seen is the IPL that turn begins at (PB 14.4.1)."""
        if turn is None:
            return
        if turn not in self.events:
            for old, new in _markers_changed(before, after):
                event = old.properties.get("event") if old.properties else None
                if not isinstance(event, str) or old.box != "event-cup":
                    continue
                if new is None or new.box != "event-cup":
                    self.events[turn] = (event.upper(), step)
                    break
        if turn not in self.ipl_at_start and turn not in self.turns_seen:
            value = track_value(before, "it-ipl")
            if value is not None:
                self.ipl_at_start[turn] = value

    def observe(self, before: "GameState", after: "GameState", *, step: int, turn: int | None,
                setting_up: bool = False) -> None:
        """Leaders leaving the map, air markers deleted or placed on enemies, Italian steps lost
        (13.4.4): a lower step level or a unit taken off the map, except a division breaking
        down (2.4: a breakdown unit appears in its hex in the same step), a breakdown unit
        consolidating (2.5: a unit in its hex gains steps) and a 3/4-step unit swapped for its
        replacement counter (2.3.9: the difference only). `setting_up`: the turn track still
        shows the scenario's start, where pieces are placed and broken down, not lost."""
        self._markers(before, after, step=step, turn=turn)
        same = before.units is after.units      # a step that changed no unit (`build_state`)
        if same and before.units is self.walked:
            return                              # every walk below adds nothing more
        for counter in (BOMBING_MARKER, STEPS_MARKER):
            if counter not in self.markers_at_start:
                marker = grt_marker(before, counter)
                if marker is not None:
                    self.markers_at_start[counter] = (track_value(before, counter), marker.level)
        chained = before.units is self.last_after
        self.walked, self.last_after = before.units, after.units
        arrived = [u for uid, u in after.units.items() if u.hex is not None
                   and (uid not in before.units or before.units[uid].hex is None)] if not same else []
        changed = changed_ids(before, after) if chained else list(before.units)
        for uid in changed:                     # the others were walked as they stand (`last_after`)
            old, new = before.units[uid], after.units.get(uid)
            on_map_after = new is not None and new.hex is not None
            if old.kind == "leader" and old.side in ("ethiopian", "allied") and old.counter:
                if old.hex is not None:
                    self.leaders_seen.setdefault(old.counter, old.name)
                    if not on_map_after:
                        self.leaders_left[old.counter] = (step, new is None)
            if old.kind == "air" and new is None:
                self.air_deleted.append((step, turn, old.name, old.side))
        if same:
            return
        if not setting_up:
            self.italian_losses.observe(before.units, after.units, step=step, turn=turn, arrived=arrived)
        for unit in arrived:
            if unit.kind == "leader" and unit.counter:
                self.leaders_seen.setdefault(unit.counter, unit.name)
                self.leaders_left.pop(unit.counter, None)
            if unit.kind == "air" and unit.side == "italian" and unit.hex is not None \
                    and any(u.side == "ethiopian" for u in before.at(unit.hex)):
                self.air_on_enemies.append((step, turn, unit.name, unit.hex))
        for uid in in_order(changed, after.units):   # moved from one hex onto an enemy stack
            old, new = before.units.get(uid), after.units[uid]
            if new.kind == "air" and new.side == "italian" and new.hex is not None and old is not None \
                    and old.hex is not None and old.hex != new.hex \
                    and any(u.side == "ethiopian" for u in before.at(new.hex)):
                self.air_on_enemies.append((step, turn, new.name, new.hex))

    @property
    def italian_steps_lost(self) -> list[dict[str, object]]:
        return self.italian_losses.entries

    def covers(self, first: int, last: int) -> bool:
        """Whether the log shows every turn from `first` to `last` (began by `first`, no jump)."""
        if self.first_turn is None or self.first_turn > first:
            return False
        return not any(a < last and b > first for a, b in self.gaps)

    def turns_not_shown(self, first: int, last: int) -> list[int]:
        return [t for t in range(first, last + 1) if t not in self.turns_seen]


def counts_for_vp(unit: "Unit") -> bool:
    """13.4.4: combat units and HQs lose VP steps; trucks, colonial irregulars, markers do not."""
    return unit.kind in ("combat", "hq") and unit.unit_class != "italian-colonial-irregular" \
        and unit.unit_type != "marker" and not (unit.kind == "combat" and unit.defense is None)


def whole_steps(unit: "Unit") -> int | None:
    """The steps a unit taken off the map loses: an HQ counts one (13.4.4)."""
    return 1 if unit.kind == "hq" else (unit.steps if isinstance(unit.steps, int) else None)


def _markers_changed(before: "GameState", after: "GameState") -> list[tuple["Unit", "Unit | None"]]:
    """(unit before, unit after or None) for the units and event markers of `before` that
    `after` holds as another unit or not at all, in `with_event_markers(before)`'s order: a
    marker read from an unchanged piece is the same object after (`changed_ids`), so the rest
    need not be walked. A state's units and event markers never share an id (`build_state`)."""
    events_before = getattr(before, "events", None) or {}
    events_after = getattr(after, "events", None) or {}
    units_after = after.units

    def now(uid: str) -> "Unit | None":
        return events_after[uid] if uid in events_after else units_after.get(uid)

    out = [(before.units[uid], now(uid)) for uid in changed_ids(before, after)]
    if events_before is not events_after:          # the same markers: none changed
        out += [(old, new) for old, new in ((old, now(uid)) for uid, old in events_before.items()) if new is not old]
    return out


def with_event_markers(state: "GameState") -> dict[str, "Unit"]:
    """The state's units and its event markers (kept apart from units where the state has them)."""
    return {**state.units, **(getattr(state, "events", None) or {})}
_GRT_BOX = re.compile(r"grt-(?P<n>\d+)")


def track_value(state: "GameState", counter: str) -> int | None:
    """The number of the General Records Track box a marker stands in (None when it is not on the
    track or not on the table)."""
    for unit in state.units.values():
        if unit.counter == counter and unit.box is not None:
            match = _GRT_BOX.fullmatch(unit.box)
            if match:
                return int(match.group("n"))
    return None


def grt_marker(state: "GameState", counter: str) -> "Unit | None":
    return next((u for u in state.units.values() if u.counter == counter), None)


def steps_lost_so_far(history: VPHistory) -> int | None:
    """The Italian steps the eliminated steps marker should show now: its first value (0 at the
    start of the scenario) plus the steps the log shows lost since; None when not known."""
    if history.covers(1, 1):
        start: int | None = 0
    else:
        start = history.markers_at_start.get(STEPS_MARKER, (None, None))[0]
    lost = [e["steps"] for e in history.italian_steps_lost]
    if start is None or not all(isinstance(s, int) for s in lost):
        return None
    return start + sum(int(s) for s in lost)   # type: ignore[arg-type]


def highest_grt_box(board: "Board") -> int | None:
    return highest_box(board.data, "grt")


@REGISTRY.reports("VC-02")
def judge_steps_marker(board: "Board", state: "GameState", history: VPHistory, *, turn: int,
                       step: int | None, when: str | None) -> list[Finding]:
    """VC-02 (PB 13.4.4): when a turn ends, the eliminated steps marker shows every Italian step
    lost so far (replacements do not lower it). Judged once, when the log shows the count from
    the start of the scenario or from the marker's first place, and the count fits on the track."""
    marker = grt_marker(state, STEPS_MARKER)
    expected = steps_lost_so_far(history)
    top = highest_grt_box(board)
    if history.steps_marker_reported or marker is None or expected is None or top is None or expected > top:
        return []
    shown = track_value(state, STEPS_MARKER)
    if shown == expected:
        return []
    history.steps_marker_reported = True
    where = f"box {shown}" if shown is not None else "no box of the General Records Track"
    return [finding("VC-02", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                    message=f"the {marker.name} marker shows {where} at the end of turn {turn}; the log "
                            f"shows {expected} Italian step{'s' if expected != 1 else ''} lost so far "
                            "(PB 13.4.4: every step lost is recorded, replacements do not lower it)",
                    evidence={"marker": STEPS_MARKER, "shown": shown, "expected": expected,
                              "losses": [dict(e) for e in history.italian_steps_lost]})]


def _air_start_boxes(data: "GameData | None") -> dict[str, tuple[str, str]]:
    """Air marker counter -> (its starting box, the setup entry's words), from the 1935-36 setup
    (PB 13.3.3: 7 St in the Southern Front air marker box, the III Br in the Northern Front's)."""
    if data is None:
        return {}
    try:
        setup = data.scenario("1935-36")["setup"]
    except KeyError:
        return {}
    out: dict[str, tuple[str, str]] = {}
    counters = set(data.counter_ids)
    for entry in setup:
        box = entry["box"].value if "box" in entry else None
        units = entry["units"].value if "units" in entry else None
        if not isinstance(box, str) or not units:
            continue
        for counter in units:
            if counter in counters and "type" in data.counter(counter) \
                    and data.counter(counter)["type"].value == "air":
                out[counter] = (box, str(entry["what"].value if "what" in entry else counter))
    return out


@REGISTRY.reports("SU-03")
def judge_start_markers_1935(state: "GameState", *, step: int | None, when: str | None,
                             data: "GameData | None" = None) -> list[Finding]:
    """SU-03 (PB 13.3.1, 13.3.3): the 1935-36 scenario starts with the Italian bombing attacks
    and eliminated steps markers in box 0 of the General Records Track, on their front, and the
    Italian air markers in their fronts' air marker boxes (markers not on the table are not
    judged; the RPs in the storage boxes are not judged here)."""
    out: list[Finding] = []
    starts = _air_start_boxes(data)
    for unit in state.units.values():
        start = starts.get(unit.counter or "")
        if unit.kind != "air" or start is None or unit.box == start[0]:
            continue
        where = f"hex {unit.hex}" if unit.hex is not None else (f"the {unit.box} box" if unit.box else "off the boxes")
        out.append(finding("SU-03", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"air marker {unit.name} starts in {where}; the 1935-36 scenario starts "
                                   f"with it in its box ({start[1]}: {start[0]}, PB 13.3.3)",
                           evidence={"marker": unit.counter, "box": unit.box, "hex": unit.hex,
                                     "expected_box": start[0]}))
    for counter in (BOMBING_MARKER, STEPS_MARKER):
        marker = grt_marker(state, counter)
        if marker is None:
            continue
        shown = track_value(state, counter)
        flipped = marker.level not in (None, "front")
        if shown == 0 and not flipped:
            continue
        where = f"GRT box {shown}" if shown is not None else "no box of the General Records Track"
        out.append(finding("SU-03", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                           message=f"the {marker.name} marker starts in {where}"
                                   f"{' on its reverse' if flipped else ''}; the 1935-36 scenario starts "
                                   "with it in box 0 of the General Records Track (PB 13.3.1)",
                           evidence={"marker": counter, "shown": shown, "expected": 0, "box": marker.box,
                                     "face": marker.level}))
    return out
