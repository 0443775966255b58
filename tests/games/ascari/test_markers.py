"""The informational markers (vlog/games/ascari/markers.py, checks/markers.py): which unit a marker
marks, the readings a log leaves open, and a log without marker pieces, judged on the synthetic
overlay (not the published charts)."""
from __future__ import annotations

from pathlib import Path

import vlog
from converters.log_writer import write_log
from tests.games.ascari.cases import MODULE, module, replay, synthetic_data
from vlog.games.ascari.markers import NO_MARKERS, marker_counters
from vlog.games.ascari.rules import Ascari
from vlog.kit.steps import Position
from vlog.replay import replay_log

MARKER_ITEMS = ("SEQ-05", "FIR-03", "STK-04", "MOV-14", "FDR-15", "RIF-03", "MOV-10", "MOV-11")


def _judge(tmp_path: Path, actions: str, scenario: str = "s4", first: str = "italian"):
    """A log of `actions` (script lines, Bob the Ethiopian first) from the scenario's start, judged."""
    script = tmp_path / "log.vscript"
    script.write_text(f"""vlog-script 1
game ascari
module {MODULE}
map "Main Map"
clock 1704067260000
start {MODULE.parent / f"{scenario}-start.vsav"}
player Alice side {first}
player Bob side ethiopian
as Bob
{actions}
""", encoding="utf-8")
    write_log(script, tmp_path / "log.vlog")
    game = Ascari(synthetic_data())
    return replay_log(vlog.read(tmp_path / "log.vlog"), module=module(), game=game)


def test_the_markers_are_counters_but_no_units():
    game = Ascari(synthetic_data())
    assert game.marker_counters == marker_counters(synthetic_data()) == {
        "mk-moved", "mk-combat", "mk-retreat", "mk-fire", "mk-opportunity-fire", "mk-rifle"}
    rep, game = replay("SEQ-05")
    table = rep.state_at(16)            # the Moved marker is on 3 Rifle MA in 2608
    assert [p.name for p in table.game_pieces() if table.location_name(p) == "2608"] == ["3 Rifle MA", "Moved"]
    assert [u.name for u in game.units(Position(table)).values() if u.hex == "2608"] == ["3 Rifle MA"]


def test_a_log_without_marker_pieces_leaves_the_marker_checks_not_judged():
    """clean-s2 places no marker: its clean-ups and fires are occasions, but a module whose markers
    are not bound looks the same, so the marker checks say they were not judged."""
    rep, _ = replay("clean-s2")
    assert not rep.findings
    for short in MARKER_ITEMS:
        status = rep.tally.status(f"ascari/{short}")
        assert status.judgement.value == "not-judged" and status.needs == (NO_MARKERS,), short


def test_the_marker_checks_judge_a_log_with_markers():
    for name in ("SEQ-05", "clean-s4"):
        rep, _ = replay(name)
        for short in ("SEQ-05", "FIR-03", "MOV-14"):
            assert rep.tally.status(f"ascari/{short}").judgement.value == "judged", (name, short)


def test_a_marker_the_unit_found_there_and_a_marker_on_no_unit_are_not_proven(tmp_path):
    """A Retreat marker left in 2412 before 1 Rifle MA entered: its fire there and the clean-up that
    leaves the marker are POSSIBLE, naming the doubt; a Moved marker where no unit stands marks no
    unit: the clean-up is an occasion not settled."""
    rep = _judge(tmp_path, """chat "flag ethiopian"
add Retreat at 2412
add Moved at 2311
add "1 Rifle MA" at 2413
move "1 Rifle MA" along 2412
chat "fire 1 Rifle MA at 2409"
roll 1d6 = 1
as Alice
chat "flag italian"
""")
    found = {f.check.split("/")[1]: f for f in rep.findings}
    assert sorted(found) == ["FIR-03", "SEQ-05"], [f.message for f in rep.findings]
    for finding in found.values():
        assert finding.basis.value == "possible"
        assert "came there after the marker" in finding.evidence["depends_on"][0]
    unsettled = rep.tally.status("ascari/SEQ-05").unsettled
    assert [u.step for u in unsettled] == [found["SEQ-05"].step]
    assert "which unit the Moved marker in 2311 marks (no combat unit stands there)" in unsettled[0].data


def test_markers_of_the_inactive_side_stay_at_the_clean_up(tmp_path):
    """A Retreat marker on an Italian unit is left in place at the Ethiopian clean-up (6.0)."""
    rep = _judge(tmp_path, """chat "flag ethiopian"
add "1 Rifle MA" at 2413
move "1 Rifle MA" along 2412
as Alice
add Retreat at 2409
chat "flag italian"
""")
    assert not rep.findings, [f.message for f in rep.findings]


def test_a_rifle_unit_lost_before_any_marker_is_told_once_the_log_shows_one(tmp_path):
    """FDR-10's log eliminates 1 Rifle MA and shows no marker piece: FDR-15 is not judged there.
    The same elimination in a log that later shows a marker is reported, at its step."""
    rep, _ = replay("FDR-10")
    assert not [f for f in rep.findings if f.check == "ascari/FDR-15"]
    assert rep.tally.status("ascari/FDR-15").needs == (NO_MARKERS,)
    rep = _judge(tmp_path, """chat "flag ethiopian"
add "1 Rifle MA" at 2413
move "1 Rifle MA" along 2412 2411 2410
as Alice
chat "flag italian"
chat "fire 4 IV at 2410"
roll 1d6 = 5
reduce "1 Rifle MA"
chat "fire D Batt battery at 2410"
roll 1d6 = 6
remove "1 Rifle MA"
as Bob
chat "flag ethiopian"
add Moved at 2410
""")
    assert [(f.check, f.step, f.evidence["hex"]) for f in rep.findings] == [("ascari/FDR-15", 12, "2410")]


def test_in_metemma_only_the_unit_taking_up_a_rifle_gets_a_moved_marker(tmp_path):
    """S5.42 and FAQ Metemma: 1 Cav MA stops on an abandoned Rifle marker and gets a Moved marker
    (legal); 1 Rifle MA's Moved marker is reported."""
    rep = _judge(tmp_path, """add Rifle at 3205
chat "flag ethiopian"
move "1 Cav MA" along 3306
move "1 Cav MA" along 3205
add Moved at 3205
move "1 Rifle MA" along 3307
add Moved at 3307
""", scenario="s5", first="dervish")
    assert [(f.check, f.evidence["unit"]) for f in rep.findings] == [("ascari/MOV-11", "1 Rifle MA")]


def test_two_markers_of_a_type_are_told_when_put_not_when_moved_on(tmp_path):
    """1 Rifle MA is given two Moved markers (STK-04 at the second) and then moved with both: the
    stack's move tells nothing new."""
    rep = _judge(tmp_path, """chat "flag ethiopian"
add "1 Rifle MA" at 2413
add Moved at 2413
add Moved at 2413
move "1 Rifle MA" @1704067262002 @1704067263003 along 2412
""")
    assert [(f.check, f.step) for f in rep.findings] == [("ascari/STK-04", 4)]
