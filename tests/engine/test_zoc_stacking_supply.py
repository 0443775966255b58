"""Zones of control, stacking and supply tracing, on hand-built maps and against networkx."""
from __future__ import annotations

import random
from fractions import Fraction

import networkx as nx
import pytest

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import MovementRules, check_move
from vlog.engine.stacking import check_stacking, count_limit, exclusive, weight_limit
from vlog.engine.supply import SupplyRules, trace_supply
from vlog.engine.zoc import strength_at_least, zoc_map

from tests.engine import shipped
from tests.engine.gridutil import oddq_neighbours, random_map

NB = oddq_neighbours(8, 8)


# ---------------------------------------------------------------------------------------------
# ZOC


def test_iod_zoc_needs_attack_three_and_stops_at_ocean_hexsides():
    # IoD 5.1 (island-of-death.txt:181-184): a hex exerts ZOC with non-artillery units whose
    # total attack strength is 3 or more; 5.0 (island-of-death.txt:180): not across a hexside
    # that is entirely ocean (the data's TEC: all-ocean-hexside zoc "none"; the threshold of 3 is
    # not in the data).
    assert shipped.known("island-of-death", "tec", "all-ocean-hexside", "zoc") == "none"
    units = {(3, 3): [("inf", 2), ("inf", 1)], (6, 6): [("coy", 2)]}
    ocean = {frozenset(((3, 3), (3, 2)))}
    zone = zoc_map(units, NB, exerts=strength_at_least(3, lambda u: u[1]),
                   extends=lambda a, b, _u: frozenset((a, b)) not in ocean)
    assert zone.hexes() == frozenset(NB((3, 3))) - {(3, 2)}
    assert zone.in_zoc((3, 2)) is False
    assert zone.in_zoc((3, 3)) is False           # not in its own ZOC
    assert zone.sources((3, 4)) == {(3, 3)}
    assert all(zone.in_zoc(h) is False for h in NB((6, 6)))


def test_sideshow_zoc_thresholds_and_terrain():
    # Sideshow 6.71 (sideshow.txt:355-358): German stacks of 12+ SP, Allied stacks of 25+ SP;
    # 6.72 (sideshow.txt:362): not into mountain, forest or swamp hexes. Thresholds and the
    # terrain's "zoc none" are the data's (limits, tec).
    german_min = shipped.known("sideshow", "limits", "german_zoc_min_sp")
    allied_min = shipped.known("sideshow", "limits", "allied_zoc_min_sp")
    assert (german_min, allied_min) == (12, 25)
    assert all(shipped.known("sideshow", "tec", t, "zoc") == "none" for t in ("mountain", "forest", "swamp"))
    german = {(2, 2): [5, 7], (5, 5): [11]}
    forest = {(2, 3)}
    zone = zoc_map(german, NB, exerts=strength_at_least(german_min, lambda sp: sp),
                   extends=lambda a, b, _u: b not in forest)
    assert zone.hexes() == frozenset(NB((2, 2))) - forest
    allied = zoc_map({(2, 2): [24]}, NB, exerts=strength_at_least(allied_min, lambda sp: sp))
    assert allied.hexes() == frozenset()


def test_hidden_strength_makes_zoc_possible():
    hidden = Unknown("strength of hidden militia in 0303", at_least=0, at_most=4)
    zone = zoc_map({(3, 3): [1, hidden]}, NB, exerts=strength_at_least(3, lambda s: s))
    status = zone.in_zoc((3, 4))
    assert isinstance(status, Unknown) and status.data == {"strength of hidden militia in 0303"}
    weak = Unknown("strength of weak unit", at_least=0, at_most=1)
    assert zoc_map({(3, 3): [1, weak]}, NB,
                   exerts=strength_at_least(3, lambda s: s)).hexes() == frozenset()
    # feeding the map to the movement search: the move is possible, not proven
    rules = MovementRules(neighbours=NB, enter_cost=lambda h: 1, in_enemy_zoc=zone,
                          stop_on_zoc_entry=True)
    result = check_move(rules, (3, 5), (3, 1), 10)
    assert result.ruling in (Ruling.LEGAL, Ruling.POSSIBLE)


