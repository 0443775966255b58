"""The dialects of a save's `savedGame` member: sniff, decode to text, and encode back.

VASSAL through 3.7 writes `!VCSK` + hex key + hex(bytes XOR key) (ObfuscatingOutputStream) and
reads hex digits of either case (DeobfuscatingInputStream); later versions write `VOBS` + a raw
key byte + raw XOR'd bytes, or a raw XZ stream; plain text is passed through. Reading is strict
where VASSAL is lenient (bad UTF-8 is refused, not replaced) so that a byte-identical write-back is
possible; whole-buffer operations (`binascii.unhexlify`, `bytes.translate`) keep it fast.
"""
from __future__ import annotations

import binascii
import enum
import lzma
import random
import re
from typing import Callable

from vlog.errors import ObfuscationError

__all__ = ["Dialect", "deobfuscate", "deobfuscate_member", "obfuscate", "sniff", "vcsk_upper", "DEFAULT_MAX_TEXT"]

DEFAULT_MAX_TEXT = 512 << 20  # bytes of decoded UTF-8 text
_XZ_MEMLIMIT = 256 << 20

VCSK_HEADER = b"!VCSK"
VOBS_HEADER = b"VOBS"
XZ_MAGIC = b"\xfd7zXZ\x00"

_NOT_HEX = re.compile(rb"[^0-9A-Fa-f]")
_XOR_TABLES = [bytes(i ^ key for i in range(256)) for key in range(256)]

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]")


class Dialect(enum.Enum):
    """How a `savedGame` member is stored; the value is its header (or a name when it has none)."""

    VCSK = "!VCSK"
    VOBS = "VOBS"
    XZ = "xz"
    PLAIN = "plain"


def _err(message: str, file: str | None, member: str, offset: int | None = None) -> ObfuscationError:
    where = member if offset is None else f"{member}, byte offset {offset}"
    return ObfuscationError(message, file=file, where=where)


def sniff(data: bytes) -> Dialect | None:
    """The dialect announced by the first bytes, or None (plain text or unknown)."""
    if data.startswith(XZ_MAGIC):
        return Dialect.XZ
    if data.startswith(VCSK_HEADER):
        return Dialect.VCSK
    if data.startswith(VOBS_HEADER):
        return Dialect.VOBS
    return None


def _utf8(raw: bytes, file: str | None, member: str, offset_of) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _err(f"the decoded text is not valid UTF-8 ({exc.reason} at byte {exc.start} "
                   "of the text)", file, member, offset_of(exc.start)) from None


def _looks_like_text(text: str) -> bool:
    """True for VASSAL command text: it starts with `begin_save` (every save and log does, and
    may carry any character players typed), or its start holds no control characters but TAB,
    LF, CR and ESC (VASSAL's separator).

    VASSAL passes any stream without a known header through as text (DeobfuscatingInputStream);
    vlog does the same for text, and refuses what is evidently binary: an unknown dialect.
    """
    return text.startswith("begin_save") or not _CONTROL.search(text, 0, 4096)


def deobfuscate(data: bytes, *, file: str | None = None, member: str = "savedGame",
                max_size: int = DEFAULT_MAX_TEXT) -> tuple[str, Dialect, int | None]:
    """Decode a `savedGame` member: (text, dialect, key). Key is None for XZ and plain text."""
    raw, dialect, key, offset_of = _plaintext(bytes(data), file, member, max_size)
    return _text(raw, dialect, file, member, offset_of), dialect, key


def deobfuscate_member(take: Callable[[], bytes], *, file: str | None = None, member: str = "savedGame",
                       max_size: int = DEFAULT_MAX_TEXT) -> tuple[str, Dialect, int | None, bool]:
    """`deobfuscate` of the member `take()` returns, plus whether it is upper-case !VCSK hex
    (`vcsk_upper`): the member is dropped before its plaintext bytes become text, so the two
    largest buffers (the member and the text) are never held at once."""
    raw, dialect, key, offset_of, upper = _member_plaintext(take, file, member, max_size)
    return _text(raw, dialect, file, member, offset_of), dialect, key, upper


