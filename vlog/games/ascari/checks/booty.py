"""The First Agordat Booty revolt's victim (FAQ First Agordat): a Dervish leader stacked with a
Booty unit whose Camel side is flipped to its Women side (the revolt, S1.2, in the Italian
movement phase) is killed. The flip is a revolt when no fire is open and no melée is in its hex
(a hit eliminates a Booty unit instead: FDR-16). The leader is to be off the map before the next
unit moves; a log ending first leaves the occasion not settled."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling
from vlog.games.ascari.rules import REGISTRY
from vlog.kit.engine import END
from vlog.kit.steps import Flipped, Moved

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.ascari.rules import Ascari
    from vlog.kit.steps import StepView

LOG_ENDS = "the steps after the revolt (the log ends before another unit moves)"


@REGISTRY.check("SCN-02", event=Flipped)
def note_revolt(game: "Ascari", event: Flipped, view: "StepView") -> list:
    """A Camel flipped to Women in the Italian movement phase: its stacked Dervish leaders are due."""
    old, new, phase = event.before, event.after, game.phase
    if old.type != "booty" or old.level != "front" or new.level == "front" or old.hex is None \
            or phase is None or phase.phasing != "italian" or "movement" not in phase.kinds \
            or game.fires.open is not None or old.hex in game.play.melees:
        return []
    for unit in game.units(view.before).values():
        if unit.hex == old.hex and unit.leader and unit.side == "dervish":
            game.play.revolt_victims[unit.id] = (old.hex, event.step, old.name)
    return []


@REGISTRY.check("SCN-02", event=Moved)
def judge_leader_killed(game: "Ascari", event: Moved, view: "StepView") -> list:
    found = []
    for uid, (hex_, step, booty) in list(game.play.revolt_victims.items()):
        if step is not None and event.step is not None and event.step <= step:
            continue
        del game.play.revolt_victims[uid]
        leader = game.units(view.before).get(uid)
        if leader is None or leader.hex is None:
            continue
        found.append(game.finding("SCN-02", Ruling.PROVEN, step=event.step,
                                  message=f"{leader.name} was stacked in {hex_} with {booty}, which revolted at step "
                                          f"{step} (flipped to its Women side), and is still on the map at {leader.hex} "
                                          f"when the next unit moves: a Dervish leader stacked with a Camel that "
                                          f"revolts is killed (FAQ First Agordat)",
                                  subjects=(leader.name, booty),
                                  evidence={"hex": hex_, "revolt_step": step, "leader_hex": leader.hex}))
    return found


@REGISTRY.check("SCN-02", on=END)
def judge_revolt_at_end(game: "Ascari", view: "StepView") -> list:
    """A revolt the log ends after, its leader still there: not settled (the next log may remove it)."""
    for uid, (hex_, step, booty) in list(game.play.revolt_victims.items()):
        leader = game.units(view.after).get(uid)
        if leader is not None and leader.hex is not None:
            game.unsettled("SCN-02", step, (LOG_ENDS,))
    game.play.revolt_victims.clear()
    return []
