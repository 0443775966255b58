"""Game state through module bindings, and the checks that need the turn track, on SYNTHETIC
logs: a SYNTHETIC bindings overlay names pieces, layers, locations and the turn/phase
properties the way a module would (the real module's bindings are not known yet)."""
from __future__ import annotations

import json

import vlog
from vlog.engine.judge import Unknown
from vlog.gamedata import load_game_data
from vlog.games.lion_of_judah.rules import LionOfJudah
from vlog.games.lion_of_judah.state import build_state
from vlog.replay import replay
from vlog.table import Table
from vlog.vassal.commands import ChangePiece, MutableProperty

from tests.checks.logbuild import move, restore, step, unit, unit_state, write_file

from .synthetic import write_overlay

SRC = "SYNTHETIC bindings for tests"
ERITREA = [f"{c:02d}{r:02d}" for c in range(12, 18) for r in range(2, 16)]
ROAD = [f"14{r:02d}" for r in range(5, 15)]
PHASES = {"MAP": "mutual-administration", "Event": "event", "Italian movement": "first-player-movement",
          "Italian combat": "first-player-combat", "Ethiopian movement": "second-player-movement",
          "Ethiopian combat": "second-player-combat", "End": "end-of-turn"}
"""Module phase names -> the game data's phase names (scenarios.json), as `vlog bind` drafts them."""


def d(value):
    return {"value": value, "source": SRC}


def bindings_overlay(folder):
    write_overlay(folder, zones={"eritrea": ERITREA, "ethiopia": [f"{c:02d}{r:02d}" for c in range(18, 22)
                                                                 for r in range(2, 16)]},
                  lines={"test-road": ("road", ROAD)})
    doc = {"kind": "bindings", "game": "lion-of-judah",
           "module": {"name": d("Lion of Judah (synthetic)"), "version": d("0")},
           "pieces": [{"id": "sabauda", "piece_name": d("Sabauda Div"), "counter": d("it-sb")}],
           "layers": [
               {"id": "sb-steps", "layer_name": d("Step"), "applies_to": d(["it-sb"]),
                "levels": d({"1": "4", "2": "3"})},
               {"id": "hq-sides", "layer_name": d("Step"), "applies_to": d(["it-1ca"]),
                "levels": d({"1": "cs", "2": "m"})},
               {"id": "levy-faces", "layer_name": d("Step"), "applies_to": d(["ethiopian-shoa"]),
                "levels": d({"1": "hidden", "2": "revealed"})}],
           "locations": [{"id": "hexes", "pattern": d(r"Hex (?P<hex>\d{4})")}],
           "turn_track": [
               {"id": "turn", "source_kind": d("property"), "name": d("Turn"),
                "turns": d({str(t): t for t in range(1, 13)})},
               {"id": "phase", "source_kind": d("property"), "name": d("Phase"), "phases": d(PHASES)}]}
    (folder / "bindings.json").write_text(json.dumps(doc))
    return load_game_data("lion-of-judah", overlays=[folder])


class HexModule:
    name, version = "Test Module", "1.0"   # the module logbuild.write_file names in the logs

    def location_name(self, map_id, x, y, layout=None):
        return f"Hex {x // 100:02d}{y // 100:02d}"


def at(hex_):
    return int(hex_[:2]) * 100 + 50, int(hex_[2:]) * 100 + 50


def piece(pid, name, hex_, level=1):
    x, y = at(hex_)
    return unit(pid, name, x, y, level=level)


def mv(pid, frm, to):
    (ox, oy), (x, y) = at(frm), at(to)
    return move(pid, x, y, ox, oy)


def flip(pid, hex_, old, new):
    x, y = at(hex_)
    return ChangePiece(pid, unit_state(x, y, level=new), unit_state(x, y, level=old))


def prop(name, old, new):
    return MutableProperty(name, old, new, "Module")


