"""Stacks the monitor reads: the loop thread's, from a signal handler or a watchdog thread, and the
threads that held the GIL while the loop thread waited for it."""

from __future__ import annotations

import asyncio
import asyncio.base_events
import asyncio.runners
import os
import sys
import time
from types import CodeType, FrameType

from asynclint.profiler.records import StackEntry

#: Frames kept per sample. Deeper stacks are cut at the outer end, which only shortens chains.
MAX_STACK_DEPTH = 128


#: The loop running one callback. Frames further out only started the loop (``asyncio.run``), so
#: the walk stops here: each frame costs about a microsecond, and the sampler runs inside stalls.
#: uvloop runs callbacks from C, with no frame of its own: there the walk stops at the runner.
_BOUNDARY_CODES = [
    asyncio.events.Handle._run.__code__,
    asyncio.base_events.BaseEventLoop._run_once.__code__,  # type: ignore[attr-defined]  # private: typeshed leaves it out
]
if sys.version_info >= (3, 11):  # asyncio.Runner is new in 3.11
    _BOUNDARY_CODES.append(asyncio.runners.Runner.run.__code__)
LOOP_BOUNDARY = frozenset(_BOUNDARY_CODES)


def capture_stack(frame: FrameType | None) -> tuple[StackEntry, ...]:
    """(code, line) from ``frame`` outwards to the loop's ``Handle._run``. The type checks matter
    for the watchdog thread, which walks another thread's frames: CPython 3.11 can hand it a
    garbled ``f_back`` when that thread moved on mid-walk, and the walk then stops there."""
    stack: list[StackEntry] = []
    while type(frame) is FrameType and len(stack) < MAX_STACK_DEPTH:
        code = frame.f_code
        if type(code) is not CodeType:
            break
        stack.append((code, frame.f_lineno or code.co_firstlineno))
        if code in LOOP_BOUNDARY:
            break
        frame = frame.f_back
    return tuple(stack)


def task_stack(callback: object) -> tuple[StackEntry, ...]:
    """Where a callback's task is suspended now (innermost first), or the callback's own code."""
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        frames: list[StackEntry] = []
        awaitable: object = owner.get_coro()
        while awaitable is not None:
            frame = getattr(awaitable, "cr_frame", None) or getattr(awaitable, "gi_frame", None)
            if frame is not None:
                frames.append((frame.f_code, frame.f_lineno or frame.f_code.co_firstlineno))
            else:
                code = getattr(awaitable, "cr_code", None) or getattr(awaitable, "gi_code", None)
                if code is not None:
                    frames.append((code, code.co_firstlineno))
            awaitable = getattr(awaitable, "cr_await", None) or getattr(awaitable, "gi_yieldfrom", None)
        return tuple(reversed(frames))
    function = getattr(callback, "__func__", callback)
    code = getattr(function, "__code__", None)
    return ((code, code.co_firstlineno),) if code is not None else ()


#: Where an idle thread waits: such a thread cannot be the one holding the GIL.
IDLE_FRAMES = frozenset(
    {
        ("threading.py", "wait"),
        ("threading.py", "_wait_for_tstate_lock"),
        ("threading.py", "join"),
        ("queue.py", "get"),
        ("selectors.py", "select"),
        ("thread.py", "_worker"),
        ("socket.py", "accept"),
    }
)


def thread_cpu(skip: set[int]) -> dict[int, float]:
    """CPU seconds of every Python thread but ``skip``, read from any thread (Linux: a clock per
    thread). Empty where threads' clocks cannot be read."""
    if not hasattr(time, "pthread_getcpuclockid"):
        return {}
    found = {}
    for ident in sys._current_frames():  # no lock taken, unlike threading.enumerate()
        if ident in skip:
            continue
        try:
            found[ident] = time.clock_gettime(time.pthread_getcpuclockid(ident))
        except (OSError, OverflowError):
            continue  # it ended meanwhile
    return found


def busy_stacks(
    skip: set[int], before: dict[int, float] | None, now: dict[int, float], span: float
) -> tuple[tuple[StackEntry, ...], ...]:
    """Stacks of the threads that held the GIL while the loop thread waited ``span`` seconds for
    it: those whose CPU time grew by a good part of the span. Without an earlier reading of the
    threads' clocks, those not parked in a known wait (a guess: a thread blocked in C looks busy)."""
    frames = sys._current_frames()
    if before is not None and now:
        chosen = [ident for ident, cpu in now.items() if cpu - before.get(ident, cpu) >= 0.3 * span]
    else:
        chosen = [
            ident
            for ident, frame in frames.items()
            if ident not in skip
            and (os.path.basename(frame.f_code.co_filename), frame.f_code.co_name) not in IDLE_FRAMES
        ]
    stacks = []
    for ident in chosen:
        frame = frames.get(ident)
        stack = capture_stack(frame) if frame is not None else ()
        if stack:
            stacks.append(stack)
    return tuple(stacks)
