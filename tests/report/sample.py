"""A report with known contents, shared by the findings and renderer tests.

Three logs, four checks (three declared, one seen only in a finding) and five findings:
2 errors, 2 warnings, 1 info. The info finding carries player chat meant to trip up renderers.
"""
from __future__ import annotations

from vlog.findings import Basis, CheckInfo, Finding, LogResult, Report, Severity

HOSTILE_CHAT = 'Bob: [bold]win[/bold] :smile: {0} 100% a:b,c <x & "y"> \x1b[31mred\x07\nnext'

MV07 = CheckInfo("lion-of-judah/MV-07", "11.5.3", "Movement allowance")
CB02 = CheckInfo("lion-of-judah/CB-02", "9.4")
UNDO = CheckInfo("vlog/undo-after-roll", "", "Undo after a die roll")


def build_report() -> Report:
    log_a = LogResult(
        "logs/turn 3.vlog",
        120,
        (
            Finding(
                MV07.id, "11.5.3", Severity.ERROR, Basis.PROVEN, 42, "Turn 3, Italian movement",
                "1/2 Eritrean Bn moved 7 MP with an allowance of 6.",
                ("1/2 Eritrean Bn", "0203"),
                {"mp_spent": 7, "mp_allowed": 6, "path": ["0203", "0304", "0405"]},
            ),
            Finding(
                MV07.id, "11.5.3", Severity.WARNING, Basis.POSSIBLE, 57, "Turn 3, Italian movement",
                "Legal only if hex 1012 is clear terrain.", ("Ras Kassa",), {"decides": "terrain of 1012"},
            ),
            Finding(UNDO.id, "", Severity.WARNING, Basis.PROVEN, 80, None, "Undo right after a die roll."),
            Finding("vlog/unreadable-entry", "", Severity.INFO, Basis.UNVERIFIABLE, 5, None, HOSTILE_CHAT),
        ),
    )
    log_b = LogResult(
        "logs/turn4.vlog",
        30,
        (
            Finding(
                CB02.id, "9.4", Severity.ERROR, Basis.POSSIBLE, 7, "Turn 4, Ethiopian combat",
                "No attacker set gives the logged 3:1 odds.", (), {"die": 4, "odds": "3:1", "shift": -1.5},
            ),
        ),
    )
    log_c = LogResult("clean.vlog", 10)
    return Report(
        logs=(log_a, log_b, log_c),
        checks=(MV07, CB02, UNDO),
        game="lion-of-judah",
        module="Lion of Judah 2.1",
        sources=("logs/turn 3.vlog", "logs/turn4.vlog", "clean.vlog", "LionOfJudah.vmod"),
    )
