"""Scripts written as logs: read back and replayed they give the scripted positions, layers,
rolls and turns; steps have the form VASSAL writes; output is deterministic, atomic and never
replaces an input. The module and starting save are synthetic, built by tests/converters/synthetic_vassal.py."""
from __future__ import annotations

import re
import shutil

import pytest

import vlog
from converters.log_writer import build_log, write_log
from converters.script import parse_text
from conftest import sample_params
from synthetic_vassal import ALICE, BOB, start_save, write_module
from vlog.dice_rolls import dice_rolls
from vlog.errors import OutputError, ScriptError
from vlog.replay import replay_log, table_at
from vlog.vassal.commands import AddPiece, Chat, ChangePiece, MovePiece, MutableProperty, RemovePiece, TurnState, Undo, encode
from vlog.vassal.module import read_module
from vlog.vassal.savefile import Log

SCRIPT = """\
vlog-script 1
module mod
start start.vsav
player Alice side Red
player Bob side Blue
clock 1738350000000
move "Inf A" along 0203 0303
roll 2d6 = 3,5
flip "Inf B"
chat "hello there"
as Bob
move "Tank C" along 0404 0303
roll Combat = 4
roll Total = 1,2,3
turn next
turn next
undo
reduce @1001
remove "Inf B"
add "Inf B" at 0101
turn set Turn=3 Phase=Combat
"""


@pytest.fixture
def game(tmp_path):
    module = write_module(tmp_path / "mod")
    start_save(module, tmp_path / "start.vsav")
    return tmp_path


def script_at(folder, text=SCRIPT, name="play.vscript"):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def where(table, piece):
    return table.location_name(piece)


def test_round_trip_positions_layers_rolls_turns(game):
    write_log(script_at(game), game / "play.vlog")
    module = read_module(game / "mod")
    log = vlog.read(game / "play.vlog")
    assert isinstance(log, Log)
    rep = replay_log(log, module=module)
    assert len(rep.steps) == 16
    final = rep.final
    placed = {p.name: (where(final, p), p.layers[0].level) for p in final.game_pieces()}
    assert placed == {"Inf A": ("0303", 2), "Tank C": ("0303", 1), "Inf B": ("0101", 1)}
    # Tank C landed on Inf A's stack, Inf A below it
    inf_a = next(p for p in final.game_pieces() if p.name == "Inf A")
    tank = next(p for p in final.game_pieces() if p.name == "Tank C")
    assert inf_a.parent == tank.parent and final[inf_a.parent].children == (inf_a.id, tank.id)
    assert [(r.dice_name, r.faces, r.player) for r in rep.rolls] == [
        ("2d6", (3, 5), "Alice"), ("Combat", (4,), "Blue"), ("Total", (1, 2, 3), None)]
    assert [(r.dice_name, r.faces) for r in dice_rolls(log, module=module)] == [
        ("2d6", (3, 5)), ("Combat", (4,)), ("Total", (1, 2, 3))]
    assert final.turns["TurnTracker0"] == "0|3;0;true;3;1\\;0\\;0\\;true,true"
    assert not final.problems and not rep.findings
    assert [(u.step, u.target, u.matched) for u in rep.undos] == [(12, 11, True)]


def test_positions_after_every_hop(game):
    log = build_log(parse_text(SCRIPT, path="play.vscript", folder=game))
    module = read_module(game / "mod")
    inf_a = [where(t, t["1001"]) for t in (table_at(log, n, module) for n in (0, 1, 2))]
    assert inf_a == ["0202", "0203", "0303"]


