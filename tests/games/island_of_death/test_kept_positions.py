"""What Island of Death keeps from one position to the next is what it would read afresh: the
enemy units by hex and the leaders (`IslandOfDeath.enemies`, `leaders_on_map`), kept while a step
changes none of them, asked of both sides at every step of fixture logs of movement, combat,
landings and supply."""
from __future__ import annotations

import pytest

import vlog
from vlog.games.island_of_death.rules import IslandOfDeath
from vlog.games.island_of_death.terrain import by_hex
from vlog.replay import replay_log

from tests.games.island_of_death.replays import RULES, fixture_logs, synthetic_data, synthetic_module

LOGS = [name for name in fixture_logs() if name.startswith(("MOV", "ZOC", "CBT", "SUP", "AMP", "JMP", "clean"))]


def _replay_asking(name: str, monkeypatch) -> tuple[dict[int, set[int]], list]:
    """Replays `name`, asking each position's enemies and leaders of both sides: each answer's
    id -> the positions it was given for, and the answers that differ from the plain reading."""
    interpret, given, wrong = IslandOfDeath.interpret, {}, []

    def asking(self, step, table, ctx=None):
        for position in (ctx.view.before, ctx.view.after):
            for side in ("axis", "allied"):
                units = self.units(position).values()
                found = self.enemies(position, side)
                if found != by_hex(u for u in units if u.side != side):
                    wrong.append((step.index, side, "enemies"))
                leaders = self.leaders_on_map(position, side)
                if leaders != [u for u in units if u.is_leader and u.side == side and u.hex is not None]:
                    wrong.append((step.index, side, "leaders"))
                for answer in (found, leaders):
                    given.setdefault(id(answer), set()).add(id(position))
        return interpret(self, step, table, ctx)

    monkeypatch.setattr(IslandOfDeath, "interpret", asking)
    replay_log(vlog.read(RULES / f"{name}.vlog"), module=synthetic_module(), game=IslandOfDeath(synthetic_data()))
    return given, wrong


@pytest.mark.parametrize("name", LOGS)
def test_units_kept_from_step_to_step_are_the_units_read_afresh(name, monkeypatch):
    given, wrong = _replay_asking(name, monkeypatch)
    assert wrong == []
    assert any(len(positions) > 1 for positions in given.values())      # some were kept
