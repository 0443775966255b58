"""Sideshow judged end to end: each fixture log (fixtures/sideshow/rules/, on the SYNTHETIC data of
fixtures/sideshow/synthetic-data) yields exactly the findings it plants; judged on the shipped
data alone, no log gets a PROVEN verdict the synthetic charts did not give; and the readings
the logs do not reach: the OFCs in command, a depot's second OP, an unshown phase inferred from
who acts."""
from __future__ import annotations

from pathlib import Path

import pytest

import vlog
from converters.log_writer import write_log
from vlog.cli import main
from vlog.findings import Basis
from vlog.games.base import Context, find_game
from vlog.games.sideshow.checks.common import commander
from vlog.kit.steps import Declared, Position, StepView
from vlog.replay import replay_log
from vlog.dicestats import DiceRoll
from vlog.games.sideshow.declarations import Label
from vlog.table import Player, Table

from .cases import EXPECTED, FIXTURES, MODULE, data, module, replay

LOGS = sorted(EXPECTED)


@pytest.mark.parametrize("name", LOGS)
def test_each_log_yields_exactly_the_findings_it_plants(name):
    found = [f for f in replay(name).replay.findings if f.check.startswith("sideshow/")]
    assert [(f.check, f.step) for f in found] == [(f"sideshow/{c}", s) for c, s, _ in EXPECTED[name]]
    for finding, (_, _, evidence) in zip(found, EXPECTED[name]):
        assert finding.basis is Basis.PROVEN and finding.when and finding.when.startswith("Turn ")
        assert {k: finding.evidence.get(k) for k in evidence} == dict(evidence)
    assert [f for f in replay(name).replay.findings if f.check.startswith("vlog/")] == []


@pytest.mark.parametrize("name", LOGS)
def test_the_shipped_data_alone_proves_nothing_the_synthetic_charts_do_not(name):
    """Without the OPGT, the Rain Numbers and the CRT a verdict resting on them is POSSIBLE, naming them."""
    synthetic = {(f.check, f.step) for f in replay(name).replay.findings}
    for finding in replay(name, shipped=True).replay.findings:
        if finding.basis is Basis.PROVEN:
            assert (finding.check, finding.step) in synthetic or finding.check == "sideshow/OPS-08", finding
        else:
            assert any(d.startswith(("tables.json opgt", "tables.json crt")) for d in finding.evidence["depends_on"]), \
                finding


def test_shipped_data_judges_a_clean_log_with_doubts_said_once_a_segment():
    found = replay("clean-opening", shipped=True).replay.findings
    assert {f.basis for f in found} == {Basis.POSSIBLE}
    per_segment = [(f.check, f.when) for f in found]
    assert len(per_segment) == len(set(per_segment))


def test_sequence_09_and_ops_04_need_the_synthetic_charts():
    """Rain Numbers decide SEQ-09's planted reading; the uncapped carry-over OPS-04's verdict."""
    assert not any(f.check == "sideshow/SEQ-09" for f in replay("SEQ-09", shipped=True).replay.findings)
    shipped = [(f.check, f.basis) for f in replay("OPS-04", shipped=True).replay.findings if f.step == 56]
    assert shipped == [("sideshow/OPS-08", Basis.PROVEN)]     # 12 Operations with at most 11 OPs


def test_seq_08_the_allied_ofc_in_command_and_ldr_01_von_lettow():
    shipped = data(shipped=True)
    assert commander(shipped, "campaign", "allied", 1) == ("No One", 0)
    assert commander(shipped, "campaign", "allied", 2) == ("No One", 0)
    assert commander(shipped, "campaign", "allied", 3) == ("Aitken", 1)      # from the beginning of Nov 1914
    assert commander(shipped, "campaign", "allied", 18) == ("Smuts", 3)      # Feb 1916
    assert commander(shipped, "campaign", "allied", 50) == ("van Deventer", 2)
    assert commander(shipped, "campaign", "allied", None) == (None, None)
    assert commander(shipped, "campaign", "german", None) == ("von Lettow", 4)


# -- play scripts written by the tests ------------------------------------------------------------

HEADER = "\n".join(["vlog-script 1", "game sideshow", f"module {MODULE}",
                    f"start {FIXTURES / 'synthetic' / 'campaign-start.vsav'}", 'map "Main Map"',
                    "clock 1704067260000", "key 0x2a", "player Alice side german", "player Bob side allied", ""])
