"""`vlog convert`: lossless save/log <-> JSON, dialect re-writes, guarded atomic output."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import vlog
from tests.cli.conftest import SECRET_IDS, convert
from tests.conftest import ROOT, sample_params
from vlog.cli import EXIT_INPUT, EXIT_USAGE
from vlog.vassal.obfuscation import Dialect


def members(path: Path) -> dict[str, bytes]:
    return dict(vlog.read(path).members)


def test_log_json_log_is_lossless_with_ids(built_log, tmp_path, capsys):
    as_json, back = tmp_path / "log.json", tmp_path / "back.vlog"
    assert convert(capsys, str(built_log), str(as_json), "--show-player-ids", "--referee") == ""
    doc = json.loads(as_json.read_text(encoding="utf-8"))
    assert doc["player_ids_redacted"] is False and doc["kind"] == "log"
    assert convert(capsys, str(as_json), str(back)) == ""
    original, copy = vlog.read(built_log), vlog.read(back)
    assert copy.text == original.text
    assert (copy.dialect, copy.key) == (original.dialect, original.key)
    assert {k: v for k, v in members(back).items() if k != "savedGame"} == \
        {k: v for k, v in members(built_log).items() if k != "savedGame"}
    assert members(back)["savedGame"] == members(built_log)["savedGame"]


def test_json_validates_against_the_schema(built_log, tmp_path, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "schemas" / "save.schema.json").read_text(encoding="utf-8"))
    for flags in ([], ["--show-player-ids"]):
        out = tmp_path / f"log{len(flags)}.json"
        convert(capsys, str(built_log), str(out), *flags)
        jsonschema.validate(json.loads(out.read_text(encoding="utf-8")), schema)


def test_concealed_pieces_are_hidden_unless_referee(built_log, tmp_path, capsys):
    hidden, full = tmp_path / "hidden.json", tmp_path / "full.json"
    err = convert(capsys, str(built_log), str(hidden), "--show-player-ids")
    assert "shown only as concealed (no type or state)" in err and "use --referee" in err
    doc = json.loads(hidden.read_text(encoding="utf-8"))
    assert doc["concealed_redacted"] is True
    text = hidden.read_text(encoding="utf-8")
    assert text.count('"concealed": "masked"') >= 1 and '"name": "a masked piece' in text
    assert convert(capsys, str(built_log), str(full), "--show-player-ids", "--referee") == ""
    text = full.read_text(encoding="utf-8")
    assert '"concealed": "' not in text and '"name": "a masked piece' not in text
    assert json.loads(text)["concealed_redacted"] is False
    err = convert(capsys, str(built_log), str(tmp_path / "x.vlog"), "--referee", expect=EXIT_USAGE)
    assert "--referee applies to JSON output" in err


def test_redacted_json_says_so_and_warns_both_ways(built_log, tmp_path, capsys):
    as_json, back = tmp_path / "log.json", tmp_path / "back.vlog"
    err = convert(capsys, str(built_log), str(as_json), "--referee")
    assert err.startswith("vlog: warning: player ids are replaced by <player-N> placeholders")
    text = as_json.read_text(encoding="utf-8")
    assert json.loads(text)["player_ids_redacted"] is True
    for secret in SECRET_IDS:
        assert secret not in text
    err = convert(capsys, str(as_json), str(back))
    assert "carries the placeholders, not the real ids" in err
    copy = vlog.read(back)
    assert [p.user_id for p in copy.players] == ["<player-1>", "<player-2>", "<player-2>"]
    original = vlog.read(built_log).text
    for i, secret in enumerate(SECRET_IDS, 1):
        original = original.replace(secret, f"<player-{i}>")
    assert copy.text == original


def _rewrite(source: Path, tmp_path: Path, capsys, dialect: str) -> None:
    out = tmp_path / f"{dialect}{source.suffix}"
    convert(capsys, str(source), str(out), "--dialect", dialect)
    copy = vlog.read(out)
    assert copy.dialect is Dialect[dialect.upper()]
    assert copy.text == vlog.read(source).text
    # and back to VASSAL 3.7's dialect, with the key asked for
    again = tmp_path / f"{dialect}-again{source.suffix}"
    convert(capsys, str(out), str(again), "--dialect", "vcsk", "--key", "7")
    assert members(again)["savedGame"].startswith(b"!VCSK07")
    assert vlog.read(again).text == copy.text


@pytest.mark.parametrize("dialect", ["vcsk", "vobs", "xz", "plain"])
def test_rewrite_save_in_another_dialect(built_save, tmp_path, capsys, dialect):
    _rewrite(built_save, tmp_path, capsys, dialect)


@pytest.mark.parametrize("dialect", ["vcsk", "vobs", "xz", "plain"])
def test_rewrite_log_in_another_dialect(built_log, tmp_path, capsys, dialect):
    _rewrite(built_log, tmp_path, capsys, dialect)


def test_key_without_meaning_is_a_usage_error(built_save, tmp_path, capsys):
    xz = tmp_path / "xz.vsav"
    convert(capsys, str(built_save), str(xz), "--dialect", "xz")
    err = convert(capsys, str(xz), str(tmp_path / "x.vsav"), "--key", "5", expect=EXIT_USAGE)
    assert "no meaning for the XZ dialect" in err
    assert not (tmp_path / "x.vsav").exists()


def test_never_overwrites_the_input(built_log, tmp_path, capsys):
    before = built_log.read_bytes()
    err = convert(capsys, str(built_log), str(built_log), "--force", "--dialect", "plain", expect=EXIT_INPUT)
    assert err == f"vlog: error: {built_log}: the output would overwrite the input; choose another output file name\n"
    link = tmp_path / "link.vlog"
    os.symlink(built_log, link)
    convert(capsys, str(built_log), str(link), "--force", expect=EXIT_INPUT)
    assert built_log.read_bytes() == before


def test_existing_output_needs_force(built_save, tmp_path, capsys):
    out = tmp_path / "out.json"
    out.write_text("keep me")
    err = convert(capsys, str(built_save), str(out), expect=EXIT_INPUT)
    assert "already exists; use --force to replace it" in err
    assert out.read_text() == "keep me"
    convert(capsys, str(built_save), str(out), "--force")
    assert json.loads(out.read_text(encoding="utf-8"))["kind"] == "save"


def test_log_is_not_written_as_a_save(built_log, built_save, tmp_path, capsys):
    err = convert(capsys, str(built_log), str(tmp_path / "x.vsav"), expect=EXIT_INPUT)
    assert "the input is a log; write it to a .vlog file" in err
    err = convert(capsys, str(built_save), str(tmp_path / "x.vlog"), expect=EXIT_INPUT)
    assert "write it to a .vsav file" in err
    assert list(tmp_path.glob("x.*")) == []


def test_failed_write_leaves_no_file(built_log, tmp_path, capsys, monkeypatch):
    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_space)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    err = convert(capsys, str(built_log), str(out_dir / "x.json"), expect=EXIT_INPUT)
    assert "No space left on device" in err and err.count("\n") == 1
    err = convert(capsys, str(built_log), str(out_dir / "x.vlog"), "--dialect", "vobs", expect=EXIT_INPUT)
    assert list(out_dir.iterdir()) == []


def test_broken_json_is_refused_without_output(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "vlog-save", "commands": {"command": "no-such"}}))
    err = convert(capsys, str(bad), str(tmp_path / "x.vsav"), expect=EXIT_INPUT)
    assert err.startswith(f"vlog: error: {bad}: ")
    assert not (tmp_path / "x.vsav").exists()


@pytest.mark.samples
@pytest.mark.parametrize("sample", sample_params("*/*.vsav", "*/*.vlog"))
def test_every_sample_round_trips_through_json(sample, tmp_path, capsys):
    as_json, back = tmp_path / "s.json", tmp_path / ("back" + sample.suffix)
    convert(capsys, str(sample), str(as_json), "--show-player-ids", "--referee")
    convert(capsys, str(as_json), str(back))
    original, copy = vlog.read(sample), vlog.read(back)
    assert copy.text == original.text
    assert type(copy) is type(original)
    assert {k: v for k, v in members(back).items() if k != "savedGame"} == \
        {k: v for k, v in members(sample).items() if k != "savedGame"}
