"""`vlog check LOG --game G` without --module: the module is found beside the log by its name and
version, and a module built by vlog brings the game data it was built from, so the short form
judges a fixture log exactly as the long form with --module and --data does."""
from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from vlog.cli import EXIT_FINDINGS, main
from vlog.module_search import find_module
from vlog.vassal.module import read_module

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "lion-of-judah"
SYNTHETIC_MODULE = FIXTURES / "synthetic" / "lion-of-judah.vmod"
PLAIN_MODULE = FIXTURES / "lion-of-judah.vmod"
SYNTHETIC_DATA = FIXTURES / "synthetic-data"
RULE_LOGS = ("CB-19", "MV-03", "MV-16", "ST-02", "clean-1935-36")
"""A mis-resolved combat, an illegal move, a supply mistake, stacking, and a legal log."""


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    monkeypatch.setenv("VLOG_NO_PROGRESS", "1")


def _findings(args: list[str], capsys) -> tuple[list[tuple], str]:
    main(["check", *args, "--format", "json"])
    out = capsys.readouterr()
    report = json.loads(out.out)
    found = [(f["check"], f["step"], f["message"], json.dumps(f["evidence"], sort_keys=True))
             for log in report["logs"] for f in log["findings"]]
    return found, out.err


@pytest.mark.parametrize("name", RULE_LOGS)
def test_short_form_judges_as_the_long_form(name, capsys):
    log = str(FIXTURES / "rules" / f"{name}.vlog")
    short, err = _findings([log, "--game", "lion-of-judah"], capsys)
    long, _ = _findings([log, "--game", "lion-of-judah", "--module", str(SYNTHETIC_MODULE),
                         "--data", str(SYNTHETIC_DATA)], capsys)
    assert short == long
    assert (name == "clean-1935-36") == (short == [])
    assert f"using module {SYNTHETIC_MODULE.relative_to(ROOT)}" in err or f"using module {SYNTHETIC_MODULE}" in err


def test_short_form_reports_the_planted_combat_mistake(capsys):
    code = main(["check", str(FIXTURES / "rules" / "CB-19.vlog"), "--game", "lion-of-judah"])
    out = capsys.readouterr().out
    assert code == EXIT_FINDINGS
    assert "lion-of-judah/CB-19" in out and "1 finding" in out


def test_built_module_carries_its_overlays_and_says_so_in_its_name():
    synthetic, plain = read_module(SYNTHETIC_MODULE), read_module(PLAIN_MODULE)
    assert synthetic.name.endswith("(vlog + synthetic-data)") and plain.name.endswith("(vlog)")
    assert plain.game_data == []
    carried = {shown.rsplit("/", 1)[-1]: data for shown, data in synthetic.game_data}
    assert sorted(carried) == [f"{n:02d}-{p.name}" for n, p in
                               enumerate(sorted(SYNTHETIC_DATA.glob("*.json")), start=1)]
    for n, p in enumerate(sorted(SYNTHETIC_DATA.glob("*.json")), start=1):
        assert carried[f"{n:02d}-{p.name}"] == p.read_bytes()


def test_search_prefers_the_nearest_level_and_refuses_a_tie(tmp_path):
    log = tmp_path / "games" / "pbem" / "turn3.vlog"
    log.parent.mkdir(parents=True)
    log.write_bytes(b"")
    name = read_module(PLAIN_MODULE).name
    far = tmp_path / "modules" / "loj.vmod"
    far.parent.mkdir()
    shutil.copyfile(PLAIN_MODULE, far)
    assert find_module(log, name, "1.0").found == far               # grandparent's subfolder
    assert find_module(log, name, "2.0").found is None              # another version is not it
    assert find_module(log, "Another game", "1.0").found is None
    near = log.parent / "loj.vmod"
    shutil.copyfile(PLAIN_MODULE, near)
    assert find_module(log, name, "1.0").found == near              # the log's own folder first
    twin = log.parent / "copy" / "loj.vmod"
    twin.parent.mkdir()
    shutil.copyfile(PLAIN_MODULE, twin)
    tie = find_module(log, name, "1.0")
    assert tie.found is None and set(tie.ambiguous) == {near, twin}


def test_unreadable_candidates_are_skipped(tmp_path):
    log = tmp_path / "turn.vlog"
    log.write_bytes(b"")
    (tmp_path / "broken.vmod").write_bytes(b"PK\x03\x04 not really a zip")
    (tmp_path / "folder.vmod").mkdir()
    assert find_module(log, "Anything", "1.0").found is None


def test_carried_data_that_is_not_for_the_game_is_a_clear_error(tmp_path, capsys):
    log = tmp_path / "CB-19.vlog"
    shutil.copyfile(FIXTURES / "rules" / "CB-19.vlog", log)
    with zipfile.ZipFile(SYNTHETIC_MODULE) as src, zipfile.ZipFile(tmp_path / "loj.vmod", "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.startswith("vlog-data/"):
                data = json.dumps({**json.loads(data), "game": "ascari"}).encode()
            dst.writestr(info, data)
    code = main(["check", str(log), "--game", "lion-of-judah"])
    err = capsys.readouterr().err
    assert code == 3
    assert "loj.vmod:vlog-data/01-bindings.json" in err and "not 'lion-of-judah'" in err
