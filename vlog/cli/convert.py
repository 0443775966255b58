"""`vlog convert`: a save or log to its JSON form and back, or into another dialect.

The pair of extensions picks the conversion (converters/save_json.py). The output is written
atomically, never over the input, and never over an existing file unless `--force` is given.
"""
from __future__ import annotations

from pathlib import Path

import click

from vlog.cli._console import check_input, check_output_path, input_argument, warn

DIALECTS = ("vcsk", "vobs", "xz", "plain")


@click.command("convert")
@input_argument("input")
@click.argument("output", metavar="OUTPUT", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--dialect", type=click.Choice(DIALECTS, case_sensitive=False), default=None,
              help="How to store the savedGame member of a .vsav/.vlog written: VASSAL's !VCSK "
                   "(up to 3.7), VOBS or XZ (3.8), or plain text. Default: as read.")
@click.option("--key", type=click.IntRange(0, 255), default=None,
              help="Obfuscation key 0-255 for vcsk, 1-255 for vobs. Default: the key read.")
@click.option("--show-player-ids", is_flag=True,
              help="Keep the players' real ids in the JSON. They are passwords: do not share it.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists (never the input).")
@click.option("--step", type=click.IntRange(min=0), default=None,
              help="With a .vlog INPUT and a .vsav OUTPUT: the table after step N (0 = the log's start).")
def command(input: Path, output: Path, dialect: str | None, key: int | None,
            show_player_ids: bool, force: bool, step: int | None) -> None:
    """Convert a save or log: .vsav/.vlog <-> .json, or .vsav/.vlog re-written in another dialect.

    The JSON form (schemas/save.schema.json) keeps everything, so converting it back gives the
    same game. Player ids are passwords: the JSON replaces them by <player-N> unless
    --show-player-ids is given, and a file converted back from such JSON carries the
    placeholders, not the real ids.

    \b
    Examples:
      vlog convert turn3.vlog turn3.json
      vlog convert turn3.json turn3-edited.vlog
      vlog convert old.vsav new.vsav --dialect vobs
      vlog convert game.vlog game-plain.vlog --dialect plain --force
      vlog convert game.vlog turn3.vsav --step 42
      vlog convert opening.vscript opening.vlog
    """
    from converters.save_json import ConversionOptionError, convert, find_conversion
    from vlog.vassal.obfuscation import Dialect

    if step is not None or _is_script(input):
        _convert_play(input, output, step, force, dialect is not None or key is not None)
        return
    if find_conversion(input, output) is None:
        raise click.UsageError(
            f"cannot convert {input.name} to {output.name}: give .vsav/.vlog and .json, or two "
            f".vsav/.vlog files (the extensions choose the conversion)")
    target_is_json = output.suffix.lower() == ".json"
    if target_is_json and (dialect is not None or key is not None):
        raise click.UsageError("--dialect and --key apply to .vsav/.vlog output, not to JSON")
    if dialect in ("xz", "plain") and key is not None:
        raise click.UsageError(f"--key has no meaning with --dialect {dialect} (it is not obfuscated)")
    if dialect == "vobs" and key == 0:
        raise click.UsageError("--key must be 1-255 with --dialect vobs (0 would leave the text as is)")
    check_input(input)
    check_output_path(output, [input], force=force)
    try:
        result = convert(input, output, dialect=Dialect[dialect.upper()] if dialect else None,
                         key=key, show_player_ids=show_player_ids)
    except ConversionOptionError as exc:
        raise click.UsageError(f"{input}: {exc}") from None
    for message in result.warnings:
        warn(message)


def _is_script(path: Path) -> bool:
    """A play script (docs/script-format.md): NAME.vscript or NAME.vscript.json."""
    name = path.name.lower()
    return name.endswith(".vscript") or name.endswith(".vscript.json")


def _convert_play(input: Path, output: Path, step: int | None, force: bool, dialect_given: bool) -> None:
    """`--step N` (.vlog -> .vsav at step N) and script -> .vlog."""
    if dialect_given:
        raise click.UsageError("--dialect and --key do not apply to --step or to scripts "
                               "(a step save keeps the log's; a script names its own)")
    if step is not None and (input.suffix.lower() not in (".vlog", ".vsav") or output.suffix.lower() != ".vsav"):
        raise click.UsageError("--step converts a .vlog (or .vsav) to a .vsav")
    if step is None and output.suffix.lower() != ".vlog":
        raise click.UsageError("a script converts to a .vlog")
    check_input(input)
    check_output_path(output, [input], force=force)
    if step is not None:
        from converters.step_save import log_to_save
        log_to_save(input, step, output)
    else:
        from converters.log_writer import write_log
        write_log(input, output)
