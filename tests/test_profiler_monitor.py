"""The loop monitor's life cycle where programs misbehave: never stopped, an error inside the
heartbeat, stopped twice, a target with its own alarm. Real loops, real signals, small bounds."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from asynclint.profiler.monitor import LoopMonitor
from asynclint.profiler.timers import signal_available

needs_signal = pytest.mark.skipif(not signal_available(), reason="the signal sampler")


def _line_ending(marker: str) -> int:
    return next(n for n, text in enumerate(open(__file__).read().splitlines(), 1) if text.endswith(marker))


@needs_signal
def test_a_monitor_never_stopped_lets_go_when_its_loop_ends_and_the_process_exits_cleanly():
    script = textwrap.dedent("""
        import asyncio, time
        from asynclint.profiler.monitor import LoopMonitor

        async def forget():
            LoopMonitor(method="signal").start()  # and never stop() it
            await asyncio.sleep(0.01)
            time.sleep(0.02)

        asyncio.run(forget())
        time.sleep(0.1)  # sync code after the loop: the sampler must not keep sampling it

        async def again():
            monitor = LoopMonitor(method="signal")
            monitor.start()  # the abandoned one is released, not "already running"
            await asyncio.sleep(0.01)
            time.sleep(0.03)
            await asyncio.sleep(0.01)
            return monitor.stop()

        recording = asyncio.run(again())
        print(len(recording.stalls) >= 1)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    # Killed by the timer's real-time signal at exit would be a negative return code.
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    assert result.stdout.strip() == "True"


def test_an_error_in_the_heartbeat_is_noted_and_measuring_goes_on():
    class Flaky(LoopMonitor):
        failures = 1

        def _measure_beat(self, loop):
            if self.failures:
                self.failures -= 1
                raise RuntimeError("transient")
            super()._measure_beat(loop)

    async def main():
        monitor = Flaky(method="auto")
        monitor.start()
        await asyncio.sleep(0.02)
        time.sleep(0.03)  # a stall after the failed beat must still be seen
        await asyncio.sleep(0.02)
        return monitor.stop()

    recording = asyncio.run(main())
    assert any("heartbeat error" in note and "transient" in note for note in recording.notes)
    assert any(stall.duration >= 0.02 for stall in recording.stalls)
    assert all(stall.duration < 0.2 for stall in recording.stalls)  # no phantom stall over the idle time


@needs_signal
def test_stop_twice_is_harmless_and_never_cancels_the_targets_alarm():
    fired = []

    async def main():
        monitor = LoopMonitor(method="signal")
        monitor.start()
        await asyncio.sleep(0.01)
        first = monitor.stop()
        previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            again = monitor.stop()
            await asyncio.sleep(0.15)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        return first, again

    first, again = asyncio.run(main())
    assert fired == [True]  # the second stop() left the target's timer alone
    assert again.lags == first.lags and again.stalls == first.stalls


@pytest.mark.timing
def test_watch_does_not_call_a_suppressed_line_a_blind_spot():
    from asynclint.profiler.live import watch

    async def main():
        await asyncio.sleep(0)
        with watch(loop_threshold_ms=5) as report:
            await asyncio.sleep(0.005)
            time.sleep(0.03)  # asynclint: ignore[blocking-sleep] (the line under test)
            await asyncio.sleep(0.005)
        return report

    report = asyncio.run(main())
    line = _line_ending("(the line under test)")
    # Looked up by line, not taken as the top site: on a loaded machine the host can take more.
    site = next(site for site in report.sites if site.frame.line == line)
    assert site.suppressed and not site.blind_spot


