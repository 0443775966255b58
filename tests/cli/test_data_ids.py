"""`vlog data ids` lists every id a bindings file names; `vlog data template` keeps every counter."""
from __future__ import annotations

import json

from vlog.cli import main
from vlog.gamedata import load_game_data, write_template


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(["data", *argv])
    return code, capsys.readouterr().out


def test_counter_ids_with_names_sides_and_levels(capsys):
    code, out = run(capsys, "ids", "lion-of-judah")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "lion-of-judah counters (115):"
    assert any(line.split() == ["it-21a", "21A", "(italian,", "4/3/2/1)"] for line in lines)
    assert any(line.split()[:3] == ["et-leader-tigray", "Ras", "Seyum"] for line in lines)


def test_phase_box_and_hex_ids(capsys):
    _, out = run(capsys, "ids", "lion-of-judah", "phases", "--format", "json")
    ids = json.loads(out)["ids"]
    data = load_game_data("lion-of-judah")
    phases = data.documents["scenarios"]["scenarios"][0]["phases"]["value"]
    assert [r["id"] for r in ids if r["scenario"] == "1935-36"][: len(phases)] == phases
    _, out = run(capsys, "ids", "lion-of-judah", "boxes")
    assert "rp-northern-front" in out and "Northern Front RP storage box" in out
    _, out = run(capsys, "ids", "lion-of-judah", "hexes")
    assert "1213" in out and "Addis Ababa" in out


def test_template_writes_every_counter(tmp_path):
    write_template("lion-of-judah", tmp_path / "t")
    doc = json.loads((tmp_path / "t" / "counters.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in doc["counters"]] == list(load_game_data("lion-of-judah").counter_ids)
    assert "vlog data ids lion-of-judah" in (tmp_path / "t" / "README.txt").read_text(encoding="utf-8")
