"""Lion of Judah lists what it keeps from step to step as ledgers on the kit's protocol
(vlog/kit/ledger.py), each told of the log through the same five hooks."""
from __future__ import annotations

from vlog.games.lion_of_judah.rules import LionOfJudah
from vlog.kit.ledger import Ledger

HOOKS = ("begin", "step", "event", "phase", "end")


def test_every_ledger_hears_the_five_hooks_and_serves_the_engine():
    game = LionOfJudah()
    assert len(game.ledgers) >= 15
    for ledger in game.ledgers:
        assert isinstance(ledger, Ledger) and ledger.game is game
        shadowed = [h for h in HOOKS if h in getattr(ledger, "__dict__", {})]
        assert shadowed == [], f"{type(ledger).__name__} hides its hooks {shadowed} with data"
        assert all(callable(getattr(ledger, h)) for h in HOOKS)


def test_each_ledger_is_listed_once():
    ledgers = list(LionOfJudah().ledgers)
    assert len({id(ledger) for ledger in ledgers}) == len(ledgers)