def run(tmp_path, pieces, steps, props=(("Turn", "1"), ("Phase", "Italian movement"))):
    data = bindings_overlay(tmp_path / "data")
    start = [MutableProperty(n, "", v, "Module") for n, v in props]
    path = write_file(tmp_path / "g.vlog", restore(pieces, *start), [step(s) for s in steps])
    report = replay(vlog.read(path), module=HexModule(), game=LionOfJudah(data))
    return [(f.check.split("/")[1], f.step) for log in report.logs for f in log.findings
            if f.check.startswith("lion-of-judah/")], report


def test_state_through_bindings(tmp_path):
    data = bindings_overlay(tmp_path / "data")
    table = Table(HexModule())
    for cmd in restore([piece("sb", "Sabauda Div", "1405", level=2), piece("lv", "Shoa tribal levy (red stripe)", "1805")]):
        table.apply(cmd)
    state = build_state(table, data)
    sb, lv = state.units["sb"], state.units["lv"]
    assert (sb.counter, sb.hex, sb.level, sb.steps) == ("it-sb", "1405", "3", 3)
    assert isinstance(sb.attack, Unknown)               # the 3-step factors are not in the text
    assert (lv.counter, lv.hex, lv.hidden, lv.movement) == ("et-levy-shoa", "1805", True, 6)


def test_moving_out_of_turn(tmp_path):
    pieces = [piece("sb", "Sabauda Div", "1406"), piece("lv", "Shoa tribal levy (red stripe)", "1808")]
    found, _ = run(tmp_path, pieces, [[mv("lv", "1808", "1809")]])
    assert ("MV-04", 1) in found


def test_flip_outside_combat(tmp_path):
    pieces = [piece("sb", "Sabauda Div", "1406"), piece("lv", "Shoa tribal levy (red stripe)", "1808")]
    found, _ = run(tmp_path, pieces, [[flip("lv", "1808", 1, 2)]])
    assert found == [("FW-02", 1)]


def test_turn_limit_and_hq_reset(tmp_path):
    pieces = [piece("hq", "1CA", "1406"), piece("lv", "Shoa tribal levy (red stripe)", "1808")]
    steps = [[flip("hq", "1406", 1, 2)], [mv("hq", "1406", "1407")],
             [prop("Phase", "Italian movement", "End")], [prop("Turn", "1", "2"), prop("Phase", "End", "MAP")],
             [prop("Turn", "2", "8")]]
    found, _ = run(tmp_path, pieces, steps)
    assert ("TS-11", 4) in found
    assert ("TS-03", 5) in found
    assert [c for c, _ in found if c not in ("TS-11", "TS-03")] == []


def test_sudden_death(tmp_path):
    pieces = [piece("sb", "Sabauda Div", "1408"), piece("lv", "Shoa tribal levy (red stripe)", "1406")]
    steps = [[prop("Phase", "Italian movement", "Ethiopian movement")], [mv("lv", "1406", "1405")],
             [prop("Phase", "Ethiopian movement", "Ethiopian combat")],
             [prop("Phase", "Ethiopian combat", "End")], [prop("Turn", "1", "2"), prop("Phase", "End", "Italian movement")],
             [mv("sb", "1408", "1407")]]
    found, report = run(tmp_path, pieces, steps)
    # PB 13.4.3: the game ends the instant Massawa falls; the turn track moving on is play
    assert [f for f in found if f[0] == "VC-04"] == [("VC-04", 3)]
    [f] = [f for log in report.logs for f in log.findings if f.check.endswith("VC-04")]
    assert f.evidence == {"hex": "1405", "step_of_victory": 2, "action": "phase"}
    assert ("MV-16", 6) in found        # Massawa, captured, supplies no Italian unit any more


