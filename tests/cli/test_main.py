"""`vlog.cli.main`: exact exit codes and one clean line per failure."""
from __future__ import annotations

import pytest

from vlog.cli import EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, main


def test_version_and_help_exit_0(capsys):
    assert main(["--version"]) == EXIT_OK
    assert "0.1.0" in capsys.readouterr().out
    for cmd in ("info", "dump", "convert"):
        assert main([cmd, "--help"]) == EXIT_OK
        out = capsys.readouterr().out
        assert "Example" in out and f"vlog {cmd} " in out, cmd


def test_help_lists_each_command_by_its_own_summary():
    """The summaries `vlog --help` prints without importing the commands are their help's."""
    import importlib

    from click.utils import make_default_short_help

    from vlog.cli import COMMANDS

    for name, summary in COMMANDS.items():
        command = importlib.import_module(f"vlog.cli.{name}").command
        assert command.get_short_help_str(10_000) == summary, name
        for width in (30, 45, 80):
            assert command.get_short_help_str(width) == make_default_short_help(summary, width), name


def test_help_loads_no_command_and_no_lxml():
    """`vlog --help` starts as light as click itself: no subcommand module, no codec, no lxml
    (nor urllib.request and http, which xml.sax.saxutils would bring)."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    probe = ("import sys, vlog.cli\n"
             "assert vlog.cli.main(['--help']) == 0\n"
             "print(' '.join(sorted(m for m in sys.modules if m.startswith(('vlog', 'lxml', 'rich', "
             "'urllib.request', 'http', 'xml')))))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.decode().splitlines()
    assert "Commands:" in lines and all(f"  {name} " in run.stdout.decode() for name in ("check", "info"))
    assert lines[-1].split() == ["vlog", "vlog.cli", "vlog.errors"]


@pytest.mark.parametrize("argv", [
    ["no-such-command"],
    ["info"],
    ["info", "a.vsav", "--format", "xml"],
    ["dump", "a.vlog", "--no-such-option"],
    ["convert", "a.vlog"],
    ["convert", "a.vlog", "b.json", "--key", "300"],
    ["convert", "a.vlog", "b.txt"],
    ["convert", "a.vlog", "b.json", "--dialect", "vobs"],
    ["convert", "a.vlog", "b.vlog", "--dialect", "plain", "--key", "5"],
    ["convert", "a.vlog", "b.vlog", "--dialect", "vobs", "--key", "0"],
])
def test_usage_errors_exit_2(argv, capsys):
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "Error" in err or "Usage" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("cmd", ["info", "dump"])
def test_missing_file_exits_3_with_one_line(cmd, tmp_path, capsys):
    missing = tmp_path / "missing.vsav"
    assert main([cmd, str(missing)]) == EXIT_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"vlog: error: {missing}: no such file; check the name and folder\n"


def test_missing_convert_input_exits_3(tmp_path, capsys):
    assert main(["convert", str(tmp_path / "missing.vlog"), str(tmp_path / "out.json")]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert err.startswith("vlog: error: ") and err.count("\n") == 1
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("content", [b"", b"not a zip at all", b"PK\x03\x04broken"])
@pytest.mark.parametrize("cmd", ["info", "dump"])
def test_unreadable_file_exits_3_with_one_line(cmd, content, tmp_path, capsys):
    bad = tmp_path / "bad.vlog"
    bad.write_bytes(content)
    assert main([cmd, str(bad)]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert err.startswith(f"vlog: error: {bad}: ")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_folder_as_input_exits_3(tmp_path, capsys):
    assert main(["info", str(tmp_path)]) == EXIT_INPUT
    assert "is a folder" in capsys.readouterr().err


def test_bad_json_exits_3(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "vlog-save", "commands": ')
    assert main(["info", str(bad)]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert err.startswith(f"vlog: error: {bad}: ") and "not valid JSON" in err
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["info", str(deep)]) == EXIT_INPUT
    other = tmp_path / "other.json"
    other.write_text('{"format": "something else"}')
    assert main(["dump", str(other)]) == EXIT_INPUT


def _boom(*args, **kwargs):
    raise RuntimeError("injected failure")


def test_internal_error_exits_4_without_traceback(built_save, monkeypatch, capsys):
    import vlog.cli.info as info

    monkeypatch.setattr(info, "summarize_game", _boom)
    assert main(["info", str(built_save)]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert err == "vlog: internal error: RuntimeError: injected failure (run with --debug for details)\n"


def test_internal_error_with_debug_shows_traceback_and_exits_4(built_save, monkeypatch, capsys):
    import vlog.cli.dump as dump

    monkeypatch.setattr(dump, "build_dump", _boom)
    assert main(["--debug", "dump", str(built_save)]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert "RuntimeError: injected failure" in err
    assert err.rstrip().endswith("vlog: internal error: RuntimeError: injected failure")


def test_input_error_with_debug_still_exits_3(tmp_path, capsys):
    bad = tmp_path / "bad.vsav"
    bad.write_bytes(b"junk")
    assert main(["--debug", "info", str(bad)]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "Traceback" in err and f"vlog: error: {bad}: " in err


def test_piped_run_has_clean_streams_and_exit_codes(built_log, tmp_path):
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {k: v for k, v in os.environ.items() if k not in ("CI", "VLOG_DEBUG", "VLOG_NO_PROGRESS")}
    env["NO_COLOR"] = "1"
    run = subprocess.run([sys.executable, "-m", "vlog", "dump", str(built_log)], capture_output=True,
                         cwd=ROOT, env=env, timeout=120)
    assert run.returncode == EXIT_OK
    assert run.stderr == b""  # no progress bar, no warning
    assert b"Steps (7):" in run.stdout and b"\x1b" not in run.stdout and b"\r" not in run.stdout
    missing = subprocess.run([sys.executable, "-m", "vlog", "info", str(tmp_path / "nope.vlog")],
                             capture_output=True, cwd=ROOT, env=env, timeout=120)
    assert missing.returncode == EXIT_INPUT
    assert missing.stdout == b"" and missing.stderr.count(b"\n") == 1


def test_check_scenario_option_judges_the_scenario_given(capsys):
    """`vlog check --scenario ID` (with --game) judges that scenario, whatever the start tells; an
    id the game lacks is a usage error listing its scenarios; without --game, a usage error."""
    from tests.conftest import FIXTURES
    from vlog.cli.check import load_game

    assert load_game("ascari", scenario="s1").given_scenario == "s1"
    assert load_game("ascari").given_scenario is None
    log = str(FIXTURES / "ascari" / "rules" / "FDR-16.vlog")
    assert main(["check", log, "--game", "ascari", "--scenario", "s9"]) == EXIT_USAGE
    assert "its scenarios: s1, s2, s3, s4, s5" in capsys.readouterr().err
    assert main(["check", log, "--scenario", "s1"]) == EXIT_USAGE
    assert "--scenario applies only with --game" in capsys.readouterr().err
    assert main(["check", log, "--game", "ascari", "--scenario", "s1", "--format", "json"]) == 1
    report = capsys.readouterr().out
    assert report.count('"check": "ascari/FDR-16"') >= 2
    assert main(["check", "--help"]) == EXIT_OK
    assert "--game ascari --scenario s1" in capsys.readouterr().out
