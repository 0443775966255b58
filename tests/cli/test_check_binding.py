"""`vlog check --game`: a module other than the log's, or one not bound to the game, is said so
in every format, with exact exit codes; never a silent pass nor PROVEN findings on the mismatch."""
from __future__ import annotations

import json

import pytest

from tests.conftest import FIXTURES, sample_params
from vlog.cli import EXIT_FINDINGS, EXIT_INPUT, main

CB19 = FIXTURES / "lion-of-judah" / "rules" / "CB-19.vlog"
OTHER_MODULE = FIXTURES / "lion-of-judah" / "lion-of-judah.vmod"
"""The shipped-data sibling of the synthetic module CB-19 was written with: other boards, other name."""
LOG_MODULE = "Lion of Judah: The War for Ethiopia, 1935-1941 (vlog + synthetic-data)"
GIVEN_MODULE = "Lion of Judah: The War for Ethiopia, 1935-1941 (vlog)"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def findings(text: str) -> list[dict]:
    return [f for log in json.loads(text)["logs"] for f in log["findings"]]


def test_wrong_module_gives_no_proven_finding_of_the_game(capsys):
    code, out, err = run(capsys, str(CB19), "--game", "lion-of-judah", "--module", str(OTHER_MODULE),
                         "--format", "json")
    assert code == EXIT_FINDINGS
    found = findings(out)
    game = [f for f in found if f["check"].startswith("lion-of-judah/")]
    assert game and all(f["basis"] == "possible" for f in game)
    mismatch = f"the log was written with module {LOG_MODULE!r}, not {GIVEN_MODULE!r}"
    lowered = [f for f in game if "binding" in f["evidence"]]
    assert len(lowered) == 21 and len(game) == 22      # 21 were PROVEN before; MV-16 was POSSIBLE on map data
    assert all(f["evidence"]["binding"][0] == mismatch for f in lowered)
    assert all(f["message"].endswith(f"(possible: rests on the binding: {mismatch})") for f in lowered)
    assert {f["severity"] for f in lowered} == {"warning"}            # POSSIBLE warns, as everywhere
    [module] = [f for f in found if f["check"] == "vlog/module-mismatch"]
    assert module["message"] == f"The log was written with module {LOG_MODULE!r}, not {GIVEN_MODULE!r}"
    [binding] = [f for f in found if f["check"] == "vlog/binding"]
    assert binding["severity"] == "warning"
    assert binding["message"].startswith("The module is bound to lion-of-judah only in part (pieces 76 of 76 bound;")
    assert mismatch in binding["message"] and "('offboard')" in binding["message"]


def test_own_module_judges_as_before(capsys):
    code, out, _ = run(capsys, str(CB19), "--game", "lion-of-judah", "--format", "json")
    assert code == EXIT_FINDINGS
    found = findings(out)
    assert [f["check"] for f in found] == ["lion-of-judah/CB-19"]
    assert found[0]["basis"] == "proven" and "binding" not in found[0]["evidence"]


NOT_BOUND_NOTICE = ("vlog: error: the module is not bound to lion-of-judah (or is not the log's): its rules were "
                    "not judged; see the vlog/binding finding, `vlog bind --help`, or give --judge-anyway\n")


@pytest.mark.parametrize("save", sample_params("nevsky/Scenario_Pleskau_1240.vsav"))
@pytest.mark.parametrize("output_format", ["text", "json", "junit", "sarif", "github"])
def test_another_games_save_is_not_judged_as_lion_of_judah(capsys, save, output_format):
    """A real save of another game (Nevsky) with its own module: none of its pieces is a unit of
    Lion of Judah, so the run says so in the chosen format and exits 3."""
    code, out, err = run(capsys, str(save), "--game", "lion-of-judah", "--module", str(save.parent / "buildFile.xml"),
                         "--format", output_format)
    assert code == EXIT_INPUT
    assert err.endswith(NOT_BOUND_NOTICE)
    flat = " ".join(out.split())
    assert "is not a unit of" not in flat
    assert "pieces on the table is a unit of lion-of-judah" in flat.replace("&#39;", "'")
    assert "vlog bind MODULE --game lion-of-judah -o BINDINGS/bindings.json" in flat
    if output_format == "json":
        [binding] = [f for f in findings(out) if f["check"] == "vlog/binding"]
        coverage = binding["evidence"]["coverage"]
        assert coverage["pieces"]["bound"] == 0 and coverage["pieces"]["on_table"] > 0
        assert binding["message"].startswith(f"None of the {coverage['pieces']['on_table']} pieces on the table")
        assert not [f for f in findings(out) if f["check"].startswith("lion-of-judah/")]


@pytest.mark.parametrize("save", sample_params("nevsky/Scenario_Pleskau_1240.vsav"))
def test_judge_anyway_goes_on_with_possible_findings_only(capsys, save):
    code, out, err = run(capsys, str(save), "--game", "lion-of-judah", "--module", str(save.parent / "buildFile.xml"),
                         "--format", "json", "--judge-anyway")
    assert code in (0, EXIT_FINDINGS) and NOT_BOUND_NOTICE not in err
    assert all(f["basis"] != "proven" for f in findings(out) if f["check"].startswith("lion-of-judah/"))
