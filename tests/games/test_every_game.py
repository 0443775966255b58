"""The tests every game with a rules engine runs, each game contributing its fixtures.

A game in the list (vlog.games.GAMES) with an engine contributes `tests/games/<package>/cases.py`:

* `RULES`: its folder of fixture logs, fixtures/<game>/rules/, one play script (`.vscript`) and
  log (`.vlog`) each, planting one check's mistake (`<check-id>.vscript`, or
  `<check-id>-<variant>.vscript` for another situation of the same check) or none (`clean-*`);
* `EXPECTED`: log name -> the findings it plants [(check id, step, key evidence)], and
  `KNOWN_GAPS`: logs whose exact-findings test is a strict xfail, with the reason;
* `playthrough(name) -> str`: the replay of one log as text, compared here with its golden file
  tests/playthroughs/<game>/<name>.txt (refresh with VLOG_UPDATE_GOLDEN=1 and review the diff);
* `UNIT_CASES`: check id -> "test_file.py::test_function" (beside cases.py) for checks
  whose failing case is a unit test, and `NO_FINDING`: implemented checks that report nothing of
  their own, with the reason.

Every implemented check of the game's inventory must then have a failing case: a fixture log
planting it, a unit test naming it, or (its note says "findings under X") a case of one of the
checks that report its findings. A game with rules and no playthroughs fails here.
"""
from __future__ import annotations

import ast
import importlib
import os
import re
from pathlib import Path
from types import ModuleType

import pytest

from vlog.games import GAMES, GameEntry
from vlog.kit.inventory import load_inventory

ROOT = Path(__file__).resolve().parents[2]
PLAYTHROUGHS = ROOT / "tests" / "playthroughs"
UPDATE = bool(os.environ.get("VLOG_UPDATE_GOLDEN"))
ENGINES = [g for g in GAMES if g.engine is not None]
_VARIANT = re.compile(r"([A-Z]+-\d{2})-[a-z0-9][a-z0-9-]*")
_UNDER = re.compile(r"findings under ((?:[A-Z]+-\d{2})(?:(?:/|,\s*|\s+and\s+)[A-Z]+-\d{2})*)")


def cases(entry: GameEntry) -> ModuleType:
    return importlib.import_module(f"tests.games.{entry.package}.cases")


def contribution_problems(entry: GameEntry, module: ModuleType | None = None) -> list[str]:
    """What a game with rules lacks of its contribution (empty when complete); `module` is its
    cases module when it is not tests/games/<package>/cases.py."""
    if module is None:
        try:
            module = cases(entry)
        except ModuleNotFoundError:
            return [f"no tests/games/{entry.package}/cases.py"]
    problems = [f"cases.py lacks {name}" for name in
                ("RULES", "EXPECTED", "KNOWN_GAPS", "UNIT_CASES", "NO_FINDING", "playthrough")
                if not hasattr(module, name)]
    if problems:
        return problems
    scripts = sorted(p.name[: -len(".vscript")] for p in Path(module.RULES).glob("*.vscript"))
    if not scripts:
        problems.append(f"no fixture logs in {module.RULES}")
    if scripts != sorted(module.EXPECTED):
        problems.append(f"EXPECTED does not list exactly the play scripts of {module.RULES}")
    golden = sorted(p.stem for p in (PLAYTHROUGHS / entry.id).glob("*.txt"))
    if golden != sorted(module.EXPECTED):
        problems.append(f"tests/playthroughs/{entry.id}/ does not hold one golden playthrough per fixture log")
    return problems


@pytest.mark.parametrize("entry", ENGINES, ids=lambda e: e.id)
def test_a_game_with_rules_contributes_logs_and_playthroughs(entry):
    assert contribution_problems(entry) == []


def test_a_game_with_rules_and_no_playthroughs_fails():
    assert contribution_problems(GameEntry("nothing-yet", "nothing_yet", "rules:Nothing")) == [
        "no tests/games/nothing_yet/cases.py"]


def _logs() -> list:
    return [pytest.param(entry, name, id=f"{entry.id}/{name}") for entry in ENGINES
            for name in sorted(cases(entry).EXPECTED)]


def assert_golden(entry: GameEntry, name: str, text: str) -> None:
    """The playthrough of log `name` is its golden file (written first with VLOG_UPDATE_GOLDEN=1)."""
    path = PLAYTHROUGHS / entry.id / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no golden playthrough {path}; refresh with VLOG_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), \
        f"{entry.id}/{name}: playthrough differs from {path}; refresh with VLOG_UPDATE_GOLDEN=1 if intended"


