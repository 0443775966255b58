"""The replay driver: steps as VASSAL counts them, states at any step, game hooks, undo tracking."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

import vlog
from tests.checks.logbuild import (
    MAP, move, restore, roll, stack, step, undo_step, unit, write_file,
)
from tests.conftest import sample_params
from vlog.errors import UnknownGameError
from vlog.findings import Basis, Finding, Severity
from vlog.games.base import CheckSpec, Game, find_game, known_games
from vlog.kit.steps import Event
from vlog.replay import replay, replay_log, table_at, track_undos
from vlog.vassal.commands import ChangePiece, MovePiece, MutableProperty
from vlog.vassal.pieces import split_chain
from vlog.vassal.sequence import split


def top_level_log_tokens(text: str) -> int:
    """BasicLogger writes one top-level `LOG\\t` token per step."""
    return sum(1 for tok in split(text, "\x1b") if tok.startswith("LOG\t"))


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("*/*.vlog"))
def test_samples_steps_counted_as_vassal_counts_them(path):
    log = vlog.read(path)
    report = replay(log)
    assert report.logs[0].steps == len(log.steps) == top_level_log_tokens(log.text) > 0


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("vasl-templates/3d6.vlog"))
def test_sample_3d6_rolls_with_faces(path):
    rep = replay_log(vlog.read(path))
    assert [(r.step, r.dice_name, r.faces, r.total, r.player) for r in rep.rolls] == [
        (1, "IFT DR", (6, 6), 12, "test"), (2, "RS dr", (2,), 2, "test"),
        (3, "3d6", (3, 4, 1), 8, "test"), (4, "IFT DR", (6, 5), 11, "test"),
        (5, "TH DR", (6, 2), 8, "test"), (6, "3d6", (2, 4, 2), 8, "test")]
    assert rep.state_at(2).global_properties.get(("Module", "3d6_result")) is None
    assert rep.state_at(3).global_properties[("Module", "3d6_result")] == "3,4,1"
    assert rep.state_at(6).global_properties[("Module", "3d6_result")] == "2,4,2"


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("*/*.vlog"))
def test_samples_state_after_each_step_matches_its_commands(path):
    """After a step, every moved piece lies where its MovePiece says, every changed piece holds
    the traits its ChangePiece set, every property the value its MutableProperty set."""
    log = vlog.read(path)
    rep = replay_log(log, checkpoint_every=4)
    checked = 0
    for s in log.steps:
        after = rep.state_at(s.index)
        assert after.pieces == table_at(log, s.index).pieces
        for c in s.commands:
            if isinstance(c, MovePiece) and c.new_map is not None:
                assert after.pieces[c.id].point == (c.new_map, c.new_x, c.new_y)
                for kid in after.pieces[c.id].children:
                    assert after.pieces[kid].point == (c.new_map, c.new_x, c.new_y)
                checked += 1
            elif isinstance(c, ChangePiece):
                if c.old_state is None:
                    assert after.pieces[c.id].state == c.new_state
                else:
                    cur, new, old = (split_chain(x) for x in (after.pieces[c.id].state, c.new_state, c.old_state))
                    changed = [i for i in range(len(new)) if new[i] != old[i]]
                    assert changed and all(cur[i] == new[i] for i in changed)
                checked += 1
            elif isinstance(c, MutableProperty):
                assert after.global_properties[(c.container or "Module", c.name)] == (c.new or "")
                checked += 1
    assert rep.final.pieces == rep.state_at(len(log.steps)).pieces
    if any(isinstance(c, (MovePiece, ChangePiece, MutableProperty)) for s in log.steps for c in s.commands):
        assert checked > 0


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("vasl-templates/custom-labels.vlog"))
def test_sample_stack_move(path):
    rep = replay_log(vlog.read(path))
    before, after = rep.state_at(13), rep.state_at(14)
    stack_id = "1599716717151"
    assert before.pieces[stack_id].point == ("Main Map", 165, 118)
    assert after.pieces[stack_id].point == ("Main Map", 168, 115)
    assert after.pieces[stack_id].children == before.pieces[stack_id].children != ()
    for kid in after.pieces[stack_id].children:
        assert after.pieces[kid].point == ("Main Map", 168, 115)


def built(tmp_path, steps):
    pieces = [unit("1", "Inf", 100, 100), unit("2", "Cav", 200, 200),
              stack("s1", 100, 100, "1"), stack("s2", 200, 200, "2")]
    return vlog.read(write_file(tmp_path / "b.vlog", restore(pieces), steps))


def test_state_at_every_step_of_a_built_log(tmp_path):
    moves = [move("1", 100 + 10 * i, 100 + 5 * i, 100 + 10 * (i - 1), 100 + 5 * (i - 1)) for i in range(1, 12)]
    log = built(tmp_path, [step([m]) for m in moves])
    rep = replay_log(log, checkpoint_every=3)
    assert sorted(rep.checkpoints) == [0, 3, 6, 9]
    for i in range(1, 12):
        assert rep.state_at(i).pieces["1"].point == (MAP, 100 + 10 * i, 100 + 5 * i)
    assert rep.state_at(0).pieces["1"].point == (MAP, 100, 100)
    assert rep.final.pieces["1"].point == (MAP, 210, 155)
    with pytest.raises(IndexError):
        rep.state_at(12)
    with pytest.raises(IndexError):
        table_at(log, -1)


def test_undo_tracking_follows_basic_logger(tmp_path):
    a = [move("1", 110, 110, 100, 100)]
    b = [move("2", 210, 210, 200, 200)]
    c = [move("1", 120, 120, 100, 100)]
    log = built(tmp_path, [step(a), step(b), undo_step(b), undo_step(a), step(c), undo_step(c)])
    undos = track_undos(log.steps)
    assert [(u.step, u.target, u.matched, u.located_by) for u in undos] == [
        (3, 2, True, "undo order"), (4, 1, True, "undo order"), (6, 5, True, "undo order")]
    final = replay_log(log).final
    assert final.pieces["1"].point == (MAP, 100, 100)
    assert final.pieces["2"].point == (MAP, 200, 200)


def test_undo_located_by_its_inverse_when_the_order_disagrees(tmp_path):
    a = [move("1", 110, 110, 100, 100)]
    b = [move("2", 210, 210, 200, 200)]
    log = built(tmp_path, [step(a), step(b), undo_step(a)])
    assert [(u.step, u.target, u.matched, u.located_by) for u in track_undos(log.steps)] == [
        (3, 1, True, "inverse commands")]


@dataclass(frozen=True, slots=True)
class Move(Event):
    piece: str
    to: tuple[int, int]


class Recorder(Game):
    """A game that sees each step before it is applied and calls every move illegal."""

    id = "test-game"
    checks = (CheckSpec("test-game/MV-01", "1.1", "moves are illegal"),
              CheckSpec("test-game/XX-02", "9.9", "not written", implemented=False, why_not="no data"))

    def __init__(self):
        self.seen: list[tuple[int, tuple]] = []

    def interpret(self, step, table, ctx):
        out = []
        for c in step.commands:
            if isinstance(c, MovePiece):
                self.seen.append((step.index, table.pieces[c.id].point))
                out.append(Move(step.index, c.id, (c.new_x, c.new_y)))
        return out

    def check(self, action, table, ctx):
        yield Finding("test-game/MV-01", "1.1", Severity.ERROR, Basis.PROVEN, action.step, None,
                      f"illegal move of {action.piece}", (action.piece,),
                      {"to": list(action.to), "rolls": len(ctx.rolls)})


def test_game_hooks_see_the_table_before_the_step_and_illegal_moves_still_apply(tmp_path):
    log = built(tmp_path, [step(roll("2d6", [1, 2])), step([move("1", 150, 150, 100, 100), *roll("2d6", [6, 6])])])
    game = Recorder()
    report = replay(log, game=game)
    assert game.seen == [(2, (MAP, 100, 100))]
    (finding,) = [f for _, f in report.findings() if f.check == "test-game/MV-01"]
    assert finding.step == 2 and dict(finding.evidence) == {"to": [150, 150], "rolls": 1}
    assert report.game == "test-game"
    assert [c.id for c in report.checks][-1] == "test-game/MV-01"
    assert "test-game/XX-02" not in [c.id for c in report.checks]
    assert replay_log(log, game=game).final.pieces["1"].point == (MAP, 150, 150)


class Fragile(Recorder):
    """Calls every move illegal, and fails on the second step's move and at the end."""

    def check(self, action, table, ctx):
        if action.step == 2:
            raise KeyError("not in the data")
        return super().check(action, table, ctx)

    def end(self, table, ctx):
        return [None][1]


