"""The loop monitor: a fine heartbeat on the event loop, and a sampler that records what held the
loop while the heartbeat was late.

Three ways to find the code that held the loop (``method``), compared in docs/profiler.md with
bench/bench_profile.py:

- ``signal``: every heartbeat re-arms a one-shot ``ITIMER_REAL``; if the next heartbeat is late,
  ``SIGALRM`` fires and its handler runs *inside* the blocking code on the loop thread, so the
  interrupted frame is the exact line. Needs the loop on the main thread and SIGALRM unused.
- ``thread``: a watchdog thread reads the loop thread's stack (``sys._current_frames()``) while
  the heartbeat is late. Works on any thread, but it needs the GIL to run, so it sees pure-Python
  blocks only at the interpreter's switch interval.
- ``callbacks``: times every ``Handle._run``; a slow callback is named by where its task is
  suspended *after* the step (the next ``await``), never by the blocking line.

``auto`` picks ``signal`` when it can and ``thread`` otherwise. Everything here is stdlib only, so
importing it (the pytest plugin does) costs nothing.
"""

from __future__ import annotations

import asyncio
import asyncio.base_events
import gc
import signal
import sys
import threading
import time
from array import array
from dataclasses import dataclass
from types import CodeType, FrameType

METHODS = ("auto", "signal", "thread", "callbacks", "none")

#: Frames kept per sample. Deeper stacks are cut at the outer end, which only shortens chains.
MAX_STACK_DEPTH = 128
#: Collections shorter than this are not worth remembering (they cannot make a stall alone).
MIN_GC_PAUSE = 0.0005

StackEntry = tuple[CodeType, int]  # (code object, line being executed)


class MonitorError(Exception):
    """The monitor cannot run as asked (no running loop, SIGALRM taken, a second monitor)."""


@dataclass(frozen=True)
class Sample:
    """One look at the loop thread's stack while the heartbeat was late."""

    time: float  # time.monotonic() when taken
    stack: tuple[StackEntry, ...]  # innermost frame first


@dataclass(frozen=True)
class Stall:
    """A heartbeat that ran at least ``threshold`` late: the loop was held for ``duration``."""

    due: float  # time.monotonic() when the heartbeat should have run
    duration: float  # seconds late
    samples: tuple[Sample, ...]
    gc_time: float  # seconds of garbage collection inside the stall


@dataclass(frozen=True)
class Recording:
    """Everything the monitor saw between ``start`` and ``stop``: plain data, no analysis."""

    lags: tuple[float, ...]  # lateness of every heartbeat, seconds
    stalls: tuple[Stall, ...]
    started: float  # time.monotonic() at start
    wall: float  # seconds between start and stop
    interval: float
    threshold: float
    method: str  # the method actually used (``auto`` resolved)


#: The loop running one callback. Frames further out only started the loop (``asyncio.run``), so
#: the walk stops here: each frame costs about a microsecond, and the sampler runs inside stalls.
LOOP_BOUNDARY = frozenset({asyncio.events.Handle._run.__code__, asyncio.base_events.BaseEventLoop._run_once.__code__})


def capture_stack(frame: FrameType | None) -> tuple[StackEntry, ...]:
    """(code, line) from ``frame`` outwards to the loop's ``Handle._run``. The type checks matter
    for the watchdog thread, which walks another thread's frames: CPython 3.11 can hand it a
    garbled ``f_back`` when that thread moved on mid-walk, and the walk then stops there."""
    stack = []
    while type(frame) is FrameType and len(stack) < MAX_STACK_DEPTH:
        code = frame.f_code
        if type(code) is not CodeType:
            break
        stack.append((code, frame.f_lineno or code.co_firstlineno))
        if code in LOOP_BOUNDARY:
            break
        frame = frame.f_back
    return tuple(stack)


def _task_stack(callback: object) -> tuple[StackEntry, ...]:
    """Where a callback's task is suspended now (innermost first), or the callback's own code."""
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        frames: list[StackEntry] = []
        awaitable = owner.get_coro()
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


