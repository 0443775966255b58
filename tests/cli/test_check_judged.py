"""`vlog check` says what was judged, in every format.

Two logs carry it: fixtures/lion-of-judah/combat-shipped-data.vlog, written on the module built
from the shipped (rulebook) data, whose one combat the data cannot settle (the counters' combat
factors are printed on the counters only), and the real VASL logs in ../shared/samples judged with
`--game lion-of-judah`, whose pieces no module places on hexes. Reports are validated against
the SARIF 2.1.0 schema (schemas/sarif-2.1.0.json, OASIS's) with GitHub code scanning's ingestion
rules, and against junit-10.xsd (tests/report/junit_xsd.py).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from jsonschema import Draft4Validator, Draft202012Validator
from lxml import etree

from tests.conftest import FIXTURES, sample_params
from tests.report.junit_xsd import JUNIT_10_XSD
from vlog.cli import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, main
from vlog.cli.check import NOT_BOUND_NOTICE

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
SARIF = Draft4Validator(json.loads((SCHEMAS / "sarif-2.1.0.json").read_text()))
REPORT = Draft202012Validator(json.loads((SCHEMAS / "report.schema.json").read_text()))
JUNIT = etree.XMLSchema(etree.fromstring(JUNIT_10_XSD.encode("utf-8")))

COMBAT_LOG = FIXTURES / "lion-of-judah" / "combat-shipped-data.vlog"
MODULE = FIXTURES / "lion-of-judah" / "lion-of-judah.vmod"
CRT = "lion-of-judah/CB-19"
ATTACK_STEP = 6               # the step that declares the attack (the log's chat "attack 1107 with 21A")
FACTORS = ["counters.json et-levy-tigray level hidden combat", "counters.json it-21a level 4 attack"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def combat_reports(tmp_path_factory) -> dict[str, str]:
    """The combat log judged once in each format (shared by the tests of this module)."""
    folder = tmp_path_factory.mktemp("reports")
    out: dict[str, str] = {}
    for fmt in ("text", "json", "junit", "sarif", "github"):
        target = folder / f"report.{fmt}"
        code = main(["check", str(COMBAT_LOG), "--game", "lion-of-judah", "--module", str(MODULE),
                     "--format", fmt, "-o", str(target), *(["--verbose"] if fmt == "text" else [])])
        assert code == EXIT_OK                  # POSSIBLE warnings only; --fail-on error
        out[fmt] = target.read_text(encoding="utf-8")
    return out


def test_text_names_the_combat_not_settled_its_step_and_data(combat_reports):
    text = combat_reports["text"]
    flat = " ".join(text.split())            # lines wrap at the report's width
    assert f"step {ATTACK_STEP}: {CRT} needs {FACTORS[0]}, {FACTORS[1]}" in flat
    assert re.search(r"Checks: \d+ judged, .*? \d+ not judged \(\d+ for missing data: .*?\), "
                     r"\d+ had nothing to judge\.", flat)
    assert re.search(r"checks run; binding: pieces \d+ of \d+ bound", flat)          # the summary line
    # --verbose: one line per check; the data the shipped data lacks named for the checks it disables
    rows = {line.split()[0]: " ".join(line.split()) for line in text.splitlines()
            if line.startswith("lion-of-judah/")}
    assert rows[CRT].split()[1:3] == ["not", "judged"]
    assert f"1 occasion not settled (step {ATTACK_STEP})" in rows[CRT]
    assert rows["lion-of-judah/AR-01"].endswith("not judged: missing data: map.json")     # the cell wraps on
    assert rows["lion-of-judah/CB-01"].split()[1] == "judged"


def test_json_status_per_check(combat_reports):
    data = json.loads(combat_reports["json"])
    REPORT.validate(data)
    checks = {c["id"]: c for c in data["checks"]}
    crt = checks[CRT]
    assert crt["status"] == "not-judged" and crt["judged"] == 0
    assert crt["unsettled"] == [{"log": str(COMBAT_LOG), "step": ATTACK_STEP, "data": FACTORS, "by": None}]
    assert "counters.json $.counters[id=it-21a].levels[\"4\"].attack" in crt["needs"]   # as `vlog data status` names it
    assert checks["lion-of-judah/AR-01"]["status"] == "not-judged"          # disabled by the shipped data
    assert checks["lion-of-judah/CB-01"] == {**checks["lion-of-judah/CB-01"], "status": "judged", "judged": 1}
    assert crt["cause"] == "missing data" and checks["lion-of-judah/AR-01"]["cause"] == "missing data"
    other = checks["lion-of-judah/VC-07"]                                   # a 1940-41 rule in a 1935-36 log
    assert (other["status"], other["cause"]) == ("not-judged", "other scenario")
    assert checks["lion-of-judah/CB-01"]["cause"] is None
    binding = data["summary"]["binding"]                                    # vlog/coverage.py's measure
    assert binding["bound"] is True and binding["pieces"]["bound"] == binding["pieces"]["on_table"] > 0
    assert sum(data["summary"]["checks"].values()) == len(data["checks"])
    (log,) = data["logs"]
    assert [c["id"] for c in log["checks"]] == [c["id"] for c in data["checks"]]
    assert log["binding"] == binding


def test_junit_skips_what_was_not_judged(combat_reports):
    root = etree.fromstring(combat_reports["junit"].encode("utf-8"))
    JUNIT.assertValid(root)
    (suite,) = root.findall("testsuite")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", suite.get("timestamp"))
    assert float(suite.get("time")) > 0
    cases = {case.get("name").split()[0]: case for case in suite.findall("testcase")}
    assert all(case.get("time") == "0" for case in cases.values())
    skipped = cases[CRT].find("skipped")
    assert skipped is not None and skipped.get("type") == "not-judged"
    assert f"1 occasion not settled (step {ATTACK_STEP}): missing data: {FACTORS[0]}" in skipped.get("message")
    assert cases["lion-of-judah/AR-01"].find("skipped").get("message").startswith("not judged: missing data: map.json")
    assert cases["lion-of-judah/CB-01"].find("skipped") is None
    assert int(suite.get("skipped")) == sum(1 for c in cases.values() if c.find("skipped") is not None) > 0


def test_sarif_valid_for_github_with_notifications(combat_reports):
    data = json.loads(combat_reports["sarif"])
    SARIF.validate(data)
    (run_,) = data["runs"]
    # GitHub code scanning: rules with descriptions and help, results with a region and a relative URI
    for rule in run_["tool"]["driver"]["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"] and rule["help"]["text"]
        assert rule["properties"]["tags"] and rule["properties"]["precision"]
    assert run_["automationDetails"]["id"] == "vlog/lion-of-judah/"
    for result in run_["results"]:
        physical = result["locations"][0]["physicalLocation"]
        assert physical["region"]["startLine"] >= 1
        assert not physical["artifactLocation"]["uri"].startswith(("file:", "/"))
    crt_results = [r for r in run_["results"] if r["ruleId"] == CRT]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in crt_results] == [ATTACK_STEP]
    (invocation,) = run_["invocations"]
    assert invocation["executionSuccessful"] is True
    notes = {n["associatedRule"]["id"]: n for n in invocation["toolExecutionNotifications"]}
    crt = notes[CRT]
    assert crt["level"] == "warning" and crt["descriptor"]["id"] == "vlog/not-judged"
    assert crt["locations"][0]["physicalLocation"]["region"] == {"startLine": ATTACK_STEP}
    assert crt["properties"]["unsettled"] == [{"step": ATTACK_STEP, "data": FACTORS, "by": None}]
    assert "lion-of-judah/AR-01" in notes and "lion-of-judah/CB-01" not in notes


def test_github_says_what_was_not_judged_in_one_notice(combat_reports):
    """The findings' annotations, then one notice for the log naming each check not (wholly)
    judged and why (GitHub shows at most 10 notices a step, so not one per check)."""
    lines = combat_reports["github"].splitlines()
    assert [line.split(" ", 1)[0] for line in lines].count("::notice") == 1 + sum(
        line.startswith("::notice") and "title=vlog%3A not every" not in line for line in lines)
    notice = lines[-1]
    assert notice.startswith(f"::notice file={COMBAT_LOG},title=vlog%3A not every check judged::Checks: ")
    rows = notice.split("::", 2)[2].split("%0A")
    assert re.fullmatch(r"Checks: \d+ judged, .*\d+ not judged \(\d+ for missing data: .*\), \d+ had nothing to judge\.", rows[0])
    assert f"{CRT}: not judged: 1 occasion not settled (step {ATTACK_STEP}): missing data: {FACTORS[0]}, {FACTORS[1]}" in rows
    assert any(row.startswith("lion-of-judah/AR-01: not judged: missing data: map.json") for row in rows)
    assert not any(row.startswith("lion-of-judah/CB-01:") for row in rows)          # judged: not named
    warned = [line for line in lines if line.startswith("::warning")]
    assert any(f"title={CRT} (rule " in line and f"step {ATTACK_STEP}" in line for line in warned)


def test_artifact_uri_relative_to_the_working_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(COMBAT_LOG.parent.parent)
    absolute = str(COMBAT_LOG.resolve())
    code, out, _ = run(capsys, absolute, "--game", "lion-of-judah", "--module", str(MODULE), "--format", "sarif")
    run_ = json.loads(out)["runs"][0]
    assert run_["artifacts"][0]["location"] == {"uri": "lion-of-judah/combat-shipped-data.vlog",
                                                "uriBaseId": "%SRCROOT%"}
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == COMBAT_LOG.parent.parent.resolve().as_uri() + "/"


def _without_times(xml: str) -> str:
    return re.sub(r' (time|timestamp)="[^"]*"', "", xml)


def test_fail_on_sets_the_exit_status_only(tmp_path, capsys):
    log = FIXTURES / "lion-of-judah" / "rules" / "CB-19.vlog"       # plants a PROVEN CB-19
    data = FIXTURES / "lion-of-judah" / "synthetic-data"
    outputs = {}
    for fail_on, expected in (("never", EXIT_OK), ("error", EXIT_FINDINGS)):
        code, out, _ = run(capsys, str(log), "--game", "lion-of-judah", "--data", str(data),
                           "--format", "junit", "--fail-on", fail_on)
        assert code == expected
        outputs[fail_on] = _without_times(out)
    assert outputs["never"] == outputs["error"]
    assert '<failure message="step 6' in outputs["never"]


def test_output_file_is_not_replaced_without_force(tmp_path, capsys):
    target = tmp_path / "report.json"
    target.write_text("keep me")
    code, _, err = run(capsys, str(COMBAT_LOG), "--format", "json", "-o", str(target))
    assert code == EXIT_INPUT and "already exists; use --force to replace it" in err
    assert target.read_text() == "keep me"
    assert run(capsys, str(COMBAT_LOG), "--format", "json", "-o", str(target), "--force")[0] == EXIT_OK
    assert json.loads(target.read_text())["format"] == "vlog-report"


@pytest.mark.parametrize("log", sample_params("vasl-templates/full.vlog"))
def test_vasl_log_judged_as_lion_of_judah_says_what_could_not_run(log, tmp_path, capsys):
    """None of the VASL log's pieces is a Lion of Judah unit: exit 3 (vlog/coverage.py), and every
    format says the game's checks were not judged, the module not being bound."""
    junit_file, sarif_file = tmp_path / "r.xml", tmp_path / "r.sarif"
    for fmt, target in (("junit", junit_file), ("sarif", sarif_file)):
        assert run(capsys, str(log), "--game", "lion-of-judah", "--format", fmt, "-o", str(target))[0] == EXIT_INPUT
    code, out, err = run(capsys, str(log), "--game", "lion-of-judah")
    assert code == EXIT_INPUT
    assert err.splitlines()[-1] == NOT_BOUND_NOTICE.format(game="lion-of-judah")
    flat = " ".join(out.split())
    assert re.search(r"Checks: \d+ judged, (\d+) not judged \(\1 as the module is not \(wholly\) bound to the game: "
                     r"lion-of-judah/TS-01, ", flat)
    assert re.search(r"checks run; binding: pieces 0 of \d+ bound\.$", flat)

    root = etree.fromstring(junit_file.read_bytes())
    JUNIT.assertValid(root)
    (suite,) = root.findall("testsuite")
    cases = {case.get("name").split()[0]: case for case in suite.findall("testcase")}
    move = cases["lion-of-judah/MV-03"].find("skipped")
    assert move is not None and move.get("message") == "not judged: not bound: vlog/binding (vlog bind)"
    assert int(suite.get("skipped")) == sum(1 for c in cases if c.startswith("lion-of-judah/")) > 200

    data = json.loads(sarif_file.read_text())
    SARIF.validate(data)
    notes = data["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert any(n["associatedRule"]["id"] == "lion-of-judah/MV-03" and n["level"] == "warning"
               and n["properties"]["cause"] == "not bound" for n in notes)


