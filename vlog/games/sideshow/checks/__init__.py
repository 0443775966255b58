"""Sideshow's checks, one concern per module, each registered with the inventory items it reports."""
