"""The engine on the games' own hex layouts (vlog.hexes), with the rulebooks' hex examples."""
from __future__ import annotations

import dataclasses
import random

import pytest

from vlog.engine.judge import Ruling
from vlog.engine.movement import MovementRules, check_move, reachable
from vlog.engine.zoc import strength_at_least, zoc_map
from vlog.hexes import LAYOUTS, Hex


def bounded(game: str, cols=(1, 30), rows=(1, 30)):
    return dataclasses.replace(LAYOUTS[game], cols=cols, rows=rows)


@pytest.mark.parametrize("game", sorted(LAYOUTS))
def test_unit_costs_give_hex_distance(game):
    # with every hex costing 1, the cheapest path is the hex distance on each game's grid
    layout = bounded(game)
    rules = MovementRules(neighbours=layout.neighbours_on_map, enter_cost=lambda h: 1)
    rng = random.Random(game)
    hexes = [Hex(c, r) for c in range(1, 31) for r in range(1, 31)]
    start = rng.choice(hexes)
    costs = reachable(rules, start, None)
    for goal in rng.sample(hexes, 60):
        assert costs[goal] == layout.distance(start, goal)
        route = check_move(rules, start, goal, layout.distance(start, goal)).route
        assert all(b in layout.neighbours(a) for a, b in zip(route.hexes, route.hexes[1:]))


def test_loj_air_range_example_distance():
    # LoJ 10.1.1 (inventory AR-01): "Gaba 1516 -> Gogo 1214 is in range (distance 4)".
    layout = LAYOUTS["lion-of-judah"]
    rules = MovementRules(neighbours=layout.neighbours, enter_cost=lambda h: 1)
    a, b = layout.parse("1516"), layout.parse("1214")
    assert check_move(rules, a, b, 4).ruling is Ruling.LEGAL
    assert check_move(rules, a, b, 3).ruling is Ruling.PROVEN


def test_sideshow_river_zoc_example():
    # Sideshow 6.75 (sideshow.txt:368-370): "Units may not cross a river directly into an enemy
    # ZOC, if that enemy unit is in a hex adjacent to that same river. Example: There is a German
    # unit in 3311 and an Allied unit in 3310. The Allied unit could not move directly into 3411
    # in a Movement Operation. It could move into 3211, because that hex is not on the same side
    # of the river as the German unit, but it could not then move into 3212."
    # The river's hexsides are not printed; the example implies them: 3310|3411 and 3211|3212
    # are crossed "directly into an enemy ZOC", 3311|3211 puts 3211 across the river from the
    # German unit, and 3310|3311 joins them into one continuous river. ZOC does not extend
    # across rivers (6.72, sideshow.txt:362). Entry costs of 1 are test values (6.25 is absent).
    layout = LAYOUTS["sideshow"]
    h = layout.parse
    river = {frozenset((h(a), h(b))) for a, b in
             (("3310", "3411"), ("3310", "3311"), ("3311", "3211"), ("3211", "3212"))}
    german = {h("3311"): [12]}                                   # a 12 SP stack: exerts (6.71)
    zone = zoc_map(german, layout.neighbours, exerts=strength_at_least(12, lambda sp: sp),
                   extends=lambda a, b, _u: frozenset((a, b)) not in river)
    assert zone.in_zoc(h("3411")) is True and zone.in_zoc(h("3212")) is True
    assert zone.in_zoc(h("3211")) is False and zone.in_zoc(h("3310")) is False

    def on_river(x):
        return any(x in side for side in river)

    def hexside(a, b):
        if frozenset((a, b)) in river and zone.in_zoc(b) is True:
            if any(on_river(src) for src in zone.sources(b)):
                return None                                       # 6.75
        return 0

    rules = MovementRules(neighbours=layout.neighbours, enter_cost=lambda x: 1,
                          hexside_cost=hexside, may_enter=lambda x: x not in german,
                          in_enemy_zoc=zone, stop_on_zoc_entry=True)
    assert hexside(h("3310"), h("3411")) is None
    assert hexside(h("3310"), h("3211")) == 0
    assert hexside(h("3211"), h("3212")) is None
    direct = check_move(rules, h("3310"), h("3411"), 1)
    assert direct.ruling is Ruling.PROVEN                       # not in one hex
    around = check_move(rules, h("3310"), h("3411"), None).route
    assert len(around.hexes) > 2                                # only by another way
    assert check_move(rules, h("3310"), h("3211"), 1).ruling is Ruling.LEGAL
    assert check_move(rules, h("3211"), h("3212"), 1).ruling is Ruling.PROVEN


def test_loj_concentric_directions_from_layout():
    # LoJ 12.9 (lion-of-judah.txt:814): attackers in two directly opposite hexes make a
    # concentric attack; directions come from the layout.
    from vlog.engine.combat import concentric

    layout = LAYOUTS["lion-of-judah"]
    defender = layout.parse("1307")
    ring = layout.neighbours(defender)
    dirs = {layout.direction(defender, ring[0]), layout.direction(defender, ring[3])}
    assert concentric(dirs)
    assert not concentric({layout.direction(defender, ring[0]), layout.direction(defender, ring[1])})


def test_loj_rp_route_example():
    # LoJ 7.3.2 (lion-of-judah.txt:407-413): "The base RP route is four hexes, but any hex
    # entered along the route of contiguous road or rail hexes counts as zero hexes and any hex
    # along a route of dirt track hexes counts as 1/2 hex." Example: "An Italian HQ in hex 1008
    # wants to spend an RP. The USS on the Northern Front is Massawa (hex 1405). Tracing from
    # Massawa, it uses zero of the 4 hexes to reach Asmara along the connected rail line, then
    # it costs four more hexes to reach the HQ." "If there were two trucks ... up to a distance
    # of 6 hexes". The rail Massawa 1405 - Asmara 1305 is the Massawa-Dongolaas line (11.7);
    # which other hexes carry tracks is not given, so the rest counts as full hexes.
    # The data's rail-massawa-dongolaas line starts at Massawa 1405 but lists no hexes (they are on
    # the map, not in the text), so the Massawa-Asmara segment here is the example's own.
    from tests.engine import shipped

    line = shipped.game("lion-of-judah").line("rail-massawa-dongolaas")
    assert "1405" in line["endpoints"].value and line["hexes"].value is None
    layout = LAYOUTS["lion-of-judah"]
    h = layout.parse
    rail = {frozenset((h("1405"), h("1305")))}
    rules = MovementRules(neighbours=layout.neighbours, enter_cost=lambda x: 1,
                          line_cost=lambda a, b: 0 if frozenset((a, b)) in rail else None)
    route = check_move(rules, h("1405"), h("1008"), 4)
    assert route.ruling is Ruling.LEGAL
    assert route.route.steps[0].to == h("1305") and route.route.steps[0].cost == 0
    assert route.route.cost == 4
    assert check_move(rules, h("1405"), h("1008"), 3).ruling is Ruling.PROVEN
    no_rail = MovementRules(neighbours=layout.neighbours, enter_cost=lambda x: 1)
    assert check_move(no_rail, h("1405"), h("1008"), 4).ruling is Ruling.PROVEN
    assert check_move(no_rail, h("1405"), h("1008"), 4 + 2).ruling is Ruling.LEGAL  # two trucks
