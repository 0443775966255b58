"""fixtures/ is up to date with its scripts and the game data (python -m converters.fixtures),
staleness is judged on decoded content (not on deflate's bytes), and every fixture reads back."""
from __future__ import annotations

import io
import shutil
import zipfile
import zlib
from pathlib import Path

import pytest

from conftest import FIXTURES
from converters import fixtures as F
from converters.step_save import save_at
from vlog.replay import table_at
from vlog.table import Table
from vlog.vassal.module import read_module
from vlog.vassal.savefile import Log, read, read_log

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="fixtures/ is absent")
ONE_SET = (F.FixtureSet("island-of-death", "island-of-death"),)


def test_committed_fixtures_are_up_to_date():
    stale = F.stale_fixtures(FIXTURES)
    assert stale == [], ("fixtures out of date with their scripts or data; run `python -m converters.fixtures`: "
                         + ", ".join(f"{s.path} ({s.reason})" for s in stale))


def test_every_set_has_its_module_start_saves_and_logs():
    for fixture_set in F.FIXTURE_SETS:
        folder = FIXTURES / fixture_set.folder
        module = read_module(folder / F.module_name(fixture_set.game))
        assert module.maps and module.piece_slots
        starts = sorted(folder.glob("*-start.vsav"))
        assert starts, folder
        for start in starts:
            save = read(start)
            assert not isinstance(save, Log) and save.key == F.SAVE_KEY
            Table.from_save(save, module)
        for script in F.script_paths(FIXTURES, fixture_set):
            assert (FIXTURES / script.parent / F.log_name(script)).is_file()
    for game in F.GAMES:
        assert (FIXTURES / game / "demo.vscript").is_file()
        assert "# DEMO" in (FIXTURES / game / "demo.vscript").read_text(encoding="utf-8")


def test_lion_of_judah_demo_is_legal_play():
    """The demo a new user tries first is judged with no error (only POSSIBLE warnings naming data)."""
    from vlog.findings import Basis
    from vlog.games.base import find_game
    from vlog.replay import replay

    module = read_module(FIXTURES / "lion-of-judah" / "lion-of-judah.vmod")
    report = replay(read_log(FIXTURES / "lion-of-judah" / "demo.vlog"), module=module,
                    game=find_game("lion-of-judah"))
    found = [f for _, f in report.findings()]
    assert found and all(f.basis is Basis.POSSIBLE and f.evidence.get("depends_on") for f in found), found


@pytest.mark.parametrize("game", F.GAMES)
def test_demo_logs_replay_and_save_at_every_step(game):
    module = read_module(FIXTURES / game / F.module_name(game))
    log = read_log(FIXTURES / game / "demo.vlog")
    assert len(log.steps) >= 3
    for n in range(len(log.steps) + 1):
        saved = Table.from_save(save_at(log, n, module=module), module)
        replayed = table_at(log, n, module)
        assert {p.id: (p.map, p.x, p.y, p.comparable_state()) for p in saved.game_pieces()} == \
            {p.id: (p.map, p.x, p.y, p.comparable_state()) for p in replayed.game_pieces()}


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "island-of-death", root / "island-of-death")
    return root


def test_a_changed_script_or_missing_file_is_stale_and_regenerated(tmp_path, capsys):
    root = _copy(tmp_path)
    assert F.stale_fixtures(root, ONE_SET) == []
    script = root / "island-of-death" / "demo.vscript"
    script.write_text(script.read_text(encoding="utf-8").replace("roll 2d6 = 3,5", "roll 2d6 = 3,6"),
                      encoding="utf-8")
    (root / "island-of-death" / "hercules-start.vsav").unlink()
    expected = [F.Stale(Path("island-of-death/hercules-start.vsav"), "missing"),
                F.Stale(Path("island-of-death/demo.vlog"), "changed")]
    assert F.stale_fixtures(root, ONE_SET) == expected
    before = (root / "island-of-death" / "demo.vlog").read_bytes()
    assert F.regenerate(root, ONE_SET) == expected
    assert (root / "island-of-death" / "demo.vlog").read_bytes() != before
    assert F.stale_fixtures(root, ONE_SET) == []


def test_check_exits_1_and_lists_stale_files(tmp_path, capsys, monkeypatch):
    """The command on one game's sets (`--game`; the whole tree is checked by the test above)."""
    root = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "island-of-death", root / "island-of-death")
    module = root / "island-of-death" / "island-of-death.vmod"
    module.unlink()
    one = ["--root", str(root), "--game", "island-of-death"]
    assert F.main(["--check", *one]) == 1
    out, err = capsys.readouterr()
    assert out == f"stale (missing): {module}\n"
    assert "run `python -m converters.fixtures`" in err
    assert not module.exists()  # --check writes nothing
    assert F.main(one) == 0
    assert F.main(["--check", *one]) == 0
    capsys.readouterr()
    # another game's sets need that game's folder: its overlay is named as missing
    assert F.main(["--check", "--root", str(root), "--game", "ascari"]) == 3
    assert "ascari/synthetic-data: overlay folder does not exist" in capsys.readouterr().err