# ---------------------------------------------------------------------------------------------
# stacking


def loj_rules(terrain):
    # LoJ 8.2 (lion-of-judah.txt:437-451): three divisions per hex, plus one if the hex is
    # clear and/or contains a town, capital or amba; a non-division unit counts 1/2; HQs do not
    # count but at most one per hex; trucks unlimited.
    def weight(unit):
        kind = unit[0]
        if kind in ("HQ", "truck"):
            return None
        return 1 if kind == "division" else Fraction(1, 2)

    # The limits per terrain are the data's TEC "stacking" column (3 or 4 by 8.2).
    def limit(hex_):
        t = terrain.get(hex_)
        if t is None:
            return Unknown(f"terrain of {hex_}", at_least=3, at_most=4)
        return max(shipped.known("lion-of-judah", "tec", name, "stacking") for name in t)

    return [weight_limit("LoJ 8.2", weight, limit),
            count_limit("LoJ 8.2 one HQ", lambda u: u[0] == "HQ", 1)]


def test_loj_stacking_examples():
    # LoJ 8.2 examples (lion-of-judah.txt:447, 451): an amba hex allows 4; Gondar (mountain +
    # town) allows 4; without the town, 3.
    terrain = {"amba": {"mountain", "amba"}, "gondar": {"mountain", "town"},
               "mountain": {"mountain"}}
    rules = loj_rules(terrain)
    four = [("division", i) for i in range(4)]
    assert check_stacking({"amba": four, "gondar": four}, rules) == []
    [v] = check_stacking({"mountain": four}, rules)
    assert v.ruling is Ruling.PROVEN and v.count == 4 and v.limit == 3
    halves = [("brigade", i) for i in range(6)] + [("HQ", 0), ("truck", 1), ("truck", 2)]
    assert check_stacking({"mountain": halves}, rules) == []       # 6 x 1/2 = 3 divisions
    [v] = check_stacking({"mountain": halves + [("brigade", 9)]}, rules)
    assert v.count == Fraction(7, 2)
    [hq] = check_stacking({"gondar": [("HQ", 1), ("HQ", 2)]}, rules)
    assert hq.rule == "LoJ 8.2 one HQ"


def test_stacking_with_unknown_terrain_is_possible():
    rules = loj_rules({})
    assert check_stacking({"x": [("division", i) for i in range(3)]}, rules) == []
    [v] = check_stacking({"x": [("division", i) for i in range(4)]}, rules)
    assert v.ruling is Ruling.POSSIBLE and v.depends_on == {"terrain of x"}
    [v] = check_stacking({"x": [("division", i) for i in range(5)]}, rules)
    assert v.ruling is Ruling.PROVEN


def test_ethiopian_factions_and_unit_count():
    # LoJ 8.2 (lion-of-judah.txt:439): eight Ethiopian units per hex; PB 13.6.1: no two tribal
    # factions in one hex, Negus units stack with any (group None).
    rules = [weight_limit("LoJ 8.2 Ethiopians", lambda u: 1, lambda h: 8),
             exclusive("PB 13.6.1 factions", lambda u: u[0])]
    assert check_stacking({"h": [("Shoa", i) for i in range(8)]}, rules) == []
    [v] = check_stacking({"h": [("Shoa", i) for i in range(9)]}, rules)
    assert v.count == 9
    mixed = [("Shoa", 1), ("Tigray", 2), (None, 3)]
    [v] = check_stacking({"h": mixed}, rules)
    assert v.rule == "PB 13.6.1 factions" and "Shoa, Tigray" in v.message
    assert check_stacking({"h": [("Shoa", 1), (None, 2)]}, rules) == []