def test_steps_have_vassal_form(game):
    log = build_log(parse_text(SCRIPT, path="play.vscript", folder=game))
    steps = log.steps
    first = steps[0].commands
    assert [type(c) for c in first] == [MovePiece, AddPiece, Chat]
    assert encode(steps[0].node) == (
        "LOG\tM/1001/Main Map/55/128/null/Main Map/55/64/null/pw-alice"
        "\x1bLOG\t+/1738350000000/stack/Main Map;55;128;1001;@@1"
        "\x1bLOG\tCHAT* Inf A moves 0202 &rarr; 0203 *")
    roll = encode(steps[2].node)
    assert roll == ("LOG\tCHAT*** 2d6 = 3,5 *** &lt;Alice&gt;"
                    "\x1bLOG\tMutableProperty\t2d6_result\t1\t3,5\tModule"
                    "\x1bLOG\tMutableProperty\t2d6_total\t0\t8\tModule"
                    "\x1bLOG\tMutableProperty\t2d6_keep\t0\t2\tModule"
                    "\x1bLOG\tMutableProperty\t2d6_summary\t\t3 x1, 5 x1\tModule")
    flip = steps[3].commands
    assert len(flip) == 1 and isinstance(flip[0], ChangePiece) and flip[0].old_state is not None
    assert encode(steps[4].node) == "LOG\tCHAT&lt;Alice&gt; - hello there"
    # Bob's second hop lands on Inf A: the piece underneath is named, no new stack
    hop = steps[6].commands
    assert [type(c) for c in hop] == [MovePiece, Chat] and hop[0].new_under == "1001"
    assert hop[0].player_id == BOB and first[0].player_id == ALICE
    turn = steps[9].commands
    assert [type(c) for c in turn] == [Chat, TurnState]
    assert turn[0].text == "* * &lt;Bob&gt; Turn Updated from Turn 1 Move to Turn 1 Combat"
    undo = steps[11]
    assert undo.is_undo and isinstance(undo.commands[-1], Undo) and not undo.commands[-1].in_progress
    assert [type(c) for c in undo.undo_commands] == [TurnState, Chat]
    assert undo.undo_commands[0].state == steps[9].commands[1].state
    reduce = steps[12].commands[0]  # Inf A's state where it is now (0303), not where it started
    assert isinstance(reduce, ChangePiece)
    # with the Old* properties VASSAL 3.7 gives a dragged piece, in Java HashMap order
    assert reduce.old_state == ("1\tMain Map;110;160;1;7;OldZone;;OldLocationName;0203;OldDeckName;;"
                                "OldX;55;OldY;128;OldBoard;Board;OldMap;Main Map")
    assert reduce.new_state == "2" + reduce.old_state[1:]
    assert isinstance(steps[13].commands[0], RemovePiece)
    assert [type(c) for c in steps[14].commands] == [AddPiece, AddPiece, Chat]
    assert steps[14].commands[2].text == "* Inf B created in 0101 *"


def test_undo_of_a_move_puts_the_piece_back(game):
    text = SCRIPT.split("move")[0] + 'move "Inf B" along 0404\nroll 2d6 = 1,1\nundo\nundo\n'
    log = build_log(parse_text(text, path="u.vscript", folder=game))
    module = read_module(game / "mod")
    final = table_at(log, len(log.steps), module)
    inf_b = final["1002"]
    assert where(final, inf_b) == "0202"
    assert final[inf_b.parent].children == ("1001", "1002")
    undo_roll = log.steps[2].undo_commands
    assert [type(c) for c in undo_roll] == [MutableProperty] * 4 + [Chat]
    assert undo_roll[-1].text.startswith("* UNDO: *** 2d6")
    rep = replay_log(log, module=module)
    assert [(u.step, u.target) for u in rep.undos] == [(3, 2), (4, 1)]


def test_older_vassal_versions_write_older_forms(game):
    text = SCRIPT.replace("clock", "vassal 3.2.17\nclock")
    log = build_log(parse_text(text, path="old.vscript", folder=game))
    steps = log.steps
    assert encode(steps[0].node).endswith("\x1bLOG\t+/1738350000000/stack/Main Map;55;128;1001"
                                          "\x1bLOG\tCHAT* Inf A moves 0202 -> 0203 *")
    assert encode(steps[2].node) == ("LOG\tCHAT*** 2d6 = 3,5 *** <Alice>"
                                     "\x1bLOG\tMutableProperty\t2d6_result\t1\t3,5\tModule")
    assert encode(steps[4].node) == "LOG\tCHAT<Alice> - hello there"
    assert steps[14].commands[-1].text == "* Inf B created in 0101"
    assert steps[9].commands[0].text == "* * <Bob> Turn Updated from Turn 1 Move to Turn 1 Combat"
    assert log.vassal_version == "3.2.17"
    mid = build_log(parse_text(text.replace("3.2.17", "3.5.2"), path="mid.vscript", folder=game))
    assert mid.steps[0].commands[-1].text == "* Inf A moves 0202 -&lt; 0203 *"
    assert mid.steps[14].commands[-1].text == "* Inf B created in 0101 *"
    # (read with VASSAL's default formats: the module's button has no reportFormat attribute, and
    # the reader takes the 3.3.3+ default for it)
    assert [(r.dice_name, r.faces) for r in dice_rolls(log)][:1] == [("2d6", (3, 5))]


