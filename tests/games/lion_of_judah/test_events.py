"""Events (checks/events.py): the pool, the draws of each Event Phase, held events and their
effects, judged from where the event markers stand (event cup -> Events drawn -> map).

The markers are the shipped counters.json event markers (A1..D10, Open City, 6.1); the board is
the SYNTHETIC clear board of synthetic.py (features and zones set per test)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from vlog.engine.judge import Unknown
from vlog.findings import Basis
from vlog.gamedata import load_game_data
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.event_cards import DRAWN_BOX, POOL_BOX, event_info
from vlog.games.lion_of_judah.checks.events import EventLedger
from vlog.games.lion_of_judah.sequence import Phase
from vlog.games.lion_of_judah.state import GameState, Unit

from .synthetic import unit, write_overlay

DATA = load_game_data("lion-of-judah")
A = [f"ev-a{i}" for i in range(1, 6)]
B = [f"ev-b{i}" for i in range(6, 9)]
C = [f"ev-c{i}" for i in range(1, 6)]
D = [f"ev-d{i}" for i in range(6, 11)]


def marker(counter: str, *, box: str | None = POOL_BOX, hex_: str | None = None) -> Unit:
    """The piece of an event marker, its id its counter id."""
    name = DATA.counter(counter)["name"].value
    return Unit(id=counter, name=name, side=None, hex=hex_, kind="combat", counter=counter,
                box=None if hex_ else box, unit_type="event")


def position(markers: list[Unit], *units: Unit, scenario: str = "1935-36") -> GameState:
    return GameState({u.id: u for u in units}, scenario=scenario, events={m.id: m for m in markers})


class Play:
    """Drives a ledger the way rules.py does: phases from the turn track, marker moves, rolls."""

    def __init__(self, tmp_path: Path, scenario: str, counters: list[str], *units: Unit, **overlay):
        data = load_game_data("lion-of-judah", overlays=[write_overlay(tmp_path / "data", **overlay)])
        self.ledger = EventLedger(data, Board(data))
        self.scenario = scenario
        self.markers = {c: marker(c) for c in counters}
        self.units = {u.id: u for u in units}
        self.phase: Phase | None = None
        self.step = 0
        self.findings: list = []
        self.ledger.start(self.state())

    def state(self) -> GameState:
        return position(list(self.markers.values()), *self.units.values(), scenario=self.scenario)

    def to(self, turn: int, key: str) -> list:
        self.step += 1
        old, self.phase = self.phase, Phase(self.scenario, turn, key)
        out = self.ledger.on_phase(old, self.phase, True, self.state(), step=self.step)
        self.findings += out
        return out

    def put(self, counter: str, *, box: str | None = None, hex_: str | None = None, gone: bool = False) -> list:
        self.step += 1
        before = self.state()
        old = self.markers.get(counter) or None
        new = None if gone else marker(counter, box=box, hex_=hex_)
        if gone:
            self.markers.pop(counter, None)
        else:
            self.markers[counter] = new
        out = self.ledger.on_marker(counter, old, new, self.phase, True, before, self.state(),
                                    step=self.step, when=None)
        self.findings += out
        return out

    def draw(self, counter: str) -> list:
        return self.put(counter, box=DRAWN_BOX)

    def roll(self, *faces: int) -> None:
        self.step += 1
        self.ledger.note_rolls(self.step, list(faces))

    def move(self, uid: str, to: str) -> list:
        self.step += 1
        u = self.units[uid]
        out = self.ledger.on_unit_move(u, to, self.phase, True, step=self.step, when=None)
        self.units[uid] = replace(u, hex=to)
        self.findings += out
        return out


def ids(findings) -> list[str]:
    return [f.check.split("/", 1)[1] for f in findings]


def test_event_info_reads_the_counter_data():
    a5, d9 = event_info(DATA, "ev-a5"), event_info(DATA, "ev-d9")
    assert a5 is not None and a5.returns and a5.enters_turn == 1 and a5.scenario == "1935-36"
    assert d9 is not None and d9.open_city and d9.held_by == "allied" and d9.enters_turn == 4
    assert event_info(DATA, "it-sb") is None


def test_legal_draws_over_two_turns_give_nothing(tmp_path):
    """No Event returns to the pool (6.2); a drawn event leaves it; one draw a phase."""
    play = Play(tmp_path, "1935-36", A + B)
    for b in B:                                      # B markers not yet in play: off the table
        play.markers[b] = marker(b, box="unplaced")
    play.ledger.start(play.state())
    play.to(1, "event")
    play.draw("ev-a5")
    play.put("ev-a5", box=POOL_BOX)
    play.to(1, "first-movement")
    play.to(2, "map")
    play.to(2, "event")
    play.draw("ev-a1")
    play.put("ev-a1", gone=True)                     # resolved: removed from the game
    play.to(2, "first-movement")
    play.ledger.finish()
    assert play.findings == [] and play.ledger.finish() == []


def test_second_draw_in_an_event_phase_is_ev02(tmp_path):
    play = Play(tmp_path, "1935-36", A)
    play.to(1, "event")
    play.draw("ev-a5")
    play.put("ev-a5", box=POOL_BOX)
    found = play.draw("ev-a4")
    assert ids(found) == ["EV-02"] and found[0].basis is Basis.PROVEN
    assert found[0].evidence["first_event"] == "A5"


def test_draw_outside_the_event_phase_is_ev02(tmp_path):
    play = Play(tmp_path, "1935-36", A)
    play.to(1, "first-movement")
    found = play.draw("ev-a1")
    assert ids(found) == ["EV-02"] and found[0].evidence["phase"] == "first-movement"


def test_no_event_not_returned_and_drawn_event_put_back(tmp_path):
    play = Play(tmp_path, "1935-36", A)
    play.to(1, "event")
    play.draw("ev-a5")
    ended = play.to(1, "first-movement")
    assert ids(ended) == ["EV-02"] and ended[0].evidence["event"] == "A5"
    play.to(2, "event")
    play.draw("ev-a2")
    back = play.put("ev-a2", box=POOL_BOX)
    assert ids(back) == ["EV-02"] and back[0].evidence["drawn_step"] > 0


def test_event_phase_without_a_draw_is_reported_only_when_the_log_draws(tmp_path):
    play = Play(tmp_path, "1935-36", A)
    play.to(1, "event")
    play.to(1, "first-movement")
    assert play.ledger.finish() == []                # the log never draws: events kept off the table
    play.to(2, "event")
    play.draw("ev-a1")
    play.to(2, "first-movement")
    found = play.ledger.finish()
    assert ids(found) == ["EV-02"] and found[0].evidence == {"turn": 1, "draws": 0}


def test_pool_with_a_later_strategic_turn_marker_is_ev01(tmp_path):
    play = Play(tmp_path, "1935-36", A + ["ev-b7"])      # B7 in the cup from the start
    play.to(1, "event")
    found = play.draw("ev-a1")
    assert ids(found) == ["EV-01"] and found[0].evidence == {"event": "B7", "turn": 1, "in_pool": True}


def test_pool_missing_the_new_strategic_turn_on_turn_five_is_ev01(tmp_path):
    """A1-A4 drawn and removed on turns 1-4; on turn 5 B6 and B7 join the pool, B8 does not
    (PB 13.7): as a piece still off the table, or never shown at all."""
    for shown in (True, False):
        play = Play(tmp_path / str(shown), "1935-36", A + ["ev-b6", "ev-b7"] + (["ev-b8"] if shown else []))
        if shown:
            play.markers["ev-b8"] = marker("ev-b8", box="unplaced")
            play.ledger.start(play.state())
        for turn, code in enumerate(("ev-a1", "ev-a2", "ev-a3", "ev-a4"), start=1):
            play.to(turn, "event")
            play.draw(code)
            play.put(code, gone=True)
        play.to(5, "event")
        found = play.draw("ev-b6")
        assert [(f.check.split("/")[1], f.evidence) for f in found] == [
            ("EV-01", {"event": "B8", "turn": 5, "in_pool": False})]


def test_marker_put_in_the_pool_before_its_turn_is_ev01(tmp_path):
    play = Play(tmp_path, "1940-41", C + ["ev-d8"])
    play.markers["ev-d8"] = marker("ev-d8", box="unplaced")
    play.ledger.start(play.state())
    play.to(2, "map")
    found = play.put("ev-d8", box=POOL_BOX)
    assert ids(found) == ["EV-01"] and found[0].evidence["enters_turn"] == 4


@pytest.mark.parametrize("roll, joined", [(6, True), (5, True), (3, False), (1, False)])
def test_c1_roll_decides_french_somaliland(tmp_path, roll, joined):
    play = Play(tmp_path, "1940-41", C)
    assert play.ledger.french_somaliland_joined() is None            # no draws shown yet
    play.to(1, "event")
    play.draw("ev-c1")
    play.roll(roll)
    assert play.ledger.french_somaliland_joined() is joined


def test_c1_roll_of_four_depends_on_the_ipl(tmp_path):
    play = Play(tmp_path, "1940-41", C)
    play.to(1, "event")
    play.draw("ev-c1")
    play.roll(4)
    assert isinstance(play.ledger.french_somaliland_joined(), Unknown)


def test_c1_without_a_roll_is_ev10_and_french_somaliland_stays_neutral(tmp_path):
    play = Play(tmp_path, "1940-41", C)
    play.to(1, "event")
    play.draw("ev-c1")
    found = play.to(1, "first-movement")
    assert ids(found) == ["EV-10"]
    assert play.ledger.french_somaliland_joined() is False


def test_free_french_moving_before_c1_joins_is_sc08(tmp_path):
    bdo = unit("bdo", "1910", name="BdO", side="allied")
    bdo = replace(bdo, counter="ff-bdo")
    play = Play(tmp_path, "1940-41", C, bdo)
    play.to(1, "event")
    play.draw("ev-c2")
    play.to(1, "first-movement")
    found = play.move("bdo", "1911")
    assert ids(found) == ["SC-08"] and found[0].basis is Basis.PROVEN


def test_free_french_moving_after_c1_joins_is_legal(tmp_path):
    bdo = replace(unit("bdo", "1910", name="BdO", side="allied"), counter="ff-bdo")
    play = Play(tmp_path, "1940-41", C, bdo)
    play.to(1, "event")
    play.draw("ev-c1")
    play.roll(6)
    play.to(1, "first-movement")
    assert play.move("bdo", "1911") == []


def test_italian_move_into_an_open_city_is_mv46(tmp_path):
    kar = replace(unit("kar", "1212", name="KAR1", side="allied", unit_class=None), counter="gb-kar1")
    sb = unit("sb", "1314", name="Sb")
    play = Play(tmp_path, "1940-41", C + D, kar, sb, features={"1213": ["capital"]},
                zones={"ethiopia": ["1213", "1212", "1314", "1313"]})
    play.to(5, "event")
    play.draw("ev-d9")
    placed = play.put("ev-open-city", hex_="1213")
    assert placed == []                                    # a capital next to KAR1, D9 drawn this phase
    play.to(5, "second-movement")
    found = play.move("sb", "1213")
    assert ids(found) == ["MV-46"] and found[0].evidence["hex"] == "1213"


def test_open_city_on_a_hex_without_commonwealth_neighbour_is_ev17(tmp_path):
    play = Play(tmp_path, "1940-41", C + D, features={"1213": ["capital"]},
                zones={"ethiopia": ["1213"]})
    play.to(5, "event")
    play.draw("ev-d10")
    found = play.put("ev-d10", hex_="1213")
    assert ids(found) == ["EV-17"] and "no Commonwealth unit is next to it" in found[0].evidence["problems"]


def test_open_city_held_past_the_event_phase_is_ev17(tmp_path):
    play = Play(tmp_path, "1940-41", C + D)
    play.to(4, "event")
    play.draw("ev-d9")
    found = play.to(4, "first-movement")
    assert ids(found) == ["EV-17"] and found[0].evidence["problems"] == ["held past the Event Phase"]


def test_red_sea_fleet_played_in_the_turn_drawn_is_ev13_later_map_is_legal(tmp_path):
    play = Play(tmp_path, "1940-41", C)
    play.to(2, "event")
    play.draw("ev-c4")
    assert ids(play.to(2, "first-movement")) == []
    found = play.put("ev-c4", gone=True)
    assert ids(found) == ["EV-13"]
    play2 = Play(tmp_path / "b", "1940-41", C)
    play2.to(2, "event")
    play2.draw("ev-c4")
    play2.to(3, "map")
    assert play2.put("ev-c4", gone=True) == []
    assert play2.ledger.played_turns("C4") == {3} and play2.ledger.played_turns("D8") == set()


def test_imperial_proclamation_outside_the_map_is_ev16(tmp_path):
    play = Play(tmp_path, "1940-41", C + D)
    play.to(4, "event")
    play.draw("ev-d8")
    play.to(5, "first-movement")
    found = play.put("ev-d8", box="unplaced")
    assert ids(found) == ["EV-16"] and found[0].evidence["phase"] == "first-movement"


def test_coordination_needs_an_ethiopian_leader_in_the_activation(tmp_path):
    ras = unit("ras", "1107", name="Ras Seyum", side="ethiopian", kind="leader")
    play = Play(tmp_path, "1935-36", A + B, ras)
    play.to(5, "event")
    play.draw("ev-b6")
    play.to(5, "second-movement")
    assert play.put("ev-b6", hex_="1107") == []
    play2 = Play(tmp_path / "b", "1935-36", A + B, ras)
    play2.to(5, "event")
    play2.draw("ev-b6")
    play2.to(5, "first-movement")
    found = play2.put("ev-b6", hex_="1108")
    assert ids(found) == ["ET-12", "ET-12"]           # no leader there, and not the activation


def test_wireless_interception_near_the_negus_and_the_marked_stack_moving(tmp_path):
    levy = unit("levy", "1107", name="Tigray levy", side="ethiopian", unit_class=None)
    negus = replace(unit("negus", "1213", name="Negus", side="ethiopian", kind="leader"), counter="et-negus")
    play = Play(tmp_path, "1935-36", A + B, levy, negus)
    play.to(5, "event")
    play.draw("ev-b7")
    play.to(5, "second-movement")
    play.roll(3)                                        # the tribe's activation roll
    assert play.put("ev-b7", hex_="1107") == []
    found = play.move("levy", "1108")
    assert ids(found) == ["ET-13"] and found[0].evidence["marked_at_step"] > 0
    close = Play(tmp_path / "b", "1935-36", A + B, replace(levy, hex="1212"), negus)
    close.to(5, "event")
    close.draw("ev-b7")
    close.to(5, "first-combat")
    found = close.put("ev-b7", hex_="1212")
    assert ids(found) == ["ET-13"] and found[0].evidence["negus_hex"] == "1213"


def test_wireless_interception_after_a_move_without_a_new_roll_is_et13(tmp_path):
    levy = unit("levy", "1107", name="Tigray levy", side="ethiopian", unit_class=None)
    other = unit("other", "1310", name="Wollo levy", side="ethiopian", unit_class=None)
    play = Play(tmp_path, "1935-36", A + B, levy, other)
    play.to(5, "event")
    play.draw("ev-b7")
    play.to(5, "second-movement")
    play.roll(4)
    play.move("other", "1311")
    found = play.put("ev-b7", hex_="1107")
    assert ids(found) == ["ET-13"] and found[0].evidence["last_roll_step"] < found[0].evidence[
        "last_ethiopian_move_step"]


def test_held_event_played_twice_is_ev02(tmp_path):
    levy = unit("levy", "1107", name="Tigray levy", side="ethiopian", unit_class=None)
    play = Play(tmp_path, "1935-36", A + B, levy)
    play.to(5, "event")
    play.draw("ev-b7")
    play.to(5, "first-combat")
    assert play.put("ev-b7", hex_="1107") == []
    play.put("ev-b7", box=DRAWN_BOX)
    found = play.put("ev-b7", hex_="1107")
    assert ids(found) == ["EV-02"]


def test_bombing_on_the_league_of_nations_turn_is_ev06(tmp_path):
    air = unit("air", None, name="III Br", kind="air")
    play = Play(tmp_path, "1935-36", A)
    play.to(3, "event")
    play.draw("ev-a4")
    play.to(3, "first-combat")
    found = play.ledger.on_air_mission(air, "1107", play.phase, True, None, step=9, when=None)
    assert ids(found) == ["EV-06"]
    assert play.ledger.on_air_mission(air, "1107", play.phase, True, "1107", step=9, when=None) == []
    play.to(4, "first-combat")
    assert play.ledger.on_air_mission(air, "1107", play.phase, True, None, step=9, when=None) == []


def _open_city_play(tmp_path, *units):
    kar = replace(unit("kar", "1205", name="KAR2", side="allied", unit_class=None), counter="gb-kar2")
    play = Play(tmp_path, "1940-41", C + D, kar, *units, features={"1305": ["town"]},
                zones={"eritrea": ["1305", "1205", "1405"]})
    play.to(4, "event")
    play.draw("ev-d9")
    assert play.put("ev-open-city", hex_="1305") == []
    play.put("ev-d9", gone=True)                    # played: removed from the game
    return play


def test_open_city_roll_not_above_the_vp_leaves_no_marker(tmp_path):
    """Asmara (1305) is worth 1 VP (PB 14.4.1): a 1 does not open it, so the marker may not stay."""
    play = _open_city_play(tmp_path)
    play.roll(1)
    found = play.to(4, "first-movement")
    assert ids(found) == ["EV-17"] and found[0].evidence["problems"] == ["roll not above the VP"]
    failed = _open_city_play(tmp_path / "b")
    failed.roll(1)
    failed.put("ev-open-city", gone=True)           # removed after the failed roll: legal
    assert failed.to(4, "first-movement") == []


def test_open_city_italian_units_must_leave(tmp_path):
    sb = unit("sb", "1305", name="Sb")
    play = _open_city_play(tmp_path, sb)
    play.roll(6)
    found = play.to(4, "first-movement")
    assert ids(found) == ["EV-17"] and found[0].evidence["italian_units"] == ["Sb"]
    moved = _open_city_play(tmp_path / "b", sb)
    moved.roll(6)
    moved.step += 1
    moved.units["sb"] = replace(sb, hex="1405")      # moved out to an adjacent hex
    assert moved.to(4, "first-movement") == []


def rp(uid: str, side: str, *, hex_: str | None = None, box: str | None = None, level: str = "1rp") -> Unit:
    """An RP marker on its `level` face (7.3.1)."""
    return Unit(id=uid, name=f"{side} RP", side=side, hex=hex_, box=box, kind="rp", level=level,
                unit_type="rp")


def test_foreign_arms_two_rps_with_ethiopian_leaders(tmp_path):
    ras = unit("ras", "1107", name="Ras Seyum", side="ethiopian", kind="leader")
    play = Play(tmp_path, "1935-36", A, ras)
    play.to(1, "event")
    play.draw("ev-a3")
    play.units["r1"] = rp("r1", "ethiopian", hex_="1107", level="2rp")     # one 2-RP marker: legal
    assert play.to(1, "first-movement") == []
    wrong = Play(tmp_path / "b", "1935-36", A, ras)
    wrong.to(1, "event")
    wrong.draw("ev-a3")
    wrong.units["r1"] = rp("r1", "ethiopian", hex_="1107")
    wrong.units["r2"] = rp("r2", "ethiopian", hex_="1108")
    found = wrong.to(1, "first-movement")
    assert ids(found) == ["EV-05"] and found[0].evidence["rp_added"] == {"1107": 1, "1108": 1}


def test_blockade_runner_two_rps_in_one_italian_box(tmp_path):
    play = Play(tmp_path, "1940-41", C, rp("old", "italian", box="rp-italian-somaliland"))
    play.to(1, "event")
    play.draw("ev-c3")
    play.units["old"] = rp("old", "italian", box="rp-italian-somaliland", level="2rp")   # flipped 1 -> 2
    play.units["new"] = rp("new", "italian", box="rp-italian-somaliland")
    assert play.to(1, "first-movement") == []
    three = Play(tmp_path / "b", "1940-41", C)
    three.to(1, "event")
    three.draw("ev-c3")
    three.units["new"] = rp("new", "italian", box="rp-italian-eritrea-ethiopia", level="3rp")
    found = three.to(1, "first-movement")
    assert ids(found) == ["EV-12"] and found[0].evidence["problems"] == ["3 RPs were placed, not two"]


def _war_office(tmp_path, roll):
    sb = unit("sb", "2113", name="Sb")
    play = Play(tmp_path, "1940-41", C, sb, zones={"british-somaliland": ["2113", "2311"]})
    play.to(1, "event")
    play.draw("ev-c2")
    if roll is not None:
        play.roll(roll)
    return play, play.to(1, "first-movement")


def test_war_office_closes_berbera_on_one_to_four(tmp_path):
    kar = unit("kar", None, name="KAR1", side="allied", unit_class=None)
    play, ended = _war_office(tmp_path, 2)
    assert ended == []
    play.to(2, "map")
    found = play.ledger.on_placement(kar, "2311", play.state(), play.phase, True, step=20, when=None)
    assert ids(found) == ["EV-11"] and found[0].basis is Basis.PROVEN and found[0].evidence["italian_units"] == ["Sb"]
    assert play.ledger.on_placement(kar, "1122", play.state(), play.phase, True, step=21, when=None) == []
    del play.units["sb"]                                       # the Italians left: the order lapses
    assert play.ledger.on_placement(kar, "2311", play.state(), play.phase, True, step=22, when=None) == []
    four, _ = _war_office(tmp_path / "b", 4)
    found = four.ledger.on_placement(kar, "2311", four.state(), four.phase, True, step=20, when=None)
    assert found[0].basis is Basis.POSSIBLE                    # +1 with a low IPL makes it a 5
    six, _ = _war_office(tmp_path / "c", 6)
    assert six.ledger.on_placement(kar, "2311", six.state(), six.phase, True, step=20, when=None) == []


def test_war_office_not_rolled_is_ev11(tmp_path):
    _, ended = _war_office(tmp_path, None)
    assert ids(ended) == ["EV-11"] and ended[0].evidence["rolls"] == []


def ipl(value: int) -> Unit:
    """The Italian prestige level marker in General Records Track box `value` (PB 14.6.3)."""
    return Unit(id="ipl", name="Italian prestige level", side="italian", hex=None, box=f"grt-{value}",
                kind="marker", counter="it-ipl", unit_type="marker")


@pytest.mark.parametrize("level, joined", [(9, False), (5, True)])
def test_c1_roll_of_four_read_against_the_prestige_marker(tmp_path, level, joined):
    play = Play(tmp_path, "1940-41", C, ipl(level))
    play.to(1, "event")
    play.draw("ev-c1")
    play.roll(4)
    assert play.ledger.french_somaliland_joined() is joined      # high IPL: -1 makes the 4 a 3


def test_open_city_used_at_high_ipl_is_ev17(tmp_path):
    kar = replace(unit("kar", "1205", name="KAR2", side="allied", unit_class=None), counter="gb-kar2")
    play = Play(tmp_path, "1940-41", C + D, kar, ipl(9), features={"1305": ["town"]},
                zones={"eritrea": ["1305", "1205"]})
    play.to(4, "event")
    play.draw("ev-d9")
    found = play.put("ev-open-city", hex_="1305")
    assert ids(found) == ["EV-17"] and found[0].evidence["problems"] == [
        "the IPL was 9 (high) when the event was drawn: it is discarded"]


def test_less_randomness_c2_held_from_the_start_is_a_turns_event(tmp_path):
    """Optional rule (C2): C2 begins out of the cup, held by the Italian player; it is the event of
    the turn it is played, with no draw, and it is not missing from the pool."""
    play = Play(tmp_path, "1940-41", C)
    play.markers["ev-c2"] = marker("ev-c2", box=DRAWN_BOX)
    play.ledger = EventLedger(play.ledger.data, play.ledger.board)
    play.ledger.start(play.state())
    play.to(1, "event")
    assert play.draw("ev-c5") == [] and play.put("ev-c5", box=POOL_BOX) == []     # no EV-01 for C2
    play.to(1, "first-movement")
    play.to(2, "event")
    assert play.put("ev-c2", gone=True) == []         # played as turn 2's event
    play.to(2, "first-movement")
    assert play.ledger.finish() == []                 # turn 2 had its event


def test_italian_defeat_in_libya_lets_three_brigades_come_early_only_after_d7(tmp_path):
    def brigade(uid):
        return Unit(id=uid, name=uid, side="allied", hex=None, counter="gb-kar1", size="brigade",
                    properties={"entry_turn": 6})
    play = Play(tmp_path, "1940-41", C + D)
    play.to(4, "event")
    play.draw("ev-d7")
    play.put("ev-d7", gone=True)
    play.to(5, "event")
    play.draw("ev-d6")
    turns = [play.ledger.entry_turn(brigade(f"b{i}"), 5) for i in range(4)]
    assert turns == [6, 6, 6, 5]                    # three early (EV-14); the fourth is judged on turn 5
    early = Play(tmp_path / "b", "1940-41", C + D)
    early.to(4, "event")
    early.draw("ev-d6")                              # before D7: discarded
    assert early.ledger.entry_turn(brigade("b"), 5) == 5


def test_wireless_interception_used_for_air_does_not_hold_the_stack(tmp_path):
    """B7 placed in the Italian combat segment is its air use (AR-13): the stack under it may move
    in the Ethiopian movement."""
    levy = unit("levy", "1107", name="Tigray levy", side="ethiopian", unit_class=None)
    play = Play(tmp_path, "1935-36", A + B, levy)
    play.to(5, "event")
    play.draw("ev-b7")
    play.to(5, "first-combat")
    assert play.put("ev-b7", hex_="1107") == []
    play.to(5, "second-movement")
    assert play.move("levy", "1108") == []


def test_gassed_marker_on_the_league_of_nations_turn_is_ev06(tmp_path):
    gassed = Unit(id="g", name="Gassed", side=None, hex=None, kind="marker", counter="mk-gassed",
                  unit_type="marker")
    play = Play(tmp_path, "1935-36", A)
    play.to(2, "event")
    play.draw("ev-a4")
    play.to(2, "second-movement")
    found = play.ledger.on_placement(gassed, "1107", play.state(), play.phase, True, step=9, when=None)
    assert ids(found) == ["EV-06"] and found[0].evidence["marker"] == "mk-gassed"
    play.to(3, "second-movement")
    assert play.ledger.on_placement(gassed, "1107", play.state(), play.phase, True, step=10, when=None) == []


def test_coordination_replaces_the_activation_roll(tmp_path):
    """ET-12 (B6): placed on the leader being activated before its roll, the activation is full
    without a roll; after the roll it comes too late (checks/activation.py reads it)."""
    from vlog.games.lion_of_judah.checks.activation import ActivationJudge
    from vlog.games.lion_of_judah.checks.activation_rules import parse_declaration
    from vlog.games.lion_of_judah.state import unit_from_counter

    ras = unit_from_counter(DATA, "et-leader-tigray", id="ras", name="Ras Seyum", hex_="1107")
    levy = unit_from_counter(DATA, "et-levy-tigray", id="levy", name="Tigray levy", hex_="1107")
    seg = Phase("1935-36", 5, "second-movement")
    results = []
    for roll_first in (False, True):
        judge = ActivationJudge(Board(DATA), "1935-36")
        judge.phase_change(Phase("1935-36", 5, "first-combat"), seg, position([], ras, levy), bound=True, step=1)
        judge.declaration(parse_declaration("activate Ras Seyum"), seg, step=2, when=None)
        if roll_first:
            judge.roll(3, seg, step=3, when=None)
        results.append(judge.coordinate(ras))
        if not roll_first:
            assert judge.needs_roll() is False        # no activation die after Coordination
    assert results == ["full", "rolled"]
