"""Island of Death judged replay speed: its rules on a few thousand steps of scripted play, this code
against a baseline commit, both timed in this run.

The Island of Death log is scripted on the synthetic module (fixtures/island-of-death/synthetic,
Introductory start): turn after turn the tracker walks through every phase; in each Axis
movement 3/34 moves one hex and back, in each Allied movement 11LF goes along the road and back.
The script rolls no surrender dice, so each
turn's Surrender Phase is a VIC-01 finding, and play goes on past the Introductory scenario's 24
turns, which is SEQ-09's one finding. It places no Out of Supply markers and rolls no weather:
each Status Phase the supply of every unit is traced, and the units the set-up as transcribed
leaves without an HQ (the Allies, the Folgore battalion) are SUP-02 findings; each later day's
Initial Segment is an SPR-02 finding. The log is judged by the code of KIT_BASELINE
(bench_judged_replay.py: a temporary git worktree) and by this checkout, each in a fresh
interpreter, in CPU seconds, `--repeat` times in turn; prints steps per second of each run and
the speed-up, then Lion of Judah's judged replay of as many steps with this code.

    python tests/benchmarks/bench_iod_replay.py [--steps N] [--baseline REV] [--repeat N]
    python -m pytest tests/benchmarks/bench_iod_replay.py -s -o addopts=""
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:           # run as a script: after PYTHONPATH, as bench_judged_replay
    sys.path.append(str(ROOT))

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


def run(steps: int = STEPS, baseline: str | None = None, repeat: int = 1) -> dict:
    from tests.benchmarks.bench_judged_replay import script_against_baseline

    return script_against_baseline("island-of-death", SYNTHETIC / "island-of-death.vmod", script(steps),
                                   baseline, repeat)


def test_bench_iod_replay():
    figures = run()
    assert figures["after"]["steps"] == figures["before"]["steps"] >= STEPS
    assert figures["after"]["checks"] == figures["before"]["checks"]


if __name__ == "__main__":
    from tests.benchmarks.bench_judged_replay import options

    given = options(__doc__, steps=STEPS)
    run(given.steps, given.baseline, given.repeat)
