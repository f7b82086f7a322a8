"""The library API: ``with asynclint.profiler.watch() as report:`` inside a running event loop.

It attaches the monitor to the loop that is running when the block is entered (so enter it from
a coroutine: the top of your ``main()``, or a long-running server's startup) and detaches on
exit. Outside a running loop it raises ``MonitorError``: there is no loop to watch yet, and
wrapping ``asyncio.run`` would watch only a loop that has not been created.

A watch streams: every ``PULL_PERIOD`` seconds (and on every snapshot) what the monitor recorded
is analysed and merged into fixed-size summaries (``streaming.Tally``), then dropped, so memory
and the cost of ``snapshot()`` do not grow with uptime.

Watches nest and overlap: one monitor runs per process, and a watch entered while one runs on the
same loop shares it (``asynclint profile`` running a target that calls ``watch()``, the pytest
fixture inside a marked test, two tasks each watching their own part). Each watch sees only what
happened between its entry and exit, at the running monitor's heartbeat and sampler; it keeps the
stalls at or above its own threshold when that is higher than the running one's (a lower one
cannot be had: the analysis says which threshold applied). The monitor stops when the last watch
that started it ends.
"""

from __future__ import annotations

import asyncio
import linecache
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

from asynclint.model import Finding
from asynclint.profiler.attribution import Analysis, SiteStats, analyze
from asynclint.profiler.monitor import LoopMonitor
from asynclint.profiler.records import MonitorError, Recording, Stall
from asynclint.profiler.streaming import Tally
from asynclint.suppressions import suppressed_lines

__all__ = ["MonitorError", "Watch", "watch"]

#: Seconds between reads of the monitor's buffers: what a watch holds unanalysed at most.
PULL_PERIOD = 1.0
#: Worst stalls a watch keeps (with their sites) for ``Analysis.worst``.
WORST_STALLS = 10


class Watch:
    """What ``watch()`` yields: live while the block runs (``snapshot()``), final after it."""

    def __init__(
        self,
        template: Recording,
        threshold: float,
        findings: Sequence[Finding] = (),
        monitor: LoopMonitor | None = None,
    ):
        self.findings = tuple(findings)
        self._monitor = monitor  # its method and notes can change while the watch runs (a sampler switch)
        self._suppressed: dict[str, frozenset[int]] = {}  # suppressed lines per file read
        self.threshold = threshold  # the effective one: never below the running monitor's
        self.started = time.monotonic()
        self._template = replace(template, lags=(), stalls=(), started=self.started, threshold=threshold, wall=0.0)
        self._tally = Tally(WORST_STALLS)
        self._overdue = 0.0  # how late the monitor's next heartbeat already was at entry
        self._feed: _Feed | None = None
        self._final: Analysis | None = None
        self._wall = 0.0

    def _take(self, lags: Sequence[float], stalls: Sequence[Stall], now: float) -> None:
        """One chunk of the monitor's recording, analysed and merged (called by the feed). A stall
        that began before this watch did (it joined a running monitor mid-stall) counts from the
        watch's start, and so does the heartbeat that ended it."""
        lags = list(lags)
        if self._overdue and lags:
            lags[0], self._overdue = max(0.0, lags[0] - self._overdue), 0.0
        mine = []
        for stall in stalls:
            if stall.due < self.started:
                stall = replace(
                    stall,
                    due=self.started,
                    duration=stall.due + stall.duration - self.started,
                    samples=tuple(x for x in stall.samples if x.time >= self.started),
                )
            if stall.duration >= self.threshold:
                mine.append(stall)
        chunk = replace(self._current(), lags=tuple(lags), stalls=tuple(mine), wall=now - self.started)
        self._tally.add(chunk.lags, chunk.stalls, analyze(chunk, self.findings, worst=WORST_STALLS))

    def _current(self) -> Recording:
        """The template with the monitor's method and notes as they are now."""
        if self._monitor is None:
            return self._template
        return replace(self._template, method=self._monitor.method, notes=tuple(self._monitor.notes))

    def _with_suppressions(self, analysis: Analysis) -> Analysis:
        """Blind spots on lines with an asynclint suppression are not blind spots: someone decided.
        Only the files of such sites are read, once each, through ``linecache`` (usually one or two
        small files, not every file a stack passed through: this runs on the watched loop)."""
        marked = []
        for site in analysis.sites:
            if site.blind_spot and site.frame.file:
                lines = self._suppressed.get(site.frame.file)
                if lines is None:
                    lines = suppressed_lines("".join(linecache.getlines(site.frame.file)))
                    self._suppressed[site.frame.file] = lines
                if site.frame.line in lines:
                    site = replace(site, suppressed=True)
            marked.append(site)
        return replace(analysis, sites=tuple(marked))

    def snapshot(self) -> Analysis:
        """The analysis so far (call from the loop's thread while watching, e.g. a /metrics route);
        after the block, the final one. Its cost does not depend on how long the watch has run."""
        if self._final is not None:
            return self._final
        if self._feed is not None:
            self._feed.pull()
        return self._with_suppressions(
            self._tally.analysis(analyze(self._current(), self.findings), time.monotonic() - self.started)
        )

    def _finish(self) -> None:
        self._wall = time.monotonic() - self.started
        self._final = self._with_suppressions(self._tally.analysis(analyze(self._current(), self.findings), self._wall))

    @property
    def analysis(self) -> Analysis:
        return self.snapshot()

    @property
    def max_stall_ms(self) -> float:
        return self.analysis.lag.max_ms

    @property
    def blocked_ms(self) -> float:
        return self.analysis.lag.blocked_ms

    @property
    def sites(self) -> tuple[SiteStats, ...]:
        return self.analysis.sites

    def summary(self, top: int = 5) -> str:
        """A few plain lines: the lag, then the sites that held the loop longest."""
        a = self.analysis
        lines = [
            f"event loop: {a.lag.stalls} stalls >= {a.threshold_ms:g} ms, blocked {a.lag.blocked_ms:.1f} ms, "
            f"max {a.lag.max_ms:.1f} ms, p99 {a.lag.p99_ms:.1f} ms"
        ]
        for site in a.sites[:top]:
            lines.append(
                f"  {site.frame.path}:{site.frame.line} in {site.frame.function} ({site.cause}): "
                f"{site.count} stalls, {site.total_ms:.1f} ms total, max {site.max_ms:.1f} ms"
            )
        return "\n".join(lines)


