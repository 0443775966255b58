"""Set-up areas (checks/setup.py): SU-01, SU-02 (1935-36) and SU-05 (1940-41), judged on the
position a log or save begins with at the scenario's start; with the fixtures' SYNTHETIC country borders (not the published map)
the verdicts are proven, with the shipped data's few known hexes they are possible."""
from __future__ import annotations

import json
from pathlib import Path


from converters.log_writer import write_log
from vlog.cli import EXIT_FINDINGS, main
from vlog.findings import Basis
from vlog.games.lion_of_judah.board import Board
from vlog.games.lion_of_judah.checks.setup import judge_campaign_guerrillas, judge_setup_areas
from vlog.games.lion_of_judah.state import GameState, unit_from_counter
from vlog.kit.schedules import setup_areas

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "lion-of-judah"


def judge(data, scenario: str, *placed: tuple[str, str, str]):
    """Findings for units (counter, name, hex) standing where play begins."""
    units = {f"u{i}": unit_from_counter(data, counter, id=f"u{i}", name=name, hex_=hex_)
             for i, (counter, name, hex_) in enumerate(placed)}
    return judge_setup_areas(Board(data), data, GameState(units, scenario), scenario, step=1, when="Turn 1")


def test_areas_come_from_the_scenario_placements(shipped):
    areas = setup_areas(shipped, "1935-36")
    assert [(a.hex, a.within, a.zone) for a in areas["it-21a"]] == [("1405", None, None)]
    assert [(a.hex, a.within, a.zone) for a in areas["et-levy-shoa"]] == [("1213", 2, "ethiopia")]
    assert {a.placement for a in areas["it-colonial-irregular"]} == {"it-s-walwal", "it-s-irregulars",
                                                                   "it-n-irregulars"}
    assert "it-air-7st" not in areas                       # a box placement: SU-03's business


def test_su02_21a_must_start_in_massawa(synthetic):
    assert judge(synthetic, "1935-36", ("it-21a", "21A", "1405")) == []
    [f] = judge(synthetic, "1935-36", ("it-21a", "21A", "1305"))
    assert (f.check, f.basis, f.step) == ("lion-of-judah/SU-02", Basis.PROVEN, 1)
    assert "21A begins the scenario at 1305 (Asmara)" in f.message and "exactly in 1405 (Massawa)" in f.message
    assert f.evidence["areas"] == [{"placement": "it-n-21a", "hex": "1405", "within": None, "zone": None,
                                    "distance": 1}]


def test_su02_an_irregular_may_use_any_of_its_placements(synthetic):
    assert judge(synthetic, "1935-36", ("it-colonial-irregular", "Irr", "2416")) == []   # Walwal
    [f] = judge(synthetic, "1935-36", ("it-colonial-irregular", "Irr", "1213"))
    assert f.check == "lion-of-judah/SU-02" and f.basis is Basis.PROVEN
    assert "exactly in 2416" in f.message and "anywhere in Eritrea" in f.message


def test_su01_within_two_hexes_of_the_leaders_hex_in_ethiopia(synthetic):
    assert judge(synthetic, "1935-36", ("et-levy-shoa", "Shoa", "1211")) == []
    [f] = judge(synthetic, "1935-36", ("et-levy-shoa", "Shoa", "1208"))
    assert f.check == "lion-of-judah/SU-01" and f.evidence["areas"][0]["distance"] == 5
    assert "at or within 2 hexes of 1213 (Addis Ababa) in Ethiopia" in f.message


def test_su01_one_kz_battalion_may_stand_with_another_leader(synthetic):
    far = ("et-leader-tigray", "Ras Seyum", "1107")
    assert judge(synthetic, "1935-36", far, ("et-kz-battalion", "KZ 1", "1107")) == []
    findings = judge(synthetic, "1935-36", far, ("et-kz-battalion", "KZ 1", "1107"),
                     ("et-kz-battalion", "KZ 2", "1106"))
    assert [(f.check, f.subjects) for f in findings] == [("lion-of-judah/SU-01", ("KZ 2",))]


def test_su05_guerrillas_never_in_an_italian_occupied_hex(synthetic):
    assert judge(synthetic, "1940-41", ("et-levy-shoa", "Shoa guerrilla", "1212")) == []
    [f] = judge(synthetic, "1940-41", ("et-levy-shoa", "Shoa guerrilla", "1212"), ("it-sb", "Sb", "1212"))
    assert f.check == "lion-of-judah/SU-05" and "Italian-occupied" in f.message
    [f] = judge(synthetic, "1940-41", ("ff-bdo", "BdO", "1911"))
    assert f.check == "lion-of-judah/SU-05" and "exactly in 1910" in f.message


def test_unknown_borders_make_one_possible_finding_per_side(shipped):
    findings = judge(shipped, "1935-36", ("it-sb", "Sb", "1405"), ("it-gs", "GS", "1305"),
                     ("it-21a", "21A", "1305"))
    by_basis = {(f.check, f.basis): f for f in findings}
    assert set(by_basis) == {("lion-of-judah/SU-02", Basis.POSSIBLE), ("lion-of-judah/SU-02", Basis.PROVEN)}
    possible = by_basis[("lion-of-judah/SU-02", Basis.POSSIBLE)]
    assert possible.subjects == ("Sb", "GS") and possible.evidence["depends_on"] == ["map.json zone eritrea hexes"]
    # a hex the data places in another country is outside, borders or not
    [f] = judge(shipped, "1935-36", ("it-sb", "Sb", "1208"))       # 1208: an amba of Ethiopia
    assert f.basis is Basis.PROVEN


