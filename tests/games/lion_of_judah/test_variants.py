"""Fixture logs under fixtures/lion-of-judah/variants/: more than one log per check (a check's
mistake in another scenario or situation) and legal play around them, each replayed once on the
SYNTHETIC data (fixtures/lion-of-judah/synthetic-data: synthetic test values, not the published
charts). `<check-id>-<what>.vscript` plants that check's finding once (its first comment line says
what and where, "(POSSIBLE)" when no log can settle it), `clean-*.vscript` plants none."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

import pytest

import vlog
from vlog.games.lion_of_judah.rules import game
from vlog.replay import replay_log

from .test_end_to_end import FIXTURES, _matches, rules_of, synthetic_data, synthetic_module

VARIANTS = FIXTURES / "variants"

EXPECTED: dict[str, list[tuple[str, int, str, Mapping[str, Any]]]] = {
    # 10.1.3: a combat declared without an air clause, judged with the air only of markers that flew
    "CB-19-ethiopian-air": [("CB-19", 11, "proven", {"column": "1:2", "cell": "1/1",
                                                     "air_shifts_possible": {"attacker": 0, "defender": 0}})],
    "CB-19-ethiopian-defender-air": [("CB-19", 6, "proven", {"column": "2:1", "cell": "1/2",
                                                              "air_shifts_possible": {"attacker": 0, "defender": 0}})],
    "CB-19-town-no-air": [("CB-19", 17, "proven", {"initial_ratio": "2:1", "column": "1:1", "cell": "2/1",
                                                   "air_shifts_possible": {"attacker": 0, "defender": 0}})],
    "CB-19-town-air-flown": [("CB-19", 17, "possible", {"column": "2:1", "cell": "1/1",
                                                        "air_shifts_possible": {"attacker": 1, "defender": 0}})],
    "CB-19-town-no-air-1940-41": [("SU-05", 1, "proven", {"hex": "1307"}),   # KAR1 set up in Ethiopia: its test needs it (kept)
        ("CB-19", 8, "proven", {"initial_ratio": "5:1", "column": "4:1", "cell": "1/2",
                                                          "air_shifts_possible": {"attacker": 0, "defender": 0}})],
    "CB-19-town-air-flown-1940-41": [("SU-05", 1, "proven", {"hex": "1307"}),   # KAR1 set up in Ethiopia: its test needs it (kept)
        ("CB-19", 8, "possible", {"column": "5:1", "cell": "0/2",
                                                               "air_shifts_possible": {"attacker": 1, "defender": 0}})],
    # placements before play are the set-up, judged by no event or reinforcement check
    "EV-04-after-setup": [("EV-04", 4, "proven", {"hex": "1405"})],
    # a unit set up outside its set-up area while setting up (set-up is not an event): SU-02/SU-05
    "SU-02-set-up-outside": [("SU-02", 12, "proven", {"hex": "1306", "counter": "it-pl"})],
    "SU-05-set-up-outside": [("SU-05", 6, "proven", {"hex": "0126", "counter": "gb-sdf2"})],
    "clean-setup-1935-36": [],
    "clean-setup-1940-41": [],
    # a stack dragged as one (`move A B along ...`): each of its units moves
    "MV-04-stack-drag": [("MV-04", 2, "proven", {}), ("MV-04", 2, "proven", {})],
    "clean-stack-drag-1935-36": [],
    "clean-stack-drag-1940-41": [],
    # PB 14.6.4.1: no guerrilla moves through another faction's guerrilla hex; ending in one is no MV-43
    "MV-43-then-end": [("MV-43", 6, "proven", {"from": "1213", "to": "1210", "failed_hop": ["1212", "1211"],
                                               "logged_route": ["1213", "1212", "1211", "1210"]})],
    "clean-guerrilla-end-1940-41": [],
    # 11.5.3: an undone drag's forced-march roll goes with it (and an undo after a roll is vlog's
    # undo-after-roll warning: a roll may have been taken back)
    "MV-23-undone-roll": [("undo-after-roll", 4, "possible", {}),
                          ("MV-23", 5, "proven", {"from": "1405", "to": "0905", "allowance": 4,
                                                  "forced_march_rolls": [], "forced_march_hexes_needed": 1})],
    "clean-undone-roll-1940-41": [("undo-after-roll", 8, "possible", {})],
    # a drag of more than one hex (a leg searched) that only a prohibition makes fail is named so
    "MV-42-leg": [("MV-42", 6, "proven", {"from": "1107", "to": "1110", "failed_hop": ["1107", "1109"],
                                          "hexes": ["1109"]})],
    "MV-43-leg": [("MV-43", 4, "proven", {"from": "1213", "to": "1210", "failed_hop": ["1213", "1211"],
                                          "hexes": ["1211"]})],
    "clean-leg-around-1935-36": [],
    "clean-leg-around-1940-41": [],
    # 10.2.1 and the Tug (PB 13.6.7.3) held to the route the log shows hop by hop (11.1)
    "MV-29-route": [("MV-29", 13, "proven", {"from": "1405", "to": "1205", "movement_factor": 4,
                                            "logged_route": ["1405", "1304", "1205"]})],
    "clean-hq-route-1935-36": [],
    "MV-23-off-tug": [("MV-23", 7, "proven", {"from": "2321", "to": "2319", "allowance": 4, "logged_cost": 4,
                                              "failed_hop": ["2318", "2319"]})],
    "clean-tug-1935-36": [],
    "clean-air-support-1935-36": [],
    "clean-no-air-1935-36": [],
    "clean-no-air-1940-41": [("SU-05", 1, "proven", {"hex": "1307"}),   # KAR1 set up in Ethiopia: its test needs it (kept)
        ],
}


def variant_logs() -> list[str]:
    return sorted(p.name[: -len(".vscript")] for p in VARIANTS.glob("*.vscript"))


@lru_cache(maxsize=None)
def findings_of(name: str) -> tuple:
    """The findings of one variant log (one replay per log per session)."""
    rep = replay_log(vlog.read(VARIANTS / f"{name}.vlog"), module=synthetic_module(), game=game(synthetic_data()))
    return tuple(rep.findings)


def test_every_variant_has_expectations() -> None:
    assert variant_logs() == sorted(EXPECTED)


def test_variants_say_what_they_plant() -> None:
    for name in variant_logs():
        first = (VARIANTS / f"{name}.vscript").read_text(encoding="utf-8").splitlines()[1]
        if name.startswith("clean-"):
            assert first.startswith("# CLEAN"), name
        else:
            check = "-".join(name.split("-")[:2])
            assert first.startswith(f"# PLANTS {check} once"), (name, first)
            assert ("(POSSIBLE)" in first) == any(b == "possible" for c, _, b, _ in EXPECTED[name] if c == check), name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_exactly_the_planted_findings(name: str) -> None:
    found = findings_of(name)
    got = sorted((f.check.split("/", 1)[1], f.step, f.basis.value) for f in found)
    assert got == sorted((c, s, b) for c, s, b, _ in EXPECTED[name]), [(f.check, f.step, f.message) for f in found]
    rules = rules_of()
    for check, step, _basis, evidence in EXPECTED[name]:
        f = next(f for f in found if f.check.split("/", 1)[1] == check and f.step == step)
        assert f.message
        if f.check.startswith("lion-of-judah/"):        # not vlog's own log checks (undo-after-roll)
            assert f.rule == rules[check] and f.when
        assert _matches(f.evidence, evidence), (check, dict(f.evidence))


def test_setting_up_ends_with_the_first_draw_or_phase_of_play() -> None:
    """Set-up: the turn track shows turn 1 before any player phase (MAP or Event Phase) and no
    event has been drawn; a phase the track does not tell is no set-up."""
    from types import SimpleNamespace

    from vlog.games.lion_of_judah.checks.placements import setting_up

    def game(turn: int, key: str, *, bound: bool = True, drawn: bool = False) -> Any:
        phase = SimpleNamespace(turn=turn, key=key)
        return SimpleNamespace(interpreter=SimpleNamespace(phase=phase, phase_bound=bound),
                               events=SimpleNamespace(any_draw=drawn))

    assert setting_up(game(1, "event")) and setting_up(game(1, "map"))
    assert not setting_up(game(1, "event", drawn=True))
    assert not setting_up(game(1, "first-movement"))
    assert not setting_up(game(2, "event"))
    assert not setting_up(game(1, "event", bound=False))


def test_a_stack_drag_is_each_unit_moving() -> None:
    """Each hop of a stack dragged as one is one step in which the engine reads a move of
    every unit of the stack (the kit's Moved events, the game's Move)."""
    from vlog.games.lion_of_judah.step_events import Move

    gm = game(synthetic_data())
    moves: dict[int, list[tuple[str, str | None, str | None]]] = {}
    interpret = gm.interpret

    def recording(step: Any, table: Any, ctx: Any = None) -> Any:
        out = interpret(step, table, ctx)
        moves.setdefault(step.index, []).extend((e.unit.name, e.unit.hex, e.to) for e in out if isinstance(e, Move))
        return out

    gm.interpret = recording  # type: ignore[method-assign]
    replay_log(vlog.read(VARIANTS / "clean-stack-drag-1935-36.vlog"), module=synthetic_module(), game=gm)
    assert sorted(moves[4]) == [("21A", "1405", "1305"), ("GS", "1405", "1305")]
    assert sorted(moves[5]) == [("21A", "1305", "1206"), ("GS", "1305", "1206")]
    assert sorted(moves[9]) == [("Ras Seyum", "1107", "1207"), ("Tigray tribal levy (black stripe)", "1107", "1207")]
    assert sorted(moves[10]) == [("Ras Seyum", "1207", "1307"), ("Tigray tribal levy (black stripe)", "1207", "1307")]


def test_a_marker_already_in_the_attacked_hex_may_have_supported(tmp_path) -> None:
    """10.1.3: a marker of the attacker standing in the attacked hex when the attack is declared
    (placed early, in the movement segment: AR-09's two findings) keeps its air shift a reading."""
    from .scripted import judge_actions

    body = (VARIANTS / "CB-19-town-no-air.vscript").read_text(encoding="utf-8").split("player Bob side ethiopian\n")[1]
    early = body.replace('move "21A" along 1406 1306                     # next to 1307, in supply\n',
                         'move "21A" along 1406 1306\nmove @1704067200070 along 1307 on "Main Map"\n')
    assert early != body
    found = judge_actions(tmp_path, early)
    got = sorted((f.check.split("/", 1)[1], f.basis.value) for f in found)
    assert got == [("AR-09", "proven"), ("AR-09", "proven"), ("CB-19", "possible")], [(f.check, f.message) for f in found]
    cb19 = next(f for f in found if f.check.endswith("/CB-19"))
    assert cb19.evidence["air_shifts_possible"] == {"attacker": 1, "defender": 0}
