"""Work spread over worker processes, with results in the order of the work given.

Results do not depend on the number of processes: each item is computed alone and the results
are put back in order. With one job (or one item) nothing is forked. `bar`, when given, is called
once per item finished (the progress display).
"""
from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["run", "default_jobs"]


def default_jobs() -> int:
    """The machine's cores (those this process may use)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run(fn: Callable[[T], R], items: Sequence[T], jobs: int, bar: Callable[[], None] | None = None) -> list[R]:
    """`[fn(item) for item in items]`, computed by up to `jobs` processes."""
    if jobs <= 1 or len(items) <= 1:
        out = []
        for item in items:
            out.append(fn(item))
            if bar is not None:
                bar()
        return out
    results: list[R | None] = [None] * len(items)
    # forkserver: workers do not inherit the threads of the parent (the progress display's)
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=min(jobs, len(items)), mp_context=context) as pool:
        futures = {pool.submit(fn, item): i for i, item in enumerate(items)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if bar is not None:
                bar()
    return results  # type: ignore[return-value]
