#!/usr/bin/env python
"""What starting a thread and building an event loop cost on the loop: the evidence of the
``thread-start`` and ``loop-build`` cost classes (``knowledge/costs.py``).

A bridge that runs an async SDK in a thread of its own (an MCP client on a private loop) often builds
that loop and starts that thread per rollout, on the rollout loop. This script times, in one process
and interleaved, medians of ``--repeat`` rounds of ``--calls`` calls each, in microseconds per call:

* ``threading.Thread(target=...)``: the object alone (no system call);
* ``Thread.start()``: the ``clone`` of a new OS thread and the wait for it to signal it runs
  (``Thread.start`` waits on ``self._started``); the target parks on an event, released and joined
  after the round, outside the timing;
* ``asyncio.new_event_loop()``: a selector loop (an epoll instance and a self-pipe socket pair),
  closed after the round, outside the timing; ``loop.close()`` timed on its own;
* for reference, one ``asyncio.to_thread`` hop of a no-op from a running loop (what moving a call
  off the loop costs: a call cheaper than it is not worth moving).

Run it while the machine is loaded as usual: the thread start waits for the scheduler to run the new
thread, which on a busy machine is the larger part. Nothing asserts an absolute time.

Usage::

    python bench/bench_thread_start.py [--calls 200] [--repeat 7]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import threading
import time


def _thread_objects(calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        threading.Thread(target=lambda: None, daemon=True)
    return time.perf_counter() - start


def _thread_starts(calls: int) -> float:
    release = threading.Event()
    threads = [threading.Thread(target=release.wait, daemon=True) for _ in range(calls)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    elapsed = time.perf_counter() - start
    release.set()
    for thread in threads:
        thread.join()
    return elapsed


def _loop_builds(calls: int) -> tuple[float, float]:
    start = time.perf_counter()
    loops = [asyncio.new_event_loop() for _ in range(calls)]
    built = time.perf_counter() - start
    start = time.perf_counter()
    for loop in loops:
        loop.close()
    return built, time.perf_counter() - start


def _hops(calls: int) -> float:
    async def run() -> float:
        start = time.perf_counter()
        for _ in range(calls):
            await asyncio.to_thread(lambda: None)
        return time.perf_counter() - start

    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    rounds: dict[str, list[float]] = {
        name: []
        for name in ("Thread(...)", "Thread.start()", "asyncio.new_event_loop()", "loop.close()", "to_thread hop")
    }
    for _ in range(args.repeat):
        rounds["Thread(...)"].append(_thread_objects(args.calls))
        rounds["Thread.start()"].append(_thread_starts(args.calls))
        built, closed = _loop_builds(args.calls)
        rounds["asyncio.new_event_loop()"].append(built)
        rounds["loop.close()"].append(closed)
        rounds["to_thread hop"].append(_hops(args.calls))
    print(f"{args.calls} calls per round, median of {args.repeat} rounds, per call:")
    for name, times in rounds.items():
        per_call = [t / args.calls * 1e6 for t in times]
        print(f"  {name:26} {statistics.median(per_call):8.1f} us   (max round {max(per_call):8.1f} us)")


if __name__ == "__main__":
    main()