def test_iod_and_ascari_limits():
    # IoD 7.1 (island-of-death.txt:235-236): four battalions, a company counts 1/2, one HQ may
    # exceed the limit; leaders, coastal guns and militia do not count.
    def weight(unit):
        return {"bn": 1, "coy": Fraction(1, 2)}.get(unit)

    battalions = shipped.known("island-of-death", "limits", "stacking_battalions")   # the data's 7.1 limit
    assert battalions == 4
    iod = [weight_limit("IoD 7.1", weight, lambda h: battalions), count_limit("IoD 7.1 HQ", lambda u: u == "HQ", 1)]
    assert check_stacking({"h": ["bn"] * 3 + ["coy"] * 2 + ["HQ", "leader", "militia"]}, iod) == []
    assert check_stacking({"h": ["bn"] * 4 + ["coy"]}, iod)[0].count == Fraction(9, 2)
    # Ascari 3.4 (ascari.txt:157): one combat unit per hex; leaders and markers do not count.
    ascari = [count_limit("Ascari 3.4", lambda u: u != "leader", 1)]
    assert check_stacking({"h": ["rifle", "leader", "leader"]}, ascari) == []
    assert check_stacking({"h": ["rifle", "spear"]}, ascari)[0].count == 2


# ---------------------------------------------------------------------------------------------
# supply


def test_loj_supply_three_hexes_or_a_road():
    # LoJ 9.4 (lion-of-judah.txt:481-482): up to 3 hexes (own hex excluded) to a USS, or up to
    # 3 hexes to a road/rail/track then any number of consecutive line hexes to the USS.
    def nb(i):
        return [j for j in (i - 1, i + 1) if 0 <= j < 12]

    road = {frozenset((i, i + 1)) for i in range(4, 11)}
    rules = SupplyRules(neighbours=nb, is_source=lambda h: h == 11, max_hexes=3,
                        line=lambda a, b: frozenset((a, b)) in road)
    assert trace_supply(rules, 8).in_supply                     # 3 hexes overland
    near = trace_supply(rules, 1)                               # 3 hexes to road hex 4, then road
    assert near.in_supply and near.path == tuple(range(1, 12))
    assert near.overland_hexes == 3 and near.line_hexes == 7
    assert trace_supply(rules, 0).ruling is Ruling.PROVEN       # 4 hexes to the road
    no_road = SupplyRules(neighbours=nb, is_source=lambda h: h == 11, max_hexes=3)
    assert trace_supply(no_road, 1).ruling is Ruling.PROVEN


def test_loj_supply_restrictions():
    # LoJ 9.5.1 (lion-of-judah.txt:493-500): no hex with enemy units; a hex adjacent to an
    # enemy unit only if a friendly unit occupies it; the line part not through an enemy town.
    def nb(i):
        return [j for j in (i - 1, i + 1) if 0 <= j < 8]

    road = {frozenset((i, i + 1)) for i in range(7)}
    enemy_adjacent = {3}
    friendly = set()
    rules = SupplyRules(neighbours=nb, is_source=lambda h: h == 7, max_hexes=3,
                        in_enemy_zoc=lambda h: h in enemy_adjacent,
                        friendly_occupied=lambda h: h in friendly,
                        line=lambda a, b: frozenset((a, b)) in road)
    assert trace_supply(rules, 0).ruling is Ruling.PROVEN
    friendly.add(3)
    assert trace_supply(rules, 0).in_supply
    enemy_town = {5}
    blocked = SupplyRules(neighbours=nb, is_source=lambda h: h == 7, max_hexes=3,
                          line=lambda a, b: frozenset((a, b)) in road,
                          line_may_enter=lambda h: h not in enemy_town)
    # from 0: road blocked at 5; overland 3 hexes reach only 3
    assert trace_supply(blocked, 0).ruling is Ruling.PROVEN
    assert trace_supply(blocked, 4).in_supply                 # 3 overland hexes 5,6,7


def test_supply_unknown_source_control_is_possible():
    def nb(i):
        return [j for j in (i - 1, i + 1) if 0 <= j < 5]

    rules = SupplyRules(neighbours=nb, max_hexes=12,
                        is_source=lambda h: Unknown("control of 4") if h == 4 else False)
    trace = trace_supply(rules, 0)
    assert trace.ruling is Ruling.POSSIBLE and trace.depends_on == {"control of 4"}
    assert trace.path == (0, 1, 2, 3, 4)


