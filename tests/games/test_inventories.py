"""Every game's rule inventory (data/inventory.json) against its rules inventory document
(../shared/docs/rules/<game>.md, skipped when absent) and against its engine."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from converters.inventory import RULES_DIR, dumps, parse, refresh
from vlog.games import GAMES
from vlog.gamedata import read_inventory
from vlog.kit.inventory import load_inventory

GAMES_DIR = Path(__file__).resolve().parents[2] / "vlog" / "games"


def document(game: str) -> str:
    path = RULES_DIR / f"{game}.md"
    if not path.is_file():
        pytest.skip("../shared/docs/rules is absent")
    return path.read_text(encoding="utf-8")


def flat(text: str) -> str:
    return " ".join(text.replace("**", "").split())


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.id)
def test_the_inventory_is_its_document_transcribed(entry):
    """Every item of the document, in its order, with its tags, scenario and rule: what
    `python -m converters.inventory GAME` would write, so a change to the document shows here."""
    text = document(entry.id)
    current = read_inventory(entry.id)
    refreshed, gone = refresh(entry.id, text, current)
    assert gone == [], f"items no longer in {entry.id}.md: {gone}"
    shipped = (GAMES_DIR / entry.package / "data" / "inventory.json").read_text(encoding="utf-8")
    assert dumps(refreshed) == shipped, f"run: python -m converters.inventory {entry.id}"
    assert [i["id"] for i in current["items"]] == [e.id for e in parse(text)]


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.id)
def test_each_summary_is_the_documents_own_words(entry):
    statements = {e.id: flat(e.statement) for e in parse(document(entry.id))}
    inventory = load_inventory(entry.id)
    wrong = [i.id for i in inventory.items if flat(i.summary.removesuffix(" ...")) not in statements[i.id]]
    assert wrong == []


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.id)
def test_only_a_game_with_an_engine_judges_anything(entry):
    inventory = load_inventory(entry.id)
    if entry.engine is None:
        assert inventory.implemented() == {}, f"{entry.id} has no engine to judge them"
        return
    module, name = entry.engine.split(":")
    engine = getattr(importlib.import_module(f"{entry.module}.{module}"), name)
    assert engine.checks == inventory.specs()
    assert inventory.implemented(), f"{entry.id}'s engine judges nothing"
