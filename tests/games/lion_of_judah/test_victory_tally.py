"""The VP tally (PB 13.4.1, 13.4.4: VC-01, VC-02; PB 14.4.1: VC-05, VC-06) on SYNTHETIC
positions, and a declared total judged against it."""
from __future__ import annotations

from dataclasses import replace

import pytest

from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.victory import judge_vp_claim, parse_victory_claim, tally_1935, tally_1940
from vlog.games.lion_of_judah.checks.vp_history import (VPHistory, judge_start_markers_1935, judge_steps_marker,
                                                        track_value)
from vlog.games.lion_of_judah.state import GameState

from .synthetic import shipped_board, state, synthetic_board, unit

ERITREA = ["1405", "1406", "1407", "1305", "1306"]
TRACK = ["1405", "1305", "1306", "1307", "1308", "1309", "1310", "1311", "1312", "1213"]


@pytest.fixture()
def board(tmp_path):
    """A clear map with a road from Massawa (1405) to Addis Ababa (1213) through the ambas."""
    return synthetic_board(tmp_path, zones={"eritrea": ERITREA}, lines={"road": ("road", TRACK)},
                           features={"1308": ["amba"], "1311": ["amba"], "1208": ["amba"]})


def italian_road(s: GameState) -> GameState:
    """The road's towns under Italian control (3.2), so supply may run along it (9.4)."""
    s.control.update({h: "italian" for h in TRACK})
    return s


def levy(id_: str, hex_: str | None, **kw):
    return unit(id_, hex_, side="ethiopian", unit_class="ethiopian-shoa", size=None, steps=1, **kw)


def leader(id_: str, counter: str, hex_: str | None, name: str):
    return replace(unit(id_, hex_, name=name, side="ethiopian", kind="leader", unit_class=None, size=None,
                        attack=0, defense=1, steps=1), counter=counter)


LEADERS = {"et-leader-shoa": "Ras Mulugheta", "et-leader-beghemder": "Ras Kassa",
           "et-leader-tigray": "Ras Seyum", "et-leader-gojjam-imru": "Ras Imru",
           "et-leader-gojjam-belu": "Dejaz G. Belu", "et-leader-sidamo": "Ras Desta",
           "et-leader-hararghe-ogaden": "Dejaz Nassibu", "et-leader-bale": "Dejaz B. Merid",
           "et-leader-wollo": "Crown Prince Asfaw Wossen Tafari", "et-negus": "Negus"}


def all_leaders(*, gone: tuple[str, ...] = ()) -> list:
    """Every Ethiopian leader of the data at 1615 (far from the play), but those `gone`."""
    return [leader(f"l{n}", cid, None if cid in gone else "1615", name)
            for n, (cid, name) in enumerate(LEADERS.items())]


def whole_game(history: VPHistory, last: int = 7, events: dict[int, str] | None = None) -> VPHistory:
    """The history of a log showing every turn and its event (A5, No Event, unless told)."""
    for turn in range(1, last + 1):
        history.note_turn(turn)
        history.note_chat(f"Event {(events or {}).get(turn, 'A5')}", step=turn * 10, turn=turn)
    return history


def claim(text: str):
    parsed = parse_victory_claim(text)
    assert parsed is not None
    return parsed


