"""(40) Guerrilla recruitment in the Mutual Administration Phase (SC-05, PB 14.6.4.1).

A recruited guerrilla is a Shoa, Gojjam (light blue) or Beghemder unit placed on the map in a
MAP the turn track shows. The rules a log can always judge: at most one unit of each faction a
turn; Shoa within two hexes of 1213, Gojjam within two of 1012, Beghemder within two of 1009;
never in a hex with Italian-controlled units; never in British, French or Italian Somaliland,
Eritrea, Tigray or the Ogaden ("pro-Italian regions"). How many units the roll allows needs the
guerrilla recruitment table, which the rulebook does not print; stacking is judged when the MAP
ends (ST-02).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.lion_of_judah.board import Board
    from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["RecruitLedger", "judge_recruit", "GUERRILLA_HOMES"]

GUERRILLA_HOMES = {"et-levy-shoa": ("Shoa", "1213"), "et-levy-gojjam-imru": ("Gojjam", "1012"),
                   "et-levy-beghemder": ("Beghemder", "1009")}
"""PB 14.6.4.1: each guerrilla faction's counter -> (faction, the hex it is recruited within two of)."""
HOME_RANGE = 2
PRO_ITALIAN = ("british-somaliland", "french-somaliland", "italian-somaliland", "eritrea", "tigray", "ogaden")
"""PB 14.6.4.1 'Pro-Italian regions': no guerrilla is recruited there."""


@dataclass
class RecruitLedger:
    """The guerrillas recruited in each turn's MAP, by faction (unit names)."""

    by_turn: dict[int, dict[str, list[str]]] = field(default_factory=dict)


@REGISTRY.reports("SC-05")
def judge_recruit(board: "Board", before: "GameState", unit: "Unit", ledger: RecruitLedger, *,
                  turn: int, step: int | None, when: str | None) -> list[Finding]:
    """Findings for one guerrilla placed in a MAP (nothing for other units)."""
    home = GUERRILLA_HOMES.get(unit.counter or "")
    if home is None or unit.hex is None:
        return []
    faction, centre = home
    hex_, where = unit.hex, hex_label(unit.hex, board)
    out: list[Finding] = []
    earlier = ledger.by_turn.setdefault(turn, {}).setdefault(faction, [])
    earlier.append(unit.name)
    if len(earlier) > 1:
        out.append(finding("SC-05", Ruling.PROVEN, step=step, when=when, subjects=tuple(earlier),
                           message=f"{unit.name} is {faction} guerrilla number {len(earlier)} recruited in the MAP "
                                   f"of turn {turn}: at most one of each faction a turn",
                           evidence={"faction": faction, "turn": turn, "recruited": list(earlier)}))
    distance = board.distance(hex_, centre)
    if distance > HOME_RANGE:
        out.append(finding("SC-05", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} was recruited at {where}, {distance} hexes from "
                                   f"{hex_label(centre, board)}: {faction} guerrillas are placed within "
                                   f"{HOME_RANGE} hexes of it",
                           evidence={"hex": hex_, "home": centre, "distance": distance, "most": HOME_RANGE}))
    italians = [u.name for u in before.at(hex_) if u.side == "italian"]
    if italians:
        out.append(finding("SC-05", Ruling.PROVEN, step=step, when=when, subjects=(unit.name, *italians),
                           message=f"{unit.name} was recruited at {where}, a hex with Italian-controlled "
                                   f"units ({', '.join(italians)}): guerrillas are placed in a hex free of them",
                           evidence={"hex": hex_, "italian_units": italians}))
    for zone in PRO_ITALIAN:
        if board.in_zone(hex_, zone) is True:
            out.append(finding("SC-05", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                               message=f"{unit.name} was recruited at {where}, in {board.zone_name(zone)}: "
                                       "no guerrilla is recruited in the pro-Italian regions",
                               evidence={"hex": hex_, "region": zone}))
            return out
    tigray = board.in_zone(hex_, "tigray")
    if faction == "Beghemder" and isinstance(tigray, Unknown) and distance <= HOME_RANGE:
        # the text names Tigray as the one region next to a home area (Gondar's)
        out.append(finding("SC-05", Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                           depends_on=tigray.data,
                           message=f"{unit.name} was recruited at {where}, within {HOME_RANGE} hexes of "
                                   f"{hex_label(centre, board)}; Beghemder guerrillas may not be placed in Tigray",
                           evidence={"hex": hex_, "region": "tigray"}))
    return out
