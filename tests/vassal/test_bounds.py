"""Bounded memory and time on hostile inputs the tests build themselves (issue: memory, time and
special files): special files, archives of many small bombs, millions of commands, deep nesting,
huge buildFiles, and the library's public names."""
from __future__ import annotations

import io
import lzma
import os
import subprocess
import sys
import threading
import zipfile

import pytest

import vlog
from vlog.errors import ArchiveError, CommandSyntaxError, ModuleError, VlogError
from vlog.vassal import commands as C
from vlog.vassal.archive import Limits, open_archive, read_regular_file
from vlog.vassal.obfuscation import Dialect, obfuscate
from vlog.vassal.savefile import read
from vlog.vassal.xmlsafe import MAX_XML_ELEMENTS, parse_xml

MiB = 1 << 20
ESC = "\x1b"


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return buf.getvalue()


SAVE_TEXT = ESC.join(["begin_save", "", "end_save"])


# --- special files ---------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused_not_read():
    for reader in (open_archive, read, vlog.read_module):
        with pytest.raises(VlogError, match="not a regular file"):
            reader("/dev/zero")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_without_a_writer_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "game.vsav"
    os.mkfifo(fifo)
    outcome: list[object] = []

    def attempt():
        try:
            read(fifo)
        except VlogError as exc:
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():  # unblock the reader before failing
        with open(fifo, "wb"):
            pass
        pytest.fail("reading a FIFO blocked")
    assert outcome and "not a regular file" in str(outcome[0])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_the_cli_refuses_special_files(tmp_path, capsys):
    from vlog.cli import EXIT_INPUT, main
    fifo = tmp_path / "turn.vlog"
    os.mkfifo(fifo)
    for argv in (["info", str(fifo)], ["dump", str(fifo)], ["check", str(fifo)],
                 ["convert", str(fifo), str(tmp_path / "out.json")]):
        assert main(argv) == EXIT_INPUT
        assert "not a regular file" in capsys.readouterr().err


def test_a_file_is_read_in_chunks_not_by_reserving_the_cap(tmp_path):
    """Reading used to reserve the whole 2 GiB cap at once: under an address-space limit every
    file failed. A child process with 1 GiB of address space reads a save."""
    resource = pytest.importorskip("resource")
    del resource
    path = tmp_path / "small.vsav"
    path.write_bytes(_zip([("savedGame", SAVE_TEXT.encode())]))
    code = ("import resource, sys\n"
            "import vlog.vassal.savefile as s\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
            "s.read(sys.argv[1]).commands\n"
            "print('read')\n")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "read"


def test_read_regular_file_caps_and_names_the_file(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"a" * 5000)
    assert read_regular_file(path, 5000) == b"a" * 5000
    with pytest.raises(ArchiveError, match="x.bin: is 5000 bytes, more than the limit of 4999"):
        read_regular_file(path, 4999)
    with pytest.raises(ArchiveError, match="is a folder"):
        read_regular_file(tmp_path, 10)


# --- archives ----------------------------------------------------------------------------------

def test_many_members_each_under_the_ratio_floor_are_stopped_over_the_whole_archive():
    """Thousands of members of 1 MiB of zeros, each below the per-member ratio check's floor,
    took gigabytes; the same check over every member read stops them after a few."""
    members = [(f"m{i}", bytes(MiB)) for i in range(8)]
    arc = open_archive(_zip(members), name="many.vmod")
    with pytest.raises(ArchiveError, match="many.vmod: member m[0-9]: the members read so far inflate"):
        for name, _ in members:
            arc.read(name)


def test_ordinary_members_pass_the_whole_archive_check():
    rnd = os.urandom(512 * 1024)
    members = [(f"img{i}.png", rnd) for i in range(6)] + [("buildFile.xml", b"<a/>" * 100_000)]
    arc = open_archive(_zip(members))
    for name, data in members:
        assert arc.read(name) == data


def test_a_save_inflates_only_the_members_it_needs():
    """A save holding a bomb beside its savedGame reads (info, dump, check need no more); the
    bomb is met, and refused, only when the file is written back."""
    bomb = [(f"images/p{i}.png", bytes(MiB)) for i in range(40)]
    data = _zip([("savedGame", obfuscate(SAVE_TEXT, Dialect.VCSK, 7)), *bomb])
    save = read(data, name="bomb.vsav")
    assert save.key == 7
    assert [n for n, _ in save.members[:1]] == ["savedGame"]
    assert len(save.members) == 41
    with pytest.raises(ArchiveError, match="bomb.vsav: member images/p[0-9]+.png"):
        list(save.members)


# --- commands: count and nesting ---------------------------------------------------------------

def test_an_xz_log_of_millions_of_commands_is_refused_quickly():
    """A few kilobytes of XZ inflate to millions of commands: refused at the cap."""
    steps = ESC.join(["LOG\tCHAT x"] * (C.MAX_COMMANDS + 10))
    xz = lzma.compress((SAVE_TEXT + ESC + steps).encode(), format=lzma.FORMAT_XZ)
    assert len(xz) < 64 * 1024
    data = _zip([("savedGame", xz)])
    with pytest.raises(CommandSyntaxError, match=f"many.vlog: offset 0: .*more than the {C.MAX_COMMANDS} commands"):
        read(data, name="many.vlog")