def signal_available() -> bool:
    """SIGALRM can be ours: main thread, POSIX, no handler or timer installed by someone else."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, signal.SIG_IGN, None):
        return False  # e.g. pytest-timeout's alarm
    return signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


class LoopMonitor:
    """Attach to the running loop with ``start()``; ``stop()`` detaches and returns a Recording.

    The heartbeat is one ``call_at`` callback re-scheduled ``interval`` after it ran (not after it
    was due, so a stall never causes a burst of catch-up beats). Its lateness is the loop lag.
    """

    _active: LoopMonitor | None = None  # signal handlers and Handle._run are process-wide

    def __init__(self, *, threshold: float = 0.005, interval: float = 0.002, method: str = "auto",
                 sample_period: float | None = None):
        if method not in METHODS:
            raise MonitorError(f"unknown method {method!r} (expected one of: {', '.join(METHODS)})")
        if threshold <= 0 or interval <= 0:
            raise MonitorError("threshold and interval must be positive")
        self.threshold = threshold
        self.interval = interval
        self.requested_method = method
        # Sampling starts once the heartbeat is 0.8 threshold late (so every stall above the
        # threshold gets a sample, but a busy loop that is merely a little late costs nothing) and
        # then repeats every half threshold.
        self.first_sample = 0.8 * threshold
        self.sample_period = sample_period or max(threshold / 2, 0.0005)
        self.method = method
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lags = array("d")
        self._stalls: list[Stall] = []
        self._pending: list[Sample] = []
        self._gc_pauses: list[tuple[float, float]] = []
        self._gc_started = 0.0
        self._due = 0.0
        self._deadline = float("inf")  # monotonic time from which the watchdog samples
        self._handle: asyncio.TimerHandle | None = None
        self._started = 0.0
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._previous_alarm: object = None
        self._original_run = None

    # -- lifecycle -------------------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Attach to ``loop`` (default: the running loop); call from the loop's thread."""
        if LoopMonitor._active is not None:
            raise MonitorError("another loop monitor is already running in this process")
        if loop is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                raise MonitorError("no running event loop: start the monitor from inside the loop "
                                   "(e.g. at the top of your main coroutine)") from None
        self._loop = loop
        method = self.requested_method
        if method == "auto":
            method = "signal" if signal_available() else "thread"
        elif method == "signal" and not signal_available():
            raise MonitorError("method 'signal' needs the loop on the main thread and SIGALRM unused "
                               "(use method 'thread')")
        self.method = method
        if method == "signal":
            self._previous_alarm = signal.signal(signal.SIGALRM, self._on_alarm)
        elif method == "thread":
            self._thread = threading.Thread(target=self._watchdog, args=(threading.get_ident(),),
                                            name="asynclint-watchdog", daemon=True)
            self._thread.start()
        elif method == "callbacks":
            self._patch_handles()
        # Claimed only once the sampler is in place: a failure above leaves no stale claim.
        LoopMonitor._active = self
        if method != "none":
            gc.callbacks.append(self._on_gc)
        self._started = time.monotonic()
        self._due = loop.time() + self.interval
        self._arm()
        self._handle = loop.call_at(self._due, self._beat)

    def stop(self) -> Recording:
        """Detach (from the loop's thread). A stall still running now, typically the very code
        that calls ``stop``, is recorded too: no later heartbeat will."""
        wall = time.monotonic() - self._started
        if self._loop is not None and self._handle is not None:
            lag = self._loop.time() - self._due
            if lag >= self.threshold:
                self._lags.append(lag)
                self._record_stall(lag)
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self.method == "signal":
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous_alarm or signal.SIG_DFL)
        elif self.method == "thread" and self._thread is not None:
            self._stopping.set()
            self._thread.join()  # asynclint: ignore[blocking-wait] (after measuring; it ends within one interval)
            self._thread = None
        elif self.method == "callbacks":
            self._unpatch_handles()
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if LoopMonitor._active is self:
            LoopMonitor._active = None
        return self.snapshot(wall)

    def snapshot(self, wall: float | None = None) -> Recording:
        """What was recorded so far (safe to call while running, from the loop's thread)."""
        return Recording(
            lags=tuple(self._lags), stalls=tuple(self._stalls), started=self._started,
            wall=time.monotonic() - self._started if wall is None else wall,
            interval=self.interval, threshold=self.threshold, method=self.method,
        )

    # -- heartbeat -------------------------------------------------------------------------
    def _beat(self) -> None:
        loop = self._loop
        assert loop is not None
        now = loop.time()
        lag = max(0.0, now - self._due)
        self._lags.append(lag)
        if lag >= self.threshold:
            self._record_stall(lag)
        elif self._pending:
            self._pending = []  # samples of a late-but-below-threshold beat
        self._due = now + self.interval
        self._arm()
        self._handle = loop.call_at(self._due, self._beat)

    def _record_stall(self, lag: float) -> None:
        samples, self._pending = self._pending, []
        now = time.monotonic()
        start = now - lag
        gc_time = 0.0
        if self._gc_pauses:
            for begin, end in self._gc_pauses:
                gc_time += max(0.0, min(end, now) - max(begin, start))
            self._gc_pauses = []
        self._stalls.append(Stall(start, lag, tuple(s for s in samples if s.time >= start - self.interval),
                                  min(gc_time, lag)))

    def _arm(self) -> None:
        first = self.interval + self.first_sample
        if self.method == "signal":
            signal.setitimer(signal.ITIMER_REAL, first, self.sample_period)
        elif self.method == "thread":
            self._deadline = time.monotonic() + first

    # -- samplers --------------------------------------------------------------------------
    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        if frame is not None:
            self._pending.append(Sample(time.monotonic(), capture_stack(frame)))

    def _watchdog(self, loop_thread: int) -> None:
        period = self.sample_period
        while not self._stopping.wait(period):
            if time.monotonic() >= self._deadline:
                frame = sys._current_frames().get(loop_thread)
                try:
                    stack = capture_stack(frame)
                except Exception:  # a frame torn down under us (see capture_stack): skip the sample
                    stack = ()
                del frame
                if stack:
                    self._pending.append(Sample(time.monotonic(), stack))

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_started = time.monotonic()
        elif self._gc_started:
            ended = time.monotonic()
            if ended - self._gc_started >= MIN_GC_PAUSE:
                self._gc_pauses.append((self._gc_started, ended))
                del self._gc_pauses[:-64]  # only the recent ones can overlap the next stall
            self._gc_started = 0.0

    def _patch_handles(self) -> None:
        handle_class = asyncio.events.Handle
        original = handle_class._run
        threshold = self.threshold
        pending_owner = self

        def timed_run(handle: asyncio.Handle) -> None:
            started = time.perf_counter()
            original(handle)
            if time.perf_counter() - started >= threshold:
                stack = _task_stack(getattr(handle, "_callback", None))
                pending_owner._pending.append(Sample(time.monotonic(), stack))

        self._original_run = original
        handle_class._run = timed_run  # type: ignore[method-assign]

    def _unpatch_handles(self) -> None:
        if self._original_run is not None:
            asyncio.events.Handle._run = self._original_run  # type: ignore[method-assign]
            self._original_run = None
