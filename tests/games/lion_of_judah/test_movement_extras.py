"""Movement items beyond the basic costs, on SYNTHETIC boards (not the published map or charts):
interdiction by air markers (MV-18, 10.1.5) and by guerrillas (MV-20, PB 14.6.4.1), the rainy
season (MV-22, PB 14.6.2.2), supply at each forced-march attempt (MV-25, 9.2), ambushes
(MV-26, 11.5.3) and guerrillas staying in Ethiopia (MV-43, PB 14.6.4.1, 14.6.1.3)."""
from __future__ import annotations

import pytest

from vlog.engine.judge import Unknown
from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.movement import Interdiction, MoveFacts, allowance_of, judge_move, rainy_season
from vlog.games.lion_of_judah.checks.movement_segment import (
    AmbushLedger,
    GuerrillaInterdiction,
    MovementLedger,
    NavalLedger,
    air_interdiction,
    ambush_possible,
    forced_march_result,
    friendly_country,
    judge_forced_march_supply,
    judge_naval_move,
)
from vlog.games.lion_of_judah.state import Unit

from .synthetic import shipped_board, state, synthetic_board, unit

ERITREA = [f"{c:02d}{r:02d}" for c in range(14, 16) for r in range(1, 8)]
ETHIOPIA = [f"{c:02d}{r:02d}" for c in range(16, 19) for r in range(1, 12)]


@pytest.fixture
def board(tmp_path):
    """Clear hexes; columns 14-15 (rows 1-7) Eritrea, columns 16-18 Ethiopia."""
    return synthetic_board(tmp_path / "b", zones={"eritrea": ERITREA, "ethiopia": ETHIOPIA})


def only(findings, check):
    assert [f.check for f in findings] == [f"lion-of-judah/{check}"], [f.message for f in findings]
    return findings[0]


def air(id, hex_, side="allied", name="Br 1"):
    return unit(id, hex_, name=name, side=side, kind="air", attack=None, defense=None, movement=None,
                steps=0, unit_class=None, size=None)


def guerrilla(id, hex_, faction="shoa", name=None):
    return unit(id, hex_, name=name or f"{faction} guerrilla", side="allied", unit_class="guerrilla",
                size=None, attack=1, defense=1, movement=4, faction=faction)


# -- MV-18: air interdiction ----------------------------------------------------------------------

def test_an_enemy_air_marker_interdicts_and_an_own_one_does_not():
    sb = unit("sb", "1603", name="Sb")
    s = state(sb, air("a", "1603"), scenario="1940-41")
    got = air_interdiction(s, sb, "1940-41")
    assert got == Interdiction("MV-18", "air marker Br 1 at 1603")
    own = state(sb, air("i", "1603", side="italian", name="7 St"), scenario="1940-41")
    assert air_interdiction(own, sb, "1940-41") is None
    assert air_interdiction(state(sb, air("a", "1604")), sb, "1940-41") is None


def test_interdiction_takes_two_from_the_mf():
    sb = unit("sb", "1603", movement=4)
    why = Interdiction("MV-18", "air marker Br 1 at 1603")
    assert allowance_of(sb, False, interdiction=why) == (2, ["-2: interdicted by air marker Br 1 at 1603 (10.1.5)"])
    # after halving (9.3): 4 -> 2 leaves nothing, so the reduction is not applied (minimum move)
    assert allowance_of(sb, True, interdiction=why)[0] == 2


def test_a_move_on_the_full_mf_under_an_air_marker_is_mv18(board):
    sb = unit("sb", "1603", name="Sb")
    s = state(sb, air("a", "1603"), scenario="1940-41")
    why = air_interdiction(s, sb, "1940-41")
    assert judge_move(board, s, MoveFacts(sb, "1603", "1605", scenario="1940-41", interdiction=why),
                      step=3, when=None) == []
    f = only(judge_move(board, s, MoveFacts(sb, "1603", "1607", scenario="1940-41", interdiction=why),
                        step=3, when=None), "MV-18")
    assert f.basis is Basis.PROVEN and f.rule == "10.1.5"
    assert f.evidence["allowance"] == 2 and f.evidence["allowance_without_interdiction"] == 4
    assert f.evidence["cheapest_cost"] == 4 and f.evidence["interdicted_by"] == "air marker Br 1 at 1603"
    assert "beyond the 2 MPs left it by air marker Br 1 at 1603" in f.message


