"""A JSON report (schemas/report.schema.json) read back into a `Report`.

`vlog batch --merge` joins the JSON reports of shards and renders them in any format, so what a
report holds must come back whole: findings, how each check went on each log (its status, counts,
occasions not settled and the data named), the binding coverage and the dice statistics.
`report_from_dict(r.to_dict()).to_dict() == r.to_dict()` for every report.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vlog.coverage import Coverage
from vlog.dicestats import CORRECTION, ChiSquareTest, DiceGroupStats, DiceStats, RejectedRoll
from vlog.findings import MISSING_DATA, CheckInfo, CheckStatus, Finding, Judgement, LogResult, Report, Unsettled

__all__ = ["report_from_dict", "status_from_dict", "coverage_from_dict", "dice_from_dict"]

_NOTHING = "nothing to judge: "


def status_from_dict(data: Mapping[str, Any]) -> CheckStatus:
    """A check's status on one log, from its `logs[].checks[]` entry."""
    judgement = Judgement(data["status"])
    unsettled = tuple(Unsettled(u["step"], tuple(u["data"]), u.get("by")) for u in data["unsettled"])
    blocked = None
    if judgement is Judgement.NOT_JUDGED and not unsettled and data["cause"] not in (None, MISSING_DATA):
        blocked = data["cause"]
    reason = data["reason"]
    nothing = reason[len(_NOTHING):] if judgement is Judgement.NOTHING and reason.startswith(_NOTHING) else None
    return CheckStatus(data["id"], judged=data["judged"], unsettled=unsettled, needs=tuple(data["needs"]),
                       nothing=nothing, blocked=blocked)


def coverage_from_dict(data: Mapping[str, Any] | None) -> Coverage | None:
    if data is None:
        return None
    return Coverage(
        pieces=data["pieces"]["on_table"], pieces_bound=data["pieces"]["bound"],
        unbound_pieces=tuple(data["pieces"]["unbound"]),
        placed=data["locations"]["seen"], placed_bound=data["locations"]["bound"],
        unbound_locations=tuple(data["locations"]["unbound"]),
        stepped=data["layers"]["stepped_pieces"], stepped_bound=data["layers"]["confirmed"],
        unconfirmed_layers=tuple(data["layers"]["unconfirmed"]),
        phases=data["phases"]["items"], phases_known=data["phases"]["known"],
        unknown_phases=tuple(data["phases"]["unknown"]),
        module_mismatch=data["module_mismatch"],
        proposed_calibrations=tuple(data.get("calibrations", {}).get("proposed", ())),
    )


def _group(data: Mapping[str, Any]) -> DiceGroupStats:
    test = data["test"]
    return DiceGroupStats(
        player=data["player"], everyone=data["everyone"], n_dice=data["n_dice"], n_sides=data["n_sides"],
        names=tuple(data["names"]), rolls=data["rolls"], dice_rolled=data["dice_rolled"],
        face_counts=tuple(data["face_counts"]), mean_face=data["mean_face"], mean_total=data["mean_total"],
        total_counts=tuple((t, c) for t, c in data["total_counts"]),
        test=None if test is None else ChiSquareTest(test["basis"], test["statistic"], test["df"],
                                                     test["p_value"], test["min_expected"]),
        roll_name=data.get("roll_name"), p_adjusted=data.get("p_adjusted"),
    )


def dice_from_dict(data: Mapping[str, Any] | None) -> DiceStats | None:
    if data is None:
        return None
    return DiceStats(
        players=tuple(_group(g) for g in data["players"]),
        everyone=tuple(_group(g) for g in data["everyone"]),
        logs=tuple(data["logs"]),
        rejected=tuple(RejectedRoll(r["log"], r["step"], r["dice_name"], r["reason"]) for r in data["rejected"]),
        by_name=tuple(_group(g) for g in data.get("by_name", ())),
        correction=(data.get("correction") or {}).get("method", CORRECTION),
    )


def report_from_dict(data: Mapping[str, Any]) -> Report:
    """The `Report` a `vlog check --format json` document (or a game of a batch report) holds."""
    logs = tuple(
        LogResult(log["path"], log["steps"], tuple(Finding.from_dict(f) for f in log["findings"]),
                  tuple(status_from_dict(c) for c in log["checks"]), binding=coverage_from_dict(log["binding"]),
                  boards={m: tuple((b[0], b[1], b[2], b[3]) for b in layout)
                          for m, layout in (log.get("boards") or {}).items()})
        for log in data["logs"]
    )
    # the listed checks include those seen only in findings (`Report.all_checks`): listed as run, they
    # render the same
    checks = tuple(CheckInfo(c["id"], c["rule"], c.get("title")) for c in data["checks"])
    return Report(logs=logs, checks=checks, game=data["game"], module=data["module"],
                  sources=tuple(data["sources"]), tool_version=data["tool"]["version"],
                  dice=dice_from_dict(data["dice"]))
