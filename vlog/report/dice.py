"""Dice statistics for people (a rich table) and for machines (JSON)."""
from __future__ import annotations

import json

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from vlog.dicestats import DiceGroupStats, DiceStats
from vlog.report._common import printable
from vlog.report.text import make_console

# Face histograms wider than this (d100 and the like) are left to the JSON output.
MAX_HISTOGRAM_FACES = 20


def _number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _p_value(group: DiceGroupStats) -> str:
    if group.test is None:
        return "-"
    p = group.test.p_value
    text = f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"
    return text if group.test.reliable else text + "*"


def _histogram(group: DiceGroupStats) -> str:
    if group.dice_rolled:
        if group.n_sides > MAX_HISTOGRAM_FACES:
            return f"{group.n_sides} faces, see JSON"
        return " ".join(f"{face}:{count}" for face, count in enumerate(group.face_counts, start=1))
    return "totals " + " ".join(f"{total}:{count}" for total, count in group.total_counts)


def dice_table(stats: DiceStats) -> RenderableType:
    """One row per player and kind of roll, then one per kind of roll for all players.

    Columns: rolls, mean total (fair expectation), chi-square statistic (degrees of freedom),
    p-value under fair dice, and the face histogram (totals when faces are not reported).
    """
    table = Table(title="Dice", box=box.SIMPLE_HEAD, title_justify="left")
    for name in ("player", "dice", "rolls", "mean (fair)", "chi² (df)", "p (fair)", "faces"):
        table.add_column(Text(name), no_wrap=name not in ("faces", "player"))
    rough = False
    for group in stats.players + stats.everyone:
        player = "everyone" if group.everyone else ("(unknown)" if group.player is None else group.player)
        test = group.test
        rough = rough or (test is not None and not test.reliable)
        cells = (
            player,
            group.kind,
            str(group.rolls),
            f"{_number(group.mean_total)} ({_number(group.expected_total)})",
            "-" if test is None else f"{test.statistic:.2f} ({test.df})",
            _p_value(group),
            _histogram(group),
        )
        table.add_row(*(Text(printable(cell)) for cell in cells))
    notes: list[RenderableType] = []
    if rough:
        notes.append(Text("* some expected counts are below 5: the p-value is only a rough guide"))
    if stats.rejected:
        notes.append(Text(f"{len(stats.rejected)} roll(s) not counted:"))
    for rejected in stats.rejected:
        where = " ".join(p for p in (rejected.log, None if rejected.step is None else f"step {rejected.step}") if p)
        notes.append(Text(printable(f"  {where}: {rejected.dice_name}: {rejected.reason}")))
    return Group(table, *notes) if notes else table


def render(stats: DiceStats, *, width: int = 100, color: bool = False) -> str:
    """The dice table as text."""
    console, buffer = make_console(width=width, color=color)
    console.print(dice_table(stats))
    output = buffer.getvalue()
    return output if color else "\n".join(line.rstrip() for line in output.split("\n"))


def render_json(stats: DiceStats, *, indent: int | None = 2) -> str:
    """The statistics as JSON (the `dice` object of schemas/report.schema.json)."""
    return json.dumps(stats.to_dict(), indent=indent, ensure_ascii=True, allow_nan=False) + "\n"
