"""Movement search speed: `vlog.engine.movement.reachable` against networkx Dijkstra.

Both run on the same random 40 x 40 hex map (terrain 1-4 MP, prohibited hexes, river hexsides,
road lines); networkx gets the graph pre-built with each edge's final cost (so its time excludes
the rules), vlog evaluates the rule hooks as it searches. The ratio says what the hooks cost.

    python -m pytest tests/benchmarks/bench_engine_movement.py -s
    python tests/benchmarks/bench_engine_movement.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import networkx as nx  # noqa: E402

from tests.engine.gridutil import random_map  # noqa: E402
from vlog.engine.movement import MovementRules, check_move, reachable  # noqa: E402

SIZE = 40
RUNS = 20


def build():
    rng = random.Random(42)
    m = random_map(rng, SIZE, SIZE, prohibited=0.08, roads=12)
    terrain, sides, lines = m["terrain"], m["sides"], m["lines"]
    rules = MovementRules(
        neighbours=m["neighbours"], enter_cost=terrain.__getitem__,
        hexside_cost=lambda a, b: sides[frozenset((a, b))],
        line_cost=lambda a, b: 1 if frozenset((a, b)) in lines else None)
    g = nx.DiGraph()
    for a in m["hexes"]:
        for b in m["neighbours"](a):
            options = []
            if terrain[b] is not None and sides[frozenset((a, b))] is not None:
                options.append(terrain[b] + sides[frozenset((a, b))])
            if frozenset((a, b)) in lines:
                options.append(1)
            if options:
                g.add_edge(a, b, weight=min(options))
    starts = [h for h in rng.sample(m["hexes"], RUNS) if terrain[h] is not None]
    return rules, g, starts, m


def run() -> float:
    rules, g, starts, m = build()
    t0 = time.perf_counter()
    for s in starts:
        nx.single_source_dijkstra_path_length(g, s)
    base = time.perf_counter() - t0
    t0 = time.perf_counter()
    for s in starts:
        reachable(rules, s, None)
    ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    goal = (SIZE - 1, SIZE - 1)
    for s in starts:
        check_move(rules, s, goal, 12)
    checks = time.perf_counter() - t0
    ratio = ours / base
    print(f"\n{len(starts)} full searches on {SIZE}x{SIZE} hexes: networkx {base * 1000:.1f} ms, "
          f"vlog {ours * 1000:.1f} ms, ratio {ratio:.2f}; "
          f"{len(starts)} check_move (MA 12) {checks * 1000:.1f} ms")
    return ratio


def test_movement_search_speed():
    run()


if __name__ == "__main__":
    run()
