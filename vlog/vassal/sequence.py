"""VASSAL's SequenceEncoder and SequenceEncoder.Decoder, exact to the Java.

Every VASSAL string (command lists, piece types and states, trait fields) is built with these,
so reading and writing byte-identical files depends on reproducing their quirks, not fixing them:
only the delimiter is escaped (with one backslash), empty and null tokens are the same, and a
token is wrapped in single quotes when it starts with a backslash or is itself quoted.
VASSAL before 3.4.0 quoted tokens that *end* with a backslash instead (`legacy=True`).
"""
from __future__ import annotations

import math
from decimal import Decimal, localcontext
from typing import Iterable, Iterator

__all__ = ["Encoder", "Decoder", "split", "join", "encode_token", "java_double"]


def encode_token(s: object, delim: str, *, legacy: bool = False) -> str:
    """One token as `SequenceEncoder.append` writes it (without the leading delimiter)."""
    if s is None:
        return ""
    if isinstance(s, bool):
        s = "true" if s else "false"
    elif not isinstance(s, str):
        s = str(s)
    if not s:
        return ""
    esc = s.replace(delim, "\\" + delim) if delim in s else s
    if (s.endswith("\\") if legacy else s[0] == "\\") or (s[0] == "'" and s[-1] == "'"):
        esc = "'" + esc + "'"
    return esc


def join(tokens: Iterable[object], delim: str, *, legacy: bool = False) -> str | None:
    """`SequenceEncoder(delim)` with every token appended; None (Java null) when there are none."""
    parts = [encode_token(t, delim, legacy=legacy) for t in tokens]
    if not parts:
        return None
    return delim.join(parts)


def _token(raw: str, delim: str) -> str:
    """A raw token with its escaped delimiters restored (the backslash dropped), then unquoted.

    Inside a raw token every delimiter is escaped, so a plain replace does what the Java loop
    does one delimiter at a time.
    """
    esc = "\\" + delim
    if esc in raw:
        raw = raw.replace(esc, delim)
    if len(raw) > 1 and raw[0] == "'" and raw[-1] == "'":
        return raw[1:-1]
    return raw


def _next(val: str, delim: str, start: int) -> tuple[str, int]:
    """The token starting at `start` and the index just past its delimiter (-1: last token)."""
    if start == len(val):
        return "", -1
    j = val.find(delim, start)
    while j > 0 and val[j - 1] == "\\":      # an escaped delimiter: not a boundary
        j = val.find(delim, j + 1)
    if j < 0:
        return _token(val[start:], delim), -1
    return _token(val[start:j], delim), j + 1


def split(val: str | None, delim: str) -> list[str]:
    """All tokens `Decoder(val, delim)` yields: `""` gives `[""]`, None gives `[]`.

    Built on `str.split` for speed: a delimiter is escaped when the character before it is a
    backslash, i.e. when the piece `str.split` gives before it ends in one; such pieces are
    joined back without that backslash. Checked against the Decoder loop and VASSAL's vectors.
    """
    if val is None:
        return []
    parts = val.split(delim)
    if "\\" + delim in val:
        merged: list[str] = []
        buf: list[str] = []
        last = len(parts) - 1
        for i, p in enumerate(parts):
            if i < last and p.endswith("\\"):
                buf.append(p[:-1])
                continue
            if buf:
                buf.append(p)
                merged.append(delim.join(buf))
                buf = []
            else:
                merged.append(p)
        parts = merged
    if "'" in val:
        parts = [p[1:-1] if len(p) > 1 and p[0] == "'" and p[-1] == "'" else p for p in parts]
    return parts


def iter_split(val: str | None, delim: str) -> Iterator[str]:
    if val is None:
        return
    start = 0
    while start != -1:
        tok, start = _next(val, delim, start)
        yield tok


