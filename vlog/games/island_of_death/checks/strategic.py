"""Strategic movement (6.2, 4.24b, 4.32b): which units move strategically, as the mover says it.

A VASSAL log does not tell a strategic move from a tactical one; the moving player says it in
his Movement Phase before the units move:

    strategic 8M, 2RWK

Judged for each move of a unit so named, on the pieces as they stand (the enemy does not move
in the phasing player's Movement Phase):

* MOV-07: the unit is more than 2 hexes from every enemy ground unit where it began the phase
  and in every hex it is dropped in;
* SEQ-06: its first move comes before any other unit of the phase has moved (a move taken back,
  the unit dropped where it began, does not count; leaders move with their units). A coastal gun
  counts as a ground unit only possibly (6.2 does not say): POSSIBLE naming it. Where it began
  is held against the enemy units on the map as the phase began (not a militia counter placed
  during it, 16.3). Leaders are not combat units (14.0) and are not counted.

Not judged: the strategic (after-slash) TEC costs, which are on the chart cards (MOV-04 reads
a move far from the enemy as possibly strategic), and the control of the hexes entered at the
start of the phase (2.1: the last player to have had a unit there; the log before it is needed).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.chat import names_listed
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared, Moved

from vlog.games.island_of_death.rules import GRAMMARS, REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

__all__ = ["Strategic", "read_strategic"]

REACH = 2
"""6.2: no strategic mover begins or moves within 2 hexes of an enemy ground unit."""
MOVEMENT_PHASES = ("axis-movement", "allied-movement")
_STRATEGIC = re.compile(r"\s*strategic(?:\s+move(?:ment)?)?\s*:?\s+(.+?)\s*\.?\s*$", re.IGNORECASE)


def read_strategic(line: Any) -> tuple[str, ...] | None:
    """`strategic 8M, 2RWK` -> ('8M', '2RWK'); None for other lines."""
    match = _STRATEGIC.match(line.message)
    if match is None:
        return None
    names = names_listed(match.group(1))
    return names or None


GRAMMARS.add("strategic", read_strategic)


class Strategic(Ledger):
    """The current Movement Phase: the names said to move strategically (with the step), where
    each unit began, the units that moved otherwise, the units reported."""

    def __init__(self, game: "IslandOfDeath") -> None:
        self.game = game
        self.names: dict[str, int | None] = {}
        self.origin: dict[str, str] = {}
        self.others: dict[str, tuple[str, str, int | None]] = {}
        """Units that moved not strategically and are not back where they began: id -> (label,
        counter, step)."""
        self.reported: set[str] = set()
        self.at_start: frozenset[str] | None = None
        """The ids of the units on the map as the phase began (None: not known)."""

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.__init__(self.game)
        self.at_start = frozenset(uid for uid, u in self.game.units(view.before).items() if u.hex is not None)
        return ()


@REGISTRY.check("MOV-07", event=Declared)
def note_strategic(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """Remembers the units said to move strategically in this Movement Phase."""
    phase = game.phase
    if event.grammar != "strategic" or phase is None or phase.name not in MOVEMENT_PHASES:
        return []
    for name in event.declaration:
        game.strategic.names.setdefault(name, event.step)
    return []


@REGISTRY.check("MOV-07", "SEQ-06", event=Moved)
def judge_strategic(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """6.2: a strategic mover far from the enemy, and before all other units."""
    ledger, phase = game.strategic, game.phase
    unit, after = event.before, event.after
    if phase is None or phase.name not in MOVEMENT_PHASES or unit.hex is None or after.hex is None \
            or not unit.is_ground_unit or unit.side != phase.phasing:
        return []
    first = unit.id not in ledger.origin
    origin = ledger.origin.setdefault(unit.id, unit.hex)
    if unit.name not in ledger.names:
        if unit.kind == "leader":
            return []                                  # leaders move with their units
        if after.hex == origin:
            ledger.others.pop(unit.id, None)
        else:
            ledger.others.setdefault(unit.id, (unit.label(), unit.counter, event.step))
        return []
    if unit.id in ledger.reported:
        return []

    def finding(ruling: Ruling, what: str, evidence: dict[str, Any], depends: tuple[str, ...] = (),
                short: str = "MOV-07") -> list["Finding"]:
        ledger.reported.add(unit.id)
        return [game.finding(short, ruling, step=event.step,
                             message=f"{unit.label()} moved strategically {unit.hex} -> {after.hex}: {what}",
                             subjects=(unit.name,),
                             evidence={"unit": unit.counter, "from": unit.hex, "to": after.hex, **evidence},
                             depends_on=depends)]

    if first and ledger.others:
        label, other, step = next(iter(ledger.others.values()))
        return finding(Ruling.PROVEN, f"{label} had already moved in this phase (step {step}): strategic "
                                      f"movers move before all other units (6.2, 4.24b)",
                       {"moved_before": other, "moved_before_step": step}, short="SEQ-06")
    enemies = game.enemies(view.before, unit.side)
    for where, when in ((origin, "began the phase"), (after.hex, "was dropped")):
        near = sorted(((game.board.distance(where, h), u) for h, us in enemies.items() for u in us
                       if u.kind != "leader" and game.board.distance(where, h) <= REACH), key=lambda p: p[0])
        if not near:
            continue
        start = ledger.at_start
        if where == origin and start is not None:            # the enemy as the phase began
            near = [(d, u) for d, u in near if u.id in start]
            if not near:
                continue
        certain = [(d, u) for d, u in near if u.kind != "coastal-gun"]
        distance, enemy = (certain or near)[0]
        evidence = {"hex": where, "enemy_unit": enemy.counter, "enemy_hex": enemy.hex, "distance": distance}
        what = f"it {when} in {where}, {distance} hex{'es' if distance != 1 else ''} from {enemy.label()} in " \
               f"{enemy.hex}: no strategic mover is within {REACH} hexes of an enemy ground unit (6.2)"
        if certain:
            return finding(Ruling.PROVEN, what, evidence)
        return finding(Ruling.POSSIBLE, what + "; wrong if a coastal gun counts as a ground unit there",
                       evidence, ("whether coastal guns count as enemy ground units for strategic movement (6.2)",))
    return []
