"""vlog.kit.victory on the shipped data of Lion of Judah and Sideshow, and SYNTHETIC tallies."""
from __future__ import annotations

from functools import lru_cache

from vlog.gamedata import load_game_data
from vlog.engine.judge import Ruling
from vlog.kit.victory import ClaimReader, VPTally, VPTerm, held_hex_terms, judge_level, judge_total, levels_for


@lru_cache(maxsize=None)
def data(game):
    return load_game_data(game)


def test_tally_ranges_and_points_per_check():
    tally = VPTally("s", (VPTerm("A-1", "1.1", "hex held", 3, 3), VPTerm("A-2", "1.2", "event", -2, 0,
                                                                         depends_on=("event drawn",)),
                          VPTerm("A-1", "1.1", "another hex", 0, 2)))
    assert (tally.low, tally.high) == (1, 5)
    assert tally.points_of("A-1") == (3, 5) and tally.points_of("B-9") == (0, 0)
    assert tally.terms[1].as_evidence() == {"check": "A-2", "rule": "1.2", "what": "event", "points": [-2, 0]}
    assert tally.terms[0].as_evidence()["points"] == 3


def test_levels_for_open_ended_ranges():
    table = data("lion-of-judah").table("victory-levels-1935-36")      # PB 13.4.2
    assert levels_for(table, 30).matching == ("italian-strategic",)
    assert levels_for(table, 21).matching == ("italian-tactical",)
    assert levels_for(table, 3).matching == ("ethiopian-strategic",)
    reading = levels_for(table, 18)
    assert reading.unknown == () and reading.ranges["ethiopian-tactical"] == [16, 20]


def test_claims_read_with_the_data_sides_and_kinds():
    reader = ClaimReader.from_data(data("lion-of-judah"), ["victory-levels-1935-36", "victory-levels-1940-41"])
    assert reader.sides == ("italian", "ethiopian", "allied")
    assert set(reader.kinds) == {"strategic", "tactical"}
    claim = reader.parse("Allied 27 VP: Allied strategic victory")
    assert (claim.vp, claim.level) == (27, "allied-strategic")
    assert reader.parse("Allies \u22122 VPs - Italian strategic Victory").vp == -2
    assert reader.parse("24 VP so far") is None
    assert reader.parse("Italian tactical victory!") is None
    assert reader.parse("12 VP, German strategic victory") is None           # no German side here


def test_claims_in_sideshow_levels_as_the_table_spells_them():
    reader = ClaimReader.from_data(data("sideshow"), ["victory-levels"], separator=" ")
    assert reader.sides == ("allied", "german")
    claim = reader.parse("German 15 VP: german marginal victory")
    assert claim.level == "German Marginal"
    assert reader.parse("85 VP allied DECISIVE victory").level == "Allied Decisive"


def test_totals_against_a_tally_with_open_terms():
    known = VPTally("s", (VPTerm("A-1", "1.1", "hex held", 3, 3), VPTerm("A-2", "1.2", "nothing", 0, 0)))
    assert judge_total(known, 3) is None
    assert judge_total(known, 4).ruling is Ruling.PROVEN and known.open_terms == ()
    assert known.listing() == "hex held +3"
    open_ = VPTally("s", (VPTerm("A-1", "1.1", "hex held", 3, 3),
                          VPTerm("A-2", "1.2", "event", -2, 0, depends_on=("event drawn",))))
    verdict = judge_total(open_, 2)
    assert verdict.ruling is Ruling.POSSIBLE and verdict.depends_on == ("event drawn",)
    assert judge_total(open_, 4).ruling is Ruling.PROVEN
    assert open_.listing() == "hex held +3; event -2 to +0"
    assert VPTally("s", ()).listing("nothing at all") == "nothing at all"


def test_levels_declared_against_the_table():
    table = data("lion-of-judah").table("victory-levels-1935-36")      # PB 13.4.2
    assert judge_level(table, 30, "italian-strategic") is None
    wrong = judge_level(table, 30, "italian-tactical")
    assert (wrong.ruling, wrong.why, wrong.actual) == (Ruling.PROVEN, "another level", "italian-strategic")
    assert judge_level(table, 30, "allied-strategic").why == "no such level"


def test_a_level_whose_range_the_data_lacks_is_possible():
    real = data("lion-of-judah").table("victory-levels-1935-36")

    class Blank:
        """The SYNTHETIC table: the real one with its tactical ranges unknown."""

        id = real.id
        labels = staticmethod(real.labels)

        @staticmethod
        def lookup(label):
            datum = real.lookup(label)
            return type(datum)(None) if label.endswith("tactical") else datum

    verdict = judge_level(Blank, 21, "italian-tactical")
    assert verdict.ruling is Ruling.POSSIBLE and verdict.why == "range unknown"
    assert verdict.depends_on == ("tables.json victory-levels-1935-36 cell italian-tactical",
                                  "tables.json victory-levels-1935-36 cell ethiopian-tactical")
    outside = judge_level(Blank, 21, "ethiopian-strategic")
    assert (outside.ruling, outside.why) == (Ruling.PROVEN, "outside its range")


def test_held_hex_terms_by_supply():
    from dataclasses import dataclass

    from vlog.gamedata import Datum

    @dataclass(frozen=True)
    class Piece:
        """A SYNTHETIC unit."""

        name: str

    @dataclass(frozen=True)
    class Trace:
        ruling: Ruling
        depends_on: tuple[str, ...] = ()

    class Hexes:
        """A SYNTHETIC VP hex table: four hexes worth 2, one worth 0, one of unknown value."""

        id = "vp-hexes"

        @staticmethod
        def labels(axis):
            return Datum(["0101", "0102", "0103", "0104", "0105", "0106", "0107"])

        @staticmethod
        def lookup(hex_):
            return Datum(None) if hex_ == "0106" else Datum(0 if hex_ == "0105" else 2)

    held = {"0101": [Piece("out"), Piece("in")], "0102": [Piece("maybe")], "0103": [Piece("unjudged")],
            "0104": [Piece("out")], "0105": [Piece("in")], "0106": [Piece("in")]}
    traces = {"in": Trace(Ruling.LEGAL), "out": Trace(Ruling.PROVEN),
              "maybe": Trace(Ruling.POSSIBLE, ("terrain of 0202",)), "unjudged": None}
    terms = held_hex_terms(Hexes, "V-1", "1.1", lambda h: held.get(h, []), lambda u: traces[u.name],
                           lambda h: f"hex {h}")
    assert [(t.evidence["hex"], t.low, t.high, t.depends_on) for t in terms] == [
        ("0101", 2, 2, ()), ("0102", 0, 2, ("terrain of 0202",)), ("0103", 0, 2, ("supply of unjudged (not judged)",)),
        ("0104", 0, 0, ()), ("0106", 0, 99, ("tables.json vp-hexes cell 0106",))]
    assert terms[0].what == "hex 0101 held by in in supply"


def test_level_names():
    from vlog.kit.victory import level_name

    assert level_name("italian-tactical") == "Italian tactical victory"
    assert level_name("german_marginal", "_") == "German marginal victory"
