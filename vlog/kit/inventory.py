"""A game's rule inventory as data: every checklist item of shared/docs/rules/<game>.md with
what the engine judges for it, or why it does not judge it (data/inventory.json).

The file is the one place a game says which of its rules are judged: findings take their rule
reference from it, `vlog games` lists it, and the game's check specs are built from it. An item
is implemented, cannot be judged (a VASSAL log does not show it), needs data (the game data
lacks what it needs) or is not yet built; the first three carry a note saying what or why.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from vlog.engine.judge import Ruling
from vlog.findings import Basis, Finding, Severity
from vlog.gamedata import game_package, read_inventory
from vlog.kit.registry import CheckSpec

__all__ = ["IMPLEMENTED", "Inventory", "Item", "SHOWN_DATA", "STATUSES", "load_inventory"]

IMPLEMENTED = "implemented"
STATUSES = (IMPLEMENTED, "cannot be judged", "needs data", "not yet built")
SHOWN_DATA = 3
"""Unknown data named in a POSSIBLE finding's message; the evidence lists them all."""
_WHY_NOT = {"cannot be judged": "cannot be judged from a log: ", "needs data": "needs data: "}


@dataclass(frozen=True, slots=True)
class Item:
    """One inventory item: id ('MV-07'), tags, rulebook reference, scenario mark, summary and
    status with its note."""

    id: str
    tags: tuple[str, ...]
    rule: str | None
    scenario: str | None
    summary: str
    status: str
    note: str | None = None
    occasions: tuple[str, ...] = ()
    """The action kinds each of which is an occasion for its check (see the schema)."""

    @property
    def implemented(self) -> bool:
        return self.status == IMPLEMENTED

    def why_not(self) -> str | None:
        """None for an implemented item; else why it is not judged, as `vlog games` says it."""
        if self.implemented:
            return None
        return _WHY_NOT[self.status] + self.note if self.status in _WHY_NOT else self.status

    def reported_by(self) -> tuple[str, ...]:
        """The items whose findings it is reported with, as its note says '(findings under X)'."""
        match = re.search(r"\(findings under ([^)]*)\)", self.note or "") if self.implemented else None
        if match is None:
            return ()
        return tuple(part.strip() for part in re.split(r"[/,]| and ", match.group(1))
                     if re.fullmatch(r"[A-Z]+[0-9]*-\d+", part.strip()))

    def description(self) -> str:
        """What is judged (implemented) or the rule's summary, with its scenario mark in front."""
        text = self.note if self.implemented and self.note else self.summary
        mark = f"({self.scenario})" if self.scenario else ""
        return text if not mark or text.startswith(mark) else f"{mark} {text}"


@dataclass(frozen=True, slots=True)
class Inventory:
    """Every item of one game's inventory, in the document's order."""

    game: str
    items: tuple[Item, ...]
    _by_id: dict[str, Item] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {item.id: item for item in self.items})

    def item(self, short: str) -> Item:
        """The item of a check id ('MV-07'); KeyError for an id the inventory lacks."""
        return self._by_id[short]

    def __contains__(self, short: object) -> bool:
        return short in self._by_id

    def check_id(self, short: str) -> str:
        """'MV-07' -> 'lion-of-judah/MV-07' (KeyError for an id the inventory lacks)."""
        self.item(short)
        return f"{self.game}/{short}"

    def specs(self) -> tuple[CheckSpec, ...]:
        """One CheckSpec per item, in order, with ids as findings spell them."""
        return tuple(CheckSpec(f"{self.game}/{i.id}", i.rule or "", i.description(),
                               implemented=i.implemented, why_not=i.why_not(), occasions=i.occasions,
                               tags=i.tags, scenario=i.scenario,
                               reported_by=tuple(f"{self.game}/{r}" for r in i.reported_by() if r in self))
                     for i in self.items)

    def implemented(self) -> dict[str, str]:
        """Implemented check id -> what the engine judges for it."""
        return {i.id: i.note or "" for i in self.items if i.implemented}

    def finding(self, short: str, ruling: Ruling, *, step: int | None, when: str | None, message: str,
                subjects: Iterable[str] = (), evidence: Mapping[str, object] | None = None,
                depends_on: Iterable[str] = ()) -> Finding:
        """A finding of item `short` with its rule reference: PROVEN -> error, POSSIBLE ->
        warning naming the data that would settle it (`depends_on`, also in the evidence)."""
        if ruling is Ruling.LEGAL:
            raise ValueError("a legal action yields no finding")
        proven = ruling is Ruling.PROVEN
        ev = dict(evidence or {})
        data = sorted(set(depends_on))
        if data:
            ev["depends_on"] = data
            shown = ", ".join(data[:SHOWN_DATA])
            more = f" and {len(data) - SHOWN_DATA} more (all in the evidence)" if len(data) > SHOWN_DATA else ""
            message = f"{message} (possible: depends on {shown}{more})"
        return Finding(self.check_id(short), self.item(short).rule or "", Severity.ERROR if proven else Severity.WARNING,
                       Basis.PROVEN if proven else Basis.POSSIBLE, step, when, message, tuple(subjects), ev)


def load_inventory(game: str) -> Inventory:
    """The shipped inventory of a game ('lion-of-judah'), validated against its schema, read once."""
    return _load(game_package(game))


@lru_cache(maxsize=None)
def _load(package: str) -> Inventory:
    doc = read_inventory(package)
    return Inventory(doc["game"], tuple(Item(raw["id"], tuple(raw["tags"]), raw["rule"], raw["scenario"],
                                             raw["summary"], raw["status"], raw.get("note"),
                                             tuple(raw.get("occasions", ())))
                                        for raw in doc["items"]))
