"""The loop monitor: a fine heartbeat on the event loop, and a sampler that records what held the
loop while the heartbeat was late.

Three ways to find the code that held the loop (``method``), compared in docs/profiler.md with
bench/bench_profile.py:

- ``signal``: every heartbeat re-arms a timer; if the next heartbeat is late, the timer's signal
  fires and its handler runs *inside* the blocking code on the loop thread, so the interrupted
  frame is the exact line. On Linux the timer is a POSIX timer sending a real-time signal to the
  loop thread alone (``SIGEV_THREAD_ID``), so the target's own ``SIGALRM`` (timeouts, as in
  ``math_verify``) and its worker threads are left alone; elsewhere it is ``ITIMER_REAL`` and
  ``SIGALRM``. Needs the loop on the main thread (Python runs signal handlers there). Should the
  target take the signal over anyway, the monitor notices at the next heartbeat and carries on
  with ``thread``.
- ``thread``: a watchdog thread reads the loop thread's stack (``sys._current_frames()``) while
  the heartbeat is late. Works on any thread, but it needs the GIL to run, so it sees pure-Python
  blocks only at the interpreter's switch interval.
- ``callbacks``: times every ``Handle._run``; a slow callback is named by where its task is
  suspended *after* the step (the next ``await``), never by the blocking line.

``auto`` picks ``signal`` when it can and ``thread`` otherwise. Each heartbeat and each sample also
reads the loop thread's CPU time, the process's CPU time and (Linux) how long the loop thread
waited for a CPU, so the analysis can tell code that ran on the loop from a loop that waited for
the GIL held by another thread, or for the machine. Everything here is stdlib only, so importing
it (the pytest plugin does) costs nothing.
"""

from __future__ import annotations

import asyncio
import asyncio.base_events
import asyncio.runners
import atexit
import ctypes
import gc
import os
import signal
import sys
import threading
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any

METHODS = ("auto", "signal", "thread", "callbacks", "none")

#: Frames kept per sample. Deeper stacks are cut at the outer end, which only shortens chains.
MAX_STACK_DEPTH = 128
#: Collections shorter than this are not worth remembering (they cannot make a stall alone).
MIN_GC_PAUSE = 0.0005
#: Samples kept for one stall in progress. A sample like the one before it (same stack, same
#: verdict) replaces it, losing nothing: each stands for the time since the look before it. Past
#: this many distinct samples a stall is thinned, every other sample dropped (the total is
#: unchanged, the split between neighbouring sites coarser): a bound on memory, rarely reached.
MAX_PENDING = 20_000

StackEntry = tuple[CodeType, int]  # (code object, line being executed)


class LagTimeline:
    """Heartbeat lag over time, bounded: the largest lag per time bucket, at most ``points``
    buckets. When time runs past the last one, neighbours merge and each bucket spans twice as
    long, so a beat costs a division and a comparison, and a run of any length keeps ``points``."""

    def __init__(self, started: float, *, points: int = 1024, width: float = 0.005):
        self.started, self.points, self.width = started, points, width
        self._max = array("d")  # -1.0: no heartbeat ran in that bucket (the loop was held through it)

    def add(self, at: float, lag: float) -> None:
        index = max(0, int((at - self.started) / self.width))
        while index >= self.points:
            pairs = self._max
            self._max = array("d", (max(pairs[i : i + 2]) for i in range(0, len(pairs), 2)))
            self.width *= 2
            index = int((at - self.started) / self.width)
        if index >= len(self._max):
            self._max.extend([-1.0] * (index + 1 - len(self._max)))
        self._max[index] = max(self._max[index], lag)

    def series(self) -> tuple[float | None, ...]:
        return tuple(None if lag < 0 else lag for lag in self._max)


class MonitorError(Exception):
    """The monitor cannot run as asked (no running loop, no signal for the sampler, a second monitor)."""


@dataclass(frozen=True)
class Clocks:
    """Where the loop thread's time went, read at one moment (seconds, cumulative)."""

    wall: float  # time.monotonic()
    cpu: float | None  # the loop thread's CPU time, None where it cannot be read from this thread
    process: float  # the whole process's CPU time, every thread
    waiting: float | None  # the loop thread's time runnable but not running (Linux), None where unknown
    # Read by the signal sampler's handler: how long after its timer fired the handler ran. For a
    # thread asleep in a call, that is the wait for a CPU that the signal itself caused by waking
    # it: without the sampler the thread would have gone on sleeping.
    delivery: float = 0.0