def test_sudden_death_then_a_placement(tmp_path):
    """PB 13.4.3 (VC-04): a unit placed on the map after the Ethiopian takes Massawa is play
    after the game ended, though no unit moves; reported once."""
    pieces = [piece("sb", "Sabauda Div", "1408"), piece("lv", "Shoa tribal levy (red stripe)", "1406")]
    x, y = at("1407")
    steps = [[prop("Phase", "Italian movement", "Ethiopian movement")], [mv("lv", "1406", "1405")],
             [unit("sb2", "Sabauda Div", x, y)], [unit("sb3", "Sabauda Div", x + 100, y)]]
    found, report = run(tmp_path, pieces, steps)
    assert [f for f in found if f[0] == "VC-04"] == [("VC-04", 3)]
    [f] = [f for log in report.logs for f in log.findings if f.check.endswith("VC-04")]
    assert f.evidence["action"] == "appear" and f.subjects == ("Sabauda Div",)


def test_reinforcement_in_the_map_phase(tmp_path):
    from vlog.vassal.commands import MovePiece

    off = unit("ps", "PS", 0, 0, map_id=None)
    x, y = at("1408")
    enter = MovePiece("ps", "Main Map", x, y, None, None, 0, 0, None, "pw-Alice-secret")
    pieces = [off, piece("lv", "Shoa tribal levy (red stripe)", "1808")]
    found, report = run(tmp_path, pieces, [[enter]], props=(("Turn", "2"), ("Phase", "MAP")))
    assert found == [("RR-01", 1), ("RR-03", 1)]
    [rr01] = [f for log in report.logs for f in log.findings if f.check.endswith("RR-01")]
    assert rr01.evidence == {"turn": 2, "entry_turn": 5, "hex": "1408"}
    assert rr01.when == "Turn 2, Mutual Administration Phase"


def test_out_of_phase_actions(tmp_path):
    """TS-02: no move in the Event Phase; no attack declared in a movement segment."""
    from vlog.vassal.commands import Chat

    pieces = [piece("sb", "Sabauda Div", "1406"), piece("lv", "Shoa tribal levy (red stripe)", "1808")]
    found, _ = run(tmp_path / "a", pieces, [[mv("sb", "1406", "1407")]],
                   props=(("Turn", "2"), ("Phase", "Event")))
    assert found == [("TS-02", 1)]
    pieces = [piece("sb", "Sabauda Div", "1504"), piece("lv", "Shoa tribal levy (red stripe)", "1505")]
    found, _ = run(tmp_path / "b", pieces, [[Chat("&lt;Alice&gt; - Attack 1505 with Sabauda Div")]])
    assert ("TS-02", 1) in found


def test_stacking_at_the_end_of_a_segment(tmp_path):
    """8.1 (ST-01): stacking is judged on the position that ends the movement segment."""
    pieces = [piece(f"s{i}", "Sb", "1406") for i in range(4)] + [
        piece("s4", "Sb", "1407"), piece("lv", "Shoa tribal levy (red stripe)", "1808")]
    steps = [[mv("s4", "1407", "1406")], [prop("Phase", "Italian movement", "Italian combat")]]
    found, report = run(tmp_path, pieces, steps)
    assert found == [("ST-02", 2)]
    [f] = [f for log in report.logs for f in log.findings if f.check.endswith("ST-02")]
    assert f.when == "Turn 1, Italian movement" and f.evidence["divisions"] == 5 and f.evidence["limit"] == 4


def test_advance_in_a_bound_combat_segment_is_not_movement(tmp_path):
    from vlog.vassal.commands import Chat, RemovePiece

    pieces = [piece("sb", "Sabauda Div", "1504"), piece("lv", "Shoa tribal levy (red stripe)", "1505")]
    steps = [[Chat("&lt;Alice&gt; - Attack 1505 with Sabauda Div")], [RemovePiece("lv")],
             [mv("sb", "1504", "1505")]]
    found, _ = run(tmp_path, pieces, steps, props=(("Turn", "1"), ("Phase", "Italian combat")))
    assert found == []