def test_second_roll_carries_the_previous_value(game):
    text = SCRIPT.split("move")[0] + "roll 2d6 = 1,2\nroll 2d6 = 6,6\n"
    log = build_log(parse_text(text, path="r.vscript", folder=game))
    second = log.steps[1].commands
    assert (second[1].old, second[1].new) == ("1,2", "6,6")


def test_output_is_deterministic_and_protected(game):
    script = script_at(game)
    write_log(script, game / "a.vlog")
    write_log(script, game / "b.vlog")
    assert (game / "a.vlog").read_bytes() == (game / "b.vlog").read_bytes()
    before = (game / "start.vsav").read_bytes()
    for target in (game / "start.vsav", script):
        with pytest.raises(OutputError):
            write_log(script, target)
    assert (game / "start.vsav").read_bytes() == before
    with pytest.raises(OutputError):
        write_log(script, game / "c.vlog", protect=[game / "c.vlog"])
    assert not (game / "c.vlog").exists()


def test_failed_script_leaves_no_file_and_keeps_an_old_one(game):
    bad = script_at(game, SCRIPT + "move Nobody along 0101\n", name="bad.vscript")
    with pytest.raises(ScriptError) as info:
        write_log(bad, game / "out.vlog")
    assert info.value.where == f"line {SCRIPT.count(chr(10)) + 1}" and info.value.file.endswith("bad.vscript")
    assert not (game / "out.vlog").exists()
    (game / "out.vlog").write_bytes(b"old")
    with pytest.raises(ScriptError):
        write_log(bad, game / "out.vlog")
    assert (game / "out.vlog").read_bytes() == b"old"
    assert [p.name for p in game.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("line, words", [
    ("move Nobody along 0101", "no piece named"),
    ("move @999 along 0101", "no piece with id"),
    ("move Tank C along 0101", "move UNIT along"),
    ('move "Tank C" along 9999', "not a location of map"),
    ('move "Tank C" along 0101 on Elsewhere', "cannot place"),
    ('reduce "Tank C"\nreduce "Tank C"', "last level"),
    ('layer "Tank C" 5', "levels 1 to 2"),
    ('layer "Tank C" Huge', "no level named"),
    ('flip "Tank C" Morale', "no Layer named"),
    ("roll 2d6 = 1", "rolls 2 dice"),
    ("roll 2d6 = 1,7", "faces must be 1 to 6"),
    ("roll 3d6 = 1,2,3", "no dice button"),
    ("undo", "nothing to undo"),
    ("as Carol", "no player"),
    ('chat "x" as Carol', "no player"),
    ("turn set Round=2", "no turn level"),
    ("turn set Phase=Rest", "no item"),
    ("turn set Turn=x", "counts numbers"),
    ('add Artillery at 0101', "no piece named"),
])
def test_script_mistakes_name_their_line(game, line, words):
    text = SCRIPT.split("move")[0] + line + "\n"
    with pytest.raises(ScriptError) as info:
        build_log(parse_text(text, path="m.vscript", folder=game))
    assert words in info.value.message
    assert info.value.where is None or re.fullmatch(r"line \d+", info.value.where)


def test_ambiguous_names_ask_for_an_id(game):
    text = SCRIPT.split("move")[0] + 'add "Tank C" at 0101\nmove "Tank C" along 0102\n'
    with pytest.raises(ScriptError, match="2 pieces are named 'Tank C'; name one by id"):
        build_log(parse_text(text, path="m.vscript", folder=game))


def test_missing_module_or_start(game):
    with pytest.raises(ScriptError, match="needs the module"):
        build_log(parse_text("start start.vsav\nroll 2d6 = 1,2\n", folder=game))
    with pytest.raises(ScriptError, match="cannot read the starting save"):
        build_log(parse_text("start absent.vsav\n", folder=game))
    with pytest.raises(ScriptError, match="scenario"):
        build_log(parse_text("scenario s1\n", folder=game))


def test_new_players_join_the_restore_block(game):
    text = SCRIPT.split("move")[0].replace("player Bob side Blue", "player Carol side Blue id pw-c") + 'as Carol\nchat "hi"\n'
    log = build_log(parse_text(text, path="p.vscript", folder=game))
    assert [(p.name, p.side) for p in log.players] == [("Alice", "Red"), ("Bob", "Blue"), ("Carol", "Blue")]
    assert encode(log.steps[0].node) == "LOG\tCHAT&lt;Carol&gt; - hi"


@pytest.mark.parametrize("sample", sample_params("vasl-templates/3d6.vlog"))
def test_dice_step_has_the_form_of_a_real_322_log(game, sample):
    """A 3.2.17 DiceButton step written by vlog has the shape of the real one in 3d6.vlog."""
    real = vlog.read(sample)
    real_step = next(encode(s.node) for s in real.steps if "MutableProperty" in encode(s.node))
    shutil.rmtree(game / "mod")
    # the 3.2 default report format, `<` and `>` escaped for the XML attribute
    write_module(game / "mod", dice_extra='<VASSAL.build.module.DiceButton name="3d6" nDice="3" nSides="6" '
                                          'reportFormat="** $name$ = $result$ *** &lt;$playerName$&gt;"/>')
    text = ("module mod\nstart start.vsav\nvassal 3.2.17\nplayer test side Red\n"
            "roll 3d6 = 1,1,1\nroll 3d6 = 2,4,2\n")
    mine = encode(build_log(parse_text(text, folder=game)).steps[1].node)
    shape = re.compile(r"LOG\tCHAT\*\*\* 3d6 = \d,\d,\d \*\*\* <test>\x1bLOG\tMutableProperty\t3d6_result\t\d,\d,\d\t\d,\d,\d\tModule")
    assert shape.fullmatch(real_step) and shape.fullmatch(mine)


def test_convert_command_writes_logs_and_step_saves(game, capsys):
    from vlog.cli import main
    script = script_at(game)
    assert main(["convert", str(script), str(game / "cli.vlog")]) == 0
    assert (game / "cli.vlog").read_bytes() == _written(game, script)
    assert main(["convert", str(game / "cli.vlog"), str(game / "s5.vsav"), "--step", "5"]) == 0
    module = read_module(game / "mod")
    saved = vlog.read(game / "s5.vsav")
    replayed = table_at(vlog.read(game / "cli.vlog"), 5, module)
    from vlog.table import Table
    assert {p.id: p.point for p in Table.from_save(saved).game_pieces()} == {
        p.id: p.point for p in replayed.game_pieces()}
    assert main(["convert", str(game / "cli.vlog"), str(game / "s99.vsav"), "--step", "99"]) == 2   # usage
    assert main(["convert", str(script), str(game / "x.vsav")]) == 2
    assert main(["convert", str(game / "cli.vlog"), str(game / "x.json"), "--step", "1"]) == 2
    assert main(["convert", str(script), str(game / "cli.vlog")]) == 3  # exists, no --force
    bad = script_at(game, "start start.vsav\nfly away\n", name="bad.vscript")
    assert main(["convert", str(bad), str(game / "bad.vlog")]) == 3
    assert "bad.vscript: line 2" in capsys.readouterr().err
    assert not (game / "bad.vlog").exists() and not (game / "s99.vsav").exists()


def _written(game, script):
    write_log(script, game / "direct.vlog")
    return (game / "direct.vlog").read_bytes()


# -- random scripts against a model of what they mean ------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

UNITS = ("Inf A", "Inf B", "Tank C")
HEXES = ("0101", "0202", "0203", "0303", "0404", "0505")
ACTION = st.one_of(
    st.tuples(st.just("move"), st.sampled_from(UNITS), st.lists(st.sampled_from(HEXES), min_size=1, max_size=3)),
    st.tuples(st.just("flip"), st.sampled_from(UNITS)),
    st.tuples(st.just("roll"), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    st.tuples(st.just("chat"), st.text("abc ,;/\\\t<>&", max_size=8)),
    st.tuples(st.just("undo")),
)


def model_run(actions):
    """What the script should leave: each unit's hex and Step level, the rolls, the script lines.

    Steps are kept as (do, undo) pairs; `undo` undoes the step BasicLogger points at and moves the
    pointer one step back, and an undo step itself can be undone (which redoes what it undid)."""
    where = {"Inf A": "0202", "Inf B": "0202", "Tank C": "0505"}
    level = {u: 1 for u in UNITS}
    steps: list[tuple] = []
    pointer = -1
    lines = []
    for act in actions:
        kind = act[0]
        if kind == "move":
            unit, hexes = act[1], act[2]
            for h in hexes:
                old = where[unit]
                steps.append((("at", unit, h), ("at", unit, old)))
                where[unit] = h
                pointer = len(steps) - 1
            lines.append(f'move "{unit}" along ' + " ".join(hexes))
        elif kind == "flip":
            unit = act[1]
            old = level[unit]
            new = old % 2 + 1
            steps.append((("level", unit, new), ("level", unit, old)))
            level[unit] = new
            pointer = len(steps) - 1
            lines.append(f'flip "{unit}"')
        elif kind == "roll":
            steps.append((None, None))
            pointer = len(steps) - 1
            lines.append(f"roll 2d6 = {act[1][0]},{act[1][1]}")
        elif kind == "chat":
            steps.append((None, None))
            pointer = len(steps) - 1
            lines.append("chat " + json_quote(act[1]))
        else:
            if pointer < 0:
                continue
            do, undo = steps[pointer]
            pointer -= 1
            for effect in (undo,):
                if effect is not None:
                    _, unit, value = effect
                    (where if effect[0] == "at" else level)[unit] = value
            steps.append((undo, do))
            lines.append("undo")
    return where, level, lines


def json_quote(text: str) -> str:
    import shlex
    return shlex.quote(text)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ACTION, max_size=12))
