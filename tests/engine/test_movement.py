"""The movement search against networkx shortest paths, and the rules it adds on small maps."""
from __future__ import annotations

import random
from fractions import Fraction

import networkx as nx
import pytest

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import MovementRules, check_move, cheapest_routes, follow_route, reachable
from vlog.errors import GameDataError

from tests.engine import shipped
from tests.engine.gridutil import oddq_neighbours, random_map

UNKNOWN_FLOOR = 1


def rules_for(m, *, zoc=frozenset(), zoc_enter=0, zoc_exit=0, stop=False, zoc_to_zoc=True,
              enemy=frozenset()):
    terrain, sides, lines = m["terrain"], m["sides"], m["lines"]

    def enter(h):
        t = terrain[h]
        if t == "?":
            return Unknown(f"terrain of {h}", at_least=UNKNOWN_FLOOR)
        return t

    return MovementRules(
        neighbours=m["neighbours"],
        enter_cost=enter,
        hexside_cost=lambda a, b: sides[frozenset((a, b))],
        line_cost=lambda a, b: m["line_cost"] if frozenset((a, b)) in lines else None,
        may_enter=(lambda h: h not in enemy) if enemy else None,
        in_enemy_zoc=(lambda h: h in zoc) if zoc else None,
        zoc_enter_cost=zoc_enter, zoc_exit_cost=zoc_exit,
        stop_on_zoc_entry=stop, zoc_to_zoc=zoc_to_zoc,
    )


def reference_graph(m, start, *, unknown_as=None, zoc=frozenset(), zoc_enter=0, zoc_exit=0,
                    stop=False, zoc_to_zoc=True, enemy=frozenset()):
    """The same rules written directly as a weighted digraph for networkx."""
    g = nx.DiGraph()
    g.add_nodes_from(m["hexes"])
    for a in m["hexes"]:
        if stop and a in zoc and a != start:
            continue  # entering a ZOC hex ends the move
        for b in m["neighbours"](a):
            if b in enemy:
                continue
            if not zoc_to_zoc and a in zoc and b in zoc:
                continue
            options = []
            t = m["terrain"][b]
            if t == "?":
                t = unknown_as
            s = m["sides"][frozenset((a, b))]
            if t is not None and s is not None:
                options.append(t + s)
            if frozenset((a, b)) in m["lines"]:
                options.append(m["line_cost"])
            if not options:
                continue
            w = min(options)
            if a in zoc:
                w += zoc_exit
            if b in zoc:
                w += zoc_enter
            g.add_edge(a, b, weight=w)
    return g


def path_weight(g, path):
    return sum(g[a][b]["weight"] for a, b in zip(path, path[1:]))


@pytest.mark.parametrize("seed", range(120))
def test_costs_match_networkx(seed):
    rng = random.Random(seed)
    w, h = rng.randint(3, 9), rng.randint(3, 9)
    m = random_map(rng, w, h, half_roads=bool(seed % 2))
    start = rng.choice([x for x in m["hexes"] if m["terrain"][x] is not None] or m["hexes"])
    allowance = rng.randint(0, 12)
    rules = rules_for(m)
    g = reference_graph(m, start)
    expected = nx.single_source_dijkstra_path_length(g, start)
    got = reachable(rules, start, allowance)
    assert got == {k: v for k, v in expected.items() if v <= allowance}
    for goal in rng.sample(m["hexes"], min(6, len(m["hexes"]))):
        result = check_move(rules, start, goal, allowance)
        if goal in expected and expected[goal] <= allowance:
            assert result.ruling is Ruling.LEGAL
            assert result.route.cost == expected[goal]
            assert path_weight(g, list(result.route.hexes)) == expected[goal]
            assert result.route.hexes[0] == start and result.route.hexes[-1] == goal
            assert sum(s.cost for s in result.route.steps) == result.route.cost
        else:
            assert result.ruling is Ruling.PROVEN
            assert result.route is None


