"""(35) The Ethiopian activations (checks/activation.py): PB 13.5.4, 13.6.2-13.6.3.

The activation table and the bribe modifier are on the player aid card: the synthetic overlay
(fixtures/lion-of-judah/synthetic-data, synthetic test values, not the published chart) gives
1 No Activation, 2-3 half, 4-6 full, 7 surprise, bribe -1; the shipped data give nothing, so
the same moves are only possible there, naming the missing cell.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vlog.engine.judge import Ruling
from vlog.findings import Basis
from vlog.gamedata import GameData, load_game_data
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.activation import ActivationJudge
from vlog.games.lion_of_judah.checks.activation_rules import (Declaration, activation_level, offensive_effects,
                                                             parse_declaration, with_extra_attacker_loss)
from vlog.games.lion_of_judah.checks.combat import CombatFacts, judge_combat
from vlog.games.lion_of_judah.checks.supply import judge_end_of_move, trace
from vlog.games.lion_of_judah.sequence import Phase
from vlog.games.lion_of_judah.state import GameState, Unit, unit_from_counter

OVERLAY = Path(__file__).resolve().parents[3] / "fixtures" / "lion-of-judah" / "synthetic-data"


@lru_cache(maxsize=1)
def synthetic() -> GameData:
    return load_game_data("lion-of-judah", overlays=[OVERLAY])


@lru_cache(maxsize=1)
def shipped() -> GameData:
    return load_game_data("lion-of-judah")


def unit(data: GameData, uid: str, counter: str, hex_: str | None, name: str | None = None) -> Unit:
    record = data.counter(counter)
    return unit_from_counter(data, counter, id=uid, name=name or record["name"].value, hex_=hex_)


def ethiopian_segment(data: GameData, units: list[Unit], turn: int = 1,
                      board: Board | None = None) -> tuple[ActivationJudge, Phase]:
    """A judge standing at the start of the Ethiopian movement of `turn` with `units` on the map."""
    judge = ActivationJudge(board or Board(data), "1935-36")
    state = GameState({u.id: u for u in units}, "1935-36")
    phase = Phase("1935-36", turn, "second-movement")
    judge.phase_change(Phase("1935-36", turn, "first-combat"), phase, state, bound=True, step=1)
    return judge, phase


def declare(judge: ActivationJudge, phase: Phase, text: str, step: int, roll: int | None = None,
            speaker: str = "Bob") -> list:
    decl = parse_declaration(text, speaker)
    assert decl is not None, text
    out = judge.declaration(decl, phase, step=step, when=phase.when())
    if roll is not None:
        assert judge.needs_roll()
        out += judge.roll(roll, phase, step=step + 1, when=phase.when())
    return out


def move(judge: ActivationJudge, phase: Phase, u: Unit, *hexes: str, step: int) -> list:
    """Drag `u` hex by hex; the findings of every leg."""
    out = []
    here = u.hex
    for hex_ in hexes:
        out += judge.move(u.moved_to(here), here, hex_, phase, step=step, when=phase.when())
        here = hex_
    return out


def ids(findings: list) -> list[str]:
    return [f.check.split("/", 1)[1] for f in findings]


# -- the chat convention ------------------------------------------------------------------------

def test_declarations_read_from_chat() -> None:
    assert parse_declaration("activate Ras Kassa") == Declaration("activate", "Ras Kassa")
    assert parse_declaration("Activating Negus.") == Declaration("activate", "Negus")
    assert parse_declaration("bribe Ras Imru", "Alice") == Declaration("bribe", "Ras Imru", "Alice")
    assert parse_declaration("great offensive north") == Declaration("great-offensive", "northern")
    assert parse_declaration("Great Offensive on the Southern Front") == Declaration("great-offensive", "southern")
    assert parse_declaration("attrition 1310") == Declaration("attrition", "1310")
    assert parse_declaration("attack 1106 with 21A") is None
    assert parse_declaration("the activation went badly") is None


# -- the activation table ------------------------------------------------------------------------

def test_example_of_play_ras_imru_bribed_six() -> None:
    """Example of play (line 1912): Ras Imru (+1) rolls 6, "a surprise tactical activation
    without the bribe"; with it the Ethiopian may still attack (synthetic table: 6 full)."""
    board = Board(synthetic())
    assert activation_level(board, 6, 1) == ("surprise", 7)
    assert activation_level(board, 6, 1 - 1) == ("full", 6)
    assert activation_level(board, 1, 0) == ("no", 1)       # the Prince's 1: one hex only


