"""The dice that follow a declaration: gathered from the steps after it until it is closed."""
from __future__ import annotations

from vlog.dicestats import DiceRoll
from vlog.kit.rolls import FollowingDice, faces_of


def roll(step, faces=(), n=None, total=None, player="Alice"):
    n = n if n is not None else len(faces)
    return DiceRoll(step, player, f"{n}d6", n, 6, tuple(faces), total if total is not None else sum(faces))


def test_the_rolls_after_a_declaration_are_its_own_until_the_next():
    dice = FollowingDice()
    assert dice.open("fire Trieste", 4) is None
    dice.rolled(4, [roll(4, (6,))])                      # the declaration's own step: not its roll
    dice.rolled(5, [roll(5, (2, 3))])
    dice.rolled(6, [roll(6, (6,))])
    first = dice.open("fire Gorizia", 7)
    assert first.declaration == "fire Trieste" and first.step == 4
    assert first.faces == [(2, 5), (3, 5), (6, 6)] and first.values == [2, 3, 6] and first.dice == 3
    dice.rolled(8, [roll(8, (1,))])
    last = dice.close()
    assert last.declaration == "fire Gorizia" and last.values == [1]
    assert dice.close() is None
    dice.rolled(9, [roll(9, (4,))])                      # nothing open: nobody's roll
    assert dice.current is None


def test_a_roll_showing_only_a_total_counts_as_dice_but_not_as_faces():
    dice = FollowingDice()
    dice.open("air attack", 1)
    dice.rolled(2, [DiceRoll(2, "Alice", "2d6", 2, 6, (), 7)])
    dice.rolled(3, [DiceRoll(3, "Alice", "1d6", 1, 6, (), 5)])
    answered = dice.close()
    assert answered.dice == 3 and answered.values == [5]


def test_only_the_named_players_rolls_count_and_one_naming_nobody_does():
    dice = FollowingDice()
    dice.open("communications", 1)
    dice.rolled(2, [roll(2, (3,), player="Bob"), roll(2, (4,), player="Alice"), roll(2, (5,), player=None)],
                player="Alice")
    assert dice.close().values == [4, 5]


def test_faces_of_a_roll():
    assert faces_of(roll(1, (2, 5))) == (2, 5)
    assert faces_of(DiceRoll(1, None, "1d6", 1, 6, (), 4)) == (4,)
    assert faces_of(DiceRoll(1, None, "2d6", 2, 6, (), 9)) == ()
