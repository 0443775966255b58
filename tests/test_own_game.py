"""Logs judged together: one that starts at its scenario's opening after the log before played
past it is the first log of a game of its own (vlog/judging.py), and only such a log."""
from __future__ import annotations

import glob
import json
from pathlib import Path

import pytest

from vlog.cli import main
from vlog.games.base import Clock
from vlog.judging import _own_game

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def clock(turn: int, order: int, *, scenario: str = "intro", opening: bool = False) -> Clock:
    return Clock(scenario, turn, order, opening, f"Turn {turn}, phase {order}")


def test_only_a_start_at_the_opening_after_play_past_it_is_a_game_of_its_own():
    opening = clock(1, 0, opening=True)
    assert _own_game(opening, clock(3, 2), "a.vlog") == (
        "a game of its own: it starts at the opening of scenario intro (Turn 1, phase 0), and a.vlog "
        "ended later (Turn 3, phase 2): its start is not compared with that file's end")
    assert _own_game(opening, clock(1, 1), "a.vlog") is not None
    assert "(Turn 1, phase 0 of scenario hercules)" in _own_game(opening, clock(1, 0, scenario="hercules"), "a.vlog")
    # the previous log never left the opening (a set-up log, the tracker not moved on): compared
    assert _own_game(opening, clock(1, 0, opening=True), "a.vlog") is None
    # a start later than the opening, however early, continues or breaks the game: compared
    assert _own_game(clock(1, 1), clock(3, 2), "a.vlog") is None
    # the engine cannot tell where either stands: compared
    assert _own_game(None, clock(3, 2), "a.vlog") is None
    assert _own_game(opening, None, "a.vlog") is None


def judged(capsys, game: str, *logs: str) -> tuple[int, dict]:
    code = main(["check", *logs, "--game", game, "--format", "json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def continuity_of(log: dict) -> tuple[str, int]:
    status = next(c for c in log["checks"] if c["id"] == "vlog/continuity")
    return status["status"], sum(f["check"] == "vlog/continuity" for f in log["findings"])


@pytest.mark.parametrize("game", ["sideshow", "island-of-death", "lion-of-judah", "ascari"])
def test_the_clean_logs_of_a_game_judged_together_give_no_finding(capsys, game):
    """`vlog check fixtures/<game>/rules/clean-*.vlog --game <game>`: each log starts a game of
    its own at a scenario's opening, the first is compared with nothing."""
    logs = sorted(glob.glob(str(FIXTURES / game / "rules" / "clean-*.vlog")))
    code, data = judged(capsys, game, *logs)
    assert [(log["path"], log["findings"]) for log in data["logs"]] == [(log["path"], []) for log in data["logs"]]
    assert code == 0
    assert [continuity_of(log) for log in data["logs"]] == [("judged", 0)] + [("nothing-to-judge", 0)] * (len(logs) - 1)


def test_an_ascari_battle_before_its_first_phase_is_at_the_opening(capsys):
    """Ascari's tracker shows no side: before play has shown a phase, a start is the opening when
    each unit stands on its set-up hex (S4) or no unit is on the map yet (S1, set up by areas)."""
    rules = FIXTURES / "ascari" / "rules"
    for first, second in (("clean-s4-open-melee", "clean-s4"), ("clean-s1-open-fire", "clean-s1-revolt")):
        code, data = judged(capsys, "ascari", str(rules / f"{first}.vlog"), str(rules / f"{second}.vlog"))
        assert code == 0 and continuity_of(data["logs"][1]) == ("nothing-to-judge", 0)
        reason = next(c["reason"] for c in data["logs"][1]["checks"] if c["id"] == "vlog/continuity")
        assert "it starts at the opening of scenario s" in reason and "(the set-up, before turn 1), and " in reason


def test_without_the_game_every_start_is_compared(capsys):
    rules = FIXTURES / "sideshow" / "rules"
    code = main(["check", str(rules / "clean-opening.vlog"), str(rules / "clean-event.vlog"), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and continuity_of(data["logs"][1])[1] > 0