@dataclass(frozen=True)
class Sample:
    """One look at the loop thread's stack while the heartbeat was late."""

    time: float  # time.monotonic() when taken
    stack: tuple[StackEntry, ...]  # innermost frame first
    clocks: Clocks | None = None
    # Other threads running Python at that moment, taken when the loop thread had spent the time
    # since the previous look neither computing nor waiting for a CPU while other threads computed:
    # it was waiting for the GIL, and one of these held it.
    others: tuple[tuple[StackEntry, ...], ...] = ()


@dataclass(frozen=True)
class Stall:
    """A heartbeat that ran at least ``threshold`` late: the loop was held for ``duration``."""

    due: float  # time.monotonic() when the heartbeat should have run
    duration: float  # seconds late
    samples: tuple[Sample, ...]
    gc_time: float  # seconds of garbage collection inside the stall
    before: Clocks | None = None  # at the heartbeat before the stall
    after: Clocks | None = None  # at the late heartbeat that ended it


@dataclass(frozen=True)
class Recording:
    """Everything the monitor saw between ``start`` and ``stop``: plain data, no analysis."""

    lags: tuple[float, ...]  # lateness of every heartbeat, seconds
    stalls: tuple[Stall, ...]
    started: float  # time.monotonic() at start
    wall: float  # seconds between start and stop
    interval: float
    threshold: float
    method: str  # the method actually used (``auto`` resolved; the last one, if it changed)
    notes: tuple[str, ...] = ()  # what the reader should know about how it was measured
    timeline: tuple[float | None, ...] = ()  # max heartbeat lag per bucket (None: no beat ran in it)
    timeline_s: float = 0.0  # each bucket's span, seconds; bucket i starts at ``started + i * timeline_s``


#: How the loop thread spent an interval (see :func:`interval_verdict`).
RAN, BLOCKED, GIL_WAIT, HOST_WAIT = "ran", "blocked", "gil", "host"


def interval_verdict(before: Clocks | None, after: Clocks | None) -> str:
    """What the loop thread did between two readings: ``ran`` (it computed: the sampled frame is
    the culprit), ``blocked`` (it waited in a call that released the GIL: sleep, I/O, a lock --
    still the sampled frame's doing), ``gil`` (it waited for the GIL while other threads computed)
    or ``host`` (it was ready to run but the machine gave its CPU to others).

    The wait for a CPU that delivering the sampler's signal caused is left out (see
    ``Clocks.delivery``): on a busy machine a thread asleep in ``time.sleep`` or a socket read,
    woken by each signal, waits for a CPU to run the handler and would otherwise look like a
    thread the host kept from running, although the host did not lengthen its call at all."""
    if before is None or after is None or after.wall <= before.wall or before.cpu is None or after.cpu is None:
        return RAN
    wall = after.wall - before.wall
    cpu = after.cpu - before.cpu
    if after.waiting is not None and before.waiting is not None:
        waiting = after.waiting - before.waiting
        asleep = wall - cpu - waiting  # neither running nor ready to: in a call, or waiting for the GIL
        if after.delivery and asleep >= 0.5 * (wall - after.delivery):
            # It slept until the signal woke it, then waited for a CPU to run the handler: that
            # wait is the signal's doing (as much of the delivery as it spent runnable). A thread
            # that was computing, or ready to, when the signal came waited for the host as before.
            caused = min(after.delivery, waiting)
            wall, waiting = wall - caused, waiting - caused
            if wall <= 0:
                return BLOCKED
        if waiting >= 0.5 * wall:
            return HOST_WAIT
    if cpu >= 0.3 * wall:
        return RAN
    if (after.process - before.process) - cpu >= 0.5 * wall:
        return GIL_WAIT
    return BLOCKED


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


def _task_stack(callback: object) -> tuple[StackEntry, ...]:
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


def signal_available() -> bool:
    """The signal sampler can run: the main thread, and a timer of our own (a free real-time
    signal on Linux; elsewhere SIGALRM with no handler or timer installed by someone else)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if _ThreadTimer.supported() and _free_realtime_signal() is not None:
        return True
    if not hasattr(signal, "setitimer"):
        return False
    if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, signal.SIG_IGN, None):
        return False  # e.g. pytest-timeout's alarm
    return signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def _free_realtime_signal() -> int | None:
    """A real-time signal nobody handles, from the top (libraries that use one start at SIGRTMIN)."""
    low, high = getattr(signal, "SIGRTMIN", None), getattr(signal, "SIGRTMAX", None)
    if low is None or high is None:
        return None
    for candidate in range(high - 1, low + 3, -1):
        if signal.getsignal(candidate) == signal.SIG_DFL:
            return candidate
    return None


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:  # real-time signals have no member of their own
        return f"SIGRTMIN+{number - signal.SIGRTMIN}"


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("it_interval", _Timespec), ("it_value", _Timespec)]


class _Sigevent(ctypes.Structure):
    """glibc's ``struct sigevent`` (64 bytes) with the ``SIGEV_THREAD_ID`` member."""

    _fields_ = [
        ("sigev_value", ctypes.c_void_p),
        ("sigev_signo", ctypes.c_int),
        ("sigev_notify", ctypes.c_int),
        ("sigev_tid", ctypes.c_int),
        ("_pad", ctypes.c_int * 11),
    ]