@pytest.mark.parametrize("seed", range(80))
def test_zoc_rules_match_networkx(seed):
    rng = random.Random(1000 + seed)
    w, h = rng.randint(4, 8), rng.randint(4, 8)
    m = random_map(rng, w, h, prohibited=0.05)
    zoc = frozenset(x for x in m["hexes"] if rng.random() < 0.25)
    enemy = frozenset(x for x in m["hexes"] if rng.random() < 0.05)
    start = rng.choice([x for x in m["hexes"] if x not in enemy])
    params = dict(zoc=zoc, zoc_enter=rng.choice([0, 2, 3]), zoc_exit=rng.choice([0, 1, 2]),
                  stop=rng.random() < 0.7, zoc_to_zoc=rng.random() < 0.5, enemy=enemy)
    allowance = rng.randint(1, 14)
    rules = rules_for(m, **params)
    g = reference_graph(m, start, **params)
    expected = nx.single_source_dijkstra_path_length(g, start)
    got = reachable(rules, start, allowance)
    assert got == {k: v for k, v in expected.items() if v <= allowance}


@pytest.mark.parametrize("seed", range(80))
def test_unknown_terrain_gives_possible_naming_the_datum(seed):
    rng = random.Random(5000 + seed)
    w, h = rng.randint(3, 8), rng.randint(3, 8)
    m = random_map(rng, w, h, prohibited=0.1, unknown=0.2)
    start = rng.choice(m["hexes"])
    allowance = rng.randint(1, 10)
    rules = rules_for(m)
    known = nx.single_source_dijkstra_path_length(reference_graph(m, start), start)
    hopeful = nx.single_source_dijkstra_path_length(
        reference_graph(m, start, unknown_as=UNKNOWN_FLOOR), start)
    for goal in m["hexes"]:
        if goal == start:
            continue
        result = check_move(rules, start, goal, allowance)
        if known.get(goal, allowance + 1) <= allowance:
            assert result.ruling is Ruling.LEGAL
        elif hopeful.get(goal, allowance + 1) <= allowance:
            assert result.ruling is Ruling.POSSIBLE
            assert result.verdict.depends_on
            # every datum named is the terrain of a hex on the route, and that hex is unknown
            on_route = set(result.route.hexes)
            for datum in result.verdict.depends_on:
                assert any(datum == f"terrain of {x}" and m["terrain"][x] == "?" for x in on_route)
            assert result.route.cost <= allowance
        else:
            assert result.ruling is Ruling.PROVEN


def line_map(costs, *, sides=None):
    """A row of hexes 0..n-1 joined in a line; costs[i] = entry cost of hex i."""
    n = len(costs)
    sides = sides or {}

    def neighbours(i):
        return [j for j in (i - 1, i + 1) if 0 <= j < n]

    return neighbours, (lambda i: costs[i]), (lambda a, b: sides.get(frozenset((a, b)), 0))


def loj_foot_cost(terrain: str) -> int:
    """A foot unit's MP cost from Lion of Judah's TEC in the shipped data ("+1" hexsides too)."""
    return int(shipped.known("lion-of-judah", "tec", terrain, "movement-foot"))


def test_breakdown_names_each_cost():
    # Lion of Judah 11.4 example (lion-of-judah.txt:674): "For an infantry unit to cross a river
    # into a mountain hex would cost a total of 3 MPs (that is, two MPs for a foot unit to enter a
    # mountain hex plus one MP for crossing the river)." Both costs are the data's TEC.
    mountain, river = loj_foot_cost("mountain"), loj_foot_cost("river-hexside")
    assert (mountain, river) == (2, 1)
    nb, enter, side = line_map([1, mountain], sides={frozenset((0, 1)): river})
    rules = MovementRules(neighbours=nb, enter_cost=enter, hexside_cost=side)
    result = check_move(rules, 0, 1, 3)
    assert result.ruling is Ruling.LEGAL
    assert result.route.cost == 3
    assert result.route.steps[0].parts == (("terrain", 2), ("hexside", 1))
    assert check_move(rules, 0, 1, 2).ruling is Ruling.PROVEN


def test_road_rate_applies_only_along_the_line():
    # Lion of Judah 11.4.2: along contiguous road hexes 1 MP per hex regardless of terrain;
    # motorized units 1/2 MP per road hex. Hexes 0-1-2 joined by road, hex 3 off the road.
    neighbours = {0: [1], 1: [0, 2], 2: [1, 3], 3: [2]}
    road = {frozenset((0, 1)), frozenset((1, 2))}
    rules = MovementRules(
        neighbours=lambda h: neighbours[h], enter_cost=lambda h: 2,
        line_cost=lambda a, b: Fraction(1, 2) if frozenset((a, b)) in road else None)
    result = check_move(rules, 0, 3, 3)
    assert result.ruling is Ruling.LEGAL
    assert [s.via for s in result.route.steps] == ["line", "line", "terrain"]
    assert result.route.cost == 3
    assert check_move(rules, 0, 3, Fraction(5, 2)).ruling is Ruling.PROVEN


