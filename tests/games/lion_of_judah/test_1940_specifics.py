"""(40) specifics on SYNTHETIC positions: guerrilla control (TS-06), the Negus's fate with the
Gideon Force (CB-39), the optional French call to war (MV-48) and what moves the IPL (SC-03)."""
from __future__ import annotations

from dataclasses import replace

from vlog.engine.judge import Unknown
from vlog.findings import Basis
from vlog.gamedata import load_game_data
from vlog.games.lion_of_judah.step_events import Appear, Combat, Move, PhaseTurned
from vlog.kit.steps import Event
from vlog.games.lion_of_judah.checks.allied_1940 import (
    NegusWatch,
    allied_action,
    judge_french_call_to_war,
)
from vlog.games.lion_of_judah.checks.prestige import PrestigeWatch, prestige_action
from vlog.games.lion_of_judah.interpret import (
    AttackDeclaration,
    update_control,
)
from vlog.games.lion_of_judah.sequence import Phase
from vlog.games.lion_of_judah.state import Unit
from vlog.kit.combat import OpenCombat

from .synthetic import shipped_board, state, unit


def guerrilla(id_: str, hex_: str):
    return unit(id_, hex_, side="allied", unit_class="guerrilla", size="brigade")


def test_guerrillas_control_a_hex_only_alone():
    """TS-06 (3.2 IMPORTANT, PB 14.6.4.1): alone they control; sharing, the other units do,
    whichever comes first in the table."""
    alone = state(guerrilla("g", "1112"))
    update_control(alone)
    assert alone.control == {"1112": "allied"}
    for order in ((guerrilla("g", "1213"), unit("Sb", "1213")), (unit("Sb", "1213"), guerrilla("g", "1213"))):
        shared = state(*order)
        update_control(shared)
        assert shared.control == {"1213": "italian"}
    with_allies = state(guerrilla("g", "1009"), unit("KAR1", "1009", side="allied", unit_class=None))
    update_control(with_allies)
    assert with_allies.control == {"1009": "allied"}


GIDEON = replace(unit("Gideon Force", "0302", side="allied", unit_class="commonwealth", size="brigade"),
                 counter="gb-gideon")
NEGUS = replace(unit("Negus", "0302", side="allied", kind="leader", unit_class=None), counter="et-negus")
SB = replace(unit("Sb", "0202"), counter="it-sb")


def combat(removed: set[str], *, step: int = 9, turn: int = 6, roll: int | None = 4) -> Combat:
    at = Phase("1940-41", turn, "second-combat")
    pending = OpenCombat(step, "w", AttackDeclaration("0302", ("Sb",), None, None), "italian",
                            state(GIDEON, NEGUS, SB), roll=roll, phase=at, phase_bound=True,
                            removed=set(removed))
    return Combat(step, pending, (SB,), (GIDEON, NEGUS), when="w")


def turn_change(*units, step: int = 14, turn: int = 6) -> PhaseTurned:
    return PhaseTurned(step, Phase("1940-41", turn, "second-combat"), Phase("1940-41", turn, "end"), True,
                       state=state(*units))


def appear(turn: int, step: int = 30) -> Appear:
    return Appear(step, replace(NEGUS, hex="0505"), "0505", when="w")


def run(watch: NegusWatch, action: Event, turn: int = 6) -> list:
    return allied_action(watch, action, phase=Phase("1940-41", turn, "map"), phase_bound=True, joined=None)


def test_negus_stays_after_gideon_falls_is_cb39():
    """CB-39 (PB 14.6.4.4): Gideon eliminated with the Negus: off the map on any survival roll."""
    watch = NegusWatch()
    watch.logged(9, [4])
    watch.logged(11, [2])
    assert run(watch, combat({"Gideon Force"})) == []
    assert watch.roll == (11, 2) and watch.gone_for_good is not None
    [f] = run(watch, turn_change(NEGUS))
    assert f.check == "lion-of-judah/CB-39" and f.basis is Basis.PROVEN
    assert f.evidence == {"hex": "0302", "gideon_eliminated_step": 9, "survival_roll": 2}
    assert run(watch, turn_change(NEGUS, step=15)) == []        # once
    [g] = run(watch, appear(7), turn=7)                           # 1-3: never back
    assert g.check == "lion-of-judah/CB-39" and "permanently" in g.message


