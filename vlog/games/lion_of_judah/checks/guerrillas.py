"""Guerrilla combat rules of PB 14.6.4.1.

CB-36: guerrillas may share a hex with Italian-controlled units; the Italian units there may
attack the guerrillas in their own hex, and guerrillas attack Italian-controlled units in
theirs (`attacks_within_its_hex`, which CB-01's adjacency test asks).

CB-34: guerrilla units alone in a hex may not receive air or HQ support.

Judged on an attack declaration that names its support (``; HQ: ...`` for the attacker's HQs,
``; air a/d`` for the net air shifts of attacker and defender):

* the defending hex holds only guerrillas and the defender's air shift is above 0;
* every attacking unit is a guerrilla alone (with other guerrillas only) in its hex and the
  attacker names supporting HQs or takes an air shift. When Commonwealth units attack with
  them, the support is theirs and nothing is reported.
"""
from __future__ import annotations

from collections.abc import Sequence

from vlog.engine.judge import Ruling
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["judge_guerrilla_support", "alone", "attacks_within_its_hex"]


def alone(state: GameState, hex_: str | None) -> bool:
    """True when the hex holds guerrillas and no other unit (air markers do not count)."""
    if hex_ is None:
        return False
    here = [u for u in state.at(hex_) if u.kind != "air"]
    return bool(here) and all(u.unit_class == "guerrilla" for u in here)


def attacks_within_its_hex(state: GameState, target: str, attacker: Unit,
                           defenders: Sequence[Unit]) -> bool:
    """CB-36: True when `attacker`, in the target hex itself, may attack there: the hex holds
    guerrillas and Italian-controlled units, and either the attacker is a guerrilla or it is
    Italian-controlled and every defender is a guerrilla."""
    if state.scenario != "1940-41" or attacker.hex != target:
        return False
    here = state.at(target)
    if not any(u.unit_class == "guerrilla" for u in here) or not any(u.side == "italian" for u in here):
        return False
    if attacker.unit_class == "guerrilla":
        return True
    return attacker.side == "italian" and bool(defenders) \
        and all(d.unit_class == "guerrilla" for d in defenders)


@REGISTRY.reports("CB-34")
def judge_guerrilla_support(board: Board, state: GameState, target: str,
                            attackers: Sequence[Unit], defenders: Sequence[Unit],
                            attacker_hqs: Sequence[str] | None, air: tuple[int, int] | None, *,
                            step: int | None, when: str | None) -> list[Finding]:
    """CB-34 for one declared attack, on the position before it (`state`)."""
    out: list[Finding] = []
    where = hex_label(target, board)
    if defenders and air is not None and air[1] > 0 and alone(state, target):
        out.append(finding("CB-34", Ruling.PROVEN, step=step, when=when,
                           subjects=tuple(u.name for u in defenders),
                           message=f"guerrillas defending alone at {where} received air support "
                                   f"({air[1]}L); guerrillas alone in a hex may not (PB 14.6.4.1)",
                           evidence={"target": target, "side": "defender", "air": list(air),
                                     "guerrillas": [u.name for u in defenders]}))
    if attackers and all(u.unit_class == "guerrilla" and alone(state, u.hex) for u in attackers):
        support = []
        if attacker_hqs:
            support.append(f"HQ {', '.join(attacker_hqs)}")
        if air is not None and air[0] > 0:
            support.append(f"air {air[0]}R")
        if support:
            out.append(finding("CB-34", Ruling.PROVEN, step=step, when=when,
                               subjects=tuple(u.name for u in attackers),
                               message=f"guerrillas alone in their hexes attacked {where} with the "
                                       f"support of {' and '.join(support)}; guerrillas alone in a "
                                       "hex may not receive air or HQ support (PB 14.6.4.1)",
                               evidence={"target": target, "side": "attacker",
                                         "hqs": list(attacker_hqs or ()),
                                         "air": list(air) if air is not None else None,
                                         "guerrillas": [u.name for u in attackers]}))
    return out