@pytest.mark.parametrize("seed", range(60))
def test_supply_matches_networkx(seed):
    # IoD 8.2 (island-of-death.txt:253) shape: up to N hexes, not into enemy units, not into
    # empty enemy-ZOC hexes; plus an optional road leg (LoJ 9.4 #2) -- checked against a
    # two-layer networkx graph.
    rng = random.Random(9000 + seed)
    w, h = rng.randint(3, 9), rng.randint(3, 9)
    m = random_map(rng, w, h, roads=rng.randint(0, 3))
    nb = m["neighbours"]
    hexes = m["hexes"]
    enemy = {x for x in hexes if rng.random() < 0.08}
    zoc = {x for x in hexes if rng.random() < 0.2}
    friendly = {x for x in hexes if rng.random() < 0.2}
    sources = set(rng.sample(hexes, rng.randint(1, 3))) - enemy
    start = rng.choice(hexes)
    limit = rng.randint(0, 6)
    use_line = rng.random() < 0.6
    rules = SupplyRules(neighbours=nb, is_source=lambda x: x in sources, max_hexes=limit,
                        may_enter=lambda x: x not in enemy,
                        in_enemy_zoc=lambda x: x in zoc, friendly_occupied=lambda x: x in friendly,
                        line=(lambda a, b: frozenset((a, b)) in m["lines"]) if use_line else None)
    g = nx.DiGraph()
    for a in hexes:
        for b in nb(a):
            if b in enemy or (b in zoc and b not in friendly):
                continue
            g.add_edge((a, 0), (b, 0), weight=1)
            if use_line and frozenset((a, b)) in m["lines"]:
                g.add_edge((a, 0), (b, 1), weight=0)
                g.add_edge((a, 1), (b, 1), weight=0)
    g.add_node((start, 0))
    dist = nx.single_source_dijkstra_path_length(g, (start, 0))
    expected = start in sources or any(
        d <= limit for (x, _layer), d in dist.items() if x in sources and x != start)
    trace = trace_supply(rules, start)
    assert trace.in_supply == expected
    if expected:
        assert trace.path[0] == start and trace.path[-1] in sources
        assert trace.overland_hexes <= limit
        for a, b in zip(trace.path, trace.path[1:]):
            assert b in nb(a) and b not in enemy and (b not in zoc or b in friendly)
    else:
        assert trace.ruling is Ruling.PROVEN


def test_loj_supply_through_an_hq():
    # LoJ 9.4 #3 (lion-of-judah.txt:483): a non-HQ unit may trace up to two hexes to a friendly
    # HQ, which then traces as #1 or #2 (here #1: up to 3 hexes to the USS); no second HQ.
    from vlog.engine.supply import trace_via_relay

    def nb(i):
        return [j for j in (i - 1, i + 1) if 0 <= j < 12]

    uss = 11
    hqs = {8}
    direct = SupplyRules(neighbours=nb, is_source=lambda h: h == uss, max_hexes=3)
    to_hq = SupplyRules(neighbours=nb, is_source=lambda h: h in hqs, max_hexes=2)
    trace = trace_via_relay(to_hq, direct, 6, direct=direct)
    assert trace.in_supply
    assert trace.path == (6, 7, 8, 9, 10, 11) and trace.overland_hexes == 5
    assert trace_via_relay(to_hq, direct, 5, direct=direct).ruling is Ruling.PROVEN  # 3 to the HQ
    assert trace_via_relay(to_hq, direct, 9, direct=direct).path == (9, 10, 11)       # direct
    hqs.clear()
    hqs.update({7, 4})                  # 7 is 4 hexes from the USS, 4 is 7: neither traces on
    assert trace_via_relay(to_hq, direct, 5, direct=direct).ruling is Ruling.PROVEN
    hqs.add(3)
    # an unknown onward trace makes the unit's supply possible, naming the datum
    maybe = SupplyRules(neighbours=nb, max_hexes=3,
                        is_source=lambda h: True if h == uss else (Unknown("control of 1") if h == 1 else False))
    result = trace_via_relay(to_hq, maybe, 5, direct=maybe)
    assert result.ruling is Ruling.POSSIBLE and result.depends_on == {"control of 1"}
    assert result.path[0] == 5 and result.path[-1] == 1


