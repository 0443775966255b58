"""Zip reading under caps (never extracting), atomic writing, and hostile archives."""
from __future__ import annotations

import io
import os
import stat
import struct
import tracemalloc
import zipfile
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import sample_params
from vlog.errors import ArchiveError, OutputError
from vlog.vassal.archive import (DEFAULT_LIMITS, Limits, atomic_write_bytes, is_zip, open_archive,
                                 write_archive)

MiB = 1 << 20


def make_zip(members: list[tuple[str, bytes]], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=compression) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return buf.getvalue()


def raw_zip(name: str, compressed: bytes, *, size: int, crc: int, method: int = 8, flags: int = 0) -> bytes:
    """A one-member zip with the given compressed bytes and declared size (headers by hand)."""
    fn = name.encode()
    local = struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, flags, method, 0, 0x21, crc,
                        len(compressed), size, len(fn), 0) + fn
    central = struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, flags, method, 0, 0x21, crc,
                          len(compressed), size, len(fn), 0, 0, 0, 0, 0, 0) + fn
    body = local + compressed
    eocd = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, 1, 1, len(central), len(body), 0)
    return body + central + eocd


def deflate_bomb(gib: int = 1) -> tuple[bytes, int, int]:
    """A raw deflate stream of `gib` GiB of zeros in about 1 MB, built in a fraction of a second."""
    zeros = bytes(MiB)
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = co.compress(zeros) + co.flush(zlib.Z_FULL_FLUSH)  # dictionary reset: blocks repeat
    crc = 0
    for _ in range(1024 * gib):
        crc = zlib.crc32(zeros, crc)
    return block * (1024 * gib) + b"\x03\x00", crc, gib << 30


# --- ordinary use ----------------------------------------------------------------------------------

def test_write_then_read_keeps_order_and_bytes(tmp_path):
    members = [("savedGame", b"!VCSK00" + b"61" * 1000), ("savedata", b"<data/>"), ("moduledata", b"")]
    out = tmp_path / "game.vsav"
    write_archive(out, members, date_time=(2024, 1, 2, 3, 4, 6))
    arc = open_archive(out)
    assert arc.path == str(out)
    assert arc.names() == ["savedGame", "savedata", "moduledata"]
    assert [arc.read(n) for n in arc.names()] == [m[1] for m in members]
    assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in arc.infos())
    assert arc.has("savedata") and not arc.has("buildFile.xml")
    assert is_zip(out) and is_zip(out.read_bytes())


def test_fixed_date_makes_output_reproducible(tmp_path):
    a, b = tmp_path / "a.zip", tmp_path / "b.zip"
    for p in (a, b):
        write_archive(p, [("x", b"1" * 100)], date_time=(2020, 5, 6, 7, 8, 10))
    assert a.read_bytes() == b.read_bytes()


def test_open_from_bytes_uses_given_name():
    arc = open_archive(make_zip([("a", b"1")]), name="mod.vmod")
    assert arc.path == "mod.vmod"
    with pytest.raises(ArchiveError, match="missing") as info:
        arc.read("b")
    assert str(info.value) == "mod.vmod: member b: member is missing from the archive"


