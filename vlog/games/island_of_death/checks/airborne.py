"""Airborne landings (16.1, 19.1-19.45): the drop-zone marker before the sticks, the drowned,
and the artillery that lands at an airfield.

A jump is a unit placed on the map from the Disbandment Box in the Airborne Landing Phase (19.4),
as MOV-09 reads it.

* 19.1: a formation's sticks jump only once its drop-zone marker is on the map (dropped earlier
  or in the same phase). A formation with no drop-zone marker among the counters (the 80th, the
  commandos) is not judged; a log whose table lacks the marker's piece is not judged, naming it.
* 19.45: a unit, stick or leader still on an ocean hex when its Airborne Landing Phase ends has
  drowned and is eliminated. On a map whose terrain the data lacks this is not judged, naming
  the hex.
* 19.12, 19.13: a drop-zone marker on the map moves only in an Initial Segment (at most three
  hexes from where it began it, and not out of a hex it shares with an Allied unit) or when it
  is dropped and scattered in the Airborne Landing Phase; the friendly-controlled route is not
  judged (control before the log is not known).
* 22.26, 22.35: on the first day the Introductory Scenario names the one stick of each turn, and
  Hercules has no artillery jump on 29 June AM; how many sticks a turn jumps is not judged (a
  stick is planned on paper).
* 16.13: artillery placed from the Disbandment Box in the Axis Movement Phase has landed at an
  airfield (artillery battalions are never broken down, 18.31, so it is no breakdown): it comes
  in hitched and is not prepared in the turn it landed.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.kit.steps import Flipped, Moved, PhaseChanged, Placed

from vlog.games.island_of_death.rules import GAME, REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import StepView

DISBANDMENT = "disbandment"
OCEAN = "ocean"


def _jumped(game: "IslandOfDeath", unit: "Unit", view: "StepView") -> bool:
    old = game.units(view.before).get(unit.id)
    phase = game.phase
    return phase is not None and phase.name == "airborne-landing" and old is not None and old.box == DISBANDMENT \
        and unit.side == "axis"


def drop_zone_markers(game: "IslandOfDeath") -> dict[str, str]:
    """Formation -> the counter of its drop-zone marker (19.1), from counters.json (read once)."""
    def build() -> dict[str, str]:
        out = {}
        for counter in game.data.counter_ids:
            record = game.data.counter(counter)
            props = record["properties"] if "properties" in record else {}
            if record["type"].value == "marker" and "formation" in props and "drop zone" in (record["name"].value or ""):
                out[props["formation"].value] = counter
        return out
    return game.recalled((GAME, "drop-zone-markers"), (game.data,), build)


@REGISTRY.check("JMP-01", event=Placed)
def judge_marker_first(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """19.1: no stick jumps before its formation's drop-zone marker is on the map."""
    unit = event.unit
    if not unit.is_ground_unit or not _jumped(game, unit, view):
        return []
    marker = drop_zone_markers(game).get(unit.formation or "")
    if marker is None:
        return []
    pieces = [u for u in game.units(view.after).values() if u.counter == marker]
    if not pieces:
        game.unsettled("JMP-01", event.step, [f"the {marker} piece (not on the table the log shows)"])
        return []
    if any(p.hex is not None for p in pieces):
        return []
    phase = game.phase
    return [game.finding("JMP-01", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} of the {unit.formation} jumped to {unit.hex} while its drop-zone "
                                 f"marker ({marker}) was not on the map: a formation's drop-zone marker is dropped "
                                 f"before any of its sticks jump (19.1)",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "hex": unit.hex, "formation": unit.formation,
                                   "marker": marker, "turn": phase.turn if phase else None})]


@REGISTRY.check("JMP-09", event=PhaseChanged)
def judge_drowned(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """19.45: no unit that jumped this turn is left on an ocean hex when the phase ends."""
    old = event.old
    if old is None or old.name != "airborne-landing":
        return []
    out, unknown = [], []
    for uid, unit in game.units(view.before).items():
        if game.movement.arrived.get(uid) != (old.turn, "jumped") or unit.hex is None:
            continue
        terrain = game.board.terrain(unit.hex)
        if isinstance(terrain, Unknown):
            unknown += terrain.data
            continue
        if terrain == OCEAN:
            out.append(game.finding("JMP-09", Ruling.PROVEN, step=event.step,
                                    message=f"{unit.label()} jumped and was still on the ocean hex {unit.hex} when "
                                            f"the Airborne Landing Phase of turn {old.turn} ended: it drowned and is "
                                            f"eliminated (19.45)",
                                    subjects=(unit.name,),
                                    evidence={"unit": unit.counter, "hex": unit.hex, "terrain": terrain,
                                              "turn": old.turn}))
    if unknown:
        game.unsettled("JMP-09", event.step, sorted(set(unknown)))
    return out


def _airfield_artillery(game: "IslandOfDeath") -> dict[str, int]:
    """Unit id -> the turn it landed at an airfield (artillery only), kept on the ledger."""
    return game.movement.airfield_artillery


@REGISTRY.check("MOV-18", event=Placed)
def judge_landed_hitched(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """16.13: artillery landing at an airfield comes in hitched."""
    unit, phase = event.unit, game.phase
    old = game.units(view.before).get(unit.id)
    if not unit.is_artillery or phase is None or phase.name != "axis-movement" or old is None \
            or old.box != DISBANDMENT:
        return []
    _airfield_artillery(game)[unit.id] = phase.turn
    if not unit.prepared:
        return []
    return [game.finding("MOV-18", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} landed at {unit.hex} from the Disbandment Box on its prepared "
                                 f"side: artillery landing at an airfield comes in hitched (16.13)",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "hex": unit.hex, "side_shown": "prepared",
                                   "turn": phase.turn})]


