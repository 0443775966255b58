"""Fuzzing `vlog.read`: mutated real and built files raise nothing but VlogError.

Mutations work at every layer a reader goes through: the zip bytes, the savedGame dialect bytes,
the plaintext command text (ESC, backslashes, quotes, TAB and '/' separators are favoured because
the decoders split on them) and the XML metadata members. Seeded, so failures reproduce.
"""
from __future__ import annotations

import functools
import io
import random
import zipfile

import pytest

import vlog
from conftest import sample_files
from vlog.errors import CommandSyntaxError, VlogError
from vlog.vassal.commands import walk
from vlog.vassal.savefile import Log
from vlog.vassal.obfuscation import Dialect, deobfuscate, obfuscate
from vlog.vassal.sequence import join

ESC = "\x1b"
BUILT_TEXT = ESC.join([
    "begin_save",
    "",
    join(["", "+/1/piece;;;counter.png;Infantry/null;10;20;1;0",
          "+/2/emb2;Activate;2;;;;;;;;;1;;;;;;Step;1;;a.png,b.png;,;true;Hits;;;false;;1\tpiece;;;u.png;Unit/"
          "1;false\tnull;30;40;2;0",
          "+/3/stack/Main Map;30;40;2;1"], ESC),
    "PLAYER\tuser\tAlice\tAllies",
    "GlobalProperty\t;Turn;1;Module",
    "TURNTurnTracker0\t0|1;0;true;20",
    "MainBoardPicker\tClassic Map\t0\t0",
    "NOTES\t" + ESC.replace(ESC, "\\" + ESC) + "PNOTES\t",
    "SETUP_STACK\t",
    "end_save",
    "LOG\tM/2/Main Map/31/41/null/Main Map/30/40/null/user",
    "LOG\tCHAT*** 2d6 = 3,5 *** <Alice>" + "\\" + ESC + "LOG\tMutableProperty\t2d6_result\t\t3,5\tModule",
    "LOG\tUNDO\ttrue" + "\\" + ESC + "LOG\tD/2/1;true\t1;false" + "\\" + ESC + "LOG\tUNDO\tfalse",
    "LOG\t-/1",
])
SAVEDATA = (b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            b"  <version>1.0</version>\n  <VassalVersion>3.7.10</VassalVersion>\n"
            b"  <dateSaved>1738347539913</dateSaved>\n</data>\n")
SPECIAL = [ESC, "\\", "\\" + ESC, "'", "\t", "/", ";", ",", "\n", "null", "+/", "LOG\t", "\u00e9",
           "\ufffd", "-1", "99999999999999999999", "\x00"]


