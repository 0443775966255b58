"""Dice rolls read back from a log's chat: every DiceButton report becomes a `DiceRoll`.

VASSAL's DiceButton (VASSAL/build/module/DiceButton.java, `DR` and `formatResult`) writes one
chat line per roll: its `reportFormat` evaluated as a FormattedString, prefixed with "*" when
the text already starts with "*" and with "* " otherwise. The default format
`** $name$ = $result$ *** &lt;$PlayerName$&gt;` gives `*** 2d6 = 3,5 *** &lt;Alice&gt;`
(`<Alice>` before VASSAL 3.3.3). With the module's DiceButton definitions each button's format
is turned into a regular expression over its variables ($name$, $result$, $result1$ …,
$numericalTotal$, $rawRolls$, $nDice$, $nSides$, $plus$, $addToTotal$, $PlayerName$,
$PlayerSide$ …); without a module the two default formats are used and the dice are read from
the button name when it says them ("3d6", "d10"), else the number of sides stays unknown (0)
and the statistics list the roll as not counted.

Faces are the raw dice: $rawRolls$ when the format shows it, else the kept results minus the
button's `plus` (taken as VASSAL's default 0 without a module). Buttons that keep only some
dice show a biased subset, so their rolls carry faces only through $rawRolls$.
Players are named by $PlayerName$ or $PlayerSide$, never by $PlayerId$.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from vlog.dicestats import MAX_DICE, DiceRoll
from vlog.errors import ModuleError
from vlog.vassal.commands import Chat, MutableProperty
from vlog.vassal.sequence import split

DEFAULT_REPORT_FORMAT = "** $name$ = $result$ *** &lt;$PlayerName$&gt;"   # VASSAL 3.3.3 and later
LEGACY_REPORT_FORMAT = "** $name$ = $result$ *** <$PlayerName$>"         # before 3.3.3

# Longer chat lines are not dice reports anyone configured; skipping them bounds regex work.
MAX_REPORT_CHARS = 4096

_DICE_NAME = re.compile(r"(?P<n>[0-9]{0,3})[dD](?P<sides>[0-9]{1,4})")
_INT = r"-?[0-9]{1,9}"
_INT_LIST = rf"(?:{_INT}(?:,{_INT})*)?"
_RAW_LIST = r"[0-9]{1,9}(?:, [0-9]{1,9})*"
_ANY = r".*?"
_FREE = (_ANY, r".+?")     # free text: matched lazily and committed at the next literal


@dataclass(frozen=True, slots=True)
class DiceButtonSpec:
    """What a module says about one DiceButton; None where it says nothing (no module)."""

    name: str | None
    n_dice: int | None = None
    n_sides: int | None = None
    plus: int = 0
    add_to_total: int = 0
    report_total: bool = False
    keeping: bool = False           # keeps only some dice (keepDice, or keepOption s/l)
    prompt: bool = False            # asks for nDice/nSides/plus/addToTotal at each roll
    report_format: str = DEFAULT_REPORT_FORMAT

    @classmethod
    def from_attributes(cls, attributes: Mapping[str, str], *, where: str | None = None) -> DiceButtonSpec:
        """A spec from a `VASSAL.build.module.DiceButton` element's attributes (buildFile)."""
        def number(key: str, default: int) -> int:
            text = attributes.get(key)
            if text is None or text == "":
                return default
            try:
                return int(text)
            except ValueError:
                raise ModuleError(f"DiceButton attribute {key}={text[:40]!r} is not a number", where=where) from None

        name = attributes.get("name", attributes.get("label"))
        keep_option = attributes.get("keepOption", ">")
        return cls(
            name=name,
            n_dice=number("nDice", 2),
            n_sides=number("nSides", 6),
            plus=number("plus", 0),
            add_to_total=number("addToTotal", 0),
            report_total=attributes.get("reportTotal") == "true",
            keeping=attributes.get("keepDice") == "true" or keep_option in ("s", "l"),
            prompt=attributes.get("prompt") == "true",
            report_format=attributes.get("reportFormat", DEFAULT_REPORT_FORMAT),
        )


def module_buttons(module: object) -> list[DiceButtonSpec]:
    """The DiceButtons of a `vlog.vassal.module.Module`, as specs (from their buildFile attributes)."""
    return [
        DiceButtonSpec.from_attributes(button.attributes, where=f"DiceButton {button.name!r}")
        for button in getattr(module, "dice", ())
    ]


@dataclass(frozen=True, slots=True)
class _Pattern:
    spec: DiceButtonSpec
    regex: re.Pattern[str]
    groups: tuple[tuple[str, str], ...]     # (regex group, FormattedString property)


