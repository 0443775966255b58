"""What trucks carry (MV-31, rule 10.3) on SYNTHETIC positions: one type of thing a turn, only
units of the truck's nationality; a truck carries a piece that goes from the same hex to the
same hex in the same step or the next moving step."""
from __future__ import annotations

from dataclasses import replace

import pytest

from vlog.findings import Basis, Severity
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.trucks import (
    TruckLedger,
    carried_type,
    nationality,
)
from vlog.games.lion_of_judah.sequence import Phase
from vlog.games.lion_of_judah.state import Unit

from .synthetic import state, synthetic_board, unit

MOVEMENT = Phase("1935-36", 2, "first-movement")


@pytest.fixture
def board(tmp_path) -> Board:
    return synthetic_board(tmp_path)


def truck(id: str, hex_: str) -> Unit:
    return Unit(id=id, name="Italian truck", side="italian", hex=hex_, kind="truck", counter="it-truck")


def rp(id: str, hex_: str | None, box: str | None = None) -> Unit:
    return Unit(id=id, name="Italian RP 2/1", side="italian", hex=hex_, box=box, kind="rp",
                counter="it-rp-2-1", level="2rp", steps=0)


class Replay:
    """Feeds a ledger position after position, as the Game does step by step."""

    def __init__(self, board: Board, *units: Unit, phase: Phase = MOVEMENT):
        self.ledger = TruckLedger(board, board.data)
        self.now = state(*units, scenario="1935-36")
        self.step = 0
        self.phase = phase

    def move(self, **hexes: str | None) -> list:
        units = dict(self.now.units)
        for uid, hex_ in hexes.items():
            units[uid] = replace(units[uid], hex=hex_, box=None if hex_ is not None else "rp-northern-front")
        after = state(*units.values(), scenario="1935-36")
        self.step += 1
        found = self.ledger.observe(self.now, after, step=self.step, phase=self.phase, bound=True,
                                    scenario="1935-36", when="Turn 2, Italian movement")
        self.now = after
        return found


def test_types_and_nationality_from_the_data(board):
    assert carried_type(rp("r", "1405")) == "RP"
    assert carried_type(unit("sb", "1405")) == "combat unit"
    assert carried_type(unit("hq", "1405", kind="hq")) == "HQ"
    assert carried_type(truck("t2", "1405")) is None
    assert nationality(board.data, truck("t", "1405")) == "italian"
    assert nationality(board.data, unit("x", "1405")) is None       # no counter: not judged


def test_one_type_carried_all_turn_is_legal(board):
    replay = Replay(board, truck("t", "1405"), rp("r", "1405"), unit("sb", "1305"))
    assert replay.move(t="1305", r="1305") == []                      # dragged as a stack
    assert replay.move(t="1205") == []
    assert replay.move(r="1205") == []                               # followed in the next step


def test_a_second_type_in_the_same_turn_is_proven(board):
    replay = Replay(board, truck("t", "1405"), rp("r", "1405"), unit("sb", "1305", name="Sb"))
    assert replay.move(t="1305") == []
    assert replay.move(r="1305") == []                                # the RP follows its truck
    assert replay.move(r=None) == []                                  # unloaded into a box
    found = replay.move(t="1205", sb="1205")
    assert [f.check for f in found] == ["lion-of-judah/MV-31"]
    assert found[0].severity is Severity.ERROR and found[0].basis is Basis.PROVEN
    assert found[0].evidence["first"] == "RP" and found[0].evidence["then"] == "combat unit"
    assert found[0].evidence["first_step"] == 2
    assert "one type of thing per turn" in found[0].message
    assert replay.move(t="1104", sb="1104") == []                     # reported once a turn


def test_a_new_turn_allows_another_type(board):
    replay = Replay(board, truck("t", "1405"), rp("r", "1405"), unit("sb", "1305"))
    assert replay.move(t="1305", r="1305") == []
    replay.phase = Phase("1935-36", 3, "first-movement")
    assert replay.move(r=None) == []
    assert replay.move(t="1205", sb="1205") == []


def test_pieces_moving_apart_are_not_carried(board):
    replay = Replay(board, truck("t", "1405"), rp("r", "1405"), unit("sb", "1405"))
    assert replay.move(t="1305", r="1305") == []
    assert replay.move(sb="1306") == []                               # another path: on foot
    assert replay.move(sb="1305") == []                               # not from the truck's hex


def test_another_nationality_is_proven(board):
    german = Unit(id="dmk", name="DMK", side="italian", hex="1405", kind="combat", counter="de-dmk")
    replay = Replay(board, truck("t", "1405"), german)
    found = replay.move(t="1305", dmk="1305")
    assert [f.check for f in found] == ["lion-of-judah/MV-31"]
    assert found[0].evidence["truck_nationality"] == "italian"
    assert found[0].evidence["piece_nationality"] == "german"
    assert "own nationality" in found[0].message


