"""vlog.kit.routes on a SYNTHETIC strip of hexes and the shipped Lion of Judah forced march table."""
from __future__ import annotations

from functools import lru_cache

from vlog.engine.judge import Ruling, Unknown
from vlog.engine.movement import MovementRules, follow_route
from vlog.gamedata import load_game_data
from vlog.kit.routes import (along, best_walk, cheapest, classes, corrections, drags_back, hop_by_hop,
                             leg_surcharges, prohibited_into, roll_surcharge, route_evidence)

STRIP = ["a", "b", "c", "d", "e"]
"""SYNTHETIC: five hexes in a row, each costing 1."""


def neighbours(h):
    i = STRIP.index(h)
    return [STRIP[j] for j in (i - 1, i + 1) if 0 <= j < len(STRIP)]


def rules(**changes):
    return MovementRules(neighbours=neighbours, enter_cost=lambda h: 1, **changes)


@lru_cache(maxsize=None)
def loj():
    return load_game_data("lion-of-judah")


def test_a_route_is_walked_only_when_shown_hop_by_hop():
    assert hop_by_hop(neighbours, ("a", "b", "c")) and not hop_by_hop(neighbours, ("a", "c"))
    assert not hop_by_hop(neighbours, ("a", "b")) and not hop_by_hop(neighbours, ("a", "c", "d"))
    # walked: going back and forth costs each hex entered (4 MPs), beyond 3
    assert along(rules(), ("a", "b", "a", "b", "c"), "a", "c", 3).ruling is Ruling.PROVEN
    # one drag: searched from its ends (2 MPs)
    assert along(rules(), ("a", "c"), "a", "c", 3).ruling is Ruling.LEGAL


def test_drags_back_name_what_corrections_would_settle():
    assert drags_back(("a", "b", "a", "b", "c")) == ["a", "b"]
    assert corrections(("a", "b", "c")) is None
    assert corrections(("a", "b", "a"), "back: {}") == "back: a"


def test_cheapest_ignores_minimum_move_and_forced_march_and_is_evidence():
    found = cheapest(rules(minimum_move=True, forced_march=4), "a", "e", 1)
    assert found.ruling is Ruling.LEGAL and found.route.cost == 4          # searched up to 12
    evidence = route_evidence(found, str.upper)
    assert evidence["route"] == STRIP and evidence["route_cost"] == 4 and evidence["forced_march_hexes"] == 0
    assert "B" in evidence["route_explained"] and route_evidence(None) == {}


def test_best_walk_prefers_a_possible_reading():
    proven = follow_route(rules(), ("a", "b", "c"), 1)
    possible = follow_route(MovementRules(neighbours=neighbours, enter_cost=lambda h: Unknown("terrain", at_least=1)),
                            ("a", "b"), 1)
    assert possible.ruling is Ruling.POSSIBLE and proven.ruling is Ruling.PROVEN
    assert best_walk([(True, proven), (False, possible)])[0] is False
    assert best_walk([(True, proven)])[0] is True
    assert classes(Unknown("class")) == [True, False] and classes(False) == [False]


def test_forced_march_rolls_read_the_table():
    table = loj().table("forced-march")
    rolled = {r: roll_surcharge(loj(), "forced-march", r) for r in range(-2, 9)}
    for roll, (extra, datum) in rolled.items():
        cell = table.lookup(str(roll)).value
        if cell is None:
            assert (extra, datum) == (0, f"forced march table, roll {roll}")
        else:
            assert datum is None or "(" in datum
            assert extra == (int(str(cell).split("/")[0]) if datum is None else 0)
    marches, missing = leg_surcharges(loj(), "forced-march", [(), (1,), (1, 1)])
    assert marches[0] == () and len(marches[2]) == 2 and marches[2][0] == marches[1][0]
    assert missing == {d for r in (1,) for d in [rolled[r][1]] if d}


class View:
    """SYNTHETIC: hex 'x' desert, 'y' an amba, 'z' unknown terrain, others clear."""

    def terrain(self, h):
        return {"x": "desert", "z": Unknown("z terrain")}.get(h, "clear")

    def has_feature(self, h, feature):
        return h == "y" if h != "z" else Unknown("z features")


def test_forced_march_is_barred_from_terrain_and_features():
    into = prohibited_into(View(), features=("amba",), terrains=("desert",))
    assert into("a") is True and into("x") is False and into("y") is False
    assert isinstance(into("z"), Unknown) and into("z").data == {"z features", "z terrain"}
