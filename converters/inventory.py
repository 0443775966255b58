"""A game's rule inventory (data/inventory.json) from its rules inventory document
(shared/docs/rules/<game>.md): every checklist item, by its id, once.

The four documents write their checklists three ways:

    * **TS-01** [state] (5.1; PB 13.5.3) (35) First player: ...            Lion of Judah
    1. **SEQ-01** **(2.0 step 1, 1.4)** Exactly one side ... [pos][state]  Ascari, Sideshow
    - SEQ-01. [pos] A day runs Initial Segment → AM ... (4.0, 4.4).        Island of Death

`parse` reads all three into `Entry`s (id, tags, rulebook reference, scenario mark, statement).
`refresh` brings an inventory up to date with its document: items keep their status and notes,
new items come in as "not yet built" with the statement's opening as their summary, and items
the document no longer has are reported, never dropped silently. Run

    python -m converters.inventory GAME [--rules FILE] [--check]

to write the file (atomically) or, with --check, to say whether it is up to date (exit 1 if not).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vlog.errors import VlogError
from vlog.gamedata import game_package

__all__ = ["Entry", "RULES_DIR", "parse", "refresh", "summary", "main"]

RULES_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "docs" / "rules"
"""Where the rules inventory documents are in a checkout beside ../shared."""
GAMES_DIR = Path(__file__).resolve().parents[1] / "vlog" / "games"
SUMMARY_LIMIT = 150
"""A summary is the statement's opening sentences up to this many characters."""

_ID = r"[A-Z]+[0-9]*-[0-9]+[a-z]?"
_LINE = re.compile(rf"^\s*(?:\* \*\*(?P<a>{_ID})\*\*|\d+\. \*\*(?P<b>{_ID})\*\*|- (?P<c>{_ID})\.)\s*(?P<rest>.*)$")
_TAGS = re.compile(r"^((?:\[[a-z]+\])+)\s*")
_TAGS_AT_END = re.compile(r"\s*((?:\[[a-z]+\])+)\s*$")
_BOLD_RULE = re.compile(r"^\*\*\((?P<rule>.*?)\)\*\*\s*")
_SCENARIO = re.compile(r"^\((\d\d)\)\s+")
_RULE_NUMBER = re.compile(r"^\d+(\.\d+)+")


@dataclass(frozen=True, slots=True)
class Entry:
    """One checklist item as its document writes it."""

    id: str
    tags: tuple[str, ...]
    rule: str | None
    scenario: str | None
    statement: str


def _leading_parens(text: str) -> tuple[str, str] | None:
    """'(5.1; PB 13.5.3) rest' -> ('5.1; PB 13.5.3', 'rest'), the parentheses balanced."""
    if not text.startswith("("):
        return None
    depth = 0
    for i, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if depth == 0:
            return text[1:i], text[i + 1:].strip()
    return None


def _first_rule_reference(text: str) -> str | None:
    """The first parenthesised group that opens with a rule number ('(4.0, 4.4)' -> '4.0, 4.4')."""
    for match in re.finditer(r"\(([^()]*)\)", text):
        if _RULE_NUMBER.match(match.group(1).strip()):
            return match.group(1).strip()
    return None


def _entry(check_id: str, style: str, rest: str) -> Entry:
    """One item from its line's text after the id; `style` is the group the id matched (a, b, c)."""
    tags: tuple[str, ...] = ()
    rule: str | None = None
    if style in "ac" and (match := _TAGS.match(rest)) is not None:
        tags, rest = tuple(re.findall(r"\[([a-z]+)\]", match.group(1))), rest[match.end():]
    if style == "a" and (parens := _leading_parens(rest)) is not None:
        rule, rest = parens
    if style == "b" and (match := _BOLD_RULE.match(rest)) is not None:
        rule, rest = match.group("rule"), rest[match.end():]
        if (end := _TAGS_AT_END.search(rest)) is not None:
            tags, rest = tuple(re.findall(r"\[([a-z]+)\]", end.group(1))), rest[:end.start()]
    scenario = None
    if style == "a" and (match := _SCENARIO.match(rest)) is not None:
        scenario, rest = match.group(1), rest[match.end():]
    if style == "c":
        rule = _first_rule_reference(rest)
    return Entry(check_id, tags, rule, scenario, rest.strip())


