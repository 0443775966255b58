"""`vlog games`: each game with its checks, implemented or why not."""
from __future__ import annotations

import json

from vlog.cli import EXIT_OK, main
from vlog.kit.inventory import load_inventory

INVENTORY = load_inventory("lion-of-judah")
IMPLEMENTED = INVENTORY.implemented()


def run(capsys, *argv):
    code = main(["games", *argv])
    out = capsys.readouterr()
    return code, out.out


def test_json_lists_every_game_and_every_lion_of_judah_item(capsys):
    code, out = run(capsys, "--format", "json")
    assert code == EXIT_OK
    games = {g["game"]: g for g in json.loads(out)["games"]}
    assert set(games) == {"lion-of-judah", "island-of-death", "ascari", "sideshow"}
    loj = games["lion-of-judah"]
    assert loj["engine"] is True and len(loj["checks"]) == 245
    assert loj["implemented"] == len(IMPLEMENTED)
    by_id = {c["id"]: c for c in loj["checks"]}
    assert by_id["lion-of-judah/MV-23"]["implemented"] is True
    assert by_id["lion-of-judah/MV-23"]["rule"] == "11.5.1; 11.5.3"
    assert by_id["lion-of-judah/TS-12"]["why_not"].startswith("cannot be judged from a log")
    assert by_id["lion-of-judah/AR-04"]["why_not"].startswith("needs data")
    assert by_id["lion-of-judah/VC-01"]["implemented"] is True and by_id["lion-of-judah/VC-01"]["why_not"] is None
    unbuilt = {i for i, c in by_id.items() if INVENTORY.item(i.split("/", 1)[1]).status == "not yet built"}
    assert all(by_id[i]["why_not"] == "not yet built" for i in unbuilt)
    for name in ("island-of-death", "ascari", "sideshow"):
        assert games[name]["engine"] is True and games[name]["data"]["unknown"] > 0
        assert games[name]["implemented"] == len(load_inventory(name).implemented()) > 0
        assert all(c["why_not"] is None for c in games[name]["checks"] if c["implemented"])
        reasons = {c["why_not"] for c in games[name]["checks"]}
        assert "not yet built" not in reasons       # every item judged, or why not: none left unbuilt


def test_text_names_the_reasons(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    code, out = run(capsys)
    assert code == EXIT_OK
    assert f"rules engine, {len(IMPLEMENTED)} of 245 checks implemented" in out
    assert "  MV-23  11.5.1; 11.5.3" in out


def test_a_failing_check_is_reported_and_exits_4_only_with_debug(capsys, monkeypatch):
    """A check that raises is a vlog/internal warning naming it; the other checks still judge
    the log (AR-01's own finding), and --debug adds the traceback and exit status 4."""
    from pathlib import Path

    from vlog.cli import EXIT_FINDINGS, EXIT_INTERNAL
    from vlog.games.lion_of_judah.segments import SegmentStart

    def broken(self, change, view):
        raise ZeroDivisionError("injected")

    monkeypatch.setattr(SegmentStart, "phase", broken)
    log = str(Path(__file__).resolve().parents[3] / "fixtures/lion-of-judah/rules/AR-01.vlog")
    assert main(["check", log, "--game", "lion-of-judah", "--format", "json"]) == EXIT_FINDINGS
    out, err = capsys.readouterr()
    findings = json.loads(out)["logs"][0]["findings"]
    crashes = [f for f in findings if f["check"] == "vlog/internal"]
    assert [f["step"] for f in crashes] == [1, 2, 3]          # the three phase changes
    assert "check of 'phase' failed with ZeroDivisionError" in crashes[0]["message"]
    assert "lion-of-judah/AR-01" in [f["check"] for f in findings]
    assert "Traceback" not in err
    assert main(["--debug", "check", log, "--game", "lion-of-judah", "--format", "json"]) == EXIT_INTERNAL
    assert "ZeroDivisionError: injected" in capsys.readouterr().err
