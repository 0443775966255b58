"""`vlog batch` on a small inbox: the fixture demo log of every game, planted rules logs, a broken
file and real VASL logs (when ../shared/samples is there): the right games with the right rules,
one process or two giving the same report, shards merged into the unsharded report, every format,
redaction, exit codes and errors."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from jsonschema import Draft4Validator, Draft202012Validator
from referencing import Registry, Resource

from tests.batch.conftest import GAMES, ROOT, run
from tests.conftest import SAMPLES
from vlog.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE, main

SCHEMAS = ROOT / "schemas"
needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/samples is absent")


def _validator() -> Draft202012Validator:
    report = json.loads((SCHEMAS / "report.schema.json").read_text())
    registry = Registry().with_resource("report.schema.json", Resource.from_contents(report))
    return Draft202012Validator(json.loads((SCHEMAS / "batch-report.schema.json").read_text()), registry=registry)


def by_name(data: dict) -> dict[str, dict]:
    return {g["name"]: g for g in data["games"]}


def test_every_game_is_found_with_its_rules_and_module(serial):
    code, data = serial
    games = by_name(data)
    for game in GAMES:
        g = games[f"{game}/demo.vlog"]
        assert g["game"] == game and g["report"]["game"] == game
        assert g["report"]["module"] is not None, g["notes"]
        assert g["players"] == ["Alice", "Bob"]
    planted = games["planted/CB-19.vlog"]
    assert planted["game"] == "lion-of-judah"
    assert [f["check"] for f in planted["report"]["logs"][0]["findings"]] == ["lion-of-judah/CB-19"]
    assert games["planted/AR-01.vlog"]["logs"][0]["grouping"].startswith("first: no other file")
    _validator().validate(data)


def test_an_unreadable_file_is_listed_and_the_batch_goes_on(serial):
    code, data = serial
    assert code == EXIT_INPUT
    [bad] = data["unreadable"]
    assert bad["path"].endswith("broken/not-a-log.vlog") and "not-a-log.vlog" in bad["error"]
    assert data["summary"]["games"] == len(data["games"]) >= 6


@needs_samples
def test_real_vasl_logs_are_grouped_by_continuity(serial):
    games = by_name(serial[1])
    chain = games["vasl/multiple-1a.vlog"]
    assert [l["path"].rsplit("/", 1)[1] for l in chain["logs"]] == ["multiple-1a.vlog", "multiple-1b.vlog"]
    assert chain["logs"][1]["grouping"].startswith("follows ") and chain["logs"][1]["grouping"].endswith(
        "multiple-1a.vlog: its start is that file's end")
    assert [l["path"].rsplit("/", 1)[1] for l in games["vasl/multiple-1.vlog"]["logs"]] == ["multiple-1.vlog"]
    assert chain["game"] is None and "no rules engine for the module 'VASL'" in chain["notes"][0]
    # the continuity check ran between the two and found them continuous
    assert any(c["id"] == "vlog/continuity" and c["status"] == "judged" for c in chain["report"]["checks"])


def test_two_processes_give_the_report_one_gives(inbox, serial, tmp_path):
    out = tmp_path / "j2.json"
    run("batch", str(inbox), "--jobs", "2", "--format", "json", "-o", str(out))
    assert json.loads(out.read_text()) == serial[1]


def test_shards_merged_equal_the_unsharded_report(inbox, serial, tmp_path):
    parts = []
    for k in (1, 2):
        part = tmp_path / f"shard-{k}.json"
        run("batch", str(inbox), "--jobs", "1", "--shard", f"{k}/2", "--format", "json", "-o", str(part))
        data = json.loads(part.read_text())
        assert data["shard"] == {"index": k, "count": 2} and data["total_games"] == len(serial[1]["games"])
        parts.append(part)
    assert sorted(i for p in parts for i in (g["index"] for g in json.loads(p.read_text())["games"])) == list(
        range(len(serial[1]["games"])))
    merged = tmp_path / "merged.json"
    assert run("batch", "--merge", *map(str, parts), "--format", "json", "-o", str(merged)) == EXIT_INPUT
    assert json.loads(merged.read_text()) == serial[1]
    for fmt in ("text", "junit", "sarif", "github"):
        assert run("batch", "--merge", *map(str, parts), "--format", fmt, "-o", str(tmp_path / f"m.{fmt}")) == EXIT_INPUT
        assert (tmp_path / f"m.{fmt}").read_text() == _render(serial[1], fmt)


def _render(data: dict, fmt: str) -> str:
    from vlog.batch.result import BatchReport
    from vlog.report import batch

    return batch.render(BatchReport.from_dict(data), fmt)


def test_merge_refuses_a_missing_or_doubled_shard(inbox, tmp_path, capsys):
    parts = []
    for k in (1, 2):
        parts.append(tmp_path / f"s{k}.json")
        run("batch", str(inbox / "ascari"), "--shard", f"{k}/3", "--format", "json", "-o", str(parts[-1]))
    assert run("batch", "--merge", *map(str, parts)) == EXIT_INPUT
    assert "shard(s) 3/3 missing" in capsys.readouterr().err
    assert run("batch", "--merge", str(parts[0]), str(parts[0])) == EXIT_INPUT
    assert "shard 1/3 is given twice" in capsys.readouterr().err
    # one report alone is rendered as it is, and says it is a shard
    assert run("batch", "--merge", str(parts[0])) == EXIT_OK
    assert "(shard 1/3 of 1 games)" in capsys.readouterr().out
    not_report = tmp_path / "x.json"
    not_report.write_text('{"format": "vlog-report"}')
    assert run("batch", "--merge", str(not_report)) == EXIT_INPUT
    assert f"{not_report}: $.format: not a vlog-batch-report" in capsys.readouterr().err


@pytest.fixture(scope="module")
def formats(serial, tmp_path_factory):
    """Every format, rendered from the serial run's JSON report (--merge of one whole report)."""
    out = {}
    folder = tmp_path_factory.mktemp("formats")
    report = folder / "batch.json"
    report.write_text(json.dumps(serial[1]))
    for fmt in ("text", "junit", "sarif", "github", "html"):
        path = folder / f"batch.{fmt}"
        summary = folder / "summary.md"
        with pytest.MonkeyPatch.context() as env:
            if fmt == "github":
                env.setenv("GITHUB_STEP_SUMMARY", str(summary))
            run("batch", "--merge", str(report), "--format", fmt, "-o", str(path))
        out[fmt] = path.read_text()
        if fmt == "github":
            out["markdown"] = summary.read_text()
    return out


