"""Shared fixtures: the real VASSAL sample files beside the project, skipped when absent."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("vlog", deadline=None)
settings.load_profile("vlog")
# Property tests assert what holds, not how fast: no per-example deadline (speed is measured in
# tests/benchmarks/), so a loaded machine cannot fail them.



@pytest.fixture(autouse=True)
def _no_cache_between_runs(monkeypatch):
    """No test reads or leaves vlog's cache between runs (vlog.gamedata.cache_dir): each one
    validates what it loads, as a first run does; the cache's own tests give it a folder."""
    monkeypatch.setenv("VLOG_CACHE_DIR", "")


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
