"""The Combat Results Table (8.25-8.28, 8.33, 8.35): each player rolls one die on the column of
his own Committed Strength; the result is the SPs the other side loses. A German leader's Combat
Rating is added to the German roll and taken from the Allied one (8.35; with several, the senior
one's, 10.23); a defender in a forest hex or in Nairobi, Mombasa or Dar es Salaam moves the
attacker's column one to the left (8.33). An adjusted roll of 4-9 makes the other side retreat;
with neither or both retreating, the greater loss retreats (8.26).

The log shows the rolls (`combat`) and where the units went; the players say their Committed
Strength (`strength N`) and their losses (`loss N`), which the paper Order of Battle sheets keep
(2.3). CBT-15 judges each declared loss against the CRT through the data (a cell the data lacks,
or a leader's rating, makes the verdict POSSIBLE, naming it); CBT-16 judges which side left the
target hex when the battle was over. Which SPs each player took (8.25: the inflicting player
chooses the odd-numbered ones) is on paper, not in the log.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling, Unknown
from vlog.kit.combat import strength_column
from vlog.kit.sequence import side_name

from ..events import CombatRolled, LossDeclared
from ..registry import REGISTRY
from .battle import when_over
from .common import ALLIED, GERMAN, other

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import StepView

    from ..rules import Sideshow
    from .battle import Battle

__all__ = ["leader_modifier", "attacker_shifts", "crt_loss"]

Reading = tuple[Any, tuple[str, ...]]
"""A value (None when the data lacks it) and the data or readings it rests on."""


def leader_modifier(battle: "Battle") -> Reading:
    """The German leaders' Combat Rating in the battle (8.35, 10.23): 0 with no leader; None
    with the data that would settle it when a rating (or, with several, a seniority) is unknown."""
    leaders = battle.leaders()
    if not leaders:
        return 0, ()
    if len(leaders) > 1:
        seniority = [u.seniority for u in leaders]
        if all(isinstance(s, int) for s in seniority):
            leaders = [min(leaders, key=lambda u: u.seniority)]
        elif len({u.combat for u in leaders if isinstance(u.combat, int)}) != 1 \
                or not all(isinstance(u.combat, int) for u in leaders):
            return None, tuple(sorted(d for u in leaders for s in (u.seniority, u.combat)
                                      if isinstance(s, Unknown) for d in s.data))
    combat = leaders[0].combat
    if isinstance(combat, int):
        return combat, ()
    return None, tuple(sorted(combat.data)) if isinstance(combat, Unknown) else (f"the Combat Rating of {leaders[0].name}",)


CITIES = "tables.json tec city_defender_shift"


def attacker_shifts(game: "Sideshow", target: str) -> list[Reading]:
    """8.33: how many columns left the attacker's column moves, by every reading the map allows."""
    cities = game.data.table("tec")["properties"]["city_defender_shift"].value or ()
    if target in {h for name in cities for h in game.data.hexes_named(name)}:
        return [(1, ())]
    terrain = game.battles.board.terrain(target)
    if isinstance(terrain, Unknown):
        names = tuple(sorted(terrain.data))
        return [(0, names), (1, names)]
    if terrain == "forest":
        return [(1, ())]
    if terrain == "forested-mountain":
        reading = ("8.33: whether a forested mountain hex is a forest hex",)
        return [(0, reading), (1, reading)]
    return [(0, ())]


def crt_loss(game: "Sideshow", strength: int, shift: int, roll: int) -> tuple[int | None, str]:
    """The CRT cell for a Committed Strength, moved `shift` columns left, at an adjusted roll:
    the SPs lost, None when the data lacks the cell (named). Where the data lists no columns,
    a known cell is the column that holds that strength (the 8.25 example)."""
    table = game.data.table("crt")
    labels = table.labels("column").value
    name = f"tables.json crt column for {strength} SP{' moved one left (8.33)' if shift else ''}, roll {roll}"
    key = strength_column(labels, strength, shift)
    if key is None:
        return None, name
    found = table.lookup(key, str(roll)).value
    return (found if isinstance(found, int) else None), name


def _losses(game: "Sideshow", battle: "Battle", roller: str) -> list[Reading]:
    """Every reading of the SPs the other side loses to `roller`'s combat roll."""
    roll, strength = battle.rolls[roller].total, battle.strength[roller][0]
    modifier, why = leader_modifier(battle)
    shifts = attacker_shifts(game, battle.target) if roller == battle.attacker else [(0, ())]
    out: list[Reading] = []
    for shift, because in shifts:
        if modifier is None:
            out.append((None, (*why, *because)))
            continue
        adjusted = roll + (modifier if roller == GERMAN else -modifier)
        value, cell = crt_loss(game, strength, shift, adjusted)
        out.append((value, (*because, *(() if value is not None else (cell,)))))
    return out


@REGISTRY.check("CBT-15", event=LossDeclared)
def judge_loss(game: "Sideshow", said: LossDeclared, view: "StepView") -> list["Finding"]:
    """8.25: the SPs a side says it lost are the CRT's result of the other side's roll."""
    battle = game.battles.current
    roller = other(said.side)
    if battle is None or roller not in battle.rolls or roller not in battle.strength \
            or battle.rolls[roller].roll.n_dice != 1 or battle.rolls[roller].total is None:
        return []
    readings = _losses(game, battle, roller)
    known = sorted({v for v, _ in readings if v is not None})
    if said.sp in known:
        return []
    unknown = sorted({d for v, why in readings if v is None for d in why})
    roll = battle.rolls[roller]
    modifier, _ = leader_modifier(battle)
    evidence = {"side": said.side, "loss": said.sp, "roller": roller, "roll": roll.total,
                "strength": battle.strength[roller][0], "leader_modifier": modifier, "crt": known,
                "target": battle.target}
    gives = f"the CRT gives {' or '.join(map(str, known))}" if known else "the CRT cell is not in the data"
    return [game.finding("CBT-15", Ruling.POSSIBLE if unknown else Ruling.PROVEN, step=said.step,
                         message=f"the {side_name(said.side)} player lost {said.sp} SP in the battle for "
                                 f"{battle.target} to the {side_name(roller)} roll of {roll.total} on "
                                 f"{battle.strength[roller][0]} SP; {gives} (8.25)",
                         evidence=evidence, depends_on=unknown)]


