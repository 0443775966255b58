"""(35) Ethiopian RPs carried by leaders (MV-50, PB 13.6.4.2) and gained by 'R' results (CB-28,
PB 13.6.4.1) on SYNTHETIC positions: a clear map at 1 MP a hex (synthetic TEC cell), leaders
with a synthetic 4 MF."""
from __future__ import annotations

from dataclasses import replace

import pytest

from vlog.findings import Basis
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.ethiopian_rps import (
    RpCarryLedger,
    RpGainLedger,
    judge_rp_use,
    qualifies,
)
from vlog.games.lion_of_judah.sequence import Phase
from vlog.games.lion_of_judah.state import GameState, Unit

from .synthetic import state, synthetic_board, unit

ETHIOPIA = [f"{c:02d}{r:02d}" for c in range(8, 16) for r in range(5, 16)]
ROW = ["1213", "1212", "1211", "1210", "1209"]


@pytest.fixture
def board(tmp_path) -> Board:
    return synthetic_board(tmp_path, zones={"ethiopia": ETHIOPIA})


def leader(id: str, hex_: str, movement=4) -> Unit:
    return unit(id, hex_, side="ethiopian", kind="leader", movement=movement, attack=None, defense=None,
                unit_class="ethiopian-beghemder", size=None, steps=0)


def et_rp(id: str, hex_: str, value: int = 2) -> Unit:
    return Unit(id=id, name="Ethiopian RP 2/1", side="ethiopian", hex=hex_, kind="rp",
                counter="et-rp-2-1", level=f"{value}rp", steps=0)


class Segment:
    """Drags pieces hex by hex through one segment, as a log's move steps do."""

    def __init__(self, board: Board, *units: Unit, key: str = "second-movement", turn: int = 2,
                 scenario: str = "1935-36"):
        self.ledger = RpCarryLedger(board)
        self.position: GameState = state(*units)
        self.phase = Phase(scenario, turn, key)
        self.scenario = scenario
        self.step = 0

    def drag(self, uid: str, *hexes: str) -> list:
        out = []
        for h in hexes:
            self.step += 1
            before = self.position
            moving = before.units[uid]
            after = state(*(replace(u, hex=h) if u.id == uid else u for u in before.units.values()))
            out += self.ledger.on_move(before, after, moving, h, self.phase, True, scenario=self.scenario,
                                       step=self.step, when=self.phase.when())
            self.position = after
        return out


def test_mv50_a_leader_carrying_rps_has_two_mps_fewer(board):
    seg = Segment(board, leader("ras", "1213"), et_rp("rp", "1213"))
    assert seg.drag("ras", "1212", "1211", "1210") == []
    found = seg.drag("rp", "1212", "1211", "1210")
    assert [f.check for f in found] == ["lion-of-judah/MV-50"]
    f = found[0]
    assert f.basis is Basis.PROVEN and f.step == 6 and f.subjects == ("ras",)
    assert f.rule == "PB 13.6.4.2; Extended SoP"
    assert {k: f.evidence[k] for k in ("from", "to", "allowance", "allowance_carrying", "cheapest_cost",
                                       "rps_carried")} == {
        "from": "1213", "to": "1210", "allowance": 4, "allowance_carrying": 2, "cheapest_cost": 3,
        "rps_carried": 2}
    assert seg.drag("rp", "1209") + seg.drag("ras", "1209") == []          # reported once a segment


def test_mv50_reported_when_the_rp_leads_and_the_leader_follows(board):
    seg = Segment(board, leader("ras", "1213"), et_rp("rp", "1213"))
    assert seg.drag("rp", "1212", "1211", "1210") == []
    found = seg.drag("ras", "1212", "1211", "1210")
    assert [(f.check, f.step) for f in found] == [("lion-of-judah/MV-50", 6)]


def test_mv50_within_the_reduced_allowance_or_without_an_rp_is_legal(board):
    seg = Segment(board, leader("ras", "1213"), et_rp("rp", "1213"))
    assert seg.drag("ras", "1212", "1211") + seg.drag("rp", "1212", "1211") == []    # 2 MPs of 2
    alone = Segment(board, leader("ras", "1213"), et_rp("rp", "1213"))
    assert alone.drag("ras", "1212", "1211", "1210") == []                         # RP left behind


