"""`vlog where`: the location name VASSAL gives a map point, or the point of a location name."""
from __future__ import annotations

from pathlib import Path

import click

from vlog.errors import VlogError


class WhereError(VlogError):
    """The question cannot be answered: no such map, or a name the map's grids cannot place."""


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("module", type=click.Path(exists=False, dir_okay=True, path_type=Path))
@click.argument("x", type=int, required=False)
@click.argument("y", type=int, required=False)
@click.option("--map", "map_name", required=True, help="The map's mapName, as piece states name it.")
@click.option("--name", "location", default=None, help="A location name to turn into its pixel centre.")
@click.option("--extension", "extensions", multiple=True, type=click.Path(path_type=Path),
              help="An extension (.vmdx) to layer onto the module; repeatable.")
def command(module: Path, x: int | None, y: int | None, map_name: str, location: str | None,
            extensions: tuple[Path, ...]) -> None:
    """Name a point of a map exactly as VASSAL would, or find the centre of a named location.

    MODULE is a .vmod/.vmdx, an unpacked module folder or a buildFile(.xml). With X Y (map
    pixels, board offsets and map edges included) it prints VASSAL's location name for that
    point ("offboard" when no board holds it); with --name it prints the point "X Y".

    \b
    Examples:
      vlog where VLE.vmod --map "Main Map" 983 987
      vlog where VLE.vmod --map "Main Map" --name 0908
    """
    from vlog.vassal.grids import LocationError
    from vlog.vassal.module import read_module

    if location is None and (x is None or y is None):
        raise click.UsageError("give X and Y, or --name NAME")
    if location is not None and (x is not None or y is not None):
        raise click.UsageError("give either X and Y or --name, not both")
    mod = read_module(module, extensions=extensions)
    mp = mod.find_map(map_name)
    try:
        if location is not None:
            px, py = mp.location_center(location)
            click.echo(f"{px} {py}")
        else:
            click.echo(mp.location_name(x, y))
    except LocationError as e:
        raise WhereError(e.message, file=str(module), where=f"map {map_name!r}") from None
