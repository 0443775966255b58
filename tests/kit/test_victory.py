"""vlog.kit.victory on the shipped data of Lion of Judah and Sideshow, and SYNTHETIC tallies."""
from __future__ import annotations

from functools import lru_cache

from vlog.gamedata import load_game_data
from vlog.engine.judge import Ruling
from vlog.kit.victory import ClaimReader, VPTally, VPTerm, judge_level, judge_total, levels_for


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
