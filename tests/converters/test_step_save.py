"""`--step N`: the save written for step N reads back to the table the replay has after step N
(synthetic logs written from scripts, and the real sample logs when present)."""
from __future__ import annotations

import pytest

import vlog
from converters.log_writer import build_log, write_log
from converters.script import parse_text
from converters.step_save import log_to_save, save_at
from conftest import sample_params
from synthetic_vassal import start_save, write_module
from test_log_writer import SCRIPT
from vlog.errors import OutputError
from vlog.replay import table_at
from vlog.table import Table
from vlog.vassal.commands import AddPiece, Setup, SetupStack, encode
from vlog.vassal.module import read_module
from vlog.vassal.savefile import Log, read_log

DICE_SUFFIXES = ("_result", "_total", "_keep", "_summary")


def snapshot(table: Table) -> dict:
    """What a save must keep: every piece's place and state, stack make-up, turns, players."""
    return {
        "pieces": {p.id: (p.type, p.map, p.x, p.y, p.parent is not None, p.comparable_state())
                   for p in table.game_pieces()},
        "stacks": sorted((p.point, p.children) for p in table.stacks()),
        "decks": sorted((p.id, p.point, p.children) for p in table.decks()),
        "turns": table.turns,
        "players": table.players,
        "boards": table.boards,
    }


def assert_same_table(saved: Table, replayed: Table) -> None:
    assert snapshot(saved) == snapshot(replayed)
    for key, value in saved.global_properties.items():
        assert replayed.global_properties[key] == value
    unsaved = set(replayed.global_properties) - set(saved.global_properties)
    assert all(name.endswith(DICE_SUFFIXES) for _, name in unsaved), unsaved


@pytest.fixture
def played(tmp_path):
    module = write_module(tmp_path / "mod")
    start_save(module, tmp_path / "start.vsav")
    (tmp_path / "play.vscript").write_text(SCRIPT, encoding="utf-8")
    write_log(tmp_path / "play.vscript", tmp_path / "play.vlog")
    return tmp_path, read_module(module), read_log(tmp_path / "play.vlog")


def test_every_step_saves_the_replayed_table(played):
    folder, module, log = played
    for n in range(len(log.steps) + 1):
        out = folder / f"step{n}.vsav"
        log_to_save(folder / "play.vlog", n, out, module=module)
        saved = vlog.read(out)
        assert not isinstance(saved, Log)
        assert_same_table(Table.from_save(saved, module), table_at(log, n, module))


def test_restore_block_layout(played):
    folder, module, log = played
    save = save_at(log, 7, module=module)
    top = save.commands.subs
    assert isinstance(save.commands, Setup) and isinstance(top[-1], Setup) and not top[-1].begin
    kinds = [type(c).__name__ for c in top]
    assert kinds[:2] == ["NullCommand", "NullCommand"] and "SetupStack" in kinds and "BoardPicker" in kinds
    assert any(isinstance(c, SetupStack) for c in top)
    adds = [c for c in top[1].subs if isinstance(c, AddPiece)]
    seen: set[str] = set()
    for add in adds:  # every stack after the pieces it lists
        if add.type == "stack":
            assert set(add.piece.piece_ids) <= seen
        seen.add(add.id)
    # Tank C and Inf A share the stack made by Inf A's drag; Inf B alone where it was
    stacks = [a for a in adds if a.type == "stack"]
    assert sorted(a.state for a in stacks) == ["Main Map;110;160;1001;1004;@@1", "Main Map;55;64;1002;@@1"]


def test_step_zero_is_the_starting_save(played):
    folder, module, log = played
    log_to_save(log, 0, folder / "zero.vsav")
    zero = vlog.read(folder / "zero.vsav")
    assert zero.text == vlog.read(folder / "start.vsav").text  # the same restore block


def test_bad_step_and_protected_input(played):
    folder, module, log = played
    with pytest.raises(OutputError, match="outside 0..16"):
        log_to_save(folder / "play.vlog", 17, folder / "x.vsav")
    with pytest.raises(OutputError, match="outside"):
        log_to_save(folder / "play.vlog", -1, folder / "x.vsav")
    before = (folder / "play.vlog").read_bytes()
    with pytest.raises(OutputError):
        log_to_save(folder / "play.vlog", 3, folder / "play.vlog")
    assert (folder / "play.vlog").read_bytes() == before
    assert not (folder / "x.vsav").exists()


def test_undone_steps_and_new_pieces(tmp_path):
    module = write_module(tmp_path / "mod")
    start_save(module, tmp_path / "start.vsav")
    text = SCRIPT.split("move")[0] + 'add "Inf B" at 0303\nmove "Inf A" along 0303\nundo\nremove "Tank C"\n'
    log = build_log(parse_text(text, path="s.vscript", folder=tmp_path))
    mod = read_module(module)
    for n in range(len(log.steps) + 1):
        save = save_at(log, n, module=mod)
        assert_same_table(Table.from_save(save, mod), table_at(log, n, mod))


@pytest.mark.parametrize("sample", sample_params("vasl-templates/*.vlog"))
def test_real_logs_save_the_replayed_table(sample, tmp_path):
    log = read_log(sample)
    n = len(log.steps)
    for step in sorted({1, n // 2, n}):
        if step == 0:
            continue
        out = tmp_path / f"s{step}.vsav"
        log_to_save(log, step, out)
        saved = vlog.read(out)
        assert_same_table(Table.from_save(saved), table_at(log, step))
        # the restore block keeps the real file's layout: the same top-level commands in order
        # (module-specific ones such as VASL's INFO verbatim), only pieces and values renewed
        kinds = [type(c).__name__ for c in saved.commands.subs]
        start_kinds = [type(c).__name__ for c in log.start.commands.subs]
        assert kinds == start_kinds
        for mine, theirs in zip(saved.commands.subs, log.start.commands.subs):
            if type(mine).__name__ in ("UnknownCommand", "Notes", "Ext", "Unmask", "BoardPicker"):
                assert encode(mine) == encode(theirs)


def test_pieces_come_and_go(tmp_path):
    """A start with no pieces gets its pieces token after the version check; a table emptied by
    the log writes none (VASSAL's Command.append drops an empty NullCommand)."""
    module = write_module(tmp_path / "mod")
    start_save(module, tmp_path / "start.vsav")
    mod = read_module(module)
    text = ("module mod\nstart start.vsav\nplayer Alice side Red\n"
            'remove "Inf A"\nremove "Inf B"\nremove "Tank C"\nadd "Tank C" at 0101\n')
    log = build_log(parse_text(text, folder=tmp_path))
    empty = save_at(log, 3, module=mod)
    assert not any(isinstance(c, AddPiece) for c in empty.restore_commands())
    assert "\x1b\x1b\\\x1b" not in empty.text  # no empty pieces token
    assert_same_table(Table.from_save(empty, mod), table_at(log, 3, mod))
    (tmp_path / "empty.vsav").write_bytes(b"")
    vlog.write(empty, tmp_path / "empty.vsav")
    (tmp_path / "again.vscript").write_text(
        "module mod\nstart empty.vsav\nplayer Alice side Red\nadd \"Inf A\" at 0303\n", encoding="utf-8")
    again = build_log(parse_text((tmp_path / "again.vscript").read_text(), folder=tmp_path))
    one = save_at(again, 1, module=mod)
    top = one.commands.subs
    assert isinstance(top[0], type(top[1])) and [type(c).__name__ for c in top[:2]] == ["NullCommand", "NullCommand"]
    assert_same_table(Table.from_save(one, mod), table_at(again, 1, mod))
