"""Island of Death fixture logs replayed once per test session and shared by every test that
reads them (the golden playthroughs, the exact findings, the report checks).

The logs under fixtures/island-of-death/rules/ judge against the SYNTHETIC data overlay
fixtures/island-of-death/synthetic-data (synthetic test values, not the published charts) and
the module written from it."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import vlog
from vlog.gamedata import GameData, load_game_data
from vlog.games.island_of_death.rules import IslandOfDeath
from vlog.replay import Replay, replay_log
from vlog.vassal.module import read_module

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "island-of-death"
RULES = FIXTURES / "rules"
OVERLAY = FIXTURES / "synthetic-data"
MODULE = FIXTURES / "synthetic" / "island-of-death.vmod"
GAME = "island-of-death"


@lru_cache(maxsize=1)
def synthetic_data() -> GameData:
    return load_game_data(GAME, overlays=[OVERLAY])


@lru_cache(maxsize=1)
def shipped_data() -> GameData:
    return load_game_data(GAME)


@lru_cache(maxsize=1)
def synthetic_module() -> Any:
    return read_module(MODULE)


@lru_cache(maxsize=None)
def replayed(name: str, shipped: bool = False) -> tuple[Replay, IslandOfDeath]:
    """The replay of fixture log `name` on the synthetic data (or the shipped data), once."""
    game = IslandOfDeath(shipped_data() if shipped else synthetic_data())
    return replay_log(vlog.read(RULES / f"{name}.vlog"), module=synthetic_module(), game=game), game


def fixture_logs() -> list[str]:
    return sorted(p.name[: -len(".vscript")] for p in RULES.glob("*.vscript"))
