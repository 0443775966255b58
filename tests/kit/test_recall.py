"""Answers kept across positions (vlog/kit/recall.py, RulesEngine.recalled): built again exactly
when the inputs given differ from the last ones, whatever objects carry them."""
from __future__ import annotations

import pytest

from vlog.kit.recall import Recall


def test_an_answer_is_built_again_only_when_its_inputs_change():
    recall: Recall[list] = Recall()
    built = []

    def build():
        built.append(1)
        return ["answer", len(built)]

    first = recall.get({"a": (1, 2)}, build)
    assert recall.get({"a": (1, 2)}, build) is first          # equal inputs, another dict: kept
    changed = recall.get({"a": (1, 3)}, build)
    assert changed == ["answer", 2] and recall.built == 2
    assert recall.get({"a": (1, 2)}, build) == ["answer", 3]  # one answer kept, not every one seen


def test_a_build_that_fails_keeps_the_last_answer_for_its_inputs():
    recall: Recall[str] = Recall()
    assert recall.get(1, lambda: "one") == "one"
    with pytest.raises(ZeroDivisionError):
        recall.get(2, lambda: str(1 / 0))
    assert recall.get(1, lambda: "built again") == "one"


def test_none_is_an_input_like_any_other():
    recall: Recall[int] = Recall()
    assert recall.get(None, lambda: 1) == 1
    assert recall.get(None, lambda: 2) == 1 and recall.built == 1


def test_an_engine_keeps_one_recall_per_key():
    from tests.toy_game import installed

    with installed():
        from tests.toy_game.toy_skirmish.rules import ToySkirmish

        game = ToySkirmish()
    assert game.recalled("a", (1,), lambda: "a1") == "a1"
    assert game.recalled("b", (1,), lambda: "b1") == "b1"
    assert game.recalled("a", (1,), lambda: "again") == "a1"
    assert game.recalled("b", (2,), lambda: "b2") == "b2"