def zip_of(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return buf.getvalue()


def touch_properties(obj: object) -> None:
    """Evaluate every public property of `obj` (typed fields are parsed lazily)."""
    for klass in type(obj).__mro__:
        for attr, value in vars(klass).items():
            if not attr.startswith("_") and isinstance(value, (property, functools.cached_property)):
                getattr(obj, attr)


def exercise(data: bytes) -> object:
    """Read, then evaluate everything a user of the model would touch."""
    obj = vlog.read(data, name="fuzz.vsav")
    touch_properties(obj)
    for command in walk(obj.commands):
        touch_properties(command)
    for piece in obj.pieces.values():
        touch_properties(piece)
        for trait in piece.traits:
            touch_properties(trait)
    if isinstance(obj, Log):
        for step in obj.steps:
            touch_properties(step)
    return obj


OUTCOMES = {"read": 0, "refused": 0}


def read_only_vlog_errors(data: bytes) -> None:
    try:
        exercise(data)
        OUTCOMES["read"] += 1
    except VlogError:
        OUTCOMES["refused"] += 1


def mutate_text(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(6)
        at = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[at:at + rng.randint(1, 40)]
        elif op == 1:
            chars[at:at] = list(rng.choice(SPECIAL))
        elif op == 2 and chars:
            j = rng.randrange(len(chars))
            chars[at:at] = chars[j:j + rng.randint(1, 200)]
        elif op == 3 and chars:
            chars[min(at, len(chars) - 1)] = chr(rng.choice([0x1B, 0x5C, 0x27, 0x09, 0x2F, 0x3B,
                                                          rng.randrange(0x20, 0x3000)]))
        elif op == 4:
            chars[at:at] = list(rng.choice(SPECIAL) * rng.randint(2, 300))
        else:
            chars = chars[:at]
    return "".join(chars)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(4)
        at = rng.randrange(len(b)) if b else 0
        if op == 0 and b:
            b[at] = rng.randrange(256)
        elif op == 1:
            del b[at:at + rng.randint(1, 64)]
        elif op == 2:
            b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        else:
            b = b[:at]
    return bytes(b)


def sources() -> list[tuple[str, str, list[tuple[str, bytes]]]]:
    """(name, plaintext, other members) for the built file and a few real samples."""
    out = [("built", BUILT_TEXT, [("savedata", SAVEDATA)])]
    for path in sample_files("**/*.vsav", "**/*.vlog")[:12]:
        zf = zipfile.ZipFile(path)
        members = [(n, zf.read(n)) for n in zf.namelist()]
        text, _, _ = deobfuscate(dict(members)["savedGame"])
        if len(text) <= 400_000:
            out.append((path.name, text, [m for m in members if m[0] != "savedGame"]))
    return out


SOURCES = sources()


def test_built_file_reads():
    obj = exercise(zip_of([("savedGame", obfuscate(BUILT_TEXT, Dialect.VCSK, 7)),
                           ("savedata", SAVEDATA)]))
    assert isinstance(obj, Log)
    assert len(obj.pieces) == 3
    assert len(obj.steps) == 4


@pytest.mark.parametrize("name, text, others", SOURCES, ids=[s[0] for s in SOURCES])
def test_mutated_command_text(name, text, others):
    rng = random.Random(f"text:{name}")
    for _ in range(60):
        mutated = mutate_text(rng, text)
        dialect = rng.choice(list(Dialect))
        member = obfuscate(mutated, dialect, None if dialect in (Dialect.XZ, Dialect.PLAIN) else 5)
        read_only_vlog_errors(zip_of([("savedGame", member)] + others))


@pytest.mark.parametrize("name, text, others", SOURCES, ids=[s[0] for s in SOURCES])
def test_mutated_archive_and_dialect_bytes(name, text, others):
    rng = random.Random(f"bytes:{name}")
    member = obfuscate(text, Dialect.VCSK, 0x5A)
    whole = zip_of([("savedGame", member)] + others)
    for _ in range(40):
        read_only_vlog_errors(mutate_bytes(rng, whole))
        read_only_vlog_errors(zip_of([("savedGame", mutate_bytes(rng, member))] + others))


def test_mutated_metadata():
    rng = random.Random("meta")
    member = obfuscate(BUILT_TEXT, Dialect.VCSK, 1)
    for _ in range(150):
        meta = mutate_bytes(rng, SAVEDATA)
        read_only_vlog_errors(zip_of([("savedGame", member), ("savedata", meta), ("moduledata", meta)]))
    hostile = (b'<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
               b"<data><version>&b;</version></data>")
    read_only_vlog_errors(zip_of([("savedGame", member), ("savedata", hostile)]))


def test_deeply_nested_commands():
    nested = "x"
    for _ in range(400):
        nested = join(["CHAT hi", nested], ESC)
    text = ESC.join(["begin_save", nested, "end_save"])
    with pytest.raises(CommandSyntaxError, match="nested"):
        vlog.read(zip_of([("savedGame", obfuscate(text, Dialect.VCSK, 3))]))


def test_deeply_nested_log_steps():
    text = ESC.join(["begin_save", "end_save", "LOG\t" * 100_000 + "CHAT x"])
    with pytest.raises(CommandSyntaxError):
        vlog.read(zip_of([("savedGame", obfuscate(text, Dialect.VCSK, 3))]))


def test_shallow_nesting_is_fine():
    nested = "CHAT deepest"
    for _ in range(20):
        nested = join(["CHAT hi", nested], ESC)
    obj = vlog.read(zip_of([("savedGame", obfuscate(ESC.join(["begin_save", nested, "end_save"]),
                                                     Dialect.VCSK, 3))]))
    assert "CHAT deepest" in obj.text


@pytest.mark.parametrize("text", [
    ESC.join(["begin_save", "CHAT" + "x" * (8 << 20), "end_save"]),
    ESC.join(["begin_save", "+/1/" + "mark;k\t" * 200_000 + "piece;;;a.png;A/" + "v\t" * 200_000, "end_save"]),
    ESC.join(["begin_save", "+/1/stack/Main Map;1;2;" + ";".join(map(str, range(300_000))), "end_save"]),
    ESC * 200_000,
    "\\" * 1_000_000 + ESC + "'" * 1_000_000,
])
def test_huge_tokens_read_or_raise_vlog_error(text):
    read_only_vlog_errors(zip_of([("savedGame", obfuscate(text, Dialect.VCSK, 9))]))


def test_fuzzing_reached_both_outcomes():
    """The mutations above must both get through the reader and be refused by it, or they test little."""
    if OUTCOMES["read"] + OUTCOMES["refused"] == 0:
        pytest.skip("run together with the fuzz tests above")
    assert OUTCOMES["read"] > 0 and OUTCOMES["refused"] > 0, OUTCOMES
