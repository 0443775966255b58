"""What the sequence of play allows each phase and side (TS-02, MV-04), and what the hidden
side of a unit allows (FW-02, FW-04).

TS-02 (5.2): units move only in movement segments (in the Mutual Administration Phase by rail,
11.7, or sea, 11.8: checks/rail.py, checks/movement.py) and attacks are declared only in combat
segments (in 1935-36 also in the second movement segment). MV-04 (11.1): only the phasing side's units
move in a movement segment. FW-04 (2.3.7, PB 13.3.2, 14.6.4.1): colonial irregulars, guerrillas
and the Ethiopian levies enter play ?-side up. FW-02 (2.3.7, 12.3): a ?-side unit is flipped only
when revealed in a combat.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from vlog.engine.judge import Ruling
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.sequence import side_name
from vlog.games.lion_of_judah.step_events import Reveal

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.lion_of_judah.sequence import Phase
    from vlog.games.lion_of_judah.state import Unit

__all__ = ["HIDDEN_CLASSES", "judge_move_out_of_segment", "judge_attack_out_of_segment", "judge_off_side_move",
           "judge_hidden_entry", "judge_flip_outside_combat"]

HIDDEN_CLASSES = ("italian-colonial-irregular", "guerrilla")
"""2.3.7, PB 13.3.2, 14.6.4.1: units (with the Ethiopian levies) that enter play ?-side up."""


@REGISTRY.reports("TS-02")
def judge_move_out_of_segment(unit: "Unit", phase: "Phase", *, step: int, when: str | None) -> list["Finding"]:
    """A unit moved in a phase the turn track shows is no movement segment (nor the MAP)."""
    return [finding("TS-02", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                    message=f"{unit.name} moved in the {phase.name}, "
                            "where units do not move (advances after combat excepted)",
                    evidence={"phase": phase.key, "turn": phase.turn})]


@REGISTRY.reports("TS-02")
def judge_attack_out_of_segment(board: Board, target: str, attackers: Sequence["Unit"], phase: "Phase | None",
                                *, bound: bool, scenario: str | None, step: int,
                                when: str | None) -> list["Finding"]:
    """An attack declared in a phase the turn track showed is no combat segment."""
    if not bound or phase is None or phase.segment == "combat" \
            or (scenario == "1935-36" and phase.key == "second-movement"):
        return []
    return [finding("TS-02", Ruling.PROVEN, step=step, when=when, subjects=tuple(u.name for u in attackers),
                    message=f"an attack on {hex_label(target, board)} was declared outside a combat segment",
                    evidence={"phase": phase.key, "turn": phase.turn})]


@REGISTRY.reports("MV-04")
def judge_off_side_move(unit: "Unit", phase: "Phase", *, step: int, when: str | None) -> list["Finding"]:
    """A unit of the side not phasing moved in a movement segment."""
    if unit.side in (None, phase.phasing):
        return []
    return [finding("MV-04", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                    message=f"{unit.name} ({side_name(unit.side)}) moved in the "
                            f"{side_name(phase.phasing)} movement segment",
                    evidence={"unit_side": unit.side, "phasing": phase.phasing})]


@REGISTRY.reports("FW-04")
def judge_hidden_entry(board: Board, unit: "Unit", *, step: int, when: str | None) -> list["Finding"]:
    """A unit that enters play ?-side up was placed showing its factors."""
    if unit.level != "revealed" or not (unit.unit_class in HIDDEN_CLASSES
                                        or (unit.unit_class or "").startswith("ethiopian-")):
        return []
    return [finding("FW-04", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                    message=f"{unit.name} entered play at {hex_label(unit.hex, board)} "
                            "showing its factors; such units enter ?-side up",
                    evidence={"hex": unit.hex, "level": unit.level})]


@REGISTRY.reports("FW-02")
def judge_flip_outside_combat(unit: "Unit", level: str | None, *, step: int, when: str | None) -> list["Finding"]:
    """A ?-side unit was flipped outside a combat (the End of Turn attrition aside)."""
    return [finding("FW-02", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                    message=f"{unit.name} was flipped from its ?-side outside a combat",
                    evidence={"hex": unit.hex, "level_after": level})]


@REGISTRY.check("FW-02", event=Reveal)
def judge_reveal(game: Any, action: Reveal, view: Any) -> list["Finding"]:
    """FW-02 (2.3.7, 12.3): ?-side units are flipped only when revealed in a combat; (35) FW-05
    in the End of Turn Phase (PB 13.6.3), where attrition removes units uninspected."""
    unit = action.unit
    attrition = game.activation.reveal(unit, game.interpreter.phase, step=action.step, when=action.when)
    if attrition is not None:
        return attrition
    return judge_flip_outside_combat(unit, action.level, step=action.step, when=action.when)