def test_published_table_unknown_names_the_cell() -> None:
    level, modified = activation_level(Board(shipped()), 3, 0)
    assert modified == 3 and "tables.json ethiopian-activation roll 3" in level.data


# -- ET-02 / MV-49: leader adjacency at the segment's start ----------------------------------------

def test_unit_away_from_its_leader_moves_one_hex_only() -> None:
    data = synthetic()
    levy = unit(data, "l1", "et-levy-beghemder", "1310")
    kassa = unit(data, "k", "et-leader-beghemder", "1312")
    judge, phase = ethiopian_segment(data, [levy, kassa])
    assert move(judge, phase, levy, "1410", step=5) == []          # one hex: always allowed
    found = judge.move(levy.moved_to("1410"), "1410", "1510", phase, step=6, when=phase.when())
    assert ids(found) == ["ET-02"] and found[0].basis is Basis.PROVEN
    assert found[0].evidence["start_hex"] == "1310" and found[0].evidence["hexes_moved"] == 2
    assert "Ras Kassa at 1312" in found[0].message


def test_leader_always_has_its_full_mf_and_its_units_follow() -> None:
    data = synthetic()
    levy = unit(data, "l1", "et-levy-beghemder", "1310")
    kassa = unit(data, "k", "et-leader-beghemder", "1311")     # adjacent at the start
    judge, phase = ethiopian_segment(data, [levy, kassa])
    assert move(judge, phase, kassa, "1312", "1313", "1314", step=3) == []
    assert move(judge, phase, levy, "1410", "1510", "1610", step=6) == []


# -- ET-03: the half activation of the example (PB 13.6.2) -----------------------------------------

def test_half_activation_of_nine_units_moves_five() -> None:
    """PB 13.6.2 example: Ras Mulugheta, nine units, half activation: five of the nine move."""
    data = synthetic()
    mulugheta = unit(data, "m", "et-leader-shoa", "1213")
    levies = [unit(data, f"s{n}", "et-levy-shoa", "1213" if n < 5 else "1212") for n in range(9)]
    judge, phase = ethiopian_segment(data, [mulugheta, *levies], turn=2)
    assert declare(judge, phase, "activate Ras Mulugheta", 3, roll=2) == []      # synthetic: half
    for n, levy in enumerate(levies[:5]):
        assert move(judge, phase, levy, "1313", "1413", step=10 + n) == [], n
    sixth = move(judge, phase, levies[5], "1211", "1210", step=20)
    assert ids(sixth) == ["ET-03"]
    assert sixth[0].evidence["eligible"] == 9 and sixth[0].evidence["allowed"] == 5
    assert move(judge, phase, levies[6], "1211", step=21) == []   # one hex: not activated, allowed


# -- ET-04 / CB-31: the roll's result --------------------------------------------------------------

def test_no_activation_moves_one_hex_and_does_not_attack() -> None:
    data = synthetic()
    levy = unit(data, "l1", "et-levy-tigray", "1107")
    other = unit(data, "l2", "et-levy-tigray", "1107")
    seyum = unit(data, "t", "et-leader-tigray", "1107")
    judge, phase = ethiopian_segment(data, [levy, other, seyum])
    declare(judge, phase, "activate Ras Seyum", 3, roll=1)
    found = move(judge, phase, levy, "1007", "0907", step=6)
    assert ids(found) == ["ET-04"] and found[0].evidence["result"] == "no"
    attack = judge.attack([other], "1106", phase, step=8, when=phase.when())
    assert ids(attack) == ["CB-31"] and attack[0].basis is Basis.PROVEN


