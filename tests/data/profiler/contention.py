"""Workloads where naive attribution goes wrong (profiler tests; blocking lines marked ``# stall``).

``mixed``: one long C call that holds the GIL, then a shorter pure-Python loop, in each rollout.
``gil``: rollouts doing a little innocent work while another thread holds the GIL in long C calls
(``gil_among_sleepers``: with sleeping worker threads beside it).
``own_alarm``: the target uses SIGALRM itself (a timeout, as math_verify does) around CPU work.
``sqlite_wait``: a SQLite busy wait on the loop thread (C code that sleeps without retrying).
``takeover``: the target installs its own handler for every real-time signal mid-run.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import tempfile
import threading
import time

C_CALL = 3_000_000
PY_LOOP = 150_000


def c_call() -> int:
    return sum(range(C_CALL))  # stall: c-call


def py_loop() -> int:
    total = 0
    for k in range(PY_LOOP):  # stall: python
        total += k
    return total


async def mixed(index: int) -> int:
    await asyncio.sleep(0.001)
    c_call()
    py_loop()
    return index % 3


_hog_until = 0.0


def _hog() -> None:
    while time.monotonic() < _hog_until:
        sum(range(C_CALL))  # stall: hog


def innocent(index: int) -> int:
    time.sleep(0)  # hands the GIL over, as any I/O call does: the hog thread takes it for a whole C call
    return sum([k * index for k in range(300)])  # stall: innocent


async def gil(index: int) -> int:
    global _hog_until
    if index == 0:
        _hog_until = time.monotonic() + float(os.environ.get("ASYNCLINT_TEST_HOG_S", "1.5"))
        threading.Thread(target=_hog, daemon=True).start()
    for _ in range(5):
        innocent(index)
        await asyncio.sleep(0)
    return index % 3


def _sleeper() -> None:
    while time.monotonic() < _hog_until:
        time.sleep(0.05)  # stall: sleeper (a worker thread blocked in C: it holds no GIL)


async def gil_among_sleepers(index: int) -> int:
    """Like ``gil``, with worker threads parked in ``time.sleep`` beside the hog, as after
    ``asynclint fix`` moved blocking calls to threads: only the hog may be blamed."""
    global _hog_until
    if index == 0:
        _hog_until = time.monotonic() + float(os.environ.get("ASYNCLINT_TEST_HOG_S", "1.5"))
        for _ in range(6):
            threading.Thread(target=_sleeper, daemon=True).start()
        threading.Thread(target=_hog, daemon=True).start()
    for _ in range(5):
        innocent(index)
        await asyncio.sleep(0)
    return index % 3


class Timeout(Exception):
    pass


@contextlib.contextmanager
def alarm_timeout(seconds: float):
    def expire(signum, frame):
        raise Timeout("timed out")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def verify(n: int) -> int:
    total = 0
    for k in range(n):  # stall: verify
        total += k * k
    return total


async def own_alarm(index: int) -> str:
    await asyncio.sleep(0.001)
    try:
        with alarm_timeout(5.0):
            verify(200_000)
    except Timeout:
        return "timed out"
    return "ok"


DB = os.path.join(tempfile.gettempdir(), f"asynclint-contention-{os.getpid()}.db")


def _hold_lock(seconds: float, ready: threading.Event) -> None:
    holder = sqlite3.connect(DB, isolation_level=None)
    holder.execute("begin exclusive")
    ready.set()
    time.sleep(seconds)
    holder.execute("commit")
    holder.close()


async def sqlite_wait(index: int) -> str:
    await asyncio.sleep(0.001)
    if index % 4:
        return "skip"
    setup = sqlite3.connect(DB)
    setup.execute("create table if not exists t(x)")
    setup.commit()
    setup.close()
    ready = threading.Event()
    holder = threading.Thread(target=_hold_lock, args=(0.25, ready))
    holder.start()
    ready.wait()
    waiter = sqlite3.connect(DB, timeout=5.0)
    try:
        waiter.execute("insert into t values (1)")  # stall: sqlite
        waiter.commit()
        result = "ok"
    except sqlite3.OperationalError as exc:
        result = f"error: {exc}"
    finally:
        waiter.close()
        holder.join()
    return result


def block(seconds: float) -> None:
    time.sleep(seconds)  # stall: sleep


async def takeover(index: int) -> int:
    await asyncio.sleep(0.001)
    if index == 4:
        for number in range(signal.SIGRTMIN, signal.SIGRTMAX + 1):
            if callable(signal.getsignal(number)):
                signal.signal(number, signal.SIG_IGN)
        if callable(signal.getsignal(signal.SIGALRM)):
            signal.signal(signal.SIGALRM, signal.SIG_IGN)
    block(0.02)
    return index
