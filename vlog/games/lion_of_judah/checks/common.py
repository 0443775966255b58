"""Turning a verdict into a `Finding` with the inventory's rule reference."""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from vlog.engine.judge import Ruling
from vlog.findings import Basis, Finding, Severity
from vlog.kit.inventory import load_inventory
from vlog.kit.numbers import plain_number, show_number
from vlog.kit.registry import Registry

__all__ = ["GAME", "INVENTORY", "REGISTRY", "finding", "check_id", "plain_number", "show_number"]

GAME = "lion-of-judah"
INVENTORY = load_inventory(GAME)
"""The rules inventory with what is judged and why not (data/inventory.json)."""
REGISTRY = Registry(GAME, INVENTORY)
"""The check functions by the inventory items they report (`@REGISTRY.check("MV-03")`)."""
SHOWN_DATA = 3
"""Unknown data named in a POSSIBLE finding's message; the evidence lists them all."""


def check_id(short: str) -> str:
    """'MV-07' -> 'lion-of-judah/MV-07' (KeyError for an id the inventory lacks)."""
    return INVENTORY.check_id(short)


def finding(short: str, ruling: Ruling, *, step: int | None, when: str | None, message: str,
            subjects: Iterable[str] = (), evidence: Mapping[str, object] | None = None,
            depends_on: Iterable[str] = ()) -> Finding:
    """A finding for inventory item `short`: PROVEN -> error, POSSIBLE -> warning naming the
    data that would settle it (also listed in the evidence)."""
    if ruling is Ruling.LEGAL:
        raise ValueError("a legal action yields no finding")
    basis = Basis.PROVEN if ruling is Ruling.PROVEN else Basis.POSSIBLE
    severity = Severity.ERROR if ruling is Ruling.PROVEN else Severity.WARNING
    ev = dict(evidence or {})
    data = sorted(set(depends_on))
    if data:
        ev["depends_on"] = data
        shown = ", ".join(data[:SHOWN_DATA])
        more = f" and {len(data) - SHOWN_DATA} more (all in the evidence)" if len(data) > SHOWN_DATA else ""
        message = f"{message} (possible: depends on {shown}{more})"
    return Finding(check_id(short), INVENTORY.item(short).rule, severity, basis, step, when, message,
                   tuple(subjects), ev)
