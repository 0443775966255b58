"""The Lion of Judah data the rule tests judge on: as shipped (the rulebook's data, many values
unknown) and completed by the fixtures' SYNTHETIC overlay (not the published charts)."""
from __future__ import annotations

from pathlib import Path

import pytest

from vlog.gamedata import load_game_data

SYNTHETIC_DATA = Path(__file__).resolve().parents[3] / "fixtures" / "lion-of-judah" / "synthetic-data"


@pytest.fixture(scope="session")
def synthetic():
    return load_game_data("lion-of-judah", overlays=[SYNTHETIC_DATA])


@pytest.fixture(scope="session")
def shipped():
    return load_game_data("lion-of-judah")
