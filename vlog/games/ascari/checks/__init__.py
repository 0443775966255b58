"""Ascari's checks, one module per concern; importing the package registers them all."""
from vlog.games.ascari.checks import fire, melee, movement, sequence, stacking  # noqa: F401