def test_bribe_lowers_the_roll() -> None:
    data = synthetic()
    levy = unit(data, "l1", "et-levy-beghemder", "1310")
    kassa = unit(data, "k", "et-leader-beghemder", "1310")
    judge, phase = ethiopian_segment(data, [levy, kassa])
    declare(judge, phase, "activate Ras Kassa", 3)
    declare(judge, phase, "bribe Ras Kassa", 4, speaker="Alice")
    judge.roll(2, phase, step=5, when=phase.when())             # 2 - 1 = 1: No Activation
    found = move(judge, phase, levy, "1410", "1510", step=6)
    assert ids(found) == ["ET-04"]
    assert found[0].evidence["bribed"] is True and found[0].evidence["modified_roll"] == 1


def test_published_data_make_it_possible() -> None:
    data = shipped()
    levy = unit(data, "l1", "et-levy-beghemder", "1310")
    kassa = unit(data, "k", "et-leader-beghemder", "1310")
    judge, phase = ethiopian_segment(data, [levy, kassa])
    declare(judge, phase, "activate Ras Kassa", 3, roll=3)
    found = move(judge, phase, levy, "1410", "1510", step=6)
    assert ids(found) == ["ET-04"] and found[0].basis is Basis.POSSIBLE
    assert "tables.json ethiopian-activation roll 3" in found[0].evidence["depends_on"]


def test_published_bribe_modifier_is_named() -> None:
    data = shipped()
    levy = unit(data, "l1", "et-levy-beghemder", "1310")
    kassa = unit(data, "k", "et-leader-beghemder", "1310")
    judge, phase = ethiopian_segment(data, [levy, kassa])
    declare(judge, phase, "activate Ras Kassa", 3)
    declare(judge, phase, "bribe Ras Kassa", 4, speaker="Alice")
    judge.roll(5, phase, step=5, when=phase.when())
    found = move(judge, phase, levy, "1410", "1510", step=6)
    assert found[0].basis is Basis.POSSIBLE
    assert "tables.json ethiopian-activation bribe_drm" in found[0].evidence["depends_on"]


# -- ET-05 ----------------------------------------------------------------------------------------

def test_bribe_after_the_roll() -> None:
    data = synthetic()
    kassa = unit(data, "k", "et-leader-beghemder", "1310")
    judge, phase = ethiopian_segment(data, [kassa])
    declare(judge, phase, "activate Ras Kassa", 3, roll=4)
    found = declare(judge, phase, "bribe Ras Kassa", 5, speaker="Alice")
    assert ids(found) == ["ET-05"] and found[0].evidence["roll"] == 4


# -- ET-01 / CB-30: one faction at a time -----------------------------------------------------------

def test_inferred_order_a_faction_may_not_come_back() -> None:
    data = synthetic()
    begh = unit(data, "b", "et-levy-beghemder", "1310")
    kassa = unit(data, "k", "et-leader-beghemder", "1310")
    shoa = unit(data, "s", "et-levy-shoa", "1213")
    mulugheta = unit(data, "m", "et-leader-shoa", "1213")
    judge, phase = ethiopian_segment(data, [begh, kassa, shoa, mulugheta])
    assert move(judge, phase, begh, "1410", step=3) == []
    assert move(judge, phase, shoa, "1212", step=4) == []
    found = move(judge, phase, begh, "1510", step=5)
    assert ids(found) == ["ET-01"] and found[0].evidence["activation_step"] == 3
    attack = judge.attack([kassa.moved_to("1310"), begh], "1409", phase, step=6, when=phase.when())
    assert ids(attack) == ["CB-30"]     # its attack is out of order too; the leader does not attack


