"""`vlog dump`: every piece and step in words, safe to print, in text, JSON and JSON lines."""
from __future__ import annotations

import json

import pytest

from tests.cli.conftest import SECRET_IDS
from tests.conftest import sample_params
from vlog.cli import EXIT_OK, main


def dump(capsys, *argv: str) -> str:
    assert main(["dump", *argv]) == EXIT_OK
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def test_log_steps_in_words(built_log, capsys):
    out = dump(capsys, str(built_log))
    assert "Positions: pixel positions: no module given\n" in out
    assert "Steps (7):\n" in out
    expected = [
        "  Step 2:\n      move 1st Infantry [x] [1001] from Main Map (100,200) to Main Map (150,250) "
        "by Alice (<player-1>)\n      report: * 1st Infantry moves *\n",
        # masking is public; what changed under the mask is not
        "  Step 3:\n      change 1st Infantry [x] [1001]: masked by Alice (<player-1>) (was not masked); "
        "other changes not shown (a concealed piece; --referee shows them)\n",
        "  Step 4:\n      dice 2d6: 3,5 by Bob\n      property 2d6_result [Module]: '1,1' -> '3,5'\n",
        "  Step 5  (undo):\n      property 2d6_result [Module]: '3,5' -> '1,1'\n",
        "  Step 6:\n      remove Cossacks :smile: [1002]\n",
        "  Step 7:\n      player Bob as <observer> (<player-2>)\n",
    ]
    for chunk in expected:
        assert chunk in out


def test_referee_sees_under_the_mask(built_log, capsys):
    out = dump(capsys, str(built_log), "--referee")
    assert ("  Step 3:\n      change 1st Infantry [x] [1001]: masked by Alice (<player-1>) (was not masked); "
            "layer Flip: level 2 (Back) (was layer Flip: level 1 (Front))\n") in out


def test_save_pieces_and_setup(built_save, capsys):
    out = dump(capsys, str(built_save))
    assert "  1001  piece 1st Infantry [x]  Main Map (100,200)  in stack 2001\n" in out
    assert "      not masked\n      layer Flip: level 1 (Front)\n" in out
    assert "  1002  piece Cossacks :smile:  Main Map (300,400)  in stack 2002\n      Strength = '4'\n" in out
    assert "  2001  stack  Main Map (100,200)  holds 1 piece\n" in out
    assert "Global properties (1):\n  Turn = '3'  [Module]\n" in out
    assert "Turn trackers (1):\n  TurnTracker0: 0|3;0;true;20\n" in out
    assert "Boards (1):\n  Main Map: Classic Map at column 0, row 0\n" in out
    assert "private of Alice (<player-1>): (private: not shown)" in out
    assert "my plan" not in out
    assert "Steps" not in out


def test_player_text_is_never_markup_or_terminal_codes(built_log, capsys):
    out = dump(capsys, str(built_log))
    assert "chat <Alice>: [bold]hello[/bold] :smile: \\x07\\x9b2J\n" in out
    assert "\x07" not in out and "\x9b" not in out


def test_json_and_jsonl(built_log, capsys):
    doc = json.loads(dump(capsys, str(built_log), "--format", "json"))
    assert doc["kind"] == "log" and doc["positions"] == "pixel positions: no module given"
    assert [s["step"] for s in doc["steps"]] == list(range(1, 8))
    assert [s["undo"] for s in doc["steps"]] == [False] * 4 + [True, False, False]
    move = doc["steps"][1]["actions"][0]
    assert move["action"] == "move" and move["name"] == "1st Infantry [x]"
    assert move["from"] == {"map": "Main Map", "x": 100, "y": 200}
    assert move["to"] == {"map": "Main Map", "x": 150, "y": 250}
    assert move["by"] == "Alice (<player-1>)"
    dice = doc["steps"][3]["actions"][0]
    assert dice["action"] == "dice" and dice["faces"] == [3, 5] and dice["player"] == "Bob"
    assert doc["steps"][0]["actions"][0]["message"] == "[bold]hello[/bold] :smile: \x07\x9b2J"
    # the layer flip happened under the mask: only the mask shows, unless --referee
    assert [c["trait"] for c in doc["steps"][2]["actions"][0]["changes"]] == ["mask"]
    doc = json.loads(dump(capsys, str(built_log), "--format", "json", "--referee"))
    layer = [c for c in doc["steps"][2]["actions"][0]["changes"] if c["trait"] == "layer"][0]
    assert layer["level"] == 2 and layer["level_name"] == "Back" and layer["active"] is True
    lines = dump(capsys, str(built_log), "--format", "jsonl").splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["record"] for r in records] == ["file"] + ["piece"] * 4 + ["step"] * 7
    assert records[0]["players"][0] == {"name": "Alice", "side": "Red", "id": "<player-1>"}