def test_vc01_a_supplied_unit_scores_its_hex_and_one_out_of_supply_does_not(board):
    s = italian_road(state(unit("a", "1213", name="Sb"), unit("b", "1118", name="GS"), *all_leaders(),
                           scenario="1935-36"))
    result = tally_1935(board, s, whole_game(VPHistory()))
    assert (result.low, result.high) == (8, 8)
    held = {t.evidence.get("hex"): t for t in result.terms if t.check == "VC-01"}
    assert held["1213"].low == 8 and held["1213"].evidence["unit"] == "Sb"
    assert held["1118"].low == 0 and held["1118"].evidence["units_out_of_supply"] == ["GS"]
    assert judge_vp_claim(result, claim("Italian 8 VP: Ethiopian strategic victory"), step=3, when=None) == []
    [f] = judge_vp_claim(result, claim("Italian 14 VP: Ethiopian strategic victory"), step=3, when="T7")
    assert f.check == "lion-of-judah/VC-01" and f.basis is Basis.PROVEN and f.step == 3
    assert f.evidence["vp"] == 14 and f.evidence["tally"] == 8
    assert "1213 (Addis Ababa) held by Sb in supply +8" in f.message
    terms = f.evidence["terms"]
    assert {"check": "VC-01", "rule": "PB 13.4.1", "what": "1213 (Addis Ababa) held by Sb in supply",
            "points": 8, "hex": "1213", "unit": "Sb", "vp": 8} in terms


def test_vc01_the_eritrean_amba_and_enemy_units_score_nothing(board):
    s = state(unit("a", "1104", name="Sb"), levy("e", "1311"), *all_leaders(), scenario="1935-36")
    result = tally_1935(board, s, whole_game(VPHistory()))
    assert (result.low, result.high) == (0, 0)
    assert not [t for t in result.terms if t.check == "VC-01"]


def test_vc01_supply_the_map_data_cannot_settle_is_possible():
    s = state(unit("a", "1213", name="Sb"), *all_leaders(), scenario="1935-36")
    result = tally_1935(shipped_board(), s, whole_game(VPHistory()))
    assert (result.low, result.high) == (0, 8)
    [f] = judge_vp_claim(result, claim("Italian 8 VP: Ethiopian strategic victory"), step=1, when=None)
    assert f.check == "lion-of-judah/VC-01" and f.basis is Basis.POSSIBLE and f.evidence["depends_on"]
    [f] = judge_vp_claim(result, claim("Italian 9 VP: Ethiopian strategic victory"), step=1, when=None)
    assert f.basis is Basis.PROVEN


def step_of(history: VPHistory, before: GameState, after: GameState, *, step: int = 5, turn: int = 2) -> None:
    history.observe(before, after, step=step, turn=turn)


def test_vc02_italian_steps_lost_count_hqs_but_not_trucks_or_irregulars(board):
    sb = unit("sb", "1406", name="Sb")
    hq = unit("hq", "1405", name="CSI", kind="hq", size=None, steps=0, attack=None, defense=None)
    truck = unit("tr", "1405", name="Italian truck", kind="truck", size=None, steps=1, attack=None)
    irregular = unit("ir", "1407", name="Italian colonial irregular", unit_class="italian-colonial-irregular")
    eritrean = unit("1e", "1306", name="1E", unit_class="eritrean-colonial-regular", steps=1)
    before = state(sb, hq, truck, irregular, eritrean, scenario="1935-36")
    after = state(replace(sb, steps=2, level="2"), scenario="1935-36")
    history = whole_game(VPHistory())
    step_of(history, before, after)
    lost = {e["unit"]: e["steps"] for e in history.italian_steps_lost}
    assert lost == {"Sb": 2, "CSI": 1, "1E": 1}
    result = tally_1935(board, state(replace(sb, steps=2), *all_leaders(), scenario="1935-36"), history)
    [steps] = [t for t in result.terms if t.rule == "PB 13.4.4"]
    assert (steps.low, steps.evidence["steps_lost"]) == (-2, 4)
    [f] = judge_vp_claim(result, claim("Italian 0 VP: Ethiopian strategic victory"), step=9, when=None)
    assert f.check == "lion-of-judah/VC-02" and f.basis is Basis.PROVEN and f.evidence["tally"] == -2