def test_zoc_stop_and_zoc_to_zoc():
    # Island of Death 5.2 (ZOC Movement Cost table, foot units: enter +2, exit +2; "A unit
    # must stop moving when it enters an enemy ZOC"; no direct ZOC-to-ZOC move).
    #   0 - 1 - 2 - 3, hexes 1 and 2 in enemy ZOC, clear terrain costing 1 (a test value).
    nb, enter, _ = line_map([1, 1, 1, 1])
    zoc = {1, 2}
    rules = MovementRules(neighbours=nb, enter_cost=enter, in_enemy_zoc=lambda h: h in zoc,
                          zoc_enter_cost=2, zoc_exit_cost=2, stop_on_zoc_entry=True,
                          zoc_to_zoc=False)
    first = check_move(rules, 0, 1, 6)
    assert first.ruling is Ruling.LEGAL and first.route.cost == 3
    assert first.route.steps[0].stops
    assert check_move(rules, 0, 2, 99).ruling is Ruling.PROVEN      # stopped at 1
    assert check_move(rules, 1, 2, 99).ruling is Ruling.PROVEN      # ZOC to ZOC
    leave = check_move(rules, 2, 3, 3)                             # exit +2, clear 1
    assert leave.ruling is Ruling.LEGAL and leave.route.cost == 3
    assert ("zoc exit", 2) in leave.route.steps[0].parts
    assert check_move(rules, 2, 3, 2).ruling is Ruling.PROVEN


def test_sideshow_zoc_stop_but_may_leave():
    # Sideshow 6.37/6.74: a unit entering an enemy ZOC stops; one starting in an enemy ZOC
    # may move but stops on entering any enemy ZOC (no MP allowance: allowance None).
    nb, enter, _ = line_map([1, 1, 1, 1, 1])
    zoc = {0, 2}
    rules = MovementRules(neighbours=nb, enter_cost=enter, in_enemy_zoc=lambda h: h in zoc,
                          stop_on_zoc_entry=True)
    assert check_move(rules, 0, 1, None).ruling is Ruling.LEGAL
    assert check_move(rules, 0, 2, None).ruling is Ruling.LEGAL
    assert check_move(rules, 0, 3, None).ruling is Ruling.PROVEN


def test_minimum_move():
    # Island of Death 6.53 / Lion of Judah 11.2: a unit may always move one hex spending its
    # whole allowance, but not into terrain prohibited to it.
    nb, enter, _ = line_map([1, 5, None])
    plain = MovementRules(neighbours=nb, enter_cost=enter)
    assert check_move(plain, 0, 1, 2).ruling is Ruling.PROVEN
    rules = MovementRules(neighbours=nb, enter_cost=enter, minimum_move=True)
    result = check_move(rules, 0, 1, 2)
    assert result.ruling is Ruling.LEGAL and result.route.minimum_move
    assert check_move(rules, 1, 2, 4).ruling is Ruling.PROVEN      # prohibited hex
    assert check_move(rules, 0, 2, 99).ruling is Ruling.PROVEN     # two hexes
    assert check_move(rules, 0, 1, 0).ruling is Ruling.PROVEN      # MA 0 may not move


def test_loj_stack_moves_at_its_slowest_then_the_rest_go_on():
    # LoJ 11.3 example (lion-of-judah.txt:668): MFs 6, 6 and 4; "The stack moves two hexes,
    # costing 4 MPs (using up the 4 available MPs of the slowest unit), and leaves behind the 4
    # MF unit. The two units with 6 MF may continue moving, as they have two MPs remaining".
    # Hex costs of 2 are test values (the example says two hexes cost 4 MPs).
    nb, enter, _ = line_map([2, 2, 2, 2, 2])
    rules = MovementRules(neighbours=nb, enter_cost=enter)
    together = check_move(rules, 0, 2, min(6, 6, 4))
    assert together.ruling is Ruling.LEGAL and together.route.cost == 4
    assert check_move(rules, 0, 3, min(6, 6, 4)).ruling is Ruling.PROVEN
    left = 6 - together.route.cost
    assert left == 2
    assert check_move(rules, 2, 3, left).ruling is Ruling.LEGAL
    assert check_move(rules, 2, 4, left).ruling is Ruling.PROVEN


