"""vlog.kit.movement on the shipped TECs of several games, a SYNTHETIC map view and SYNTHETIC units."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from vlog.engine.judge import Unknown
from vlog.gamedata import load_game_data
from vlog.kit.movement import LoggedRoutes, StackMoves, TerrainCosts, tec_cost, terrain_hooks


@lru_cache(maxsize=None)
def data(game):
    return load_game_data(game)


@dataclass
class View:
    """A SYNTHETIC map: terrain per hex, hexside features, lines between hexes."""

    terrain_of: dict
    sides: dict
    lines: dict

    def terrain(self, hex_):
        return self.terrain_of.get(hex_, Unknown(f"hex {hex_} terrain"))

    def hexside_has(self, a, b, feature):
        return self.sides.get((a, b), {}).get(feature, False)

    def line_kinds(self, a, b):
        return self.lines.get((a, b), set())


def test_tec_cost_reads_entries():
    assert tec_cost(2, 1) == 2 and tec_cost("+1", 0) == 1 and tec_cost(0.5, 1) == Fraction(1, 2)
    assert tec_cost("prohibited", 1) is None
    unread = tec_cost("other terrain in hex", 1)
    assert isinstance(unread, Unknown) and unread.at_least == 1


def test_terrain_costs_from_each_games_data():
    foot = TerrainCosts.from_data(data("lion-of-judah"), "movement-foot")
    motor = TerrainCosts.from_data(data("lion-of-judah"), "movement-motorized", floor=Fraction(1, 2))
    assert foot.of("rough") == 2 and foot.of("desert") is None and motor.of("road") == Fraction(1, 2)
    missing = foot.of("clear")                  # the TEC is on the player aid card
    assert isinstance(missing, Unknown) and "TEC clear movement-foot" in missing.data
    sideshow = TerrainCosts.from_data(data("sideshow"), "movement")
    assert sideshow.of("bridge") == 0 and sideshow.of("kilimanjaro-peak") is None
    mech = TerrainCosts.from_data(data("island-of-death"), "movement_mech")
    assert isinstance(mech.of("woods"), Unknown)   # 'no movement cost is in the text'


def test_terrain_hooks_on_lion_of_judah_columns():
    view = View({"a": "rough", "b": "amba", "c": "desert", "d": "clear"},
                {("a", "b"): {"river": True}, ("a", "c"): {"impassable": True},
                 ("b", "d"): {"river": Unknown("hexside b-d river")}},
                {("a", "b"): {"road"}, ("b", "d"): {"rail"}})
    enter, side, line = terrain_hooks(
        view, TerrainCosts.from_data(data("lion-of-judah"), "movement-foot"),
        row_of=lambda t: "mountain" if t == "amba" else t, blocking=("impassable",),
        surcharges={"river": "river-hexside"}, lines={"road": "road", "rail": "rail"},
        surcharge=lambda h: 1 if h == "a" else None)
    assert enter("b") == 2                      # the amba reads the mountain row
    assert enter("a") == 3                      # rough 2 + 1 for the enemy there
    assert enter("c") is None                   # desert: prohibited
    assert isinstance(enter("d"), Unknown)      # clear is not in the data
    assert isinstance(enter("z"), Unknown)      # no terrain for the hex
    assert side("a", "b") == 1 and side("a", "c") is None and side("a", "d") == 0
    open_river = side("b", "d")
    assert isinstance(open_river, Unknown) and open_river.at_least == 0
    assert line("a", "b") == 1 + 1              # the road, and the river it crosses
    assert line("a", "d") is None               # no line joins them
    doubled = terrain_hooks(view, TerrainCosts.from_data(data("lion-of-judah"), "movement-foot"),
                            modify=lambda cost, h: cost * 2)[0]
    assert doubled("a") == 4


def test_terrain_hooks_sideshow_hexsides_block():
    enter, side, _ = terrain_hooks(View({"p": "kilimanjaro-peak"}, {("x", "y"): {"lake-hexside": True}}, {}),
                                   TerrainCosts.from_data(data("sideshow"), "movement"),
                                   surcharges={"lake-hexside": "lake-hexside"})
    assert enter("p") is None and side("x", "y") is None


@dataclass(frozen=True)
class U:
    id: str
    name: str


A, B, C = U("a", "A"), U("b", "B"), U("c", "C")


def test_stack_moves_one_after_another():
    moves = StackMoves()
    assert moves.move(A, "1", "2", step=1) == []
    assert moves.move(B, "5", "6", step=2) == []          # another stack begins: A's has ended
    again = moves.move(A, "2", "3", step=3)
    assert [(b.kind, b.other, b.at) for b in again] == [("again", "B", 2)]
    assert moves.move(A, "3", "4", step=4) == []          # reported once


def test_stack_moves_together_only_from_one_hex():
    moves = StackMoves()
    moves.move(A, "1", "2", step=1)
    moves.move(B, "3", "2", step=1)
    apart = moves.move(B, "2", "4", step=2) + moves.move(A, "2", "4", step=2)
    assert [(b.kind, b.unit.name, b.other, b.origin, b.other_origin) for b in apart] == [
        ("apart", "A", "B", "1", "3")]


def test_stack_moves_dropped_off_moves_no_further():
    moves = StackMoves()
    moves.move(A, "1", "2", step=1)
    moves.move(B, "1", "2", step=1)
    moves.move(A, "2", "3", step=2)                      # B stays in 2
    dropped = moves.move(B, "2", "5", step=3)
    assert [(b.kind, b.other, b.start, b.went) for b in dropped] == [("dropped", "A", "2", "3")]
    moves.reset()
    assert moves.move(B, "2", "5", step=4) == []


def test_logged_routes_follow_the_drags_and_their_undos():
    """A unit dragged hex by hex: each drag adds the hex it is left in and the rolls logged before
    it; VASSAL's undo of the last drag takes it off the route; a unit found elsewhere than its
    route's end gets a leg to where it is."""
    routes = LoggedRoutes()
    routes.drag("sb", "1405", "1404")
    routes.drag("sb", "1404", "1304", (3,))
    routes.drag("sb", "1304", "1204")
    routes.drag("sb", "1204", "1304", undo=True)          # the undo of the drag into 1204
    assert routes.route("sb") == ("1405", "1404", "1304")
    assert routes.route_rolls("sb") == ((), (3,))
    routes.drag("sb", "1304", "1404")                     # a drag back, not an undo: a move
    assert routes.route("sb") == ("1405", "1404", "1304", "1404")
    routes.drag("sb", "1505", "1506")                     # moved otherwise meanwhile
    assert routes.route("sb") == ("1405", "1404", "1304", "1404", "1505", "1506")
    routes.drag("pl", "1305", "1306", origin="1405")
    assert routes.route("pl") == ("1405", "1305", "1306")
    routes.reset()
    assert routes.route("sb") == () and routes.route_rolls("sb") == ()
