"""The report as one self-contained HTML page: for people, on a desk or on a phone.

Nothing is fetched: the styles are inline, there is no script, the pictures are inline SVG
(`vlog.report.svg`). Findings are grouped by game, log and turn (the finding's `when` up to its
first comma); each shows its severity, basis, check and rule, the place, the message, a map
excerpt when its evidence names hexes of the game's map, and the numbers behind the verdict.
Then the dice (a chart per player and kind of roll, faces against fair, and per roll name, with
the p-values corrected for the groups tested) and the table of checks: judged, partly judged,
not judged (and why), nothing to judge. Player text is escaped everywhere; player ids are
redacted by the `redact` hook and hidden pieces are named as the other side sees them, as in
every format.
"""
from __future__ import annotations

from collections.abc import Callable
from html import escape, unescape
from typing import Any

from vlog.findings import Finding, Report
from vlog.report._common import evidence_value, place, printable

__all__ = ["render", "render_batch", "STYLE"]

STYLE = """
:root{color-scheme:light;--err:#b3261e;--warn:#8a5a00;--info:#1f5f8b;--line:#d0d0d0}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:0 12px 40px;color:#1b1b1b;background:#fafafa}
main{max-width:980px;margin:0 auto}
h1{font-size:1.4em;margin:.8em 0 .2em}h2{font-size:1.2em;margin:1.6em 0 .3em;border-bottom:2px solid #333}
h3{font-size:1.05em;margin:1.2em 0 .3em;word-break:break-all}h4{font-size:.95em;margin:1em 0 .3em;color:#444}
.summary{font-weight:600}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:.9em;min-width:100%}
th,td{border-bottom:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.finding{background:#fff;border:1px solid var(--line);border-left:6px solid var(--info);border-radius:4px;padding:8px 10px;margin:10px 0}
.finding.error{border-left-color:var(--err)}.finding.warning{border-left-color:var(--warn)}
.sev{font-weight:700}.error .sev{color:var(--err)}.warning .sev{color:var(--warn)}.info .sev{color:var(--info)}
.where{color:#555;font-size:.9em}.msg{margin:.3em 0}
.body{display:flex;flex-wrap:wrap;gap:10px;align-items:flex-start}
figure{margin:0;flex:1 1 260px;max-width:420px}figcaption{font-size:.8em;color:#555}
svg.map{width:100%;height:auto;background:#fff;border:1px solid var(--line)}
dl.evidence{flex:1 1 220px;margin:0;display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;font-size:.9em}
dl.evidence dt{color:#555}dl.evidence dd{margin:0;word-break:break-word}
.hex polygon{stroke:#888;stroke-width:1}.hex text{font-size:9px;text-anchor:middle;fill:#333}
.hex text.place{font-size:8px;font-style:italic}
polygon.ring{fill:none;stroke:#e07b00;stroke-width:3}polygon.target{fill:none;stroke:#c00;stroke-width:4}
polyline.route{fill:none;stroke:#1d4ed8;stroke-width:3.5;stroke-linejoin:round}.arrowhead{fill:#1d4ed8}
.counter rect{fill:#fffbe6;stroke:#333;stroke-width:1.2}.counter text{font-size:8px;text-anchor:middle}
.dice-charts{display:flex;flex-wrap:wrap;gap:12px}.dice-charts figure{flex:0 1 220px}
svg.dice{width:100%;height:auto;background:#fff;border:1px solid var(--line)}
svg.dice .bar{fill:#6b8fc9}svg.dice .fair{stroke:#c00;stroke-dasharray:4 3;stroke-width:1.5}
svg.dice text{font-size:9px;text-anchor:middle}
details{margin:.6em 0}summary{cursor:pointer}
.status-judged{color:#1a7f37}.status-not-judged{color:var(--err)}.status-partly-judged{color:var(--warn)}
.legend{font-size:.8em;color:#555}
table.games td,table.games th{white-space:nowrap}
"""

LEGEND = ("Map: hexes named by the finding ringed (the hex attacked in red), the route as a blue arrow, "
          "units as the report names them; grey hexes: terrain not in the game data (a map drawn from the "
          "module's own grid, for a game vlog has no data for, shows no terrain).")


def _e(text: object) -> str:
    """Player or report text for HTML: entities VASSAL wrote decoded, controls shown, then escaped."""
    return escape(printable(unescape(str(text))))