def test_mv50_beyond_the_full_allowance_is_left_to_mv03(board):
    seg = Segment(board, leader("ras", "1213"), et_rp("rp", "1213"))
    assert seg.drag("ras", "1212", "1211", "1210", "1209", "1208") == []
    assert seg.drag("rp", "1212", "1211", "1210", "1209", "1208") == []


def test_mv50_an_rp_moves_only_with_a_leader_it_began_the_segment_with(board):
    seg = Segment(board, leader("ras", "1211"), et_rp("rp", "1213"))
    found = seg.drag("rp", "1212")
    assert [f.check for f in found] == ["lion-of-judah/MV-50"]
    assert found[0].evidence == {"from": "1213", "rp": 2} and found[0].subjects == ("Ethiopian RP 2/1",)
    assert seg.drag("rp", "1211") == []                                  # once per RP and segment
    # a leader that joins the RP during the segment does not make it carried
    late = Segment(board, leader("ras", "1210"), et_rp("rp", "1213"))
    assert late.drag("ras", "1211", "1212", "1213") == []


def test_mv50_new_segment_starts_afresh(board):
    seg = Segment(board, leader("ras", "1213"), et_rp("rp", "1213"))
    seg.drag("ras", "1212")
    seg.drag("rp", "1212")
    seg.phase = Phase("1935-36", 3, "second-movement")
    found = seg.drag("rp", "1211")                   # the leader began this segment at 1212 too
    assert found == []


def test_mv50_only_in_1935_36_movement_segments_and_with_a_known_mf(board):
    for kwargs in ({"scenario": "1940-41"}, {"key": "second-combat"}):
        seg = Segment(board, leader("ras", "1213"), et_rp("rp", "1213"), **kwargs)
        assert seg.drag("ras", "1212", "1211", "1210") + seg.drag("rp", "1212", "1211", "1210") == []
    unknown = Segment(board, leader("ras", "1213", movement=None), et_rp("rp", "1213"))
    assert unknown.drag("ras", "1212", "1211", "1210") + unknown.drag("rp", "1212", "1211", "1210") == []


# -- CB-28: the RP an Ethiopian 'R' result gives (PB 13.6.4.1) --------------------------------------


def levy(id: str, hex_: str) -> Unit:
    return unit(id, hex_, side="ethiopian", attack=2, defense=2, unit_class="ethiopian-beghemder",
                size="brigade", steps=1)


def gain_case(board, defender_class: str | None, *rps: Unit, attackers=("lv",)):
    """One Ethiopian attack from 1007 on an Italian unit at 1106, then RPs placed one by one."""
    combat = Phase("1935-36", 1, "second-combat")
    lv = levy("lv", "1007")
    it = unit("21A", "1106", unit_class=defender_class)
    ledger = RpGainLedger(board)
    position = state(lv, it, leader("ras", "1213"))
    named = None if attackers is None else tuple(u for u in (lv,) if u.id in attackers)
    ledger.note_attack(5, "1106", named, position, "ethiopian", combat)
    out = []
    for i, rp in enumerate(rps):
        position = state(*position.units.values(), rp)
        out += ledger.on_place(rp, position, combat, True, scenario="1935-36", step=10 + i, when=combat.when())
    return out


def test_cb28_the_rp_goes_to_a_hex_of_an_attacker(board):
    assert gain_case(board, "italian-regular", et_rp("r1", "1007", value=1)) == []
    found = gain_case(board, "italian-regular", et_rp("r1", "1213", value=1))
    assert [(f.check, f.basis, f.step) for f in found] == [("lion-of-judah/CB-28", Basis.PROVEN, 10)]
    assert found[0].rule == "PB 13.6.4.1; Extended SoP"
    assert found[0].evidence == {"hex": "1213", "attacks": 1, "attacks_giving_rps": 1, "rps_placed": 1,
                                 "attackers": ["lv"]}
    assert gain_case(board, "italian-regular", et_rp("r1", "1213", value=1), attackers=None) == []


def test_cb28_one_rp_per_attack(board):
    found = gain_case(board, "eritrean-colonial-regular", et_rp("r1", "1007", value=1),
                      et_rp("r2", "1007", value=1))
    assert [(f.check, f.step) for f in found] == [("lion-of-judah/CB-28", 11)]
    assert found[0].evidence["rps_placed"] == 2 and found[0].evidence["attacks_giving_rps"] == 1