def test_forced_march_counts_hexes_beyond_allowance():
    # Lion of Judah 11.5.1/11.5.3: forced march lets a unit move up to double its allowance;
    # each hex entered beyond the printed MF needs a roll; never into a desert or amba hex.
    # Here MF 4, hexes cost 2 (rough, 11.5.3 example: "two for the normal cost"; the data's TEC).
    rough = loj_foot_cost("rough")
    nb, enter, _ = line_map([rough] * 6)
    rules = MovementRules(neighbours=nb, enter_cost=enter, forced_march=4)
    assert check_move(MovementRules(neighbours=nb, enter_cost=enter), 0, 3, 4).ruling is Ruling.PROVEN
    result = check_move(rules, 0, 4, 4)
    assert result.ruling is Ruling.LEGAL
    assert result.route.forced_march_hexes == 2
    assert [s.forced_march for s in result.route.steps] == [False, False, True, True]
    assert check_move(rules, 0, 5, 4).ruling is Ruling.PROVEN
    amba = {3}
    barred = MovementRules(neighbours=nb, enter_cost=enter, forced_march=4,
                           forced_march_into=lambda h: h not in amba)
    assert check_move(barred, 0, 3, 4).ruling is Ruling.PROVEN
    assert check_move(barred, 0, 2, 4).ruling is Ruling.LEGAL


def test_stops_after_hook():
    # Ascari FAQ (Coatit): moving up the ravine 2715 -> 2714 -> 2713 -> 2712 the unit must stop
    # at 2712; modelled as a step after which the unit stops.
    order = [2715, 2714, 2713, 2712, 2711]
    nb = {h: [x for x in (order[i - 1] if i else None, order[i + 1] if i + 1 < len(order) else None) if x]
          for i, h in enumerate(order)}
    rules = MovementRules(neighbours=lambda h: nb[h], enter_cost=lambda h: 1,
                          stops_after=lambda a, b: (a, b) == (2713, 2712))
    assert check_move(rules, 2715, 2712, 10).ruling is Ruling.LEGAL
    assert check_move(rules, 2715, 2711, 10).ruling is Ruling.PROVEN
    assert check_move(rules, 2713, 2712, 10).route.steps[-1].stops


def test_secondary_currency_is_accumulated_and_breaks_ties():
    # Sideshow 6.42: attrition points accumulate along the path of a Movement Operation.
    # Two equal-MP paths 0-1-3 and 0-2-3; hex 2 costs more attrition (test values).
    nb = {0: [1, 2], 1: [0, 3], 2: [0, 3], 3: [1, 2]}
    attrition = {1: 1, 2: 3, 3: 1}
    rules = MovementRules(neighbours=lambda h: nb[h], enter_cost=lambda h: 1,
                          secondary_cost=lambda a, b: attrition[b] if b in attrition else 0)
    result = check_move(rules, 0, 3, 2)
    assert result.route.hexes == (0, 1, 3)
    assert result.route.secondary == 2


def test_cheapest_routes_lists_ties():
    nb = {0: [1, 2], 1: [0, 3], 2: [0, 3], 3: [1, 2]}
    rules = MovementRules(neighbours=lambda h: nb[h], enter_cost=lambda h: 1)
    routes = cheapest_routes(rules, 0, 3)
    assert sorted(r.hexes for r in routes) == [(0, 1, 3), (0, 2, 3)]
    assert cheapest_routes(rules, 0, 3, limit=1)[0].cost == 2


def test_unknown_zoc_is_possible():
    nb, enter, _ = line_map([1, 1, 1])
    rules = MovementRules(neighbours=nb, enter_cost=enter,
                          in_enemy_zoc=lambda h: Unknown("strength of hidden unit X") if h == 1 else False,
                          stop_on_zoc_entry=True)
    result = check_move(rules, 0, 2, 5)
    assert result.ruling is Ruling.POSSIBLE
    assert result.verdict.depends_on == frozenset({"strength of hidden unit X"})
    assert "depends on strength of hidden unit X" in result.verdict.describe()


def test_bad_costs_raise_game_data_error():
    nb, _, _ = line_map([1, 1])
    with pytest.raises(GameDataError, match="negative"):
        check_move(MovementRules(neighbours=nb, enter_cost=lambda h: -1), 0, 1, 5)
    with pytest.raises(GameDataError, match="must be a number"):
        check_move(MovementRules(neighbours=nb, enter_cost=lambda h: "2"), 0, 1, 5)


