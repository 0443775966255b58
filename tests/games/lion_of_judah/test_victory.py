"""PB 13.4.2 (VC-03) and PB 14.4.2 (VC-07): a declared result must be the level the
victory-level table gives for the declared VP total."""
from __future__ import annotations

import pytest

from vlog.gamedata import Datum, load_game_data
from vlog.games.lion_of_judah.checks.victory import judge_victory_claim, parse_victory_claim

@pytest.fixture(scope="module")
def data():
    return load_game_data("lion-of-judah")


def test_parse_needs_a_total_and_a_level():
    claim = parse_victory_claim("Italian 24 VP: Italian tactical victory")
    assert claim is not None and (claim.vp, claim.level) == (24, "italian-tactical")
    assert parse_victory_claim("Allies \u22122 VPs - Italian strategic Victory").vp == -2
    assert parse_victory_claim("24 VP so far") is None
    assert parse_victory_claim("Italian tactical victory!") is None
    assert parse_victory_claim("Attack 1605 with Sb, 2E") is None


@pytest.mark.parametrize("vp, level", [(26, "italian-strategic"), (40, "italian-strategic"),
                                       (21, "italian-tactical"), (25, "italian-tactical"),
                                       (16, "ethiopian-tactical"), (20, "ethiopian-tactical"),
                                       (15, "ethiopian-strategic"), (-3, "ethiopian-strategic")])
def test_vc03_levels_at_their_bounds_are_legal(data, vp, level):
    claim = parse_victory_claim(f"{vp} VP {level.replace('-', ' ')} victory")
    assert judge_victory_claim(data, "1935-36", claim, step=1, when=None) == []


def test_vc03_wrong_level_is_proven(data):
    claim = parse_victory_claim("Italian 25 VP: Italian strategic victory")
    [f] = judge_victory_claim(data, "1935-36", claim, step=7, when="T7")
    assert f.check.endswith("VC-03") and f.step == 7
    assert f.evidence["level"] == "italian-tactical" and f.evidence["vp"] == 25
    assert "25 VP is an Italian tactical victory" in f.message


def test_vc03_level_of_the_other_scenario_is_proven(data):
    claim = parse_victory_claim("30 VP, Allied strategic victory")
    [f] = judge_victory_claim(data, "1935-36", claim, step=2, when=None)
    assert f.check.endswith("VC-03") and "no such level" in f.message


@pytest.mark.parametrize("vp, level, expected", [(23, "allied-tactical", None),
                                                 (22, "allied-tactical", "italian-tactical"),
                                                 (17, "italian-tactical", "italian-strategic"),
                                                 (26, "allied-strategic", None)])
def test_vc07_levels(data, vp, level, expected):
    claim = parse_victory_claim(f"{vp} VP {level.replace('-', ' ')} victory")
    found = judge_victory_claim(data, "1940-41", claim, step=3, when=None)
    if expected is None:
        assert found == []
    else:
        [f] = found
        assert f.check.endswith("VC-07") and f.evidence["level"] == expected


class _Blanked:
    """The shipped data with some level cells unknown (as a data set lacking them would be)."""

    def __init__(self, data, blank):
        self._data, self._blank = data, blank

    def table(self, table_id):
        real, blank = self._data.table(table_id), self._blank

        class _T:
            id = real.id
            labels = staticmethod(real.labels)

            @staticmethod
            def lookup(label):
                return Datum(None) if label in blank else real.lookup(label)
        return _T()


def test_level_missing_from_the_data_is_possible_naming_the_cell(data):
    blanked = _Blanked(data, {"italian-strategic", "italian-tactical"})
    claim = parse_victory_claim("Italian 25 VP: Italian strategic victory")
    [f] = judge_victory_claim(blanked, "1935-36", claim, step=1, when=None)
    assert f.check.endswith("VC-03") and f.basis.name == "POSSIBLE"
    assert "tables.json victory-levels-1935-36 cell italian-strategic" in f.evidence["depends_on"]
    # a total the known ranges place elsewhere is still proven
    claim = parse_victory_claim("Italian 16 VP: Italian strategic victory")
    [f] = judge_victory_claim(blanked, "1935-36", claim, step=1, when=None)
    assert f.basis.name == "PROVEN" and f.evidence["level"] == "ethiopian-tactical"


def test_no_scenario_no_finding(data):
    claim = parse_victory_claim("Italian 25 VP: Italian strategic victory")
    assert judge_victory_claim(data, None, claim, step=1, when=None) == []