def test_unbound_or_unknown_scenario_is_not_judged(board):
    replay = Replay(board, truck("t", "1405"), rp("r", "1405"), unit("sb", "1305"))
    replay.phase = None  # type: ignore[assignment]
    assert replay.move(t="1305", r="1305") == []
    assert replay.move(r=None) == []
    assert replay.move(t="1205", sb="1205") == []


def test_a_load_follows_its_truck_only_within_one_phase(board):
    replay = Replay(board, truck("t", "1405"), rp("r", "1405"), unit("sb", "1405"))
    assert replay.move(t="1305", r="1305") == []
    replay.phase = Phase("1935-36", 2, "first-combat")
    assert replay.move(sb="1305") == []                               # not carried: a new phase
    replay.phase = MOVEMENT
    assert [f.check for f in replay.move(t="1205", sb="1205")] == ["lion-of-judah/MV-31"]


def hq_at(hex_: str) -> Unit:
    return unit("hq", hex_, name="1CA", kind="hq", attack=None, defense=None, movement=4, level="m",
                motorized=True)


def test_hq_trucks_are_those_near_it_at_the_start_and_at_its_new_hex(board):
    near = board.neighbours("1603")
    far = next(h for h in board.neighbours("1606") if board.distance("1603", h) > 1)
    allied = replace(truck("a", "1603"), side="allied")
    replay = Replay(board, hq_at("1603"), truck("t1", "1603"), truck("t2", min(near)),
                    truck("t3", far), allied)
    replay.move(t1="1604", t2="1604", t3="1604", a="1604")               # the trucks go first
    before = replay.now
    after = state(*{**before.units, "hq": replace(before.units["hq"], hex="1604")}.values())
    assert replay.ledger.hq_trucks(before.units["hq"], "1603", "1604", before, after, MOVEMENT) == 2
    # read in a phase the ledger has not seen move: the trucks start where they stand, by 1603
    later = Phase("1935-36", 2, "second-movement")
    assert replay.ledger.hq_trucks(before.units["hq"], "1603", "1604", before, after, later) == 3


def test_an_hq_moves_its_mf_plus_one_per_extra_truck(board):
    from vlog.games.lion_of_judah.checks.movement import MoveFacts, judge_move

    hq = hq_at("1206")
    path = ["1206"]
    while len(path) < 6:                                                 # five clear hexes away
        path.append(max((n for n in board.neighbours(path[-1]) if n not in path),
                        key=lambda n: board.distance("1206", n)))
    goal = path[-1]
    assert board.distance("1206", goal) == 5
    found = judge_move(board, state(hq), MoveFacts(hq, "1206", goal, after_level="m", trucks=1),
                       step=1, when=None)
    assert [f.check for f in found] == ["lion-of-judah/HQ-09"]
    assert found[0].evidence["trucks"] == 1 and found[0].basis is Basis.PROVEN
    assert judge_move(board, state(hq), MoveFacts(hq, "1206", goal, after_level="m", trucks=2),
                      step=1, when=None) == []
    no_truck = judge_move(board, state(hq), MoveFacts(hq, "1206", goal, after_level="m"), step=1, when=None)
    assert [f.check for f in no_truck] == ["lion-of-judah/MV-29"]


def one_rp(id: str, hex_: str) -> Unit:
    return replace(rp(id, hex_), name="Italian RP 1", level="1rp")


def test_mv33_more_than_one_rp_only_out_of_a_uss_hex(board):
    replay = Replay(board, truck("t", "1305"), rp("r", "1305"))       # Asmara: no USS
    found = replay.move(t="1205", r="1205")                             # a 2-RP marker dragged along
    assert [f.check for f in found] == ["lion-of-judah/MV-33"]
    assert found[0].basis is Basis.PROVEN and found[0].severity is Severity.ERROR
    assert found[0].evidence["rps"] == 2 and found[0].evidence["allowed"] == 1
    assert found[0].evidence["segment_start"] == "1305"
    assert "not a USS hex" in found[0].message
    assert replay.move(t="1104", r="1104") == []                         # reported once a phase


def test_mv33_one_rp_from_anywhere_is_legal(board):
    replay = Replay(board, truck("t", "1305"), one_rp("r", "1305"))
    assert replay.move(t="1205", r="1205") == []
    assert replay.move(t="1104") == []
    assert replay.move(r="1104") == []                                   # following the truck


