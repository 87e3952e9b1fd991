"""Timing helper shared by the benchmark scripts (imported from the scripts' own folder)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(repeat: int, run: Callable[[], int]) -> tuple[int, float]:
    """(count, best CPU seconds) of ``repeat`` runs of ``run``. CPU time, not wall time: the
    machines these run on are shared, and other load counts less this way."""
    best = float("inf")
    count = 0
    for _ in range(repeat):
        started = time.process_time()
        count = run()
        best = min(best, time.process_time() - started)
    return count, best