def test_negus_escapes_and_returns_next_turn():
    watch = NegusWatch()
    watch.logged(9, [4])
    run(watch, combat({"Gideon Force"}))
    watch.logged(10, [5])                     # the survival roll after the combat closed
    assert watch.escaped_turn == 6
    assert run(watch, turn_change()) == []    # the Negus left the map
    [f] = run(watch, appear(6), turn=6)
    assert f.check == "lion-of-judah/CB-39" and f.evidence["escaped_turn"] == 6
    assert run(watch, appear(7), turn=7) == []


def test_negus_eliminated_in_combat_never_returns_and_no_roll_needed():
    watch = NegusWatch()
    watch.logged(9, [6])
    run(watch, combat({"Gideon Force", "Negus"}))
    assert watch.due is None and watch.gone_for_good == (9, "eliminated in combat")
    assert run(watch, turn_change()) == []
    [f] = run(watch, appear(9), turn=9)
    assert f.basis is Basis.PROVEN and "eliminated in combat" in f.message


def test_negus_back_without_a_logged_roll_is_possible():
    watch = NegusWatch()
    run(watch, combat({"Gideon Force"}, roll=None))
    assert watch.roll is None
    [f] = run(watch, appear(8), turn=8)
    assert f.basis is Basis.POSSIBLE and "survival roll" in f.evidence["depends_on"][0]


def test_gideon_elsewhere_asks_nothing():
    watch = NegusWatch()
    away = replace(GIDEON, hex="0303")
    pending = OpenCombat(9, "w", AttackDeclaration("0303", ("Sb",), None, None), "italian",
                            state(away, NEGUS, SB), roll=4, phase=Phase("1940-41", 6, "second-combat"),
                            phase_bound=True, removed={"Gideon Force"})
    run(watch, Combat(9, pending, (SB,), (away,), when="w"))
    assert watch.due is None and run(watch, turn_change(NEGUS)) == []


FF_TS = replace(unit("TS", "1910", side="allied", unit_class=None), counter="ff-ts")
FF_BDO = replace(unit("BdO", "1910", side="allied", unit_class=None), counter="ff-bdo")


def test_french_call_to_war_is_possible_before_turn_3_once_france_joined():
    """MV-48 (PB 14.6.6 optional): no Free French unit leaves Djibouti before turn 3."""
    [f] = judge_french_call_to_war(FF_TS, "1810", turn=2, joined=True, step=5, when="w")
    assert f.check == "lion-of-judah/MV-48" and f.basis is Basis.POSSIBLE
    assert f.evidence == {"from": "1910", "to": "1810", "turn": 2,
                          "depends_on": ["whether the optional rule French call to war (PB 14.6.6) is played"]}
    assert judge_french_call_to_war(FF_TS, "1810", turn=3, joined=True, step=5, when="w") == []
    assert judge_french_call_to_war(FF_BDO, "1001", turn=1, joined=True, step=5, when="w") == []
    assert judge_french_call_to_war(FF_BDO, "1810", turn=1, joined=True, step=5, when="w") != []
    # before France joins SC-08 forbids every Free French move: not reported twice
    assert judge_french_call_to_war(FF_TS, "1810", turn=1, joined=None, step=5, when="w") == []
    assert judge_french_call_to_war(FF_TS, "1810", turn=1, joined=Unknown("C1 roll"), step=5, when="w") == []
    move = Move(5, FF_TS, "1810", when="w")
    [g] = allied_action(NegusWatch(), move, phase=Phase("1940-41", 2, "first-movement"), phase_bound=True,
                        joined=True)
    assert g.check == "lion-of-judah/MV-48"


def ipl(box: str):
    return Unit(id="ipl", name="Italian prestige level", side="italian", hex=None, kind="marker",
                counter="it-ipl", box=box, steps=0)


def phase_step(old: str, new: str, box: str, control: dict | None = None, *, turn: int = 6,
               step: int = 20, bound: bool = True) -> PhaseTurned:
    s = state(ipl(box))
    s.control = dict(control or {})
    return PhaseTurned(step, Phase("1940-41", turn, old), Phase("1940-41", turn, new), bound, state=s)


