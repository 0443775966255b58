"""The JSON report: valid against schemas/report.schema.json, complete, ASCII, reversible per finding."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from vlog.dicestats import DiceRoll, dice_stats
from vlog.findings import Finding, Report
from vlog.report import json as json_report

from .sample import HOSTILE_CHAT, build_report

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "report.schema.json").read_text())
VALIDATOR = Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)


def test_schema_is_valid_draft_2020_12():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_report_validates_and_holds_everything(report):
    out = json_report.render(report)
    assert out.isascii() and out.endswith("}\n")
    data = json.loads(out)
    VALIDATOR.validate(data)
    assert data["summary"] == {
        "logs": 3, "steps": 160, "findings": {"info": 1, "warning": 2, "error": 2},
        "checks": {"judged": 4, "partly-judged": 0, "not-judged": 0, "nothing-to-judge": 0}, "binding": None,
        "worst": "error",
    }
    # no statuses recorded: each check is judged where its findings are, nothing to judge elsewhere
    assert [(c["id"], c["status"]) for c in data["logs"][2]["checks"]][:1] == [("lion-of-judah/MV-07", "nothing-to-judge")]
    assert [c["id"] for c in data["checks"]] == [
        "lion-of-judah/MV-07", "lion-of-judah/CB-02", "vlog/undo-after-roll", "vlog/unreadable-entry",
    ]
    assert [(log["path"], log["steps"], len(log["findings"])) for log in data["logs"]] == [
        ("logs/turn 3.vlog", 120, 4), ("logs/turn4.vlog", 30, 1), ("clean.vlog", 10, 0),
    ]
    assert data["logs"][0]["findings"][3]["message"] == HOSTILE_CHAT
    assert data["logs"][1]["findings"][0]["evidence"] == {"die": 4, "odds": "3:1", "shift": -1.5}
    findings = [Finding.from_dict(f) for log in data["logs"] for f in log["findings"]]
    assert findings == [f for _, f in report.findings()]
    assert data["dice"] is None


def test_report_with_dice_validates():
    rolls = [
        DiceRoll(1, "Alice", "DR", 2, 6, (1, 6), 7, "a.vlog"),
        DiceRoll(2, "Bob", "dr", 1, 6, (), 4, "a.vlog"),
        DiceRoll(3, "Bob", "dr", 1, 6, (9,), 9, "a.vlog"),
    ]
    base = build_report()
    data = json.loads(json_report.render(Report(logs=base.logs, checks=base.checks, dice=dice_stats(rolls))))
    VALIDATOR.validate(data)
    assert [g["dice"] for g in data["dice"]["players"]] == ["2d6", "1d6"]
    assert data["dice"]["rejected"] == [
        {"log": "a.vlog", "step": 3, "dice_name": "dr", "reason": "face 9 is outside 1..6"},
    ]


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("logs", 0, "findings", 0, "severity"), "fatal"),
        (("logs", 0, "findings", 0, "check"), "MV-07"),
        (("logs", 0, "steps"), -1),
        (("summary", "worst"), "bad"),
    ],
)
def test_schema_rejects_broken_reports(report, path, value):
    data = json.loads(json_report.render(report))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert not VALIDATOR.is_valid(data)


def test_schema_rejects_unknown_fields(report):
    data = json.loads(json_report.render(report))
    data["logs"][0]["findings"][0]["player_id"] = "4711"
    assert not VALIDATOR.is_valid(data)


def test_redact_and_compact(report):
    out = json_report.render(report, indent=None, redact=lambda s: s.replace("Bob", "player"))
    assert "\n" not in out[:-1] and "Bob" not in out
