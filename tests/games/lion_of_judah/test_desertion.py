"""(40) Italian colonial desertion (SC-04, PB 14.6.3.1): the roll, its modifiers and the units
removed. The desertion table and garrison modifier are the fixtures' SYNTHETIC ones (not the
published chart) unless a test says otherwise: modified -1..3 no deserter, 4-5 one, 6-7 two,
8-9 three; garrison modifier read as -1..+1."""
from __future__ import annotations

from dataclasses import replace


from vlog.findings import Basis
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.desertion import DesertionWatch, allowed_deserters, parse_desertion
from vlog.games.lion_of_judah.state import GameState, unit_from_counter


def position(data, *, ipl_box: str = "grt-5", revealed: tuple[str, ...] = (), gone: tuple[str, ...] = ()
             ) -> GameState:
    """Two colonial irregulars, an Eritrean colonial brigade, an Italian regular and the IPL marker."""
    units = {}
    for uid, counter, hex_ in (("irr1", "it-colonial-irregular", "1208"), ("irr2", "it-colonial-irregular", "1814"),
                               ("e1", "it-1e", "1405"), ("sb", "it-sb", "1213")):
        if uid in gone:
            continue
        unit = unit_from_counter(data, counter, id=uid, name=f"{counter}#{uid}", hex_=hex_)
        if uid in revealed:
            unit = replace(unit, hidden=False, level="revealed")
        units[uid] = unit
    ipl = unit_from_counter(data, "it-ipl", id="ipl", name="Italian prestige level", hex_=None)
    units["ipl"] = replace(ipl, box=ipl_box)
    return GameState(units, "1940-41")


class Log:
    """Feeds a DesertionWatch step by step in the MAP of turn 2."""

    def __init__(self, data, **kw):
        self.data, self.board, self.watch, self.step = data, Board(data), DesertionWatch(), 0
        self.state = position(data, **kw)

    def do(self, *, chat: str | None = None, roll: int | None = None, remove: str | None = None,
           reveal: str | None = None, in_map: bool = True, turn: int = 2):
        self.step += 1
        after = GameState(dict(self.state.units), "1940-41")
        if remove:
            del after.units[remove]
        if reveal:
            after.units[reveal] = replace(after.units[reveal], hidden=False, level="revealed")
        out = self.watch.note_step(self.board, self.data, step=self.step, before=self.state, after=after,
                                   rolls=[roll] if roll is not None else [], chats=[chat] if chat else [],
                                   turn=turn, in_map=in_map, when="Turn 2, MAP")
        self.state = after
        return out


def test_declarations():
    assert parse_desertion("desertion") == "roll" and parse_desertion("Desertion roll.") == "roll"
    assert parse_desertion("desertion bribe") == "bribe"
    assert parse_desertion("no desertion today") is None and parse_desertion("x" * 500) is None


def test_deserters_within_the_table_are_legal(synthetic):
    log = Log(synthetic)
    assert log.do(chat="desertion", roll=5) == []        # 5 +-1 (garrison): 4..6, at most 2
    assert log.do(remove="irr1") == [] and log.do(remove="e1") == []


def test_sc04_more_deserters_than_the_table_allows(synthetic):
    log = Log(synthetic)
    log.do(chat="desertion", roll=4)                        # 3..5: at most 1
    assert log.do(remove="irr1") == []
    [f] = log.do(remove="irr2")
    assert (f.check, f.basis, f.step) == ("lion-of-judah/SC-04", Basis.PROVEN, 3)
    assert f.evidence["most"] == 1 and f.evidence["modified"] == [3, 4, 5] and f.evidence["ipl"] == 5
    assert f.evidence["removed"] == ["it-colonial-irregular#irr1", "it-colonial-irregular#irr2"]
    assert log.do(remove="e1") == []                        # reported once a MAP


def test_the_bribe_and_the_ipl_modify_the_roll(synthetic):
    log = Log(synthetic, ipl_box="grt-3")                   # low IPL: +1
    log.do(chat="desertion bribe")
    log.do(chat="desertion", roll=4)                        # 4 +1 +1 +-1: 5..7, at most 2
    assert log.do(remove="irr1") == [] and log.do(remove="irr2") == []
    [f] = log.do(remove="e1")
    assert f.evidence["most"] == 2 and f.evidence["bribe_drm"] == 1 and f.evidence["ipl_drm"] == [1]


def test_high_ipl_lowers_the_roll(synthetic):
    most, evidence, missing = allowed_deserters(synthetic, position(synthetic, ipl_box="grt-9"), 5, bribed=False)
    assert (most, evidence["modified"], missing) == (1, [3, 4, 5], [])


def test_sc04_a_bribe_after_the_roll(synthetic):
    log = Log(synthetic)
    log.do(chat="desertion", roll=4)
    [f] = log.do(chat="desertion bribe")
    assert f.check == "lion-of-judah/SC-04" and f.evidence == {"roll": 4, "roll_step": 1}


def test_sc04_removed_before_the_roll(synthetic):
    log = Log(synthetic)
    [f] = log.do(remove="irr1")
    assert f.check == "lion-of-judah/SC-04" and "before the desertion roll" in f.message
    log2 = Log(synthetic)
    log2.do(chat="desertion")                               # declared, not yet rolled
    [g] = log2.do(remove="irr1")
    assert "before the desertion roll" in g.message


def test_sc04_only_colonial_units_desert(synthetic):
    log = Log(synthetic)
    log.do(chat="desertion", roll=6)
    [f] = log.do(remove="sb")
    assert f.check == "lion-of-judah/SC-04" and f.evidence["unit_class"] == "italian-regular"


def test_sc04_a_deserter_inspected_before_removal(synthetic):
    log = Log(synthetic)
    log.do(chat="desertion", roll=6)
    log.do(reveal="irr1")
    [f] = log.do(remove="irr1")
    assert "without being inspected" in f.message and f.basis is Basis.PROVEN


def test_without_a_declaration_the_last_roll_is_read_possible_only(synthetic):
    log = Log(synthetic)
    log.do(roll=6)                  # guerrilla recruitment (ix)
    log.do(roll=1)                  # desertion (x): 0..2, none
    [f] = log.do(remove="irr1")
    assert f.basis is Basis.POSSIBLE and f.evidence["roll"] == 1
    assert any("desertion roll" in d for d in f.evidence["depends_on"])


def test_outside_the_map_nothing_is_judged(synthetic):
    log = Log(synthetic)
    assert log.do(remove="irr1", in_map=False) == []


def test_a_new_map_starts_afresh(synthetic):
    log = Log(synthetic)
    log.do(chat="desertion", roll=4)
    log.do(remove="irr1")
    [f] = log.do(remove="irr2", turn=3)
    assert "before the desertion roll" in f.message


def test_with_the_shipped_data_the_count_is_possible_naming_the_table(shipped):
    log = Log(shipped)
    log.do(chat="desertion", roll=6)
    [f] = log.do(remove="irr1")
    assert f.basis is Basis.POSSIBLE
    assert "tables.json colonial-desertion properties.garrison_drm" in f.evidence["depends_on"]
    assert "tables.json colonial-desertion roll 6" in f.evidence["depends_on"]
    assert log.do(remove="irr2") == []
