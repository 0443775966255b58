"""Every Lion of Judah check marked implemented has a case where it fails.

The registry is explicit and checked, so it cannot go stale quietly:

* a fixture log: `fixtures/lion-of-judah/rules/<check-id>.vscript`, whose planted finding of that
  check is asserted by test_end_to_end.EXPECTED;
* a unit test: UNIT_CASES names the test (file::function), which must exist and must name the
  check id in its body;
* findings reported under other checks: the inventory's own note says "findings under X"
  (e.g. MV-01's path costs show as MV-03/MV-23 findings); at least one of those checks must
  have a case;
* NO_FINDING: checks the inventory describes as having no finding of their own, with the reason.

A check newly marked implemented with none of these fails `test_every_implemented_check_has_a_case`.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.games.lion_of_judah.test_end_to_end import EXPECTED, KNOWN_GAPS, RULES
from vlog.games.lion_of_judah.rules import LionOfJudah

HERE = Path(__file__).resolve().parent

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

_UNDER = re.compile(r"findings under ((?:[A-Z]{2}-\d{2})(?:(?:/|,\s*|\s+and\s+)[A-Z]{2}-\d{2})*)")


def implemented() -> dict[str, str]:
    """Implemented check id (without the game prefix) -> its inventory description."""
    return {spec.id.split("/", 1)[1]: spec.description for spec in LionOfJudah.checks if spec.implemented}


def folded_under(description: str) -> list[str]:
    """The checks the inventory says report this one's findings."""
    out: list[str] = []
    for match in _UNDER.finditer(description):
        out += re.findall(r"[A-Z]{2}-\d{2}", match.group(1))
    return out


def fixture_case(check: str) -> bool:
    """A `<check>.vscript` whose expected findings include that check (and are exactly what the
    rules report: a log listed in KNOWN_GAPS does not count)."""
    return (RULES / f"{check}.vscript").is_file() and check not in KNOWN_GAPS \
        and any(c == check for c, _, _ in EXPECTED.get(check, []))


def unit_case(check: str) -> bool:
    where = UNIT_CASES.get(check)
    if where is None:
        return False
    file_name, function = where.split("::")
    source = (HERE / file_name).read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            body = ast.get_source_segment(source, node) or ""
            return check in body
    return False


def has_direct_case(check: str) -> bool:
    return fixture_case(check) or unit_case(check)


def has_case(check: str, descriptions: dict[str, str]) -> bool:
    if has_direct_case(check) or check in NO_FINDING:
        return True
    return any(has_direct_case(other) for other in folded_under(descriptions.get(check, "")))


def test_every_implemented_check_has_a_case() -> None:
    descriptions = implemented()
    missing = [c for c in descriptions if not has_case(c, descriptions)]
    assert missing == [], f"implemented checks with no failing case: {missing}"


@pytest.mark.parametrize("check", sorted(UNIT_CASES))
def test_unit_cases_exist_and_name_their_check(check: str) -> None:
    assert check in implemented(), f"{check} is not an implemented check"
    assert unit_case(check), f"{UNIT_CASES[check]} does not exist or does not name {check}"


def test_unit_cases_are_for_checks_without_a_fixture_case() -> None:
    """Once a fixture log plants a check exactly, its UNIT_CASES entry goes (one registry each)."""
    assert [c for c in UNIT_CASES if fixture_case(c)] == []


def test_no_finding_entries_are_implemented_checks_without_findings() -> None:
    descriptions = implemented()
    for check in NO_FINDING:
        assert check in descriptions, check
        assert "no finding of its own" in descriptions[check], check
        assert not has_direct_case(check), f"{check} now has a case: drop it from NO_FINDING"


def test_fixture_scripts_name_implemented_checks() -> None:
    descriptions = implemented()
    for script in RULES.glob("*.vscript"):
        name = script.name[: -len(".vscript")]
        if not name.startswith("clean-"):
            assert name in descriptions, f"{script.name} names no implemented check"
            assert fixture_case(name) or name in KNOWN_GAPS, \
                f"{script.name}: EXPECTED does not list its {name} finding"


def test_the_registry_counts_can_fail() -> None:
    """The folding rule reads the inventory's text: a made-up check with no case is reported."""
    assert folded_under("path cost (findings under MV-03/MV-23)") == ["MV-03", "MV-23"]
    assert not has_case("XX-99", {"XX-99": "made up"})