TO_ALLIED_SEGMENT = """as Alice
turn next
chat dry
turn next
chat initiative
roll 1d6 = 1
as Bob
roll 1d6 = 6
chat "segment 1"
turn next
chat ops
"""


def judge(tmp_path: Path, actions: str, *, shipped: bool = False) -> list:
    script, log = tmp_path / "play.vscript", tmp_path / "play.vlog"
    script.write_text(HEADER + actions, encoding="utf-8")
    write_log(script, log)
    rep = replay_log(vlog.read(log), module=module(), game=find_game("sideshow", data(shipped)))
    return [f for f in rep.findings if f.check.startswith("sideshow/")]


def test_ops_08_a_depots_second_op_is_a_reading_so_its_overspend_is_possible(tmp_path):
    found = judge(tmp_path, TO_ALLIED_SEGMENT + "roll 1d6 = 1\nchat \"op depot 3201\"\n")
    assert [(f.check, f.basis) for f in found] == [("sideshow/OPS-08", Basis.POSSIBLE)]
    assert "13.1" in found[0].evidence["depends_on"][0]
    found = judge(tmp_path, TO_ALLIED_SEGMENT + "roll 1d6 = 2\nchat \"op depot 3201\"\nchat \"op recon\"\n")
    assert [(f.check, f.basis) for f in found] == [("sideshow/OPS-08", Basis.PROVEN)]


def test_ops_08_raise_troops_divert_and_depots_belong_to_one_side(tmp_path):
    found = judge(tmp_path, TO_ALLIED_SEGMENT + "roll 1d6 = 6\nchat \"op raise\"\nchat \"op divert\"\n")
    assert [(f.check, f.evidence["operation"]) for f in found] == [("sideshow/OPS-08", "raise")]


def test_ops_04_a_finis_star_loses_the_saved_ops(tmp_path):
    """The Allied 6 OPs are lost to FINIS*: the second Operation of the next turn has none (5.23)."""
    found = judge(tmp_path, TO_ALLIED_SEGMENT + "roll 1d6 = 6\nchat opgt\nroll 2d6 = 1,1\n"   # FINIS*: 6 lost
                  "as Alice\nturn next\nchat ops\nroll 1d6 = 1\nchat \"op move 2914\"\n"
                  "turn next\nas Bob\nchat event\nroll 2d6 = 1,2\nturn next\nturn next\nchat weather\nroll 2d6 = 1,1\n"
                  "chat dry\nturn next\nas Alice\nchat initiative\nroll 1d6 = 1\nas Bob\nroll 1d6 = 6\nchat \"segment 1\"\nturn next\n"
                  "chat ops\nroll 1d6 = 1\nchat \"op move 3201\"\nchat \"op move 3202\"\n")
    assert [(f.check, f.basis, f.evidence["hex"]) for f in found] == [("sideshow/OPS-04", Basis.PROVEN, "3202")]


def test_a_german_withdrawal_spends_what_a_finis_star_lost_this_turn(tmp_path):
    """5.23 EXCEPTION: the German may still withdraw with Lost Accumulated Points until the turn ends."""
    actions = """as Alice
turn next
chat dry
turn next
chat initiative
roll 1d6 = 6
as Bob
roll 1d6 = 1
as Alice
chat "segment 1"
turn next
chat ops
roll 1d6 = 3
chat opgt
roll 2d6 = 1,1
as Bob
turn next
chat ops
roll 1d6 = 4
chat "op attack 2914"
as Alice
chat "op withdraw"
"""
    assert judge(tmp_path, actions) == []
    assert [f.check for f in judge(tmp_path, actions + 'chat "op withdraw2"\nchat "op withdraw"\n')] == [
        "sideshow/OPS-08"]


