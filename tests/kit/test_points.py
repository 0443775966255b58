"""vlog/kit/points.py: a side's points account, judged as a range when a gain rests on missing data."""
from vlog.engine.judge import Ruling, Unknown
from vlog.kit.points import Account


def test_gains_and_spends_of_known_amounts():
    account = Account().gain(3).gain(2)
    assert account.exact == 5
    for _ in range(5):
        account, short = account.spend()
        assert short is None
    assert account.exact == 0


def test_spending_past_a_known_balance_is_proven():
    account, short = Account().gain(1).spend()
    assert short is None
    account, short = account.spend()
    assert short is not None and short.ruling is Ruling.PROVEN and (short.low, short.high) == (0, 0)
    assert account.exact == 0


def test_an_unknown_gain_makes_a_spend_past_its_floor_possible_naming_the_data():
    account = Account().gain(2).gain(Unknown("tables.json opgt Smuts 7", at_least=0, at_most=4))
    assert (account.low, account.high) == (2, 6)
    for _ in range(2):
        account, short = account.spend()
        assert short is None
    account, short = account.spend()
    assert short.ruling is Ruling.POSSIBLE and short.depends_on == ("tables.json opgt Smuts 7",)
    assert (account.low, account.high) == (0, 3)


def test_past_the_ceiling_of_an_unknown_gain_is_proven():
    account = Account().gain(Unknown("cell", at_least=0, at_most=1))
    account, _ = account.spend()
    account, short = account.spend()
    assert short.ruling is Ruling.PROVEN


def test_an_unbounded_gain_is_never_proven_short():
    account = Account().gain(Unknown("cell"))
    account, short = account.spend(3)
    assert short.ruling is Ruling.POSSIBLE and account.high is None


def test_saving_keeps_at_most_the_cap_and_a_forfeit_keeps_nothing():
    account = Account().gain(12)
    assert account.saved(10).exact == 10
    assert Account().gain(4).saved(10).exact == 4
    ranged = Account().gain(Unknown("cell", at_least=2, at_most=14)).saved(10)
    assert (ranged.low, ranged.high) == (2, 10) and ranged.depends_on == {"cell"}
    assert account.lost().exact == 0
