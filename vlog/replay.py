"""The one driver loop: a log's steps applied to a table, judged on the way, gathered in a Report.

For each step (one top-level LOG token, one Step-Forward click in VASSAL) the driver applies
the step's commands once, whatever the verdict, and, when a game is given, hands it the tables
before and after the step in one `vlog.kit.steps.StepView` (`Context.view`): the game says what
the step does (`interpret`) and whether that is legal (`check`); it never re-applies a step. The
end of the log is a view too (no step, the final table). Each call into the game is guarded: an
exception becomes a `vlog/internal` warning (vlog/checks/internal.py) and the replay goes on.
Undo steps are applied like any other (they carry VASSAL's inverse commands); which earlier step
each one took back is worked out as `BasicLogger.undo` chooses it.

Checks every log gets (vlog/checks) run on what the replay gathered: undos after die rolls,
continuity with a previous file, module mismatch and entries that could not be read.
`Replay.state_at(step)` rebuilds the table after any step from the nearest checkpoint.
"""
from __future__ import annotations

import os
import sys
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from vlog import coverage as binding_coverage
from vlog import taken_back
from vlog.checks import GENERIC_CHECKS, continuity, internal, module_mismatch, undo_after_roll, unparsed
from vlog.dice_rolls import DiceReportReader, module_buttons
from vlog.dicestats import DiceRoll, dice_stats
from vlog.findings import BINDING_PREFIX, NEEDS_MODULE, NOT_BOUND, OTHER_SCENARIO, CheckInfo, Finding, LogResult, Report, Tally
from vlog.games.base import Clock, Context, Game
from vlog.kit.steps import Position, StepView, occasion_noun
from vlog.table import Table
from vlog.vassal.commands import (
    AddPiece, ChangePiece, Chat, Command, MovePiece, MutableProperty, RemovePiece, TurnState,
)
from vlog.vassal.privacy import Redactor, player_ids
from vlog.vassal.savefile import Log, Save, Step

__all__ = ["Replay", "UndoRecord", "replay", "replay_log", "table_at", "start_table",
           "track_undos", "checks_run", "statuses", "log_result", "module_label", "CHECKPOINT_EVERY"]

CHECKPOINT_EVERY = 256
"""Steps between stored tables: `state_at` replays at most this many steps from a checkpoint."""
MAX_CHECKPOINTS = 128
"""Tables kept at most; a longer log spaces them further apart (memory stays bounded)."""

_UNDOABLE = (AddPiece, RemovePiece, MovePiece, ChangePiece, Chat, MutableProperty, TurnState)
"""Commands whose VASSAL undo is not null: a step holding one moves BasicLogger's undo pointer."""


@dataclass(frozen=True, slots=True)
class UndoRecord:
    """An undo step and the step it took back (None: a step from before this log began).

    `matched` says the undo's inverse commands concern the same pieces and properties as the
    step taken back; `located_by` is "undo order" (BasicLogger's pointer) or "inverse commands"
    (the pointer disagreed and the step was found by what the undo reverses). `marked` is False
    for an undo written before VASSAL bracketed undos with `UNDO` markers, recognised because
    its commands are exactly the inverse of the step the pointer names.
    """

    step: int
    target: int | None
    matched: bool
    located_by: str
    marked: bool = True
    reports_undo: bool = True
    """The undo step shows VASSAL's `* UNDO: ` chat line (it took back a step with chat)."""


UNDO_CHAT = "* UNDO: "
"""`Chatter.undo_message`: what the undo of a chat line or report shows."""


def _keys(commands: Iterable[Command]) -> frozenset[str]:
    """What a step touches: piece ids and property names (the inverse of a step touches the same)."""
    out: set[str] = set()
    for c in commands:
        if isinstance(c, (AddPiece, RemovePiece, MovePiece, ChangePiece)) and c.id is not None:
            out.add("piece:" + c.id)
        elif isinstance(c, MutableProperty):
            out.add(f"property:{c.container}:{c.name}")
        elif isinstance(c, TurnState):
            out.add("turn:" + c.tracker_id)
    return frozenset(out)


