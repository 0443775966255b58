"""Breakdown units and columns judged when their MAP ends (RR-16, RR-18, RR-19) on SYNTHETIC positions."""
from __future__ import annotations

from dataclasses import replace

import pytest

from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.replacements import FormationLedger, judge_breakdown_return

from .synthetic import state, synthetic_board, unit

ERITREA = [f"{c:02d}{r:02d}" for c in range(12, 18) for r in range(2, 16)]


@pytest.fixture
def board(tmp_path):
    return synthetic_board(tmp_path, zones={"eritrea": ERITREA})


def codes(findings):
    return [f.check.split("/")[1] for f in findings]


def breakdown(hex_="1406", unit_class="italian-regular"):
    return unit("bd", hex_, name="Italian regular breakdown unit", unit_type="breakdown", size="regiment",
                unit_class=unit_class, steps=1)


def column(name="Starace", formed_from="black-shirt", hex_="1406"):
    c = unit(name.lower(), hex_, name=name, unit_type="column", size=None, unit_class=None, steps=1)
    return replace(c, properties={"formed_from": formed_from})


def reduced(u, steps):
    return replace(u, steps=steps)


def formed_in_map(ledger, donor, formed, *, steps_after, first="donor"):
    """The two steps of the log, in either order: the parent flipped, the unit placed."""
    s0 = state(donor, scenario="1935-36")
    s1 = state(reduced(donor, steps_after), scenario="1935-36")
    if first == "donor":
        ledger.note_step(s0, s1, in_map=True)
        ledger.note_formed(formed, s1, step=5, when="Turn 4, Mutual Administration Phase")
    else:
        ledger.note_formed(formed, s0, step=5, when="Turn 4, Mutual Administration Phase")
        ledger.note_step(s0, s1, in_map=True)


@pytest.mark.parametrize("first", ["donor", "formed"])
def test_a_breakdown_from_a_big_unit_in_either_order(board, first):
    ledger = FormationLedger()
    pl = unit("pl", "1406", name="PL", steps=4)
    formed_in_map(ledger, pl, breakdown(), steps_after=3, first=first)
    assert ledger.close(board, turn=2, step=9, when=None) == []
    assert ledger.formed == [] and ledger.drops == []          # a fresh MAP


def test_breakdown_rules(board):
    ledger = FormationLedger()
    ledger.note_formed(breakdown(), state(scenario="1935-36"), step=5, when=None)
    [f] = ledger.close(board, turn=2, step=9, when=None)
    assert f.check == "lion-of-judah/RR-16" and f.step == 5 and "gave up a step in the MAP" in f.message
    # a 2-step unit cannot give one
    ledger = FormationLedger()
    formed_in_map(ledger, unit("gs", "1406", name="GS", steps=2), breakdown(), steps_after=1)
    assert codes(ledger.close(board, turn=2, step=9, when=None)) == ["RR-16"]
    # a Black Shirt division gives no Italian regular breakdown unit (2.4)
    ledger = FormationLedger()
    formed_in_map(ledger, unit("tv", "1406", name="Tv", steps=3, unit_class="black-shirt"), breakdown(),
                  steps_after=2)
    [g] = ledger.close(board, turn=2, step=9, when=None)
    assert g.check == "lion-of-judah/RR-16" and "of their own class" in g.message
    assert g.evidence == {"hex": "1406", "class": "italian-regular", "donor_class": "black-shirt"}
    # out of supply (2.4)
    ledger = FormationLedger()
    formed_in_map(ledger, unit("pl", "1413", name="PL", steps=4), breakdown("1413"), steps_after=3)
    [h] = ledger.close(board, turn=2, step=9, when=None)
    assert h.check == "lion-of-judah/RR-16" and "out of supply" in h.message


def test_one_step_given_is_one_breakdown_unit(board):
    ledger = FormationLedger()
    pl = unit("pl", "1406", name="PL", steps=4)
    formed_in_map(ledger, pl, breakdown(), steps_after=3)
    ledger.note_formed(replace(breakdown(), id="bd2"), state(scenario="1935-36"), step=6, when=None)
    [f] = ledger.close(board, turn=2, step=9, when=None)
    assert f.step == 6 and f.check == "lion-of-judah/RR-16"


