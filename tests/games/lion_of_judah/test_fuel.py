"""(40) Italian fuel (PB 14.6.1.1 with its errata, PB 14.5.4) and the starting markers (SU-06,
PB 14.3.1) on SYNTHETIC positions: made-up units and phases, the shipped data for the rest."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from vlog.findings import Basis
from vlog.gamedata import load_game_data
from vlog.games.lion_of_judah.step_events import Appear, Combat, Move, PhaseTurned
from vlog.games.lion_of_judah.checks.fuel import (
    FuelLedger,
    burns_fuel,
    fuel_action,
    fuel_begin,
    fuel_control,
    judge_start_markers,
    marker_value,
    track_value,
)
from vlog.games.lion_of_judah.interpret import AttackDeclaration
from vlog.kit.combat import OpenCombat
from vlog.games.lion_of_judah.sequence import Phase
from vlog.games.lion_of_judah.state import Unit, build_state

from .synthetic import state, unit

ROOT = Path(__file__).resolve().parents[3]
DATA = load_game_data("lion-of-judah")


def phase(turn: int, key: str) -> Phase:
    return Phase("1940-41", turn, key)


def fuel_marker(box: str | None = "grt-6") -> Unit:
    return Unit(id="fuel", name="Italian fuel available", side="italian", hex=None, kind="marker",
                counter="it-fuel", box=box, steps=0)


def ipl_marker(box: str | None = "grt-5") -> Unit:
    return Unit(id="ipl", name="Italian prestige level", side="italian", hex=None, kind="marker",
                counter="it-ipl", box=box, steps=0)


def truck(id_: str = "truck", hex_: str = "1305") -> Unit:
    return replace(unit(id_, hex_, kind="truck", attack=None, defense=None, unit_class=None, size=None),
                   counter="it-truck")


def tank(id_: str = "CV", hex_: str = "1305") -> Unit:
    return replace(unit(id_, hex_, unit_type="armour", unit_class=None, size="battalion"), counter="it-cv")


def air(id_: str = "7 St") -> Unit:
    return replace(unit(id_, None, kind="air", attack=None, defense=None, unit_class=None, size=None),
                   counter="it-air-7st")


def move(u: Unit, to: str, step: int = 5) -> Move:
    return Move(step, u, to, when="w")


def appear(u: Unit, hex_: str, step: int = 5) -> Appear:
    return Appear(step, replace(u, hex=hex_), hex_, when="w")


def attack(attackers: list[Unit], at: Phase, step: int = 7, *, side: str = "italian",
           air: tuple[int, int] | None = None) -> Combat:
    pending = OpenCombat(step, "w", AttackDeclaration("1306", tuple(u.name for u in attackers), None, air),
                            side, state(*attackers), phase=at, phase_bound=True)
    return Combat(step, pending, tuple(attackers), (), when="w")


def phase_change(old: Phase, new: Phase, *units: Unit, step: int = 9) -> PhaseTurned:
    return PhaseTurned(step, old, new, True, state=state(*units))


def ledger_at(value: int) -> FuelLedger:
    ledger = FuelLedger()
    ledger.start(value, "test", 0)
    ledger.from_start = True
    return ledger


def act(ledger: FuelLedger, action: Event, at: Phase | None) -> list:
    return fuel_action(ledger, DATA, action, phase=at, phase_bound=True)


def test_one_fuel_per_player_phase_whatever_the_uses():
    """PB 14.6.1.1: moving several trucks and tanks and flying air in one player phase costs one."""
    ledger = ledger_at(6)
    at = phase(1, "second-movement")
    assert act(ledger, move(truck(), "1306"), at) == []
    assert act(ledger, move(tank(), "1306"), at) == []
    assert act(ledger, appear(air(), "1306"), phase(1, "second-combat")) == []
    assert ledger.possible == {5}
    assert ledger.charged[(1, "second")] == (5, "truck moved")


def test_rulebook_example_air_in_the_allied_phase_then_tanks_then_free_air():
    """PB 14.6.1.1 example: an air unit flown against Allied attacks (-1), tanks and trucks moved
    in the Italian phase (-1), the second air unit flown in the Italian combat segment (free)."""
    ledger = ledger_at(6)
    assert act(ledger, appear(air("III Br"), "1306"), phase(2, "first-combat")) == []
    assert ledger.possible == {5}
    act(ledger, move(tank(), "1307"), phase(2, "second-movement"))
    act(ledger, move(truck(), "1307"), phase(2, "second-movement"))
    assert ledger.possible == {4}
    act(ledger, appear(air("7 St"), "1308"), phase(2, "second-combat"))
    assert ledger.possible == {4}            # at most two fuel a turn


def test_armour_attack_costs_fuel_other_attacks_do_not():
    ledger = ledger_at(3)
    infantry = unit("Sb", "1305")
    assert act(ledger, attack([infantry], phase(4, "second-combat")), None) == []
    assert ledger.possible == {3}
    act(ledger, attack([infantry, tank()], phase(4, "second-combat")), None)
    assert ledger.possible == {2}


def test_what_burns_fuel():
    """Armour, HQs and trucks of the Italian side; not the DMK (PB 14.5.4), infantry or Allied trucks."""
    assert burns_fuel(truck()) and burns_fuel(tank())
    assert burns_fuel(replace(unit("SN", "1305", kind="hq", attack=None), counter="it-sn"))
    assert not burns_fuel(replace(unit("DMK", "1305", unit_type="armour"), counter="de-dmk"))
    assert not burns_fuel(unit("Sb", "1305"))
    assert not burns_fuel(replace(truck(), side="allied", counter="gb-truck-so"))


def test_moves_outside_player_phases_cost_nothing():
    """Rail and naval movement in the MAP and Open City moves in the Event Phase are in no player phase."""
    ledger = ledger_at(6)
    assert act(ledger, move(truck(), "1306"), phase(3, "map")) == []
    assert act(ledger, move(truck(), "1307"), phase(3, "event")) == []
    assert ledger.possible == {6} and ledger.charged == {}


def test_no_phase_from_the_turn_track_judges_nothing():
    ledger = ledger_at(0)
    assert fuel_action(ledger, DATA, move(truck(), "1306"), phase=phase(3, "second-movement"),
                       phase_bound=False) == []
    assert ledger.charged == {}


@pytest.mark.parametrize("make, check", [
    (lambda at: move(truck(), "1306"), "lion-of-judah/MV-47"),
    (lambda at: move(tank(), "1306"), "lion-of-judah/MV-47"),
    (lambda at: attack([tank()], at), "lion-of-judah/CB-40"),
    (lambda at: appear(air(), "1306"), "lion-of-judah/AR-10"),
])
def test_use_at_fuel_zero_is_proven(make, check):
    """Errata PB 14.6.1.1: at fuel 0 no HQ/truck/armour move, no armour attack, no air."""
    ledger = ledger_at(0)
    at = phase(8, "second-combat" if check.endswith("CB-40") else "second-movement")
    [f] = act(ledger, make(at), at)
    assert f.check == check and f.basis is Basis.PROVEN
    assert f.evidence["fuel"] == [0] and f.evidence["turn"] == 8
    assert ledger.possible == {0}
    assert act(ledger, make(at), at) == []      # reported once a phase


def test_the_last_fuel_pays_for_the_whole_phase():
    """Once the phase's fuel is paid (even the last one), the phase's other uses are paid for."""
    ledger = ledger_at(1)
    at = phase(8, "second-movement")
    assert act(ledger, move(truck(), "1306"), at) == []
    assert act(ledger, move(tank(), "1306"), at) == []
    assert ledger.possible == {0}
    [f] = act(ledger, move(truck(), "1307"), phase(9, "second-movement"))
    assert f.check == "lion-of-judah/MV-47"


def test_captured_fuel_depot_keeps_both_readings():
    """Optional rule: +1 the first time an Italian unit enters an Allied USS hex (0505 Khartoum)."""
    ledger = ledger_at(1)
    act(ledger, move(unit("Sb", "0605"), "0505"), phase(5, "second-movement"))
    assert ledger.possible == {1, 2}
    act(ledger, move(unit("Sb", "0505"), "0506"), phase(5, "second-movement"))
    assert ledger.possible == {1, 2}            # the first time only
    act(ledger, move(truck(), "0606"), phase(5, "second-movement"))
    assert ledger.possible == {0, 1}
    [f] = act(ledger, move(truck(), "0607"), phase(6, "second-movement"))
    assert f.check == "lion-of-judah/MV-47" and f.basis is Basis.POSSIBLE
    assert any("Captured fuel depots" in d for d in f.evidence["depends_on"])


def test_conquests_cost_fuel():
    """PB 14.6.1.1: -1 Kismayo 1925, -1 Massawa 1405, -2 Addis Ababa 1213, each once."""
    ledger = ledger_at(6)
    kar = unit("KAR1", "1213", side="allied", unit_class=None)
    fuel_control(ledger, {"1213": "allied"}, state(kar), step=3)
    assert ledger.possible == {4}
    fuel_control(ledger, {"1213": "allied", "1405": "allied"}, state(kar, replace(kar, id="k2", hex="1405")),
                 step=4)
    assert ledger.possible == {3}
    fuel_control(ledger, {"1213": "allied", "1405": "allied"}, state(kar), step=5)
    assert ledger.possible == {3}


def test_guerrillas_alone_or_a_later_log_leave_the_conquest_open():
    ledger = ledger_at(6)
    shoa = unit("Shoa", "1925", side="allied", unit_class="guerrilla")
    fuel_control(ledger, {"1925": "allied"}, state(shoa), step=3)
    assert ledger.possible == {5, 6} and any("guerrillas" in d for d in ledger.doubts)
    later = ledger_at(4)
    later.from_start = False
    fuel_control(later, {"1405": "allied"}, state(replace(shoa, hex="1405", unit_class=None)), step=3)
    assert later.possible == {3, 4}


def test_marker_judged_when_a_player_phase_ends():
    """SC-01: the marker shows the ledger's fuel when the phase's combat segment ends."""
    ledger = ledger_at(6)
    act(ledger, move(truck(), "1306"), phase(1, "second-movement"))
    closing = phase_change(phase(1, "second-combat"), phase(1, "end"), fuel_marker("grt-6"))
    [f] = act(ledger, closing, phase(1, "end"))
    assert f.check == "lion-of-judah/SC-01" and f.basis is Basis.PROVEN
    assert f.evidence["shown"] == 6 and f.evidence["expected"] == [5]
    assert f.evidence["spent_this_phase"] is True and f.step == 9
    assert "Italian player phase of turn 1" in f.message
    # the same gap is not reported again; a new one is
    act(ledger, move(truck(), "1307"), phase(2, "second-movement"))
    same = phase_change(phase(2, "second-combat"), phase(2, "end"), fuel_marker("grt-5"))
    assert act(ledger, same, phase(2, "end")) == []
    act(ledger, move(truck(), "1308"), phase(3, "second-movement"))
    worse = phase_change(phase(3, "second-combat"), phase(3, "end"), fuel_marker("grt-5"))
    [g] = act(ledger, worse, phase(3, "end"))
    assert g.evidence["shown"] == 5 and g.evidence["expected"] == [3]


def test_marker_right_is_legal_and_settles_the_readings():
    ledger = ledger_at(2)
    act(ledger, move(unit("Sb", "0605"), "0505"), phase(5, "second-movement"))
    assert ledger.possible == {2, 3}
    closing = phase_change(phase(5, "second-combat"), phase(5, "end"), fuel_marker("grt-3"))
    assert act(ledger, closing, phase(5, "end")) == []
    assert ledger.possible == {3}


def test_marker_not_judged_inside_a_player_phase_or_off_the_track():
    ledger = ledger_at(6)
    act(ledger, move(truck(), "1306"), phase(1, "second-movement"))
    inside = phase_change(phase(1, "second-movement"), phase(1, "second-combat"), fuel_marker("grt-6"))
    assert act(ledger, inside, phase(1, "second-combat")) == []
    off = phase_change(phase(1, "second-combat"), phase(1, "end"), fuel_marker(None))
    assert act(ledger, off, phase(1, "end")) == []
    gone = phase_change(phase(1, "second-combat"), phase(1, "end"))
    assert act(ledger, gone, phase(1, "end")) == []


def test_track_values():
    assert track_value(DATA, "grt-0") == 0 and track_value(DATA, "grt-11") == 11
    assert track_value(DATA, "rp-sudan") is None and track_value(DATA, None) is None
    assert marker_value(DATA, state(fuel_marker("grt-4")), "it-fuel")[0] == 4
    assert marker_value(DATA, state(), "it-fuel") == (None, None)


def test_starting_markers():
    """SU-06 (PB 14.3.1): fuel in GRT box 6, prestige in box 5."""
    assert judge_start_markers(DATA, state(fuel_marker(), ipl_marker()), step=None, when="w") == []
    found = judge_start_markers(DATA, state(fuel_marker("grt-5"), ipl_marker("grt-9")), step=None, when="w")
    assert [(f.check, f.evidence["shown"], f.evidence["expected"]) for f in found] == [
        ("lion-of-judah/SU-06", 5, 6), ("lion-of-judah/SU-06", 9, 5)]
    [f] = judge_start_markers(DATA, state(fuel_marker("rp-sudan"), ipl_marker()), step=None, when="w")
    assert f.evidence["shown"] is None and "no box of the General Records Track" in f.message
    assert judge_start_markers(DATA, state(), step=None, when="w") == []


def test_starting_markers_judged_when_play_begins():
    """SU-06 once, when the turn track enters the first player phase of a log begun at the start;
    the fuel marker's gap is not reported again under SC-01 at the end of that phase."""
    ledger = FuelLedger()
    fuel_begin(ledger, DATA, state(fuel_marker(), ipl_marker()), phase(1, "event"))
    wrong = (fuel_marker("grt-5"), ipl_marker())
    [f] = act(ledger, phase_change(phase(1, "event"), phase(1, "first-movement"), *wrong, step=2),
              phase(1, "first-movement"))
    assert f.check == "lion-of-judah/SU-06" and f.step == 2 and f.evidence["shown"] == 5
    assert act(ledger, phase_change(phase(1, "first-movement"), phase(1, "first-combat"), *wrong),
               phase(1, "first-combat")) == []
    assert act(ledger, phase_change(phase(1, "first-combat"), phase(1, "second-movement"), *wrong),
               phase(1, "second-movement")) == []
    later = FuelLedger()
    fuel_begin(later, DATA, state(*wrong), phase(4, "map"))
    assert act(later, phase_change(phase(4, "map"), phase(4, "first-movement"), *wrong),
               phase(4, "first-movement")) == []


