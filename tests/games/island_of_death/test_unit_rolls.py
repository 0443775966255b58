"""Island of Death: the rolls made for one piece (checks/unit_rolls.py) and the checks they
decide, on odd but legal play the fixture logs do not hold, and on the readings the map data
leaves open. Each case is a short play script written to a log and replayed on the SYNTHETIC
data overlay (fixtures/island-of-death/synthetic-data: synthetic test values, not the published
charts)."""
from __future__ import annotations

from pathlib import Path

import pytest

import vlog
import vlog.games.island_of_death.rules  # noqa: F401  (loads the checks in order)
from converters.log_writer import write_log
from vlog.games.island_of_death.checks.airborne_losses import airborne_modifiers
from vlog.games.island_of_death.checks.landing_losses import landing_modifier
from vlog.games.island_of_death.rules import IslandOfDeath
from vlog.games.island_of_death.units import make_unit
from vlog.kit.steps import Position
from vlog.replay import replay_log

from tests.games.island_of_death.replays import FIXTURES, replayed, shipped_data, synthetic_data, synthetic_module

HEAD = """vlog-script 1
game island-of-death
module {module}
start {start}
map "Main Map"
clock 1704067260000
key 0x2a
player Alice side axis
player Bob side allied
"""


def judged(tmp_path: Path, body: str, scenario: str = "intro") -> tuple[list[tuple[str, int | None, str]], IslandOfDeath]:
    """The findings (check, step, basis) of a play script on the synthetic data, and the game."""
    script = tmp_path / "case.vscript"
    script.write_text(HEAD.format(module=FIXTURES / "synthetic" / "island-of-death.vmod",
                                  start=FIXTURES / "synthetic" / f"{scenario}-start.vsav") + body, encoding="utf-8")
    write_log(script, tmp_path / "case.vlog")
    game = IslandOfDeath(synthetic_data())
    rep = replay_log(vlog.read(tmp_path / "case.vlog"), module=synthetic_module(), game=game)
    return [(f.check.split("/", 1)[1], f.step, f.basis.value) for f in rep.findings], game


def test_the_landing_modifier_is_two_next_to_the_allies_one_within_two_and_not_both() -> None:
    assert [landing_modifier(d) for d in (None, 1, 2, 3)] == [None, 2, 1, None]


def landing(unit: str, hex_: str, then: str = "") -> str:
    """A script landing `unit` from the North First Wave boxes on `hex_`, then `then`."""
    return f"""as Alice
move {unit} along 'North "Follow-up" box' on "Off-map Boxes"
turn set Phase=amphibious-landing
move {unit} along "North First Wave boxes" on "Off-map Boxes"
move {unit} along {hex_} on "Main Map"
{then}turn next
"""


def test_a_landing_roll_is_due_within_two_hexes_of_the_allies_as_the_roll_is_said(tmp_path: Path) -> None:
    # 1107 is two hexes from 1K (1208): 6 +1 = 7 eliminates 2/33
    found, _ = judged(tmp_path, landing("2/33", "1107", 'chat "landing loss 2/33"\nroll 1d6 = 6\n'), "hercules")
    assert found == [("AMP-08", 6, "proven")]
    # with 1K gone before the roll the nearest Allied unit is four hexes off: the 6 changes nothing
    found, game = judged(tmp_path, landing("3/34", "1107", 'as Bob\nremove 1K\nas Alice\n'
                                                         'chat "landing loss 3/34"\nroll 1d6 = 6\n'), "hercules")
    assert found == [] and not game.tally.status(game.inventory.check_id("AMP-08")).unsettled


def test_a_landing_with_no_roll_said_is_not_judged_and_names_the_chat_line(tmp_path: Path) -> None:
    found, game = judged(tmp_path, landing("1/33", "1207"), "hercules")
    status = game.tally.status(game.inventory.check_id("AMP-08"))
    assert found == [] and status.unsettled and "landing loss 1/33" in status.unsettled[-1].data[0]


