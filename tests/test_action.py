"""The GitHub Action (action.yml, a composite action) run as GitHub runs it, step by step as shell
scripts, on fixtures: `${{ ... }}` expressions filled from the inputs, the action's folder and the
earlier steps' outputs; GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP set as a runner sets
them. Steps that `uses:` another action (setup-python, upload-sarif) are GitHub's and only
checked for what they are given; the install step installs from the action's folder, which
is what this test's interpreter already runs (it is checked, not run)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")


def _value(expr: str, inputs: dict, outputs: dict) -> str:
    if expr.startswith("inputs."):
        name = expr[len("inputs."):]
        return inputs.get(name, ACTION["inputs"][name].get("default", ""))
    if expr == "github.action_path":
        return str(ROOT)
    match = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
    if match:
        return outputs.get(match.group(1), {}).get(match.group(2), "")
    raise AssertionError(f"the test does not know the expression {expr!r}")


def _fill(text: str, inputs: dict, outputs: dict) -> str:
    return EXPRESSION.sub(lambda m: _value(m.group(1), inputs, outputs), text)


def _condition(text: str, inputs: dict, outputs: dict) -> bool:
    expr = EXPRESSION.fullmatch(text.strip()).group(1)
    left, right = expr.split("&&")
    wanted = re.fullmatch(r"inputs\.upload-sarif == 'true'", left.strip())
    assert wanted and re.fullmatch(r"steps\.judge\.outputs\.sarif != ''", right.strip())
    return inputs.get("upload-sarif") == "true" and bool(outputs.get("judge", {}).get("sarif"))


def run_action(inputs: dict, tmp_path: Path) -> tuple[int, dict, str, str, list]:
    """Runs every step; returns (the last run step's exit status, the steps' outputs, stdout,
    the job summary, the `uses:` steps that would have run with what they were given)."""
    assert ACTION["runs"]["using"] == "composite"
    outputs: dict[str, dict[str, str]] = {}
    summary = tmp_path / "summary.md"
    summary.write_text("")
    used, stdout, status = [], "", 0
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "GITHUB_STEP_SUMMARY": str(summary), "RUNNER_TEMP": str(tmp_path / "runner"), "CI": "true"}
    (tmp_path / "runner").mkdir()
    for step in ACTION["runs"]["steps"]:
        if "if" in step and not _condition(step["if"], inputs, outputs):
            continue
        if "uses" in step:
            used.append((step["uses"], {k: _fill(str(v), inputs, outputs) for k, v in step.get("with", {}).items()}))
            continue
        assert step["shell"] == "bash"
        step_env = {k: _fill(str(v), inputs, outputs) for k, v in step.get("env", {}).items()}
        if step.get("id") == "install":
            assert step["run"] == 'python -m pip install --quiet "$VLOG_SOURCE"' and step_env["VLOG_SOURCE"] == str(ROOT)
            continue
        assert "${{" not in step["run"], "run scripts read their values from env, never from expressions"
        output_file = tmp_path / f"output-{step.get('id', 'step')}"
        output_file.write_text("")
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", step["run"]], cwd=tmp_path, capture_output=True,
                              text=True, env={**env, **step_env, "GITHUB_OUTPUT": str(output_file)}, timeout=600)
        stdout += done.stdout
        status = done.returncode
        if step.get("id"):
            outputs[step["id"]] = dict(line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line)
    return status, outputs, stdout, summary.read_text(), used


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("logs")
    (root / "planted").mkdir()
    os.symlink(ROOT / "fixtures/lion-of-judah/rules/CB-19.vlog", root / "planted" / "CB-19.vlog")
    os.symlink(ROOT / "fixtures/lion-of-judah/synthetic/lion-of-judah.vmod", root / "planted" / "loj.vmod")
    (root / "clean").mkdir()
    os.symlink(ROOT / "fixtures/ascari/demo.vlog", root / "clean" / "demo.vlog")
    os.symlink(ROOT / "fixtures/ascari/ascari.vmod", root / "clean" / "ascari.vmod")
    return root


def test_the_action_judges_annotates_summarises_and_fails_on_findings(logs, tmp_path):
    status, outputs, stdout, summary, used = run_action(
        {"path": f"{logs / 'planted'}\n{logs / 'clean'}\n", "upload-sarif": "true", "jobs": "1"}, tmp_path)
    judge = outputs["judge"]
    assert judge["exit-code"] == "1" and status == 1          # the CB-19 finding fails the job
    report = json.loads(Path(judge["report"]).read_text())
    assert [g["game"] for g in report["games"]] == ["ascari", "lion-of-judah"]
    assert "::error file=" in stdout and "title=lion-of-judah/CB-19" in stdout
    assert summary.startswith("# vlog batch") and "CB\\-19" not in summary and "`lion-of-judah/CB-19`" in summary
    sarif = json.loads(Path(judge["sarif"]).read_text())
    assert sarif["version"] == "2.1.0" and any(r["ruleId"] == "lion-of-judah/CB-19" for r in sarif["runs"][0]["results"])
    assert Path(judge["junit"]).read_text().startswith("<?xml")
    assert [u for u, _ in used] == ["actions/setup-python@v5", "github/codeql-action/upload-sarif@v3"]
    assert used[1][1] == {"sarif_file": judge["sarif"], "category": "vlog"}


def test_fail_on_never_passes_and_no_sarif_upload_unless_asked(logs, tmp_path):
    status, outputs, _, summary, used = run_action(
        {"path": str(logs / "planted"), "fail-on": "never", "jobs": "1"}, tmp_path)
    assert status == 0 and outputs["judge"]["exit-code"] == "0"
    assert [u for u, _ in used] == ["actions/setup-python@v5"]
    assert "| game | rules |" in summary
