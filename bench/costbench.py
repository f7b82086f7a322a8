"""What the cost benches share: the median time of one call (the knowledge packs' evidence scripts,
``bench_*_costs.py``, time a library call this way, side by side with a reference call)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def timed(call: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of one call, over ``repeat`` calls."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs)
