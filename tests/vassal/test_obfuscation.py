"""savedGame dialects: VASSAL's own (De)ObfuscatingStream tests, round trips, strict refusals."""
from __future__ import annotations

import lzma

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import sample_params
from vlog.errors import ObfuscationError, VlogError
from vlog.vassal.archive import open_archive
from vlog.vassal.obfuscation import Dialect, deobfuscate, obfuscate, sniff

# DeobfuscatingInputStreamTest / ObfuscatingOutputStreamTest (vassal-app/src/test/java/VASSAL/tools/io)
PLAIN = "All jackdaws love my great sphinx of quartz."
OBFUS = ("!VCSK581934347832393b333c392f2b7834372e3d783521783f2a3d392c782b283031362078373e78292d392a2c2276")
KEY = 0x58


def test_plain_input_passes_through():
    assert deobfuscate(PLAIN.encode("utf-8")) == (PLAIN, Dialect.PLAIN, None)


def test_obfuscated_input_lower_case_hex_digits():
    assert deobfuscate(OBFUS.encode("utf-8")) == (PLAIN, Dialect.VCSK, KEY)


def test_obfuscated_input_upper_case_hex_digits():
    assert deobfuscate(OBFUS.upper().encode("utf-8")) == (PLAIN, Dialect.VCSK, KEY)


def test_obfuscated_output():
    assert obfuscate(PLAIN, Dialect.VCSK, KEY) == OBFUS.encode("utf-8")


# --- every dialect ---------------------------------------------------------------------------------

def test_mixed_case_hex_is_read():
    mixed = "".join(c.upper() if i % 3 else c for i, c in enumerate(OBFUS[5:]))
    assert deobfuscate(b"!VCSK" + mixed.encode("ascii"))[0] == PLAIN


def test_vobs_layout():
    data = obfuscate("begin_save\x1bend_save", Dialect.VOBS, 7)
    assert data[:5] == b"VOBS\x07"
    assert data[5:] == bytes(b ^ 7 for b in b"begin_save\x1bend_save")
    assert deobfuscate(data) == ("begin_save\x1bend_save", Dialect.VOBS, 7)


def test_xz_is_a_raw_xz_stream():
    data = obfuscate("begin_save\x1bend_save", Dialect.XZ)
    assert data.startswith(b"\xfd7zXZ\x00")
    assert lzma.decompress(data) == b"begin_save\x1bend_save"
    assert deobfuscate(data) == ("begin_save\x1bend_save", Dialect.XZ, None)


def test_concatenated_and_padded_xz_streams_are_read():
    data = lzma.compress(b"begin_save\x1b") + b"\x00" * 8 + lzma.compress(b"end_save")
    assert deobfuscate(data)[0] == "begin_save\x1bend_save"


def test_default_keys_are_in_range():
    for _ in range(50):
        _, _, k = deobfuscate(obfuscate("x", Dialect.VCSK))
        assert 0 <= k <= 255
        _, _, k = deobfuscate(obfuscate("x", Dialect.VOBS))
        assert 1 <= k <= 255


def test_given_key_makes_output_deterministic():
    assert obfuscate("abc", Dialect.VCSK, 0) == b"!VCSK00616263"
    assert obfuscate("abc", Dialect.VCSK, 255) == obfuscate("abc", Dialect.VCSK, 255)


@pytest.mark.parametrize("dialect, key", [(Dialect.VOBS, 0), (Dialect.VOBS, 256), (Dialect.VCSK, -1),
                                          (Dialect.XZ, 3), (Dialect.PLAIN, 3)])
def test_bad_keys_are_programming_errors(dialect, key):
    with pytest.raises(ValueError):
        obfuscate("x", dialect, key)


def test_sniff():
    assert sniff(b"!VCSK00") is Dialect.VCSK
    assert sniff(b"VOBS\x01") is Dialect.VOBS
    assert sniff(b"\xfd7zXZ\x00") is Dialect.XZ
    assert sniff(b"begin_save") is None


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)


@settings(max_examples=300, deadline=None)
@given(TEXT, st.integers(0, 255))
def test_vcsk_round_trip(text, key):
    data = obfuscate(text, Dialect.VCSK, key)
    assert len(data) == 7 + 2 * len(text.encode("utf-8"))
    assert deobfuscate(data) == (text, Dialect.VCSK, key)
    assert deobfuscate(data.upper())[0] == text


@settings(max_examples=300, deadline=None)
@given(TEXT, st.integers(1, 255))
def test_vobs_round_trip(text, key):
    assert deobfuscate(obfuscate(text, Dialect.VOBS, key)) == (text, Dialect.VOBS, key)


