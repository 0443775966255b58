"""Island of Death judged end to end: VASSAL logs written by vlog's own writers, replayed through
the rules engine on the SYNTHETIC data overlay (fixtures/island-of-death/synthetic-data: synthetic
test values, not the published charts).

Each play script under fixtures/island-of-death/rules/ plants one mistake (`<check-id>.vscript`)
among legal play, or none (`clean-*.vscript`); every log must yield exactly the planted findings
(check id, step, rule, key evidence). `playthrough` writes a replay out for the golden files
(tests/playthroughs/island-of-death/<log>.txt, compared by tests/games/test_every_game.py).
Each log is replayed once per session (replays.py).
"""
from __future__ import annotations

from typing import Any, Mapping

import pytest

from vlog.findings import Finding
from vlog.games.island_of_death.rules import INVENTORY
from vlog.games.island_of_death.units import make_unit
from vlog.kit.units import read_units
from vlog.vassal.commands import Chat

from tests.games.island_of_death.expected_fire import EXPECTED_FIRE
from tests.games.island_of_death.replays import RULES, fixture_logs, replayed, synthetic_data

EXPECTED: dict[str, list[tuple[str, int, Mapping[str, Any]]]] = {
    "clean-intro": [],
    "clean-hercules": [],
    "clean-supply-intro": [],
    "clean-supply-hercules": [],
    "MOV-04-road-hercules": [("MOV-04", 10, {"unit": "al-1-r", "from": "1509", "to": "1410", "movement_class": "mechanized"})],
    "clean-road-hercules": [],
    "clean-support-intro": [],
    "clean-support-hercules": [],
    "CBT-23": [("CBT-23", 13, {"target": "1114", "steps_lost": 1, "engineer_steps": 0, "engineer_steps_due": 1})],
    "clean-engineers-fort": [],
    "CBT-23-some": [("CBT-23", 14, {"target": "1114", "steps_lost": 1, "engineer_steps": 0, "engineer_steps_due": 1,
                                    "depends_on": ["engineers in every attacking hex (9.92)"]})],
    "SEQ-07-declared": [("SEQ-07", 7, {"target": "1312", "attack_step": 6, "attacked": "1311"})],
    "SEQ-07": [("SEQ-07", 18, {"target": "1412", "attack_step": 8, "attack_made_step": 9, "attacked": "1311",
                               "phase": "axis-combat"})],
    "SEQ-03": [("SEQ-03", 6, {"hex": "1110", "owner": "axis", "phase": "axis-movement", "turn": 1})],
    "SEQ-05": [("SEQ-05", 4, {"unit": "ax-1-34", "hex": "1110", "phase": "axis-movement", "after_step": 3})],
    "SEQ-06": [("SEQ-06", 9, {"unit": "ax-2-34", "from": "0909", "to": "1009", "after_unit": "ax-1-34",
                               "after": "infiltrated", "after_step": 7})],
    "SEQ-10": [("SEQ-10", 1, {"turn": 1, "day": "30 June AM"})],
    "SPR-02": [("SPR-02", 4, {"turn": 5, "day": "30 June AM", "segment_step": 3, "dice": 0})],
    "MOV-13": [("MOV-13", 9, {"unit": "al-beak", "from": "1311", "to": "1916", "allowance": 14, "cheapest_cost": 15})],
    "MOV-14": [("MOV-14", 12, {"unit": "ax-hq-20", "from": "0809", "to": "1011", "allowance": 6, "cheapest_cost": 7,
                               "allowance_with_any_leader": 7})],
    "SUP-02": [("SUP-02", 2, {"hex": "1012", "units": ["ax-v-186"], "marked": False})],
    "SUP-03": [("SUP-03", 4, {"hex": "1612", "units": ["al-malta-hq", "al-12", "al-1-r", "al-2rwk"], "marked": True,
                               "routes": {"al-malta-hq": ["1612", "1611", "1711"]}})],
    "SUP-08": [("SUP-08", 20, {"unit": "al-1-r", "from": "1409", "to": "1809", "allowance": 6, "cheapest_cost": 8,
                               "out_of_supply": True})],
    "SEQ-02": [("SEQ-02", 6, {"unit": "ax-88-cn", "box": "first-wave-west", "hex": "0709", "time": "Night"})],
    "SEQ-09": [("SEQ-09", 4, {"turn": 25, "last_turn": 24, "unit": "ax-1-34"})],
    "ZOC-04": [("ZOC-04", 4, {"unit": "ax-1-34", "zoc_hex": "1209", "zoc_from": ["1309"]})],
    "ZOC-05": [("ZOC-05", 4, {"unit": "al-2rwk", "from_zoc": ["1110"], "to_zoc": ["1110"], "infiltration": False})],
    "ZOC-08": [("ZOC-08", 6, {"unit": "ax-28-art", "hex": "1208", "zoc_from": ["1309"]})],
    "MOV-04": [("MOV-04", 8, {"unit": "al-2rwk", "from": "1311", "to": "1711", "allowance": 7, "cheapest_cost": 8})],
    "MOV-06": [("MOV-06", 4, {"unit": "al-coastal-gun-2-4", "from": "1316", "to": "1416"})],
    "MOV-08": [("MOV-08", 4, {"unit": "al-8m", "hex": "1210", "enemy_units": ["ax-1-34"]})],
    "MOV-09": [("MOV-09", 5, {"unit": "ax-viii-eng", "arrived": "jumped", "from": "1913", "to": "2013"})],
    "MOV-10": [("MOV-10", 2, {"unit": "ax-28-art", "side_shown": "prepared", "from": "1107", "to": "1108"})],
    "MOV-17": [("MOV-17", 2, {"unit": "al-2rif", "from": "1609", "to": "1709", "within": 4, "nearest_axis": None})],
    "MOV-12": [("MOV-12", 5, {"unit": "al-2rwk", "roll": 2, "morale": 4, "total": 6})],
    "STK-01": [("STK-01", 5, {"hex": "1311", "battalions": 5, "limit": 4})],
    "STK-02": [("STK-02", 6, {"hex": "0707", "kind": "warship", "count": 3, "limit": 2})],
    "MOV-15": [("MOV-15", 6, {"unit": "ax-ws-trieste", "from": "0807", "to": "0708", "phase": "allied-movement"})],
    "WSH-01": [("WSH-01", 4, {"unit": "ax-ws-alpino", "hex": "0708", "turn": 2, "phase": "amphibious-landing"})],
    "VIC-01": [("VIC-01", 5, {"turn": 1, "surrender_phase_step": 3})],
    "CBT-01": [("CBT-01", 4, {"target": "1311", "not_adjacent": {"3/34": "1009"}})],
    "CBT-02": [("CBT-02", 8, {"target": "1309", "unit": "ax-1-34", "attacked_before": "1311"})],
    "CBT-03": [("CBT-03", 4, {"target": "1310", "defenders": []})],
    "CBT-04": [("CBT-04", 5, {"target": "1311", "unit": "ax-viii-eng", "arrived": "jumped"})],
    "clean-combat-intro": [],
    "CBT-22": [("CBT-22", 6, {"target": "1309", "unit": "ax-28-art", "hex": "1107"})],
    "clean-stand-hercules": [],
    "CBT-25": [("CBT-25", 8, {"target": "1311", "side": "defender", "retreat_hexes": 1,
                               "units": ["al-c-1c", "al-a-1c", "al-2rwk", "al-8m"]})],
    "CBT-29": [("CBT-29", 10, {"target": "1311", "side": "defender", "dice": [5]})],
    "CBT-26": [("CBT-26", 9, {"target": "1208", "unit": "al-1k", "from": "1208", "to": "1409", "distance": 2,
                               "retreat_hexes": 1})],
    "CBT-27": [("CBT-27", 13, {"target": "1311", "side": "defender", "zoc_hexes": 1, "steps_due": 1, "steps_lost": 0})],
    "CBT-30": [("CBT-30", 10, {"target": "1311", "unit": "ax-1-34"})],
    "CBT-31": [("CBT-31", 10, {"target": "1208", "unit": "ax-1-34", "to": "1209", "length": 2, "allowed": 1})],
    "CBT-35": [("CBT-35", 11, {"unit": "ax-v-186", "hex": "1316",
                               "coastal_guns": ["al-coastal-gun-2-6", "al-coastal-gun-2-4"]})],
    "MOV-07": [("MOV-07", 10, {"unit": "al-1k", "hex": "1309", "enemy_unit": "ax-1-34", "distance": 2})],
    "MOV-07-drop": [("MOV-07", 8, {"unit": "al-8m", "hex": "1309", "enemy_unit": "ax-1-34", "enemy_hex": "1207",
                                   "distance": 2})],
    "SEQ-06-strategic": [("SEQ-06", 9, {"unit": "al-2rwk", "moved_before": "al-8m", "moved_before_step": 7})],
    "MOV-04-road": [("MOV-04", 8, {"unit": "al-1-r", "from": "1409", "to": "1410", "movement_class": "mechanized"})],
    "MOV-11": [("MOV-11", 14, {"unit": "al-1k", "from": "1209", "to": "1211", "cheapest_cost": 4, "half_allowance": 3})],
    "CBT-08": [("CBT-08", 8, {"target": "1208", "support": "offensive", "printed_support": 18, "limit": 12})],
    "CBT-09": [("CBT-09", 6, {"target": "1311", "unit": "ax-28-art", "distance": 5, "range": 3})],
    "CBT-05": [("CBT-05", 11, {"target": "1207", "unit": "al-1k", "state": "demoralized"})],
    "clean-combat-hercules": [],
    "clean-landings-intro": [],
    "SPC-01": [("SPC-01", 7, {"target": "1309", "speaker_side": "axis", "phase": "allied-combat", "turn": 2})],
    "SPC-02": [("SPC-02", 4, {"target": "1308", "unit": "ax-28-art", "first_target": "1309", "first_step": 2})],
    "SPC-02-twice": [("SPC-02", 4, {"target": "1309", "first_step": 2, "rolled": True})],
    "SPC-04": [("SPC-04", 7, {"target": "1311", "unit": "ax-28-art", "distance": 5, "range": 3})],
    "WSH-03-rain": [("WSH-03", 10, {"target": "0809", "unit": "ax-ws-trieste", "weather": "rainy"})],
    "JMP-03": [("JMP-03", 3, {"unit": "ax-dz-folgore", "from": "1012", "to": "1013", "phase": "axis-movement"})],
    "JMP-03-far": [("JMP-03", 4, {"unit": "ax-dz-folgore", "start": "1011", "to": "1015", "distance": 4})],
    "JMP-06": [("JMP-06", 8, {"unit": "ax-iv-187", "hex": "1011", "weather": "rainy", "day": "1 July", "weather_step": 6})],
    "clean-dismantle-intro": [],
    "SPU-07": [("SPU-07", 10, {"unit": "al-engineer-coy", "hex": "1510", "removed": 3, "needed": 4})],
    "SPR-03": [("SPR-03", 9, {"unit": "al-1dli", "hex": "1413", "from_level": "2", "to_level": "3",
                               "security_units": []})],
    "SCN-04": [("SCN-04", 3, {"unit": "ax-ws-unnamed", "hex": "0707", "scenario": "intro"})],
    "SCN-04-hercules": [("SCN-04", 10, {"unit": "ax-ws-unnamed", "hex": "1007", "count": 9, "limit": 8})],
    "JMP-14": [("JMP-14", 4, {"unit": "ax-ix-187", "time": "30 June AM", "allowed": ["ax-ram-1-2"]})],
    "JMP-14-artillery": [("JMP-14", 5, {"unit": "ax-185-art-1", "time": "29 June AM", "kind": "glider-artillery"})],
    "SPC-10": [("SPC-10", 2, {"unit": "ax-air-support", "hex": "1309", "phase": "axis-movement"})],
    "SPU-10": [("SPU-10", 10, {"weather": "cloudy", "placed": 2, "allowed": 1, "steps": [9, 10]})],
    "SPU-10-night": [("SPU-10", 4, {"hex": "1309", "time": "Night", "turn": 4})],
    "WSH-03": [("WSH-03", 8, {"target": "0809", "unit": "ax-ws-trieste", "time": "Night"})],
    "clean-landings-hercules": [],
    "SEQ-01": [("SEQ-01", 3, {"from_turn": 1, "from_phase": "axis-penetration", "to_phase": "axis-combat"})],
    "AMP-01": [("AMP-01", 3, {"unit": "ax-lor", "box": "first-wave-west", "kind": "commando"})],
    "AMP-07": [("AMP-07", 10, {"unit": "ax-20-eng", "hex": "1207", "other_unit": "ax-11-eng",
                               "division": "20th Infantry Division (Friuli)"})],
    "AMP-10": [("AMP-10", 14, {"unit": "ax-1-33", "beach": "1107", "to": "1109", "distance": 2})],
    "FRM-05": [("FRM-05", 4, {"unit": "ax-1-87", "zone": "west", "other_unit": "ax-2-87", "other_zone": "north"})],
    "LDR-08": [("LDR-08", 10, {"unit": "ax-hq-4", "hex": "1107", "landed_step": 9, "other": "ax-chirelson",
                               "other_landing": None})],
    "JMP-01": [("JMP-01", 4, {"unit": "ax-ram-1-2", "hex": "1913", "marker": "ax-dz-ramcke"})],
    "JMP-09": [("JMP-09", 5, {"unit": "ax-v-186", "hex": "0916", "terrain": "ocean"})],
    "MOV-18": [("MOV-18", 4, {"unit": "ax-80-art-1", "hex": "1815", "side_shown": "prepared", "landed_turn": 1})],
    "CBT-15": [("CBT-15", 5, {"target": "1311", "roll": 7, "attackers": ["ax-1-34"]})],
    "CBT-16": [("CBT-16", 8, {"target": "1311", "roll": 9, "said": "-/1", "crt": ["1/1"]})],
    "CBT-19": [("CBT-19", 8, {"target": "1311", "side": "attacker", "result": "1/1", "hits": 1, "steps_due": 1,
                               "steps_lost": 0})],
    "AMP-08": [("AMP-08", 16, {"unit": "ax-1-33", "hex": "1207", "roll": 5, "modifier": 2, "total": 7,
                               "nearest_allied": ["al-1k"]})],
    "JMP-10": [("JMP-10", 9, {"unit": "ax-v-186", "hex": "1013", "roll": 6, "totals": [7]})],
    "JMP-11": [("JMP-11", 14, {"hex": "1011", "jumped": ["ax-ii-187"], "enemy_units": ["al-inf-coy", "al-inf-coy"]})],
    "LDR-09": [("LDR-09", 12, {"unit": "ax-ramcke", "hex": "1913", "hq": "ax-hq-ram", "hq_jumped": False})],
    "LDR-04": [("LDR-04", 17, {"unit": "al-beak", "hex": "1311", "roll": 3, "steps_lost": 1, "totals": [3]})],
    "LDR-05": [("LDR-05", 6, {"unit": "al-beak", "hex": "1210", "roll": 6, "overrun_step": 4})],
    "LDR-06": [("LDR-06", 22, {"unit": "al-beak", "hex": "1310", "level": "adc", "in_time": False, "place": None})],
    "LDR-07": [("LDR-07", 3, {"unit": "ax-chirelson", "hex": "1107", "in_time": False, "place": None})],
    "LDR-07-hercules": [("LDR-07", 3, {"unit": "ax-chirelson", "hex": "1107", "in_time": False, "turn": 1})],
    "LDR-04-hercules": [("LDR-04", 16, {"unit": "ax-chirelson", "hex": "1207", "target": "1208", "roll": 3,
                                        "totals": [3]})],
    "SPU-16": [("SPU-16", 10, {"unit": "ax-hq-185", "to": "disbandment", "eliminated_day": "29 June", "day": "1 July",
                               "due_day": "3 July"})],
    "SPU-15": [("SPU-15", 11, {"unit": "al-1k", "nationality": "maltese", "security_units": ["al-rn-security"]})],
    "clean-rolls-intro": [],
    "clean-rolls-hercules": [],
}

