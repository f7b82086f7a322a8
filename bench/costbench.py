"""What the cost benches share: the median time of one call, and of the thread hop a fix would add
(the knowledge packs' evidence scripts, ``bench_*_costs.py``, time a library call this way, side by side
with a reference call and the hop)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import statistics
import sys
import time
from collections.abc import Callable
from types import ModuleType


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


def add_target_option(parser: argparse.ArgumentParser, package: str) -> None:
    """``--path``: a directory to import the measured package from (a ``pip install --target``)."""
    parser.add_argument("--path", help=f"a directory to import {package} from (a pip --target)")


def import_measured(path: str | None, package: str, *modules: str) -> list[ModuleType] | None:
    """``modules`` (default: ``package``) imported, ``path`` first on ``sys.path``; ``None``, said
    on stderr, when the package is not importable (the bench then exits 2)."""
    if path:
        sys.path.insert(0, path)
    try:
        return [importlib.import_module(name) for name in modules or (package,)]
    except ImportError:
        print(f"{package} is not importable: pip install {package}, or pass --path", file=sys.stderr)
        return None
