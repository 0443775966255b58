"""A module's Turn Counter as VASSAL runs it: to read the turn a tracker's state on the table shows
(the judge) and to write `turn next` / `turn set` steps exactly (converters/log_writer.py).

A port of VASSAL.build.module.turn (TurnTracker, TurnLevel, CounterTurnLevel, ListTurnLevel):
the state string `SE('|')[currentLevel, levelState...]` with CounterTurnLevel states
`SE(';')[current, currentSubLevel, loop, loopLimit, subStates...]` and ListTurnLevel states
`SE(';')[current, currentSubLevel, first, active(SE(',')), subStates...]`, `next()` with the
roll-over of nested levels, and the turn string built from the tracker's and levels' formats.
"""
from __future__ import annotations

from vlog.vassal.module import TurnLevel, TurnTracker
from vlog.vassal.sequence import Decoder, Encoder, split

__all__ = ["TrackerRun", "LevelRun", "format_text", "DEFAULT_TURN_FORMAT", "DEFAULT_REPORT_FORMAT"]

DEFAULT_TURN_FORMAT = "$level1$ $level2$ $level3$ $level4$"
DEFAULT_REPORT_FORMAT = "* &lt;$PlayerId$&gt; Turn Updated from $oldTurn$ to $newTurn$"
"""TurnTracker's reportFormat default (Editor.properties `Editor.TurnTracker.report_default`)."""


def format_text(fmt: str, props: dict[str, str]) -> str:
    """A FormattedString over known properties: `$name$` replaced, unknown names give "".

    (FormattedString tokens: split on `$`; odd tokens are property names, except the last
    token, which is literal: FormattedStringExpression.evaluate.)
    """
    if "$" not in fmt:
        return fmt
    tokens = split(fmt, "$")
    out: list[str] = []
    last = len(tokens) - 1
    for i, token in enumerate(tokens):
        if i % 2 == 0 or i == last:
            out.append(token)
        else:
            out.append(props.get(token, ""))
    return "".join(out)


def _array(values: list[bool]) -> str:
    enc = Encoder(",")
    for v in values:
        enc.append("true" if v else "false")
    return enc.value() or ""


class LevelRun:
    """One TurnLevel with its runtime fields (current, currentSubLevel, rolledOver...)."""

    def __init__(self, level: TurnLevel):
        self.level = level
        self.subs = [LevelRun(sub) for sub in level.levels]
        self.counter = level.kind == "counter"
        self.start = level.start if level.start is not None else 1
        self.incr = level.incr if level.incr is not None else 1
        self.loop = bool(level.loop)
        self.loop_limit = level.loop_limit if level.loop_limit is not None else -1
        self.items = list(level.items or [])
        self.first = level.first or 0
        self.active = [True] * len(self.items)
        self._decoded: dict[str, tuple] = {}   # state code -> the fields set_state sets from it
        self.current = self.start if self.counter else 0
        self.sub = 0
        self.rolled_over = False
        self.sub_rolled_over = False

    # -- TurnLevel --------------------------------------------------------------------------
    def _base_reset(self) -> None:
        for s in self.subs:
            s.reset()
        self.sub = 0

    def reset(self) -> None:
        self._base_reset()
        if not self.counter:
            self.active = [True] * len(self.items)
        self.set_low()

    def _base_advance(self) -> None:
        self.rolled_over = False
        self.sub_rolled_over = False
        if self.subs:
            initial = self.sub
            level = self.subs[self.sub]
            level.advance()
            while level.rolled_over:
                self.sub += 1
                if self.sub >= len(self.subs):
                    self.sub = 0
                    self.sub_rolled_over = True
                level = self.subs[self.sub]
                if initial != self.sub:
                    level.set_low()
                else:
                    break

    def _base_set_low(self) -> None:
        if self.subs:
            self.sub = 0
            self.subs[0].set_low()

    def set_low(self) -> None:
        if self.counter:
            self.current = self.start
            self.rolled_over = False
        else:
            self.current = self.first
            self.rolled_over = False
            if (self.current < len(self.active) and not self.active[self.current]) or \
                    (not self.items and not self.subs):
                self.advance()
        self._base_set_low()

    def advance(self) -> None:
        if self.counter:
            self._base_advance()
            if not self.subs or self.sub_rolled_over:
                self.current += self.incr
                if self.loop and self.current > self.loop_limit:
                    self.current = self.start
                    self.rolled_over = True
            return
        inactive = self.current < len(self.active) and not self.active[self.current]
        if inactive:
            if self.sub < len(self.subs):
                self.subs[self.sub].reset()
        else:
            self._base_advance()
        if not self.subs or inactive or self.sub_rolled_over:
            done = False
            for _ in range(len(self.items)):
                self.current += 1
                if self.current >= len(self.items):
                    self.current = 0
                if self.current == self.first:
                    self.rolled_over = True
                done = self.active[self.current]
                if done:
                    break
            if not done:
                self.rolled_over = True

    # -- state --------------------------------------------------------------------------------
    def state(self) -> str:
        enc = Encoder(";")
        enc.append(self.current).append(self.sub)
        if self.counter:
            enc.append("true" if self.loop else "false").append(self.loop_limit)
        else:
            enc.append(self.first).append(_array(self.active))
        for s in self.subs:
            enc.append(s.state())
        return enc.value() or ""

    def set_state(self, code: str) -> None:
        """Sets the fields from a state code; a code already read is not decoded again (a
        replay sets the same few phase states over and over)."""
        known = self._decoded.get(code)
        if known is None:
            known = self._decode(code)
            if len(self._decoded) >= 256:
                self._decoded.clear()
            self._decoded[code] = known
        self.current, self.sub, third, fourth, sub_codes = known
        if self.counter:
            self.loop, self.loop_limit = third, fourth
        else:
            self.first, self.active = third, list(fourth)
        for s, sub_code in zip(self.subs, sub_codes):
            s.set_state(sub_code)

    def _decode(self, code: str) -> tuple:
        d = Decoder(code, ";")
        current = d.next_int(self.start)
        sub = d.next_int(0)
        if self.counter:
            third: object = d.next_bool(False)
            fourth: object = d.next_int(-1)
        else:
            third = d.next_int(0)
            flags = split(d.next(""), ",") if d.has_more() else []
            active = [True] * len(self.items)
            for i in range(min(len(flags), len(active))):
                active[i] = flags[i] == "true"
            fourth = tuple(active)
        sub_codes = tuple(d.next("") if d.has_more() else "" for _ in self.subs)
        return current, sub, third, fourth, sub_codes

    # -- text ---------------------------------------------------------------------------------
    def value_string(self) -> str:
        if self.counter:
            return str(self.current)
        return self.items[self.current] if 0 <= self.current < len(self.items) else ""

    def turn_string(self) -> str:
        return format_text(self.level.turn_format or "$value$", {"value": self.value_string()})

    def active_children(self) -> list["LevelRun"]:
        if not self.subs or not 0 <= self.sub < len(self.subs):
            return []
        child = self.subs[self.sub]
        return [child, *child.active_children()]