def test_random_scripts_replay_to_their_meaning(game, actions):
    where_, level, lines = model_run(actions)
    text = SCRIPT.split("move")[0] + "\n".join(lines) + "\n"
    log = build_log(parse_text(text, path="random.vscript", folder=game))
    module = read_module(game / "mod")
    rep = replay_log(log, module=module)
    final = rep.final
    got = {p.name: (final.location_name(p), p.layers[0].level) for p in final.game_pieces()}
    assert got == {u: (where_[u], level[u]) for u in UNITS}
    rolls = [tuple(int(f) for f in line.split("= ")[1].split(",")) for line in lines if line.startswith("roll")]
    assert [r.faces for r in rep.rolls] == rolls
    assert not final.problems
    # a stacked piece lies where its stack does, and the log reads back byte for byte
    # (an undone drag may leave a piece outside any stack, as VASSAL's MovePiece does too)
    for p in final.game_pieces():
        assert p.parent is None or final[p.parent].point == p.point
    assert vlog.read(_written_log(game, log)).text == log.text


def _written_log(game, log):
    from vlog.vassal.savefile import write
    path = game / "random.vlog"
    write(log, path)
    return path


def test_json_script_through_convert(game):
    from vlog.cli import main
    from converters.script import script_document
    import json
    (game / "play.vscript.json").write_text(json.dumps(script_document(SCRIPT)), encoding="utf-8")
    assert main(["convert", str(game / "play.vscript.json"), str(game / "json.vlog")]) == 0
    assert vlog.read(game / "json.vlog").text == build_log(parse_text(SCRIPT, folder=game)).text


