"""GitHub workflow commands: one line per finding, escaped as the Actions runner unescapes."""
from __future__ import annotations

import re
from urllib.parse import unquote

import pytest

from vlog.findings import Basis, Finding, LogResult, Report, Severity
from vlog.report import github


def test_one_line_per_finding(report):
    lines = github.render(report).splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["::error", "::warning", "::warning", "::notice", "::error"]
    assert lines[0] == (
        "::error file=logs/turn 3.vlog,title=lion-of-judah/MV-07 (rule 11.5.3)::"
        "step 42, Turn 3, Italian movement: 1/2 Eritrean Bn moved 7 MP with an allowance of 6. [proven]"
        "%0Asubjects: 1/2 Eritrean Bn; 0203"
        '%0Aevidence: mp_spent=7, mp_allowed=6, path=["0203", "0304", "0405"]'
    )
    assert lines[2] == "::warning file=logs/turn 3.vlog,title=vlog/undo-after-roll::step 80: Undo right after a die roll. [proven]"


def test_hostile_chat_cannot_break_out(report):
    line = github.render(report).splitlines()[3]
    assert line == (
        "::notice file=logs/turn 3.vlog,title=vlog/unreadable-entry::step 5: "
        'Bob: [bold]win[/bold] :smile: {0} 100%25 a:b,c <x & "y"> \\x1b[31mred\\x07\\x0anext [unverifiable]'
    )


@pytest.mark.parametrize(
    ("raw", "data", "prop"),
    [
        ("plain", "plain", "plain"),
        ("100%", "100%25", "100%25"),
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("x:y,z", "x:y,z", "x%3Ay%2Cz"),
        ("%0A", "%250A", "%250A"),
    ],
)
def test_escaping(raw, data, prop):
    assert github.escape_data(raw) == data
    assert github.escape_property(raw) == prop
    assert unquote(prop) == raw  # the runner's unescaping gives the text back


def test_properties_escaped_and_injection_stays_on_one_line():
    f = Finding("vlog/x", "1.2", Severity.ERROR, Basis.PROVEN, 1, None, "ok\n::set-output name=x::pwned")
    out = github.render(Report(logs=(LogResult("dir,a:b%.vlog", 2, (f,)),)))
    assert out.count("\n") == 1
    assert out == (
        "::error file=dir%2Ca%3Ab%25.vlog,title=vlog/x (rule 1.2)::step 1: ok\\x0a::set-output name=x::pwned [proven]\n"
    )
    assert re.fullmatch(r"::error file=[^,:]*,title=[^,:]*::.*\n", out)


def test_min_severity_and_empty(report):
    assert github.render(report, min_severity=Severity.ERROR).count("\n") == 2
    assert github.render(Report(logs=(LogResult("a.vlog", 1),))) == ""