def test_a_failing_check_is_a_warning_and_the_replay_goes_on(tmp_path, capsys):
    log = built(tmp_path, [step([move("1", 110, 110, 100, 100)]), step([move("1", 120, 120, 110, 110)]),
                           step([move("1", 130, 130, 120, 120)])])
    rep = replay_log(log, game=Fragile())
    assert [(f.check, f.step) for f in rep.findings] == [
        ("vlog/internal", None), ("test-game/MV-01", 1), ("vlog/internal", 2), ("test-game/MV-01", 3)]
    crash = next(f for f in rep.findings if f.check == "vlog/internal" and f.step == 2)
    assert crash.severity is Severity.WARNING and crash.basis is Basis.UNVERIFIABLE
    assert crash.message.startswith("the test-game check of 'move' failed with KeyError (")
    assert crash.message.endswith("what it judges at step 2 was not judged")
    assert dict(crash.evidence)["exception"] == "KeyError"
    assert dict(crash.evidence)["judging"] == "move" and dict(crash.evidence)["hook"] == "check"
    at_end = rep.findings[0]
    assert "end failed with IndexError" in at_end.message and "the end of the log" in at_end.message
    assert rep.final.pieces["1"].point == (MAP, 130, 130)       # every step applied
    assert capsys.readouterr().err == ""                        # no traceback without debug
    replay_log(log, game=Fragile(), debug=True)
    err = capsys.readouterr().err
    assert err.count("Traceback (most recent call last)") == 2 and "KeyError: 'not in the data'" in err