def test_columns_from_turn_4_with_trucks(board):
    sb21 = unit("21a", "1406", name="21A", steps=4, unit_class="black-shirt")
    truck = unit("tr", "1405", name="Italian truck", kind="truck", size=None, steps=1, unit_class=None)
    # turn 3: too early
    ledger = FormationLedger()
    formed_in_map(ledger, sb21, column(), steps_after=3)
    found = ledger.close(board, turn=3, step=9, when=None)
    assert codes(found)[0] == "RR-19" and "arrive on turn 4" in found[0].message
    # turn 4, a truck removed: legal
    ledger = FormationLedger()
    ledger.note_step(state(truck, scenario="1935-36"), state(scenario="1935-36"), in_map=True)
    formed_in_map(ledger, sb21, column(), steps_after=3)
    assert ledger.close(board, turn=4, step=9, when=None) == []
    assert ledger.columns == ["Starace"] and ledger.trucks_removed == 1
    # a second column needs a second truck
    frusci = column("Frusci", "italian-regular")
    formed_in_map(ledger, unit("sb", "1406", name="Sb", steps=4), frusci, steps_after=3)
    [f] = ledger.close(board, turn=5, step=12, when="Turn 5, Mutual Administration Phase")
    assert f.check == "lion-of-judah/RR-19" and f.basis is Basis.PROVEN and f.step == 12
    assert f.evidence == {"columns": ["Starace", "Frusci"], "trucks_removed": 1, "trucks_needed": 2}
    # a truck moved into an RP box stays in play (7.3.2); one deleted does not
    ledger = FormationLedger()
    ledger.note_step(state(truck, scenario="1935-36"),
                     state(replace(truck, hex=None, box="rp-northern-front"), scenario="1935-36"), in_map=True)
    assert ledger.trucks_removed == 0


def test_a_column_needs_the_right_division(board):
    ledger = FormationLedger()
    ledger.note_step(state(unit("tr", "1405", kind="truck", size=None, steps=1), scenario="1935-36"),
                     state(scenario="1935-36"), in_map=True)
    formed_in_map(ledger, unit("sb", "1406", name="Sb", steps=4), column(), steps_after=3)   # Starace: Black Shirts
    [f] = ledger.close(board, turn=4, step=9, when=None)
    assert f.check == "lion-of-judah/RR-19" and "no Black Shirt division" in f.message


def test_allied_breakdown_units_never_return(board):
    ledger = FormationLedger()
    a = replace(unit("a", "2311", name="A", side="allied", unit_type="breakdown", size="regiment", steps=1,
                     unit_class=None), counter="gb-breakdown-a")
    assert judge_breakdown_return(board, ledger, a, "1940-41", step=3, when=None) == []    # never gone
    ledger.note_step(state(a, scenario="1940-41"), state(scenario="1940-41"), in_map=False)
    [f] = judge_breakdown_return(board, ledger, a, "1940-41", step=30, when=None)
    assert f.check == "lion-of-judah/RR-18" and f.basis is Basis.PROVEN and f.step == 30
    assert f.evidence == {"counter": "gb-breakdown-a", "hex": "2311"}
    italian = replace(breakdown(), counter="it-breakdown-regular")
    ledger.note_step(state(italian, scenario="1935-36"), state(scenario="1935-36"), in_map=False)
    assert judge_breakdown_return(board, ledger, italian, "1935-36", step=31, when=None) == []   # 2.4: it may


# -- (40) the KAR withdrawal (RR-20, PB 14.6.7) ---------------------------------------------------

def brigade(id_, counter, hex_, name):
    return replace(unit(id_, hex_, name=name, side="allied", size="brigade", steps=2, unit_class=None),
                   counter=counter)


@pytest.fixture
def kenya(tmp_path):
    """Kenya (SYNTHETIC extent) around Marsabit 1122, so the Allies control their supply source."""
    return synthetic_board(tmp_path / "kenya", zones={"kenya": [f"{c:02d}{r:02d}" for c in range(9, 15)
                                                                for r in range(19, 28)]})