def _member_plaintext(take, file, member, max_size):
    """The member's plaintext bytes, dialect, key, byte offsets and case; the member itself
    lives only in this frame."""
    data = bytes(take())
    upper = data.startswith(VCSK_HEADER) and vcsk_upper(data)
    return (*_plaintext(data, file, member, max_size), upper)


def _plaintext(data: bytes, file: str | None, member: str, max_size: int):
    """(the UTF-8 bytes of the text, dialect, key, member offset of a plaintext byte offset)."""
    dialect = sniff(data)
    if dialect is Dialect.VCSK:
        return _read_vcsk(data, file, member, max_size)
    if dialect is Dialect.VOBS:
        return _read_vobs(data, file, member, max_size)
    if dialect is Dialect.XZ:
        return _read_xz(data, file, member, max_size)
    if len(data) > max_size:
        raise _err(f"the text is {len(data)} bytes, more than the limit of {max_size}", file, member)
    return data, Dialect.PLAIN, None, None


def _text(raw: bytes, dialect: Dialect, file: str | None, member: str, offset_of) -> str:
    """The plaintext bytes as text: strict UTF-8; plain text must also look like text."""
    if dialect is not Dialect.PLAIN:
        return _utf8(raw, file, member, offset_of)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or not _looks_like_text(text):
        raise _err(f"unknown savedGame format (starts with {raw[:8]!r}); expected !VCSK, VOBS, "
                   "XZ or plain text", file, member, 0)
    return text


def _read_vcsk(data: bytes, file: str | None, member: str, max_size: int):
    head = len(VCSK_HEADER)
    key_hex = data[head:head + 2]
    if len(key_hex) < 2:
        raise _err("!VCSK header without its two-digit key", file, member, len(data))
    bad = _NOT_HEX.search(key_hex)
    if bad:
        raise _err(f"non-hex byte {key_hex[bad.start()]:#04x} in the !VCSK key", file, member,
                   head + bad.start())
    key = int(key_hex, 16)
    body_start = head + 2
    body = memoryview(data)[body_start:]      # not a copy of the member
    if len(body) // 2 > max_size:
        _check_hex_body(body, body_start, data, file, member)
        raise _err(f"the text is {len(body) // 2} bytes, more than the limit of {max_size}",
                   file, member)
    try:
        raw = binascii.unhexlify(body)  # one C pass, either case, no whitespace skipped
    except binascii.Error as exc:
        _check_hex_body(body, body_start, data, file, member)
        raise _err(f"the !VCSK body is not hex ({exc})", file, member, body_start) from None
    if key:
        raw = raw.translate(_XOR_TABLES[key])
    return raw, Dialect.VCSK, key, lambda i: body_start + 2 * i


def _check_hex_body(body: bytes, body_start: int, data: bytes, file: str | None, member: str) -> None:
    """Name the first non-hex byte, or the odd trailing digit, of a !VCSK body (the slow search
    runs only once the fast decode refused it, or the body is too large to decode)."""
    bad = _NOT_HEX.search(body)
    if bad:
        raise _err(f"non-hex byte {body[bad.start()]:#04x} in the !VCSK body", file, member,
                   body_start + bad.start())
    if len(body) % 2:
        raise _err("odd trailing hex digit in the !VCSK body", file, member, len(data) - 1)


def _read_vobs(data: bytes, file: str | None, member: str, max_size: int):
    head = len(VOBS_HEADER)
    if len(data) <= head:
        raise _err("VOBS header without its key byte", file, member, len(data))
    key = data[head]
    if key == 0:
        raise _err("VOBS key byte is 0 (keys are 1 to 255)", file, member, head)
    body = data[head + 1:]
    if len(body) > max_size:
        raise _err(f"the text is {len(body)} bytes, more than the limit of {max_size}", file, member)
    return body.translate(_XOR_TABLES[key]), Dialect.VOBS, key, lambda i: head + 1 + i


