"""The one overwrite rule of every command that writes: `-o` never replaces an input, nor an
existing file without `--force`; a special file at the output path (`/dev/stdout`, a FIFO) is
written to as a stream, never replaced by a regular file; temp files stranded by a killed writer
are removed by the next write."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from vlog.cli import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, main
from vlog.vassal.archive import atomic_write_bytes

COMMANDS = (["info"], ["dump"], ["check"], ["dice"])


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_an_existing_output_is_kept_without_force(built_log, tmp_path, capsys, argv):
    out = tmp_path / "report.txt"
    out.write_text("keep me", encoding="utf-8")
    assert main([*argv, str(built_log), "-o", str(out)]) == EXIT_INPUT
    assert "already exists; use --force to replace it" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "keep me"
    assert main([*argv, str(built_log), "-o", str(out), "--force"]) in (EXIT_OK, EXIT_FINDINGS)
    assert out.read_text(encoding="utf-8") != "keep me"


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_the_input_is_never_an_output_even_with_force(built_log, capsys, argv):
    before = built_log.read_bytes()
    assert main([*argv, str(built_log), "-o", str(built_log), "--force"]) == EXIT_INPUT
    assert "overwrite the input" in capsys.readouterr().err
    assert built_log.read_bytes() == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_at_the_output_path_is_written_to_not_replaced(built_log, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(["info", str(built_log), "-o", str(fifo)]) == EXIT_OK
    reader.join(30)
    assert got and got[0].startswith(b"File: ")
    assert not fifo.is_file() and fifo.exists()  # still the FIFO
    assert not list(tmp_path.glob(".pipe.*"))


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_a_device_at_the_output_path_is_written_as_a_stream(built_log):
    assert main(["dump", str(built_log), "-o", "/dev/null"]) == EXIT_OK
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


def test_dev_stdout_is_a_stream(built_log, tmp_path):
    """`-o /dev/stdout` in a child whose stdout is a file: the text lands in that file."""
    if not os.path.exists("/dev/stdout"):
        pytest.skip("no /dev/stdout")
    sink = tmp_path / "captured"
    with open(sink, "wb") as fh:
        done = subprocess.run([sys.executable, "-m", "vlog", "info", str(built_log), "-o", "/dev/stdout"],
                              stdout=fh, stderr=subprocess.PIPE, timeout=120)
    assert done.returncode == 0, done.stderr
    assert sink.read_bytes().startswith(b"File: ")


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temp_files_of_dead_writers_are_removed_and_live_ones_kept(tmp_path):
    out = tmp_path / "game.json"
    dead = tmp_path / f".game.json.{_dead_pid()}-0123456789ab.tmp"
    live = tmp_path / f".game.json.{os.getppid()}-0123456789ab.tmp"
    other = tmp_path / f".other.json.{_dead_pid()}-0123456789ab.tmp"
    for p in (dead, live, other):
        p.write_bytes(b"partial")
    atomic_write_bytes(out, b"{}")
    assert out.read_bytes() == b"{}"
    assert not dead.exists()
    assert live.exists() and other.exists()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no kill -9 here")
def test_a_write_killed_midway_leaves_nothing_after_the_next_run(tmp_path):
    out = tmp_path / "big.vsav"
    code = ("import os, sys, time\n"
            "from vlog.vassal import archive\n"
            "os.fsync = lambda fd: time.sleep(120)\n"
            "archive.atomic_write_bytes(sys.argv[1], b'x' * 100000)\n")
    child = subprocess.Popen([sys.executable, "-c", code, str(out)])
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(".big.vsav.*.tmp")):
            assert time.monotonic() < deadline and child.poll() is None, "the writer never started"
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
    assert list(tmp_path.glob(".big.vsav.*.tmp"))  # stranded by the kill
    atomic_write_bytes(out, b"done")
    assert out.read_bytes() == b"done"
    assert not list(tmp_path.glob(".*.tmp"))