def test_junit_has_a_suite_per_game(formats, serial):
    root = ET.fromstring(formats["junit"].encode())
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(by_name(serial[1])) | {"unreadable files"} == set(suites)
    cb19 = suites["planted/CB-19.vlog"]
    failing = [c for c in cb19.findall("testcase") if c.find("failure") is not None]
    assert [c.get("name").split()[0] for c in failing] == ["lion-of-judah/CB-19"]
    assert "CB-19.vlog" in failing[0].find("failure").get("message")
    assert cb19.findall("testcase/skipped"), "checks not judged are skipped test cases"
    assert suites["unreadable files"].find("testcase/error") is not None


def test_sarif_is_one_valid_run(formats):
    sarif = json.loads(formats["sarif"])
    Draft4Validator(json.loads((SCHEMAS / "sarif-2.1.0.json").read_text())).validate(sarif)
    [run_] = sarif["runs"]
    rules = run_["tool"]["driver"]["rules"]
    assert len({r["id"] for r in rules}) == len(rules)
    for result in run_["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        index = result["locations"][0]["physicalLocation"]["artifactLocation"]["index"]
        assert run_["artifacts"][index]["location"]["uri"] == result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert any(r["ruleId"] == "lion-of-judah/CB-19" for r in run_["results"])
    notes = run_["invocations"][0]["toolExecutionNotifications"]
    assert any(n["descriptor"]["id"] == "vlog/unreadable" and n["level"] == "error" for n in notes)


def test_github_annotations_and_the_job_summary(formats):
    assert "::error file=" in formats["github"] and "title=lion-of-judah/CB-19" in formats["github"]
    assert "title=vlog/unreadable" in formats["github"]
    md = formats["markdown"]
    assert md.startswith("# vlog batch") and "| game | rules |" in md
    assert "lion\\-of\\-judah/CB\\-19" not in md and "`lion-of-judah/CB-19`" in md
    assert "## Files not read" in md


def test_text_has_the_summary_table_and_every_game(formats, serial):
    text = formats["text"]
    assert "Games" in text and "dice p" in text
    for name in by_name(serial[1]):
        assert f"Game {name}" in text
    assert "Files not read:" in text


@pytest.fixture
def secret_inbox(tmp_path: Path) -> Path:
    """tests/cli's hostile log: player ids in PLAYER entries, moves, a mask's state and an entry vlog
    cannot parse, and an invisible scout."""
    from tests.cli.conftest import _write, hostile_log_text
    from vlog.vassal.commands import decode
    from vlog.vassal.obfuscation import Dialect
    from vlog.vassal.savefile import Log

    (tmp_path / "in").mkdir()
    _write(Log(decode(hostile_log_text()), dialect=Dialect.VCSK, key=0x21), tmp_path / "in" / "hostile.vlog")
    return tmp_path / "in"


def test_player_ids_and_hidden_pieces_stay_hidden_in_every_format(secret_inbox, tmp_path):
    from tests.cli.conftest import HIDDEN_IDS, SECRET_IDS

    for fmt in ("text", "json", "junit", "sarif", "github"):
        out = tmp_path / f"o.{fmt}"
        run("batch", str(secret_inbox), "--format", fmt, "-o", str(out))
        text = out.read_text()
        assert not any(s in text for s in SECRET_IDS + HIDDEN_IDS), fmt
        assert "Scout Patrol" not in text, fmt
    # each game's report is the one `vlog check` gives for its logs, with or without the options
    log = str(secret_inbox / "hostile.vlog")
    for options in ((), ("--show-player-ids", "--referee")):
        batch, check = tmp_path / "batch.json", tmp_path / "check.json"
        run("batch", str(secret_inbox), *options, "--format", "json", "-o", str(batch), "--force")
        run("check", log, *options, "--format", "json", "-o", str(check), "--force")
        [game] = json.loads(batch.read_text())["games"]
        assert game["report"] == json.loads(check.read_text())


def test_exit_codes_follow_fail_on(inbox):
    assert run("batch", str(inbox / "ascari"), "--format", "json", "-o", "/dev/null") == EXIT_OK
    planted = str(inbox / "planted")
    assert run("batch", planted, "--format", "json", "-o", "/dev/null") == 1
    assert run("batch", planted, "--format", "json", "-o", "/dev/null", "--fail-on", "never") == EXIT_OK


@pytest.mark.parametrize("args, message", [
    (["--shard", "3/2"], "--shard: '3/2': give K/N with 1 <= K <= N"),
    (["--game-of", "("], "--game-of: '(': not a regular expression"),
    (["--jobs", "0"], "--jobs"),
    (["--game", "lion-of-juda"], "did you mean 'lion-of-judah'"),
])
def test_usage_mistakes_say_what_to_fix(inbox, capsys, args, message):
    code = run("batch", str(inbox / "ascari"), *args)
    assert code in (EXIT_USAGE, EXIT_INPUT)
    assert message in capsys.readouterr().err


def test_the_output_never_replaces_an_input(inbox, capsys):
    log = inbox / "ascari" / "demo.vlog"
    assert run("batch", str(inbox / "ascari"), "-o", str(log), "--force") == EXIT_INPUT
    assert "would overwrite the input" in capsys.readouterr().err


def test_help_has_an_example(capsys):
    assert main(["batch", "--help"]) == EXIT_OK
    assert "vlog batch inbox/" in capsys.readouterr().out


@needs_samples
def test_the_summary_breaks_dice_down_by_player_and_roll_name(formats, serial):
    dice = by_name(serial[1])["vasl/multiple-1a.vlog"]["report"]["dice"]
    assert {g["roll_name"] for g in dice["by_name"]} >= {"IFT DR", "RS dr"}
    assert dice["correction"]["method"] == "holm"
    row = next(line for line in formats["markdown"].splitlines() if line.startswith("| vasl/multiple-1a.vlog"))
    assert "Bob 0.023 (2d6)" in row and "IFT DR" in row
    assert "Holm's step-down method" in formats["text"]


def test_html_has_every_game_with_maps_and_is_self_contained(formats, serial):
    from tests.report.test_report_html import self_contained

    page = formats["html"]
    self_contained(page)
    for game in serial[1]["games"]:
        assert f'id="game-{game["index"]}"' in page and f'href="#game-{game["index"]}"' in page
    cb19 = page[page.index("Game planted/CB-19.vlog"):]
    cb19 = cb19[:cb19.index("</section>")]
    assert 'class="map"' in cb19 and "<title>1107: clear" in cb19   # the data its module carries
    assert "Files not read" in page


def test_the_batch_page_loads_in_headless_chromium(formats, tmp_path):
    from tests.report.test_report_html import CHROMIUM, open_in_chromium

    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed")
    dom, _ = open_in_chromium(formats["html"], tmp_path)
    assert dom.count("<svg") == formats["html"].count("<svg") > 0 and "Files not read" in dom