def test_units_named_by_game_bindings(game, monkeypatch):
    """A unit id of the game's bindings names the piece bound to it (piece name or gpid)."""
    import vlog.gamedata as gamedata

    class Data:
        documents = {"bindings": {"pieces": [
            {"id": "b1", "counter": {"value": "it-1-inf"}, "piece_name": {"value": "Inf A"}},
            {"id": "b2", "counter": {"value": "tank"}, "gpid": {"value": "3"}}]}}

    monkeypatch.setattr(gamedata, "load_game_data", lambda game: Data())
    text = SCRIPT.split("move")[0].replace("module mod", "game synthetic\nmodule mod") + \
        "move it-1-inf along 0303\nmove tank along 0101\n"
    log = build_log(parse_text(text, folder=game))
    assert [s.commands[0].id for s in log.steps] == ["1001", "1004"]
    with pytest.raises(ScriptError, match="no piece named 'nothing'"):
        build_log(parse_text(text + "flip nothing\n", folder=game))


def test_scenario_start_built_by_the_setup_writer(tmp_path):
    """Without `start`, the setup writer builds the scenario's starting save (game data shipped
    with vlog, module written by the module writer)."""
    setup_writer = pytest.importorskip("converters.setup_writer")
    vmod_writer = pytest.importorskip("converters.vmod_writer")
    if not hasattr(setup_writer, "build_setup_save"):
        pytest.skip("the setup writer has no build_setup_save")
    from vlog.gamedata import load_game_data
    data = load_game_data("lion-of-judah")
    scenario = data.scenario_ids[0]
    vmod_writer.write_module(data, tmp_path / "lj.vmod", scenario=scenario)
    module = read_module(tmp_path / "lj.vmod")
    start = setup_writer.build_setup_save(data, scenario, module=tmp_path / "lj.vmod")
    from vlog.table import Table
    table = Table.from_save(start, module)
    unit = next(p for p in table.game_pieces() if p.layers and p.name and
                sum(1 for q in table.game_pieces() if q.name == p.name) == 1)
    here = table.location_name(unit)
    target = module.location_name("Main Map", unit.x, unit.y + 100)
    text = (f"game lion-of-judah\nscenario {scenario}\nmodule lj.vmod\nmap \"Main Map\"\n"
            f"player Alice side Red\nmove \"{unit.name}\" along {target}\nroll {module.dice[0].name} = 1\n")
    (tmp_path / "lj.vscript").write_text(text, encoding="utf-8")
    write_log(tmp_path / "lj.vscript", tmp_path / "lj.vlog")
    rep = replay_log(vlog.read(tmp_path / "lj.vlog"), module=module)
    moved = rep.final[unit.id]
    assert here != target and rep.final.location_name(moved) == target
    assert [r.faces for r in rep.rolls] == [(1,)]


