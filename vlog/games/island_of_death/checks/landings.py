"""Amphibious landings (18.0-18.9): who may land from the sea, who lands together and where,
and the beach move after landing.

A landing is a unit placed on the map from a First or Second Wave box (18.5, 18.8), as MOV-09
reads it; the boxes are the module's locations (map.json `boxes`, one per zone and kind).

* 18.0: only the 4th and 20th Divisions and the unassigned marine, tank and 10B motorcycle
  companies land from the sea; a unit of the airborne formations (185th, Ramcke, 80th) or a
  commando battalion put in a Follow-up or wave box is wrong. A unit of no formation in the
  data that is not one of those unassigned companies (the Blackshirt battalion) is not judged.
* 18.92: units of the two divisions do not land on one beach hex in one phase. The unassigned
  units' division is recorded on paper (15.2, FRM-02): only the divisions' own units are told.
* 18.7: a unit that landed this turn moves at most one hex in the landing phase, and only if it
  was not in an enemy ZOC when it moved (the ZOC of the table before its move; hexsides the map
  data lacks leave it POSSIBLE, naming them). Water's Edge Combat has no retreat and no advance
  (18.63), so every move of a landed unit in that phase is its beach move.
* 18.21: all units of one division land in one beach zone: a division's units are never in the
  Follow-up or wave boxes of two zones (the zone chosen is on paper; that there is one is not).
* 18.33: the 4th Division HQ and Chirelson make their first landing together: the first time
  either lands, the other lands on the same beach hex in the same phase.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Moved, PhaseChanged, Placed, Stepped

from vlog.games.island_of_death.rules import REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView

SEA_BOXES = ("follow-up", "first-wave", "second-wave")
"""Box types of the amphibious landing (18.1)."""
WAVE_BOXES = ("first-wave", "second-wave")
AIRBORNE_FORMATIONS = frozenset({"185th Folgore paratroop division", "Ramcke Brigade", "80th airborne division"})
"""Formations that enter by air (19.0, 16.1), never by sea (18.0)."""
DIVISIONS = frozenset({"4th Infantry Division (Livorno)", "20th Infantry Division (Friuli)"})
"""The two amphibious divisions (18.0)."""
UNASSIGNED_BY_SEA = frozenset({"marine", "tank", "motorcycle"})
"""18.0: the unassigned units that land from the sea: six marine, two tank and three 10B
motorcycle companies."""
BEACH_MOVE = 1
"""18.7: one hex."""


class Landings(Ledger):
    """The ledger of the landing phases: where each unit landed this phase, the division each
    beach hex was landed on by, the units already reported."""

    def __init__(self) -> None:
        self.landed_at: dict[str, str] = {}
        """Unit id -> the beach hex it landed on in the current Amphibious Landing Phase."""
        self.beach_division: dict[str, tuple[str, str]] = {}
        """Beach hex -> (division, the first unit of it) landed there in the current phase."""
        self.reported: set[str] = set()
        """Units a landing finding was reported for in the current phase."""
        self.sea_reported: set[str] = set()
        """Units AMP-01 was reported for (once a game)."""
        self.division_zone: dict[str, tuple[str, str]] = {}
        """Division -> (beach zone, the first unit of it seen in that zone's boxes)."""
        self.zone_reported: set[str] = set()
        self.zones_seen = False
        """Whether FRM-05 has looked at every unit once (after that, at those a step changed)."""
        self.first_landing: dict[str, tuple[int, str, int | None]] = {}
        """HQ 4 or Chirelson -> (turn, beach hex, step) of its first landing."""
        self.together_reported = False

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.landed_at, self.beach_division, self.reported = {}, {}, set()
        return ()


def zone_of_box(game: "IslandOfDeath", box: str | None) -> str | None:
    """The beach zone of a Follow-up or wave box ("first-wave-west" -> "west")."""
    kind = game.box_type(box) if box else None
    if kind not in SEA_BOXES or box is None or not box.startswith(kind + "-"):
        return None
    return box[len(kind) + 1:]


def _unassigned(game: "IslandOfDeath", unit: "Unit") -> bool:
    record = game.data.counter(unit.counter)
    props = record["properties"] if "properties" in record else {}
    return "unassigned" in props and props["unassigned"].value is True


def _sea_eligible(game: "IslandOfDeath", unit: "Unit") -> bool | None:
    """18.0: may the unit land from the sea? None where the data does not tell."""
    if unit.formation in DIVISIONS:
        return True
    if unit.formation in AIRBORNE_FORMATIONS or unit.kind == "commando":
        return False
    if _unassigned(game, unit):
        return unit.kind in UNASSIGNED_BY_SEA
    return None


@REGISTRY.check("AMP-01", event=Stepped)
def judge_sea_eligible(game: "IslandOfDeath", event: Stepped, view: "StepView") -> list["Finding"]:
    """18.0: a unit put in a Follow-up or wave box is one that lands from the sea."""
    before, out = game.units(view.before), []
    ledger = game.landings
    for uid, unit in game.changed_units(view).items():
        box_type = game.box_type(unit.box) if unit.box else None
        if box_type not in SEA_BOXES or unit.side != "axis" or uid in ledger.sea_reported:
            continue
        old = before.get(uid)
        if old is not None and old.box == unit.box:
            continue
        if _sea_eligible(game, unit) is not False:
            continue
        ledger.sea_reported.add(uid)
        what = f"a unit of the {unit.formation}" if unit.formation else f"an unassigned {unit.kind} unit"
        out.append(game.finding("AMP-01", Ruling.PROVEN, step=event.step,
                                message=f"{unit.label()} was put in the {game.box_name(unit.box)}: {what} does not "
                                        f"land from the sea; only the 4th and 20th Divisions and "
                                        f"the unassigned marine, tank and 10B motorcycle companies do (18.0)",
                                subjects=(unit.name,),
                                evidence={"unit": unit.counter, "box": unit.box, "formation": unit.formation,
                                          "kind": unit.kind}))
    return out


@REGISTRY.check("AMP-07", "AMP-10", event=Placed)
def judge_landing(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """18.92: one division a beach hex a phase; remembers the hex for the beach move (18.7)."""
    unit, phase = event.unit, game.phase
    old = game.units(view.before).get(unit.id)
    if phase is None or phase.name != "amphibious-landing" or old is None or old.box is None \
            or game.box_type(old.box) not in WAVE_BOXES:
        return []
    ledger = game.landings
    ledger.landed_at[unit.id] = unit.hex
    if unit.formation not in DIVISIONS:
        return []
    first = ledger.beach_division.setdefault(unit.hex, (unit.formation, unit.counter))
    if first[0] == unit.formation:
        return []
    ledger.reported.add(unit.id)
    return [game.finding("AMP-07", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} of the {unit.formation} landed on {unit.hex}, where {first[1]} "
                                 f"of the {first[0]} landed in this phase: units of different divisions do not "
                                 f"land on the same beach hex in the same phase (18.92)",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "hex": unit.hex, "division": unit.formation,
                                   "other_unit": first[1], "other_division": first[0], "turn": phase.turn})]


