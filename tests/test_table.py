"""The table: pieces, stacks as VASSAL merges them, trait-wise changes, properties and problems."""
from __future__ import annotations

import pytest

import vlog
from tests.checks.logbuild import (
    MAP, SECRET, layer_type, move, restore, stack, unit, unit_state, write_file,
)
from tests.conftest import sample_params
from vlog.table import Table
from vlog.vassal.commands import (
    AddPiece, ChangePiece, GlobalPropertySet, MovePiece, MutableProperty, PlayerAdd, PlayerRemove,
    RemovePiece, TurnState, UnknownCommand, decode_leaf,
)
from vlog.vassal.pieces import join_chain


def table_with(*pieces: AddPiece) -> Table:
    t = Table()
    t.apply_all(pieces)
    return t


def two_stacks() -> Table:
    return table_with(unit("1", "Inf", 100, 100), unit("2", "Cav", 100, 100), unit("3", "Art", 200, 200),
                      stack("s1", 100, 100, "1", "2"), stack("s2", 200, 200, "3"))


def test_from_built_save(tmp_path):
    path = write_file(tmp_path / "a.vsav", restore(
        [unit("1", "Inf", 100, 100), unit("2", "Cav", 100, 100), stack("s1", 100, 100, "1", "2")],
        GlobalPropertySet("Turn", "3", "Module"), TurnState("TurnTracker0", "0|3;0;true;20")))
    t = Table.from_save(vlog.read(path))
    assert [p.id for p in t.game_pieces()] == ["1", "2"]
    assert t.pieces["s1"].children == ("1", "2")
    assert t.stack_of("2") == ("s1", 1)
    assert t.pieces["2"].point == (MAP, 100, 100)
    assert t.global_properties == {("Module", "Turn"): "3"}
    assert t.turns == {"TurnTracker0": "0|3;0;true;20"}
    assert list(t.players.values())[0].side == "Red"
    assert t.problems == []


def test_move_to_empty_point():
    """MovePiece.stackOrPlacePiece: a piece taken from a stack is placed alone (Map.addPiece
    takes it out of its stack); a piece outside any stack starts a new stack."""
    t = two_stacks()
    t.apply(move("2", 400, 500, 100, 100, old_under="1"))
    assert t.pieces["2"].point == (MAP, 400, 500)
    assert t.stack_of("2") == (None, None)
    assert t.pieces["s1"].children == ("1",)
    t.apply(move("2", 10, 20, 400, 500))
    parent, index = t.stack_of("2")
    assert parent is not None and parent.startswith("~stack-") and index == 0
    assert t.pieces[parent].point == (MAP, 10, 20) and t.pieces["2"].point == (MAP, 10, 20)


def test_move_onto_named_piece_goes_just_above_it():
    t = two_stacks()
    t.apply(move("3", 100, 100, 200, 200, under="1"))
    assert t.pieces["s1"].children == ("1", "3", "2")
    assert t.pieces["3"].point == (MAP, 100, 100)
    assert "s2" not in t.pieces  # its last piece left: VASSAL shows and saves it no more
    assert [s.id for s in t.stacks()] == ["s1"]


def test_move_without_underneath_onto_a_stack_goes_to_the_bottom():
    t = two_stacks()
    t.apply(move("3", 100, 100, 200, 200))
    assert t.pieces["s1"].children == ("3", "1", "2")


def test_underneath_elsewhere_falls_back_to_merging_at_the_point():
    t = two_stacks()
    t.apply(move("3", 100, 100, 200, 200, under="nowhere"))
    assert t.pieces["s1"].children == ("1", "2", "3")


def test_moving_a_stack_moves_its_pieces():
    t = two_stacks()
    t.apply(move("s1", 600, 700, 100, 100))
    assert t.pieces["s1"].point == (MAP, 600, 700)
    assert t.pieces["1"].point == t.pieces["2"].point == (MAP, 600, 700)
    t.apply(move("s1", 200, 200, 600, 700))
    # StackMetrics.merge puts a moving stack's pieces above the top piece; the stack itself
    # has no parent, so "no piece underneath" does not send them to the bottom
    assert t.pieces["s2"].children == ("3", "1", "2")
    assert "s1" not in t.pieces


def test_move_off_map_and_missing_piece():
    t = two_stacks()
    t.apply(MovePiece("1", None, 0, 0, None, MAP, 100, 100, None, SECRET))
    assert t.pieces["1"].map is None and t.stack_of("1") == (None, None)
    t.step = 5
    t.apply(move("404", 1, 1, 0, 0))
    assert [(p.step, p.kind) for p in t.problems] == [(5, "missing-piece")]
    assert t.problems[0].raw.startswith("M/404/")


