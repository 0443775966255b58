"""vlog.kit.schedules on the shipped scenarios of Lion of Judah, Island of Death and Sideshow."""
from __future__ import annotations

from functools import lru_cache

from vlog.engine.judge import Unknown
from vlog.gamedata import load_game_data
from vlog.kit.schedules import Placement, arrivals, in_area, placements, scenario_of_setup, setup_areas


@lru_cache(maxsize=None)
def data(game):
    return load_game_data(game)


def test_setup_areas_lion_of_judah():
    areas = setup_areas(data("lion-of-judah"), "1935-36")
    shoa = [a for a in areas["et-levy-shoa"] if a.placement == "et-shoa"][0]       # PB 13.3.2
    assert (shoa.hex, shoa.within, shoa.zone, shoa.side, shoa.count) == ("1213", 2, "ethiopia", "ethiopian", 11)
    boxed = [p for p in placements(data("lion-of-judah"), "1935-36") if p.box is not None]
    assert boxed and not any(p.placement in {a.placement for v in areas.values() for a in v} for p in boxed)


def test_setup_areas_other_games():
    assert [a.hex for a in setup_areas(data("sideshow"), "campaign")["de-kraut"]] == ["2914"]   # 18.0
    assert setup_areas(data("island-of-death"), "intro")["al-1k"][0].hex == "1309"             # 22.24


def test_arrivals_give_turns():
    sideshow = arrivals(data("sideshow"), "campaign")
    assert sideshow["al-29-punj"][0].turns == (3,) and sideshow["al-29-punj"][0].box == "available"
    columns = arrivals(data("lion-of-judah"), "1935-36")["it-col-starace"]
    assert [e.turns for e in columns] == [(4,)]


def test_in_area_and_describe():
    area = Placement("p", hex="0505", within=2, zone="z")
    far = lambda a, b: 3            # noqa: E731
    near = lambda a, b: 1           # noqa: E731
    assert in_area("0808", area, distance=far, in_zone=lambda h, z: True) is False
    assert in_area("0506", area, distance=near, in_zone=lambda h, z: True) is True
    unknown = in_area("0506", area, distance=near, in_zone=lambda h, z: Unknown("zone z borders"))
    assert isinstance(unknown, Unknown)
    assert in_area("0505", Placement("q", hex="0505"), distance=lambda a, b: 0, in_zone=None) is True
    label, zone = (lambda h: f"hex {h}"), (lambda z: z.upper())
    assert area.describe(label, zone) == "at or within 2 hexes of hex 0505 in Z"
    assert Placement("q", hex="0505").describe(label, zone) == "exactly in hex 0505"
    assert Placement("r", zone="z").describe(label, zone) == "anywhere in Z"


def test_scenario_of_setup_picks_the_set_up_a_position_fits():
    iod = data("island-of-death")
    intro = [("al-1k", "1309"), ("al-8m", "1311"), ("al-2rwk", "1311")]             # 22.24
    hercules = [("al-1k", "1208"), ("al-8m", "1311"), ("al-2k", "0809")]           # 22.33
    assert scenario_of_setup(iod, intro) == "intro"
    assert scenario_of_setup(iod, hercules) == "hercules"
    assert scenario_of_setup(iod, [("al-8m", "1311")]) is None                     # both put 8M there
    assert scenario_of_setup(iod, [("al-8m", None), ("al-1k", "2020")]) is None