def test_a_move_too_long_even_uninterdicted_is_not_blamed_on_the_marker(board):
    """Six clear hexes without a forced-march roll are beyond the MF itself (MV-23 uninterdicted):
    reported as the move it is, on the interdicted allowance, not as MV-18."""
    sb = unit("sb", "1603", name="Sb")
    s = state(sb, air("a", "1603"), scenario="1940-41")
    facts = MoveFacts(sb, "1603", "1609", scenario="1940-41", interdiction=air_interdiction(s, sb, "1940-41"))
    f = only(judge_move(board, s, facts, step=3, when=None), "MV-03")
    assert f.evidence["allowance"] == 2
    assert f.evidence["adjustments"] == ["-2: interdicted by air marker Br 1 at 1603 (10.1.5)"]


def test_an_italian_marker_in_1935_may_have_gassed_instead(board):
    """(35) the marker over Ethiopian units may have flown a gas attack (PB 13.6.5.1)."""
    levy = unit("lv", "1603", name="Tigray levy", side="ethiopian", unit_class="ethiopian-levy",
                faction="tigray", movement=4)
    s = state(levy, air("it", "1603", side="italian", name="III Br"), scenario="1935-36")
    why = air_interdiction(s, levy, "1935-36")
    assert isinstance(why.certain, Unknown)
    f = only(judge_move(board, s, MoveFacts(levy, "1603", "1607", scenario="1935-36", interdiction=why),
                        step=3, when=None), "MV-18")
    assert f.basis is Basis.POSSIBLE
    assert any("gas attack" in d for d in f.evidence["depends_on"])


# -- MV-20: guerrilla interdiction ----------------------------------------------------------------

def test_each_guerrilla_interdicts_one_italian_unit_of_its_hex(board):
    """Two Italian units and one guerrilla at 1603: one of them may use its full MF, not both."""
    sb, gs = unit("sb", "1603", name="Sb"), unit("gs", "1603", name="GS")
    g = guerrilla("g", "1603")
    s = state(sb, gs, g, scenario="1940-41")
    ledger = GuerrillaInterdiction()
    ledger.start_segment(s, "1940-41", "italian")
    assert ledger.hexes == {"1603": (1, 2)}
    found = []
    for u in (sb, gs):
        why = ledger.interdiction(u, "1603")
        assert why.check == "MV-20"
        judged = judge_move(board, s, MoveFacts(u, "1603", "1607", scenario="1940-41", interdiction=why),
                            step=3, when=None)
        found.append(ledger.settle(judged, u, "1603"))
    assert found[0] == []
    f = only(found[1], "MV-20")
    assert f.basis is Basis.PROVEN and f.rule == "PB 14.6.4.1" and f.subjects == ("GS",)
    assert f.evidence["allowance"] == 2 and f.evidence["allowance_without_interdiction"] == 4
    # the same unit judged again (dragged on) keeps the slot it took
    again = judge_move(board, s, MoveFacts(sb, "1603", "1607", scenario="1940-41",
                                           interdiction=ledger.interdiction(sb, "1603")), step=4, when=None)
    assert ledger.settle(again, sb, "1603") == []


def test_no_guerrilla_interdiction_under_an_allied_air_marker_or_outside_the_italian_segment():
    sb, g = unit("sb", "1603", name="Sb"), guerrilla("g", "1603")
    ledger = GuerrillaInterdiction()
    ledger.start_segment(state(sb, g, air("a", "1603"), scenario="1940-41"), "1940-41", "italian")
    assert ledger.hexes == {}
    ledger.start_segment(state(sb, g, scenario="1940-41"), "1940-41", "allied")
    assert ledger.hexes == {}


# -- MV-22: the rainy season ----------------------------------------------------------------------

def test_rainy_turns():
    assert [t for t in range(1, 12) if rainy_season("1940-41", t)] == [2, 3, 4]
    assert not rainy_season("1935-36", 3)