def test_out_of_supply_at_the_start_of_the_segment(tmp_path):
    """9.2/9.3 (MV-17, SP-13): supply is traced when the movement segment starts; a unit out of
    supply then has half its MF (4 -> 2) and may not force march."""
    pieces = [piece("sb", "Sabauda Div", "2010"), piece("lv", "Shoa tribal levy (red stripe)", "1903")]
    steps = [[prop("Phase", "Event", "Italian movement")], [mv("sb", "2010", "2013")]]
    found, report = run(tmp_path, pieces, steps, props=(("Turn", "2"), ("Phase", "Event")))
    [f] = [f for log in report.logs for f in log.findings if f.check.endswith("MV-03")]
    assert f.step == 2 and f.evidence["allowance"] == 2 and f.evidence["movement_factor"] == 4
    assert "halved" in f.evidence["adjustments"][0]
    assert ("MV-16", 2) in found


def test_1940_ethiopians_are_allied_guerrillas(tmp_path):
    data = bindings_overlay(tmp_path / "data")
    table = Table(HexModule())
    for cmd in restore([piece("lv", "Shoa tribal levy (red stripe)", "1805"), piece("n", "Negus", "1806")]):
        table.apply(cmd)
    s35 = build_state(table, data, scenario="1935-36")
    s40 = build_state(table, data, scenario="1940-41")
    assert (s35.units["lv"].side, s35.units["lv"].unit_class) == ("ethiopian", "ethiopian-shoa")
    assert (s40.units["lv"].side, s40.units["lv"].unit_class) == ("allied", "guerrilla")
    assert s40.units["n"].side == "allied"


def test_negus_needs_the_gideon_force(tmp_path):
    pieces = [piece("n", "Negus", "1703"), piece("kar", "KAR1", "1122")]
    found, _ = run(tmp_path, pieces, [[mv("n", "1703", "1803")]], props=(("Turn", "6"), ("Phase", "Allied movement")))
    assert ("MV-44", 1) in found


def test_italian_sudden_death_1940(tmp_path):
    """PB 14.4.3 (VC-08): once the Allies hold supply sources in only one home country, the game
    is over; a later move is flagged once."""
    pieces = [piece("a", "Sb", "2310"), piece("b", "Sb", "1121"), piece("c", "Sb", "1326"),
              piece("kar", "KAR1", "0505")]
    steps = [[mv("a", "2310", "2311")], [mv("b", "1121", "1122")], [mv("c", "1326", "1327")],
             [mv("kar", "0505", "0506")], [mv("kar", "0506", "0505")]]
    found, report = run(tmp_path, pieces, steps, props=(("Turn", "3"), ("Phase", "Italian movement")))
    assert [f for f in found if f[0] == "VC-08"] == [("VC-08", 4)]
    [f] = [f for log in report.logs for f in log.findings if f.check.endswith("VC-08")]
    assert f.evidence == {"countries_left": "Sudan", "step_of_victory": 3, "action": "move"}


def test_one_air_mission_a_turn(tmp_path):
    """10.1.2 (AR-03): placed from its box twice in one turn, an air marker flew two missions."""
    from vlog.vassal.commands import MovePiece

    x, y = at("1407")
    boxed = unit("air", "III Br", 0, 0, map_id=None)
    fly = MovePiece("air", "Main Map", x, y, None, None, 0, 0, None, "pw-Alice-secret")
    back = MovePiece("air", None, 0, 0, None, "Main Map", x, y, None, "pw-Alice-secret")
    pieces = [boxed, piece("sb", "Sabauda Div", "1405"), piece("lv", "Shoa tribal levy (red stripe)", "1808")]
    found, report = run(tmp_path, pieces, [[fly], [back], [fly]])
    assert [f for f in found if f[0] == "AR-03"] == [("AR-03", 3)]