def test_log_start_sets_the_fuel():
    """From the scenario's start: 6 (and the markers judged); from a later turn: the marker's value;
    without the turn track: unknown."""
    begun = FuelLedger()
    assert fuel_begin(begun, DATA, state(fuel_marker(), ipl_marker()), phase(1, "event")) == []
    assert begun.possible == {6} and begun.from_start
    later = FuelLedger()
    assert fuel_begin(later, DATA, state(fuel_marker("grt-2")), phase(7, "map")) == []
    assert later.possible == {2} and not later.from_start
    blind = FuelLedger()
    assert fuel_begin(blind, DATA, state(fuel_marker()), None) == []
    assert not blind.known
    assert act(blind, move(truck(), "1306"), phase(1, "second-movement")) == []


def test_vlog_module_zone_names_are_grt_boxes():
    """The start save written for the synthetic module puts the markers in the zones named like
    map.json's boxes; the state reads them as boxes grt-6 and grt-5 without any binding."""
    from vlog.table import Table
    from vlog.vassal.module import read_module
    from vlog.vassal.savefile import read_save

    folder = ROOT / "fixtures" / "lion-of-judah"
    data = load_game_data("lion-of-judah", overlays=[folder / "synthetic-data"])
    table = Table.from_save(read_save(folder / "synthetic" / "1940-41-start.vsav"),
                            read_module(folder / "synthetic" / "lion-of-judah.vmod"))
    s = build_state(table, data, scenario="1940-41")
    assert marker_value(data, s, "it-fuel")[0] == 6
    assert marker_value(data, s, "it-ipl")[0] == 5
    [fuel] = [u for u in s.units.values() if u.counter == "it-fuel"]
    assert fuel.kind == "marker" and fuel.hex is None and fuel.box == "grt-6"