def test_rain_doubles_costs_outside_the_dry_zones(board):
    """Ethiopia (1603 onwards) is wet: 3 clear hexes cost 6 > 4; Eritrea is dry."""
    sb = unit("sb", "1603", name="Sb")
    s = state(sb, scenario="1940-41")
    assert judge_move(board, s, MoveFacts(sb, "1603", "1605", scenario="1940-41", turn=3, rainy=True),
                      step=5, when=None) == []
    f = only(judge_move(board, s, MoveFacts(sb, "1603", "1606", scenario="1940-41", turn=3, rainy=True),
                        step=5, when=None), "MV-22")
    assert f.basis is Basis.PROVEN and f.rule == "PB 14.6.2.2"
    assert f.evidence["allowance"] == 4 and f.evidence["turn"] == 3 and f.evidence["rainy_season"] is True
    assert judge_move(board, s, MoveFacts(sb, "1603", "1606", scenario="1940-41", turn=5),
                      step=5, when=None) == []
    dry = unit("it", "1402", name="It")
    assert judge_move(board, state(dry, scenario="1940-41"),
                      MoveFacts(dry, "1402", "1406", scenario="1940-41", turn=3, rainy=True),
                      step=5, when=None) == []


def test_rain_where_the_borders_are_unknown_is_only_possible():
    """The shipped map has no country hexes: the doubling, and so MV-22, depends on them."""
    board = shipped_board()
    sb = unit("sb", "1603", name="Sb")
    found = judge_move(board, state(sb, scenario="1940-41"),
                       MoveFacts(sb, "1603", "1606", scenario="1940-41", turn=3, rainy=True), step=5, when=None)
    assert all(f.basis is Basis.POSSIBLE for f in found)


# -- MV-43: guerrillas stay in Ethiopia -----------------------------------------------------------

def test_a_guerrilla_may_not_leave_ethiopia(board):
    g = guerrilla("g", "1603", name="Shoa guerrilla")
    f = only(judge_move(board, state(g, scenario="1940-41"),
                        MoveFacts(g, "1603", "1503", scenario="1940-41"), step=2, when=None), "MV-43")
    assert f.basis is Basis.PROVEN and f.rule == "PB 14.6.4.1; 14.6.1.3"
    assert f.evidence["to"] == "1503" and "outside Ethiopia" in f.message
    assert judge_move(board, state(g, scenario="1940-41"), MoveFacts(g, "1603", "1605", scenario="1940-41"),
                      step=2, when=None) == []


def test_a_guerrilla_may_not_pass_another_factions_guerrillas(board):
    """1704 holds Gojjam guerrillas; on its 2 MPs the Shoa guerrilla's only path from 1703 to
    1705 (straight down column 17) goes through 1704; a Shoa guerrilla there is no obstacle."""
    g = unit("g", "1703", name="Shoa guerrilla", side="allied", unit_class="guerrilla", size=None,
             attack=1, defense=1, movement=2, faction="shoa")
    gojjam = guerrilla("gj", "1704", faction="gojjam", name="Gojjam guerrilla")
    s = state(g, gojjam, scenario="1940-41")
    f = only(judge_move(board, s, MoveFacts(g, "1703", "1705", scenario="1940-41"), step=2, when=None), "MV-43")
    assert f.basis is Basis.PROVEN and f.evidence["other_factions"] == ["gojjam"]
    assert f.evidence["route"] == ["1703", "1704", "1705"]
    same = guerrilla("sh", "1704", faction="shoa", name="Shoa 2")
    assert judge_move(board, state(g, same, scenario="1940-41"),
                      MoveFacts(g, "1703", "1705", scenario="1940-41"), step=2, when=None) == []
    # ending in the Gojjam hex is no passing through (PB 14.6.4.1 forbids moving through)
    assert judge_move(board, s, MoveFacts(g, "1703", "1704", scenario="1940-41"), step=2, when=None) == []


def test_other_scenarios_and_units_are_not_bound_to_ethiopia(board):
    kar = unit("kar", "1603", name="KAR1", side="allied", unit_class="commonwealth")
    assert judge_move(board, state(kar, scenario="1940-41"), MoveFacts(kar, "1603", "1503", scenario="1940-41"),
                      step=2, when=None) == []


# -- MV-25: supply at each forced-march attempt ---------------------------------------------------

def test_forced_march_from_a_hex_out_of_supply(board):
    """1935-36: Massawa (1405) is the Italian supply source; 1409 is 4 hexes off, 1406 one."""
    sb = unit("sb", "1409", name="Sb")
    s = state(sb, scenario="1935-36")
    f = only(judge_forced_march_supply(board, s, sb, "1409", "1410", (3,), step=7, when=None), "MV-25")
    assert f.basis is Basis.PROVEN and f.rule == "9.2"
    assert f.evidence["from"] == "1409" and f.evidence["forced_march_rolls"] == [3]
    assert "1405" in f.evidence["supply_sources"]
    near = unit("sb", "1406", name="Sb")
    assert judge_forced_march_supply(board, state(near, scenario="1935-36"), near, "1406", "1407", (3,),
                                     step=7, when=None) == []
    assert judge_forced_march_supply(board, s, sb, "1409", "1410", (), step=7, when=None) == []
    # a drag of several hexes: the hex the attempt was made from is not shown
    assert judge_forced_march_supply(board, s, sb, "1409", "1411", (3,), step=7, when=None) == []


