"""Island of Death judged replay speed: its rules on a whole scenario of scripted legal play, this
code against a baseline commit, both timed in this run.

The log is scripted on the synthetic module (fixtures/island-of-death/synthetic) from the
Introductory start, and plays the scenario's 24 turns through every phase the tracker shows. The
Allied player first puts the Malta HQ on the map (the set-up as transcribed places none, as in
fixtures/island-of-death/rules/clean-supply-intro.vscript) and the Axis player marks V/186 Out of
Supply in the first Status Phase (no Folgore HQ is on the map). Each movement phase, 6 Axis and 16
Allied units each drag one hex out and back (a move taken back), then move one or two hexes over
clear, town, woods and road hexes, into and out of stacks; in the next turn they come back, so the
position at each Status Phase differs from the one before and supply is traced again. The weather
is rolled in each day's Initial Segment after the first, the surrender roll in every Surrender
Phase. The engine finds nothing in it (`test_bench_iod_replay` asserts so): every step is one an
honest game could hold.

The log is judged by the code of KIT_BASELINE (bench_judged_replay.py: a temporary git worktree)
and by this checkout, each in a fresh interpreter, in CPU seconds, `--repeat` times in turn;
prints steps per second of each run and the speed-up, then Lion of Judah's judged replay of as
many steps with this code.

    python tests/benchmarks/bench_iod_replay.py [--turns N] [--baseline REV] [--repeat N]
    python -m pytest tests/benchmarks/bench_iod_replay.py -s -o addopts=""
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:           # run as a script: after PYTHONPATH, as bench_judged_replay
    sys.path.append(str(ROOT))

SYNTHETIC = ROOT / "fixtures" / "island-of-death" / "synthetic"
TURNS = 24
"""22.22: the Introductory Scenario's length."""
AXIS = ("1/34", "2/34", "1 SM", "3/34", "1/88", "3/88")
MOVERS = (                              # unit, its set-up hex, where it moves in odd turns
    ("1/34", "1110", ("1009", "0909")),
    ("2/34", "0909", ("0808", "0708")),
    ("1 SM", "1011", ("0911", "0912")),
    ("3/34", "1009", ("0909", "0808")),
    ("1/88", "1011", ("0911", "0912")),
    ("3/88", "0708", ("0707", "0806")),
    ("2RIF", "1408", ("1308", "1207")),
    ("1/R", "1409", ("1309", "1208")),
    ("10K", "1409", ("1309", "1208")),
    ("1H", "1409", ("1309", "1208")),
    ("1DLI", "1413", ("1313", "1212")),
    ("65", "1412", ("1312", "1211")),
    ("4B", "1314", ("1213", "1113")),
    ("D/1C", "1312", ("1211", "1112")),
    ("B/1C", "1312", ("1211", "1112")),
    ("8K", "1315", ("1214", "1114")),
    ("1K", "1309", ("1208", "1108")),
    ("C/1C", "1311", ("1210",)),
    ("A/1C", "1311", ("1210",)),
    ("2RWK", "1311", ("1210",)),
    ("8M", "1311", ("1210",)),
    ("11LF", "1312", ("1211", "1112")),
)


def _moves(side: str, turn: int) -> list[dict]:
    """`side`'s moves in its movement phase of `turn`: out in odd turns, back in even ones, each
    after a drag to its first hex taken back."""
    out = []
    for unit, home, path in MOVERS:
        if (unit in AXIS) != (side == "axis"):
            continue
        origin, along = (home, list(path)) if turn % 2 else (path[-1], [*reversed(path[:-1]), home])
        out.append({"action": "move", "unit": unit, "along": [along[0], origin, *along],
                    "as": "Alice" if side == "axis" else "Bob"})
    return out


def script(turns: int = TURNS) -> dict:
    """The play script (JSON form, docs/script-format.md) of `turns` turns."""
    from vlog.gamedata import load_game_data

    phases = load_game_data("island-of-death").scenario("intro")["phases"].value
    actions: list[dict] = [{"action": "add", "piece": "Malta", "along": ["1612"], "as": "Bob"}]
    for turn in range(1, turns + 1):
        for index, phase in enumerate(phases):
            if (turn, index) != (1, 0):
                actions.append({"action": "turn", "turn": "next"})
            if phase == "initial-segment" and turn % 4 == 1 and turn > 1:          # 17.2: the first day is Clear
                actions += [{"action": "chat", "text": "weather", "as": "Alice"},
                            {"action": "roll", "button": "2d6", "faces": [3, 4], "as": "Alice"}]
            elif phase == "axis-status" and turn == 1:
                actions.append({"action": "add", "piece": "Out of Supply", "along": ["1012"], "as": "Alice"})
            elif phase in ("axis-movement", "allied-movement"):
                actions += _moves(phase.split("-")[0], turn)
            elif phase == "surrender":
                actions.append({"action": "roll", "button": "2d6", "faces": [2 + turn % 5, 1 + turn % 4], "as": "Bob"})
    return {"format": "vlog-script/1",
            "header": {"game": "island-of-death", "module": str(SYNTHETIC / "island-of-death.vmod"),
                       "start": str(SYNTHETIC / "intro-start.vsav"), "map": "Main Map",
                       "clock": 1704067260000, "key": 42,
                       "players": [{"name": "Alice", "side": "axis"}, {"name": "Bob", "side": "allied"}]},
            "actions": actions}


def run(turns: int = TURNS, baseline: str | None = None, repeat: int = 1) -> dict:
    from tests.benchmarks.bench_judged_replay import script_against_baseline

    return script_against_baseline("island-of-death", SYNTHETIC / "island-of-death.vmod", script(turns),
                                   baseline, repeat)


def test_bench_iod_replay():
    figures = run()
    assert figures["after"]["steps"] == figures["before"]["steps"] > 2_000
    assert figures["after"]["checks"] == [] == figures["before"]["checks"]     # legal play: no finding


if __name__ == "__main__":
    from tests.benchmarks.bench_judged_replay import options

    given = options(__doc__, turns=TURNS)
    run(given.turns, given.baseline, given.repeat)
