"""Combat declarations (9.0-9.16): which hex is attacked and by whom, as the attacker types it.

A VASSAL log does not show which hex a unit attacks; the attacking player says it in chat:

    attack 1210 with 8M, 2RWK          (or "attack 1210 with 8M and 2RWK")
    attack 1210 with 1/34, 2/34; support 28; defensive support 12

The hex is its four-digit number, the units are named as the module names the pieces (several
pieces of one name: any of them). A log without such lines is still judged for everything
else; the combat checks then have nothing to judge. Judged for each declaration, on the table as
it stands when it is typed:

* CBT-01: only the phasing player attacks, in his Combat or Penetration Phase (the Axis also in
  the landing phases: Water's Edge Combat, hostile landings), with units adjacent to the hex
  attacked;
* CBT-02: a unit attacks at most once per Combat Phase (and once per Penetration Phase);
* CBT-03: the hex holds enemy units, and not only leaders, coastal guns or units of defense 0;
* CBT-04: no unit that landed or jumped this turn attacks (18.94, 19.7).

The CRT, the terrain lines and the Bombardment Table are on the chart cards: the result of a
combat is not judged (rules inventory: CBT-14 to CBT-16 need data).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from vlog.engine.judge import Ruling, Unknown
from vlog.kit.combat import SegmentAttacks
from vlog.kit.chat import names_listed
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared

from vlog.games.island_of_death.rules import GRAMMARS, REGISTRY
from vlog.games.island_of_death.terrain import overrunnable

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView
    from vlog.vassal.commands import Chat

__all__ = ["Attack", "read_attack"]

LANDING_COMBAT = ("amphibious-landing", "airborne-landing")
"""Axis attacks outside the Combat Phase: Water's Edge Combat (18.6) and hostile landings (19.5)."""
_ATTACK = re.compile(r"\s*attacks?\s+(?:hex\s+)?(\d{4})(?:\s+with\s+([^;]+?))?\s*\.?\s*(;.*)?$", re.IGNORECASE)
_SUPPORT = re.compile(r"\s*(defensive\s+)?support\s+(.+?)\s*\.?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Attack:
    """One declared attack: the hex and the units named as attacking (empty: not named)."""

    target: str
    attackers: tuple[str, ...]
    support: tuple[str, ...] = ()
    """Artillery and warships named as giving offensive support (none named: none)."""
    defensive_support: tuple[str, ...] = ()


def read_attack(line: "Chat") -> Attack | None:
    """`attack 1210 with 8M, 2RWK` -> Attack('1210', ('8M', '2RWK')); None for other lines."""
    match = _ATTACK.match(line.message)
    if match is None:
        return None
    support: dict[bool, tuple[str, ...]] = {False: (), True: ()}
    for clause in (match.group(3) or "").split(";")[1:]:
        found = _SUPPORT.match(clause)
        if found is None:
            if clause.strip():
                return None
            continue
        support[bool(found.group(1))] += names_listed(found.group(2))
    return Attack(match.group(1), names_listed(match.group(2) or ""), support[False], support[True])




GRAMMARS.add("attack", read_attack)


class Attacks(Ledger):
    """The ledger of the attacks declared in the current phase (vlog/kit/combat.py)."""

    def __init__(self) -> None:
        self.phase_attacks = SegmentAttacks()

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.phase_attacks = SegmentAttacks()
        return ()


@REGISTRY.check("CBT-01", "CBT-02", "CBT-03", "CBT-04")
def judge_attack(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """9.0-9.16 on one declared attack."""
    if event.grammar != "attack":
        return []
    attack: Attack = event.declaration
    phase = game.phase
    units = game.units(view.before)
    speaker = _speaker_side(game, view)
    out: list["Finding"] = []

    def finding(short: str, message: str, evidence: dict[str, Any], ruling: Ruling = Ruling.PROVEN,
                depends_on: tuple[str, ...] = ()) -> None:
        out.append(game.finding(short, ruling, step=event.step, message=message,
                                evidence={"target": attack.target, **evidence}, depends_on=depends_on))

    landing = phase is not None and phase.name in LANDING_COMBAT and speaker in (None, "axis")
    if phase is not None and not landing and ("combat" not in phase.kinds
                                              or (speaker is not None and phase.phasing != speaker)):
        finding("CBT-01", f"an attack on {attack.target} declared in the {game.when_of(phase)}: only the phasing "
                          f"player attacks, in his Combat or Penetration Phase",
                {"phase": phase.name, "declared_by": speaker})
        return out
    attackers = named_units(game, attack.attackers, attack.target, units, speaker)
    side = speaker or (attackers[0].side if attackers else (phase.phasing if phase is not None else None))
    defenders = [u for u in units.values() if u.hex == attack.target and u.is_ground_unit and u.side != side]
    if not defenders:
        finding("CBT-03", f"an attack on {attack.target}, which holds no enemy unit", {"defenders": []})
    else:
        only = overrunnable(defenders)
        if only is True or isinstance(only, Unknown):
            finding("CBT-03", f"an attack on {attack.target}, which holds only "
                              f"{', '.join(u.label() for u in defenders)} (leaders, coastal guns or defense 0)",
                    {"defenders": [u.counter for u in defenders]},
                    Ruling.PROVEN if only is True else Ruling.POSSIBLE,
                    tuple(sorted(only.data)) if isinstance(only, Unknown) else ())
    hostile = landing and phase is not None and phase.name == "airborne-landing"      # 19.5: in the drop hex
    far = {u.name: u.hex for u in attackers
           if game.board.distance(u.hex, attack.target) != 1 and not (hostile and u.hex == attack.target)}
    if far:
        finding("CBT-01", f"{', '.join(far)} attack {attack.target} from a hex not adjacent to it",
                {"not_adjacent": far})
    ledger = game.attacks.phase_attacks
    for unit in attackers:
        before = ledger.first(unit.id)
        if before is not None:
            finding("CBT-02", f"{unit.label()} attacks {attack.target} after attacking {before[0]} "
                              f"(step {before[1]}) in this phase", {"unit": unit.counter, "attacked_before": before[0]})
        else:
            ledger.note(attack.target, (unit.id,), event.step)
        arrived = game.movement.arrived.get(unit.id)
        if arrived is not None and phase is not None and arrived[0] == phase.turn and not landing:
            finding("CBT-04", f"{unit.label()} attacks {attack.target} in the turn it {arrived[1]}",
                    {"unit": unit.counter, "arrived": arrived[1]})
    return out


def named_units(game: "IslandOfDeath", names: Iterable[str], target: str, units: Mapping[str, "Unit"],
                side: str | None, *, ground: bool = True) -> list["Unit"]:
    """The pieces a declaration names, of `side` where it is known; of several pieces of one
    name the one nearest the target (a name said twice: the two nearest)."""
    out: list["Unit"] = []
    for name in names:
        found = [u for u in units.values() if u.name == name and u.hex is not None
                 and (u.is_ground_unit or not ground) and u not in out]
        if side is not None:
            found = [u for u in found if u.side == side] or found
        if found:
            out.append(min(found, key=lambda u: game.board.distance(u.hex, target)))
    return out


def speaker_side(game: "IslandOfDeath", view: "StepView") -> str | None:
    return _speaker_side(game, view)


def _speaker_side(game: "IslandOfDeath", view: "StepView") -> str | None:
    """The side of the player who typed the step's lines, when the log says."""
    players = view.before.table.players.values()
    sides = game.sequence.sides if game.sequence is not None else ()
    for chat in view.chats:
        for player in players:
            if chat.speaker is not None and player.name == chat.speaker and player.side:
                side = player.side.casefold()
                return side if side in sides else None       # a side the data does not name: not told
    return None