# -- MV-26: ambush ------------------------------------------------------------------------------

def test_forced_march_results(board):
    assert forced_march_result(board, 1) == ("1/A", True)
    assert forced_march_result(board, 5) == ("0/A", True)
    assert forced_march_result(board, 2) == ("1", False)


def test_when_an_ambush_may_strike(board):
    sb = unit("sb", "1406", name="Sb")
    assert friendly_country(board, "1406", "italian", "1935-36") is True
    assert friendly_country(board, "1606", "italian", "1935-36") is False
    assert ambush_possible(board, state(sb), sb, ("1406", "1407"), "1935-36")[0] is False
    due, why = ambush_possible(board, state(sb), sb, ("1406", "1606"), "1935-36")
    assert due is True and why == ["1606 is not in a friendly country"]
    enemy = unit("lv", "1408", name="Tigray levy", side="ethiopian")
    due, why = ambush_possible(board, state(sb, enemy), sb, ("1406", "1407"), "1935-36")
    assert due is True and why == ["1407 is next to enemy units (Tigray levy)"]


def test_an_ambushed_stack_must_lose_a_step(board):
    sb, gs = unit("sb", "1605", name="Sb"), unit("gs", "1605", name="GS")
    s = state(sb, gs, scenario="1935-36")
    ledger = AmbushLedger()
    ledger.start_segment(s, "italian")
    for u in (sb, gs):                      # one drag of the stack, roll 1: '1/A', into Ethiopia
        ledger.record(board, s, u, "1605", "1606", (1,), "1935-36", step=9, when="T1")
    moved = state(unit("sb", "1606", name="Sb"), unit("gs", "1606", name="GS"), scenario="1935-36")
    f = only(ledger.settle(board, moved, {"sb", "gs"}), "MV-26")
    assert f.basis is Basis.PROVEN and f.step == 9 and f.rule == "11.5.3"
    assert f.evidence["roll"] == 1 and f.evidence["result"] == "1/A" and f.evidence["stack"] == ["Sb", "GS"]
    # one step from either unit settles it
    ledger.start_segment(s, "italian")
    for u in (sb, gs):
        ledger.record(board, s, u, "1605", "1606", (1,), "1935-36", step=9, when="T1")
    reduced = state(unit("sb", "1606", name="Sb"), unit("gs", "1606", name="GS", steps=3), scenario="1935-36")
    assert ledger.settle(board, reduced, {"sb", "gs"}) == []


def test_no_ambush_on_a_plain_result_or_in_a_friendly_country(board):
    sb = unit("sb", "1404", name="Sb")
    s = state(sb, scenario="1935-36")
    ledger = AmbushLedger()
    ledger.start_segment(s, "italian")
    ledger.record(board, s, sb, "1404", "1405", (1,), "1935-36", step=4, when=None)   # Eritrea
    ledger.record(board, s, sb, "1404", "1405", (2,), "1935-36", step=5, when=None)   # '1'
    assert ledger.pending == {}
    assert ledger.settle(board, state(unit("sb", "1405", name="Sb")), {"sb"}) == []


def test_a_stack_still_moving_is_not_settled(board):
    sb = unit("sb", "1605", name="Sb")
    s = state(sb, scenario="1935-36")
    ledger = AmbushLedger()
    ledger.start_segment(s, "italian")
    ledger.record(board, s, sb, "1605", "1606", (1,), "1935-36", step=9, when=None)
    assert ledger.settle(board, s, set()) == []
    assert list(ledger.pending) == [9]


# -- MV-27: Tug movement --------------------------------------------------------------------------

JUBBA = ("1925", "1924", "1923", "1922", "1822", "1721")


@pytest.fixture
def beds(tmp_path):
    """A SYNTHETIC Jubba bed of six contiguous hexes on a clear board, all in Italian Somaliland."""
    somaliland = [f"{c:02d}{r:02d}" for c in range(16, 21) for r in range(18, 28)]
    return synthetic_board(tmp_path / "tug", lines={"tug-jubba-test": ("tug", JUBBA)},
                           zones={"italian-somaliland": somaliland})