def test_mv33_never_more_than_the_rps_it_left_the_uss_with(board):
    replay = Replay(board, truck("t", "1405"), rp("r", "1405"), one_rp("s", "1305"),
                    one_rp("u", "1305"))
    assert replay.move(t="1305") == []                                   # Massawa, a USS: 2 RPs
    assert replay.move(r="1305") == []
    assert replay.move(t="1205", s="1205") == []                         # dropped r, picked s: 1
    assert replay.move(t="1104", s="1104") == []
    replay.move(u="1104")                                               # u waits at 1104
    found = replay.move(t="1105", s="1105", u="1105")
    assert found == []                                                  # two: as many as it began with
    replay2 = Replay(board, truck("t", "1405"), rp("r", "1405"), one_rp("s", "1305"))
    assert replay2.move(t="1305", r="1305") == []                        # began with 2
    found = replay2.move(t="1205", r="1205", s="1205")                   # picks up s: 3 RPs
    assert [f.check for f in found] == ["lion-of-judah/MV-33"]
    assert found[0].evidence["rps"] == 3 and found[0].evidence["allowed"] == 2
    assert "carrying 2" in found[0].message


def test_mv33_a_truck_that_left_the_uss_empty_carries_one(board):
    replay = Replay(board, truck("t", "1405"), rp("r", "1305"))
    assert replay.move(t="1305") == []
    found = replay.move(t="1205", r="1205")
    assert [f.check for f in found] == ["lion-of-judah/MV-33"]
    assert found[0].evidence["allowed"] == 1


def test_mv33_a_new_phase_starts_a_new_segment(board):
    replay = Replay(board, truck("t", "1305"), one_rp("r", "1305"), one_rp("s", "1305"))
    assert replay.move(t="1205", r="1205") == []
    replay.phase = Phase("1935-36", 3, "first-movement")
    found = replay.move(t="1104", r="1104", s="1104")
    assert found == []                                                  # s was not at 1205: not carried


# -- how far a truck carries RPs (MV-32: 6 MPs; MV-33: -1 MP per RP above one) ----------------

@pytest.fixture
def road(tmp_path) -> tuple[Board, list[str]]:
    """Massawa (1405, a USS) and the nine clear hexes south of it, all in Eritrea (1935-36: in
    play), each one hex further from it."""
    path = [f"14{row:02d}" for row in range(5, 15)]
    board = synthetic_board(tmp_path, zones={"eritrea": path})
    assert [board.distance("1405", h) for h in path] == list(range(10))
    return board, path


def range_finding(found: list, check: str):
    assert [f.check for f in found] == [f"lion-of-judah/{check}"], [f.message for f in found]
    assert found[0].basis is Basis.PROVEN
    return found[0]


def test_mv32_a_truck_carries_an_rp_six_mps(road):
    board, path = road
    assert Replay(board, truck("t", "1405"), one_rp("r", "1405")).move(t=path[6], r=path[6]) == []
    f = range_finding(Replay(board, truck("t", "1405"), one_rp("r", "1405")).move(t=path[7], r=path[7]),
                      "MV-32")
    assert f.evidence["allowance"] == 6 and f.evidence["cheapest_cost"] == 7
    assert f.evidence["loaded_at"] == "1405" and f.evidence["extra_rps"] == 0


def test_mv32_counts_from_where_the_rp_was_loaded_hop_by_hop(road):
    board, path = road
    replay = Replay(board, truck("t", "1405"), one_rp("r", "1405"))
    for hex_ in path[1:7]:
        assert replay.move(t=hex_) == [] and replay.move(r=hex_) == []    # the RP follows the truck
    assert replay.move(t=path[7]) == []
    f = range_finding(replay.move(r=path[7]), "MV-32")
    assert f.evidence["to"] == path[7] and f.evidence["cheapest_cost"] == 7


def test_mv33_one_mp_less_for_each_rp_above_one(road):
    board, path = road
    assert Replay(board, truck("t", "1405"), rp("r", "1405")).move(t=path[5], r=path[5]) == []
    f = range_finding(Replay(board, truck("t", "1405"), rp("r", "1405")).move(t=path[6], r=path[6]),
                      "MV-33")
    assert f.evidence["rps"] == 2 and f.evidence["extra_rps"] == 1 and f.evidence["allowance"] == 5
    assert "less 1 for each of the 1 RP(s) above one" in f.message


def test_mv32_a_truck_loading_on_the_way_keeps_what_it_has_left(road):
    """A truck of 8 MPs that spent 3 reaching the RP carries it 5 MPs more (10.3.1 example)."""
    board, path = road
    fast = replace(truck("t", "1405"), movement=8)

    def play(last: int) -> list:
        replay = Replay(board, fast, one_rp("r", path[3]))
        assert replay.move(t=path[3]) == []
        return replay.move(t=path[last], r=path[last])

    assert play(8) == []
    f = range_finding(play(9), "MV-32")
    assert f.evidence["allowance"] == 5 and f.evidence["spent_before_loading"] == 3
    assert f.evidence["loaded_at"] == path[3] and f.evidence["segment_start"] == "1405"