def test_location_namer_hook(built_log):
    import vlog
    from vlog.cli.dump import build_dump, render_text

    def namer(map_id, x, y):
        return f"{x // 100:02d}{y // 100:02d}"

    doc = build_dump(vlog.read(built_log), built_log, location_namer=namer)
    assert doc["positions"] == "map pixels and location names"
    assert doc["pieces"][0]["location"] == "0102"
    move = doc["steps"][1]["actions"][0]
    assert move["to"]["location"] == "0102" and move["from"]["location"] == "0102"
    text = render_text(doc)
    assert "from Main Map 0102 (100,200) to Main Map 0102 (150,250)" in text


def test_module_names_locations(built_log, built_module, capsys):
    from vlog.vassal.module import parse_board_layout, read_module

    module = read_module(built_module)
    layout = parse_board_layout("Main MapBoardPicker\tClassic Map\t0\t0")
    start = module.location_name("Main Map", 100, 200, layout)
    end = module.location_name("Main Map", 150, 250, layout)
    assert start and end and start != end and "offboard" not in (start, end)
    out = dump(capsys, str(built_log), "--module", str(built_module))
    assert "Positions: map pixels and location names\n" in out
    assert f"  1001  piece 1st Infantry [x]  Main Map {start} (100,200)  in stack 2001\n" in out
    assert f"from Main Map {start} (100,200) to Main Map {end} (150,250)" in out


def test_module_without_the_map_warns_once(built_log, tmp_path, capsys):
    other = tmp_path / "other.xml"
    other.write_text('<VASSAL.build.GameModule name="Other" version="1"/>', encoding="utf-8")
    assert main(["dump", str(built_log), "--module", str(other)]) == EXIT_OK
    captured = capsys.readouterr()
    assert captured.err.count("vlog: warning: locations on map 'Main Map' are not named") == 1
    assert "move 1st Infantry [x] [1001] from Main Map (100,200) to Main Map (150,250)" in captured.out


def test_extension_needs_module(built_log, capsys):
    assert main(["dump", str(built_log), "--extension", "x.vmdx"]) == 2


@pytest.mark.samples
def test_module_names_nevsky_locations(samples_dir, capsys):
    save = samples_dir / "nevsky" / "Scenario_Peipus_1242.vsav"
    build = samples_dir / "nevsky" / "buildFile.xml"
    if not (save.exists() and build.exists()):
        pytest.skip("the Nevsky samples are absent")
    out = dump(capsys, str(save), "--module", str(build))
    # the module's deck names its cards' position, as VASSAL's Map.locationName does
    assert "Main Map Russian Arts of War (4355,4201)  in deck " in out


def test_show_player_ids(built_log, capsys):
    out = dump(capsys, str(built_log), "--show-player-ids")
    assert f"by Alice ({SECRET_IDS[0]})" in out
    assert "my plan" in out


def test_output_file(built_log, tmp_path, capsys):
    out = tmp_path / "dump.txt"
    assert dump(capsys, str(built_log), "-o", str(out)) == ""
    assert "Steps (7):" in out.read_text(encoding="utf-8")


