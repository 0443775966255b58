"""What a combat reveals of the units the log does not show: dummies (CB-38, FW-06, PB 14.6.5),
the defenders revealed before the die (CB-05, 12.4), the counter-guerrilla roll of an attack on
guerrillas (CB-37, FW-08, PB 14.6.4.5). checks/combat.py judges the combat itself.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterable

from vlog.engine.judge import FALSE, TRUE, Explanation, Ruling, Tri, Unknown, judge
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.state import Unit
from vlog.games.lion_of_judah.step_events import DummyFlip
from vlog.kit.combat import modifier_sums, zone_readings

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.lion_of_judah.checks.combat import CombatFacts

__all__ = ["COUNTER_GUERRILLA_ESCAPE", "PAC_DATUM", "as_revealed", "counter_guerrilla_applies",
           "counter_guerrilla_drms", "defenseless", "judge_counter_guerrilla", "judge_dummies",
           "judge_dummy_flip", "judge_reveal_order", "true_dummy", "signs_of_going_on"]


def true_dummy(board: Board, unit: Unit) -> bool | Unknown:
    """Whether a dummy shows 'Dummy' on its revealed side (PB 14.6.5): False for any other
    unit and for a dummy still on its front side; Unknown when the data does not say."""
    if unit.kind != "dummy" or unit.level in (None, "front", "hidden"):
        return False
    if unit.level == "dummy":
        return True
    try:
        levels = board.data.counter(unit.counter)["levels"] if unit.counter else None
        face = levels[unit.level]["face"].value if levels is not None and unit.level in levels \
            and "face" in levels[unit.level] else None
    except (KeyError, TypeError, AttributeError):
        face = None
    if face is None:
        return Unknown(f"counters.json {unit.counter} level {unit.level} face")
    return str(face).strip().lower() == "dummy"


def defenseless(board: Board, unit: Unit) -> bool | Unknown:
    """11.6, 12.13: RPs, HQs, trucks and true Dummies."""
    return True if unit.defenseless else true_dummy(board, unit)


def as_revealed(board: Board, facts: CombatFacts) -> CombatFacts:
    """The defenders as flipped in the combat: a dummy's revealed side; a 0-x-4 attacks 0 and
    defends 1 to 3 when the data lacks its factor (PB 14.6.5)."""
    if not any(u.kind == "dummy" for u in facts.defenders):
        return facts
    shown = []
    for u in facts.defenders:
        now = facts.revealed.get(u.id, (0, None))[1]
        if u.kind == "dummy" and now is None and u.level in (None, "front"):
            shown.append(replace(u, attack=0, defense=Unknown(
                "the dummy's reverse side (not revealed in the log)", at_least=0, at_most=3)))
        elif u.kind == "dummy" and now is not None:
            now = replace(now, hex=u.hex)
            if true_dummy(board, now) is not True and now.defense is None:
                now = replace(now, attack=0, defense=Unknown(
                    f"counters.json {u.counter} level {now.level} defense (a 0-x-4: 1 to 3)",
                    at_least=1, at_most=3))
            shown.append(now)
        else:
            shown.append(u)
    return replace(facts, defenders=tuple(shown))


@REGISTRY.reports("CB-38")
def judge_dummies(board: Board, facts: CombatFacts, add: Any, target: str) -> set[str]:
    """CB-38 (PB 14.6.5): dummies defending are flipped once the attackers are declared; a
    true Dummy is removed. Returns the true Dummies (they leave the fight with no loss)."""
    gone: set[str] = set()
    for u in facts.defenders:
        if u.kind != "dummy":
            continue
        flipped = facts.revealed.get(u.id, (0, None))[1]
        shown = flipped if flipped is not None else u
        removed = u.id in facts.removed
        if shown.level == "front" and not removed:
            add("CB-38", Ruling.PROVEN, f"{u.name} at {target} was attacked and not flipped; a "
                "dummy is revealed once the attacker has declared all attacking units (PB 14.6.5)",
                {"unit": u.name, "level": shown.level}, subjects=[u.name])
            continue
        is_true = true_dummy(board, shown)
        if is_true is True:
            gone.add(u.id)
        if removed or is_true is False:
            continue
        add("CB-38", Ruling.PROVEN if is_true is True else Ruling.POSSIBLE,
            f"{u.name} at {target} was revealed as a true Dummy and left on the map; it is removed "
            "and treated as a defenseless unit (PB 14.6.5)", {"unit": u.name, "level": shown.level},
            subjects=[u.name], depends_on=is_true.data if isinstance(is_true, Unknown) else ())
    return gone


@REGISTRY.reports("CB-05")
def judge_reveal_order(facts: CombatFacts, add: Any, target: str) -> None:
    """CB-05 (12.4 steps 1-6): the defenders are revealed after the attack is declared and
    before the ratio is taken and the die rolled."""
    if facts.roll_step is None:
        return
    late = [(u, at) for u, (at, _unit) in ((u, facts.revealed[u.id]) for u in facts.defenders
                                           if u.id in facts.revealed) if at > facts.roll_step]
    if late:
        add("CB-05", Ruling.PROVEN, f"{', '.join(u.name for u, _ in late)} at {target} "
            f"{'was' if len(late) == 1 else 'were'} revealed after the combat die was rolled (step "
            f"{facts.roll_step}); the defenders are revealed once the attackers are designated, "
            "before the ratio and the die (12.4)",
            {"roll_step": facts.roll_step, "revealed_at": {u.name: at for u, at in late}},
            subjects=[u.name for u, _ in late])


COUNTER_GUERRILLA_ESCAPE = 4


PAC_DATUM = "tables.json counter-guerrilla modifiers (player aid card)"
"""PB 14.6.4.5: a modified counter-guerrilla roll of 4 or less and the guerrillas escape."""


def counter_guerrilla_applies(scenario: str | None, side: str | None, defenders: Iterable[Unit]) -> bool:
    """PB 14.6.4.5: (40) an Italian attack on a hex occupied only by guerrillas."""
    defenders = list(defenders)
    return scenario == "1940-41" and side == "italian" and bool(defenders) \
        and all(u.unit_class == "guerrilla" for u in defenders)


def counter_guerrilla_drms(board: Board, target: str) -> list[tuple[int, frozenset[str], str]]:
    """Each possible total DRM of the counter-guerrilla roll with the data it rests on: +1 in
    Tigray or the Ogaden (PB 14.6.4.1) and the player aid card's modifiers."""
    table = board.data.table("counter-guerrilla")
    props = table["properties"] if "properties" in table else {}
    region_drm = props["tigray_ogaden_drm"].value if "tigray_ogaden_drm" in props else None
    if not isinstance(region_drm, int) or isinstance(region_drm, bool):
        region = [(0, frozenset({"tables.json counter-guerrilla tigray_ogaden_drm"}), ""),
                  (1, frozenset({"tables.json counter-guerrilla tigray_ogaden_drm"}), "Tigray/Ogaden +1")]
    else:
        region = zone_readings([board.in_zone(target, z) for z in ("tigray", "ogaden")], int(region_drm),
                               f"Tigray/Ogaden {int(region_drm):+d}")
    pac = props["modifiers"].value if "modifiers" in props else None
    if pac is None:
        return [(drm, deps | {PAC_DATUM}, why) for drm, deps, why in region]
    extras = [m for m in pac if isinstance(m, int) and not isinstance(m, bool)][:8] if isinstance(pac, list) else []
    return [(drm + extra, deps, "; ".join(w for w in (why, f"card {extra:+d}" if extra else "") if w))
            for drm, deps, why in region for extra in modifier_sums(extras)]   # any of the card's may apply


