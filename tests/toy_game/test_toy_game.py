"""Toy Skirmish end to end: a fifth game plugged into vlog the way docs/adding-a-game.md says —
its data validated, its inventory held against its rules document, its fixtures written by the
project's writers, its fixture log judged with exactly the planted finding and legal play around
it, its golden playthrough, the tests every game runs, and the CLI finding it by name."""
from __future__ import annotations

import json
import shutil

import pytest

import tests.toy_game.cases as toy_cases
from converters.inventory import dumps, refresh
from converters.log_writer import write_log
from tests.games import test_every_game as every_game
from tests.toy_game import HERE, installed
from tests.toy_game.build import main as build
from vlog.cli import main as vlog_main
from vlog.gamedata import load_game_data
from vlog.games.base import find_game
from vlog.replay import replay_log
from vlog.vassal.module import read_module
import vlog


@pytest.fixture()
def toy():
    with installed() as entry:
        yield entry


def judged(tmp_path, moves: str) -> list:
    """The findings of a log written from a few script lines on the toy's start position."""
    for name in ("toy-skirmish.vmod", "skirmish-start.vsav"):
        shutil.copy(toy_cases.RULES / name, tmp_path / name)
    header = (toy_cases.RULES / "MV-01.vscript").read_text(encoding="utf-8").split("\n\n")[0]
    (tmp_path / "t.vscript").write_text(header + "\n\n" + moves + "\n", encoding="utf-8")
    write_log(tmp_path / "t.vscript", tmp_path / "t.vlog")
    report = replay_log(vlog.read(tmp_path / "t.vlog"), module=read_module(toy_cases.MODULE), game=find_game("toy"))
    return [(f.check.split("/", 1)[1], f.step, dict(f.evidence)) for f in report.findings]


def test_the_data_loads_and_validates(toy):
    from vlog.gamedata import validate_shipped

    validate_shipped("toy-skirmish")                 # data files and inventory against their schemas
    data = load_game_data("Toy Skirmish")
    assert data.game == "toy-skirmish" and data.scenario_ids == ("skirmish",)
    assert data.lookup("tec", "forest", "movement").value == 2


def test_the_inventory_is_its_rules_document(toy):
    shipped = (HERE / "toy_skirmish" / "data" / "inventory.json").read_text(encoding="utf-8")
    doc, gone = refresh("toy-skirmish", (HERE / "toy_skirmish" / "RULES.md").read_text(encoding="utf-8"),
                        json.loads(shipped))
    assert gone == [] and dumps(doc) == shipped


def test_the_fixtures_are_what_the_writers_make_of_the_data_and_scripts(capsys):
    assert build(["--check"]) == 0, capsys.readouterr().out


def test_exactly_the_planted_finding(toy):
    report = toy_cases.replay("MV-01")
    got = [(f.check, f.step, f.rule, f.basis.value) for f in report.findings]
    assert got == [("toy-skirmish/MV-01", 3, "T1.1", "proven")]
    (check, step, evidence), = toy_cases.EXPECTED["MV-01"]
    assert {k: report.findings[0].evidence[k] for k in evidence} == dict(evidence)


def test_golden_playthrough(toy):
    every_game.assert_golden(toy, "MV-01", toy_cases.playthrough("MV-01"))


def test_the_toy_contributes_what_every_game_does(toy):
    assert every_game.contribution_problems(toy, toy_cases) == []
    notes = every_game.implemented(toy)
    assert sorted(notes) == ["MV-01", "MV-02", "ST-01"]
    assert [c for c in notes if not every_game.has_case(toy, toy_cases, c, notes)] == []
    assert all(every_game.unit_case(toy, toy_cases, c) for c in toy_cases.UNIT_CASES)


def test_mv02_no_unit_enters_a_lake(toy, tmp_path):
    assert judged(tmp_path, 'move "Blue Foot" along 0505\nmove "Blue Foot" along 0405') == [
        ("MV-02", 2, {"hex": "0405", "terrain": "lake"})]


def test_st01_a_third_unit_of_a_side_in_a_hex(toy, tmp_path):
    legal = 'move "Red Foot" along 0203\nmove "Red Guard" along 0203'          # two is the limit
    assert judged(tmp_path, legal) == []
    assert judged(tmp_path, legal + '\nmove "Red Horse" along 0203') == [
        ("ST-01", 3, {"hex": "0203", "units": 3, "limit": 2})]


def test_forest_costs_two(toy, tmp_path):
    """Red Foot (3) from 0202 reaches the forest 0402 over the clear 0301 (1 + 2), but the forest
    0304 beyond the forest 0303 costs 4 whichever way."""
    assert judged(tmp_path, 'move "Red Foot" along 0402') == []
    assert judged(tmp_path, 'move "Red Foot" along 0304') == [
        ("MV-01", 1, {"from": "0202", "to": "0304", "movement_factor": 3})]


def test_the_cli_judges_the_toy_by_name(toy, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    code = vlog_main(["check", str(toy_cases.RULES / "MV-01.vlog"), "--game", "toy",
                      "--module", str(toy_cases.MODULE)])
    out = capsys.readouterr().out
    assert code != 0 and "toy-skirmish/MV-01" in out
    assert vlog_main(["games"]) == 0
    listing = capsys.readouterr().out
    assert "toy-skirmish — Toy Skirmish (SYNTHETIC test game): rules engine, 3 of 5 checks implemented" in listing
    assert "SQ-01  T3.1" in listing and "not yet built" in listing


def test_the_replay_counts_each_checks_occasions_from_the_inventory(toy):
    """The inventory names a move as the occasion of MV-01, MV-02 and ST-01: four moves, four
    steps judged; MV-01's finding at step 3 is one of them."""
    from vlog.replay import statuses

    rep = replay_log(vlog.read(toy_cases.RULES / "MV-01.vlog"), module=read_module(toy_cases.MODULE),
                     game=find_game("toy"))
    game = find_game("toy")
    got = {s.check: (s.judgement.value, s.judged) for s in statuses(rep, game.check_infos())
           if s.check.startswith("toy-skirmish/")}
    assert got == {"toy-skirmish/MV-01": ("judged", 4), "toy-skirmish/MV-02": ("judged", 4),
                   "toy-skirmish/ST-01": ("judged", 4)}