@needs_signal
@pytest.mark.timing
def test_a_long_stall_on_one_line_keeps_few_samples_and_all_its_time():
    from asynclint.profiler.attribution import analyze

    class Looking(LoopMonitor):
        """Remembers what the loop thread did before each look (the verdict merging compares)."""

        verdicts: list[str] = []

        def _look(self, stack, skip, fired=None):
            super()._look(stack, skip, fired)
            Looking.verdicts.append(self._last_verdict)

    async def main():
        monitor = Looking(method="signal")
        monitor.start()
        await asyncio.sleep(0.01)
        Looking.verdicts.clear()
        time.sleep(0.3)  # one long wait: ~120 looks at the same line
        looks = list(Looking.verdicts)
        await asyncio.sleep(0.01)
        return monitor.stop(), looks

    recording, looks = asyncio.run(main())
    (stall,) = [stall for stall in recording.stalls if stall.duration >= 0.25]
    # Alike looks (same line, same verdict) merged into one sample: never more samples than runs
    # of equal verdicts.
    runs = 1 + sum(1 for before, after in zip(looks, looks[1:], strict=False) if before != after)
    assert len(looks) >= 20 and len(stall.samples) <= runs + 4, (len(stall.samples), runs, len(looks))
    # All of its time is charged to the line, on a loaded machine too: there the thread, woken by
    # each signal, waits for a CPU to run the handler, a wait the signal caused, not the host
    # (only the wait after the sleep's own end is the host's). See docs/profiler.md, "Under load".
    analysis = analyze(recording)
    number = _line_ending("at the same line")
    (line,) = [site for site in analysis.sites if site.frame.function.endswith(".main") and site.frame.line == number]
    assert line.total_ms >= 0.7 * stall.duration * 1000, (line.total_ms, dict(analysis.causes))


# The target has a loop signal handler (so the process's wakeup descriptor is the loop's socket,
# which about 280 one-byte writes fill on Linux) and holds the loop until the sampler has fired
# 400 times in that one stall; meanwhile a thread sends the signal the loop handles. Counted in
# signals, not seconds, so a loaded machine makes it slower, never weaker.
FLOOD = """
import asyncio, os, signal, sys, threading, time
from asynclint.profiler.monitor import LoopMonitor

class Counting(LoopMonitor):
    fired = 0
    def _on_alarm(self, signum, frame):
        Counting.fired += 1
        super()._on_alarm(signum, frame)

async def main():
    loop = asyncio.get_running_loop()
    got = []
    if sys.argv[2] == "before":
        loop.add_signal_handler(signal.SIGUSR1, got.append, "usr1")
    monitor = Counting(method="signal")
    monitor.start()
    if sys.argv[2] == "after":  # the target replaces the wakeup descriptor while measured
        loop.add_signal_handler(signal.SIGUSR1, got.append, "usr1")
    await asyncio.sleep(0.01)
    sent = False
    while Counting.fired < 400:  # one stall, pure Python
        if not sent and Counting.fired >= 300:
            threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGUSR1)).start()
            sent = True
    for _ in range(5):
        await asyncio.sleep(0.01)
    recording = monitor.stop()
    wakeup = signal.set_wakeup_fd(-1)
    print(recording.method, got, wakeup == loop._csock.fileno() if hasattr(loop, "_csock") else True)

if sys.argv[1] == "uvloop":
    import uvloop
    uvloop.run(main())
else:
    asyncio.run(main())
"""


@needs_signal
@pytest.mark.timing
@pytest.mark.parametrize("installed", ["before", "after"])
@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_the_sampler_never_fills_the_loops_wakeup_fd_and_the_loops_signals_still_arrive(loop, installed):
    if loop == "uvloop":
        pytest.importorskip("uvloop")
    result = subprocess.run([sys.executable, "-c", FLOOD, loop, installed], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    # Not one line: before the relay, "Exception ignored when trying to write to the signal wakeup
    # fd" tracebacks by the hundred, and the SIGUSR1 lost with them.
    assert result.stderr.splitlines() == []
    # The loop's handler ran, and once the monitor stopped the loop's own descriptor was back.
    assert result.stdout.split() == ["signal", "['usr1']", "True"]