def test_a_log_on_another_module_says_its_checks_rest_on_the_binding(capsys):
    """CB-19 given the sibling module (vlog/coverage.py lowers its PROVEN findings): the checks
    that found something are not judged outright but occasions not settled, naming the mismatch."""
    log = FIXTURES / "lion-of-judah" / "rules" / "CB-19.vlog"
    code, out, _ = run(capsys, str(log), "--game", "lion-of-judah", "--module", str(MODULE), "--format", "json")
    assert code == EXIT_FINDINGS
    data = json.loads(out)
    REPORT.validate(data)
    crt = {c["id"]: c for c in data["checks"]}[CRT]
    assert (crt["status"], crt["cause"], crt["judged"]) == ("not-judged", "not bound", 0)
    assert [u["data"] for u in crt["unsettled"]] == [[
        "the binding: the log was written with module 'Lion of Judah: The War for Ethiopia, 1935-1941 "
        "(vlog + synthetic-data)', not 'Lion of Judah: The War for Ethiopia, 1935-1941 (vlog)'"]]
    assert not [c for c in data["checks"] if c["id"].startswith("lion-of-judah/") and c["status"] == "judged"]
    assert data["summary"]["binding"]["module_mismatch"].startswith("the log was written with module ")


def test_a_combat_still_open_at_the_end_of_the_log_is_an_occasion(tmp_path, capsys):
    """The legal opening cut just after its first attack is resolved: nothing closes that combat
    but the end of the log, and the checks of a combat count it judged at its step all the same."""
    from converters.log_writer import write_log
    from converters.script import parse_text

    source = FIXTURES / "lion-of-judah" / "rules" / "clean-1935-36.vscript"
    lines = source.read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if "closes the combat" in line)
    script = parse_text("\n".join(lines[:cut]) + "\n", path=str(tmp_path / "open.vscript"), folder=source.parent)
    log = tmp_path / "open-combat-at-end.vlog"
    write_log(script, log)
    code, out, _ = run(capsys, str(log), "--game", "lion-of-judah", "--format", "json",
                       "--module", str(FIXTURES / "lion-of-judah" / "synthetic" / "lion-of-judah.vmod"),
                       "--data", str(FIXTURES / "lion-of-judah" / "synthetic-data"))
    data = json.loads(out)
    assert code == EXIT_OK and data["logs"][0]["findings"] == []     # legal play: the attack was resolved rightly
    crt = {c["id"]: c for c in data["checks"]}[CRT]
    assert (crt["status"], crt["judged"]) == ("judged", 1)
