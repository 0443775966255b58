"""Judged replay speed of Sideshow: 50 months of legal play, against Lion of Judah's judged replay
measured in the same run (the speed the performance work asks of Lion of Judah).

The Sideshow log is scripted on the synthetic module (fixtures/sideshow/synthetic): every month
the turn tracker walks through the six phases, the weather, initiative and Initial OP rolls are
labelled, each player pays for two Movement Operations (IST from Mombasa five hexes out and
back, Kraut likewise from Arusha) and the German rolls the Auxiliary Random Event. It must judge
with no finding. The Lion of Judah log is tests/benchmarks/bench_judged_replay.py's, of as many
steps. Both are timed in this interpreter, this code, in CPU seconds; prints steps per second of
each and their ratio.

    python tests/benchmarks/bench_sideshow_replay.py
    python -m pytest tests/benchmarks/bench_sideshow_replay.py -s -o addopts=""
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYNTHETIC = ROOT / "fixtures" / "sideshow" / "synthetic"
TURNS = 50


def _move(unit: str, along: list[str]) -> dict:
    return {"action": "move", "unit": unit, "along": along}


def _chat(text: str, who: str) -> dict:
    return {"action": "chat", "text": text, "as": who}


def _roll(button: str, faces: list[int], who: str) -> dict:
    return {"action": "roll", "button": button, "faces": faces, "as": who}


def script(turns: int = TURNS) -> dict:
    """The play script (JSON form, docs/script-format.md) of `turns` months."""
    nxt = {"action": "turn", "turn": "next", "as": "Alice"}
    actions: list[dict] = []
    months = ("Sep", "Oct", "Nov", "Dec", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug")
    for turn in range(turns):
        if turn:
            actions.append(nxt)                                     # reinforcements
        actions.append(nxt)                                         # weather
        if months[turn % 12] == "Mar":
            actions.append(_chat("rain", "Alice"))
        else:
            actions += [_chat("weather", "Alice"), _roll("2d6", [1, 1], "Alice"), _chat("dry", "Alice")]
        actions += [nxt, _chat("initiative", "Alice"), _roll("1d6", [6], "Alice"), _roll("1d6", [1], "Bob"),
                    _chat("segment 2", "Alice"), nxt]                # German 10 against at most 4
        actions += [_chat("ops", "Bob"), _roll("1d6", [3], "Bob"),
                    _chat("op move 3201", "Bob"), _move("IST", ["3202", "3203", "3204", "3205", "3206"]),
                    _chat("op move 3206", "Bob"), _move("IST", ["3205", "3204", "3203", "3202", "3201"]), nxt]
        actions += [_chat("ops", "Alice"), _roll("1d6", [3], "Alice"),
                    _chat("op move 2914", "Alice"), _move("Kraut", ["2913", "2912", "2911", "2910", "2909"]),
                    _chat("op move 2909", "Alice"), _move("Kraut", ["2910", "2911", "2912", "2913", "2914"]), nxt]
        actions += [_chat("event", "Alice"), _roll("2d6", [3, 4], "Alice")]
    return {"format": "vlog-script/1",
            "header": {"game": "sideshow", "module": str(SYNTHETIC / "sideshow.vmod"),
                       "start": str(SYNTHETIC / "campaign-start.vsav"), "map": "Main Map",
                       "clock": 1704067260000, "key": 42,
                       "players": [{"name": "Alice", "side": "german"}, {"name": "Bob", "side": "allied"}]},
            "actions": actions}


def build(path: Path, turns: int = TURNS) -> None:
    from tests.benchmarks.bench_judged_replay import write_script_log

    write_script_log(path, script(turns))


def run(turns: int = TURNS) -> dict:
    sys.path.insert(0, str(ROOT))
    from tests.benchmarks import bench_judged_replay as loj

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "sideshow.vlog"
        build(log, turns)
        sideshow = loj.judged("sideshow", SYNTHETIC / "sideshow.vmod", log)
        other = Path(tmp) / "lion.vlog"
        loj.build(other, sideshow["steps"])
        lion = loj.judged("lion-of-judah", loj.SYNTHETIC / "lion-of-judah.vmod", other)
    for name, fig in (("lion-of-judah", lion), ("sideshow", sideshow)):
        print(f"{name:14} {fig['steps']} steps {fig['seconds']:8.2f} s CPU "
              f"{fig['steps'] / fig['seconds']:8.0f} steps/s  ({fig['findings']} findings)")
    ratio = (sideshow["steps"] / sideshow["seconds"]) / (lion["steps"] / lion["seconds"])
    print(f"sideshow speed / lion-of-judah speed: {ratio:.2f}")
    return {"sideshow": sideshow, "lion": lion, "ratio": ratio}


def test_bench_sideshow_replay():
    figures = run()
    assert figures["sideshow"]["checks"] == []
    assert figures["sideshow"]["steps"] > 2000


if __name__ == "__main__":
    run()