KNOWN_GAPS: dict[str, str] = {}

EXPECTED.update(EXPECTED_FIRE)


def _units(table: Any) -> dict[str, tuple[str, str]]:
    data = synthetic_data()
    return {uid: (u.name, u.hex or (f"box {u.box}" if u.box else "-"))
            for uid, u in read_units(table, data, make_unit).items()}


def _finding_line(f: Finding) -> str:
    keys = ("unit", "from", "to", "hex", "allowance", "cheapest_cost", "roll", "total", "battalions", "limit",
            "count", "box", "time", "turn")
    evidence = ", ".join(f"{k}={f.evidence[k]}" for k in keys if k in f.evidence)
    return f"FINDING {f.check} step {f.step} {f.severity.value} {f.basis.value}: {f.message}" \
        + (f" [{evidence}]" if evidence else "") + (f" ({f.when})" if f.when else "")


def playthrough(name: str) -> str:
    """Each step: what moved, the chat, then the findings at that step."""
    rep, _game = replayed(name)
    lines = [f"# {name}.vlog judged by island-of-death on the synthetic data (not the published charts)",
             f"# {len(rep.steps)} steps; {len(rep.findings)} findings"]
    by_step: dict[int | None, list[Finding]] = {}
    for f in rep.findings:
        by_step.setdefault(f.step, []).append(f)
    before = _units(rep.start)
    for step in rep.steps:
        now = _units(rep.state_at(step.index))
        moved = [f"{n} {before[u][1] if u in before else 'new'}->{h}" for u, (n, h) in now.items()
                 if before.get(u, (None, None))[1] != h]
        chats = [c.text for c in step.commands if isinstance(c, Chat)]
        lines.append(f"step {step.index}: " + ("; ".join(moved) or "-") + "".join(f" | {c}" for c in chats))
        lines += ["  " + _finding_line(f) for f in by_step.pop(step.index, [])]
        before = now
    for rest in by_step.values():
        lines += [_finding_line(f) for f in rest]
    return "\n".join(lines) + "\n"


