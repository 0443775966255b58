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
@click.option("--save", "save_paths", type=click.Path(dir_okay=False, path_type=Path), multiple=True,
              help="A scenario's starting save on MODULE: where pieces begin is evidence for their counters, and "
                   "fits a calibration for a board that has no grid (repeatable: one per board).")
@click.option("--hex", "hex_args", multiple=True, metavar="NAME=HEX",
              help="A piece of a --save and the hex it was put on, as the printed map numbers it (repeatable): "
                   "what calibrates a board without a grid whose scenarios set up by areas (four or more "
                   "pieces, in two or more columns and rows).")
@click.option("--review", is_flag=True,
              help="Walk through what is uncertain: prompts on a terminal; otherwise the list of questions "
                   "with the ids to answer (give them with --answers).")
@click.option("--answers", "answers_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Review answers, JSON: {question id: counter id, box id, null, \"confirm\" or a mapping}.")
@format_option("text", "json")
def command(module: Path, game: str, output: Path, overlays: tuple[Path, ...], force: bool,
            save_paths: tuple[Path, ...], hex_args: tuple[str, ...], review: bool, answers_path: Path | None,
            output_format: str) -> int:
    """Draft the bindings of MODULE (.vmod, module folder or buildFile.xml) to a game's data.

    Piece names and gpids are matched to counters (gpids and names already bound in the game's
    bindings or a --data overlay, printed names, unit designations, factors such as 5-7-4 in the
    name, side words in the palette), layer levels to step levels or
    faces, the names the map grids give to locations to hexes and boxes, and the turn
    tracker's levels to turns and phases; a board without a grid gets a calibration fitted to
    the --save pieces a scenario sets up at known hexes, or to the pieces named with --hex (on a
    board whose scenarios set up by areas: put four or more pieces on printed hexes in VASSAL,
    save, and name each with the hex it stands on). The report (standard output) counts what matched
    and lists what did not, and the mappings taken only from the order of layer levels.
    Review the file, then use its folder as an overlay: vlog data status GAME --data FOLDER.
    A module none of whose pieces matches a counter is no module of the game: nothing is
    written and the exit status is 3.

    With --review (and --answers), pieces no counter fits clearly are answered first (each
    with its candidates ranked by evidence), the draft is made again with them, and then the
    locations no hex or box is named like (renamed boxes, the boxes ranked by their names) are
    answered and the layers and turn tracker phases taken from their order are confirmed;
    `vlog data ids GAME` lists the ids to answer with.

    \b
    Examples:
      vlog bind LionOfJudah.vmod --game lion-of-judah -o bindings/binding.json
      vlog bind LionOfJudah.vmod --game lion-of-judah -o bindings/binding.json --save start.vsav --review
      vlog bind module/buildFile.xml --game ascari -o ascari-binding.json --format json
      vlog bind Ascari.vmod --game ascari -o ascari/bindings.json --save s2.vsav --save s3.vsav --save s4.vsav
      vlog bind Ascari.vmod --game ascari -o metemma.json --save placed.vsav --hex "1 Rifle IB=2304" --hex ...
      vlog data status lion-of-judah --data bindings
    """
    from vlog.binding import draft_binding
    from vlog.gamedata import load_game_data, validate_document
    from vlog.vassal.module import read_module

    if not module.is_dir():
        check_input(module)
    inputs = [module, *overlays, *save_paths]
    hexes = _hexes(hex_args, save_paths)
    check_output_path(output, inputs, force=force)
    game_data = load_game_data(game, overlays=overlays)
    read = read_module(module)
    import vlog

    save = []
    for save_path in save_paths:
        check_input(save_path)
        save.append(vlog.read(save_path))
    draft = draft_binding(read, game_data, module_file=module.name, save=save, hexes=hexes)
    answers = _read_answers(answers_path) if answers_path is not None else {}
    asked = applied = 0
    if review or answers:
        draft, asked, applied = _review(draft, answers, prompt=review and _interactive(),
                                        redraft=lambda doc: _redraft(doc, read, game, overlays, module.name, save, hexes),
                                        counter_ids=set(game_data.counter_ids),
                                        box_ids={box["id"] for board in game_data.documents["map"]["maps"]
                                                 for box in board["boxes"]},
                                        answers_file=str(answers_path) if answers_path is not None else None)
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
        report = {"output": None if nothing else str(output), **draft.report_json()}
        if review or answers:
            from vlog.binding_review import questions

            report["review"] = {"asked": asked, "applied": applied,
                                "questions": [q.to_json() for q in questions(draft)]}
        console.out(json_text(report), end="", highlight=False)
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
    if review or answers:
        from vlog.binding_review import questions

        left = questions(draft)
        lines.append("")
        lines.append(f"review: {applied} answers applied of {asked} questions; {len(left)} left")
        for q in left:
            lines.append(f"  {q.id}: {q.text}")
            lines += [f"      {answer}  {why}" for answer, why in q.choices]
        if left:
            lines.append("  (answer with --answers FILE, JSON {question id: answer}; null = no counter (no place) of the game; "
                         f"vlog data ids {game_data.game} lists the ids)")
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