def _read_xz(data: bytes, file: str | None, member: str, max_size: int):
    out = bytearray()
    rest = data
    consumed = 0
    try:
        while rest:
            # the decoder's own memory stays below the text limit too (a small limit is the caller's)
            dec = lzma.LZMADecompressor(format=lzma.FORMAT_XZ,
                                        memlimit=min(_XZ_MEMLIMIT, max(max_size, 16 << 20)))
            out += dec.decompress(rest, max_length=max_size + 1 - len(out))
            if len(out) > max_size:
                raise _err(f"the XZ stream inflates to more than {max_size} bytes", file, member)
            if not dec.eof:
                if dec.needs_input:
                    raise _err("truncated XZ stream", file, member, len(data))
                raise _err(f"the XZ stream inflates to more than {max_size} bytes", file, member)
            consumed += len(rest) - len(dec.unused_data)
            rest = dec.unused_data
            # XZ allows stream padding (zero bytes, a multiple of four) and concatenated streams.
            pad = len(rest) - len(rest.lstrip(b"\x00"))
            if pad % 4:
                raise _err("bad XZ stream padding", file, member, consumed)
            rest = rest[pad:]
            consumed += pad
            if rest and not rest.startswith(XZ_MAGIC):
                raise _err("garbage after the XZ stream", file, member, consumed)
    except lzma.LZMAError as exc:
        raise _err(f"broken XZ stream ({exc})", file, member) from None
    except MemoryError:
        raise _err("the XZ stream needs too much memory to decode", file, member) from None
    return bytes(out), Dialect.XZ, None, lambda i: None


_NOT_UPPER_HEX = re.compile(rb"[^0-9A-F]")
_HEX_LETTER = re.compile(rb"[A-F]")


def vcsk_upper(data: bytes) -> bool:
    """True for a !VCSK member written in upper-case hex (VASSAL 2.9 and 3.0 did), so that a
    rewrite can keep the case. Two scans, no copy of the member (a lower-case one is told
    at its first letter)."""
    head = len(VCSK_HEADER)
    return (data.startswith(VCSK_HEADER) and _NOT_UPPER_HEX.search(data, head) is None
            and _HEX_LETTER.search(data, head) is not None)


def obfuscate(text: str, dialect: Dialect, key: int | None = None, *, upper: bool = False) -> bytes:
    """Encode `text` as a `savedGame` member in `dialect`; a given key is used verbatim.

    !VCSK writes lowercase hex like ObfuscatingOutputStream (upper-case with `upper`, as VASSAL
    2.9 and 3.0 wrote it); its default key is a random byte 0..255 (VOBS: 1..255), as VASSAL
    picks one per save.
    """
    raw = text.encode("utf-8")
    if dialect is Dialect.VCSK:
        if key is None:
            key = random.randrange(256)
        if not 0 <= key <= 255:
            raise ValueError(f"!VCSK key must be 0..255, not {key}")
        body = raw.translate(_XOR_TABLES[key]).hex().encode("ascii")
        if upper:
            return VCSK_HEADER + b"%02X" % key + body.upper()
        return VCSK_HEADER + b"%02x" % key + body
    if dialect is Dialect.VOBS:
        if key is None:
            key = random.randrange(1, 256)
        if not 1 <= key <= 255:
            raise ValueError(f"VOBS key must be 1..255, not {key}")
        return VOBS_HEADER + bytes([key]) + raw.translate(_XOR_TABLES[key])
    if key is not None:
        raise ValueError(f"{dialect.name} takes no key")
    if dialect is Dialect.XZ:
        return lzma.compress(raw, format=lzma.FORMAT_XZ)
    return raw
