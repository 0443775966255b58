"""The shared console helpers: safe text, progress only on terminals, atomic guarded output."""
from __future__ import annotations

import io
import os
import sys

import pytest

from vlog.cli import _console
from vlog.errors import OutputError, VlogError


def test_printable_escapes_terminal_controls():
    hostile = "go\x1b[31mred\x07\x9b2J\u2028end\ttab"
    shown = _console.printable(hostile)
    assert "\x1b" not in shown and "\x07" not in shown and "\x9b" not in shown and "\u2028" not in shown
    assert shown == "go\\e[31mred\\x07\\x9b2J\\u2028end\\ttab"
    assert _console.printable("a\nb", keep_newlines=True) == "a\nb"
    assert _console.printable("a\nb") == "a\\x0ab"
    assert _console.printable("Ωμέγα 日本") == "Ωμέγα 日本"


def test_consoles_do_not_interpret_markup_or_emoji(capsys):
    _console.stdout_console().out("[bold]x[/bold] :smile: <Alice> 1,2", highlight=False)
    assert capsys.readouterr().out == "[bold]x[/bold] :smile: <Alice> 1,2\n"


def test_emit_writes_player_text_verbatim_to_stdout(capsys):
    _console.emit("[red]chat[/red] :thumbs_up:", None)
    assert capsys.readouterr().out == "[red]chat[/red] :thumbs_up:\n"


def test_json_text_escapes_c1_and_line_separators():
    text = _console.json_text({"chat": "a\x9bb\u2028c\x85"})
    assert "\x9b" not in text and "\u2028" not in text and "\x85" not in text
    import json
    assert json.loads(text) == {"chat": "a\x9bb\u2028c\x85"}
    lines = _console.json_text([{"a": 1}, {"b": "x"}], lines=True)
    assert lines == '{"a":1}\n{"b":"x"}\n'


def test_progress_is_silent_when_stderr_is_not_a_terminal(monkeypatch, capsys):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert not _console.progress_wanted()
    assert list(_console.progress(range(5), 5, "reading")) == [0, 1, 2, 3, 4]
    assert sys.stderr.getvalue() == ""


class _FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_on_a_terminal_but_not_in_ci(monkeypatch):
    term = _FakeTerminal()
    monkeypatch.setattr(sys, "stderr", term)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("VLOG_NO_PROGRESS", raising=False)
    assert _console.progress_wanted()
    assert list(_console.progress(range(3), 3, "reading [x]")) == [0, 1, 2]
    assert "reading [x]" in term.getvalue()
    monkeypatch.setenv("CI", "true")
    assert not _console.progress_wanted()


def test_check_output_refuses_the_input_itself(tmp_path):
    src = tmp_path / "game.vsav"
    src.write_bytes(b"x")
    with pytest.raises(OutputError, match="overwrite the input"):
        _console.check_output_path(src, [src], force=True)
    with pytest.raises(OutputError, match="overwrite the input"):
        _console.check_output_path(tmp_path / "sub" / ".." / "game.vsav", [src], force=True)
    link = tmp_path / "link.vsav"
    os.symlink(src, link)
    with pytest.raises(OutputError, match="overwrite the input"):
        _console.check_output_path(link, [src], force=True)


def test_check_output_refuses_existing_without_force(tmp_path):
    out = tmp_path / "out.json"
    out.write_text("old")
    with pytest.raises(OutputError, match="--force"):
        _console.check_output_path(out, [], force=False)
    _console.check_output_path(out, [], force=True)
    with pytest.raises(OutputError, match="does not exist"):
        _console.check_output_path(tmp_path / "nope" / "x.json", [], force=False)
    with pytest.raises(OutputError, match="folder"):
        _console.check_output_path(tmp_path, [], force=True)


def test_write_atomic_leaves_no_partial_file(tmp_path, monkeypatch):
    out = tmp_path / "out.txt"
    out.write_bytes(b"old content")

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OutputError, match="No space left"):
        _console.write_atomic(out, b"new content")
    monkeypatch.undo()
    assert out.read_bytes() == b"old content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
    _console.write_atomic(out, b"new content")
    assert out.read_bytes() == b"new content"


def test_emit_to_file_refuses_input_and_writes_utf8(tmp_path):
    src = tmp_path / "in.vlog"
    src.write_bytes(b"zip")
    with pytest.raises(OutputError):
        _console.emit("text", src, inputs=[src])
    assert src.read_bytes() == b"zip"
    out = tmp_path / "out.txt"
    _console.emit("Ωμέγα", out, inputs=[src])
    assert out.read_text(encoding="utf-8") == "Ωμέγα\n"


def test_check_input_names_the_problem(tmp_path):
    with pytest.raises(VlogError, match="no such file"):
        _console.check_input(tmp_path / "missing.vsav")
    with pytest.raises(VlogError, match="is a folder"):
        _console.check_input(tmp_path)
    f = tmp_path / "ok.vsav"
    f.write_bytes(b"")
    assert _console.check_input(f) == f
