"""Hex geometry: properties for every layout, and every adjacency/distance example in the rulebooks.

Rulebook line numbers ("L806") are those of /work/shared/rulebooks/<game>.txt.
Examples no rulebook gives: none of the four states a range in hexes between two named hexes for
Ascari (4.1 only says how to count), and Sideshow gives no distance between named hexes; Island of
Death gives a single example (10.12).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vlog.errors import GameDataError, VlogError
from vlog.hexes import LAYOUTS, Hex, Hexside, HexLayout

POINTY = {
    "pointy-odd": HexLayout("pointy-odd", "pointy", "odd", los_straddle="both"),
    "pointy-even": HexLayout("pointy-even", "pointy", "even", los_straddle="either"),
}
ALL = {**LAYOUTS, **POINTY}
layout_names = st.sampled_from(sorted(ALL))
# Hexes away from the 00..99 edges, so that geometric results stay nameable.
inner = st.builds(Hex, st.integers(10, 89), st.integers(10, 89))
any_hex = st.builds(Hex, st.integers(-20, 120), st.integers(-20, 120))


def hexes(layout: HexLayout, *names: str) -> list[Hex]:
    return [layout.parse(n) for n in names]


# ----- the rulebook examples ---------------------------------------------------------------------

# (game, a, b, relation, value, where)
EXAMPLES = [
    # Lion of Judah
    # 12.8.1 L806 "The Italians attack hex 1214 (Gogo) from 1313 and 1314, the latter across a river."
    ("lion-of-judah", "1313", "1214", "==", 1, "12.8.1 L806"),
    ("lion-of-judah", "1314", "1214", "==", 1, "12.8.1 L806"),
    # 12.11.1 L839 "attacks the lone Ethiopian unit Ras Kassa in hex 1307 ... The Italian GS division in
    # 1207, which did not advance into the defending hex ... may not attack" (it had attacked 1307)
    ("lion-of-judah", "1207", "1307", "==", 1, "12.11.1 L839"),
    # 12.11.1 L839 1E and 2E advance into 1307 "and may immediately attack again ... an attack on Amba
    # Alagi" (1308, 11.4.1 L678)
    ("lion-of-judah", "1307", "1308", "==", 1, "12.11.1 L839 + 11.4.1 L678"),
    # 10.1.1 L515 "missions within 4 hexes of an air base ... (do not count the ... hex)";
    # L519 "Gaba (hex 1516) allows the Italian player to fly an air mission to Gogo (hex 1214)."
    ("lion-of-judah", "1516", "1214", "<=", 4, "10.1.1 L515/L519"),
    # 7.3.2 L409 HQ in 1008; Massawa 1405 -> Asmara (1305) by rail, "then it costs four more hexes to
    # reach the HQ" (an RP route of 4 hexes, so the distance is at most 4)
    ("lion-of-judah", "1305", "1008", "<=", 4, "7.3.2 L409"),
    # 13.3.2 L1016 Ras Kassa "at or within two hexes of hex 1310 (Dessie)"; 15.1.2 L1786 "they can only
    # set up at Amba Alagi initially, since Amba Aradam falls outside their two-hex setup range."
    ("lion-of-judah", "1310", "1308", "<=", 2, "13.3.2 L1016 + 15.1.2 L1786"),
    ("lion-of-judah", "1310", "1208", ">", 2, "13.3.2 L1016 + 15.1.2 L1786"),
    # 13.3.2 L1017 Ras Seyum within two of 1107; 17 L1888 "Ras Seyum is placed at Macalle" (1307)
    ("lion-of-judah", "1107", "1307", "<=", 2, "13.3.2 L1017 + 17 L1888"),
    # 13.3.2 L1018 Ras Imru within two of 1109; 17 L1888 "Ras Imru ... defends Ras Aradam [sic]" (1208)
    ("lion-of-judah", "1109", "1208", "<=", 2, "13.3.2 L1018 + 17 L1888"),
    # 17 L1900 irregulars "placed within two of hex 0910" ... "places both of them in hex 0909"
    ("lion-of-judah", "0910", "0909", "<=", 2, "17 L1900"),
    # 17 L1900 "he makes sure not to place them [in 0909] within two of Addis Ababa" (1213, L1015)
    ("lion-of-judah", "0909", "1213", ">", 2, "17 L1900 + 13.3.2 L1015"),
    # Island of Death
    # 10.12 L384 "in hex 1309 ... Musta in hex 1210. The artillery cannot discover hex 1210 because it
    # is two hexes away ... an Italian infantry battalion in hex 1310 ... is adjacent to hex 1210."
    ("island-of-death", "1309", "1210", "==", 2, "10.12 L384"),
    ("island-of-death", "1310", "1210", "==", 1, "10.12 L384"),
    # Ascari (FAQ, ascari.txt L603 onwards)
    # FAQ Agordat L637 "An hill hex like 1609 ... a "plateau" effect in relation to another same level
    # hex like 1508"
    ("ascari", "1609", "1508", "==", 1, "FAQ Agordat L637"),
    # FAQ Amba Alagi L681 "to move from 2210 to 2211 it costs 1MP ...; to move from 2210 to 2109 ...
    # costs immediate stop"
    ("ascari", "2210", "2211", "==", 1, "FAQ Amba Alagi L681"),
    ("ascari", "2210", "2109", "==", 1, "FAQ Amba Alagi L681/L685"),
    # FAQ Coatit L665 "a unit in 2715 can move to 2714, 2713 and 2712"
    ("ascari", "2715", "2714", "==", 1, "FAQ Coatit L665"),
    ("ascari", "2714", "2713", "==", 1, "FAQ Coatit L665"),
    ("ascari", "2713", "2712", "==", 1, "FAQ Coatit L665"),
    # FAQ Metemma L691 LOS between 2513 and 2713 along the side of 2613 (distance 2, tested below)
    ("ascari", "2513", "2713", "==", 2, "FAQ Metemma L691"),
    # Sideshow
    # 6.75 L370 "There is a German unit in 3311 and an Allied unit in 3310. The Allied unit could not move
    # directly into 3411 in a Movement Operation. It could move into 3211, because that hex is not on
    # the same side of the river as the German unit, but it could not then move into 3212."
    ("sideshow", "3310", "3411", "==", 1, "6.75 L370 (Allied moves 3310 -> 3411)"),
    ("sideshow", "3311", "3411", "==", 1, "6.75 L370 (3411 in the German ZOC)"),
    ("sideshow", "3310", "3211", "==", 1, "6.75 L370 (Allied moves 3310 -> 3211)"),
    ("sideshow", "3211", "3212", "==", 1, "6.75 L370 (then 3211 -> 3212)"),
    ("sideshow", "3311", "3212", "==", 1, "6.75 L370 (3212 in the German ZOC)"),
    ("sideshow", "3311", "3211", "==", 1, "6.75 L370 (3211 in the German ZOC, across the river)"),
]


@pytest.mark.parametrize(
    "game,a,b,relation,value,where", EXAMPLES, ids=[f"{e[0]}-{e[1]}-{e[2]}" for e in EXAMPLES]
)
def test_rulebook_examples(game: str, a: str, b: str, relation: str, value: int, where: str) -> None:
    layout = LAYOUTS[game]
    ha, hb = hexes(layout, a, b)
    d = layout.distance(ha, hb)
    assert {"==": d == value, "<=": d <= value, ">": d > value}[relation], f"{where}: distance {a}-{b} = {d}"
    assert layout.distance(hb, ha) == d
    if relation == "==" and value == 1:
        assert hb in layout.neighbours(ha) and ha in layout.neighbours(hb)


def test_lion_of_judah_has_a_north_neighbour() -> None:
    # 11.5.3 L708 "moves the armor to the hex north of the HQ" and "the clear hex SE of Jijiga":
    # flat-topped columns have both a due-north and a south-east neighbour.
    layout = LAYOUTS["lion-of-judah"]
    assert layout.orientation == "flat"
    assert layout.direction_names[0] == "N" and "SE" in layout.direction_names
    h = layout.parse("1914")
    assert layout.name(layout.neighbours(h)[0]) == "1913"


def test_lion_of_judah_evidence_rules_out_the_other_grids() -> None:
    # The examples above fix odd-q: every other offset grid breaks at least one of them.
    for orientation in ("flat", "pointy"):
        for shifted in ("odd", "even"):
            if (orientation, shifted) == ("flat", "odd"):
                continue
            other = HexLayout("x", orientation, shifted)  # type: ignore[arg-type]
            assert not all(
                _holds(other, a, b, rel, val) for g, a, b, rel, val, _ in EXAMPLES if g == "lion-of-judah"
            ), (orientation, shifted)


def test_island_of_death_example_fixes_the_stagger() -> None:
    # 10.12 L384: odd-q would make 1309 adjacent to 1210; only even-q (or pointy odd-r, which the
    # text cannot exclude) fits.
    examples = [e for e in EXAMPLES if e[0] == "island-of-death"]
    fits = {
        (o, s)
        for o in ("flat", "pointy")
        for s in ("odd", "even")
        if all(_holds(HexLayout("x", o, s), a, b, rel, val) for _, a, b, rel, val, _ in examples)  # type: ignore[arg-type]
    }
    assert fits == {("flat", "even"), ("pointy", "odd")}
    assert (LAYOUTS["island-of-death"].orientation, LAYOUTS["island-of-death"].shifted) == ("flat", "even")


@pytest.mark.parametrize("game", ["ascari", "sideshow"])
def test_evidence_rules_out_even_q(game: str) -> None:
    other = HexLayout("x", "flat", "even")
    assert not all(_holds(other, a, b, rel, val) for g, a, b, rel, val, _ in EXAMPLES if g == game)


def _holds(layout: HexLayout, a: str, b: str, relation: str, value: int) -> bool:
    d = layout.distance(layout.parse(a), layout.parse(b))
    return {"==": d == value, "<=": d <= value, ">": d > value}[relation]


def test_ascari_metemma_limit_of_the_world() -> None:
    # FAQ Metemma L691 "if hex 2613 is occupied by a unit, is the LOS between 2513 and 2713 blocked?
    # A: Yes it is blocked... the "limit of the world" rule": the line runs along the side between
    # 2613 and the grey off-grid hex below it (row 13 is the bottom edge; 2614 is off the map).
    metemma = dataclasses.replace(LAYOUTS["ascari"], rows=(1, 13))
    a, b, occupied = hexes(metemma, "2513", "2713", "2613")
    below = Hex(26, 14)
    assert not metemma.on_map(below)
    assert metemma.line(a, b) == ((a,), (occupied, below), (b,))
    assert metemma.sightline(a, b).along == (metemma.hexside(occupied, below),)
    off_map_or_occupied = lambda h: h == occupied or not metemma.on_map(h)  # noqa: E731
    assert metemma.los_blocked(a, b, off_map_or_occupied)
    # 4.2 L193: along a hexside the LOS is blocked only if BOTH hexes block.
    assert not metemma.los_blocked(a, b, lambda h: h == occupied)
    assert not metemma.los_blocked(a, b, lambda h: not metemma.on_map(h))


def test_ascari_coatit_deployment_boundaries_are_straight_rows() -> None:
    # S3.12 L485 (inferred support for odd-q on the Coatit map): the free-deployment areas are
    # "delimited by hexes 2701 to 2707 and from 2707 to 2210 and from 2210 to 1506", "2717 to 2715,
    # then from 2715 to 3412 and finally from 3412 to 3403"; each is a straight hex row under odd-q.
    layout = LAYOUTS["ascari"]
    for a, b in [("2701", "2707"), ("2707", "2210"), ("2210", "1506"), ("2717", "2715"), ("2715", "3412"), ("3412", "3403")]:
        ha, hb = hexes(layout, a, b)
        (aq, ar), (bq, br) = layout.axial(ha), layout.axial(hb)
        assert 0 in (aq - bq, ar - br, (aq + ar) - (bq + br)), (a, b)
        assert all(len(step) == 1 for step in layout.line(ha, hb))


def test_lion_of_judah_concentric_opposites() -> None:
    # 12.9 L814 "two hexes directly opposite the defender's position": directions d and d + 3.
    layout = LAYOUTS["lion-of-judah"]
    centre = layout.parse("1307")
    around = layout.neighbours(centre)
    for d in range(6):
        a, b = around[d], around[(d + 3) % 6]
        assert layout.distance(a, b) == 2
        assert layout.line(a, b) == ((a,), (centre,), (b,))


def test_no_los_rule_games_refuse_los_blocked() -> None:
    for game in ("lion-of-judah", "sideshow"):
        layout = LAYOUTS[game]
        assert layout.los_straddle is None
        with pytest.raises(GameDataError):
            layout.los_blocked(Hex(10, 10), Hex(12, 12), lambda h: False)
    assert LAYOUTS["ascari"].los_straddle == "both"  # 4.2 L193
    assert LAYOUTS["island-of-death"].los_straddle == "both"  # 16.54 L525


# ----- names -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(LAYOUTS))
def test_names_examples(game: str) -> None:
    layout = LAYOUTS[game]
    assert layout.parse("1307") == Hex(13, 7)
    assert layout.parse("0904") == Hex(9, 4)
    assert layout.name(Hex(9, 4)) == "0904"
    assert layout.name(Hex(0, 0)) == "0000"
    assert layout.parse_hexside("1308/1307") == layout.hexside(Hex(13, 7), Hex(13, 8))
    assert layout.name(layout.hexside(Hex(13, 8), Hex(13, 7))) == "1307/1308"


@pytest.mark.parametrize(
    "bad", ["", "130", "13070", " 1307", "1307 ", "13o7", "１３０７", "+307", "-307", "13.7", "1307\n", None, 1307, b"1307", ["1307"]]
)
def test_parse_rejects_malformed(bad: object) -> None:
    with pytest.raises(GameDataError) as info:
        LAYOUTS["ascari"].parse(bad, file="map.json", where="hexes[3]")  # type: ignore[arg-type]
    assert "map.json" in str(info.value) and "hexes[3]" in str(info.value)


@pytest.mark.parametrize("bad", ["1307", "1307/1307", "1307/1309", "1307-1308", "1307/1308/1309", "1307/", None])
def test_parse_hexside_rejects(bad: object) -> None:
    with pytest.raises(GameDataError):
        LAYOUTS["ascari"].parse_hexside(bad)  # type: ignore[arg-type]


def test_bounds() -> None:
    coatit = dataclasses.replace(LAYOUTS["ascari"], cols=(15, 34), rows=(1, 17))
    assert coatit.parse("1501") == Hex(15, 1)
    for off in ("1401", "3501", "1500", "1518"):
        with pytest.raises(GameDataError):
            coatit.parse(off)
    corner = coatit.parse("1501")
    assert set(coatit.neighbours_on_map(corner)) == {h for h in coatit.neighbours(corner) if coatit.on_map(h)}
    assert len(coatit.neighbours_on_map(corner)) < 6
    with pytest.raises(VlogError):
        HexLayout("x", "flat", "odd", cols=(5, 2))
    with pytest.raises(VlogError):
        HexLayout("x", "sideways", "odd")  # type: ignore[arg-type]


def test_unnameable_hexes() -> None:
    layout = LAYOUTS["sideshow"]
    for h in (Hex(-1, 5), Hex(5, -1), Hex(100, 5), Hex(5, 100)):
        assert not layout.on_map(h)
        with pytest.raises(GameDataError):
            layout.name(h)


@settings(deadline=None)
@given(layout_names, st.integers(0, 99), st.integers(0, 99))
def test_name_round_trip(game: str, col: int, row: int) -> None:
    layout = ALL[game]
    h = Hex(col, row)
    text = layout.name(h)
    assert len(text) == 4 and text.isdigit()
    assert layout.parse(text) == h and layout.name(layout.parse(text)) == text


@settings(deadline=None)
@given(layout_names, st.text(max_size=8))
def test_parse_is_strict(game: str, text: str) -> None:
    layout = ALL[game]
    if len(text) == 4 and all(c in "0123456789" for c in text):
        assert layout.name(layout.parse(text)) == text
    else:
        with pytest.raises(GameDataError):
            layout.parse(text)


# ----- geometry properties -----------------------------------------------------------------------


@settings(deadline=None)
@given(layout_names, any_hex, any_hex, any_hex)
def test_distance_is_a_metric(game: str, a: Hex, b: Hex, c: Hex) -> None:
    layout = ALL[game]
    assert layout.distance(a, b) == layout.distance(b, a)
    assert (layout.distance(a, b) == 0) == (a == b)
    assert layout.distance(a, c) <= layout.distance(a, b) + layout.distance(b, c)


@settings(deadline=None)
@given(layout_names, any_hex, any_hex)
def test_fast_distance_matches_axial(game: str, a: Hex, b: Hex) -> None:
    layout = ALL[game]
    assert layout.distance(a, b) == HexLayout.distance(layout, a, b)
    assert layout.neighbours(a) == HexLayout.neighbours(layout, a)
    assert layout.from_axial(*layout.axial(a)) == a


@settings(deadline=None)
@given(layout_names, any_hex)
def test_neighbours(game: str, h: Hex) -> None:
    layout = ALL[game]
    around = layout.neighbours(h)
    assert len(around) == 6 and len(set(around)) == 6
    for d, n in enumerate(around):
        assert layout.distance(h, n) == 1
        assert layout.direction(h, n) == d
        assert layout.neighbours(n)[(d + 3) % 6] == h
        assert layout.hexside(h, n) == layout.hexside(n, h) == layout.hexsides_of(h)[d]
    # Neighbouring neighbours are adjacent to each other (the six form a ring).
    for d in range(6):
        assert layout.distance(around[d], around[(d + 1) % 6]) == 1


@settings(deadline=None)
@given(layout_names, inner)
def test_direction_and_hexside_refuse_non_adjacent(game: str, h: Hex) -> None:
    layout = ALL[game]
    far = Hex(h.col + 2, h.row)
    for call in (layout.direction, layout.hexside):
        with pytest.raises(GameDataError):
            call(h, far)
        with pytest.raises(GameDataError):
            call(h, h)


def test_flat_direction_names_match_the_picture() -> None:
    # Flat-topped: N is the same column one row up; S one row down; NE/SE are in the next column.
    for game in ("lion-of-judah", "ascari", "island-of-death", "sideshow"):
        layout = LAYOUTS[game]
        for h in (Hex(12, 10), Hex(13, 10)):
            n = layout.neighbours(h)
            assert n[0] == Hex(h.col, h.row - 1) and n[3] == Hex(h.col, h.row + 1)
            assert n[1].col == n[2].col == h.col + 1 and n[1].row + 1 == n[2].row
            assert n[5].col == n[4].col == h.col - 1 and n[5].row + 1 == n[4].row
    # The stagger: in odd-q the odd column sits lower, so its NE neighbour has the same row number.
    assert LAYOUTS["ascari"].neighbours(Hex(13, 10))[1] == Hex(14, 10)
    assert LAYOUTS["ascari"].neighbours(Hex(12, 10))[1] == Hex(13, 9)
    assert LAYOUTS["island-of-death"].neighbours(Hex(13, 10))[1] == Hex(14, 9)
    assert LAYOUTS["island-of-death"].neighbours(Hex(12, 10))[1] == Hex(13, 10)


def test_pointy_direction_names_match_the_picture() -> None:
    layout = POINTY["pointy-odd"]
    for h in (Hex(10, 12), Hex(10, 13)):
        n = layout.neighbours(h)
        assert n[1] == Hex(h.col + 1, h.row) and n[4] == Hex(h.col - 1, h.row)
        assert n[0].row == n[5].row == h.row - 1 and n[0].col == n[5].col + 1
    assert layout.neighbours(Hex(10, 13))[0] == Hex(11, 12)  # odd row sits right: NE is one column on
    assert POINTY["pointy-even"].neighbours(Hex(10, 13))[0] == Hex(10, 12)


@settings(max_examples=60, deadline=None)
@given(layout_names, inner, st.integers(0, 7))
def test_ring_and_within(game: str, h: Hex, radius: int) -> None:
    layout = ALL[game]
    ring = layout.ring(h, radius)
    assert len(ring) == (6 * radius if radius else 1) == len(set(ring))
    assert all(layout.distance(h, x) == radius for x in ring)
    for x, y in zip(ring, ring[1:] + ring[:1]):
        assert radius == 0 or layout.distance(x, y) == 1
    area = layout.within(h, radius)
    assert len(area) == 3 * radius * (radius + 1) + 1 == len(set(area))
    box = {Hex(c, r) for c in range(h.col - radius - 1, h.col + radius + 2) for r in range(h.row - radius - 2, h.row + radius + 3)}
    assert set(area) == {x for x in box if layout.distance(h, x) <= radius}


def test_absurd_sizes_are_refused() -> None:
    # Negative radii, and radii or lines longer than any two nameable hexes can be apart (so a
    # hostile size can neither hang nor exhaust memory).
    layout = LAYOUTS["ascari"]
    for call in (layout.ring, layout.within):
        with pytest.raises(GameDataError):
            call(Hex(5, 5), -1)
        with pytest.raises(GameDataError):
            call(Hex(5, 5), 10**9)
    far = Hex(10**6, 10**6)
    with pytest.raises(GameDataError):
        layout.line(Hex(0, 0), far)
    with pytest.raises(GameDataError):
        layout.sightline(Hex(0, 0), far)
    corners = [Hex(0, 0), Hex(99, 0), Hex(0, 99), Hex(99, 99)]
    for a in corners:
        for b in corners:
            assert len(layout.line(a, b)) == layout.distance(a, b) + 1


def test_layouts_are_plain_values() -> None:
    layout = LAYOUTS["ascari"]
    assert [f.name for f in dataclasses.fields(layout)] == [
        "game", "orientation", "shifted", "col_digits", "row_digits", "cols", "rows", "los_straddle", "source"
    ]
    copy = dataclasses.replace(layout)
    assert copy == layout and hash(copy) == hash(layout)
    assert copy.neighbours(Hex(13, 7)) == layout.neighbours(Hex(13, 7))


@settings(deadline=None)
@given(layout_names, inner, inner)
def test_line(game: str, a: Hex, b: Hex) -> None:
    layout = ALL[game]
    steps = layout.line(a, b)
    n = layout.distance(a, b)
    assert len(steps) == n + 1
    assert steps[0] == (a,) and steps[-1] == (b,)
    for i, step in enumerate(steps):
        assert len(step) in (1, 2)
        if len(step) == 2:
            p, q = step
            assert p < q and layout.distance(p, q) == 1
        assert all(layout.distance(a, h) + layout.distance(h, b) >= n for h in step)
    for s, t in zip(steps, steps[1:]):
        assert all(layout.distance(x, y) == 1 for x in s for y in t)
    assert layout.line(b, a) == tuple(reversed(steps))


@settings(max_examples=60, deadline=None)
@given(layout_names, inner, st.integers(-9, 9), st.integers(-9, 9))
def test_sightline_is_exact(game: str, a: Hex, dc: int, dr: int) -> None:
    layout = ALL[game]
    b = Hex(a.col + dc, a.row + dr)
    sight = layout.sightline(a, b)
    steps = sight.steps
    assert steps[0] == (a,) and steps[-1] == (b,)
    # Every hex of the classic trace is one the segment passes through; pairs are the same pairs.
    trace = layout.line(a, b)
    assert {h for s in trace for h in s} <= {h for s in steps for h in s}
    # Pairs are the same in both: the hexsides the segment runs along.
    assert [s for s in trace if len(s) == 2] == [s for s in steps if len(s) == 2]
    for s, t in zip(steps, steps[1:]):
        assert all(layout.distance(x, y) == 1 for x in s for y in t)
    assert sight.along == tuple(layout.hexside(*s) for s in steps if len(s) == 2)
    assert len(sight.crossed) == sum(1 for s, t in zip(steps, steps[1:]) if len(s) == len(t) == 1)
    assert {h for s in steps for h in s} == _touched_by_brute_force(layout, a, b)
    back = layout.sightline(b, a)
    assert back.steps == tuple(reversed(steps))


def _touched_by_brute_force(layout: HexLayout, a: Hex, b: Hex) -> set[Hex]:
    """Hexes whose cell meets the segment in more than a point, found independently of sightline().

    Every cell border is a line where p_i - p_j is a whole number, so between two consecutive
    parameters where some p_i - p_j is whole the segment stays in the same cell(s); the midpoint
    of each such stretch is rounded to its hex, and the hex and its neighbours are tested.
    """
    (aq, ar), (bq, br) = layout.axial(a), layout.axial(b)
    pa = (aq, ar, -aq - ar)
    d = (bq - aq, br - ar, -bq - br - pa[2])
    cuts = {Fraction(0), Fraction(1)}
    for i, j in ((0, 1), (1, 2), (0, 2)):
        e = d[i] - d[j]
        if e:
            start = pa[i] - pa[j]
            for k in range(min(start, start + e), max(start, start + e) + 1):
                cuts.add(Fraction(k - start, e))
    cuts = sorted(t for t in cuts if 0 <= t <= 1)
    out: set[Hex] = set()
    for lo, hi in zip(cuts, cuts[1:]):
        t = (lo + hi) / 2
        p = [pa[i] + t * d[i] for i in range(3)]
        r = [round(x) for x in p]
        worst = max(range(3), key=lambda i: abs(r[i] - p[i]))
        r[worst] = -sum(r[i] for i in range(3) if i != worst)
        near = layout.from_axial(r[0], r[1])
        for h in (near, *layout.neighbours(near)):
            cq, cr = layout.axial(h)
            c = (cq, cr, -cq - cr)
            if all((p[i] - c[i]) - (p[j] - c[j]) <= 1 for i in range(3) for j in range(3) if i != j):
                out.add(h)
    return out


def test_sightline_lists_hexes_the_trace_does_not() -> None:
    layout = LAYOUTS["ascari"]
    a = layout.from_axial(20, 20)
    # Cube delta (3, 1, -4): the middle sample is the midpoint of the side between two hexes, which
    # the segment crosses (not runs along): the trace keeps one of them, sightline lists both.
    b = layout.from_axial(23, 21)
    trace = layout.line(a, b)
    sight = layout.sightline(a, b)
    assert all(len(s) == 1 for s in trace) and all(len(s) == 1 for s in sight.steps)
    assert len(trace) == 5 and len(sight.steps) == 6
    assert {s[0] for s in trace} < {s[0] for s in sight.steps}
    # Cube delta (-7, 1, 6): the segment clips a corner of a hex no sample lands in.
    b = layout.from_axial(13, 21)
    trace_hexes = {s[0] for s in layout.line(a, b)}
    sight_hexes = {s[0] for s in layout.sightline(a, b).steps}
    assert len(trace_hexes) == 8 and trace_hexes < sight_hexes
    extra = sight_hexes - trace_hexes
    assert all(any(layout.distance(x, t) == 1 for t in trace_hexes) for x in extra)


def test_los_blocked_uses_only_the_hexes_between() -> None:
    layout = LAYOUTS["island-of-death"]
    a, b = layout.parse("1309"), layout.parse("1312")
    middle = layout.parse("1310")
    assert not layout.los_blocked(a, b, lambda h: h in (a, b))  # 16.54: ends never block
    assert layout.los_blocked(a, b, lambda h: h == middle)
    assert not layout.los_blocked(a, b, lambda h: False)
    assert not layout.los_blocked(a, a, lambda h: True)


@pytest.mark.parametrize("game", ["ascari", "island-of-death", "pointy-odd", "pointy-even"])
def test_los_straddle_policies(game: str) -> None:
    layout = ALL[game]
    a = Hex(20, 20)
    for d in range(6):
        # Two steps in neighbouring directions: the segment runs along the side of the two hexes
        # between, which are a's neighbours in directions d and d + 1.
        b = layout.neighbours(layout.neighbours(a)[d])[(d + 1) % 6]
        p, q = sorted((layout.neighbours(a)[d], layout.neighbours(a)[(d + 1) % 6]))
        assert layout.line(a, b) == ((a,), (p, q), (b,)) == layout.sightline(a, b).steps
        assert layout.los_blocked(a, b, lambda h: h == p) == (layout.los_straddle == "either")
        assert layout.los_blocked(a, b, lambda h: h == q) == (layout.los_straddle == "either")
        assert layout.los_blocked(a, b, lambda h: h in (p, q))
        assert not layout.los_blocked(a, b, lambda h: h not in (p, q))


@settings(deadline=None)
@given(layout_names, any_hex)
def test_hexsides_of(game: str, h: Hex) -> None:
    layout = ALL[game]
    sides = layout.hexsides_of(h)
    assert len(set(sides)) == 6
    for side in sides:
        assert isinstance(side, Hexside) and h in side and side.low < side.high
        assert hash(side) == hash(layout.hexside(side.high, side.low))
        if layout.on_map(side.low) and layout.on_map(side.high):
            assert layout.parse_hexside(layout.name(side)) == side
    # Every side is shared by exactly the two hexes it names.
    for n in layout.neighbours(h):
        assert len(set(layout.hexsides_of(h)) & set(layout.hexsides_of(n))) == 1


def test_layout_sources_are_documented() -> None:
    for game, layout in LAYOUTS.items():
        assert layout.game == game
        assert "L" in layout.source and len(layout.source) > 200
