"""Island of Death morale states after a result (9.41) and the steps a side's pieces show lost."""
from __future__ import annotations

import vlog.games.island_of_death.rules  # noqa: F401  (loads the checks in order)
from vlog.games.island_of_death.checks.combat_odds import DEMORALIZED, DISORGANIZED, NORMAL
from vlog.games.island_of_death.checks.combat_result import _after, steps_available, steps_lost_since
from vlog.games.island_of_death.units import Unit


def _unit(uid: str, hex_: str | None, steps: int | None, size: str = "battalion", level: str = "full") -> Unit:
    return Unit(id=uid, name=uid, counter=uid, side="allied", kind="infantry", size=size, movement_class="foot",
                movement=6, attack=6, defense=6, morale=4, hex=hex_, level=level, steps=steps)


def test_d_disorganizes_then_demoralizes_and_z_demoralizes() -> None:
    assert [_after(s, "D") for s in (NORMAL, DISORGANIZED, DEMORALIZED)] == [DISORGANIZED, DEMORALIZED, DEMORALIZED]
    assert [_after(s, "Z") for s in (NORMAL, DISORGANIZED, DEMORALIZED)] == [DEMORALIZED] * 3
    assert _after(DISORGANIZED, "") == DISORGANIZED


def test_losses_known_where_the_steps_are_and_open_where_not() -> None:
    start = {"a": _unit("a", "1311", 3), "b": _unit("b", "1311", None), "c": _unit("c", "1311", None, "company")}
    now = {"a": _unit("a", "1311", 2), "b": _unit("b", "1311", None), "c": _unit("c", None, None, "company")}
    assert steps_lost_since(start.values(), now, start) == (2, 2)          # a step of a, the company c
    gone = {"a": _unit("a", "1311", 3), "b": _unit("b", None, None), "c": _unit("c", "1311", None, "company")}
    assert steps_lost_since(start.values(), gone, start) == (1, None)      # battalion b: at least one step, how many not known
    assert steps_available(start.values()) == (5, None)


def test_a_battalion_swapped_for_its_lower_piece_lost_at_least_a_step() -> None:
    start = {"a": _unit("a", "1311", None)}
    now = {"a2": _unit("a", "1311", None, level="remnant")}
    assert steps_lost_since(start.values(), now, start) == (1, None)