def _turn(finding: Finding) -> str:
    if finding.when:
        return finding.when.split(",", 1)[0]
    return "whole log" if finding.step is None else "start of the log" if finding.step == 0 else "steps"


def _finding(finding: Finding, title: str | None, view: Any) -> str:
    """One finding; `view`: the map views (`map_view`), the first that draws its evidence drawing it."""
    from vlog.calibration import proposed_words
    from vlog.report.svg import GridView, map_excerpt

    sev = finding.severity.value
    head = (f'<div><span class="sev">{sev.upper()}</span> ({_e(finding.basis.value)}) '
            f"<b>{_e(finding.check)}</b>{(' ' + _e(title)) if title else ''}"
            f"{(' · rule ' + _e(finding.rule)) if finding.rule else ''}</div>")
    parts = [f'<article class="finding {sev}">', head, f'<div class="where">{_e(place(finding))}</div>',
             f'<p class="msg">{_e(finding.message)}</p>']
    if finding.subjects:
        parts.append(f'<div class="where">units: {_e("; ".join(finding.subjects))}</div>')
    picture, shown = None, None
    for shown in view or ():
        picture = map_excerpt(shown, finding.evidence, finding.subjects, caption=f"{finding.check} at {place(finding)}")
        if picture:
            break
    rows = "".join(f"<dt>{_e(k)}</dt><dd>{_e(evidence_value(v))}</dd>" for k, v in finding.evidence.items())
    if picture or rows:
        parts.append('<div class="body">')
        if picture:
            proposed = shown.proposed(finding.evidence) if isinstance(shown, GridView) else []
            caption = shown.title + (f" ({proposed_words(proposed)})" if proposed else "")
            note = shown.layout_note(finding.evidence) if isinstance(shown, GridView) else None
            caption += f" ({note})" if note else ""
            parts.append(f"<figure>{picture}<figcaption>{_e(caption)}</figcaption></figure>")
        if rows:
            parts.append(f'<dl class="evidence">{rows}</dl>')
        parts.append("</div>")
    parts.append("</article>")
    return "".join(parts)


def _dice(report: Report) -> str:
    from vlog.report.svg import dice_chart

    stats = report.dice
    if stats is None:
        return ""
    out = ["<h3>Dice</h3>", '<div class="dice-charts">']
    for group in (*stats.players, *stats.by_name):
        who = f"roll {group.roll_name}" if group.roll_name is not None else (group.player or "(unknown)")
        p = "-" if group.test is None else f"{group.test.p_value:.3g}"
        adj = "-" if group.p_adjusted is None else f"{group.p_adjusted:.3g}"
        title = f"{who} {group.kind}: {group.rolls} rolls, p {p}, p adj {adj}"
        chart = dice_chart(group, title)
        if chart:
            out.append(f"<figure>{chart}<figcaption>{_e(title)}</figcaption></figure>")
    out.append("</div>")
    out.append(f'<p class="legend">Bars: how often each face came up; dashed line: fair dice. p adj: the p-value '
               f"corrected for the groups tested in its family by Holm's step-down method.</p>")
    if stats.rejected:
        out.append("<p>Rolls not counted:</p><ul>" + "".join(
            f"<li>{_e(r.log or '')} step {_e(r.step)}: {_e(r.dice_name)}: {_e(r.reason)}</li>" for r in stats.rejected)
            + "</ul>")
    return "".join(out)


def _checks(report: Report) -> str:
    from vlog.report._common import judged_line

    rows = []
    for check in report.all_checks():
        status = report.status(check.id)
        rows.append(f'<tr><td>{_e(check.id)}</td><td class="status-{status.judgement.value}">'
                    f"{_e(status.judgement.value.replace('-', ' '))}</td><td>{_e(status.reason())}</td></tr>")
    return (f"<details><summary>{_e(judged_line(report))}</summary><div class=\"scroll\"><table>"
            "<tr><th>check</th><th>status</th><th>how it went</th></tr>" + "".join(rows) + "</table></div></details>")


