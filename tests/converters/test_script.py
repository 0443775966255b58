"""The script format: the line form and the JSON form read into the same document and Script,
the schema holds both, and every mistake is a ScriptError naming the script and its line."""
from __future__ import annotations

import json

import jsonschema
import pytest

from converters.script import SCHEMA_PATH, load_document, parse_script, parse_text, script_document
from vlog.errors import ScriptError

LINES = """\
vlog-script 1
# a comment line
game lion-of-judah
module ../game.vmod
start "start save.vsav"
vassal 3.7.16
key 0x2a
clock 1738350000000
map "Main Map"
player Alice side Red id pw-a
player Bob side Blue

move "Inf A" along 0203 0303   # trailing comment
move @1004 along 0404 on "Main Map"
flip "Inf B"
reduce "Inf B" Step
layer "Inf B" Reduced Step
layer "Inf B" 1
remove "Inf B"
add "Inf B" at 0101
roll 2d6 = 3,5
roll Total = 1, 2 3
turn next
turn set Turn=3 Phase=Combat
as Bob
chat "hello, world" as Alice
undo
"""


def test_line_form_reads_every_action():
    script = parse_text(LINES, path="game.vscript")
    h = script.header
    assert (h.game, h.module, h.start, h.vassal, h.key, h.clock, h.map) == (
        "lion-of-judah", "../game.vmod", "start save.vsav", "3.7.16", 42, 1738350000000, "Main Map")
    assert [(p.name, p.side, p.user_id) for p in h.players] == [("Alice", "Red", "pw-a"), ("Bob", "Blue", None)]
    kinds = [a.kind for a in script.actions]
    assert kinds == ["move", "move", "flip", "reduce", "layer", "layer", "remove", "add", "roll", "roll",
                     "turn", "turn", "as", "chat", "undo"]
    move, move2 = script.actions[0], script.actions[1]
    assert (move.unit, move.hexes, move.line) == ("Inf A", ("0203", "0303"), 13)
    assert (move2.unit, move2.hexes, move2.map) == ("@1004", ("0404",), "Main Map")
    assert (script.actions[3].layer, script.actions[4].level, script.actions[4].layer) == ("Step", "Reduced", "Step")
    assert (script.actions[7].piece, script.actions[7].hexes) == ("Inf B", ("0101",))
    assert script.actions[9].faces == (1, 2, 3)
    assert script.actions[11].levels == (("Turn", "3"), ("Phase", "Combat"))
    assert (script.actions[13].text, script.actions[13].player) == ("hello, world", "Alice")


def test_json_form_is_the_same_script(tmp_path):
    doc = script_document(LINES, path="game.vscript")
    jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text())).validate(doc)
    path = tmp_path / "game.vscript.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    from_json = parse_script(path)
    from_lines = parse_text(LINES, path="game.vscript")
    assert from_json.header == from_lines.header
    assert from_json.actions == from_lines.actions
    assert from_json.folder == tmp_path


def test_json_without_line_numbers_counts_actions():
    doc = {"format": "vlog-script/1", "header": {"start": "s.vsav"},
           "actions": [{"action": "chat", "text": "a"}, {"action": "undo"}]}
    script = load_document(doc)
    assert [a.line for a in script.actions] == [1, 2]


@pytest.mark.parametrize("text, line, words", [
    ("start s.vsav\nmove X 0101\n", 2, "move UNIT along"),
    ("start s.vsav\nfly X\n", 2, "unknown word"),
    ("start s.vsav\nchat hi\nstart t.vsav\n", 3, "after the first action"),
    ("start s.vsav\nstart t.vsav\n", 2, "twice"),
    ("start s.vsav\nroll 2d6 = 3,x\n", 2, "not a whole number"),
    ("start s.vsav\nturn set Turn\n", 2, "LEVEL=VALUE"),
    ('start s.vsav\nchat "unclosed\n', 2, "cannot split"),
    ("start s.vsav\nkey many\n", 2, "whole number"),
    ("start s.vsav\nplayer Alice Red\n", 2, "player NAME side SIDE"),
    ("start s.vsav\nundo now\n", 2, "takes nothing"),
    ("start s.vsav\nvlog-script 1\n", 2, "first line"),
    ("vlog-script 2\n", 1, "version"),
])
def test_line_errors_name_file_and_line(text, line, words):
    with pytest.raises(ScriptError) as info:
        parse_text(text, path="bad.vscript")
    assert info.value.file == "bad.vscript"
    assert info.value.where == f"line {line}"
    assert words in info.value.message


def test_schema_errors_name_the_action_line():
    doc = {"format": "vlog-script/1", "header": {"start": "s.vsav"},
           "actions": [{"action": "chat", "text": "a", "line": 4}, {"action": "roll", "button": "2d6", "line": 9}]}
    with pytest.raises(ScriptError) as info:
        load_document(doc, path="x.json")
    assert info.value.where == "line 9" and "faces" in info.value.message


def test_key_out_of_range_and_missing_start():
    with pytest.raises(ScriptError, match="key"):
        parse_text("start s.vsav\nkey 300\n")
    with pytest.raises(ScriptError, match="starting save"):
        parse_text("chat hi\n")


def test_hostile_inputs_raise_script_errors(tmp_path):
    with pytest.raises(ScriptError, match="not valid JSON"):
        parse_text("{" * 100000)
    with pytest.raises(ScriptError, match="JSON"):
        parse_text('{"format": ')
    bad = tmp_path / "bad.vscript"
    bad.write_bytes(b"\xff\xfe start")
    with pytest.raises(ScriptError, match="UTF-8"):
        parse_script(bad)
    with pytest.raises(ScriptError, match="cannot read"):
        parse_script(tmp_path / "absent.vscript")
    with pytest.raises(ScriptError):
        load_document(["not", "an", "object"])
