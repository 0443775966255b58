"""Victory levels (PB 13.4.2, VC-03; PB 14.4.2, VC-07): a result declared in chat must be the
level the scenario's victory-level table gives for the VP total declared with it.

Players announce the end of a scenario in chat, as they do in PBEM, in the form
``Italian 24 VP: Italian tactical victory`` (a VP total and a level, "<side> strategic|tactical
victory", in one line). The level is read from `tables.json` (victory-levels-1935-36 or
-1940-41); a level whose range the data lacks gives POSSIBLE naming that cell.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.checks.common import finding

if TYPE_CHECKING:  # pragma: no cover
    from vlog.gamedata import GameData

__all__ = ["VictoryClaim", "parse_victory_claim", "judge_victory_claim", "LEVEL_TABLES", "LEVEL_CHECKS"]

LEVEL_TABLES = {"1935-36": "victory-levels-1935-36", "1940-41": "victory-levels-1940-41"}
"""The victory-level table of each scenario (PB 13.4.2, 14.4.2)."""
LEVEL_CHECKS = {"1935-36": "VC-03", "1940-41": "VC-07"}
"""The inventory item each scenario's level check reports under."""

_VP = re.compile(r"(?<![\w-])(?P<vp>[-\u2212]?\d{1,4})\s*VPs?\b", re.IGNORECASE)
_LEVEL = re.compile(r"\b(?P<side>italian|ethiopian|allied)\s+(?P<kind>strategic|tactical)\s+victory\b",
                    re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class VictoryClaim:
    """A VP total and the victory level declared with it."""

    vp: int
    level: str
    """Table label, e.g. "italian-tactical"."""
    text: str


def parse_victory_claim(text: str) -> VictoryClaim | None:
    """The VP total and level declared in one chat line, or None when the line has not both."""
    vp, level = _VP.search(text), _LEVEL.search(text)
    if vp is None or level is None:
        return None
    total = int(vp.group("vp").replace("\u2212", "-"))
    return VictoryClaim(total, f"{level.group('side').lower()}-{level.group('kind').lower()}", text.strip())


def _level_name(label: str) -> str:
    side, kind = label.split("-", 1)
    return f"{side.capitalize()} {kind} victory"


def judge_victory_claim(data: "GameData", scenario: str | None, claim: VictoryClaim, *,
                        step: int | None, when: str | None) -> list[Finding]:
    """PROVEN when the declared level is not the one the table gives for the declared VP (or is
    not a level of this scenario); POSSIBLE when a range the answer turns on is not in the data."""
    if scenario not in LEVEL_TABLES:
        return []
    check, table_id = LEVEL_CHECKS[scenario], LEVEL_TABLES[scenario]
    table = data.table(table_id)
    labels = list(table.labels("level").value or ())
    evidence: dict[str, object] = {"vp": claim.vp, "declared": claim.level}
    if claim.level not in labels:
        return [finding(check, Ruling.PROVEN, step=step, when=when,
                        message=f"{_level_name(claim.level)} declared with {claim.vp} VP: the "
                                f"{scenario} scenario has no such level ({', '.join(labels)})",
                        evidence={**evidence, "levels": labels})]
    matching: list[str] = []
    unknown: list[str] = []
    for label in labels:
        datum = table.lookup(label)
        if not datum.known:
            unknown.append(label)
            continue
        low, high = datum.value
        if (low is None or claim.vp >= low) and (high is None or claim.vp <= high):
            matching.append(label)
    if claim.level in matching:
        return []
    if matching:
        actual = matching[0]
        return [finding(check, Ruling.PROVEN, step=step, when=when,
                        message=f"{_level_name(claim.level)} declared with {claim.vp} VP; "
                                f"{claim.vp} VP is an {_level_name(actual)} ({scenario}, "
                                f"{'PB 13.4.2' if scenario == '1935-36' else 'PB 14.4.2'})",
                        evidence={**evidence, "level": actual})]
    if claim.level in unknown:
        depends = [f"tables.json {table_id} cell {label}" for label in unknown]
        return [finding(check, Ruling.POSSIBLE, step=step, when=when,
                        message=f"{_level_name(claim.level)} declared with {claim.vp} VP; the VP range "
                                f"of that level is not in the data",
                        evidence=evidence, depends_on=depends)]
    known_ranges = {label: table.lookup(label).value for label in labels if label not in unknown}
    return [finding(check, Ruling.PROVEN, step=step, when=when,
                    message=f"{_level_name(claim.level)} declared with {claim.vp} VP, outside its range "
                            f"{known_ranges[claim.level]}",
                    evidence={**evidence, "range": known_ranges[claim.level]})]
