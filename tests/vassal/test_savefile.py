"""Saves and logs: reading, the model (pieces, players, steps) and writing back."""
from __future__ import annotations

import io
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.conftest import SAMPLES
from vlog.errors import ArchiveError, ObfuscationError, OutputError, VlogError
from vlog.vassal import commands as C
from vlog.vassal.commands import ESC, decode
from vlog.vassal.obfuscation import Dialect, deobfuscate, obfuscate
from vlog.vassal.savefile import Log, Save, read, read_log, read_save, write

VASL = SAMPLES / "vasl-templates"
STAMP = (2020, 1, 2, 3, 4, 6)

SAVE_TEXT = ESC.join([
    "begin_save", "",
    "\\" + ESC.join(["", "+/11/piece;;;inf.png;Rifle Company/Main;100;200;7", "+/12/stack/Main;100;200;11;@@-1"]),
    "PLAYER\tsecret-pw\tAlice\tAxis", "MainBoardPicker\tBoard A\t0\t0", "SETUP_STACK\t", "end_save"])


def zip_bytes(members):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return buf.getvalue()


def test_new_save_written_and_read_back(tmp_path):
    save = Save(decode(SAVE_TEXT), dialect=Dialect.VCSK, key=0x58)
    out = tmp_path / "new.vsav"
    write(save, out, date_time=STAMP)
    with zipfile.ZipFile(out) as zf:
        assert zf.namelist() == ["savedGame"]
        raw = zf.read("savedGame")
        assert zf.getinfo("savedGame").compress_type == zipfile.ZIP_DEFLATED
    assert raw.startswith(b"!VCSK58")
    back = read(out)
    assert type(back) is Save and back.text == SAVE_TEXT and back.key == 0x58
    assert list(back.pieces) == ["11", "12"]
    assert back.pieces["11"].name == "Rifle Company" and back.pieces["12"].piece_ids == ["11"]
    assert [tuple(p) for p in back.players] == [("secret-pw", "Alice", "Axis")]


@pytest.mark.samples
def test_untouched_sample_rewrites_same_members(tmp_path, samples_dir):
    src = VASL / "3d6.vlog"
    log = read(src)
    out = tmp_path / "copy.vlog"
    write(log, out, protect=(src,))
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(out) as b:
        assert a.namelist() == b.namelist() == ["savedGame", "savedata", "moduledata"]
        for name in a.namelist():
            assert a.read(name) == b.read(name)


@pytest.mark.samples
def test_refuses_to_overwrite_input(samples_dir, tmp_path):
    src = tmp_path / "in.vlog"
    src.write_bytes((VASL / "3d6.vlog").read_bytes())
    with pytest.raises(OutputError, match="input"):
        write(read(src), src, protect=(src,))
    with pytest.raises(OutputError, match="input"):
        write(read(src), src)  # the file it was read from is protected by default
    before = src.read_bytes()
    write(read(src), src, protect=())  # explicitly allowed: rewritten in place, same bytes inside
    assert read(src).text == read(VASL / "3d6.vlog").text
    assert zipfile.ZipFile(src).read("savedGame") == zipfile.ZipFile(io.BytesIO(before)).read("savedGame")


@pytest.mark.samples
def test_dialect_switch_keeps_text(tmp_path, samples_dir):
    log = read(VASL / "3d6.vlog")
    assert log.dialect is Dialect.VCSK and log.key == 0x37
    text = log.text
    prev = log
    for i, dialect in enumerate((Dialect.VOBS, Dialect.PLAIN, Dialect.XZ, Dialect.VCSK)):
        out = tmp_path / f"step{i}.vlog"
        write(prev, out, dialect=dialect)
        with zipfile.ZipFile(out) as zf:
            got_text, got_dialect, got_key = deobfuscate(zf.read("savedGame"))
        assert got_text == text and got_dialect is dialect
        prev = read(out)
        assert prev.text == text and prev.dialect is dialect and isinstance(prev, Log)
    assert read(tmp_path / "step0.vlog").key == 0x37  # the VCSK key carries over to VOBS