def test_ipl_moving_without_cause_is_possible_sc03():
    """SC-03 (PB 14.6.3.2): within a player phase the IPL moves only when a hex changes control
    or the Negus moves in Ethiopia; the amounts are on the missing player aid card table."""
    board, data = shipped_board(), load_game_data("lion-of-judah")
    watch = PrestigeWatch()
    assert prestige_action(watch, board, data, phase_step("event", "first-movement", "grt-5")) == []
    [f] = prestige_action(watch, board, data, phase_step("first-combat", "second-movement", "grt-7"))
    assert f.check == "lion-of-judah/SC-03" and f.basis is Basis.POSSIBLE
    assert f.evidence["ipl_at_start"] == 5 and f.evidence["ipl_at_end"] == 7
    assert "player aid card" in f.evidence["depends_on"][0]
    # a hex changing hands (control the log's history holds) may move it
    assert prestige_action(watch, board, data, phase_step("second-combat", "end", "grt-6",
                                                          {"1213": "allied"})) == []
    # outside player phases (events) it is not judged; nor without the turn track
    quiet = PrestigeWatch()
    prestige_action(quiet, board, data, phase_step("event", "first-movement", "grt-5", bound=False))
    assert prestige_action(quiet, board, data, phase_step("first-combat", "second-movement", "grt-7",
                                                          bound=False)) == []


def test_negus_first_entry_lowers_the_ipl():
    """PB 14.6.4.4: the Negus's first entry into Ethiopia lowers the IPL by 2."""
    board, data = shipped_board(), load_game_data("lion-of-judah")
    negus_out = replace(NEGUS, hex="1108")
    watch = PrestigeWatch()
    prestige_action(watch, board, data, phase_step("event", "first-movement", "grt-5"))
    prestige_action(watch, board, data, Move(12, negus_out, "1208", when="w"))
    [f] = prestige_action(watch, board, data, phase_step("first-combat", "second-movement", "grt-5"))
    assert f.evidence["negus_first_entry_step"] == 12 and f.basis is Basis.POSSIBLE
    fell = PrestigeWatch()
    prestige_action(fell, board, data, phase_step("event", "first-movement", "grt-5"))
    prestige_action(fell, board, data, Move(12, negus_out, "1208", when="w"))
    assert prestige_action(fell, board, data, phase_step("first-combat", "second-movement", "grt-3")) == []


def test_setup_garrisons_sc09(tmp_path):
    """SC-09 (PB 14.3.2): a brigade or division (not irregulars, not armour) at or next to each
    town, capital and amba of Ethiopia, on the position a log begins with."""
    from vlog.games.lion_of_judah.checks.garrison import judge_garrisons

    from .synthetic import synthetic_board

    board = synthetic_board(tmp_path, features={"1213": ["capital"], "1208": ["amba"], "1405": ["town"]},
                            zones={"ethiopia": ["1213", "1212", "1208", "1108"], "eritrea": ["1405"]})
    division = replace(unit("Sb", "1212"), counter="it-sb")               # next to Addis Ababa
    [f] = judge_garrisons(board, state(division), step=0, when="w")
    assert f.check == "lion-of-judah/SC-09" and f.basis is Basis.PROVEN and "1208" in f.message
    irregular = unit("irr", "1108", unit_class="italian-colonial-irregular", size="brigade")
    tank = replace(unit("CV", "1208", unit_type="armour", unit_class=None, size="brigade"), counter="it-cv")
    assert len(judge_garrisons(board, state(division, irregular, tank), step=0, when="w")) == 1
    brigade = unit("1E", "1108", unit_class="eritrean-colonial-regular", size="brigade")
    assert judge_garrisons(board, state(division, brigade), step=0, when="w") == []
    unsized = unit("PS", "1108", size=None)
    [g] = judge_garrisons(board, state(division, unsized), step=0, when="w")
    assert g.basis is Basis.POSSIBLE and g.evidence["hexes"] == ["1208"]
    # no Italian unit on the map: the log does not show the setup
    assert judge_garrisons(board, state(guerrilla("g", "1213")), step=0, when="w") == []
    # Eritrean towns are not garrisoned by this rule (1405 in Eritrea)
    assert all("1405" not in x.message for x in judge_garrisons(board, state(division), step=0, when="w"))