def test_declared_order_attack_in_another_faction_s_activation() -> None:
    data = synthetic()
    tigray = unit(data, "t1", "et-levy-tigray", "1107")
    seyum = unit(data, "t", "et-leader-tigray", "1107")
    kassa = unit(data, "k", "et-leader-beghemder", "1310")
    judge, phase = ethiopian_segment(data, [tigray, seyum, kassa])
    declare(judge, phase, "activate Ras Seyum", 3, roll=5)
    assert judge.attack([tigray], "1106", phase, step=5, when=phase.when()) == []
    declare(judge, phase, "activate Ras Kassa", 7, roll=5)
    found = judge.attack([tigray], "1106", phase, step=9, when=phase.when())
    assert ids(found) == ["CB-30"] and found[0].evidence["current"] == "ethiopian-beghemder"
    again = declare(judge, phase, "activate Ras Seyum", 11)
    assert ids(again) == ["ET-01"]                              # once a turn


# -- ET-06 / ET-08 / ET-07 / ET-09: the Negus' army ------------------------------------------------

def test_negus_not_before_turn_4_unless_italians_near_addis_ababa() -> None:
    data = synthetic()
    negus = unit(data, "n", "et-negus", "1213")
    judge, phase = ethiopian_segment(data, [negus], turn=3)
    assert ids(declare(judge, phase, "activate Negus", 3)) == ["ET-06"]
    judge, phase = ethiopian_segment(data, [negus], turn=4)
    assert declare(judge, phase, "activate Negus", 3) == []
    italian = unit(data, "i", "it-21a", "1413")
    judge, phase = ethiopian_segment(data, [negus, italian], turn=1)
    judge.move(italian, "1413", "1313", Phase("1935-36", 1, "first-movement"), step=2, when=None)
    assert judge.negus_threatened                      # 1313 is two hexes from 1213
    assert declare(judge, phase, "activate Negus", 3) == []


def test_negus_activates_six_units_of_other_factions() -> None:
    data = synthetic()
    negus = unit(data, "n", "et-negus", "1213")
    mulugheta = unit(data, "m", "et-leader-shoa", "1213")
    levies = [unit(data, f"s{n}", "et-levy-shoa", "1212") for n in range(7)]
    judge, phase = ethiopian_segment(data, [negus, mulugheta, *levies], turn=5)
    declare(judge, phase, "activate Negus", 3)
    assert not judge.needs_roll()                      # the Negus never rolls
    for n, levy in enumerate(levies[:6]):
        assert move(judge, phase, levy, "1211", "1210", step=10 + n) == [], n
    found = move(judge, phase, levies[6], "1211", "1210", step=20)
    assert ids(found) == ["ET-08"] and found[0].evidence["others"] == 7


def test_kz_battalion_activates_once_a_turn() -> None:
    data = synthetic()
    negus = unit(data, "n", "et-negus", "1213")
    mulugheta = unit(data, "m", "et-leader-shoa", "1213")
    kz = unit(data, "kz", "et-kz-battalion", "1213", name="KZ")
    judge, phase = ethiopian_segment(data, [negus, mulugheta, kz], turn=5)
    declare(judge, phase, "activate Ras Mulugheta", 3, roll=5)
    assert move(judge, phase, kz, "1212", "1211", step=6) == []     # with its host leader
    declare(judge, phase, "activate Negus", 8)
    found = move(judge, phase, kz, "1210", step=9)
    assert ids(found) == ["ET-07"]
    assert found[0].evidence == {"turn": 5, "first": "ethiopian-shoa", "second": "negus"}


def test_dead_leader_faction_moves_one_hex_unless_the_negus_activates_it() -> None:
    data = synthetic()
    levy = unit(data, "t1", "et-levy-tigray", "1212")
    attacker = unit(data, "t2", "et-levy-tigray", "1107")
    negus = unit(data, "n", "et-negus", "1213")
    judge, phase = ethiopian_segment(data, [levy, attacker, negus], turn=5)   # Ras Seyum is gone
    declare(judge, phase, "activate Tigray", 3)
    assert not judge.needs_roll()                      # always No Activation: no roll
    found = move(judge, phase, attacker, "1007", "0907", step=5)
    assert ids(found) == ["ET-09"] and found[0].evidence["reason"] == "dead-leader"
    assert ids(judge.attack([levy], "1211", phase, step=6, when=phase.when())) == ["CB-31"]
    judge, phase = ethiopian_segment(data, [levy, attacker, negus], turn=5)
    declare(judge, phase, "activate Negus", 3)
    assert move(judge, phase, levy, "1211", "1210", step=5) == []      # next to the Negus


