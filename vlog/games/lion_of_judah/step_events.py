"""What a logged step does in Lion of Judah terms, as typed events (vlog/kit/steps.py).

The interpreter (interpret.py) reads each step into these, in the order it reads them; each
says what it carries. Their kinds (`Event.kind`: "move", "combat", "appear" ...) are the
occasions data/inventory.json lists for the checks that judge them, so the replay counts a
check judged at each step holding one.

Every event carries the phase as findings name it (`when`), read when the event was.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from vlog.kit.steps import Event, PhaseChanged

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.lion_of_judah.state import GameState, Unit
    from vlog.kit.combat import OpenCombat

__all__ = ["Play", "Move", "PhaseTurned", "Combat", "Appear", "StepGain", "Reveal", "DummyFlip", "EventMarker",
           "ActivationDeclaration", "ActivationRoll", "EthiopianRemoval", "Logistics", "VictoryClaimed",
           "Judged",
           "DesertionJudged", "ReinforcementsJudged", "MarkersJudged"]


@dataclass(frozen=True, slots=True)
class Play(Event):
    """An event of play (a move, a combat, a placement, a declaration ...), as against what
    the engine reads about play (the RP ledger's view of a step, findings judged as read, a
    claim of the result): play after the game ended is reported (VC-04, VC-08), and fuel, the
    Negus and the IPL follow it (1940-41)."""


@dataclass(frozen=True, slots=True)
class Move(Play):
    """A unit moved on the map (not a combat's advance): from `unit.hex` to `to` (None: off the
    map, into a box), with the die rolls logged since its side's last move."""

    unit: "Unit"
    to: str | None
    after_level: str | None = None
    forced_march_rolls: tuple[int, ...] = ()
    """The rolls that are its forced-march rolls (a combat unit's; 11.5.3)."""
    rolls: tuple[int, ...] = ()
    """Every roll since that side's last move (AR-05 reads the last)."""
    before: "GameState | None" = None
    after: "GameState | None" = None
    when: str | None = None


@dataclass(frozen=True, slots=True)
class PhaseTurned(PhaseChanged):
    """A phase change as Lion of Judah hears it (its own `sequence.Phase`s): `bound` when the
    turn track shows the phase, `state` the position the change is judged on (before the step),
    `shown` the position after the step that showed it (None when inferred from play)."""

    KIND: ClassVar[str] = "phase"

    state: "GameState | None" = None
    shown: "GameState | None" = None


@dataclass(frozen=True, slots=True)
class Combat(Play):
    """A combat, closed: the attack declared at `step` (`pending`, vlog/kit/combat.py), its
    attackers and defenders, closed at step `closed_at`."""

    pending: "OpenCombat"
    attackers: tuple["Unit", ...] = ()
    defenders: tuple["Unit", ...] = ()
    when: str | None = None
    closed_at: int | None = None


@dataclass(frozen=True, slots=True)
class Appear(Play):
    """A unit placed on the map (a reinforcement, a rebuilt unit, an air mission)."""

    unit: "Unit"
    hex: str | None = None
    before: "GameState | None" = None
    after: "GameState | None" = None
    when: str | None = None


@dataclass(frozen=True, slots=True)
class StepGain(Play):
    """A unit gained steps where it stands, outside any combat (replacements 7.3.3, a
    consolidation 2.5 with the breakdown units it took in)."""

    unit: "Unit"
    steps_after: int
    consolidated_with: list[str] = field(default_factory=list)
    before: "GameState | None" = None
    after: "GameState | None" = None
    when: str | None = None


@dataclass(frozen=True, slots=True)
class Reveal(Play):
    """A unit flipped from its ?-side outside a combat, to `level`."""

    unit: "Unit"
    level: str | None = None
    when: str | None = None


@dataclass(frozen=True, slots=True)
class DummyFlip(Play):
    """A dummy flipped or taken off the map outside a combat (FW-06); `entered`: an enemy unit
    entered its hex in this step or the one before."""

    unit: "Unit"
    level: str | None = None
    entered: bool = False
    removed: bool = False
    when: str | None = None


@dataclass(frozen=True, slots=True)
class EventMarker(Play):
    """An event marker came, went or changed place (checks/events.py)."""

    marker: str
    old: "Unit | None" = None
    new: "Unit | None" = None
    before: "GameState | None" = None
    after: "GameState | None" = None
    when: str | None = None


@dataclass(frozen=True, slots=True)
class ActivationDeclaration(Play):
    """(35) An Ethiopian declaration in chat (checks/activation_rules.py)."""

    declaration: Any
    when: str | None = None


@dataclass(frozen=True, slots=True)
class ActivationRoll(Play):
    """(35) The die roll a declared activation or attrition waited for."""

    roll: int
    when: str | None = None


@dataclass(frozen=True, slots=True)
class EthiopianRemoval(Play):
    """(35) An Ethiopian unit taken off the map in the End of Turn Phase (attrition)."""

    unit: "Unit"
    when: str | None = None


@dataclass(frozen=True, slots=True)
class Logistics(Event):
    """The step as the RP ledger sees it once read: the positions around it, the phase before
    and after, the step's other events and the attacks declared in it (checks/logistics.py)."""

    before: "GameState"
    after: "GameState"
    old: Any = None
    new: Any = None
    bound: bool = False
    events: tuple[Event, ...] = ()
    declarations: tuple[tuple[Any, str | None, "GameState"], ...] = ()
    when: str | None = None


@dataclass(frozen=True, slots=True)
class VictoryClaimed(Event):
    """VP totals or a victory level declared in chat (VC-03, VC-07), with the turn and the
    position after the step."""

    KIND: ClassVar[str] = "victory-claim"

    claim: Any
    when: str | None = None
    turn: int | None = None
    state: "GameState | None" = None


@dataclass(frozen=True, slots=True)
class Judged(Event):
    """Findings made as the step was read, by a ledger that needs the whole step (the colonial
    desertion SC-04, the Ethiopian reinforcements RR-05, the General Records Track markers SU-03
    and VC-02), reported in their place among the step's events."""

    findings: tuple["Finding", ...] = ()


@dataclass(frozen=True, slots=True)
class DesertionJudged(Judged):
    """(40) SC-04: the colonial desertion roll and the units it removed (checks/desertion.py)."""

    KIND: ClassVar[str] = "desertion"


@dataclass(frozen=True, slots=True)
class ReinforcementsJudged(Judged):
    """(35) RR-05: the Ethiopian reinforcements of a MAP (checks/ethiopian_reinforcements.py)."""

    KIND: ClassVar[str] = "reinforcement-count"


@dataclass(frozen=True, slots=True)
class MarkersJudged(Judged):
    """(35) SU-03, VC-02: the General Records Track markers (checks/vp_history.py)."""

    KIND: ClassVar[str] = "vp-markers"
