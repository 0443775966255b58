"""After a stick lands (19.44-19.53): airborne losses, hostile landings, and the leader who jumps
with his HQ. A jump is a unit placed from the Disbandment Box in the Airborne Landing Phase
(checks/movement.py, MOV-09). Judged when the phase ends, on the table then:

* JMP-10 (19.46): each unit of a stick but leaders and HQs rolls one die, said in chat
  (`airborne loss V/186`, checks/unit_rolls.py): +1 if its hex holds enemy units other than
  coastal guns, zero-strength units and leaders, +1 if an enemy AA unit is within three hexes,
  +1 in woods, a town, a city or a fort; 7 or more reduces a two-sided company and eliminates a
  one-sided unit or artillery. A unit whose every reading reaches 7 and that is still on the map
  as it was is PROVEN; a reading the map data leaves open is POSSIBLE, naming the data. A unit
  that jumped and has no roll said for it is not judged there, naming the chat line.
* JMP-11 (19.5-19.53): a stick landing with enemy units attacks until one side is left, and
  lone coastal guns, zero-strength units and leaders there are eliminated (leaders roll, 6.52):
  no unit that jumped this turn shares a hex with an enemy piece (leaders aside: their overrun
  is LDR-05's; the coastal guns of a hex jumped into while Allied units held it, JMP-15's) when
  the phase ends. Whether
  odds below the lowest column eliminated the stick (19.53) is the CRT's (not judged here).
* LDR-09 (19.44, 19.46): a leader (not an ADC) jumps with its formation's HQ and ends in its
  hex; each may then rally one hex (19.6), so a leader more than two hexes from its HQ, or one
  that jumped in a phase its HQ did not, is PROVEN. A leader or HQ removed or reduced after an
  airborne-loss roll said for it that reached 7, in a hex with no enemy unit and not ocean, is
  PROVEN (nothing else there takes a step), else POSSIBLE.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.kit.steps import PhaseChanged, Placed

from vlog.games.island_of_death.checks.unit_rolls import AIRBORNE, gone_or_changed, judge_phase_rolls
from vlog.games.island_of_death.rules import REGISTRY
from vlog.games.island_of_death.terrain import overrunnable

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.games.island_of_death.units import Unit
    from vlog.kit.steps import Position, StepView

ELIMINATES = 7
AA_RANGE = 3
"""19.46: an enemy AA unit within three hexes."""
COVER = ("woods", "town", "city")
"""19.46: the terrains that add one (and a fort hex)."""
EXEMPT = ("hq", "leader")
RALLY = 1
"""19.6: a rallying leader or HQ moves one hex."""


def _jumped(game: "IslandOfDeath", unit_id: str, turn: int) -> bool:
    return game.movement.arrived.get(unit_id) == (turn, "jumped")


@REGISTRY.check("JMP-10", event=Placed)
def note_jump(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """A unit that jumps (leaders and HQs aside) owes an airborne-loss roll."""
    unit, phase = event.unit, game.phase
    old = game.units(view.before).get(unit.id)
    if phase is None or phase.name != "airborne-landing" or old is None or old.box != "disbandment" \
            or unit.side != "axis" or not unit.is_ground_unit or unit.kind in EXEMPT:
        return []
    game.unit_rolls.owe(AIRBORNE, unit, event.step)
    return []


def airborne_modifiers(game: "IslandOfDeath", position: "Position", unit: "Unit") -> list[tuple[int, frozenset[str], str]]:
    """Every reading of the 19.46 modifiers of `unit` in its hex: (sum, the data it rests on, why)."""
    hex_ = unit.hex
    enemies = [u for u in game.units(position).values() if u.side != unit.side and u.hex is not None
               and u.is_ground_unit]
    readings: list[tuple[int, frozenset[str], str]] = [(0, frozenset(), "")]

    def add(term: bool | Unknown, why: str) -> None:
        nonlocal readings
        if term is True:
            readings = [(s + 1, d, f"{w}; {why}" if w else why) for s, d, w in readings]
        elif isinstance(term, Unknown):
            readings = [r for s, d, w in readings
                        for r in ((s, d | term.data, w), (s + 1, d | term.data, f"{w}; {why}" if w else why))]

    here = [u for u in enemies if u.hex == hex_]
    only = overrunnable(here)
    add(False if only is True else (True if only is False else only), "enemy units in the hex")
    aa = sorted(u.counter for u in enemies if u.kind == "anti-aircraft" and game.board.distance(u.hex, hex_) <= AA_RANGE)
    add(bool(aa), f"enemy AA within {AA_RANGE} hexes ({', '.join(aa)})")
    terrain = game.board.terrain(hex_)
    fort = game.board.has_feature(hex_, "fort")
    if isinstance(terrain, Unknown) or isinstance(fort, Unknown):
        if (not isinstance(terrain, Unknown) and terrain in COVER) or fort is True:
            add(True, "woods, town, city or fort")
        else:
            data = (terrain.data if isinstance(terrain, Unknown) else frozenset()) | \
                (fort.data if isinstance(fort, Unknown) else frozenset())
            add(Unknown(*sorted(data)), "woods, town, city or fort")
    else:
        add(terrain in COVER or fort is True, f"{'fort' if fort is True else terrain} hex")
    return readings


@REGISTRY.check("JMP-10", "LDR-09", event=PhaseChanged)
def judge_airborne_losses(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """19.46 at the end of the Airborne Landing Phase, and the leaders who jumped (19.44)."""
    out = judge_phase_rolls(game, event, view, phase_name="airborne-landing", kind=AIRBORNE, arrived="jumped",
                            check="JMP-10", say=("airborne loss", "19.46"),
                            judge=lambda roll, old, now: _judge_roll(game, roll, old, now))
    if event.old is not None and event.old.name == "airborne-landing":
        out += _leaders_with_hq(game, event, game.units(view.before))
    return out


def _judge_roll(game: "IslandOfDeath", roll: Any, old: Any, now: dict[str, "Unit"]) -> list["Finding"]:
    """A roll that reaches 7 in some reading: the unit is affected, and an HQ or leader is not."""
    unit = roll.unit
    readings = airborne_modifiers(game, roll.position, unit)
    reached = [r for r in readings if roll.total + r[0] >= ELIMINATES]
    if not reached:
        return []
    totals = sorted({roll.total + s for s, _, _ in readings})
    deps = sorted({d for s, data, _ in reached for d in data})
    evidence = {"unit": unit.counter, "hex": unit.hex, "roll": roll.total, "totals": totals,
                "roll_step": roll.roll_step}
    every = len(reached) == len(readings)
    why = reached[0][2] or "no modifier"
    if unit.kind in EXEMPT:
        if not gone_or_changed(unit, now):
            return []
        here = [u for u in game.units(roll.position).values() if u.side != unit.side and u.hex == unit.hex
                and u.is_ground_unit]
        terrain = game.board.terrain(unit.hex)
        proven = not here and not isinstance(terrain, Unknown) and terrain != "ocean"
        return [game.inventory.finding(
            "LDR-09", Ruling.PROVEN if proven else Ruling.POSSIBLE, step=roll.roll_step, when=game.when_of(old),
            message=f"{unit.label()}, {'an HQ' if unit.kind == 'hq' else 'a leader'}, was removed or reduced after an "
                    f"airborne-loss roll said for it reached {max(evidence['totals'])} (step {roll.roll_step}): "
                    f"HQs and leaders are not affected by airborne losses (19.46)",
            subjects=(unit.name,), evidence={**evidence, "kind": unit.kind},
            depends_on=() if proven else ("that no hostile landing or drowning took it (19.45, 19.5)",))]
    if gone_or_changed(unit, now):
        return []
    return [game.inventory.finding(
        "JMP-10", Ruling.PROVEN if every else Ruling.POSSIBLE, step=roll.roll_step, when=game.when_of(old),
        message=f"{unit.label()} jumped to {unit.hex} and rolled {roll.total} for airborne losses (step "
                f"{roll.roll_step}), {' or '.join(map(str, evidence['totals']))} modified ({why}): 7 or more reduces a "
                f"two-sided company and eliminates a one-sided unit or artillery (19.46), but it was unchanged when "
                f"the phase ended" + ("" if every else f", if {', '.join(deps)} say so"),
        subjects=(unit.name,), evidence=evidence, depends_on=() if every else tuple(deps))]


def _leaders_with_hq(game: "IslandOfDeath", event: Any, now: dict[str, "Unit"]) -> list["Finding"]:
    """19.44: a leader jumps with its HQ and lands in its hex (two hexes apart at most after the rally)."""
    old, out = event.old, []
    for leader in now.values():
        if leader.kind != "leader" or leader.level == "adc" or leader.hex is None \
                or not _jumped(game, leader.id, old.turn):
            continue
        hqs = [u for u in now.values() if u.kind == "hq" and u.formation == leader.formation and u.side == leader.side]
        if not hqs:
            continue
        jumped = [u for u in hqs if _jumped(game, u.id, old.turn)]
        evidence = {"unit": leader.counter, "hex": leader.hex, "hq": hqs[0].counter, "turn": old.turn}
        if not jumped:
            out.append(game.inventory.finding(
                "LDR-09", Ruling.PROVEN, step=event.step, when=game.when_of(old),
                message=f"{leader.label()} jumped to {leader.hex} in turn {old.turn} without its HQ "
                        f"({hqs[0].counter}): a leader always jumps with its HQ unless it is an ADC returning to "
                        f"play (19.44, 14.43)",
                subjects=(leader.name,), evidence={**evidence, "hq_jumped": False}))
            continue
        hq = jumped[0]
        if hq.hex is None or game.board.distance(hq.hex, leader.hex) <= 2 * RALLY:
            continue
        out.append(game.inventory.finding(
            "LDR-09", Ruling.PROVEN, step=event.step, when=game.when_of(old),
            message=f"{leader.label()} jumped with its HQ {hq.label()} but ended the phase in {leader.hex}, "
                    f"{game.board.distance(hq.hex, leader.hex)} hexes from the HQ in {hq.hex}: a leader ends its jump "
                    f"in its HQ's hex (19.44) and each moves one hex at most in the rally (19.6)",
            subjects=(leader.name, hq.name),
            evidence={**evidence, "hq_hex": hq.hex, "distance": game.board.distance(hq.hex, leader.hex)}))
    return out


@REGISTRY.check("JMP-11", event=PhaseChanged)
def judge_hostile_landing(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """19.5-19.53: when the Airborne Landing Phase ends no jumped unit shares a hex with an enemy."""
    old = event.old
    if old is None or old.name != "airborne-landing":
        return []
    units = game.units(view.before)
    out = []
    seen: set[str] = set()
    for unit in units.values():
        if unit.hex is None or unit.hex in seen or not unit.is_ground_unit or unit.kind == "leader" \
                or not _jumped(game, unit.id, old.turn):
            continue
        guns_judged = unit.hex in game.coastal_guns.jump_hexes_judged     # the guns' fate there is JMP-15's
        enemies = sorted(u.counter for u in units.values() if u.hex == unit.hex and u.side != unit.side
                         and u.is_ground_unit and u.kind != "leader"       # a lone leader's fate is LDR-05's
                         and not (guns_judged and u.kind == "coastal-gun"))
        if not enemies:
            continue
        seen.add(unit.hex)
        jumped = sorted(u.counter for u in units.values() if u.hex == unit.hex and u.side == unit.side
                        and _jumped(game, u.id, old.turn))
        out.append(game.inventory.finding(
            "JMP-11", Ruling.PROVEN, step=event.step, when=game.when_of(old),
            message=f"{', '.join(jumped)} jumped into {unit.hex} in turn {old.turn} and still shared it with "
                    f"{', '.join(enemies)} when the Airborne Landing Phase ended: a stick landing with enemy units "
                    f"attacks until one side is left, and lone coastal guns, zero-strength units and leaders there "
                    f"are eliminated (19.5, 19.51, 19.53)",
            subjects=tuple(jumped), evidence={"hex": unit.hex, "jumped": jumped, "enemy_units": enemies,
                                              "turn": old.turn}))
    return out
