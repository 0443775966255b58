"""Grouping logs into games: continuity chains, modules and players kept apart, saves as starts,
forks and loops, and the manifest and --game-of that fix it. Headers are built here (synthetic)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from vlog.batch.collect import LogHeader, find_files
from vlog.batch.grouping import compile_pattern, group, read_manifest
from vlog.errors import BatchError


def h(path: str, start: str, end: str, module: str = "M", ids: tuple[str, ...] = ("a", "b"), steps: int = 3):
    return LogHeader(path=path, module_name=module, player_ids=ids, players=("Alice", "Bob"), steps=steps,
                     start=start, end=end)


def names(games):
    return [[log.path for log in g.logs] for g in games]


def test_a_log_whose_start_is_another_s_end_follows_it_in_any_path_order():
    games = group([h("c.vlog", "s2", "s3"), h("a.vlog", "s0", "s1"), h("b.vlog", "s1", "s2")])
    assert names(games) == [["a.vlog", "b.vlog", "c.vlog"]]
    assert games[0].reasons[0].startswith("first: no other file")
    assert games[0].reasons[1] == "follows a.vlog: its start is that file's end"


def test_independent_logs_of_one_module_and_players_are_separate_games():
    games = group([h("x/t1.vlog", "s0", "s1"), h("y/t1.vlog", "s0", "s5")])
    assert names(games) == [["x/t1.vlog"], ["y/t1.vlog"]]


def test_other_module_or_strangers_do_not_continue_a_log():
    games = group([h("a.vlog", "s0", "s1"), h("b.vlog", "s1", "s2", module="Other"),
                   h("c.vlog", "s1", "s2", ids=("c", "d"))])
    assert names(games) == [["a.vlog"], ["b.vlog"], ["c.vlog"]]
    # a log naming no player continues any (VASL logs often carry no PLAYER entry)
    assert names(group([h("a.vlog", "s0", "s1"), h("b.vlog", "s1", "s2", ids=())])) == [["a.vlog", "b.vlog"]]


def test_two_logs_starting_at_one_end_the_second_starts_a_game_and_says_why():
    games = group([h("a.vlog", "s0", "s1"), h("b.vlog", "s1", "s2"), h("b2.vlog", "s1", "s9")])
    assert names(games) == [["a.vlog", "b.vlog"], ["b2.vlog"]]
    assert "also the end of a.vlog, which b.vlog follows" in games[1].reasons[0]


def test_logs_that_change_nothing_do_not_loop():
    games = group([h("a.vlog", "s0", "s0"), h("b.vlog", "s0", "s0")])
    assert names(games) == [["a.vlog", "b.vlog"]]


def test_a_save_is_where_a_game_starts():
    games = group([h("game/t1.vlog", "s0", "s1"), h("game/start.vsav", "s0", "s0", steps=0)])
    assert names(games) == [["game/start.vsav", "game/t1.vlog"]]


def test_game_of_groups_by_the_pattern_and_orders_by_continuity():
    headers = [h("r1/alice-bob/t2.vlog", "s1", "s2"), h("r1/alice-bob/t1.vlog", "s0", "s1"),
               h("r1/carol-dan/t1.vlog", "s0", "s7"), h("r1/carol-dan/t2.vlog", "x", "y")]
    games = group(headers, pattern=compile_pattern(r"r1/([^/]+)/"))
    assert [g.name for g in games] == ["alice-bob", "carol-dan"]
    assert names(games)[0] == ["r1/alice-bob/t1.vlog", "r1/alice-bob/t2.vlog"]
    assert games[1].reasons[1].startswith("--game-of matched 'carol-dan'; first")
    with pytest.raises(BatchError, match="--game-of.*not a regular expression"):
        compile_pattern("r1/(")


def test_manifest_groups_and_names_games(tmp_path: Path):
    for name in ("a.vlog", "b.vlog", "c.vlog"):
        (tmp_path / name).write_bytes(b"")
    manifest = tmp_path / "games.json"
    manifest.write_text(json.dumps({"games": [{"name": "Final", "logs": ["c.vlog", "a*.vlog"], "game": "ascari"}]}))
    known = [str(tmp_path / n) for n in ("a.vlog", "b.vlog", "c.vlog")]
    entries = read_manifest(manifest, known)
    assert entries[0].paths == (known[2], known[0]) and entries[0].game == "ascari"
    headers = [h(known[0], "s0", "s1"), h(known[1], "s1", "s2"), h(known[2], "q", "r")]
    games = group(headers, manifest=entries)
    assert {g.name: [l.path for l in g.logs] for g in games} == {"Final": [known[2], known[0]], "b.vlog": [known[1]]}
    final = next(g for g in games if g.name == "Final")
    assert final.game == "ascari" and final.reasons[0].startswith("manifest game 'Final'; first")


@pytest.mark.parametrize("text, message", [
    ("{", r"line 1 column 2: not JSON"),
    ('{"games": [{"name": "x"}]}', r"\$\.games\[0\]: not a batch manifest: 'logs' is a required property"),
    ('{"games": [{"name": "x", "logs": ["nothing-here.vlog"]}]}', r"\$\.games\[0\]\.logs: 'nothing-here.vlog' names no file"),
])
def test_bad_manifests_name_the_file_and_place(tmp_path: Path, text: str, message: str):
    manifest = tmp_path / "m.json"
    manifest.write_text(text)
    with pytest.raises(BatchError, match=message) as info:
        read_manifest(manifest, [])
    assert str(manifest) in str(info.value)


def test_folders_are_searched_for_logs_and_globs_for_anything(tmp_path: Path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    for name in ("a/t1.vlog", "a/b/t2.vlog", "a/start.vsav", "a/notes.txt"):
        (tmp_path / name).write_bytes(b"")
    found, missing = find_files([str(tmp_path / "a"), str(tmp_path / "a" / "*.vsav"), str(tmp_path / "zz*.vlog"),
                                 str(tmp_path / "nope")])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["a/t1.vlog", "a/b/t2.vlog", "a/start.vsav"]
    assert [why for _, why in missing] == ["the pattern matches no file", "no such file or folder"]
