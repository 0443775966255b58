"""What a batch concludes: each game's report with how its logs were grouped, and the files that
could not be read; as JSON (schemas/batch-report.schema.json) and back, so that the reports of
shards can be merged (`merge`) into the report the whole batch would have given.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from vlog import __version__
from vlog.errors import BatchError
from vlog.findings import Basis, Report, Severity, fail_threshold

__all__ = ["GameResult", "BatchReport", "merge", "BATCH_FORMAT", "BATCH_FORMAT_VERSION"]

BATCH_FORMAT = "vlog-batch-report"
BATCH_FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game: its place in the batch, its logs in order with how each was grouped, and its
    report (None, with `error`, when it could not be judged)."""

    index: int
    name: str
    game: str | None
    module_name: str | None
    players: tuple[str, ...]
    logs: tuple[tuple[str, str], ...]
    """(path, how it was grouped), in the order judged."""
    report: Report | None = None
    error: str | None = None
    notes: tuple[str, ...] = ()
    """What was chosen for the game and why (its rules, its module)."""
    judged: bool = True
    internal: bool = False
    """`error` is a failure of vlog itself, not of the input."""
    module_path: str | None = None
    """The module file it was judged with (its maps and carried game data), None without one."""

    def counts(self) -> dict[str, int]:
        return self.report.counts() if self.report is not None else {s.value: 0 for s in Severity}

    def bases(self) -> dict[str, int]:
        out = {b.value: 0 for b in Basis}
        if self.report is not None:
            for _, f in self.report.findings():
                out[f.basis.value] += 1
        return out

    @property
    def steps(self) -> int:
        return 0 if self.report is None else sum(log.steps for log in self.report.logs)

    def redacted(self, redact: Callable[[str], str]) -> GameResult:
        return replace(self, players=tuple(redact(p) for p in self.players),
                       report=None if self.report is None else self.report.redacted(redact),
                       error=None if self.error is None else redact(self.error),
                       notes=tuple(redact(n) for n in self.notes))

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "name": self.name,
            "game": self.game,
            "module_name": self.module_name,
            "players": list(self.players),
            "logs": [{"path": p, "grouping": why} for p, why in self.logs],
            "notes": list(self.notes),
            "judged": self.judged,
            "error": self.error,
            "internal": self.internal,
            "module_path": self.module_path,
            "summary": {"logs": len(self.logs), "steps": self.steps, "findings": self.counts(),
                        "basis": self.bases()},
            "report": None if self.report is None else self.report.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        from vlog.report.load import report_from_dict

        return cls(index=data["index"], name=data["name"], game=data["game"], module_name=data["module_name"],
                   players=tuple(data["players"]), logs=tuple((l["path"], l["grouping"]) for l in data["logs"]),
                   report=None if data["report"] is None else report_from_dict(data["report"]),
                   error=data["error"], notes=tuple(data["notes"]), judged=data["judged"],
                   internal=data["internal"], module_path=data["module_path"])