def test_hidden_units_enter_face_down(tmp_path):
    """FW-04 (PB 13.5.2.2): Ethiopian reinforcements are placed ?-side up."""
    from vlog.vassal.commands import MovePiece

    x, y = at("1810")
    pool = [unit("r1", "Shoa tribal levy (red stripe)", 0, 0, map_id=None),
            unit("r2", "Shoa tribal levy (red stripe)", 0, 0, level=2, map_id=None)]
    place = [MovePiece(pid, "Main Map", x, y, None, None, 0, 0, None, "pw-Alice-secret") for pid in ("r1", "r2")]
    pieces = [*pool, piece("sb", "Sabauda Div", "1405")]
    found, _ = run(tmp_path, pieces, [[place[0]], [place[1]]], props=(("Turn", "2"), ("Phase", "MAP")))
    assert ("FW-04", 2) in found and ("FW-04", 1) not in found


def test_replacement_read_from_a_layer(tmp_path):
    """A step regained (layer 2 -> 1 on the bound Sb counter) is a replacement (7.3.3)."""
    pieces = [piece("sb", "Sabauda Div", "1406", level=2), piece("hq", "1CA", "1407"),
              piece("lv", "Shoa tribal levy (red stripe)", "1808")]
    found, _ = run(tmp_path / "a", pieces, [[flip("sb", "1406", 2, 1)]], props=(("Turn", "2"), ("Phase", "MAP")))
    assert found == []
    found, _ = run(tmp_path / "b", pieces, [[flip("sb", "1406", 2, 1)]])
    assert found == [("RR-14", 1)]


class TrackerModule(HexModule):
    """The stand-in module with a VASSAL turn tracker: Turn (counter) > Phase (list)."""

    def __init__(self):
        from vlog.vassal.module import TurnLevel, TurnTracker

        phase = TurnLevel(kind="list", name="Phase", property="Phase", turn_format=None,
                          items=list(PHASES), first=0)
        turn = TurnLevel(kind="counter", name="Turn", property="Turn", turn_format=None, start=1,
                         incr=1, loop=False, loop_limit=-1, levels=[phase])
        self.turn_trackers = [TurnTracker("Turn Tracker", [turn])]

    def state(self, turn: int, phase: str) -> str:
        from vlog.vassal.turn_tracker import TrackerRun

        run = TrackerRun(self.turn_trackers[0], "TurnTracker0")
        run.set_level(run.find("Turn")[0], str(turn))
        run.set_level(run.find("Phase")[0], phase)
        return run.state()


def test_phase_from_a_vassal_turn_tracker(tmp_path):
    """The turn and phase are read from the turn tracker's state (TURN commands), the way the
    module's tracker levels expose them as properties."""
    from vlog.games.lion_of_judah.sequence import tracker_properties
    from vlog.vassal.commands import TurnState

    module = TrackerModule()
    data = bindings_overlay(tmp_path / "data")
    table = Table(module)
    table.apply(TurnState("TurnTracker0", module.state(3, "Italian combat")))
    assert tracker_properties(table) == {"Turn": "3", "Phase": "Italian combat"}
    shown = tracker_properties(table)                   # read once per state, handed out as a copy
    shown["Turn"] = "99"
    assert tracker_properties(table) == {"Turn": "3", "Phase": "Italian combat"}
    table.apply(TurnState("TurnTracker0", module.state(4, "Event")))
    assert tracker_properties(table) == {"Turn": "4", "Phase": "Event"}
    pieces = [piece("sb", "Sabauda Div", "1406"), piece("lv", "Shoa tribal levy (red stripe)", "1808")]
    steps = [[TurnState("TurnTracker0", module.state(2, "Event"))], [mv("sb", "1406", "1407")]]
    path = write_file(tmp_path / "g.vlog", restore(pieces), [step(s) for s in steps])
    game = LionOfJudah(data)
    report = replay(vlog.read(path), module=module, game=game)
    found = [(f.check.split("/")[1], f.step) for log in report.logs for f in log.findings
             if f.check.startswith("lion-of-judah/")]
    assert found == [("TS-02", 2)]
    assert game.interpreter.phase.when() == "Turn 2, Event Phase"
