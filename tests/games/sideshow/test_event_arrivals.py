"""The units a Random Event brings (checks/event_arrivals.py) where the log leaves a doubt: an
unnamed roll, a hex the data does not list as a port or town, a hex inside an entry range the text
gives by its ends, an event whose month 16.2 leaves open; and the fallbacks the fixtures do not reach."""
from __future__ import annotations

from vlog.findings import Basis

from .test_sideshow_rules import judge


def turn(n: int, german: str = "", allied: str = "") -> str:
    return (f"as Alice\nturn set Turn={n} Phase=operations-segment-1\nchat ops\nroll 1d6 = 6\n{german}"
            f"as Bob\nturn next\nchat ops\nroll 1d6 = 6\n{allied}")


def event(letter: str | None) -> str:
    return 'chat "op event"\nchat event\nroll 2d6 = 3,4\n' + (f'chat "event {letter}"\n' if letter else "")


def verdicts(found: list) -> list:
    return [(f.check, f.basis, f.evidence.get("unit")) for f in found]


def test_an_arrival_after_an_unnamed_event_roll_is_possible(tmp_path):
    found = judge(tmp_path, turn(7, german=event(None) + 'add "Kron Mar" at 3804\n'))
    assert verdicts(found) == [("sideshow/EVT-02", Basis.POSSIBLE, "Kron Mar")]
    assert "did not name" in found[0].evidence["depends_on"][0]


def test_kronberg_in_a_hex_the_data_does_not_list_as_a_port_is_possible(tmp_path):
    found = judge(tmp_path, turn(7, german=event("A") + 'add "Kron Mar" at 6104\nadd Kron at 3804\n'))
    assert verdicts(found) == [("sideshow/EVT-02", Basis.POSSIBLE, "Kron Mar")]
    assert found[0].evidence["depends_on"] == ["map.json hexes features (the ports)"]


def test_an_entry_range_is_judged_by_its_hexrows(tmp_path):
    body = event("G") + 'add "Olsen column" at 1634\nadd "Molitor Column" at 2520\n'
    found = judge(tmp_path, turn(16, allied=event("H")) + turn(19, allied=body))
    assert verdicts(found) == [("sideshow/MOV-15", Basis.POSSIBLE, "Molitor Column")]   # 1634: an even hexrow's 34
    assert found[0].evidence["depends_on"] == ["map.json zones entry-urundi hexes"]


def test_the_konigsberg_with_dar_held_by_the_allies_goes_to_a_town_south_of_it(tmp_path):
    held = "".join(f'remove "{name}"\n' for name in ("10 FK", "Stnhm", "A. Kngbg", "3 SK", "4 SK", "Arab KP")) \
        + "add IST at 4605\n"
    found = judge(tmp_path, turn(5, allied=held + event("C")) + turn(6, german=event("C") + 'add Angel at 4511\n'))
    assert verdicts(found) == [("sideshow/EVT-04", Basis.PROVEN, "Angel")]            # Morogoro is not south of Dar
    found = judge(tmp_path, turn(5, allied=held + event("C")) + turn(6, german=event("C") + 'add Angel at 6104\n'))
    assert verdicts(found) == [("sideshow/EVT-04", Basis.POSSIBLE, "Angel")]          # Lindi: south, a town?


def test_abteilung_urundi_does_not_arrive_with_the_belgians_in(tmp_path):
    found = judge(tmp_path, turn(16, allied=event("H")) + turn(19, allied=event("G") + 'add "Olsen column" at 1434\n')
                  + turn(20, german=event("A") + 'chat "op move"\nadd "Abteilung Urundi" at 2234\n'))
    assert verdicts(found) == [("sideshow/EVT-19", Basis.PROVEN, "Abteilung Urundi")]
    assert found[0].evidence["belgians"] == ["Olsen column"]


def test_portugal_rolled_in_1915_is_read_both_ways(tmp_path):
    found = judge(tmp_path, turn(13, allied=event("R") + 'add "de Silviera column" at 7005\n'))
    assert verdicts(found) == [("sideshow/EVT-17", Basis.POSSIBLE, "de Silviera column")]
    found = judge(tmp_path, turn(4, allied=event("R") + 'add "de Silviera column" at 7005\n'))
    assert verdicts(found) == [("sideshow/EVT-17", Basis.PROVEN, "de Silviera column")]  # before 1915: no event


def test_evt_13_the_nigerians_leave_and_stay_out_of_the_available_box(tmp_path):
    """16.2 M: the data reads 'Ngria' as Nigerian from the abbreviation, so the verdicts are POSSIBLE."""
    body = turn(24, allied='add "1 Ngria" at 3201\nadd "2 Ngria" at 3201\n' + event("M") + 'remove "2 Ngria"\n')
    body += 'as Alice\nturn next\n' + turn(25, allied='add "2 Ngria" at "Delayed Box" on "Off-map Boxes"\n'
                                               'move "2 Ngria" along "Available Troops Box" on "Off-map Boxes"\n')
    found = judge(tmp_path, body)
    assert [(f.check, f.basis) for f in found] == [("sideshow/EVT-13", Basis.POSSIBLE)] * 2
    assert found[0].evidence["units"] == ["1 Ngria (3201)"]
    assert found[0].evidence["depends_on"] == ["counters.json nationality of 1 Ngria"]
    assert found[1].evidence["unit"] == "2 Ngria" and found[1].evidence["first_turn"] == 26


def test_evt_16_no_revolt_after_the_african_queen_and_evt_07_never_back(tmp_path):
    found = judge(tmp_path, turn(16, allied=event("H")) + turn(20, allied='add "2 Rhod" at 3201\n', german=event("P")))
    assert found == []                                           # Lake Tanganyika taken: no event
    body = turn(29, allied='add "5 SA" at 3201\n' + event("F") + 'remove "5 SA"\n') + turn(30, allied='add "5 SA" at 3201\n')
    found = judge(tmp_path, body)
    assert [(f.check, f.basis, f.evidence["unit"]) for f in found] == [("sideshow/EVT-07", Basis.PROVEN, "5 SA")]


def test_ops_14_is_possible_where_the_log_never_showed_wahle(tmp_path):
    body = 'as Alice\nremove Wahle\n' + turn(7, allied=event("K")) + turn(8, german="chat opgt\nroll 2d6 = 5,5\n")
    assert [(f.check, f.basis) for f in judge(tmp_path, body)] == [("sideshow/OPS-14", Basis.PROVEN)]
    body = turn(7, allied='as Alice\nremove Wahle\nas Bob\n' + event("K")) + turn(8, german="chat opgt\nroll 2d6 = 5,5\n")
    assert [(f.check, f.basis) for f in judge(tmp_path, body)] == [("sideshow/OPS-14", Basis.PROVEN)]
    body = turn(7, german=event("K")) + turn(8, german="chat opgt\nroll 2d6 = 5,5\n")
    assert judge(tmp_path, body) == []                           # rolled by the German: no event
