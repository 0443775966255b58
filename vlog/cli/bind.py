"""`vlog bind`: draft a game's VASSAL bindings from a real module and say what did not match."""
from __future__ import annotations

import json
from pathlib import Path

import click

from vlog.cli._console import (check_input, check_output_path, format_option, input_argument, json_text,
                               printable, stdout_console, write_atomic)
from vlog.gamedata import GAMES

EXIT_NOTHING_MATCHED = 3
NOTHING_MATCHED = ("vlog: error: none of the {n} pieces of module {module!r} matches a counter of {game}: it is "
                   "not a module of that game (check --game); {output} was not written")
_SHOWN_PER_KIND = 40   # unmatched items listed per kind in text output (all are in --format json)
_KINDS = (("piece", "pieces"), ("layer", "layers"), ("location", "locations"), ("turn", "turn tracker levels"))


@click.command("bind", epilog="GAME is one of: " + ", ".join(sorted(GAMES)) + ".")
@input_argument("module")
@click.option("--game", required=True, metavar="GAME", help="The game whose data the module is matched to.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The bindings file to write (JSON, schemas/gamedata/bindings.schema.json).")
@click.option("--data", "overlays", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="Overlay folder of .json data files completing the shipped data (repeatable).")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists (never an input).")
@format_option("text", "json")
def command(module: Path, game: str, output: Path, overlays: tuple[Path, ...], force: bool,
            output_format: str) -> int:
    """Draft the bindings of MODULE (.vmod, module folder or buildFile.xml) to a game's data.

    Piece names and gpids are matched to counters (gpids and names already bound in the game's
    bindings or a --data overlay, printed names, unit designations, factors such as 5-7-4 in the
    name, side words in the palette), layer levels to step levels or
    faces, the names the map grids give to locations to hexes and boxes, and the turn
    tracker's levels to turns and phases. The report (standard output) counts what matched
    and lists what did not, and the mappings taken only from the order of layer levels.
    Review the file, then use its folder as an overlay: vlog data status GAME --data FOLDER.
    A module none of whose pieces matches a counter is no module of the game: nothing is
    written and the exit status is 3.

    \b
    Examples:
      vlog bind LionOfJudah.vmod --game lion-of-judah -o bindings/binding.json
      vlog bind module/buildFile.xml --game ascari -o ascari-binding.json --format json
      vlog data status lion-of-judah --data bindings
    """
    from vlog.binding import draft_binding
    from vlog.gamedata import load_game_data, validate_document
    from vlog.vassal.module import read_module

    if not module.is_dir():
        check_input(module)
    inputs = [module, *overlays]
    check_output_path(output, inputs, force=force)
    game_data = load_game_data(game, overlays=overlays)
    read = read_module(module)
    draft = draft_binding(read, game_data, module_file=module.name)
    validate_document("bindings", draft.document, str(output))
    nothing = bool(draft.seen["piece"]) and not draft.matched["piece"]
    if not nothing:
        data = (json.dumps(draft.document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
        check_output_path(output, inputs, force=force)
        write_atomic(output, data, inputs=inputs)
    console = stdout_console()
    code = 0
    if nothing:
        click.echo(NOTHING_MATCHED.format(n=draft.seen["piece"], module=f"{read.name} {read.version}".strip(),
                                          game=game_data.game, output=output), err=True)
        code = EXIT_NOTHING_MATCHED
    if output_format.lower() == "json":
        console.out(json_text({"output": None if nothing else str(output), **draft.report_json()}), end="",
                    highlight=False)
        return code
    lines = [f"{read.name} {read.version} -> {game_data.game} ({game_data.title}): "
             + ("nothing matched, nothing written" if nothing else f"wrote {output}")]
    for kind, label in _KINDS:
        missed = sum(1 for u in draft.unmatched if u.kind == kind)
        lines.append(f"  {label}: {draft.matched[kind]} of {draft.seen[kind]} matched, {missed} not matched")
    for kind, label in _KINDS:
        items = [u for u in draft.unmatched if u.kind == kind]
        if not items:
            continue
        lines.append("")
        lines.append(f"{label} not matched ({len(items)}):")
        for u in items[:_SHOWN_PER_KIND]:
            shown = f"  {u.name!r} ({u.where}): {u.reason}"
            if u.candidates and u.kind != "turn":
                shown += " [" + ", ".join(u.candidates[:8]) + (" ..." if len(u.candidates) > 8 else "") + "]"
            lines.append(shown)
        if len(items) > _SHOWN_PER_KIND:
            lines.append(f"  ... and {len(items) - _SHOWN_PER_KIND} more (--format json lists all)")
    if draft.to_confirm:
        lines.append("")
        lines.append(f"to confirm ({len(draft.to_confirm)}):")
        lines += [f"  {item}" for item in draft.to_confirm]
    if draft.notes:
        lines.append("")
        lines.append("notes:")
        lines += [f"  {note}" for note in draft.notes]
    console.out(printable("\n".join(lines) + "\n", keep_newlines=True), end="", highlight=False)
    return code