class TrackerRun:
    """A TurnTracker: its levels, the current top level, next(), set and the turn string."""

    def __init__(self, tracker: TurnTracker, tracker_id: str):
        self.tracker = tracker
        self.id = tracker_id
        self.levels = [LevelRun(level) for level in tracker.levels]
        self.current = 0
        for level in self.levels:
            level.reset()

    @property
    def turn_format(self) -> str:
        return self.tracker.attributes.get("turnFormat", DEFAULT_TURN_FORMAT)

    def state(self) -> str:
        enc = Encoder("|")
        enc.append(self.current)
        for level in self.levels:
            enc.append(level.state())
        return enc.value() or ""

    def set_state(self, state: str) -> None:
        d = Decoder(state, "|")
        self.current = d.next_int(0)
        for level in self.levels:
            level.set_state(d.next("") if d.has_more() else "")

    def next(self) -> None:
        """TurnTracker.next: advance the current level, rolling over into the next ones."""
        if not self.levels:
            return
        initial = self.current
        level = self.levels[self.current] if 0 <= self.current < len(self.levels) else self.levels[0]
        level.advance()
        while level.rolled_over:
            self.current += 1
            if self.current >= len(self.levels):
                self.current = 0
            level = self.levels[self.current]
            if initial != self.current:
                level.set_low()
            else:
                break

    def active_levels(self) -> list[LevelRun]:
        if not 0 <= self.current < len(self.levels):
            return []
        top = self.levels[self.current]
        return [top, *top.active_children()]

    def turn_string(self) -> str:
        active = self.active_levels()
        props = {f"level{i + 1}": (active[i].turn_string() if i < len(active) else "") for i in range(15)}
        return format_text(self.turn_format, props)

    def find(self, name: str) -> list[tuple[LevelRun, ...]]:
        """Paths (top level first) to every level named `name`."""
        out: list[tuple[LevelRun, ...]] = []

        def visit(level: LevelRun, path: tuple[LevelRun, ...]) -> None:
            here = path + (level,)
            if level.level.name == name:
                out.append(here)
            for s in level.subs:
                visit(s, here)

        for top in self.levels:
            visit(top, ())
        return out

    def set_level(self, path: tuple[LevelRun, ...], value: str) -> None:
        """Make the level at the end of `path` current (and its parents point at it) with `value`:
        a counter's number or a list's item. Raises ValueError for a value the level cannot take."""
        level = path[-1]
        if level.counter:
            try:
                level.current = int(value)
            except ValueError:
                raise ValueError(f"turn level {level.level.name!r} counts numbers, not {value!r}") from None
        else:
            if value not in level.items:
                raise ValueError(f"turn level {level.level.name!r} has no item {value!r} "
                                 f"(items: {', '.join(level.items)})")
            level.current = level.items.index(value)
        self.current = self.levels.index(path[0])
        for parent, child in zip(path, path[1:]):
            parent.sub = parent.subs.index(child)
