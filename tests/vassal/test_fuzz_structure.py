"""Structure-aware fuzzing: mutations that keep a file well formed at every layer but one, so they
reach the decoders a byte flip never gets past. Command tokens (whole tokens swapped, repeated,
nested, fields replaced by extreme values), piece chains (traits dropped, duplicated, states
misaligned), grid numbering attributes, and the XZ and VOBS wrappings. The invariant: reading,
touching every property and naming points raises nothing but VlogError. Seeded, so failures
reproduce."""
from __future__ import annotations

import lzma
import random

import pytest

import vlog
from tests.cli.conftest import BUILD_FILE, hostile_log_text
from tests.vassal.test_hostile import BUILT_TEXT, OUTCOMES, read_only_vlog_errors, zip_of
from vlog.errors import VlogError
from vlog.vassal.obfuscation import Dialect, obfuscate
from vlog.vassal.pieces import join_chain, split_chain
from vlog.vassal.sequence import encode_token, join, split

ESC = "\x1b"
EXTREMES = ["", "null", "-1", "0", "2147483647", "-2147483648", "2147483648", "99999999999999999999",
            "1e9", "NaN", "-", "'", "\\", ";", "/", "\t", ESC, "\u00e9", "A" * 300]
TEXTS = [BUILT_TEXT, hostile_log_text()]


def _mutate_fields(rng: random.Random, token: str) -> str:
    """Replace, drop or repeat fields of a command at its own separator."""
    sep = "/" if token[:2] in ("+/", "M/", "D/", "-/") else "\t"
    fields = split(token, sep)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(fields))
        op = rng.randrange(3)
        if op == 0:
            fields[i] = rng.choice(EXTREMES)
        elif op == 1 and len(fields) > 1:
            del fields[i]
        else:
            fields.insert(i, fields[i])
    return join(fields, sep) or ""


def _mutate_chain(rng: random.Random, token: str) -> str:
    """An add or change command with its type/state chains misaligned, traits dropped or repeated."""
    fields = split(token, "/")
    if len(fields) < 3:
        return token
    k = rng.randrange(1, len(fields))
    chain = split_chain(fields[k])
    i = rng.randrange(len(chain))
    op = rng.randrange(4)
    if op == 0:
        del chain[i]
    elif op == 1:
        chain.insert(i, chain[i])
    elif op == 2:
        chain[i] = rng.choice(["hide;", "obs;", "emb2;", "prototype;", "stack", "deck;", "piece;"]) + rng.choice(EXTREMES)
    else:
        chain.reverse()
    fields[k] = join_chain(chain)
    return join(fields, "/") or ""


def _mutate_tokens(rng: random.Random, text: str) -> str:
    tokens = split(text, ESC)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(tokens))
        op = rng.randrange(6)
        body = tokens[i][4:] if tokens[i].startswith("LOG\t") else tokens[i]
        prefix = "LOG\t" if tokens[i].startswith("LOG\t") else ""
        if op == 0:
            tokens[i] = prefix + _mutate_fields(rng, body)
        elif op == 1 and body[:2] in ("+/", "D/"):
            tokens[i] = prefix + _mutate_chain(rng, body)
        elif op == 2:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == 3:
            tokens[i:i] = [tokens[i]] * rng.randint(2, 50)
        elif op == 4:  # nest the token a few levels deeper
            for _ in range(rng.randint(1, 6)):
                tokens[i] = "LOG\t" + (join(["", encode_token(tokens[i], ESC)], ESC) or "")
        else:
            del tokens[i]
            if not tokens:
                tokens = [""]
    return join(tokens, ESC) or ""


def _wrap(rng: random.Random, text: str) -> bytes:
    """The text in a random dialect, the wrapping itself sometimes damaged."""
    dialect = rng.choice([Dialect.VCSK, Dialect.VOBS, Dialect.XZ, Dialect.PLAIN])
    data = obfuscate(text, dialect, None)
    op = rng.randrange(5)
    if dialect is Dialect.XZ and op == 0:  # concatenated, padded or truncated streams
        data = data + rng.choice([b"\0\0\0\0", b"\0", data, lzma.compress(b"x")[:10]])
    elif dialect is Dialect.VOBS and op == 0:
        data = data[:4] + bytes([rng.randrange(256)]) + data[5:]
    elif op == 1:
        data = data[: rng.randrange(len(data) + 1)]
    elif op == 2 and dialect is Dialect.XZ:
        data = lzma.compress(data, format=lzma.FORMAT_XZ)  # XZ inside XZ
    return data


@pytest.mark.parametrize("seed", range(6))
def test_structured_mutations_raise_only_vlog_errors(seed):
    rng = random.Random(seed)
    before = dict(OUTCOMES)
    for _ in range(40):
        text = _mutate_tokens(rng, rng.choice(TEXTS))
        read_only_vlog_errors(zip_of([("savedGame", _wrap(rng, text))]))
    # mutations that are all refused (or all read) would test one side only
    assert OUTCOMES["read"] > before["read"] and OUTCOMES["refused"] > before["refused"]


GRID_ATTRIBUTES = ["hOff", "vOff", "hLeading", "vLeading", "hType", "vType", "first", "sep", "hDescend",
                   "vDescend"]


@pytest.mark.parametrize("seed", range(3))
def test_mutated_grid_numbering_names_points_or_raises_vlog_errors(seed, tmp_path):
    rng = random.Random(seed)
    build = tmp_path / "buildFile.xml"
    points = [(rng.randrange(-10**9, 10**9), rng.randrange(-10**9, 10**9)) for _ in range(4)] + [(150, 250)]
    for _ in range(25):
        attrs = " ".join(f'{a}="{rng.choice(EXTREMES[:9] + ["A", "N", "V", "true"])}"'
                         for a in rng.sample(GRID_ATTRIBUTES, rng.randint(1, 5)))
        build.write_text(BUILD_FILE.replace('sep="," hType="N" vType="N"', attrs), encoding="utf-8")
        try:
            grid = vlog.read_module(build).maps[0].boards[0].grid
            for x, y in points:
                name = grid.location_name(x, y)
                assert name is None or len(name) < 20_000
        except VlogError:
            pass
