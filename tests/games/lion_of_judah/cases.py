"""What Lion of Judah contributes to the tests every game with a rules engine runs
(tests/games/test_every_game.py): its fixture logs with the findings each plants, how to render a
replay as a golden playthrough, and the failing cases that are unit tests rather than logs."""
from __future__ import annotations

from tests.games.lion_of_judah.test_end_to_end import EXPECTED, KNOWN_GAPS, RULES, playthrough

__all__ = ["EXPECTED", "KNOWN_GAPS", "NO_FINDING", "RULES", "UNIT_CASES", "playthrough"]

UNIT_CASES: dict[str, str] = {
    "MV-40": "test_movement_extras.py::test_an_air_supplied_irregular_may_cross_the_danakil_only_with_the_option",
    # an Italian unit in Berbera, the Negus killed, IPL turns: the synthetic scenario reaches none simply
    "VC-06": "test_victory_tally.py::test_vc06_negus_berbera_ipl_and_open_city",
    # (35) taking an Italian box's USS ends the game (PB 13.4.3); on the synthetic 1940-41 map a unit
    # entering a box's one USS (Berbera, Mogadishu) ends out of supply: the box loss is a unit test
    "HQ-07": "test_logistics.py::test_hq07_box_emptied_when_the_enemy_enters_its_uss",
    # the synthetic start has one KZ battalion and no Negus available before turn 4: these
    # activation rules are planted in unit tests
    "ET-07": "test_activation.py::test_kz_battalion_activates_once_a_turn",
    "ET-08": "test_activation.py::test_negus_activates_six_units_of_other_factions",
    "FW-04": "test_bindings_phases.py::test_hidden_units_enter_face_down",
    # set-up areas are judged on the position a log begins with, and the fixture logs begin from the
    # set-up writer's legal saves: the test builds a save with a bad set-up
    "SU-01": "test_setup_areas.py::test_su01_within_two_hexes_of_the_leaders_hex_in_ethiopia",
    "SU-02": "test_setup_areas.py::test_a_save_and_a_log_that_begin_from_a_bad_set_up",
    "SU-05": "test_setup_areas.py::test_su05_guerrillas_never_in_an_italian_occupied_hex",
    "SU-07": "test_setup_areas.py::test_su07_guerrilla_counts_fit_the_scenario_or_a_campaign_result",
    # judged on the position a log begins with; the starts vlog writes have no Italian setup
    "SC-09": "test_1940_specifics.py::test_setup_garrisons_sc09",
}
"""Checks whose failing case is a unit test: no fixture log plants them exactly (yet)."""

NO_FINDING: dict[str, str] = {
    "TS-04": "control is state the supply and sudden-death checks read; it has no finding of its own",
    "TS-05": "who takes control (no finding of its own)",
    "TS-07": "dummies take control (no finding of its own; test_areas_guerrillas.py covers it)",
    "TS-06": "guerrilla control (no finding of its own; test_1940_specifics.py covers it)",
    "HQ-04": "a permission: bribe RPs come from any box with no RP route "
             "(test_logistics.py::test_hq04_bribes_come_from_any_box_with_no_route)",
}
"""Implemented checks the inventory says report nothing themselves."""
