"""The sequence of play (5.2, PB 13.5, PB 14.5) and its inference from who moves."""
from __future__ import annotations

from vlog.games.lion_of_judah.sequence import Phase, infer_phase, next_phase, start_phase


def test_scenarios_start_at_the_event_phase_of_turn_1():
    p = start_phase("1935-36")
    assert (p.turn, p.key) == (1, "event") and p.when() == "Turn 1, Event Phase"


def test_order_of_phases_and_players():
    p = start_phase("1940-41")
    keys = []
    for _ in range(7):
        p = next_phase(p)
        keys.append((p.turn, p.key, p.phasing))
    assert keys == [(1, "first-movement", "allied"), (1, "first-combat", "allied"),
                    (1, "second-movement", "italian"), (1, "second-combat", "italian"),
                    (1, "end", None), (2, "map", None), (2, "event", None)]
    assert Phase("1935-36", 3, "second-movement").when() == "Turn 3, Ethiopian movement"


def test_inference_from_the_mover():
    p = start_phase("1935-36")
    italian = infer_phase(p, "italian", "movement")
    assert (italian.turn, italian.key, italian.inferred) == (1, "first-movement", True)
    assert italian.when() == "Turn 1, Italian movement (inferred: the Italian player moving)"
    assert infer_phase(italian, "italian", "movement") is italian
    combat = infer_phase(italian, "italian", "combat")
    assert (combat.turn, combat.key) == (1, "first-combat")
    ethiopian = infer_phase(combat, "ethiopian", "movement")
    assert (ethiopian.turn, ethiopian.key) == (1, "second-movement")
    again = infer_phase(ethiopian, "italian", "movement")
    assert (again.turn, again.key) == (2, "first-movement")


def test_ethiopian_activations_mix_movement_and_combat():
    """PB 13.5.4: in 1935-36 the Ethiopian moves and fights leader by leader in one segment, so
    an Ethiopian attack does not end the Ethiopian movement segment."""
    p = infer_phase(start_phase("1935-36"), "ethiopian", "movement")
    assert infer_phase(p, "ethiopian", "combat") is p
    q = infer_phase(start_phase("1940-41"), "italian", "movement")
    assert infer_phase(q, "italian", "combat").key == "second-combat"


def test_every_phase_of_the_game_data_is_understood():
    from vlog.gamedata import load_game_data
    from vlog.games.lion_of_judah.sequence import DATA_PHASES, PHASES

    data = load_game_data("lion-of-judah")
    for scenario in data.scenario_ids:
        names = data.scenario(scenario)["phases"].value
        assert names and all(DATA_PHASES[n] in PHASES for n in names), scenario
