"""What a replay concludes about a log: `Finding`s gathered in a `Report`.

A readable log that breaks the rules yields findings, never exceptions (see the architecture
page, "two channels for trouble"). Everything here is plain data: renderers in `vlog.report`
turn a `Report` into text, JSON, JUnit, SARIF or GitHub annotations, and `fail_exit_code`
turns it into the exit status a CI job needs.
"""
from __future__ import annotations

import enum
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from vlog import __version__

if TYPE_CHECKING:
    from vlog.dicestats import DiceStats

REPORT_FORMAT = "vlog-report"
REPORT_FORMAT_VERSION = 1

# "<game>/<rule id>" from shared/docs/rules/<game>.md, or "vlog/<name>" for checks any log can be
# judged on; the same pattern is in schemas/report.schema.json.
CHECK_ID = re.compile(r"[a-z0-9][a-z0-9-]*/[A-Za-z0-9][A-Za-z0-9._-]*")

FailOn = Literal["error", "warning", "never"]
FAIL_ON_CHOICES: tuple[str, ...] = ("error", "warning", "never")


@enum.unique
class Severity(enum.Enum):
    """How bad a finding is; ordered so that INFO < WARNING < ERROR."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        """0 for INFO, 1 for WARNING, 2 for ERROR: the order CI thresholds compare on."""
        return _SEVERITY_RANK[self]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank <= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank >= other.rank


_SEVERITY_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


@enum.unique
class Basis(enum.Enum):
    """How firmly a finding is established from what the log shows."""

    PROVEN = "proven"              # no legal explanation exists
    POSSIBLE = "possible"          # depends on data vlog lacks or on facts the log hides
    UNVERIFIABLE = "unverifiable"  # the log does not hold what the rule needs


def _jsonable(value: object, where: str) -> object:
    """Evidence as JSON values: numbers, strings, booleans, null, lists and string-keyed maps."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where}: evidence must be a finite number, not {value!r}")
        return value
    if isinstance(value, enum.Enum):
        return _jsonable(value.value, where)
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v, f"{where}.{k}") for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [_jsonable(v, f"{where}[]") for v in items]
    raise TypeError(f"{where}: evidence of type {type(value).__name__} is not JSON data")


@dataclass(frozen=True, slots=True)
class Finding:
    """One verdict about one step of a log (or the whole log when `step` is None).

    Privacy: a finding names players only by the name or side they show in the game
    ("Italian player", "Bob"), never by a VASSAL player id or password; producers must redact
    those before building a finding, because every renderer prints what it is given. Renderers
    also accept a `redact` hook applied to every text field as a second line of defence, e.g.
    `redact=vlog.vassal.privacy.Redactor(player_ids(log.commands)).text`.

    `evidence` holds the numbers behind the verdict (movement points spent, odds, die roll)
    as JSON data; it is copied into a read-only mapping and left out of the hash.
    """

    check: str
    rule: str
    severity: Severity
    basis: Basis
    step: int | None
    when: str | None
    message: str
    subjects: tuple[str, ...] = ()
    evidence: Mapping[str, object] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if not CHECK_ID.fullmatch(self.check):
            raise ValueError(f"check id {self.check!r} is not of the form 'game/RULE-ID'")
        if not isinstance(self.severity, Severity):
            raise TypeError(f"{self.check}: severity must be a Severity, not {self.severity!r}")
        if not isinstance(self.basis, Basis):
            raise TypeError(f"{self.check}: basis must be a Basis, not {self.basis!r}")
        if self.step is not None and (isinstance(self.step, bool) or self.step < 0):
            raise ValueError(f"{self.check}: step must be a non-negative int or None")
        object.__setattr__(self, "subjects", tuple(self.subjects))
        evidence = _jsonable(dict(self.evidence), f"{self.check} evidence")
        object.__setattr__(self, "evidence", MappingProxyType(evidence))  # type: ignore[arg-type]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and copy) through the constructor: the read-only evidence view cannot be
        pickled itself, and findings cross process boundaries when logs are replayed in parallel."""
        return (
            type(self),
            (self.check, self.rule, self.severity, self.basis, self.step, self.when, self.message,
             self.subjects, dict(self.evidence)),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON data, field for field (enums as their lower-case names)."""
        return {
            "check": self.check,
            "rule": self.rule,
            "severity": self.severity.value,
            "basis": self.basis.value,
            "step": self.step,
            "when": self.when,
            "message": self.message,
            "subjects": list(self.subjects),
            "evidence": _jsonable(dict(self.evidence), "evidence"),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Finding:
        """The inverse of `to_dict` (for reports read back from JSON)."""
        return cls(
            check=data["check"],
            rule=data["rule"],
            severity=Severity(data["severity"]),
            basis=Basis(data["basis"]),
            step=data["step"],
            when=data["when"],
            message=data["message"],
            subjects=tuple(data.get("subjects", ())),
            evidence=dict(data.get("evidence", {})),
        )

    def redacted(self, redact: Callable[[str], str]) -> Finding:
        """A copy with `redact` applied to every text the renderers print."""
        return replace(
            self,
            when=None if self.when is None else redact(self.when),
            message=redact(self.message),
            subjects=tuple(redact(s) for s in self.subjects),
            evidence=_redact_value(dict(self.evidence), redact),  # type: ignore[arg-type]
        )


def _redact_value(value: object, redact: Callable[[str], str]) -> object:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {redact(str(k)): _redact_value(v, redact) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redact_value(v, redact) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class CheckInfo:
    """A check that was run: its id, the rule it enforces and a one-line description."""

    id: str
    rule: str
    title: str | None = None

    def __post_init__(self) -> None:
        if not CHECK_ID.fullmatch(self.id):
            raise ValueError(f"check id {self.id!r} is not of the form 'game/RULE-ID'")

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "rule": self.rule, "title": self.title}


@dataclass(frozen=True, slots=True)
class LogResult:
    """The verdict on one log: how many steps were replayed and what was found."""

    path: str
    steps: int
    findings: tuple[Finding, ...] = ()

    def __post_init__(self) -> None:
        if self.steps < 0:
            raise ValueError(f"{self.path}: steps must be non-negative")
        object.__setattr__(self, "findings", tuple(self.findings))

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "steps": self.steps,
            "findings": [f.to_dict() for f in self.findings],
        }