def test_vc02_breakdown_consolidation_and_replacement_counters_are_not_losses():
    sb = unit("sb", "1406", name="Sb")
    part = unit("bd", "1406", name="Italian regular breakdown unit", unit_type="breakdown", steps=1)
    history = VPHistory()
    step_of(history, state(sb), state(replace(sb, steps=3), part))              # 2.4: breakdown
    step_of(history, state(replace(sb, steps=3), part), state(replace(sb, steps=4)))   # 2.5: consolidation
    tv = unit("tv", "1406", name="Tv", steps=3)
    swap = unit("tv2", "1406", name="Tv", steps=2)
    step_of(history, state(tv), state(swap))                                   # 2.3.9: one step only
    assert [(e["unit"], e["steps"]) for e in history.italian_steps_lost] == [("Tv", 1)]


def test_vc02_leaders_off_the_map_are_eliminated(board):
    alive = all_leaders()
    history = whole_game(VPHistory())
    gone = ("et-leader-tigray", "et-negus")
    after = all_leaders(gone=gone)
    step_of(history, state(*alive), state(*[u for u in after if u.hex is not None]))
    result = tally_1935(board, state(*after, scenario="1935-36"), history)
    points = {t.evidence["leader"]: t.low for t in result.terms if "leader" in t.evidence}
    assert points == {"Ras Seyum": 1, "Negus": 2}
    [f] = judge_vp_claim(result, claim("Italian 0 VP: Ethiopian strategic victory"), step=4, when=None)
    assert f.check == "lion-of-judah/VC-02" and "Negus eliminated +2" in f.message   # the hexes alone give 0
    [f] = judge_vp_claim(result, claim("Italian 2 VP: Ethiopian strategic victory"), step=4, when=None)
    assert f.check == "lion-of-judah/VC-01"


def test_vc02_a_log_that_begins_late_leaves_the_history_open(board):
    history = VPHistory()
    history.note_turn(7)
    s = state(unit("a", "1213", name="Sb"), *all_leaders(gone=("et-leader-bale",))[:-1], scenario="1935-36")
    result = tally_1935(board, s, history)
    open_terms = {t.rule for t in result.terms if not t.known}
    assert {"PB 13.4.4", "Event A1", "PB 13.6.2.4", "PB 13.4.1"} <= open_terms
    [f] = judge_vp_claim(result, claim("Italian 8 VP: Ethiopian strategic victory"), step=2, when=None)
    assert f.basis is Basis.POSSIBLE
    assert any("eliminated steps marker" in d for d in f.evidence["depends_on"])
    assert any("Event A1" in d for d in f.evidence["depends_on"])
    [f] = judge_vp_claim(result, claim("Italian 30 VP: Italian strategic victory"), step=2, when=None)
    assert f.basis is Basis.PROVEN       # more than every reading allows (8 + 1 + 1 + 6)


def test_vc02_mussolinis_pressure_counts_the_attacks_made(board):
    history = whole_game(VPHistory(), events={3: "A1"})
    history.note_attack("italian", 3)
    history.note_attack("italian", 3)
    result = tally_1935(board, state(*all_leaders(), scenario="1935-36"), history)
    [a1] = [t for t in result.terms if t.rule == "Event A1"]
    assert (a1.low, a1.high) == (-4, 0) and "fronts were connected" in a1.depends_on[0]
    for _ in range(2):
        history.note_attack("italian", 3)
    [a1] = [t for t in tally_1935(board, state(*all_leaders(), scenario="1935-36"), history).terms
            if t.rule == "Event A1"]
    assert (a1.low, a1.high) == (0, 0)


def test_vc02_mussolinis_pressure_counts_only_northern_attacks_by_a_division(board):
    """A1: attacks on Northern Front hexes, each by a division or equivalent; one the data
    cannot settle widens the range."""
    history = whole_game(VPHistory(), events={3: "A1"})
    for counts in (True, True, False, None):
        history.note_attack("italian", 3, for_a1=counts)
    [a1] = [t for t in tally_1935(board, state(*all_leaders(), scenario="1935-36"), history).terms
            if t.rule == "Event A1"]
    assert (a1.low, a1.high) == (-4, 0)
    assert a1.evidence["attacks"] == 2 and a1.evidence["attacks_uncertain"] == 1
    assert a1.evidence["attacks_declared"] == 4
    assert any("Northern Front by a division" in d for d in a1.depends_on)


