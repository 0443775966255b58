"""Saves and logs to and from their JSON form, and re-written in another dialect.

The conversion is chosen by the two files' kinds (`file_kind`) from `CONVERSIONS`, one function per
pair, so new conversions are added as new rows: saves and logs to and from JSON, a module to JSON,
a play script to a log, and game data (no input file, kind `game`) to a module or a starting save.
Every writer is atomic and refuses to replace its inputs.
The JSON is `vlog.vassal.jsonform` (schemas/save.schema.json); player ids are passwords, so they
are replaced by `<player-N>` unless the caller asks to keep them, and the JSON says so.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from vlog.errors import OutputError, VlogError
from vlog.vassal import jsonform
from vlog.vassal.obfuscation import Dialect
from vlog.vassal.privacy import player_ids
from vlog.vassal.savefile import Log, Save, read, write

__all__ = [
    "ConversionOptionError", "VASSAL_SUFFIXES", "JSON_SUFFIXES", "MAX_JSON_BYTES", "Conversion", "CONVERSIONS", "file_kind",
    "find_conversion", "load", "read_json", "json_document", "write_json", "convert",
    "REDACTED_WARNING", "SUPPORTED", "MODULE_SUFFIXES", "MODULE_FILE_NAMES", "SCRIPT_SUFFIXES", "GAME",
]

VASSAL_SUFFIXES = (".vsav", ".vlog")
JSON_SUFFIXES = (".json",)
MODULE_SUFFIXES = (".vmod", ".vmdx")
MODULE_FILE_NAMES = ("buildfile.xml", "buildfile")
"""A bare buildFile is a module too (compared in lower case)."""
SCRIPT_SUFFIXES = (".vscript", ".vscript.json")
GAME = "game"
"""The source kind of conversions from game data: they have no input file."""
MAX_JSON_BYTES = 1 << 30
"""Largest JSON file read (the JSON of the largest real saves is a few tens of MB)."""

REDACTED_WARNING = (
    "player ids are replaced by <player-N> placeholders (they are passwords); a save or log "
    "converted back from this JSON will carry the placeholders, not the real ids "
    "(use --show-player-ids to keep them)")


@dataclass
class Conversion:
    """What one conversion did: the object read or built, warnings and notes for the user."""

    source: Path | None
    target: Path
    obj: object
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What a module or save built from game data had to leave out or assume."""


def file_kind(path: str | os.PathLike | None) -> str | None:
    """The kind of file by its name: `vassal` (.vsav/.vlog, or an existing file of another name
    holding a save or log), `script` (.vscript, .vscript.json), `json`, `module` (.vmod/.vmdx,
    buildFile.xml, buildFile, or an existing folder); `game` for no file (game data); None for
    anything else."""
    if path is None:
        return GAME
    p = Path(path)
    name = p.name.lower()
    if name.endswith(SCRIPT_SUFFIXES):
        return "script"
    if p.suffix.lower() in VASSAL_SUFFIXES:
        return "vassal"
    if p.suffix.lower() in JSON_SUFFIXES:
        return "json"
    if p.suffix.lower() in MODULE_SUFFIXES or name in MODULE_FILE_NAMES or p.is_dir():
        return "module"
    if _holds_saved_game(p):  # VASSAL 2.9-3.0 `.sav` and `.log`, or any name: by content
        return "vassal"
    return None


def _holds_saved_game(path: Path) -> bool:
    """True for an existing zip with a savedGame member: a save or log whatever its name, as
    VASSAL opens it (GameState.loadGame reads the archive, not the extension)."""
    from vlog.vassal.archive import is_special_file, open_archive

    try:
        if not path.is_file() or is_special_file(path):
            return False
        return open_archive(path).has("savedGame")
    except (VlogError, OSError):
        return False