RETREAT = "retreat_on_adjusted_rolls"


def _loser(game: "Sideshow", battle: "Battle") -> tuple[str | None, str, tuple[str, ...]]:
    """The side 8.26 makes retreat, why, and the data it rests on (None: the log or data cannot say)."""
    modifier, why = leader_modifier(battle)
    if modifier is None:
        return None, "", why
    forcing = set(game.data.table("crt")["properties"][RETREAT].value or ())
    adjusted = {ALLIED: battle.rolls[ALLIED].total - modifier, GERMAN: battle.rolls[GERMAN].total + modifier}
    forced = [s for s in (ALLIED, GERMAN) if adjusted[other(s)] in forcing]
    rolls = f"adjusted rolls {side_name(ALLIED)} {adjusted[ALLIED]}, {side_name(GERMAN)} {adjusted[GERMAN]}"
    if len(forced) == 1:
        return forced[0], f"{rolls}: only the {side_name(other(forced[0]))} roll is a retreat result (4-9)", ()
    if set(battle.losses) == {ALLIED, GERMAN} and battle.losses[ALLIED][0] != battle.losses[GERMAN][0]:
        greater = ALLIED if battle.losses[ALLIED][0] > battle.losses[GERMAN][0] else GERMAN
        return greater, (f"{rolls}: {'both' if forced else 'neither'} retreat results, and the "
                         f"{side_name(greater)} loss of {battle.losses[greater][0]} SP is the greater"), ()
    return None, "", ()


@when_over("CBT-16")
def judge_who_retreated(game: "Sideshow", step: int | None) -> list["Finding"]:
    """8.0, 8.26: when the battle is over, the side the rolls make retreat has left the hex."""
    battle = game.battles.closed
    if battle is None or battle.withdrawal or set(battle.rolls) != {ALLIED, GERMAN} \
            or any(r.total is None or r.roll.n_dice != 1 for r in battle.rolls.values()):
        return []
    left = battle.loser()
    if left is None:
        return []
    loser, why, unknown = _loser(game, battle)
    if loser == left or (loser is None and not unknown):
        return []
    evidence = {"target": battle.target, "left": left, "must_retreat": loser,
                "rolls": {s: r.total for s, r in battle.rolls.items()},
                "losses": {s: sp for s, (sp, _) in battle.losses.items()}, "attack_step": battle.step}
    if loser is None:
        return [game.finding("CBT-16", Ruling.POSSIBLE, step=step,
                             message=f"the {side_name(left)} side left {battle.target} after the battle of step "
                                     f"{battle.step}; which side retreats depends on the German leader's rating (8.26, 8.35)",
                             evidence=evidence, depends_on=unknown)]
    return [game.finding("CBT-16", Ruling.PROVEN, step=step,
                         message=f"the {side_name(left)} side left {battle.target} after the battle of step "
                                 f"{battle.step} and the {side_name(loser)} side held it; {why}, so the "
                                 f"{side_name(loser)} side retreats (8.26)",
                         evidence=evidence)]


@REGISTRY.check("CBT-03", "CBT-04", "CBT-09", event=CombatRolled)
def judge_combat_roll(game: "Sideshow", roll: CombatRolled, view: "StepView") -> list["Finding"]:
    """8.22: after a withdrawal only the Allied KAR roll is made (type 1), or none (type 2);
    8.29: a side of artillery alone has Committed Strength 0 and makes no combat roll."""
    battle = game.battles.current
    if battle is None or roll.side is None:
        return []
    evidence = {"side": roll.side, "roll": roll.total, "target": battle.target, "attack_step": battle.step}
    if battle.withdrawal == "withdraw" and roll.side == GERMAN:
        return [game.finding("CBT-03", Ruling.PROVEN, step=roll.step,
                             message=f"the German player made a combat roll after withdrawing from {battle.target}; "
                                     "only the Allied player rolls, for his attacking KAR (8.22 type 1)",
                             evidence={**evidence, "withdrawal": battle.withdrawal})]
    if battle.withdrawal == "withdraw2":
        return [game.finding("CBT-04", Ruling.PROVEN, step=roll.step,
                             message=f"the {side_name(roll.side)} player made a combat roll after the German "
                                     f"withdrawal with ambush from {battle.target}; there is none (8.22 type 2)",
                             evidence={**evidence, "withdrawal": battle.withdrawal})]
    if battle.withdrawal is not None:
        return []
    mine = [u for u in battle.fought.values() if u.side == roll.side]
    if not mine or any(u.type != "artillery" for u in mine):
        return []
    return [game.finding("CBT-09", Ruling.PROVEN, step=roll.step,
                         message=f"the {side_name(roll.side)} player made a combat roll with artillery alone in "
                                 f"{battle.target} ({', '.join(sorted(u.name for u in mine))}): its Committed "
                                 "Strength is 0 and it makes no combat roll (8.29)",
                         subjects=tuple(sorted(u.name for u in mine)),
                         evidence={**evidence, "units": sorted(u.name for u in mine)})]
