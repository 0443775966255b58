"""`vlog/continuity`: a log must start where the previous file (log or save) ended.

Every game piece is compared by id between the previous file's final table and this log's
starting table: pieces that appeared or vanished, moved (map or position), changed state
(a Layer's level - a counter's side or step -, a mask, a property) or were restacked. Global
properties and turn trackers are compared too. Each difference is an ERROR, PROVEN: the two
files disagree on what was on the table.

Pieces masked or invisible on either side are reported by what the other side sees (their
true name and state only with `referee`), so the report does not reveal hidden units; where an
invisible piece stood is not given either (a masked piece's place is seen by all, as in VASSAL).

When more than SUMMARY_SHARE of the pieces differ (and more than SUMMARY_AFTER), the log is of another game
or another point of it: one finding says so, counting the differences by kind and naming each
piece with its change, instead of burying the report under a finding per piece.
"""
from __future__ import annotations

from typing import Any, Callable

from vlog.findings import Basis, Finding, Severity
from vlog.table import Table, TablePiece

CHECK_ID = "vlog/continuity"
RULE = "A log starts from the position the previous log or save ended with"
TITLE = "continuity with the previous file"


HIDDEN_PLACE = "at a place hidden from the other side"
SUMMARY_AFTER = 10
"""Pieces differing always reported one finding each, however many the two tables hold."""
SUMMARY_SHARE = 0.5
"""The share of the two tables' pieces differing above which the differences are summed up."""


def _hides(p: TablePiece, referee: bool) -> bool:
    """Whether the piece's place is not to be shown: it is invisible to the other side."""
    return p.hidden_by is not None and not referee


Namer = Callable[[Table, tuple], "str | None"]
"""How a point of a table is named (`vlog.calibration.location_namer`), when not as the module's
grids name it."""


def _point(table: Table, p: TablePiece, referee: bool, namer: Namer | None) -> dict[str, Any]:
    if _hides(p, referee):
        return {"hidden": True}
    location = namer(table, p.point) if namer is not None else table.location_name(p)
    return {"map": p.map, "x": p.x, "y": p.y, "location": location}


def _where(table: Table, p: TablePiece, referee: bool, namer: Namer | None) -> str:
    if _hides(p, referee):
        return HIDDEN_PLACE
    return table.where(p, namer(table, p.point) if namer is not None else None)


def _layers(p: TablePiece) -> list[dict[str, Any]]:
    return [{"name": l.name, "level": l.level, "active": l.active, "level_name": l.level_name}
            for l in p.layers]


def _finding(message: str, subjects: tuple[str, ...], evidence: dict[str, Any]) -> Finding:
    return Finding(check=CHECK_ID, rule=RULE, severity=Severity.ERROR, basis=Basis.PROVEN,
                   step=0, when="start of the log", message=message, subjects=subjects,
                   evidence=evidence)


def check(previous: Table, start: Table, *, previous_name: str = "the previous file",
          referee: bool = False, namer: Namer | None = None) -> list[Finding]:
    """Every difference between `previous` (final table before) and `start` (this log's start);
    `namer` names the places (by default as the module's grids do)."""
    findings: list[Finding] = []
    before = {p.id: p for p in previous.game_pieces()}
    after = {p.id: p for p in start.game_pieces()}
    for pid in list(before) + [i for i in after if i not in before]:
        old, new = before.get(pid), after.get(pid)
        if old is not None and new is not None:
            findings.extend(_compare(previous, start, old, new, previous_name, referee, namer))
            continue
        p = new if new is not None else old
        assert p is not None
        table = start if new is not None else previous
        change = "appeared" if new is not None else "vanished"
        name = p.shown_name(referee=referee)
        verb = (f"is on the table at the start but was not at the end of {previous_name}"
                if change == "appeared" else
                f"was on the table at the end of {previous_name} but is not at the start")
        evidence = {"change": change, "previous": previous_name, "piece": pid, "name": name,
                    "concealed": p.concealed, ("after" if new is not None else "before"): _point(table, p, referee, namer)}
        findings.append(_finding(f"{name} (id {pid}) {verb}, {_where(table, p, referee, namer)}", (name, pid), evidence))
    if len(findings) > max(SUMMARY_AFTER, SUMMARY_SHARE * len(before.keys() | after.keys())):
        findings = [_summary(findings, previous_name)]
    findings.extend(_compare_values("global property", previous.global_properties,
                                    start.global_properties, previous_name,
                                    lambda k: f"{k[1]} ({k[0]})"))
    findings.extend(_compare_values("turn tracker", previous.turns, start.turns, previous_name, str))
    return findings


