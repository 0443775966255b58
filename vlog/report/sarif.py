"""The report as SARIF 2.1.0, the static-analysis format code-scanning services read.

Choices, since a log is not source code:

* One run; `tool.driver.rules` lists every check (stable rule id = check id, e.g.
  "lion-of-judah/MV-07"), with the rulebook reference in `properties.rule` and the check's
  title (or "Rule <n>") as `shortDescription`.
* One result per finding: `level` "error", "warning" or "note" from the severity; `kind` "fail".
* Where: the log file is the `artifactLocation`: a path under the working folder as a relative
  URI reference against `%SRCROOT%` (the working folder, given in `originalUriBaseIds`), with
  "." and ".." segments resolved; any other absolute path as a file: URI.
  The step is a *logical location* (`kind` "element", `name` "step 42", `fullyQualifiedName`
  "<log>#step=42", omitted for whole-log findings), and `properties.step` repeats it.
* Regions, the **step-listing convention**: a .vlog is a zip holding an obfuscated command
  stream, with no lines of its own. Its *step listing* is one line per step, numbered from 1 as
  `vlog dump` numbers steps, so `region.startLine` N is step N. Findings on the starting
  position (step 0) or on the whole log point at line 1, and their logical location (none for
  the whole log) tells them from step 1. Every result has a region: GitHub code scanning
  displays only those that have one.
* `invocations[0].toolExecutionNotifications`: one notification per (log, check) that was not
  judged or only partly judged — level "warning" for not judged, "note" for partly judged and
  for nothing to judge — with the reason, the data or input it lacks (`properties.needs`) and,
  for each occasion not settled, its step as a location. `executionSuccessful` is true: the
  run itself went through.
* `rules[]` carry `fullDescription`, `help` (what the check judges and where its rule is), and
  `defaultConfiguration`, as GitHub code scanning requires; `automationDetails.id` is
  "vlog/<game>/" (a category, so runs of different games stay apart).
* `properties` carry basis, step, when, subjects and evidence, so nothing in the vlog report is lost.
* `partialFingerprints["vlogFinding/v1"]` hashes check, log, step and message, so code-scanning
  services can match a finding across runs.
* Messages are plain text: "{" and "}" are doubled as SARIF 3.11.5 requires, and when a message
  contains "](" (which a viewer could take for an embedded link, 3.11.6) its brackets and
  backslashes are backslash-escaped. Control characters are shown as \\xNN escapes.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import posixpath
import re
from collections.abc import Callable
from pathlib import Path, PureWindowsPath
from typing import Any
from urllib.parse import quote

from vlog.findings import CheckStatus, Finding, Judgement, LogResult, Report, Severity
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


def artifact_uri(path: str, base: str | None = None) -> str:
    """A URI reference for a log path: relative stays relative (forward slashes, %-escaped, "."
    and ".." resolved); an absolute path inside `base` (a folder) becomes relative to it."""
    if base is not None and os.path.isabs(path):
        try:
            inside = os.path.relpath(path, base)
        except ValueError:                               # another drive
            inside = None
        if inside is not None and inside != ".." and not inside.startswith(".." + os.sep):
            path = inside
    drive = PureWindowsPath(path).drive
    if drive:
        posix = PureWindowsPath(path).as_posix()
        if drive.startswith("\\\\"):                      # \\server\share\... -> file://server/share/...
            return "file:" + _quote(posix, "/")
        return "file:///" + _quote(posix, "/:")         # C:\x -> file:///C:/x
    if path.startswith("/"):
        return "file://" + _quote(path, "/")
    return _quote(posixpath.normpath(path.replace("\\", "/")), "/")


def fingerprint(log_path: str, finding: Finding) -> str:
    """A stable hash of what identifies a finding across runs of the same log."""
    key = "\x1f".join((finding.check, log_path, str(finding.step), finding.message))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


SRCROOT = "%SRCROOT%"
"""The uriBaseId of relative artifact URIs: the folder vlog ran in."""


def _rule(check_id: str, rule: str, title: str | None) -> dict[str, Any]:
    description = title or (f"Rule {rule}" if rule else check_id)
    namespace = check_id.split("/", 1)[0]
    where = f"rule {rule} of the rulebook" if rule else "no rulebook rule (a check any log gets)"
    full = f"{description} ({where})."
    help_text = (f"{check_id} judges: {description}. It enforces {where}. Each result names the log step, "
                 "the pieces and hexes and the numbers behind the verdict; a POSSIBLE result names the "
                 "data that would settle it (see `vlog data status`).")
    return {
        "id": check_id,
        "name": check_id.replace("/", "_").replace("-", "_"),
        "shortDescription": {"text": message_text(description)},
        "fullDescription": {"text": message_text(full)},
        "help": {"text": message_text(help_text)},
        "defaultConfiguration": {"level": "error"},
        "properties": {"rule": rule, "tags": [namespace], "precision": "high"},
    }


def _notification(log: LogResult, status: CheckStatus, rule_index: int, uri: str, artifact: int,
                  base_id: str | None) -> dict[str, Any]:
    location: dict[str, Any] = {"uri": uri, "index": artifact}
    if base_id:
        location["uriBaseId"] = base_id
    locations = [
        {"physicalLocation": {"artifactLocation": location, "region": {"startLine": max(u.step or 1, 1)}}}
        for u in status.unsettled
    ] or [{"physicalLocation": {"artifactLocation": location}}]
    level = "warning" if status.judgement is Judgement.NOT_JUDGED else "note"
    return {
        "descriptor": {"id": f"vlog/{status.judgement.value}"},
        "associatedRule": {"id": status.check, "index": rule_index},
        "level": level,
        "message": {"text": message_text(f"{log.path}: {status.check} {status.reason()}")},
        "locations": locations,
        "properties": {
            "status": status.judgement.value,
            "cause": status.cause,
            "judged": status.judged,
            "unsettled": [u.to_dict() for u in status.unsettled],
            "needs": list(status.needs),
        },
    }


def _result(
    finding: Finding, log_path: str, uri: str, artifact_index: int, rule_index: int, base_id: str | None
) -> dict[str, Any]:
    artifact: dict[str, Any] = {"uri": uri, "index": artifact_index}
    if base_id:
        artifact["uriBaseId"] = base_id
    physical: dict[str, Any] = {"artifactLocation": artifact, "region": {"startLine": max(finding.step or 1, 1)}}
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


@functools.lru_cache(maxsize=1)
def information_uri_from_metadata() -> str | None:
    """The project's home page as its installed metadata gives it (`[project.urls]`), else None:
    `driver.informationUri` is only written when there is a real address to give."""
    from importlib import metadata

    try:
        meta = metadata.metadata("vlog")
    except metadata.PackageNotFoundError:
        return None
    for entry in meta.get_all("Project-URL") or ():
        label, _, url = entry.partition(",")
        if label.strip().lower() in ("homepage", "home", "documentation", "source") and url.strip():
            return url.strip()
    return meta.get("Home-page") or None


def render(
    report: Report,
    *,
    information_uri: str | None = None,
    base: str | None = None,
    indent: int | None = 2,
    redact: Callable[[str], str] | None = None,
) -> str:
    """The report as a SARIF 2.1.0 log (JSON text ending in a newline). Log paths inside `base`
    (default: the working folder) are written relative to it."""
    if redact is not None:
        report = report.redacted(redact)
    base = os.getcwd() if base is None else base
    information_uri = information_uri or information_uri_from_metadata()
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
    notifications: list[dict[str, Any]] = []
    for log in report.logs:
        uri = artifact_uri(log.path, base)
        base_id = None if uri.startswith("file:") else SRCROOT
        if log.path not in artifact_index:
            artifact_index[log.path] = len(artifacts)
            location: dict[str, Any] = {"uri": uri}
            if base_id:
                location["uriBaseId"] = base_id
            artifacts.append({"location": location, "roles": ["analysisTarget"], "properties": {"steps": log.steps}})
        index = artifact_index[log.path]
        for finding in log.findings:
            results.append(_result(finding, log.path, uri, index, rule_index[finding.check], base_id))
        for check in checks:
            status = log.status(check.id)
            if status.judgement is not Judgement.JUDGED:
                notifications.append(_notification(log, status, rule_index[check.id], uri, index, base_id))
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "automationDetails": {"id": f"vlog/{report.game or 'any-game'}/"},
        "originalUriBaseIds": {SRCROOT: {"uri": Path(base).resolve().as_uri().rstrip("/") + "/"}},
        "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}],
        "artifacts": artifacts,
        "results": results,
    }
    properties = {k: v for k, v in (("game", report.game), ("module", report.module)) if v is not None}
    if properties:
        run["properties"] = properties
    sarif = {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}
    return json.dumps(sarif, indent=indent, ensure_ascii=True, allow_nan=False) + "\n"