def _signature(c: Command) -> tuple | None:
    """A command as a comparable tuple (None for commands an undo never holds)."""
    if isinstance(c, MovePiece):
        return ("M", c.id, c.new_map, c.new_x, c.new_y, c.new_under, c.old_map, c.old_x, c.old_y,
                c.old_under)
    if isinstance(c, ChangePiece):
        return ("D", c.id, c.new_state, c.old_state)
    if isinstance(c, MutableProperty):
        return ("P", c.name, c.old, c.new, c.container)
    if isinstance(c, Chat):
        return ("C", c.text)
    if isinstance(c, AddPiece):
        return ("+", c.id)
    if isinstance(c, RemovePiece):
        return ("-", c.id)
    if isinstance(c, TurnState):
        return ("T", c.tracker_id)
    return None


def _inverse(c: Command) -> tuple | None:
    """The signature of VASSAL's undo of one command (`myUndoCommand`)."""
    if isinstance(c, MovePiece):
        return ("M", c.id, c.old_map, c.old_x, c.old_y, c.old_under, c.new_map, c.new_x, c.new_y,
                c.new_under)
    if isinstance(c, ChangePiece):
        return None if c.old_state is None else ("D", c.id, c.old_state, c.new_state)
    if isinstance(c, MutableProperty):
        return ("P", c.name, c.new, c.old, c.container)
    if isinstance(c, Chat):
        return ("C", UNDO_CHAT + c.text)
    if isinstance(c, AddPiece):
        return ("-", c.id)
    if isinstance(c, RemovePiece):
        return ("+", c.id)
    if isinstance(c, TurnState):
        return ("T", c.tracker_id)
    return None


def _is_inverse(candidate: Sequence[Command], of: Sequence[Command]) -> bool:
    """True when `candidate` is exactly what `Command.getUndoCommand` writes for `of`: the
    inverses in reverse order (turn tracker states compared by tracker only)."""
    if not candidate:
        return False
    first = _signature(candidate[0])      # most steps are no undo: told by their first command
    if first is None or first != next((sig for sig in (_inverse(c) for c in reversed(of)) if sig is not None), None):
        return False
    expected = [sig for sig in (_inverse(c) for c in reversed(of)) if sig is not None]
    got = [_signature(c) for c in candidate]
    return bool(expected) and got == expected


def track_undos(steps: Sequence[Step]) -> list[UndoRecord]:
    """Which step each undo took back, as `BasicLogger.undo` picks it: the last step with an
    undoable command, then one step further back for each undo in a row.

    Undo steps are those VASSAL marks with `UNDO true`/`UNDO false`, and, in logs without any
    such marker (written before VASSAL had them), steps whose commands are exactly the inverse
    of the step the undo pointer names.
    """
    records: list[UndoRecord] = []
    undo_steps: set[int] = set()
    legacy = not any(s.is_undo for s in steps)   # a log with markers marks all its undos
    next_undo = -1
    for i, step in enumerate(steps):
        marked = step.is_undo
        inverse = step.undo_commands if marked else step.commands
        if not marked:
            if not legacy or next_undo < 0 or not _is_inverse(inverse, steps[next_undo].commands):
                if any(isinstance(c, _UNDOABLE) for c in step.commands):
                    next_undo = i
                continue
        undo_steps.add(i)
        undo_keys = _keys(inverse)
        target = next_undo if next_undo >= 0 else None
        matched = target is not None and (
            _keys(steps[target].commands) == undo_keys if marked else True)
        located_by = "undo order"
        if not matched and undo_keys:
            for j in range(i - 1, -1, -1):
                if j not in undo_steps and _keys(steps[j].commands) == undo_keys:
                    target, matched, located_by = j, True, "inverse commands"
                    break
        reports = any(isinstance(c, Chat) and c.text.startswith(UNDO_CHAT) for c in inverse)
        records.append(UndoRecord(step.index, None if target is None else steps[target].index,
                                  matched, located_by, marked, reports))
        if next_undo >= 0:
            next_undo -= 1
    return records


