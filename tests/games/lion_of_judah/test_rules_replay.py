"""The rules engine driven by the replay on small SYNTHETIC logs built by the tests.

Pieces are named as counters print them (so the empty shipped bindings still find them); a
stand-in module names each point after the hex under it (x // 100, y // 100 -> CCRR), as a
module's grid would. The map is the synthetic clear board of synthetic.py.
"""
from __future__ import annotations

import vlog
from vlog.findings import Basis
from vlog.gamedata import load_game_data
from vlog.games.base import find_game
from vlog.games.lion_of_judah.checks.common import INVENTORY
from vlog.games.lion_of_judah.rules import LionOfJudah
from vlog.replay import replay
from vlog.vassal.commands import Chat, RemovePiece

from tests.checks.logbuild import move, restore, roll, step, unit, write_file

from .synthetic import write_overlay


class GridModule:
    """Stands in for a module: names points by the hex under them; no dice buttons."""

    name = "Test Module"   # the module logbuild.write_file names in the logs
    version = "1.0"

    def location_name(self, map_id, x, y, layout=None):
        return f"{x // 100:02d}{y // 100:02d}"


def at(hex_: str) -> tuple[int, int]:
    return int(hex_[:2]) * 100 + 50, int(hex_[2:]) * 100 + 50


def piece(pid: str, name: str, hex_: str):
    x, y = at(hex_)
    return unit(pid, name, x, y)


def mv(pid: str, frm: str, to: str):
    (ox, oy), (x, y) = at(frm), at(to)
    return move(pid, x, y, ox, oy)


ERITREA = [f"{c:02d}{r:02d}" for c in range(12, 18) for r in range(2, 16)]
ROAD = [f"14{r:02d}" for r in range(5, 15)]


def judge(tmp_path, pieces, steps, **overlay):
    overlay.setdefault("zones", {"eritrea": ERITREA})
    overlay.setdefault("lines", {"test-road": ("road", ROAD)})
    data = load_game_data("lion-of-judah", overlays=[write_overlay(tmp_path / "data", **overlay)])
    path = write_file(tmp_path / "game.vlog", restore(pieces), [step(s) for s in steps])
    report = replay(vlog.read(path), module=GridModule(), game=LionOfJudah(data))
    return [f for log in report.logs for f in log.findings]


def lion(findings):
    return [(f.check.split("/")[1], f.step) for f in findings if f.check.startswith("lion-of-judah/")]


def test_clean_moves_yield_nothing(tmp_path):
    pieces = [piece("sb", "Sb", "1406"), piece("ras", "Ras Kassa", "1314")]
    found = judge(tmp_path, pieces, [[mv("sb", "1406", "1410")]])
    assert lion(found) == []


def test_too_far_is_found_at_its_step(tmp_path):
    pieces = [piece("sb", "Sb", "1406"), piece("ras", "Ras Kassa", "1320")]
    found = judge(tmp_path, pieces, [[Chat("&lt;Alice&gt; - moving")], [mv("sb", "1406", "1412")]])
    [f] = [f for f in found if f.check.startswith("lion-of-judah/")]
    assert f.check == "lion-of-judah/MV-23" and f.step == 2 and f.basis is Basis.PROVEN
    assert f.when == "Turn 1, Italian movement (inferred: the Italian player moving)"
    assert f.subjects == ("Sb",)


def test_forced_march_roll_before_the_move(tmp_path):
    pieces = [piece("sb", "Sb", "1406"), piece("ras", "Ras Kassa", "1320")]
    found = judge(tmp_path, pieces, [roll("1d6", [3]), [mv("sb", "1406", "1411")]])
    assert lion(found) == []


def test_combat_declared_in_chat(tmp_path):
    """Sb attacks a lone levy still on its ?-side (factor unknown: the result is only possible);
    the levy eliminated and Sb advancing is legal; Sb staying put is not (12.12)."""
    pieces = [piece("sb", "Sb", "1504"), piece("lv", "Shoa tribal levy (red stripe)", "1505")]
    declare = Chat("&lt;Alice&gt; - Attack 1505 with Sb; no HQ; air 0/0")
    clean = judge(tmp_path / "a", pieces, [[declare], roll("1d6", [5]), [RemovePiece("lv")],
                                          [mv("sb", "1504", "1505")]])
    assert lion(clean) == [("CB-19", 1)]
    assert [f.basis for f in clean if f.check.endswith("CB-19")] == [Basis.POSSIBLE]
    stays = judge(tmp_path / "b", pieces, [[declare], roll("1d6", [5]), [RemovePiece("lv")]])
    assert ("CB-23", 1) in lion(stays)


def test_the_inventory_says_what_is_judged():
    specs = INVENTORY.specs()
    assert [s.id for s in specs] == [f"lion-of-judah/{i.id}" for i in INVENTORY.items]
    assert len(specs) == 245
    why_not = {i.id: i.why_not() for i in INVENTORY.items}
    assert why_not["TS-12"].startswith("cannot be judged from a log")
    assert why_not["TS-10"].startswith("needs data")
    assert why_not["VC-01"] is None
    game = find_game("lion-of-judah")
    assert game.id == "lion-of-judah" and {c.id for c in game.check_infos()} == {
        f"lion-of-judah/{i}" for i in INVENTORY.implemented()}