def test_segments_are_inferred_from_who_rolls_initial_ops_where_the_table_shows_no_phase():
    game = find_game("sideshow", data())
    table = Table()
    table.players = {"u1": Player("u1", "Alice", "german"), "u2": Player("u2", "Bob", "allied")}
    start = Position(table)
    list(game.begin(table, Context("play.vlog", None)))
    assert game.phase is None
    label = Declared(1, "label", Label("initial-ops", "Alice"))
    game.rolls.event(label, StepView(None, start, start))
    roll = DiceRoll(2, "Alice", "1d6", 1, 6, (4,), 4)
    phase = game.infer_phase(_step_view(start, roll, 2), None)
    assert (phase.turn, phase.name, phase.actor, phase.inferred) == (1, "operations-segment-1", "german", True)
    assert "German player rolled his Initial OPs" in phase.reason
    game.rolls.event(Declared(3, "label", Label("initial-ops", "Bob")), StepView(None, start, start))
    later = game.infer_phase(_step_view(start, DiceRoll(4, "Bob", "1d6", 1, 6, (2,), 2), 4), phase)
    assert (later.turn, later.name, later.actor) == (1, "operations-segment-2", "allied")


def _step_view(position: Position, roll: DiceRoll, index: int) -> StepView:
    class Step:
        commands = ()
    step = Step()
    step.index = index   # type: ignore[attr-defined]
    return StepView(step, position, position, rolls=(roll,))  # type: ignore[arg-type]


def test_seq_06_and_mov_14_a_kar_replacement_comes_back_through_mombasa(tmp_path):
    """9.23: out of the Available Box into Mombasa is a replacement's return, not a KAR arrival."""
    found = judge(tmp_path, 'as Bob\nturn set Turn=3 Phase=reinforcement-availability\n'
                            'move "1/4 KAR" along "Available Troops Box" on "Off-map Boxes"\n'
                            'add "2/1 KAR" at "Available Troops Box" on "Off-map Boxes"\n'
                            'turn set Turn=4 Phase=reinforcement-availability\n'
                            'move "1/4 KAR" along 3201 on "Main Map"\nmove "2/1 KAR" along 3201 on "Main Map"\n')
    assert found == []


# -- attacks -------------------------------------------------------------------------------------

ALLIES_NEXT_TO_KONDOA = TO_ALLIED_SEGMENT + """roll 1d6 = 6
chat "op move 3201"
move IST along 3416
move "Cal Vol" along 3417
chat "op attack 3516"
move IST along 3516
"""


def _battle(allied_roll: int, german_roll: int, losses: tuple[int, int], strength: int = 25) -> str:
    """Kondoa Irangi attacked from one hex; the Allied and German losses as said."""
    return ALLIES_NEXT_TO_KONDOA + (f'chat "strength {strength}"\nchat combat\nroll 1d6 = {allied_roll}\n'
                                    f'as Alice\nchat "strength 3"\nchat combat\nroll 1d6 = {german_roll}\n'
                                    f'as Bob\nchat "loss {losses[0]}"\nas Alice\nchat "loss {losses[1]}"\n')


def test_cbt_15_the_8_25_example_on_the_shipped_data(tmp_path):
    """8.25: 'if the Allied Player has 25 SPs in the battle and rolls a 4, the German player loses
    3 SPs' -- the one CRT cell the rulebook gives, in a hex whose terrain is not known: a 4 on the
    column moved left is not given, so a loss of 2 is only POSSIBLE; a loss of 3 agrees."""
    def allied_roll_verdicts(loss: int) -> list:
        return [(f.basis, f.evidence["crt"]) for f in judge(tmp_path, _battle(4, 1, (0, loss)), shipped=True)
                if f.check == "sideshow/CBT-15" and f.evidence["side"] == "german"]
    assert allied_roll_verdicts(3) == []
    assert allied_roll_verdicts(2) == [(Basis.POSSIBLE, [3])]


def test_cbt_15_a_german_leader_s_unknown_rating_makes_the_loss_possible(tmp_path):
    """8.35: Kraut's Combat Rating (not in the data) adjusts both rolls in Arusha."""
    actions = TO_ALLIED_SEGMENT + """roll 1d6 = 6
chat "op move 3201"
move IST along 2915
chat "op attack 2914"
move IST along 2914
chat "strength 10"
chat combat
roll 1d6 = 5
as Alice
chat "loss 2"
"""
    found = [f for f in judge(tmp_path, actions) if f.check != "sideshow/STK-01"]   # the log ends mid-battle
    assert [(f.check, f.basis) for f in found] == [("sideshow/CBT-15", Basis.POSSIBLE)]
    assert any("de-kraut" in d and "combat" in d for d in found[0].evidence["depends_on"])


