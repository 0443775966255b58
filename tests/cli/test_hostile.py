"""Mutated saves, logs and JSON: every command ends with exit 0 or 3, never a crash (exit 4)."""
from __future__ import annotations

import json
import random

import pytest

from tests.cli.conftest import log_text
from vlog.cli import EXIT_INPUT, EXIT_OK, main
from vlog.vassal.archive import write_archive
from vlog.vassal.obfuscation import Dialect, obfuscate

_ALPHABET = "/;\t\x1b\\,'@-0123456789abcnull+DM"
_VALUES = [None, 0, -1, 2**40, "", "x", [], {}, True, 1.5, "null", {"command": "chat"}, [1], "\x1b"]


def _mutate_text(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 8)):
        pos = rng.randrange(len(chars))
        op = rng.random()
        if op < 0.4:
            chars[pos] = rng.choice(_ALPHABET)
        elif op < 0.7:
            del chars[pos]
        else:
            chars.insert(pos, rng.choice(_ALPHABET))
    return "".join(chars)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


def _mutate_json(doc, rng: random.Random):
    doc = json.loads(json.dumps(doc))
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(list(_paths(doc))[1:])
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        if rng.random() < 0.2 and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = rng.choice(_VALUES)
    return doc


def _run(argv, capsys) -> None:
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc in (EXIT_OK, EXIT_INPUT), err
    assert "internal error" not in err


@pytest.mark.parametrize("seed", range(4))
def test_mutated_logs(seed, tmp_path, capsys):
    rng = random.Random(seed)
    path, out = tmp_path / "m.vlog", tmp_path / "m.json"
    for _ in range(15):
        write_archive(path, [("savedGame", obfuscate(_mutate_text(log_text(), rng), Dialect.VCSK, 5))])
        for argv in (["info", str(path)], ["dump", str(path), "--format", "jsonl"],
                     ["convert", str(path), str(out), "--force"]):
            _run(argv, capsys)


@pytest.mark.parametrize("seed", range(4))
def test_mutated_json(seed, built_log, tmp_path, capsys):
    rng = random.Random(seed)
    source = tmp_path / "log.json"
    assert main(["convert", str(built_log), str(source), "--show-player-ids"]) == EXIT_OK
    doc = json.loads(source.read_text(encoding="utf-8"))
    path, out = tmp_path / "m.json", tmp_path / "m.vlog"
    for _ in range(15):
        path.write_text(json.dumps(_mutate_json(doc, rng)), encoding="utf-8")
        for argv in (["info", str(path)], ["dump", str(path)],
                     ["convert", str(path), str(out), "--force"]):
            _run(argv, capsys)