def start_table(obj: Save, module: object | None = None) -> Table:
    """The table a save holds, or a log's starting position."""
    return Table.from_save(obj.start if isinstance(obj, Log) else obj, module)


@dataclass
class Replay:
    """A replayed log: its steps, tables at start and end, dice, undos and findings."""

    path: str
    log: Save
    module: object | None = None
    game: Game | None = None
    referee: bool = False
    steps: list[Step] = field(default_factory=list)
    start: Table = field(default_factory=Table)
    final: Table = field(default_factory=Table)
    rolls: list[DiceRoll] = field(default_factory=list)
    undos: list[UndoRecord] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    checkpoints: dict[int, Table] = field(default_factory=dict)
    checkpoint_every: int = CHECKPOINT_EVERY
    coverage: "binding_coverage.Coverage | None" = None
    """How much of the log the game's bindings cover (None without a game's data)."""
    judged: bool = True
    """False when the module is not bound to the game (or not the log's): its rules were not judged."""
    tally: Tally = field(default_factory=Tally)
    """What each check met on the log: occasions judged or not settled, what it lacked (`statuses`)."""
    opening: Clock | None = None
    closing: Clock | None = None
    """Where the game stood at the log's start and at its end, as the game's engine followed it
    (None without a game, or when it cannot tell)."""

    def state_at(self, step: int) -> Table:
        """The table after `step` (0 = the starting position), rebuilt from the nearest checkpoint."""
        if not 0 <= step <= len(self.steps):
            raise IndexError(f"step {step} is outside 0..{len(self.steps)}")
        base = max(k for k in self.checkpoints if k <= step)
        table = self.checkpoints[base].copy()
        for s in self.steps[base:step]:
            table.step = s.index
            table.apply_all(s.commands)
        return table


def _name(obj: Save) -> str:
    return str(obj.path) if getattr(obj, "path", None) else "<log>"


