"""MV-06 and guerrillas (PB 14.6.4.1) on a SYNTHETIC clear board: guerrillas and
Italian-controlled units may share a hex, so neither keeps the other out of it; every other
enemy unit still does (11.2)."""
from __future__ import annotations

import pytest

from vlog.engine.movement import check_move
from vlog.games.lion_of_judah.checks.movement import MoveFacts, judge_move, movement_rules

from .synthetic import state, synthetic_board, unit


@pytest.fixture
def plain(tmp_path):
    """Columns 15-17 are Ethiopia, which guerrillas never leave (PB 14.6.1.3, MV-43)."""
    ethiopia = [f"{c:02d}{r:02d}" for c in range(15, 18) for r in range(1, 12)]
    return synthetic_board(tmp_path / "plain", zones={"ethiopia": ethiopia})


def guerrilla(id: str, hex_: str, name: str = "Shoa guerrilla"):
    """A 1940-41 Ethiopian levy under Allied control (state.py `_under_allied_control`)."""
    return unit(id, hex_, name=name, side="allied", unit_class="guerrilla", size=None,
                attack=1, defense=1, movement=3, faction="shoa")


def checks(findings):
    return [f.check for f in findings]


def test_italian_unit_moves_into_a_guerrilla_hex(plain):
    """Italian units may move into hexes occupied by guerrillas, at no 11.6 surcharge: 4 clear
    hexes on 4 MPs."""
    sb = unit("sb", "1603", name="Sb")
    g = guerrilla("g", "1607")
    facts = MoveFacts(sb, "1603", "1607", scenario="1940-41")
    assert judge_move(plain, state(sb, g, scenario="1940-41"), facts, step=3, when=None) == []


def test_italian_unit_moves_through_a_guerrilla_hex(plain):
    """...and through them: a path over the guerrilla hex is open."""
    sb = unit("sb", "1603", name="Sb")
    g = guerrilla("g", "1605")
    rules = movement_rules(plain, state(sb, g, scenario="1940-41"), sb, motorized=False,
                           scenario="1940-41", minimum_move=False)
    assert rules.may_enter("1605") is True
    assert check_move(rules, "1603", "1607", 4).verdict.legal


def test_guerrilla_moves_onto_italian_units(plain):
    """The rule's example: a guerrilla moves on top of an Italian unit."""
    g = guerrilla("g", "1603")
    sb = unit("sb", "1605", name="Sb")
    facts = MoveFacts(g, "1603", "1605", scenario="1940-41")
    assert judge_move(plain, state(sb, g, scenario="1940-41"), facts, step=2, when=None) == []


def test_commonwealth_unit_with_the_guerrillas_still_blocks(plain):
    """The hex holds a non-guerrilla Allied unit too: 11.2 forbids the move, naming only it."""
    sb = unit("sb", "1603", name="Sb")
    g = guerrilla("g", "1607")
    indian = unit("in", "1607", name="4th Indian", side="allied", unit_class="commonwealth")
    facts = MoveFacts(sb, "1603", "1607", scenario="1940-41")
    found = judge_move(plain, state(sb, g, indian, scenario="1940-41"), facts, step=3, when=None)
    assert "lion-of-judah/MV-06" in checks(found)
    mv06 = next(f for f in found if f.check == "lion-of-judah/MV-06")
    assert mv06.evidence["enemy_units"] == ["4th Indian"]


def test_commonwealth_unit_may_not_join_guerrillas_sharing_with_italians(plain):
    """Only guerrillas share hexes with Italian-controlled units; a Commonwealth unit moving
    into a hex of Italians and guerrillas is still stopped by the Italians."""
    indian = unit("in", "1603", name="4th Indian", side="allied", unit_class="commonwealth")
    sb = unit("sb", "1605", name="Sb")
    g = guerrilla("g", "1605")
    facts = MoveFacts(indian, "1603", "1605", scenario="1940-41")
    found = judge_move(plain, state(sb, g, indian, scenario="1940-41"), facts, step=4, when=None)
    mv06 = next(f for f in found if f.check == "lion-of-judah/MV-06")
    assert mv06.evidence["enemy_units"] == ["Sb"]


def test_commonwealth_unit_blocks_an_italian_path(plain):
    """A hex of Commonwealth units is no passage for Italian units, guerrillas or not."""
    sb = unit("sb", "1603", name="Sb")
    indian = unit("in", "1605", name="4th Indian", side="allied", unit_class="commonwealth")
    rules = movement_rules(plain, state(sb, indian, guerrilla("g", "1605"), scenario="1940-41"),
                           sb, motorized=False, scenario="1940-41", minimum_move=False)
    assert rules.may_enter("1605") is False