def _read_json_document(path: str | os.PathLike) -> object:
    from vlog.vassal.archive import read_regular_file

    shown = os.fspath(path)
    data = read_regular_file(path, MAX_JSON_BYTES, shown, jsonform.JsonFormError)
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise jsonform.JsonFormError(f"not UTF-8 text (byte {exc.start})", file=shown) from None
    except json.JSONDecodeError as exc:
        raise jsonform.JsonFormError(f"not valid JSON: {exc.msg}", file=shown,
                                     where=f"line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise jsonform.JsonFormError("JSON nested too deeply", file=shown) from None
    return doc


def _from_document(doc: object, path: str | os.PathLike) -> Save:
    shown = os.fspath(path)
    try:
        return jsonform.from_json(doc)  # type: ignore[arg-type]
    except VlogError as exc:
        raise type(exc)(exc.message, file=shown, where=exc.where) from None
    except RecursionError:
        raise jsonform.JsonFormError("commands nested too deeply", file=shown) from None


def read_json(path: str | os.PathLike) -> Save:
    """A Save or Log from its JSON form; anything malformed raises a VlogError naming the file."""
    return _from_document(_read_json_document(path), path)


def load(path: str | os.PathLike) -> Save:
    """Reads a .vsav/.vlog, or the JSON form of one, by extension (other names read as VASSAL)."""
    if file_kind(path) == "json":
        return read_json(path)
    return read(path)


CONCEALED_WARNING = (
    "{n} command(s) of masked or invisible pieces are shown only as concealed (no type or state), "
    "so this JSON cannot be converted back to a VASSAL file (use --referee to keep them)")


def json_document(obj: Save, *, show_player_ids: bool = False, referee: bool = False) -> dict:
    """The JSON form of `obj`; with redaction (the default) it states `player_ids_redacted`, and
    without `referee` it shows concealed pieces as a side sees them (`concealed_redacted`)."""
    return jsonform.to_json(obj, redact_player_ids=not show_player_ids, referee=referee)


def write_json(obj: Save, target: Path, *, show_player_ids: bool = False, referee: bool = False,
               protect: tuple[Path, ...] = ()) -> list[str]:
    """Writes the JSON form atomically; returns the warnings to show."""
    from vlog.vassal.archive import atomic_write_bytes

    doc = json_document(obj, show_player_ids=show_player_ids, referee=referee)
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    atomic_write_bytes(target, text.encode("utf-8"), protect=protect)
    warnings = []
    if not show_player_ids and player_ids(obj.commands):
        warnings.append(REDACTED_WARNING)
    concealed = text.count('"concealed": "')
    if concealed:
        warnings.append(CONCEALED_WARNING.format(n=concealed))
    return warnings


def _check_kind_matches(obj: Save, target: Path) -> None:
    suffix = target.suffix.lower()
    if isinstance(obj, Log) and suffix == ".vsav":
        raise OutputError(
            "the input is a log; write it to a .vlog file (turning a log into a save at a "
            "given step is a different conversion)", file=str(target))
    if not isinstance(obj, Log) and suffix == ".vlog":
        raise OutputError("the input is a save, not a log; write it to a .vsav file",
                          file=str(target))


class ConversionOptionError(ValueError):
    """An option does not fit the file being written (a key for a plain-text dialect)."""


def _check_key(obj: Save, dialect: Dialect | None, key: int | None) -> None:
    target = dialect or obj.dialect
    if key is None:
        return
    if target in (Dialect.PLAIN, Dialect.XZ):
        raise ConversionOptionError(
            f"a key has no meaning for the {target.name} dialect (it is not obfuscated); "
            f"leave out --key or choose --dialect vcsk or vobs")
    if target is Dialect.VOBS and not 1 <= key <= 255:
        raise ConversionOptionError("the VOBS dialect needs a key 1-255")
    if not 0 <= key <= 255:
        raise ConversionOptionError("a key is a number 0-255")


def _write_vassal(obj: Save, target: Path, dialect: Dialect | None, key: int | None,
                  protect: tuple[Path, ...]) -> None:
    _check_kind_matches(obj, target)
    _check_key(obj, dialect, key)
    write(obj, target, dialect=dialect, key=key, protect=protect)


def vassal_to_json(source: Path, target: Path, *, show_player_ids: bool = False, referee: bool = False,
                   **_: object) -> Conversion:
    obj = read(source)
    warnings = write_json(obj, target, show_player_ids=show_player_ids, referee=referee, protect=(source,))
    return Conversion(source, target, obj, warnings)


def json_to_vassal(source: Path, target: Path, *, dialect: Dialect | None = None,
                   key: int | None = None, **_: object) -> Conversion:
    doc = _read_json_document(source)
    obj = _from_document(doc, source)
    redacted = isinstance(doc, dict) and doc.get("player_ids_redacted") is not False
    _write_vassal(obj, target, dialect, key, (source,))
    warnings = []
    if redacted and player_ids(obj.commands):
        warnings.append(
            "this JSON has its player ids replaced by <player-N> placeholders; the file written "
            "carries the placeholders, not the real ids, so players must re-join their sides "
            "in VASSAL")
    return Conversion(source, target, obj, warnings)


def vassal_to_vassal(source: Path, target: Path, *, dialect: Dialect | None = None,
                     key: int | None = None, **_: object) -> Conversion:
    obj = read(source)
    _write_vassal(obj, target, dialect, key, (source,))
    return Conversion(source, target, obj, [])


def module_to_json_file(source: Path, target: Path, **_: object) -> Conversion:
    """A module (.vmod/.vmdx, folder, buildFile) as JSON (schemas/module.schema.json)."""
    from converters.module_json import module_to_json
    from vlog.vassal.archive import atomic_write_bytes
    from vlog.vassal.module import read_module

    module = read_module(source)
    text = json.dumps(module_to_json(module), ensure_ascii=False, indent=2) + "\n"
    atomic_write_bytes(target, text.encode("utf-8"), protect=(source,))
    return Conversion(source, target, module, [f"{source}: {p}" for p in module.problems])


def script_to_log(source: Path, target: Path, **_: object) -> Conversion:
    """A play script (docs/script-format.md) as the .vlog VASSAL would write."""
    from converters.log_writer import write_log

    if target.suffix.lower() != ".vlog":
        raise OutputError("a script is written as a log; give a .vlog file", file=str(target))
    write_log(source, target)
    return Conversion(source, target, None)


def _game_data(game: str | None, overlays: tuple[Path, ...], target: Path):
    from vlog.gamedata import load_game_data

    if not game:
        raise ConversionOptionError(f"writing {target.name} from game data needs the game (--game)")
    return load_game_data(game, overlays=list(overlays))


def game_to_module(source: None, target: Path, *, game: str | None = None, scenario: str | None = None,
                   overlays: tuple[Path, ...] = (), **_: object) -> Conversion:
    """The module vmod_writer builds from a game's data (for one scenario when given)."""
    from converters.vmod_writer import write_module

    if target.suffix.lower() != ".vmod":
        raise OutputError("a module built from game data is written as a .vmod", file=str(target))
    build = write_module(_game_data(game, overlays, target), target, scenario=scenario, protect=overlays)
    return Conversion(None, target, build, notes=list(build.notes))


def game_to_save(source: None, target: Path, *, game: str | None = None, scenario: str | None = None,
                 overlays: tuple[Path, ...] = (), module: Path | None = None, key: int | None = None,
                 **_: object) -> Conversion:
    """A scenario's starting position as a .vsav (pieces of `module`, else of the module written
    for the game and scenario)."""
    from converters.setup_writer import write_setup

    if target.suffix.lower() != ".vsav":
        raise OutputError("a scenario's setup is written as a save; give a .vsav file", file=str(target))
    if not scenario:
        raise ConversionOptionError(f"writing {target.name} from game data needs the scenario (--scenario)")
    if key is not None and not 0 <= key <= 255:
        raise ConversionOptionError("a key is a number 0-255")
    report = write_setup(_game_data(game, overlays, target), scenario, target, module=module,
                         key=0x5A if key is None else key, protect=overlays)
    return Conversion(None, target, report, notes=[*report.notes, *report.unplaced])


CONVERSIONS: dict[tuple[str, str], Callable[..., Conversion]] = {
    ("vassal", "json"): vassal_to_json,
    ("json", "vassal"): json_to_vassal,
    ("vassal", "vassal"): vassal_to_vassal,
    ("module", "json"): module_to_json_file,
    ("script", "vassal"): script_to_log,
    (GAME, "module"): game_to_module,
    (GAME, "vassal"): game_to_save,
}
"""(source kind, target kind) -> conversion; kinds come from `file_kind` (`game`: no input file).
A log to a save at step N is `converters.step_save.log_to_save`, chosen by an option."""


def find_conversion(source: str | os.PathLike | None,
                    target: str | os.PathLike) -> Callable[..., Conversion] | None:
    """The conversion for these two file names (`source` None: from game data), None when the
    pair is not supported."""
    pair = (file_kind(source), file_kind(target))
    if None in pair:
        return None
    return CONVERSIONS.get(pair)  # type: ignore[arg-type]


SUPPORTED = (".vsav/.vlog <-> .json, .vsav/.vlog -> .vsav/.vlog, module (.vmod/.vmdx/folder/buildFile) "
             "-> .json, .vscript -> .vlog, game data -> .vmod or .vsav")


def convert(source: str | os.PathLike | None, target: str | os.PathLike, *,
            dialect: Dialect | None = None, key: int | None = None,
            show_player_ids: bool = False, referee: bool = False, game: str | None = None,
            scenario: str | None = None, overlays: tuple[str | os.PathLike, ...] = (),
            module: str | os.PathLike | None = None) -> Conversion:
    """Converts `source` to `target` as their kinds say (see `CONVERSIONS`); `source` None
    builds `target` from the data of `game` (with `overlays`, for `scenario`)."""
    src, dst = (None if source is None else Path(source)), Path(target)
    fn = find_conversion(src, dst)
    if fn is None:
        shown = "game data" if src is None else (src.suffix or "a file without extension")
        raise OutputError(f"no conversion from {shown} to {dst.suffix or 'a file without extension'}; "
                          f"supported: {SUPPORTED}", file=str(dst))
    return fn(src, dst, dialect=dialect, key=key, show_player_ids=show_player_ids, referee=referee, game=game,
              scenario=scenario, overlays=tuple(Path(o) for o in overlays),
              module=None if module is None else Path(module))