@pytest.mark.samples
def test_log_steps_and_dice(samples_dir):
    log = read_log(VASL / "3d6.vlog")
    assert (log.vassal_version, log.module_name, log.module_version) == ("3.2.17", "VASL", "6.5.1")
    assert log.legacy_quoting
    steps = log.steps
    assert [s.index for s in steps] == [1, 2, 3, 4, 5, 6]
    chat, prop = steps[2].commands
    assert isinstance(chat, C.Chat) and chat.dice.values == (3, 4, 1) and chat.dice.player == "test"
    assert isinstance(prop, C.MutableProperty)
    assert (prop.name, prop.old, prop.new, prop.container) == ("3d6_result", "4,4,2", "3,4,1", "Module")
    assert not any(s.is_undo for s in steps)
    start = log.start
    assert type(start) is Save and log.text.startswith(start.text) and start.text.endswith("end_save")
    assert read_save(VASL / "3d6.vlog").text == start.text
    assert len(start.pieces) == 4


@pytest.mark.samples
def test_move_edit_survives_write(tmp_path, samples_dir):
    log = read(VASL / "custom-labels.vlog")
    move = log.steps[13].commands[0]
    assert isinstance(move, C.MovePiece) and (move.new_x, move.player_id) == (168, "test")
    move.new_x = 170
    out = tmp_path / "edited.vlog"
    write(log, out)
    back = read(out)
    assert back.text == log.original_text.replace("/Main Map/168/115/", "/Main Map/170/115/")
    assert back.steps[13].commands[0].new_x == 170


@pytest.mark.samples
def test_players_with_user_ids(samples_dir):
    save = read(SAMPLES / "nevsky" / "Scenario_Watland_1241.vsav")
    assert [tuple(p) for p in save.players] == [("Peeptoom1ship", "Brian Reynolds", "<observer>")]
    assert save.metadata is None and save.members[0][0] == "savedGame"


def test_undo_log_round_trip(tmp_path):
    undo = ESC.join(["LOG\tUNDO\ttrue", "LOG\tM/11/Main/100/200/null/Main/150/200/null/pw", "LOG\tUNDO\tfalse"])
    undo = undo.replace(ESC, "\\" + ESC)
    text = ESC.join([
        "begin_save", "end_save",
        "LOG\tM/11/Main/150/200/null/Main/100/200/null/pw\\" + ESC + "LOG\tCHAT* Rifle moves *",
        undo])
    out = tmp_path / "undo.vlog"
    write(Log(decode(text), dialect=Dialect.VCSK, key=1), out)
    log = read(out)
    assert isinstance(log, Log) and len(log.steps) == 2
    first, second = log.steps
    assert not first.is_undo and [type(c).__name__ for c in first.commands] == ["MovePiece", "Chat"]
    assert second.is_undo and second.index == 2
    (inverse,) = second.undo_commands
    assert isinstance(inverse, C.MovePiece) and (inverse.new_x, inverse.old_x) == (100, 150)
    assert log.text == text


def test_bad_inputs_raise_vlog_errors(tmp_path):
    with pytest.raises(ArchiveError, match="savedGame"):
        read(zip_bytes([("other", b"x")]), name="nosave.vsav")
    with pytest.raises(ArchiveError):
        read(b"definitely not a zip", name="junk.vsav")
    with pytest.raises(ObfuscationError):
        read(zip_bytes([("savedGame", b"!VCSK58zz")]), name="bad.vsav")
    deep = "begin_save" + ESC + "\\" * 400 + ESC + "x"
    from vlog.errors import CommandSyntaxError
    with pytest.raises(CommandSyntaxError, match="deep.vsav"):
        read(zip_bytes([("savedGame", obfuscate(deep, Dialect.VCSK, 1))]), name="deep.vsav")


def test_broken_metadata_is_kept_not_fatal(tmp_path):
    data = zip_bytes([("savedGame", obfuscate(SAVE_TEXT, Dialect.VCSK, 3)), ("savedata", b"<data><version>1")])
    save = read(data, name="m.vsav")
    assert save.metadata is None and save.metadata_problems and "savedata" in save.metadata_problems[0]
    out = tmp_path / "m2.vsav"
    write(save, out)
    with zipfile.ZipFile(out) as zf:
        assert zf.read("savedata") == b"<data><version>1"


def test_save_metadata_values():
    savedata = (b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
                b'  <version>2.0</version>\n  <extra1/>\n  <extra2/>\n  <VassalVersion>3.7.10</VassalVersion>\n'
                b'  <dateSaved>1738347539913</dateSaved>\n  <description>turn 3</description>\n</data>\n')
    moduledata = b'<data version="1"><version>2.1</version><name>Paths of Glory</name></data>'
    save = read(zip_bytes([("savedGame", obfuscate(SAVE_TEXT, Dialect.PLAIN)), ("savedata", savedata),
                           ("moduledata", moduledata)]))
    assert (save.vassal_version, save.module_name, save.module_version) == ("3.7.10", "Paths of Glory", "2.0")
    assert save.metadata.date_saved_ms == 1738347539913 and save.metadata.description == "turn 3"
    assert not save.legacy_quoting and save.dialect is Dialect.PLAIN and save.key is None


