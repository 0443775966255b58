"""Step-loss history: every step one side's units lost, as the table shows it step by step.

A VP term that counts steps lost (Lion of Judah 13.4.4, Island of Death's eliminated steps)
needs more than the difference of two positions, because a VASSAL log shows one change of the
rules in several piece moves, often in separate steps of the same turn:

* a unit with a lower step level lost the difference;
* a unit taken off the map (deleted, or sent to a box) lost every step it had;
* a unit swapped for another counter of its name in its hex (a replacement counter) lost only
  the difference, whether the swap is one step or two (deleted, then placed later that turn);
* a unit broken down (a breakdown piece appears in its hex while it loses a step) lost
  nothing, in either order within the turn;
* a breakdown piece taken off the map while a unit in its hex gains steps, in that step or
  later that turn, was consolidated, not lost.

`StepLossHistory` keeps those entries (dicts: unit, hex, steps, step, turn, how), for the side
and the units a game says count. Units are read through `id`, `name`, `counter`, `hex`, `box`,
`side` and `steps`; a game says which of them are breakdown pieces.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["StepLossHistory", "arrivals"]


def arrivals(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Any]:
    """The units on the map after a step that were not on it before (placed, or back from a box)."""
    return [u for uid, u in after.items() if u.hex is not None
            and (uid not in before or before[uid].hex is None)]


def _steps_rose(old: Any, new: Any) -> bool:
    return isinstance(old.steps, int) and isinstance(new.steps, int) and new.steps > old.steps


def _steps_fell(old: Any, new: Any) -> bool:
    return isinstance(old.steps, int) and isinstance(new.steps, int) and new.steps < old.steps


@dataclass(slots=True)
class StepLossHistory:
    """The steps `side` lost, entry by entry. `counts(unit)`: whether a unit's losses count;
    `whole(unit)`: the steps a unit taken off the map loses (None: unknown); `breakdown(unit)`:
    whether a piece is a breakdown unit."""

    side: str
    counts: Callable[[Any], bool]
    whole: Callable[[Any], int | None]
    breakdown: Callable[[Any], bool]
    entries: list[dict[str, object]] = field(default_factory=list)
    placed_first: list[tuple[str | None, int | None]] = field(default_factory=list)
    """(hex, turn) of breakdown pieces placed before the unit they come from lost its step."""
    deleted_breakdowns: list[dict[str, object]] = field(default_factory=list)
    """The entries of breakdown pieces deleted: a unit in their hex gaining steps later in the
    turn consolidated them, and the entry goes."""

    def observe(self, before: Mapping[str, Any], after: Mapping[str, Any], *, step: int,
                turn: int | None, arrived: Iterable[Any] | None = None) -> None:
        """One step of play: units by id before and after it (`arrived`: `arrivals(before,
        after)` when the caller has it already)."""
        arrived = list(arrivals(before, after) if arrived is None else arrived)
        for uid, old in before.items():
            new = after.get(uid)
            if new is not old and old.side == self.side and old.hex is not None:   # the same unit lost nothing
                self._loss(old, new, before, after, arrived, step=step, turn=turn)
        self._consolidated_later(before, after, turn)
        self._broken_down_later(before, after, arrived, turn)
        self._swapped_later(arrived, turn)

    def known_steps(self) -> int:
        return sum(int(e["steps"]) for e in self.entries if isinstance(e["steps"], int))  # type: ignore[arg-type]

    def _loss(self, old: Any, new: Any | None, before: Mapping[str, Any], after: Mapping[str, Any],
              arrived: list[Any], *, step: int, turn: int | None) -> None:
        if not self.counts(old):
            return
        whole = self.whole(old)
        if new is not None and new.hex is not None:
            if not _steps_fell(old, new):
                return
            if any(self.breakdown(u) and u.side == old.side and u.hex in (old.hex, new.hex) for u in arrived):
                return                                        # broken down, not lost
            if (new.hex, turn) in self.placed_first:          # its breakdown piece came first
                self.placed_first.remove((new.hex, turn))
                return
            self._record(old, old.steps - new.steps, step=step, turn=turn, how="reduced")
            return
        if self.breakdown(old) and any(
                u.hex == old.hex and u.side == old.side and uid in before and _steps_rose(before[uid], u)
                for uid, u in after.items()):
            return                                            # consolidated
        swap = next((u for u in arrived if u.hex == old.hex and u.side == old.side
                     and (u.name == old.name or (old.counter and u.counter == old.counter))), None)
        if swap is not None and whole is not None and isinstance(swap.steps, int):
            if whole > swap.steps:
                self._record(old, whole - swap.steps, step=step, turn=turn, how="replaced by a reduced counter")
            return
        self._record(old, whole, step=step, turn=turn,
                     how="deleted" if new is None else f"sent off the map{f' to {new.box}' if new.box else ''}")

    def _broken_down_later(self, before: Mapping[str, Any], after: Mapping[str, Any], arrived: list[Any],
                           turn: int | None) -> None:
        """A breakdown piece placed in a hex where a unit of the side lost a step earlier in the
        turn was broken down from it (the entry goes); placed first, it is kept for the
        reduction to come."""
        for unit in arrived:
            if not self.breakdown(unit) or unit.side != self.side:
                continue
            if any(o.side == self.side and o.hex == unit.hex and uid in after and _steps_fell(o, after[uid])
                   for uid, o in before.items()):
                continue                                      # reduced in this very step
            reduced = next((e for e in self.entries if e["hex"] == unit.hex and e["turn"] == turn
                            and e["how"] == "reduced" and e["steps"] == 1), None)
            if reduced is not None:
                self.entries.remove(reduced)
            else:
                self.placed_first.append((unit.hex, turn))

    def _swapped_later(self, arrived: list[Any], turn: int | None) -> None:
        """A counter deleted earlier in the turn and placed again in its hex (its replacement
        counter, reduced) lost only the difference."""
        for unit in arrived:
            entry = next((e for e in self.entries if e["hex"] == unit.hex and e["turn"] == turn
                          and e["how"] == "deleted" and e["unit"] == unit.name), None)
            if entry is None or not isinstance(entry["steps"], int) or not isinstance(unit.steps, int):
                continue
            if entry["steps"] > unit.steps:
                entry["steps"] = entry["steps"] - unit.steps
                entry["how"] = "replaced by a reduced counter"
            else:
                self.entries.remove(entry)

    def _consolidated_later(self, before: Mapping[str, Any], after: Mapping[str, Any], turn: int | None) -> None:
        """A breakdown piece deleted earlier in the turn from a hex where a unit of the side now
        gains steps was consolidated, not lost."""
        for uid, new in after.items():
            old = before.get(uid)
            if old is None or old is new or new.side != self.side or new.hex is None or new.hex != old.hex \
                    or not _steps_rose(old, new):
                continue
            for loss in self.deleted_breakdowns:
                if loss["hex"] == new.hex and loss["turn"] == turn and loss in self.entries:
                    self.entries.remove(loss)
                    self.deleted_breakdowns.remove(loss)
                    break

    def _record(self, unit: Any, steps: int | None, *, step: int, turn: int | None, how: str) -> None:
        self.entries.append({"unit": unit.name, "hex": unit.hex, "steps": steps, "step": step,
                             "turn": turn, "how": how})
        if self.breakdown(unit) and how == "deleted":
            self.deleted_breakdowns.append(self.entries[-1])