@dataclass(frozen=True, slots=True)
class Report:
    """Everything one run concluded: the inputs, the checks run and each log's findings.

    `checks` lists the checks that ran on every log, so that a JUnit report can show passing
    test cases too; checks that only appear in findings (such as "vlog/unreadable-entry") are
    added by `all_checks()`.
    """

    logs: tuple[LogResult, ...]
    checks: tuple[CheckInfo, ...] = ()
    game: str | None = None
    module: str | None = None
    sources: tuple[str, ...] = ()
    tool_version: str = __version__
    dice: DiceStats | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "logs", tuple(self.logs))
        object.__setattr__(self, "checks", tuple(self.checks))
        object.__setattr__(self, "sources", tuple(self.sources))
        ids = [c.id for c in self.checks]
        if len(set(ids)) != len(ids):
            raise ValueError("a check is listed twice in the report")

    def findings(self) -> Iterator[tuple[LogResult, Finding]]:
        """Every finding with the log it belongs to, in log order then step order as given."""
        for log in self.logs:
            for finding in log.findings:
                yield log, finding

    def all_checks(self) -> tuple[CheckInfo, ...]:
        """The checks run, then any check id seen only in findings (rule taken from the finding)."""
        known = {c.id for c in self.checks}
        extra: list[CheckInfo] = []
        for _, finding in self.findings():
            if finding.check not in known:
                known.add(finding.check)
                extra.append(CheckInfo(finding.check, finding.rule))
        return self.checks + tuple(extra)

    @property
    def worst_severity(self) -> Severity | None:
        """The most severe finding's severity, None when nothing was found."""
        return max((f.severity for _, f in self.findings()), default=None)

    def count_at_or_above(self, severity: Severity) -> int:
        """How many findings are at least as severe as `severity`."""
        return sum(1 for _, f in self.findings() if f.severity >= severity)

    def counts(self) -> dict[str, int]:
        """Findings per severity, every severity present (zero when none)."""
        out = {s.value: 0 for s in Severity}
        for _, finding in self.findings():
            out[finding.severity.value] += 1
        return out

    def redacted(self, redact: Callable[[str], str]) -> Report:
        """A copy whose findings have `redact` applied to their texts."""
        logs = tuple(
            replace(log, findings=tuple(f.redacted(redact) for f in log.findings))
            for log in self.logs
        )
        return replace(self, logs=logs)

    def to_dict(self) -> dict[str, Any]:
        """JSON data following schemas/report.schema.json."""
        worst = self.worst_severity
        return {
            "format": REPORT_FORMAT,
            "version": REPORT_FORMAT_VERSION,
            "tool": {"name": "vlog", "version": self.tool_version},
            "game": self.game,
            "module": self.module,
            "sources": list(self.sources),
            "checks": [c.to_dict() for c in self.all_checks()],
            "logs": [log.to_dict() for log in self.logs],
            "summary": {
                "logs": len(self.logs),
                "steps": sum(log.steps for log in self.logs),
                "findings": self.counts(),
                "worst": None if worst is None else worst.value,
            },
            "dice": None if self.dice is None else self.dice.to_dict(),
        }


def fail_threshold(fail_on: str) -> Severity | None:
    """The least severity that fails a run for `fail_on`; None for "never"."""
    if fail_on == "error":
        return Severity.ERROR
    if fail_on == "warning":
        return Severity.WARNING
    if fail_on == "never":
        return None
    raise ValueError(f"fail_on must be one of {', '.join(FAIL_ON_CHOICES)}, not {fail_on!r}")


def fail_exit_code(report: Report, fail_on: str = "error") -> int:
    """1 when a finding is at or above the `fail_on` threshold, else 0 (always 0 for "never").

    Severity alone decides; a POSSIBLE error still fails the run, because its message already
    says which missing datum would clear it.
    """
    threshold = fail_threshold(fail_on)
    if threshold is None:
        return 0
    return 1 if report.count_at_or_above(threshold) else 0
