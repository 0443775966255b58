"""What Ascari contributes to the tests every game with a rules engine runs
(tests/games/test_every_game.py): its fixture logs judged on the SYNTHETIC data overlay
(fixtures/ascari/synthetic-data: synthetic test values, not the published charts), the findings
each plants, and how a replay reads as a golden playthrough. Each log is replayed once per test
session (`replay`)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import vlog
from vlog.gamedata import load_game_data
from vlog.games.ascari.checks.fire_results import APPLIED_LATER
from vlog.games.ascari.rules import Ascari
from vlog.replay import Replay, replay_log
from vlog.vassal.commands import Chat
from vlog.vassal.module import read_module

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "ascari"
RULES = FIXTURES / "rules"
OVERLAY = FIXTURES / "synthetic-data"
MODULE = FIXTURES / "synthetic" / "ascari.vmod"

EXPECTED: dict[str, list[tuple[str, int, Mapping[str, Any]]]] = {
    "clean-s2": [], "clean-s2-noflags": [], "clean-s3": [], "clean-s4": [], "clean-s5": [],
    "clean-s1-open-fire": [], "clean-s1-revolt": [], "clean-s3-2815": [], "clean-s4-open-fire-roll": [], "clean-s4-open-melee": [],
    "clean-s4-open-melee-dice": [], "clean-s4-opfire-retreat-victor": [],
    "FDR-10-applied-later": [("FDR-10", 22, {"target": "2 Cav MA", "range": 1, "die": 6, "applied": "unchanged",
                                                   "depends_on": [APPLIED_LATER]})],
    "MOV-02": [("MOV-02", 13, {"from": "1707", "to": "2208", "allowance": 4, "cheapest_cost": 5})],
    "MOV-17": [("MOV-17", 4, {"turn": 1, "from": "3101", "to": "3001"})],
    "MOV-18": [("MOV-18", 20, {"hex": "2512", "row": 13})],
    "MOV-19": [("MOV-19", 6, {"hex": "3207", "column": 33})],
    "SEQ-01": [("SEQ-01", 6, {"side": "italian", "previous_flag_step": 4})],
    "SEQ-02": [("SEQ-02", 1, {"side": "italian", "first_side": "ethiopian", "scenario": "s3"})],
    "SEQ-03": [("SEQ-03", 21, {"from": "2710", "to": "2709", "phase": "fire-combat"})],
    "SEQ-06": [("SEQ-06", 10, {"from": 2, "to": 3, "active_since": ["ethiopian"], "missing": ["italian"]})],
    "SEQ-07": [("SEQ-07", 24, {"winner": "italian", "won_at_step": 22, "hexes": ["3216"]})],
    "SEQ-04": [("SEQ-04", 3, {"unit_side": "dervish", "active": "italian", "from": "3101", "to": "3001"})],
    "STK-02": [("STK-02", 8, {"hex": "1806", "units": ["3 II", "1 II"]})],
    "TER-08": [("TER-08", 5, {"hex": "1701", "features": ["river-barka"], "map": "agordat"})],
    "TER-13": [("TER-13", 22, {"hex": "2509", "terrain": "rocks", "map": "amba-alagi"})],
    "TER-15": [("TER-15", 17, {"hex": "2505", "terrain": "water", "map": "metemma"})],
    "FIR-01": [("FIR-01", 6, {"firer": "1 Spear IB", "type": "spear"})],
    "FIR-02": [("FIR-02", 22, {"firer": "Maconnen", "type": "ras"})],
    "FIR-04": [("FIR-04", 21, {"firer": "1 Rifle MA", "first_fire_step": 19})],
    "FIR-05": [("FIR-05", 7, {"firer": "4 IV", "first_fire_step": 4})],
    "FIR-06": [("FIR-06", 21, {"from": "2513", "target": "2409", "distance": 5, "range": 4})],
    "FIR-07": [("FIR-07", 22, {"from": "1907", "target": "2513", "distance": 9, "range": 8})],
    "LOS-01": [("LOS-01", 23, {"from": "2409", "target": "2412", "blocked_by": ["2411"]})],
    "LOS-02": [("LOS-02", 21, {"from": "2409", "target": "2608", "blocked_by": ["2508"]})],
    "LOS-03": [("LOS-03", 19, {"from": "2409", "target": "2609", "blocked_by": ["2508 / 2509"]})],
    "LOS-04": [("LOS-04", 22, {"from": "2706", "target": "2710", "blocked_by": ["2708"]})],
    "OPP-01": [("OPP-01", 22, {"firer": "4 IV", "target": "2412", "units_there": ["1 Rifle MA"]})],
    "OPP-02": [("OPP-02", 24, {"firer": "2 IV", "target": "2409"})],
    "OPP-04": [("OPP-04", 24, {"firer": "D Batt battery", "hex": "1907"})],
    "STK-05": [("STK-05", 26, {"hex": "2409", "melee_step": 23, "units": ["4 IV", "1 Spear MA"]})],
    "MOV-15": [("MOV-15", 26, {"hex": "2409", "to": "2408", "came_from": "2410", "enemy_left": ["4 IV"]})],
    "RET-06": [("RET-06", 28, {"from": "1907", "to": "1807"})],
    "MOV-07": [("MOV-07", 27, {"hex": "2609", "to": "2608", "back_to": "2610", "fire_step": 24})],
    "MEL-11-leader-hit": [("MEL-11", 38, {"hex": "2709", "leader": "Maconnen", "unit": "1 Spear MA",
                                           "leader_lost": 1, "unit_lost": 0, "readings": [0], "melee_step": 32})],
    "MOV-12-limbered": [("MOV-12", 11, {"unit": "D Batt battery", "limbered_in": "1707", "limbered_step": 9,
                                         "to": "1507", "cost": 2, "left": 1})],
    "MOV-12": [("MOV-12", 15, {"firer": "D Batt battery", "hex": "1807", "side_shown": "limbered",
                               "battery_side": "battery"})],
    "VIC-03": [("VIC-03", 23, {"winner": "ethiopian", "won_at_step": 21, "hexes": [], "by": "eliminating Baratieri"})],
    "VIC-04": [("VIC-04", 37, {"winner": "italian", "won_at_step": 35, "hexes": ["3205", "2106"],
                               "by": "eliminating 15 enemy units and holding 3205, 2106",
                               "depends_on": ["whether eliminating wins at once in scenario s4 (the Coatit FAQ's "
                                              "reading, taken by analogy)"]})],
    "VIC-01": [("VIC-01", 24, {"winner": "dervish", "won_at_step": 23, "hexes": [],
                               "by": "exiting 4 combat units (1 Rifle IB, 2 Rifle IB, 3 Rifle IB, 4 Rifle IB) "
                                     "from column 15xx",
                               "depends_on": ["whether exiting wins at once in scenario s1 (the Coatit FAQ's "
                                              "reading, taken by analogy)"]})],
    "SCN-01": [("SCN-01", 10, {"unit": "1 II", "from": "2604", "to": "2605", "camels": ["2506"], "rolls": []})],
    "SCN-02": [("SCN-02", 16, {"hex": "2506", "revolt_step": 15, "leader_hex": "2506"})],
    "SCN-03": [("SCN-03", 2, {"hex": "2815", "steps": 2, "level": "front",
                              "depends_on": ["the reading of S3.12's 'the unit in 2815 starts on its Reduced side' "
                                             "as any unit set up in 2815 (no unit is listed there: inventory 6.2 "
                                             "item 13)"]})],
    "MOV-20": [("MOV-20", 12, {"unit_side": "dervish", "active": "italian", "from": "2306", "to": "2307"})],
    "RET-02": [("RET-02", 22, {"hex": "2505", "to": "2507", "retreat": ["2505", "2507"], "distance": 2})],
    "RET-03": [("RET-03", 20, {"hex": "1802", "to": "1701", "reason": "impassable"})],
    "RET-04": [("RET-04", 21, {"hex": "2805", "to": "2905", "came_from": "2905"})],
    "RET-05": [("RET-05", 24, {"hex": "2805", "to": "2806", "units": ["2 Rifle IB", "3 Rifle IB"]})],
    "MEL-08": [("MEL-08", 29, {"hex": "1907", "entered_step": 28, "leaders": ["Toselli"]})],
    "FDR-08": [("FDR-08", 11, {"target": "4 IV", "range": 2, "die": 1, "modified": [-1, 0, 1], "applied": "one step lost"})],
    "FDR-09": [("FDR-09", 14, {"firer": "D Batt battery", "range": 5, "die": 1, "due": ["unchanged"]})],
    "FDR-10": [("FDR-10", 27, {"target": "3 Rifle MA", "range": 2, "die": 6, "results": ["double", "single"],
                               "applied": "unchanged"})],
    "FDR-11": [("FDR-11", 17, {"target": "Toselli", "range": 1, "due": ["eliminated"], "applied": "unchanged"})],
    "FDR-12": [("FDR-12", 12, {"target": "D Batt battery", "due": ["eliminated"], "applied": "unchanged",
                               "side_shown": "limbered"})],
    "FDR-13": [("FDR-13", 19, {"leader": "Maconnen", "leader_roll": 6, "due": "one step lost", "applied": "unchanged"})],
    "FDR-14": [("FDR-14", 12, {"target": "Maconnen", "due": ["one step lost"], "applied": "eliminated"})],
    "SET-02": [("SET-02", 2, {"hex": "1905", "side": "italian"})],
    "SET-07": [("SET-07", 3, {"hex": "2904", "side": "dervish"})],
    "LDR-01": [("LDR-01", 10, {"from": "2410", "to": "2409", "enemies": ["4 IV"]})],
    "MOV-16": [("MOV-16", 13, {"hex": "2609", "to": "2608", "firer": "3 IV", "fire_step": 12})],
    "MOV-06": [("MOV-06", 15, {"hex": "2609", "to": "2608", "fire_step": 12})],
    "MEL-02": [("MEL-02", 20, {"hex": "2409", "attacker": "4 IV", "dice": [6, 6], "results": [
        "attacker retreat", "attacker tie", "defender retreat"], "attacker_seen": "retreated", "defender_seen": "retreated"})],
    "MEL-11": [("MEL-11", 15, {"hex": "2410", "unit": "1 Spear MA", "leaders": ["Maconnen"]})],
    "MEL-12": [("MEL-12", 5, {"hex": "2104", "from": "2205", "level": "front"})],
    "SEQ-05": [("SEQ-05", 22, {"marker": "Moved", "hex": "2608", "unit": "3 Rifle MA", "active": "ethiopian",
                               "removed_from": "active"})],
    "FIR-03": [("FIR-03", 36, {"firer": "4 IV", "hex": "2408", "target": "2409", "opportunity": False,
                               "marker_step": 25})],
    "STK-04": [("STK-04", 17, {"marker": "Fire", "hex": "2412", "unit": "1 Rifle MA", "markers": 2})],
    "FDR-15": [("FDR-15", 33, {"unit": "2 Rifle MA", "hex": "2609", "judged_at_step": 37})],
    "RIF-03": [("RIF-03", 31, {"hex": "2410", "unit": "1 Cav MA", "eliminated_step": 30, "to": None})],
    "MOV-10": [("MOV-10", 7, {"hex": "2712", "unit": "5 Rifle", "type": "rifle", "scenario": "s3"})],
    "MOV-11": [("MOV-11", 11, {"hex": "2908", "unit": "1 Rifle MA", "type": "rifle", "scenario": "s5"})],
    "MOV-14": [("MOV-14", 25, {"unit": "1 Spear MA", "hex": "2410", "to": "2510", "entered_step": 24})],
    "FDR-16": [("FDR-16", 21, {"hex": "2506", "target": "Booty", "dice": [3, 3], "due": ["eliminated"],
                               "applied": "retreated", "steps_lost": 1, "melee_step": 16}),
               ("FDR-16", 24, {"target": "Booty", "due": ["eliminated"], "applied": "one step lost"})],
}
"""The findings each log plants: (check id, step, evidence that must match); every finding the
replay reports must be listed. A finding whose evidence names `depends_on` is POSSIBLE, any other
PROVEN."""
KNOWN_GAPS: dict[str, str] = {}
UNIT_CASES: dict[str, str] = {
    "VIC-02": "test_ascari.py::test_a_win_by_eliminations_counts_the_enemy_units_removed",
}
NO_FINDING: dict[str, str] = {
    "MOV-22": "a permission: retreats are not charged MP (test_ascari.py::test_a_retreat_costs_no_mp)",
    "OPP-03": "a permission: opportunity fire at a retreating attacker and at a victor alone stays clean "
              "(rules/clean-s4-opfire-retreat-victor)",
}


@lru_cache(maxsize=None)
def synthetic_data():
    return load_game_data("ascari", overlays=[OVERLAY])


@lru_cache(maxsize=None)
def module():
    return read_module(MODULE)


SCENARIO: dict[str, str] = {}
"""Logs whose start does not tell the scenario, judged with it given (none: S1's start is told from
the units it holds unplaced)."""


@lru_cache(maxsize=None)
def replay(name: str) -> tuple[Replay, Ascari]:
    """One fixture log judged on the synthetic data, once per test session."""
    game = Ascari(synthetic_data(), scenario=SCENARIO.get(name))
    return replay_log(vlog.read(RULES / f"{name}.vlog"), module=module(), game=game), game


def playthrough(name: str) -> str:
    """Each step's chat, the units that changed place and the findings."""
    rep, game = replay(name)
    lines = [f"# {name}.vlog judged by ascari on the synthetic data (not the published charts)",
             f"# scenario {game.scenario}; {len(rep.steps)} steps; {len(rep.findings)} findings"]
    before = {p.id: rep.start.location_name(p) for p in rep.start.game_pieces()}
    for step in rep.steps:
        table = rep.state_at(step.index)
        now = {p.id: (p.name, table.location_name(p)) for p in table.game_pieces()}
        moved = [f"{name_}@{where}" for pid, (name_, where) in now.items() if before.get(pid) != where]
        lines.append(f"step {step.index}: " + (", ".join(sorted(moved)) or "-"))
        lines += [f"  chat: {c.text}" for c in step.commands if isinstance(c, Chat)]
        lines += [f"  FINDING {f.check} {f.severity.value} {f.basis.value} [{f.when}]: {f.message}"
                  for f in rep.findings if f.step == step.index]
        before = {pid: where for pid, (_, where) in now.items()}
    lines += [f"END FINDING {f.check} {f.severity.value}: {f.message}" for f in rep.findings if f.step is None]
    return "\n".join(lines) + "\n"
