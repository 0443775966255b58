"""What Sideshow contributes to the tests every game with a rules engine runs
(tests/games/test_every_game.py): its fixture logs with the findings each plants, how to render a
replay as a golden playthrough, and the failing cases that are unit tests rather than logs.

Each fixture log is replayed once per test session (`replay`), on the synthetic data or on the
shipped data alone, and shared by every test that reads it."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import vlog
from vlog.gamedata import GameData, load_game_data
from vlog.games.base import find_game
from vlog.games.sideshow.events import (LossDeclared, OperationPaid, Rolled, SegmentChosen, StrengthDeclared,
                                        WeatherRead, describe)
from vlog.kit.steps import Declared, Moved, PhaseChanged, Placed
from vlog.replay import Replay, replay_log
from vlog.vassal.module import read_module

__all__ = ["EXPECTED", "KNOWN_GAPS", "NO_FINDING", "RULES", "UNIT_CASES", "playthrough", "replay", "Judged"]

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "sideshow"
RULES = FIXTURES / "rules"
OVERLAY = FIXTURES / "synthetic-data"
MODULE = FIXTURES / "synthetic" / "sideshow.vmod"

EXPECTED: dict[str, list[tuple[str, int, Mapping[str, Any]]]] = {
    "clean-opening": [],
    "clean-combat": [],
    "clean-rail": [],
    "clean-disband": [],
    "clean-event": [],
    "clean-raise": [],
    "REI-01": [("REI-01", 16, {"unit": "6 SK", "hex": "3430", "in_tabora": 5})],
    "REI-02": [("REI-02", 18, {"unit": "16 FK", "hex": "2914", "rolls": [5]})],
    "REI-03": [("REI-03", 21, {"unit": "2 MRK", "hex": "4511"})],
    "EVT-06": [("EVT-06", 19, {"units": ["13 Raj (delayed)"], "event_step": 18})],
    "OPS-07": [("OPS-07", 4, {"unit": "A. Tanga", "hex": "3804"})],
    "SEQ-02": [("SEQ-02", 18, {"from": "28 operations-segment-1", "to": "28 weather", "back_step": 16,
                                "play": "weather-rolled (German)"})],
    "SEQ-07": [("SEQ-07", 2, {"turn": 28, "first_turn": 29, "phase": "reinforcement-availability"})],
    "RAIL-03": [("RAIL-03", 16, {"unit": "EAMR", "to": "2915", "enemies": ["1 FK (2914)", "Kraut (2914)"]})],
    "CBT-22": [("CBT-22", 22, {"unit": "2 FK", "to": "3517", "target": "3516"})],
    "CBT-05": [("CBT-05", 22, {"hex": "3515", "unit": "Vol MG", "rolls": [3, 5], "hexes": ["3416", "3417", "3515"]})],
    "CBT-15": [("CBT-15", 30, {"side": "german", "loss": 3, "roll": 5, "strength": 12, "crt": [2]})],
    "CBT-16": [("CBT-16", 34, {"left": "german", "must_retreat": "allied", "rolls": {"allied": 2, "german": 5}})],
    "CBT-17": [("CBT-17", 34, {"unit": "13 FK", "to": "3519", "distance": 3, "allowed": 2, "roll": 2})],
    "SEQ-09": [("SEQ-09", 27, {"read": "rain", "roll": 7})],
    "SEQ-10": [("SEQ-10", 32, {"chooser": "allied", "rolls": {"german": 3, "allied": 2}})],
    "SEQ-11": [("SEQ-11", 34, {"tie_step": 32, "side": "german"})],
    "SEQ-12": [("SEQ-12", 40, {"side": "german", "segment": 1, "owner": "allied"})],
    "OPS-01": [("OPS-01", 39, {"side": "german", "operation": "move", "phase": "operations-segment-1"})],
    "OPS-02": [("OPS-02", 35, {"side": "allied", "dice": "2d6"})],
    "OPS-03": [("OPS-03", 28, {"side": "german", "finis_step": 27})],
    "OPS-04": [("OPS-04", 56, {"side": "allied", "cap": 10, "balance": {"low": 0, "high": 0}})],
    "OPS-08": [("OPS-08", 41, {"side": "allied", "operation": "move", "hex": "3203", "balance": {"low": 0, "high": 0}})],
    "OPS-09": [("OPS-09", 49, {"side": "german", "operation": "event", "count": 2})],
    "OPS-10": [("OPS-10", 45, {"side": "german", "operation": "raise", "count": 2})],
    "MOV-01": [("MOV-01", 15, {"unit": "EAR", "from": "1812", "operation_hex": "3201"})],
    "MOV-05": [("MOV-05", 19, {"unit": "Kraut", "to": "3202", "enemies": ["IST"]})],
    "MOV-12": [("MOV-12", 22, {"hex": "4507", "artillery": ["Vogel"], "infantry_or_marine": []})],
    "MOV-14": [("MOV-14", 14, {"unit": "Uganda", "hex": "1017", "entry_hexes": ["1016", "1033"]})],
    "SEQ-03": [("SEQ-03", 6, {"unit": "13 Raj", "hex": "3803", "allowed": ["3201"]})],
    "SEQ-06": [("SEQ-06", 2, {"unit": "2/1 KAR", "scheduled_turn": 21, "turn": 20})],
    "SEQ-13": [("SEQ-13", 25, {"side": "allied", "earlier_step": 8})],
    "EVT-01": [("EVT-01", 22, {"side": "german", "phase": "operations-segment-2"})],
    "MOV-19": [("MOV-19", 12, {"squadrons": ["26 RFC"], "others": ["IST"]})],
    "AIR-03": [("AIR-03", 9, {"squadrons": ["26 RFC"], "operation": "rail"})],
    "SEA-01": [("SEA-01", 16, {"side": "german", "operation": "sea"})],
    "CBT-02": [("CBT-02", 17, {"side": "allied", "operation": "withdraw"})],
    "SEA-04": [("SEA-04", 14, {"unit": "IST", "to": "4605", "operation": "sea"})],
    "SEA-06": [("SEA-06", 14, {"unit": "Cal Vol", "to": "4605", "operation": "amphibious"})],
    "STK-01": [("STK-01", 41, {"hex": "2913", "allied": ["Vol MG"], "german": ["1 FK"]})],
    "CBT-01": [("CBT-01", 19, {"unit": "IST", "from": "3202", "target": "2913"})],
    "SEQ-01": [("SEQ-01", 14, {"turn": 51, "last_turn": 50})],
    "clean-arrivals": [],
    "SEA-07": [("SEA-07", 20, {"unit": "IST", "at": "3703", "target": "3804", "from": "3201"})],
    "SEA-08": [("SEA-08", 22, {"side": "allied", "target": "4406", "operation_step": 19})],
    "REI-10": [("REI-10", 15, {"unit": "EAR", "year": 1916, "from": 1916})],
    "ATT-11": [("ATT-11", 5, {"unit": "A. Tanga"})],
    "SEA-09": [("SEA-09", 11, {"unit": "7 FK", "from": "2127", "to": "1432", "roll": 6})],
    "SEA-05": [("SEA-05", 15, {"unit": "Cal Vol", "from": "3203", "to": "4406", "starts": ["3201"]})],
    "SEQ-05": [("SEQ-05", 4, {"unit": "29 Punj", "where": "the Delayed Box", "turn": 2, "scheduled_turn": 3})],
    "EVT-07": [("EVT-07", 25, {"units": ["1 SAH (delayed)"], "event_step": 23})],
    "EVT-16": [("EVT-16", 22, {"units": ["2 Rhod (3201)"], "event_step": 20})],
    "OPS-14": [("OPS-14", 34, {"side": "german", "event_step": 29})],
    "EVT-02": [("EVT-02", 8, {"unit": "Kron Mar", "hex": "3804", "event": "A", "occurrences": []})],
    "EVT-03": [("EVT-03", 30, {"unit": "v.Stn", "hex": "4605", "why": "in Dar es Salaam, which it never comes to"})],
    "EVT-04": [("EVT-04", 26, {"unit": 'Konigsberg Kompanie "a"', "event": "C", "nth": 3, "occurrences": [10, 17]})],
    "REI-11": [("REI-11", 22, {"unit": "RNAS", "hex": "3804", "why": "in 3804, where A. Tanga, Bmstark stood"})],
    "EVT-09": [("EVT-09", 27, {"unit": "1 MRK", "hex": "5434", "event": "H", "occurrences": []})],
    "MOV-17": [("MOV-17", 15, {"unit": "1 MRK", "hex": "5433", "why": "in 5433, not through 5434"})],
    "EVT-19": [("EVT-19", 16, {"unit": "Abteilung Arusha", "hex": "2914", "nth": 2, "occurrences": [7]})],
    "MOV-18": [("MOV-18", 9, {"unit": "Abteilung Urundi", "hex": "2834", "why": "in 2834, not through 2234-2733"})],
    "EVT-08": [("EVT-08", 22, {"unit": "Olsen column", "hex": "1434", "event": "G", "occurrences": []})],
    "MOV-15": [("MOV-15", 22, {"unit": "Molitor Column", "hex": "1434", "why": "in 1434, not through 2234-2733"})],
    "EVT-17": [("EVT-17", 18, {"unit": "Gil Column", "hex": "7006", "turn": 18, "event_turn": 17})],
    "MOV-16": [("MOV-16", 11, {"unit": "de Silviera column", "hex": "6905"})],
    "MOV-13": [("MOV-13", 9, {"unit": "5 FK", "hex": "3833", "box": "off-map-karema", "entry": "3933-4133"})],
}
"""Log -> the findings it plants on the synthetic data: (check, step, evidence that must match)."""
KNOWN_GAPS: dict[str, str] = {}
UNIT_CASES: dict[str, str] = {
    "CBT-03": "test_sideshow_rules.py::test_cbt_03_and_cbt_04_the_combat_rolls_after_a_withdrawal",
    "CBT-04": "test_sideshow_rules.py::test_cbt_03_and_cbt_04_the_combat_rolls_after_a_withdrawal",
    "CBT-09": "test_sideshow_rules.py::test_cbt_09_artillery_alone_makes_no_combat_roll",
    "EVT-14": "test_sideshow_rules.py::test_evt_14_the_mad_mullah_takes_four_allied_units_when_the_german_rolls_it",
    "REI-05": "test_sideshow_rules.py::test_rei_05_one_fk_out_of_the_replacement_box_with_german_units",
    "EVT-13": "test_event_arrivals.py::test_evt_13_the_nigerians_leave_and_stay_out_of_the_available_box",
    "SET-01": "test_sideshow_more.py::test_set_01_a_unit_not_where_the_set_up_puts_it",
}
NO_FINDING: dict[str, str] = {
    "SEQ-08": "the Allied OFC in command feeds SEQ-10 and the OPGT column (test_sideshow_rules.py covers it)",
    "LDR-01": "von Lettow's rating and column feed SEQ-10 and OPS-03 (test_sideshow_rules.py covers it)",
    "LDR-02": "the OFC is read only for the initiative and the OPGT column",
    "EVT-21": "the limited events are counted for the arrivals and removals they bring (test_event_arrivals.py covers it)",
}


@lru_cache(maxsize=2)
def data(shipped: bool = False) -> GameData:
    return load_game_data("sideshow", overlays=[] if shipped else [OVERLAY])


@lru_cache(maxsize=1)
def module() -> Any:
    return read_module(MODULE)


@dataclass
class Judged:
    """One replay and what the engine told of each step: its events and the accounts after it."""

    replay: Replay
    game: Any
    events: dict[int, list[str]] = field(default_factory=dict)
    state: dict[int, str] = field(default_factory=dict)


def _event(event: Any) -> str | None:
    if isinstance(event, PhaseChanged):
        return f"phase -> turn {event.new.turn} {event.new.name}" + (" (bound)" if event.bound else "")
    if isinstance(event, Moved):
        return f"move {event.before.name} {event.before.hex or event.before.box}->{event.after.hex or event.after.box}"
    if isinstance(event, Placed):
        return f"placed {event.unit.name} {event.unit.hex}"
    if isinstance(event, Declared):
        return None                       # told again as the game's own events
    if isinstance(event, (Rolled, WeatherRead, SegmentChosen, OperationPaid, StrengthDeclared, LossDeclared)):
        return describe(event)
    return None


def _state(game: Any) -> str:
    def account(side: str) -> str:
        ledger = game.operation_points[side]
        a = ledger.account
        shown = str(a.low) if a.high == a.low else f"{a.low}-{'?' if a.high is None else a.high}"
        return f"{side} {shown}{' open' if ledger.open else ''}{' FINIS' if ledger.finis else ''}"
    return "OPs " + ", ".join(account(s) for s in ("allied", "german"))


@lru_cache(maxsize=None)
def replay(name: str, shipped: bool = False) -> Judged:
    """A fixture log judged on the synthetic data (or the shipped data alone), once per session."""
    game = find_game("sideshow", data(shipped))
    judged = Judged(None, game)  # type: ignore[arg-type]
    interpret, check = game.interpret, game.check

    def recording_interpret(step: Any, table: Any, ctx: Any = None) -> Any:
        out = interpret(step, table, ctx)
        judged.events[step.index] = [t for e in out if (t := _event(e)) is not None]
        return out

    def recording_check(event: Any, table: Any, ctx: Any) -> Any:
        found = list(check(event, table, ctx))
        if event.step is not None:
            judged.state[event.step] = _state(game)
        return found

    game.interpret, game.check = recording_interpret, recording_check  # type: ignore[method-assign]
    judged.replay = replay_log(vlog.read(RULES / f"{name}.vlog"), module=module(), game=game)
    return judged


def playthrough(name: str) -> str:
    """Each step's events, the phase and the OP accounts after it, and its findings."""
    judged = replay(name)
    rep = judged.replay
    lines = [f"# {name}.vlog judged by sideshow on the synthetic data (not the published charts); "
             f"{len(rep.steps)} steps, {len(rep.findings)} findings"]
    for step in rep.steps:
        events = "; ".join(judged.events.get(step.index, [])) or "-"
        lines.append(f"step {step.index}: {events} | {judged.state.get(step.index, '')}")
        lines += [f"  FINDING {f.check} {f.basis.value} ({f.when}): {f.message}"
                  for f in rep.findings if f.step == step.index]
    return "\n".join(lines) + "\n"