def test_stack_of_grid_helpers():
    n = oddq_neighbours(3, 3)
    assert sorted(n((1, 1))) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 1), (2, 2)]


def test_forced_march_roll_adds_movement_points_jijiga():
    # Lion of Judah 11.5.3 example (lion-of-judah.txt:708): the 5-7-4 division declares a
    # forced march into Jijiga, a rough hex; the net roll of 1 gives "1/A": "pay a total of three
    # MPs to enter the hex (two for the normal cost plus one for the '1/A' result)".
    # How many MPs it had left is not stated; 1 is used (any value below 2 forces the march).
    # Hex 0 = the hex north of the HQ, hex 1 = Jijiga (rough: 2 MP, 11.5.3 example; data TEC).
    nb, enter, _ = line_map([1, loj_foot_cost("rough")])
    rules = MovementRules(neighbours=nb, enter_cost=enter, forced_march=4,
                          forced_march_costs=(1,))
    result = check_move(rules, 0, 1, 1)
    assert result.ruling is Ruling.LEGAL
    step = result.route.steps[0]
    assert step.forced_march and step.cost == 3
    assert step.parts == (("terrain", 2), ("forced march", 1))
    # without a logged roll there is no forced-march hex to enter
    assert check_move(MovementRules(neighbours=nb, enter_cost=enter, forced_march=4,
                                    forced_march_costs=()), 0, 1, 1).ruling is Ruling.PROVEN


def test_forced_march_surcharges_follow_the_path():
    # Each forced-march hex pays the surcharge of its own roll (11.5.3: "Roll the die only once
    # per hex"); the search keeps the count of rolls used. Test values: hexes cost 1, MF 2,
    # forced march to 4 (double MF), rolls adding 0 then 2.
    nb, enter, _ = line_map([1, 1, 1, 1, 1])
    rules = MovementRules(neighbours=nb, enter_cost=enter, forced_march=2,
                          forced_march_costs=(0, 2))
    assert check_move(rules, 0, 3, 2).route.cost == 3          # third hex: first roll, +0
    assert check_move(rules, 0, 4, 2).ruling is Ruling.PROVEN   # fourth: 3 + 1 + 2 > 4
    easy = MovementRules(neighbours=nb, enter_cost=enter, forced_march=2,
                         forced_march_costs=(0, 0))
    route = check_move(easy, 0, 4, 2).route
    assert route.forced_march_hexes == 2 and route.cost == 4


@pytest.mark.parametrize("seed", range(40))
def test_forced_march_matches_brute_force(seed):
    # exhaustive simple-path enumeration on small random maps: the search's verdict equals
    # "some path stays within the rules", with surcharges and forbidden forced-march hexes.
    rng = random.Random(7000 + seed)
    m = random_map(rng, rng.randint(2, 4), rng.randint(2, 4), prohibited=0.1, roads=1)
    start = rng.choice(m["hexes"])
    mf = rng.randint(1, 5)
    extra = rng.randint(0, mf)
    surcharges = tuple(rng.randint(0, 2) for _ in range(rng.randint(0, 3)))
    barred = {h for h in m["hexes"] if rng.random() < 0.2}
    rules = rules_for(m)
    rules.forced_march = extra
    rules.forced_march_costs = surcharges
    rules.forced_march_into = lambda h: h not in barred
    g = reference_graph(m, start)

    def feasible(goal):
        stack = [(start, 0, 0, (start,))]
        while stack:
            here, cost, marched, path = stack.pop()
            if here == goal:
                return True
            for nxt in g.successors(here):
                if nxt in path:
                    continue
                c = cost + g[here][nxt]["weight"]
                k = marched
                if c > mf:
                    if nxt in barred or marched >= len(surcharges):
                        continue
                    c += surcharges[marched]
                    k += 1
                if c <= mf + extra:
                    stack.append((nxt, c, k, path + (nxt,)))
        return False

    for goal in m["hexes"]:
        assert (check_move(rules, start, goal, mf).ruling is Ruling.LEGAL) == feasible(goal), goal


