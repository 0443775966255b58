"""What the rules give an Ethiopian activation (PB 13.6.2), read apart from the judging in
checks/activation.py: the declarations players make in chat (activate, bribe, Great Offensive,
the Negus availability roll, the attrition hex), the factions and fronts, the activation level a
roll gives, the Negus availability, and what a Great Offensive does to a combat.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vlog.engine.judge import Unknown
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.state import Unit

__all__ = ["NEGUS", "FRONTS", "LEVELS", "MAX_DECLARATION", "Declaration", "parse_declaration", "faction_of",
           "faction_name", "activation_level", "availability", "offensive_effects", "with_extra_attacker_loss"]

NEGUS = "negus"
"""The faction key of the Negus' army: the Negus leader and the Imperial Guard (KZ) units."""
FRONTS = {
    "northern": frozenset({"ethiopian-wollo", "ethiopian-shoa", "ethiopian-tigray", "ethiopian-beghemder",
                           "ethiopian-gojjam-imru", "ethiopian-gojjam-belu"}),
    "southern": frozenset({"ethiopian-sidamo", "ethiopian-bale", "ethiopian-hararghe-ogaden"}),
}
"""PB 13.2.2 (lion-of-judah.txt lines 998-999): the tribes of each Ethiopian front (the Negus is on both)."""
LEVELS = ("no", "half", "full", "surprise")
"""Activation results by the names PB 13.6.2 and the example of play give them."""
_ACTIVATE = re.compile(r"^\s*activat(?:e|es|ing)\s+(?P<who>[^;:!?]+?)\s*[.!]?\s*$", re.IGNORECASE)
_BRIBE = re.compile(r"^\s*bribes?\s+(?P<who>[^;:!?]+?)\s*[.!]?\s*$", re.IGNORECASE)
_OFFENSIVE = re.compile(r"^\s*great\s+offensive\s*(?:on\s+)?(?:the\s+)?(?P<front>north|south)(?:ern)?"
                        r"(?:\s+front)?\s*[.!]?\s*$", re.IGNORECASE)
MAX_DECLARATION = 200
"""Characters of a chat line read for a declaration."""
_AVAILABILITY = re.compile(r"^\s*negus\s+availability(?:\s+roll)?\s*[.!]?\s*$", re.IGNORECASE)
_ATTRITION = re.compile(r"^\s*attrition\s+(?:hex\s+|in\s+)?(?P<hex>\d{4})\s*[.!]?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Declaration:
    """One activation-related chat line: kind is activate, bribe, great-offensive, attrition or
    negus-availability."""

    kind: str
    subject: str
    speaker: str | None = None


def parse_declaration(text: str, speaker: str | None = None) -> Declaration | None:
    """The declaration a player's chat line (without its speaker prefix) makes, or None. Lines
    longer than any declaration are not read (a hostile log's chat stays cheap)."""
    if not isinstance(text, str) or len(text) > MAX_DECLARATION:
        return None
    if _AVAILABILITY.match(text):
        return Declaration("negus-availability", "Negus", speaker)
    for kind, pattern, group in (("activate", _ACTIVATE, "who"), ("bribe", _BRIBE, "who"),
                                 ("great-offensive", _OFFENSIVE, "front"),
                                 ("attrition", _ATTRITION, "hex")):
        match = pattern.match(text)
        if match:
            subject = match.group(group).strip()
            if kind == "great-offensive":
                subject = "northern" if subject.lower().startswith("n") else "southern"
            return Declaration(kind, subject, speaker)
    return None


def faction_of(unit: Unit) -> str | None:
    """The activation faction: NEGUS for the Negus and the Imperial Guard, the tribe's class
    ("ethiopian-shoa") for levies and leaders, None for any other unit."""
    if unit.counter == "et-negus" or unit.unit_class == "imperial-guard":
        return NEGUS
    cls = unit.unit_class or ""
    if unit.side == "ethiopian" and cls.startswith("ethiopian-") and cls != "ethiopian-regular":
        return cls
    return None


def faction_name(key: str | None) -> str:
    if key == NEGUS:
        return "the Negus' army"
    return (key or "unknown").removeprefix("ethiopian-").replace("-", " ").title()


def activation_level(board: Board, roll: int, drm: int | Unknown) -> tuple[str | Unknown, int | Unknown]:
    """(result, modified roll) on the Ethiopian army activation table: "no", "half", "full" or
    "surprise", or Unknown naming the table cell (or the modifier) the data lacks. A modified
    roll beyond the table's printed rows reads the nearest row."""
    if isinstance(drm, Unknown):
        return Unknown(*drm.data), Unknown(*drm.data)
    modified = roll + drm
    table = board.data.table("ethiopian-activation")
    labels = table.labels("roll").value
    row = str(modified)
    if labels:
        numbers = [int(x) for x in labels if str(x).lstrip("-").isdigit()]
        if numbers and modified < min(numbers):
            row = str(min(numbers))
        elif numbers and modified > max(numbers):
            row = str(max(numbers))
    cell = table.lookup(row)
    name = f"tables.json ethiopian-activation roll {row}"
    if cell.value is None:
        return Unknown(name), modified
    text = str(cell.value).lower()
    for level, word in (("surprise", "surprise"), ("half", "half"), ("no", "no activation"),
                        ("full", "full")):
        if word in text:
            return level, modified
    return Unknown(name), modified


def availability(board: Board, roll: int) -> str | Unknown:
    """"success" or "failure" on the Negus availability table (PB 13.6.2.2), or Unknown naming
    the cell."""
    cell = board.data.table("negus-availability").lookup(str(roll))
    if cell.value is None:
        return Unknown(f"tables.json negus-availability roll {roll}")
    return "success" if "success" in str(cell.value).lower() else "failure"


def offensive_effects(attackers: Sequence[Unit], gassed: frozenset[str] | set[str]) -> tuple[int, int]:
    """CB-32 (PB 13.6.2.4): an Ethiopian combat in a Great Offensive gains (column shifts right,
    extra Ethiopian step losses): (2, 1); (1, 1) when some attackers are gassed; (0, 0) when all
    of them are."""
    ours = [u for u in attackers if u.side == "ethiopian"]
    hit = [u for u in ours if u.id in gassed]
    if ours and len(hit) == len(ours):
        return 0, 0
    return (1 if hit else 2), 1


def with_extra_attacker_loss(cell: str, extra: int) -> str:
    """A CRT cell "a/d..." with `extra` more attacker steps lost (CB-32's +1)."""
    head, sep, rest = cell.partition("/")
    if not extra or not sep:
        return cell
    if head.strip().isdigit():
        return f"{int(head) + extra}/{rest}"
    if head.strip() in ("", "-"):
        return f"{extra}/{rest}"
    return cell
