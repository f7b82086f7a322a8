"""Workloads for the profiler tests and bench/bench_profile.py.

``stalls`` holds the loop at the lines marked ``# stall: NAME``; the tests find those lines by
their markers, so editing this file cannot silently break them. ``clean`` does the same amount of
awaiting and no blocking work. Each blocking operation is a module-level function the tests can
also time on its own (``BLOCKERS``), which is how they judge a reported total as plausible.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

SLEEP_S = 0.006
PAYLOAD = {f"key{i}": {"values": list(range(12)), "text": "x" * 40} for i in range(2500)}
STATE = {"turns": [{"role": "user", "content": "y" * 30, "meta": {"n": i}} for i in range(1500)]}
BLOB = "z" * (6 * 1024 * 1024)
SCRATCH = os.path.join(tempfile.gettempdir(), f"asynclint-workload-{os.getpid()}.txt")


def block_sleep() -> None:
    time.sleep(SLEEP_S)  # stall: sleep


def block_json() -> int:
    return len(json.dumps(PAYLOAD))  # stall: json


def block_deepcopy() -> int:
    return len(copy.deepcopy(STATE)["turns"])  # stall: deepcopy


def block_write() -> int:
    return Path(SCRATCH).write_text(BLOB)  # stall: write


def _tokenize(text: str) -> int:
    return sum(ord(character) & 7 for character in text)  # stall: helper


def score(text: str) -> int:
    """A sync helper that does its work two calls deep (score -> _tokenize)."""
    return _tokenize(text)


def block_helper() -> int:
    return score(BLOB[:120_000])


BLOCKERS = {"sleep": block_sleep, "json": block_json, "deepcopy": block_deepcopy, "write": block_write,
            "helper": block_helper}


async def stalls(index: int) -> int:
    await asyncio.sleep(0.001)
    kind = index % 8
    if kind == 0:
        block_sleep()
    elif kind == 1:
        block_json()
    elif kind == 2:
        block_deepcopy()
    elif kind == 3:
        block_write()
    elif kind == 4:
        block_helper()
    await asyncio.sleep(0.001)
    return kind * 10 + index % 3


async def clean(index: int) -> int:
    await asyncio.sleep(0.001)
    value = sum(range(50)) + index
    await asyncio.sleep(0.001)
    return value % 7


SMALL = {"role": "assistant", "content": "a short reply " * 8, "tool_calls": [{"id": "c1", "args": [1, 2, 3]}]}


async def busy(index: int) -> int:
    """A loop kept busy by many small steps (~50 µs each) and no stall: the worst case for the
    profiler's overhead (bench/bench_profile.py)."""
    total = 0
    for _ in range(20):
        total += len(json.dumps(SMALL))
        await asyncio.sleep(0)
    return total + index % 5


async def offset(index: int) -> int:
    """Like ``clean``, but its outputs change with ASYNCLINT_TEST_OFFSET (for --compare tests)."""
    await asyncio.sleep(0.001)
    return index + int(os.environ.get("ASYNCLINT_TEST_OFFSET", "0"))


async def flaky(index: int) -> int:
    await asyncio.sleep(0.001)
    if index % 5 == 0:
        raise ValueError(f"rollout {index} failed")
    return index


async def exits(index: int) -> int:
    await asyncio.sleep(0.001)
    if index == 3:
        sys.exit(3)  # a rollout that calls sys.exit is a failed rollout, not the profiler's exit
    return index


def not_async(index: int) -> int:
    return index


async def hangs(index: int) -> int:
    """Rollout 3 never finishes (for --timeout and interrupt tests). The first rollout creates the
    file named by ASYNCLINT_TEST_STARTED, if set: measuring has begun (with --warmup 0)."""
    started = os.environ.get("ASYNCLINT_TEST_STARTED")
    if started and index == 0:
        Path(started).touch()
    if index == 3:
        await asyncio.Event().wait()
    await asyncio.sleep(0.001)
    return index


async def raises_base(index: int) -> int:
    """Rollouts that raise what is not an Exception: each is a failed rollout, not the run's end."""
    await asyncio.sleep(0.001)
    if index == 2:
        raise KeyboardInterrupt
    if index == 4:
        raise asyncio.CancelledError
    return index


async def chatty(index: int) -> int:
    """Writes to stdout, itself and through a child process: never into a report on stdout."""
    print(f"rollout {index} says hello")
    if index == 0:
        os.system("echo from a child process")  # noqa: S605 - the child's output is the point
    await asyncio.sleep(0.001)
    return index


def _spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


async def floods(index: int) -> int:
    """Stalls of 1.5 s in pure Python (some 600 sampler signals each), in a target that installs a
    loop signal handler, so the process's wakeup descriptor is the loop's socket (which about 280
    one-byte writes fill). Touches ASYNCLINT_TEST_STARTED, if set, once measuring has begun."""
    started = os.environ.get("ASYNCLINT_TEST_STARTED")
    if index == 0:
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, lambda: None)
        if started:
            Path(started).touch()
    await asyncio.sleep(0.001)
    _spin(1.5)  # held for the interrupt tests (no "stall" marker: not one of the injected kinds)
    await asyncio.sleep(0.001)
    return index


async def stuck(index: int) -> int:
    """Holds the loop for a minute in code that swallows every exception (the first Ctrl-C's
    cancellation included, raised inside ``time.sleep``): only an abort can end the run early."""
    started = os.environ.get("ASYNCLINT_TEST_STARTED")
    if started and index == 0:
        Path(started).touch()
    await asyncio.sleep(0.001)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            time.sleep(deadline - time.monotonic())  # held for the interrupt tests
        except BaseException:  # noqa: BLE001 - the point: code that will not be interrupted
            pass
    return index


async def _substep(index: int, part: int) -> None:
    if index == 0 and part == 0:
        # Ctrl-C arrives inside a minute-long blocking call of the loop thread, while the other
        # substeps' first steps are already scheduled behind it.
        main = threading.main_thread().ident
        threading.Timer(0.3, signal.pthread_kill, (main, signal.SIGINT)).start()
        time.sleep(60)  # cut short by Ctrl-C
    print(f"rollout {index} part {part} ran", file=sys.stderr, flush=True)
    time.sleep(0.05)


async def fans_out(index: int) -> int:
    """Each rollout runs three substeps as tasks of its own and waits for them the way verifiers
    waits for its groups, with ``asyncio.as_completed``, which does not pass a cancellation of the
    rollout on to them. Rollout 0's first substep is interrupted by a Ctrl-C (see ``_substep``)."""
    for waiting in asyncio.as_completed([asyncio.ensure_future(_substep(index, part)) for part in range(3)]):
        await waiting
    return index
