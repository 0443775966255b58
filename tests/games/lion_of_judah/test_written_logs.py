"""The rules engine on logs written through the project's own writers: a module and a 1935-36
start written from the game data plus a SYNTHETIC map overlay (synthetic.py), and play scripts
turned into logs. The clean script yields no finding; the broken one exactly its mistakes."""
from __future__ import annotations

import pytest

import vlog
from vlog.gamedata import load_game_data
from vlog.games.lion_of_judah.rules import LionOfJudah
from vlog.replay import replay
from vlog.vassal.module import read_module

from .synthetic import write_overlay

ERITREA = [f"{c:02d}{r:02d}" for c in range(12, 18) for r in range(2, 16) if f"{c:02d}{r:02d}" != "1605"]
ETHIOPIA = [f"{c:02d}{r:02d}" for c in range(18, 22) for r in range(2, 16)] + ["1605"]
"""Made-up borders; 1605, where the KZ battalions defend, is in Ethiopia so they are in supply
(PB 13.6.6.2: Ethiopian units outside Ethiopia need a track, road or rail to be)."""
ROAD = [f"14{r:02d}" for r in range(5, 15)]

HEADER = """vlog-script 1
module loj.vmod
start start.vsav
player Alice side Italian
player Bob side Ethiopian
map "Main Map"
turn set "Turn=Oct 1935" Phase=first-player-movement
"""


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    from converters.setup_writer import write_setup
    from converters.vmod_writer import write_module

    folder = tmp_path_factory.mktemp("loj")
    write_overlay(folder / "data", zones={"eritrea": ERITREA, "ethiopia": ETHIOPIA},
                  lines={"test-road": ("road", ROAD)})
    data = load_game_data("lion-of-judah", overlays=[folder / "data"])
    write_module(data, folder / "loj.vmod", scenario="1935-36")
    write_setup(data, "1935-36", folder / "start.vsav", module=folder / "loj.vmod")
    return folder, data, read_module(folder / "loj.vmod")


def judge_script(written, name, body):
    from converters.log_writer import write_log

    folder, data, module = written
    script = folder / f"{name}.vscript"
    script.write_text(HEADER + body)
    write_log(script, folder / f"{name}.vlog")
    game = LionOfJudah(data)
    report = replay(vlog.read(folder / f"{name}.vlog"), module=module, game=game)
    # the test map's made-up borders put the scenario's set-up hexes in the wrong countries:
    # the set-up areas (SU-*) are not what these scripts test
    return [(f.check.split("/")[1], f.step, f.basis.value) for log in report.logs for f in log.findings
            if f.check.startswith("lion-of-judah/") and not f.check.startswith("lion-of-judah/SU-")], game


def test_clean_script(written):
    found, game = judge_script(written, "clean", """move Sb along 1406
move Sb along 1407 1408 1409
roll 1d6 = 3
move Sb along 1410
""")
    assert found == []
    assert game.scenario == "1935-36" and game.interpreter.phase_bound
    assert game.interpreter.phase.when() == "Turn 1, Italian movement"


def test_broken_script(written):
    found, _ = judge_script(written, "broken", """move Sb along 1406
move Sb along 1407 1408 1409 1410 1411
move GS along 1504
turn set Phase=first-player-combat
chat "Attack 1405 with GS"
roll 1d6 = 5
""")
    # MV-16 too: the start sets the Wollo faction at 1309 (apart from the Beghemder at 1310),
    # and the hexes next to both (1409 to 1411) close the road and the way round to it (9.4)
    assert found == [("MV-23", 7, "proven"), ("MV-16", 7, "proven"), ("CB-01", 10, "proven")]


COMBAT = """add "KZ battalion (Kebur Zabagna, Imperial Guard)" at 1605
add "KZ battalion (Kebur Zabagna, Imperial Guard)" at 1605
move Sb along 1406 1505 1604
turn set Phase=first-player-combat
chat "Attack 1605 with Sb; no HQ; air 0/0"
roll 1d6 = 5
"""


def test_combat_resolved_by_the_book(written):
    """12.11 example cell: 1:1 (Sb 5 against two 1-2-6 KZ battalions, 4) with a 5 is 2/1."""
    found, _ = judge_script(written, "combat-ok", COMBAT + """reduce Sb
reduce Sb
remove @1704067261000
""")
    assert found == []


def test_combat_mis_resolved(written):
    found, _ = judge_script(written, "combat-wrong", COMBAT + """reduce Sb
remove @1704067261000
""")
    assert found == [("CB-19", 8, "proven")]      # the step that declared the attack