def _property_regex(prop: str, spec: DiceButtonSpec) -> tuple[str, bool]:
    """The regex for one $property$ and whether to capture it."""
    fixed = not spec.prompt
    known = {
        "nDice": spec.n_dice if fixed else None,
        "nSides": spec.n_sides if fixed else None,
        "plus": spec.plus if fixed else None,
        "addToTotal": spec.add_to_total if fixed else None,
    }
    if prop == "name":
        return (re.escape(spec.name), False) if spec.name is not None else (r".+?", True)
    if prop in known:
        value = known[prop]
        return (re.escape(str(value)), False) if value is not None else (_INT, True)
    if prop == "result":
        return (_INT if spec.report_total else _INT_LIST), True
    if re.fullmatch(r"result[1-9][0-9]{0,2}", prop):
        return f"(?:{_INT})?", True
    if prop in ("numericalTotal", "keepDice", "keepCount") or re.fullmatch(r"(?:raw)?[cC]ount[0-9]{1,4}", prop):
        return _INT, True
    if prop == "rawRolls":
        return _RAW_LIST, True
    if prop in ("PlayerName", "playerName", "PlayerSide", "playerSide"):
        return _ANY, True
    return _ANY, False      # $summary$, $PlayerId$, global properties: matched, not used


def compile_pattern(spec: DiceButtonSpec) -> _Pattern | None:
    """The regex matching this button's chat report, None for formats that cannot be inverted
    (BeanShell expressions `{...}`, or an empty format, which VASSAL does not report)."""
    fmt = spec.report_format
    if not fmt or (fmt.startswith("{") and fmt.endswith("}")):
        return None
    tokens = split(fmt, "$") if "$" in fmt else [fmt]
    items: list[tuple[str, str]] = []       # ("literal" | "free" | "value", regex)
    groups: list[tuple[str, str]] = []
    first_literal: str | None = None
    for index, token in enumerate(tokens):
        is_property = index % 2 == 1 and index < len(tokens) - 1   # FormattedStringExpression.evaluate
        if not token:
            continue
        if not is_property:
            if not items:
                first_literal = token
            items.append(("literal", re.escape(token)))
            continue
        regex, capture = _property_regex(token, spec)
        if not items:
            first_literal = ""
        free = regex in _FREE
        if capture:
            group = f"g{len(groups)}"
            groups.append((group, token))
            regex = f"(?P<{group}>{regex})"
        items.append(("free" if free else "value", regex))
    # A free-text property followed by a literal ends at that literal's first occurrence: an
    # atomic group, so hostile chat cannot make the match backtrack through every split.
    parts: list[str] = []
    i = 0
    while i < len(items):
        kind, regex = items[i]
        # (not when that literal ends the format: `(.*?)&gt;\Z` is linear and a name may hold "&gt;")
        if kind == "free" and i + 2 < len(items) and items[i + 1][0] == "literal":
            parts.append(f"(?>{regex}{items[i + 1][1]})")
            i += 2
            continue
        parts.append(regex)
        i += 1
    if first_literal is None:
        return None
    # formatResult: "*" + text when text starts with "*", else "* " + text
    prefix = r"\*" if first_literal.startswith("*") else (r"\* " if first_literal else r"\* ?")
    return _Pattern(spec, re.compile(prefix + "".join(parts), re.S), tuple(groups))


def _ints(text: str, sep: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(sep)) if text else ()


def _roll_from_match(pattern: _Pattern, match: re.Match[str], step: int | None, log: str | None) -> DiceRoll:
    spec = pattern.spec
    values: dict[str, str] = {}
    for group, prop in pattern.groups:
        value = match.group(group)
        if value is not None and prop not in values:
            values[prop] = value
    name = spec.name if spec.name is not None else values.get("name", "")
    n_dice, n_sides = spec.n_dice, spec.n_sides
    if "nDice" in values:
        n_dice = int(values["nDice"])
    if "nSides" in values:
        n_sides = int(values["nSides"])
    plus = int(values.get("plus", spec.plus))
    add_to_total = int(values.get("addToTotal", spec.add_to_total))
    if n_sides is None and spec.name is None:
        named = _DICE_NAME.fullmatch(name.strip())
        if named:
            n_sides = int(named.group("sides"))
            if n_dice is None and named.group("n"):
                n_dice = int(named.group("n"))
    faces: tuple[int, ...] = ()
    total: int | None = None
    if "rawRolls" in values:
        faces = _ints(values["rawRolls"], ", ")
    elif not spec.keeping and not spec.report_total and "result" in values:
        faces = tuple(v - plus for v in _ints(values["result"], ","))
    elif not spec.keeping and not spec.report_total and n_dice and n_dice <= MAX_DICE and all(
        values.get(f"result{i}") for i in range(1, n_dice + 1)
    ):
        faces = tuple(int(values[f"result{i}"]) - plus for i in range(1, n_dice + 1))
    if faces:
        total = sum(faces)
        if n_dice is None:
            n_dice = len(faces)
    elif not spec.keeping:
        shown = values.get("numericalTotal") or (values.get("result") if spec.report_total else None)
        if shown is not None and n_dice is not None:
            total = int(shown) - add_to_total - plus * n_dice
    player = values.get("PlayerName") or values.get("playerName") or values.get("PlayerSide") \
        or values.get("playerSide") or None
    return DiceRoll(
        step=step,
        player=player,
        dice_name=name,
        n_dice=n_dice if n_dice is not None else len(faces),
        n_sides=n_sides if n_sides is not None else 0,
        faces=faces,
        total=total,
        log=log,
    )