@REGISTRY.check("AMP-10", event=Moved)
def judge_beach_move(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """18.7: a landed unit moves one hex at most, and not out of an enemy ZOC."""
    unit, after, phase = event.before, event.after, game.phase
    ledger = game.landings
    beach = ledger.landed_at.get(unit.id)
    if phase is None or phase.name != "amphibious-landing" or beach is None or unit.hex is None \
            or after.hex is None or unit.id in ledger.reported:
        return []
    distance = game.board.distance(beach, after.hex)
    evidence = {"unit": unit.counter, "beach": beach, "from": unit.hex, "to": after.hex, "turn": phase.turn}
    if distance > BEACH_MOVE:
        ledger.reported.add(unit.id)
        return [game.finding("AMP-10", Ruling.PROVEN, step=event.step,
                             message=f"{unit.label()} landed on {beach} and moved on to {after.hex}, {distance} "
                                     f"hexes away: the beach move is one hex (18.7)",
                             subjects=(unit.name,), evidence={**evidence, "distance": distance})]
    if unit.hex != beach:
        return []                                         # back to its beach, or the one hex again
    in_zoc = game.zoc(view.before, unit.side).in_zoc(beach)
    if in_zoc is False:
        return []
    ledger.reported.add(unit.id)
    sources = sorted(game.zoc(view.before, unit.side).sources(beach))
    ruling = Ruling.PROVEN if in_zoc is True else Ruling.POSSIBLE
    return [game.finding("AMP-10", ruling, step=event.step,
                         message=f"{unit.label()} landed on {beach} in an enemy ZOC (from "
                                 f"{', '.join(sources) or 'an adjacent hex'}) and moved to {after.hex}: a landed "
                                 f"unit in enemy ZOC makes no beach move (18.7)",
                         subjects=(unit.name,), evidence={**evidence, "zoc_from": sources},
                         depends_on=in_zoc.data if isinstance(in_zoc, Unknown) else ())]


@REGISTRY.check("FRM-05", event=Stepped)
def judge_one_zone(game: "IslandOfDeath", event: Stepped, view: "StepView") -> list["Finding"]:
    """18.21: a division's units are in the boxes of one beach zone only."""
    ledger, out = game.landings, []
    if not ledger.zones_seen:                          # the start: every unit, then what each step changed
        ledger.zones_seen = True
        looked = [game.units(view.before), game.changed_units(view)]
    else:
        looked = [game.changed_units(view)]
    for units in looked:
        for unit in units.values():
            zone = zone_of_box(game, unit.box)
            if zone is None or unit.formation not in DIVISIONS:
                continue
            first = ledger.division_zone.setdefault(unit.formation, (zone, unit.counter))
            if first[0] == zone or unit.formation in ledger.zone_reported:
                continue
            ledger.zone_reported.add(unit.formation)
            out.append(game.finding("FRM-05", Ruling.PROVEN, step=event.step,
                                    message=f"{unit.label()} of the {unit.formation} is in the {game.box_name(unit.box)}, "
                                            f"while {first[1]} of it is in the boxes of the {first[0].title()} beach "
                                            f"zone: all units of a division land in one beach zone (18.21)",
                                    subjects=(unit.name,),
                                    evidence={"unit": unit.counter, "division": unit.formation, "box": unit.box,
                                              "zone": zone, "other_unit": first[1], "other_zone": first[0]}))
    return out


HQ_4, CHIRELSON = "ax-hq-4", "ax-chirelson"
"""18.33: the 4th Division HQ and its leader."""


@REGISTRY.check("LDR-08", event=Placed)
def note_first_landing(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """Remembers the first landing of the 4th Division HQ and of Chirelson (18.33)."""
    unit, phase = event.unit, game.phase
    old = game.units(view.before).get(unit.id)
    if unit.counter not in (HQ_4, CHIRELSON) or phase is None or old is None \
            or game.box_type(old.box) not in WAVE_BOXES:
        return []
    game.landings.first_landing.setdefault(unit.counter, (phase.turn, unit.hex, event.step))
    return []


@REGISTRY.check("LDR-08", event=PhaseChanged)
def judge_landed_together(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """18.33: when an Amphibious Landing Phase ends, the HQ and Chirelson first landed together."""
    old, ledger = event.old, game.landings
    if old is None or old.name != "amphibious-landing" or ledger.together_reported or not ledger.first_landing:
        return []
    hq, leader = ledger.first_landing.get(HQ_4), ledger.first_landing.get(CHIRELSON)
    present = {u.counter for u in game.units(view.before).values()}
    if CHIRELSON not in present or HQ_4 not in present:
        return []                               # one of them not in the log's pieces: nothing to tell
    if hq is not None and leader is not None and hq[:2] == leader[:2]:
        return []
    landed, other = (HQ_4, CHIRELSON) if hq is not None and (leader is None or hq[0] <= leader[0]) \
        else (CHIRELSON, HQ_4)
    turn, hex_, step = ledger.first_landing[landed]
    if turn != old.turn:
        return []                               # reported at the end of its own landing phase
    ledger.together_reported = True
    seen = ledger.first_landing.get(other)
    where = f"first landed on {seen[1]} in turn {seen[0]}" if seen is not None else "did not land with it"
    return [game.finding("LDR-08", Ruling.PROVEN, step=event.step,
                         message=f"{landed} made its first landing on {hex_} (step {step}) in turn {turn} and "
                                 f"{other} {where}: the 4th Division HQ and Chirelson make their first landing "
                                 f"together (18.33)",
                         subjects=(landed, other),
                         evidence={"unit": landed, "hex": hex_, "landed_step": step, "turn": turn, "other": other,
                                   "other_landing": list(seen) if seen is not None else None})]
