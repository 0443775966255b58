"""The odd-but-legal cases of fire tied to its dice (checks/communications.py,
bombardment_targets.py, penetration.py, coastal_guns.py), on the fixture logs replayed once per
session (replays.py) and on the lines and dice themselves. SYNTHETIC data (the overlay in
fixtures/island-of-death/synthetic-data), not the published charts."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from vlog.dicestats import DiceRoll
from vlog.games.island_of_death.rules import INVENTORY  # noqa: I001  (before the checks: it registers them)
from vlog.games.island_of_death.checks.coastal_guns import _air_attacks, _gun_value, read_air_attack, read_fire
from vlog.games.island_of_death.checks.communications import Communications, Supported
from vlog.games.island_of_death.checks.penetration import MALTA_GARRISON, _formation
from vlog.kit.rolls import Answered
from vlog.vassal.commands import Chat

from tests.games.island_of_death.replays import replayed

FIRE_CHECKS = ("CBT-13", "SPC-03", "SPC-06", "SPC-09", "WSH-02", "SPR-04", "JMP-15")


def line(text: str) -> Chat:
    return Chat(f"&lt;Alice&gt; - {text}")


def test_the_fire_lines_read_their_firer_target_and_attacks():
    assert read_fire(line("fire CA Trieste at 2-6 Coastal Gun")) == \
        read_fire(line("Fires CA Trieste at 2-6 Coastal Gun."))
    shot = read_fire(line("fire 2-4 Coastal Gun at CA Trieste"))
    assert (shot.firer, shot.target) == ("2-4 Coastal Gun", "CA Trieste")
    assert read_fire(line("attack 1208 with 1/34")) is None
    air = read_air_attack(line("air attack 1212 on 2-6 Coastal Gun x 8"))
    assert (air.hex, air.gun, air.attacks) == ("1212", "2-6 Coastal Gun", 8)
    assert read_air_attack(line("air attacks 1516 x3")).gun is None
    assert read_air_attack(line("air attack on the guns")) is None


@pytest.mark.parametrize("name", ["clean-fire-intro", "clean-fire-hercules"])
def test_legal_fire_in_both_scenarios_is_judged_and_quiet(name):
    """The clean logs raise nothing, and the checks did judge there (not a silent pass)."""
    rep, game = replayed(name)
    assert rep.findings == []
    judged = {c for c in FIRE_CHECKS if game.tally.status(INVENTORY.check_id(c)).judged}
    expected = {"intro": {"SPC-03", "SPC-09", "WSH-02", "JMP-15"},
                "hercules": {"CBT-13", "SPR-04"}}[game.scenario]
    assert expected <= judged, judged


def test_a_destroyed_gun_still_fires_in_the_same_exchange():
    """16.55: the fire is simultaneous; the 2-6 gun hit by CA Trieste fires back and is removed
    after (clean-fire-intro), as in WSH-02's log where only its staying is wrong."""
    rep, _ = replayed("WSH-02")
    (found,) = rep.findings
    assert found.evidence["target"] == "al-coastal-gun-2-6" and found.step == 4


def roll(step, *faces):
    return DiceRoll(step, "Alice", f"{len(faces)}d6", len(faces), 6, tuple(faces), sum(faces))


def supported(leaders: bool, turn=2):
    units = [SimpleNamespace(id="w1", name="CA Trieste", counter="ax-ws-trieste"),
             SimpleNamespace(id="w2", name="CA Gorizia", counter="ax-ws-gorizia")]
    return Supported("1208", units, leaders, turn, "Turn 2, axis-combat")


def test_a_failed_communications_roll_is_tied_only_when_no_leader_may_have_rolled():
    _, game = replayed("clean-fire-hercules")
    ledger = Communications(game)
    dice = [roll(8, 4), roll(9, 2), roll(10, 3, 3)]
    assert ledger._judge(Answered(supported(leaders=False), 7, rolls=dice)) == []
    assert ledger.failed == {"w2": (2, 9, 2)}                  # the second die, the second warship
    ledger = Communications(game)
    assert ledger._judge(Answered(supported(leaders=True), 7, rolls=dice)) == []
    assert ledger.failed == {}                                 # a command roll may be one of them
    assert ledger._judge(Answered(supported(leaders=True), 7, rolls=[roll(8, 4), roll(9, 5, 5)]))  # too few
    assert Communications(game)._judge(Answered(supported(leaders=False), 7, rolls=[roll(8, 1)])) == []  # no CRT roll


def test_the_air_attacks_of_the_schedule_and_none_in_the_introductory_scenario():
    _, hercules = replayed("clean-fire-hercules")
    phase = lambda turn: SimpleNamespace(turn=turn)                       # noqa: E731
    assert [_air_attacks(hercules, phase(t)) for t in (1, 5, 9, 13, 17)] == [14, 12, 10, 8, 0]
    _, intro = replayed("clean-fire-intro")
    assert _air_attacks(intro, phase(5)) == 0


def test_a_coastal_gun_fires_its_first_printed_number_and_allied_units_share_one_formation():
    assert _gun_value(SimpleNamespace(name="2-6 Coastal Gun", counter="al-coastal-gun-2-6")) == 2
    assert _formation(SimpleNamespace(side="allied", formation=None)) == MALTA_GARRISON
    assert _formation(SimpleNamespace(side="axis", formation=None)) is None


def test_on_the_shipped_data_discovery_the_map_decides_is_not_judged_and_says_what_would():
    """The shipped map has no terrain: a bombardment two hexes from a friendly unit by day is not
    judged, naming the hexes (SPC-03 at Night needs no map: proven on both)."""
    rep, game = replayed("SPC-03", shipped=True)
    status = game.tally.status(INVENTORY.check_id("SPC-03"))
    assert status.unsettled and status.unsettled[0].step == 2
    assert any("map.json hex 1309 terrain" in d for d in status.unsettled[0].data)
    assert [(f.check, f.step) for f in rep.findings] == [(INVENTORY.check_id("SPC-03"), 5)]


def test_an_advance_past_a_fort_is_judged_on_the_fort_as_it_stood_at_the_attack():
    """17.1: the attacker's entry destroys the fort, but the advance it won was against a fort:
    only into it (the fort's finding, not the advance-length one)."""
    rep, game = replayed("CBT-31-fort")
    (found,) = rep.findings
    assert "a fort" in found.message and "allowed" not in found.evidence
    assert "1114" in game.supply.destroyed_forts