def test_cbt_15_and_cbt_16_the_defender_s_roll_needs_no_terrain(tmp_path):
    """The German roll of 5 on 3 SP (column 3, SYNTHETIC CRT) takes 2 SP, not the 1 said, whatever
    the terrain; the Allied 1 is no retreat result, so the Allies retreat, not 13 FK."""
    found = judge(tmp_path, _battle(1, 5, (1, 2)) + 'move "13 FK" along 3518\nas Bob\nchat "op recon"\n')
    assert [(f.check, f.basis, f.evidence.get("crt")) for f in found] == [
        ("sideshow/CBT-15", Basis.PROVEN, [2]), ("sideshow/CBT-16", Basis.PROVEN, None)]


def test_cbt_05_a_second_hex_attacks_with_no_roll_unless_an_unlabelled_roll_may_be_it(tmp_path):
    second = 'move "Cal Vol" along 3516\nas Alice\nmove "13 FK" along 3518\nas Bob\nchat "op recon"\n'
    found = judge(tmp_path, ALLIES_NEXT_TO_KONDOA + second)
    assert [(f.check, f.evidence["hex"]) for f in found] == [("sideshow/CBT-05", "3417")]
    assert "no Multiple Attack roll" in found[0].message
    assert judge(tmp_path, ALLIES_NEXT_TO_KONDOA + "roll 1d6 = 2\n" + second) == []
    assert judge(tmp_path, ALLIES_NEXT_TO_KONDOA + "chat multiple\nroll 1d6 = 5\n" + second) == []


def _german_saves(ops: int) -> str:
    """September 1914: the German takes segment 1, rolls `ops + 1` Initial OPs and spends one
    (saving `ops`, 5.23); then the Allied segment 2 begins."""
    return f"""as Alice
turn next
chat dry
turn next
chat initiative
roll 1d6 = 6
as Bob
roll 1d6 = 1
as Alice
chat "segment 1"
turn next
chat ops
roll 1d6 = {ops + 1}
chat "op recon"
as Bob
turn next
chat ops
roll 1d6 = 6
"""


def test_cbt_16_and_cbt_17_are_not_judged_after_a_withdrawal(tmp_path):
    """8.22: the German withdraws before the attackers move in; only the Allied KAR roll is made,
    and leaving the hex is the withdrawal, not a retreat."""
    actions = _german_saves(2) + """chat "op move 3201"
move IST along 3416
chat "op attack 3516"
as Alice
chat "op withdraw"
move "13 FK" along 3520
as Bob
move IST along 3516
chat "op recon"
"""
    assert judge(tmp_path, actions) == []


def test_ops_08_the_withdrawal_and_rail_reaction_costs(tmp_path):
    """8.22: a withdrawal with ambush costs 2 OPs, 8.5: a rail reaction 1, paid in the Allied
    segment from what the German saved (5.24): with 1 OP saved, the ambush is overspent and the
    reaction is not."""
    attacked = _german_saves(1) + 'chat "op move 3201"\nmove IST along 3416\nchat "op attack 3516"\nas Alice\n'
    costs = {"withdraw2": [("sideshow/OPS-08", 2)], "reaction": [], "withdraw": []}
    for kind, expected in costs.items():
        found = [f for f in judge(tmp_path, attacked + f'chat "op {kind}"\n') if f.check != "sideshow/STK-01"]
        assert [(f.check, f.evidence["cost"]) for f in found] == expected, kind


def test_cbt_22_a_rail_reaction_answers_the_enemy_s_attack(tmp_path):
    """8.5: with no attack under way there is nothing to react to; the attacker does not react."""
    no_attack = _german_saves(2) + 'as Alice\nchat "op reaction"\n'
    assert [(f.check, f.evidence["attack_step"]) for f in judge(tmp_path, no_attack)] == [("sideshow/CBT-22", None)]
    attacker = _german_saves(2) + 'chat "op move 3201"\nmove IST along 3416\nchat "op attack 3516"\nchat "op reaction"\n'
    found = [f for f in judge(tmp_path, attacker) if f.check == "sideshow/CBT-22"]
    assert [f.message.split("; ")[1][:40] for f in found] == ["the Allied player is the attacker of ste"]


