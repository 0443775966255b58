"""Lion of Judah's check functions are registered with the inventory items they report
(`@REGISTRY.check(...)`, vlog.kit.registry), and the registrations agree with the inventory."""
from __future__ import annotations

import re
from pathlib import Path

import vlog.games.lion_of_judah.rules  # noqa: F401  (imports every check module, so all register)
from vlog.games.lion_of_judah.checks.common import INVENTORY, REGISTRY

PACKAGE = Path(vlog.games.lion_of_judah.rules.__file__).parent


def own_findings() -> set[str]:
    """Implemented items that report findings under their own id."""
    return {c for c, note in INVENTORY.implemented().items()
            if "findings under" not in note and "no finding of its own" not in note}


def test_registered_items_are_implemented_items():
    implemented = INVENTORY.implemented()
    assert REGISTRY.registered()
    wrong = {r.name: [i for i in r.ids if i not in implemented] for r in REGISTRY.registered()}
    assert {name: ids for name, ids in wrong.items() if ids} == {}


def test_every_item_with_findings_of_its_own_is_registered():
    missing = sorted(own_findings() - REGISTRY.ids())
    assert missing == [], f"implemented checks no function registers: {missing}"


def test_a_function_registers_only_items_its_module_reports():
    """A registration claims no item its module names nowhere but in registrations (a copied
    decorator would)."""
    wrong = {}
    for r in REGISTRY.registered():
        source = (PACKAGE / r.function.__module__.removeprefix("vlog.games.lion_of_judah.")
                  .replace(".", "/")).with_suffix(".py").read_text(encoding="utf-8")
        source = re.sub(r"@REGISTRY\.check\([^)]*\)", "", source)
        absent = [i for i in r.ids if f'"{i}"' not in source]
        if absent:
            wrong[r.name] = absent
    assert wrong == {}