def _summary(pieces: list[Finding], previous_name: str) -> Finding:
    """One finding for many pieces' differences, counted by kind of change."""
    counts: dict[str, int] = {}
    for f in pieces:
        for change in str(f.evidence["change"]).split("+"):
            counts[change] = counts.get(change, 0) + 1
    kinds = ", ".join(f"{n} {change}" for change, n in counts.items())
    names = list(dict.fromkeys(f.subjects[0] for f in pieces))
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return _finding(f"{len(pieces)} pieces differ between the end of {previous_name} and the start ({kinds}): "
                    f"{shown}. This log does not continue that one", tuple(names),
                    {"change": "many", "previous": previous_name, "pieces_differing": len(pieces),
                     "by_change": counts,
                     "pieces": [f"{f.subjects[0]} (id {f.evidence['piece']}): {f.evidence['change']}" for f in pieces]})


def _compare(previous: Table, start: Table, old: TablePiece, new: TablePiece,
             previous_name: str, referee: bool, namer: Namer | None) -> list[Finding]:
    changes: list[str] = []
    evidence: dict[str, Any] = {"previous": previous_name, "piece": old.id}
    concealed = old.concealed or new.concealed
    # named as the other side knew it: by the file where it was visible, if either
    name = (old if not old.concealed or new.concealed else new).shown_name(referee=referee)
    if old.point != new.point:
        changes.append("moved")
        evidence["before"] = _point(previous, old, referee, namer)
        evidence["after"] = _point(start, new, referee, namer)
    if old.comparable_state() != new.comparable_state():
        changes.append("changed")
        if concealed and not referee:
            evidence["state"] = "concealed"
        else:
            if old.name != new.name:
                evidence["names"] = {"before": old.name, "after": new.name}
            if old.layers != new.layers:
                evidence["layers_before"] = _layers(old)
                evidence["layers_after"] = _layers(new)
            if (old.masked_by is None) != (new.masked_by is None):
                evidence["masked"] = {"before": old.masked_by is not None, "after": new.masked_by is not None}
            if (old.hidden_by is None) != (new.hidden_by is None):
                evidence["invisible"] = {"before": old.hidden_by is not None,
                                         "after": new.hidden_by is not None}
            if old.properties != new.properties:
                keys = sorted(set(old.properties) | set(new.properties))
                evidence["properties"] = {k: {"before": old.properties.get(k), "after": new.properties.get(k)}
                                          for k in keys if old.properties.get(k) != new.properties.get(k)}
    if not changes and old.point == new.point:
        i_old = previous.stack_of(old.id)[1]
        i_new = start.stack_of(new.id)[1]
        if i_old is not None and i_new is not None and i_old != i_new:
            changes.append("restacked")
            evidence["stack_index"] = {"before": i_old, "after": i_new}
    if not changes:
        return []
    evidence["change"] = "+".join(changes)
    evidence["concealed"] = concealed
    parts = []
    if "moved" in changes:
        parts.append(f"moved from {_where(previous, old, referee, namer)} to {_where(start, new, referee, namer)}")
    if "changed" in changes:
        parts.append("changed state" + ("" if concealed and not referee else _layer_text(old, new)))
    if "restacked" in changes:
        parts.append("changed its place in the stack")
    message = f"{name} (id {old.id}) {' and '.join(parts)} between the end of {previous_name} and the start"
    return [_finding(message, (name, old.id), evidence)]


def _layer_text(old: TablePiece, new: TablePiece) -> str:
    diffs = []
    for a, b in zip(old.layers, new.layers):
        if a != b:
            label = a.name or "layer"
            diffs.append(f"{label}: {a.level_name or a.level}{'' if a.active else ' (off)'} -> "
                         f"{b.level_name or b.level}{'' if b.active else ' (off)'}")
    return f" ({'; '.join(diffs)})" if diffs else ""


def _compare_values(what: str, before: dict, after: dict, previous_name: str, label) -> list[Finding]:
    """Values both tables hold that differ. A key only one side holds is no discontinuity:
    VASSAL saves only GlobalProperty components, not the properties dice buttons and other
    components set during play (`3d6_result`), so a save written after a roll lacks them."""
    out = []
    for key in before:
        if key in after and before[key] != after[key]:
            out.append(_finding(
                f"{what} {label(key)} was {before.get(key)!r} at the end of {previous_name} "
                f"but is {after.get(key)!r} at the start",
                (label(key),),
                {"change": what, "previous": previous_name, "key": label(key),
                 "before": before.get(key), "after": after.get(key)}))
    return out