def test_change_piece_merges_only_the_traits_that_changed():
    t = two_stacks()
    before = t.pieces["1"].state
    # the mask was set meanwhile (current state differs from the command's old state there)
    masked = unit_state(100, 100, masked_by=SECRET)
    t.apply(ChangePiece("1", masked))
    assert t.pieces["1"].masked_by == SECRET and t.pieces["1"].concealed
    assert t.pieces["1"].shown_name() == "a masked piece (Masked)"
    assert t.pieces["1"].shown_name(referee=True) == "Inf"
    # flip the step layer: old/new differ only in the layer, so the mask stays
    t.apply(ChangePiece("1", unit_state(100, 100, level=2), before))
    p = t.pieces["1"]
    assert p.masked_by == SECRET
    assert [(l.name, l.level, l.level_name) for l in p.layers] == [("Step", 2, "Reduced")]
    # without an old state the whole state is replaced
    t.apply(ChangePiece("1", before))
    assert t.pieces["1"].state == before and not t.pieces["1"].concealed


def test_change_of_a_lone_piece_moves_it_with_its_basic_state():
    t = table_with(unit("9", "Lone", 10, 20))
    t.apply(ChangePiece("9", unit_state(30, 40)))
    assert t.pieces["9"].point == (MAP, 30, 40)


def test_change_of_a_stack_restacks():
    t = two_stacks()
    t.apply(ChangePiece("s1", f"{MAP};100;100;2;1;@@-1"))
    assert t.pieces["s1"].children == ("2", "1")


def test_remove_and_re_add():
    t = two_stacks()
    t.apply(RemovePiece("2"))
    assert "2" not in t and t.pieces["s1"].children == ("1",)
    t.apply(RemovePiece("2"))
    assert t.problems[-1].kind == "missing-piece"
    t.apply(unit("2", "Cav", 5, 6))
    assert t.pieces["2"].point == (MAP, 5, 6) and t.pieces["2"].parent is None


def test_properties_turns_players_and_unknown():
    t = Table()
    t.apply(GlobalPropertySet("Weather", "Rain", ""))
    t.apply(MutableProperty("Weather", "Rain", "Dry", "Module"))
    t.apply(MutableProperty("Supply", None, "5", "Main Map:Zone A"))
    assert t.global_properties == {("Module", "Weather"): "Dry", ("Main Map:Zone A", "Supply"): "5"}
    t.apply(PlayerAdd(SECRET, "Alice", "Red"))
    assert t.side_of(SECRET) == "Red"
    t.apply(PlayerRemove(SECRET))
    assert t.players == {}
    t.apply(decode_leaf("INFO\tAxis\t1"))
    assert t.problems[-1].raw == "INFO\tAxis\t1" and t.problems[-1].kind == "module-command"   # the module's own
    t.apply(UnknownCommand("M/bad", "MovePiece needs 9 or 10 fields, found 1"))
    assert t.problems[-1].message == "MovePiece needs 9 or 10 fields, found 1"


def test_copy_is_independent_and_shares_records():
    t = two_stacks()
    c = t.copy()
    assert c.pieces["1"] is t.pieces["1"]
    c.apply(move("1", 900, 900, 100, 100, old_under=None))
    assert t.pieces["1"].point == (MAP, 100, 100)
    assert c.pieces["1"].point == (MAP, 900, 900)
    assert t.pieces["s1"].children == ("1", "2")


def test_layer_type_helper_is_what_the_pieces_reader_reads():
    p = AddPiece("x", join_chain([layer_type("Side", ["A", "B"]), "piece;;;x.png;X"]),
                 join_chain(["-2", "null;0;0;;0"])).piece
    layer = p.traits[0]
    assert (layer.name, layer.level, layer.active, layer.level_name) == ("Side", 2, False, "B")


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("*/*.vsav", "*/*.vlog"))
def test_samples_every_piece_on_the_table(path):
    """Every AddPiece of the restore block is on the table; stacked pieces lie where their stack does."""
    obj = vlog.read(path)
    t = Table.from_save(obj.start if isinstance(obj, vlog.vassal.savefile.Log) else obj)
    assert set(t.pieces) == {i for i in obj.pieces if i is not None}
    for s in t.pieces.values():
        for kid in s.children:
            assert t.pieces[kid].parent == s.id
            assert t.pieces[kid].point == s.point
        if s.kind == "stack":
            listed = [i for i in s.piece.piece_ids if i in obj.pieces]
            assert list(s.children) == listed