def _report_body(report: Report, view: Any, level: int = 3) -> str:
    from vlog.report.svg import GridView
    from vlog.report.text import summary_line

    titles = {c.id: c.title for c in report.all_checks()}
    out = []
    for log in report.logs:
        shown = tuple(v.for_log(log.boards) if isinstance(v, GridView) else v for v in view) if view else view
        out.append(f"<h{level}>{_e(log.path)} <small>({log.steps} steps, {len(log.findings)} findings)</small></h{level}>")
        turns: dict[str, list[Finding]] = {}
        for f in log.findings:
            turns.setdefault(_turn(f), []).append(f)
        for turn, findings in turns.items():
            out.append(f"<h{level + 1}>{_e(turn)}</h{level + 1}>")
            out.extend(_finding(f, titles.get(f.check), shown) for f in findings)
        if not log.findings:
            out.append("<p>No findings.</p>")
    out.append(_dice(report))
    out.append(_checks(report))
    out.append(f'<p class="summary">{_e(summary_line(report))}</p>')
    return "".join(out)


def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body><main>{body}"
            f'<p class="legend">{escape(LEGEND)}</p></main></body></html>\n')


def map_view(data: Any, module: Any = None) -> Any:
    """The map excerpts' views, tried in turn: the game data's map (the hexes a game finding
    names), then the module's own grids (the map points a generic finding gives), a board it
    draws without a grid laid out by the calibration the data's bindings record for it (None:
    neither)."""
    from vlog.calibration import bound_calibrations
    from vlog.errors import VlogError
    from vlog.report.svg import GridView, MapView

    views: list[Any] = []
    if data is not None:
        try:
            views.append(MapView(data))
        except (VlogError, KeyError, IndexError):
            pass
    if module is not None:
        views.append(GridView(module, bound_calibrations(data)))
    return tuple(views) or None


def render(report: Report, *, redact: Callable[[str], str] | None = None, data: Any = None,
           module: Any = None) -> str:
    """One `vlog check` report as a page; `data` is the game data it was judged with (the maps),
    `module` the module read (its grids draw the maps where there is no game data)."""
    if redact is not None:
        report = report.redacted(redact)
    head = f"<h1>vlog {escape(report.tool_version)}</h1><p>"
    if report.game:
        head += f"game {_e(report.game)} "
    if report.module:
        head += f"· module {_e(report.module)}"
    return _page("vlog report", head + "</p>" + _report_body(report, map_view(data, module)))


def render_batch(batch: Any, *, redact: Callable[[str], str] | None = None,
                 data_for: Callable[[Any], Any] | None = None, module_for: Callable[[Any], Any] | None = None) -> str:
    """A `vlog batch` report as a page: the games' table, then each game; `data_for(game)` gives
    the game data a game was judged with, `module_for(game)` its module (None: no map)."""
    from vlog.report.batch import COLUMNS, DICE_NOTE, NUMERIC, _row, summary_line

    if redact is not None:
        batch = batch.redacted(redact)
    out = [f"<h1>vlog {escape(batch.tool_version)} batch</h1>", f'<p class="summary">{_e(summary_line(batch))}</p>',
           '<div class="scroll"><table class="games"><tr>' + "".join(f"<th>{escape(c)}</th>" for c in COLUMNS) + "</tr>"]
    for game in batch.games:
        cells = _row(game)
        out.append("<tr>" + "".join(
            f'<td{" class=n" if COLUMNS[i] in NUMERIC else ""}>'
            + (f'<a href="#game-{game.index}">{_e(c)}</a>' if i == 0 else _e(c)) + "</td>"
            for i, c in enumerate(cells)) + "</tr>")
    out.append(f'</table></div><p class="legend">{_e(DICE_NOTE)}</p>')
    for game in batch.games:
        out.append(f'<section id="game-{game.index}"><h2>Game {_e(game.name)}</h2><ul>')
        out.extend(f"<li>{_e(path)}: {_e(why)}</li>" for path, why in game.logs)
        out.extend(f'<li class="legend">{_e(note)}</li>' for note in game.notes)
        out.append("</ul>")
        if game.report is None:
            out.append(f"<p><b>Not judged:</b> {_e(game.error or '')}</p></section>")
            continue
        view = map_view(data_for(game) if data_for is not None else None,
                        module_for(game) if module_for is not None else None)
        out.append(_report_body(game.report, view) + "</section>")
    if batch.unreadable:
        out.append("<h2>Files not read</h2><ul>" + "".join(
            f"<li>{_e(p)}: {_e(e)}</li>" for p, e in batch.unreadable) + "</ul>")
    return _page("vlog batch report", "".join(out))
