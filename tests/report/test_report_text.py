"""The text report: blocks, summary, and player text printed exactly as typed."""
from __future__ import annotations

import re

import pytest

from vlog import report as reports
from vlog.dicestats import DiceRoll, dice_stats
from vlog.findings import Basis, Finding, LogResult, Report, Severity
from vlog.report import text
from vlog.vassal.privacy import Redactor

from .sample import build_report


def test_blocks_and_summary(report):
    out = text.render(report)
    assert out.splitlines()[0] == "vlog 0.1.0  game lion-of-judah  module Lion of Judah 2.1"
    assert "logs/turn 3.vlog  120 steps, 4 findings" in out
    assert "clean.vlog  10 steps, 0 findings" in out
    block = out[out.index("ERROR (proven)"):out.index("WARNING (possible)")]
    assert block.splitlines()[:4] == [
        "ERROR (proven)  lion-of-judah/MV-07 Movement allowance  rule 11.5.3",
        "  step 42, Turn 3, Italian movement",
        "  1/2 Eritrean Bn moved 7 MP with an allowance of 6.",
        "  subjects: 1/2 Eritrean Bn; 0203",
    ]
    rows = [line.split() for line in block.splitlines()[4:] if line.strip()]
    # evidence as aligned key/value lines, not JSON
    assert rows == [["mp_spent", "7"], ["mp_allowed", "6"], ["path", "0203,", "0304,", "0405"]]
    assert "  step 7, Turn 4, Ethiopian combat" in out
    assert re.search(r"^\s+shift\s+-1\.5$", out, re.M)
    assert out.rstrip().splitlines()[-1] == (
        "5 findings (2 errors, 2 warnings, 1 info) in 3 logs, 160 steps replayed, 4 checks run."
    )
    assert out.count("ERROR (") == 2 and out.count("WARNING (") == 2 and out.count("INFO (") == 1
    assert all(line == line.rstrip() for line in out.splitlines())


def test_player_text_is_never_markup_emoji_or_terminal_control(report):
    out = text.render(report)
    assert '  Bob: [bold]win[/bold] :smile: {0} 100% a:b,c <x & "y"> \\x1b[31mred\\x07\\x0anext' in out
    assert "\x1b" not in out and "\x07" not in out
    assert "😄" not in out


def test_color_output_styles_but_still_escapes_player_text(report):
    out = text.render(report, color=True)
    assert "\x1b[" in out                                  # rich's own styling
    assert "[bold]win[/bold] :smile:" in out
    assert "\\x1b[31mred" in out and "\x1b[31mred" not in out


def test_environment_does_not_change_output(report, monkeypatch):
    plain = text.render(report, width=100)
    for name, value in (("FORCE_COLOR", "1"), ("COLUMNS", "30"), ("TERM", "xterm-256color"), ("NO_COLOR", "")):
        monkeypatch.setenv(name, value)
    assert text.render(report, width=100) == plain


def test_min_severity_hides_blocks_but_not_counts(report):
    out = text.render(report, min_severity=Severity.ERROR)
    assert "WARNING (" not in out and "INFO (" not in out and out.count("ERROR (") == 2
    assert "logs/turn 3.vlog  120 steps, 4 findings (1 shown)" in out
    assert "5 findings (2 errors, 2 warnings, 1 info)" in out


def test_html_entities_are_decoded_and_nested_evidence_is_plain():
    f = Finding("vlog/x", "", Severity.INFO, Basis.PROVEN, 2, None, "21A moved 1305 &rarr; 1206",
                evidence={"entries": [{"raw": "INFO\tx", "kind": "module-command"}], "ok": True, "gone": None})
    out = text.render(Report(logs=(LogResult("a.vlog", 2, (f,)),)))
    assert "21A moved 1305 \u2192 1206" in out and "&rarr;" not in out
    assert re.search(r"^\s+entries\s+raw: INFO\\x09x; kind: module-command$", out, re.M)
    assert re.search(r"^\s+ok\s+yes$", out, re.M) and re.search(r"^\s+gone\s+unknown$", out, re.M)


def test_no_findings_summary():
    report = Report(logs=(LogResult("a.vlog", 1),))
    assert text.render(report).rstrip().splitlines()[-1] == "No findings in 1 log, 1 step replayed, 0 checks run."


def test_whole_log_finding_and_redact_hook():
    f = Finding("vlog/players", "", Severity.INFO, Basis.PROVEN, None, None, "Seen: id 0xdeadbeef as Bob")
    out = text.render(Report(logs=(LogResult("a.vlog", 2, (f,)),)), redact=lambda s: s.replace("0xdeadbeef", "…"))
    assert "  whole log\n  Seen: id … as Bob\n" in out
    assert "deadbeef" not in out


def test_dice_section_is_included():
    rolls = [DiceRoll(i, "[red]Bob", "DR", 1, 6, (i % 6 + 1,), i % 6 + 1) for i in range(12)]
    base = build_report()
    report = Report(logs=base.logs, checks=base.checks, dice=dice_stats(rolls))
    out = text.render(report)
    assert "Dice" in out and "[red]Bob" in out and "1:2 2:2 3:2 4:2 5:2 6:2" in out


def test_every_format_is_reachable_by_name(report):
    for fmt in reports.FORMATS:
        assert reports.render(report, fmt) == reports.renderer(fmt)(report)
    with pytest.raises(ValueError, match="report format must be one of text, json, junit, sarif, github"):
        reports.renderer("html")


def test_player_id_redactor_plugs_into_every_renderer(report):
    f = Finding("vlog/x", "", Severity.WARNING, Basis.PROVEN, 1, None, "moved by s3cret-id", ("s3cret-id",),
                {"owner": "s3cret-id"})
    leaky = Report(logs=(LogResult("a.vlog", 1, (f,)),))
    redact = Redactor(["s3cret-id"]).text
    for fmt in reports.FORMATS:
        out = reports.render(leaky, fmt, redact=redact)
        assert "s3cret" not in out and "player-1" in out, fmt