def test_route_explanation_names_hexes_and_data():
    nb, _, side = line_map([1, 2, 1], sides={frozenset((0, 1)): 1})
    costs = {0: 1, 1: 2, 2: Unknown("terrain of 0003", at_least=1)}
    rules = MovementRules(neighbours=nb, enter_cost=costs.__getitem__, hexside_cost=side)
    result = check_move(rules, 0, 2, 4)
    assert result.ruling is Ruling.POSSIBLE
    text = result.route.explain(name=lambda h: f"000{h + 1}")
    assert text == ("0001 -> 0002 (terrain 2, hexside 1) -> 0003 (terrain 1, depends on "
                    "terrain of 0003) = 4")
    assert check_move(rules, 0, 0, 4).route.explain() == "0 (no move)"


def test_forced_march_into_unknown_terrain_is_possible():
    # LoJ 11.5.2: no forced march into a desert or amba hex; when a hex's terrain is unknown,
    # a move that needs a forced march into it is possible, naming the datum.
    nb, enter, _ = line_map([2, 2, 2, 2])
    rules = MovementRules(neighbours=nb, enter_cost=enter, forced_march=4,
                          forced_march_into=lambda h: Unknown("is 0004 amba?") if h == 3 else True)
    assert check_move(rules, 0, 2, 4).ruling is Ruling.LEGAL
    result = check_move(rules, 0, 3, 4)
    assert result.ruling is Ruling.POSSIBLE
    assert result.verdict.depends_on == {"is 0004 amba?"}
    assert result.route.steps[-1].depends_on == {"is 0004 amba?"}


@pytest.mark.parametrize("seed", range(30))
def test_nearest_matches_networkx(seed):
    from vlog.engine.movement import nearest

    rng = random.Random(11000 + seed)
    m = random_map(rng, rng.randint(3, 8), rng.randint(3, 8))
    start = rng.choice(m["hexes"])
    goals = set(rng.sample(m["hexes"], rng.randint(1, 4)))
    budget = rng.randint(0, 8)
    dist = nx.single_source_dijkstra_path_length(reference_graph(m, start), start)
    best = min((dist[g] for g in goals if g in dist), default=None)
    result = nearest(rules_for(m), start, goals.__contains__, budget)
    if best is not None and best <= budget:
        assert result.ruling is Ruling.LEGAL
        assert result.route.cost == best and result.route.hexes[-1] in goals
    else:
        assert result.ruling is Ruling.PROVEN


def test_sideshow_within_three_aps_of_a_town():
    # Sideshow 6.44 (sideshow.txt:580-586): -2 to the Attrition Total when the move ends
    # "within three APs* of Town, Depot ... or controlled Railroad hex" (* "Counted as if unit
    # was moving to that hex"). AP costs are not in the text: test values 1 and 2.
    from vlog.engine.movement import nearest

    nb, enter, _ = line_map([1, 2, 2, 1])
    towns = {3}
    rules = MovementRules(neighbours=nb, enter_cost=enter)
    near = nearest(rules, 1, towns.__contains__, 3)                 # enter 2 (2 AP), 3 (1 AP)
    assert near.ruling is Ruling.LEGAL and near.route.cost == 3
    assert nearest(rules, 0, towns.__contains__, 3).ruling is Ruling.PROVEN   # 2 + 2 + 1 = 5
    assert nearest(rules, 3, towns.__contains__, 3).route.cost == 0          # ends in the town


def test_best_of_hq_movement_modes():
    # LoJ 10.2.1 (lion-of-judah.txt:574-576): an HQ "may only move one hex", or use its full MF
    # "if it moves exclusively along a continuous route of dirt track, rail line and/or road
    # hexes". Two rule sets, one logged move. Costs are test values; MF 4 (Italian HQs, 10.2.1
    # example: "Italian HQs during the 1935-36 scenario have only four MPs").
    from vlog.engine.movement import best_of

    nb, enter, _ = line_map([1, 3, 3, 3, 3])
    track = {frozenset((i, i + 1)) for i in range(1, 4)}
    one_hex = MovementRules(neighbours=nb, enter_cost=enter, minimum_move=True)
    along_track = MovementRules(neighbours=nb, enter_cost=lambda h: None,
                                line_cost=lambda a, b: 1 if frozenset((a, b)) in track else None)

    def check(start, goal):
        return best_of(check_move(one_hex, start, goal, 0 if abs(goal - start) > 1 else 4),
                       check_move(along_track, start, goal, 4))

    assert check(0, 1).ruling is Ruling.LEGAL                  # one hex, not on the track
    assert check(0, 2).ruling is Ruling.PROVEN                 # two hexes, not along the track
    along = check(1, 4)
    assert along.ruling is Ruling.LEGAL and along.route.cost == 3
    assert "no path" in check(0, 3).verdict.reasons[0]
    assert best_of().ruling is Ruling.PROVEN