def test_airborne_loss_readings_name_the_terrain_the_shipped_map_lacks() -> None:
    rep, game = replayed("JMP-10", shipped=True)
    unit = make_unit(shipped_data(), "ax-v-186", None)
    unit = type(unit)(**{**{f: getattr(unit, f) for f in unit.__dataclass_fields__}, "id": "v", "name": "V/186",
                         "hex": "1013"})
    readings = airborne_modifiers(game, Position(rep.start), unit)
    assert sorted(s for s, _, _ in readings) == [1, 2]             # AA within three hexes; cover unknown
    assert any("map.json hex 1013" in d for _, data, _ in readings for d in data)
    by_unit = {f.evidence["unit"]: f for f in rep.findings if f.check.endswith("/JMP-10")}
    assert by_unit["ax-v-186"].basis.value == "proven"              # 7 or 8: the AA alone makes it 7
    assert by_unit["ax-vi-186"].basis.value == "possible" and by_unit["ax-vi-186"].evidence["totals"] == [6, 7]


def test_a_returning_adc_jumps_alone_and_a_leader_with_his_hq_may_rally_apart(tmp_path: Path) -> None:
    found, _ = judged(tmp_path, """as Alice
turn set Phase=airborne-landing
move "Ramcke drop zone marker" along 1913 on "Main Map"
flip Ramcke
move Ramcke along 1913 on "Main Map"
move "Folgore drop zone marker" along 1013 on "Main Map"
move 185 along 1013 on "Main Map"
move Frattini along 1013 on "Main Map"
move 185 along 1014
move Frattini along 1012
turn next
""", scenario="hercules")
    assert found == []                     # an ADC returning alone; HQ and leader two hexes apart after the rally


def test_a_leader_spared_by_his_casualty_roll_keeps_his_side(tmp_path: Path) -> None:
    body = (FIXTURES / "rules" / "LDR-04.vscript").read_text(encoding="utf-8").split("player Bob side allied\n", 1)[1]
    found, _ = judged(tmp_path, body.replace("roll 2d6 = 1,2", "roll 2d6 = 2,2"))
    assert found == []                                              # 4 less 0: he lives
    found, _ = judged(tmp_path, body.replace("roll 2d6 = 1,2", "roll 2d6 = 2,2\nflip Beak"))
    assert found == [("LDR-04", 17, "proven")]                      # ... so no ADC comes


def test_an_overrun_leader_may_return_in_the_next_initial_segment_or_status_phase(tmp_path: Path) -> None:
    """A-12: 6.52 and 14.42 disagree; either return is taken, an earlier one is not."""
    start = """as Alice
turn set Phase=allied-movement
as Bob
move Beak along 1210
as Alice
turn set Turn=2 Phase=axis-movement
move 1/34 along 1210
as Bob
chat "overrun Beak"
roll 2d6 = 5,5
move Beak along "Turn Record Track" on "Off-map Boxes"
"""
    day = 'turn set Turn=5 Phase=initial-segment\nchat "weather"\nroll 2d6 = 2,3\nas Bob\nmove Beak along 1311 on "Main Map"\n'
    assert judged(tmp_path, start + "as Alice\n" + day)[0] == []                        # 6.52: the next day
    turn = 'turn set Turn=3 Phase=allied-movement\nmove Beak along 1311 on "Main Map"\n'
    assert judged(tmp_path, start + turn)[0] == [("LDR-05", 9, "proven")]              # not in a Status Phase
    late_turn = 'turn set Turn=2 Phase=allied-movement\nmove Beak along 1311 on "Main Map"\n'
    assert judged(tmp_path, start + late_turn)[0] == [("LDR-05", 9, "proven")]         # the same turn


