"""What the cost benches share: the median time of one call, and of the thread hop a fix would add
(the knowledge packs' evidence scripts, ``bench_*_costs.py``, time a library call this way, side by side
with a reference call and the hop)."""

from __future__ import annotations

import asyncio
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


def hop() -> float:
    """Microseconds of one ``asyncio.to_thread`` round trip of a no-op, on a running loop."""

    async def once() -> float:
        await asyncio.to_thread(int)  # warm the executor
        start = time.perf_counter()
        for _ in range(50):
            await asyncio.to_thread(int)
        return (time.perf_counter() - start) * 1e6 / 50

    return asyncio.run(once())
