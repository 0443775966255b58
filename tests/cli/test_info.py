"""`vlog info` on files the tests build and on every real sample."""
from __future__ import annotations

import json

import pytest

from tests.conftest import sample_params
from vlog.cli import EXIT_INPUT, EXIT_OK, main

from tests.cli.conftest import SECRET_IDS


def run_json(capsys, *argv: str) -> dict:
    assert main(["info", *argv, "--format", "json"]) == EXIT_OK
    return json.loads(capsys.readouterr().out)


def test_log_summary_counts(built_log, capsys):
    info = run_json(capsys, str(built_log))
    assert info["kind"] == "log"
    assert info["dialect"] == "VCSK"
    assert info["vassal_version"] == "3.7.10"
    assert info["module_version"] == "1.2"
    assert info["description"] == "built by the CLI tests"
    assert info["date_saved"] == "2025-01-31T18:18:59Z"
    assert info["pieces"] == 2 and info["pieces_by_kind"] == {"piece": 2, "stack": 2}
    assert info["steps"] == 7 and info["undos"] == 1
    assert info["dice_rolls"] == 1
    assert info["chat_lines"] == 1
    assert info["points_named_from_file"] == 0
    by_type = info["commands_by_type"]
    assert by_type["move_piece"] == 1 and by_type["change_piece"] == 1
    assert by_type["remove_piece"] == 1 and by_type["undo"] == 2
    assert by_type["player_add"] == 3 and by_type["add_piece"] == 4
    assert "log" not in by_type and "null" not in by_type
    assert info["players"] == [
        {"name": "Alice", "side": "Red", "id": "<player-1>"},
        {"name": "Bob", "side": "Blue", "id": "<player-2>"},
        {"name": "Bob", "side": "<observer>", "id": "<player-2>"},
    ]
    assert info["player_ids"] == ["<player-1>", "<player-2>"]
    assert info["player_ids_redacted"] is True


def test_save_summary_text(built_save, capsys):
    assert main(["info", str(built_save)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "Kind: save\n" in out
    assert "Obfuscation: VCSK\n" in out
    assert "Pieces: 2\n" in out
    assert "  Alice as Red (id <player-1>)\n" in out
    assert "Player ids in the file: <player-1>, <player-2>\n" in out
    assert "Steps" not in out
    for secret in SECRET_IDS:
        assert secret not in out


def test_show_player_ids(built_save, capsys):
    info = run_json(capsys, str(built_save), "--show-player-ids")
    assert [p["id"] for p in info["players"]] == list(SECRET_IDS)
    assert info["player_ids"] == list(SECRET_IDS)
    assert info["player_ids_redacted"] is False


def test_output_file_and_input_protection(built_log, tmp_path, capsys):
    out = tmp_path / "info.json"
    assert main(["info", str(built_log), "--format", "json", "-o", str(out)]) == EXIT_OK
    assert capsys.readouterr().out == ""
    assert json.loads(out.read_text(encoding="utf-8"))["kind"] == "log"
    before = built_log.read_bytes()
    assert main(["info", str(built_log), "-o", str(built_log)]) == EXIT_INPUT
    assert "overwrite the input" in capsys.readouterr().err
    assert built_log.read_bytes() == before


def test_json_form_input(built_log, tmp_path, capsys):
    as_json = tmp_path / "log.json"
    assert main(["convert", str(built_log), str(as_json), "--show-player-ids", "--referee"]) == EXIT_OK
    capsys.readouterr()
    info = run_json(capsys, str(as_json))
    assert info["kind"] == "log" and info["steps"] == 7


def test_json_with_concealed_pieces_is_refused_with_the_way_out(built_log, tmp_path, capsys):
    as_json = tmp_path / "log.json"
    assert main(["convert", str(built_log), str(as_json)]) == EXIT_OK
    assert "shown only as concealed" in capsys.readouterr().err
    assert main(["info", str(as_json)]) == 3
    err = capsys.readouterr().err
    assert "is shown only as concealed (masked)" in err and "--referee" in err


def test_module_buildfile(tmp_path, capsys):
    build = tmp_path / "buildFile.xml"
    build.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<VASSAL.build.GameModule name="Tiny Game" version="0.3" VassalVersion="3.7.10">'
        '<VASSAL.build.module.PlayerRoster><entry>Red</entry><entry>Blue</entry>'
        '</VASSAL.build.module.PlayerRoster></VASSAL.build.GameModule>\n', encoding="utf-8")
    info = run_json(capsys, str(build))
    assert info["kind"] == "module" and info["name"] == "Tiny Game" and info["version"] == "0.3"
    assert main(["info", str(build)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "Kind: module\n" in out and "Name: Tiny Game\n" in out


def test_module_zip_and_folder(built_module, tmp_path, capsys):
    import zipfile

    vmod = tmp_path / "Tiny.vmod"
    with zipfile.ZipFile(vmod, "w") as z:
        z.writestr("buildFile.xml", built_module.read_bytes())
    folder = tmp_path / "unpacked"
    folder.mkdir()
    (folder / "buildFile.xml").write_bytes(built_module.read_bytes())
    for path in (vmod, folder):
        info = run_json(capsys, str(path))
        assert info["kind"] == "module" and info["name"] == "Tiny Game"
        assert [m["mapName"] for m in info["maps"]] == ["Main Map"]


def test_missing_module_exits_3(tmp_path, capsys):
    assert main(["info", str(tmp_path / "Missing.vmod")]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert err.startswith("vlog: error: ") and err.count("\n") == 1


@pytest.mark.samples
@pytest.mark.parametrize("sample", sample_params("*/*.vsav", "*/*.vlog", "*/buildFile*"))
def test_info_on_every_sample(sample, capsys):
    assert main(["info", str(sample)]) == EXIT_OK
    text = capsys.readouterr().out
    assert text.startswith(f"File: {sample}\n")
    info = run_json(capsys, str(sample))
    assert info["kind"] in ("save", "log", "module")
    if info["kind"] == "log":
        import vlog

        assert info["steps"] == len(vlog.read(sample).steps)


@pytest.mark.samples
def test_nevsky_save_counts_the_points_vassal_named(samples_dir, capsys):
    save = samples_dir / "nevsky" / "Scenario_Peipus_1242.vsav"
    if not save.exists():
        pytest.skip("the Nevsky samples are absent")
    assert run_json(capsys, str(save))["points_named_from_file"] == 39
    assert main(["info", str(save)]) == EXIT_OK
    assert "Map points VASSAL named in the file: 39\n" in capsys.readouterr().out