def _matches(value: Any, expected: Any) -> bool:
    if isinstance(expected, Mapping):
        return isinstance(value, Mapping) and all(_matches(value.get(k), v) for k, v in expected.items())
    return value == expected


POSSIBLE = {("SEQ-07-declared", "SEQ-07", 7), ("MOV-04-road-hercules", "MOV-04", 10),
            ("CBT-23-some", "CBT-23", 14), ("SEQ-01", "SEQ-01", 3)}
"""The planted findings the log cannot settle: POSSIBLE, a warning."""


def test_every_script_has_expectations() -> None:
    assert fixture_logs() == sorted(EXPECTED)


def test_scripts_say_what_they_plant() -> None:
    for name in fixture_logs():
        first = (RULES / f"{name}.vscript").read_text(encoding="utf-8").splitlines()[1]
        word = "CLEAN" if name.startswith("clean-") else f"PLANTS {name} once"
        assert first.startswith(f"# {word}"), (name, first)


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN_GAPS[n], strict=True)) if n in KNOWN_GAPS else n
    for n in sorted(EXPECTED)])
def test_exactly_the_planted_findings(name: str) -> None:
    rep, _game = replayed(name)
    mine = [f for f in rep.findings if f.check.startswith("island-of-death/")]
    others = [f for f in rep.findings if not f.check.startswith("island-of-death/")]
    assert others == [], [(f.check, f.message) for f in others]
    got = sorted((f.check.split("/", 1)[1], f.step) for f in mine)
    assert got == sorted((c, s) for c, s, _ in EXPECTED[name]), [(f.check, f.step, f.message) for f in mine]
    for check, step, evidence in EXPECTED[name]:
        found = next(f for f in mine if f.check == INVENTORY.check_id(check) and f.step == step)
        assert found.rule == (INVENTORY.item(check).rule or "")    # an item whose rules the inventory lists below it: none
        if (name, check, step) in POSSIBLE:                       # the log leaves it open
            assert found.severity.value == "warning" and found.basis.value == "possible"
        else:
            assert found.severity.value == "error" and found.basis.value == "proven"
        assert _matches(found.evidence, evidence), (check, dict(found.evidence))
        assert found.message and found.when