def test_vc02_league_of_nations_needs_two_bombing_missions_to_cost_a_vp(board):
    ethiopians = state(levy("e", "1308"), levy("f", "1309"))
    history = VPHistory()
    air = unit("air", None, name="III Br", kind="air", attack=None, defense=None, size=None)
    step_of(history, ethiopians, state(levy("e", "1308"), levy("f", "1309"), replace(air, hex="1308")), turn=1)
    whole_game(history, events={5: "A4"})
    [a4] = [t for t in tally_1935(board, state(*all_leaders(), scenario="1935-36"), history).terms
            if t.rule == "Event A4"]
    assert (a4.low, a4.high) == (0, 0)           # a die roll is never lower than 1
    step_of(history, ethiopians, state(levy("e", "1308"), levy("f", "1309"), replace(air, hex="1309")), turn=2)
    [a4] = [t for t in tally_1935(board, state(*all_leaders(), scenario="1935-36"), history).terms
            if t.rule == "Event A4"]
    assert (a4.low, a4.high) == (-1, 0) and a4.evidence["possible_bombing_missions"] == 2


def test_vc02_great_offensive_and_air_markers_lost_on_the_last_turn(board):
    history = whole_game(VPHistory())
    history.note_chat("Great Offensive on the Northern Front", step=31, turn=3)
    history.note_attack("ethiopian", 3)
    air = unit("air", None, name="7 St", kind="air", attack=None, defense=None, size=None)
    step_of(history, state(air), state(), step=70, turn=7)
    result = tally_1935(board, state(*all_leaders(), scenario="1935-36"), history)
    by_rule = {t.rule: t for t in result.terms}
    assert by_rule["PB 13.6.2.4"].low == by_rule["PB 13.6.2.4"].high == 4
    assert by_rule["10.1.4"].low == -1 and by_rule["10.1.4"].evidence["markers"] == [{"step": 70, "marker": "7 St"}]
    assert (result.low, result.high) == (3, 3)


def test_event_markers_leaving_the_cup_are_drawn():
    marker = replace(unit("ev", None, name="A1 Mussolini's Pressure", side=None, attack=None, defense=None),
                     box="event-cup", properties={"event": "A1"})
    history = VPHistory()
    history.observe(state(marker), state(replace(marker, box="event-drawn")), step=4, turn=2)
    assert history.events == {2: ("A1", 4)}


def allied_history(ipl: dict[int, int] | None = None) -> VPHistory:
    history = whole_game(VPHistory(), last=11, events={t: "C5" for t in range(1, 12)})
    for turn in range(2, 12):
        history.ipl_at_start[turn] = (ipl or {}).get(turn, 5)
    return history


ALLIED_ROAD = ["0505", "0606", "0706", "0807", "0907", "1008", "1009", "1109", "1210", "1211", "1212", "1213"]


def allied_road(s: GameState) -> GameState:
    s.control.update({h: "allied" for h in ALLIED_ROAD})
    return s


def allied(id_: str, hex_: str, **kw):
    return unit(id_, hex_, side="allied", unit_class="commonwealth", **kw)


def test_vc05_allied_hexes_and_addis_ababa_not_by_guerrillas_alone(tmp_path):
    board = synthetic_board(tmp_path, lines={"road": ("road", ALLIED_ROAD)})
    guerrilla = unit("g", "1213", name="Shoa guerrillas", side="allied", unit_class="guerrilla")
    s = allied_road(state(allied("a", "1009", name="SDF1"), guerrilla, scenario="1940-41"))
    result = tally_1940(board, s, allied_history())
    assert (result.low, result.high) == (2, 2)
    [f] = judge_vp_claim(result, claim("Allied 6 VP: Italian strategic victory"), step=8, when=None)
    assert f.check == "lion-of-judah/VC-05" and f.basis is Basis.PROVEN
    s = allied_road(state(allied("a", "1009", name="SDF1"), guerrilla, allied("k", "1213", name="KAR1"),
                          scenario="1940-41"))
    assert tally_1940(board, s, allied_history()).low == 6


