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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from vlog import __version__

if TYPE_CHECKING:
    from vlog.dicestats import DiceStats
    from vlog.coverage import Coverage as BindingCoverage

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


DEPENDS_ON = "depends_on"
"""Evidence key of a POSSIBLE finding: the data that would settle it. Such a finding is an
occasion its check met and could not settle (see `Tally`)."""


@enum.unique
class Judgement(enum.Enum):
    """How one check went on one log."""

    JUDGED = "judged"                  # every occasion it met was settled
    PARTLY = "partly-judged"           # some occasions settled, others not (data missing)
    NOT_JUDGED = "not-judged"          # it could settle nothing: data or input missing
    NOTHING = "nothing-to-judge"       # the log held no occasion of the kind it judges


@dataclass(frozen=True, slots=True)
class Unsettled:
    """An occasion a check met and could not settle: the step and the data that would."""

    step: int | None
    data: tuple[str, ...] = ()
    by: str | None = None
    """The check that met it, when this check's findings are reported by that one."""

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "data": list(self.data), "by": self.by}


MISSING_DATA = "missing data"
NEEDS_MODULE = "needs a module"
OTHER_SCENARIO = "other scenario"
NOT_BOUND = "not bound"
CAUSES = (MISSING_DATA, NEEDS_MODULE, OTHER_SCENARIO, NOT_BOUND)
BINDING_PREFIX = "the binding: "
"""How an occasion resting on the binding (vlog/coverage.py) names what would settle it."""
"""Why a check was not judged: data the game data lacks (named as `vlog data status` names it),
the module the log was written with (to place pieces on hexes), a rule of a scenario the log
does not play, or a module not bound to the game, or not wholly (`vlog bind`)."""


@dataclass(frozen=True, slots=True)
class CheckStatus:
    """What one check judged on one log.

    `judged` counts the steps at which it met an occasion and settled it (a whole-log check
    counts 1); `unsettled` lists the occasions it met and could not settle; `needs` names what
    this run lacks for it (game data as `vlog data status` names it, or an input such as the
    module); `blocked` is the cause (one of `CAUSES`) that kept it from judging anything on this
    run, whatever occasions came; `nothing` says what kind of occasion it waits for.
    """

    check: str
    judged: int = 0
    unsettled: tuple[Unsettled, ...] = ()
    needs: tuple[str, ...] = ()
    nothing: str | None = None
    blocked: str | None = None

    @property
    def judgement(self) -> Judgement:
        if self.blocked:
            return Judgement.NOT_JUDGED
        if self.unsettled:
            return Judgement.PARTLY if self.judged else Judgement.NOT_JUDGED
        if self.judged:
            return Judgement.JUDGED
        return Judgement.NOT_JUDGED if self.needs else Judgement.NOTHING

    @property
    def cause(self) -> str | None:
        """Why it was not (wholly) judged, one of `CAUSES`; None when judged or nothing to judge."""
        if self.blocked:
            return self.blocked
        if self.judgement not in (Judgement.NOT_JUDGED, Judgement.PARTLY):
            return None
        data = [d for u in self.unsettled for d in u.data]
        return NOT_BOUND if data and all(d.startswith(BINDING_PREFIX) for d in data) else MISSING_DATA

    def reason(self) -> str:
        """One line saying how it went: 'judged at 3 steps', 'not judged: missing data: ...'."""
        judged = f"judged at {self.judged} step{'' if self.judged == 1 else 's'}"
        if self.blocked:
            return f"not judged: {self.blocked}: " + needs_text(self.needs)
        data = sorted({d for u in self.unsettled for d in u.data}) or list(self.needs)
        needs = f"{self.cause}: " + (needs_text(data) if data else "data vlog lacks")
        if self.unsettled:
            where = ", ".join("whole log" if u.step is None else f"step {u.step}" for u in self.unsettled)
            met = f"{len(self.unsettled)} occasion{'' if len(self.unsettled) == 1 else 's'} not settled ({where})"
            return f"{judged}; {met}: {needs}" if self.judged else f"not judged: {met}: {needs}"
        if self.judged:
            return judged
        if self.needs:
            return f"not judged: {needs}"
        return "nothing to judge: " + (self.nothing or "no occasion for it in the log")

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.judgement.value,
            "cause": self.cause,
            "reason": self.reason(),
            "judged": self.judged,
            "unsettled": [u.to_dict() for u in self.unsettled],
            "needs": list(self.needs),
        }


SHOWN_NEEDS = 3
"""Data named in a status's one-line reason; the JSON report lists them all."""


def needs_text(items: Iterable[str]) -> str:
    """Data named for people: the first few, then how many more (the JSON report lists all)."""
    items = list(items)
    more = f" and {len(items) - SHOWN_NEEDS} more" if len(items) > SHOWN_NEEDS else ""
    return ", ".join(items[:SHOWN_NEEDS]) + more


