"""Which missions an air marker may fly in a movement segment (AR-06 10.1.5, AR-11 10.1) on
SYNTHETIC positions; the range (AR-01) is judged apart and not here."""
from __future__ import annotations

from dataclasses import replace

from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.air import judge_mission_segment

from .synthetic import shipped_board, state, unit


def marker(id_: str = "air", hex_: str | None = None, *, side: str = "italian", name: str = "III Br"):
    """A SYNTHETIC air marker (a Unit of kind air, no factors)."""
    return replace(unit(id_, hex_, name=name, side=side, kind="air", attack=None, defense=None,
                        movement=None, size=None, unit_class=None), counter="it-air-iiibr")


def levy(id_: str, hex_: str):
    return unit(id_, hex_, name=f"levy {id_}", side="ethiopian", unit_class="ethiopian-levy")


def judge(s, m, target, *, scenario="1935-36", segment="movement", phasing="ethiopian", moved=()):
    return judge_mission_segment(shipped_board(), s, m, target, scenario=scenario, segment=segment,
                                 phasing=phasing, moved=list(moved), step=3, when="w")


def test_interdiction_on_an_enemy_stack_at_the_start_is_legal():
    s = state(levy("a", "1107"), scenario="1935-36")
    assert judge(s, marker(), "1107") == []


def test_interdiction_on_no_enemy_unit_is_proven():
    """10.1.5: placed on top of an enemy unit or stack; a friendly unit or an empty hex will not do."""
    s = state(unit("it", "1106"), scenario="1935-36")
    [f] = judge(s, marker(), "1106")
    assert f.check == "lion-of-judah/AR-06" and f.basis is Basis.PROVEN
    assert f.evidence == {"hex": "1106", "phasing": "ethiopian", "enemy_units": 0}


def test_interdiction_after_an_enemy_moved_is_proven():
    """10.1.5: at the start of the enemy movement segment, so before any of its units moved."""
    s = state(levy("a", "1107"), scenario="1935-36")
    [f] = judge(s, marker(), "1107", moved=["levy b"])
    assert f.check == "lion-of-judah/AR-06" and f.basis is Basis.PROVEN
    assert f.evidence["moved_before"] == ["levy b"]


def test_second_marker_in_a_hex():
    """10.1.5: no more than one air marker per hex; in 1935-36 an Italian second marker may be a
    gas attack (PB 13.6.5.1), which the log does not tell, so only POSSIBLE there."""
    first = marker("first", "1107", name="7 St")
    s = state(levy("a", "1107"), first, scenario="1935-36")
    [f] = judge(s, marker(), "1107")
    assert f.basis is Basis.POSSIBLE and f.evidence["air_markers_there"] == ["7 St"]
    allied = replace(first, side="allied")
    s40 = state(unit("it", "1107"), allied, scenario="1940-41")
    [g] = judge(s40, marker(side="allied", name="Allied air"), "1107", scenario="1940-41", phasing="italian")
    assert g.check == "lion-of-judah/AR-06" and g.basis is Basis.PROVEN


def test_own_movement_segment_in_1940_41_is_proven():
    """10.1: air supply (the mission flown in one's own movement segment) is 1935-36 only."""
    s = state(unit("it", "1405"), scenario="1940-41")
    [f] = judge(s, marker(), "1405", scenario="1940-41", phasing="italian")
    assert f.check == "lion-of-judah/AR-11" and f.basis is Basis.PROVEN
    # the same placement in 1935-36 is air supply, on a unit of two steps or fewer (PB 13.6.5.2)
    assert judge(state(unit("it", "1405", steps=2), scenario="1935-36"), marker(), "1405", phasing="italian") == []


def test_ethiopian_air_in_1935_36_is_proven_in_any_phase():
    [f] = judge(state(scenario="1935-36"), marker(side="ethiopian", name="E air"), "1213",
                segment=None, phasing=None)
    assert f.check == "lion-of-judah/AR-11" and f.evidence["side"] == "ethiopian"


def test_outside_a_movement_segment_nothing_is_judged():
    """Combat segments hold air support (and (35) bombing); an unbound phase tells nothing."""
    s = state(scenario="1940-41")
    assert judge(s, marker(), "1405", scenario="1940-41", segment="combat", phasing="italian") == []
    assert judge(s, marker(), "1405", scenario="1940-41", segment=None, phasing=None) == []


def test_markers_left_on_the_map_at_a_new_turn():
    """5.2 e iv: the End of Turn Phase removes any air markers still on hexes; boxes are fine."""
    from vlog.games.lion_of_judah.checks.air import judge_markers_left_on_map
    on_map, in_box = marker("a", "1107"), replace(marker("b", None, name="7 St"), box="Ready")
    s = state(levy("l", "1107"), on_map, in_box, scenario="1935-36")
    [f] = judge_markers_left_on_map(shipped_board(), s, turn=2, step=8, when="w")
    assert f.check == "lion-of-judah/AR-12" and f.basis is Basis.PROVEN
    assert f.evidence == {"hex": "1107", "turn": 2} and f.subjects == ("III Br",)
    assert judge_markers_left_on_map(shipped_board(), state(in_box, scenario="1935-36"), turn=2,
                                     step=8, when="w") == []


def test_air_supply_after_a_unit_moved_is_proven():
    """PB 13.6.5.2 and the Extended SoP: air supply is placed before any Italian unit moves."""
    s = state(unit("it", "1305", steps=2), scenario="1935-36")
    [f] = judge(s, marker(), "1305", phasing="italian", moved=["21A"])
    assert f.check == "lion-of-judah/AR-09" and f.basis is Basis.PROVEN
    assert f.evidence == {"hex": "1305", "moved_before": ["21A"]}