def _hexes(args: tuple[str, ...], saves: tuple[Path, ...]) -> dict[str, str]:
    """--hex NAME=HEX values: piece name -> hex; a malformed one, a name given two hexes or --hex
    without --save is a usage error."""
    out: dict[str, str] = {}
    for arg in args:
        name, sep, hex_ = arg.rpartition("=")
        name, hex_ = name.strip(), hex_.strip()
        if not sep or not name or not hex_.isdigit():
            raise click.BadParameter(f"{arg!r}: give a piece's name and its printed hex, e.g. \"1 Rifle IB=2304\"",
                                     param_hint="--hex")
        if out.get(name.casefold(), hex_) != hex_:
            raise click.BadParameter(f"{name!r} is given two hexes", param_hint="--hex")
        out[name.casefold()] = hex_
    if out and not saves:
        raise click.UsageError("--hex names pieces of a save: give the save with --save")
    return out


def _interactive() -> bool:
    import sys

    return sys.stdin.isatty() and sys.stdout.isatty()


def _read_answers(path: Path) -> dict:
    from vlog.errors import GameDataError

    check_input(path)
    try:
        answers = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GameDataError(f"cannot read the answers ({exc})", file=str(path)) from None
    if not isinstance(answers, dict):
        raise GameDataError("the answers must be a JSON object {question id: answer}", file=str(path))
    return answers


def _redraft(document: dict, module, game: str, overlays: tuple[Path, ...], module_file: str, save,  # type: ignore[no-untyped-def]
             hexes: dict[str, str]):
    """The draft made again with the answered pieces as current bindings (their layers drafted too)."""
    import tempfile

    from vlog.binding import draft_binding
    from vlog.gamedata import load_game_data

    with tempfile.TemporaryDirectory(prefix="vlog-bind-") as folder:
        (Path(folder) / "bindings.json").write_text(json.dumps(document), encoding="utf-8")
        data = load_game_data(game, overlays=(*overlays, Path(folder)))
        return draft_binding(module, data, module_file=module_file, save=save, hexes=hexes)


def _ask(question) -> object:  # type: ignore[no-untyped-def]
    """One question on the terminal: a number of the list, an id, '-' for none, Enter to skip."""
    click.echo(f"\n{question.id}: {question.text}")
    for n, (answer, why) in enumerate(question.choices, 1):
        click.echo(f"  {n}. {answer}  {why}")
    none = {"piece": ", - for no counter of the game", "location": ", - for no place of the game"}
    hint = "number or id" + none.get(question.kind, "")
    reply = click.prompt(f"answer ({hint}; Enter skips)", default="", show_default=False).strip()
    if not reply:
        return _SKIP
    if reply == "-" and question.kind in none:
        return None
    if reply.isdigit() and 1 <= int(reply) <= len(question.choices):
        return question.choices[int(reply) - 1][0]
    return reply


_SKIP = object()


def _review(draft, answers: dict, *, prompt: bool, redraft, counter_ids: set[str],  # type: ignore[no-untyped-def]
            box_ids: set[str], answers_file: str | None = None):
    """Pieces answered first, the draft made again, then its locations, layers and phases: (draft,
    asked, applied).

    An answer to no question of either round is an error naming it (a mistyped id, or answers kept
    from another module), so no answer is lost without a word."""
    from vlog.binding_review import apply_answers, questions
    from vlog.errors import GameDataError

    asked = applied = 0
    seen: set[str] = set()
    for round_ in (1, 2):
        pending = [q for q in questions(draft) if (q.kind == "piece") == (round_ == 1)]
        seen.update(q.id for q in pending)
        asked += len(pending)
        chosen = {q.id: answers[q.id] for q in pending if q.id in answers}
        if prompt:
            for q in pending:
                if q.id not in chosen and (reply := _ask(q)) is not _SKIP:
                    chosen[q.id] = reply
        applied += apply_answers(draft, chosen, counter_ids, box_ids)
        if round_ == 1 and any(q.startswith("piece:") for q in chosen):
            draft = redraft(draft.document)
    unknown = [qid for qid in answers if qid not in seen]
    if unknown:
        shown = ", ".join(repr(q) for q in unknown[:5]) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
        raise GameDataError(f"{len(unknown)} answer(s) to no question of this module's draft: {shown}; "
                            "vlog bind --review lists the question ids", file=answers_file)
    return draft, asked, applied
