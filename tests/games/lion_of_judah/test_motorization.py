"""Motorized combat units (10.3.2): HQ-08, MV-34 and the motorisation's supply (SP-16), judged on
play scripts over the SYNTHETIC module and data (not the published charts): there a clear hex
costs 1 MP on foot and motorized, a mountain 2 on foot and 3 motorized, Sb is a 4-MF infantry
division, SL a 4-MF infantry brigade."""
from __future__ import annotations

import pytest

from vlog.engine.judge import Unknown
from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.motorization import MotorizationLedger, trucks_needed

from .scripted import TO_TURN_2_MAP, judge_actions
from .synthetic import unit

TRUCKS = ("@1704067200042", "@1704067200065", "@1704067200066")
"""The three Italian trucks of the synthetic 1935-36 start (in the unplaced pieces)."""


def play(tmp_path, setup: str, movement: str, *, map_phase: str = "") -> list:
    """Set up (before the turn track moves), play turn 1 through, then turn 2's MAP
    (`map_phase`) and the Italian movement (`movement`); the findings of the whole log."""
    return judge_actions(tmp_path, "\n".join([
        "as Alice", setup,
        TO_TURN_2_MAP,
        map_phase,
        "turn next", "turn next",                           # Event, Italian movement
        movement,
        "turn next"]))                                      # Italian combat


def placed(*pieces: tuple[str, str]) -> str:
    return "\n".join(f'move {p} along {hex_} on "Main Map"' for p, hex_ in pieces)


def moved(hex_: str, *pieces: str) -> str:
    return "\n".join(f"move {p} along {hex_}" for p in pieces)


def checks(findings) -> list[str]:
    return [f.check.split("/", 1)[1] for f in findings]


def test_a_division_with_two_trucks_moves_motorized(tmp_path):
    """Five clear hexes (1405 -> 1509) are beyond Sb's 4 MPs on foot, within 4 + 2 motorized."""
    setup = placed((TRUCKS[0], "1405"), (TRUCKS[1], "1405"), ('"Sb"', "1405"))
    assert play(tmp_path, setup, moved("1509", TRUCKS[0], TRUCKS[1], '"Sb"')) == []


def test_motorized_costs_apply(tmp_path):
    """Amba Aradam (1208, a mountain) costs 5 MPs on foot from Massawa and 6 motorized: within the
    6 MPs of a motorized Sb. 1511 costs 7: one MP beyond them (no forced-march roll logged)."""
    setup = placed((TRUCKS[0], "1405"), (TRUCKS[1], "1405"), ('"Sb"', "1405"))
    assert play(tmp_path, setup, moved("1208", TRUCKS[0], TRUCKS[1], '"Sb"')) == []
    found = play(tmp_path, setup, moved("1511", TRUCKS[0], TRUCKS[1], '"Sb"'))
    [over] = [f for f in found if f.check.endswith("MV-23")]
    assert over.subjects == ("Sb",) and over.evidence["allowance"] == 6
    assert over.evidence["motorized"] is True and over.evidence["cheapest_cost"] == 7
    assert "+2: motorized by 2 truck(s), at motorized costs (10.3.2)" in over.evidence["adjustments"]


def test_without_its_trucks_a_division_walks(tmp_path):
    setup = placed((TRUCKS[0], "1405"), (TRUCKS[1], "1405"), ('"Sb"', "1405"))
    [f] = play(tmp_path, setup, moved("1509", '"Sb"'))
    assert checks([f]) == ["MV-23"] and f.evidence["allowance"] == 4 and f.evidence["motorized"] is False


def test_trucks_may_follow_hop_by_hop(tmp_path):
    """The truck a hex behind the division on each hop still rides with it (it stands in the hex
    the division leaves); both end together."""
    setup = placed((TRUCKS[0], "1405"), (TRUCKS[1], "1405"), ('"Sb"', "1405"))
    hops = []
    for hex_ in ("1505", "1506", "1507", "1508", "1509"):
        hops += [f'move "Sb" along {hex_}', f"move {TRUCKS[0]} along {hex_}", f"move {TRUCKS[1]} along {hex_}"]
    found = play(tmp_path, setup, "\n".join(hops))
    assert checks(found) == [], [f.message for f in found]


def test_a_division_takes_two_trucks(tmp_path):
    setup = placed((TRUCKS[0], "1405"), ('"Sb"', "1405"))
    [f] = play(tmp_path, setup, moved("1509", TRUCKS[0], '"Sb"'))
    assert checks([f]) == ["HQ-08"] and f.basis is Basis.PROVEN and f.rule == "10.3.2"
    assert f.evidence == {"unit": "Sb", "size": "division", "type": "infantry", "trucks": 1,
                          "from": "1405", "trucks_needed": 2}


