"""Work spread over worker processes, with results in the order of the work given.

Results do not depend on the number of processes: each item is computed alone and the results
are put back in order. With one job nothing is forked. The processes are started once (`Workers`)
and serve every stage of a batch (reading the headers, judging the games). `bar`, when given, is
called once per item finished (the progress display).
"""
from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["Workers", "default_jobs"]


def default_jobs() -> int:
    """The machine's cores (those this process may use)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Workers:
    """Up to `jobs` worker processes, started on first use and ended with the `with` block."""

    def __init__(self, jobs: int):
        self.jobs = jobs
        self._pool: Executor | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown()

    def map(self, fn: Callable[[T], R], items: Sequence[T], bar: Callable[[], None] | None = None) -> list[R]:
        """`[fn(item) for item in items]`, computed by the workers (here, with one job)."""
        if self.jobs <= 1 or len(items) <= 1:
            out = []
            for item in items:
                out.append(fn(item))
                if bar is not None:
                    bar()
            return out
        if self._pool is None:
            # forkserver: workers do not inherit the threads of the parent (the progress display's)
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=multiprocessing.get_context("forkserver"))
        results: list[R | None] = [None] * len(items)
        futures = {self._pool.submit(fn, item): i for i, item in enumerate(items)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if bar is not None:
                bar()
        return results  # type: ignore[return-value]