def test_tug_movement_doubles_the_mf_along_the_bed(beds):
    """Sb (MF 4) follows the bed five hexes with no forced-march roll: legal in 1935-36."""
    sb = unit("sb", "1925", name="Sb")
    s = state(sb, scenario="1935-36")
    assert judge_move(beds, s, MoveFacts(sb, "1925", "1721", scenario="1935-36"), step=2, when=None) == []


def test_leaving_the_bed_or_another_scenario_is_a_forced_march(beds):
    """One hex off the bed (1821 is next to 1822 but not on the line) the move is plain MV-23;
    so is the same move in 1940-41, where the rule is not given (inventory A-47)."""
    sb = unit("sb", "1925", name="Sb")
    s = state(sb, scenario="1935-36")
    f = only(judge_move(beds, s, MoveFacts(sb, "1925", "1821", scenario="1935-36"), step=2, when=None), "MV-23")
    assert f.basis is Basis.PROVEN
    only(judge_move(beds, state(sb, scenario="1940-41"), MoveFacts(sb, "1925", "1721", scenario="1940-41"),
                    step=2, when=None), "MV-23")


def test_ethiopian_units_do_not_follow_the_beds(beds):
    levy = unit("lv", "1925", name="Bale levy", side="ethiopian", unit_class="ethiopian-levy", movement=4)
    only(judge_move(beds, state(levy, scenario="1935-36"), MoveFacts(levy, "1925", "1721", scenario="1935-36"),
                    step=2, when=None), "MV-03")


# -- MV-19: gassed units --------------------------------------------------------------------------

def gassed(id, hex_):
    return Unit(id=id, name="Gassed", side=None, hex=hex_, kind="marker", counter="mk-gassed", steps=0)


def test_each_gassed_marker_interdicts_one_unit_of_its_hex(board):
    """(35) one Gassed marker on a hex of two Ethiopian units: one of them may still use its
    full MF, the other is interdicted (PB 13.6.5.1); the Italian marker there may have gassed,
    so the gas counting applies, not the uncertain air interdiction."""
    levy = unit("lv", "1603", name="Tigray levy", side="ethiopian", unit_class="ethiopian-levy",
                faction="tigray", movement=4)
    seyum = unit("rs", "1603", name="Ras Seyum", side="ethiopian", kind="leader", unit_class=None,
                 faction="tigray", movement=4)
    s = state(levy, seyum, gassed("g", "1603"), air("it", "1603", side="italian", name="III Br"),
              scenario="1935-36")
    ledger = MovementLedger()
    ledger.start_segment(s, "1935-36", "ethiopian", turn=1)
    found = []
    for u in (levy, seyum):
        assert ledger.on_drag(board, s, u, "1603", "1607", (), eligible=False, step=4, when=None) == []
        facts = MoveFacts(u, "1603", "1607", scenario="1935-36", **ledger.facts(u))
        assert facts.interdiction.check == "MV-19"
        found.append(ledger.judged(judge_move(board, s, facts, step=4, when=None), u, "1603"))
    assert found[0] == []
    f = only(found[1], "MV-19")
    assert f.basis is Basis.PROVEN and f.rule == "PB 13.6.5.1" and f.subjects == ("Ras Seyum",)
    assert f.evidence["interdicted_by"] == "1 Gassed marker(s) at 1603 (PB 13.6.5.1)"
    assert f.evidence["allowance"] == 2 and f.evidence["allowance_without_interdiction"] == 4


def test_as_many_gassed_markers_as_units_interdict_them_all(board):
    levy = unit("lv", "1603", name="Tigray levy", side="ethiopian", unit_class="ethiopian-levy",
                faction="tigray", movement=4)
    s = state(levy, gassed("g", "1603"), scenario="1935-36")
    ledger = MovementLedger()
    ledger.start_segment(s, "1935-36", "ethiopian", turn=1)
    ledger.on_drag(board, s, levy, "1603", "1604", (), eligible=False, step=4, when=None)
    facts = MoveFacts(levy, "1603", "1606", scenario="1935-36", **ledger.facts(levy))
    only(ledger.judged(judge_move(board, s, facts, step=4, when=None), levy, "1603"), "MV-19")