# -- the same logs judged on the shipped data (no map, no TEC, few counter values) ---------------

def test_on_the_shipped_data_no_proven_finding_the_synthetic_data_does_not_give() -> None:
    """The shipped data knows less: a log gets fewer PROVEN findings, never other ones."""
    for name in fixture_logs():
        shipped = {(f.check, f.step) for f in replayed(name, shipped=True)[0].findings if f.basis.value == "proven"}
        synthetic = {(f.check, f.step) for f in replayed(name)[0].findings if f.basis.value == "proven"}
        assert shipped <= synthetic, (name, shipped - synthetic)


def test_on_the_shipped_data_a_move_the_map_decides_is_not_judged_and_says_what_would() -> None:
    rep, game = replayed("MOV-04", shipped=True)
    assert not [f for f in rep.findings if f.check.endswith("/MOV-04")]
    status = game.tally.status(INVENTORY.check_id("MOV-04"))
    assert status.unsettled and status.unsettled[-1].step == 8
    assert any("map.json" in d or "TEC" in d for d in status.unsettled[-1].data)


def test_on_the_shipped_data_a_drowning_the_map_decides_is_not_judged_and_says_what_would() -> None:
    """The shipped map has no terrain: whether 0916 is ocean is not known, so the jump into it is
    not judged (19.45), naming the hex's terrain."""
    rep, game = replayed("JMP-09", shipped=True)
    assert not [f for f in rep.findings if f.check.endswith("/JMP-09")]
    status = game.tally.status(INVENTORY.check_id("JMP-09"))
    assert status.unsettled and status.unsettled[-1].step == 5
    assert "map.json hex 0916 terrain" in status.unsettled[-1].data


