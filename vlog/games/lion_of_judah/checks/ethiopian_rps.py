"""(35) Ethiopian RPs on the map: carried by leaders (PB 13.6.4.2, MV-50), gained by 'R'
results (PB 13.6.4.1, CB-28, `RpGainLedger`) and used in combat (PB 13.6.4.3, CB-27,
`judge_rp_use`: a marker flipped down or removed while a combat is open).

An Ethiopian RP is a marker on a map hex (`logistics.py` says how RP markers show). Only an
Ethiopian leader moves one, and only an RP that began the movement segment stacked with it; a
leader carrying RPs has two MPs fewer ("treat it as a 1-4 unit").

How a log shows a carried RP: the marker is dragged in the same movement segment from the hex
where it and the leader began the segment to the hex the leader is in. `RpCarryLedger` keeps,
per segment, where each moved piece began it; each time a leader or an Ethiopian RP moves it
judges (MV-50):

* an Ethiopian RP moved where no Ethiopian leader began the segment in its hex;
* a leader now stacked with an RP that began the segment with it (so carrying it) whose move
  from its starting hex fits its allowance but not that allowance less two MPs (once per leader
  and segment; a move beyond even the full allowance is MV-03's).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import check_move
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.checks.movement import allowance_of, movement_rules
from vlog.games.lion_of_judah.checks.rp_boxes import rp_value
from vlog.games.lion_of_judah.state import GameState, Unit

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.lion_of_judah.board import Board
    from vlog.games.lion_of_judah.sequence import Phase

__all__ = ["CARRY_PENALTY", "RpCarryLedger", "RpGainLedger", "is_ethiopian_leader", "is_ethiopian_rp",
           "qualifies"]

CARRY_PENALTY = 2
"""PB 13.6.4.2: a leader carrying one or more RPs has -2 MPs."""


def is_ethiopian_rp(unit: Unit) -> bool:
    return unit.kind == "rp" and unit.side == "ethiopian"


def is_ethiopian_leader(unit: Unit) -> bool:
    return unit.kind == "leader" and unit.side == "ethiopian"


class RpCarryLedger:
    """MV-50 (PB 13.6.4.2) over the movement segments of a 1935-36 log."""

    def __init__(self, board: Board):
        self.board = board
        self.segment: tuple[int | None, str] | None = None
        self.origins: dict[str, str] = {}        # unit id -> hex it began the segment in
        self.reported: set[str] = set()          # leaders (and RPs) already reported this segment

    def _start(self, state: GameState, uid: str) -> str | None:
        unit = state.units.get(uid)
        return self.origins.get(uid, unit.hex if unit is not None else None)

    def on_move(self, before: GameState, after: GameState, unit: Unit, to: str,
                phase: Phase | None, phase_bound: bool, *, scenario: str | None,
                oos_at_start: bool | Unknown = False, step: int | None,
                when: str | None) -> list[Finding]:
        """Judge one drag of `unit` to `to` (map hex to map hex)."""
        if scenario != "1935-36" or phase is None or not phase_bound or phase.segment != "movement":
            return []
        key = (phase.turn, phase.key)
        if key != self.segment:
            self.segment, self.origins, self.reported = key, {}, set()
        if unit.hex is None:
            return []
        self.origins.setdefault(unit.id, unit.hex)
        out: list[Finding] = []
        if is_ethiopian_rp(unit):
            out.extend(self._unescorted(before, unit, step=step, when=when))
        if is_ethiopian_rp(unit) or is_ethiopian_leader(unit):
            out.extend(self._carriers(before, after, oos_at_start, scenario=scenario, turn=phase.turn,
                                      step=step, when=when))
        return out

    @REGISTRY.reports("MV-50")
    def _unescorted(self, before: GameState, rp: Unit, *, step: int | None,
                    when: str | None) -> list[Finding]:
        start = self.origins[rp.id]
        leaders = [u for u in before.units.values()
                   if is_ethiopian_leader(u) and self._start(before, u.id) == start]
        if leaders or rp.id in self.reported:
            return []
        self.reported.add(rp.id)
        return [finding("MV-50", Ruling.PROVEN, step=step, when=when, subjects=(rp.name,),
                        message=f"{rp.name} moved from {hex_label(start, self.board)} where no Ethiopian "
                                "leader began the movement segment: only a leader moves an Ethiopian RP, "
                                "and only one that began the segment stacked with it (PB 13.6.4.2)",
                        evidence={"from": start, "rp": rp_value(rp)})]

    def _carriers(self, before: GameState, after: GameState, oos: bool | Unknown, *,
                  scenario: str | None, turn: int | None, step: int | None,
                  when: str | None) -> list[Finding]:
        out: list[Finding] = []
        for leader in after.units.values():
            if not is_ethiopian_leader(leader) or leader.hex is None or leader.id in self.reported:
                continue
            start = self._start(before, leader.id)
            if start is None or start == leader.hex:
                continue
            carried = [u for u in after.units.values() if is_ethiopian_rp(u) and u.hex == leader.hex
                       and self.origins.get(u.id) == start]
            if not carried:
                continue
            found = self._judge(before, leader, start, carried, oos, scenario=scenario, turn=turn,
                                step=step, when=when)
            if found is not None:
                self.reported.add(leader.id)
                out.append(found)
        return out

    @REGISTRY.reports("MV-50")
    def _judge(self, before: GameState, leader: Unit, start: str, carried: list[Unit],
               oos: bool | Unknown, *, scenario: str | None, turn: int | None, step: int | None,
               when: str | None) -> Finding | None:
        goal = leader.hex
        assert goal is not None
        mover = replace(leader, hex=start)
        full, notes = allowance_of(mover, oos, scenario=scenario, turn=turn)
        if isinstance(full, Unknown):
            return None
        reduced = max(full - CARRY_PENALTY, 0)
        state = before
        rules = movement_rules(self.board, state, mover, motorized=False, scenario=scenario)
        plain = check_move(rules, start, goal, full)
        if plain.ruling is not Ruling.LEGAL:
            return None                 # beyond even the full allowance: MV-03 says so
        loaded = check_move(rules, start, goal, reduced)
        if loaded.ruling is Ruling.LEGAL:
            return None
        cost: Any = plain.route.cost if plain.route is not None else None
        rps = sum(rp_value(u) for u in carried)
        return finding(
            "MV-50", loaded.ruling, step=step, when=when, subjects=(leader.name,),
            message=f"{leader.name} carried {rps} Ethiopian RP{'' if rps == 1 else 's'} from "
                    f"{hex_label(start, self.board)} to "
                    f"{hex_label(goal, self.board)}, a move costing {_num(cost)} MPs: a leader carrying "
                    f"RPs has {_num(reduced)} MPs ({_num(full)} less {CARRY_PENALTY}, PB 13.6.4.2)",
            evidence={"from": start, "to": goal, "allowance": _num(full), "allowance_carrying": _num(reduced),
                      "cheapest_cost": _num(cost), "rps_carried": rps, "adjustments": notes,
                      "route": list(plain.route.hexes) if plain.route is not None else None},
            depends_on=loaded.verdict.depends_on)


def _num(value: Any) -> Any:
    if value is None or isinstance(value, int):
        return value
    try:
        return int(value) if value == int(value) else float(value)
    except (TypeError, ValueError):
        return str(value)


# ---------------------------------------------------------------------------------------------
# CB-28: the RP an Ethiopian 'R' result gives (PB 13.6.4.1)


def qualifies(defender: Unit) -> bool | None:
    """PB 13.6.4.1: an Italian or Eritrean unit that is not a colonial irregular gives an RP
    (None: its class is not in the data)."""
    if defender.side != "italian" or defender.kind not in ("combat", "dummy"):
        return False
    if defender.unit_class is None:
        return None
    return "irregular" not in defender.unit_class


class RpGainLedger:
    """CB-28 (PB 13.6.4.1) over the Ethiopian combat segments of a 1935-36 log.

    An Ethiopian RP placed on the map in the Ethiopian combat segment is an 'R' result's: the
    segment must hold an Ethiopian attack against at least one Italian or Eritrean unit that is
    not a colonial irregular, the RP goes to a hex holding an Ethiopian unit that took part in
    such an attack, and no more RPs than such attacks are placed. Whether each attack's result
    was 'R' is not judged here (the CRT cell is CB-19's); an RP with no attack at all before it is
    RR-08's. Attacks are noted when declared (`note_attack`, the open combat included)."""

    def __init__(self, board: Board):
        self.board = board
        self.segment: tuple[int | None, str] | None = None
        self.attacks: dict[int, tuple[str, tuple[Unit, ...] | None, tuple[Unit, ...]]] = {}
        self.placed = 0

    def _open(self, phase: Phase) -> None:
        key = (phase.turn, phase.key)
        if key != self.segment:
            self.segment, self.attacks, self.placed = key, {}, 0

    def note_attack(self, declared_step: int, target: str, attackers: tuple[Unit, ...] | None,
                    before: GameState, side: str | None, phase: Phase | None) -> None:
        """An attack declared at `declared_step` (attackers None when the log does not name them)."""
        if side != "ethiopian" or phase is None or phase.key != "second-combat":
            return
        self._open(phase)
        defenders = tuple(u for u in before.at(target) if u.side not in (None, "ethiopian"))
        self.attacks[declared_step] = (target, attackers, defenders)

    @REGISTRY.reports("CB-28")
    def on_place(self, rp: Unit, after: GameState, phase: Phase | None, phase_bound: bool, *,
                 scenario: str | None, step: int | None, when: str | None) -> list[Finding]:
        if scenario != "1935-36" or not is_ethiopian_rp(rp) or rp.hex is None or phase is None \
                or not phase_bound or phase.key != "second-combat":
            return []
        self._open(phase)
        if not self.attacks:
            return []                   # RR-08: no Ethiopian attack before it in the segment
        self.placed += rp_value(rp)
        where = hex_label(rp.hex, self.board)
        giving = {s: a for s, a in self.attacks.items() if any(qualifies(d) is not False for d in a[2])}
        certain = {s: a for s, a in giving.items() if any(qualifies(d) is True for d in a[2])}
        evidence: dict[str, Any] = {"hex": rp.hex, "attacks": len(self.attacks),
                                    "attacks_giving_rps": len(giving), "rps_placed": self.placed}
        unknown_class = sorted({d.name for a in giving.values() for d in a[2] if qualifies(d) is None})
        deps = [f"the unit class of {name}" for name in unknown_class]
        if not giving:
            return [finding("CB-28", Ruling.PROVEN, step=step, when=when, subjects=(rp.name,),
                            message=f"an Ethiopian RP was placed at {where}, but no Ethiopian attack of "
                                    "the segment was against an Italian or Eritrean unit that is not a "
                                    "colonial irregular (PB 13.6.4.1)", evidence=evidence)]
        took_part = [a for a in giving.values() if a[1] is None
                     or any(u.id in {x.id for x in a[1]} for u in after.at(rp.hex))]
        if not took_part:
            names = sorted({u.name for a in giving.values() for u in (a[1] or ())})
            return [finding("CB-28", Ruling.PROVEN if len(certain) == len(giving) else Ruling.POSSIBLE,
                            step=step, when=when, subjects=(rp.name,),
                            message=f"an Ethiopian RP was placed at {where}, a hex with no Ethiopian unit "
                                    f"that took part in the attack giving it ({', '.join(names)}) "
                                    "(PB 13.6.4.1)",
                            evidence={**evidence, "attackers": names}, depends_on=deps)]
        if self.placed > len(giving):
            return [finding("CB-28", Ruling.PROVEN, step=step, when=when, subjects=(rp.name,),
                            message=f"{self.placed} Ethiopian RPs were placed in the segment (the last at "
                                    f"{where}) for {len(giving)} attack{'' if len(giving) == 1 else 's'} "
                                    "that could give one: an 'R' result gives one RP (PB 13.6.4.1)",
                            evidence=evidence)]
        if len(certain) < len(giving) and self.placed > len(certain):
            return [finding("CB-28", Ruling.POSSIBLE, step=step, when=when, subjects=(rp.name,),
                            message=f"an Ethiopian RP was placed at {where} after attacks whose defenders' "
                                    "classes are not in the data: only a unit that is not a colonial "
                                    "irregular gives one (PB 13.6.4.1)",
                            evidence=evidence, depends_on=deps)]
        return []


# ---------------------------------------------------------------------------------------------
# CB-27: Ethiopian RPs used in a combat (PB 13.6.4.3)

NEGUS = "et-negus"
"""PB 13.6.4.3: units adjacent to the Negus may use up to two RPs in one combat."""


def rps_spent(before: GameState, after: GameState) -> dict[str, int]:
    """Ethiopian RP markers on the map whose RPs went down between two positions (flipped to a
    lower side or removed): marker id -> RPs spent."""
    out: dict[str, int] = {}
    for uid, old in before.units.items():
        if not is_ethiopian_rp(old) or old.hex is None:
            continue
        new = after.units.get(uid)
        left = rp_value(new) if new is not None and new.hex is not None else 0
        if rp_value(old) > left:
            out[uid] = rp_value(old) - left
    return out


@REGISTRY.reports("CB-27")
def judge_rp_use(board: Board, before: GameState, after: GameState, target: str, side: str | None,
                 attackers: tuple[Unit, ...], defenders: tuple[Unit, ...], *, scenario: str | None,
                 step: int | None, when: str | None) -> tuple[int, list[Finding]]:
    """CB-27 (PB 13.6.4.3): Ethiopian RPs spent while a combat was open (declared to closed) give
    1R each to Ethiopian attackers, 1L each to Ethiopian defenders. Returns the net shift (right
    positive) for the combat's odds and the findings: an RP spent where no Ethiopian leader
    stands, or not adjacent to the Ethiopian units of the combat, or more RPs than one (two when
    those units are adjacent to the Negus)."""
    if scenario != "1935-36":
        return 0, []
    spent = rps_spent(before, after)
    if not spent:
        return 0, []
    attacking = side == "ethiopian"
    users = [u for u in (attackers if attacking else defenders) if u.side == "ethiopian" and u.hex is not None]
    if not users:
        return 0, []
    total = sum(spent.values())
    shift = total if attacking else -total
    out: list[Finding] = []
    for uid, n in spent.items():
        rp = before.units[uid]
        where = hex_label(rp.hex or "?", board)
        leaders = [u for u in before.at(rp.hex or "") if is_ethiopian_leader(u)]
        near = [u for u in users if u.hex is not None and board.distance(u.hex, rp.hex) <= 1]
        problems = []
        if not leaders:
            problems.append("no Ethiopian leader is in its hex")
        if not near:
            problems.append("no Ethiopian unit of the combat is in or next to its hex")
        if problems:
            out.append(finding("CB-27", Ruling.PROVEN, step=step, when=when, subjects=(rp.name,),
                               message=f"{n} Ethiopian RP{'' if n == 1 else 's'} at {where} used in the "
                                       f"combat at {hex_label(target, board)}: " + "; ".join(problems)
                                       + " (PB 13.6.4.3)",
                               evidence={"hex": rp.hex, "target": target, "rps_used": n, "problems": problems}))
    negus = any(u.counter == NEGUS and any(board.distance(u.hex, x.hex) <= 1 for x in users)
                for u in before.units.values() if u.hex is not None)
    most = 2 if negus else 1
    if total > most:
        out.append(finding("CB-27", Ruling.PROVEN, step=step, when=when,
                           subjects=tuple(before.units[uid].name for uid in spent),
                           message=f"{total} Ethiopian RPs used in the combat at {hex_label(target, board)}: at "
                                   f"most {most} in one combat (PB 13.6.4.3)",
                           evidence={"target": target, "rps_used": total, "most": most}))
    return shift, out
