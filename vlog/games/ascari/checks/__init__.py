"""Ascari's checks, one module per concern; importing the package registers them all."""
from vlog.games.ascari.checks import fire, fire_results, melee, movement, sequence, stacking  # noqa: F401