# -- MV-38, MV-39: naval movement -----------------------------------------------------------------

@pytest.fixture
def ports(tmp_path):
    """Massawa (1405) a coastal town, 1406 a coastal hex without one (SYNTHETIC features)."""
    return synthetic_board(tmp_path / "ports", features={"1405": ["town", "coastal"], "1406": ["coastal"]})


def naval(board, unit_, *, scenario, turn=2, box="grt-3", origin=None, ledger=None):
    return judge_naval_move(board, state(unit_, scenario=scenario), unit_, origin or unit_.hex, box,
                            scenario=scenario, turn=turn, ledger=ledger or NavalLedger(), step=9, when="T2")


def test_one_division_by_sea_from_a_coastal_town_arrives_next_turn(ports):
    assert naval(ports, unit("sb", "1405", name="Sb"), scenario="1935-36") == []


def test_only_the_side_the_scenario_allows(ports):
    f = only(naval(ports, unit("sb", "1405", name="Sb"), scenario="1940-41"), "MV-38")
    assert f.basis is Basis.PROVEN and f.rule == "11.8; PB 13.5.1; PB 14.5.1"
    assert "the Italian player may not use in the 1940-41 scenario (PB 14.5.1)" in f.message
    assert f.evidence["arrives"] == 3
    kar = unit("kar", "1405", name="KAR1", side="allied", unit_class="commonwealth", size="brigade")
    assert naval(ports, kar, scenario="1940-41") == []


def test_not_from_a_coastal_town_nor_to_another_turn(ports):
    f = only(naval(ports, unit("sb", "1406", name="Sb"), scenario="1935-36"), "MV-38")
    assert "not a coastal hex with a town or capital" in f.message
    f = only(naval(ports, unit("sb", "1405", name="Sb"), scenario="1935-36", box="grt-4"), "MV-38")
    assert "following turn, 3" in f.message
    f = only(naval(ports, unit("sb", "1405", name="Sb"), scenario="1935-36", origin="1305"), "MV-38")
    assert "1305 (Asmara), where it began the MAP, is not a coastal hex" in f.message
    assert naval(ports, unit("sb", "1405", name="Sb"), scenario="1935-36", box="rp-northern-front") == []


def test_one_division_a_map(ports):
    """The 11.8 example: of two divisions at Massawa only one sails a turn; two brigades may."""
    ledger = NavalLedger()
    assert naval(ports, unit("sb", "1405", name="Sb"), scenario="1935-36", ledger=ledger) == []
    f = only(naval(ports, unit("pl", "1405", name="PL"), scenario="1935-36", ledger=ledger), "MV-39")
    assert f.basis is Basis.PROVEN and f.evidence["units"] == ["Sb", "PL"]
    assert f.evidence["division_equivalents"] == "2"
    two = NavalLedger()
    for b in ("b1", "b2"):
        assert naval(ports, unit(b, "1405", size="brigade"), scenario="1935-36", ledger=two) == []
    assert naval(ports, unit("sb", "1405", name="Sb"), scenario="1935-36", turn=3, box="grt-4", ledger=ledger) == []


def test_the_shipped_map_does_not_say_which_hexes_are_coastal():
    f = only(naval(shipped_board(), unit("sb", "1405", name="Sb"), scenario="1935-36"), "MV-38")
    assert f.basis is Basis.POSSIBLE and any("1405" in d for d in f.evidence["depends_on"])


# -- MV-41: first to enter (optional) -------------------------------------------------------------

