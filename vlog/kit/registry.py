"""The checks of a game, registered with the inventory items they judge.

A check function says which items of its game's inventory it reports and where it is defined;
what it judges (the kinds of event or action that are its occasions) the inventory says, once
(data/inventory.json `occasions`, `judging`). A check of the first or last position of a log,
which no event is an occasion for, is registered `on="begin"` or `on="end"`:

    REGISTRY = Registry("lion-of-judah", load_inventory("lion-of-judah"))

    @REGISTRY.check("MV-03", "MV-23")          # occasions: ["moved"] in the inventory
    def judge_move(...): ...

    @REGISTRY.check("SU-01", on="begin")
    def judge_setup(...): ...

A function that judges one kind of event among its items' occasions names its class, and is
called for events of that class only (the class must be one of the occasions, so the two cannot
drift apart):

    @REGISTRY.check("MV-09", event=Placed)     # occasions: ["moved", "placed"]
    def note_arrival(game, placed, view): ...

A helper that reports findings of an item but is called by another check, not by the engine
(a judgement a check function delegates to), says so with `reports`: it counts for the items it
reports (`judged_by`, `ids`) and is never dispatched:

    @REGISTRY.reports("MV-16")
    def judge_end_of_move(board, state, unit, *, step, when): ...

An id the inventory lacks fails at import, naming the function; the registry then answers which
functions judge an item, which items have a function and which functions an event calls, so a
game's dispatch can be read from its registrations and tests can hold the inventory's
"implemented" against the code that implements it. `CheckSpec` is how a game lists its items to
the replay and the CLI.
"""
from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import TypeVar

from vlog.findings import CheckInfo

__all__ = ["CheckSpec", "Registered", "Registry"]

F = TypeVar("F", bound=Callable[..., object])
MOMENTS = (None, "begin", "end")
"""What a check may be registered `on`: nothing (its occasions say), the log's start or end."""


@dataclass(frozen=True, slots=True)
class CheckSpec:
    """One rule a game checks: id from shared/docs/rules/<game>.md, rulebook reference, and
    whether it is implemented (and why not, when it is not), with what the replay needs to say
    how it went on a log (`vlog.findings.Tally`): the action kinds that are its occasions, the
    inventory's tags ('pos': it reads positions, so it needs the module), its scenario mark and
    the checks whose findings it is reported with."""

    id: str
    rule: str
    description: str
    implemented: bool = True
    why_not: str | None = None
    occasions: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    scenario: str | None = None
    reported_by: tuple[str, ...] = ()

    def info(self) -> CheckInfo:
        return CheckInfo(self.id, self.rule, self.description)


@dataclass(frozen=True, slots=True)
class Registered:
    """A check function and the inventory items it reports."""

    ids: tuple[str, ...]
    function: Callable[..., object]
    on: str | None = None
    """"begin" / "end": called on the log's first / last position; None: on its occasions."""
    event: type | None = None
    """The one event class it judges among its occasions; None: every occasion."""
    helper: bool = False
    """Called by another check, never by the engine (`Registry.reports`)."""

    @property
    def name(self) -> str:
        """'vlog.games.lion_of_judah.checks.movement.judge_move'."""
        return f"{self.function.__module__}.{self.function.__qualname__}"


class Registry:
    """Every check function of one game, by the items it judges."""

    def __init__(self, game: str, known: Container[str]):
        self.game = game
        self._known = known
        self._registered: list[Registered] = []
        self._judging: dict[tuple[str, type | None], tuple[Callable[..., object], ...]] = {}

    def check(self, *ids: str, on: str | None = None, event: type | None = None) -> Callable[[F], F]:
        """Decorator: the function reports findings of these inventory items ('MV-03'), called on
        the first or last position of a log when `on` is "begin" or "end"; `event`: called only
        for events of that class (one of its items' occasions)."""
        if not ids:
            raise ValueError("a check registers at least one inventory item")
        if on not in MOMENTS:
            raise ValueError(f"{', '.join(ids)}: a check is registered on one of {', '.join(map(repr, MOMENTS[1:]))}, "
                             f"not {on!r}; the events it judges are its items' occasions in data/inventory.json")

        return self._register(ids, on=on, event=event, helper=False)

    def reports(self, *ids: str) -> Callable[[F], F]:
        """Decorator: the function reports findings of these inventory items, called by another
        check (never by the engine's dispatch)."""
        if not ids:
            raise ValueError("a helper registers at least one inventory item")
        return self._register(ids, on=None, event=None, helper=True)

    def _register(self, ids: tuple[str, ...], *, on: str | None, event: type | None,
                  helper: bool) -> Callable[[F], F]:
        def register(function: F) -> F:
            unknown = [i for i in ids if i not in self._known]
            if unknown:
                raise ValueError(f"{function.__module__}.{function.__qualname__}: {', '.join(unknown)} "
                                 f"not in the {self.game} inventory")
            if event is not None:
                self._check_event(function, ids, event)
            self._registered.append(Registered(tuple(ids), function, on, event, helper))
            self._judging.clear()
            return function

        return register

    def _check_event(self, function: Callable[..., object], ids: tuple[str, ...], event: type) -> None:
        from vlog.kit.steps import event_kind

        item = getattr(self._known, "item", None)
        if item is None:
            return
        kind = event_kind(event)
        if not any(kind in item(i).occasions for i in ids):
            raise ValueError(f"{function.__module__}.{function.__qualname__} judges {event.__name__} events, but "
                             f"{kind!r} is among the occasions of none of {', '.join(ids)} (data/inventory.json)")

    def registered(self) -> tuple[Registered, ...]:
        """Every registration, in the order the modules were imported."""
        return tuple(self._registered)

    def judged_by(self, short: str) -> tuple[Registered, ...]:
        """The functions that report item `short`."""
        return tuple(r for r in self._registered if short in r.ids)

    def called_on(self, moment: str | None) -> tuple[Callable[..., object], ...]:
        """The functions registered on a moment ("begin", "end"), in registration order."""
        return tuple(r.function for r in self._registered if r.on == moment and not r.helper)

    def judging(self, kind: str, event: type | None = None) -> tuple[Callable[..., object], ...]:
        """The functions reporting an item whose inventory occasions include the action kind
        `kind` (data/inventory.json), in registration order, less those registered for another
        event class than `event`'s (when given): a dispatch that says nothing twice."""
        found = self._judging.get((kind, event))
        if found is None:
            item = getattr(self._known, "item")
            found = self._judging[(kind, event)] = tuple(
                r.function for r in self._registered if r.on is None and not r.helper
                and (r.event is None or (event is not None and issubclass(event, r.event)))
                and any(kind in item(i).occasions for i in r.ids))
        return found

    def ids(self) -> frozenset[str]:
        """Every item some function reports."""
        return frozenset(i for r in self._registered for i in r.ids)