class _ThreadTimer:
    """A POSIX timer (``CLOCK_MONOTONIC``) whose signal goes to one thread only: Linux's
    ``SIGEV_THREAD_ID``. A process-wide ``ITIMER_REAL`` would be shared with the target's own
    ``signal.alarm`` and could be delivered to any thread that does not block it."""

    SIGEV_THREAD_ID = 4
    CLOCK_MONOTONIC = 1

    def __init__(self, signum: int, thread_id: int):
        libc = _libc()
        assert libc is not None
        self._libc = libc
        event = _Sigevent(sigev_signo=signum, sigev_notify=self.SIGEV_THREAD_ID, sigev_tid=thread_id)
        self._timer = ctypes.c_void_p()
        if libc.timer_create(self.CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(self._timer)) != 0:
            raise OSError(ctypes.get_errno(), "timer_create failed")
        self._spec = _Itimerspec()
        self._off = _Itimerspec()

    @staticmethod
    def supported() -> bool:
        return sys.platform.startswith("linux") and _libc() is not None

    def set(self, delay: float) -> None:
        """Fire once, ``delay`` seconds from now (re-arming replaces)."""
        spec = self._spec
        spec.it_value.tv_sec, spec.it_value.tv_nsec = int(delay), int(delay % 1 * 1e9)
        self._libc.timer_settime(self._timer, 0, ctypes.byref(spec), None)

    def close(self) -> None:
        self._libc.timer_settime(self._timer, 0, ctypes.byref(self._off), None)
        self._libc.timer_delete(self._timer)


_LIBC: list = []


def _libc() -> ctypes.CDLL | None:
    if not _LIBC:
        if os.name != "posix":
            _LIBC.append(None)
            return None
        try:
            # PyDLL keeps the GIL across the call: timer_settime never blocks, and releasing the GIL
            # at every heartbeat would hand it to any other thread that wants it.
            libc = ctypes.PyDLL(None, use_errno=True)
            if not all(
                hasattr(libc, name) for name in ("timer_create", "timer_settime", "timer_delete", "pread", "read")
            ):
                raise OSError("no POSIX timers")
            libc.timer_create.argtypes = [ctypes.c_int, ctypes.POINTER(_Sigevent), ctypes.POINTER(ctypes.c_void_p)]
            libc.timer_settime.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(_Itimerspec), ctypes.c_void_p]
            libc.timer_delete.argtypes = [ctypes.c_void_p]
            libc.pread.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_long]
            libc.pread.restype = ctypes.c_ssize_t
            libc.read.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
            libc.read.restype = ctypes.c_ssize_t
            _LIBC.append(libc)
        except (OSError, TypeError, AttributeError):
            _LIBC.append(None)
    return _LIBC[0]


def _fd_identity(fd: int) -> tuple[int, int] | None:
    """(device, inode) of an open descriptor, to tell it from a later one given the same number."""
    if fd < 0:
        return None
    try:
        status = os.fstat(fd)
    except OSError:
        return None
    return status.st_dev, status.st_ino


