"""The day and turn structure (4.0-4.4): what the time of day allows, and the end of the game.

Each game turn is one box of the Turn Record Track, labelled in the data with its day and time
("30 June AM", "30 June Night"); the module's turn tracker shows the turn and the phase. An
amphibious landing (a unit placed from a First or Second Wave box) is never made on a Night turn
(4.22, 18.93), and a jump (a unit placed from the Disbandment Box in the Airborne Landing Phase)
never at Noon or Night (4.23, 19.33). After the last turn of the scenario (22.22, 22.32) nothing
more is played.

The turn tracker runs forward (4.0, 4.4): a day is its Initial Segment, AM, Noon, PM and Night,
each game turn its phases in order. The tracker may skip a phase in which nothing is done, so a
jump forward is not judged; a step back to an earlier phase or turn (SEQ-01) is POSSIBLE: it is
wrong unless it only corrects the tracker, which the log cannot tell.

The weather (17.2): the first day of a scenario is always Clear, and in the Initial Segment of
each later day the Axis player rolls two dice. The player may type `weather` to say his next roll
is it (SEQ-10: no weather roll on the first day); an Initial Segment of a later day that the
tracker shows and leaves with no two dice rolled is SPR-02's.

Within a Combat Phase every bombardment comes before the first attack (9.2, 4.25, 4.33, 10.1).
The bombarding player says it in chat, `bombard 1210 with 28, 12` (the units optional); a
bombardment said after an attack of the same Combat Phase was rolled for or its result said is
SEQ-07's (PROVEN), after an attack only declared so far, POSSIBLE (the attack line may have been
typed early). The marker placements (9.2a) are not in the log (their pieces are not bound).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from vlog.engine.judge import Ruling
from vlog.kit.chat import names_listed
from vlog.kit.ledger import Ledger
from vlog.kit.steps import Declared, Moved, PhaseChanged, Placed

from vlog.games.island_of_death.rules import GRAMMARS, REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.games.island_of_death.rules import IslandOfDeath
    from vlog.kit.steps import StepView

NO_LANDING = {"first-wave": ("Night",), "second-wave": ("Night",)}
"""4.22: no Amphibious Landing Phase on Night turns."""
NO_JUMP = ("Noon", "Night")
"""4.23: no Airborne Landing Phase at Noon or Night."""
WEATHER_DICE = 2
"""17.2: the weather roll is two dice."""
_WEATHER = re.compile(r"\s*weather(?:\s+roll)?\s*\.?\s*$", re.IGNORECASE)


def read_weather(line: Any) -> bool | None:
    """`weather` (or `weather roll`): the speaker's next roll is the weather roll."""
    return True if _WEATHER.match(line.message) else None


GRAMMARS.add("weather", read_weather)

_BOMBARD = re.compile(r"\s*bombards?\s+(?:hex\s+)?(\d{4})(?:\s+with\s+(.+?))?\s*\.?\s*$", re.IGNORECASE)


def read_bombard(line: Any) -> tuple[str, tuple[str, ...]] | None:
    """`bombard 1210 with 28, 12` -> ('1210', ('28', '12')); None for other lines."""
    match = _BOMBARD.match(line.message)
    if match is None:
        return None
    names = names_listed(match.group(2) or "")
    return match.group(1), names


GRAMMARS.add("bombard", read_bombard)
COMBAT_PHASES = ("axis-combat", "allied-combat")
"""4.25, 4.33: the phases whose bombardments come before their attacks (SEQ-07)."""


class Timeline(Ledger):
    """The ledger of what is said once a game: play after the last turn, a stack that may be over
    the limit (the same units in the same hex)."""

    def __init__(self) -> None:
        self.played_after_end = False
        self.possible_stacks: set[tuple[str, frozenset[str]]] = set()
        self.segment: tuple[int, int | None] | None = None
        """The Initial Segment of a later day being played: (turn, the step it began)."""
        self.segment_dice = 0
        self.first_attack: tuple[int | None, str] | None = None
        """The Combat Phase's first attack: (its step, the hex attacked)."""
        self.attack_made: int | None = None
        """The step of the first roll or result after that attack (the attack was made)."""

    def step(self, view: "StepView") -> tuple[()]:
        if self.segment is not None:
            self.segment_dice += sum(getattr(r, "n_dice", 0) for r in view.rolls)
        if self.first_attack is not None and self.attack_made is None and view.rolls \
                and view.index != self.first_attack[0]:
            self.attack_made = view.index
        return ()

    def phase(self, change: Any, view: "StepView") -> tuple[()]:
        self.first_attack, self.attack_made = None, None
        return ()


def first_day(game: "IslandOfDeath", phase: Any) -> bool:
    """Is the phase's turn on the scenario's first day (the day of turn 1 on the track)?"""
    labels = phase.sequence.labels
    day, first = labels.get(phase.turn, ""), labels.get(1, "")
    return bool(day) and day.rsplit(" ", 1)[0] == first.rsplit(" ", 1)[0]


@REGISTRY.check("SEQ-02")
def judge_landing_time(game: "IslandOfDeath", event: Placed, view: "StepView") -> list["Finding"]:
    """4.22, 4.23: no landing from the wave boxes at Night, no jump at Noon or Night."""
    unit, phase = event.unit, game.phase
    before = game.units(view.before).get(unit.id)
    if phase is None or before is None or before.box is None:
        return []
    part = game.day_part()
    box_type = game.box_type(before.box)
    if box_type in NO_LANDING and part in NO_LANDING[box_type]:
        what, allowed = "landed from the " + game.box_name(before.box), "no amphibious landing on a Night turn (4.22)"
    elif before.box == "disbandment" and phase.name == "airborne-landing" and part in NO_JUMP:
        what, allowed = "jumped from the Disbandment Box", "no Airborne Landing Phase at Noon or Night (4.23)"
    else:
        return []
    return [game.finding("SEQ-02", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} {what} into {unit.hex} on a {part} turn: {allowed}",
                         subjects=(unit.name,),
                         evidence={"unit": unit.counter, "box": before.box, "hex": unit.hex, "time": part,
                                   "turn": phase.turn})]


