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
    """A helper's registration claims no item its module names nowhere but in registrations (a
    copied decorator would). The functions the engine calls register the items whose occasions
    they are called on; the helpers they call report the findings."""
    wrong = {}
    for r in REGISTRY.registered():
        if not r.helper:
            continue
        source = (PACKAGE / r.function.__module__.removeprefix("vlog.games.lion_of_judah.")
                  .replace(".", "/")).with_suffix(".py").read_text(encoding="utf-8")
        source = re.sub(r"@REGISTRY\.(?:check|reports)\([^)]*\)", "", source)
        absent = [i for i in r.ids if f'"{i}"' not in source]
        if absent:
            wrong[r.name] = absent
    assert wrong == {}


def test_the_engine_calls_one_function_for_each_kind_of_event_and_the_start():
    """Each kind of Lion of Judah event the inventory names as an occasion has one function the
    engine calls for it (checks/moves.py for "move" ...), but a phase change, which the ledgers
    judge (segments.py ...); and the starting position has one."""
    from vlog.kit.engine import BEGIN
    from vlog.kit.steps import event_kind

    called = [r for r in REGISTRY.registered() if not r.helper]
    calls: dict[str, int] = {}
    for r in called:
        for kind in {k for i in r.ids for k in INVENTORY.item(i).occasions}:
            if r.on is None and (r.event is None or event_kind(r.event) == kind):
                calls[kind] = calls.get(kind, 0) + 1
    kinds = {k for item in INVENTORY.items if item.status == "implemented" for k in item.occasions}
    assert calls == {k: 1 for k in kinds - {"phase"}}
    assert [r.name.rsplit(".", 1)[1] for r in called if r.on == BEGIN] == ["judge_start"]