@pytest.mark.parametrize("entry, name", _logs())
def test_golden_playthrough(entry, name):
    assert_golden(entry, name, cases(entry).playthrough(name))


# -- every implemented check has a failing case --------------------------------------------------

def implemented(entry: GameEntry) -> dict[str, str]:
    """Implemented check id -> its inventory note."""
    return load_inventory(entry.id).implemented()


def folded_under(note: str) -> list[str]:
    """The checks a note says report this one's findings."""
    out: list[str] = []
    for match in _UNDER.finditer(note):
        out += re.findall(r"[A-Z]+-\d{2}", match.group(1))
    return out


def fixture_case(module: ModuleType, check: str) -> bool:
    """A `<check>.vscript` whose expected findings include that check (a KNOWN_GAPS log does not count)."""
    return (Path(module.RULES) / f"{check}.vscript").is_file() and check not in module.KNOWN_GAPS \
        and any(c == check for c, _, _ in module.EXPECTED.get(check, []))


def unit_case(entry: GameEntry, module: ModuleType, check: str) -> bool:
    """The unit test UNIT_CASES names (in the cases module's folder) exists and names the check."""
    where = module.UNIT_CASES.get(check)
    if where is None:
        return False
    file_name, function = where.split("::")
    path = Path(module.__file__).parent / file_name
    if not path.is_file():
        return False
    source = path.read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return check in (ast.get_source_segment(source, node) or "")
    return False


def has_direct_case(entry: GameEntry, module: ModuleType, check: str) -> bool:
    return fixture_case(module, check) or unit_case(entry, module, check)


def has_case(entry: GameEntry, module: ModuleType, check: str, notes: dict[str, str]) -> bool:
    if has_direct_case(entry, module, check) or check in module.NO_FINDING:
        return True
    return any(has_direct_case(entry, module, other) for other in folded_under(notes.get(check, "")))


@pytest.mark.parametrize("entry", ENGINES, ids=lambda e: e.id)
def test_every_implemented_check_has_a_case(entry):
    module, notes = cases(entry), implemented(entry)
    missing = [c for c in notes if not has_case(entry, module, c, notes)]
    assert missing == [], f"implemented checks with no failing case: {missing}"


def _unit_cases() -> list:
    return [pytest.param(entry, check, id=f"{entry.id}/{check}") for entry in ENGINES
            for check in sorted(cases(entry).UNIT_CASES)]


@pytest.mark.parametrize("entry, check", _unit_cases())
def test_unit_cases_exist_and_name_their_check(entry, check):
    module = cases(entry)
    assert check in implemented(entry), f"{check} is not an implemented check"
    assert unit_case(entry, module, check), f"{module.UNIT_CASES[check]} does not exist or does not name {check}"


@pytest.mark.parametrize("entry", ENGINES, ids=lambda e: e.id)
def test_unit_cases_are_for_checks_without_a_fixture_case(entry):
    """Once a fixture log plants a check exactly, its UNIT_CASES entry goes (one registry each)."""
    module = cases(entry)
    assert [c for c in module.UNIT_CASES if fixture_case(module, c)] == []


@pytest.mark.parametrize("entry", ENGINES, ids=lambda e: e.id)
def test_no_finding_entries_are_implemented_checks_without_findings(entry):
    module, notes = cases(entry), implemented(entry)
    for check in module.NO_FINDING:
        assert check in notes, check
        assert "no finding of its own" in notes[check], check
        assert not has_direct_case(entry, module, check), f"{check} now has a case: drop it from NO_FINDING"


@pytest.mark.parametrize("entry", ENGINES, ids=lambda e: e.id)
def test_fixture_scripts_name_implemented_checks(entry):
    module, notes = cases(entry), implemented(entry)
    for script in Path(module.RULES).glob("*.vscript"):
        name = script.name[: -len(".vscript")]
        if name.startswith("clean-"):
            assert module.EXPECTED.get(name) == [], f"{script.name}: a clean log plants no finding, POSSIBLE included"
        else:
            variant = _VARIANT.fullmatch(name)
            check = variant.group(1) if variant else name
            assert check in notes, f"{script.name} names no implemented check"
            assert name in module.KNOWN_GAPS or any(c == check for c, _, _ in module.EXPECTED.get(name, [])), \
                f"{script.name}: EXPECTED does not list its {check} finding"


def test_the_case_rules_can_fail():
    """The folding rule reads the inventory's notes: a made-up check with no case is reported."""
    entry = ENGINES[0]
    assert folded_under("path cost (findings under MV-03/MV-23)") == ["MV-03", "MV-23"]
    assert not has_case(entry, cases(entry), "XX-99", {"XX-99": "made up"})
