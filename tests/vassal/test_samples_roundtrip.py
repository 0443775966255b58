"""Every real save and log in ../shared/samples reads and round-trips byte-identically."""
from __future__ import annotations

import json
import re
import zipfile

import pytest

from tests.conftest import sample_params
from vlog.vassal.commands import AddPiece, UnknownCommand, decode, encode, walk
from vlog.vassal.jsonform import from_json, to_json
from vlog.vassal.obfuscation import deobfuscate
from vlog.vassal.pieces import join_chain, split_chain
from vlog.vassal.privacy import player_ids
from vlog.vassal.savefile import Log, read

FILES = sample_params("**/*.vsav", "**/*.vlog")


def _plaintext(path):
    with zipfile.ZipFile(path) as zf:
        return deobfuscate(zf.read("savedGame"))[0]


def _forget(node):
    for n in walk(node):
        n._enc = None
        n._subs_snap = None


@pytest.mark.samples
@pytest.mark.parametrize("path", FILES)
def test_commands_round_trip(path):
    text = _plaintext(path)
    root = decode(text, file=str(path))
    assert encode(root) == text
    # rebuilt from the nodes alone (no cached text), with the file's SequenceEncoder rules
    legacy = read(path).legacy_quoting
    _forget(root)
    assert encode(root, legacy=legacy) == text
    # typed commands rebuilt from their fields give the same payload
    for node in walk(root):
        if node.FIELDS and not isinstance(node, UnknownCommand) and node.KIND not in ("log", "group"):
            assert node.build() == node._raw, node._raw[:200]


@pytest.mark.samples
@pytest.mark.parametrize("path", FILES)
def test_read_model_and_json_round_trip(path):
    obj = read(path)
    assert obj.text == _plaintext(path)
    for c in walk(obj.commands):
        if isinstance(c, AddPiece):
            p = c.piece
            assert join_chain(split_chain(p.type)) == p.type
            assert len(split_chain(p.type)) == len(split_chain(p.state))
            assert p.basic.id_prefix in ("piece;", "stack", "deck;")
    data = json.loads(json.dumps(to_json(obj, redact_player_ids=False, referee=True)))
    back = from_json(data)
    assert back.text == obj.text
    assert type(back) is type(obj)
    if isinstance(obj, Log):
        assert [s.index for s in back.steps] == [s.index for s in obj.steps]
    assert [n for n, _ in back.members] == [n for n, _ in obj.members]
    assert [b for n, b in back.members if n != "savedGame"] == [b for n, b in obj.members if n != "savedGame"]


@pytest.mark.samples
@pytest.mark.parametrize("path", FILES)
def test_redacted_json_hides_every_player_id(path):
    obj = read(path)
    ids = player_ids(obj.commands)
    data = to_json(obj, referee=True)
    assert data["player_ids_redacted"] is True
    back = from_json(json.loads(json.dumps(data)))
    found = player_ids(back.commands)
    assert len(found) == len(ids)
    if not ids:
        assert back.text == obj.text  # nothing to hide: the redacted form is still exact
    assert all(re.fullmatch(r"<player-\d+>", uid) for uid in found)
    dumped = json.dumps(data, ensure_ascii=False)
    for uid in ids:
        assert f'"{uid}"' not in dumped
