"""Files of VASSAL 2.9-3.0 (built here, as they were written): `.sav` and `.log` names, chosen by
content as VASSAL does, and !VCSK in upper-case hex kept through every rewrite."""
from __future__ import annotations

import json

import pytest

from tests.cli.conftest import log_text, save_text
from vlog.cli import EXIT_OK, main
from vlog.vassal.archive import write_archive
from vlog.vassal.obfuscation import Dialect, deobfuscate, obfuscate, vcsk_upper
from vlog.vassal.savefile import SAVED_GAME, read


def _old(path, text: str):
    member = obfuscate(text, Dialect.VCSK, 0x3C, upper=True)
    assert member.startswith(b"!VCSK3C") and vcsk_upper(member)
    write_archive(path, [(SAVED_GAME, member)], date_time=(2008, 1, 2, 3, 4, 6))
    return member


def test_upper_case_hex_is_read_and_written_back_as_upper_case(tmp_path):
    member = _old(tmp_path / "old.sav", save_text())
    assert deobfuscate(member)[0] == save_text()
    assert obfuscate(save_text(), Dialect.VCSK, 0x3C) == b"!VCSK3c" + member[7:].lower()
    assert not vcsk_upper(obfuscate(save_text(), Dialect.VCSK, 0x3C))


@pytest.mark.parametrize("name,text", [("game.sav", save_text()), ("game.log", log_text())])
def test_old_names_convert_by_content_and_back_byte_identical(tmp_path, capsys, name, text):
    source = tmp_path / name
    member = _old(source, text)
    as_json = tmp_path / "game.json"
    assert main(["convert", str(source), str(as_json), "--show-player-ids", "--referee"]) == EXIT_OK
    doc = json.loads(as_json.read_text(encoding="utf-8"))
    assert doc["hex_case"] == "upper" and doc["key"] == 0x3C
    back = tmp_path / ("back.vsav" if name.endswith(".sav") else "back.vlog")
    assert main(["convert", str(as_json), str(back)]) == EXIT_OK
    written = dict(read(back).members)[SAVED_GAME]
    assert written == member  # the same bytes: case, key and text


def test_an_old_log_converts_to_a_save_at_a_step_and_to_another_dialect(tmp_path, capsys):
    source = tmp_path / "game.log"
    _old(source, log_text())
    assert main(["convert", str(source), str(tmp_path / "at.vsav"), "--step", "2"]) == EXIT_OK
    assert read(tmp_path / "at.vsav").commands is not None
    assert main(["convert", str(source), str(tmp_path / "new.vlog"), "--dialect", "vobs"]) == EXIT_OK
    assert read(tmp_path / "new.vlog").dialect is Dialect.VOBS


def test_a_rewrite_in_vcsk_with_another_key_keeps_the_case(tmp_path, capsys):
    source = tmp_path / "game.sav"
    _old(source, save_text())
    out = tmp_path / "new.vsav"
    assert main(["convert", str(source), str(out), "--key", "7"]) == EXIT_OK
    written = dict(read(out).members)[SAVED_GAME]
    assert written.startswith(b"!VCSK07") and vcsk_upper(written)


def test_a_file_of_another_name_that_is_no_save_is_still_refused(tmp_path, capsys):
    source = tmp_path / "notes.log"
    source.write_text("just text", encoding="utf-8")
    assert main(["convert", str(source), str(tmp_path / "x.json")]) == 2
    assert "cannot convert" in capsys.readouterr().err
