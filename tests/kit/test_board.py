"""vlog.kit.board on Ascari's four maps (hexes of the same name differ from map to map) and on
Island of Death's zones, from the shipped data and a SYNTHETIC overlay where a test needs a
transcribed map."""
from __future__ import annotations

import json

import pytest

from vlog.engine.judge import Unknown
from vlog.gamedata import load_game_data
from vlog.hexes import LAYOUTS
from vlog.kit.board import Board, boards, hex_label


@pytest.fixture(scope="module")
def ascari():
    return load_game_data("ascari")


def test_one_board_per_map_each_with_the_layout_its_map_names(ascari):
    found = boards(ascari)
    assert list(found) == ["agordat", "coatit", "amba-alagi", "metemma"]
    assert {b.layout is LAYOUTS["ascari"] for b in found.values()} == {True}
    assert [b.name for b in found.values()] == ["Agordat", "Coatit", "Amba Alagi", "Metemma"]
    assert Board(ascari).map_id == "agordat"                       # the first map by default


def test_the_same_hex_name_reads_each_map_own_data(ascari):
    agordat, coatit = Board(ascari, "agordat"), Board(ascari, "coatit")
    assert hex_label("1501", coatit) == "1501 (Coatit)" and hex_label("1501", agordat) == "1501"
    assert coatit.has_feature("1501", "town") is True
    assert agordat.has_feature("1501", "town") == \
        Unknown("map.json hex 1501 features (partly known: river-barka)")
    amba = Board(ascari, "amba-alagi")
    assert amba.terrain("2210") == "multiple-slope"
    assert coatit.terrain("2210") == Unknown("map.json hex 2210 terrain")


def test_hexsides_partly_known_say_so(ascari):
    coatit = Board(ascari, "coatit")
    assert coatit.hexside_has("2713", "2712", "ravine") is True
    assert coatit.hexside_has("2712", "2713", "creek") == \
        Unknown("map.json hexside 2712/2713 features (partly known: ravine)")
    assert Board(ascari, "agordat").hexside_has("2712", "2713", "ravine") == \
        Unknown("map.json hexside 2712/2713 features")


def test_a_line_with_unlisted_hexes_leaves_the_lines_open(ascari):
    metemma = Board(ascari, "metemma")
    assert metemma.line_kinds("2007", "2008") == \
        Unknown("map.json line road hexes", "map.json roads and tracks between 2007 and 2008")
    assert Board(ascari, "coatit").line_kinds("2007", "2008") == \
        Unknown("map.json roads and tracks between 2007 and 2008")


def _transcribed(tmp_path, lines):
    """A SYNTHETIC overlay: the Metemma map's default terrain known, its lines as given."""
    doc = {"kind": "map", "game": "ascari", "maps": [
        {"id": "metemma", "default_terrain": {"value": "clear", "source": "SYNTHETIC test overlay"},
         "lines": lines}]}
    (tmp_path / "map.json").write_text(json.dumps(doc))
    return load_game_data("ascari", overlays=[tmp_path])


def test_once_transcribed_the_listed_lines_are_all_there_are(tmp_path):
    src = "SYNTHETIC test overlay"
    data = _transcribed(tmp_path, [{"id": "road", "type": {"value": "road", "source": src},
                                    "hexes": {"value": ["2007", "2107", "2207"], "source": src}}])
    metemma = Board(data, "metemma")
    assert metemma.line_kinds("2107", "2007") == {"road"} and metemma.line_ids("2007", "2107") == {"road"}
    assert metemma.line_kinds("2007", "2008") == set()
    assert metemma.features("2100") == ()


def test_only_the_line_kinds_a_game_moves_along_leave_lines_open(tmp_path):
    src = "SYNTHETIC test overlay"
    data = _transcribed(tmp_path, [{"id": "road", "type": {"value": "road", "source": src},
                                    "hexes": {"value": ["2007", "2107"], "source": src}},
                                   {"id": "wadi", "type": {"value": "tug", "source": src},
                                    "hexes": {"value": None, "note": "SYNTHETIC: not transcribed"}}])
    assert isinstance(Board(data, "metemma").line_kinds("2007", "2008"), Unknown)
    assert Board(data, "metemma", line_kinds=("road",)).line_kinds("2007", "2008") == set()


def test_zones_known_in_part_answer_for_the_hexes_known():
    data = load_game_data("island-of-death")
    board = Board(data)
    known = data.zone("beach-north")["known_hexes"].value[0]
    assert board.in_zone(known, "beach-north") is True
    assert board.in_zone("0101", "beach-north") == Unknown("map.json zone beach-north hexes")
    assert "beach-north" in board.zones_of_type("beach-zone")
    with pytest.raises(KeyError, match="no zone 'atlantis' on map 'main' of island-of-death"):
        board.in_zone(known, "atlantis")
    # one of several zones: True in a known one, else Unknown naming the zones not known
    others = [z for z in board.zones_of_type("beach-zone") if z != "beach-north"]
    assert board.in_any_zone(known, [*others, "beach-north"]) is True
    unsure = board.in_any_zone("0101", ["beach-north"])
    assert unsure == Unknown("map.json zone beach-north hexes")


def test_neighbours_and_distance_on_the_map_layout(ascari):
    board = Board(ascari, "coatit")
    assert set(board.neighbours("1501")) == {LAYOUTS["ascari"].name(n) for n in
                                              LAYOUTS["ascari"].neighbours_on_map(LAYOUTS["ascari"].parse("1501"))}
    assert board.distance("1501", "1503") == 2


def test_the_map_data_lists_its_hexes_boxes_and_lines_through_the_board(tmp_path):
    src = "SYNTHETIC test overlay"
    data = _transcribed(tmp_path, [{"id": "road", "type": {"value": "road", "source": src},
                                    "name": {"value": "the Metemma road", "source": src},
                                    "hexes": {"value": ["2007", "2107"], "source": src}}])
    metemma = Board(data, "metemma")
    assert metemma.line("road")["name"]["value"] == "the Metemma road" and metemma.line("rail") is None
    assert metemma.box("no-such-box") is None
    lion = Board(load_game_data("lion-of-judah"))
    assert lion.box("rp-northern-front")["id"] == "rp-northern-front"
    assert lion.line("rail-sudan")["type"]["value"] == "rail"
    assert "1213" in lion.listed_hexes() and lion.name_of("1213") == "Addis Ababa"
    assert lion.listed_hexes() == tuple(load_game_data("lion-of-judah").map().raw()["hexes"])


def test_a_hexside_is_read_from_the_data_once_and_either_way_round(ascari, monkeypatch):
    board = Board(ascari, "coatit")
    calls = []
    real = type(ascari).hexside
    monkeypatch.setattr(type(ascari), "hexside", lambda self, a, b, m=None: calls.append((a, b)) or real(self, a, b, m))
    first = board.hexside_has("1501", "1502", "river")
    assert board.hexside_has("1502", "1501", "river") == first
    assert board.hexside_has("1501", "1502", "river") == first
    assert len(calls) == 1
    assert board.hexside_has("1501", "1502", "road") is not None and len(calls) == 2