def _bad_start(tmp_path: Path) -> Path:
    """The synthetic 1935-36 start with 21A in Asmara: a log of that set-up move, saved after it."""
    script = tmp_path / "setup.vscript"
    script.write_text("\n".join([
        "game lion-of-judah", f"module {FIXTURES / 'synthetic' / 'lion-of-judah.vmod'}",
        f"start {FIXTURES / 'synthetic' / '1935-36-start.vsav'}", 'map "Main Map"',
        "player Alice side italian", "player Bob side ethiopian",
        'move "21A" along 1305']) + "\n", encoding="utf-8")
    log, save = tmp_path / "setup.vlog", tmp_path / "bad-start.vsav"
    write_log(script, log)
    assert main(["convert", str(log), str(save), "--step", "1"]) == 0
    return save


def test_a_save_and_a_log_that_begin_from_a_bad_set_up(tmp_path, capsys):
    save = _bad_start(tmp_path)
    capsys.readouterr()
    common = ["--game", "lion-of-judah", "--module", str(FIXTURES / "synthetic" / "lion-of-judah.vmod"),
              "--format", "json"]
    assert main(["check", str(save), *common]) == EXIT_FINDINGS
    found = [(f["check"], f["step"]) for log in json.loads(capsys.readouterr().out)["logs"] for f in log["findings"]]
    assert found == [("lion-of-judah/SU-02", 0)]               # a save: the position it holds
    play = tmp_path / "play.vscript"
    play.write_text("\n".join([
        "game lion-of-judah", f"module {FIXTURES / 'synthetic' / 'lion-of-judah.vmod'}", f"start {save}",
        'map "Main Map"', "player Alice side italian", "player Bob side ethiopian",
        "turn next", 'move "21A" along 1206']) + "\n", encoding="utf-8")
    write_log(play, tmp_path / "play.vlog")
    assert main(["check", str(tmp_path / "play.vlog"), *common]) == EXIT_FINDINGS
    found = [(f["check"], f["step"]) for log in json.loads(capsys.readouterr().out)["logs"] for f in log["findings"]]
    assert found == [("lion-of-judah/SU-02", 0)]               # the position the log begins with


def test_clean_fixture_starts_are_legal(synthetic):
    from tests.games.lion_of_judah.test_end_to_end import replay_with_actions
    for name in ("clean-1935-36", "clean-1940-41"):
        replay, _, _, _ = replay_with_actions(name)
        assert not [f for f in replay.findings if f.check.split("/")[1].startswith("SU-0")]


def _guerrillas(data, shoa: int, gojjam: int, beghemder: int):
    placed = [("et-levy-shoa", "1213")] * shoa + [("et-levy-gojjam-imru", "1012")] * gojjam + \
             [("et-levy-beghemder", "1009")] * beghemder
    units = {f"g{i}": unit_from_counter(data, c, id=f"g{i}", name=c, hex_=h) for i, (c, h) in enumerate(placed)}
    return judge_campaign_guerrillas(data, GameState(units, "1940-41"), step=0, when="Turn 1, Event Phase")


def test_su07_guerrilla_counts_fit_the_scenario_or_a_campaign_result(shipped):
    for counts in ((3, 2, 3), (2, 1, 2), (4, 3, 4), (4, 3, 3), (3, 2, 4), (4, 2, 4)):
        assert _guerrillas(shipped, *counts) == [], counts
    [f] = _guerrillas(shipped, 4, 1, 3)         # one more Shoa and one fewer Gojjam: no result gives that
    assert (f.check, f.basis, f.step) == ("lion-of-judah/SU-07", Basis.PROVEN, 0)
    assert "(3 Beghemder, 1 Gojjam, 4 Shoa)" in f.message
    assert f.evidence["shown"] == {"et-levy-shoa": 4, "et-levy-gojjam-imru": 1, "et-levy-beghemder": 3}
    assert len(f.evidence["readings"]) == 9     # scenario, two strategic, six tactical choices
    [f] = _guerrillas(shipped, 5, 3, 4)          # two more Shoa
    assert f.check == "lion-of-judah/SU-07"


def _boxes(data, *pieces: tuple[str, str, str | None]):
    """SU-03's box findings for pieces (counter, box, face level) where 1935-36 play begins."""
    from dataclasses import replace

    from vlog.games.lion_of_judah.checks.setup import judge_start_boxes_1935
    units = {}
    for i, (counter, box, level) in enumerate(pieces):
        u = unit_from_counter(data, counter, id=f"p{i}", name=counter, hex_=None, level=level)
        units[u.id] = replace(u, box=box)
    return judge_start_boxes_1935(data, GameState(units, "1935-36"), step=2, when="Turn 1")


def test_su03_rp_boxes_and_trucks_when_1935_play_begins(shipped):
    """PB 13.3.3: 4 RP markers in the Southern Front box, 6 in the Northern; 1 and 2 trucks."""
    south, north = "rp-southern-front", "rp-northern-front"
    start = [("it-rp-2-1", south, "1rp")] * 4 + [("it-rp-2-1", north, "1rp")] * 6
    trucks = [("it-truck", south, None), ("it-truck", north, None), ("it-truck", north, None)]
    assert _boxes(shipped, *start, *trucks) == []
    assert _boxes(shipped, *[("it-rp-2-1", south, "2rp")] * 4, *start[4:]) == []   # 4 markers
    assert _boxes(shipped, *[("it-rp-2-1", south, "2rp")] * 2, *start[4:]) == []   # 4 RPs
    [f] = _boxes(shipped, *start[1:])
    assert f.check == "lion-of-judah/SU-03" and f.basis is Basis.PROVEN
    assert f.evidence == {"box": south, "markers": 3, "rps": 3, "expected": 4}
    [g] = _boxes(shipped, *start, ("it-truck", south, None), ("it-truck", south, None))
    assert g.evidence == {"box": south, "trucks": 2, "allowed": 1}
