"""Ledgers: what a game keeps from step to step, told of the log's course through one protocol.

Many rules judge a step by what came before it: the stacks that moved this segment, the air
missions flown this turn, the RPs in each box. Each such record is a `Ledger`, and every ledger
hears the log through the same five hooks, in this order:

* `begin(view)` once, on the starting position (`view.step` is None);
* `step(view)` for each step, before its events;
* `event(event, view)` for each typed event the game reads in the step (vlog/kit/steps.py);
* `phase(change, view)` when the phase changes (a `PhaseChanged` event, told apart so a ledger
  that only closes segments needs nothing else);
* `end(view)` once, on the end of the log (`StepView.end`).

Each hook returns the findings it makes (any iterable; none by default). A game keeps its
ledgers in one `Ledgers`, which tells them in the order they were added and gathers what they
found, so the game's engine lists its ledgers instead of calling each by a name of its own.
A ledger is told only the hooks it overrides (the others find nothing), and a ledger whose
`events` names the event kinds it reads is told only events of those kinds: every step's
events reach every ledger otherwise.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from vlog.findings import Finding
    from vlog.kit.steps import Event, PhaseChanged, StepView

__all__ = ["Ledger", "Ledgers"]

L = TypeVar("L", bound="Ledger")


_HOOKS = ("begin", "step", "event", "phase", "end")


class Ledger:
    """Base class of a ledger: override the hooks it needs.

    `events`: the event classes `event` reads (an event is told when it is an instance of one);
    None, the default, tells it every event."""

    events: "tuple[type, ...] | None" = None

    def begin(self, view: "StepView") -> Iterable["Finding"]:
        return ()

    def step(self, view: "StepView") -> Iterable["Finding"]:
        return ()

    def event(self, event: "Event", view: "StepView") -> Iterable["Finding"]:
        return ()

    def phase(self, change: "PhaseChanged", view: "StepView") -> Iterable["Finding"]:
        return ()

    def end(self, view: "StepView") -> Iterable["Finding"]:
        return ()


class Ledgers:
    """A game's ledgers, each told of the hooks it overrides in the order they were added."""

    def __init__(self, *ledgers: Ledger) -> None:
        self._ledgers: list[Ledger] = []
        self._told: dict[str, list[Ledger]] = {hook: [] for hook in _HOOKS}
        self._by_kind: dict[type, list[Ledger]] = {}
        for ledger in ledgers:
            self.add(ledger)

    def add(self, ledger: L) -> L:
        if not isinstance(ledger, Ledger):
            raise TypeError(f"{type(ledger).__name__} is not a Ledger")
        self._ledgers.append(ledger)
        for hook in _HOOKS:
            if getattr(type(ledger), hook) is not getattr(Ledger, hook):
                self._told[hook].append(ledger)
        self._by_kind.clear()
        return ledger

    def __iter__(self) -> Iterator[Ledger]:
        return iter(self._ledgers)

    def __len__(self) -> int:
        return len(self._ledgers)

    def _of_kind(self, kind: type) -> list[Ledger]:
        """The ledgers told an event of this class: those that read every event or this kind."""
        told = self._by_kind.get(kind)
        if told is None:
            told = self._by_kind[kind] = [
                ledger for ledger in self._told["event"]
                if ledger.events is None or issubclass(kind, ledger.events)]
        return told

    def begin(self, view: "StepView") -> list["Finding"]:
        return [f for ledger in self._told["begin"] for f in ledger.begin(view)]

    def step(self, view: "StepView") -> list["Finding"]:
        return [f for ledger in self._told["step"] for f in ledger.step(view)]

    def event(self, event: "Event", view: "StepView") -> list["Finding"]:
        return [f for ledger in self._of_kind(type(event)) for f in ledger.event(event, view)]

    def phase(self, change: "PhaseChanged", view: "StepView") -> list["Finding"]:
        return [f for ledger in self._told["phase"] for f in ledger.phase(change, view)]

    def end(self, view: "StepView") -> list["Finding"]:
        return [f for ledger in self._told["end"] for f in ledger.end(view)]
