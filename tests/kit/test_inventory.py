"""vlog.kit.inventory: a game's rule inventory read from its data/inventory.json."""
from __future__ import annotations

import json

import pytest

from vlog.errors import GameDataError
from vlog.gamedata import validate_inventory
from vlog.kit.inventory import Inventory, Item, load_inventory


def item(**kw) -> Item:
    base = dict(id="MV-01", tags=("pos",), rule="6.1", scenario=None, summary="Units move hex to hex",
                status="implemented", note="a path within the allowance")
    return Item(**{**base, **kw})


def test_an_item_says_what_is_judged_or_why_not():
    assert item().implemented and item().why_not() is None
    assert item().description() == "a path within the allowance"
    assert item(status="cannot be judged", note="not logged").why_not() == "cannot be judged from a log: not logged"
    assert item(status="needs data", note="the TEC").why_not() == "needs data: the TEC"
    assert item(status="not yet built", note=None).why_not() == "not yet built"
    assert item(status="not yet built", note=None).description() == "Units move hex to hex"


def test_the_scenario_mark_leads_the_description_once():
    assert item(scenario="35").description() == "(35) a path within the allowance"
    assert item(scenario="35", note="(35) a path").description() == "(35) a path"


def test_an_inventory_names_its_checks_as_findings_do():
    inventory = Inventory("toy", (item(), item(id="MV-02", status="not yet built", note=None)))
    assert inventory.check_id("MV-02") == "toy/MV-02" and "MV-02" in inventory and "MV-03" not in inventory
    with pytest.raises(KeyError):
        inventory.check_id("MV-03")
    assert [(s.id, s.implemented, s.why_not) for s in inventory.specs()] == [
        ("toy/MV-01", True, None), ("toy/MV-02", False, "not yet built")]
    assert inventory.implemented() == {"MV-01": "a path within the allowance"}


def test_a_shipped_inventory_is_held_to_its_schema_by_validate_shipped(monkeypatch):
    """Not on every run (start-up time): the tests validate it, and a broken one is named."""
    from vlog import gamedata

    real = gamedata._read_package_bytes
    broken = json.dumps({"kind": "inventory", "game": "ascari", "source": "x", "items": [{"id": "MV-01"}]})
    monkeypatch.setattr(gamedata, "_read_package_bytes", lambda package, name, game: broken.encode()
                        if name == gamedata.INVENTORY else real(package, name, game))
    assert gamedata.read_inventory("ascari")["items"] == [{"id": "MV-01"}]        # read as it is
    with pytest.raises(GameDataError, match="inventory.json"):
        gamedata.read_inventory("ascari", validate=True)


def test_the_shipped_inventory_loads_once():
    assert load_inventory("lion-of-judah") is load_inventory("Lion of Judah")


def doc(*items) -> dict:
    return {"kind": "inventory", "game": "toy", "source": "synthetic", "items": list(items)}


GOOD = {"id": "MV-01", "tags": ["pos"], "rule": "6.1", "scenario": None, "summary": "Units move",
        "status": "implemented", "note": "a path"}


@pytest.mark.parametrize("bad, where", [
    ({**GOOD, "note": None}, "$.items[id=MV-01].note"),                    # implemented says what
    ({k: v for k, v in GOOD.items() if k != "note"}, "$.items[id=MV-01]"),
    ({**GOOD, "status": "not yet built"}, "$.items[id=MV-01]"),             # nothing built, nothing to note
    ({**GOOD, "status": "done"}, "$.items[id=MV-01]"),
    ({**GOOD, "id": "move 1"}, "$.items[id=move 1].id"),
    ({**GOOD, "tags": ["feel"]}, "$.items[id=MV-01].tags[0]"),
])
def test_a_bad_item_is_named(bad, where):
    with pytest.raises(GameDataError) as caught:
        validate_inventory(doc(bad), "inventory.json", "toy")
    assert caught.value.where == where and caught.value.file == "inventory.json"


def test_an_item_listed_twice_or_another_games_file_is_refused():
    with pytest.raises(GameDataError, match="MV-01 is listed twice") as caught:
        validate_inventory(doc(GOOD, GOOD), "inventory.json", "toy")
    assert caught.value.where == "$.items[1].id"
    with pytest.raises(GameDataError, match="names game 'toy', not 'ascari'"):
        validate_inventory(json.loads(json.dumps(doc(GOOD))), "inventory.json", "ascari")
    validate_inventory(doc(GOOD), "inventory.json", "toy")
