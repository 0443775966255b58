"""A batch report (`vlog.batch.result.BatchReport`) in every format `vlog check` writes.

* text: the summary table (one row per game: rules, players, logs, steps, findings by severity
  and basis, the dice p-value of each player), then each game as `vlog check` shows it, headed by
  how its logs were grouped, then the files that could not be read.
* json: `BatchReport.to_dict()` (schemas/batch-report.schema.json).
* junit: one <testsuite> per game, one <testcase> per check over the game's logs (the finding's
  log named in each failure); a game that could not be judged is one <error> test case.
* sarif: one run for the whole batch: every game's rules, artifacts and results, each game's
  notifications, and one error notification per file that could not be read.
* github: every game's annotations, and one error annotation per unreadable file; GitHub shows
  only the first few of each kind per step, so `markdown` (the job summary) carries them all.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from vlog.batch.result import BatchReport, GameResult
from vlog.findings import Basis, Report, Severity
from vlog.report._common import place, printable

__all__ = ["render", "summary_table", "markdown", "player_p_values", "FORMATS"]

FORMATS = ("text", "json", "junit", "sarif", "github")


def player_p_values(report: Report | None, *, by_name: bool = False) -> list[tuple[str, float, str]]:
    """(player, smallest corrected p-value of the player's kinds of roll, that kind), players in
    order; with `by_name`, (roll name, its smallest corrected p-value, its kind)."""
    if report is None or report.dice is None:
        return []
    best: dict[str, tuple[float, str]] = {}
    for group in (report.dice.by_name if by_name else report.dice.players):
        if group.p_adjusted is None:
            continue
        who = (group.roll_name if by_name else group.player) or "(unknown)"
        if who not in best or group.p_adjusted < best[who][0]:
            best[who] = (group.p_adjusted, group.kind)
    return [(who, p, kind) for who, (p, kind) in best.items()]


def _p(p: float) -> str:
    return f"{p:.3f}" if p >= 1e-3 else f"{p:.1e}"


def _dice_cell(game: GameResult, by_name: bool = False) -> str:
    values = player_p_values(game.report, by_name=by_name)
    if by_name:                                   # the roll names most in doubt
        values = sorted(values, key=lambda v: v[1])[:3]
    return ", ".join(f"{who} {_p(p)} ({kind})" for who, p, kind in values) or "-"


def _row(game: GameResult) -> list[str]:
    counts, bases = game.counts(), game.bases()
    rules = game.game or "(any log)"
    if game.report is None:
        rules += " - not judged"
    elif not game.judged:
        rules += " - not bound"
    return [game.name, rules, ", ".join(game.players) or "-", str(len(game.logs)), str(game.steps),
            "/".join(str(counts[s.value]) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)),
            "/".join(str(bases[b.value]) for b in Basis), _dice_cell(game), _dice_cell(game, by_name=True)]


COLUMNS = ("game", "rules", "players", "logs", "steps", "err/warn/info",
           "prov/poss/unver", "dice p adj. per player", "lowest by roll name")
DICE_NOTE = ("dice p adj.: the chi-square p-value against fair dice, corrected by Holm's step-down method for "
             "the groups tested in the game (per player and kind of roll; per roll name and kind); "
             "`vlog dice` shows every group")
NUMERIC = ("logs", "steps", "err/warn/info", "prov/poss/unver")


def summary_table(batch: BatchReport) -> Table:
    """One row per game, as the text report shows it."""
    table = Table(title="Games", box=box.SIMPLE_HEAD, title_justify="left", show_edge=False, pad_edge=False)
    for name in COLUMNS:
        table.add_column(Text(name), justify="right" if name in NUMERIC else "left", overflow="fold",
                         min_width={"game": 18, "rules": 13}.get(name))
    for game in batch.games:
        table.add_row(*(Text(printable(cell)) for cell in _row(game)))
    table.caption = DICE_NOTE
    table.caption_justify = "left"
    return table


def summary_line(batch: BatchReport) -> str:
    """'12 games, 30 logs, 1204 steps: 3 errors, 1 warning, 0 info (2 proven, ...); 1 file unreadable.'"""
    counts, bases = batch.counts(), batch.bases()
    shard = f" (shard {batch.shard[0]}/{batch.shard[1]} of {batch.total_games} games)" if batch.shard else ""
    line = (f"{len(batch.games)} game{'s' * (len(batch.games) != 1)}{shard}, "
            f"{sum(len(g.logs) for g in batch.games)} logs, {sum(g.steps for g in batch.games)} steps: "
            + ", ".join(f"{counts[s.value]} {s.value}" for s in sorted(Severity, reverse=True))
            + " (" + ", ".join(f"{bases[b.value]} {b.value}" for b in Basis) + ")")
    failed = sum(1 for g in batch.games if g.report is None)
    if failed:
        line += f"; {failed} game{'s' * (failed != 1)} not judged"
    if batch.unreadable:
        line += f"; {len(batch.unreadable)} file{'s' * (len(batch.unreadable) != 1)} unreadable"
    return line + "."


def _text(batch: BatchReport, *, width: int, color: bool, verbose: bool) -> str:
    from vlog.report import text
    from vlog.report.text import make_console

    console, buffer = make_console(width=width, color=color)
    console.print(Text(f"vlog {batch.tool_version} batch", style="bold"))
    console.print()
    console.print(summary_table(batch))
    chunks = [buffer.getvalue()]
    for game in batch.games:
        console, buffer = make_console(width=width, color=color)
        console.print(Text(printable(f"Game {game.name}"), style="bold underline"))
        for path, why in game.logs:
            console.print(Text(printable(f"  {path}: {why}")))
        for note in game.notes:
            console.print(Text(printable(f"  {note}"), style="dim"))
        if game.error is not None:
            console.print(Text(printable(f"  not judged: {game.error}"), style="bold red"))
        chunks.append(buffer.getvalue())
        if game.report is not None:
            chunks.append(text.render(game.report, width=width, color=color, verbose=verbose))
    console, buffer = make_console(width=width, color=color)
    if batch.unreadable:
        console.print(Text("Files not read:", style="bold"))
        for path, error in batch.unreadable:
            console.print(Text(printable(f"  {path}: {error}")))
    console.print(Text(summary_line(batch), style="bold"))
    chunks.append(buffer.getvalue())
    output = "\n".join(c.rstrip("\n") for c in chunks) + "\n"
    return output if color else "\n".join(line.rstrip() for line in output.split("\n"))


def _junit(batch: BatchReport) -> str:
    from lxml import etree

    from vlog.findings import fail_threshold
    from vlog.report.junit import _xml_safe, add_case

    threshold = fail_threshold("error")
    root = etree.Element("testsuites", name="vlog batch")
    tests = failures = errors = 0
    for game in batch.games:
        suite = etree.SubElement(root, "testsuite", name=_xml_safe(game.name), id=str(game.index))
        properties = etree.SubElement(suite, "properties")
        for name, value in (("game", game.game), ("module", game.module_name),
                            ("logs", " ".join(p for p, _ in game.logs)), ("players", ", ".join(game.players))):
            if value:
                etree.SubElement(properties, "property", name=name, value=_xml_safe(value))
        n = fails = skipped = errs = 0
        report = game.report
        if report is None:
            case = etree.SubElement(suite, "testcase", name="judged", classname=_xml_safe(game.name), time="0")
            etree.SubElement(case, "error", message=_xml_safe(game.error or "not judged"),
                             type="internal" if game.internal else "input")
            n, errs = 1, 1
        else:
            for check in report.all_checks():
                found = [f for _, f in ((log, f) for log in report.logs for f in log.findings) if f.check == check.id]
                paths = {id(f): log.path for log in report.logs for f in log.findings}
                failed, skip = add_case(suite, check, report.status(check.id), found, threshold,
                                        label=lambda f, paths=paths: paths[id(f)], classname=game.name)
                n, fails, skipped = n + 1, fails + failed, skipped + skip
            if report.started is not None:
                suite.set("timestamp", report.started)
            if report.logs and all(log.seconds is not None for log in report.logs):
                suite.set("time", f"{sum(log.seconds for log in report.logs):.3f}")
        suite.set("tests", str(n))
        suite.set("failures", str(fails))
        suite.set("errors", str(errs))
        suite.set("skipped", str(skipped))
        tests, failures, errors = tests + n, failures + fails, errors + errs
    if batch.unreadable:
        suite = etree.SubElement(root, "testsuite", name="unreadable files", id=str(len(batch.games)),
                                 tests=str(len(batch.unreadable)), failures="0", errors=str(len(batch.unreadable)),
                                 skipped="0")
        for path, error in batch.unreadable:
            case = etree.SubElement(suite, "testcase", name=_xml_safe(path), classname="vlog.read", time="0")
            etree.SubElement(case, "error", message=_xml_safe(error), type="input")
        tests, errors = tests + len(batch.unreadable), errors + len(batch.unreadable)
    root.set("tests", str(tests))
    root.set("failures", str(failures))
    root.set("errors", str(errors))
    return etree.tostring(root, pretty_print=True, xml_declaration=True, encoding="UTF-8").decode("utf-8")


def _sarif(batch: BatchReport) -> str:
    """One run: the runs `vlog.report.sarif` writes for each game, joined (rules and artifacts
    listed once, every index renumbered)."""
    from vlog.report import sarif
    from vlog.report.sarif import artifact_uri, message_text

    runs = [json.loads(sarif.render(r))["runs"][0] for _, r in batch.reports()] or \
        [json.loads(sarif.render(Report(logs=())))["runs"][0]]
    rules: list[dict[str, Any]] = []
    rule_index: dict[str, int] = {}
    artifacts: list[dict[str, Any]] = []
    artifact_index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    for run in runs:
        for rule in run["tool"]["driver"]["rules"]:
            if rule["id"] not in rule_index:
                rule_index[rule["id"]] = len(rules)
                rules.append(rule)
        local = {}
        for i, artifact in enumerate(run["artifacts"]):
            key = json.dumps(artifact["location"], sort_keys=True)
            if key not in artifact_index:
                artifact_index[key] = len(artifacts)
                artifacts.append(artifact)
            local[i] = artifact_index[key]
        for result in run["results"]:
            result["ruleIndex"] = rule_index[result["ruleId"]]
            _renumber(result.get("locations", ()), local)
            results.append(result)
        for note in run["invocations"][0]["toolExecutionNotifications"]:
            if "associatedRule" in note:
                note["associatedRule"]["index"] = rule_index[note["associatedRule"]["id"]]
            _renumber(note.get("locations", ()), local)
            notifications.append(note)
    base = next(iter(runs[0]["originalUriBaseIds"]))
    for path, error in batch.unreadable:
        uri = artifact_uri(path)
        location: dict[str, Any] = {"uri": uri} if uri.startswith("file:") else {"uri": uri, "uriBaseId": base}
        notifications.append({"descriptor": {"id": "vlog/unreadable"}, "level": "error",
                              "message": {"text": message_text(f"{path}: {error}")},
                              "locations": [{"physicalLocation": {"artifactLocation": location}}]})
    for game in batch.games:
        if game.report is None:
            notifications.append({"descriptor": {"id": "vlog/not-judged"}, "level": "error",
                                  "message": {"text": message_text(f"game {game.name}: {game.error}")}})
    run = runs[0]
    run["tool"]["driver"]["rules"] = rules
    run["artifacts"] = artifacts
    run["results"] = results
    run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": notifications}]
    run["automationDetails"] = {"id": "vlog/batch/"}
    run["properties"] = {"games": [{"name": g.name, "game": g.game, "logs": [p for p, _ in g.logs]}
                                   for g in batch.games]}
    document = {"$schema": sarif.SARIF_SCHEMA_URI, "version": sarif.SARIF_VERSION, "runs": [run]}
    return json.dumps(document, indent=2, ensure_ascii=True, allow_nan=False) + "\n"


def _renumber(locations: Any, local: dict[int, int]) -> None:
    for location in locations:
        artifact = location.get("physicalLocation", {}).get("artifactLocation")
        if artifact is not None and "index" in artifact:
            artifact["index"] = local[artifact["index"]]


def _github(batch: BatchReport) -> str:
    from vlog.report import github

    lines = [github.render(r) for _, r in batch.reports()]
    for path, error in batch.unreadable:
        lines.append(f"::error file={github.escape_property(printable(path))},title=vlog/unreadable::"
                     f"{github.escape_data(printable(error))}\n")
    for game in batch.games:
        if game.report is None:
            lines.append(f"::error title=vlog/not-judged::{github.escape_data(printable(f'game {game.name}: {game.error}'))}\n")
    return "".join(lines)


def _md(text: str) -> str:
    """Player text in a Markdown table cell or line: nothing in it is markup."""
    out = printable(text)
    for ch in "\\`*_[]<>|":
        out = out.replace(ch, "\\" + ch)
    return out


def markdown(batch: BatchReport) -> str:
    """The job summary: the summary table, every finding of every game, what was not judged, and
    the files that could not be read (GitHub shows only some annotations; this shows all)."""
    from vlog.report._common import judged_line

    lines = [f"# vlog batch", "", _md(summary_line(batch)), "",
             "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_md(c) for c in _row(g)) + " |" for g in batch.games]
    lines += ["", _md(DICE_NOTE)]
    for game in batch.games:
        lines += ["", f"## {_md(game.name)}", ""]
        lines += [f"- {_md(path)}: {_md(why)}" for path, why in game.logs]
        lines += [f"- {_md(note)}" for note in game.notes]
        if game.report is None:
            lines.append(f"- **not judged**: {_md(game.error or '')}")
            continue
        lines.append("")
        for log, f in game.report.findings():
            lines.append(f"- **{f.severity.value.upper()}** ({f.basis.value}) `{printable(f.check).replace('`', '')}`"
                         + (f" rule {_md(f.rule)}" if f.rule else "")
                         + f": {_md(log.path)} {_md(place(f))}: {_md(f.message)}")
        if not game.report.logs or not any(log.findings for log in game.report.logs):
            lines.append("- no findings")
        if game.report.all_checks():
            lines += ["", _md(judged_line(game.report))]
    if batch.unreadable:
        lines += ["", "## Files not read", ""]
        lines += [f"- {_md(path)}: {_md(error)}" for path, error in batch.unreadable]
    return "\n".join(lines) + "\n"


def render(batch: BatchReport, fmt: str, *, redact: Callable[[str], str] | None = None, verbose: bool = False,
           width: int = 100, color: bool = False) -> str:
    """The batch report in `fmt` (one of FORMATS), player ids redacted by `redact` when given."""
    if redact is not None:
        batch = batch.redacted(redact)
    if fmt == "json":
        return json.dumps(batch.to_dict(), indent=2, ensure_ascii=True, allow_nan=False) + "\n"
    if fmt == "junit":
        return _junit(batch)
    if fmt == "sarif":
        return _sarif(batch)
    if fmt == "github":
        return _github(batch)
    if fmt == "text":
        return _text(batch, width=width, color=color, verbose=verbose)
    raise ValueError(f"batch report format must be one of {', '.join(FORMATS)}, not {fmt!r}")