def test_imperial_guard_stuck_once_the_negus_is_dead() -> None:
    data = synthetic()
    negus = unit(data, "n", "et-negus", "1213")
    kz = unit(data, "kz", "et-kz-battalion", "1213", name="KZ")
    mulugheta = unit(data, "m", "et-leader-shoa", "1213")
    judge = ActivationJudge(Board(data), "1935-36")
    judge.watch(GameState({u.id: u for u in (negus, kz, mulugheta)}, "1935-36"))
    state = GameState({u.id: u for u in (kz, mulugheta)}, "1935-36")          # the Negus has died
    phase = Phase("1935-36", 5, "second-movement")
    judge.phase_change(Phase("1935-36", 5, "first-combat"), phase, state, bound=True, step=1)
    declare(judge, phase, "activate Ras Mulugheta", 3, roll=5)
    found = move(judge, phase, kz, "1212", "1211", step=6)
    assert ids(found) == ["ET-09"] and found[0].evidence["reason"] == "negus-dead"


# -- ET-10: the Great Offensive --------------------------------------------------------------------

def test_great_offensive_turns_once_and_first() -> None:
    data = synthetic()
    begh = unit(data, "b", "et-levy-beghemder", "1310")
    kassa = unit(data, "k", "et-leader-beghemder", "1310")
    shoa = unit(data, "s", "et-levy-shoa", "1213")
    mulugheta = unit(data, "m", "et-leader-shoa", "1213")
    units = [begh, kassa, shoa, mulugheta]
    judge, phase = ethiopian_segment(data, units, turn=3)
    assert declare(judge, phase, "great offensive north", 2) == []
    assert not judge.needs_roll()
    # both northern tribes act together, without a roll
    assert move(judge, phase, begh, "1410", step=4) + move(judge, phase, shoa, "1212", "1211", step=5) \
        + move(judge, phase, begh, "1510", step=6) == []
    later = ActivationJudge(judge.board, "1935-36")
    later.offensive_step = 2
    later.phase_change(None, Phase("1935-36", 4, "second-movement"), GameState({u.id: u for u in units}, "1935-36"),
                bound=True, step=20)
    found = declare(later, Phase("1935-36", 4, "second-movement"), "great offensive south", 21)
    assert ids(found) == ["ET-10"] and found[0].evidence["first_offensive_step"] == 2
    judge, phase = ethiopian_segment(data, units, turn=6)
    move(judge, phase, begh, "1410", step=4)
    found = declare(judge, phase, "great offensive north", 5)
    assert ids(found) == ["ET-10"] and "turn 6" in found[0].message and "first action" in found[0].message


# -- ET-11 / FW-05: attrition ------------------------------------------------------------------------

def _end_of_turn(data: GameData, units: list[Unit]) -> tuple[ActivationJudge, Phase]:
    judge = ActivationJudge(Board(data), "1935-36")
    end = Phase("1935-36", 2, "end")
    judge.phase_change(Phase("1935-36", 2, "second-combat"), end, GameState({u.id: u for u in units}, "1935-36"),
                bound=True, step=1)
    return judge, end