def test_one_truck_motorizes_a_brigade(tmp_path):
    setup = placed((TRUCKS[0], "1405"), ('"SL"', "1405"))
    assert play(tmp_path, setup, moved("1509", TRUCKS[0], '"SL"')) == []


def test_a_truck_is_not_picked_up_in_the_movement_segment(tmp_path):
    """The truck began the segment next to SL (1404): it had to go under SL in the MAP."""
    setup = placed((TRUCKS[2], "1404"), ('"SL"', "1405"))
    [f] = play(tmp_path, setup, moved("1405", TRUCKS[2]) + "\n" + moved("1506", TRUCKS[2], '"SL"'))
    assert checks([f]) == ["HQ-08"]
    assert f.evidence == {"unit": "SL", "from": "1405", "truck": "Italian truck", "truck_began_at": "1404"}


def test_trucks_go_under_a_unit_next_to_them_in_the_map(tmp_path):
    """Moving a truck one hex onto Sb in the MAP is motorisation, not rail movement (MV-36): in the
    movement segment that follows the trucks began in Sb's hex."""
    setup = placed((TRUCKS[1], "1404"), (TRUCKS[2], "1404"), ('"Sb"', "1405"))
    found = play(tmp_path, setup, moved("1509", TRUCKS[1], TRUCKS[2], '"Sb"'),
                 map_phase=moved("1405", TRUCKS[1], TRUCKS[2]))
    assert found == [], [f.message for f in found]


def test_a_truck_two_hexes_away_in_the_map_is_rail_movement(tmp_path):
    setup = placed((TRUCKS[1], "1503"), ('"SL"', "1405"))
    found = play(tmp_path, setup, "", map_phase=moved("1405", TRUCKS[1]))
    assert checks(found) == ["MV-36"], [f.message for f in found]


def test_trucks_stay_with_the_unit_until_the_next_map(tmp_path):
    setup = placed((TRUCKS[0], "1405"), ('"SL"', "1405"))
    [f] = play(tmp_path, setup, moved("1509", TRUCKS[0], '"SL"') + "\n" + moved("1508", TRUCKS[0]))
    assert checks([f]) == ["MV-34"] and f.basis is Basis.PROVEN
    assert f.evidence["trucks_away"] == {"Italian truck": "1508"} and f.evidence["hex"] == "1509"
    assert f.step == f.evidence["motorized_at_step"] + 1       # the step the truck drove off


def test_a_division_out_of_supply_in_the_map_is_not_motorized(tmp_path):
    """1410 has no supply trace in the synthetic start: the division was out of supply when
    the MAP began (SP-16); halved to 2 MPs, +2 motorized, it reaches 1509 next door."""
    setup = placed((TRUCKS[0], "1410"), (TRUCKS[1], "1410"), ('"Sb"', "1410"))
    found = [f for f in play(tmp_path, setup, moved("1509", TRUCKS[0], TRUCKS[1], '"Sb"'))
             if f.subjects == ("Sb",)]
    assert sorted(checks(found)) == ["SP-16", "SU-02"], [f.message for f in found]   # Sb set up outside Eritrea
    found = [f for f in found if f.check.endswith("SP-16")]
    assert found[0].evidence["action"] == "motorize" and found[0].evidence["hex"] == "1410"


def test_trucks_needed():
    assert trucks_needed(unit("sb", "1405", size="division", unit_type="infantry")) == 2
    assert trucks_needed(unit("m", "1405", size="division", unit_type="mountain-infantry")) == 2
    assert trucks_needed(unit("sl", "1405", size="brigade", unit_type="infantry")) == 1
    assert trucks_needed(unit("cav", "1405", size="division", unit_type="cavalry")) is None
    assert isinstance(trucks_needed(unit("x", "1405", size=None)), Unknown)
    assert isinstance(trucks_needed(unit("y", "1405", size="division", unit_type=None)), Unknown)


@pytest.mark.parametrize("kind, motorized", [("hq", True), ("truck", True), ("combat", True)])
def test_only_foot_combat_units_are_motorized(kind, motorized):
    """HQs (10.3.3, HQ-09), trucks and units motorized by class (armour, 2.3.8) never ride."""
    ledger = MotorizationLedger(board=None)  # type: ignore[arg-type]
    mover = unit("u", "1405", kind=kind, motorized=motorized)
    assert ledger.riders(mover, "1405", "1505", None, None, None, None,  # type: ignore[arg-type]
                         step=1, when=None) == set()