# VASL's own dice buttons (ASLDiceButton, not a VASSAL DiceButton) report
# `*** (IFT DR) 6,6 ***   <Player>      [2 / 3   avg …]`: "DR" is two six-sided dice and "dr" one
# (ASL uses only six-sided dice); the label says what the roll was for.
_VASL_REPORT = re.compile(
    r"\*\*\* \((?P<label>[^()<>]{0,40}?) ?(?P<kind>DR|dr)\) (?P<faces>[1-6](?:,[1-6]){0,2}) \*\*\*"
    r"\s{1,20}(?:<|&lt;)(?P<player>[^<>&]{0,100})(?:>|&gt;)[^\n]{0,400}")


def _vasl_roll(text: str, step: int | None, log: str | None) -> DiceRoll | None:
    match = _VASL_REPORT.fullmatch(text)
    if match is None:
        return None
    faces = _ints(match.group("faces"), ",")
    if len(faces) != (2 if match.group("kind") == "DR" else 1):
        return None
    name = f"{match.group('label')} {match.group('kind')}".strip()
    return DiceRoll(step, match.group("player") or None, name, len(faces), 6, faces, sum(faces), log)


def default_specs() -> tuple[DiceButtonSpec, ...]:
    """The two default report formats, for logs read without their module."""
    return (
        DiceButtonSpec(name=None, report_format=DEFAULT_REPORT_FORMAT),
        DiceButtonSpec(name=None, report_format=LEGACY_REPORT_FORMAT),
    )


class DiceReportReader:
    """Matches chat lines against the report formats of a set of DiceButtons."""

    def __init__(self, buttons: Sequence[DiceButtonSpec] | None = None):
        specs = tuple(buttons) if buttons else default_specs()
        self.buttons = specs
        compiled = [compile_pattern(spec) for spec in specs]
        # a button whose name is printed literally is tried before one matching any name
        self._patterns = sorted((p for p in compiled if p is not None), key=lambda p: p.spec.name is None)
        self.unsupported = tuple(spec for spec, p in zip(specs, compiled, strict=True) if p is None)
        # buttons that write no readable report: their rolls are read from `<name>_result`
        self._silent = {f"{spec.name}_result": spec for spec in self.unsupported if spec.name is not None}

    def roll(self, text: str, *, step: int | None = None, log: str | None = None) -> DiceRoll | None:
        """The roll a chat text reports, None when it is no DiceButton report."""
        if not text.startswith("*") or len(text) > MAX_REPORT_CHARS:
            return None
        for pattern in self._patterns:
            match = pattern.regex.fullmatch(text)
            if match:
                return _roll_from_match(pattern, match, step, log)
        return _vasl_roll(text, step, log)

    def rolls(self, steps: Iterable[object], *, log: str | None = None) -> list[DiceRoll]:
        """Every roll in a log's steps (objects with `.index` and `.commands`), in order.

        A button whose report format is empty (VASSAL then logs no chat) or a BeanShell
        expression still records each roll in its `<name>_result` property change; those are
        read instead.
        """
        out: list[DiceRoll] = []
        for step in steps:
            index = getattr(step, "index", None)
            for command in getattr(step, "commands", ()):
                if isinstance(command, Chat):
                    roll = self.roll(command.text, step=index, log=log)
                    if roll is not None:
                        out.append(roll)
                elif isinstance(command, MutableProperty) and command.name in self._silent:
                    spec = self._silent[command.name]
                    out.append(_roll_from_property(spec, command.new or "", index, log))
        return out


def _roll_from_property(spec: DiceButtonSpec, result: str, step: int | None, log: str | None) -> DiceRoll:
    """A roll from the `<name>_result` property, which holds VASSAL's $result$ string."""
    pattern = _Pattern(spec, re.compile(rf"(?P<g0>{_INT if spec.report_total else _INT_LIST})"), (("g0", "result"),))
    match = pattern.regex.fullmatch(result)
    if match is None:
        return DiceRoll(step, None, spec.name or "", spec.n_dice or 0, spec.n_sides or 0, (), None, log)
    return _roll_from_match(pattern, match, step, log)


def dice_rolls(log: object, *, module: object | None = None, buttons: Sequence[DiceButtonSpec] | None = None,
               name: str | None = None) -> list[DiceRoll]:
    """Every DiceButton roll in a `vlog.vassal.savefile.Log`, with 1-based step numbers.

    The report formats come from `buttons`, else from `module`'s DiceButtons, else VASSAL's
    defaults. `name` labels the rolls with the log they came from (default: the log's path).
    """
    if buttons is None and module is not None:
        buttons = module_buttons(module)
    label = name if name is not None else getattr(log, "path", None)
    return DiceReportReader(buttons).rolls(getattr(log, "steps"), log=None if label is None else str(label))