class _WakeupRelay:
    """Keeps the sampler's signal out of the event loop's wakeup descriptor.

    Why it is needed (CPython ``Modules/signalmodule.c``): ``signal.signal(n, callable)`` installs
    the C ``signal_handler`` for ``n``, and its ``trip_signal`` writes the signal number, one byte,
    to the descriptor given to ``signal.set_wakeup_fd`` for *every* signal with a Python handler,
    before the Python handler runs. asyncio points that descriptor at its self-pipe socket as soon
    as anyone calls ``loop.add_signal_handler``, and reads it only between callbacks. During a
    stall the sampler's signal fires every few milliseconds, so a stall of ~0.7 s fills the
    socket (about 280 one-byte writes on Linux): from then on each signal prints "Exception
    ignored when trying to write to the signal wakeup fd: BlockingIOError", and a SIGINT arriving
    then loses its byte, which is the only way asyncio learns of it (its Python-level handler does
    nothing), so Ctrl-C went unseen.

    What does not help: ``warn_on_full_buffer=False`` only silences the message, the bytes are
    still lost; blocking the signal (``pthread_sigmask``) stops the sampler itself; a C-level
    handler of our own cannot run Python code. So, for as long as the signal sampler runs, the
    process's wakeup descriptor is a pipe of ours: ``pump`` drops our signal's bytes and passes
    every other byte on, in order, to the descriptor that was there before (the loop's socket,
    asyncio or uvloop alike), which then sees exactly what it would have seen without the sampler.
    It runs at every heartbeat and every sample, so the pipe holds a few bytes at most and a
    signal meant for the loop is late by one heartbeat at most. Should the target (or the loop)
    install another descriptor meanwhile (``add_signal_handler`` does), ``check`` notices, adopts
    it as the one to pass bytes on to, and puts the pipe back.
    """

    #: Heartbeats, and samples, between two ``check``s: ``set_wakeup_fd`` fstat()s the descriptor,
    #: which releases the GIL, so not at every beat. Within a stall this bounds the sampler's bytes
    #: that can reach a descriptor installed behind our back to 32, far below what fills it.
    CHECK_EVERY = 32

    def __init__(self, signum: int):
        self._signum = signum
        self._read, self._write = os.pipe()  # not inherited by programs the target runs (PEP 446)
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        self._buffer = ctypes.create_string_buffer(4096)
        self._target = -1
        self._identity: tuple[int, int] | None = None
        self._countdown = self.CHECK_EVERY
        try:
            self._adopt(signal.set_wakeup_fd(self._write, warn_on_full_buffer=False))
        except (ValueError, OSError):
            self._close_pipe()
            raise

    def _adopt(self, fd: int) -> None:
        self._target = fd
        self._identity = _fd_identity(fd)

    def tick(self) -> None:
        """Pass bytes on, and every ``CHECK_EVERY`` calls check the pipe is still installed."""
        self._countdown -= 1
        if self._countdown <= 0:
            self._countdown = self.CHECK_EVERY
            self.check()
        else:
            self.pump()

    def check(self) -> None:
        try:
            current = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)
        except (ValueError, OSError):
            return
        if current != self._write:
            self.pump()  # what came before the change was meant for the descriptor before it
            self._adopt(current)
        self.pump()

    def pump(self) -> None:
        data = self._drain()
        if not data:
            return
        kept = data.replace(bytes((self._signum,)), b"")
        if kept and self._target >= 0 and _fd_identity(self._target) == self._identity:
            self._send(kept)

    def _drain(self) -> bytes:
        libc = _libc()
        chunks: list[bytes] = []
        while True:
            if libc is not None:
                # libc's read through PyDLL keeps the GIL (os.read would hand it over: see _ClockReader).
                size = libc.read(self._read, self._buffer, len(self._buffer))
                chunk = self._buffer.raw[:size] if size > 0 else b""
            else:
                try:
                    # A non-blocking pipe of our own, a few bytes at most: no disk behind it.
                    chunk = os.read(self._read, 4096)  # asynclint: ignore[blocking-fs-call] (own non-blocking pipe)
                except OSError:
                    chunk = b""
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)

    def _send(self, data: bytes) -> None:
        # Non-blocking, like CPython's own write: should the loop's socket be full of real
        # signals, the byte is lost as it would have been without us, and silently.
        try:
            os.write(self._target, data)  # asynclint: ignore[blocking-fs-call] (the loop's non-blocking socket)
        except OSError:
            pass

    def close(self) -> None:
        """Put back the descriptor found (or the one installed since), passing on what is pending."""
        try:
            current = signal.set_wakeup_fd(-1)
        except (ValueError, OSError):  # not the main thread (an exit path): leave it, keep the pipe
            return
        if current != self._write:
            self.pump()
            self._adopt(current)
        self.pump()
        if self._target >= 0 and _fd_identity(self._target) == self._identity:
            try:
                signal.set_wakeup_fd(self._target)
            except (ValueError, OSError):
                pass
        self._close_pipe()

    def _close_pipe(self) -> None:
        for fd in (self._read, self._write):
            try:
                os.close(fd)
            except OSError:
                pass