def test_vc06_negus_berbera_ipl_and_open_city(tmp_path):
    board = synthetic_board(tmp_path, lines={"road": ("road", ALLIED_ROAD)})
    negus = replace(allied("n", "1009", name="Negus", kind="leader"), counter="et-negus")
    history = allied_history({3: 9, 4: 10, 5: 2})
    step_of(history, state(negus), state(), step=90, turn=9)          # deleted: killed or captured
    city = replace(unit("oc", "1213", name="Open City", side=None, attack=None, defense=None),
                   counter="ev-open-city")
    s = allied_road(state(allied("a", "1009", name="SDF1"), allied("k", "1213", name="KAR1"), city,
                          unit("i", "2311", name="Sb"), scenario="1940-41"))
    result = tally_1940(board, s, history)
    by_what = {t.rule + " " + t.what: t.low for t in result.terms}
    assert by_what["PB 14.4.1 the Negus killed or captured"] == -5
    assert by_what["PB 14.4.1 2311 (Berbera) occupied by Sb"] == -2
    assert by_what["PB 14.4.1 turns begun at high or low IPL"] == -3        # two high, one low
    assert by_what["Events D9/D10 Open City marker on 1213"] == -2           # 4 VP halved
    assert (result.low, result.high) == (6 - 2 - 5 - 2 - 3, 6 - 2 - 5 - 2 - 3)
    [f] = judge_vp_claim(result, claim("Allied 6 VP: Italian strategic victory"), step=8, when=None)
    assert f.check == "lion-of-judah/VC-06" and f.basis is Basis.PROVEN     # the hexes alone give 6


def test_vc06_ipl_the_log_does_not_show_is_possible(tmp_path):
    board = synthetic_board(tmp_path)
    history = whole_game(VPHistory(), last=11, events={t: "C5" for t in range(1, 12)})
    result = tally_1940(board, state(scenario="1940-41"), history)
    [ipl] = [t for t in result.terms if "IPL" in t.what]
    assert (ipl.low, ipl.high) == (-20, 10)
    [f] = judge_vp_claim(result, claim("Allied 0 VP: Italian strategic victory"), step=2, when=None)
    assert f.check == "lion-of-judah/VC-06" and f.basis is Basis.POSSIBLE
    assert "the IPL at the start of turns 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 (PB 14.6.3)" in f.evidence["depends_on"]


def test_track_value_reads_the_grt_box():
    marker = replace(unit("ipl", None, name="Italian prestige level", kind="marker"), counter="it-ipl",
                     box="grt-9")
    assert track_value(state(marker), "it-ipl") == 9
    assert track_value(state(replace(marker, box="event-cup")), "it-ipl") is None
    assert track_value(state(), "it-ipl") is None


def test_vc06_the_ipl_reported_in_chat_settles_a_turn():
    history = VPHistory()
    history.note_chat("Event C5: No Event; IPL 9", step=3, turn=4)
    history.note_chat("IPL at 2", step=4, turn=4)             # the first report of a turn counts
    history.note_chat("attack 1213 with KAR1", step=5, turn=5)
    assert history.ipl_at_start == {4: 9} and history.events == {4: ("C5", 3)}


def grt_marker(counter: str, box: str | None, *, name: str, level: str = "front"):
    return replace(unit(counter, None, name=name, kind="marker", attack=None, defense=None, size=None,
                        unit_class=None, steps=0, level=level), counter=counter, box=box)