def test_armour_attack_at_fuel_zero_is_cb40():
    """CB-40 (errata PB 14.6.1.1): no armour attack at fuel 0; infantry attacks are free."""
    ledger = ledger_at(0)
    at = phase(9, "second-combat")
    assert act(ledger, attack([unit("Sb", "1305")], at), None) == []
    [f] = act(ledger, attack([unit("Sb", "1305"), tank()], at), None)
    assert f.check == "lion-of-judah/CB-40" and f.subjects == ("CV",) and f.step == 7


def test_air_marker_at_fuel_zero_is_ar10():
    """AR-10 (errata PB 14.6.1.1): no air marker used at fuel 0, in either player phase; one
    finding a phase; an Allied air marker burns no Italian fuel."""
    ledger = ledger_at(0)
    allied = replace(air("Allied air"), side="allied", counter=None)
    assert act(ledger, appear(allied, "1306"), phase(9, "first-movement")) == []
    [f] = act(ledger, appear(air(), "1306"), phase(9, "first-movement"))
    assert f.check == "lion-of-judah/AR-10" and f.basis is Basis.PROVEN
    assert act(ledger, appear(air("III Br"), "1307"), phase(9, "first-combat")) == []
    [g] = act(ledger, appear(air(), "1306"), phase(9, "second-combat"))
    assert g.check == "lion-of-judah/AR-10" and g.evidence["player_phase"] == "second"


def test_italian_air_shift_declared_in_chat_spends_fuel():
    """An Italian air shift in an attack's declaration is an air marker used (PB 14.6.1.1):
    defending against an Allied attack (air 0/1) or attacking (air 1/0); none shown, none spent."""
    ledger = ledger_at(4)
    kar = unit("KAR1", "1305", side="allied", unit_class=None)
    assert act(ledger, attack([kar], phase(3, "first-combat"), side="allied", air=(1, 0)), None) == []
    assert ledger.possible == {4}
    act(ledger, attack([kar], phase(3, "first-combat"), side="allied", air=(0, 1)), None)
    assert ledger.possible == {3} and "Italian air support" in ledger.charged[(3, "first")][1]
    act(ledger, attack([unit("Sb", "1305")], phase(3, "second-combat"), air=(2, 0)), None)
    assert ledger.possible == {2}
    empty = ledger_at(0)
    [f] = act(empty, attack([unit("Sb", "1305")], phase(4, "second-combat"), air=(1, 1)), None)
    assert f.check == "lion-of-judah/AR-10" and f.subjects == ("Italian air support",)
