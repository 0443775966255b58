"""Fixtures for the renderer tests."""
from __future__ import annotations

import pytest

from vlog.findings import Report

from .sample import build_report


@pytest.fixture
def report() -> Report:
    return build_report()
