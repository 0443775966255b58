"""(35) How many Ethiopian reinforcements a turn brings (RR-05, PB 13.5.2.2). The reinforcement
table is the fixtures' SYNTHETIC one (not the published chart): every turn one additional unit for
the Northern Front and two for the Southern, besides the free Shoa unit."""
from __future__ import annotations


from vlog.findings import Basis
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.ethiopian_reinforcements import ReinforcementCount, front_allowance
from vlog.games.lion_of_judah.state import GameState, unit_from_counter


CAPITALS = {"shoa": "1213", "gojjam": "1012", "wollo": "1310", "tigray": "1307", "beghemder": "1009",
            "hararghe-ogaden": "1712", "sidamo": "1118", "bale": "1516"}


def place(data, count: ReinforcementCount, counters: list[str], *, turn: int = 3, others=()):
    board = Board(data)
    units = {f"o{i}": unit_from_counter(data, c, id=f"o{i}", name=c, hex_=h) for i, (c, h) in enumerate(others)}
    before = GameState(units, "1935-36")
    before.control.update({h: "italian" for c, h in others if c.startswith("it-")})
    out = []
    for i, counter in enumerate(counters):
        unit = unit_from_counter(data, counter, id=f"n{i}", name=f"{counter}#{i}", hex_="1213")
        out += count.placed_unit(board, before, unit, turn=turn, step=10 + i, when=f"Turn {turn}, MAP")
    return out


def logged_from_turn_1() -> ReinforcementCount:
    count = ReinforcementCount()
    count.note_phase(1, "map")
    return count


def test_the_free_shoa_unit_and_the_tables_count_are_legal(synthetic):
    assert place(synthetic, logged_from_turn_1(), ["et-levy-shoa", "et-levy-shoa", "et-levy-sidamo",
                                                   "et-levy-bale"]) == []


def test_rr05_a_front_beyond_the_table(synthetic):
    [f] = place(synthetic, logged_from_turn_1(), ["et-levy-shoa", "et-levy-wollo", "et-levy-tigray"])
    assert (f.check, f.basis, f.step) == ("lion-of-judah/RR-05", Basis.PROVEN, 12)
    assert f.evidence == {"turn": 3, "front": "northern", "additional": 2, "most": 1, "free_shoa": True,
                          "raised_by": [], "previous_turn_in_log": True}


def test_rr05_a_step_loss_or_a_great_offensive_raises_the_next_turn(synthetic):
    count = logged_from_turn_1()
    wollo = unit_from_counter(synthetic, "et-levy-wollo", id="a", name="a", hex_="1310")
    italian = unit_from_counter(synthetic, "it-sb", id="d", name="d", hex_="1311")
    count.note_combat(2, [wollo], [italian], {"d": 1})
    assert place(synthetic, count, ["et-levy-shoa", "et-levy-wollo", "et-levy-tigray"]) == []
    count = logged_from_turn_1()
    count.note_offensive(2, "southern")
    assert place(synthetic, count, ["et-levy-sidamo", "et-levy-bale", "et-levy-hararghe-ogaden"]) == []
    count = logged_from_turn_1()
    count.note_combat(2, [wollo], [italian], {})                # an attack with no loss raises nothing
    [f] = place(synthetic, count, ["et-levy-wollo", "et-levy-tigray"])
    assert f.evidence["most"] == 1


def test_without_the_previous_turn_every_raise_is_allowed(synthetic):
    count = ReinforcementCount()
    count.note_phase(3, "map")
    assert place(synthetic, count, ["et-levy-wollo", "et-levy-tigray", "et-levy-beghemder"]) == []
    [f] = place(synthetic, count, ["et-levy-gojjam-imru"])
    assert f.evidence["most"] == 3 and f.evidence["previous_turn_in_log"] is False


def test_with_the_shipped_data_possible_beyond_the_usual_count(shipped):
    [f] = place(shipped, logged_from_turn_1(), ["et-levy-wollo", "et-levy-tigray"])
    assert f.basis is Basis.POSSIBLE and f.evidence["depends_on"] == ["tables.json ethiopian-reinforcements turn 3"]
    assert front_allowance(shipped, 3, "southern", ())[0] == 2


def test_rr05_two_for_one_faction_while_another_got_none(synthetic):
    count = logged_from_turn_1()
    place(synthetic, count, ["et-levy-sidamo", "et-levy-sidamo"])
    [f] = count.close_map(Board(synthetic), 3, capitals=CAPITALS, gone_leaders=(), step=20, when="Turn 3, MAP")
    assert (f.check, f.basis) == ("lion-of-judah/RR-05", Basis.POSSIBLE)
    assert f.evidence["factions_without"] == ["ethiopian-bale", "ethiopian-hararghe-ogaden"]
    assert count.close_map(Board(synthetic), 3, capitals=CAPITALS, gone_leaders=(), step=21, when=None) == []


def test_shoa_may_take_one_additional_and_factions_that_cannot_receive_excuse_it(synthetic):
    count = logged_from_turn_1()
    place(synthetic, count, ["et-levy-shoa", "et-levy-shoa"])
    assert count.close_map(Board(synthetic), 3, capitals=CAPITALS, gone_leaders=(), step=20, when=None) == []
    count = logged_from_turn_1()
    place(synthetic, count, ["et-levy-sidamo", "et-levy-sidamo"], others=(("it-sb", "1516"),))
    assert count.close_map(Board(synthetic), 3, capitals=CAPITALS, gone_leaders={"et-leader-hararghe-ogaden"},
                           step=20, when=None) == []        # Bale's capital is Italian, Nassibu is dead


def test_leaders_and_other_sides_are_not_counted(synthetic):
    assert place(synthetic, logged_from_turn_1(), ["et-leader-wollo", "it-sb", "et-levy-wollo"]) == []
