"""The JSON form: schema-valid, lossless, editable, redacted by default."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.conftest import SAMPLES
from tests.vassal.test_commands import _safe_payload, build_text
from vlog.errors import VlogError
from vlog.vassal.commands import ESC, decode
from vlog.vassal.jsonform import from_json, to_json
from vlog.vassal.obfuscation import Dialect
from vlog.vassal.savefile import Log, Save, read, write

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "save.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

TEXT = ESC.join([
    "begin_save", "",
    "\\" + ESC.join(["", "+/11/obs;;m.png;Hide;G;Mask\tpiece;;;inf.png;Rifle/pw-alice;G\tMain;100;200;7"]),
    "PLAYER\tpw-alice\tAlice\tAxis", "PLAYER\tpw-bob\tBob\tAllies", "end_save",
    "LOG\tM/11/Main/120/200/null/Main/100/200/null/pw-bob\\" + ESC + "LOG\tCHAT&lt;Bob&gt; - moved",
    "LOG\tM/11/Main/007/200/null/Main/120/200/null/pw-bob",
])


def make_log() -> Log:
    return Log(decode(TEXT), dialect=Dialect.VCSK, key=9)


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_json_validates_and_is_readable():
    data = to_json(make_log(), redact_player_ids=False, referee=True)
    VALIDATOR.validate(data)
    assert data["kind"] == "log" and data["dialect"] == "VCSK" and data["key"] == 9
    move = data["commands"]["subs"][5]
    assert move["command"] == "log" and move["inner"]["command"] == "move_piece"
    assert (move["inner"]["new_map"], move["inner"]["new_x"], move["inner"]["new_y"]) == ("Main", 120, 200)
    piece = data["commands"]["subs"][1]["subs"][0]
    assert piece["piece"]["name"] == "Rifle" and [t["id"] for t in piece["piece"]["traits"]] == ["obs;", "piece;"]
    assert "raw" not in move["inner"]  # VASSAL writes exactly these fields
    odd = data["commands"]["subs"][6]["inner"]
    assert odd["new_x"] == 7 and odd["raw"].startswith("M/11/Main/007/")


def test_lossless_and_edits_reencode():
    log = make_log()
    data = json.loads(json.dumps(to_json(log, redact_player_ids=False, referee=True)))
    assert from_json(data).text == TEXT
    data["commands"]["subs"][5]["inner"]["new_x"] = 130
    data["commands"]["subs"][6]["inner"]["new_y"] = 250  # the `raw` no longer matches: rebuilt
    out = from_json(data).text
    assert out == TEXT.replace("/Main/120/200/null/Main/100/", "/Main/130/200/null/Main/100/").replace(
        "M/11/Main/007/200/", "M/11/Main/7/250/")


def test_redaction_replaces_ids_everywhere():
    data = to_json(make_log(), referee=True)
    VALIDATOR.validate(data)
    dumped = json.dumps(data)
    assert "pw-alice" not in dumped and "pw-bob" not in dumped
    back = from_json(data)
    assert [p.user_id for p in back.players] == ["<player-1>", "<player-2>"]
    assert back.steps[0].commands[0].player_id == "<player-2>"
    assert back.start.pieces["11"].traits[0].owner == "<player-1>"


def test_written_file_from_json(tmp_path):
    data = json.loads(json.dumps(to_json(make_log(), redact_player_ids=False, referee=True)))
    obj = from_json(data)
    out = tmp_path / "from-json.vlog"
    write(obj, out)
    back = read(out)
    assert back.text == TEXT and back.key == 9 and isinstance(back, Log)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(format="other"), "not a vlog-save"),
    (lambda d: d.update(dialect="ROT13"), "dialect"),
    (lambda d: d.update(key=300), "key"),
    (lambda d: d["commands"]["subs"][5]["inner"].update(new_x="12"), "wrong type"),
    (lambda d: d["commands"]["subs"][5]["inner"].pop("new_y"), "needs field"),
    (lambda d: d["commands"]["subs"].append({"command": "nope"}), "unknown command"),
    (lambda d: d["members"].append({"name": "x", "base64": "!!"}), "base64"),
])
def test_bad_json_raises_vlog_error(mutate, message):
    data = json.loads(json.dumps(to_json(make_log(), redact_player_ids=False, referee=True)))
    mutate(data)
    with pytest.raises(VlogError, match=message):
        from_json(data)


def test_binary_and_text_members_kept():
    save = Save(decode("begin_save" + ESC + "end_save"), dialect=Dialect.PLAIN,
                members=[("savedGame", b""), ("savedata", "<data>é</data>".encode()), ("blob", b"\xff\x00")])
    data = to_json(save, referee=True)
    assert data["members"][1] == {"name": "savedata", "text": "<data>é</data>"}
    assert data["members"][2] == {"name": "blob", "base64": "/wA="}
    assert from_json(data).members[1:] == save.members[1:]


_trees = st.recursive(st.tuples(_safe_payload, st.just([])),
                      lambda kids: st.tuples(_safe_payload, st.lists(kids, min_size=1, max_size=4)),
                      max_leaves=20)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_trees, st.booleans())
def test_random_trees_json_round_trip(tree, legacy):
    text = build_text(tree, legacy=legacy)
    save = Save(decode(text), dialect=Dialect.PLAIN)
    data = json.loads(json.dumps(to_json(save, redact_player_ids=False, referee=True)))
    data["legacy_quoting"] = legacy
    assert from_json(data).text == text


@pytest.mark.samples
def test_sample_json_validates(samples_dir):
    for name in ("vasl-templates/3d6.vlog", "vasl-templates/hip-concealed.vsav", "vasl-templates/custom-labels.vlog"):
        obj = read(SAMPLES / name)
        VALIDATOR.validate(to_json(obj))
        VALIDATOR.validate(to_json(obj, redact_player_ids=False))


def test_redaction_leaves_original_untouched_and_copies_exactly():
    from vlog.vassal.commands import encode
    from vlog.vassal.privacy import Redactor, copy_tree, player_ids, redact_player_ids
    log = make_log()
    assert player_ids(log.commands) == ["pw-alice", "pw-bob"]
    assert encode(copy_tree(log.commands)) == TEXT
    red_tree, red = redact_player_ids(log.commands)
    assert log.text == TEXT
    assert red.mapping == {"pw-alice": "<player-1>", "pw-bob": "<player-2>"}
    # changed commands are rebuilt as VASSAL writes them (so `007` becomes `7`)
    assert encode(red_tree) == TEXT.replace("pw-alice", "<player-1>").replace("pw-bob", "<player-2>").replace(
        "/Main/007/", "/Main/7/")
    assert red.text("moved by pw-bob") == "moved by <player-2>"
    assert Redactor().placeholder("null") == "null" and Redactor().placeholder(None) is None


def test_deeply_nested_json_is_refused():
    node = {"command": "null"}
    for _ in range(250):
        node = {"command": "null", "subs": [node]}
    data = json.loads(json.dumps(to_json(make_log(), redact_player_ids=False, referee=True)))
    data["commands"] = node
    with pytest.raises(VlogError, match="nested"):
        from_json(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["a", "\\", "'", ESC, "\t", "/", "LOG\t", "+/", "M/1/m/", "CHAT", ";"]),
                max_size=25).map("".join), st.booleans())
def test_any_decodable_text_json_round_trip(text, legacy):
    from vlog.errors import CommandSyntaxError
    try:
        root = decode(text)
    except CommandSyntaxError:
        return
    save = Save(root, dialect=Dialect.PLAIN)
    data = to_json(save, redact_player_ids=False, referee=True)
    data["legacy_quoting"] = legacy
    data["commands"] = __import__("vlog.vassal.jsonform", fromlist=["x"]).node_to_json(root, legacy=legacy)
    VALIDATOR.validate(data)
    assert from_json(json.loads(json.dumps(data))).text == text


def test_schema_rejects_malformed_nodes():
    data = to_json(make_log(), redact_player_ids=False, referee=True)
    move = data["commands"]["subs"][5]["inner"]
    move["new_x"] = "120"
    errors = list(VALIDATOR.iter_errors(data))
    assert any("'120' is not of type 'integer'" in e.message for e in errors)
    move["new_x"] = 120
    data["commands"]["subs"].append({"command": "teleport"})
    assert any("teleport" in e.message for e in VALIDATOR.iter_errors(data))
    data["commands"]["subs"][-1] = {"command": "chat", "text": "hi", "extra": 1}
    assert any("extra" in e.message for e in VALIDATOR.iter_errors(data))
    data["commands"]["subs"][-1] = {"command": "chat", "text": "hi"}
    VALIDATOR.validate(data)


# -- concealed pieces: shown as a side sees them unless for a referee ---------------------------

HIDDEN_TEXT = ESC.join([
    "begin_save", "",
    "\\" + ESC.join(["",
                     "+/11/obs;;m.png;Hide;G;Mask\tpiece;;;inf.png;Rifle/pw-alice;G\tMain;100;200;7",
                     "+/12/hide;H;Invisible;;;\tpiece;;;spy.png;Spy/pw-bob\tMain;300;200;8",
                     "+/13/piece;;;hq.png;HQ/Main;500;200;9"]),
    "PLAYER\tpw-alice\tAlice\tAxis", "end_save",
    "LOG\tM/12/Main/320/200/null/Main/300/200/null/pw-bob",
    "LOG\tM/11/Main/120/200/null/Main/100/200/null/pw-alice",
    "LOG\tD/11/;\tMain;120;200;7/pw-alice;G\tMain;120;200;7",
])
"""A masked Rifle (11), an invisible Spy (12) and a plain HQ (13); the Spy moves, the Rifle moves
and is then unmasked."""


def _nodes(node):
    yield node
    for key in ("inner", "head"):
        if isinstance(node.get(key), dict):
            yield from _nodes(node[key])
    for sub in node.get("subs", []):
        yield from _nodes(sub)


def test_concealed_pieces_are_shown_as_a_side_sees_them():
    data = to_json(Log(decode(HIDDEN_TEXT), dialect=Dialect.VCSK, key=9))
    VALIDATOR.validate(data)
    dumped = json.dumps(data)
    for secret in ("Rifle", "inf.png", "Spy", "spy.png", "pw-alice", "pw-bob"):
        assert secret not in dumped
    assert data["concealed_redacted"] is True
    concealed = {(n["command"], n["id"]): n for n in _nodes(data["commands"]) if "concealed" in n}
    assert set(concealed) == {("add_piece", "11"), ("add_piece", "12"), ("move_piece", "12"), ("change_piece", "11")}
    rifle = concealed[("add_piece", "11")]
    assert rifle["concealed"] == "masked" and "type" not in rifle and "state" not in rifle
    assert rifle["piece"] == {"kind": "piece", "name": "a masked piece (Mask)", "traits": [],
                              "map": "Main", "x": 100, "y": 200}
    assert concealed[("add_piece", "12")]["piece"] == {"kind": "piece", "name": "an invisible piece", "traits": []}
    moves = [n for n in _nodes(data["commands"]) if n["command"] == "move_piece" and "concealed" not in n]
    assert [m["id"] for m in moves] == ["11"]                  # a masked piece's place is seen
    hq = next(n for n in _nodes(data["commands"]) if n.get("id") == "13")
    assert hq["piece"]["name"] == "HQ" and "type" in hq


def test_concealed_json_cannot_be_written_back_but_referee_json_can():
    log = Log(decode(HIDDEN_TEXT), dialect=Dialect.VCSK, key=9)
    with pytest.raises(VlogError, match=r"piece '11' is shown only as concealed \(masked\).*--referee") as caught:
        from_json(json.loads(json.dumps(to_json(log))))
    assert caught.value.where.startswith("commands.subs[1]")
    full = to_json(log, redact_player_ids=False, referee=True)
    assert full["concealed_redacted"] is False and "concealed" not in json.dumps(full["commands"])
    assert from_json(json.loads(json.dumps(full))).text == HIDDEN_TEXT

