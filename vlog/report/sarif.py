"""The report as SARIF 2.1.0, the static-analysis format code-scanning services read.

Choices, since a log is not source code:

* One run; `tool.driver.rules` lists every check (stable rule id = check id, e.g.
  "lion-of-judah/MV-07"), with the rulebook reference in `properties.rule` and the check's
  title (or "Rule <n>") as `shortDescription`.
* One result per finding: `level` "error", "warning" or "note" from the severity; `kind` "fail".
* Where: the log file is the `artifactLocation` (a relative URI reference for a relative path, a
  file: URI for an absolute one). A .vlog is a zip holding an obfuscated command stream, so it
  has no lines or columns a `region` could point to honestly; the step is therefore a *logical
  location* (`kind` "element", `name` "step 42", `fullyQualifiedName` "<log>#step=42",
  omitted for whole-log findings), and `properties.step` repeats it as a number.
  GitHub code scanning displays only results whose location has a `region.startLine`; with
  `github_region=True` each location gets `region.startLine` 1, standing for the whole file.
* `properties` carry basis, step, when, subjects and evidence, so nothing in the vlog report is lost.
* `partialFingerprints["vlogFinding/v1"]` hashes check, log, step and message, so code-scanning
  services can match a finding across runs.
* Messages are plain text: "{" and "}" are doubled as SARIF 3.11.5 requires, and when a message
  contains "](" (which a viewer could take for an embedded link, 3.11.6) its brackets and
  backslashes are backslash-escaped. Control characters are shown as \\xNN escapes.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any
from urllib.parse import quote

from vlog.findings import Finding, Report, Severity
from vlog.report._common import printable

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
FINGERPRINT_KEY = "vlogFinding/v1"


def message_text(text: str) -> str:
    """Player text made into a SARIF plain-text message that no viewer reinterprets."""
    text = printable(text).replace("{", "{{").replace("}", "}}")
    if "](" in text:
        text = re.sub(r"([\\\[\]])", r"\\\1", text)
    return text


def _quote(text: str, safe: str) -> str:
    """%-escape UTF-8; a name holding undecodable bytes (surrogate escapes) gets those bytes back."""
    try:
        return quote(text, safe=safe, errors="surrogateescape")
    except UnicodeEncodeError:
        return quote(text, safe=safe, errors="surrogatepass")


def artifact_uri(path: str) -> str:
    """A URI reference for a log path: relative stays relative (forward slashes, %-escaped)."""
    drive = PureWindowsPath(path).drive
    if drive:
        posix = PureWindowsPath(path).as_posix()
        if drive.startswith("\\\\"):                      # \\server\share\... -> file://server/share/...
            return "file:" + _quote(posix, "/")
        return "file:///" + _quote(posix, "/:")         # C:\x -> file:///C:/x
    if path.startswith("/"):
        return "file://" + _quote(path, "/")
    return _quote(PurePosixPath(path.replace("\\", "/")).as_posix(), "/")


def fingerprint(log_path: str, finding: Finding) -> str:
    """A stable hash of what identifies a finding across runs of the same log."""
    key = "\x1f".join((finding.check, log_path, str(finding.step), finding.message))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _rule(check_id: str, rule: str, title: str | None) -> dict[str, Any]:
    description = title or (f"Rule {rule}" if rule else check_id)
    return {
        "id": check_id,
        "shortDescription": {"text": message_text(description)},
        "properties": {"rule": rule, "tags": [check_id.split("/", 1)[0]]},
    }


def _result(
    finding: Finding, log_path: str, artifact_index: int, rule_index: int, github_region: bool
) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(log_path), "index": artifact_index}}
    if github_region:
        physical["region"] = {"startLine": 1}
    location: dict[str, Any] = {"physicalLocation": physical}
    if finding.step is not None:
        location["logicalLocations"] = [
            {
                "name": f"step {finding.step}",
                "fullyQualifiedName": f"{log_path}#step={finding.step}",
                "kind": "element",
            }
        ]
    data = finding.to_dict()
    return {
        "ruleId": finding.check,
        "ruleIndex": rule_index,
        "kind": "fail",
        "level": LEVELS[finding.severity],
        "message": {"text": message_text(finding.message)},
        "locations": [location],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint(log_path, finding)},
        "properties": {
            "severity": data["severity"],
            "basis": data["basis"],
            "step": data["step"],
            "when": data["when"],
            "subjects": data["subjects"],
            "evidence": data["evidence"],
        },
    }


def render(
    report: Report,
    *,
    information_uri: str | None = None,
    github_region: bool = False,
    indent: int | None = 2,
    redact: Callable[[str], str] | None = None,
) -> str:
    """The report as a SARIF 2.1.0 log (JSON text ending in a newline)."""
    if redact is not None:
        report = report.redacted(redact)
    checks = report.all_checks()
    rule_index = {check.id: i for i, check in enumerate(checks)}
    driver: dict[str, Any] = {
        "name": "vlog",
        "version": report.tool_version,
        "rules": [_rule(c.id, c.rule, c.title) for c in checks],
    }
    if information_uri:
        driver["informationUri"] = information_uri
    artifacts: list[dict[str, Any]] = []
    artifact_index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    for log in report.logs:
        if log.path not in artifact_index:
            artifact_index[log.path] = len(artifacts)
            artifacts.append(
                {"location": {"uri": artifact_uri(log.path)}, "properties": {"steps": log.steps}}
            )
        for finding in log.findings:
            results.append(
                _result(finding, log.path, artifact_index[log.path], rule_index[finding.check], github_region)
            )
    run: dict[str, Any] = {"tool": {"driver": driver}, "artifacts": artifacts, "results": results}
    properties = {k: v for k, v in (("game", report.game), ("module", report.module)) if v is not None}
    if properties:
        run["properties"] = properties
    sarif = {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}
    return json.dumps(sarif, indent=indent, ensure_ascii=True, allow_nan=False) + "\n"