def test_cb28_colonial_irregulars_give_none(board):
    found = gain_case(board, "italian-colonial-irregular", et_rp("r1", "1007", value=1))
    assert [f.check for f in found] == ["lion-of-judah/CB-28"]
    assert found[0].evidence["attacks_giving_rps"] == 0 and found[0].basis is Basis.PROVEN


def test_cb28_unknown_defender_class_is_possible(board):
    found = gain_case(board, None, et_rp("r1", "1007", value=1))
    assert [(f.check, f.basis) for f in found] == [("lion-of-judah/CB-28", Basis.POSSIBLE)]
    assert found[0].evidence["depends_on"] == ["the unit class of 21A"]


def test_cb28_judged_only_after_an_ethiopian_attack_in_its_combat_segment(board):
    combat = Phase("1935-36", 1, "second-combat")
    ledger = RpGainLedger(board)
    rp = et_rp("r1", "1213", value=1)
    assert ledger.on_place(rp, state(rp), combat, True, scenario="1935-36", step=1, when=None) == []  # RR-08's
    ledger.note_attack(1, "1106", (), state(unit("21A", "1106")), "italian", combat)      # not Ethiopian
    assert ledger.on_place(rp, state(rp), combat, True, scenario="1935-36", step=2, when=None) == []
    assert gain_case(board, "italian-regular") == []
    assert qualifies(unit("x", "1106", unit_class="black-shirt")) is True
    assert qualifies(levy("y", "1106")) is False


# -- CB-27: Ethiopian RPs used in a combat (PB 13.6.4.3) --------------------------------------------


def use_case(board, rp_hex: str, *, spend: int = 1, value: int = 2, side: str = "ethiopian",
             leader_at: str | None = "1008", negus_at: str | None = None):
    """The levy at 1007 attacks (or defends against) 21A at 1106; an RP at `rp_hex` is flipped down."""
    lv = levy("lv", "1007")
    it = unit("21A", "1106")
    units = [lv, it, et_rp("r", rp_hex, value=value)]
    if leader_at:
        units.append(leader("ras", leader_at))
    if negus_at:
        units.append(replace(leader("negus", negus_at), counter="et-negus"))
    before = state(*units)
    after = state(*(replace(u, level=f"{value - spend}rp") if u.id == "r" and value > spend else u
                    for u in units if not (u.id == "r" and value <= spend)))
    attackers, defenders = ((lv,), (it,)) if side == "ethiopian" else ((it,), (lv,))
    target = "1106" if side == "ethiopian" else "1007"
    return judge_rp_use(board, before, after, target, side, attackers, defenders, scenario="1935-36",
                        step=3, when=None)


def test_cb27_an_rp_with_a_leader_next_to_the_units_shifts_the_odds(board):
    assert use_case(board, "1008") == (1, [])                       # 1R on attack
    assert use_case(board, "1008", side="italian") == (-1, [])      # 1L on defence
    assert use_case(board, "1008", value=1) == (1, [])              # the marker removed


def test_cb27_the_rp_needs_a_leader_in_its_hex_and_the_units_next_to_it(board):
    shift, found = use_case(board, "1008", leader_at=None)
    assert shift == 1 and [f.check for f in found] == ["lion-of-judah/CB-27"]
    assert found[0].evidence["problems"] == ["no Ethiopian leader is in its hex"]
    assert found[0].rule == "PB 13.6.4.3" and found[0].basis is Basis.PROVEN
    shift, found = use_case(board, "1210", leader_at="1210")
    assert found[0].evidence == {"hex": "1210", "target": "1106", "rps_used": 1,
                                 "problems": ["no Ethiopian unit of the combat is in or next to its hex"]}


def test_cb27_one_rp_a_combat_two_next_to_the_negus(board):
    shift, found = use_case(board, "1008", spend=2, value=3)
    assert shift == 2 and [f.evidence.get("most") for f in found] == [1]
    assert use_case(board, "1008", spend=2, value=3, negus_at="1008") == (2, [])


def test_cb27_nothing_spent_or_another_scenario(board):
    assert use_case(board, "1008", spend=0) == (0, [])
    lv = levy("lv", "1007")
    rp = et_rp("r", "1008")
    assert judge_rp_use(board, state(lv, rp), state(lv), "1106", "ethiopian", (lv,), (), scenario="1940-41",
                        step=1, when=None) == (0, [])