class _ClockReader:
    """Reads a thread's :class:`Clocks` from any thread: its CPU clock, the process's, and the
    run-queue wait Linux keeps per thread in ``/proc/self/task/<tid>/schedstat``."""

    def __init__(self, thread: threading.Thread):
        self._ident = thread.ident
        self._cpu_clock: int | None = None
        if hasattr(time, "pthread_getcpuclockid") and thread.ident is not None:
            try:
                self._cpu_clock = time.pthread_getcpuclockid(thread.ident)
            except OSError:
                self._cpu_clock = None
        self._schedstat: int | None = None
        self._buffer = ctypes.create_string_buffer(64)
        native = getattr(thread, "native_id", None)
        libc = _libc()
        if native is not None and libc is not None and sys.platform.startswith("linux"):
            try:
                # Once per monitor, on procfs: no disk behind it.
                self._schedstat = os.open(  # asynclint: ignore[blocking-fs-call]
                    f"/proc/self/task/{native}/schedstat", os.O_RDONLY
                )
            except OSError:
                self._schedstat = None

    def read(self, fired: float | None = None) -> Clocks:
        """The clocks now; ``fired``: when the sampler's timer fired, if this is its handler."""
        if self._cpu_clock is not None:
            cpu: float | None = time.clock_gettime(self._cpu_clock)
        else:
            cpu = time.thread_time() if threading.get_ident() == self._ident else None
        waiting = None
        if self._schedstat is not None:
            # libc's pread through PyDLL keeps the GIL: os.pread would release it, and any thread
            # waiting for the GIL would take it in the middle of a heartbeat.
            libc = _libc()
            assert libc is not None  # the file is opened only where libc loaded (and _libc() keeps its answer)
            size = libc.pread(self._schedstat, self._buffer, 63, 0)
            try:
                waiting = int(self._buffer.raw[: max(size, 0)].split()[1]) / 1e9
            except (IndexError, ValueError):
                waiting = None
        wall = time.monotonic()
        return Clocks(wall, cpu, time.process_time(), waiting, 0.0 if fired is None else max(0.0, wall - fired))

    def close(self) -> None:
        if self._schedstat is not None:
            os.close(self._schedstat)
            self._schedstat = None


