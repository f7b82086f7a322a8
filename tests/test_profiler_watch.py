"""``watch()`` as a long-lived library API: streaming statistics in bounded memory, and watches that
nest or overlap on one loop sharing the running monitor."""

from __future__ import annotations

import asyncio
import random
import threading
import time

import pytest

from asynclint.profiler import live
from asynclint.profiler.attribution import analyze, percentile
from asynclint.profiler.live import MonitorError, watch
from asynclint.profiler.monitor import LoopMonitor
from asynclint.profiler.records import Recording, Sample, Stall
from asynclint.profiler.streaming import PERCENTILE_ERROR, LagDigest, Tally


def block(seconds: float) -> None:
    time.sleep(seconds)  # held here


# On a loaded machine the loop also stalls on its own, waiting for a CPU (the report charges that
# to the host): the tests count the stalls ``block`` held, not all stalls (see timing.py).
def block_stalls(report) -> int:
    """Stalls of a watch's window that ``block`` took part in."""
    return sum(site.count for site in report.sites if site.frame.function == "block")


def block_stalls_recorded(recording: Recording) -> int:
    return sum(
        1
        for stall in recording.stalls
        if any(code is block.__code__ for sample in stall.samples for code, _ in sample.stack)
    )


def test_digest_percentiles_are_within_the_documented_error_and_the_rest_is_exact():
    rng = random.Random(5)
    lags = [rng.lognormvariate(-7, 1.5) for _ in range(20_000)] + [0.0] * 50 + [3.5]
    digest = LagDigest()
    digest.add_lags(lags)
    ordered = sorted(lags)
    for fraction in (0.5, 0.9, 0.99):
        exact = percentile(ordered, fraction)
        assert abs(digest.percentile(fraction) - exact) <= PERCENTILE_ERROR * exact + 1e-12
    assert digest.percentile(1.0) == digest.max == 3.5
    assert digest.beats == len(lags) and digest.total == pytest.approx(sum(lags))
    assert LagDigest().percentile(0.5) == 0.0


def _chunk(start: float, stalls: int) -> Recording:
    code = block.__code__
    made = tuple(Stall(start + i, 0.010, (Sample(start + i + 0.005, ((code, 22),)),), 0.0) for i in range(stalls))
    return Recording(
        lags=(0.0001,) * 500 + (0.010,) * stalls,
        stalls=made,
        started=start,
        wall=1.0,
        interval=0.002,
        threshold=0.005,
        method="signal",
    )


def test_a_tally_stays_the_same_size_however_long_it_runs():
    tally = Tally(worst=10)
    sizes = []
    for second in range(2000):
        chunk = _chunk(float(second), 3)
        tally.add(chunk.lags, chunk.stalls, analyze(chunk))
        if second in (100, 1999):
            sizes.append((len(tally._sites), len(tally._worst), len(tally._inner)))
    assert sizes[0] == sizes[1] == (1, 10, 1)
    result = tally.analysis(analyze(_chunk(0.0, 0)), 2000.0)
    assert result.lag.beats == 2000 * 503 and result.lag.stalls == 6000
    assert result.lag.blocked_ms == pytest.approx(60_000.0)
    assert result.sites[0].count == 6000 and result.sites[0].total_ms == pytest.approx(60_000.0)
    assert len(result.worst) == 10


@pytest.mark.timing
def test_a_watch_empties_the_monitor_it_started_as_it_goes(monkeypatch):
    monkeypatch.setattr(live, "PULL_PERIOD", 0.05)

    async def main():
        with watch() as report:
            for _ in range(6):
                await asyncio.sleep(0.05)
            held = len(report._feed.monitor._lags)  # what is not analysed yet: one period at most
            block(0.02)
            await asyncio.sleep(0.06)
        return report, held

    report, held = asyncio.run(main())
    assert held < 0.05 / 0.002 + 5
    # Every heartbeat of the window reached the report: their periods (interval + lag) fill it.
    lag = report.analysis.lag
    assert lag.beats * (report.analysis.interval_ms + lag.mean_ms) >= 0.7 * report.analysis.wall_s * 1000
    assert block_stalls(report) == 1
    # The largest site of code (on a busy machine the wait for a CPU, <host>, can be larger).
    assert next(site for site in report.sites if site.cause == "user").frame.function == "block"


@pytest.mark.timing
def test_nested_and_overlapping_watches_see_their_own_window():
    async def main():
        with watch() as outer:
            block(0.02)
            with watch(loop_threshold_ms=1) as inner:  # entered mid-stall: the stall is not its
                await asyncio.sleep(0.01)
                block(0.03)  # ends the block: still the inner's
            await asyncio.sleep(0.01)
            block(0.015)
            await asyncio.sleep(0.01)
        return outer, inner

    outer, inner = asyncio.run(main())
    assert block_stalls(outer) == 3 and outer.max_stall_ms >= 25
    # The 20 ms stall the inner watch was entered in is not its own: one stall, the 30 ms one.
    assert block_stalls(inner) == 1 and inner.max_stall_ms >= 25
    assert inner.analysis.threshold_ms == 5  # the running monitor's: a lower one cannot be had

    async def overlapping():
        async def part(seconds: float):
            with watch(loop_threshold_ms=5) as report:
                await asyncio.sleep(0.01)
                block(seconds)
                await asyncio.sleep(0.05)
            return report

        first = asyncio.ensure_future(part(0.02))  # its stall is over before the second starts
        await asyncio.sleep(0.04)
        second = await part(0.04)
        return await first, second

    first, second = asyncio.run(overlapping())
    assert block_stalls(first) == 2 and block_stalls(second) == 1  # the first saw both
    assert LoopMonitor._active is None  # stopped with the last watch, whichever started it


@pytest.mark.timing
def test_a_watch_inside_a_running_profile_shares_its_monitor_and_leaves_its_recording_whole():
    async def main():
        monitor = LoopMonitor()
        monitor.start()
        block(0.01)
        await asyncio.sleep(0.01)
        with watch() as report:
            block(0.02)
            await asyncio.sleep(0.01)
        return monitor.stop(), report

    recording, report = asyncio.run(main())
    assert block_stalls_recorded(recording) == 2 and block_stalls(report) == 1


def test_a_watch_on_another_loop_while_one_runs_is_an_error():
    errors = []

    def other_loop():
        async def main():
            with watch():
                pass

        try:
            asyncio.run(main())
        except MonitorError as exc:
            errors.append(str(exc))

    async def main():
        with watch():
            thread = threading.Thread(target=other_loop)
            thread.start()
            await asyncio.to_thread(thread.join)

    asyncio.run(main())
    assert errors and "on another event loop" in errors[0]