# -- disbanding ------------------------------------------------------------------------------------

DISBAND_2_FK = (FIXTURES / "rules" / "clean-disband.vscript").read_text(encoding="utf-8").split("# Turn 29, January 1917\n")[1]


def test_ops_07_a_disbanded_unit_s_op_pays_for_an_operation(tmp_path):
    """5.26: without the disbanding, the German's second Operation has no OP to pay for it."""
    assert judge(tmp_path, DISBAND_2_FK) == []
    found = judge(tmp_path, DISBAND_2_FK.replace('chat disband\nremove "2 FK"', 'chat dry as Bob'))
    assert [(f.check, f.basis) for f in found] == [("sideshow/OPS-08", Basis.PROVEN)]


def test_ops_07_not_within_three_hexes_of_an_allied_combat_unit_and_never_back(tmp_path):
    near = DISBAND_2_FK.replace('chat disband\n', 'move "1/1 KAR" along 5729\nchat disband\nremove "3 FK"\n')
    found = judge(tmp_path, near)
    assert [(f.check, f.evidence["unit"], f.evidence.get("allied")) for f in found] == [
        ("sideshow/OPS-07", "3 FK", ["1/1 KAR"])]
    back = DISBAND_2_FK + 'add "2 FK" at 5417\n'
    assert [(f.check, f.evidence["disbanded_step"]) for f in judge(tmp_path, back)] == [("sideshow/OPS-07", 3)]


# -- Random Event effects ----------------------------------------------------------------------------

def _kronberg_month(letter: str) -> str:
    """April 1915: the German's Random Event Operation rolls the event named, then an OPGT roll of
    8 (3 OPs on the SYNTHETIC von Lettow column, 2 when read as 7) and three Operations."""
    named = f'chat "event {letter}"\n' if letter else ""
    return f"""as Alice
turn set Turn=8 Phase=weather
chat dry
turn next
chat initiative
roll 1d6 = 6
as Bob
roll 1d6 = 1
as Alice
chat "segment 1"
turn next
chat ops
roll 1d6 = 1
chat "op event"
chat event
roll 2d6 = 1,1
{named}chat opgt
roll 2d6 = 4,4
chat "op recon"
chat "op recon"
chat "op recon"
"""


def test_ops_06_after_event_a_in_april_1915_the_german_opgt_roll_is_one_less(tmp_path):
    """5.25, 16.2 A: the Kronberg rolled by the German in March-May 1915 takes 1 off his OP rolls
    for the rest of the turn (an 8 is read as a 7); another event does not; an event the players
    do not name leaves both readings, so the overspend is only POSSIBLE."""
    def verdicts(letter: str) -> list:
        return [(f.check, f.basis) for f in judge(tmp_path, _kronberg_month(letter))]
    assert verdicts("A") == [("sideshow/OPS-08", Basis.PROVEN)]
    assert verdicts("D") == []
    assert verdicts("") == [("sideshow/OPS-08", Basis.POSSIBLE)]
    assert verdicts("S") == [("sideshow/OPS-08", Basis.POSSIBLE)]     # before November 1917: a reading


def test_evt_06_the_units_other_theater_demands_took_never_come_back(tmp_path):
    taken = (FIXTURES / "rules" / "clean-event.vscript").read_text(encoding="utf-8").split("# Turn 2, October 1914\n")[1]
    found = judge(tmp_path, taken + 'as Bob\nadd "13 Raj" at 3201\n')
    assert [(f.check, f.evidence["to"]) for f in found] == [("sideshow/EVT-06", "3201")]