@REGISTRY.check("MOV-18", event=Flipped)
def judge_not_prepared(game: "IslandOfDeath", event: Flipped, view: "StepView") -> list["Finding"]:
    """16.13: and is not prepared in the turn it landed."""
    unit, phase = event.after, game.phase
    landed = _airfield_artillery(game).get(unit.id)
    if phase is None or landed != phase.turn or not unit.prepared or event.before.prepared:
        return []
    return [game.finding("MOV-18", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} was prepared in {unit.hex or 'its box'} in turn {phase.turn}, the "
                                 f"turn it landed at an airfield: it may not prepare until a later turn (16.13)",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "hex": unit.hex, "side_shown": "prepared",
                                   "turn": phase.turn, "landed_turn": landed})]


DZ_MOVE = 3
"""19.13: a drop-zone marker moves at most three hexes in an Initial Segment."""
DZ_PHASES = ("initial-segment", "airborne-landing")
"""19.13, 19.41: the phases a drop-zone marker moves in (moved, or dropped and scattered)."""


@REGISTRY.check("JMP-03", event=Moved)
def judge_marker_move(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """19.12, 19.13: a drop-zone marker on the map moves only in an Initial Segment, at most three
    hexes, and not out of a hex it shares with an Allied unit (coastal guns aside)."""
    marker, after, phase = event.before, event.after, game.phase
    if marker.counter not in drop_zone_markers(game).values() or marker.hex is None or after.hex is None \
            or phase is None:
        return []
    evidence = {"unit": marker.counter, "from": marker.hex, "to": after.hex, "phase": phase.name, "turn": phase.turn}

    def finding(message: str, more: dict) -> list["Finding"]:
        return [game.finding("JMP-03", Ruling.PROVEN, step=event.step, message=f"{marker.label()} {message}",
                             subjects=(marker.name,), evidence={**evidence, **more})]

    if phase.name not in DZ_PHASES:
        return finding(f"moved {marker.hex} -> {after.hex} in {game.when_of(phase)}: a drop-zone marker moves "
                       f"only in an Initial Segment (19.13)", {})
    if phase.name != "initial-segment":
        return []                                          # dropped and scattered (19.41): the Drop Table's
    start = game.movement.dz_start.setdefault((phase.turn, marker.id), marker.hex)
    distance = game.board.distance(start, after.hex)
    if distance > DZ_MOVE:
        return finding(f"moved from {start} to {after.hex} in the Initial Segment, {distance} hexes: at most "
                       f"{DZ_MOVE} (19.13)", {"start": start, "distance": distance})
    allied = [u.counter for u in game.units(view.before).values()
              if u.hex == start and u.side == "allied" and u.is_ground_unit and u.kind != "coastal-gun"]
    if allied and start == marker.hex:
        return finding(f"moved out of {start}, which it shares with Allied units ({', '.join(allied)}): it may "
                       f"not move then (19.12, 19.13)", {"allied_units": allied})
    return []


FORCED_JUMPS = {"intro": {"30 June AM": ("ax-ram-1-2",), "30 June PM": ("ax-ii-187",)}}
"""22.26 (scenarios.json intro `forced_jumps`): on the first day of the Introductory Scenario the
only stick of 30 June AM is the Ramcke 1/2 battalion, of 30 June PM II/187 ("11/187")."""
NO_ARTILLERY_JUMPS = {"hercules": ("29 June AM",)}
"""22.35 (scenarios.json hercules `first_day_jumps`): the sticks of 29 June AM are leaders, HQs,
paratroop and paratroop engineer companies only."""


@REGISTRY.check("JMP-14", event=Placed)
def judge_first_day_sticks(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """22.26, 22.35: who may jump on the first day of a scenario."""
    unit, phase = event.unit, game.phase
    if not unit.is_ground_unit or not _jumped(game, unit, view) or game.scenario is None:
        return []
    label = phase.sequence.labels.get(phase.turn, "")
    allowed = FORCED_JUMPS.get(game.scenario, {}).get(label)
    evidence = {"unit": unit.counter, "hex": unit.hex, "turn": phase.turn, "time": label, "scenario": game.scenario}
    if allowed is not None and unit.counter not in allowed:
        return [game.finding("JMP-14", Ruling.PROVEN, step=event.step,
                             message=f"{unit.label()} jumped on {label}: in the Introductory Scenario the only "
                                     f"stick of that turn is {', '.join(allowed)} (22.26)",
                             subjects=(unit.name,), evidence={**evidence, "allowed": list(allowed)})]
    if label in NO_ARTILLERY_JUMPS.get(game.scenario, ()) and unit.is_artillery:
        return [game.finding("JMP-14", Ruling.PROVEN, step=event.step,
                             message=f"{unit.label()}, artillery, jumped on {label}: that turn's sticks are "
                                     f"leaders, HQs and paratroop and paratroop engineer companies only (22.35)",
                             subjects=(unit.name,), evidence={**evidence, "kind": unit.kind})]
    return []