@settings(max_examples=100, deadline=None)
@given(TEXT)
def test_xz_round_trip(text):
    assert deobfuscate(obfuscate(text, Dialect.XZ)) == (text, Dialect.XZ, None)


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\t\n\r\x1b"),
               max_size=200))
def test_plain_round_trip(text):
    data = obfuscate(text, Dialect.PLAIN)
    if sniff(data) is None:
        assert deobfuscate(data) == (text, Dialect.PLAIN, None)


# --- strict refusals, each naming file, member and offset ------------------------------------------

@pytest.mark.parametrize("data, message, offset", [
    (OBFUS[:-1].encode(), "odd trailing hex digit", len(OBFUS) - 2),
    (OBFUS[:20].encode() + b"g" + OBFUS[21:].encode(), "non-hex byte 0x67", 20),
    (OBFUS[:30].encode() + b" " + OBFUS[31:].encode(), "non-hex byte 0x20", 30),
    (b"!VCSK", "without its two-digit key", 5),
    (b"!VCSK5", "without its two-digit key", 6),
    (b"!VCSKzz00", "non-hex byte 0x7a in the !VCSK key", 5),
    (b"!VCSK58" + obfuscate("\u00e9", Dialect.VCSK, 0x58)[7:9], "not valid UTF-8", 7),
    (b"VOBS", "without its key byte", 4),
    (b"VOBS\x00abc", "key byte is 0", 4),
    (b"VOBS\x01" + bytes([0xff ^ 1]), "not valid UTF-8", 5),
    (b"\x00\x01\x02binary", "unknown savedGame format", 0),
    (b"PK\x03\x04\x14\x00", "unknown savedGame format", 0),
    (b"\xff\xfe", "unknown savedGame format", 0),
    (b"!VCSZ\x78\x9c\x01\x02", "unknown savedGame format", 0),
])
def test_refusals_name_file_member_and_offset(data, message, offset):
    with pytest.raises(ObfuscationError, match=message) as info:
        deobfuscate(data, file="game.vsav")
    err = info.value
    assert err.file == "game.vsav"
    assert err.where == f"savedGame, byte offset {offset}"
    assert str(err).startswith(f"game.vsav: savedGame, byte offset {offset}: ")


@pytest.mark.parametrize("data, message", [
    (b"\xfd7zXZ\x00garbage", "XZ"),
    (lzma.compress(b"begin_save")[:-3], "XZ"),
    (lzma.compress(b"begin_save") + b"junk", "garbage after the XZ stream"),
    (lzma.compress(b"begin_save") + b"\x00\x00", "padding"),
    (lzma.compress(b"\xff\xfe"), "not valid UTF-8"),
])
def test_bad_xz_is_refused(data, message):
    with pytest.raises(ObfuscationError, match=message):
        deobfuscate(data, file="game.vsav")


def test_size_caps():
    with pytest.raises(ObfuscationError, match="more than the limit"):
        deobfuscate(obfuscate("x" * 100, Dialect.VCSK, 1), max_size=99)
    with pytest.raises(ObfuscationError, match="more than the limit"):
        deobfuscate(obfuscate("x" * 100, Dialect.VOBS, 1), max_size=99)
    with pytest.raises(ObfuscationError, match="more than 99 bytes"):
        deobfuscate(obfuscate("x" * 100, Dialect.XZ), max_size=99)
    with pytest.raises(ObfuscationError, match="more than the limit"):
        deobfuscate(b"x" * 100, max_size=99)
    assert deobfuscate(obfuscate("x" * 99, Dialect.XZ), max_size=99)[0] == "x" * 99


def test_xz_bomb_is_stopped_at_the_cap():
    bomb = lzma.compress(b"\x00" * (64 << 20))  # 64 MiB of zeros in about 10 KB
    assert len(bomb) < 20_000
    with pytest.raises(ObfuscationError, match="inflates to more than"):
        deobfuscate(bomb, max_size=1 << 20)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=64))
def test_arbitrary_bytes_raise_only_obfuscation_error(data):
    for prefix in (b"", b"!VCSK", b"VOBS", b"\xfd7zXZ\x00"):
        try:
            text, dialect, _ = deobfuscate(prefix + data)
        except ObfuscationError:
            continue
        assert isinstance(text, str)
        assert isinstance(dialect, Dialect)


# --- real files ------------------------------------------------------------------------------------

@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("**/*.vsav", "**/*.vlog"))
def test_real_saved_games_round_trip_byte_exact(path):
    try:
        member = open_archive(path).read("savedGame")
    except VlogError as exc:
        pytest.skip(f"unreadable sample: {exc}")
    text, dialect, key = deobfuscate(member, file=str(path))
    assert dialect in (Dialect.VCSK, Dialect.PLAIN)
    # VASSAL writes lowercase hex, so writing back with the same dialect and key is byte-exact.
    assert obfuscate(text, dialect, key) == member