@pytest.mark.parametrize("fell, back, expected", [
    ("Turn=5", "Turn=21", []),                               # 1 July -> 5 July, the fourth day after
    ("Turn=9", "Turn=24", [("SPU-16", 8, "proven")]),        # on 2 July: it does not return (Intro)
])
def test_an_hq_returns_on_the_fourth_day_unless_it_fell_too_late(tmp_path: Path, fell: str, back: str,
                                                                   expected: list) -> None:
    found, _ = judged(tmp_path, f"""as Alice
turn set {fell} Phase=initial-segment
chat "weather"
roll 2d6 = 2,3
move 4 along "Turn Record Track" on "Off-map Boxes"
turn set {back} Phase=initial-segment
chat "weather"
roll 2d6 = 2,3
move 4 along 'West "Follow-up" box' on "Off-map Boxes"
""")
    assert found == expected


@pytest.mark.parametrize("hex_, expected", [
    ("1107", []),                                   # with the 4th Division HQ
    ("1110", []),                                   # with 1/34, a unit of its formation (4.21c)
    ("0708", [("LDR-07", 4, "proven")]),            # with 3/88 of the 20th Division
])
def test_an_axis_leader_from_the_track_comes_with_its_hq_or_its_formation(tmp_path: Path, hex_: str,
                                                                           expected: list) -> None:
    found, _ = judged(tmp_path, f"""as Alice
move Chirelson along "Turn Record Track" on "Off-map Boxes"
turn set Phase=axis-status
add "Out of Supply" at 1012
move Chirelson along {hex_} on "Main Map"
turn set Phase=axis-movement
""")
    assert found == expected


def test_an_axis_adc_with_no_hq_on_the_map_waits_in_the_disbandment_box_and_jumps_alone(tmp_path: Path) -> None:
    found, _ = judged(tmp_path, """as Alice
turn set Phase=airborne-landing
move "Ramcke drop zone marker" along 1913 on "Main Map"
move @1704067200077 along 1913 on "Main Map"
move Ramcke along 1913 on "Main Map"
turn set Phase=axis-combat
move @1704067200077 along "Turn Record Track" on "Off-map Boxes"
flip Ramcke
move Ramcke along "Turn Record Track" on "Off-map Boxes"
turn set Turn=5 Phase=initial-segment
chat "weather"
roll 2d6 = 2,3
move Ramcke along "Disbandment Box" on "Off-map Boxes"
turn set Phase=airborne-landing
move Ramcke along 1913 on "Main Map"
turn next
""", scenario="hercules")
    assert found == []             # 14.43: to the Disbandment Box; 19.44: an ADC returning jumps alone


@pytest.mark.parametrize("fight, expected", [
    ("as Bob\nremove 1K\nremove Strongpoint\nas Alice\n", []),        # fought until only the Axis is left
    ("as Bob\nremove Strongpoint\nas Alice\n", [("JMP-11", 9, "proven")]),    # 1K still there
])
def test_a_hostile_landing_of_the_introductory_scenario_is_fought_out(tmp_path: Path, fight: str,
                                                                       expected: list) -> None:
    found, _ = judged(tmp_path, f"""as Alice
turn set Turn=5 Phase=initial-segment
chat "weather"
roll 2d6 = 2,3
turn set Phase=airborne-landing
move IV/187 along 1309 on "Main Map"
chat "airborne loss IV/187"
roll 1d6 = 1
{fight}turn next
""")
    assert found == expected


@pytest.mark.parametrize("hex_, expected", [
    ("1612", []),                                   # with the Malta HQ (4.31d)
    ("1311", [("LDR-07", 3, "proven")]),            # with 8M while the HQ is on the map
])
def test_an_allied_leader_from_the_track_comes_with_the_hq_while_there_is_one(tmp_path: Path, hex_: str,
                                                                              expected: list) -> None:
    found, _ = judged(tmp_path, f"""as Bob
move Beak along "Turn Record Track" on "Off-map Boxes"
turn set Turn=3 Phase=allied-status
move Beak along {hex_} on "Main Map"
turn set Phase=allied-movement
""", scenario="hercules")
    assert found == expected
