"""Eliminated HQs and their return (16.81, 16.82).

An HQ is eliminated when its piece leaves the map or a wave box in play (deleted, or put on the
Turn Record Track; coastal fire on a Second Wave box, 16.56). It comes back when it appears
again anywhere but on the Turn Record Track (whose one box in the data does not say which day's
box it is in: the day is read from when the piece comes back). Judged at its return (SPU-16):

* the Allied HQ never returns (16.81);
* an Axis HQ eliminated on or after the scenario's `hq_no_return_from` day (2 July in the
  Introductory Scenario, 7 July in Operation Hercules; scenarios.json) never returns;
* otherwise it returns in the Initial Segment of the fourth day after the day it fell (16.82),
  not before and in no other phase (a later day is not judged: the piece may be moved late);
* the 4th or 20th Division HQ returns to the Follow-up box of its division's beach zone (the
  zone the division's units were first seen in, checks/landings.py), any other to the
  Disbandment Box.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.ledger import Ledger
from vlog.kit.steps import BoxMoved, Placed, Removed

from vlog.games.island_of_death.checks.landings import DIVISIONS, WAVE_BOXES
from vlog.games.island_of_death.checks.weather import day_of
from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView

TRACK = "turn-record-track"
RETURN_AFTER = 4
"""16.82: the box of the fourth day after the current day."""


class Headquarters(Ledger):
    """HQ counter -> (the step, turn and day it was eliminated): a counter, as a piece deleted
    and added again from the palette is another piece of the same counter."""

    def __init__(self) -> None:
        self.fallen: dict[str, tuple[int | None, int, str]] = {}


def days(phase: Any) -> list[str]:
    """The scenario's days in order ('29 June', '30 June' ...), from the turn labels."""
    out: list[str] = []
    for turn in sorted(phase.sequence.labels):
        day = phase.sequence.labels[turn].rsplit(" ", 1)[0]
        if day not in out:
            out.append(day)
    return out


def _fall(game: "IslandOfDeath", unit: "Unit", step: int | None) -> None:
    phase = game.phase
    if unit.kind == "hq" and phase is not None and unit.counter not in game.headquarters.fallen:
        game.headquarters.fallen[unit.counter] = (step, phase.turn, day_of(phase) or "")


@REGISTRY.check("SPU-16", event=Removed)
def note_hq_off_map(game: "IslandOfDeath", event: Removed, view: "StepView") -> list["Finding"]:
    _fall(game, event.unit, event.step)
    return []


@REGISTRY.check("SPU-16", event=BoxMoved)
def judge_hq_box(game: "IslandOfDeath", event: BoxMoved, view: "StepView") -> list["Finding"]:
    """An HQ leaving a wave box for the track or the bin fell; one coming into a box may return."""
    before, after = event.before, event.after
    if after.kind != "hq":
        return []
    if before is not None and before.box is not None and game.box_type(before.box) in WAVE_BOXES \
            and (after.box is None or after.box == TRACK):
        _fall(game, before, event.step)
        return []
    if after.box is None or after.box == TRACK:
        return []
    return _judge_return(game, after, event.step)


@REGISTRY.check("SPU-16", event=Placed)
def judge_hq_back_on_map(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """An HQ put on the map (from a box or the palette)."""
    return _judge_return(game, event.unit, event.step) if event.unit.kind == "hq" else []


def _judge_return(game: "IslandOfDeath", unit: "Unit", step: int | None) -> list["Finding"]:
    ledger, phase = game.headquarters, game.phase
    fallen = ledger.fallen.pop(unit.counter, None)
    if fallen is None or phase is None:
        return []
    fell_step, fell_turn, fell_day = fallen
    order = days(phase)
    place = unit.hex or game.box_name(unit.box or "")
    evidence = {"unit": unit.counter, "to": unit.hex or unit.box, "eliminated_step": fell_step, "eliminated_day": fell_day,
                "day": day_of(phase), "phase": phase.name}

    def finding(message: str, more: dict | None = None) -> list["Finding"]:
        return [game.finding("SPU-16", Ruling.PROVEN, step=step,
                             message=f"{unit.label()}, eliminated on {fell_day} (step {fell_step}), came back to "
                                     f"{place} on {day_of(phase)}: {message}",
                             subjects=(unit.name,), evidence={**evidence, **(more or {})})]

    if unit.side == "allied":
        return finding("the Allied HQ is never replaced (16.81)")
    record = game.data.scenario(game.scenario) if game.scenario else None
    props = record["properties"] if record is not None and "properties" in record else {}
    last = props["hq_no_return_from"].value if "hq_no_return_from" in props else None
    if last in order and fell_day in order and order.index(fell_day) >= order.index(last):
        return finding(f"an Axis HQ eliminated on {last} or later does not return (16.82)", {"no_return_from": last})
    due = order.index(fell_day) + RETURN_AFTER if fell_day in order else None
    due_day = order[due] if due is not None and due < len(order) else None
    if due is None or due_day is None:
        return finding("the fourth day after it fell is past the end of the scenario (16.82)")
    if order.index(day_of(phase) or "") < due or phase.name != "initial-segment":
        return finding(f"it returns in the Initial Segment of {due_day}, the fourth day after (16.82)",
                       {"due_day": due_day})
    wanted = _return_box(game, unit)
    if wanted is not None and unit.box not in wanted:
        return finding(f"it returns to the {' or '.join(game.box_name(b) for b in wanted)} (16.82)",
                       {"due_box": list(wanted)})
    return []


def _return_box(game: "IslandOfDeath", unit: "Unit") -> tuple[str, ...] | None:
    """16.82: its division's Follow-up box (any, where the zone is not known), else the Disbandment Box."""
    if unit.formation in DIVISIONS:
        zone = game.landings.division_zone.get(unit.formation)
        if zone is not None:
            return (f"follow-up-{zone[0]}",)
        return tuple(b.id for b in game.data.map()["boxes"] if game.box_type(b.id) == "follow-up")
    return ("disbandment",)