def test_point_index_stays_true_through_random_moves_and_removals():
    """The index of what lies at each point (used to find merge targets) always equals a scan."""
    import random

    rng = random.Random(3)
    t = Table()
    for i in range(40):
        t.apply(unit(f"p{i}", f"U{i}", 10 * (i % 5), 10 * (i // 5)))
    for n in range(600):
        pid = f"p{rng.randrange(40)}"
        if pid not in t:
            t.apply(unit(pid, "again", 0, 0))
            continue
        r = rng.random()
        if r < 0.05:
            t.apply(RemovePiece(pid))
        elif r < 0.5:
            other = t.pieces.get(f"p{rng.randrange(40)}")
            if other is not None:
                t.apply(move(pid, other.x, other.y, 0, 0, under=other.id if rng.random() < 0.5 else None))
        else:
            t.apply(move(pid, 10 * rng.randrange(6), 10 * rng.randrange(9), 0, 0))
        scan: dict = {}
        for p in t.pieces.values():
            if p.parent is None:
                scan.setdefault(p.point, set()).add(p.id)
        assert {k: set(v) for k, v in t._at.items()} == scan
        for p in t.pieces.values():
            for kid in p.children:
                assert t.pieces[kid].parent == p.id and t.pieces[kid].point == p.point


def test_restore_commands_rebuild_the_same_table(tmp_path):
    t = two_stacks()
    t.apply(move("2", 400, 500, 100, 100, old_under="1"))   # alone now
    t.apply(move("3", 100, 100, 200, 200, under="1"))       # into s1, s2 left empty
    t.apply(GlobalPropertySet("Turn", "4", "Module"))
    t.apply(PlayerAdd(SECRET, "Alice", "Red"))
    t.apply(TurnState("TurnTracker0", "0|4;0;true;20"))
    again = Table.from_save(t.to_save())
    assert {i: (p.point, p.children, p.parent, p.comparable_state()) for i, p in again.pieces.items()} == {
        i: (p.point, p.children, p.parent, p.comparable_state()) for i, p in t.pieces.items() if i != "s2"}
    assert again.global_properties == t.global_properties and again.turns == t.turns
    assert again.players == t.players
    # and it survives the writer and the reader
    save = t.to_save()
    save.members = [("savedGame", b"")]
    vlog.write(save, tmp_path / "at.vsav")
    back = Table.from_save(vlog.read(tmp_path / "at.vsav"))
    assert {i: p.point for i, p in back.pieces.items()} == {i: p.point for i, p in again.pieces.items()}


def test_hostile_stacks_are_not_followed():
    t = table_with(unit("1", "Inf", 0, 0), stack("s1", 0, 0, "1"),
                   stack("s2", 0, 0, "s1", "s2", "1", "404"))
    assert t.pieces["s2"].children == ("1",) and "s1" not in t.pieces
    # a command naming the emptied stack still finds it (VASSAL keeps it in memory)
    t.apply(ChangePiece("s1", f"{MAP};0;0;s2;s1;1;@@-1"))
    assert t.pieces["s1"].children == ("1",) and "s2" not in t.pieces
    assert t.problems == []
    assert all(p.parent is None for p in t.pieces.values() if p.is_container)


def test_a_table_follows_its_pieces_however_long_the_log():
    """A piece moved back and forth between empty points leaves no empty stacks behind."""
    t = table_with(unit("1", "Inf", 0, 0), unit("2", "Art", 500, 500), stack("s1", 0, 0, "1"))
    for i in range(200):
        x, old = (100, 0) if i % 2 == 0 else (0, 100)
        t.apply(move("1", x, x, old, old))
    assert t.pieces["1"].point == (MAP, 0, 0)
    assert len(t.pieces) <= 4 and all(p.children for p in t.pieces.values() if p.kind == "stack")
    assert sum(len(ids) for ids in t._at.values()) == 2
    t.apply(move("2", 0, 0, 500, 500))
    assert t.pieces_at(MAP, 0, 0) == [t.pieces["2"], t.pieces["1"]]  # no piece underneath: the bottom


def test_emptied_stacks_shared_by_copies_stay_each_tables_own():
    """The emptied stacks a table keeps for commands that name them (vlog.table._Emptied), under
    random adds, revivals and copies, against plain dicts copied whole: every table, the copies
    made at each step and the ones copied from, holds exactly what it would hold alone, in a
    few layers however many copies were made."""
    import random

    from vlog.table import _Emptied

    rng = random.Random(5)
    tables = [(_Emptied(), {})]
    for n in range(3000):
        emptied, reference = tables[-1] if rng.random() < 0.9 else rng.choice(tables)
        for _ in range(rng.randint(0, 3)):
            key = f"s{rng.randint(0, 400)}"
            if rng.random() < 0.6:
                emptied.add(key, n)
                reference[key] = n
            else:
                assert emptied.pop(key) == reference.pop(key, None)
        if rng.random() < 0.8:
            tables.append((emptied.copy(), dict(reference)))
    for emptied, reference in tables:
        assert emptied.ids() == set(reference)
        assert all(emptied.get(k) == v for k, v in reference.items())
        assert len(emptied.below) <= 16


def test_a_copy_revives_a_stack_emptied_before_it_and_the_source_keeps_it():
    t = two_stacks()
    t.apply(move("3", 100, 100, 200, 200, under="1"))       # into s1, s2 left empty
    assert "s2" not in t.pieces
    later = t.copy()
    later.apply(ChangePiece("s2", f"{MAP};200;200;3;@@1"))  # a command naming it revives it
    assert later.pieces["s2"].children == ("3",)
    again = t.copy()                                        # the source still keeps it aside
    again.apply(ChangePiece("s2", f"{MAP};200;200;3;@@1"))
    assert again.pieces["s2"].children == ("3",) and "s2" not in t.pieces


def test_random_commands_never_raise():
    """Any sequence of typed commands on any ids is applied or recorded as a problem."""
    import random

    rng = random.Random(11)
    ids = ["1", "2", "3", "s1", "s2", "404", ""]
    t = Table()
    for _ in range(2000):
        a, b = rng.choice(ids), rng.choice(ids)
        x, y = rng.randrange(3) * 10, rng.randrange(3) * 10
        cmd = rng.choice([
            lambda: unit(a, "U", x, y),
            lambda: stack(a, x, y, b, rng.choice(ids)),
            lambda: move(a, x, y, 0, 0, under=b if rng.random() < 0.5 else None),
            lambda: MovePiece(a, None, 0, 0, None, MAP, x, y, None, None),
            lambda: RemovePiece(a),
            lambda: ChangePiece(a, unit_state(x, y, level=2), unit_state(x, y)),
            lambda: ChangePiece(a, f"{MAP};{x};{y};{b};@@-1"),
            lambda: ChangePiece(a, "garbage\\\t\\"),
        ])()
        t.apply(cmd)
        for p in t.pieces.values():
            for kid in p.children:
                assert t.pieces[kid].parent == p.id


def test_vassal_component_commands_are_not_problems():
    t = Table()
    for raw in ("SGKC\tSGKC0\ttrue", "CLOCK\tBlue\tBlue\t1000\ttrue\tfalse\tfalse", "SGKC\tSGKC0\tfalse"):
        t.apply(decode_leaf(raw))
    assert t.problems == []
    assert t.components == {"SGKC\tSGKC0": "SGKC\tSGKC0\tfalse",
                            "CLOCK\tBlue": "CLOCK\tBlue\tBlue\t1000\ttrue\tfalse\tfalse"}


def test_does_not_stack_and_invisible_pieces():
    """createMergeFinder: a non-stacking piece neither merges nor starts a stack; a stack of
    pieces invisible to the mover is not merged onto; decks take anything."""
    from vlog.vassal.pieces import join_chain as chain

    marker = AddPiece("m", chain(["immob;;N", "piece;;;m.png;Marker"]), chain(["", f"{MAP};100;100;;0"]))
    hidden_type = chain(["hide;H;;", "piece;;;h.png;Hidden"])
    hidden = AddPiece("h", hidden_type, chain(["someone-else", f"{MAP};300;300;;0"]))
    t = table_with(unit("1", "Inf", 100, 100), stack("s1", 100, 100, "1"), marker, hidden,
                   stack("sh", 300, 300, "h"), AddPiece("d", "deck;", f"{MAP};500;500;false"))
    assert t.pieces["m"].no_stack and not t.pieces["1"].no_stack
    t.apply(move("m", 100, 100, 100, 100))
    assert t.stack_of("m") == (None, None) and t.pieces["s1"].children == ("1",)
    t.apply(move("m", 700, 700, 100, 100))
    assert t.stack_of("m") == (None, None) and t.pieces["m"].point == (MAP, 700, 700)
    t.apply(move("1", 300, 300, 100, 100))                      # the stack shows the mover nothing
    assert t.pieces["sh"].children == ("h",) and t.stack_of("1")[0] != "sh"
    t.apply(move("m", 500, 500, 700, 700))                      # a deck takes even a marker
    assert t.pieces["d"].children == ("m",)
