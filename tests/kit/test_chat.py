"""A game's chat grammars: registered once by name, read by command class, reports on request."""
from __future__ import annotations

import re

import pytest

from vlog.kit.chat import ChatGrammars
from vlog.vassal.commands import Chat, MovePiece


def grammars():
    g = ChatGrammars()
    g.add("attack", lambda c: (m := re.search(r"attack (\d{4})", c.text, re.I)) and m.group(1),
          reports=True)
    g.add("greeting", lambda c: c.message if c.message.startswith("hello") else None)
    return g


LINES = [Chat("&lt;Alice&gt; - Attack 1605 with Sb"), MovePiece("sb"), Chat("* Bob: attack 1707 *"),
         Chat("&lt;Bob&gt; - hello there"), Chat("* hello from a report")]


def test_each_grammar_reads_its_lines_in_order():
    g = grammars()
    assert g.read("attack", LINES) == ["1605", "1707"]          # reports read too
    assert g.read("greeting", LINES) == ["hello there"]         # typed lines only
    assert [x.name for x in g] == ["attack", "greeting"] and "attack" in g and "move" not in g


def test_a_grammar_is_registered_once_and_read_by_a_known_name():
    g = grammars()
    with pytest.raises(ValueError, match="'attack' is already registered"):
        g.add("attack", lambda c: None)
    with pytest.raises(KeyError):
        g.read("activate", LINES)


def test_lines_are_told_by_class_not_by_name():
    class Chat2:                                                # same name, not a chat line
        text = "attack 1111"
        is_report = False

    Chat2.__name__ = "Chat"
    assert grammars().read("attack", [Chat2()]) == []


def test_names_listed_splits_on_commas_and_the_word_and():
    from vlog.kit.chat import names_listed

    assert names_listed("Sb, 2E and 3E") == ("Sb", "2E", "3E")
    assert names_listed(" 1 Rifle IB ,, Band of Alula ") == ("1 Rifle IB", "Band of Alula")
    assert names_listed("Rolando,and Sandro") == ("Rolando", "Sandro")
    assert names_listed("") == ()
