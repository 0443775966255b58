"""`vlog convert`: every conversion between the files vlog reads and writes.

The kinds of the two files pick the conversion (converters/save_json.py `CONVERSIONS`); with
`--game` there is no input file and the output is built from the game's data. `--step N` (a log
to a save at step N) is the one conversion chosen by an option. The output is written
atomically, never over an input, and never over an existing file unless `--force` is given.
"""
from __future__ import annotations

from pathlib import Path

import click

from vlog.cli._console import check_input, check_output_path, printable, stderr_console, warn

DIALECTS = ("vcsk", "vobs", "xz", "plain")


@click.command("convert")
@click.argument("files", metavar="[INPUT] OUTPUT", nargs=-1, required=True,
                type=click.Path(path_type=Path))
@click.option("--dialect", type=click.Choice(DIALECTS, case_sensitive=False), default=None,
              help="How to store the savedGame member of a .vsav/.vlog written: VASSAL's !VCSK "
                   "(up to 3.7), VOBS or XZ (3.8), or plain text. Default: as read.")
@click.option("--key", type=click.IntRange(0, 255), default=None,
              help="Obfuscation key 0-255 for vcsk, 1-255 for vobs. Default: the key read "
                   "(0x5A for a save built from game data).")
@click.option("--show-player-ids", is_flag=True,
              help="Keep the players' real ids in the JSON. They are passwords: do not share it.")
@click.option("--referee", is_flag=True,
              help="Keep masked and invisible pieces as they are in the JSON (reveals hidden units; "
                   "needed to convert the JSON back).")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists (never an input).")
@click.option("--step", type=click.IntRange(min=0), default=None,
              help="With a .vlog INPUT and a .vsav OUTPUT: the table after step N (0 = the log's start).")
@click.option("--game", default=None, metavar="GAME",
              help="Build OUTPUT (.vmod or .vsav) from this game's data; no INPUT is given.")
@click.option("--scenario", default=None, metavar="ID",
              help="With --game: the scenario (needed for a .vsav; for a .vmod, its turns and phases).")
@click.option("--data", "overlays", multiple=True, metavar="DIR",
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="With --game: overlay folder of .json data completing the shipped data (repeatable).")
@click.option("--module", "module", default=None, metavar="MODULE",
              type=click.Path(path_type=Path),
              help="With --game and a .vsav OUTPUT: place the pieces of this module "
                   "(default: the module --game builds for the scenario).")
def command(files: tuple[Path, ...], dialect: str | None, key: int | None, show_player_ids: bool,
            referee: bool, force: bool, step: int | None, game: str | None, scenario: str | None,
            overlays: tuple[Path, ...], module: Path | None) -> None:
    """Convert between saves, logs, modules, scripts, game data and JSON.

    \b
    INPUT -> OUTPUT pairs (the names' extensions choose the conversion):
      .vsav/.vlog -> .json      the save or log as JSON (schemas/save.schema.json)
      .json -> .vsav/.vlog      back again
      .vsav/.vlog -> same kind  re-written in another --dialect / --key
      .vlog -> .vsav --step N   the table after step N of the log
      module -> .json           a .vmod, .vmdx, unpacked folder, buildFile.xml or
                                buildFile as JSON (schemas/module.schema.json)
      .vscript -> .vlog         a play script (.vscript or .vscript.json,
                                docs/script-format.md) as a log
      --game G -> .vmod         a module built from the game's data (notes on stderr)
      --game G --scenario S -> .vsav
                                the scenario's starting position

    The JSON of a save or log keeps everything a side may see, so converting it back gives the
    same game. Player ids are passwords: the JSON replaces them by <player-N> unless
    --show-player-ids is given, and a file converted back from such JSON carries the
    placeholders. Masked and invisible pieces are shown only as concealed (no type or state)
    unless --referee is given; JSON with concealed pieces cannot be converted back.

    \b
    Examples:
      vlog convert turn3.vlog turn3.json
      vlog convert turn3.vlog turn3-all.json --referee
      vlog convert turn3.json turn3-edited.vlog
      vlog convert old.vsav new.vsav --dialect vobs
      vlog convert game.vlog game-plain.vlog --dialect plain --force
      vlog convert game.vlog turn3.vsav --step 42
      vlog convert opening.vscript opening.vlog
      vlog convert lion.vmod module.json
      vlog convert --game lion-of-judah lion.vmod
      vlog convert --game lion-of-judah --scenario 1935-36 --data my-data lion-1935.vmod
      vlog convert --game lion-of-judah --scenario 1935-36 --module lion.vmod start.vsav
    """
    from converters.save_json import ConversionOptionError, convert, file_kind, find_conversion
    from vlog.vassal.obfuscation import Dialect

    if game is not None:
        _convert_game_data(files, game, scenario, overlays, module, dialect, key, force)
        return
    for name, given in (("--scenario", scenario), ("--module", module)):
        if given is not None:
            raise click.UsageError(f"{name} applies only with --game")
    if overlays:
        raise click.UsageError("--data applies only with --game")
    if len(files) != 2:
        raise click.UsageError("give INPUT and OUTPUT (or --game GAME and OUTPUT alone)")
    input, output = files
    if step is not None or _is_script(input):
        _convert_play(input, output, step, force, dialect is not None or key is not None)
        return
    if find_conversion(input, output) is None:
        raise click.UsageError(
            f"cannot convert {input.name} to {output.name}: see `vlog convert --help` for the "
            f"pairs (the extensions choose the conversion)")
    target_is_json = output.suffix.lower() == ".json"
    if referee and not target_is_json:
        raise click.UsageError("--referee applies to JSON output (VASSAL files keep concealed pieces as VASSAL does)")
    if target_is_json and (dialect is not None or key is not None):
        raise click.UsageError("--dialect and --key apply to .vsav/.vlog output, not to JSON")
    if dialect in ("xz", "plain") and key is not None:
        raise click.UsageError(f"--key has no meaning with --dialect {dialect} (it is not obfuscated)")
    if dialect == "vobs" and key == 0:
        raise click.UsageError("--key must be 1-255 with --dialect vobs (0 would leave the text as is)")
    if not input.is_dir():  # an unpacked module folder is an input too
        check_input(input)
    check_output_path(output, [input], force=force)
    try:
        result = convert(input, output, dialect=Dialect[dialect.upper()] if dialect else None,
                         key=key, show_player_ids=show_player_ids, referee=referee)
    except ConversionOptionError as exc:
        raise click.UsageError(f"{input}: {exc}") from None
    for message in result.warnings:
        warn(message)
    if file_kind(input) == "vassal" and file_kind(output) == "vassal":  # JSON holds what it was given
        written = dialect or getattr(getattr(result.obj, "dialect", None), "name", "").lower()
        _warn_secrets(result.obj, output, readable=written in ("plain", "xz"))


