"""The SARIF report: valid against the official SARIF 2.1.0 schema, with rules, levels and locations.

schemas/sarif-2.1.0.json is OASIS's schema, errata01 (oasis-tcs/sarif-spec,
sarif-2.1/schema/sarif-schema-2.1.0.json), kept unchanged as a test resource.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft4Validator

from vlog.findings import Basis, Finding, LogResult, Report, Severity
from vlog.report import sarif

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "sarif-2.1.0.json").read_text())
VALIDATOR = Draft4Validator(SCHEMA)


def render(report, **opts) -> dict:
    return json.loads(sarif.render(report, **opts))


def test_official_schema_is_the_real_one():
    assert SCHEMA["id"] == sarif.SARIF_SCHEMA_URI
    assert SCHEMA["$schema"] == "http://json-schema.org/draft-04/schema#"
    assert len(SCHEMA["definitions"]) == 52
    Draft4Validator.check_schema(SCHEMA)


def test_validates_against_sarif_schema(report):
    data = render(report, information_uri="https://example.org/vlog")
    VALIDATOR.validate(data)
    assert data["version"] == "2.1.0"
    (run,) = data["runs"]
    assert run["tool"]["driver"]["informationUri"] == "https://example.org/vlog"
    assert run["properties"] == {"game": "lion-of-judah", "module": "Lion of Judah 2.1"}


def test_rules_are_the_checks(report):
    driver = render(report)["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("vlog", "0.1.0")
    assert [(r["id"], r["shortDescription"]["text"], r["properties"]["rule"]) for r in driver["rules"]] == [
        ("lion-of-judah/MV-07", "Movement allowance", "11.5.3"),
        ("lion-of-judah/CB-02", "Rule 9.4", "9.4"),
        ("vlog/undo-after-roll", "Undo after a die roll", ""),
        ("vlog/unreadable-entry", "vlog/unreadable-entry", ""),
    ]


def test_results_levels_and_locations(report):
    run = render(report)["runs"][0]
    results = run["results"]
    assert [(r["ruleId"], r["ruleIndex"], r["level"]) for r in results] == [
        ("lion-of-judah/MV-07", 0, "error"),
        ("lion-of-judah/MV-07", 0, "warning"),
        ("vlog/undo-after-roll", 2, "warning"),
        ("vlog/unreadable-entry", 3, "note"),
        ("lion-of-judah/CB-02", 1, "error"),
    ]
    assert [a["location"]["uri"] for a in run["artifacts"]] == ["logs/turn%203.vlog", "logs/turn4.vlog", "clean.vlog"]
    (location,) = results[0]["locations"]
    assert location["physicalLocation"] == {
        "artifactLocation": {"uri": "logs/turn%203.vlog", "index": 0, "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 42},
    }
    assert location["logicalLocations"] == [
        {"name": "step 42", "fullyQualifiedName": "logs/turn 3.vlog#step=42", "kind": "element"}
    ]
    assert results[4]["locations"][0]["physicalLocation"]["artifactLocation"]["index"] == 1
    assert results[0]["properties"] == {
        "severity": "error", "basis": "proven", "step": 42, "when": "Turn 3, Italian movement",
        "subjects": ["1/2 Eritrean Bn", "0203"],
        "evidence": {"mp_spent": 7, "mp_allowed": 6, "path": ["0203", "0304", "0405"]},
    }


def test_every_result_has_a_region_the_step_line(report):
    data = render(report)
    VALIDATOR.validate(data)
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in data["runs"][0]["results"]] == [
        42, 57, 80, 5, 7]


def test_whole_log_finding_is_line_1_without_logical_location():
    f = Finding("vlog/x", "", Severity.INFO, Basis.PROVEN, None, None, "whole")
    data = render(Report(logs=(LogResult("a.vlog", 1, (f,)),)))
    VALIDATOR.validate(data)
    assert data["runs"][0]["results"][0]["locations"] == [
        {"physicalLocation": {"artifactLocation": {"uri": "a.vlog", "index": 0, "uriBaseId": "%SRCROOT%"},
                              "region": {"startLine": 1}}}
    ]


def test_fingerprints_are_stable_and_distinct(report):
    prints = [r["partialFingerprints"]["vlogFinding/v1"] for r in render(report)["runs"][0]["results"]]
    assert len(set(prints)) == 5 and all(len(p) == 64 for p in prints)
    assert prints == [r["partialFingerprints"]["vlogFinding/v1"] for r in render(report)["runs"][0]["results"]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain [a] text", "plain [a] text"),
        ("use {0} here", "use {{0}} here"),
        ("see [this](0) now", "see \\[this\\](0) now"),
        ("a\\b [x](1)", "a\\\\b \\[x\\](1)"),
        ("bell\x07 esc\x1b", "bell\\x07 esc\\x1b"),
    ],
)
def test_message_text_is_never_reinterpreted(text, expected):
    assert sarif.message_text(text) == expected


def test_hostile_chat_in_message(report):
    data = render(report)
    VALIDATOR.validate(data)
    assert data["runs"][0]["results"][3]["message"]["text"] == (
        'Bob: [bold]win[/bold] :smile: {{0}} 100% a:b,c <x & "y"> \\x1b[31mred\\x07\\x0anext'
    )


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        ("game.vlog", "game.vlog"),
        ("dir/my game #1.vlog", "dir/my%20game%20%231.vlog"),
        ("dir\\sub\\g.vlog", "dir/sub/g.vlog"),
        ("/home/a/b c.vlog", "file:///home/a/b%20c.vlog"),
        ("C:\\games\\g.vlog", "file:///C:/games/g.vlog"),
        ("\\\\server\\share\\g.vlog", "file://server/share/g.vlog"),
        ("ümlaut.vlog", "%C3%BCmlaut.vlog"),
        (b"caf\xe9.vlog".decode("utf-8", "surrogateescape"), "caf%E9.vlog"),     # a Latin-1 file name
        ("odd\ud800.vlog", "odd%ED%A0%80.vlog"),
    ],
)
def test_artifact_uri(path, uri):
    assert sarif.artifact_uri(path) == uri


def test_schema_catches_a_broken_log(report):
    data = render(report)
    data["runs"][0]["results"][0]["level"] = "fatal"
    assert not VALIDATOR.is_valid(data)
    del data["version"]
    assert not VALIDATOR.is_valid(data)


def test_information_uri_only_from_a_real_address(report, monkeypatch):
    """No address is made up: with no home page in the package metadata the field is left out,
    and the log stays valid; with one, it is the driver's informationUri."""
    from importlib import metadata

    class Meta(dict):
        urls: list[str] = []

        def get_all(self, key):
            return self.urls if key == "Project-URL" else None

    sarif.information_uri_from_metadata.cache_clear()
    monkeypatch.setattr(metadata, "metadata", lambda name: Meta())
    data = render(report)
    VALIDATOR.validate(data)
    assert "informationUri" not in data["runs"][0]["tool"]["driver"]

    Meta.urls = ["Homepage, https://example.org/vlog"]
    sarif.information_uri_from_metadata.cache_clear()
    assert render(report)["runs"][0]["tool"]["driver"]["informationUri"] == "https://example.org/vlog"
    sarif.information_uri_from_metadata.cache_clear()
