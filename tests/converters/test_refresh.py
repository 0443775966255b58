"""Refresh against a changed module the test builds (synthetic: prototype renamed, Layer images
changed, a piece removed, a gpid changed): state kept, definitions replaced, the unmatched piece
reported, the input never overwritten."""
from __future__ import annotations

import pytest

import vlog
from converters.log_writer import write_log
from converters.refresh import refresh_file, refresh_save
from synthetic_vassal import STEP_NEW_IMAGES, start_save, write_module
from converters.step_save import log_to_save
from vlog.errors import OutputError
from vlog.table import Table
from vlog.vassal.module import read_module
from vlog.vassal.pieces import Embellishment


@pytest.fixture
def old_and_new(tmp_path):
    old = write_module(tmp_path / "old")
    write_module(tmp_path / "new", prototype_name="Unit v2", step_type=STEP_NEW_IMAGES,
                 pieces=(("Inf A", "1"), ("Inf B", "22")))
    start_save(old, tmp_path / "start.vsav")
    # a position worth keeping: Inf B reduced and moved, Inf A moved (written from a script)
    (tmp_path / "play.vscript").write_text(
        "module old\nstart start.vsav\nplayer Alice side Red\nclock 1738350000000\n"
        'move "Inf A" along 0203\nflip "Inf B"\nmove "Inf B" along 0303\n', encoding="utf-8")
    write_log(tmp_path / "play.vscript", tmp_path / "play.vlog")
    log_to_save(tmp_path / "play.vlog", 3, tmp_path / "game.vsav")
    return tmp_path


def test_definitions_replaced_state_kept(old_and_new):
    folder = old_and_new
    before_bytes = (folder / "game.vsav").read_bytes()
    report = refresh_file(folder / "game.vsav", folder / "new", folder / "refreshed.vsav")
    assert (folder / "game.vsav").read_bytes() == before_bytes
    old_module, new_module = read_module(folder / "old"), read_module(folder / "new")
    before = Table.from_save(vlog.read(folder / "game.vsav"), old_module)
    after = Table.from_save(vlog.read(folder / "refreshed.vsav"), new_module)
    for pid in ("1001", "1002", "1004"):
        b, a = before[pid], after[pid]
        assert (a.map, a.x, a.y, a.parent) == (b.map, b.x, b.y, b.parent)
        assert [layer.level for layer in a.layers] == [layer.level for layer in b.layers]
        assert a.piece.gpid == b.piece.gpid
    # Inf A and Inf B carry the new Layer images; Tank C, gone from the module, is unchanged
    for pid in ("1001", "1002"):
        layer = next(t for t in after[pid].piece.traits if isinstance(t, Embellishment))
        assert layer.images == ["full-v2.png", "reduced-v2.png"]
    assert after["1004"].type == before["1004"].type and after["1004"].state == before["1004"].state
    assert after["1002"].layers[0].level == 2 and after.location_name(after["1002"]) == "0303"
    # matched: Inf A by gpid, Inf B by name (its gpid is 22 in the new module); Tank C reported
    assert sorted((r.name, r.by, r.changed) for r in report.refreshed) == [
        ("Inf A", "gpid", True), ("Inf B", "name", True)]
    assert [(u.piece_id, u.name, u.gpid) for u in report.unmatched] == [("1004", "Tank C", "3")]
    assert any("Tank C" in line and "not refreshed" in line for line in report.lines())
    assert any("Inf B" in line and "by name" in line for line in report.lines())


def test_fix_gpid_and_gpid_only(old_and_new):
    folder = old_and_new
    save = vlog.read(folder / "game.vsav")
    module = read_module(folder / "new")
    fixed, report = refresh_save(save, module, fix_gpid=True)
    pieces = Table.from_save(fixed).pieces
    assert pieces["1002"].piece.gpid == "22" and pieces["1001"].piece.gpid == "1"
    strict, report = refresh_save(save, module, by_name=False)
    assert sorted(u.name for u in report.unmatched) == ["Inf B", "Tank C"]
    # the save given is not changed
    assert save.text == vlog.read(folder / "game.vsav").text