def test_attrition_strikes_stacks_of_six_one_unit_as_rolled() -> None:
    data = synthetic()
    board = Board(data)
    hex_ = "1212"
    assert board.terrain(hex_) not in ("mountain",) and board.has_feature(hex_, "amba") is False
    stack = [unit(data, f"s{n}", "et-levy-shoa", hex_) for n in range(5)] + [unit(data, "m", "et-leader-shoa", hex_)]
    judge, end = _end_of_turn(data, stack)
    declare(judge, end, "attrition 1212", 2, roll=2)
    assert judge.removal(stack[0], step=4, when=end.when()) == []
    second = judge.removal(stack[1], step=5, when=end.when())
    assert ids(second) == ["ET-11"] and second[0].evidence["removed"] == 2
    judge, end = _end_of_turn(data, stack)
    declare(judge, end, "attrition 1212", 2, roll=3)
    judge.removal(stack[0], step=4, when=end.when())
    closed = judge.phase_change(end, Phase("1935-36", 3, "map"), GameState({}, "1935-36"), bound=True, step=6)
    assert ids(closed) == ["ET-11"] and closed[0].evidence["roll"] == 3 and closed[0].step == 2
    judge, end = _end_of_turn(data, stack)
    declare(judge, end, "attrition 1212", 2, roll=1)
    closed = judge.phase_change(end, Phase("1935-36", 3, "map"), GameState({}, "1935-36"), bound=True, step=6)
    assert ids(closed) == ["ET-11"] and closed[0].evidence["removed"] == 0


def test_small_stack_has_no_attrition() -> None:
    data = synthetic()
    pair = [unit(data, "s", "et-levy-shoa", "1212"), unit(data, "m", "et-leader-shoa", "1212")]
    judge, end = _end_of_turn(data, pair)
    found = judge.removal(pair[0], step=3, when=end.when())
    assert ids(found) == ["ET-11"] and found[0].evidence == {"hex": "1212", "stack": 2, "minimum": 6}


def test_attrition_losses_are_not_inspected() -> None:
    """FW-05 (PB 13.6.3): ?-6 units removed for attrition are not flipped first."""
    data = synthetic()
    levy = unit(data, "s", "et-levy-shoa", "1212")
    judge, end = _end_of_turn(data, [levy])
    found = judge.reveal(levy, end, step=3, when=end.when())
    assert found is not None and ids(found) == ["FW-05"]
    judge, phase = ethiopian_segment(data, [levy])
    assert judge.reveal(levy, phase, step=3, when=phase.when()) is None


def test_not_judged_outside_1935_36() -> None:
    data = synthetic()
    judge = ActivationJudge(Board(data), "1940-41")
    levy = unit(data, "s", "et-levy-shoa", "1212")
    phase = Phase("1940-41", 1, "second-movement")
    judge.phase_change(None, phase, GameState({"s": levy}, "1940-41"), bound=True, step=1)
    assert judge.move(levy, "1212", "1414", phase, step=2, when=None) == []
    assert not judge.needs_roll()


@pytest.mark.parametrize("text", ["activate", "bribe", "great offensive east", "attrition 12"])
def test_incomplete_declarations_are_not_read(text: str) -> None:
    assert parse_declaration(text) is None


# -- ET-06 from turn 4: the Negus availability roll -----------------------------------------------

def _availability_rolls(judge: ActivationJudge, rolls: dict[int, int]) -> None:
    for turn, value in rolls.items():
        phase = Phase("1935-36", turn, "map")
        declare(judge, phase, "negus availability", 100 + turn, roll=value)


def test_negus_waits_for_a_success_on_the_availability_roll() -> None:
    data = synthetic()
    negus = unit(data, "n", "et-negus", "1213")
    judge, phase = ethiopian_segment(data, [negus], turn=5)
    _availability_rolls(judge, {4: 2, 5: 3})                   # synthetic: 1-3 Failure
    found = declare(judge, phase, "activate Negus", 3)
    assert ids(found) == ["ET-06"] and found[0].basis is Basis.PROVEN
    assert found[0].evidence["availability"] == {"4": "failure", "5": "failure"}
    judge, phase = ethiopian_segment(data, [negus], turn=5)
    _availability_rolls(judge, {4: 5, 5: 1})                   # a Success on turn 4 lasts
    assert declare(judge, phase, "activate Negus", 3) == []
    judge, phase = ethiopian_segment(data, [negus], turn=5)
    _availability_rolls(judge, {5: 1})                         # turn 4's roll not in the log
    assert declare(judge, phase, "activate Negus", 3) == []