class Lost(Recorder):
    """Cannot tell where the game stands."""

    def clock(self, table):
        raise ValueError("no turn marker")


def test_a_failing_clock_is_a_warning_and_leaves_the_start_unknown(tmp_path):
    log = built(tmp_path, [step([move("1", 110, 110, 100, 100)])])
    rep = replay_log(log, game=Lost())
    crashes = [f for f in rep.findings if f.check == "vlog/internal"]
    assert sorted((f.step or 0, dict(f.evidence)["hook"]) for f in crashes) == [(0, "clock"), (0, "clock")]
    assert {f.step for f in crashes} == {0, None}              # at the start and at the end
    assert rep.opening is None and rep.closing is None
    assert [f.step for f in rep.findings if f.check == "test-game/MV-01"] == [1]


class Watcher(Game):
    """Records the tables it is handed: the driver's view of each step."""

    id = "test-watch"

    def __init__(self):
        self.views = []

    def interpret(self, step, table, ctx):
        self.views.append((table, ctx.view))
        assert ctx.view.before.table is table and ctx.view.step is step
        return ()

    def end(self, table, ctx):
        self.views.append((table, ctx.view))
        return ()


def test_the_game_is_handed_each_table_once_before_and_after(tmp_path):
    log = built(tmp_path, [step([move("1", 110, 110, 100, 100)]), step(roll("2d6", [3, 4]))])
    game = Watcher()
    rep = replay_log(log, game=game)
    (t1, v1), (t2, v2), (t_end, v_end) = game.views
    assert v1.after is v2.before                    # one position: the after of one step
    assert v1.after.table.pieces["1"].point == (MAP, 110, 110)
    assert t1.pieces["1"].point == (MAP, 100, 100)  # the table before is not changed
    assert [r.total for r in v2.rolls] == [7] and v1.rolls == ()
    assert v_end.is_end and v_end.before is v_end.after is v2.after and t_end is rep.final


def test_find_game_names_the_games_there_are():
    assert set(known_games()) == {"lion-of-judah", "island-of-death", "ascari", "sideshow"}
    with pytest.raises(UnknownGameError, match="unknown game 'chess'.*lion-of-judah"):
        find_game("chess")
    if not known_games()["ascari"]:
        with pytest.raises(UnknownGameError, match="no rules engine for 'ascari'"):
            find_game("ascari")


def test_a_save_replays_as_its_position(tmp_path):
    path = write_file(tmp_path / "s.vsav", restore([unit("1", "Inf", 1, 2)]))
    report = replay(vlog.read(path))
    assert report.logs[0].steps == 0
    assert [f.check for _, f in report.findings()] == []


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("*/*.vlog", "nevsky/*.vsav"))
def test_samples_position_at_a_step_as_a_save(path):
    """table_at(...).to_save() (what `vlog dump --at` shows) restores the same position."""
    from vlog.table import Table

    log = vlog.read(path)
    n = len(log.steps) if isinstance(log, vlog.vassal.savefile.Log) else 0
    table = table_at(log, n // 2)
    again = Table.from_save(table.to_save(log))
    shape = lambda t: {i: (p.point, p.children, p.comparable_state()) for i, p in t.pieces.items()
                       if not (p.kind == "stack" and not p.children)}
    assert shape(again) == shape(table)
    assert again.global_properties == table.global_properties


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("*/*.vlog"))
def test_samples_hold_no_undo(path):
    """The sample logs hold no undo (marked or not): no step is taken for one."""
    assert track_undos(vlog.read(path).steps) == []


def test_dump_at_a_step_shows_the_position_then(tmp_path, capsys, monkeypatch):
    """`vlog dump LOG --at STEP` prints the table after that step (table_at + to_save)."""
    import json

    from vlog.cli import EXIT_OK, EXIT_USAGE, main

    monkeypatch.setenv("NO_COLOR", "1")
    log = built(tmp_path, [step([move("1", 150, 160, 100, 100)]), step([move("1", 170, 180, 150, 160)])])
    points = {}
    for at in (0, 1, 2):
        assert main(["dump", str(log.path), "--at", str(at), "--format", "json"]) == EXIT_OK
        dump = json.loads(capsys.readouterr().out)
        (rec,) = [p for p in dump["pieces"] if p["id"] == "1"]
        points[at] = (rec["x"], rec["y"])
        assert "steps" not in dump or not dump["steps"]
    assert points == {0: (100, 100), 1: (150, 160), 2: (170, 180)}
    assert main(["dump", str(log.path), "--at", "3"]) == EXIT_USAGE


def test_checkpoints_stay_bounded(tmp_path, monkeypatch):
    import vlog.replay as replay_module

    monkeypatch.setattr(replay_module, "MAX_CHECKPOINTS", 4)
    moves = [move("1", 100 + i, 100, 100 + i - 1, 100) for i in range(1, 21)]
    rep = replay_log(built(tmp_path, [step([m]) for m in moves]), checkpoint_every=1)
    assert rep.checkpoint_every == 5 and sorted(rep.checkpoints) == [0, 5, 10, 15, 20]
    assert [rep.state_at(i).pieces["1"].x for i in (7, 20)] == [107, 120]
