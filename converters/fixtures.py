"""Regenerate fixtures/ — the VASSAL files the project writes itself — deterministically.

Per game (a *fixture set*: a folder and the game data overlays it is built from) the folder holds
the module written from the game data (`<game>.vmod`), a starting save per scenario
(`<scenario>-start.vsav`, placed with that module) and, for every play script kept under the
folder (`NAME.vscript` or `NAME.vscript.json`), the log it describes (`NAME.vlog` beside it).
Every writer is deterministic (fixed obfuscation keys, dates, zip times; scripts fix their own
clock and key), so a fixture is stale exactly when regenerating it changes its content.

Content is compared decoded, not byte for byte, since deflate output may differ between zlib
versions: the zip members' names, order and times, each member's bytes after inflating, the
savedGame member as plain text, and PNG images by their inflated pixel data. A fixture whose
content is unchanged is left as it is.

    python -m converters.fixtures            # regenerate what is stale, list what changed
    python -m converters.fixtures --check    # exit 1 and list stale fixtures; writes nothing
    python -m converters.fixtures --game ascari   # only that game's fixture sets (repeatable)
"""
from __future__ import annotations

import argparse
import os
import shutil
import struct
import sys
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from vlog.errors import VlogError
from vlog.games import game_ids

__all__ = ["FIXTURES", "GAMES", "SAVE_KEY", "FixtureSet", "FIXTURE_SETS", "Stale", "generate", "stale_fixtures",
           "regenerate", "decoded_content", "module_name", "start_save_name", "log_name", "script_paths", "main"]

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
GAMES = game_ids()
SAVE_KEY = 0x5A
"""Obfuscation key of the starting saves (the setup writer's default)."""


@dataclass(frozen=True)
class FixtureSet:
    """A folder of fixtures (relative to the fixtures root) and the game data it is built from."""

    game: str
    folder: str
    overlays: tuple[str, ...] = ()
    """Overlay folders of game data (relative to the fixtures root), applied in order."""


FIXTURE_SETS: tuple[FixtureSet, ...] = (
    *(FixtureSet(game, game) for game in GAMES),
    FixtureSet("lion-of-judah", "lion-of-judah/synthetic", ("lion-of-judah/synthetic-data",)),
    FixtureSet("island-of-death", "island-of-death/synthetic", ("island-of-death/synthetic-data",)),
    FixtureSet("ascari", "ascari/synthetic", ("ascari/synthetic-data",)),
    FixtureSet("sideshow", "sideshow/synthetic", ("sideshow/synthetic-data",)),
)
"""The shipped data of each game, and each game also completed by synthetic data (not the published
charts; see fixtures/<game>/synthetic-data/README.md)."""


def module_name(game: str) -> str:
    return f"{game}.vmod"


def start_save_name(scenario: str) -> str:
    return f"{scenario}-start.vsav"


def log_name(script: Path) -> str:
    """`NAME.vscript` and `NAME.vscript.json` give `NAME.vlog`."""
    name = script.name
    for suffix in (".vscript.json", ".vscript"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] + ".vlog"
    raise ValueError(f"not a play script: {script}")


def script_paths(root: Path, fixture_set: FixtureSet, sets: Sequence[FixtureSet] = FIXTURE_SETS) -> list[Path]:
    """The set's play scripts, relative to `root`: any under its folder, except those in the
    folder of another set or in an overlay folder."""
    folder = root / fixture_set.folder
    if not folder.is_dir():
        return []
    others = [root / s.folder for s in sets if s != fixture_set] + [root / o for s in sets for o in s.overlays]
    excluded = [ex for ex in others if folder in ex.parents]
    found: list[Path] = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or not path.name.lower().endswith((".vscript", ".vscript.json")):
            continue
        if any(ex in path.parents for ex in excluded):
            continue
        found.append(path.relative_to(root))
    return found


def generate(root: Path, out: Path, sets: Sequence[FixtureSet] = FIXTURE_SETS) -> list[Path]:
    """Writes every fixture of `sets` under `out` (an empty folder) from the sources under
    `root` (scripts and overlays); returns the fixtures' paths relative to `out`.

    The files under `root` are copied first, so scripts find their modules and saves (and any
    other file they name) at the same relative places; each fixture is then written fresh."""
    from converters.log_writer import write_log
    from converters.setup_writer import write_setup
    from converters.vmod_writer import write_module
    from vlog.gamedata import load_game_data

    if root.is_dir():
        shutil.copytree(root, out, dirs_exist_ok=True)
    written: list[Path] = []

    def fresh(rel: Path) -> Path:
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.unlink()
        written.append(rel)
        return path

    for fixture_set in sets:
        overlays = [root / o for o in fixture_set.overlays]
        data = load_game_data(fixture_set.game, overlays=overlays)
        folder = Path(fixture_set.folder)
        module = fresh(folder / module_name(fixture_set.game))
        write_module(data, module)
        for scenario in data.scenario_ids:
            write_setup(data, scenario, fresh(folder / start_save_name(scenario)), module=module, key=SAVE_KEY)
    for fixture_set in sets:
        for script in script_paths(root, fixture_set, sets):
            try:
                write_log(out / script, fresh(script.parent / log_name(script)))
            except VlogError as exc:  # name the script where it is kept, not its working copy
                shown = exc.file
                if shown and Path(shown).is_relative_to(out):
                    shown = os.fspath(root / Path(shown).relative_to(out))
                raise type(exc)(exc.message, file=shown, where=exc.where) from None
    return written


