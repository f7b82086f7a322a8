"""What the loop monitor records: plain data, no analysis beyond how the loop thread spent one
interval between two clock readings. Stdlib only, like the monitor (the pytest plugin imports it)."""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from types import CodeType

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