#: Where an idle thread waits: such a thread cannot be the one holding the GIL.
_IDLE_FRAMES = frozenset(
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


def _thread_cpu(skip: set[int]) -> dict[int, float]:
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


def _busy_stacks(
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
            and (os.path.basename(frame.f_code.co_filename), frame.f_code.co_name) not in _IDLE_FRAMES
        ]
    stacks = []
    for ident in chosen:
        frame = frames.get(ident)
        stack = capture_stack(frame) if frame is not None else ()
        if stack:
            stacks.append(stack)
    return tuple(stacks)


class LoopMonitor:
    """Attach to the running loop with ``start()``; ``stop()`` detaches and returns a Recording.

    The heartbeat is one ``call_at`` callback re-scheduled ``interval`` after it ran (not after it
    was due, so a stall never causes a burst of catch-up beats). Its lateness is the loop lag.
    """

    _active: LoopMonitor | None = None  # signal handlers and Handle._run are process-wide

    def __init__(
        self,
        *,
        threshold: float = 0.005,
        interval: float = 0.002,
        method: str = "auto",
        sample_period: float | None = None,
    ):
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
        self.notes: list[str] = []
        self._wall = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lags = array("d")
        self._timeline = LagTimeline(0.0)
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
        self._previous_alarm: Callable[[int, FrameType | None], Any] | int | signal.Handlers | None = None
        self._original_run: Callable[[asyncio.Handle], None] | None = None
        self._signum = signal.SIGALRM if hasattr(signal, "SIGALRM") else 0
        self._timer: _ThreadTimer | None = None
        self._relay: _WakeupRelay | None = None
        self._handler = self._on_alarm  # the one object installed, so it can be recognised later
        self._clocks: _ClockReader | None = None
        self._last_beat: Clocks | None = None  # readings at the last heartbeat ...
        self._last_look: Clocks | None = None  # ... and at the last heartbeat or sample
        self._threads_cpu: dict[int, float] | None = None  # other threads' CPU at the last look, when read
        self._last_verdict = ""  # what the loop thread did before the last sample
        self._fires_at = 0.0  # monotonic time the signal sampler's timer is set to fire
        self._loop_ident = 0
        self._stopped = False

    # -- lifecycle -------------------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Attach to ``loop`` (default: the running loop); call from the loop's thread."""
        active = LoopMonitor._active
        if active is not None and active._abandoned():
            active._release("its event loop ended without stop()")
        if LoopMonitor._active is not None:
            raise MonitorError("another loop monitor is already running in this process")
        if loop is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                raise MonitorError(
                    "no running event loop: start the monitor from inside the loop "
                    "(e.g. at the top of your main coroutine)"
                ) from None
        self._loop = loop
        method = self.requested_method
        if method == "auto":
            method = "signal" if signal_available() else "thread"
        elif method == "signal" and not signal_available():
            raise MonitorError(
                "method 'signal' needs the loop on the main thread and a timer signal of its own "
                "(outside Linux: SIGALRM unused); use method 'thread'"
            )
        self.method = method
        self._loop_ident = threading.get_ident()
        self._clocks = _ClockReader(threading.current_thread())
        if method == "signal":
            self._start_signal()
        elif method == "thread":
            self._start_watchdog()
        elif method == "callbacks":
            self._patch_handles()
        # Claimed only once the sampler is in place: a failure above leaves no stale claim.
        LoopMonitor._active = self
        # A process that exits without stop() must not be killed by the timer's signal once the
        # interpreter has put the default action (terminate) back.
        atexit.register(self._release, "the interpreter exited")
        if method != "none":
            gc.callbacks.append(self._on_gc)
        self._started = time.monotonic()
        self._timeline = LagTimeline(self._started)
        self._last_beat = self._last_look = self._clocks.read()
        self._due = loop.time() + self.interval
        self._arm()
        self._handle = loop.call_at(self._due, self._beat)

    def _start_signal(self) -> None:
        realtime = _free_realtime_signal() if _ThreadTimer.supported() else None
        if realtime is not None:
            self._signum = realtime
            self._previous_alarm = signal.signal(realtime, self._handler)
            # Restart what the loop thread's system calls can restart rather than fail them with
            # EINTR (Python retries its own; C libraries often do not).
            signal.siginterrupt(realtime, False)
            try:
                self._timer = _ThreadTimer(realtime, threading.get_native_id())
            except OSError:
                signal.signal(realtime, self._previous_alarm or signal.SIG_DFL)
                self._timer = None
        if self._timer is None:
            self._signum = signal.SIGALRM
            self._previous_alarm = signal.signal(signal.SIGALRM, self._handler)
        try:
            self._relay = _WakeupRelay(self._signum)
        except (ValueError, OSError) as exc:  # no descriptor left: sample anyway, as before the relay
            self._note_error("signal wakeup relay", exc)

    def _start_watchdog(self) -> None:
        self._thread = threading.Thread(
            target=self._watchdog, args=(self._loop_ident,), name="asynclint-watchdog", daemon=True
        )
        self._thread.start()

    def _stop_signal(self) -> None:
        ours = signal.getsignal(self._signum) is self._handler
        if self._timer is not None:
            self._timer.close()
            self._timer = None
        elif ours:  # ITIMER_REAL: cancelled only while the handler is ours, never the target's alarm
            signal.setitimer(signal.ITIMER_REAL, 0)
        if ours:  # never undo what the target installed
            signal.signal(self._signum, self._previous_alarm or signal.SIG_DFL)
        if self._relay is not None:  # after the timer: no byte of ours reaches the loop's descriptor
            self._relay.close()
            self._relay = None

    def _signal_taken(self) -> str | None:
        """Why the signal sampler can no longer see stalls, if it cannot: the target installed its
        own handler for our signal, or cancelled our ``ITIMER_REAL`` (at a heartbeat the timer is
        always armed: the heartbeat or the handler, which ran before it, re-armed it)."""
        if signal.getsignal(self._signum) is not self._handler:
            return f"the target installed its own {_signal_name(self._signum)} handler"
        if self._timer is None and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0):
            return "the target cancelled the SIGALRM timer (signal.alarm or setitimer)"
        return None

    def _switch_to_thread(self, reason: str) -> None:
        self._stop_signal()
        self.method = "thread"
        self._start_watchdog()
        self.notes.append(
            f"sampler switched from signal to thread at +{time.monotonic() - self._started:.2f} s: {reason}"
        )

    def stop(self) -> Recording:
        """Detach (from the loop's thread). A stall still running now, typically the very code
        that calls ``stop``, is recorded too: no later heartbeat will. Stopping twice returns the
        same recording and touches nothing."""
        if self._stopped:
            return self.snapshot(self._wall)
        wall = time.monotonic() - self._started
        if self._loop is not None and self._handle is not None:
            lag = self._loop.time() - self._due
            if lag >= self.threshold:
                self._lags.append(lag)
                self._timeline.add(self._loop.time(), lag)
                self._record_stall(lag, self._clocks.read() if self._clocks is not None else None)
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self._wall = wall
        self._release(None)
        return self.snapshot(wall)

    def _release(self, why: str | None) -> None:
        """Take the samplers down and give up the process-wide claim (once)."""
        if self._stopped:
            return
        self._stopped = True
        if why is not None:
            self.notes.append(f"monitor released: {why}")
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self.method == "signal":
            self._stop_signal()
        elif self.method == "thread" and self._thread is not None:
            self._stopping.set()
            if self._thread is not threading.current_thread():
                self._thread.join()  # asynclint: ignore[blocking-wait] (after measuring; it ends within one interval)
            self._thread = None
        elif self.method == "callbacks":
            self._unpatch_handles()
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._clocks is not None:
            self._clocks.close()
        if LoopMonitor._active is self:
            LoopMonitor._active = None
        atexit.unregister(self._release)

    def _abandoned(self) -> bool:
        """Its loop is closed or no longer running: nobody will call ``stop`` from it."""
        return self._loop is None or self._loop.is_closed() or not self._loop.is_running()

    @classmethod
    def running(cls) -> LoopMonitor | None:
        """The monitor attached in this process, if any (one at a time: see ``start``)."""
        return cls._active

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The loop it is attached to (``None`` before ``start``)."""
        return self._loop

    @property
    def cursor(self) -> tuple[int, int]:
        """A ``drain`` cursor at the end of what is recorded now: draining from it reads what comes next."""
        return len(self._lags), len(self._stalls)

    def drain(self, cursor: tuple[int, int] | None = None) -> tuple[Sequence[float], list[Stall], tuple[int, int]]:
        """The lags and stalls recorded since ``cursor`` (what an earlier ``drain`` returned last),
        and the cursor to pass next time. Without one: everything recorded so far, and the monitor
        forgets it (its owner reading as it goes keeps memory bounded; ``snapshot``/``stop`` then
        hold only what came after). Call from the loop's thread, the only one that records."""
        if cursor is None:
            lags, stalls = self._lags[:], self._stalls[:]
            del self._lags[:]
            del self._stalls[:]
            return lags, stalls, (0, 0)
        lags_read, stalls_read = cursor
        return self._lags[lags_read:], self._stalls[stalls_read:], self.cursor

    def in_progress(self, now: float) -> tuple[float, tuple[Sample, ...]] | None:
        """The heartbeat overdue at monotonic time ``now`` while running: how late it is, and the
        samples taken while the loop was held; ``None`` once stopped (its recording is complete)."""
        if self._handle is None or self._loop is None:
            return None
        lag = self._loop.time() - self._due
        start = now - lag
        return lag, tuple(s for s in self._pending if s.time >= start - self.interval)

    def snapshot(self, wall: float | None = None) -> Recording:
        """What was recorded so far (safe to call while running, from the loop's thread)."""
        return Recording(
            lags=tuple(self._lags),
            stalls=tuple(self._stalls),
            started=self._started,
            wall=time.monotonic() - self._started if wall is None else wall,
            interval=self.interval,
            threshold=self.threshold,
            method=self.method,
            notes=tuple(self.notes),
            timeline=self._timeline.series(),
            timeline_s=self._timeline.width,
        )

    # -- heartbeat -------------------------------------------------------------------------
    def _beat(self) -> None:
        loop = self._loop
        assert loop is not None
        try:
            self._measure_beat(loop)
        except Exception as exc:  # a heartbeat that stopped would leave every later stall unseen
            self._note_error("heartbeat", exc)
        finally:
            # From when this beat's own work ended: were the beat itself held up (a thread holding
            # the GIL), the next beat would otherwise count that time again as a stall of its own.
            self._due = loop.time() + self.interval
            self._arm()
            self._handle = loop.call_at(self._due, self._beat)

    def _measure_beat(self, loop: asyncio.AbstractEventLoop) -> None:
        now = loop.time()
        lag = max(0.0, now - self._due)
        self._lags.append(lag)
        self._timeline.add(now, lag)
        assert self._clocks is not None
        clocks = self._clocks.read()
        if lag >= self.threshold:
            self._record_stall(lag, clocks)
        elif self._pending:
            self._pending = []  # samples of a late-but-below-threshold beat
        self._threads_cpu = self._other_threads_cpu(self._last_beat, clocks)
        self._last_beat = self._last_look = clocks
        if self._relay is not None:
            self._relay.tick()
        if self.method == "signal":
            taken = self._signal_taken()
            if taken is not None:
                self._switch_to_thread(taken)

    def _other_threads_cpu(self, before: Clocks | None, now: Clocks) -> dict[int, float] | None:
        """The other threads' clocks, read only when they computed since ``before``: the baseline
        a GIL wait in the next stall is judged against (idle threads cost nothing to watch)."""
        if before is None or now.cpu is None or before.cpu is None:
            return None
        others = (now.process - before.process) - (now.cpu - before.cpu)
        if others < 0.1 * max(now.wall - before.wall, 1e-9):
            return None
        return _thread_cpu({self._loop_ident, *self._sampler_threads()})

    def _sampler_threads(self) -> set[int]:
        return {self._thread.ident} if self._thread is not None and self._thread.ident is not None else set()

    def _note_error(self, where: str, exc: BaseException) -> None:
        note = f"{where} error (measurement continues): {type(exc).__name__}: {exc}"
        if note not in self.notes:
            self.notes.append(note)

    def _record_stall(self, lag: float, after: Clocks | None = None) -> None:
        samples, self._pending = self._pending, []
        now = time.monotonic()
        start = now - lag
        gc_time = 0.0
        if self._gc_pauses:
            for begin, end in self._gc_pauses:
                gc_time += max(0.0, min(end, now) - max(begin, start))
            self._gc_pauses = []
        self._stalls.append(
            Stall(
                start,
                lag,
                tuple(s for s in samples if s.time >= start - self.interval),
                min(gc_time, lag),
                self._last_beat,
                after,
            )
        )

    def _arm(self) -> None:
        first = self.interval + self.first_sample
        if self.method == "signal":
            self._set_signal_timer(first)
        elif self.method == "thread":
            self._deadline = time.monotonic() + first

    def _set_signal_timer(self, delay: float) -> None:
        self._fires_at = time.monotonic() + delay
        if self._timer is not None:
            self._timer.set(delay)
        else:
            signal.setitimer(signal.ITIMER_REAL, delay)

    def _look(self, stack: tuple[StackEntry, ...], skip: set[int], fired: float | None = None) -> None:
        """Record a sample: the loop thread's ``stack`` and clocks, and the other threads' stacks
        when the loop thread seems to have been waiting for the GIL since the last look. ``fired``:
        when the signal sampler's timer fired (from its handler)."""
        assert self._clocks is not None
        clocks = self._clocks.read(fired)
        others: tuple[tuple[StackEntry, ...], ...] = ()
        verdict = interval_verdict(self._last_look, clocks)
        if verdict == GIL_WAIT:
            skip = skip | self._sampler_threads()
            threads = _thread_cpu(skip)
            span = clocks.wall - self._last_look.wall if self._last_look is not None else 0.0
            others = _busy_stacks(skip, self._threads_cpu, threads, span)
            self._threads_cpu = threads
        self._last_look = clocks
        pending = self._pending
        if (
            pending
            and not others
            and verdict == self._last_verdict
            and pending[-1].stack == stack
            and not pending[-1].others
        ):
            # The same code, doing the same: one sample stands for both spans, and for the wake-ups
            # of both signals.
            merged = pending[-1].clocks
            if merged is not None and merged.delivery:
                clocks = Clocks(
                    clocks.wall, clocks.cpu, clocks.process, clocks.waiting, clocks.delivery + merged.delivery
                )
            pending[-1] = Sample(clocks.wall, stack, clocks, others)
        else:
            sample = Sample(clocks.wall, stack, clocks, others)
            pending.append(sample)
            if len(pending) >= MAX_PENDING:
                del pending[::2]
        self._last_verdict = verdict
        if self.method == "signal":
            # One-shot, re-armed here: C code that keeps this handler from running (and may sleep
            # without retrying when a signal interrupts it, like SQLite's busy wait) is
            # interrupted once, not every period; Python retries its own interrupted calls.
            self._set_signal_timer(self.sample_period)

    # -- samplers --------------------------------------------------------------------------
    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        # Runs inside the target's code: it must never raise there, nor keep firing for a loop
        # that is gone (a monitor never stopped).
        try:
            if self._stopped or self._abandoned():
                if not self._stopped:
                    self._release("its event loop ended without stop()")
                return
            if self._relay is not None:
                self._relay.tick()
            if frame is not None:
                self._look(capture_stack(frame), {self._loop_ident}, self._fires_at)
        except Exception as exc:
            self._note_error("signal sampler", exc)

    def _watchdog(self, loop_thread: int) -> None:
        period = self.sample_period
        while not self._stopping.wait(period):
            if time.monotonic() < self._deadline:
                continue
            try:
                frame = sys._current_frames().get(loop_thread)
                try:
                    stack = capture_stack(frame)
                except Exception:  # a frame torn down under us (see capture_stack): skip the sample
                    stack = ()
                del frame
                if stack:
                    self._look(stack, {loop_thread, threading.get_ident()})
            except Exception as exc:
                self._note_error("watchdog", exc)

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
                pending_owner._look(_task_stack(getattr(handle, "_callback", None)), {pending_owner._loop_ident})

        self._original_run = original
        # mypy reads a function set on a class as a method missing its ``self``; it takes the handle as one.
        handle_class._run = timed_run  # type: ignore[method-assign, assignment]

    def _unpatch_handles(self) -> None:
        if self._original_run is not None:
            asyncio.events.Handle._run = self._original_run  # type: ignore[method-assign, assignment]  # as above
            self._original_run = None