class _Feed:
    """Reads what one running monitor recorded since the last read and hands it to every watch
    attached to it. A feed that started its monitor also empties the monitor's buffers as it reads
    them (bounded memory) and stops the monitor with its last watch; a feed on someone else's
    monitor (``asynclint profile``'s) only moves its cursors, leaving that recording whole.

    It reads the monitor through ``drain`` and (for a stall in progress) ``in_progress``, on the
    loop's thread, the only one the monitor records on."""

    _by_monitor: dict[int, _Feed] = {}

    def __init__(self, monitor: LoopMonitor, loop: asyncio.AbstractEventLoop, owned: bool):
        self.monitor, self.loop, self.owned = monitor, loop, owned
        self.watches: list[Watch] = []
        self._cursor = None if owned else monitor.cursor  # a shared recording is read from now on
        self._timer: asyncio.TimerHandle | None = loop.call_later(PULL_PERIOD, self._tick)
        _Feed._by_monitor[id(monitor)] = self

    @classmethod
    def attach(cls, threshold: float, interval: float, method: str) -> _Feed:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise MonitorError(
                "no running event loop: enter watch() inside the loop (e.g. at the top of your main coroutine)"
            ) from None
        active = LoopMonitor.running()
        if active is None:
            monitor = LoopMonitor(threshold=threshold, interval=interval, method=method)
            monitor.start(loop)
            return cls(monitor, loop, owned=True)
        if active.loop is not loop:
            raise MonitorError(
                "another loop monitor is running in this process, on another event loop "
                "(one monitor per process: watch one loop at a time)"
            )
        return cls._by_monitor.get(id(active)) or cls(active, loop, owned=False)

    def add(self, watch: Watch) -> None:
        self.pull()  # what came before belongs to the watches already attached
        overdue = self.monitor.in_progress(time.monotonic())
        if overdue is not None:
            watch._overdue = max(0.0, overdue[0])
        watch._feed = self
        self.watches.append(watch)

    def remove(self, watch: Watch) -> None:
        last = self.watches == [watch]
        if last and self.owned:
            self.monitor.stop()  # records a stall still in progress (no later heartbeat will)
        self.pull()
        if not (last and self.owned):
            self._give_in_progress(watch)
        self.watches.remove(watch)
        watch._feed = None
        watch._finish()
        if last:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            _Feed._by_monitor.pop(id(self.monitor), None)

    def pull(self) -> None:
        new_lags, new_stalls, cursor = self.monitor.drain(self._cursor)
        if not self.owned:
            self._cursor = cursor
        if not new_lags and not new_stalls:
            return
        now = time.monotonic()
        for watch in self.watches:
            watch._take(new_lags, new_stalls, now)

    def _give_in_progress(self, watch: Watch) -> None:
        """The stall in progress as ``watch`` ends (usually the code just before its exit): the
        monitor keeps running, and records it at its next heartbeat for the watches that stay;
        the one leaving gets it now, with the samples taken so far, as ``LoopMonitor.stop`` would."""
        now = time.monotonic()
        overdue = self.monitor.in_progress(now)
        if overdue is None or overdue[0] < watch.threshold:
            return  # stopped (its recording is complete), or not a stall
        lag, samples = overdue
        watch._take([lag], [Stall(now - lag, lag, samples, 0.0)], now)

    def _tick(self) -> None:
        self.pull()
        self._timer = self.loop.call_later(PULL_PERIOD, self._tick)


@contextmanager
def watch(
    loop_threshold_ms: float = 5.0, *, interval_ms: float = 2.0, method: str = "auto", findings: Sequence[Finding] = ()
) -> Iterator[Watch]:
    """Watch the running loop: every heartbeat ``loop_threshold_ms`` or more late is a stall,
    attributed to the code that held the loop. ``findings`` (from ``run_check``) are matched to
    user sites like ``asynclint profile`` does. Inside another watch (or ``asynclint profile``) on
    the same loop, it shares the running monitor (its interval and method; see the module doc)."""
    feed = _Feed.attach(loop_threshold_ms / 1000, interval_ms / 1000, method)
    report = Watch(
        feed.monitor.snapshot(), max(loop_threshold_ms / 1000, feed.monitor.threshold), findings, feed.monitor
    )
    feed.add(report)
    try:
        yield report
    finally:
        feed.remove(report)
