"""Lion of Judah checks, one module per area of the rules inventory (movement, stacking,
supply, combat). Each check is a plain function over a small game state, so it can be judged
on a synthetic position as well as on a replayed log."""