def test_hashmap_order_matches_java():
    """Vectors printed by a JDK 17 HashMap<String, String> (tests/converters/data)."""
    import json
    from pathlib import Path
    from converters.log_writer import hashmap_order
    vectors = json.loads((Path(__file__).parent / "data" / "hashmap_order.json").read_text(encoding="utf-8"))
    for v in vectors:
        assert hashmap_order(v["keys"]) == v["order"]


def test_persistent_properties_only_from_37(game):
    text = SCRIPT.replace("clock", "vassal 3.6.9\nclock")
    log = build_log(parse_text(text, path="v36.vscript", folder=game))
    reduce = log.steps[12].commands[0]
    assert reduce.old_state == "1\tMain Map;110;160;1;0"


def test_undone_remove_adds_the_piece_back_as_it_was(game):
    text = SCRIPT.split("move")[0] + 'move "Inf A" along 0303\nremove "Inf A"\nundo\n'
    log = build_log(parse_text(text, path="r.vscript", folder=game))
    added = log.steps[2].undo_commands
    assert [type(c) for c in added] == [AddPiece]
    assert added[0].id == "1001" and added[0].state.endswith(
        "Main Map;110;160;1;7;OldZone;;OldLocationName;0202;OldDeckName;;OldX;55;OldY;64;OldBoard;Board;OldMap;Main Map")
    module = read_module(game / "mod")
    final = table_at(log, 3, module)
    assert final.location_name(final["1001"]) == "0303"