def test_traversal_names_are_only_keys(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    arc = open_archive(make_zip([("../../evil.txt", b"x"), ("/abs/path", b"y")]))
    assert arc.read("../../evil.txt") == b"x"
    assert arc.read("/abs/path") == b"y"
    assert list(tmp_path.iterdir()) == []
    assert not (tmp_path.parent.parent / "evil.txt").exists()


def test_duplicate_names_read_the_first_like_vassal():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("savedGame", b"first")
        with pytest.warns(UserWarning):
            zf.writestr("savedGame", b"second")
    arc = open_archive(buf.getvalue())
    assert arc.names() == ["savedGame", "savedGame"]
    assert arc.read("savedGame") == b"first"


def test_is_zip():
    assert is_zip(make_zip([]))
    assert not is_zip(b"not a zip")
    assert not is_zip(b"")
    assert not is_zip("/no/such/file.zip")


# --- atomic writes ---------------------------------------------------------------------------------

def test_atomic_write_refuses_the_input(tmp_path):
    src = tmp_path / "in.vsav"
    src.write_bytes(b"original")
    with pytest.raises(OutputError, match="overwrite the input"):
        atomic_write_bytes(src, b"new", protect=[src])
    with pytest.raises(OutputError, match="overwrite the input"):
        write_archive(tmp_path / "." / "in.vsav", [("a", b"")], protect=[str(src)])
    assert src.read_bytes() == b"original"


def test_atomic_write_refuses_a_hard_link_to_the_input(tmp_path):
    src = tmp_path / "in.vsav"
    src.write_bytes(b"original")
    link = tmp_path / "link.vsav"
    os.link(src, link)
    with pytest.raises(OutputError):
        atomic_write_bytes(link, b"new", protect=[src])


def test_atomic_write_replaces_and_leaves_no_temp_files(tmp_path):
    out = tmp_path / "out.bin"
    out.write_bytes(b"old")
    out.chmod(0o640)
    atomic_write_bytes(out, b"new")
    assert out.read_bytes() == b"new"
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


@pytest.mark.parametrize("where, message", [("missing/out.bin", "does not exist"), (".", "is a folder")])
def test_atomic_write_bad_targets(tmp_path, where, message):
    with pytest.raises(OutputError, match=message):
        atomic_write_bytes(tmp_path / where, b"x")


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="root can write anywhere")
def test_atomic_write_unwritable_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="cannot write"):
            atomic_write_bytes(folder / "x", b"x")
    finally:
        folder.chmod(0o700)


# --- hostile archives ------------------------------------------------------------------------------

@pytest.mark.parametrize("data, message", [
    (b"", "not a zip"),
    (b"just some text, not a zip at all", "not a zip"),
    (b"PK\x03\x04" + b"\x00" * 40, "truncated or damaged"),
])
def test_not_a_zip(data, message):
    with pytest.raises(ArchiveError, match=message) as info:
        open_archive(data, name="x.vsav")
    assert info.value.file == "x.vsav"


def test_every_truncation_raises_archive_error():
    data = make_zip([("savedGame", b"!VCSK00" + bytes(range(256)) * 20), ("savedata", b"<data/>")])
    for cut in range(0, len(data)):
        try:
            arc = open_archive(data[:cut])
            for name in arc.names():
                arc.read(name)
        except ArchiveError:
            continue
        pytest.fail(f"truncation at {cut} of {len(data)} was not noticed")


def test_bad_crc():
    data = bytearray(make_zip([("savedGame", b"hello world" * 50)], zipfile.ZIP_STORED))
    at = data.index(b"hello")
    data[at] ^= 0x01
    with pytest.raises(ArchiveError, match="member savedGame: broken member.*CRC"):
        open_archive(bytes(data)).read("savedGame")


def test_corrupt_deflate_stream():
    comp = zlib.compressobj(6, zlib.DEFLATED, -15)
    good = comp.compress(b"abc" * 1000) + comp.flush()
    bad = b"\xff" * 8 + good[8:]
    with pytest.raises(ArchiveError, match="member m"):
        open_archive(raw_zip("m", bad, size=3000, crc=zlib.crc32(b"abc" * 1000))).read("m")


def test_encrypted_member():
    plain = b"secret"
    data = raw_zip("savedGame", plain, size=len(plain), crc=zlib.crc32(plain), method=0, flags=1)
    with pytest.raises(ArchiveError, match="encrypted"):
        open_archive(data).read("savedGame")


def test_unsupported_compression_method():
    data = raw_zip("m", b"xxxx", size=4, crc=0, method=99)
    with pytest.raises(ArchiveError, match="member m"):
        open_archive(data).read("m")


def test_too_many_members():
    data = make_zip([(f"f{i}", b"") for i in range(6)])
    with pytest.raises(ArchiveError, match="6 members, more than the limit of 5"):
        open_archive(data, limits=Limits(max_members=5))
    assert len(open_archive(data, limits=Limits(max_members=6)).names()) == 6


def test_declared_member_count_is_checked_before_parsing():
    data = bytearray(make_zip([("a", b"")]))
    eocd = data.rindex(b"PK\x05\x06")
    data[eocd + 8:eocd + 12] = struct.pack("<HH", 65000, 65000)
    with pytest.raises(ArchiveError, match="declares 65000 members"):
        open_archive(bytes(data))


