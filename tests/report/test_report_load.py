"""A JSON report read back (`vlog.report.load`) is the report it was written from: the same JSON
and the same text, for the renderers' sample report and for a judged fixture log with dice, a
binding and checks not judged."""
from __future__ import annotations

import json
from pathlib import Path

from vlog.report import text
from vlog.report.load import report_from_dict

ROOT = Path(__file__).resolve().parents[2]


def test_sample_report_round_trips(report):
    data = report.to_dict()
    back = report_from_dict(json.loads(json.dumps(data)))
    assert back.to_dict() == data
    assert text.render(back) == text.render(report)


def test_judged_fixture_report_round_trips():
    import vlog
    from vlog.games.base import find_game
    from vlog.gamedata import load_game_data
    from vlog.replay import replay
    from vlog.vassal.module import read_module

    module = read_module(ROOT / "fixtures" / "lion-of-judah" / "synthetic" / "lion-of-judah.vmod")
    game = find_game("lion-of-judah", load_game_data("lion-of-judah", embedded=module.game_data))
    report = replay(vlog.read(ROOT / "fixtures" / "lion-of-judah" / "rules" / "CB-19.vlog"), module=module, game=game)
    data = report.to_dict()
    assert data["dice"] is not None and data["logs"][0]["binding"] is not None
    assert data["logs"][0]["boards"]["Main Map"] == [["Horn of Africa", 0, 0, False]]
    assert {c["status"] for c in data["checks"]} >= {"judged", "nothing-to-judge"}
    back = report_from_dict(json.loads(json.dumps(data)))
    assert back.to_dict() == data
    assert text.render(back, verbose=True) == text.render(report, verbose=True)


def test_a_log_says_which_boards_it_lays_out_and_a_merged_report_keeps_them():
    """Ascari's S3 is played on the Coatit board, not the Agordat board the module opens on: the
    report says so per log (what the map excerpts draw), and a report read back keeps it."""
    import vlog
    from vlog.replay import replay
    from vlog.vassal.module import read_module

    module = read_module(ROOT / "fixtures" / "ascari" / "synthetic" / "ascari.vmod")
    data = replay(vlog.read(ROOT / "fixtures" / "ascari" / "rules" / "clean-s3.vlog"), module=module).to_dict()
    assert data["logs"][0]["boards"] == {"Main Map": [["Coatit", 0, 0, False]], "Off-map Boxes": [["Boxes", 0, 0, False]]}
    assert report_from_dict(json.loads(json.dumps(data))).logs[0].boards["Main Map"] == (("Coatit", 0, 0, False),)
    older = json.loads(json.dumps(data))
    del older["logs"][0]["boards"]                    # a report of an older version
    assert report_from_dict(older).logs[0].boards == {}