@dataclass(frozen=True, slots=True)
class BatchReport:
    """Every game of the batch (or of one shard of it) and the files that could not be read."""

    games: tuple[GameResult, ...]
    unreadable: tuple[tuple[str, str], ...] = ()
    """(path or pattern, error), in path order."""
    total_games: int = 0
    """Games in the whole batch (a shard judges some of them)."""
    shard: tuple[int, int] | None = None
    tool_version: str = __version__
    started: str | None = None
    player_ids: tuple[str, ...] = field(default=(), compare=False, repr=False)
    """Every player id of every game of the batch, in batch order (for one redaction numbering;
    never written out)."""

    def reports(self) -> list[tuple[GameResult, Report]]:
        return [(g, g.report) for g in self.games if g.report is not None]

    def counts(self) -> dict[str, int]:
        """Findings per severity over every game."""
        return _added([g.counts() for g in self.games], Severity)

    def bases(self) -> dict[str, int]:
        """Findings per basis over every game."""
        return _added([g.bases() for g in self.games], Basis)

    @property
    def worst_severity(self) -> Severity | None:
        return max((r.worst_severity for _, r in self.reports() if r.worst_severity is not None), default=None)

    def count_at_or_above(self, severity: Severity) -> int:
        return sum(r.count_at_or_above(severity) for _, r in self.reports())

    def redacted(self, redact: Callable[[str], str]) -> BatchReport:
        return replace(self, games=tuple(g.redacted(redact) for g in self.games),
                       unreadable=tuple((p, redact(e)) for p, e in self.unreadable))

    def to_dict(self) -> dict[str, Any]:
        """JSON data following schemas/batch-report.schema.json (no timings: the same batch
        gives the same document however many processes judged it)."""
        worst = self.worst_severity
        return {
            "format": BATCH_FORMAT,
            "version": BATCH_FORMAT_VERSION,
            "tool": {"name": "vlog", "version": self.tool_version},
            "shard": None if self.shard is None else {"index": self.shard[0], "count": self.shard[1]},
            "total_games": self.total_games,
            "games": [g.to_dict() for g in self.games],
            "unreadable": [{"path": p, "error": e} for p, e in self.unreadable],
            "summary": {
                "games": len(self.games),
                "logs": sum(len(g.logs) for g in self.games),
                "steps": sum(g.steps for g in self.games),
                "findings": self.counts(),
                "basis": self.bases(),
                "unreadable": len(self.unreadable),
                "not_judged": sum(1 for g in self.games if g.report is None or not g.judged),
                "worst": None if worst is None else worst.value,
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, where: str = "<report>") -> BatchReport:
        if data.get("format") != BATCH_FORMAT or data.get("version") != BATCH_FORMAT_VERSION:
            raise BatchError(f"not a {BATCH_FORMAT} version {BATCH_FORMAT_VERSION} (vlog batch --format json)",
                             file=where, where="$.format")
        shard = data["shard"]
        try:
            return cls(games=tuple(GameResult.from_dict(g) for g in data["games"]),
                       unreadable=tuple((u["path"], u["error"]) for u in data["unreadable"]),
                       total_games=data["total_games"],
                       shard=None if shard is None else (shard["index"], shard["count"]),
                       tool_version=data["tool"]["version"])
        except (KeyError, TypeError, ValueError) as exc:
            raise BatchError(f"a batch report with a missing or wrong field: {exc}", file=where) from None


def _added(parts: Sequence[Mapping[str, int]], kinds: Any) -> dict[str, int]:
    return {k.value: sum(p[k.value] for p in parts) for k in kinds}


def merge(parts: Sequence[tuple[str, BatchReport]]) -> BatchReport:
    """The shards' reports joined into the one the unsharded batch gives: every shard of one
    count present once, each game once, games in batch order. `parts` are (file name, report).
    One report alone is returned as it is (to render it in another format; a shard stays a
    shard, and says so)."""
    if not parts:
        raise BatchError("nothing to merge", file="--merge")
    if len(parts) == 1:
        return parts[0][1]
    counts = {p.shard[1] if p.shard else 1 for _, p in parts}
    if len(counts) != 1:
        raise BatchError("the reports are shards of different counts (--shard K/N with different N)",
                         file=parts[0][0])
    count = counts.pop()
    seen: dict[int, str] = {}
    for name, part in parts:
        k = part.shard[0] if part.shard else 1
        if k in seen:
            raise BatchError(f"shard {k}/{count} is given twice (also in {seen[k]})", file=name)
        seen[k] = name
    missing = sorted(set(range(1, count + 1)) - set(seen))
    if missing:
        raise BatchError(f"shard(s) {', '.join(f'{k}/{count}' for k in missing)} missing: give every shard's report",
                         file=parts[0][0])
    totals = {p.total_games for _, p in parts}
    if len(totals) != 1:
        raise BatchError("the shards were cut from different batches (their game counts differ)", file=parts[0][0])
    games = sorted((g for _, p in parts for g in p.games), key=lambda g: g.index)
    if [g.index for g in games] != list(range(len(games))) or len(games) != next(iter(totals)):
        raise BatchError("the shards do not hold every game of the batch exactly once", file=parts[0][0])
    unreadable = sorted({u for _, p in parts for u in p.unreadable})
    return BatchReport(games=tuple(games), unreadable=tuple(unreadable), total_games=len(games),
                       tool_version=parts[0][1].tool_version)


def fail_exit_code(report: BatchReport, fail_on: str) -> int:
    """1 when a finding of any game is at or above the `fail_on` threshold, else 0."""
    threshold = fail_threshold(fail_on)
    return 0 if threshold is None or not report.count_at_or_above(threshold) else 1
