"""Every shipped datum says where it comes from, and every unknown says why (all four games)."""
from __future__ import annotations

import json
import re
import sys
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


def _counter_documents(game: str):
    return json.loads((GAMES_DIR / GAMES[game] / "data" / "counters.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_movement_class_of_a_unit_of_unknown_type_says_how_it_is_known(game):
    """A class follows from the unit's type (e.g. Lion of Judah 2.3.8: armor, light armor, HQs,
    motorized infantry and trucks are motorized, all others foot): with the type unknown, the
    class is unknown too, unless the value says it is derived and from what, or its source is a
    line of the text naming the unit itself."""
    book = RULEBOOKS / f"{game}.txt"
    lines = book.read_text(encoding="utf-8").splitlines() if book.is_file() else None
    unsupported = []
    for counter in _counter_documents(game)["counters"]:
        klass, kind = counter.get("movement_class"), counter.get("type")
        if not klass or klass.get("value") is None or (kind and kind.get("value") is not None):
            continue
        if klass.get("derived"):
            continue
        match = re.search(r"line (\d+)\)$", klass.get("source") or "")
        name = counter["name"]["value"]
        if lines is not None and match and re.search(
                rf"(?<![\w-]){re.escape(name)}(?![\w-])", lines[int(match.group(1)) - 1]):
            continue
        unsupported.append(f"{counter['id']}: movement_class {klass['value']!r} from {klass.get('source')!r}")
    assert not unsupported, "type unknown, class given without a derivation:\n" + "\n".join(unsupported)


def test_the_movement_class_check_fails_on_an_assumed_class(monkeypatch):
    """The check above is not vacuous: a foot class given to a counter of unknown type fails it."""
    doc = _counter_documents("lion-of-judah")
    levy = next(c for c in doc["counters"] if c["id"] == "et-levy-shoa")
    assert levy["type"]["value"] is None and levy["movement_class"]["value"] is None
    levy["movement_class"] = {"value": "foot", "source": "2.3.8 (lion-of-judah.txt line 225)"}
    monkeypatch.setattr(sys.modules[__name__], "_counter_documents", lambda game: doc)
    with pytest.raises(AssertionError, match="et-levy-shoa"):
        test_a_movement_class_of_a_unit_of_unknown_type_says_how_it_is_known("lion-of-judah")


_HEADING = re.compile(r"^(?:PB\s+)?(S?\d+(?:\.\d+)+|S\d+)\.?\s+[A-Z]")
_CHART = re.compile(r"^[A-Z][^()]{0,60}\((\d+(?:\.\d+)+)\)\s*$")
"""A chart's title naming its rule: "Results (20.3)", "Militia Table (16.3)"."""
_ITEM = re.compile(r"^([A-Z])\. [\"A-Z]")
"""A lettered item under a rule: "R. Portugal Enters the War: ..."."""
_LABEL = re.compile(r"^(?:PB\s+)?(S?\d+(?:\.\d+)*)(?:\s+([A-Z])\b)?")


def _sections(lines: list[str]) -> list[tuple[str | None, str | None]]:
    """The (section number, lettered item) each line of a rulebook stands in: the last heading
    (or chart title naming its rule) before it, and the last lettered item since."""
    current, item, out = None, None, []
    for line in lines:
        match = _HEADING.match(line) or _CHART.match(line)
        if match:
            current, item = match.group(1), None
        elif _ITEM.match(line):
            item = line[0]
        out.append((current, item))
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_citation_names_the_section_its_line_is_in(game):
    """A source "S3.3 (ascari.txt line 441)" points at a line of section S3.3 (or a section
    around it), not at another scenario's copy of the same text or the table of contents. A chart
    titled with its rule ("Results (20.3)") stands in that rule, and "16.2 T" is a line of the
    item lettered T wherever the rulebook explains it."""
    book = RULEBOOKS / f"{game}.txt"
    if not book.is_file():
        pytest.skip("../shared/rulebooks is absent")
    lines = book.read_text(encoding="utf-8").splitlines()
    sections = _sections(lines)
    wrong = []
    for file, where, raw in datums(game):
        match = re.match(rf"^(.*)\({re.escape(book.name)} line (\d+)\)$", raw.get("source") or "")
        if not match:
            continue
        labels = [m for m in (_LABEL.match(part.strip()) for part in match.group(1).split("/")) if m]
        section, item = sections[int(match.group(2)) - 1]
        if not labels or any((m.group(2) is not None and m.group(2) == item)
                             or (m.group(2) is None and section is not None
                                 and (section.startswith(m.group(1)) or m.group(1).startswith(section)))
                             for m in labels):
            continue
        wrong.append(f"{file} {where}: {raw['source']!r} is a line of section {section}"
                     + (f", item {item}" if item else ""))
    assert not wrong, "\n".join(wrong)
