"""converters.inventory: the three ways the rules inventory documents write their checklists,
and bringing an inventory up to date without losing what it says."""
from __future__ import annotations

import json

from converters.inventory import Entry, dumps, main, parse, refresh, summary

# synthetic lines, one in each style (not from any rulebook)
DOCUMENT = """\
## 2. Checklist
* **MV-01** [pos][map] (6.1; PB 2.2) (35) Units move hex to hex. A unit may not leave the map. *Check:* paths.
1. **SEQ-01** **(2.0 step 1)** Exactly one side is active per player-turn. [pos][state]
- ZOC-01. [pos] A unit must stop when it enters an enemy ZOC (5.2), and never leave it (5.3).
- **A-1** An ambiguity, not an item.
"""


def test_three_styles_are_read():
    assert parse(DOCUMENT) == [
        Entry("MV-01", ("pos", "map"), "6.1; PB 2.2", "35",
              "Units move hex to hex. A unit may not leave the map. *Check:* paths."),
        Entry("SEQ-01", ("pos", "state"), "2.0 step 1", None, "Exactly one side is active per player-turn."),
        Entry("ZOC-01", ("pos",), "5.2", None,
              "A unit must stop when it enters an enemy ZOC (5.2), and never leave it (5.3)."),
    ]


def test_a_summary_is_the_opening_of_the_statement():
    assert summary("Units move hex to hex. A unit may not leave the map. *Check:* paths.") == \
        "Units move hex to hex. A unit may not leave the map"
    long = "word " * 60 + "end."
    cut = summary(long)
    assert cut.endswith(" ...") and len(cut) <= 150 and long.startswith(cut.removesuffix(" ..."))
    assert summary("A **bold** claim.") == "A bold claim"


def test_refresh_keeps_what_the_inventory_says_and_reports_what_went():
    current = {"kind": "inventory", "game": "toy", "source": "synthetic", "items": [
        {"id": "MV-01", "tags": ["pos"], "rule": "6.1", "scenario": None, "summary": "Units move",
         "status": "implemented", "note": "a path"},
        {"id": "XX-09", "tags": [], "rule": None, "scenario": None, "summary": "Gone", "status": "not yet built"}]}
    doc, gone = refresh("toy", DOCUMENT, current)
    assert gone == ["XX-09"]
    first, second, third, kept = doc["items"]
    assert first == {"id": "MV-01", "tags": ["pos", "map"], "rule": "6.1; PB 2.2", "scenario": "35",
                     "summary": "Units move", "status": "implemented", "note": "a path"}
    assert second["status"] == third["status"] == "not yet built" and "note" not in second
    assert kept["id"] == "XX-09"
    assert json.loads(dumps(doc)) == doc


def test_the_command_writes_and_checks(tmp_path, monkeypatch, capsys):
    import converters.inventory as inventory

    package = tmp_path / "ascari" / "data"
    package.mkdir(parents=True)
    rules = tmp_path / "ascari.md"
    rules.write_text(DOCUMENT, encoding="utf-8")
    monkeypatch.setattr(inventory, "GAMES_DIR", tmp_path)
    assert main(["ascari", "--rules", str(rules), "--check"]) == 1
    assert main(["ascari", "--rules", str(rules)]) == 0
    assert main(["ascari", "--rules", str(rules), "--check"]) == 0
    assert len(json.loads((package / "inventory.json").read_text(encoding="utf-8"))["items"]) == 3
    assert main(["chess", "--rules", str(rules)]) == 2
    assert "did you mean" not in capsys.readouterr().err