class Tally:
    """Gathers, while a log is judged, the occasions each check met and what it lacked: the
    driver counts the occasions the game's inventory declares and reads the findings
    (`observe`), and a game may add what only it knows through `Context.tally`.

    `judged(check, step)` records an occasion settled, `unsettled(check, step, data)` one that the
    named data would settle, `needs(check, data)` data this run lacks for the check (it is not
    judged unless some occasion was settled all the same), `block(check, cause, needs)` what keeps
    it from judging anything (the module missing or not bound, a rule of another scenario). A
    POSSIBLE finding naming its data (evidence `depends_on`) is an occasion not settled, any
    other finding one settled. Occasions are counted by step: a check settling two combats of one
    step has judged that step.
    """

    def __init__(self) -> None:
        self._judged: dict[str, set[int | None]] = {}
        self._unsettled: dict[str, dict[int | None, set[str]]] = {}
        self._needs: dict[str, set[str]] = {}
        self._waits_for: dict[str, str] = {}
        self._blocked: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._outright: set[str] = set()
        self._carriers: dict[str, tuple[str, ...]] = {}
        self._by_kind: dict[str, list[str]] = {}

    def judged(self, check: str, step: int | None) -> None:
        if check not in self._outright:
            self._judged.setdefault(check, set()).add(step)

    def unsettled(self, check: str, step: int | None, data: Iterable[str]) -> None:
        if check not in self._outright:
            self._unsettled.setdefault(check, {}).setdefault(step, set()).update(data)

    def needs(self, check: str, data: Iterable[str]) -> None:
        self._needs.setdefault(check, set()).update(data)

    def block(self, check: str, cause: str, needs: Iterable[str] = (), *, outright: bool = False) -> None:
        """`check` judges nothing on this log for `cause` (one of `CAUSES`): a finding of the
        check all the same outweighs it, unless `outright` (its occasions, recorded or to come,
        then do not count: the module is not bound, the rule is of another scenario)."""
        if cause not in CAUSES:
            raise ValueError(f"unknown cause {cause!r}")
        if outright:
            self._blocked[check] = (cause, tuple(needs))
            self._outright.add(check)
            self._judged.pop(check, None)
            self._unsettled.pop(check, None)
        else:
            self._blocked.setdefault(check, (cause, tuple(needs)))

    def rest_on(self, checks: Iterable[str], data: Sequence[str]) -> None:
        """The occasions these checks settled rest on `data` (a binding that leaves every verdict
        in doubt): each becomes an occasion not settled, at its step."""
        for check in checks:
            for step in self._judged.pop(check, ()):
                self.unsettled(check, step, data)

    def waits_for(self, check: str, what: str, kinds: Iterable[str] = ()) -> None:
        """What kind of occasion `check` judges ('no move in the log'), said when it met none;
        `kinds`, the occasions (event kinds) `met` counts for it."""
        self._waits_for[check] = what
        for kind in kinds:
            self._by_kind.setdefault(kind, []).append(check)

    def met(self, kind: str, step: int | None) -> None:
        """An occasion of `kind` happened at `step`: each check waiting for that kind, unless
        blocked, has judged it (its findings, if any, are read by `observe`). Told for every
        event of a replay, so `judged` is inlined (a check blocked outright is blocked)."""
        blocked, judged = self._blocked, self._judged
        for check in self._by_kind.get(kind, ()):
            if check not in blocked:
                steps = judged.get(check)
                if steps is None:
                    judged[check] = {step}
                else:
                    steps.add(step)

    def reported_by(self, check: str, carriers: Iterable[str]) -> None:
        """`check`'s findings are raised by `carriers` (a part of a rule reported with the whole):
        an occasion a carrier could not settle is one `check` could not settle either."""
        self._carriers[check] = tuple(carriers)

    def observe(self, finding: Finding) -> None:
        data = None
        if finding.basis is Basis.POSSIBLE:     # data would settle it, or a binding (vlog.coverage)
            data = finding.evidence.get(DEPENDS_ON) or [BINDING_PREFIX + b for b in finding.evidence.get("binding") or ()]
        if data:
            self.unsettled(finding.check, finding.step, (str(d) for d in data))  # type: ignore[union-attr]
        else:
            self.judged(finding.check, finding.step)

    def status(self, check: str) -> CheckStatus:
        if check in self._blocked and check not in self._judged and check not in self._unsettled:
            cause, needs = self._blocked[check]
            return CheckStatus(check, needs=needs, blocked=cause)
        unsettled = {step: (set(data), None) for step, data in self._unsettled.get(check, {}).items()}
        for carrier in self._carriers.get(check, ()):
            for step, data in self._unsettled.get(carrier, {}).items():
                unsettled.setdefault(step, (set(), carrier))[0].update(data)
        judged = self._judged.get(check, set()) - set(unsettled)
        return CheckStatus(
            check,
            judged=len(judged),
            unsettled=tuple(Unsettled(step, tuple(sorted(data)), by)
                            for step, (data, by) in sorted(unsettled.items(), key=lambda kv: (kv[0] is not None, kv[0] or 0))),
            needs=tuple(sorted(self._needs.get(check, ()))),
            nothing=self._waits_for.get(check),
        )

    def statuses(self, checks: Iterable[str]) -> tuple[CheckStatus, ...]:
        """The status of each check named, then of any other check an occasion was recorded for."""
        ids = list(dict.fromkeys(checks))
        seen = set(ids)
        for check in (*self._judged, *self._unsettled):
            if check not in seen:
                seen.add(check)
                ids.append(check)
        return tuple(self.status(c) for c in ids)


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
    statuses: tuple[CheckStatus, ...] = ()
    """How each check went on this log (the driver's `Tally`); a check not listed is
    judged from its findings alone (`status`)."""
    seconds: float | None = None
    """How long reading and judging it took (JUnit's `time`), when measured."""
    binding: "BindingCoverage | None" = None
    """How much of the log the game's bindings cover (`vlog.coverage`), None without a game."""
    boards: Mapping[str, tuple[tuple[str, int, int, bool], ...]] = field(default_factory=dict)
    """Map -> the boards the log's starting position lays out on it (board, column, row,
    reversed), as its BoardPicker commands set them: what the map excerpts draw."""
    _by_check: dict[str, CheckStatus] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.steps < 0:
            raise ValueError(f"{self.path}: steps must be non-negative")
        object.__setattr__(self, "findings", tuple(self.findings))
        object.__setattr__(self, "statuses", tuple(self.statuses))
        tally = Tally()
        for finding in self.findings:
            tally.observe(finding)
        by_check = {s.check: s for s in tally.statuses(())}
        by_check.update((s.check, s) for s in self.statuses)
        object.__setattr__(self, "_by_check", by_check)

    def status(self, check: str) -> CheckStatus:
        """How `check` went on this log: as recorded, else read from its findings."""
        return self._by_check.get(check) or CheckStatus(check)

    def to_dict(self, checks: Iterable[str] = ()) -> dict[str, Any]:
        return {
            "path": self.path,
            "steps": self.steps,
            "findings": [f.to_dict() for f in self.findings],
            "checks": [{"id": c, **self.status(c).to_dict()} for c in checks],
            "binding": None if self.binding is None else self.binding.to_dict(),
            "boards": {m: [list(board) for board in layout] for m, layout in self.boards.items()},
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
    started: str | None = None
    """When the run began, ISO 8601 in UTC without zone ('2026-12-01T21:05:00'; JUnit's `timestamp`)."""

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

    def status(self, check: str) -> CheckStatus:
        """How `check` went over all the logs: occasions added up, needs joined."""
        parts = [log.status(check) for log in self.logs]
        return CheckStatus(
            check,
            judged=sum(p.judged for p in parts),
            unsettled=tuple(u for p in parts for u in p.unsettled),
            needs=tuple(sorted({d for p in parts for d in p.needs})),
            nothing=next((p.nothing for p in parts if p.nothing), None),
            blocked=parts[0].blocked if parts and all(p.blocked for p in parts) else None,
        )

    def binding(self) -> "BindingCoverage | None":
        """The binding coverage of all the logs added up (None when no log was measured)."""
        measured = [log.binding for log in self.logs if log.binding is not None]
        if not measured:
            return None
        from vlog.coverage import total

        return total(measured)

    def judgements(self) -> dict[str, int]:
        """How many checks were judged, partly judged, not judged or had nothing to judge."""
        out = {j.value: 0 for j in Judgement}
        for check in self.all_checks():
            out[self.status(check.id).judgement.value] += 1
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
        checks = self.all_checks()
        ids = [c.id for c in checks]
        return {
            "format": REPORT_FORMAT,
            "version": REPORT_FORMAT_VERSION,
            "tool": {"name": "vlog", "version": self.tool_version},
            "game": self.game,
            "module": self.module,
            "sources": list(self.sources),
            "checks": [self._check_dict(c) for c in checks],
            "logs": [log.to_dict(ids) for log in self.logs],
            "summary": {
                "logs": len(self.logs),
                "steps": sum(log.steps for log in self.logs),
                "findings": self.counts(),
                "checks": self.judgements(),
                "binding": None if (binding := self.binding()) is None else binding.to_dict(),
                "worst": None if worst is None else worst.value,
            },
            "dice": None if self.dice is None else self.dice.to_dict(),
        }

    def _check_dict(self, check: CheckInfo) -> dict[str, Any]:
        status = self.status(check.id)
        unsettled = [{"log": log.path, **u.to_dict()} for log in self.logs for u in log.status(check.id).unsettled]
        return {**check.to_dict(), **status.to_dict(), "unsettled": unsettled}

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