def test_same_module_changes_nothing(old_and_new):
    folder = old_and_new
    report = refresh_file(folder / "game.vsav", folder / "old", folder / "same.vsav")
    assert report.changed == 0 and not report.unmatched
    assert vlog.read(folder / "same.vsav").text == vlog.read(folder / "game.vsav").text


def test_never_overwrites_inputs(old_and_new):
    folder = old_and_new
    before = (folder / "game.vsav").read_bytes()
    with pytest.raises(OutputError):
        refresh_file(folder / "game.vsav", folder / "new", folder / "game.vsav")
    with pytest.raises(OutputError):
        refresh_file(folder / "game.vsav", folder / "new" / "buildFile.xml", folder / "new" / "buildFile.xml")
    assert (folder / "game.vsav").read_bytes() == before


def test_duplicate_gpids_are_reported(tmp_path, old_and_new):
    folder = old_and_new
    dup = write_module(tmp_path / "dup", pieces=(("Inf A", "1"), ("Inf B", "1"), ("Tank C", "3")))
    _, report = refresh_save(vlog.read(folder / "game.vsav"), read_module(dup))
    assert any("share gpid '1'" in p for p in report.problems)


def test_command_line(old_and_new, capsys):
    from vlog.cli import main
    folder = old_and_new
    out = folder / "cli.vsav"
    code = main(["refresh", str(folder / "game.vsav"), "--module", str(folder / "new"), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0 and out.exists()
    assert "Tank C" in err and "not refreshed" in err and "2 pieces refreshed (2 changed), 1 not matched" in err
    assert main(["refresh", str(folder / "game.vsav"), "--module", str(folder / "new"), "-o", str(out)]) == 3
    assert "already exists" in capsys.readouterr().err
    assert main(["refresh", str(folder / "game.vsav"), "--module", str(folder / "new"),
                 "-o", str(folder / "game.vsav"), "--force"]) == 3
    assert main(["refresh", str(folder / "absent.vsav"), "--module", str(folder / "new"), "-o", str(out), "--force"]) == 3
    assert main(["refresh", str(folder / "game.vsav"), "--module", str(folder / "absent"), "-o",
                 str(folder / "x.vsav")]) == 3
    assert not (folder / "x.vsav").exists()


from conftest import sample_params  # noqa: E402


@pytest.fixture(scope="module")
def nevsky_module():
    from conftest import SAMPLES
    return read_module(SAMPLES / "nevsky" / "buildFile.xml")


@pytest.mark.parametrize("sample", sample_params("nevsky/*.vsav"))
def test_real_saves_refreshed_against_their_module(sample, tmp_path, nevsky_module):
    """Real Nevsky scenarios against the Nevsky buildFile (a different module version, whose
    named key strokes carry other codes): every piece is refreshed or reported, and places,
    layer levels and property values are kept."""
    module = nevsky_module
    save = vlog.read(sample)
    out = tmp_path / "refreshed.vsav"
    refreshed, report = refresh_save(save, module)
    vlog.write(refreshed, out, protect=[sample])
    before, after = Table.from_save(save, module), Table.from_save(vlog.read(out), module)
    assert len(report.refreshed) + len(report.unmatched) == sum(1 for _ in before.game_pieces())
    assert report.changed > 0  # the saves come from another version of the module
    for p in before.game_pieces():
        q = after[p.id]
        assert (q.map, q.x, q.y, q.parent) == (p.map, p.x, p.y, p.parent)
        # a Layer keeps the state of the old Layer of the same name (its level, clamped by
        # VASSAL to the new definition's levels when shown)
        old_layers: dict[str, str | None] = {}
        for t in p.piece.traits_of(Embellishment):
            old_layers.setdefault(t.name, t.state)
        for t in q.piece.traits_of(Embellishment):
            if t.name in old_layers:
                assert t.state == old_layers[t.name]
        old_props = p.properties
        new_props = q.properties
        kept = {k for k in old_props if k in new_props and not _is_marker(p, k)}
        assert {k: new_props[k] for k in kept} == {k: old_props[k] for k in kept}


def _is_marker(piece, key):
    """Marker values come from the new definition (GpIdChecker.copyState skips Markers)."""
    from vlog.vassal.pieces import Marker
    return any(isinstance(t, Marker) and key in t.keys for t in piece.piece.traits)


def test_named_key_strokes_compare_by_name():
    from converters.refresh import _same_session_type
    a = "macro;Go;;57355,0,PLOP;;;57426\\,0\\,TriggerCreate;false"
    b = "macro;Go;;57354,0,PLOP;;;57427\\,0\\,TriggerCreate;false"
    assert _same_session_type(a) == _same_session_type(b)
    assert _same_session_type("macro;Go;;57354,0,PLOT;") != _same_session_type("macro;Go;;57354,0,PLOP;")
    for plain in ("emb2;Activate;2;65,130,Up;", "macro;x;;57355,0;;", "x;12345,0,Name;"):
        assert _same_session_type(plain) == plain


def test_a_piece_without_a_name_is_never_matched_by_name(old_and_new):
    """A piece whose gpid no module piece has and whose name is empty is left alone and
    reported, even when a module piece has no name either (no unnamed piece becomes another)."""
    from vlog.vassal.commands import AddPiece, NullCommand
    folder = old_and_new
    save = vlog.read(folder / "game.vsav")
    block = max((c for c in save.commands.subs if isinstance(c, NullCommand)), key=lambda c: len(c.subs))
    tank = next(c for c in block.subs if isinstance(c, AddPiece) and c.id == "1004")
    unnamed = AddPiece("2001", tank.type.replace("Tank C", ""), tank.state.replace(";3", ";77", 1))
    assert unnamed.piece.name == "" and unnamed.piece.gpid not in ("1", "2", "3")
    block.subs.append(unnamed)
    module = read_module(folder / "new")
    _, report = refresh_save(save, module)
    gone = [u for u in report.unmatched if u.piece_id == "2001"]
    assert gone and "no name to be matched by" in gone[0].reason
    assert all(r.piece_id != "2001" for r in report.refreshed)
    assert any(line.startswith("(no name) (id 2001") for line in report.lines())


def test_the_report_says_what_each_piece_matched_by_name_became(old_and_new, tmp_path):
    folder = old_and_new
    _, report = refresh_save(vlog.read(folder / "game.vsav"), read_module(folder / "new"))
    line = next(line for line in report.lines() if line.startswith("Inf B"))
    assert "refreshed by name: it became 'Inf B' (gpid '22')" in line and "first of" not in line
    # two module pieces named Inf B: the first is used, and the report says so
    write_module(tmp_path / "twice", prototype_name="Unit v2", step_type=STEP_NEW_IMAGES,
                 pieces=(("Inf A", "1"), ("Inf B", "22"), ("Inf B", "23")))
    _, report = refresh_save(vlog.read(folder / "game.vsav"), read_module(tmp_path / "twice"))
    inf_b = next(r for r in report.refreshed if r.name == "Inf B")
    assert (inf_b.slot_gpid, inf_b.shared_by) == ("22", 2)
    assert any("the first of 2 module pieces named 'Inf B'" in line for line in report.lines())


def test_a_save_most_of_whose_pieces_match_nothing_is_refused_unless_forced(old_and_new, capsys):
    from converters.refresh import RefreshRefused
    from vlog.cli import main
    folder = old_and_new
    write_module(folder / "other", pieces=(("Cavalry", "71"),))
    out = folder / "other.vsav"
    with pytest.raises(RefreshRefused, match=r"3 of its 3 pieces match no piece of the module .*--force"):
        refresh_file(folder / "game.vsav", folder / "other", out)
    assert not out.exists()
    assert main(["refresh", str(folder / "game.vsav"), "--module", str(folder / "other"), "-o", str(out)]) == 3
    assert "is it this game's module? Nothing was written" in capsys.readouterr().err and not out.exists()
    assert main(["refresh", str(folder / "game.vsav"), "--module", str(folder / "other"), "-o", str(out),
                 "--force"]) == 0
    assert out.exists() and "0 pieces refreshed (0 changed), 3 not matched" in capsys.readouterr().err