def test_evt_06_a_unit_taken_from_the_delayed_box_does_not_come_back_through_the_boxes(tmp_path):
    """16.2 E: 13 Raj, in the Delayed Box when Other Theater Demands is rolled, may not enter the
    Available Box later, whether moved there from the Delayed Box it was left in or put there
    afresh; a unit delayed after the event moves on from the Delayed Box as usual."""
    month = (FIXTURES / "rules" / "clean-event.vscript").read_text(encoding="utf-8").split("# Turn 2, October 1914\n")[1]
    left_in = month.replace('remove "13 Raj"', "")
    boxes = 'on "Off-map Boxes"'
    back = [(f.check, f.evidence.get("to") or f.evidence.get("units")) for f in
            judge(tmp_path, left_in + f'as Bob\nmove "13 Raj" along "Available Troops Box" {boxes}\n')]
    assert back == [("sideshow/EVT-06", ["13 Raj (delayed)"]), ("sideshow/EVT-06", "the Available Box")]
    again = judge(tmp_path, month + f'as Bob\nadd "13 Raj" at "Available Troops Box" {boxes}\n')
    assert [(f.check, f.evidence["to"]) for f in again] == [("sideshow/EVT-06", "the Available Box")]
    assert "came back in the Available Box" in again[0].message
    later = month.replace('chat "op recon"', f'chat "op recon"\nas Bob\nadd "98" at "Delayed Box" {boxes}\nas Alice')
    assert judge(tmp_path, later + f'as Bob\nmove "98" along "Available Troops Box" {boxes}\n') == []


def test_cbt_03_and_cbt_04_the_combat_rolls_after_a_withdrawal(tmp_path):
    """8.22: after a type 1 withdrawal only the Allied player rolls (for his KAR); after a type 2
    nobody does."""
    attacked = _german_saves(2) + 'chat "op move 3201"\nmove IST along 3416\nchat "op attack 3516"\nas Alice\n'
    kar_roll = 'as Bob\nchat "strength 4"\nchat combat\nroll 1d6 = 2\n'
    german_roll = 'as Alice\nchat combat\nroll 1d6 = 3\n'
    checks = lambda found: [f.check for f in found if f.check != "sideshow/STK-01"]   # noqa: E731
    assert checks(judge(tmp_path, attacked + 'chat "op withdraw"\n' + kar_roll)) == []
    assert checks(judge(tmp_path, attacked + 'chat "op withdraw"\n' + german_roll)) == ["sideshow/CBT-03"]
    assert checks(judge(tmp_path, attacked + 'chat "op withdraw2"\n' + kar_roll)) == ["sideshow/CBT-04"]


def test_cbt_09_artillery_alone_makes_no_combat_roll(tmp_path):
    """8.29: 28 MtRA (placed beside IST for the test) attacks alone (Committed Strength 0); with IST
    beside it the Allies roll."""
    guns = TO_ALLIED_SEGMENT + ('roll 1d6 = 6\nchat "op move 3201"\nmove IST along 3416\nadd "28 MtRA" at 3416\n'
                                'chat "op attack 3516"\nmove "28 MtRA" along 3516\n')
    roll = 'chat combat\nroll 1d6 = 4\n'
    checks = lambda found: [f.check for f in found  # noqa: E731  (28 MtRA comes in its month, October 1914: SEQ-05)
                            if f.check not in ("sideshow/STK-01", "sideshow/SEQ-05")]
    assert checks(judge(tmp_path, guns + roll)) == ["sideshow/CBT-09"]
    assert checks(judge(tmp_path, guns + "move IST along 3516\n" + roll)) == []


def test_evt_14_the_mad_mullah_takes_four_allied_units_when_the_german_rolls_it(tmp_path):
    """16.2 N: rolled by the German, 28 MtRA (placed in Mombasa for the test) and 1/1 KAR (in
    Karonga from the start) leave the map at once; rolled by the Allied player it is no event."""
    def month(roller: str, removed: bool) -> str:
        segment = "1" if roller == "Bob" else "2"
        return f"""as Bob
turn set Turn=2 Phase=reinforcement-availability
add "28 MtRA" at 3201
turn next
chat dry
turn next
chat initiative
as Alice
roll 1d6 = 1
as Bob
roll 1d6 = 6
chat "segment {segment}"
turn next
as {roller}
chat ops
roll 1d6 = 3
chat "op event"
chat event
roll 2d6 = 3,4
chat "event N"
""" + ('as Bob\nremove "28 MtRA"\nremove "1/1 KAR"\n' if removed else "") + "turn next\n"
    assert [(f.check, f.evidence["units"]) for f in judge(tmp_path, month("Alice", False))] == [
        ("sideshow/EVT-14", ["1/1 KAR (5929)", "28 MtRA (3201)"])]
    assert judge(tmp_path, month("Alice", True)) == []
    assert judge(tmp_path, month("Bob", False)) == []