def test_advance_is_not_a_new_movement_segment(tmp_path):
    """An advance into the attacked hex belongs to the combat, even when the attackers were not
    named; the Ethiopian's next move is then turn 1's Ethiopian movement."""
    pieces = [piece("sb", "Sb", "1406"), piece("lv", "Shoa tribal levy (red stripe)", "1408"),
              piece("lv2", "Shoa tribal levy (red stripe)", "1810")]
    steps = [[mv("sb", "1406", "1407")], [Chat("&lt;Alice&gt; - Attack 1408")], roll("1d6", [4]),
             [RemovePiece("lv")], [mv("sb", "1407", "1408")], [mv("lv2", "1810", "1811")]]
    data = load_game_data("lion-of-judah", overlays=[write_overlay(
        tmp_path / "data", zones={"eritrea": ERITREA, "ethiopia": [f"18{r:02d}" for r in range(2, 16)]},
        lines={"test-road": ("road", ROAD)})])
    game = LionOfJudah(data)
    path = write_file(tmp_path / "game.vlog", restore(pieces), [step(s) for s in steps])
    report = replay(vlog.read(path), module=GridModule(), game=game)
    assert game.interpreter.phase.when() == "Turn 1, Ethiopian movement (inferred: the Ethiopian player moving)"
    assert [f.message for log in report.logs for f in log.findings if f.check.startswith("lion-of-judah/")] == []


def test_shared_names_pick_the_units_next_to_the_target(tmp_path):
    from vlog.games.lion_of_judah.interpret import AttackDeclaration, Interpreter
    from vlog.kit.combat import OpenCombat

    from .synthetic import state, unit

    near = unit("a", "1504", name="Levy", side="ethiopian")
    far = unit("b", "1510", name="Levy", side="ethiopian")
    only = unit("c", "1520", name="Ras", side="ethiopian")
    target = unit("t", "1505", name="Sb")
    pending = OpenCombat(1, None, AttackDeclaration("1505", ("Levy", "Ras"), None, None), "ethiopian",
                            state(near, far, only, target))
    attackers, defenders = Interpreter(load_game_data("lion-of-judah"))._sides(pending)
    assert [u.id for u in attackers] == ["a", "c"] and [u.id for u in defenders] == ["t"]


def test_losses_read_from_the_table():
    """Steps lost: a lower level, a removal (deleted or sent to a box: all steps), and a
    4-step unit swapped for its 2-step replacement counter in the same hex (2.3.9): 2 steps."""
    from dataclasses import replace as copy

    from vlog.games.lion_of_judah.interpret import AttackDeclaration, Interpreter
    from vlog.kit.combat import OpenCombat

    from .synthetic import state, unit

    sl = unit("sl", "1504", name="SL", steps=4)
    sb = unit("sb", "1504", name="Sb", steps=4)
    lv = unit("lv", "1505", name="Levy", side="ethiopian", steps=1)
    lv2 = unit("lv2", "1505", name="Levy2", side="ethiopian", steps=1)
    before = state(sl, sb, lv, lv2)
    interp = Interpreter(load_game_data("lion-of-judah"))
    interp.pending = OpenCombat(1, None, AttackDeclaration("1505", ("SL", "Sb"), None, None),
                                   "italian", before)
    replacement = unit("sl-r", "1504", name="SL", steps=2)
    after = state(copy(sb, steps=3), copy(lv2, hex=None), replacement)
    interp._record_losses(before, after)
    assert interp.pending.losses == {"sl": 2, "sb": 1, "lv": 1, "lv2": 1}


def test_a_unit_dragged_hex_by_hex_is_judged_from_its_start(tmp_path):
    """VASSAL logs one step per drag: the move is judged from where the unit began the segment,
    and supply only where its movement ends (9.1: it may pass through hexes out of supply)."""
    pieces = [piece("sb", "Sb", "1406"), piece("ras", "Ras Kassa", "1320")]
    hexes = ["1406", "1407", "1408", "1409", "1410", "1411"]
    steps = [[mv("sb", a, b)] for a, b in zip(hexes, hexes[1:])]
    found = judge(tmp_path / "a", pieces, steps)
    assert lion(found) == [("MV-23", 5)]
    out_and_back = [[mv("sb", "1406", "1506")], [mv("sb", "1506", "1606")], [mv("sb", "1606", "1706")],
                    [mv("sb", "1706", "1806")], [mv("sb", "1806", "1706")]]
    road = {"test-road": ("road", ["1405", "1406"])}
    zones = {"eritrea": ERITREA + [f"18{r:02d}" for r in range(2, 16)]}
    found = judge(tmp_path / "b", pieces, out_and_back[:4], lines=road, zones=zones)
    assert lion(found) == [("MV-16", 4)]          # 1806 is 4 hexes from the road
    found = judge(tmp_path / "c", pieces, out_and_back, lines=road, zones=zones)
    # ... but it only passed through 1806 (no MV-16); the drag back into 1706 is its fifth MP
    # along the route the log shows (11.1), legal only if that drag was a correction
    assert lion(found) == [("MV-23", 5)]
    [back] = [f for f in found if f.check.endswith("MV-23")]
    assert back.basis.value == "possible" and back.evidence["logged_cost"] == 4
    assert any("1706" in d and "corrections" in d for d in back.evidence["depends_on"])
