"""`vlog refresh`: VASSAL's "Refresh Counters" for a save file, without opening VASSAL.

Each piece takes the module's current definition (matched by gpid, then by name) and keeps its
state (converters/refresh.py). Every piece matched by name (and what it became) and every piece
that could not be matched is reported on stderr; a save most of whose pieces match nothing in the
module is refused unless --force.
"""
from __future__ import annotations

from pathlib import Path

import click

from vlog.cli._console import check_input, check_output_path, input_argument, progress, warn


@click.command("refresh")
@input_argument("save")
@click.option("--module", "module", required=True, type=click.Path(path_type=Path),
              help="The module (.vmod, folder or buildFile) whose piece definitions to use.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the refreshed save (never the input).")
@click.option("--gpid-only", is_flag=True, help="Do not match pieces by name when no gpid matches.")
@click.option("--fix-gpid", is_flag=True, help="Give pieces matched by name the module piece's gpid.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists (never the input), and write it even "
              "when most pieces match no piece of the module.")
def command(save: Path, module: Path, output: Path, gpid_only: bool, fix_gpid: bool, force: bool) -> None:
    """Replace every piece's definition in SAVE by the one in the module, keeping its state.

    \b
    Examples:
      vlog refresh game.vsav --module game-v2.vmod -o game-refreshed.vsav
      vlog refresh game.vsav --module game-v2.vmod -o out.vsav --gpid-only
    """
    from converters.refresh import refresh_file

    check_input(save)
    check_output_path(output, [save, module], force=force)
    report = refresh_file(save, module, output, by_name=not gpid_only, fix_gpid=fix_gpid, force=force,
                          iterate=lambda pieces: progress(pieces, len(pieces), "refreshing"))
    for line in report.lines():
        warn(line)
    click.echo(f"{len(report.refreshed)} pieces refreshed ({report.changed} changed), "
               f"{len(report.unmatched)} not matched: {output}", err=True)