@REGISTRY.reports("CB-37", "FW-08")
def judge_counter_guerrilla(board: Board, facts: CombatFacts, add: Any, target: str) -> str | None:
    """CB-37, FW-08 (PB 14.6.4.5). Returns "escape" when the log shows no combat after the roll
    (nothing more to judge), else None."""
    roll, roll_step = facts.counter_guerrilla or (None, None)
    revealed = {u.name: facts.revealed[u.id][0] for u in facts.defenders if u.id in facts.revealed}
    losses = any(facts.attacker_losses.values()) or any(facts.defender_losses.values()) \
        or bool(facts.removed & {u.id for u in (*facts.attackers, *facts.defenders)})
    went_on = losses or facts.roll is not None or bool(facts.advanced)
    if roll is None or roll_step is None:
        if went_on or revealed:
            add("CB-37", Ruling.PROVEN, f"the Italian attack on {target}, held only by guerrillas, went "
                "on with no counter-guerrilla roll; it is rolled after the attackers are designated, "
                "before the guerrillas are revealed (PB 14.6.4.5)",
                {"rolls": facts.rolls_seen, "revealed": sorted(revealed)})
        return None if went_on else "escape"
    early = {n: at for n, at in revealed.items() if at < roll_step}
    if early:
        add("FW-08", Ruling.PROVEN, f"{', '.join(early)} at {target} {'was' if len(early) == 1 else 'were'} "
            f"revealed before the counter-guerrilla roll (step {roll_step}); guerrillas are revealed only "
            "if the attack goes on (PB 14.6.4.5)", {"roll_step": roll_step, "revealed_at": early},
            subjects=list(early))
    readings = counter_guerrilla_drms(board, target)
    drms = sorted({drm for drm, _deps, _why in readings})
    evidence: dict[str, Any] = {"counter_guerrilla_roll": roll, "modified": [roll + d for d in drms],
                                "roll_step": roll_step}

    def verdict(escaped: bool) -> Any:
        # a reading that agrees with the log is legal on its own data; one that does not is
        # illegal unless the card's modifiers are unknown (they might turn it)
        out = []
        for drm, deps, why in readings:
            card = deps & {PAC_DATUM}
            rest = deps - card
            if (roll + drm <= COUNTER_GUERRILLA_ESCAPE) == escaped:
                out.append(Explanation(TRUE if not rest else Tri(None, rest), why))
            else:
                out.append(Explanation(FALSE if not card else Tri(None, deps), why))
        return judge(out)

    if went_on:
        v = verdict(False)
        if v.ruling is not Ruling.LEGAL:
            add("CB-37", v.ruling, f"the guerrillas at {target} escape on a counter-guerrilla roll of "
                f"{roll} (modified 4 or less), yet the attack went on ({', '.join(signs_of_going_on(facts))}); they "
                "stay in the hex unrevealed and the Italian units may not attack again this segment "
                "(PB 14.6.4.5)", {**evidence, "went_on": signs_of_going_on(facts)}, depends_on=v.depends_on)
            if v.ruling is Ruling.PROVEN:
                return "escape"         # no combat to judge: what followed should not have happened
        elif losses and facts.roll is None:
            add("CB-37", Ruling.PROVEN, f"the attack on the guerrillas at {target} was resolved with a "
                f"single die roll ({roll}); the counter-guerrilla roll comes first and the combat die "
                "after it (PB 14.6.4.5)", {**evidence, "rolls": facts.rolls_seen})
        return None
    v = verdict(True)
    late = {n: at for n, at in revealed.items() if at >= roll_step}
    if v.ruling is not Ruling.LEGAL:
        add("CB-37", v.ruling, f"a counter-guerrilla roll of {roll} at {target} (modified 5 or more) "
            "means the attack goes on, but it was not resolved (PB 14.6.4.5; 12.3: a declared attack "
            "may not be cancelled)", evidence, depends_on=v.depends_on)
    elif late:
        shown = verdict(False)
        if shown.ruling is not Ruling.LEGAL:
            add("FW-08", shown.ruling, f"{', '.join(late)} at {target} escaped on a counter-guerrilla "
                f"roll of {roll} and {'was' if len(late) == 1 else 'were'} revealed all the same; "
                "escaping guerrillas are not flipped (PB 14.6.4.5)", {**evidence, "revealed_at": late},
                subjects=list(late), depends_on=shown.depends_on)
    return "escape"