def test_kar_brigades_in_supply_are_withdrawn(kenya):
    board = kenya
    from vlog.games.lion_of_judah.checks.reinforcements import KarWithdrawal
    kar1 = brigade("k1", "gb-kar1", "1122", "KAR1")       # at Marsabit, an Allied supply source
    start = state(kar1, scenario="1940-41")
    ledger = KarWithdrawal()
    [f] = ledger.close(board, start, state(kar1, scenario="1940-41"), step=7, when="Turn 5, MAP")
    assert f.check == "lion-of-judah/RR-20" and f.basis is Basis.PROVEN and f.step == 7
    assert f.evidence == {"hex": "1122", "turn": 5}
    # withdrawn and replaced in its hex: legal
    ea = brigade("ea", "gb-21ea-11a", "1122", "21EA/11A")
    assert ledger.note_placed(board, ea, turn=5, in_map=True, step=5, when=None) == []
    assert ledger.close(board, start, state(ea, scenario="1940-41"), step=7, when=None) == []
    # out of supply when the MAP begins: it stays (and one EA brigade never enters)
    far = replace(kar1, hex="1413")
    assert KarWithdrawal().close(board, state(far, scenario="1940-41"), state(far, scenario="1940-41"),
                                 step=7, when=None) == []


def test_ea_brigades_enter_only_for_a_withdrawn_kar(board):
    from vlog.games.lion_of_judah.checks.reinforcements import KarWithdrawal
    kar1 = brigade("k1", "gb-kar1", "1122", "KAR1")
    ledger = KarWithdrawal()
    ea = brigade("ea", "gb-22ea-12a", "1123", "22EA/12A")            # not the KAR's hex
    assert ledger.note_placed(board, ea, turn=5, in_map=True, step=5, when=None) == []
    [f] = ledger.close(board, state(kar1, scenario="1940-41"), state(ea, scenario="1940-41"), step=7, when=None)
    assert f.check == "lion-of-judah/RR-20" and f.step == 5 and f.evidence == {"hex": "1123", "kar_hexes": ["1122"]}
    [g] = KarWithdrawal().note_placed(board, ea, turn=3, in_map=True, step=9, when=None)   # not turn 5
    assert g.check == "lion-of-judah/RR-20" and "outside the MAP of turn 5" in g.message
    once = KarWithdrawal()
    once.entered.add("gb-22ea-12a")                                   # entered before: a rebuild
    assert once.note_placed(board, ea, turn=8, in_map=True, step=9, when=None) == []


# -- (40) Gideon Force, the Negus and the dummies (RR-22, RR-23) -----------------------------------

def test_gideon_force_and_the_negus_arrive_on_turn_6(kenya):
    from vlog.games.lion_of_judah.checks.reinforcements import judge_placement
    gideon = brigade("gf", "gb-gideon", "0505", "Gideon Force")
    s = state(scenario="1940-41")
    [f] = judge_placement(kenya, s, state(gideon, scenario="1940-41"), gideon, turn=3, step=2, when=None)
    assert f.check == "lion-of-judah/RR-22" and f.evidence == {"turn": 3, "arrives": 6, "hex": "0505"}
    assert judge_placement(kenya, s, state(gideon, scenario="1940-41"), gideon, turn=6, step=2, when=None) == []
    negus = replace(gideon, id="ng", counter="et-negus", name="Negus", kind="leader")
    assert [x.check for x in judge_placement(kenya, s, state(negus, scenario="1940-41"), negus, turn=5,
                                             step=2, when=None)] == ["lion-of-judah/RR-22"]


def dummy(id_, hex_):
    return replace(unit(id_, hex_, name="Dummy", side="allied", kind="dummy", size=None, unit_class=None,
                        steps=1), counter="al-dummy")