def test_on_the_shipped_data_a_zoc_the_hexsides_decide_is_possible_naming_them() -> None:
    rep, _ = replayed("ZOC-04", shipped=True)
    (found,) = [f for f in rep.findings if f.check.endswith("/ZOC-04")]
    assert found.basis.value == "possible" and found.evidence["depends_on"] == ["map.json hexside 1209/1309 features"]


def test_on_the_shipped_data_a_supply_trace_the_map_decides_is_not_judged_and_says_what_would() -> None:
    """Without the map a route may cross an all-ocean hexside and a hex may be a city: the
    Allied determination is unsettled, naming the map data; a unit whose HQ is not on the map is
    out of supply whatever the map (SUP-02 proven on both)."""
    rep, game = replayed("clean-supply-intro", shipped=True)
    assert [f for f in rep.findings if f.basis.value == "proven"] == []
    status = game.tally.status(INVENTORY.check_id("SUP-02"))
    assert status.unsettled and any("map.json" in d for d in status.unsettled[-1].data)
    assert [(f.check, f.basis.value) for f in replayed("SUP-02", shipped=True)[0].findings] == \
        [(INVENTORY.check_id("SUP-02"), "proven")]


def test_on_the_shipped_data_a_result_is_not_judged_and_names_the_crt() -> None:
    """The CRT is on the chart cards: a said result is not judged against it (CBT-16 unsettled,
    naming the table); the steps a said result owes need no table (CBT-19 proven on both)."""
    rep, game = replayed("CBT-16", shipped=True)
    assert [f for f in rep.findings if f.check.endswith("/CBT-16")] == []
    status = game.tally.status(INVENTORY.check_id("CBT-16"))
    assert status.unsettled and any("crt" in d for d in status.unsettled[-1].data)
    assert [(f.check, f.basis.value) for f in replayed("CBT-19", shipped=True)[0].findings] == \
        [(INVENTORY.check_id("CBT-19"), "proven")]
