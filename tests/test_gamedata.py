"""vlog.gamedata: validation, provenance, overlays, status and templates."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import vlog.games
from vlog.errors import GameDataError, OutputError, UnknownGameError
from vlog.gamedata import (
    GAMES,
    KINDS,
    blocked_checks,
    hexside_key,
    load_game_data,
    status,
    validate_shipped,
    write_template,
)

GAMES_DIR = Path(vlog.games.__file__).parent


def write_json(path: Path, doc: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def fake_game(tmp_path, monkeypatch):
    """A copy of the ascari data as game 'fake-game' in a package outside the source tree."""
    root = tmp_path / "pkgs"
    package = root / "fake_game"
    shutil.copytree(GAMES_DIR / "ascari" / "data", package / "data")
    (package / "__init__.py").write_text('"""Test game."""\n', encoding="utf-8")
    for file in (package / "data").glob("*.json"):
        doc = json.loads(file.read_text(encoding="utf-8"))
        doc["game"] = "fake-game"
        file.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    monkeypatch.setattr(vlog.games, "__path__", [*vlog.games.__path__, str(root)])
    monkeypatch.setattr(vlog.games, "GAMES", (*vlog.games.GAMES, vlog.games.GameEntry("fake-game", "fake_game")))
    sys.modules.pop("vlog.games.fake_game", None)   # each test gets its own copy
    yield package / "data"
    sys.modules.pop("vlog.games.fake_game", None)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_shipped_data_loads_and_validates(game):
    validate_shipped(game)   # what a run no longer does (the data ships with vlog)
    game_data = load_game_data(game)
    assert game_data.game == game
    assert set(game_data.documents) == set(KINDS)
    assert game_data.map_ids


def test_a_run_does_not_validate_the_shipped_data(fake_game):
    """Only the tests (and `validate_shipped`) validate the shipped files: a run parses them."""
    doc = json.loads((fake_game / "counters.json").read_text(encoding="utf-8"))
    doc["complete"] = {"value": None, "blocks": ["SEQ-01"]}   # no note: invalid
    write_json(fake_game / "counters.json", doc)
    assert load_game_data("fake-game").game == "fake-game"
    with pytest.raises(GameDataError, match="'note' is a required property"):
        validate_shipped("fake-game")


@pytest.mark.parametrize("game", ["Lion_Of_Judah", "lion_of_judah"])
def test_game_names_accept_package_spelling(game):
    assert load_game_data(game).game == "lion-of-judah"


def test_unknown_game_is_refused():
    with pytest.raises(UnknownGameError, match="no game data for 'chess'"):
        load_game_data("chess")


def test_malformed_json_names_file_and_line(fake_game):
    (fake_game / "tables.json").write_text('{"kind": "tables",\n  "game": }', encoding="utf-8")
    with pytest.raises(GameDataError, match=r"fake_game/data/tables\.json: line 2 column 11: is not valid JSON"):
        load_game_data("fake-game")


def test_schema_violation_names_file_and_json_path(fake_game):
    doc = json.loads((fake_game / "map.json").read_text(encoding="utf-8"))
    doc["maps"][1]["hexes"]["1609"] = {"terrain": {"value": "slope"}}   # a value without a source
    write_json(fake_game / "map.json", doc)
    with pytest.raises(GameDataError) as caught:
        validate_shipped("fake-game")
    assert caught.value.file.endswith("fake_game/data/map.json")
    assert caught.value.where == '$.maps[id=coatit].hexes["1609"].terrain'
    assert "source" in caught.value.message


def test_null_without_note_is_refused(fake_game):
    doc = json.loads((fake_game / "counters.json").read_text(encoding="utf-8"))
    doc["complete"] = {"value": None, "blocks": ["SEQ-01"]}
    write_json(fake_game / "counters.json", doc)
    with pytest.raises(GameDataError, match=r"counters\.json: \$\.complete: .*'note' is a required property"):
        validate_shipped("fake-game")


def test_duplicate_record_ids_are_refused(fake_game):
    doc = json.loads((fake_game / "map.json").read_text(encoding="utf-8"))
    doc["maps"][1]["id"] = doc["maps"][0]["id"]
    write_json(fake_game / "map.json", doc)
    with pytest.raises(GameDataError, match=r"map\.json: \$\.maps\[id=agordat\]: duplicate id 'agordat'"):
        validate_shipped("fake-game")


def test_hexside_keys_must_be_ordered(fake_game):
    doc = json.loads((fake_game / "map.json").read_text(encoding="utf-8"))
    doc["maps"][0]["hexsides"]["1702/1601"] = {"features": {"value": ["river"], "source": "test"}}
    write_json(fake_game / "map.json", doc)
    with pytest.raises(GameDataError, match="ascending order"):
        validate_shipped("fake-game")


def test_table_cells_must_have_one_level_per_axis(fake_game):
    doc = json.loads((fake_game / "tables.json").read_text(encoding="utf-8"))
    doc["tables"].append({
        "id": "fake-fire", "name": {"value": "Fire", "source": "test"}, "type": "die",
        "axes": [{"name": "range", "labels": {"value": ["1"], "source": "test"}},
                 {"name": "roll", "labels": {"value": ["6"], "source": "test"}}],
        "cells": {"1": {"value": "hit", "source": "test"}},
        "default_cell": {"value": None, "note": "unknown"}})
    write_json(fake_game / "tables.json", doc)
    with pytest.raises(GameDataError, match=r'tables\.json: \$\.tables\[id=fake-fire\]\.cells\["1"\]: cells must be nested 2 deep'):
        validate_shipped("fake-game")


def test_scenario_units_must_name_counters(fake_game):
    doc = json.loads((fake_game / "scenarios.json").read_text(encoding="utf-8"))
    doc["scenarios"].append({
        "id": "fake-s1", "name": {"value": "S1", "source": "test"}, "sides": {"value": ["a", "b"], "source": "test"},
        "turns": {"value": None, "note": "unknown"}, "turn_track": {}, "reinforcements": [],
        "setup": [{"id": "x", "side": {"value": "a", "source": "test"}, "what": {"value": "x", "source": "test"},
                   "units": {"value": ["nobody"], "source": "test"}}]})
    write_json(fake_game / "scenarios.json", doc)
    with pytest.raises(GameDataError, match=r"scenarios\.json: \$\.scenarios\[id=fake-s1\]\.setup\[id=x\]\.units: names counter 'nobody'"):
        validate_shipped("fake-game")


# -- overlays ------------------------------------------------------------------------------------


def test_overlay_overrides_and_adds_with_overlay_source(tmp_path):
    first = write_json(tmp_path / "one" / "map.json", {
        "kind": "map", "game": "ascari",
        "maps": [{"id": "coatit",
                  "default_hexside": {"value": [], "source": "my reading of the map"},
                  "hexes": {"2715": {"terrain": {"value": "clear"}}},
                  "hexsides": {"2714/2715": {"features": {"value": ["ravine"]}}}}]})
    game_data = load_game_data("ascari", overlays=[tmp_path / "one"])
    terrain = game_data.terrain("2715", "coatit")
    assert terrain.value == "clear"
    assert terrain.source == f"user overlay: {first}"
    assert terrain.overridden
    assert game_data.hexside("2715", "2714", "coatit").value == ["ravine"]
    plain = game_data.hexside("2715", "2716", "coatit")
    assert plain.value == [] and plain.source == f"user overlay: {first} (my reading of the map)"
    # other maps untouched
    assert game_data.terrain("2715", "agordat").value is None
    assert game_data.overlays == (str(first),)


def test_later_overlay_wins(tmp_path):
    def overlay(name: str, terrain: str) -> Path:
        return write_json(tmp_path / name / "map.json", {
            "kind": "map", "game": "ascari",
            "maps": [{"id": "metemma", "hexes": {"2106": {"terrain": {"value": terrain}}}}]})

    overlay("a", "village")
    second = overlay("b", "zeriba")
    game_data = load_game_data("ascari", overlays=[tmp_path / "a", tmp_path / "b"])
    assert game_data.terrain("2106", "metemma").value == "zeriba"
    assert game_data.terrain("2106", "metemma").source == f"user overlay: {second}"
    reverse = load_game_data("ascari", overlays=[tmp_path / "b", tmp_path / "a"])
    assert reverse.terrain("2106", "metemma").value == "village"


def test_overlay_null_changes_nothing(tmp_path):
    write_json(tmp_path / "o" / "map.json", {
        "kind": "map", "game": "ascari",
        "maps": [{"id": "agordat", "name": {"value": None, "note": "still unknown"}}]})
    game_data = load_game_data("ascari", overlays=[tmp_path / "o"])
    name = game_data.map("agordat")["name"]
    assert name.value == "Agordat" and not name.overridden


def test_overlay_for_another_game_is_refused(tmp_path):
    bad = write_json(tmp_path / "o" / "map.json", {"kind": "map", "game": "sideshow", "maps": []})
    with pytest.raises(GameDataError) as caught:
        load_game_data("ascari", overlays=[tmp_path / "o"])
    assert caught.value.file == str(bad) and caught.value.where == "$.game"


def test_invalid_overlay_names_overlay_file_and_path(tmp_path):
    bad = write_json(tmp_path / "o" / "map.json", {
        "kind": "map", "game": "ascari",
        "maps": [{"id": "coatit", "hexes": {"2715": {"elevation": {"value": "high"}}}}]})
    with pytest.raises(GameDataError) as caught:
        load_game_data("ascari", overlays=[tmp_path / "o"])
    assert caught.value.file == str(bad)
    assert caught.value.where == '$.maps[id=coatit].hexes["2715"].elevation.value'


@pytest.mark.parametrize("content, message", [
    (b"[1, 2]", "one JSON object"),
    (b'{"kind": "rules", "game": "ascari"}', "'kind' must be one of"),
    (b"\xff\xfe", "is not UTF-8"),
    (b"[" * 5000 + b"]" * 5000, "nested"),
])
def test_hostile_overlay_files_raise_game_data_error(tmp_path, content, message):
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "x.json").write_bytes(content)
    with pytest.raises(GameDataError, match=message):
        load_game_data("ascari", overlays=[tmp_path / "o"])


def test_missing_overlay_folder(tmp_path):
    with pytest.raises(GameDataError, match="overlay folder does not exist"):
        load_game_data("ascari", overlays=[tmp_path / "nope"])


# -- status and templates -------------------------------------------------------------------------


def test_status_reports_states_and_blocked_checks(tmp_path):
    write_json(tmp_path / "o" / "map.json", {
        "kind": "map", "game": "ascari",
        "maps": [{"id": "coatit", "default_terrain": {"value": "clear"}}]})
    entries = status(load_game_data("ascari", overlays=[tmp_path / "o"]))
    by_path = {(Path(e.file).name, e.path): e for e in entries}
    coatit = by_path[("map.json", "$.maps[id=coatit].default_terrain")]
    assert coatit.state == "overridden" and coatit.blocks == ()
    agordat = by_path[("map.json", "$.maps[id=agordat].default_terrain")]
    assert agordat.state == "unknown" and "TER-01" in agordat.blocks
    assert by_path[("map.json", "$.maps[id=agordat].name")].state == "known"
    blocked = blocked_checks(entries)
    assert agordat in blocked["TER-01"] and coatit not in blocked["TER-01"]
    assert list(blocked) == sorted(blocked, key=lambda c: (c.split("-")[0], int(c.split("-")[1])))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_template_covers_every_unknown_and_loads_back_unchanged(tmp_path, game):
    written = write_template(game, tmp_path / "t")
    assert {p.name for p in written} == {f"{k}.json" for k in KINDS} | {"README.txt"}
    before = status(load_game_data(game))
    after = status(load_game_data(game, overlays=[tmp_path / "t"]))
    assert [(e.path, e.state, e.source) for e in after] == [(e.path, e.state, e.source) for e in before]
    from vlog.gamedata import _validate   # each template file is itself a valid data file

    for kind in KINDS:
        _validate(kind, json.loads((tmp_path / "t" / f"{kind}.json").read_text(encoding="utf-8")), kind)
    unknown_paths = {(Path(e.file).name, e.path) for e in before if e.state == "unknown"}
    template_paths = set()
    from vlog.gamedata import _walk   # the same walker status uses

    for kind in KINDS:
        doc = json.loads((tmp_path / "t" / f"{kind}.json").read_text(encoding="utf-8"))
        template_paths |= {(f"{kind}.json", path) for path, raw in _walk(doc) if raw["value"] is None}
    assert template_paths == unknown_paths


def test_template_filled_in_becomes_overridden(tmp_path):
    write_template("ascari", tmp_path / "t")
    path = tmp_path / "t" / "map.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    board = next(m for m in doc["maps"] if m["id"] == "metemma")
    board["default_hexside"] = {"value": [], "source": "Metemma map"}
    path.write_text(json.dumps(doc), encoding="utf-8")
    game_data = load_game_data("ascari", overlays=[tmp_path / "t"])
    datum = game_data.hexside("2106", "2206", "metemma")
    assert datum.value == [] and datum.source == f"user overlay: {path} (Metemma map)"


def test_template_never_overwrites_without_force(tmp_path):
    out = tmp_path / "t"
    out.mkdir()
    (out / "tables.json").write_text("mine", encoding="utf-8")
    with pytest.raises(OutputError, match="tables.json: already exists; use --force"):
        write_template("ascari", out)
    assert (out / "tables.json").read_text(encoding="utf-8") == "mine"
    assert not (out / "map.json").exists()
    write_template("ascari", out, force=True)
    assert json.loads((out / "tables.json").read_text(encoding="utf-8"))["kind"] == "tables"
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_template_output_must_be_a_folder(tmp_path):
    (tmp_path / "f").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match="not a folder"):
        write_template("ascari", tmp_path / "f")


def test_hexside_key_is_order_free():
    assert hexside_key("1314", "1214") == hexside_key("1214", "1314") == "1214/1314"


# -- command line -----------------------------------------------------------------------------------


@pytest.fixture
def run(monkeypatch):
    from click.testing import CliRunner

    from vlog.cli import main

    monkeypatch.setenv("NO_COLOR", "1")

    def invoke(*args: str):
        return CliRunner().invoke(_main_command(main), list(args), catch_exceptions=False)

    return invoke


def _main_command(main):
    """A click command that runs vlog.cli.main, so exit codes are exactly those users see."""
    import click

    @click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                                     "help_option_names": []})
    @click.pass_context
    def wrapper(ctx: click.Context) -> None:
        ctx.exit(main(list(ctx.args)))

    return wrapper


def _counts(game: str, overlays=()) -> dict[str, int]:
    from collections import Counter

    counted = Counter(e.state for e in status(load_game_data(game, overlays=overlays)))
    return {state: counted.get(state, 0) for state in ("known", "partial", "unknown", "overridden")}


def test_cli_status_text(run):
    result = run("data", "status", "ascari")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "ascari: Ascari: African Battles of the Italian Army 1890-1895"
    n = _counts("ascari")
    assert lines[1] == (f"{sum(n.values())} data: {n['known']} known, {n['partial']} partial (from examples), "
                        f"{n['unknown']} unknown, 0 from overlays")
    assert "checks disabled by unknown data (" in result.output
    items = blocked_checks(status(load_game_data("ascari")))["TER-01"]
    assert len(items) > 3
    assert (f"  TER-01 ({len(items)}): map.json $.maps[id=agordat].default_terrain; map.json $.maps[id=agordat].default_hexside; "
            f"map.json $.maps[id=coatit].default_terrain; and {len(items) - 3} more") in lines
    assert "\x1b[" not in result.output


def test_cli_status_json_with_overlay(run, tmp_path):
    overlay = write_json(tmp_path / "o" / "map.json", {
        "kind": "map", "game": "ascari", "maps": [{"id": "coatit", "default_terrain": {"value": "clear"}}]})
    result = run("data", "status", "ascari", "--data", str(tmp_path / "o"), "--format", "json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["counts"] == _counts("ascari", [tmp_path / "o"])
    assert payload["counts"]["overridden"] == 1
    assert payload["counts"]["unknown"] == _counts("ascari")["unknown"] - 1
    assert payload["overlays"] == [str(overlay)]
    entry = next(d for d in payload["data"] if d["path"] == "$.maps[id=coatit].default_terrain")
    assert entry["state"] == "overridden" and entry["source"] == f"user overlay: {overlay}"
    assert "vlog/games/ascari/data/map.json: $.maps[id=agordat].default_terrain" in payload["blocked_checks"]["TER-01"]


def test_cli_status_unknown_game_exits_3(run):
    result = run("data", "status", "chess")
    assert result.exit_code == 3
    assert "vlog: error: no game data for 'chess'" in result.output


def test_cli_status_bad_overlay_exits_3(run, tmp_path):
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "map.json").write_text("{", encoding="utf-8")
    result = run("data", "status", "ascari", "--data", str(tmp_path / "o"))
    assert result.exit_code == 3
    assert f"vlog: error: {tmp_path / 'o' / 'map.json'}: line 1 column 2: is not valid JSON" in result.output


def test_cli_usage_errors_exit_2(run):
    assert run("data", "status", "ascari", "--format", "xml").exit_code == 2
    assert run("data", "template", "ascari").exit_code == 2


def test_cli_template_writes_then_refuses_then_forces(run, tmp_path):
    out = tmp_path / "t"
    first = run("data", "template", "sideshow", "-o", str(out))
    assert first.exit_code == 0, first.output
    assert sorted(Path(line).name for line in first.output.splitlines()) == sorted(
        [f"{k}.json" for k in KINDS] + ["README.txt"])
    again = run("data", "template", "sideshow", "-o", str(out))
    assert again.exit_code == 3
    assert "already exists; use --force to replace it" in again.output
    forced = run("data", "template", "sideshow", "-o", str(out), "--force")
    assert forced.exit_code == 0
    assert run("data", "status", "sideshow", "--data", str(out)).exit_code == 0


def test_cli_help_has_examples(run):
    for args in (("data", "--help"), ("data", "status", "--help"), ("data", "template", "--help")):
        result = run(*args)
        assert result.exit_code == 0
        assert "Examples:" in result.output and "vlog data " in result.output


def test_overlay_hexside_must_join_neighbours(tmp_path):
    bad = write_json(tmp_path / "o" / "map.json", {
        "kind": "map", "game": "ascari",
        "maps": [{"id": "coatit", "hexsides": {"2712/2714": {"features": {"value": ["ravine"]}}}}]})
    with pytest.raises(GameDataError) as caught:
        load_game_data("ascari", overlays=[tmp_path / "o"])
    assert caught.value.file == str(bad)
    assert caught.value.where == '$.maps[id=coatit].hexsides["2712/2714"]'
    assert "not adjacent" in caught.value.message


def test_overlay_hex_names_must_fit_the_layout(tmp_path):
    bad = write_json(tmp_path / "o" / "map.json", {
        "kind": "map", "game": "ascari",
        "maps": [{"id": "metemma", "hexes": {"20077": {"terrain": {"value": "clear"}}}}]})
    with pytest.raises(GameDataError, match=r'map\.json: \$\.maps\[id=metemma\]\.hexes\["20077"\]: ascari: hex name .* is not 4 digits'):
        load_game_data("ascari", overlays=[tmp_path / "o"])
    assert bad.exists()


def test_overlay_setup_must_name_known_counters(tmp_path):
    bad = write_json(tmp_path / "o" / "scenarios.json", {
        "kind": "scenarios", "game": "ascari",
        "scenarios": [{"id": "s2", "setup": [{"id": "extra", "side": {"value": "italian"}, "what": {"value": "a unit"},
                                              "units": {"value": ["it-nobody"]}}]}]})
    with pytest.raises(GameDataError) as caught:
        load_game_data("ascari", overlays=[tmp_path / "o"])
    assert caught.value.file == str(bad)
    assert caught.value.where == "$.scenarios[id=s2].setup[id=extra].units"


def test_oversized_overlay_file_is_refused(tmp_path, monkeypatch):
    import vlog.gamedata as gamedata

    monkeypatch.setattr(gamedata, "MAX_DATA_FILE_BYTES", 64)
    big = write_json(tmp_path / "o" / "map.json", {"kind": "map", "game": "ascari", "maps": [], "pad": "x" * 100})
    with pytest.raises(GameDataError, match="is larger than 64 bytes") as caught:
        gamedata._read_overlay(big)
    assert caught.value.file == str(big)


@pytest.mark.parametrize("name", ["common", "manifest", *KINDS])
def test_schemas_are_valid_draft_2020_12(name):
    from jsonschema import Draft202012Validator

    from vlog.gamedata import SCHEMA_DIR

    schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"urn:vlog:gamedata:{name}"


_KEYS = st.sampled_from(["value", "source", "note", "id", "kind", "game", "maps", "hexes", "hexsides", "terrain",
                         "2106", "2106/2107", "metemma", "blocks", "tables", "cells", "setup", "units"])
_JSON = st.recursive(st.none() | st.booleans() | st.integers(-10, 10**6) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
                     max_leaves=10)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), body=st.dictionaries(_KEYS, _JSON, max_size=4))
def test_fuzzed_overlays_raise_only_game_data_error(tmp_path_factory, kind, body):
    folder = tmp_path_factory.mktemp("o")
    (folder / f"{kind}.json").write_text(json.dumps({"kind": kind, "game": "ascari", **body}), encoding="utf-8")
    try:
        load_game_data("ascari", overlays=[folder])
    except GameDataError:
        pass


_SHAPED = st.one_of(
    st.builds(lambda h, v: ("map", {"maps": [{"id": "metemma", "hexes": {h: v}}]}), st.sampled_from(["2106", "9999", "21", "2106x"]), _JSON),
    st.builds(lambda k, v: ("map", {"maps": [{"id": "coatit", "hexsides": {k: v}}]}),
              st.sampled_from(["2712/2713", "2713/2712", "2712/2799", "x/y"]), _JSON),
    st.builds(lambda v: ("map", {"maps": [{"id": "agordat", "lines": [{"id": "l", "type": v, "hexes": v}]}]}), _JSON),
    st.builds(lambda v: ("tables", {"tables": [{"id": "fire", "cells": v}]}), _JSON),
    st.builds(lambda v: ("tables", {"tables": [{"id": "fire", "axes": v}]}), _JSON),
    st.builds(lambda v: ("scenarios", {"scenarios": [{"id": "s2", "setup": [v]}]}), _JSON),
    st.builds(lambda v: ("counters", {"counters": [{"id": "it-salsa", "levels": v}]}), _JSON),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shaped=_SHAPED)
def test_fuzzed_record_overlays_raise_only_game_data_error(tmp_path_factory, shaped):
    kind, body = shaped
    folder = tmp_path_factory.mktemp("o")
    (folder / f"{kind}.json").write_text(json.dumps({"kind": kind, "game": "ascari", **body}), encoding="utf-8")
    try:
        game_data = load_game_data("ascari", overlays=[folder])
    except GameDataError:
        return
    status(game_data)   # whatever loads must also report


def test_overlays_together_are_capped(tmp_path, monkeypatch):
    import vlog.gamedata as gamedata

    monkeypatch.setattr(gamedata, "MAX_OVERLAY_TOTAL_BYTES", 200)
    doc = {"kind": "map", "game": "ascari", "maps": [{"id": "metemma", "hexes": {"2106": {"terrain": {"value": "village"}}}}]}
    write_json(tmp_path / "a" / "map.json", doc)
    second = write_json(tmp_path / "b" / "map.json", doc)
    assert len((tmp_path / "a" / "map.json").read_bytes()) * 2 > 200
    load_game_data("ascari", overlays=[tmp_path / "a"])
    with pytest.raises(GameDataError, match="takes the overlay files past 200 bytes in all") as caught:
        load_game_data("ascari", overlays=[tmp_path / "a", tmp_path / "b"])
    assert caught.value.file == str(second)


def test_layout_unknown_is_a_game_data_error(fake_game):
    doc = json.loads((fake_game / "map.json").read_text(encoding="utf-8"))
    doc["maps"][0]["layout"] = {"value": None, "note": "not known"}
    write_json(fake_game / "map.json", doc)
    game_data = load_game_data("fake-game")
    assert game_data.layout("coatit").game == "ascari"
    with pytest.raises(GameDataError, match=r"map\.json: \$\.maps\[id=agordat\]\.layout: map agordat names no hex layout vlog knows \(None\)"):
        game_data.layout("agordat")


def test_cli_group_directly_with_click_runner():
    """The click group itself: data on stdout, and input errors surface as VlogError for main() to map."""
    from click.testing import CliRunner

    from vlog.cli import cli

    result = CliRunner().invoke(cli, ["data", "status", "lion-of-judah", "--format", "json"], env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["game"] == "lion-of-judah" and payload["counts"]["unknown"] > 0
    assert "MV-01" in payload["blocked_checks"]
    failed = CliRunner().invoke(cli, ["data", "status", "chess"], env={"NO_COLOR": "1"})
    assert isinstance(failed.exception, UnknownGameError)


def test_cli_status_for_one_check(run):
    result = run("data", "status", "lion-of-judah", "--check", "cb-19", "--format", "json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["data"] and all("CB-19" in d["blocks"] and d["state"] == "unknown" for d in payload["data"])
    assert "$.tables[id=crt].default_cell" in {d["path"] for d in payload["data"]}
    text = run("data", "status", "lion-of-judah", "--check", "CB-19")
    assert text.exit_code == 0 and "  CB-19 (" in text.output


def test_the_same_overlays_are_validated_once_and_each_load_gets_its_own_copy(tmp_path, monkeypatch):
    """A suite or a batch loading the same overlay folder again gets the merged data without
    validating it again; each GameData is a fresh copy; other bytes are validated anew."""
    from vlog import gamedata

    folder = tmp_path / "over"
    folder.mkdir()
    (folder / "counters.json").write_text(json.dumps(
        {"kind": "counters", "game": "lion-of-judah", "counters": [
            {"id": "it-21a", "name": {"value": "21A renamed", "source": "a test overlay"}}]}), encoding="utf-8")
    calls = []
    real = gamedata._validate
    monkeypatch.setattr(gamedata, "_validate", lambda kind, doc, file: (calls.append(file), real(kind, doc, file)))
    monkeypatch.setattr(gamedata, "_MERGED", {})
    first = load_game_data("lion-of-judah", overlays=[folder])
    second = load_game_data("lion-of-judah", overlays=[folder])
    assert len(calls) == 1 and first.counter("it-21a")["name"].value == "21A renamed"
    assert first.documents is not second.documents and first.documents == second.documents
    (folder / "counters.json").write_text("{}", encoding="utf-8")
    with pytest.raises(GameDataError):
        load_game_data("lion-of-judah", overlays=[folder])


def test_overlays_that_passed_the_checks_are_stamped_and_not_checked_again_in_a_later_run(tmp_path, monkeypatch):
    """An overlay is validated and checked the first time its bytes are seen; a later run (a
    fresh process: the in-process cache emptied) finds the stamp and only merges it; other bytes
    are checked anew, a failing overlay leaves no stamp, and with the cache turned off every run
    checks."""
    from vlog import gamedata

    monkeypatch.setenv(gamedata.CACHE_ENV, str(tmp_path / "cache"))
    checked = []
    real_hexes = gamedata._check_hexes
    monkeypatch.setattr(gamedata, "_check_hexes", lambda docs, blame: (checked.append(1), real_hexes(docs, blame)))
    folder = tmp_path / "over"
    folder.mkdir()
    overlay = folder / "counters.json"
    overlay.write_text(json.dumps(
        {"kind": "counters", "game": "lion-of-judah", "counters": [
            {"id": "it-21a", "name": {"value": "21A stamped", "source": "a test overlay"}}]}), encoding="utf-8")
    calls = []
    real = gamedata._validate
    monkeypatch.setattr(gamedata, "_validate", lambda kind, doc, file: (calls.append(file), real(kind, doc, file)))
    for _run in range(2):
        monkeypatch.setattr(gamedata, "_MERGED", {})
        data = load_game_data("lion-of-judah", overlays=[folder])
        assert data.counter("it-21a")["name"].value == "21A stamped"
    assert len(calls) == 1 and len(checked) == 1
    assert len(list((tmp_path / "cache" / gamedata.STAMP_FOLDER).iterdir())) == 1
    # a name that is no string fails the schema: validated at each run, never stamped
    bad = json.loads(overlay.read_text(encoding="utf-8"))
    bad["counters"][0]["name"] = {"value": 7, "source": "a test overlay"}
    overlay.write_text(json.dumps(bad), encoding="utf-8")
    for _run in range(2):
        monkeypatch.setattr(gamedata, "_MERGED", {})
        with pytest.raises(GameDataError):
            load_game_data("lion-of-judah", overlays=[folder])
    assert len(calls) == 3 and len(list((tmp_path / "cache" / gamedata.STAMP_FOLDER).iterdir())) == 1
    monkeypatch.setenv(gamedata.CACHE_ENV, "")
    overlay.write_text(json.dumps({**bad, "counters": [{"id": "it-21a", "name": {
        "value": "21A unstamped", "source": "a test overlay"}}]}), encoding="utf-8")
    for _run in range(2):
        monkeypatch.setattr(gamedata, "_MERGED", {})
        load_game_data("lion-of-judah", overlays=[folder])
    assert len(calls) == 5 and len(checked) == 3


def test_an_overlay_that_fails_a_check_beyond_the_schemas_is_never_stamped(tmp_path, monkeypatch):
    """A hex name the map's layout does not have passes the schema but not `_check_hexes`: every
    run refuses it, and no stamp lets a later run skip the check."""
    from vlog import gamedata

    monkeypatch.setenv(gamedata.CACHE_ENV, str(tmp_path / "cache"))
    folder = tmp_path / "over"
    folder.mkdir()
    shipped = load_game_data("lion-of-judah")
    board = shipped.documents["map"]["maps"][0]
    (folder / "map.json").write_text(json.dumps({"kind": "map", "game": "lion-of-judah", "maps": [
        {"id": board["id"], "hexes": {"9999x": {"terrain": {"value": "clear", "source": "a test overlay"}}}}]}),
        encoding="utf-8")
    for _run in range(2):
        monkeypatch.setattr(gamedata, "_MERGED", {})
        with pytest.raises(GameDataError, match="9999x"):
            load_game_data("lion-of-judah", overlays=[folder])
    assert not (tmp_path / "cache" / gamedata.STAMP_FOLDER).exists()


def test_the_validator_version_is_the_installed_jsonschema_s():
    """The stamp names the validator by its distribution folder, read without importlib.metadata."""
    from importlib.metadata import version

    from vlog import gamedata

    assert gamedata._validator_version() == f"jsonschema-{version('jsonschema')}.dist-info"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_blocked_data_names_what_status_names_as_blocking(game):
    """`blocked_data` (start-up's short walk over the unknowns) gives the checks and the data
    `blocked_checks(status(...))` gives, in the same order."""
    from vlog.gamedata import blocked_checks, blocked_data, status

    data = load_game_data(game)
    expected = {check: [(e.file, e.path) for e in entries]
                for check, entries in blocked_checks(status(data)).items()}
    assert expected and list(blocked_data(data).items()) == list(expected.items())
