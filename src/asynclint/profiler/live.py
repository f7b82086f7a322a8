"""The library API: ``with asynclint.profiler.watch() as report:`` inside a running event loop.

It attaches the monitor to the loop that is running when the block is entered (so enter it from
a coroutine: the top of your ``main()``, or a long-running server's startup) and detaches on
exit. Outside a running loop it raises ``MonitorError``: there is no loop to watch yet, and
wrapping ``asyncio.run`` would watch only a loop that has not been created.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from asynclint.model import Finding
from asynclint.profiler.attribution import Analysis, SiteStats, analyze
from asynclint.profiler.monitor import LoopMonitor, MonitorError, Recording

__all__ = ["MonitorError", "Watch", "watch"]


class Watch:
    """What ``watch()`` yields: live while the block runs (``snapshot()``), final after it."""

    def __init__(self, monitor: LoopMonitor, findings: Sequence[Finding] = ()):
        self.monitor = monitor
        self.findings = tuple(findings)
        self.recording: Recording | None = None
        self._analysis: Analysis | None = None

    def snapshot(self) -> Analysis:
        """The analysis so far (call from the loop's thread while watching, e.g. a /metrics route);
        after the block, the final one."""
        if self.recording is None:
            return analyze(self.monitor.snapshot(), self.findings)
        if self._analysis is None:  # analysed on first use, not on the way out of the block
            self._analysis = analyze(self.recording, self.findings)
        return self._analysis

    def _finish(self) -> None:
        self.recording = self.monitor.stop()

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
        lines = [f"event loop: {a.lag.stalls} stalls >= {a.threshold_ms:g} ms, blocked {a.lag.blocked_ms:.1f} ms, "
                 f"max {a.lag.max_ms:.1f} ms, p99 {a.lag.p99_ms:.1f} ms"]
        for site in a.sites[:top]:
            lines.append(f"  {site.frame.path}:{site.frame.line} in {site.frame.function} ({site.cause}): "
                         f"{site.count} stalls, {site.total_ms:.1f} ms total, max {site.max_ms:.1f} ms")
        return "\n".join(lines)


@contextmanager
def watch(loop_threshold_ms: float = 5.0, *, interval_ms: float = 2.0, method: str = "auto",
          findings: Sequence[Finding] = ()) -> Iterator[Watch]:
    """Watch the running loop: every heartbeat ``loop_threshold_ms`` or more late is a stall,
    attributed to the code that held the loop. ``findings`` (from ``run_check``) are matched to
    user sites like ``asynclint profile`` does."""
    monitor = LoopMonitor(threshold=loop_threshold_ms / 1000, interval=interval_ms / 1000, method=method)
    monitor.start()
    report = Watch(monitor, findings)
    try:
        yield report
    finally:
        report._finish()