def test_the_first_italian_unit_into_an_ethiopian_town_is_a_regular(tmp_path):
    """(35) 1605 a town of Ethiopia on a SYNTHETIC board: an Eritrean colonial first into it is
    possibly wrong (the optional rule may not be played); a regular first, then the colonial, is not."""
    board = synthetic_board(tmp_path / "t", features={"1605": ["town"]}, zones={"ethiopia": ETHIOPIA})
    ascari = unit("as", "1604", name="1st Eritrean", unit_class="eritrean-colonial-regular", size="brigade")
    sb = unit("sb", "1604", name="Sb")
    ledger = MovementLedger()
    ledger.start_segment(state(ascari, sb, scenario="1935-36"), "1935-36", "italian", turn=1)
    f = only(ledger.on_drag(board, state(ascari, sb, scenario="1935-36"), ascari, "1604", "1605", (),
                            eligible=True, step=3, when=None), "MV-41")
    assert f.basis is Basis.POSSIBLE and f.rule == "PB 13.6.7.4, optional"
    assert f.evidence["hex"] == "1605" and f.evidence["class"] == "eritrean-colonial-regular"
    assert any("First to enter" in d for d in f.evidence["depends_on"])
    assert ledger.on_drag(board, state(ascari, sb, scenario="1935-36"), sb, "1604", "1605", (),
                          eligible=True, step=4, when=None) == []
    other = MovementLedger()
    other.start_segment(state(ascari, sb, scenario="1935-36"), "1935-36", "italian", turn=1)
    assert other.on_drag(board, state(ascari, sb, scenario="1935-36"), sb, "1604", "1605", (),
                         eligible=True, step=3, when=None) == []
    assert other.on_drag(board, state(ascari, sb, scenario="1935-36"), ascari, "1604", "1605", (),
                         eligible=True, step=4, when=None) == []
    # not a town: nothing to judge
    assert other.on_drag(board, state(ascari, scenario="1935-36"), ascari, "1604", "1603", (),
                         eligible=True, step=5, when=None) == []


# -- MV-40: the Danakil desert (optional) ---------------------------------------------------------

def test_an_air_supplied_irregular_may_cross_the_danakil_only_with_the_option(tmp_path):
    """(35) 1604-1606 desert with the Danakil track 1603..1607 through it (SYNTHETIC): an air-supplied
    colonial irregular crossing it is possible only (the optional rule); not air-supplied, or
    ending in the desert, it stays proven."""
    desert = {h: "desert" for h in ("1604", "1605", "1606")}
    board = synthetic_board(tmp_path / "d", terrain=desert, zones={"eritrea": ERITREA, "ethiopia": ETHIOPIA},
                            lines={"track-danakil": ("dirt-track", ("1603", "1604", "1605", "1606", "1607"))})
    irr = unit("ir", "1603", name="Italian colonial irregular", unit_class="italian-colonial-irregular",
               size="brigade")
    s = state(irr, scenario="1935-36")
    s.flags["air-supplied"] = frozenset({"ir"})
    f = only(judge_move(board, s, MoveFacts(irr, "1603", "1607", scenario="1935-36"), step=3, when=None), "MV-40")
    assert f.basis is Basis.POSSIBLE and f.rule == "PB 13.6.7.2, optional"
    assert f.evidence["route"] == ["1603", "1604", "1605", "1606", "1607"]
    plain = state(irr, scenario="1935-36")
    assert only(judge_move(board, plain, MoveFacts(irr, "1603", "1607", scenario="1935-36"), step=3,
                           when=None), "MV-03").basis is Basis.PROVEN
    only(judge_move(board, s, MoveFacts(irr, "1603", "1605", scenario="1935-36"), step=3, when=None), "MV-07")


def test_the_danakil_crossing_is_held_to_the_route_the_log_shows(tmp_path):
    """(35) hop by hop along the Danakil track the crossing stays possible only (MV-40); a route
    the log shows through desert hexes off the track (1504, 1505, SYNTHETIC) is no Danakil crossing,
    though one drag 1603 -> 1607 could have been (11.1)."""
    desert = {h: "desert" for h in ("1604", "1605", "1606", "1504", "1505")}
    board = synthetic_board(tmp_path / "d", terrain=desert, zones={"eritrea": ERITREA, "ethiopia": ETHIOPIA},
                            lines={"track-danakil": ("dirt-track", ("1603", "1604", "1605", "1606", "1607"))})
    irr = unit("ir", "1603", name="Italian colonial irregular", unit_class="italian-colonial-irregular",
               size="brigade")
    s = state(irr, scenario="1935-36")
    s.flags["air-supplied"] = frozenset({"ir"})
    track = ("1603", "1604", "1605", "1606", "1607")
    f = only(judge_move(board, s, MoveFacts(irr, "1603", "1607", path=track, scenario="1935-36"), step=3,
                        when=None), "MV-40")
    assert f.basis is Basis.POSSIBLE
    off = ("1603", "1604", "1504", "1505", "1606", "1607")
    assert all(b in board.neighbours(a) for a, b in zip(off, off[1:]))
    found = judge_move(board, s, MoveFacts(irr, "1603", "1607", path=off, scenario="1935-36"), step=3, when=None)
    assert found and not any(f.check.endswith("MV-40") for f in found)
    assert all(f.basis is Basis.PROVEN for f in found), [f.message for f in found]