def test_rei_01_two_counters_into_tabora_after_january_1915_and_none_while_the_allies_hold_it(tmp_path):
    raised = (FIXTURES / "rules" / "clean-raise.vscript").read_text(encoding="utf-8").split("# Turn 2, October 1914\n")[1]
    later = raised.replace("turn set Turn=2 Phase=weather", "turn set Turn=6 Phase=weather")     # February 1915
    assert [(f.check, f.evidence.get("unit")) for f in judge(tmp_path, later)] == [
        ("sideshow/REI-01", "5 SK"), ("sideshow/REI-01", "2 ErK"),
        ("sideshow/REI-02", None)]                   # and one placement roll, not two (9.13 step 2)
    held = raised.replace('chat "op raise"\n', 'as Bob\nadd "13 Raj" at 3430\nas Alice\nchat "op raise"\n')
    found = [f for f in judge(tmp_path, held) if f.check == "sideshow/REI-01"]
    assert [f.evidence["allied"] for f in found] == [["13 Raj"]] * 4


def test_rei_05_one_fk_out_of_the_replacement_box_with_german_units(tmp_path):
    """9.33: 1 FK goes back to Kondoa Irangi, where 13 FK stands, not as a raised unit (its hex is
    no Tabora); a second rebuilt in the same Operation, or one placed alone, is not."""
    before = """as Alice
turn set Turn=6 Phase=weather
move "1 FK" along "Replacement Box" on "Off-map Boxes"
move "3 FK" along "Replacement Box" on "Off-map Boxes"
chat dry
turn next
chat initiative
roll 1d6 = 6
as Bob
roll 1d6 = 1
as Alice
chat "segment 1"
turn next
chat ops
roll 1d6 = 2
chat "op raise"
"""
    assert judge(tmp_path, before + 'move "1 FK" along 3516 on "Main Map"\n') == []
    found = judge(tmp_path, before + 'move "1 FK" along 3516 on "Main Map"\nmove "3 FK" along 3517 on "Main Map"\n')
    assert [(f.check, f.evidence["unit"]) for f in found] == [("sideshow/REI-05", "3 FK")]
    assert "already" in found[0].message


def test_seq_02_a_weather_roll_after_a_segment_began_is_proven_out_of_order(tmp_path):
    """4.0: an Initial OP roll is no weather's or initiative's play, so the tracker showing the
    segment was right; a weather roll after it is the weather phase played after the segment."""
    back = "as Bob\nroll 1d6 = 1\nturn set Turn=1 Phase=weather\nchat weather\nroll 2d6 = 1,1\n"
    found = [f for f in judge(tmp_path, TO_ALLIED_SEGMENT + back) if f.check == "sideshow/SEQ-02"]
    assert [(f.check, f.basis, f.step) for f in found] == [("sideshow/SEQ-02", Basis.PROVEN, 13)]
    assert found[0].evidence["from"] == "1 operations-segment-1" and found[0].evidence["to"] == "1 weather"
    assert found[0].evidence["later_play"][-1] == [10, "initial-ops-rolled (Allied)"]
    assert "(initial-ops-rolled (Allied), step 10, in operations-segment-1)" in found[0].message


def test_seq_02_a_unit_moved_after_the_step_back_may_be_the_correction(tmp_path):
    """A move fits several phases: after a step back from the segment it is only POSSIBLE."""
    back = "as Bob\nroll 1d6 = 1\nturn set Turn=1 Phase=initiative\nmove IST along 3202\n"
    found = [f for f in judge(tmp_path, TO_ALLIED_SEGMENT + back) if f.check == "sideshow/SEQ-02"]
    assert [(f.basis, f.evidence["play"]) for f in found] == [(Basis.POSSIBLE, "moved IST")]


def test_seq_02_the_tracker_set_back_with_nothing_played_is_a_correction(tmp_path):
    """A tracker moved on into the next turn by mistake and set back, then play: no finding."""
    actions = TO_ALLIED_SEGMENT + ("as Bob\nroll 1d6 = 1\nturn next\nturn next\nturn next\n"
                                   "turn set Turn=1 Phase=operations-segment-2\nas Alice\nchat ops\nroll 1d6 = 2\n")
    assert [f for f in judge(tmp_path, actions) if f.check == "sideshow/SEQ-02"] == []