# -- comparing decoded content ---------------------------------------------------------------

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_plain(data: bytes) -> bytes:
    """A PNG's chunks with the IDAT stream inflated (what the image shows, not how deflate packed it)."""
    pos, out, idat = len(_PNG_SIGNATURE), bytearray(_PNG_SIGNATURE), bytearray()
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IDAT":
            idat += body
            continue
        if idat:
            out += b"IDAT" + zlib.decompress(bytes(idat))
            idat.clear()
        out += kind + body
    if idat:
        out += b"IDAT" + zlib.decompress(bytes(idat))
    return bytes(out)


def _member_plain(name: str, data: bytes) -> bytes:
    if name == "savedGame":
        from vlog.vassal.obfuscation import deobfuscate

        text, dialect, key = deobfuscate(data, member=name)
        return f"{dialect.name} {key}\n".encode() + text.encode("utf-8")
    if data.startswith(_PNG_SIGNATURE):
        return _png_plain(data)
    return data


def decoded_content(path: Path) -> list[tuple[str, tuple[int, ...], bytes]]:
    """A fixture's content as it reads: (member name, zip time, plain bytes) in member order;
    a file that is not a zip is one member named ''."""
    data = path.read_bytes()
    if not zipfile.is_zipfile(path):
        return [("", (), data)]
    with zipfile.ZipFile(path) as zf:
        return [(info.filename, tuple(info.date_time), _member_plain(info.filename, zf.read(info)))
                for info in zf.infolist()]


def _same_content(a: Path, b: Path) -> bool:
    try:
        return decoded_content(a) == decoded_content(b)
    except (OSError, zipfile.BadZipFile, zlib.error, struct.error, VlogError):
        return a.read_bytes() == b.read_bytes()


@dataclass(frozen=True)
class Stale:
    """A fixture that regenerating would write: `reason` is `missing` or `changed`."""

    path: Path
    reason: str


def _compare(root: Path, out: Path, written: Iterable[Path]) -> list[Stale]:
    stale = []
    for rel in written:
        committed = root / rel
        if not committed.exists():
            stale.append(Stale(rel, "missing"))
        elif not _same_content(committed, out / rel):
            stale.append(Stale(rel, "changed"))
    return stale


def stale_fixtures(root: Path = FIXTURES, sets: Sequence[FixtureSet] = FIXTURE_SETS) -> list[Stale]:
    """The fixtures under `root` that are missing or out of date with their scripts and data."""
    with tempfile.TemporaryDirectory(prefix="vlog-fixtures-") as tmp:
        out = Path(tmp) / "fixtures"
        written = generate(root, out, sets)
        return _compare(root, out, written)


def regenerate(root: Path = FIXTURES, sets: Sequence[FixtureSet] = FIXTURE_SETS) -> list[Stale]:
    """Rewrites the stale fixtures under `root` (each atomically); returns what it wrote."""
    from vlog.vassal.archive import atomic_write_bytes

    with tempfile.TemporaryDirectory(prefix="vlog-fixtures-") as tmp:
        out = Path(tmp) / "fixtures"
        written = generate(root, out, sets)
        stale = _compare(root, out, written)
        for item in stale:
            target = root / item.path
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(target, (out / item.path).read_bytes())
        return stale


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m converters.fixtures",
                                     description="Regenerate the generated files under fixtures/.")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 and list the fixtures that are stale")
    parser.add_argument("--root", type=Path, default=FIXTURES, help="the fixtures folder (default: %(default)s)")
    parser.add_argument("--game", action="append", choices=GAMES, metavar="GAME",
                        help=f"only this game's fixture sets (repeatable; one of {', '.join(GAMES)})")
    args = parser.parse_args(argv)
    sets = tuple(s for s in FIXTURE_SETS if args.game is None or s.game in args.game)
    try:
        stale = stale_fixtures(args.root, sets) if args.check else regenerate(args.root, sets)
    except VlogError as exc:
        print(f"fixtures: error: {exc}", file=sys.stderr)
        return 3
    for item in stale:
        shown = os.fspath(args.root / item.path)
        print(f"{'stale' if args.check else 'wrote'} ({item.reason}): {shown}")
    if args.check and stale:
        print(f"{len(stale)} fixture(s) out of date; run `python -m converters.fixtures`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