def test_add_onto_a_stack(game):
    text = SCRIPT.split("move")[0] + 'add "Tank C" at 0202\n'
    log = build_log(parse_text(text, path="a.vscript", folder=game))
    add, move, report = log.steps[0].commands
    assert isinstance(add, AddPiece) and add.state.endswith("\tnull;0;0;3;0")
    assert (move.new_under, move.old_map, move.old_x, move.old_y) == ("1002", None, 0, 0)
    assert report.text == "* Tank C created in 0202 *"
    module = read_module(game / "mod")
    final = table_at(log, 1, module)
    assert final[final["1001"].parent].children == ("1001", "1002", add.id)


def test_map_report_options(game):
    """The map's own report formats and onlyReportChangedLocation replace VASSAL's defaults."""
    build = (game / "mod" / "buildFile.xml").read_text(encoding="utf-8")
    (game / "mod" / "buildFile.xml").write_text(build.replace(
        'mapName="Main Map">',
        'mapName="Main Map" onlyReportChangedLocation="true" moveWithinFormat="$pieceName$: $previousLocation$ to $location$">'),
        encoding="utf-8")
    text = SCRIPT.split("move")[0] + 'move "Tank C" along 0505 0404\n'
    log = build_log(parse_text(text, path="o.vscript", folder=game))
    assert [type(c) for c in log.steps[0].commands] == [MovePiece, AddPiece]
    assert log.steps[1].commands[-1].text == "* Tank C: 0505 to 0404"


def test_turn_after_an_undone_turn_starts_from_the_restored_state(game):
    text = SCRIPT.split("move")[0] + "turn next\nundo\nturn next\n"
    log = build_log(parse_text(text, path="t.vscript", folder=game))
    first, again = log.steps[0].commands, log.steps[2].commands
    assert first[0].text == again[0].text == "* * &lt;Alice&gt; Turn Updated from Turn 1 Move to Turn 1 Combat"
    assert first[1].state == again[1].state


def test_undone_drag_takes_its_old_properties_back(game):
    """An undone drag also undoes the Old* properties it set, so a later Layer change carries
    the properties of the drags that stand (VASSAL runs the unencoded undo too)."""
    text = SCRIPT.split("move")[0] + 'move "Inf A" along 0203 0303\nundo\nflip "Inf A"\n' \
        'move "Tank C" along 0404\nundo\nflip "Tank C"\n'
    log = build_log(parse_text(text, path="p.vscript", folder=game))
    flip_a = log.steps[3].commands[0]
    assert flip_a.old_state.endswith("Main Map;55;128;1;7;OldZone;;OldLocationName;0202;OldDeckName;;"
                                     "OldX;55;OldY;64;OldBoard;Board;OldMap;Main Map")
    flip_c = log.steps[6].commands[0]
    assert flip_c.old_state == "1\tMain Map;221;288;3;0"


@pytest.mark.parametrize("sample", sample_params("vasl-templates/custom-labels.vlog"))
def test_move_command_has_the_form_of_a_real_log(game, sample):
    """The MovePiece of a written drag has the fields of the one in a real log: id, new map,
    x, y, piece underneath, old map, x, y, piece underneath, mover's id."""
    real = next(c for s in vlog.read(sample).steps for c in s.commands if isinstance(c, MovePiece))
    mine = build_log(parse_text(SCRIPT, folder=game)).steps[0].commands[0]
    shape = re.compile(r"M/[0-9]+/[^/]+/[0-9]+/[0-9]+/(null|[0-9]+)/[^/]+/[0-9]+/[0-9]+/(null|[0-9]+)/[^/]+")
    assert shape.fullmatch(real.payload()) and shape.fullmatch(mine.payload())


def test_pieces_that_do_not_stack(game):
    """A piece with a Does-not-stack trait is placed alone: no Stack is made for it, and others
    are not merged onto it (Properties.NO_STACK)."""
    from synthetic_vassal import _xml
    marker = "+/null/immob;;;R;\tpiece;;;flag.png;Flag/\tnull;0;0;9"
    build = (game / "mod" / "buildFile.xml").read_text(encoding="utf-8")
    slot = f'<VASSAL.build.widget.PieceSlot entryName="Flag" gpid="9">{_xml(marker)}</VASSAL.build.widget.PieceSlot>'
    (game / "mod" / "buildFile.xml").write_text(build.replace("</VASSAL.build.widget.PanelWidget>", slot + "</VASSAL.build.widget.PanelWidget>"), encoding="utf-8")
    text = SCRIPT.split("move")[0] + 'add Flag at 0303\nmove Flag along 0404\nmove "Tank C" along 0404\n'
    log = build_log(parse_text(text, path="f.vscript", folder=game))
    assert [type(c) for c in log.steps[0].commands] == [AddPiece, Chat]
    assert [type(c) for c in log.steps[1].commands] == [MovePiece, Chat]
    tank = log.steps[2].commands
    assert [type(c) for c in tank] == [MovePiece, AddPiece, Chat] and tank[0].new_under is None


