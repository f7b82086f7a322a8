"""The operating system's side of the signal sampler and of the clocks: a POSIX timer aimed at one
thread, the relay that keeps the sampler's signal out of the event loop's wakeup descriptor, and
the reader of a thread's CPU, process and run-queue clocks. Linux-first through ctypes, with a
stdlib fallback (``ITIMER_REAL``) elsewhere."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

from asynclint.profiler.records import Clocks


def signal_available() -> bool:
    """The signal sampler can run: the main thread, and a timer of our own (a free real-time
    signal on Linux; elsewhere SIGALRM with no handler or timer installed by someone else)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if ThreadTimer.supported() and free_realtime_signal() is not None:
        return True
    if not hasattr(signal, "setitimer"):
        return False
    if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, signal.SIG_IGN, None):
        return False  # e.g. pytest-timeout's alarm
    return signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def free_realtime_signal() -> int | None:
    """A real-time signal nobody handles, from the top (libraries that use one start at SIGRTMIN)."""
    low, high = getattr(signal, "SIGRTMIN", None), getattr(signal, "SIGRTMAX", None)
    if low is None or high is None:
        return None
    for candidate in range(high - 1, low + 3, -1):
        if signal.getsignal(candidate) == signal.SIG_DFL:
            return candidate
    return None


def signal_name(number: int) -> str:
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


class ThreadTimer:
    """A POSIX timer (``CLOCK_MONOTONIC``) whose signal goes to one thread only: Linux's
    ``SIGEV_THREAD_ID``. A process-wide ``ITIMER_REAL`` would be shared with the target's own
    ``signal.alarm`` and could be delivered to any thread that does not block it."""

    SIGEV_THREAD_ID = 4
    CLOCK_MONOTONIC = 1

    def __init__(self, signum: int, thread_id: int):
        libc = libc_or_none()
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
        return sys.platform.startswith("linux") and libc_or_none() is not None

    def set(self, delay: float) -> None:
        """Fire once, ``delay`` seconds from now (re-arming replaces)."""
        spec = self._spec
        spec.it_value.tv_sec, spec.it_value.tv_nsec = int(delay), int(delay % 1 * 1e9)
        self._libc.timer_settime(self._timer, 0, ctypes.byref(spec), None)

    def close(self) -> None:
        self._libc.timer_settime(self._timer, 0, ctypes.byref(self._off), None)
        self._libc.timer_delete(self._timer)


_LIBC: list = []


def libc_or_none() -> ctypes.CDLL | None:
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


def fd_identity(fd: int) -> tuple[int, int] | None:
    """(device, inode) of an open descriptor, to tell it from a later one given the same number."""
    if fd < 0:
        return None
    try:
        status = os.fstat(fd)
    except OSError:
        return None
    return status.st_dev, status.st_ino


class WakeupRelay:
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
        self._identity = fd_identity(fd)

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
        if kept and self._target >= 0 and fd_identity(self._target) == self._identity:
            self._send(kept)

    def _drain(self) -> bytes:
        libc = libc_or_none()
        chunks: list[bytes] = []
        while True:
            if libc is not None:
                # libc's read through PyDLL keeps the GIL (os.read would hand it over: see ClockReader).
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
        if self._target >= 0 and fd_identity(self._target) == self._identity:
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


class ClockReader:
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
        libc = libc_or_none()
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
            libc = libc_or_none()
            assert libc is not None  # the file is opened only where libc loaded (and libc_or_none() keeps its answer)
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
