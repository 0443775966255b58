"""`vlog convert` for modules, game data and scripts: module -> JSON (from every form a module
comes in), game data -> .vmod and .vsav, script -> .vlog -> .vsav at step N; exact exit codes,
output never over an input, nothing left behind by a failed conversion."""
from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path

import jsonschema
import pytest

from conftest import ROOT, sample_params
from converters.module_json import module_to_json
from converters.setup_writer import build_setup_save
from converters.vmod_writer import build_module
from tests.cli.conftest import convert
from vlog.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE, main
from vlog.gamedata import load_game_data
from vlog.replay import table_at
from vlog.table import Table
from vlog.vassal.module import read_module
from vlog.vassal.savefile import read, read_log

GAME = "lion-of-judah"
SCENARIO = "1935-36"
MODULE_SCHEMA = json.loads((ROOT / "schemas" / "module.schema.json").read_text(encoding="utf-8"))


def zip_members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


@pytest.fixture(scope="module")
def vmod(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("module") / "lion.vmod"
    assert main(["convert", "--game", GAME, str(path)]) == EXIT_OK
    return path


def test_help_lists_every_pair_with_an_example(capsys):
    assert main(["convert", "--help"]) == EXIT_OK
    text = capsys.readouterr().out
    for pair in (".vsav/.vlog -> .json", ".json -> .vsav/.vlog", ".vlog -> .vsav --step N", "module -> .json",
                 ".vscript -> .vlog", "--game G -> .vmod", "--game G --scenario S -> .vsav"):
        assert pair in text
    for example in ("vlog convert turn3.vlog turn3.json", "vlog convert turn3.json turn3-edited.vlog",
                    "vlog convert game.vlog turn3.vsav --step 42", "vlog convert opening.vscript opening.vlog",
                    "vlog convert lion.vmod module.json", "vlog convert --game lion-of-judah lion.vmod",
                    "vlog convert --game lion-of-judah --scenario 1935-36 --module lion.vmod start.vsav"):
        assert example in text


def test_game_data_to_module_prints_its_notes(tmp_path, capsys):
    out = tmp_path / "g.vmod"
    err = convert(capsys, "--game", GAME, str(out))
    build = build_module(load_game_data(GAME))
    assert err.splitlines() == [f"vlog: note: {n}" for n in build.notes]
    assert zip_members(out) == dict(build.members)
    assert read_module(out).name == build.name


def test_game_data_to_module_for_a_scenario_with_overlays(tmp_path, capsys):
    overlay = tmp_path / "data"
    overlay.mkdir()  # an empty overlay folder changes nothing
    out = tmp_path / "g.vmod"
    convert(capsys, "--game", GAME, "--scenario", SCENARIO, "--data", str(overlay), str(out))
    assert zip_members(out) == dict(build_module(load_game_data(GAME), scenario=SCENARIO).members)


def test_game_data_to_starting_save(vmod, tmp_path, capsys):
    out = tmp_path / "start.vsav"
    err = convert(capsys, "--game", GAME, "--scenario", SCENARIO, "--module", str(vmod), str(out))
    assert err.startswith("vlog: note: ")  # the placements the data leaves open
    expected = build_setup_save(GAME, SCENARIO, module=vmod)
    written = read(out)
    assert written.text == expected.text and (written.dialect, written.key) == (expected.dialect, 0x5A)
    keyed = tmp_path / "keyed.vsav"
    convert(capsys, "--game", GAME, "--scenario", SCENARIO, "--key", "7", str(keyed))
    assert read(keyed).key == 7 and read(keyed).text == build_setup_save(GAME, SCENARIO, key=7).text


@pytest.mark.parametrize("form", ["vmod", "vmdx", "folder", "buildFile.xml", "buildFile"])
def test_module_to_json_from_every_form(vmod, tmp_path, capsys, form):
    if form == "vmod":
        source = vmod
    elif form == "vmdx":
        source = tmp_path / "lion.vmdx"
        shutil.copyfile(vmod, source)
    else:
        folder = tmp_path / "unpacked"
        with zipfile.ZipFile(vmod) as zf:
            zf.extractall(folder)
        source = folder
        if form != "folder":
            source = tmp_path / form
            shutil.copyfile(folder / "buildFile.xml", source)
    out = tmp_path / "module.json"
    convert(capsys, str(source), str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(doc, MODULE_SCHEMA)
    assert doc == json.loads(json.dumps(module_to_json(read_module(source)), ensure_ascii=False))
    reference = module_to_json(read_module(vmod))
    assert [s["text"] for s in doc["pieceSlots"]] == [s["text"] for s in reference["pieceSlots"]]
    assert [m["mapName"] for m in doc["maps"]] == [m["mapName"] for m in reference["maps"]]


def test_script_to_log_and_step_saves(vmod, tmp_path, capsys):
    shutil.copyfile(vmod, tmp_path / "lion.vmod")
    convert(capsys, "--game", GAME, "--scenario", SCENARIO, "--module", str(tmp_path / "lion.vmod"),
            str(tmp_path / "start.vsav"))
    script = tmp_path / "demo.vscript"
    script.write_text(
        "vlog-script 1\nmodule lion.vmod\nstart start.vsav\nmap \"Main Map\"\nclock 1704067260000\n"
        "player Bob side ethiopian\n"
        "move \"Shoa tribal levy (red stripe)\" along 1212 1211\nroll 1d6 = 4\nundo\nchat done\n",
        encoding="utf-8")
    log_path = tmp_path / "demo.vlog"
    assert convert(capsys, str(script), str(log_path)) == ""
    log = read_log(log_path)
    module = read_module(tmp_path / "lion.vmod")
    assert len(log.steps) == 5
    for n in range(len(log.steps) + 1):
        out = tmp_path / f"step{n}.vsav"
        convert(capsys, str(log_path), str(out), "--step", str(n))
        saved = Table.from_save(read(out), module)
        replayed = table_at(log, n, module)
        assert {p.id: (p.map, p.x, p.y, p.comparable_state()) for p in saved.game_pieces()} == \
            {p.id: (p.map, p.x, p.y, p.comparable_state()) for p in replayed.game_pieces()}
        assert saved.turns == replayed.turns


@pytest.mark.parametrize("argv, message", [
    (["--game", GAME, "a.vmod", "b.vmod"], "with --game, give only OUTPUT"),
    (["--game", GAME, "out.json"], "--game builds a .vmod or a .vsav"),
    (["--game", GAME, "out.vsav"], "needs --scenario"),
    (["--game", GAME, "--key", "3", "out.vmod"], "apply to a .vsav"),
    (["--game", GAME, "--scenario", SCENARIO, "--dialect", "xz", "out.vsav"], "--dialect does not apply"),
    (["--scenario", SCENARIO, "a.vlog", "b.vsav"], "--scenario applies only with --game"),
    (["--module", "m.vmod", "a.vlog", "b.vsav"], "--module applies only with --game"),
    (["only.vmod"], "give INPUT and OUTPUT"),
    (["m.vmod", "out.vlog"], "cannot convert m.vmod to out.vlog"),
    (["m.vmod", "out.txt"], "cannot convert"),
    (["s.vscript", "out.vsav"], "a script converts to a .vlog"),
])
def test_usage_errors_exit_2_and_write_nothing(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.vmod").write_bytes(b"not read")
    err = convert(capsys, *argv, expect=EXIT_USAGE)
    assert message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.vmod"]


@pytest.mark.parametrize("argv, message", [
    (["--game", "no-such-game", "out.vmod"], "no game data for 'no-such-game'"),
    (["--game", GAME, "--scenario", "no-such", "out.vmod"], "no scenario 'no-such'"),
    (["--game", GAME, "--scenario", "no-such", "out.vsav"], "no scenario 'no-such'"),
    (["--game", GAME, "--scenario", SCENARIO, "--module", "missing.vmod", "out.vsav"], "missing.vmod: no such file"),
    (["--game", GAME, "--scenario", SCENARIO, "--module", "broken.vmod", "out.vsav"], "broken.vmod"),
    (["broken.vmod", "out.json"], "broken.vmod"),
    (["missing.vmod", "out.json"], "missing.vmod: no such file"),
])
def test_bad_input_exits_3_and_leaves_no_file(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.vmod").write_bytes(b"PK\x03\x04 truncated")
    err = convert(capsys, *argv, expect=EXIT_INPUT)
    assert message in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.vmod"]


def test_never_over_an_input_nor_an_existing_file(vmod, tmp_path, capsys):
    module = tmp_path / "lion.vmod"
    shutil.copyfile(vmod, module)
    oddly_named = tmp_path / "module-named.vsav"  # a module is found by its content, whatever its name
    shutil.copyfile(vmod, oddly_named)
    before = oddly_named.read_bytes()
    err = convert(capsys, "--game", GAME, "--scenario", SCENARIO, "--module", str(oddly_named),
                  str(oddly_named), "--force", expect=EXIT_INPUT)
    assert "the output would overwrite the input" in err
    assert oddly_named.read_bytes() == before
    overlay = tmp_path / "data"
    overlay.mkdir()
    convert(capsys, "--game", GAME, "--data", str(overlay), str(overlay), expect=EXIT_USAGE)  # not a .vmod
    existing = tmp_path / "existing.vmod"
    existing.write_bytes(b"keep me")
    err = convert(capsys, "--game", GAME, str(existing), expect=EXIT_INPUT)
    assert "already exists; use --force to replace it" in err and existing.read_bytes() == b"keep me"
    convert(capsys, "--game", GAME, str(existing), "--force")
    assert read_module(existing).name == read_module(vmod).name
    as_json = tmp_path / "existing.json"
    as_json.write_text("keep me")
    convert(capsys, str(module), str(as_json), expect=EXIT_INPUT)
    assert as_json.read_text() == "keep me"


def test_failed_writes_leave_no_file(vmod, tmp_path, capsys, monkeypatch):
    script_dir = tmp_path / "play"
    script_dir.mkdir()
    shutil.copyfile(vmod, script_dir / "lion.vmod")
    (script_dir / "s.vscript").write_text(
        f"module lion.vmod\ngame {GAME}\nscenario {SCENARIO}\nmap \"Main Map\"\nplayer Bob side ethiopian\nchat hi\n", encoding="utf-8")
    out_dir = tmp_path / "out"
    out_dir.mkdir()

    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_space)
    for argv in (["--game", GAME, str(out_dir / "g.vmod")],
                 ["--game", GAME, "--scenario", SCENARIO, str(out_dir / "g.vsav")],
                 [str(vmod), str(out_dir / "m.json")],
                 [str(script_dir / "s.vscript"), str(out_dir / "s.vlog")]):
        err = convert(capsys, *argv, expect=EXIT_INPUT)
        assert "No space left on device" in err and err.count("\n") == 1
        assert list(out_dir.iterdir()) == []
    assert sorted(p.name for p in script_dir.iterdir()) == ["lion.vmod", "s.vscript"]


def test_a_failing_script_leaves_no_log(vmod, tmp_path, capsys):
    shutil.copyfile(vmod, tmp_path / "lion.vmod")
    (tmp_path / "s.vscript").write_text(
        f"module lion.vmod\ngame {GAME}\nscenario {SCENARIO}\nmap \"Main Map\"\nplayer Bob side ethiopian\nmove Nobody along 0101\n",
        encoding="utf-8")
    err = convert(capsys, str(tmp_path / "s.vscript"), str(tmp_path / "s.vlog"), expect=EXIT_INPUT)
    assert "s.vscript: line 6: no piece named 'Nobody'" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lion.vmod", "s.vscript"]


@pytest.fixture
def demo_log(vmod, tmp_path) -> Path:
    """A short log written from a script, beside its module and starting save."""
    folder = tmp_path / "demo"
    folder.mkdir()
    shutil.copyfile(vmod, folder / "lion.vmod")
    assert main(["convert", "--game", GAME, "--scenario", SCENARIO, "--module", str(folder / "lion.vmod"),
                 str(folder / "start.vsav")]) == EXIT_OK
    (folder / "demo.vscript").write_text(
        "module lion.vmod\nstart start.vsav\nmap \"Main Map\"\nplayer Bob side ethiopian\n"
        "move \"Shoa tribal levy (red stripe)\" along 1212\nroll 1d6 = 4\n", encoding="utf-8")
    assert main(["convert", str(folder / "demo.vscript"), str(folder / "demo.vlog")]) == EXIT_OK
    return folder / "demo.vlog"


def test_step_and_refresh_never_write_over_an_input_nor_leave_a_partial_file(demo_log, tmp_path, capsys,
                                                                              monkeypatch):
    capsys.readouterr()
    before = demo_log.read_bytes()
    link = tmp_path / "link.vsav"
    os.symlink(demo_log, link)  # a .vsav name that is the log itself
    err = convert(capsys, str(demo_log), str(link), "--step", "1", "--force", expect=EXIT_INPUT)
    assert "would overwrite the input" in err and demo_log.read_bytes() == before
    start, module = demo_log.parent / "start.vsav", demo_log.parent / "lion.vmod"
    module_bytes = module.read_bytes()
    assert main(["refresh", str(start), "--module", str(module), "-o", str(module), "--force"]) == EXIT_INPUT
    assert module.read_bytes() == module_bytes
    out_dir = tmp_path / "out"
    out_dir.mkdir()

    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_space)
    err = convert(capsys, str(demo_log), str(out_dir / "s.vsav"), "--step", "1", expect=EXIT_INPUT)
    assert "No space left on device" in err
    capsys.readouterr()
    assert main(["refresh", str(start), "--module", str(module), "-o", str(out_dir / "r.vsav")]) == EXIT_INPUT
    assert "No space left on device" in capsys.readouterr().err
    assert list(out_dir.iterdir()) == []
    assert demo_log.read_bytes() == before and module.read_bytes() == module_bytes


@pytest.mark.samples
@pytest.mark.parametrize("sample", sample_params("*/buildFile.xml", "*/buildFile"))
def test_real_modules_convert_to_json_that_validates(sample, tmp_path, capsys):
    out = tmp_path / "module.json"
    convert(capsys, str(sample), str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(doc, MODULE_SCHEMA)
    module = read_module(sample)
    assert doc["name"] == module.name and len(doc["pieceSlots"]) == len(module.piece_slots)


def test_an_extension_converts_to_json_that_validates(tmp_path, capsys):
    ext = tmp_path / "ext.vmdx"
    with zipfile.ZipFile(ext, "w") as z:
        z.writestr("buildFile.xml", '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
                   '<VASSAL.build.module.ModuleExtension anyModule="false" description="" extensionId="e1" '
                   'module="Lion" moduleVersion="1.0" nextPieceSlotId="0" vassalVersion="3.7.14" version="2.0"/>\n')
    out = tmp_path / "ext.json"
    convert(capsys, str(ext), str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(doc, MODULE_SCHEMA)
    assert doc["version"] == "2.0" and doc["maps"] == [] and doc["pieceSlots"] == []