def test_setup_garrisons_with_unknown_borders_is_one_possible_finding():
    from vlog.games.lion_of_judah.checks.garrison import judge_garrisons

    [f] = [x for x in judge_garrisons(shipped_board(), state(unit("Sb", "1212")), step=0, when="w")
           if x.basis is Basis.POSSIBLE]
    assert "1213" not in f.evidence["hexes"] and "1009" in f.evidence["hexes"]
    assert "map.json zone ethiopia hexes" in f.evidence["depends_on"]


def test_guerrillas_block_no_enemy_supply_path_but_hold_their_source(tmp_path):
    """TS-06 (3.2 IMPORTANT, PB 14.6.4.1): Italian supply traces through and next to guerrilla
    hexes, but not to a source the guerrillas hold alone; other Allied units do block."""
    from vlog.engine.judge import Ruling
    from vlog.games.lion_of_judah.checks.supply import trace

    from .synthetic import synthetic_board

    ring = ("1212", "1312", "1313", "1214", "1113", "1112")          # around Addis Ababa (1213)
    board = synthetic_board(tmp_path, zones={"ethiopia": ["1209", "1210", "1211", "1213", "1311", *ring]})
    sb = unit("Sb", "1210")                                            # three hexes from 1213
    around = state(sb, *(guerrilla(f"g{n}", h) for n, h in enumerate(ring)), scenario="1940-41")
    assert trace(board, around, sb).ruling is Ruling.LEGAL
    held = state(sb, guerrilla("g", "1213"), scenario="1940-41")
    held.control = {"1213": "allied"}
    assert trace(board, held, sb).ruling is Ruling.PROVEN
    kar = unit("KAR1", "1212", side="allied", unit_class=None)
    walled = state(sb, *(replace(kar, id=f"k{n}", hex=h) for n, h in enumerate(ring)), scenario="1940-41")
    assert trace(board, walled, sb).ruling is Ruling.PROVEN


def _cb39_cut(tmp_path, last_line: str):
    """The CB-39 fixture's play cut after `last_line` (the log ends before the turn track moves),
    judged on the synthetic data: its findings and CB-39's status."""
    import vlog
    from converters.log_writer import write_log
    from vlog.games.lion_of_judah.rules import game
    from vlog.replay import replay_log

    from .scripted import script_text
    from .test_end_to_end import FIXTURES, synthetic_data, synthetic_module

    lines = (FIXTURES / "rules" / "CB-39.vscript").read_text(encoding="utf-8").splitlines()
    play = lines[next(i for i, line in enumerate(lines) if line.startswith("as Bob")):]
    cut = play[:next(i for i, line in enumerate(play) if line.startswith(last_line)) + 1]
    tmp_path.mkdir(parents=True, exist_ok=True)
    script, log = tmp_path / "cut.vscript", tmp_path / "cut.vlog"
    script.write_text(script_text("\n".join(cut), "1940-41"), encoding="utf-8")
    write_log(script, log)
    report = replay_log(vlog.read(log), module=synthetic_module(), game=game(synthetic_data()))
    return list(report.findings), report.tally.status("lion-of-judah/CB-39")


def test_a_log_ending_before_the_negus_fate_is_told_says_so(tmp_path):
    """CB-39: the Gideon Force falls with the Negus in its hex and the log ends before the turn
    track moves on: the occasion is not settled, naming what would settle it, never a silent pass."""
    found, status = _cb39_cut(tmp_path / "rolled", "roll 1d6 = 2")     # his survival roll is logged
    assert not [f for f in found if f.check == "lion-of-judah/CB-39"]
    assert len(status.unsettled) == 1
    (only,) = status.unsettled
    assert only.data == (f"the turn track moving on after step {only.step}, when the Negus must be off the map",)
    found, status = _cb39_cut(tmp_path / "unrolled", 'remove "Gideon Force"')   # and before it
    data = " ".join(d for u in status.unsettled for d in u.data)
    assert "survival roll" in data and "turn track moving on" in data