@REGISTRY.check("SEQ-01", event=PhaseChanged)
def judge_tracker_order(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """4.0, 4.4: the sequence of play runs forward; a tracker stepped back may be a correction."""
    old, new = event.old, event.new
    if not event.bound or old is None or new is None or (new.turn, new.index) >= (old.turn, old.index):
        return []
    return [game.finding("SEQ-01", Ruling.POSSIBLE, step=event.step,
                         message=f"the turn tracker went back from {game.when_of(old)} to {game.when_of(new)}: "
                                 f"the sequence of play runs forward (4.0, 4.4); wrong unless it corrects the "
                                 f"tracker",
                         evidence={"from_turn": old.turn, "from_phase": old.name, "to_turn": new.turn,
                                   "to_phase": new.name},
                         depends_on=("whether the tracker was stepped back to correct it (the log does not say)",))]


@REGISTRY.check("SEQ-07", event=Declared)
def judge_bombardment_time(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """9.2, 10.1: in a Combat Phase all bombardments come before the first attack."""
    phase, ledger = game.phase, game.timeline
    if phase is None or phase.name not in COMBAT_PHASES:
        return []
    if event.grammar == "attack":
        if ledger.first_attack is None:
            ledger.first_attack = (event.step, event.declaration.target)
        return []
    if event.grammar == "result" and ledger.first_attack is not None and ledger.attack_made is None:
        ledger.attack_made = event.step
        return []
    if event.grammar != "bombard" or ledger.first_attack is None:
        return []
    target, names = event.declaration
    attack_step, attacked = ledger.first_attack
    made = ledger.attack_made
    evidence = {"target": target, "bombarders": list(names), "attack_step": attack_step, "attacked": attacked,
                "phase": phase.name, "turn": phase.turn}
    if made is not None:
        return [game.finding("SEQ-07", Ruling.PROVEN, step=event.step,
                             message=f"a bombardment of {target} said in {game.when_of(phase)} after the "
                                     f"attack on {attacked} (step {attack_step}) was made (step {made}): every "
                                     f"bombardment comes before the first attack (9.2, 10.1)",
                             evidence={**evidence, "attack_made_step": made})]
    return [game.finding("SEQ-07", Ruling.POSSIBLE, step=event.step,
                         message=f"a bombardment of {target} said in {game.when_of(phase)} after the attack "
                                 f"on {attacked} was declared (step {attack_step}), with no roll or result for "
                                 f"that attack yet: wrong if the attack was made before it (9.2, 10.1); a roll "
                                 f"or result line between them would settle it",
                         evidence=evidence)]


@REGISTRY.check("SEQ-09")
def judge_after_the_end(game: "IslandOfDeath", event: Moved, view: "StepView") -> list["Finding"]:
    """22.22, 22.32: the scenario ends with the Night turn of its last day."""
    phase = game.phase
    if phase is None or not phase.past_last_turn or game.timeline.played_after_end:
        return []
    game.timeline.played_after_end = True
    unit = event.after
    return [game.finding("SEQ-09", Ruling.PROVEN, step=event.step,
                         message=f"{unit.label()} moved after the last turn of the scenario "
                                 f"(turn {phase.turn} of {phase.sequence.turns})",
                         subjects=(unit.name,),
                         evidence={"turn": phase.turn, "last_turn": phase.sequence.turns, "unit": unit.counter})]


@REGISTRY.check("SEQ-10", event=Declared)
def judge_first_day_weather(game: "IslandOfDeath", event: Declared, view: "StepView") -> list["Finding"]:
    """4.1c, 17.2: no weather roll on the first day of the scenario: it is Clear."""
    phase = game.phase
    if event.grammar != "weather" or phase is None or not first_day(game, phase):
        return []
    label = phase.sequence.labels.get(phase.turn)
    return [game.finding("SEQ-10", Ruling.PROVEN, step=event.step,
                         message=f"a weather roll on {label}, the first day of the scenario: its weather is "
                                 f"always Clear (17.2)",
                         evidence={"turn": phase.turn, "day": label})]


@REGISTRY.check("SPR-02", event=PhaseChanged)
def judge_weather_rolled(game: "IslandOfDeath", event: PhaseChanged, view: "StepView") -> list["Finding"]:
    """17.2: the Initial Segment of each day after the first has its weather roll (two dice)."""
    ledger, out = game.timeline, []
    if ledger.segment is not None and ledger.segment_dice < WEATHER_DICE:
        turn, began = ledger.segment
        label = event.old.sequence.labels.get(turn) if event.old is not None else None
        out.append(game.finding("SPR-02", Ruling.PROVEN, step=event.step,
                                message=f"the Initial Segment of {label or f'turn {turn}'} (step {began}) ended "
                                        f"with no weather roll (two dice)",
                                evidence={"turn": turn, "day": label, "segment_step": began,
                                          "dice": ledger.segment_dice}))
    ledger.segment, ledger.segment_dice = None, 0
    new = event.new
    if new is not None and new.name == "initial-segment" and game.day_part(new) == "AM" \
            and not first_day(game, new) and not new.past_last_turn:
        ledger.segment = (new.turn, event.step)
        ledger.segment_dice = sum(getattr(r, "n_dice", 0) for r in view.rolls)
    return out
