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
import gc
import signal
import sys
import threading
import time
from array import array
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any

from asynclint.profiler.records import (
    GIL_WAIT,
    Clocks,
    LagTimeline,
    MonitorError,
    Recording,
    Sample,
    StackEntry,
    Stall,
    interval_verdict,
)
from asynclint.profiler.stacks import busy_stacks, capture_stack, task_stack, thread_cpu
from asynclint.profiler.timers import (
    ClockReader,
    ThreadTimer,
    WakeupRelay,
    free_realtime_signal,
    signal_available,
    signal_name,
)

METHODS = ("auto", "signal", "thread", "callbacks", "none")

#: Collections shorter than this are not worth remembering (they cannot make a stall alone).
MIN_GC_PAUSE = 0.0005
#: Samples kept for one stall in progress. A sample like the one before it (same stack, same
#: verdict) replaces it, losing nothing: each stands for the time since the look before it. Past
#: this many distinct samples a stall is thinned, every other sample dropped (the total is
#: unchanged, the split between neighbouring sites coarser): a bound on memory, rarely reached.
MAX_PENDING = 20_000


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
        self._timer: ThreadTimer | None = None
        self._relay: WakeupRelay | None = None
        self._handler = self._on_alarm  # the one object installed, so it can be recognised later
        self._clocks: ClockReader | None = None
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
        self._clocks = ClockReader(threading.current_thread())
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
        realtime = free_realtime_signal() if ThreadTimer.supported() else None
        if realtime is not None:
            self._signum = realtime
            self._previous_alarm = signal.signal(realtime, self._handler)
            # Restart what the loop thread's system calls can restart rather than fail them with
            # EINTR (Python retries its own; C libraries often do not).
            signal.siginterrupt(realtime, False)
            try:
                self._timer = ThreadTimer(realtime, threading.get_native_id())
            except OSError:
                signal.signal(realtime, self._previous_alarm or signal.SIG_DFL)
                self._timer = None
        if self._timer is None:
            self._signum = signal.SIGALRM
            self._previous_alarm = signal.signal(signal.SIGALRM, self._handler)
        try:
            self._relay = WakeupRelay(self._signum)
        except (ValueError, OSError) as exc:  # no descriptor left: sample anyway, as before the relay
            self._note_error("signal wakeup relay", exc)

    def _start_watchdog(self) -> None:
        self._thread = threading.Thread(
            target=self._watchdog, args=(self._loop_ident,), name="asynclint-watchdog", daemon=True
        )
        self._thread.start()  # asynclint: ignore[blocking-wait] (once per monitor: start, or the one switch)

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
            return f"the target installed its own {signal_name(self._signum)} handler"
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
        return thread_cpu({self._loop_ident, *self._sampler_threads()})

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
            threads = thread_cpu(skip)
            span = clocks.wall - self._last_look.wall if self._last_look is not None else 0.0
            others = busy_stacks(skip, self._threads_cpu, threads, span)
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
                pending_owner._look(task_stack(getattr(handle, "_callback", None)), {pending_owner._loop_ident})

        self._original_run = original
        # mypy reads a function set on a class as a method missing its ``self``; it takes the handle as one.
        handle_class._run = timed_run  # type: ignore[method-assign, assignment]

    def _unpatch_handles(self) -> None:
        if self._original_run is not None:
            asyncio.events.Handle._run = self._original_run  # type: ignore[method-assign, assignment]  # as above
            self._original_run = None