def test_su03_the_markers_start_in_box_0_on_their_front():
    ok = state(grt_marker("it-bombing-attacks", "grt-0", name="Italian bombing attacks"),
               grt_marker("it-eliminated-steps", "grt-0", name="Italian eliminated steps"))
    assert judge_start_markers_1935(ok, step=2, when="Turn 1, Italian movement") == []
    wrong = state(grt_marker("it-bombing-attacks", "grt-0", name="Italian bombing attacks", level="reverse"),
                  grt_marker("it-eliminated-steps", "grt-2", name="Italian eliminated steps"))
    found = judge_start_markers_1935(wrong, step=2, when="Turn 1, Italian movement")
    assert [(f.check, f.basis, f.evidence["shown"], f.evidence["face"]) for f in found] == [
        ("lion-of-judah/SU-03", Basis.PROVEN, 0, "reverse"), ("lion-of-judah/SU-03", Basis.PROVEN, 2, "front")]
    assert judge_start_markers_1935(state(), step=2, when=None) == []       # no markers: nothing judged


def test_vc02_the_eliminated_steps_marker_records_every_step_lost(board):
    history = VPHistory()
    history.note_turn(1)
    sb = unit("sb", "1406", name="Sb")
    step_of(history, state(sb), state(replace(sb, steps=3)), turn=1)      # one step lost on turn 1
    behind = state(grt_marker("it-eliminated-steps", "grt-0", name="Italian eliminated steps"))
    [f] = judge_steps_marker(board, behind, history, turn=1, step=9, when="Turn 2, Event Phase")
    assert f.check == "lion-of-judah/VC-02" and (f.evidence["shown"], f.evidence["expected"]) == (0, 1)
    assert judge_steps_marker(board, behind, history, turn=1, step=9, when=None) == []   # reported once
    fresh = VPHistory()
    fresh.note_turn(1)
    step_of(fresh, state(sb), state(replace(sb, steps=3)), turn=1)
    right = state(grt_marker("it-eliminated-steps", "grt-1", name="Italian eliminated steps"))
    assert judge_steps_marker(board, right, fresh, turn=1, step=9, when=None) == []


def test_vc02_a_log_begun_late_counts_from_the_marker(board):
    history = VPHistory()
    marker = grt_marker("it-eliminated-steps", "grt-5", name="Italian eliminated steps")
    sb = unit("sb", "1406", name="Sb")
    step_of(history, state(marker, sb), state(marker, replace(sb, steps=3)), turn=6)
    history.note_turn(6)
    history.note_turn(7)
    [steps] = [t for t in tally_1935(board, state(*all_leaders(), scenario="1935-36"), history).terms
               if t.rule == "PB 13.4.4"]
    assert (steps.low, steps.high, steps.evidence["marker_at_start"]) == (-3, -3, 5)


def test_vc02_a_flipped_bombing_attacks_marker_is_the_league_of_nations_vp(board):
    history = VPHistory()
    air = unit("air", None, name="III Br", kind="air", attack=None, defense=None, size=None)
    for turn, hex_ in ((1, "1308"), (2, "1309")):
        step_of(history, state(levy("e", hex_)), state(levy("e", hex_), replace(air, hex=hex_)), turn=turn)
    whole_game(history, events={3: "A4"})
    flipped = grt_marker("it-bombing-attacks", "grt-2", name="Italian bombing attacks", level="reverse")
    terms = tally_1935(board, state(*all_leaders(), flipped, scenario="1935-36"), history).terms
    [a4] = [t for t in terms if t.rule == "Event A4"]
    assert (a4.low, a4.high, a4.evidence["marker_face"]) == (-1, -1, "reverse")
    terms = tally_1935(board, state(*all_leaders(), replace(flipped, level="front"), scenario="1935-36"),
                       history).terms
    assert [(t.low, t.high) for t in terms if t.rule == "Event A4"] == [(0, 0)]