@pytest.mark.parametrize("seed", range(30))
def test_traces_sharing_their_edges_find_what_each_finds_alone(seed):
    """`SupplyRules.edges`: traces of one side on one position to several sources (an Island of
    Death side's units to each of its HQs) share the answers of which hex may be entered from
    which, unknown ZOC included; each finds the trace it finds with its own."""
    rng = random.Random(700 + seed)
    w, h = rng.randint(3, 8), rng.randint(3, 8)
    m = random_map(rng, w, h, roads=0)
    hexes = m["hexes"]
    enemy = {x for x in hexes if rng.random() < 0.08}
    zoc = {x: (True if rng.random() < 0.5 else Unknown(f"zoc {x}")) for x in hexes if rng.random() < 0.25}
    friendly = {x for x in hexes if rng.random() < 0.2}

    def rules(sources, edges):
        return SupplyRules(neighbours=m["neighbours"], is_source=lambda x: x in sources, max_hexes=rng.randint(1, 6),
                           may_enter=lambda x: x not in enemy, in_enemy_zoc=lambda x: zoc.get(x, False),
                           friendly_occupied=lambda x: x in friendly, edges=edges)

    shared: dict = {}
    for _ in range(6):
        sources, start = set(rng.sample(hexes, 2)) - enemy, rng.choice(hexes)
        state = rng.getstate()
        alone = trace_supply(rules(sources, None), start)
        rng.setstate(state)
        assert trace_supply(rules(sources, shared), start) == alone
    assert shared


@pytest.mark.parametrize("seed", range(40))
def test_traces_to_one_hex_are_the_traces_found_alone(seed):
    """`TracesTo`: every start's trace to one hex, searched back from it, is the trace
    `trace_supply` finds forward, path included (ties between equally short paths broken
    alike), on known data, on unknown ZOC and hexsides, and where no route exists."""
    from vlog.engine.supply import TracesTo

    rng = random.Random(4100 + seed)
    w, h = rng.randint(3, 10), rng.randint(3, 10)
    m = random_map(rng, w, h, roads=rng.randint(0, 2))
    hexes = m["hexes"]
    enemy = {x for x in hexes if rng.random() < 0.1}
    zoc = {x: (True if rng.random() < 0.6 else Unknown(f"zoc {x}")) for x in hexes if rng.random() < 0.3}
    friendly = {x for x in hexes if rng.random() < 0.2}
    ocean = {frozenset((a, b)): (True if rng.random() < 0.5 else Unknown(f"side {a}/{b}"))
             for a in hexes for b in m["neighbours"](a) if rng.random() < 0.1}
    target = rng.choice(hexes)
    use_line = rng.random() < 0.3
    rules = SupplyRules(neighbours=m["neighbours"], is_source=lambda x: x == target,
                        max_hexes=rng.choice([None, 0, 1, 3, 6, 12]),
                        may_enter=lambda x: x not in enemy,
                        may_cross=lambda a, b: _not(ocean.get(frozenset((a, b)), False)),
                        in_enemy_zoc=lambda x: zoc.get(x, False), friendly_occupied=lambda x: x in friendly,
                        line=(lambda a, b: frozenset((a, b)) in m["lines"]) if use_line else None,
                        edges={} if rng.random() < 0.5 else None)
    together = TracesTo(rules, target)
    starts = rng.sample(hexes, min(len(hexes), 12))
    found = [together.trace(start) for start in starts]
    assert found == [trace_supply(rules, start) for start in starts]


def _not(flag):
    return flag if isinstance(flag, Unknown) else not flag