def test_cheapest_cost_of_several_classes():
    from vlog.engine.movement import cheapest_cost

    assert cheapest_cost([None, None]) is None
    assert cheapest_cost([None, 3, 2]) == 2
    assert cheapest_cost([1, Unknown("woods, motorized", at_least=3)]) == 1       # known below the unknown
    found = cheapest_cost([2, Unknown("woods, motorized", at_least=0)])
    assert isinstance(found, Unknown) and found.at_least == 0 and found.at_most == 2
    assert found.data == {"woods, motorized"}


def test_any_class_changes_class_in_the_middle_of_a_move():
    """A unit that may switch class: woods only on foot, the swamp only motorized; neither
    class alone reaches C from A within 5, the mix does (woods 3 + swamp 2)."""
    from vlog.engine.movement import any_class

    line = {"A": ("B",), "B": ("A", "C"), "C": ("B",)}
    foot = {"A": 1, "B": 3, "C": None}
    motor = {"A": 1, "B": None, "C": 2}

    def rules(costs):
        return MovementRules(neighbours=lambda h: line[h], enter_cost=lambda h: costs[h])

    assert check_move(rules(foot), "A", "C", 5).ruling is Ruling.PROVEN
    assert check_move(rules(motor), "A", "C", 5).ruling is Ruling.PROVEN
    mixed = check_move(any_class(rules(foot), rules(motor)), "A", "C", 5)
    assert mixed.ruling is Ruling.LEGAL and mixed.route.cost == 5
    assert check_move(any_class(rules(foot), rules(motor)), "A", "C", 4).ruling is Ruling.PROVEN


def test_follow_route_pays_for_each_hex_the_log_shows():
    # Lion of Judah 11.1: "units move hex by hex, paying for each hex entered". A row of hexes
    # 0..5 with a rough hex 2 (2 MPs, the data's TEC) beside a clear bypass 6 (0-6-3): the
    # cheapest route 0-6-3 costs 2; dragged 0-1-2-3 the unit paid 4.
    rough = loj_foot_cost("rough")
    costs = {0: 1, 1: 1, 2: rough, 3: 1, 4: 1, 5: 1, 6: 1}
    links = {0: [1, 6], 1: [0, 2], 2: [1, 3], 3: [2, 4, 6], 4: [3, 5], 5: [4], 6: [0, 3]}
    rules = MovementRules(neighbours=lambda h: links[h], enter_cost=lambda h: costs[h])
    assert check_move(rules, 0, 3, 3).ruling is Ruling.LEGAL
    walk = follow_route(rules, [0, 1, 2, 3], 3)
    assert walk.ruling is Ruling.PROVEN and walk.failure == "allowance" and walk.failed_at == 2
    assert walk.spent == 1 + rough
    assert follow_route(rules, [0, 1, 2, 3], 4).ruling is Ruling.LEGAL
    # back and forth: every drag is paid for
    assert follow_route(rules, [0, 1, 0, 1], 2).failure == "allowance"
    # a drag to a hex further away is a leg searched from what the route has spent
    walk = follow_route(rules, [0, 1, 3], 5)
    assert walk.ruling is Ruling.LEGAL and [s.to for s in walk.check.route.steps] == [1, 2, 3]
    assert follow_route(rules, [0, 1, 4], 4).failure == "leg"
    # a hop the rules refuse
    refused = MovementRules(neighbours=lambda h: links[h], enter_cost=lambda h: costs[h],
                            may_enter=lambda h: h != 2)
    assert follow_route(refused, [0, 1, 2, 3], 9).failure == "entry"


