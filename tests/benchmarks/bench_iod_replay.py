"""Island of Death judged replay speed: its rules on a few thousand steps of scripted play, against
Lion of Judah's on a log of as many steps, both timed in this run.

The Island of Death log is scripted on the synthetic module (fixtures/island-of-death/synthetic,
Introductory start): turn after turn the tracker walks through every phase; in each Axis
movement 3/34 moves one hex and back, in each Allied movement 11LF goes along the road and back.
The Lion of Judah log is bench_judged_replay.py's. The script rolls no surrender dice, so each
turn's Surrender Phase is a VIC-01 finding, and play goes on past the Introductory scenario's 24
turns, which is SEQ-09's one finding. It places no Out of Supply markers and rolls no weather:
each Status Phase the supply of every unit is traced, and the units the set-up as transcribed
leaves without an HQ (the Allies, the Folgore battalion) are SUP-02 findings; each later day's
Initial Segment is an SPR-02 finding. Both are judged in this interpreter, in CPU
seconds; prints steps per second of each and the ratio (Island of Death over Lion of Judah).

    python tests/benchmarks/bench_iod_replay.py [--steps N]
    python -m pytest tests/benchmarks/bench_iod_replay.py -s -o addopts=""
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SYNTHETIC = ROOT / "fixtures" / "island-of-death" / "synthetic"
STEPS = 3_000
PHASES = 13
MOVERS = {"axis-movement": ("3/34", ("1010", "1009")),
          "allied-movement": ("11LF", ("1412", "1512", "1412", "1312"))}


def script(steps: int = STEPS) -> dict:
    """The play script (JSON form, docs/script-format.md) of at least `steps` steps."""
    from vlog.gamedata import load_game_data

    phases = load_game_data("island-of-death").scenario("intro")["phases"].value
    actions: list[dict] = []
    count, index = 0, 0
    while count < steps:
        index = (index + 1) % PHASES
        actions.append({"action": "turn", "turn": "next"})
        count += 1
        mover = MOVERS.get(phases[index])
        if mover is not None:
            actions.append({"action": "move", "unit": mover[0], "along": list(mover[1]),
                            "as": "Alice" if phases[index].startswith("axis") else "Bob"})
            count += len(mover[1])
    return {"format": "vlog-script/1",
            "header": {"game": "island-of-death", "module": str(SYNTHETIC / "island-of-death.vmod"),
                       "start": str(SYNTHETIC / "intro-start.vsav"), "map": "Main Map",
                       "clock": 1704067260000, "key": 42,
                       "players": [{"name": "Alice", "side": "axis"}, {"name": "Bob", "side": "allied"}]},
            "actions": actions}


def run(steps: int = STEPS) -> dict:
    from tests.benchmarks import bench_judged_replay as loj

    with tempfile.TemporaryDirectory() as tmp:
        iod_log, loj_log = Path(tmp) / "iod.vlog", Path(tmp) / "loj.vlog"
        loj.write_script_log(iod_log, script(steps))
        loj.build(loj_log, steps)
        iod = loj.judged("island-of-death", SYNTHETIC / "island-of-death.vmod", iod_log)
        lion = loj.judged("lion-of-judah", loj.SYNTHETIC / "lion-of-judah.vmod", loj_log)
    for name, fig in (("lion-of-judah", lion), ("island-of-death", iod)):
        print(f"{name:16} {fig['steps']} steps {fig['seconds']:8.2f} s CPU "
              f"{fig['steps'] / fig['seconds']:8.0f} steps/s  ({fig['findings']} findings)")
    ratio = (iod["steps"] / iod["seconds"]) / (lion["steps"] / lion["seconds"])
    print(f"island-of-death / lion-of-judah steps per second: {ratio:.2f}")
    return {"iod": iod, "loj": lion, "ratio": ratio}


def test_bench_iod_replay():
    figures = run()
    assert figures["iod"]["steps"] >= STEPS


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=STEPS)
    run(parser.parse_args().steps)