STACK_SCRIPT = SCRIPT.split("move")[0] + 'move "Inf A" "Inf B" along 0203 0505\n'


def test_a_stack_dragged_as_one(game):
    """`move A B along ...` drags the whole stack: onto an empty hex one MovePiece of the Stack
    itself (Map.placeAt, as the real custom-labels log's stack drag), onto a piece there one per
    piece, bottom to top, each onto the one before (StackMetrics.merge), and one movement report
    naming them all; replayed, every unit of it moved at each hop."""
    log = build_log(parse_text(STACK_SCRIPT, path="s.vscript", folder=game))
    first = log.steps[0]
    assert encode(first.node) == (
        "LOG\tM/1003/Main Map/55/128/null/Main Map/55/64/null/pw-alice"
        "\x1bLOG\tCHAT* Inf A, Inf B moves 0202 &rarr; 0203 *")
    onto_tank = log.steps[1].commands                # Tank C lies in its own stack 1005
    assert [type(c) for c in onto_tank] == [MovePiece, MovePiece, Chat]
    assert [(c.id, c.new_under, c.old_under) for c in onto_tank[:2]] == [("1001", "1004", None),
                                                                       ("1002", "1001", None)]
    assert onto_tank[2].text == "* Inf A, Inf B moves 0203 &rarr; 0505 *"
    module = read_module(game / "mod")
    final = table_at(log, 2, module)
    tank = final["1004"]
    assert final[tank.parent].children == ("1004", "1001", "1002")
    assert {where(final, final[p]) for p in ("1001", "1002", "1004")} == {"0505"}
    # the kit's events of each hop: every unit of the stack moved (vlog.kit.steps.unit_events)
    from vlog.kit.steps import Moved, unit_events

    def units(table):
        return {p.id: type("U", (), {"hex": where(table, p), "level": None, "steps": None})()
                for p in table.game_pieces() if p.map}

    for n in (1, 2):
        moved = [e for e in unit_events(n, units(table_at(log, n - 1, module)), units(table_at(log, n, module)))
                 if isinstance(e, Moved)]
        assert len(moved) == 2 and all(e.before.hex != e.after.hex for e in moved)


def test_a_stack_drag_is_of_a_whole_stack(game):
    """Pieces not all of one stack, or part of one, are an error naming the stack."""
    with pytest.raises(ScriptError, match=r"line 7: .*whole stack they stand in \(Inf A, Inf B\)"):
        build_log(parse_text(SCRIPT.split("move")[0] + 'move "Inf A" "Tank C" along 0101\n', path="s.vscript",
                             folder=game))
    with pytest.raises(ScriptError, match="whole stack"):         # part of a stack
        build_log(parse_text(SCRIPT.split("move")[0] + 'move "Inf A" "Inf A" along 0101\n', path="s.vscript",
                             folder=game))


def test_stack_move_line_form_and_json():
    doc = parse_text('vlog-script 1\nstart s.vsav\nmove "A" B along 0101 0102 on "Main Map"\nmove C along 0103\n')
    assert doc.document["actions"][0] == {"action": "move", "units": ["A", "B"], "along": ["0101", "0102"],
                                          "map": "Main Map", "line": 3}
    assert doc.document["actions"][1] == {"action": "move", "unit": "C", "along": ["0103"], "line": 4}
    assert doc.actions[0].units == ("A", "B") and doc.actions[0].unit is None
    with pytest.raises(ScriptError, match="along"):
        parse_text("vlog-script 1\nstart s.vsav\nmove A B along\n")
