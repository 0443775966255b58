"""Dice rolls read from chat reports: default formats, module formats, silent buttons, real logs."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import sample_params
from vlog.dice_rolls import (
    DEFAULT_REPORT_FORMAT,
    LEGACY_REPORT_FORMAT,
    DiceButtonSpec,
    DiceReportReader,
    compile_pattern,
    dice_rolls,
)
from vlog.dicestats import DiceRoll, dice_stats
from vlog.errors import ModuleError
from vlog.vassal.commands import Chat, MutableProperty
from vlog.vassal.sequence import split


@dataclass
class FakeStep:
    index: int
    commands: list = field(default_factory=list)


def chat(text: str) -> Chat:
    return Chat(text)


def vassal_report(fmt: str, properties: dict[str, str]) -> str:
    """What DiceButton.formatResult writes: FormattedStringExpression.evaluate (localized, so
    unknown properties print nothing), then the "*" / "* " prefix."""
    tokens = split(fmt, "$") if "$" in fmt else [fmt]
    out = []
    for index, token in enumerate(tokens):
        if not token:
            continue
        if index % 2 == 1 and index < len(tokens) - 1:
            out.append(properties.get(token, ""))
        else:
            out.append(token)
    text = "".join(out)
    return ("*" + text if text.startswith("*") else "* " + text) if text else ""


def test_default_formats_without_module():
    reader = DiceReportReader()
    assert reader.roll("*** 2d6 = 3,5 *** &lt;Alice&gt;", step=4) == DiceRoll(4, "Alice", "2d6", 2, 6, (3, 5), 8)
    assert reader.roll("*** 3d6 = 3,4,1 *** <test>") == DiceRoll(None, "test", "3d6", 3, 6, (3, 4, 1), 8)
    assert reader.roll("*** d10 = 7 *** <Bo b>") == DiceRoll(None, "Bo b", "d10", 1, 10, (7,), 7)
    # the name does not say the dice: sides unknown, so the statistics do not count the roll
    roll = reader.roll("*** Combat = 4,2 *** &lt;Bob&gt;")
    assert roll == DiceRoll(None, "Bob", "Combat", 2, 0, (4, 2), 6)
    assert dice_stats([roll]).rejected[0].reason.startswith("number of sides unknown")


@pytest.mark.parametrize(
    "text",
    [
        "&lt;Bob&gt; - *** 2d6 = 1,2 *** &lt;Bob&gt;",      # typed by a player
        "*** 2d6 = 1,2 *** &lt;Bob&gt; and more",
        "*** 2d6 = 1,x *** &lt;Bob&gt;",
        "* Bob moves 1/2 Bn from 0203 to 0304",
        "*** 2d6 = " + "1," * 3000 + "1 *** <Bob>",          # longer than any report
    ],
)
def test_not_dice_reports(text):
    assert DiceReportReader().roll(text) is None


def test_module_format_with_single_results_and_side():
    spec = DiceButtonSpec(
        name="Attack", n_dice=2, n_sides=6,
        report_format="$PlayerSide$ rolls $name$: $result1$ + $result2$ = $numericalTotal$",
    )
    reader = DiceReportReader([spec])
    assert reader.roll("* Italian rolls Attack: 6 + 2 = 8", step=9) == DiceRoll(9, "Italian", "Attack", 2, 6, (6, 2), 8)
    assert reader.roll("* Italian rolls Defence: 6 + 2 = 8") is None     # another button's name


def test_module_format_report_total_with_modifiers():
    spec = DiceButtonSpec(name="Fire", n_dice=2, n_sides=6, plus=1, add_to_total=2, report_total=True,
                          report_format=DEFAULT_REPORT_FORMAT)
    roll = DiceReportReader([spec]).roll("*** Fire = 12 *** &lt;Bob&gt;")
    assert roll == DiceRoll(None, "Bob", "Fire", 2, 6, (), 8)        # 12 - 2 - 2 x 1


def test_plus_is_taken_off_each_die():
    spec = DiceButtonSpec(name="Plus", n_dice=2, n_sides=6, plus=1, report_format=DEFAULT_REPORT_FORMAT)
    roll = DiceReportReader([spec]).roll("*** Plus = 7,2 *** &lt;Bob&gt;")
    assert roll is not None and roll.faces == (6, 1)


def test_kept_dice_use_raw_rolls_only():
    keep_raw = DiceButtonSpec(name="Best", n_dice=3, n_sides=6, keeping=True,
                              report_format="$name$: kept $result$ of $rawRolls$")
    roll = DiceReportReader([keep_raw]).roll("* Best: kept 6,5 of 6, 1, 5")
    assert roll is not None and (roll.faces, roll.n_dice) == ((6, 1, 5), 3)
    keep = DiceButtonSpec(name="Best", n_dice=3, n_sides=6, keeping=True, report_format="$name$: kept $result$")
    roll = DiceReportReader([keep]).roll("* Best: kept 6,5")
    assert roll is not None and (roll.faces, roll.total) == ((), None)      # a biased subset: not counted
    assert dice_stats([roll]).rejected[0].reason == "neither faces nor a total reported"


def test_prompted_button_reads_dice_from_report():
    spec = DiceButtonSpec(name="Any", prompt=True, report_format="$name$ $nDice$d$nSides$: $result$")
    roll = DiceReportReader([spec]).roll("* Any 3d10: 10,1,7")
    assert roll is not None and (roll.n_dice, roll.n_sides, roll.faces) == (3, 10, (10, 1, 7))


def test_format_starting_with_star_and_with_property():
    assert compile_pattern(DiceButtonSpec(name="x", report_format="** $name$ = $result$")).regex.pattern.startswith(r"\*\*")
    spec = DiceButtonSpec(name="x", n_dice=1, n_sides=6, report_format="$PlayerName$ rolled $result$")
    assert DiceReportReader([spec]).roll("* Bob rolled 3") == DiceRoll(None, "Bob", "x", 1, 6, (3,), 3)


def test_uninvertible_formats():
    assert compile_pattern(DiceButtonSpec(name="x", report_format="")) is None
    assert compile_pattern(DiceButtonSpec(name="x", report_format="{Name + Result}")) is None
    reader = DiceReportReader([DiceButtonSpec(name="x", report_format="")])
    assert [s.name for s in reader.unsupported] == ["x"]


def test_silent_button_is_read_from_its_result_property():
    spec = DiceButtonSpec.from_attributes({
        "addToTotal": "0", "nDice": "1", "nSides": "6", "name": "dice", "plus": "0", "prompt": "false",
        "reportFormat": "", "reportTotal": "false", "sortDice": "false",
    })
    steps = [
        FakeStep(1, [MutableProperty("dice_result", "1", "4", "Module")]),
        FakeStep(2, [chat("&lt;Ann&gt; - hello"), MutableProperty("other_result", "1", "3", "Module")]),
        FakeStep(3, [MutableProperty("dice_result", "4", "x", "Module")]),
    ]
    rolls = DiceReportReader([spec]).rolls(steps, log="g.vlog")
    assert rolls == [
        DiceRoll(1, None, "dice", 1, 6, (4,), 4, "g.vlog"),
        DiceRoll(3, None, "dice", 1, 6, (), None, "g.vlog"),
    ]


def test_from_attributes():
    spec = DiceButtonSpec.from_attributes({"name": "DR", "nDice": "2", "nSides": "6", "keepOption": "l"})
    assert spec == DiceButtonSpec(name="DR", n_dice=2, n_sides=6, keeping=True, report_format=DEFAULT_REPORT_FORMAT)
    assert DiceButtonSpec.from_attributes({"label": "old"}).name == "old"
    with pytest.raises(ModuleError, match="nSides='six' is not a number"):
        DiceButtonSpec.from_attributes({"name": "DR", "nSides": "six"}, where="buildFile.xml")


FORMATS = [
    DEFAULT_REPORT_FORMAT,
    LEGACY_REPORT_FORMAT,
    "$PlayerName$ ($PlayerSide$) rolled $name$: $result$",
    "** $name$ [$rawRolls$] = $numericalTotal$ by $PlayerName$",
    "$name$ $result1$-$result2$-$result3$ $unknownGlobal$ end",
    "Roll\\$ $name$ = $result$ *** $PlayerName$",
]


@given(
    fmt=st.sampled_from(FORMATS),
    faces=st.lists(st.integers(1, 12), min_size=3, max_size=3),
    plus=st.integers(0, 2),
    player=st.text(alphabet="ABCxyz *-<>&;", min_size=1, max_size=8),
)
def test_reports_written_as_vassal_writes_them_read_back(fmt, faces, plus, player):
    spec = DiceButtonSpec(name="Bat 3d12", n_dice=3, n_sides=12, plus=plus, report_format=fmt)
    kept = [f + plus for f in faces]
    properties = {
        "name": "Bat 3d12", "result": ",".join(map(str, kept)), "nDice": "3", "nSides": "12",
        "plus": str(plus), "addToTotal": "0", "numericalTotal": str(sum(kept)),
        "rawRolls": ", ".join(map(str, faces)), "PlayerName": player, "PlayerSide": "Side",
        **{f"result{i + 1}": str(v) for i, v in enumerate(kept)},
    }
    text = vassal_report(fmt, properties)
    roll = DiceReportReader([spec]).roll(text, step=1)
    assert roll is not None, text
    assert (roll.faces, roll.n_dice, roll.n_sides, roll.dice_name) == (tuple(faces), 3, 12, "Bat 3d12")
    if "PlayerName" in fmt:
        assert roll.player is not None and player in roll.player


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("vasl-templates/3d6.vlog"))
def test_real_log_3d6(path):
    from vlog.vassal.savefile import read

    log = read(path)
    rolls = dice_rolls(log, name="3d6.vlog")
    # steps 1, 2, 4, 5 are VASL's own dice (ASLDiceButton: "DR" two d6, "dr" one d6), steps 3
    # and 6 VASSAL's DiceButton "3d6" with its default report
    assert rolls == [
        DiceRoll(1, "test", "IFT DR", 2, 6, (6, 6), 12, "3d6.vlog"),
        DiceRoll(2, "test", "RS dr", 1, 6, (2,), 2, "3d6.vlog"),
        DiceRoll(3, "test", "3d6", 3, 6, (3, 4, 1), 8, "3d6.vlog"),
        DiceRoll(4, "test", "IFT DR", 2, 6, (6, 5), 11, "3d6.vlog"),
        DiceRoll(5, "test", "TH DR", 2, 6, (6, 2), 8, "3d6.vlog"),
        DiceRoll(6, "test", "3d6", 3, 6, (2, 4, 2), 8, "3d6.vlog"),
    ]
    # VASSAL also logged each DiceButton result as the button's `_result` property, in the same step
    steps = {s.index: s for s in log.steps}
    for roll in (r for r in rolls if r.dice_name == "3d6"):
        (prop,) = [c for c in steps[roll.step].commands if isinstance(c, MutableProperty)]
        assert (prop.name, prop.new) == ("3d6_result", ",".join(map(str, roll.faces)))
    groups = {g.kind: g for g in dice_stats(rolls).players}
    assert (groups["3d6"].player, groups["3d6"].rolls, groups["3d6"].face_counts) == ("test", 2, (1, 2, 1, 2, 0, 0))
    assert (groups["2d6"].rolls, groups["2d6"].face_counts) == (3, (0, 1, 0, 0, 1, 4))
    assert (groups["1d6"].rolls, groups["1d6"].face_counts) == (1, (0, 1, 0, 0, 0, 0))


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("vasl-templates/*.vlog"))
def test_every_roll_in_real_logs_matches_its_result_property(path):
    from vlog.vassal.savefile import read

    log = read(path)
    rolls = dice_rolls(log)
    results = [
        (s.index, c.new) for s in log.steps for c in s.commands
        if isinstance(c, MutableProperty) and c.name.endswith("_result")
    ]
    # VASSAL DiceButton rolls are the ones that set a `_result` property; VASL's own dice don't
    button_rolls = [r for r in rolls if not r.dice_name.endswith(("DR", "dr"))]
    assert [(r.step, ",".join(map(str, r.faces))) for r in button_rolls] == results


def test_hostile_chat_cannot_make_matching_backtrack():
    # four free-text properties: a plain lazy regex would try every split of the text (n^4)
    spec = DiceButtonSpec("X", n_dice=1, n_sides=6,
                          report_format="$PlayerName$ a $PlayerSide$ a $x$ a $y$ a $name$ = $result$")
    reader = DiceReportReader([spec])
    assert reader.roll("* " + " a" * 2000) is None
    assert reader.roll("* Bob a Red a q a r a X = 4") == DiceRoll(None, "Bob", "X", 1, 6, (4,), 4)


def test_prompted_dice_count_is_bounded():
    spec = DiceButtonSpec(name="Any", prompt=True, report_format="$name$ $nDice$d$nSides$: $result1$ $numericalTotal$")
    roll = DiceReportReader([spec]).roll("* Any 999999999d6: 3 3")
    assert roll is not None and roll.faces == ()
    assert dice_stats([roll]).rejected[0].reason == "999999999 dice is outside 1..100"


@given(text=st.text(alphabet="*&lt;gt;= ,0123456789-dDxX<>$\n", max_size=80))
def test_any_chat_text_is_a_roll_or_none(text):
    specs = [
        DiceButtonSpec(None),
        DiceButtonSpec("X", prompt=True, report_format="$name$ $nDice$d$nSides$ $result$ $rawRolls$ $PlayerName$"),
    ]
    roll = DiceReportReader(specs).roll(text)
    assert roll is None or isinstance(roll, DiceRoll)
    dice_stats([roll] if roll else [])


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("bushido/buildFile"))
def test_real_module_silent_button(path):
    from vlog.dice_rolls import module_buttons
    from vlog.vassal.module import read_module

    (spec,) = module_buttons(read_module(path))
    assert spec == DiceButtonSpec(name="dice", n_dice=1, n_sides=6, report_format="")
    log = type("Log", (), {"path": "b.vlog", "steps": [FakeStep(2, [MutableProperty("dice_result", "1", "5", "Module")])]})()
    assert dice_rolls(log, module=read_module(path)) == [DiceRoll(2, None, "dice", 1, 6, (5,), 5, "b.vlog")]


@pytest.mark.parametrize("text, expected", [
    ("*** (IFT DR) 6,6 ***   <test>      [2 / 3   avg   10.00 (10.00)]    (01.90)", ("IFT DR", (6, 6))),
    ("*** (RS dr) 2 ***   &lt;Bob&gt;", ("RS dr", (2,))),
    ("*** (IFT DR) 6 ***   <test>", None),      # a DR is two dice
    ("*** (IFT DR) 7,1 ***   <test>", None),    # six-sided dice only
    ("*** (IFT DR) 6,6 *** no player", None),
])
def test_vasl_dice_reports(text, expected):
    roll = DiceReportReader().roll(text, step=1)
    assert (None if roll is None else (roll.dice_name, roll.faces)) == expected
    if roll is not None:
        assert (roll.n_sides, roll.total) == (6, sum(roll.faces))