def test_seq_02_a_unit_placed_or_removed_after_the_step_back_is_play(tmp_path):
    """A placement or a removal is play too: after a step back with play left behind, POSSIBLE."""
    back = "as Bob\nroll 1d6 = 1\nturn set Turn=1 Phase=initiative\n"
    for play, said in (('add "Kron Mar" at 3804\n', "placed Kron Mar"), ('remove IST\n', "removed IST")):
        found = [f for f in judge(tmp_path, TO_ALLIED_SEGMENT + back + play) if f.check.startswith(("sideshow/SEQ-02", "vlog/"))]
        assert [(f.check, f.basis, f.evidence["play"]) for f in found] == [("sideshow/SEQ-02", Basis.POSSIBLE, said)]


def test_seq_05_and_seq_03_the_9_22_example_of_october_1914(tmp_path):
    """9.22's example: in October 1914 the Allied player puts the 61st Pioneers (61 KGO) and the 63rd
    Palmacottah (63 Pal) in the Delayed Box and every other unit of the month in the Available Box;
    those enter next turn in Mombasa (9.23). Legal on the shipped data: no SEQ-05 or SEQ-03 finding.
    Put in the Available Box a month early, 29 Punj (November 1914) is SEQ-05's."""
    available = ["98", "2 Loy NL", "101 Grn", "2 Kshmr", "3 Kshmr", "13 Raj", "3 Gwlr", "28 MtRA", "10 Hvy", "1 Lt"]
    actions = ("as Bob\nturn set Turn=2 Phase=reinforcement-availability\n"
               + "".join(f'add "{u}" at "Delayed Box" on "Off-map Boxes"\n' for u in ("61 KGO", "63 Pal"))
               + "".join(f'add "{u}" at "Available Troops Box" on "Off-map Boxes"\n' for u in available)
               + "turn set Turn=3 Phase=reinforcement-availability\n"
               + "".join(f'move "{u}" along 3201 on "Main Map"\n' for u in available))
    for shipped in (True, False):
        assert [f for f in judge(tmp_path, actions, shipped=shipped)
                if f.check in ("sideshow/SEQ-05", "sideshow/SEQ-03") or f.check.startswith("vlog/")] == []
    early = actions.replace('turn set Turn=3', 'add "29 Punj" at "Available Troops Box" on "Off-map Boxes"\nturn set Turn=3', 1)
    found = [f for f in judge(tmp_path, early, shipped=True) if f.check == "sideshow/SEQ-05"]
    assert [(f.basis, f.evidence["unit"]) for f in found] == [(Basis.PROVEN, "29 Punj")]


def test_a_log_continuing_the_one_before_keeps_the_history_of_the_game(tmp_path):
    """16.2 E across two logs of one run: 13 Raj, removed for good in October 1914's log, comes
    back in the next log, which starts where the first ended. Judged after the first, the engine
    remembers the event; judged alone, or after a log it does not continue, it cannot know."""
    from vlog.judging import judge_in_order

    october = tmp_path / "october.vlog"
    write_log(FIXTURES / "rules" / "clean-event.vscript", october)
    end = tmp_path / "october-end.vsav"
    steps = len(vlog.read(october).steps)
    assert main(["convert", str(october), str(end), "--step", str(steps)]) == 0
    november = tmp_path / "november.vlog"
    script = tmp_path / "november.vscript"
    script.write_text(HEADER.replace(str(FIXTURES / "synthetic" / "campaign-start.vsav"), str(end))
                      + 'as Bob\nadd "13 Raj" at "Available Troops Box" on "Off-map Boxes"\n', encoding="utf-8")
    write_log(script, november)

    def judged(*logs):
        run = judge_in_order(logs, vlog.read, checks=(), module=module(), game=find_game("sideshow", data()))
        return [[(f.check, f.evidence.get("event_step")) for f in r.findings] for r in run.results]

    assert judged(october, november) == [[], [("sideshow/EVT-06", 18)]]
    assert judged(november) == [[]]
    other = tmp_path / "other.vlog"
    write_log(FIXTURES / "rules" / "clean-opening.vscript", other)
    second = judged(other, november)[1]
    assert second and {c for c, _ in second} == {"vlog/continuity"}
