"""`vlog dice`: every die roll in one or many logs, per player and kind of roll: counts, mean,
face histogram and a chi-square test against fair dice (text or JSON).

Rolls are read from the DiceButton reports in the logs' chat, with the module's report formats
when --module is given and VASSAL's default formats otherwise.
"""
from __future__ import annotations

from pathlib import Path

import click

from vlog.cli._console import check_input, emit, format_option, output_option


@click.command("dice")
@click.argument("logs", nargs=-1, required=True, metavar="LOG...", type=click.Path(path_type=Path))
@click.option("--module", "module_path", type=click.Path(path_type=Path), default=None,
              help="The module the logs were written with (its dice buttons' report formats).")
@click.option("--rolls", "list_rolls", is_flag=True, help="List every roll with its log and step.")
@format_option("text", "json")
@output_option()
def command(logs: tuple[Path, ...], module_path: Path | None, list_rolls: bool, output_format: str,
            output: Path | None, force: bool = False) -> int:
    """Dice statistics across logs (.vlog): were each player's dice fair?

    Rolls are grouped by player and kind of roll, by the roll's name (its dice button: IFT, TH,
    Combat ...) and by kind for everyone. A small p-value says the faces are unlikely under fair
    dice; it is a statistic, not proof. Testing many groups finds small p-values by chance, so
    "p adj." corrects each family's p-values for the number of groups it tests (Holm's step-down
    method). Rolls that cannot be counted (unknown number of sides) are listed, never dropped
    silently.

    \b
    Examples:
      vlog dice turn1.vlog turn2.vlog turn3.vlog
      vlog dice turn1.vlog --rolls
      vlog dice *.vlog --module LionOfJudah.vmod --format json -o dice.json
    """
    import vlog
    from vlog.dice_rolls import dice_rolls
    from vlog.dicestats import dice_stats
    from vlog.report import dice as renderer

    for path in logs:
        check_input(path)
    module = None
    if module_path is not None:
        from vlog.vassal.module import read_module

        check_input(module_path)
        module = read_module(module_path)
    rolls = []
    for path in logs:
        obj = vlog.read(path)
        if isinstance(obj, vlog.vassal.savefile.Log):
            rolls.extend(dice_rolls(obj, module=module, name=str(path)))
    stats = dice_stats(rolls)
    shown = rolls if list_rolls else None
    text = (renderer.render_json(stats, rolls=shown) if output_format == "json"
            else renderer.render(stats, rolls=shown))
    emit(text, output, inputs=[*logs, *([module_path] if module_path else [])], force=force)
    return 0