def test_reinforcement_dummies(kenya):
    from vlog.games.lion_of_judah.checks.reinforcements import judge_placement

    def judge(d, *others, turn=2):
        before = state(*others, scenario="1940-41")
        return [f for f in judge_placement(kenya, before, state(*others, d, scenario="1940-41"), d, turn=turn,
                                           step=4, when=None) if f.check == "lion-of-judah/RR-23"]

    assert judge(dummy("d", "1121")) == []                           # next to Marsabit 1122
    kar = brigade("k1", "gb-kar1", "1115", "KAR1")
    assert judge(dummy("d", "1115"), kar) == []                      # with an Allied unit
    [f] = judge(dummy("d", "1115"))
    assert "no Allied unit" in f.message and f.evidence["hex"] == "1115"
    [g] = judge(dummy("d", "1121"), turn=7)
    assert "on turns 2 to 6" in g.message
    eight = [dummy(f"d{i}", "1122") for i in range(8)]
    [h] = judge(dummy("d9", "1122"), *eight)
    assert h.evidence == {"hex": "1122", "dummies_in_play": 9}


def test_two_reinforcement_dummies_a_turn(kenya):
    from vlog.games.lion_of_judah.checks.reinforcements import DummyArrivals
    arrivals = DummyArrivals()
    assert arrivals.note(kenya, dummy("d1", "1122"), turn=2, step=3, when=None) == []
    assert arrivals.note(kenya, dummy("d2", "1122"), turn=2, step=4, when=None) == []
    [f] = arrivals.note(kenya, dummy("d3", "1121"), turn=2, step=5, when=None)
    assert f.check == "lion-of-judah/RR-23" and f.step == 5
    assert f.evidence == {"turn": 2, "hex": "1121", "dummies_this_turn": 3, "allowed": 2}
    assert arrivals.note(kenya, dummy("d4", "1121"), turn=2, step=6, when=None) == []     # once a turn
    assert arrivals.note(kenya, dummy("d5", "1121"), turn=3, step=9, when=None) == []


def test_the_somalia_hq_comes_in_at_berbera_on_turn_5(tmp_path):
    from vlog.games.lion_of_judah.checks.reinforcements import judge_placement
    board = synthetic_board(tmp_path / "bs", zones={"british-somaliland": ["2311", "2310", "2210"]})
    som = replace(unit("som", "2311", name="SOM", side="allied", kind="hq", size=None, unit_class=None),
                  counter="gb-som")

    def judge(hq, turn, before=None):
        b = before if before is not None else state(scenario="1940-41")
        return [f for f in judge_placement(board, b, state(hq, scenario="1940-41"), hq, turn=turn, step=2,
                                           when=None) if f.check == "lion-of-judah/RR-21"]

    assert judge(som, 5) == []
    [f] = judge(som, 4)
    assert f.basis is Basis.PROVEN and "only on turn 5" in f.message
    [g] = judge(replace(som, hex="0505"), 5)
    assert g.evidence == {"hex": "0505", "turn": 5}
    italian_held = state(scenario="1940-41")
    italian_held.control["2311"] = "italian"
    [h] = judge(som, 5, italian_held)
    assert "do not control" in h.message
    assert judge(replace(som, hex="0505"), 8) == []            # later: maybe a rebuild (7.3.4)


def test_bf_and_gf_regiments_cost_a_kar_step_each(tmp_path):
    from vlog.games.lion_of_judah.checks.replacements import judge_kar_regiment
    board = synthetic_board(tmp_path / "sd", zones={"sudan": ["0505", "0506", "0508"]})
    ledger = FormationLedger()
    bf = brigade("bf", "gb-bf", "0505", "BF")
    [f] = judge_kar_regiment(board, ledger, bf, "1940-41", 0, step=3, when=None)
    assert f.check == "lion-of-judah/RR-27" and f.evidence == {"hex": "0505", "kar_steps_lost": 0, "regiments": 1}
    kar1 = brigade("k1", "gb-kar1", "1122", "KAR1")
    ledger.note_step(state(kar1, scenario="1940-41"), state(replace(kar1, steps=1), scenario="1940-41"),
                     in_map=False)                                   # one KAR step lost in combat
    assert judge_kar_regiment(board, ledger, bf, "1940-41", 0, step=3, when=None) == []
    gf = brigade("gf", "gb-gf", "0506", "GF")
    [g] = judge_kar_regiment(board, ledger, gf, "1940-41", 1, step=4, when=None)   # the second needs two
    assert g.evidence["regiments"] == 2
    [h] = judge_kar_regiment(board, ledger, replace(bf, hex="1122"), "1940-41", 0, step=5, when=None)
    assert "outside Sudan" in h.message
