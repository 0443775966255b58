"""Sideshow's rule inventory (data/inventory.json) and the registry its checks register with."""
from __future__ import annotations

from vlog.kit.inventory import load_inventory
from vlog.kit.registry import Registry

from . import GAME

__all__ = ["INVENTORY", "REGISTRY"]

INVENTORY = load_inventory(GAME)
REGISTRY = Registry(GAME, INVENTORY)
