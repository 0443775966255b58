"""Ascari's checks, one module per concern; importing the package registers them all."""
from vlog.games.ascari.checks import (  # noqa: F401
    booty, coatit, fire, fire_results, hits_while_moving, leaders, limbering, markers, melee, melee_results, movement, retreats, revolt, sequence, setup,
    stacking, turns)