def parse(text: str) -> list[Entry]:
    """Every checklist item of a rules inventory document, in its order."""
    out = []
    for line in text.splitlines():
        match = _LINE.match(line)
        if match is not None:
            style = next(group for group in "abc" if match.group(group))
            out.append(_entry(match.group(style), style, match.group("rest")))
    return out


def summary(statement: str) -> str:
    """The statement's opening sentences, its markup and its 'Check:' hint left out, cut at a word
    with ' ...' when even the first sentence is longer than SUMMARY_LIMIT."""
    text = statement.replace("**", "").split("*Check:*")[0].strip()
    parts = text.split(". ")
    out = parts[0]
    for part in parts[1:]:
        if len(out) + 2 + len(part) > SUMMARY_LIMIT:
            break
        out += ". " + part
    out = out.rstrip().rstrip(".:").rstrip()
    if len(out) > SUMMARY_LIMIT:
        cut = out[: SUMMARY_LIMIT - 4]
        out = cut[: cut.rfind(" ")] + " ..."
    return out


def refresh(game: str, document: str, current: dict[str, Any] | None) -> tuple[dict[str, Any], list[str]]:
    """The inventory brought up to date with its document, and the ids the document no longer has
    (kept, for a person to decide)."""
    entries = parse(document)
    old = {item["id"]: item for item in (current or {}).get("items", [])}
    items = []
    for entry in entries:
        item = dict(old.get(entry.id) or {"id": entry.id, "summary": summary(entry.statement),
                                          "status": "not yet built"})
        item.update({"tags": list(entry.tags), "scenario": entry.scenario if entry.scenario is not None
                     else item.get("scenario")})      # a scenario mark set by hand stays, like a rule
        if entry.rule is not None or "rule" not in item:     # a reference transcribed by hand stays
            item["rule"] = entry.rule
        items.append({key: item[key] for key in ("id", "tags", "rule", "scenario", "summary", "status",
                                                 "occasions", "note") if key in item})
    gone = [check for check in old if check not in {e.id for e in entries}]
    items += [old[check] for check in gone]
    doc = {"kind": "inventory", "game": game,
           "source": (current or {}).get("source", f"shared/docs/rules/{game}.md, section 2"),
           "items": items}
    return doc, gone


def dumps(doc: dict[str, Any]) -> str:
    """The file's text: one item a line, so a diff shows the items that changed."""
    items = ",\n".join("    " + json.dumps(item, ensure_ascii=False) for item in doc["items"])
    head = {k: v for k, v in doc.items() if k != "items"}
    return json.dumps(head, ensure_ascii=False, indent=2)[:-2] + ',\n  "items": [\n' + items + "\n  ]\n}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m converters.inventory", description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--rules", type=Path, help="the rules inventory document (default ../shared/docs/rules/GAME.md)")
    parser.add_argument("--check", action="store_true", help="only say whether the file is up to date")
    args = parser.parse_args(argv)
    try:
        package = game_package(args.game)
    except VlogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rules = args.rules or RULES_DIR / f"{args.game}.md"
    if not rules.is_file():
        print(f"error: {rules}: no such file; give the document with --rules", file=sys.stderr)
        return 2
    target = GAMES_DIR / package / "data" / "inventory.json"
    current = json.loads(target.read_text(encoding="utf-8")) if target.is_file() else None
    doc, gone = refresh(args.game, rules.read_text(encoding="utf-8"), current)
    for check in gone:
        print(f"warning: {check} is no longer in {rules.name}; kept in {target.name}", file=sys.stderr)
    text = dumps(doc)
    if args.check:
        same = target.is_file() and target.read_text(encoding="utf-8") == text
        print(f"{target}: {'up to date' if same else 'out of date'}")
        return 0 if same else 1
    temporary = target.with_suffix(".json.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(target)
    print(f"{target}: {len(doc['items'])} items")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