def test_absurd_member_name():
    data = make_zip([("a" * 2000, b"x")])
    with pytest.raises(ArchiveError, match="2000 characters"):
        open_archive(data)


def test_member_too_big():
    data = make_zip([("savedGame", os.urandom(5000))])
    with pytest.raises(ArchiveError, match="more than 4096 bytes"):
        open_archive(data, limits=Limits(max_member_size=4096)).read("savedGame")


def test_total_too_big():
    data = make_zip([("a", os.urandom(3000)), ("b", os.urandom(3000))])
    arc = open_archive(data, limits=Limits(max_total=5000))
    arc.read("a")
    with pytest.raises(ArchiveError, match="in total"):
        arc.read("b")


def test_ratio_cap_spares_small_members():
    data = make_zip([("blank", b" " * 500_000)])
    assert open_archive(data).read("blank") == b" " * 500_000


def test_declared_size_is_not_trusted():
    payload = b"A" * 100_000
    comp = zlib.compressobj(6, zlib.DEFLATED, -15)
    stream = comp.compress(payload) + comp.flush()
    lying = raw_zip("m", stream, size=10, crc=zlib.crc32(payload))
    with pytest.raises(ArchiveError, match="member m"):
        open_archive(lying).read("m")


def test_gigabyte_bomb_is_stopped_while_inflating():
    stream, crc, size = deflate_bomb(1)
    data = raw_zip("savedGame", stream, size=size, crc=crc)
    assert len(data) < 2 * MiB
    arc = open_archive(data, name="bomb.vsav")
    tracemalloc.start()
    try:
        with pytest.raises(ArchiveError, match="bomb.vsav: member savedGame: .*200 times"):
            arc.read("savedGame")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * MiB  # stopped long before the gigabyte, or the declared 200x of 1 MB


def test_gigabyte_bomb_with_small_declared_size_stays_bounded():
    stream, crc, _ = deflate_bomb(1)
    data = raw_zip("savedGame", stream, size=1000, crc=crc)
    with pytest.raises(ArchiveError):
        open_archive(data).read("savedGame")


def test_overlapping_members_count_against_the_total():
    payload = os.urandom(4000)
    comp = zlib.compressobj(6, zlib.DEFLATED, -15)
    stream = comp.compress(payload) + comp.flush()
    one = raw_zip("a", stream, size=len(payload), crc=zlib.crc32(payload))
    arc = open_archive(one, limits=Limits(max_total=10_000))
    arc.read("a")
    arc.read("a")
    with pytest.raises(ArchiveError, match="in total"):
        arc.read("a")


def test_file_path_errors(tmp_path):
    with pytest.raises(ArchiveError, match="cannot read"):
        open_archive(tmp_path / "absent.vsav")
    with pytest.raises(ArchiveError, match="is a folder"):
        open_archive(tmp_path)
    big = tmp_path / "big.vsav"
    big.write_bytes(make_zip([("a", b"x")]))
    with pytest.raises(ArchiveError, match="more than the limit"):
        open_archive(big, limits=Limits(max_archive_size=10))


def test_default_limits_are_generous():
    assert DEFAULT_LIMITS.max_member_size == 512 * MiB
    assert DEFAULT_LIMITS.max_total == 2 << 30
    assert DEFAULT_LIMITS.max_members == 10_000


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutated_archives_raise_only_archive_error(data):
    base = bytearray(make_zip([("savedGame", b"!VCSK00" + b"41" * 300), ("savedata", b"<data/>")]))
    for _ in range(data.draw(st.integers(1, 8))):
        i = data.draw(st.integers(0, len(base) - 1))
        base[i] = data.draw(st.integers(0, 255))
    try:
        arc = open_archive(bytes(base), limits=Limits(max_member_size=MiB))
        for name in arc.names():
            arc.read(name)
    except ArchiveError:
        pass


# --- real files ------------------------------------------------------------------------------------

@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("**/*.vsav", "**/*.vlog"))
def test_real_saves_open(path):
    arc = open_archive(path)
    assert arc.has("savedGame")
    assert arc.read("savedGame")
