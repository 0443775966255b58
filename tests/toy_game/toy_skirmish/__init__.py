"""Toy Skirmish (SYNTHETIC): its data in data/*.json, its rules inventory in RULES.md and
data/inventory.json, its rules engine in rules.py."""
