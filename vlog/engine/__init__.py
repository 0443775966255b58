"""Rules machinery shared by the four games; each game supplies only its parameters and hooks.

One module per concern:

* `judge`     – `Unknown` values that name missing data, three-valued logic, and the judging
                rule (LEGAL / POSSIBLE naming the data / PROVEN illegal);
* `dice`      – die ranges ("1-4", "5+"), modified rolls with caps and clamps;
* `movement`  – cheapest-path search over (hex, stopped, forced-march count) with hooks for
                terrain, hexsides, roads, ZOC, stops, forced march and a second currency;
* `zoc`       – which hexes lie in a side's zone of control;
* `stacking`  – stacking limits with per-game counting rules;
* `supply`    – supply traces over N hexes and along road/rail lines;
* `combat`    – odds and columns, shifts and DRMs with caps, partial result tables, hit
                tables, step-loss, retreat and advance predicates.

The engine works on any hashable hex type and any `neighbours(hex)` function, so it serves the
project's hex layouts (`vlog.hexes`) and plain graphs alike; it imports nothing from the game
data loader (a datum's null value becomes an `Unknown` through `judge.value_or_unknown`).
"""
