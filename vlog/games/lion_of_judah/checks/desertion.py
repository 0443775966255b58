"""(40) Italian colonial desertion at the end of each MAP (SC-04; PB 14.6.3.1, 14.5, Extended SoP x).

One d6 on the Italian colonial desertion table, modified by the IPL (low +1, high -1; table
ipl-effects), by how well Ethiopia is garrisoned, and +1 when the Allied player bribes (one RP,
announced before the roll). Each deserter is one Italian colonial unit (regular or irregular)
removed from the game wherever it is, without inspecting a ?-side unit.

How a log shows it. VASSAL logs no table lookup, so the roll is told apart from the other rolls
of the MAP (the guerrilla recruitment roll, step ix, comes just before it) by a chat line, as
attacks and activations are declared:

* ``desertion`` (or ``desertion roll``) -- the first die roll logged with it or after it in the
  MAP is the desertion roll;
* ``desertion bribe`` -- the Allied bribe, before that roll.

Without a ``desertion`` line the Extended Sequence of Play is followed: desertion (x) is the MAP's
last step, after guerrilla recruitment (ix), so the desertion roll is read as the last die roll
logged in the MAP before the first colonial unit is removed; the count is then judged POSSIBLE
only, naming that reading.

Judged in the MAP the turn track shows: a colonial unit removed before any desertion roll; an
Italian unit other than a colonial one removed after the roll (breakdown units, columns, HQs,
trucks and markers leave the map for other reasons); a colonial unit that showed its ?-side
when the MAP began and is removed showing its factors; more colonial units removed than the
table allows for any modified roll the modifiers permit. The garrison modifier's scale is on
the player aid card: the table's ``garrison_drm`` property is read as its largest size, of either
sign (unknown with the shipped data: POSSIBLE naming it). Which player removes the second unit
when the IPL is zero is not judged.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.gamedata import GameData
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.checks.fuel import IPL_MARKER, marker_value
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["DesertionWatch", "parse_desertion", "is_colonial", "allowed_deserters", "TABLE"]

TABLE = "colonial-desertion"
_DECLARATION = re.compile(r"^\s*desertion(?:\s+roll)?\s*[.!]?\s*$", re.IGNORECASE)
_BRIBE = re.compile(r"^\s*desertion\s+bribe\s*[.!]?\s*$", re.IGNORECASE)
MAX_DECLARATION = 200
NOT_DESERTERS = ("breakdown", "column")
"""Italian unit types that leave the map in a MAP for other reasons (2.4, 2.5)."""
INFERRED = "the desertion roll (no 'desertion' line: read as the MAP's last roll before the removal)"


def parse_desertion(text: str) -> str | None:
    """'roll' for a desertion declaration, 'bribe' for the Allied bribe, None otherwise (`text`:
    a player's chat line without its speaker; long lines are not read)."""
    if not isinstance(text, str) or len(text) > MAX_DECLARATION:
        return None
    if _BRIBE.match(text):
        return "bribe"
    if _DECLARATION.match(text):
        return "roll"
    return None


def is_colonial(unit: Unit) -> bool:
    """An Italian colonial unit, regular or irregular (PB 14.6.3.1)."""
    return unit.side == "italian" and "colonial" in (unit.unit_class or "") and unit.kind == "combat"


def _ipl_drms(data: GameData, state: GameState) -> tuple[set[int], int | None, list[str]]:
    """(the IPL modifiers possible, the IPL shown, the data missing)."""
    ipl, _ = marker_value(data, state, IPL_MARKER)
    table = data.table("ipl-effects")
    props = table["properties"] if "properties" in table else {}
    low = props["low_max"].value if "low_max" in props else None
    high = props["high_min"].value if "high_min" in props else None
    levels: Iterable[str] = ("low", "medium", "high")
    if isinstance(ipl, int) and low is not None and high is not None:
        levels = ("low",) if ipl <= low else ("high",) if ipl >= high else ("medium",)
    out: set[int] = set()
    missing: list[str] = []
    for level in levels:
        cell = table.lookup(level, TABLE)
        if isinstance(cell.value, int):
            out.add(cell.value)
        else:
            missing.append(f"tables.json ipl-effects {level} {TABLE}")
    return out or {0}, ipl, missing


def allowed_deserters(data: GameData, state: GameState, roll: int, *, bribed: bool
                      ) -> tuple[int | None, dict[str, object], list[str]]:
    """(the most deserters any modified roll allows, the modifiers, the data missing)."""
    table = data.table(TABLE)
    props = table["properties"] if "properties" in table else {}
    ipl_drms, ipl, missing = _ipl_drms(data, state)
    garrison = props["garrison_drm"].value if "garrison_drm" in props else None
    if isinstance(garrison, int):
        garrison_drms = set(range(-abs(garrison), abs(garrison) + 1))
    else:
        garrison_drms = {0}
        missing.append(f"tables.json {TABLE} properties.garrison_drm")
    bribe = props["allied_bribe_drm"].value if bribed and "allied_bribe_drm" in props else 0
    bribe = bribe if isinstance(bribe, int) else 0
    modified = sorted({roll + i + g + bribe for i in ipl_drms for g in garrison_drms})
    most: int | None = None
    for value in modified:
        cell = table.lookup(str(value))
        if isinstance(cell.value, int):
            most = cell.value if most is None else max(most, cell.value)
        else:
            missing.append(f"tables.json {TABLE} roll {value}")
    evidence: dict[str, object] = {"roll": roll, "ipl": ipl, "ipl_drm": sorted(ipl_drms),
                                   "garrison_drm": sorted(garrison_drms), "bribe_drm": bribe,
                                   "modified": modified}
    return most, evidence, missing


@dataclass
class DesertionWatch:
    """The desertion roll and the colonial units removed in the current MAP."""

    turn: int | None = None
    hidden_at_start: dict[str, bool] = field(default_factory=dict)
    declared: bool = False
    bribe: bool = False
    roll: int | None = None
    roll_step: int | None = None
    state_at_roll: GameState | None = None
    map_rolls: list[tuple[int, int, GameState]] = field(default_factory=list)
    """Every die roll logged in the MAP: (total, step, the position before that step)."""
    deserters: list[str] = field(default_factory=list)
    count_reported: bool = False

    def _begin(self, turn: int, state: GameState) -> None:
        fresh = DesertionWatch(turn=turn)
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(fresh, name))
        self.hidden_at_start = {u.id: u.hidden for u in state.units.values() if is_colonial(u)}

    @REGISTRY.reports("SC-04")
    def note_step(self, board: Board, data: GameData, *, step: int, before: GameState, after: GameState,
                  rolls: Sequence[int], chats: Sequence[str], turn: int | None, in_map: bool,
                  when: str | None) -> list[Finding]:
        """Findings for one logged step (nothing outside a MAP the turn track shows)."""
        if not in_map or turn is None:
            self.turn = None
            return []
        if self.turn != turn:
            self._begin(turn, before)
        out: list[Finding] = []
        said = [p for p in (parse_desertion(c) for c in chats) if p is not None]
        if "bribe" in said:
            if self.declared and self.roll is not None:
                out.append(finding("SC-04", Ruling.PROVEN, step=step, when=when,
                                   message=f"the Allied bribe was announced after the desertion roll "
                                           f"({self.roll}, step {self.roll_step}); it must come before it",
                                   evidence={"roll": self.roll, "roll_step": self.roll_step}))
            else:
                self.bribe = True
        if "roll" in said and not self.declared:
            self.declared, self.roll, self.roll_step = True, None, None
        remaining = list(rolls)
        if self.declared and self.roll is None and remaining:
            self.roll, self.roll_step, self.state_at_roll = remaining[0], step, before
        self.map_rolls += [(r, step, before) for r in rolls]
        removed = [u for uid, u in before.units.items() if u.hex is not None
                   and (uid not in after.units or after.units[uid].hex is None)]
        for unit in removed:
            out += self._removed(board, data, unit, step=step, when=when)
        return out

    @REGISTRY.reports("SC-04")
    def _removed(self, board: Board, data: GameData, unit: Unit, *, step: int, when: str | None) -> list[Finding]:
        where = hex_label(unit.hex or "", board)
        if unit.side != "italian" or unit.kind != "combat" or unit.unit_type in NOT_DESERTERS:
            return []
        inferred = not self.declared
        rolls_before = [r for r in self.map_rolls if r[1] < step]
        if not is_colonial(unit):
            if self.roll is None:
                return []
            return [finding("SC-04", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                            message=f"{unit.name} was removed at {where} after the desertion roll; only "
                                    "Italian colonial units desert",
                            evidence={"hex": unit.hex, "unit_class": unit.unit_class, "roll": self.roll})]
        out: list[Finding] = []
        if self.roll is None and (self.declared or not rolls_before):
            out.append(finding("SC-04", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                               message=f"{unit.name} was removed at {where} in the MAP of turn {self.turn} "
                                       "before the desertion roll; deserters are removed after it",
                               evidence={"hex": unit.hex, "turn": self.turn}))
            return out
        if self.hidden_at_start.get(unit.id) and not unit.hidden:
            out.append(finding("SC-04", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                               message=f"{unit.name} was removed at {where} as a deserter showing its "
                                       "factors; ?-side units are removed without being inspected",
                               evidence={"hex": unit.hex, "level": unit.level}))
        if inferred and self.roll is None:
            self.roll, self.roll_step, self.state_at_roll = rolls_before[-1]
        self.deserters.append(unit.name)
        if self.count_reported or self.roll is None or self.state_at_roll is None:
            return out
        most, evidence, missing = allowed_deserters(data, self.state_at_roll, self.roll, bribed=self.bribe)
        if most is not None and len(self.deserters) <= most:
            return out
        if most is None and not missing:
            return out
        ruling = Ruling.PROVEN if not missing and not inferred else Ruling.POSSIBLE
        self.count_reported = True
        allows = (f"the table allows at most {most}" if most is not None
                  else "the desertion table's result")
        out.append(finding("SC-04", ruling, step=step, when=when, subjects=tuple(self.deserters),
                           message=f"{unit.name} is colonial deserter number {len(self.deserters)} of the MAP of "
                                   f"turn {self.turn}; desertion roll {self.roll} (modified "
                                   f"{'/'.join(map(str, evidence['modified']))}): {allows}",
                           evidence={**evidence, "turn": self.turn, "removed": list(self.deserters),
                                     "most": most, "roll_step": self.roll_step},
                           depends_on=missing + ([INFERRED] if inferred else [])))
        return out