def test_negus_availability_with_the_published_data_is_possible() -> None:
    data = shipped()
    negus = unit(data, "n", "et-negus", "1213")
    judge, phase = ethiopian_segment(data, [negus], turn=4)
    _availability_rolls(judge, {4: 6})
    found = declare(judge, phase, "activate Negus", 3)
    assert ids(found) == ["ET-06"] and found[0].basis is Basis.POSSIBLE
    assert found[0].evidence["depends_on"] == ["tables.json negus-availability roll 6"]


def test_unknown_designation_is_not_an_activation() -> None:
    """A chat line naming nobody on the map leaves the segment judged by inference."""
    data = synthetic()
    levy = unit(data, "b", "et-levy-beghemder", "1310")
    kassa = unit(data, "k", "et-leader-beghemder", "1310")
    judge, phase = ethiopian_segment(data, [levy, kassa])
    assert declare(judge, phase, "activate the whole army", 3) == []
    assert move(judge, phase, levy, "1410", "1510", step=5) == []


# -- CB-32: the Great Offensive's combats -------------------------------------------------------------

def test_offensive_effects_and_the_extra_loss() -> None:
    data = synthetic()
    a, b = unit(data, "a", "et-levy-tigray", "1107"), unit(data, "b", "et-levy-tigray", "1107")
    assert offensive_effects([a, b], frozenset()) == (2, 1)
    assert offensive_effects([a, b], frozenset({"a"})) == (1, 1)
    assert offensive_effects([a, b], frozenset({"a", "b"})) == (0, 0)
    assert with_extra_attacker_loss("1/2", 1) == "2/2"
    assert with_extra_attacker_loss("0/2+R", 1) == "1/2+R"
    assert with_extra_attacker_loss("-/1", 1) == "1/1"
    assert with_extra_attacker_loss("1/2", 0) == "1/2"


def test_great_offensive_combat_two_shifts_right_and_one_more_loss() -> None:
    """PB 13.6.2.4: two Tigray levies (2 + 2) attack 21A (4): 1:1, 3:1 in the offensive;
    die 4 on the synthetic Ethiopian CRT: 1:1 gives 1/1, 3:1 gives 1/2, +1 Ethiopian loss."""
    data = synthetic()
    board = Board(data)
    l1, l2 = unit(data, "a", "et-levy-tigray", "1107"), unit(data, "b", "et-levy-tigray", "1107")
    seyum = unit(data, "t", "et-leader-tigray", "1107")
    a21 = unit(data, "i", "it-21a", "1106")
    state = GameState({u.id: u for u in (l1, l2, seyum, a21)}, "1935-36")
    judge, phase = ethiopian_segment(data, [l1, l2, seyum, a21], turn=3)
    declare(judge, phase, "great offensive north", 2)
    assert judge.in_offensive(phase, [l1, l2])
    offensive = CombatFacts("1106", (l1, l2), (a21,), 4, {"a": 1, "b": 1}, {"i": 2},
                            removed=frozenset({"a", "b"}), great_offensive=True)
    assert ids(judge_combat(board, state, offensive, step=5, when=None)) == []
    as_if_not = replace(offensive, attacker_losses={"a": 1}, defender_losses={"i": 1},
                        removed=frozenset({"a"}))
    found = judge_combat(board, state, as_if_not, step=5, when=None)
    assert ids(found) == ["CB-19"]
    assert ids(judge_combat(board, state, replace(as_if_not, great_offensive=False), step=5, when=None)) == []


