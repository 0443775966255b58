"""vlog.kit.registry: check functions registered with the inventory items they report."""
from __future__ import annotations

import pytest

from vlog.kit.registry import CheckSpec, Registry


def test_a_check_registers_with_the_items_it_reports():
    registry = Registry("toy", {"MV-01", "MV-02", "CB-01"})

    @registry.check("MV-01", "MV-02")
    def judge_move():
        return "moved"

    @registry.check("CB-01")
    def judge_attack():
        return "attacked"

    assert judge_move() == "moved"                       # the function itself is unchanged
    assert registry.ids() == {"MV-01", "MV-02", "CB-01"}
    assert [r.function for r in registry.judged_by("MV-02")] == [judge_move]
    assert registry.judged_by("ST-01") == ()
    assert registry.registered()[1].name.endswith("test_a_check_registers_with_the_items_it_reports.<locals>.judge_attack")


def test_checks_of_the_logs_start_and_end_register_on_them_and_events_are_occasions():
    registry = Registry("toy", {"MV-01", "SU-01", "VC-01"})

    @registry.check("SU-01", on="begin")
    def judge_setup():
        pass

    @registry.check("VC-01", on="end")
    def tally():
        pass

    @registry.check("MV-01")
    def judge_move():
        pass

    assert registry.called_on("begin") == (judge_setup,) and registry.called_on("end") == (tally,)
    assert registry.called_on(None) == (judge_move,) and registry.registered()[0].on == "begin"
    with pytest.raises(ValueError, match="MV-01: a check is registered on one of 'begin', 'end', not 'moved'; "
                                         "the events it judges are its items' occasions"):
        registry.check("MV-01", on="moved")


def test_an_id_the_inventory_lacks_fails_where_the_check_is_defined():
    registry = Registry("toy", {"MV-01"})
    with pytest.raises(ValueError, match=r"judge_typo: MV-10 not in the toy inventory"):
        @registry.check("MV-01", "MV-10")
        def judge_typo():
            pass
    with pytest.raises(ValueError, match="at least one"):
        registry.check()
    assert registry.registered() == ()


def test_a_spec_gives_the_report_its_check_info():
    spec = CheckSpec("toy/MV-01", "6.1", "a move within the allowance")
    assert spec.info().to_dict() == {"id": "toy/MV-01", "rule": "6.1", "title": "a move within the allowance"}


def test_a_check_of_one_event_class_among_its_items_occasions_is_called_for_that_class_only():
    from vlog.kit.inventory import Inventory, Item
    from vlog.kit.steps import Moved, Placed, Removed

    inventory = Inventory("toy", (Item("MV-09", (), "6.54", None, "landed units stay", "implemented",
                                       occasions=("moved", "placed")),))
    registry = Registry("toy", inventory)

    @registry.check("MV-09", event=Placed)
    def note_arrival():
        pass

    @registry.check("MV-09", event=Moved)
    def judge_stay():
        pass

    @registry.check("MV-09")
    def every_occasion():
        pass

    assert registry.judging("placed", Placed) == (note_arrival, every_occasion)
    assert registry.judging("moved", Moved) == (judge_stay, every_occasion)
    assert registry.judging("moved") == (every_occasion,)
    with pytest.raises(ValueError, match=r"judges Removed events, but 'removed' is among the occasions of none of "
                                         r"MV-09 \(data/inventory.json\)"):
        @registry.check("MV-09", event=Removed)
        def judge_removal():
            pass


def test_a_helper_reports_its_items_and_is_never_dispatched():
    class Item:
        def __init__(self, occasions):
            self.occasions = occasions

    class Known(dict):
        def item(self, short):
            return self[short]

    registry = Registry("toy", Known({"MV-01": Item(("moved",)), "MV-16": Item(("moved",))}))

    @registry.reports("MV-16")
    def judge_end_of_move(board, unit):
        return ["ended"]

    @registry.check("MV-01")
    def judge_move(game, moved, view):
        return judge_end_of_move(None, moved)

    assert registry.judging("moved") == (judge_move,) and registry.called_on(None) == (judge_move,)
    assert registry.ids() == {"MV-01", "MV-16"}                     # it counts for what it reports
    assert [r.function for r in registry.judged_by("MV-16")] == [judge_end_of_move]
    assert registry.judged_by("MV-16")[0].helper and not registry.judged_by("MV-01")[0].helper
    with pytest.raises(ValueError, match=r"judge_typo: MV-99 not in the toy inventory"):
        @registry.reports("MV-99")
        def judge_typo():
            pass
    with pytest.raises(ValueError, match="at least one"):
        registry.reports()