@pytest.mark.samples
@pytest.mark.parametrize("sample", sample_params("*/*.vsav", "*/*.vlog"))
def test_dump_every_sample(sample, capsys):
    import vlog

    obj = vlog.read(sample)
    text = dump(capsys, str(sample))
    assert text.startswith(f"File: {sample}\n")
    doc = json.loads(dump(capsys, str(sample), "--format", "json"))
    # every piece a side sees: a stack holding only invisible pieces is not seen
    from vlog.vassal.privacy import visible_stack
    seen = [p for p in obj.pieces.values()
            if not (p.is_stack and (v := visible_stack(p, obj.pieces)) is not None and not v.piece_ids)]
    assert len(doc["pieces"]) == len(seen)
    referee = json.loads(dump(capsys, str(sample), "--format", "json", "--referee"))
    assert len(referee["pieces"]) == len(obj.pieces)
    lines = dump(capsys, str(sample), "--format", "jsonl").splitlines()
    assert len(lines) == 1 + len(seen) + len(getattr(obj, "steps", []))
    if doc["kind"] == "log":
        assert [s["step"] for s in doc["steps"]] == list(range(1, len(obj.steps) + 1))
        assert f"Steps ({len(obj.steps)}):" in text


def test_module_of_another_version_is_flagged(built_log, built_module, tmp_path, capsys):
    # the built log says module version 1.2 (its savedata); this copy of the module says 0.3
    other = tmp_path / "older.xml"
    other.write_text(built_module.read_text(encoding="utf-8").replace('version="1.2"', 'version="0.3"', 1),
                     encoding="utf-8")
    assert main(["dump", str(built_log), "--module", str(other)]) == EXIT_OK
    err = capsys.readouterr().err
    assert "version 1.2, not 0.3" in err and "vlog/module-mismatch" in err


def test_no_learned_points_keeps_the_pixel_note(built_log, built_module, capsys):
    doc = json.loads(dump(capsys, str(built_log), "--format", "json"))
    assert doc["points_named_from_file"] == 0 and "location" not in doc["pieces"][0]
    doc = json.loads(dump(capsys, str(built_log), "--module", str(built_module), "--format", "json"))
    assert doc["points_named_from_file"] is None


def test_points_vassal_named_in_the_file_are_named_without_a_module(tmp_path, capsys):
    from tests.cli.conftest import _write
    from vlog.vassal.commands import decode
    from vlog.vassal.obfuscation import Dialect
    from vlog.vassal.savefile import Save
    from vlog.vassal.sequence import join

    def add(piece_id: str, x: int, y: int, props: str) -> str:
        return "+/" + (join([piece_id, "piece;;;inf.png;Infantry", f"Main Map;{x};{y};;{props}"], "/") or "")

    moved = "4;OldMap;Main Map;OldX;100;OldY;200;OldLocationName;Kiev"
    text = join(["begin_save", "", add("1", 300, 400, moved), add("2", 100, 200, "0"), "end_save"], "\x1b")
    path = _write(Save(decode(text or ""), dialect=Dialect.VCSK, key=0x58), tmp_path / "old.vsav")
    out = dump(capsys, str(path))
    assert ("Positions: map pixels; 1 point named from the file's own data (VASSAL's OldLocationName "
            "piece properties), other positions unnamed: give --module to name them all\n") in out
    assert "  2  piece Infantry  Main Map Kiev (100,200)\n" in out
    assert "  1  piece Infantry  Main Map (300,400)\n" in out
    doc = json.loads(dump(capsys, str(path), "--format", "json"))
    assert doc["points_named_from_file"] == 1
    assert [p.get("location") for p in doc["pieces"]] == [None, "Kiev"]


@pytest.mark.samples
def test_nevsky_save_names_points_from_its_own_data(samples_dir, capsys):
    save = samples_dir / "nevsky" / "Scenario_Peipus_1242.vsav"
    if not save.exists():
        pytest.skip("the Nevsky samples are absent")
    out = dump(capsys, str(save))
    assert "Positions: map pixels; 39 points named from the file's own data" in out
    assert "  piece Russian Victory Marker  Main Map Turn 5 Victory Points (3246,216)  in stack " in out


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("vasl-templates/hip-concealed.vsav"))
def test_invisible_pieces_stay_secret_without_referee(path, capsys):
    # the sample holds a Russian SU-152 made invisible by its owner
    out = dump(capsys, str(path))
    assert "SU-152" not in out.replace("a hidden Russian SU-152", "")  # the public label names it
    assert "  1564795369330  piece an invisible piece  (position not shown)\n" in out
    referee = dump(capsys, str(path), "--referee")
    assert "piece SU-152  Map0 (200,178)  in stack 1564795501316" in referee
