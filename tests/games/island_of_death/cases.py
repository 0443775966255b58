"""What Island of Death contributes to the tests every game with a rules engine runs
(tests/games/test_every_game.py): its fixture logs with the findings each plants, how to render a
replay as a golden playthrough, and the failing cases that are unit tests rather than logs."""
from __future__ import annotations

from tests.games.island_of_death.test_end_to_end import EXPECTED, KNOWN_GAPS, RULES, playthrough

__all__ = ["EXPECTED", "KNOWN_GAPS", "NO_FINDING", "RULES", "UNIT_CASES", "playthrough"]

UNIT_CASES: dict[str, str] = {}
"""Checks whose failing case is a unit test: no fixture log plants them exactly (yet)."""

NO_FINDING: dict[str, str] = {
    "SUP-10": "supply is traced without regard to ammunition: nothing of its own to report",
}
"""Implemented checks the inventory says report nothing themselves."""