def test_follow_route_forced_march_rolls_belong_to_the_hop_after_them():
    # Lion of Judah 11.5.1, 11.5.3: each hex entered beyond the MF needs its own roll ("roll the
    # die only once per hex"), resolved before the hex is entered; a roll's extra MPs are paid
    # for that hex. MF 4 on clear hexes (1 MP), up to 4 more by forced march: hexes 5 and 6 are
    # forced-march hexes; a roll adding 1 MP (the 11.5.3 example's "1/A") makes each cost 2.
    nb, enter, _ = line_map([1] * 8)
    rules = MovementRules(neighbours=nb, enter_cost=enter, forced_march=4)
    path = [0, 1, 2, 3, 4, 5, 6]
    rolled = [(), (), (), (), (1,), (1,)]
    walk = follow_route(rules, path, 4, rolled)
    assert walk.ruling is Ruling.LEGAL and walk.spent == 8 and walk.check.route.forced_march_hexes == 2
    early = follow_route(rules, path, 4, [(1,), (1,), (), (), (), (1,)])
    assert early.failure == "forced march roll" and early.failed_at == 4
    assert follow_route(rules, path, 4).ruling is Ruling.LEGAL          # rolls not judged
    dear = follow_route(rules, path, 4, [(), (), (), (), (1,), (2,)])   # 4 + 2 + 3 > 8
    assert dear.failure == "allowance" and dear.failed_at == 5
    barred = MovementRules(neighbours=nb, enter_cost=enter, forced_march=4,
                           forced_march_into=lambda h: h != 6)
    assert follow_route(barred, path, 4, rolled).failure == "forced march into"
    assert follow_route(MovementRules(neighbours=nb, enter_cost=enter), path, 4).failure == "allowance"


def test_follow_route_unknown_costs_are_possible():
    nb, _, _ = line_map([1] * 4)
    rules = MovementRules(neighbours=nb,
                          enter_cost=lambda h: Unknown("terrain of 2", at_least=1) if h == 2 else 1)
    walk = follow_route(rules, [0, 1, 2, 3], 3)
    assert walk.ruling is Ruling.POSSIBLE and walk.check.verdict.depends_on == {"terrain of 2"}
    assert follow_route(rules, [0, 1, 2, 3], 2).ruling is Ruling.PROVEN


@pytest.mark.parametrize("seed", range(60))
def test_moves_from_one_hex_to_goal_after_goal_are_the_moves_checked_alone(seed):
    """`MovesFrom`: one search carried on from goal to goal answers each goal as `check_move`
    answers it alone, route included (ties between equally cheap routes broken alike), on known
    and unknown terrain and ZOC, with minimum moves, goals asked again, and goals out of reach."""
    from vlog.engine.movement import MovesFrom

    rng = random.Random(7300 + seed)
    m = random_map(rng, rng.randint(3, 8), rng.randint(3, 8), prohibited=0.1, unknown=0.15)
    zoc = {x: (True if rng.random() < 0.7 else Unknown(f"zoc {x}")) for x in m["hexes"] if rng.random() < 0.25}
    enemy = frozenset(x for x in m["hexes"] if rng.random() < 0.05)
    rules = rules_for(m, zoc_enter=rng.choice([0, 1, 2]), zoc_exit=rng.choice([0, 1]),
                      stop=rng.random() < 0.7, zoc_to_zoc=rng.random() < 0.5, enemy=enemy)
    rules.in_enemy_zoc = lambda h: zoc.get(h, False)
    rules.minimum_move = rng.random() < 0.5
    start = rng.choice(m["hexes"])
    allowance = rng.choice([None, 1, 2, 4, 7])
    moves = MovesFrom(rules, start, allowance)
    goals = [rng.choice(m["hexes"]) for _ in range(10)]
    assert [moves.check(goal) for goal in goals] == [check_move(rules, start, goal, allowance) for goal in goals]


@pytest.mark.parametrize("seed", range(30))
def test_searches_sharing_their_steps_find_what_each_finds_alone(seed):
    """`MovementRules.steps`: searches of one class's units from different hexes share what
    each step costs, unknown terrain and ZOC included; each finds what it finds alone."""
    rng = random.Random(8800 + seed)
    m = random_map(rng, rng.randint(3, 8), rng.randint(3, 8), prohibited=0.1, unknown=0.15)
    zoc = {x: (True if rng.random() < 0.7 else Unknown(f"zoc {x}")) for x in m["hexes"] if rng.random() < 0.25}
    stop, zoc_to_zoc, shared = rng.random() < 0.7, rng.random() < 0.5, {}

    def rules(steps):
        found = rules_for(m, zoc_enter=1, stop=stop, zoc_to_zoc=zoc_to_zoc)
        found.in_enemy_zoc, found.steps = (lambda h: zoc.get(h, False)), steps
        return found

    for _ in range(8):
        start, goal, allowance = rng.choice(m["hexes"]), rng.choice(m["hexes"]), rng.choice([None, 2, 5])
        assert check_move(rules(shared), start, goal, allowance) == check_move(rules(None), start, goal, allowance)
    assert shared