def _java_parse_int(tok: str, bits: int) -> int | None:
    """Java `Integer.parseInt`/`Long.parseLong`: optional sign, BMP decimal digits, in range."""
    if len(tok) < 10 and tok.isdigit() and tok.isascii():
        return int(tok)           # nine ASCII digits or fewer: always in range
    digits = tok[1:] if tok[:1] in ("+", "-") else tok
    if not digits or not all(c.isdecimal() and c <= "\uffff" for c in digits):
        return None
    value = int(tok)
    limit = 1 << (bits - 1)
    return value if -limit <= value < limit else None


class Encoder:
    """`new SequenceEncoder(delim)`: `value()` is None until something is appended."""

    __slots__ = ("delim", "legacy", "_parts")

    def __init__(self, delim: str, first: object = None, *, legacy: bool = False, start: bool = False):
        self.delim = delim
        self.legacy = legacy
        self._parts: list[str] | None = None
        if first is not None or start:
            self.append(first)

    def append(self, s: object) -> "Encoder":
        if self._parts is None:
            self._parts = []
        self._parts.append(encode_token(s, self.delim, legacy=self.legacy))
        return self

    def value(self) -> str | None:
        return None if self._parts is None else self.delim.join(self._parts)


class Decoder:
    """`SequenceEncoder.Decoder`: typed reads fall back to a default, as VASSAL's do."""

    __slots__ = ("val", "delim", "_pos")

    def __init__(self, val: str | None, delim: str):
        self.val = val
        self.delim = delim
        self._pos = 0

    def has_more(self) -> bool:
        return self.val is not None and self._pos != -1

    def next(self, default: str | None = None) -> str:
        if not self.has_more():
            if default is not None:
                return default
            raise StopIteration("no more tokens")
        tok, self._pos = _next(self.val, self.delim, self._pos)
        return tok

    def next_int(self, default: int) -> int:
        """`nextInt`: Java `Integer.parseInt` of the token (no spaces, 32-bit), else `default`."""
        if not self.has_more():
            return default
        value = _java_parse_int(self.next(), 32)
        return default if value is None else value

    def next_long(self, default: int) -> int:
        """`nextLong`: Java `Long.parseLong` of the token (64-bit), else `default`."""
        if not self.has_more():
            return default
        value = _java_parse_int(self.next(), 64)
        return default if value is None else value

    def next_bool(self, default: bool) -> bool:
        return self.next() == "true" if self.has_more() else default

    def remaining(self) -> str | None:
        """`getRemaining()`: the unparsed rest verbatim."""
        if not self.has_more():
            return None
        return self.val[self._pos:]


def java_double(x: float) -> str:
    """Java `Double.toString` (JDK 19+ shortest digits): `1.0`, `0.3`, `1.0E7`, `1.0E-5`."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    if x == 0:
        return sign + "0.0"
    _, digits, exp = Decimal(repr(abs(x))).normalize().as_tuple()
    ds = "".join(map(str, digits))
    e10 = len(ds) + exp - 1  # scientific exponent of the first digit
    if len(ds) == 1:
        # Java prints at least two digits and then picks, among the 2-digit decimals that round
        # to x, the one closest to x's exact value: 4.9E-324, not 5.0E-324 (Double.toString).
        exact = Decimal(abs(x))
        best = None
        for e in (e10, e10 - 1):
            with localcontext() as ctx:
                ctx.prec = 1100  # exact: a double has at most 767 significant decimal digits
                m = exact.scaleb(-e).quantize(Decimal("0.1"))
            if 1 <= m < 10 and float(m.scaleb(e)) == abs(x):
                dist = abs(m.scaleb(e) - exact)
                if best is None or dist < best[0]:
                    best = (dist, m, e)
        if best is not None:
            ds = str(best[1]).replace(".", "").rstrip("0")
            e10 = best[2]
    if 1e-3 <= abs(x) < 1e7:
        if e10 >= 0:
            whole, frac = ds[: e10 + 1].ljust(e10 + 1, "0"), ds[e10 + 1:]
        else:
            whole, frac = "0", "0" * (-e10 - 1) + ds
        return f"{sign}{whole}.{frac or '0'}"
    return f"{sign}{ds[0]}.{ds[1:] or '0'}E{e10}"
