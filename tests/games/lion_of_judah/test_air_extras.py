"""Delayed air return (AR-05, 10.1.4) on SYNTHETIC boxes: the marker's box against the logged roll."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from vlog.findings import Basis, Severity
from vlog.gamedata import load_game_data
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.air import judge_delayed_return, may_be_bombing, turn_track_box

from .scripted import judge_actions
from .synthetic import GAME, unit, write_overlay

SRC = {"source": "SYNTHETIC test box, not the published map"}


def _box(id_: str, kind: str, name: str, **props: object) -> dict[str, object]:
    record: dict[str, object] = {"id": id_, "type": {"value": kind, **SRC}, "name": {"value": name, **SRC}}
    if props:
        record["properties"] = {k: {"value": v, **SRC} for k, v in props.items()}
    return record


@pytest.fixture
def board(tmp_path):
    """A committed air box and turn-track boxes 3 to 6 (a track named 'grt', as the GRT is)."""
    write_overlay(tmp_path)
    path = tmp_path / "map.json"
    raw = json.loads(path.read_text())
    raw["maps"][0]["boxes"] = [_box("t-committed", "air", "Committed test box")] + [
        _box(f"t-turn-{n}", "track-box", f"Turn {n} test box", track="grt", number=n) for n in range(3, 7)]
    path.write_text(json.dumps(raw))
    return Board(load_game_data(GAME, overlays=[tmp_path]))


def marker(side="italian"):
    return replace(unit("air", "1107", name="III Br", side=side, kind="air", attack=None, defense=None,
                        movement=None, size=None, unit_class=None), counter="it-air-iiibr")


def judge(board, *, roll, box, turn=3, last=7, bombing=False):
    return judge_delayed_return(board, marker(), roll=roll, box=box, turn=turn, last_turn=last,
                                bombing_possible=bombing, step=9, when=f"Turn {turn}, End of Turn Phase")


def test_turn_track_boxes_are_read_from_the_track(board):
    assert turn_track_box(board, "t-turn-5") == 5
    assert turn_track_box(board, "t-committed") is None and turn_track_box(board, None) is None


def test_five_or_less_goes_to_a_committed_box(board):
    for roll in range(1, 6):
        assert judge(board, roll=roll, box="t-committed") == []
    [f] = judge(board, roll=3, box="t-turn-5")
    assert f.check == "lion-of-judah/AR-05" and f.basis is Basis.PROVEN and f.severity is Severity.ERROR
    assert f.rule == "10.1.4" and f.step == 9 and f.subjects == ("III Br",)
    assert f.evidence == {"roll": 3, "box": "t-turn-5", "turn": 3, "delayed_to": 5,
                          "bombing_drm_possible": False, "turn_track_box": 5}
    assert f.message == ("air marker III Br went onto the turn track (turn 5) after a delayed-return roll "
                         "of 3: a 3 sends it to a Committed box (only a modified 6 delays it)")


def test_a_six_delays_it_two_turns(board):
    assert judge(board, roll=6, box="t-turn-5") == []
    [f] = judge(board, roll=6, box="t-committed")
    assert f.basis is Basis.PROVEN and "a 6 delays it onto the turn track at turn 5" in f.message
    assert "to the Committed test box" in f.message
    [g] = judge(board, roll=6, box="t-turn-6")
    assert g.basis is Basis.PROVEN and "a delayed marker goes to turn 5, two turns after turn 3" in g.message


def test_a_bombing_or_gas_mission_may_add_one(board):
    # a 5 that goes onto the track is legal only for a bombing or gas mission (10.1.4 example)
    [f] = judge(board, roll=5, box="t-turn-5", bombing=True)
    assert f.basis is Basis.POSSIBLE and f.severity is Severity.WARNING
    assert "whether the mission was a bombing or gas attack" in f.evidence["depends_on"][0]
    assert judge(board, roll=5, box="t-committed", bombing=True) == []     # or an interdiction
    [g] = judge(board, roll=6, box="t-committed", bombing=True)            # 6 or 7: delayed anyway
    assert g.basis is Basis.PROVEN
    [h] = judge(board, roll=4, box="t-turn-5", bombing=True)               # 4 or 5: never delayed
    assert h.basis is Basis.PROVEN


def test_the_last_turn_and_what_is_not_judged(board):
    assert judge(board, roll=6, box="t-committed", turn=7, last=7) == []   # a VP lost instead
    assert judge(board, roll=None, box="t-turn-5") == []                   # no roll logged
    assert judge(board, roll=6, box=None) == []                            # deleted from the table
    assert judge(board, roll=6, box="rp-northern-front") == []             # not an air box


def test_which_missions_may_be_bombing_or_gas():
    it = marker()
    assert may_be_bombing(it, "1935-36", "combat", "italian")              # bombing (PB 13.6.5.1)
    assert may_be_bombing(it, "1935-36", "movement", "ethiopian")          # gas (PB 13.6.5.1)
    assert not may_be_bombing(it, "1935-36", "movement", "italian")        # air supply
    assert not may_be_bombing(it, "1940-41", "combat", "italian")          # (40) none (10.1)
    assert not may_be_bombing(marker("allied"), "1940-41", "combat", "allied")


# -- bombing (AR-07, PB 13.6.5.1) -----------------------------------------------------------------

def placed(hex_, *, step=5, before=(), enemies=("Tigray",), side="italian"):
    from vlog.games.lion_of_judah.checks.air import CombatAirPlacement
    return CombatAirPlacement(marker(side), hex_, step, "Turn 1, Italian combat", tuple(before), tuple(enemies))


def bombings(board, placements, targets=(), scenario="1935-36", phasing="italian"):
    from vlog.games.lion_of_judah.checks.air import judge_bombings
    return judge_bombings(board, placements, set(targets), scenario=scenario, phasing=phasing)


def test_a_bombing_at_the_start_on_an_enemy_stack_is_legal(board):
    assert bombings(board, [placed("1107")]) == []
    assert bombings(board, [placed("1107"), placed("1007", step=6)]) == []     # each hex its own marker


def test_air_support_is_not_a_bombing(board):
    # placed on a hex an attack of the segment names: air support (10.1.3), whenever declared
    assert bombings(board, [placed("1107", enemies=(), before=("1007",))], targets={"1107", "1007"}) == []


def test_bombing_rules(board):
    [f] = bombings(board, [placed("1106", enemies=())])
    assert f.check == "lion-of-judah/AR-07" and f.basis is Basis.PROVEN and f.step == 5
    assert f.evidence == {"hex": "1106", "enemy_units": 0}
    [g] = bombings(board, [placed("1107", before=("1007",))], targets={"1007"})
    assert g.check == "lion-of-judah/AR-07" and "at the start of the combat segment" in g.message
    assert g.evidence == {"hex": "1107", "declared_before": ["1007"]}
    # in the Ethiopian combat segment the start is not judged (PB 13.5.4: combined with activation)
    assert bombings(board, [placed("1107", before=("1007",))], targets={"1007"}, phasing="ethiopian") == []
    [h] = bombings(board, [placed("1107"), placed("1107", step=6)])
    assert h.step == 6 and "no more than one air marker a hex" in h.message


def test_no_bombing_in_1940(board):
    [f] = bombings(board, [placed("1107", side="allied")], scenario="1940-41", phasing="allied")
    assert f.check == "lion-of-judah/AR-11" and f.basis is Basis.PROVEN
    assert bombings(board, [placed("1107", side="ethiopian")]) == []           # AR-11 when placed


# -- gas attacks (AR-08, PB 13.6.5.1) -------------------------------------------------------------

def gassed_marker(hex_="1107"):
    return replace(unit("g", hex_, name="Gassed", side=None, kind="marker", attack=None, defense=None,
                        movement=None, size=None, unit_class=None, steps=0), counter="mk-gassed")


def gas(board, s, *, segment="movement", phasing="ethiopian", air=("1107",), scenario="1935-36"):
    from vlog.games.lion_of_judah.checks.air import judge_gassed
    return judge_gassed(board, s, gassed_marker(), "1107", scenario=scenario, segment=segment, phasing=phasing,
                        air_hexes=set(air), step=4, when="Turn 1, Ethiopian movement")


def test_gassed_markers_follow_a_gas_attack(board):
    from .synthetic import state
    levy = unit("lv", "1107", name="Tigray", side="ethiopian", unit_class="ethiopian-levy")
    seyum = unit("rs", "1107", name="Ras Seyum", side="ethiopian", kind="leader", unit_class=None)
    s = state(levy, seyum, scenario="1935-36")
    assert gas(board, s) == []
    [f] = gas(board, s, air=())
    assert f.check == "lion-of-judah/AR-08" and f.basis is Basis.PROVEN and f.step == 4
    assert f.evidence == {"hex": "1107", "air_marker_hexes": []}
    [g] = gas(board, s, air=(), segment="combat", phasing="italian")        # optional rule
    assert g.basis is Basis.POSSIBLE and "Increased gas effectiveness" in g.evidence["depends_on"][0]
    [h] = gas(board, s, segment="movement", phasing="italian")
    assert h.basis is Basis.PROVEN and "start of the Ethiopian movement" in h.message
    [i] = gas(board, s, scenario="1940-41")
    assert "only in the 1935-36 scenario" in i.message
    two = state(levy, seyum, replace(gassed_marker(), id="g1"), replace(gassed_marker(), id="g2"),
                scenario="1935-36")
    [j] = gas(board, two)
    assert j.evidence == {"hex": "1107", "gassed_markers": 3, "units": 2}


# -- air supply: the units and one a turn (AR-09, PB 13.6.5.2) ------------------------------------

def air_supply(board, *units, earlier=None):
    from vlog.games.lion_of_judah.checks.air import judge_mission_segment
    from .synthetic import state
    return judge_mission_segment(board, state(*units, scenario="1935-36"), marker(), "1305", scenario="1935-36",
                                 segment="movement", phasing="italian", moved=[], step=3,
                                 when="Turn 1, Italian movement", earlier_air_supply=earlier)


def test_air_supply_goes_on_up_to_two_steps(board):
    gs = unit("gs", "1305", name="GS", steps=1, size="brigade")
    big = unit("21a", "1305", name="21A", steps=4)
    assert air_supply(board, gs) == [] and air_supply(board, gs, big) == []
    [f] = air_supply(board, big)
    assert f.check == "lion-of-judah/AR-09" and f.evidence == {"hex": "1305", "steps": {"21A": 4}}
    [g] = air_supply(board)
    assert g.evidence == {"hex": "1305", "italian_units": 0}
    [h] = air_supply(board, gs, earlier="7 St")
    assert "already flew air supply this turn" in h.message and h.subjects == ("III Br", "7 St")


# -- AR-05 replayed: which roll is the delayed-return roll ----------------------------------------

AR05_ACTIONS = """as Alice
turn next
turn next
as Bob
turn next
as Alice
move @1704067200070 along 1107 on "Main Map"
as Bob
turn next
turn next
turn next
as Alice
roll 1d6 = 6
{between}
move @1704067200070 along "Northern Front air marker box" on "Off-map Boxes"
"""


def _replay_ar05(tmp_path, between: str) -> list[tuple[str, int]]:
    findings = judge_actions(tmp_path, AR05_ACTIONS.format(between=between), name="ar05")
    return [(f.check.split("/")[1], f.step) for f in findings]


def test_the_delayed_return_roll_is_the_one_just_before(tmp_path):
    """10.1.4: the owner rolls right after the mission; a roll two steps back was for something else."""
    assert _replay_ar05(tmp_path, "") == [("AR-05", 9)]
    assert _replay_ar05(tmp_path, 'chat "attrition done"') == []
