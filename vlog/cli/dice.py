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
@format_option("text", "json")
@output_option()
def command(logs: tuple[Path, ...], module_path: Path | None, output_format: str,
            output: Path | None, force: bool = False) -> int:
    """Dice statistics across logs (.vlog): were each player's dice fair?

    A small p-value says the faces are unlikely under fair dice; it is a statistic, not proof.
    Rolls that cannot be counted (unknown number of sides) are listed, never dropped silently.

    \b
    Examples:
      vlog dice turn1.vlog turn2.vlog turn3.vlog
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
    text = renderer.render_json(stats) if output_format == "json" else renderer.render(stats)
    emit(text, output, inputs=[*logs, *([module_path] if module_path else [])], force=force)
    return 0
