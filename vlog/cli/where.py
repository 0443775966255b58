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
@click.option("--game", "game_name", default=None, metavar="GAME",
              help="Name the hexes of boards the module draws without a grid by the calibrations this "
                   "game's bindings record (as `vlog check --game` names them).")
@click.option("--data", "overlays", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              metavar="DIR", help="With --game: a game data overlay folder (its bindings' calibrations); repeatable.")
def command(module: Path, x: int | None, y: int | None, map_name: str, location: str | None,
            extensions: tuple[Path, ...], game_name: str | None = None, overlays: tuple[Path, ...] = ()) -> None:
    """Name a point of a map exactly as VASSAL would, or find the centre of a named location.

    MODULE is a .vmod/.vmdx, an unpacked module folder or a buildFile(.xml). With X Y (map
    pixels, board offsets and map edges included) it prints VASSAL's location name for that
    point ("offboard" when no board holds it); with --name it prints the point "X Y". With
    --game, a board the module draws without a grid is named by the calibration the game's
    bindings record for it (--data adds overlays), as `vlog check` names it; a calibration only
    proposed by `vlog bind` is said so on stderr.

    \b
    Examples:
      vlog where VLE.vmod --map "Main Map" 983 987
      vlog where VLE.vmod --map "Main Map" --name 0908
      vlog where Ascari.vmod --map "Main Map" 640 410 --game ascari --data my-bindings
    """
    from vlog.calibration import calibrated_map, proposed_words
    from vlog.cli.check import game_calibrations
    from vlog.vassal import grids as G
    from vlog.vassal.module import read_module

    if location is None and (x is None or y is None):
        raise click.UsageError("give X and Y, or --name NAME")
    if location is not None and (x is not None or y is not None):
        raise click.UsageError("give either X and Y or --name, not both")
    if overlays and game_name is None:
        raise click.UsageError("--data applies only with --game")
    mod = read_module(module, extensions=extensions)
    mp = mod.find_map(map_name)
    try:
        boards, decks, proposed = calibrated_map(mp, None, game_calibrations(game_name, overlays, mod))
        if location is not None:
            x, y = G.map_location_center(boards, location)
            click.echo(f"{x} {y}")
        else:
            click.echo(G.map_location_name(boards, x, y, decks))
    except G.LocationError as e:
        raise WhereError(e.message, file=str(module), where=f"map {map_name!r}") from None
    board = G.find_board(boards, x, y)
    if board is not None and board.name in proposed:
        click.echo(f"vlog: note: {proposed_words([proposed[board.name]])}", err=True)
