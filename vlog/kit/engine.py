"""The rules engine every game on the kit is: one shape, the game's rules declared, not dispatched.

A game subclasses `RulesEngine` and declares what differs: its inventory and check registry, its
chat grammars, what its phases are for, how a counter becomes one of its units, and the ledgers
it keeps. The engine does the rest the same way for every game:

* it reads each position's units once (`units`, through vlog/kit/units.py) and the phase the
  table shows (`phase_at`, through vlog/kit/sequence.py), or the one the game infers;
* it tells what each step did as typed events (vlog/kit/steps.py), in this order: `Stepped`,
  `PhaseChanged` when the phase moved, the unit events (moves, removals, step changes, flips,
  placements), one `Declared` per chat declaration a grammar reads, then the game's own
  (`more_events`);
* for each event it tells the game's ledgers first (vlog/kit/ledger.py: `step` on `Stepped`,
  `phase` on `PhaseChanged`, `event` on the others), so their accounts include the event, then
  calls every check whose inventory items list the event's kind among their occasions
  (data/inventory.json, `Registry.judging`), `fn(game, event, view)` — the inventory says once
  what each check judges, and the replay counts it judged at that step; a check registered
  with `event=` is called for events of that class only;
  checks registered `on="begin"` or `on="end"` are called `fn(game, view)` on the first and
  the last position of the log;
* findings carry the phase they happened in (`finding`); a check that meets an occasion it
  cannot settle says so (`unsettled`, naming what would settle it), and one that can judge
  nothing on the log for want of what the log lacks says that (`not_judged`): the report then
  says "not judged" rather than a silent pass (vlog/findings.py Tally).

A replay starts with `begin`: ledgers are made afresh and the scenario read from the table, so
one engine may judge several logs in turn.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Hashable, Iterable, Mapping, Sequence, TypeVar

from vlog.engine.judge import Ruling
from vlog.findings import MISSING_DATA
from vlog.games.base import Clock, Context, Game
from vlog.kit import sequence as seq
from vlog.kit.chat import ChatGrammars
from vlog.kit.ledger import Ledger, Ledgers
from vlog.kit.recall import Recall
from vlog.kit.steps import Declared, Event, PhaseChanged, Position, Stepped, StepView, in_order, unit_events
from vlog.kit.units import UnitCache, read_units

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding, Tally
    from vlog.gamedata import GameData
    from vlog.kit.inventory import Inventory
    from vlog.kit.registry import Registry
    from vlog.table import Table
    from vlog.vassal.savefile import Step

__all__ = ["RulesEngine", "BEGIN", "END"]

T = TypeVar("T")

BEGIN, END = "begin", "end"
"""What checks registered for the first and the last position of a log are registered `on`."""


class RulesEngine(Game):
    """A game's rules on the kit: subclasses set the class attributes and `make_unit`."""

    inventory: ClassVar["Inventory"]
    registry: ClassVar["Registry"]
    grammars: ClassVar[ChatGrammars] = ChatGrammars()
    phase_kinds: ClassVar[Mapping[str, str | Iterable[str]]] = {}
    """What each phase is for, by name or stem (`vlog.kit.sequence.sequence_of`'s `kinds`)."""
    player_turns: ClassVar[bool] = False
    """The data's phases are one player's turn, played by each side in order."""
    reads_sequence: ClassVar[bool] = True
    """False: the game keeps its own sequence of play (its `more_events` tell the phase changes,
    its `when` names the phase), so the engine reads no phase from the table and tells no
    `PhaseChanged` of its own."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "inventory" in cls.__dict__:
            cls.checks = cls.inventory.specs()

    def __init__(self, data: "GameData | None" = None, *, scenario: str | None = None):
        from vlog.gamedata import load_game_data

        self.data = data if data is not None else load_game_data(self.id)
        self.given_scenario = scenario
        self.scenario: str | None = scenario
        self.sequence: seq.Sequence | None = None
        self.phase: seq.Position | None = None
        """Where the log stands in the scenario's sequence (None: not known yet)."""
        self._shown: seq.ShownReader | None = None
        self.ledgers = Ledgers()
        self._cache = UnitCache()
        self._recalls: dict[Hashable, Recall] = {}
        self.tally: "Tally | None" = None
        """The replay's account of what each check judged (set by `begin`; None outside a replay)."""

    # -- what the game declares ------------------------------------------------------------------

    def anew(self) -> "RulesEngine":
        return type(self)(self.data, scenario=self.given_scenario)

    def make_unit(self, data: "GameData", counter: str, level: str | None) -> Any:
        """The game's unit for a counter at a level (vlog.kit.units reads the rest)."""
        raise NotImplementedError(f"{type(self).__name__} must say how a counter becomes a unit")

    def transform(self, unit: Any) -> Any:
        """The unit as the scenario has it (a change of side ...); None leaves it out."""
        return unit

    def new_ledgers(self) -> Sequence[Ledger]:
        """Fresh ledgers for one replay, in the order they hear each event."""
        return ()

    def detect_scenario(self, units: Mapping[str, Any]) -> str | None:
        """The scenario a starting position belongs to, when the game can tell (None: it
        cannot; the engine then takes the data's only scenario, if it has one)."""
        return None

    def infer_phase(self, view: StepView, current: seq.Position | None) -> seq.Position | None:
        """The phase after a step whose table shows none: by default the one before."""
        return current

    def more_events(self, view: StepView, events: Sequence[Event]) -> Sequence[Event]:
        """The game's own events of a step, told after the engine's."""
        return ()

    # -- what the engine reads -------------------------------------------------------------------

    def units(self, position: Position) -> dict[str, Any]:
        """Every unit of a position by piece id, read once per position."""
        return position.derived((RulesEngine, "units", id(self)), self._read_units)

    def _read_units(self, table: "Table") -> dict[str, Any]:
        return read_units(table, self.data, self.make_unit, transform=self.transform, cache=self._cache)

    def changed_units(self, view: StepView) -> Mapping[str, Any]:
        """The units after the step that the step may have changed, by piece id in table order
        (every unit when the pieces it changed are not known): a check of what a step did to
        units need not walk the others, which stand as they stood."""
        after = self.units(view.after)
        changed = view.changed_pieces()
        if changed is None:
            return after
        return {uid: after[uid] for uid in in_order(changed, after)}

    def recalled(self, key: Hashable, inputs: object, build: Callable[[], T]) -> T:
        """`build()` kept under `key` from position to position while `inputs` (everything it
        reads) stay equal: worked out again only when they change (vlog.kit.recall)."""
        recall = self._recalls.get(key)
        if recall is None:
            recall = self._recalls[key] = Recall()
        return recall.get(inputs, build)

    def phase_at(self, position: Position) -> seq.Position | None:
        """The turn and phase a position's table shows (None: it shows none, or no scenario)."""
        if self.sequence is None:
            return None
        return position.derived((RulesEngine, "phase", id(self)), self._phase_shown)

    def _phase_shown(self, table: "Table") -> seq.Position | None:
        assert self.sequence is not None and self.scenario is not None
        if self._shown is None or self._shown.scenario != self.scenario or self._shown.data is not self.data:
            self._shown = seq.ShownReader(self.data, self.scenario)
        shown = self._shown(table)
        if shown is None:
            return None
        try:
            return self.sequence.at(shown.turn, shown.phase)
        except KeyError:
            return None

    def when(self) -> str | None:
        """'Turn 3 (Jan 1915), german-operations' for findings; None while not known."""
        phase = self.phase
        if phase is None:
            return None
        label = phase.sequence.labels.get(phase.turn)
        turn = f"Turn {phase.turn}" + (f" ({label})" if label and label != f"Turn {phase.turn}" else "")
        return f"{turn}, {phase.name}" + (" (inferred)" if phase.inferred else "")

    def clock(self, table: "Table") -> Clock | None:
        phase = self.phase
        if phase is None or self.scenario is None:
            return None
        return Clock(self.scenario, phase.turn, phase.index,
                     (phase.turn, phase.index) == (1, phase.sequence.start), self.when() or "")

    def unsettled(self, short: str, step: int | None, data: Iterable[str]) -> None:
        """Inventory item `short` met an occasion at `step` it could not settle without `data`
        (no finding): the report says it was not judged there, naming what would settle it."""
        if self.tally is not None:
            self.tally.unsettled(self.inventory.check_id(short), step, data)

    def not_judged(self, short: str, data: Iterable[str]) -> None:
        """Inventory item `short` could judge nothing on this log for want of `data` (what the
        log lacks): the occasions counted for it do not count as judged."""
        if self.tally is not None:
            self.tally.block(self.inventory.check_id(short), MISSING_DATA, tuple(data), outright=True)

    def finding(self, short: str, ruling: Ruling, *, step: int | None, message: str,
                subjects: Iterable[str] = (), evidence: Mapping[str, object] | None = None,
                depends_on: Iterable[str] = ()) -> "Finding":
        """A finding of inventory item `short` in the current phase (see `Inventory.finding`)."""
        return self.inventory.finding(short, ruling, step=step, when=self.when(), message=message,
                                      subjects=subjects, evidence=evidence, depends_on=depends_on)

    # -- the game interface, the same for every game ---------------------------------------------

    def begin(self, table: "Table", ctx: Context) -> Iterable["Finding"]:
        start = Position(table)
        view = StepView(None, start, start)
        self.tally = ctx.tally
        going_on = ctx.continues and self.scenario is not None      # the same game goes on: its history stays
        if not going_on:
            self.ledgers = Ledgers(*self.new_ledgers())
            self.scenario = self.given_scenario or self.detect_scenario(self.units(start))
        if self.scenario is None and len(self.data.scenario_ids) == 1:
            self.scenario = self.data.scenario_ids[0]
        self.sequence = (seq.sequence_of(self.data, self.scenario, kinds=self.phase_kinds,
                                         player_turns=self.player_turns)
                         if self.scenario is not None and self.reads_sequence else None)
        shown = self.phase_at(start) if self.reads_sequence else None
        self.phase = shown if shown is not None or not going_on else self.phase
        ctx.when = self.when()
        found = list(self.ledgers.begin(view))
        for check in self.registry.called_on(BEGIN):
            found.extend(check(self, view))
        return found

    def interpret(self, step: "Step", table: "Table", ctx: Context | None = None) -> Sequence[Event]:
        view = ctx.view if ctx is not None else None
        if view is None:
            raise ValueError(f"{self.id}: a step is judged only through the replay's StepView")
        events: list[Event] = [Stepped(view.index)]
        if self.reads_sequence:
            shown = self.phase_at(view.after)
            new = shown if shown is not None else self.infer_phase(view, self.phase)
            if new is not None and (self.phase is None or (new.turn, new.index) != (self.phase.turn, self.phase.index)):
                events.append(PhaseChanged(view.index, self.phase, new, bound=shown is not None))
            self.phase = new
        events += unit_events(view.index, self.units(view.before), self.units(view.after), view.changed_pieces())
        for grammar in self.grammars:
            events += [Declared(view.index, grammar.name, d)
                       for d in self.grammars.read(grammar.name, step.commands)]
        events += self.more_events(view, events)
        if ctx is not None:
            ctx.when = self.when()
        return events

    def check(self, action: Event, table: "Table", ctx: Context) -> Iterable["Finding"]:
        view = ctx.view
        assert view is not None
        if isinstance(action, Stepped):
            found = list(self.ledgers.step(view))
        elif isinstance(action, PhaseChanged):
            found = list(self.ledgers.phase(action, view))
        else:
            found = list(self.ledgers.event(action, view))
        for check in self.registry.judging(action.kind, type(action)):
            found.extend(check(self, action, view))
        return found

    def end(self, table: "Table", ctx: Context) -> Iterable["Finding"]:
        view = ctx.view if ctx.view is not None else StepView.end(Position(table))
        found = list(self.ledgers.end(view))
        for check in self.registry.called_on(END):
            found.extend(check(self, view))
        return found
