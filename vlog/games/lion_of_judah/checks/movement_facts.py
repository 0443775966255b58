"""What the judgement of a Lion of Judah move reads besides its start and end hexes: the move's
facts as the log tells them (`MoveFacts`), the unit's allowance (9.3, 10.1.5, 10.3.2, PB 13.6.7.1,
PB 14.6.5, on the kit's `Allowance`), who may force march (11.5.2) and what each forced-march
roll adds (11.5.3, the kit's forced-march table reading).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vlog.engine.judge import Unknown
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.state import Unit
from vlog.kit.allowance import Allowance
from vlog.kit.routes import roll_surcharge

__all__ = ["CORRECTIONS", "DUMMY_FRONT", "DUMMY_MF", "FORCED_MARCH_TABLE", "INTERDICTION_MF", "Interdiction",
           "MoveFacts", "allowance_of", "facts_allowance", "forced_march_surcharge", "may_force_march"]

DUMMY_MF = 4
DUMMY_FRONT = "front"
"""PB 14.6.5: a dummy on its front side has 4 foot MPs (and may not force march, MV-45)."""
INTERDICTION_MF = 2
"""10.1.5: an interdicted unit's movement factors are reduced by two for the segment."""
CORRECTIONS = "whether the drags back ({}) were corrections, not moves (11.1: each hex entered is paid for)"
"""What settles a move whose logged route is too long while its cheapest route fits."""


@dataclass(frozen=True, slots=True)
class Interdiction:
    """Why a unit's MF is two lower this segment (10.1.5): the check that reports a move beyond
    the lower allowance (MV-18 air marker, MV-20 guerrillas), what interdicts, and whether that is
    certain (an Unknown names what would settle it)."""

    check: str
    source: str
    certain: bool | Unknown = True


@dataclass(frozen=True, slots=True)
class MoveFacts:
    """What the log tells about one unit's move besides its start and end hexes."""

    unit: Unit                        # the unit as it was before the move
    start: str
    goal: str
    after_level: str | None = None    # the face/step level it shows after the move
    forced_march_rolls: tuple[int, ...] = ()
    out_of_supply_at_start: bool | Unknown = False
    trucks: int = 0                   # trucks carrying an HQ (10.2.1, 10.3.3)
    motorized_by: int = 0             # trucks motorizing a combat unit: +2 MPs (10.3.2)
    scenario: str | None = None
    turn: int | None = None
    interdiction: Interdiction | None = None    # 10.1.5, PB 14.6.4.1
    path: tuple[str, ...] = ()        # 11.1: the hexes the log shows it dragged to, from `start`
    path_rolls: tuple[tuple[int, ...], ...] = ()   # the forced-march rolls logged before each drag
    rainy: bool = False               # PB 14.6.2.2: the turn is known to be in the rainy season
    extra: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# allowances and forced march


MOTORIZED_BONUS = 2
"""10.3.2: a combat unit motorized by trucks gains two MPs."""


def allowance_of(unit: Unit, oos: bool | Unknown, *, scenario: str | None = None,
                 turn: int | None = None, interdiction: Interdiction | None = None,
                 motorized_by: int = 0) -> tuple[Any, list[str]]:
    """The unit's available MF and the adjustments made (9.3 halving, PB 13.6.7.1 Shoa,
    10.3.2 motorized by trucks: +2 after halving, 10.1.5 interdiction: -2 after that; left
    unapplied when it would leave no MP, so the one-hex minimum move (11.2) is never judged
    away)."""
    allowance = Allowance(unit.movement)
    if unit.kind == "dummy" and unit.level == DUMMY_FRONT:
        allowance.set(DUMMY_MF, "4 foot MPs: a dummy on its front side (PB 14.6.5)")
    if allowance.value is None:
        return Unknown(f"{unit.name} movement factor"), allowance.notes
    if scenario == "1935-36" and turn == 1 and unit.faction == "shoa":
        allowance.cap(4, "4 MPs: Shoa units on turn 1 (PB 13.6.7.1)")
    if oos is True:
        allowance.halve("halved: out of supply at the start of the movement segment (9.3)")
    elif isinstance(oos, Unknown):
        allowance.note("supply at the start of the segment unknown; the full MF is allowed")
    if motorized_by:
        allowance.add(MOTORIZED_BONUS, f"+{MOTORIZED_BONUS}: motorized by {motorized_by} truck(s), "
                                       "at motorized costs (10.3.2)")
    if interdiction is not None:
        allowance.less(INTERDICTION_MF, f"-{INTERDICTION_MF}: interdicted by {interdiction.source} (10.1.5)",
                       above=INTERDICTION_MF)
    return allowance.pair()


def facts_allowance(facts: MoveFacts, *, interdicted: bool = True) -> tuple[Any, list[str]]:
    """`allowance_of` for the unit of a move as its facts tell (`interdicted` False: without the
    interdiction, MV-18/MV-20's comparison)."""
    return allowance_of(facts.unit, facts.out_of_supply_at_start, scenario=facts.scenario, turn=facts.turn,
                        interdiction=facts.interdiction if interdicted else None,
                        motorized_by=facts.motorized_by)


def may_force_march(unit: Unit, oos: bool | Unknown) -> tuple[bool, str]:
    """11.5.2: European units and Eritrean colonial regulars, never HQs, never a unit that
    began the segment out of supply."""
    if unit.kind == "hq":
        return False, "HQs may not force march (11.5.2)"
    if unit.kind == "dummy" and unit.level == DUMMY_FRONT:
        return False, "a dummy on its front side may not force march (PB 14.6.5)"
    if unit.kind != "combat":
        return False, f"a {unit.kind} may not force march (11.5.2)"
    if unit.unit_class == "eritrean-colonial-regular" or unit.european:
        if oos is True:
            return False, "a unit that began its movement out of supply may not force march (11.5.2)"
        return True, ""
    return False, "only European units and Eritrean colonial regulars may force march (11.5.2)"


FORCED_MARCH_TABLE = "forced-march"


def forced_march_surcharge(board: Board, roll: int) -> tuple[Any, str | None]:
    """Extra MPs a forced-march roll adds (11.5.3 example: net 1 -> '1/A', +1 MP)."""
    return roll_surcharge(board.data, FORCED_MARCH_TABLE, roll)
