"""The Island of Death combat chat lines: an attack with its support clauses, a said result, a
bombardment, a strategic move."""
from __future__ import annotations

import vlog.games.island_of_death.rules  # noqa: F401  (loads the checks in order)
from vlog.games.island_of_death.checks.combat import read_attack
from vlog.games.island_of_death.checks.combat_result import read_result
from vlog.games.island_of_death.checks.sequence import read_bombard
from vlog.games.island_of_death.checks.strategic import read_strategic
from vlog.vassal.commands import Chat


def _chat(text: str) -> Chat:
    return Chat(text=f"&lt;Alice&gt; - {text}")


def test_an_attack_names_its_support_and_the_defenders_support() -> None:
    attack = read_attack(_chat("attack 1210 with 1/34, 2/34; support 28 and 1; defensive support 12"))
    assert attack is not None
    assert (attack.target, attack.attackers, attack.support, attack.defensive_support) == \
        ("1210", ("1/34", "2/34"), ("28", "1"), ("12",))
    plain = read_attack(_chat("attack 1311 with 1/34"))
    assert plain is not None and plain.support == () and plain.defensive_support == ()
    assert read_attack(_chat("attack 1311 with 1/34; bombard 1210")) is None


def test_a_result_line_reads_both_sides() -> None:
    result = read_result(_chat("result -/3D"))
    assert result is not None
    assert (result.attacker.number, result.attacker.letters, result.defender.number, result.defender.letters) == \
        (0, "", 3, "D")
    assert read_result(_chat("result soon")) is None


def test_a_bombardment_line_names_its_hex_and_bombarders() -> None:
    assert read_bombard(_chat("bombard 1412 with 28 and 1")) == ("1412", ("28", "1"))
    assert read_bombard(_chat("Bombards hex 1311.")) == ("1311", ())
    assert read_bombard(_chat("attack 1311 with 1/34")) is None
    assert read_bombard(_chat("bombard the beach")) is None


def test_a_strategic_line_names_its_units() -> None:
    assert read_strategic(_chat("strategic 8M, 2RWK and 1/R")) == ("8M", "2RWK", "1/R")
    assert read_strategic(_chat("Strategic movement: 1K.")) == ("1K",)
    assert read_strategic(_chat("strategic")) is None
    assert read_strategic(_chat("attack 1311 with 1/34")) is None