def test_commands_beyond_the_cap_are_counted_while_decoding(monkeypatch):
    """LOG steps decode to two nodes per separator: the count while decoding catches those."""
    monkeypatch.setattr(C, "MAX_COMMANDS", 1000)
    text = SAVE_TEXT + ESC + ESC.join(["LOG\tCHAT x"] * 600)
    with pytest.raises(CommandSyntaxError, match="more than 1000 commands"):
        C.decode(text, file="steps.vlog")
    C.decode(SAVE_TEXT + ESC + ESC.join(["LOG\tCHAT x"] * 400))


def test_deep_nesting_of_a_long_text_is_refused_as_too_much_work(monkeypatch):
    from vlog.vassal.sequence import encode_token
    monkeypatch.setattr(C, "MAX_NESTING_WORK", 4)
    text = "CHAT " + "x" * (2 * MiB)
    for _ in range(12):
        text = ESC.join(["", encode_token(text, ESC)])
    with pytest.raises(CommandSyntaxError, match="nested so deeply"):
        C.decode(text, file="deep.vlog")


def test_real_nesting_is_far_below_the_work_cap():
    from tests.cli.conftest import log_text
    C.decode(log_text())  # would raise with a cap near the real ratio (about 2)


# --- buildFile ---------------------------------------------------------------------------------

def test_a_build_file_of_millions_of_elements_is_refused_before_parsing():
    data = b"<VASSAL.build.GameModule>" + b"<a/>" * (MAX_XML_ELEMENTS + 1) + b"</VASSAL.build.GameModule>"
    with pytest.raises(ModuleError, match="elements, more than the limit"):
        parse_xml(data, file="huge.vmod", member="buildFile.xml")


def test_comments_and_closing_tags_do_not_count_as_elements():
    body = b"<a><!-- c --><?pi x?></a>" * 10
    root = parse_xml(b"<r>" + body + b"</r>")
    assert len(root) == 10


# --- out of memory -----------------------------------------------------------------------------

def test_memory_error_anywhere_is_exit_3_with_one_line(tmp_path, capsys, monkeypatch):
    from vlog.cli import EXIT_INPUT, main
    import vlog.vassal.savefile as savefile
    path = tmp_path / "x.vsav"
    path.write_bytes(_zip([("savedGame", SAVE_TEXT.encode())]))

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(savefile, "decode", exhausted)
    assert main(["info", str(path)]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert err.startswith("vlog: error: out of memory") and err.count("\n") == 1
    assert "Traceback" not in err


# --- the library's face ------------------------------------------------------------------------

def test_the_package_exports_what_a_program_needs(tmp_path):
    for name in ("read", "read_module", "write", "Save", "Log", "VlogError", "ArchiveError",
                 "ObfuscationError", "CommandSyntaxError", "ModuleError", "OutputError"):
        assert name in vlog.__all__ and getattr(vlog, name) is not None
    assert issubclass(vlog.ModuleError, vlog.VlogError)
    path = tmp_path / "x.vsav"
    path.write_bytes(_zip([("savedGame", SAVE_TEXT.encode())]))
    save = vlog.read(path)
    vlog.write(save, tmp_path / "y.vsav")
    assert vlog.read(tmp_path / "y.vsav").text == SAVE_TEXT
    with pytest.raises(vlog.ModuleError):
        vlog.read_module(path)


# --- grid numbering ----------------------------------------------------------------------------

@pytest.mark.parametrize("attrs,message", [
    ('hType="N" vType="N" vLeading="1000000000"', "zeros"),
    ('hType="A" vType="N" hOff="-2147483648"', "letters"),
    ('hType="A" vType="N" hOff="1000000000"', "letters, more than"),
], ids=["huge-leading", "smallest-int-offset", "huge-offset"])
def test_hostile_grid_numbering_fails_fast_with_a_clear_error(tmp_path, capsys, attrs, message):
    """Attributes no real module uses, which made VASSAL's naming loops overflow, run for
    minutes or print a name of millions of characters: refused with one line."""
    from tests.cli.conftest import BUILD_FILE
    from vlog.cli import EXIT_INPUT, EXIT_OK, main
    from vlog.vassal.grids import LocationError, MAX_PART_CHARS
    build = tmp_path / "buildFile.xml"
    build.write_text(BUILD_FILE.replace('sep="," hType="N" vType="N"', f'sep="," {attrs}'), encoding="utf-8")
    grid = vlog.read_module(build).maps[0].boards[0].grid
    with pytest.raises(LocationError, match=message):
        grid.location_name(150, 250)
    assert main(["where", str(build), "--map", "Main Map", "150", "250"]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert message.split()[0] in err and len(err) < 400 and "Traceback" not in err
    assert MAX_PART_CHARS < 10_000


def test_ordinary_grid_names_are_unchanged(tmp_path):
    from tests.cli.conftest import BUILD_FILE
    build = tmp_path / "buildFile.xml"
    build.write_text(BUILD_FILE.replace('sep="," hType="N" vType="N"',
                                        'sep="," hType="A" vType="N" vLeading="2" hOff="27"'), encoding="utf-8")
    grid = vlog.read_module(build).maps[0].boards[0].grid
    assert grid.location_name(150, 250) == "DD,004"  # column 2 + 27 in letters, row 3 + 1 padded
