"""Turning a verdict into a `Finding` with the inventory's rule reference."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.step_events import Play
from vlog.kit.inventory import load_inventory
from vlog.kit.numbers import plain_number, show_number
from vlog.kit.ledger import Ledger
from vlog.kit.registry import Registry

__all__ = ["GAME", "INVENTORY", "REGISTRY", "finding", "check_id", "plain_number", "show_number",
           "GameLedger", "PlayLedger"]

GAME = "lion-of-judah"
INVENTORY = load_inventory(GAME)
"""The rules inventory with what is judged and why not (data/inventory.json)."""
REGISTRY = Registry(GAME, INVENTORY)
"""The check functions by the inventory items they report (`@REGISTRY.reports("MV-03")`)."""


def check_id(short: str) -> str:
    """'MV-07' -> 'lion-of-judah/MV-07' (KeyError for an id the inventory lacks)."""
    return INVENTORY.check_id(short)


def finding(short: str, ruling: Ruling, *, step: int | None, when: str | None, message: str,
            subjects: Iterable[str] = (), evidence: Mapping[str, object] | None = None,
            depends_on: Iterable[str] = ()) -> Finding:
    """A finding for inventory item `short` (`vlog.kit.inventory.Inventory.finding`)."""
    return INVENTORY.finding(short, ruling, step=step, when=when, message=message, subjects=subjects,
                             evidence=evidence, depends_on=depends_on)


class GameLedger(Ledger):
    """A ledger (vlog/kit/ledger.py) that reads the engine it serves: `game`, set when the
    engine lists it (its board, scenario, interpreter)."""

    game: Any = None


class PlayLedger(GameLedger):
    """A ledger that follows each event of play (step_events.Play) and each phase change alike,
    through `play`; with `only`, in that scenario alone."""

    only: ClassVar[str | None] = None

    def event(self, event: Any, view: Any) -> Iterable[Finding]:
        return self._each(event) if isinstance(event, Play) else []

    def phase(self, change: Any, view: Any) -> Iterable[Finding]:
        return self._each(change)

    def _each(self, what: Any) -> Iterable[Finding]:
        if self.only is not None and self.game.scenario != self.only:
            return []
        return self.play(what)

    def play(self, what: Any) -> Iterable[Finding]:
        raise NotImplementedError