def signs_of_going_on(facts: CombatFacts) -> list[str]:
    shown = []
    if facts.roll is not None:
        shown.append(f"combat die {facts.roll}")
    if any(facts.attacker_losses.values()) or any(facts.defender_losses.values()) or facts.removed:
        shown.append("losses taken")
    if facts.advanced:
        shown.append("an advance")
    return shown


@REGISTRY.reports("FW-06")
def judge_dummy_flip(board: Board, unit: Unit, level: str | None, *, entered: bool,
                     step: int | None, when: str | None, removed: bool = False,
                     phase_key: str | None = None) -> list[Finding]:
    """FW-06 (PB 14.6.5): a dummy outside a combat is flipped only when an enemy unit tries to
    enter its hex (`entered`: one moved into it in this step or the one before), a revealed
    dummy never goes back to its front side while on the map, and a dummy leaves the map outside
    a combat only as a revealed true Dummy, on an enemy's entry, or in the End of Turn Phase
    (`phase_key` "end", when the turn track tells it; `removed`)."""
    where = hex_label(unit.hex, board) if unit.hex else "its box"
    evidence = {"hex": unit.hex, "level_before": unit.level, "level_after": level}
    if removed:
        if entered or phase_key in (None, "end"):
            return []
        is_true = true_dummy(board, unit)
        if is_true is True:
            return []
        shown = "face-down" if unit.level in (None, "front") else "revealed as a 0-x-4 unit"
        return [finding("FW-06", Ruling.PROVEN if is_true is False else Ruling.POSSIBLE, step=step,
                        when=when, subjects=(unit.name,),
                        message=f"{unit.name} at {where}, {shown}, was taken off the map outside a combat "
                                "and the End of Turn Phase; a dummy leaves the map when eliminated, "
                                "revealed as a true Dummy, or removed by its owner in the End of Turn "
                                "Phase (PB 14.6.5)",
                        evidence={**evidence, "phase": phase_key},
                        depends_on=is_true.data if isinstance(is_true, Unknown) else ())]
    if level == "front" and unit.level not in (None, "front"):
        return [finding("FW-06", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} at {where} was turned back to its front side; a revealed "
                                "dummy stays revealed until it is eliminated (PB 14.6.5)",
                        evidence=evidence)]
    if unit.level == "front" and level not in (None, "front") and not entered:
        return [finding("FW-06", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} at {where} was flipped outside a combat with no enemy "
                                "unit trying to enter its hex; a dummy stays face-down until then "
                                "(PB 14.6.5)",
                        evidence=evidence)]
    return []


@REGISTRY.check("FW-06", event=DummyFlip)
def judge_dummy_flipped(game: Any, action: DummyFlip, view: Any) -> list[Finding]:
    """FW-06 (PB 14.6.5): a dummy flipped or taken off the map outside a combat."""
    phase = game.interpreter.phase
    return judge_dummy_flip(game.board, action.unit, action.level, entered=action.entered, step=action.step,
                            when=action.when, removed=action.removed,
                            phase_key=phase.key if game.interpreter.phase_bound and phase else None)
