"""What the timing tests (``@pytest.mark.timing``) do about a shared, loaded machine.

On two cores with two busy processes beside it, the loop thread of a test waits for a CPU about
two thirds of the time (measured). The profiler says so itself: that time is charged to the host
(``<host>``), from the loop thread's run-queue clock. So a timing test compares quantities of one
run with each other, leaving the host's part out (``held_ms``), never with an absolute duration;
and where a run's premise depends on the scheduler (a contending thread that must actually get a
CPU, a stall the host must not have stretched), it measures again, a few times, until the run
shows the premise held (``measure``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import ModuleType
from typing import NamedTuple, TypeVar

import pytest

from asynclint.profiler.attribution import GC, HOST
from asynclint.profiler.report import Settings

T = TypeVar("T")

#: Share of a run's blocked time charged to the host above which what is left is too little to
#: judge the code by: such a run is measured again.
STARVED = 0.8
ATTEMPTS = 4


def _causes(report) -> dict[str, float]:
    """A report's time per cause, from a ``ProfileReport`` or its JSON (``--format json``)."""
    return dict(report["causes"]) if isinstance(report, dict) else dict(report.analysis.causes)


def blocked_ms(report) -> float:
    return report["lag"]["blocked_ms"] if isinstance(report, dict) else report.analysis.lag.blocked_ms


def host_ms(report) -> float:
    return _causes(report).get(HOST, 0.0)


def held_ms(report) -> float:
    """Blocked time the loop thread had a CPU for: the part the code under test can be judged by."""
    return blocked_ms(report) - host_ms(report)


def code_ms(report) -> float:
    """Blocked time charged to code: neither to the host nor to garbage collection, whose pauses
    are timed by the clock and so stretched by a busy host like any wait."""
    return held_ms(report) - _causes(report).get(GC, 0.0)


def starved(report, share: float = STARVED) -> bool:
    blocked = blocked_ms(report)
    return blocked > 0 and host_ms(report) > share * blocked


def measure(run: Callable[[], T], premise: Callable[[T], bool] | None = None, attempts: int = ATTEMPTS) -> T:
    """``run()`` again (up to ``attempts`` times in all) while its result says the host starved it,
    or ``premise`` (default: the run was not ``starved``) does not hold; the last result, for the
    assertions to explain."""
    premise = premise or (lambda result: not starved(result))
    for _ in range(attempts - 1):
        result = run()
        if premise(result):
            return result
    return run()


def with_cpu_share(run: Callable[[], T]) -> tuple[T, float]:
    """``run()``'s result and the CPU time this process got per second of it, all threads: about
    one for CPU-bound code (or a loop and a thread contending for the GIL) on a machine that lets
    it run, a third on two cores beside two busy processes."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, (time.process_time() - cpu) / max(time.perf_counter() - wall, 1e-9)


def _run_queue_s() -> float:
    """Seconds the calling thread has waited for a CPU, from the run-queue clock Linux keeps per
    thread (the one the profiler charges to the host); 0 where there is none."""
    try:
        with open(f"/proc/self/task/{threading.get_native_id()}/schedstat") as clock:
            return int(clock.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def held_time_ms(run: Callable[[], object]) -> tuple[float, float]:
    """Milliseconds ``run()`` took on this thread less the time the thread waited for a CPU (how
    long the operation holds a loop when the host lets it run, which is what the profiler charges
    to code: comparable with a site's total under any load, unlike the wall time), and of those
    the milliseconds it computed (thread CPU time; the rest it slept or waited for the kernel)."""
    wall, cpu, waited = time.perf_counter(), time.thread_time(), _run_queue_s()
    run()
    held = (time.perf_counter() - wall) - (_run_queue_s() - waited)
    return max(0.0, held) * 1000, (time.thread_time() - cpu) * 1000


class Call(NamedTuple):
    """What one call timed by :func:`timed_calls` did (see :func:`held_time_ms`)."""

    held_ms: float
    cpu_ms: float
    wall_ms: float  # the held time and the waits for a CPU


@contextmanager
def timed_calls(module: ModuleType, names: Mapping[str, str]) -> Iterator[dict[str, list[Call]]]:
    """Within it, each function ``module`` holds under an attribute of ``names`` (key -> attribute)
    is replaced by one that calls it (with no arguments) and records, under the key, what the call
    did: the truth of a profiled run, timed around each call inside it, instead of a calibration
    beside it (which sees a different load on a shared machine). The wrapper's frame is the test's,
    not the target's, so the sites and chains a profile reports are unchanged."""
    calls: dict[str, list[Call]] = {key: [] for key in names}

    def timed(key: str, original: Callable[[], object]) -> Callable[[], None]:
        def call() -> None:
            started = time.perf_counter()
            held, cpu = held_time_ms(original)
            calls[key].append(Call(held, cpu, (time.perf_counter() - started) * 1000))

        return call

    with pytest.MonkeyPatch.context() as patch:
        for key, attribute in names.items():
            patch.setattr(module, attribute, timed(key, getattr(module, attribute)))
        yield calls


#: Host share of a run's blocked time up to which its CPU-bound lines can be judged by their totals.
#: The profiler charges a sampling interval to the host when the loop thread waited for a CPU for
#: half of it or more, so when the host takes a large share, a line that computes can lose most of
#: its time, or all of it, to ``<host>`` (measured: at 44% a 130 ms line kept 2.5 ms); a line that
#: sleeps or waits for the kernel is not runnable meanwhile, and keeps its time under any load.
HELD = 0.25


def held_a_cpu(report) -> bool:
    """The loop thread had a CPU for nearly all of the run's blocked time: lines that compute keep
    their time."""
    return not starved(report, HELD)


#: CPU share (see ``with_cpu_share``) below which CPU-bound code was mostly waiting for a CPU.
MIN_SHARE = 0.6


def given_a_cpu(
    run: Callable[[], T],
    premise: Callable[[T], bool] = lambda result: True,
    attempts: int = ATTEMPTS,
    min_share: float = MIN_SHARE,
) -> T:
    """The result of a CPU-bound ``run()`` that got at least ``min_share`` of a CPU (and meets
    ``premise``), measured up to ``attempts`` times. When the host never allows it, the test is
    skipped, saying so: each span of such a run is mostly a wait for a CPU, which the report
    rightly charges to the host, and nothing is left to judge the code by."""
    measured = measure(
        lambda: with_cpu_share(run), lambda result: result[1] >= min_share and premise(result[0]), attempts
    )
    if measured[1] < min_share or not premise(measured[0]):
        pytest.skip(
            f"the host gave the process {measured[1]:.0%} of a CPU in the last of {attempts} runs: "
            "too little to judge CPU-bound code by"
        )
    return measured[0]


def profile_settings(rollouts: int | None, concurrency: int, **overrides: object) -> Settings:
    """The settings of a profiled run as the timing tests start one: no model latency, no
    time limit, a 5 ms threshold and a 2 ms heartbeat, unless ``overrides`` say otherwise."""
    values: dict[str, object] = dict(
        duration_s=None, latency_ms=0.0, seed=0, threshold_ms=5.0, interval_ms=2.0, method="auto"
    )
    values.update(overrides)
    return Settings(rollouts=rollouts, concurrency=concurrency, **values)