def _rezip(path: Path, *, level: int, png_level: int | None = None, change: str | None = None) -> None:
    """The same members deflated at another level (PNG images re-packed too), as another zlib
    would; `change` alters that member's plain bytes."""
    with zipfile.ZipFile(path) as zf:
        members = [(info, zf.read(info)) for info in zf.infolist()]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=level) as zf:
        for info, data in members:
            if png_level is not None and data.startswith(b"\x89PNG"):
                data = _repack_png(data, png_level)
            if info.filename == change:
                data = data.replace(b"Malta", b"Malte", 1)
            zf.writestr(zipfile.ZipInfo(info.filename, date_time=info.date_time), data)
    path.write_bytes(buf.getvalue())


def _repack_png(data: bytes, level: int) -> bytes:
    import struct

    pos, out, idat = 8, bytearray(data[:8]), bytearray()
    chunks = []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunks.append((kind, data[pos + 8:pos + 8 + length]))
        pos += 12 + length
    for kind, body in chunks:
        if kind == b"IDAT":
            idat += body
    raw = zlib.decompress(bytes(idat))
    for kind, body in chunks:
        if kind == b"IDAT":
            if idat is None:
                continue
            body, idat = zlib.compress(raw, level), None
        out += struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    return bytes(out)


def test_content_not_deflate_bytes_decides(tmp_path):
    root = _copy(tmp_path)
    module = root / "island-of-death" / "island-of-death.vmod"
    original = module.read_bytes()
    _rezip(module, level=1, png_level=1)
    assert module.read_bytes() != original
    assert F.stale_fixtures(root, ONE_SET) == []
    assert F.regenerate(root, ONE_SET) == []
    assert module.read_bytes() != original  # an unchanged fixture is left as it is
    _rezip(module, level=1, change="buildFile.xml")
    assert F.stale_fixtures(root, ONE_SET) == [F.Stale(Path("island-of-death/island-of-death.vmod"), "changed")]


def test_saved_game_is_compared_as_plain_text(tmp_path):
    root = _copy(tmp_path)
    start = root / "island-of-death" / "intro-start.vsav"
    content = F.decoded_content(start)
    saved_game = dict((name, plain) for name, _, plain in content)["savedGame"]
    assert saved_game.startswith(b"VCSK 90\n") and b"begin_save" in saved_game


def test_scripts_of_a_nested_set_belong_to_it_only(tmp_path):
    root = tmp_path / "fixtures"
    for rel in ("g/a.vscript", "g/sub/b.vscript.json", "g/inner/c.vscript", "g/data/d.vscript", "g/x.txt"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("")
    outer = F.FixtureSet("game", "g")
    inner = F.FixtureSet("game", "g/inner", ("g/data",))
    sets = (outer, inner)
    assert F.script_paths(root, outer, sets) == [Path("g/a.vscript"), Path("g/sub/b.vscript.json")]
    assert F.script_paths(root, inner, sets) == [Path("g/inner/c.vscript")]
    assert F.log_name(Path("g/sub/b.vscript.json")) == "b.vlog"


@pytest.mark.samples
def test_saves_and_logs_carry_the_metadata_of_real_files(samples_dir):
    """savedata and moduledata of every fixture save and log have the elements of a real log's
    (plus extra1/extra2, which VASSAL writes from 3.7.0), and the same zip members."""
    from lxml import etree

    with zipfile.ZipFile(samples_dir / "vasl-templates" / "3d6.vlog") as z:
        real_names = z.namelist()
        real = {m: [c.tag for c in etree.fromstring(z.read(m))] for m in ("savedata", "moduledata")}
    files = sorted(FIXTURES.glob("**/*.vsav")) + sorted(FIXTURES.glob("**/*.vlog"))
    assert files
    for path in files:
        with zipfile.ZipFile(path) as z:
            assert z.namelist() == real_names, path
            for member, tags in real.items():
                ours = [c.tag for c in etree.fromstring(z.read(member))]
                assert [t for t in ours if t not in ("extra1", "extra2")] == tags, (path, member)


def test_a_broken_script_names_itself_and_nothing_is_written(tmp_path, capsys):
    root = _copy(tmp_path)
    script = root / "island-of-death" / "demo.vscript"
    script.write_text(script.read_text(encoding="utf-8") + "move Nobody along 1310\n", encoding="utf-8")
    log = root / "island-of-death" / "demo.vlog"
    before = log.read_bytes()
    assert F.main(["--root", str(root), "--game", "island-of-death"]) == 3
    err = capsys.readouterr().err
    assert err.startswith(f"fixtures: error: {script}: line ") and "no piece named 'Nobody'" in err
    assert log.read_bytes() == before
