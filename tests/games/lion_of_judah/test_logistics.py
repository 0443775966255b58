"""RPs, their storage boxes, RP routes and trucks (HQ-02, HQ-06, HQ-07, HQ-10, MV-32, MV-35,
CB-25, RR-04, RR-09, RR-12; rules 7.3, 10.3, PB 13.5.2.1, 14.5.2) on SYNTHETIC positions."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import vlog
from vlog.findings import Basis, Severity
from vlog.gamedata import load_game_data
from vlog.games.lion_of_judah.step_events import StepGain
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.logistics import RpLedger
from vlog.games.lion_of_judah.checks.rp_boxes import judge_rp_route, rp_boxes, rp_in_box, rp_value, trucks_in_box
from vlog.games.lion_of_judah.interpret import AttackDeclaration
from vlog.games.lion_of_judah.sequence import Phase
from vlog.games.lion_of_judah.state import GameState, Unit
from vlog.table import Table

from .synthetic import shipped_board, state, synthetic_board, unit

ROOT = Path(__file__).resolve().parents[3]
SYNTHETIC = ROOT / "fixtures" / "lion-of-judah" / "synthetic"
MASSAWA_LINE = ["1405", "1305", "1205", "1104"]
N, S = "rp-northern-front", "rp-southern-front"


@pytest.fixture
def board(tmp_path) -> Board:
    """A clear map with the Massawa rail line listed (SYNTHETIC hexes between the rulebook's ends)."""
    return synthetic_board(tmp_path, lines={"rail-massawa-dongolaas": ("rail", MASSAWA_LINE)})


def rp(id: str, *, box: str | None = None, hex_: str | None = None, value: int = 1,
       side: str = "italian") -> Unit:
    """An RP marker showing `value` RPs (its face level `<n>rp`, as counters.json keys them)."""
    counter = {"italian": "it", "allied": "al", "ethiopian": "et"}[side] + ("-rp-2-1" if value <= 2 else "-rp-5-3")
    return Unit(id=id, name=counter, side=side, hex=hex_, kind="rp", counter=counter, box=box,
                level=f"{value}rp", steps=0)


def truck(id: str, *, box: str | None = None, hex_: str | None = None, side: str = "italian") -> Unit:
    return Unit(id=id, name=f"truck {id}", side=side, hex=hex_, kind="truck", box=box, steps=1)


def hq(id: str, hex_: str, side: str = "italian") -> Unit:
    return Unit(id=id, name=id, side=side, hex=hex_, kind="hq", level="cs", steps=0)


def phase(key: str, turn: int = 2, scenario: str = "1935-36") -> Phase:
    return Phase(scenario, turn, key)


def only(findings, check):
    assert [f.check for f in findings] == [f"lion-of-judah/{check}"], [f.message for f in findings]
    return findings[0]


class Replay:
    """Feeds a ledger one position after another, the turn track telling the phase."""

    def __init__(self, board: Board, scenario: str = "1935-36"):
        self.ledger = RpLedger(board, board.data)
        self.scenario = scenario
        self.phase: Phase | None = None
        self.position: GameState | None = None
        self.step = 0

    def start(self, *units: Unit, at: Phase) -> None:
        self.position, self.phase = state(*units), at
        self.ledger.observe(self.position, self.position, step=0, old_phase=None, new_phase=at, bound=True,
                            scenario=self.scenario, when=at.when())
        self.ledger.started = True          # past the setup
        self.ledger._open_phase(at, True, self.position)

    def to(self, *units: Unit, at: Phase | None = None, events=(), declarations=()) -> list:
        self.step += 1
        new_phase = at or self.phase
        after = state(*units)
        found = self.ledger.observe(self.position, after, step=self.step, old_phase=self.phase,
                                    new_phase=new_phase, bound=True, scenario=self.scenario,
                                    when=new_phase.when(), events=events, declarations=declarations)
        self.position, self.phase = after, new_phase
        return found

    def next_phase(self, key: str, turn: int | None = None) -> list:
        return self.to(*self.position.units.values(), at=phase(key, turn or self.phase.turn, self.scenario))


# -- data and the helper others use ------------------------------------------------------------


def test_rp_markers_and_boxes_come_from_the_rulebook_data():
    data = load_game_data("lion-of-judah")
    boxes = rp_boxes(data)
    assert boxes[N].uss == ("1405",) and boxes[S].uss == ("2322",)          # PB 13.6.6.1
    assert boxes["rp-italian-eritrea-ethiopia"].uss == ("1405", "1213")      # PB 14.2 example
    assert boxes["rp-sudan"].side == "allied" and boxes["rp-sudan"].uss == ("0505", "0508", "1001")
    marker = data.counter("it-rp-2-1")
    assert marker["type"].value == "rp"
    assert [marker["levels"][k]["rp"].value for k in marker["levels"]] == [1, 2]     # 7.3.1: 2/1
    assert [data.counter("al-rp-5-3")["levels"][k]["rp"].value
            for k in data.counter("al-rp-5-3")["levels"]] == [3, 5]


def test_rp_value_reads_the_face():
    assert rp_value(rp("a", box=N, value=2)) == 2 and rp_value(rp("b", box=N, value=5)) == 5
    assert rp_value(unit("sb", "1405")) == 0


def test_rp_in_box_counts_each_sides_markers():
    s = state(rp("a", box=N, value=2), rp("b", box=N), rp("c", box=S, value=5),
              rp("d", box=N, side="allied"), rp("e", hex_="1405"))
    assert rp_in_box(s, N) == 4 and rp_in_box(s, N, side="italian") == 3 and rp_in_box(s, S) == 5
    with pytest.raises(ValueError):
        rp_in_box(Table(), N)


def test_the_synthetic_1935_start_has_the_scenarios_rps_in_their_boxes():
    start, module = SYNTHETIC / "1935-36-start.vsav", SYNTHETIC / "lion-of-judah.vmod"
    if not start.is_file() or not module.is_file():
        pytest.skip("the synthetic fixtures are not built")
    from vlog.vassal.module import read_module

    data = load_game_data("lion-of-judah", overlays=[ROOT / "fixtures" / "lion-of-judah" / "synthetic-data"])
    table = Table.from_save(vlog.read(start), read_module(module))
    assert rp_in_box(table, N, data) == 6 and rp_in_box(table, S, data) == 4        # PB 13.3.3


# -- HQ-02: the RP route ---------------------------------------------------------------------------


def route(board, hq_unit, *others, rps_shown=True, scenario="1935-36"):
    s = state(hq_unit, *others)
    return judge_rp_route(board, s, hq_unit, rp_boxes(board.data), scenario=scenario, rps_shown=rps_shown,
                          step=7, when="Turn 2, Italian combat", target="1007")


def test_rule_example_1008_is_reached_by_rail_then_four_hexes(board):
    """7.3.2 example: Massawa to Asmara by rail counts 0, then four hexes to the HQ at 1008."""
    assert route(board, hq("CAE", "1008"), rp("r", box=N)) == []


def test_five_hexes_beyond_the_rail_is_proven(board):
    f = only(route(board, hq("CAE", "0908"), rp("r", box=N)), "HQ-02")
    assert f.basis is Basis.PROVEN and f.severity is Severity.ERROR and f.rule == "7.3.2"
    assert f.subjects == ("CAE",) and f.step == 7
    assert f.evidence["boxes"][0] == {"box": N, "rps": 1, "uss": "1405", "trucks": 0, "route_limit": 4,
                                      "distance": 6}
    assert "no RP route of at most 4 hexes (4 + 0 trucks in the box) reaches it from 1405 (Massawa)" in f.message


def test_each_truck_in_the_box_adds_a_hex_up_to_three(board):
    """7.3.2 example: two trucks in the box -> 6 hexes."""
    assert route(board, hq("CAE", "0908"), rp("r", box=N), truck("t1", box=N)) == []
    far = hq("CAE", "0510")       # 9 hexes from every hex of the rail line: more than 4 + 3
    trucks = [truck(f"t{i}", box=N) for i in range(5)]
    f = only(route(board, far, rp("r", box=N), *trucks), "HQ-02")
    assert f.evidence["boxes"][0]["trucks"] == 3 and f.evidence["boxes"][0]["route_limit"] == 7


def test_enemy_units_block_the_route(board):
    """7.3.2: the route may not enter hexes containing enemy units."""
    assert route(board, hq("CAE", "1207"), rp("r", box=N)) == []           # 2 hexes from Asmara
    ring = [unit(f"e{h}", h, side="ethiopian", unit_class="ethiopian-levy")
            for h in board.neighbours("1207")]
    f = only(route(board, hq("CAE", "1207"), rp("r", box=N), *ring), "HQ-02")
    assert f.basis is Basis.PROVEN


def test_no_rp_in_any_box_of_the_side(board):
    f = only(route(board, hq("CAE", "1305"), rp("x", box=N, side="allied")), "HQ-02")
    assert "no RP storage box of its side holds an RP" in f.message
    assert route(board, hq("CAE", "1305"), rps_shown=False) == []     # the module shows no RPs


def test_unknown_line_hexes_make_it_possible():
    board = shipped_board()
    f = only(route(board, hq("CAE", "0908"), rp("r", box=N)), "HQ-02")
    assert f.basis is Basis.POSSIBLE and f.severity is Severity.WARNING
    assert any("rail-massawa-dongolaas hexes" in d for d in f.evidence["depends_on"])


# -- the ledger: spending (HQ-10) ---------------------------------------------------------------------


def test_combat_spending_within_the_hqs_named_is_legal(board):
    r = Replay(board)
    r.start(rp("a", box=N, value=2), rp("b", box=N), at=phase("first-combat"))
    decl = AttackDeclaration("1107", ("21A",), ("CAE",), None)
    assert r.to(rp("a", box=N, value=1), rp("b", box=N), declarations=[(decl, "italian")]) == []
    assert r.next_phase("second-movement") == []


def test_hq10_combat_spending_beyond_the_hqs_named(board):
    r = Replay(board)
    r.start(rp("a", box=N, value=2), rp("b", box=N), at=phase("first-combat"))
    decl = AttackDeclaration("1107", ("21A",), ("CAE",), None)
    assert r.to(rp("a", box=N, value=1), rp("b", box=N), declarations=[(decl, "italian")]) == []
    assert r.to(rp("a", box=N, value=1)) == []           # a second RP gone: the 1 marker deleted
    f = only(r.next_phase("second-movement"), "HQ-10")
    assert f.basis is Basis.PROVEN and f.step == 1 and f.rule == "7.3.1"
    assert f.evidence == {"side": "italian", "spent": 2, "allowed": 1, "turn": 2, "phase": "first-combat",
                          "boxes": {N: -2}}


def test_hq02_each_box_pays_only_for_the_hqs_that_reach_it(board):
    """CAE, named in the attack, reaches the Northern Front box only: an RP gone from the
    Southern Front box is not its RP (7.3.2)."""
    for box, found in ((N, []), (S, ["HQ-02"])):
        r = Replay(board)
        r.start(rp("a", box=N), rp("b", box=S), at=phase("first-combat"))
        r.ledger.note_support("italian", hq("CAE", "1207"), frozenset({N}), 1)
        decl = AttackDeclaration("1107", ("21A",), ("CAE",), None)
        left = rp("b", box=S) if box == N else rp("a", box=N)
        assert r.to(left, declarations=[(decl, "italian")]) == []
        closed = r.next_phase("second-movement")
        assert [f.check.split("/")[1] for f in closed] == found, [f.message for f in closed]
    f = closed[0]
    assert f.basis is Basis.PROVEN and f.step == 1
    assert f.evidence == {"side": "italian", "boxes": {S: -1}, "hqs_reaching": [],
                          "hqs_named": {"CAE": [N]}, "other_spending": 0}


def test_hq02_per_box_counts_spending_whose_box_is_not_told(board):
    """An HQ named but not found on the map (its box unknown) may have paid from any box."""
    r = Replay(board)
    r.start(rp("a", box=N), rp("b", box=S), at=phase("first-combat"))
    r.ledger.note_support("italian", hq("CAE", "1207"), frozenset({N}), 1)
    decl = AttackDeclaration("1107", ("21A",), ("CAE", "1CA"), None)
    assert r.to(declarations=[(decl, "italian")]) == []          # both RPs gone
    assert r.next_phase("second-movement") == []


def test_hq04_bribes_come_from_any_box_with_no_route(board):
    """7.3.2: a bribe's RP comes straight from a box; with an HQ named in an attack reaching only
    the Northern Front box, the Southern Front box may still pay the bribe."""
    leader = unit("l0", "1210", side="ethiopian", kind="leader")
    r = Replay(board)
    r.start(rp("a", box=N), rp("b", box=S), leader, at=phase("second-movement"))
    r.ledger.note_support("italian", hq("CAE", "1207"), frozenset({N}), 1)
    decl = AttackDeclaration("1107", ("21A",), ("CAE",), None)
    assert r.to(leader, declarations=[(decl, "italian")]) == []     # one RP from each box
    assert r.next_phase("second-combat") == []


def test_hq02_per_box_in_a_logged_combat(tmp_path):
    """Sb attacks 1107 from 1207 with CAE (at 1207: 2 hexes from Massawa by rail and road) in the
    Italian combat of turn 1, and the RP removed is one of the Southern Front box's."""
    from .scripted import judge_actions
    found = judge_actions(tmp_path, "\n".join([
        "as Alice", 'add "Sb" at 1207', 'move "CAE" along 1207 on "Main Map"', "turn next", "turn next",
        'chat "attack 1107 with Sb; HQ: CAE"', "remove @1704067200079", "roll 1d6 = 3", "turn next"]))
    [f] = [f for f in found if f.check.endswith("HQ-02")]
    assert f.step == 6 and f.evidence["boxes"] == {S: -1} and f.evidence["hqs_named"] == {"CAE": [N]}


def test_hq10_nothing_is_spent_in_a_movement_segment(board):
    r = Replay(board)
    r.start(rp("a", box=N, value=2), at=phase("first-movement"))
    r.to(rp("a", box=N, value=1))
    f = only(r.next_phase("first-combat"), "HQ-10")
    assert f.evidence["spent"] == 1 and f.evidence["allowed"] == 0


def test_the_setup_is_not_judged(board):
    """Placements before the turn track first moves are the setup."""
    ledger = RpLedger(board, board.data)
    empty, full = state(), state(rp("a", box=N, value=5), truck("t", box=S))
    start = phase("event", 1)
    assert ledger.observe(empty, full, step=1, old_phase=start, new_phase=start, bound=True,
                          scenario="1935-36", when=start.when()) == []
    assert not ledger.started
    assert ledger.observe(full, full, step=2, old_phase=start, new_phase=phase("first-movement", 1),
                          bound=True, scenario="1935-36", when="") == [] and ledger.started
    assert ledger.observe(full, state(truck("t", box=S)), step=3, old_phase=phase("first-movement", 1),
                          new_phase=phase("first-movement", 1), bound=True, scenario="1935-36", when="") == []
    assert only(ledger.close_phase(state(), scenario="1935-36", step=4), "HQ-10").evidence["spent"] == 5


def test_making_change_is_not_spending(board):
    """7.3.1: a 5 RP marker is swapped for a 3 and a 2 (in two steps): nothing spent."""
    r = Replay(board)
    r.start(rp("a", box=N, value=5), at=phase("first-movement"))
    assert r.to(rp("b", box=N, value=3)) == []
    assert r.to(rp("b", box=N, value=3), rp("c", box=N, value=2)) == []
    assert r.next_phase("first-combat") == []


def test_italian_bribes_in_the_activation_segment_one_per_leader(board):
    leaders = [unit(f"l{i}", f"12{10 + i}", side="ethiopian", kind="leader") for i in range(2)]
    r = Replay(board)
    r.start(rp("a", box=N, value=2), rp("b", box=N, value=2), *leaders, at=phase("second-movement"))
    r.to(rp("b", box=N, value=2), *leaders)                                  # two bribes
    assert r.next_phase("second-combat") == []
    r.start(rp("a", box=N, value=2), rp("b", box=N, value=2), *leaders, at=phase("second-movement", 3))
    r.to(rp("b", box=N, value=1), *leaders)                                  # three
    assert only(r.next_phase("end", 3), "HQ-10").evidence["allowed"] == 2


def test_map_replacements_allow_one_rp_per_step(board):
    sb = unit("sb", "1405", steps=3)
    r = Replay(board)
    r.start(rp("a", box=N, value=2), sb, at=phase("map"))
    gain = StepGain(1, sb, 4)
    assert r.to(rp("a", box=N, value=1), replace(sb, steps=4), events=[gain]) == []
    assert r.next_phase("event") == []


# -- income (RR-04, RR-09, RR-12) ---------------------------------------------------------------------


def test_rr04_italian_income_by_box_and_turn(board):
    r = Replay(board)
    r.start(at=phase("map", 2))
    adds = [rp(f"n{i}", box=N) for i in range(3)] + [rp(f"s{i}", box=S) for i in range(2)]
    assert r.to(*adds) == []                                        # turn 2: +3 North, +2 South
    assert r.next_phase("event") == []
    r.start(at=phase("map", 2))
    r.to(*adds, rp("extra", box=S))
    f = only(r.next_phase("event"), "RR-04")
    assert f.rule == "PB 13.5.2.1" and f.evidence["gained"] == {N: 3, S: 3}
    assert f.evidence["income"] == {N: 3, S: 2}


def test_rr04_rps_added_outside_the_map(board):
    r = Replay(board)
    r.start(at=phase("first-movement", 4))
    r.to(rp("n", box=N, value=2))
    f = only(r.next_phase("first-combat", 4), "RR-04")
    assert "the scenario gives none then" in f.message


def test_rr09_allied_income_total_and_british_somaliland(board):
    r = Replay(board, "1940-41")
    r.start(at=phase("map", 2, "1940-41"))
    assert r.to(rp("a", box="rp-sudan", side="allied", value=2), rp("b", box="rp-kenya", side="allied")) == []
    assert r.next_phase("event") == []
    r.start(at=phase("map", 7, "1940-41"))
    r.to(rp("a", box="rp-british-somaliland", side="allied", value=2))
    f = only(r.next_phase("event"), "RR-09")
    assert "at most one RP a turn goes into the British Somaliland box" in f.message
    r.start(at=phase("map", 3, "1940-41"))
    r.to(rp("a", box="rp-sudan", side="allied", value=5))
    assert only(r.next_phase("event"), "RR-09").evidence["income"] == 3


def test_ev13_red_sea_fleet_halves_the_allied_rps(board):
    """C4 played in the MAP of turn 3: half of 3 RPs, rounded up (the text does not say)."""
    r = Replay(board, "1940-41")
    r.ledger.halved_income = {3}
    r.start(at=phase("map", 3, "1940-41"))
    r.to(rp("a", box="rp-sudan", side="allied", value=2))
    assert r.next_phase("event") == []
    r.start(at=phase("map", 3, "1940-41"))
    r.to(rp("a", box="rp-sudan", side="allied", value=2), rp("b", box="rp-kenya", side="allied"))
    f = only(r.next_phase("event"), "RR-09")
    assert f.evidence["income"] == 2 and f.evidence["halved_by"] == "C4" and "Event C4" in f.message


def test_rr26_the_rp_french_somaliland_brings_in_the_event_phase(board):
    """PB 14.6.6: one RP into the British Somaliland box when C1 brings French Somaliland in;
    POSSIBLE while the log shows no draws, PROVEN once it shows C1 undrawn or failed."""
    from vlog.engine.judge import Unknown

    for joined, found in ((True, []), (None, [Basis.POSSIBLE]), (Unknown("the IPL"), [Basis.POSSIBLE]),
                          (False, [Basis.PROVEN])):
        r = Replay(board, "1940-41")
        r.ledger.french_joined = joined
        r.start(at=phase("event", 3, "1940-41"))
        r.to(rp("a", box="rp-british-somaliland", side="allied"))
        assert [f.basis for f in r.next_phase("first-movement", 3)] == found


@pytest.mark.parametrize("roll, found", [(6, []), (3, [("RR-09", 12)])])
def test_rr26_the_joining_rp_read_from_a_logged_c1(tmp_path, roll, found):
    """Through the game: C1 drawn in the Event Phase of turn 2, its roll, then one RP into the
    British Somaliland box: legal when French Somaliland joined (5-6), not on a 3."""
    from .scripted import judge_actions
    script = "\n".join([
        "as Bob", "turn next", "turn next", "as Alice", "turn next", "turn next", "turn next", "turn next",
        "as Bob", "turn next", "turn next",                         # turn 2: MAP, Event Phase
        'move "C1 French Somaliland" along "Events drawn" on "Off-map Boxes"', f"roll 1d6 = {roll}",
        'remove "C1 French Somaliland"',
        'add "Allied RP 2/1" at "British Somaliland RP storage box" on "Off-map Boxes"', "turn next"])
    findings = judge_actions(tmp_path, script, scenario="1940-41", name="rr26")
    assert [(f.check.split("/")[1], f.step) for f in findings] == found


def test_rr12_italians_get_no_rps_in_1940(board):
    r = Replay(board, "1940-41")
    r.start(at=phase("map", 2, "1940-41"))
    r.to(rp("a", box="rp-italian-somaliland"))
    assert only(r.next_phase("event"), "RR-12").basis is Basis.PROVEN
    r.start(at=phase("event", 3, "1940-41"))
    r.to(rp("a", box="rp-italian-somaliland", value=2))               # Event C3 may explain it
    assert only(r.next_phase("first-movement", 3), "RR-12").basis is Basis.POSSIBLE


# -- moves between boxes and the map (MV-32, HQ-06) ---------------------------------------------------


def test_loading_at_the_uss_onto_a_truck_is_legal(board):
    r = Replay(board)
    r.start(rp("a", box=N), truck("t", hex_="1405"), at=phase("first-movement"))
    assert r.to(rp("a", hex_="1405"), truck("t", hex_="1405")) == []
    assert r.to(rp("a", hex_="1305"), truck("t", hex_="1305")) == []
    assert r.next_phase("first-combat") == []


def test_mv32_loading_away_from_the_uss_or_without_a_truck(board):
    r = Replay(board)
    r.start(rp("a", box=N), truck("t", hex_="1305"), at=phase("first-movement"))
    f = only(r.to(rp("a", hex_="1305"), truck("t", hex_="1305")), "MV-32")
    assert f.rule == "10.3.1" and "1305 (Asmara) is not a USS hex of that box (1405)" in f.message
    r.start(rp("a", box=N), at=phase("first-movement"))
    f = only(r.to(rp("a", hex_="1405")), "MV-32")
    assert "no truck of its side is there to carry it" in f.message


def test_mv32_unloading_into_a_box_from_another_hex(board):
    r = Replay(board)
    r.start(rp("a", hex_="1305"), truck("t", hex_="1305"), at=phase("first-movement"))
    f = only(r.to(rp("a", box=N), truck("t", hex_="1305")), "MV-32")
    assert f.evidence == {"box": N, "hex": "1305", "uss": ["1405"]}


def test_hq06_trucks_enter_and_leave_boxes_in_the_map_at_the_uss(board):
    r = Replay(board)
    r.start(truck("t", hex_="1405"), at=phase("map"))
    assert r.to(truck("t", box=N)) == []
    assert r.to(truck("t", hex_="1405")) == []
    f = only(r.to(truck("t", box=S)), "HQ-06")
    assert "1405 (Massawa) is not a USS hex of that box (2322)" in f.message
    r.start(truck("t", hex_="1405"), at=phase("first-movement"))
    f = only(r.to(truck("t", box=N)), "HQ-06")
    assert "outside the Mutual Administration Phase" in f.message


def test_hq06_at_most_three_trucks_in_a_box(board):
    r = Replay(board)
    three = [truck(f"t{i}", box=N) for i in range(3)]
    r.start(*three, truck("x", hex_="1405"), at=phase("map"))
    f = only(r.to(*three, truck("x", box=N)), "HQ-06")
    assert f.evidence["trucks_in_box"] == 4 and len(trucks_in_box(r.position, N)) == 4


# -- the position at the end of a phase (MV-35, CB-25, HQ-07) ----------------------------------------


def test_mv35_an_rp_left_on_the_map_without_a_truck(board):
    r = Replay(board)
    r.start(rp("a", hex_="1305"), truck("t", hex_="1305"), at=phase("first-movement"))
    r.to(rp("a", hex_="1305"), truck("t", hex_="1205"))
    f = only(r.next_phase("first-combat"), "MV-35")
    assert f.rule == "7.3.2" and f.evidence == {"hex": "1305", "with": []}


def test_ethiopian_rps_stay_on_the_map(board):
    r = Replay(board)
    leader = unit("ras", "1107", side="ethiopian", kind="leader")
    r.start(rp("a", hex_="1107", side="ethiopian"), leader, at=phase("second-movement"))
    assert r.next_phase("second-combat") == []


def test_cb25_an_rp_alone_with_the_enemy(board):
    r = Replay(board)
    lv = unit("lv", "1306", side="ethiopian", unit_class="ethiopian-levy")
    r.start(rp("a", hex_="1305"), truck("t", hex_="1305"), lv, at=phase("second-movement"))
    r.to(rp("a", hex_="1305"), truck("t", hex_="1305"), replace(lv, hex="1305"))
    f = only(r.next_phase("second-combat"), "CB-25")
    assert f.rule == "7.3.1" and f.evidence == {"hex": "1305", "enemies": ["lv"], "friends": ["truck t"]}


def test_hq07_box_emptied_when_the_enemy_enters_its_uss(board):
    """7.3.2: an Italian unit enters Berbera (2311), the British Somaliland box's one USS."""
    bs = "rp-british-somaliland"
    it = unit("ita", "2312")
    r = Replay(board, "1940-41")
    r.start(rp("a", box=bs, side="allied"), truck("t", box=bs, side="allied"), it,
            at=phase("first-movement", 2, "1940-41"))
    r.to(rp("a", box=bs, side="allied"), truck("t", box=bs, side="allied"), replace(it, hex="2311"))
    f = only(r.next_phase("first-combat", 2), "HQ-07")
    assert f.basis is Basis.PROVEN and f.step == 1 and f.rule == "7.3.2"
    assert f.evidence == {"box": bs, "hex": "2311", "entered_by": "ita", "left_in_box": ["al-rp-2-1", "truck t"],
                          "uss": ["2311"]}
    r = Replay(board, "1940-41")
    r.start(rp("a", box=bs, side="allied"), truck("t", box=bs, side="allied"), it,
            at=phase("first-movement", 2, "1940-41"))
    r.to(replace(it, hex="2311"))                   # both eliminated at once: legal, and no spending
    assert r.next_phase("first-combat", 2) == []


def test_hq07_not_judged_in_1935_where_taking_the_uss_ends_the_game(board):
    lv = unit("lv", "1406", side="ethiopian", unit_class="ethiopian-levy")
    r = Replay(board)
    r.start(rp("a", box=N, value=2), lv, at=phase("second-movement"))
    r.to(rp("a", box=N, value=2), replace(lv, hex="1405"))
    assert r.next_phase("second-combat") == []


def test_hq07_a_box_with_several_uss_is_only_possible(board):
    lv = unit("ita", "0506", side="italian")
    r = Replay(board, "1940-41")
    r.start(rp("a", box="rp-sudan", side="allied"), lv, at=phase("second-movement", 2, "1940-41"))
    r.to(rp("a", box="rp-sudan", side="allied"), replace(lv, hex="0505"))
    f = only(r.next_phase("second-combat"), "HQ-07")
    assert f.basis is Basis.POSSIBLE


# -- roads (HQ-05, MV-14) ----------------------------------------------------------------------------


def road(id: str, hex_: str, level: str = "under-construction") -> Unit:
    return Unit(id=id, name="Road marker", side=None, hex=hex_, kind="marker", counter="road-marker",
                level=level, steps=0)


def test_a_road_begun_in_one_map_and_finished_in_the_next_is_legal(board):
    r = Replay(board)
    csi = hq("CSI", "1405")
    r.start(csi, at=phase("map", 2))
    assert r.to(csi, road("rd", "1404")) == []
    r.start(csi, road("rd", "1404"), at=phase("map", 3))
    r.ledger.roads["rd"] = 2
    assert r.to(csi, road("rd", "1404", "road")) == []


def test_mv14_a_road_finished_in_the_map_it_was_begun(board):
    r = Replay(board)
    csi = hq("CSI", "1405")
    r.start(csi, at=phase("map", 2))
    r.to(csi, road("rd", "1404"))
    f = only(r.to(csi, road("rd", "1404", "road")), "MV-14")
    assert f.rule == "10.2.2.1" and f.evidence == {"hex": "1404", "placed_turn": 2, "turn": 2, "phase": "map"}


def test_hq05_a_road_needs_an_hq_in_or_next_to_the_hex_in_the_map(board):
    r = Replay(board)
    csi = hq("CSI", "1405")
    r.start(csi, at=phase("map", 2))
    f = only(r.to(csi, road("rd", "1402")), "HQ-05")
    assert "with no HQ in or next to the hex" in f.message and f.evidence["hqs"] == []
    r.start(csi, at=phase("first-movement", 2))
    f = only(r.to(csi, road("rd", "1404")), "HQ-05")
    assert "outside the Mutual Administration Phase" in f.message


def test_hq05_next_to_the_enemy_a_friendly_unit_must_hold_the_hex(board):
    r = Replay(board)
    csi, lv = hq("CSI", "1405"), unit("lv", "1304", side="ethiopian", unit_class="ethiopian-levy")
    r.start(csi, lv, at=phase("map", 2))
    f = only(r.to(csi, lv, road("rd", "1404")), "HQ-05")
    assert "next to enemy units (lv) with no friendly unit in it" in f.message
    sb = unit("sb", "1404")
    r.start(csi, lv, sb, at=phase("map", 2))
    assert r.to(csi, lv, sb, road("rd", "1404")) == []


def test_hq05_a_road_left_alone_next_to_the_enemy_is_removed(board):
    """10.2.2.1: Sb leaves the road it guarded with the Ethiopians next door; the marker still
    there when the phase ends is the finding (once)."""
    r = Replay(board)
    csi, sb = hq("CSI", "1405"), unit("sb", "1404")
    lv = unit("lv", "1304", side="ethiopian", unit_class="ethiopian-levy")
    r.start(csi, lv, sb, at=phase("map", 2))
    assert r.to(csi, lv, sb, road("rd", "1404")) == []
    assert r.next_phase("event") == []                                   # Sb still holds it
    r.to(csi, lv, replace(sb, hex="1504"), road("rd", "1404"))
    f = only(r.next_phase("first-movement"), "HQ-05")
    assert f.evidence == {"hex": "1404", "builder": "italian", "enemies_adjacent": ["lv"]}
    assert r.next_phase("first-combat") == []


# -- (35) Ethiopian RPs (RR-08) ------------------------------------------------------------------------


def test_rr08_ethiopian_rps_come_only_from_a3_and_r_results(board):
    ras = unit("ras", "1213", side="ethiopian", kind="leader")
    r = Replay(board)
    r.start(ras, at=phase("map", 2))
    f = only(r.to(ras, rp("x", hex_="1213", side="ethiopian")), "RR-08")
    assert f.rule == "PB 13.5.2.2; 13.6.4.1"
    assert f.evidence == {"hex": "1213", "phase": "map", "turn": 2, "ethiopian_attacks": 0}
    r.start(ras, at=phase("event", 2))
    assert r.to(ras, rp("x", hex_="1213", side="ethiopian")) == []        # A3 (EV-05's to judge)
    r.start(ras, at=phase("second-movement", 2))
    decl = AttackDeclaration("1214", ("Shoa",), None, None)
    assert r.to(ras, declarations=[(decl, "ethiopian")]) == []
    assert r.to(ras, rp("x", hex_="1213", side="ethiopian")) == []        # after an attack: an R result


def test_rr25_an_rp_flipped_down_on_the_map_was_spent_there(board):
    """7.3.2: RPs are used only while in a storage box; making change on the map is not use, and
    (35) Ethiopian RPs on the map are PB 13.6.4's."""
    r = Replay(board)
    carried = truck("t", hex_="1305")
    r.start(rp("a", hex_="1305", value=2), carried, at=phase("first-combat"))
    f = only(r.to(rp("a", hex_="1305", value=1), carried), "RR-25")
    assert f.basis is Basis.PROVEN and f.step == 1
    assert f.evidence == {"hex": "1305", "rp_before": 2, "rp_after": 1, "hex_rps_before": 2, "hex_rps_after": 1}
    r.start(rp("a", hex_="1305", value=2), carried, at=phase("first-combat"))
    assert r.to(rp("a", hex_="1305", value=1), rp("b", hex_="1305", value=1), carried) == []   # change
    r.start(rp("e", hex_="1210", value=2, side="ethiopian"), at=phase("second-combat"))
    assert [x for x in r.to(rp("e", hex_="1210", value=1, side="ethiopian")) if x.check.endswith("RR-25")] == []


def test_rr24_each_sides_rps_pay_only_for_its_own_units(board):
    """7.3.1 (RR-24, findings under HQ-10): an Italian RP spent in the MAP while only an Allied unit
    gains a step pays for nothing the Italian side may buy; one Italian step paid for is legal."""
    r = Replay(board, "1940-41")
    kar = Unit(id="k", name="KAR1", side="allied", hex="1122", kind="combat", steps=1)
    sb = Unit(id="s", name="Sb", side="italian", hex="1405", kind="combat", steps=1)
    gain = [StepGain(1, kar, 2)]
    r.start(rp("a", box=N, value=2), kar, sb, at=phase("map", scenario="1940-41"))
    assert r.to(rp("a", box=N, value=1), replace(kar, steps=2), sb, events=gain) == []
    f = only(r.next_phase("event"), "HQ-10")
    assert f.evidence["side"] == "italian" and f.evidence["spent"] == 1 and f.evidence["allowed"] == 0
    r.start(rp("a", box=N, value=2), kar, sb, at=phase("map", 3, scenario="1940-41"))
    own = [StepGain(1, sb, 2)]
    assert r.to(rp("a", box=N, value=1), kar, replace(sb, steps=2), events=own) == []
    assert r.next_phase("event", 3) == []