def test_coordination_gives_a_full_activation_without_the_roll() -> None:
    """Event B6 (ET-12, judged by the events check): placed before the roll, the activation is
    full and no roll follows; placed after it, the events check is told "rolled"."""
    data = synthetic()
    levy = unit(data, "b", "et-levy-beghemder", "1310")
    kassa = unit(data, "k", "et-leader-beghemder", "1310")
    judge, phase = ethiopian_segment(data, [levy, kassa])
    assert judge.coordinate(kassa) == "full"                 # before Ras Kassa is designated
    declare(judge, phase, "activate Ras Kassa", 3)
    assert not judge.needs_roll()
    assert move(judge, phase, levy, "1410", "1510", step=5) == []
    judge, phase = ethiopian_segment(data, [levy, kassa])
    declare(judge, phase, "activate Ras Kassa", 3, roll=1)
    assert judge.coordinate(kassa) == "rolled"
    assert ids(move(judge, phase, levy, "1410", "1510", step=5)) == ["ET-04"]
    assert ActivationJudge(Board(data), "1935-36").coordinate(kassa) == "unknown"


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_any_chat_line_reads_as_a_declaration_or_nothing(text: str) -> None:
    found = parse_declaration(text)
    assert found is None or found.kind in ("activate", "bribe", "great-offensive", "attrition",
                                           "negus-availability")


def test_long_chat_lines_are_not_read() -> None:
    assert parse_declaration("activate " + " " * 5000 + "Ras Kassa") is None
    assert parse_declaration("negus availability") == Declaration("negus-availability", "Negus")


def test_log_beginning_inside_the_segment_does_not_judge_adjacency() -> None:
    """The position when the log begins may be the middle of the Ethiopian segment."""
    data = synthetic()
    levy = unit(data, "l1", "et-levy-beghemder", "1310")
    kassa = unit(data, "k", "et-leader-beghemder", "1312")
    judge = ActivationJudge(Board(data), "1935-36")
    phase = Phase("1935-36", 2, "second-movement")
    judge.phase_change(None, phase, GameState({u.id: u for u in (levy, kassa)}, "1935-36"), bound=True, step=0)
    assert move(judge, phase, levy, "1410", "1510", step=3) == []


# -- SP-12: Ethiopian units outside Ethiopia (checks/ethiopian_supply.py) ---------------------------

def test_ethiopians_outside_ethiopia_follow_a_line_to_an_ethiopian_town() -> None:
    """PB 13.6.6.2 on the synthetic map: 1406 (Eritrea) is next to the Asmara - Addis Ababa
    track at 1306, which leads to Macallé (1307) in Ethiopia; 1504 is far from any line; an
    Italian unit on 1306 (and Italian Asmara, 1305) cut the line."""
    data = synthetic()
    board = Board(data)
    levy = unit(data, "l", "et-levy-tigray", "1406")
    found = trace(board, GameState({"l": levy}, "1935-36"), levy)
    assert found is not None and found.ruling is Ruling.LEGAL and found.path == ("1406", "1306", "1307")
    far = unit(data, "l", "et-levy-tigray", "1504")
    found = trace(board, GameState({"l": far}, "1935-36"), far)
    assert found is not None and found.ruling is Ruling.PROVEN
    blocker = unit(data, "i", "it-21a", "1306")
    found = trace(board, GameState({"l": levy, "i": blocker}, "1935-36"), levy)
    assert found is not None and found.ruling is Ruling.PROVEN
    inside = unit(data, "l", "et-levy-tigray", "1107")
    assert trace(board, GameState({"l": inside}, "1935-36"), inside).ruling is Ruling.LEGAL


def test_ethiopian_supply_outside_ethiopia_with_the_shipped_map_is_possible() -> None:
    data = shipped()
    levy = unit(data, "l", "et-levy-tigray", "1406")
    found = trace(Board(data), GameState({"l": levy}, "1935-36"), levy)
    assert found is not None and found.ruling is Ruling.POSSIBLE and found.verdict.depends_on


def test_ethiopian_unit_ending_its_move_cut_off_in_eritrea() -> None:
    """SP-12 findings come under MV-16 (a unit may not end its move out of supply)."""
    data = synthetic()
    far = unit(data, "l", "et-levy-tigray", "1504")
    found = judge_end_of_move(Board(data), GameState({"l": far}, "1935-36"), far, step=4, when=None)
    assert ids(found) == ["MV-16"] and found[0].basis is Basis.PROVEN
    assert "PB 13.6.6.2" in found[0].evidence["reasons"][0]