def replay_log(log: Save, *, module: object | None = None, game: Game | None = None,
               start: Table | None = None, referee: bool = False,
               checkpoint_every: int = CHECKPOINT_EVERY,
               iterate: Callable[[list[Step]], Iterable[Step]] | None = None,
               show_player_ids: bool = False, debug: bool = False,
               judge_unbound: bool = False, continues: bool = False) -> Replay:
    """Replay a log (a save replays as its position, with no steps) and run the per-log checks.

    `start` replaces the log's own starting table (rarely wanted; continuity is checked by
    `replay` and the CLI from the previous file's final table). `iterate` wraps the walk over
    the steps (a progress bar). Raw text in findings has player ids (passwords) replaced by
    `<player-N>` unless `show_player_ids`. A game hook that raises becomes a `vlog/internal`
    warning; `debug` also prints its traceback on stderr.

    The game's findings pass `vlog.coverage.guard`: PROVEN only where the bindings cover what
    they rest on. A module not bound to the game, or not the log's, gets its rules not judged
    (one `vlog/binding` error says why and how to bind it) unless `judge_unbound`. `continues`:
    the log starts where the last log `game` judged ended, so the game keeps its history.
    """
    path = _name(log)
    steps = log.steps if isinstance(log, Log) else []
    table = start.copy() if start is not None else start_table(log, module)
    rep = Replay(path=path, log=log, module=module, game=game, referee=referee, steps=steps,
                 start=table.copy(),
                 checkpoint_every=max(1, checkpoint_every, -(-len(steps) // MAX_CHECKPOINTS)))
    rep.checkpoints[0] = rep.start
    buttons = module_buttons(module) if module is not None else None
    rep.rolls = DiceReportReader(buttons).rolls(steps, log=path) if steps else []
    rolls_by_step: dict[int, list[DiceRoll]] = {}
    for roll in rep.rolls:
        if roll.step is not None:
            rolls_by_step.setdefault(roll.step, []).append(roll)
    findings: list[Finding] = []
    ctx = Context(log_path=path, step=None, module=module, referee=referee, tally=rep.tally, continues=continues)
    data = getattr(game, "data", None) if game is not None else None
    meter = binding_coverage.Meter(data, module, log) if data is not None else None
    if meter is not None:
        meter.see(table)
    guard = _Guard(game, findings, debug, rep.tally) if game is not None else None
    position = Position(table)
    if guard is not None:
        _declare(game, module, rep.tally)
        findings.extend(guard.run("begin", 0, None, game.begin, table, ctx))
        _declare_scenario(game, rep.tally)
        rep.opening = guard.ask("clock", 0, None, game.clock, table)
    for step in (iterate(steps) if iterate is not None else steps):
        if guard is None:
            table.step = step.index
            table.apply_all(step.commands)
        else:                                   # the table after, built once; both read-only
            table = table.copy()
            table.step = step.index
            table.apply_all(step.commands)
            after = Position(table)
            ctx.step = step
            ctx.rolls = rolls_by_step.get(step.index, ())
            ctx.view = StepView(step, position, after, ctx.rolls)
            guard.step(step.index, position.table, ctx)
            position = after
        if meter is not None:
            meter.see(table, _piece_ids(step.commands))
        if step.index % rep.checkpoint_every == 0:
            rep.checkpoints[step.index] = table.copy() if guard is None else table
    if guard is not None:
        ctx.step = None
        ctx.rolls = ()
        ctx.view = StepView.end(position)
        findings.extend(guard.run("end", None, None, game.end, table, ctx))
        rep.closing = guard.ask("clock", None, None, game.clock, table)
    if meter is not None and game is not None:
        findings = _judged_on_binding(rep, findings, meter.result(), game.id, module, judge_unbound)
        if not rep.judged:
            for spec in game.checks:
                if spec.implemented:
                    rep.tally.block(spec.id, NOT_BOUND, (binding_coverage.CHECK_ID + " (vlog bind)",), outright=True)
        elif gaps := rep.coverage.global_gaps():     # every verdict rests on the binding, "no finding" too
            rep.tally.rest_on([spec.id for spec in game.checks if spec.implemented],
                              [BINDING_PREFIX + gap for gap in gaps])
    rep.final = table
    rep.undos = track_undos(steps)
    if game is not None:
        findings = taken_back.lower(findings, rep.undos, game.id)
    findings.extend(undo_after_roll.check(rep.undos, rep.rolls, steps))
    if module is not None:
        findings.extend(module_mismatch.check(log, module))
    redact = None
    if not show_player_ids and table.problems:      # only the problems' raw text is redacted here
        redactor = Redactor(player_ids(log.commands))
        redact = redactor.text if redactor.mapping else None
    findings.extend(unparsed.check(table.problems, redact=redact, referee=referee))
    findings.sort(key=lambda f: (f.step is not None, f.step or 0))
    for check in (undo_after_roll.CHECK_ID, unparsed.CHECK_ID, *((module_mismatch.CHECK_ID,) if module else ())):
        rep.tally.judged(check, None)           # these read the whole log
    for finding in findings:
        rep.tally.observe(finding)
    rep.findings = findings
    return rep


class _Guard:
    """Calls into the game, each guarded: an exception is a `vlog/internal` finding naming the
    hook, the step and what was judged, and the replay goes on (`debug`: its traceback too)."""

    def __init__(self, game: Game, findings: list[Finding], debug: bool, tally: Tally):
        self.game, self.findings, self.debug, self.tally = game, findings, debug, tally

    def ask(self, hook: str, step: int | None, what: str | None, fn: Callable, *args: object,
            default: object = None) -> Any:
        """fn(*args), or `default` and a `vlog/internal` finding when it raises."""
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - a failing check must not end the report
            if self.debug:
                traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
            self.findings.append(internal.crashed(self.game.id, hook, exc, step=step, what=what))
            return default

    def run(self, hook: str, step: int | None, what: str | None, fn: Callable, *args: object) -> list:
        """The findings (or actions) fn(*args) yields; none when it raises."""
        return self.ask(hook, step, what, lambda *a: list(fn(*a)), *args, default=[])

    def step(self, index: int, before: Table, ctx: Context) -> None:
        """What the step does, then each action judged on its own."""
        for action in self.run("interpret", index, None, self.game.interpret, ctx.step, before, ctx):
            self.tally.met(getattr(action, "kind", ""), getattr(action, "step", index))
            self.findings.extend(self.run("check", index, getattr(action, "kind", None),
                                          self.game.check, action, before, ctx))


MODULE_NEEDED = "the module the log was written with (--module), to place pieces on hexes"
"""What a check reading positions (inventory tag 'pos') lacks when no module names the hexes."""

_BLOCKED_DATA: dict[int, tuple[object, dict[str, tuple[str, ...]]]] = {}
"""id(game data) -> (that data, check id -> the unknown data disabling it): worked out once per data."""


def _blocked_data(game: Game) -> dict[str, tuple[str, ...]]:
    """The checks the game's data disables (its unknowns' `blocks`), each with the data named as
    `vlog data status` names it ('counters.json $.counters[id=x].attack')."""
    data = getattr(game, "data", None)
    if data is None:
        return {}
    known = _BLOCKED_DATA.get(id(data))
    if known is None or known[0] is not data:
        from pathlib import Path

        from vlog.gamedata import blocked_data
        if len(_BLOCKED_DATA) > 16:
            _BLOCKED_DATA.clear()
        blocked = {f"{game.id}/{short}": tuple(f"{Path(file).name} {path}" for file, path in entries)
                   for short, entries in blocked_data(data).items()}
        known = _BLOCKED_DATA[id(data)] = (data, blocked)
    return known[1]


def _declare(game: Game, module: object | None, tally: Tally) -> None:
    """What the driver knows of each check before the log is walked: the occasions it waits for,
    the data the game data lacks for it, the checks its findings are reported with, and, with no
    module, that a check reading positions cannot judge."""
    for check, needs in _blocked_data(game).items():
        tally.needs(check, needs)
    for spec in game.checks:
        if not spec.implemented:
            continue
        if spec.occasions:
            tally.waits_for(spec.id, "no " + " or ".join(map(occasion_noun, spec.occasions)) + " in the log",
                            spec.occasions)
        if spec.reported_by:
            tally.reported_by(spec.id, spec.reported_by)
        if module is None and "pos" in spec.tags:
            tally.block(spec.id, NEEDS_MODULE, (MODULE_NEEDED,))


def _declare_scenario(game: Game, tally: Tally) -> None:
    """After `begin`: the rules of a scenario the log does not play judge nothing in it. A game
    says which it plays through `scenario_mark`, the inventory's mark ('35'), None when unknown."""
    mark = getattr(game, "scenario_mark", None)
    if mark is None:
        return
    for spec in game.checks:
        if spec.implemented and spec.scenario is not None and spec.scenario != mark:
            tally.block(spec.id, OTHER_SCENARIO, (f"a rule of scenario ({spec.scenario}); this log plays ({mark})",),
                        outright=True)


def _piece_ids(commands: Iterable[Command]) -> list[str]:
    return [c.id for c in commands if isinstance(c, (AddPiece, MovePiece, ChangePiece)) and c.id is not None]


def _judged_on_binding(rep: Replay, findings: list[Finding], coverage: "binding_coverage.Coverage", game_id: str,
                       module: object | None, judge_unbound: bool) -> list[Finding]:
    """The game's findings as the binding allows them (see `replay_log`), with what it leaves unknown."""
    rep.coverage = coverage
    if not judge_unbound and not coverage.bound:
        rep.judged = False
        return [binding_coverage.not_bound_finding(coverage, game_id, module_label(module))]
    notice = binding_coverage.binding_finding(coverage, game_id)
    return ([notice] if notice is not None else []) + binding_coverage.guard(findings, coverage, game_id)


def _previous_table(after: object, module: object | None) -> tuple[Table, str]:
    if isinstance(after, Table):
        return after, "the previous table"
    if isinstance(after, (str, os.PathLike)):
        from vlog.vassal.savefile import read
        after = read(after)
    if isinstance(after, Log):
        return replay_log(after, module=module).final, _name(after)
    if isinstance(after, Save):
        return start_table(after, module), _name(after)
    raise TypeError(f"after must be a Save, Log, Table or path, not {type(after).__name__}")


def checks_run(game: Game | None, *, continuity_checked: bool, module_given: bool) -> tuple[CheckInfo, ...]:
    """The checks a run applies to every log, for the report's list (JUnit shows them passing)."""
    out = []
    for info in GENERIC_CHECKS:
        if info.id == continuity.CHECK_ID and not continuity_checked:
            continue
        if info.id == module_mismatch.CHECK_ID and not module_given:
            continue
        out.append(info)
    if game is not None:
        out.extend(game.check_infos())
    return tuple(out)


def statuses(rep: Replay, checks: Sequence[CheckInfo], continuity_findings: Sequence[Finding] = (),
             own_game: str | None = None) -> tuple:
    """How each check of `checks` went on the replayed log (continuity's findings added, when
    the log was compared with a previous one; `own_game`: why it was not, being the first log
    of a game of its own)."""
    for finding in continuity_findings:
        rep.tally.observe(finding)
    if own_game is not None:
        rep.tally.waits_for(continuity.CHECK_ID, own_game)
    elif any(c.id == continuity.CHECK_ID for c in checks):
        rep.tally.judged(continuity.CHECK_ID, None)
    return rep.tally.statuses(c.id for c in checks)


def log_result(rep: Replay, checks: Sequence[CheckInfo], continuity_findings: Sequence[Finding] = (),
               seconds: float | None = None, own_game: str | None = None) -> LogResult:
    """The verdict on one replayed log: its findings (continuity's first), how each check went
    and the binding coverage."""
    return LogResult(rep.path, len(rep.steps), (*continuity_findings, *rep.findings),
                     statuses(rep, checks, continuity_findings, own_game), seconds=seconds,
                     binding=rep.coverage, boards=dict(rep.start.boards))


def replay(log: Save, *, module: object | None = None, game: Game | None = None,
           after: object | None = None, referee: bool = False) -> Report:
    """Judge one log (or save): its findings, with continuity from `after` (a previous
    .vlog/.vsav as a path, Save, Log or Table) when given."""
    rep = replay_log(log, module=module, game=game, referee=referee)
    joined: list[Finding] = []
    if after is not None:
        previous, previous_name = _previous_table(after, module)
        joined = continuity.check(previous, rep.start, previous_name=previous_name, referee=referee)
    checks = checks_run(game, continuity_checked=after is not None, module_given=module is not None)
    return Report(
        logs=(log_result(rep, checks, joined),),
        checks=checks,
        game=game.id if game is not None else None,
        module=module_label(module),
        sources=(rep.path,),
        dice=dice_stats(rep.rolls) if rep.rolls else None,
    )


def module_label(module: object | None) -> str | None:
    """'Name version' of a module for reports, None without one."""
    if module is None:
        return None
    name = getattr(module, "name", None)
    version = getattr(module, "version", None)
    return f"{name} {version}".strip() if version else name


def table_at(log: Save, step: int, module: object | None = None) -> Table:
    """The table after `step` of a log (0 = its starting position); for `vlog dump --at`.

    Raises IndexError when the log has fewer steps.
    """
    steps = log.steps if isinstance(log, Log) else []
    if not 0 <= step <= len(steps):
        raise IndexError(f"step {step} is outside 0..{len(steps)} for {_name(log)}")
    table = start_table(log, module)
    for s in steps[:step]:
        table.step = s.index
        table.apply_all(s.commands)
    return table
