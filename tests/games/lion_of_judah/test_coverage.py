"""Every implemented check that raises findings of its own has a test that expects its finding.

Checks whose rule is applied inside another check say so in the inventory ("findings under X",
"no finding of its own") and need no failing case of their own."""
from __future__ import annotations

import re
from pathlib import Path

from vlog.kit.inventory import load_inventory

HERE = Path(__file__).parent


def test_every_finding_check_has_a_failing_case():
    sources = "\n".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py")
                        if p.name != "test_coverage.py")
    expected = set(re.findall(r'"([A-Z]{2}-\d\d)"', sources))
    expected |= set(re.findall(r"lion-of-judah/([A-Z]{2}-\d\d)", sources))
    own = {c for c, text in load_inventory("lion-of-judah").implemented().items()
           if "findings under" not in text and "no finding of its own" not in text}
    missing = sorted(own - expected)
    assert missing == [], f"implemented checks with no test expecting their finding: {missing}"