@pytest.mark.samples
def test_utf8_names_in_download_test(samples_dir):
    log = read(VASL / "download-test.vlog")
    chat = log.steps[4].commands[0]
    assert isinstance(chat, C.Chat) and chat.is_report and "<日本 Guy>" in chat.text
    assert log.players == []  # this VASL 3.2.17 log names players only in chat lines
    assert log.text.encode("utf-8").count("日本".encode("utf-8")) == 3


_MUTATIONS = st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(
    [ESC, "\\", "\t", "/", ";", "'", "LOG\t", "M/", "+/", "D/", "\\" * 250, "", "x", "UNDO\t", "@@", "9" * 12])),
    min_size=1, max_size=6)


@pytest.mark.samples
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_MUTATIONS, st.sampled_from(["3d6.vlog", "hip-concealed.vsav", "full.vlog", "basic.vsav"]))
def test_mutated_text_reads_or_raises_vlog_error(samples_dir, mutations, name):
    """Fuzz: a damaged savedGame either reads (and its model, JSON and rewrite work) or raises VlogError."""
    text = read(VASL / name).text
    for pos, insert in mutations:
        pos %= len(text) + 1
        text = text[:pos] + insert + text[pos + len(insert) // 2:]
    data = zip_bytes([("savedGame", obfuscate(text, Dialect.VCSK, 7))])
    try:
        obj = read(data, name="fuzz.vsav")
    except VlogError:
        return
    assert obj.text == text
    for piece in obj.pieces.values():
        for trait in piece.traits:
            _ = trait.fields, trait.state_fields
        _ = piece.name, piece.map, piece.x, piece.y, piece.properties, piece.piece_ids
    _ = obj.players
    if isinstance(obj, Log):
        for step in obj.steps:
            _ = step.is_undo, step.commands
    from vlog.vassal.jsonform import from_json, to_json
    assert from_json(to_json(obj, redact_player_ids=False, referee=True)).text == text
    from vlog.vassal.privacy import player_ids
    redacted = from_json(to_json(obj, referee=True))
    if not player_ids(obj.commands):
        assert redacted.text == text


@pytest.mark.samples
def test_change_piece_applied_to_start_position(samples_dir):
    """custom-labels.vlog step 8 advances the phase track: the report names the new layers."""
    log = read(VASL / "custom-labels.vlog")
    track = log.start.pieces["1599716717150"]
    change, report = log.steps[7].commands
    assert isinstance(change, C.ChangePiece) and change.old_state == track.state
    after = track.merge_state(change.new_state, change.old_state)
    layers = {t.name: t.level_name for t in after.traits if t.id_prefix == "emb2;"}
    assert layers["PhaseName"] == "+- PFPh" and layers["Player"] == "Axis +" and layers["TurnName"] == "Turn 1 "
    assert report.text == "* New: Axis Turn 1 - PFPh *"
    assert next(t for t in after.traits if t.id_prefix == "rotate;").facing == 7
    assert after.name == track.name and after.map == "Main Map"


def test_undo_of_a_compound_step_nests_inverses_in_one_step():
    """Undo of a step with several commands: the inverse is a container logged inside the undo."""
    from tests.vassal.test_commands import build_text
    inverse = ("LOG\t", [("LOG\tM/11/Main/100/200/null/Main/150/200/null/pw", []),
                         ("LOG\tD/11/Map;1;1;7/Map;2;2;7", [])])
    undo = ("LOG\tUNDO\ttrue", [inverse, ("LOG\tUNDO\tfalse", [])])
    text = build_text(("begin_save", [("end_save", []), undo]))
    assert "\\\\" + ESC + "LOG\tD/11" in text  # the inverse's own subs are escaped twice
    log = read_log(zip_bytes([("savedGame", obfuscate(text, Dialect.PLAIN))]))
    (step,) = log.steps
    assert step.is_undo and [type(c).__name__ for c in step.undo_commands] == ["MovePiece", "ChangePiece"]
    assert [type(c).__name__ for c in step.commands] == ["Undo", "MovePiece", "ChangePiece", "Undo"]