CLEAR_WARNING = (
    "{out} holds {what}{how}: a VASSAL file must hold everything to be played on; share it "
    "only with whom you would share the original")


def _warn_secrets(obj: object, output: Path, *, readable: bool) -> None:
    """Says on stderr that a VASSAL file written holds the players' ids and concealed pieces."""
    from vlog.vassal.privacy import concealed_commands, player_ids

    commands = getattr(obj, "commands", None)
    if commands is None:
        return
    what = [w for w, present in (("the players' real ids (passwords)", bool(player_ids(commands))),
                                 ("the masked and invisible pieces", bool(concealed_commands(commands))))
            if present]
    if what:
        warn(CLEAR_WARNING.format(out=output, what=" and ".join(what),
                                  how=" in readable text" if readable else ""))


def _is_script(path: Path) -> bool:
    """A play script (docs/script-format.md): NAME.vscript or NAME.vscript.json."""
    name = path.name.lower()
    return name.endswith(".vscript") or name.endswith(".vscript.json")


def _convert_play(input: Path, output: Path, step: int | None, force: bool, dialect_given: bool) -> None:
    """`--step N` (.vlog -> .vsav at step N) and script -> .vlog."""
    if dialect_given:
        raise click.UsageError("--dialect and --key do not apply to --step or to scripts "
                               "(a step save keeps the log's; a script names its own)")
    from converters.save_json import file_kind

    if step is not None and (file_kind(input) != "vassal" or output.suffix.lower() != ".vsav"):
        raise click.UsageError("--step converts a .vlog (or .vsav) to a .vsav")
    if step is None and output.suffix.lower() != ".vlog":
        raise click.UsageError("a script converts to a .vlog")
    check_input(input)
    check_output_path(output, [input], force=force)
    if step is not None:
        import vlog
        from converters.step_save import log_to_save
        from vlog.vassal.savefile import Log, read

        source = vlog.read(input)
        steps = len(source.steps) if isinstance(source, Log) else 0
        if step > steps:                      # a usage mistake (exit 2), not unreadable input
            raise click.BadParameter(f"{input} has {steps} steps: give 0..{steps}", param_hint="--step")
        log_to_save(source if isinstance(source, Log) else input, step, output)
        _warn_secrets(read(output), output, readable=False)
    else:
        from converters.save_json import convert
        convert(input, output)


def _convert_game_data(files: tuple[Path, ...], game: str, scenario: str | None, overlays: tuple[Path, ...],
                       module: Path | None, dialect: str | None, key: int | None, force: bool) -> None:
    """`--game G [--scenario S] OUT.vmod` and `--game G --scenario S [--module M] OUT.vsav`."""
    from converters.save_json import ConversionOptionError, convert

    if len(files) != 1:
        raise click.UsageError("with --game, give only OUTPUT (a .vmod or .vsav); the game data is the input")
    output = files[0]
    suffix = output.suffix.lower()
    if suffix not in (".vmod", ".vsav"):
        raise click.UsageError(f"--game builds a .vmod or a .vsav, not {output.name}")
    if suffix == ".vmod" and (module is not None or key is not None):
        raise click.UsageError("--module and --key apply to a .vsav built from game data")
    if suffix == ".vsav" and scenario is None:
        raise click.UsageError("a .vsav built from game data needs --scenario (see `vlog games`)")
    if dialect is not None:
        raise click.UsageError("--dialect does not apply with --game (a save built from game data is !VCSK)")
    inputs: list[Path] = list(overlays)
    if module is not None:
        if not module.is_dir():
            check_input(module)
        inputs.append(module)
    check_output_path(output, inputs, force=force)
    try:
        result = convert(None, output, game=game, scenario=scenario, overlays=overlays, module=module, key=key)
    except ConversionOptionError as exc:
        raise click.UsageError(str(exc)) from None
    console = stderr_console()
    for note in result.notes:
        console.out(f"vlog: note: {printable(note)}", highlight=False)
