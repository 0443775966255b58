"""Dice statistics for people (a rich table) and for machines (JSON)."""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from vlog.dicestats import DiceGroupStats, DiceRoll, DiceStats
from vlog.report._common import printable
from vlog.report.text import make_console

# Face histograms wider than this (d100 and the like) are left to the JSON output.
MAX_HISTOGRAM_FACES = 20


def _number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _p(p: float) -> str:
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def _p_value(group: DiceGroupStats) -> str:
    if group.test is None:
        return "-"
    text = _p(group.test.p_value)
    return text if group.test.reliable else text + "*"


def _p_adjusted(group: DiceGroupStats) -> str:
    return "-" if group.p_adjusted is None else _p(group.p_adjusted)


def _histogram(group: DiceGroupStats) -> str:
    if group.dice_rolled:
        if group.n_sides > MAX_HISTOGRAM_FACES:
            return f"{group.n_sides} faces, see JSON"
        return " ".join(f"{face}:{count}" for face, count in enumerate(group.face_counts, start=1))
    return "totals " + " ".join(f"{total}:{count}" for total, count in group.total_counts)


def _who(group: DiceGroupStats) -> str:
    if group.roll_name is not None:
        return f"roll {group.roll_name}"
    return "everyone" if group.everyone else ("(unknown)" if group.player is None else group.player)


def dice_table(stats: DiceStats) -> RenderableType:
    """One row per player and kind of roll, then one per roll name (the dice button: IFT, TH,
    Combat ...) for all players, then one per kind of roll for all players.

    Columns: rolls, mean total (fair expectation), chi-square statistic (degrees of freedom),
    p-value under fair dice, that p-value corrected for the groups tested in its family (Holm),
    and the face histogram (totals when faces are not reported).
    """
    table = Table(title="Dice", box=box.SIMPLE_HEAD, title_justify="left")
    for name in ("group", "dice", "rolls", "mean (fair)", "chi² (df)", "p (fair)", "p adj", "faces"):
        # a d6's histogram ("1:0 2:2 3:0 4:1 5:0 6:1") kept on one line; names wrap first
        table.add_column(Text(name), no_wrap=name != "group", overflow="fold")
    rough = False
    families = ((stats.players, "by player and kind"), (stats.by_name, "by roll name"), (stats.everyone, "by kind"))
    for groups, _ in families:
        for group in groups:
            test = group.test
            rough = rough or (test is not None and not test.reliable)
            cells = (
                _who(group),
                group.kind,
                str(group.rolls),
                f"{_number(group.mean_total)} ({_number(group.expected_total)})",
                "-" if test is None else f"{test.statistic:.2f} ({test.df})",
                _p_value(group),
                _p_adjusted(group),
                _histogram(group),
            )
            table.add_row(*(Text(printable(cell)) for cell in cells))
    notes: list[RenderableType] = []
    counts = ", ".join(f"{sum(1 for g in groups if g.test is not None)} {what}" for groups, what in families)
    notes.append(Text(f"p adj: p corrected by Holm's step-down method for the groups tested in each family ({counts})"))
    if rough:
        notes.append(Text("* some expected counts are below 5: the p-value is only a rough guide"))
    if stats.rejected:
        notes.append(Text(f"{len(stats.rejected)} roll(s) not counted:"))
    for rejected in stats.rejected:
        where = " ".join(p for p in (rejected.log, None if rejected.step is None else f"step {rejected.step}") if p)
        notes.append(Text(printable(f"  {where}: {rejected.dice_name}: {rejected.reason}")))
    return Group(table, *notes) if notes else table


def rolls_table(rolls: Sequence[DiceRoll]) -> RenderableType:
    """Every roll, in log order: log, step, player, roll name, dice, faces and total."""
    table = Table(title="Rolls", box=box.SIMPLE_HEAD, title_justify="left")
    for name in ("log", "step", "player", "roll", "dice", "faces", "total"):
        table.add_column(Text(name), justify="right" if name in ("step", "total") else "left")
    for roll in rolls:
        cells = (roll.log or "-", "-" if roll.step is None else str(roll.step), roll.player or "(unknown)",
                 roll.dice_name, roll.kind, ",".join(map(str, roll.faces)) or "-",
                 "-" if roll.total is None else str(roll.total))
        table.add_row(*(Text(printable(cell)) for cell in cells))
    return table


def roll_dict(roll: DiceRoll) -> dict[str, Any]:
    """One roll as JSON (`vlog dice --rolls --format json`)."""
    return {"log": roll.log, "step": roll.step, "player": roll.player, "roll": roll.dice_name, "dice": roll.kind,
            "faces": list(roll.faces), "total": roll.total}


def render(stats: DiceStats, *, width: int = 100, color: bool = False, rolls: Sequence[DiceRoll] | None = None) -> str:
    """The dice table as text (with every roll listed first when `rolls` is given)."""
    console, buffer = make_console(width=width, color=color)
    if rolls is not None:
        console.print(rolls_table(rolls))
    console.print(dice_table(stats))
    output = buffer.getvalue()
    return output if color else "\n".join(line.rstrip() for line in output.split("\n"))


def render_json(stats: DiceStats, *, indent: int | None = 2, rolls: Sequence[DiceRoll] | None = None) -> str:
    """The statistics as JSON (the `dice` object of schemas/report.schema.json), with a `rolls`
    list of every roll when `rolls` is given."""
    data = stats.to_dict()
    if rolls is not None:
        data["rolls"] = [roll_dict(r) for r in rolls]
    return json.dumps(data, indent=indent, ensure_ascii=True, allow_nan=False) + "\n"
