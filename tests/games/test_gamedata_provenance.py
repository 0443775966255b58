"""Every shipped datum says where it comes from, and every unknown says why (all four games)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import vlog.games
from vlog.gamedata import GAMES, KINDS, _walk, load_game_data

GAMES_DIR = Path(vlog.games.__file__).parent
RULES = Path(__file__).resolve().parents[2].parent / "shared" / "docs" / "rules"
RULEBOOKS = Path(__file__).resolve().parents[2].parent / "shared" / "rulebooks"
CHECK_ID = re.compile(r"\*\*([A-Z]+[0-9]*-[0-9]+[a-z]?)\*\*|^\s*- ([A-Z]+[0-9]*-[0-9]+[a-z]?)\.", re.M)


def data_files(game: str) -> list[Path]:
    folder = GAMES_DIR / GAMES[game] / "data"
    return [folder / f"{kind}.json" for kind in KINDS]


def datums(game: str):
    for path in data_files(game):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for where, raw in _walk(doc):
            yield path.name, where, raw


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_known_value_has_a_source_and_every_null_a_note(game):
    missing = []
    for file, where, raw in datums(game):
        if raw["value"] is None:
            if not (isinstance(raw.get("note"), str) and raw["note"].strip()):
                missing.append(f"{file} {where}: null without a note")
        elif not (isinstance(raw.get("source"), str) and raw["source"].strip()):
            missing.append(f"{file} {where}: value without a source")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_value_is_outside_a_datum(game):
    """Leaves of the data are datums; bare scalars appear only as structure (ids, kinds, axis names)."""
    structural = {"id", "kind", "game", "type", "name"}

    def visit(node, key, path, out):
        if isinstance(node, dict) and "value" in node:
            return
        if isinstance(node, dict):
            for k, v in node.items():
                visit(v, k, f"{path}.{k}", out)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                visit(v, key, f"{path}[{i}]", out)
        elif key not in structural:
            out.append(f"{path} = {node!r}")

    for path in data_files(game):
        bare: list[str] = []
        visit(json.loads(path.read_text(encoding="utf-8")), "", "$", bare)
        assert not bare, f"{path.name}: bare values outside datums:\n" + "\n".join(bare)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_blocked_check_ids_exist_in_the_rules_inventory(game):
    inventory = RULES / f"{game}.md"
    if not inventory.is_file():
        pytest.skip("../shared/docs/rules is absent")
    known = {a or b for a, b in CHECK_ID.findall(inventory.read_text(encoding="utf-8"))}
    unknown = sorted({check for _, _, raw in datums(game) for check in raw.get("blocks", ()) if check not in known})
    assert not unknown, f"check ids not in {inventory.name}: {unknown}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rulebook_line_citations_are_inside_the_rulebook(game):
    rulebook = RULEBOOKS / f"{game}.txt"
    if not rulebook.is_file():
        pytest.skip("../shared/rulebooks is absent")
    count = len(rulebook.read_text(encoding="utf-8").splitlines())
    cited = [(file, where, int(n)) for file, where, raw in datums(game)
             for n in re.findall(rf"{re.escape(rulebook.name)} lines? (\d+)", raw.get("source") or "")]
    assert all(1 <= n <= count for _, _, n in cited), [c for c in cited if not 1 <= c[2] <= count]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_status_covers_every_datum(game):
    from vlog.gamedata import status

    entries = status(load_game_data(game))
    assert len(entries) == sum(1 for _ in datums(game))
    assert {e.state for e in entries} <= {"known", "partial", "unknown"}
    assert all(e.blocks == () for e in entries if e.state != "unknown")