def test_su03_the_air_markers_start_in_their_fronts_boxes(board):
    def air(id_: str, counter: str, name: str, box: str | None, hex_: str | None = None):
        return replace(unit(id_, hex_, name=name, kind="air", attack=None, defense=None, size=None,
                            unit_class=None, steps=0), counter=counter, box=box)

    ok = state(air("a", "it-air-7st", "7 St", "air-southern-front"),
               air("b", "it-air-iiibr", "III Br", "air-northern-front"))
    assert judge_start_markers_1935(ok, step=2, when=None, data=board.data) == []
    wrong = state(air("a", "it-air-7st", "7 St", "air-northern-front"),
                  air("b", "it-air-iiibr", "III Br", None, hex_="1305"))
    found = judge_start_markers_1935(wrong, step=2, when=None, data=board.data)
    assert [(f.check, f.subjects, f.evidence["expected_box"]) for f in found] == [
        ("lion-of-judah/SU-03", ("7 St",), "air-southern-front"),
        ("lion-of-judah/SU-03", ("III Br",), "air-northern-front")]
    assert "starts in hex 1305" in found[1].message


def test_set_up_break_downs_and_two_step_consolidations_lose_no_step():
    """13.4.4 counts steps lost in play: not the set-up's changes (2.4: PL may break down before
    set-up), nor a breakdown unit deleted and its unit raised in a later step of the turn (2.5)."""
    pl, bd = unit("pl", "1410", name="PL", steps=4), unit("bd", "1410", name="breakdown", unit_type="breakdown",
                                                           size="regiment", steps=1)
    history = VPHistory()
    history.observe(state(pl), state(replace(pl, steps=3)), step=1, turn=1, setting_up=True)
    assert history.italian_steps_lost == []
    history.observe(state(replace(pl, steps=3), bd), state(replace(pl, steps=3)), step=5, turn=2)
    assert [e["how"] for e in history.italian_steps_lost] == ["deleted"]
    history.observe(state(replace(pl, steps=3)), state(pl), step=6, turn=2)
    assert history.italian_steps_lost == []
    history.observe(state(pl), state(replace(pl, steps=3)), step=9, turn=2)      # a loss in play
    assert [e["steps"] for e in history.italian_steps_lost] == [1]


def test_a_break_down_in_two_steps_loses_no_step():
    """2.4: PL reduced in one step of the MAP and its breakdown unit placed in the next (or the
    other way round) is a break-down, not a loss; a second reduction that turn still is."""
    pl, bd = unit("pl", "1406", name="PL", steps=4), unit("bd", "1406", name="breakdown", unit_type="breakdown",
                                                           size="regiment", steps=1)
    for order in ("reduce first", "place first"):
        history = VPHistory()
        three = replace(pl, steps=3)
        if order == "reduce first":
            history.observe(state(pl), state(three), step=5, turn=2)
            history.observe(state(three), state(three, bd), step=6, turn=2)
        else:
            history.observe(state(pl), state(pl, bd), step=5, turn=2)
            history.observe(state(pl, bd), state(three, bd), step=6, turn=2)
        assert history.italian_steps_lost == [], order
        history.observe(state(three, bd), state(replace(pl, steps=2), bd), step=9, turn=2)
        assert [e["steps"] for e in history.italian_steps_lost] == [1], order


def test_a_counter_swapped_in_two_steps_loses_the_difference():
    """2.3.9: Sb (4 steps) deleted, then its replacement counter placed in its hex at 2 steps
    later that turn: 2 steps lost, not 4."""
    sb = unit("sb", "1406", name="Sb", steps=4)
    history = VPHistory()
    history.observe(state(sb), state(), step=5, turn=2)
    history.observe(state(), state(replace(sb, id="sb2", steps=2)), step=6, turn=2)
    assert [(e["steps"], e["how"]) for e in history.italian_steps_lost] == [(2, "replaced by a reduced counter")]
