"""Location names read back from VASSAL's Old… piece properties: exact points only, conflicts dropped."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.conftest import sample_params
from vlog.vassal.commands import Command, decode
from vlog.vassal.observed_names import ObservedNames, observed_namer
from vlog.vassal.pieces import join_chain
from vlog.vassal.sequence import encode_token, join

ESC = "\x1b"


@dataclass
class Parsed:
    """What observed_namer reads of a Save or Log: its command tree."""

    commands: Command


def _state(x: int, y: int, props: dict[str, str]) -> str:
    flat = [t for kv in props.items() for t in kv]
    return ";".join(["Main Map", str(x), str(y), "", str(len(props)), *flat])


def _add(piece_id: str, x: int, y: int, props: dict[str, str]) -> str:
    return "+/" + (join([piece_id, "piece;;;inf.png;Infantry", _state(x, y, props)], "/") or "")


def _old(x: str, y: str, name: str, map_id: str = "Main Map") -> dict[str, str]:
    return {"OldX": x, "OldY": y, "OldMap": map_id, "OldLocationName": name, "OldZone": ""}


def _namer(*commands: str) -> ObservedNames:
    return observed_namer(Parsed(decode(join(commands, ESC) or "")))


def test_names_exactly_the_points_vassal_named():
    observed = _namer(_add("1", 5, 5, _old("100", "200", "0102")), _add("2", 5, 5, _old("300", "400", "0304")))
    assert len(observed) == 2
    assert observed("Main Map", 100, 200) == "0102" and observed("Main Map", 300, 400) == "0304"
    # no neighbour, no other map, no piece's own (unnamed) position is guessed
    assert observed("Main Map", 101, 200) is None and observed("Other", 100, 200) is None
    assert observed("Main Map", 5, 5) is None and observed(None, 100, 200) is None
    assert observed.skipped == 0 and not observed.ambiguous


def test_a_point_named_twice_differently_is_dropped_for_good():
    observed = _namer(_add("1", 0, 0, _old("100", "200", "A")), _add("2", 0, 0, _old("100", "200", "B")),
                      _add("3", 0, 0, _old("100", "200", "A")), _add("4", 0, 0, _old("300", "400", "C")),
                      _add("5", 0, 0, _old("300", "400", "C")))
    assert observed("Main Map", 100, 200) is None
    assert observed.ambiguous == {("Main Map", 100, 200)}
    assert observed("Main Map", 300, 400) == "C" and len(observed) == 1


@pytest.mark.parametrize("props", [
    _old("", "200", "A"), _old("100", "", "A"), _old("1e2", "200", "A"), _old("+100", "200", "A"),
    _old("0100", "200", "A"), _old("-0", "200", "A"), _old("2147483648", "200", "A"),
    _old("100", "200", ""), _old("100", "200", "A", map_id=""), _old("100", "200", "A", map_id="null"),
    _old("١٠٠", "200", "A"), {"OldX": "100", "OldY": "200"},
], ids=repr)
def test_odd_values_are_skipped_and_counted(props):
    observed = _namer(_add("1", 0, 0, props))
    assert len(observed) == 0 and observed.skipped == 1


def test_negative_and_extreme_java_ints_are_read():
    observed = _namer(_add("1", 0, 0, _old("-2147483648", "2147483647", "edge")))
    assert observed("Main Map", -2147483648, 2147483647) == "edge"


def test_pieces_without_old_properties_and_stacks_teach_nothing():
    stack = "+/" + (join(["9", "stack", "Main Map;100;200;1"], "/") or "")
    observed = _namer(_add("1", 100, 200, {"UniqueID": "17"}), stack)
    assert len(observed) == 0 and observed.skipped == 0


def test_log_changes_are_read_for_pieces_the_file_added():
    moved = join_chain([_state(150, 250, _old("100", "200", "0102"))])
    stray = join_chain([_state(150, 250, _old("700", "800", "0708"))])
    steps = [encode_token("LOG\tD/" + (join(["1", moved], "/") or ""), ESC),
             encode_token("LOG\tD/" + (join(["77", stray], "/") or ""), ESC)]
    save = join(["begin_save", "", _add("1", 100, 200, {}), "end_save"], ESC) or ""
    observed = observed_namer(Parsed(decode(ESC.join([save, *steps]))))
    assert observed("Main Map", 100, 200) == "0102"
    assert observed("Main Map", 700, 800) is None  # piece 77 was never added: its type is unknown


# -- the real Nevsky saves: the pairs are VASSAL's, as the module's grids prove ----------------

def _nevsky(path):
    import vlog

    build = path.parent / "buildFile.xml"
    if not build.exists():
        pytest.skip("the Nevsky module is absent")
    return vlog.read(path), build


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("nevsky/*.vsav"))
def test_every_learned_pair_agrees_with_the_module(path):
    from vlog.cli.dump import module_location_namer
    from vlog.vassal.module import read_module

    obj, build = _nevsky(path)
    observed = observed_namer(obj)
    assert len(observed) > 0 and not observed.ambiguous
    module_namer = module_location_namer(read_module(build), obj)
    compared = 0
    for (map_id, x, y), name in observed.names.items():
        expected = module_namer(map_id, x, y)
        if expected is not None:
            assert name == expected, (map_id, x, y)
            compared += 1
    assert compared == len(observed)


@pytest.mark.samples
def test_a_piece_in_a_nevsky_save_stands_on_a_point_vassal_named(samples_dir):
    import vlog

    path = samples_dir / "nevsky" / "Scenario_Peipus_1242.vsav"
    if not path.exists():
        pytest.skip("the Nevsky samples are absent")
    obj = vlog.read(path)
    observed = observed_namer(obj)
    named = [(p.map, p.x, p.y, observed(p.map, p.x, p.y)) for p in obj.pieces.values()
             if observed(p.map, p.x, p.y) is not None]
    assert named
    # the name is one a piece carries as OldLocationName for that very point
    map_id, x, y, name = named[0]
    sources = [p for p in obj.pieces.values() if not p.is_stack and not p.is_deck
               and p.basic.properties.get("OldX") == str(x) and p.basic.properties.get("OldY") == str(y)]
    assert sources and sources[0].basic.properties["OldLocationName"] == name
