"""Shared fixtures: the real VASSAL sample files beside the project, skipped when absent."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT.parent / "shared" / "samples"
FIXTURES = ROOT / "fixtures"


def sample_files(*patterns: str) -> list[Path]:
    """Sample files matching the glob patterns, [] when ../shared/samples is absent."""
    if not SAMPLES.is_dir():
        return []
    out: list[Path] = []
    for pattern in patterns:
        out.extend(sorted(SAMPLES.glob(pattern)))
    return out


def sample_params(*patterns: str) -> list:
    """pytest params for sample files, one skipped param when the samples are absent."""
    files = sample_files(*patterns)
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/samples is absent"))]
    return [pytest.param(p, id=str(p.relative_to(SAMPLES))) for p in files]


@pytest.fixture
def samples_dir() -> Path:
    if not SAMPLES.is_dir():
        pytest.skip("../shared/samples is absent")
    return SAMPLES
