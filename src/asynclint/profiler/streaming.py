"""Streaming aggregation for long-lived watches: a recording is analysed in chunks as it arrives,
and only fixed-size summaries are kept (lag histogram, sites, the worst stalls), so a watch that
runs for days costs the same memory, and its snapshot the same time, as one that ran a minute.

``asynclint profile`` does not stream: its runs are bounded, and its report is computed once, after
the loop stopped, from every heartbeat (exact nearest-rank percentiles). ``watch()`` streams,
because its snapshot runs on the watched loop while it serves.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from asynclint.profiler.attribution import (
    CAUSES,
    HISTOGRAM_EDGES_MS,
    Analysis,
    LagStats,
    SiteStats,
    StallView,
    histogram_labels,
)
from asynclint.profiler.records import Stall

#: Percentile buckets grow by this ratio: a percentile is the geometric middle of its bucket, so
#: it is within ``PERCENTILE_ERROR`` (relative) of the nearest-rank value it stands for.
BUCKET_RATIO = 1.02
PERCENTILE_ERROR = math.sqrt(BUCKET_RATIO) - 1  # 0.995 %
#: Lags below this (seconds) share the first bucket and read as 0: far below any threshold.
SMALLEST_LAG = 1e-6
#: Lags above this share the last bucket (their percentile reads as the exact maximum).
LARGEST_LAG = 24 * 3600.0
_BUCKETS = math.ceil(math.log(LARGEST_LAG / SMALLEST_LAG) / math.log(BUCKET_RATIO)) + 2
_LOG_RATIO = math.log(BUCKET_RATIO)


class LagDigest:
    """Lag statistics in constant memory. Exact: heartbeats, stalls, blocked time, mean, max and
    the display histogram. Percentiles: from a log-scale histogram, within ``PERCENTILE_ERROR``
    of the nearest-rank value (never above the maximum, and the 100th is the maximum)."""

    def __init__(self) -> None:
        self.beats = 0
        self.total = 0.0  # seconds, for the mean
        self.max = 0.0
        self.stalls = 0
        self.blocked = 0.0  # seconds
        self._buckets = [0] * _BUCKETS
        self._shown = [0] * (len(HISTOGRAM_EDGES_MS) + 1)

    def add_lags(self, lags: Iterable[float]) -> None:
        buckets, shown = self._buckets, self._shown
        for lag in lags:
            self.beats += 1
            self.total += lag
            if lag > self.max:
                self.max = lag
            buckets[_bucket(lag)] += 1
            shown[bisect_right(HISTOGRAM_EDGES_MS, lag * 1000)] += 1

    def add_stalls(self, stalls: Iterable[Stall]) -> None:
        for stall in stalls:
            self.stalls += 1
            self.blocked += stall.duration

    def percentile(self, fraction: float) -> float:
        """Seconds; the nearest-rank percentile's bucket, read at its geometric middle."""
        if not self.beats:
            return 0.0
        rank = max(1, math.ceil(fraction * self.beats))
        if rank >= self.beats:
            return self.max
        seen = 0
        for index, count in enumerate(self._buckets):
            seen += count
            if seen >= rank:
                return min(_middle(index), self.max)
        return self.max

    def stats(self, like: LagStats) -> LagStats:
        """The statistics so far, in the shape of ``like`` (any field this digest does not know
        keeps ``like``'s value)."""
        return replace(
            like,
            beats=self.beats,
            p50_ms=self.percentile(0.50) * 1000,
            p90_ms=self.percentile(0.90) * 1000,
            p99_ms=self.percentile(0.99) * 1000,
            max_ms=self.max * 1000,
            mean_ms=(self.total / self.beats if self.beats else 0.0) * 1000,
            stalls=self.stalls,
            blocked_ms=self.blocked * 1000,
            histogram=tuple(zip(histogram_labels(), self._shown, strict=True)),
        )


def _bucket(lag: float) -> int:
    if lag < SMALLEST_LAG:
        return 0
    return min(_BUCKETS - 1, 1 + int(math.log(lag / SMALLEST_LAG) / _LOG_RATIO))


def _middle(index: int) -> float:
    if index == 0:
        return 0.0
    low = SMALLEST_LAG * BUCKET_RATIO ** (index - 1)
    return low * math.sqrt(BUCKET_RATIO)


class Tally:
    """Analyses of consecutive chunks of one watch's recording, merged: sites by (cause, frame),
    cause totals, the ``worst`` longest stalls, and the lag digest. Memory grows with the number of
    distinct sites (lines of code), not with time."""

    def __init__(self, worst: int = 10):
        self.worst_kept = worst
        self.lag = LagDigest()
        self._sites: dict[tuple[str, object], SiteStats] = {}
        self._inner: dict[tuple[str, object], Counter] = {}
        self._causes = dict.fromkeys(CAUSES, 0.0)
        self._worst: list[tuple[float, int, StallView]] = []  # min-heap of (duration, order, StallView)
        self._order = 0
        self._last: Analysis | None = None
        self._most_held: StallView | None = None

    def add(self, lags: Iterable[float], stalls: Iterable[Stall], analysis: Analysis) -> None:
        """One chunk: its raw lags and stalls (for the digest) and ``analyze`` of the same chunk."""
        self.lag.add_lags(lags)
        self.lag.add_stalls(stalls)
        for site in analysis.sites:
            key = (site.cause, site.frame)
            known = self._sites.get(key)
            if known is None:
                self._sites[key] = site
            else:
                self._sites[key] = replace(
                    known,
                    count=known.count + site.count,
                    total_ms=known.total_ms + site.total_ms,
                    max_ms=max(known.max_ms, site.max_ms),
                    finding=known.finding or site.finding,
                )
            # The innermost frame most samples saw, approximated across chunks by each chunk's
            # choice weighted by the stalls it covered.
            self._inner.setdefault(key, Counter())[site.inner] += site.count
        for cause, ms in analysis.causes:
            self._causes[cause] = self._causes.get(cause, 0.0) + ms
        for view in analysis.worst:
            self._order += 1
            entry = (view.duration_ms, self._order, view)
            if len(self._worst) < self.worst_kept:
                heapq.heappush(self._worst, entry)
            elif entry[0] > self._worst[0][0]:
                heapq.heapreplace(self._worst, entry)
        held = analysis.most_held
        if held is not None and (self._most_held is None or held.held_ms > self._most_held.held_ms):
            self._most_held = held
        self._last = analysis

    def analysis(self, empty: Analysis, wall_s: float) -> Analysis:
        """Everything so far; ``empty`` (an analysis of nothing) gives the shape before any chunk."""
        like = self._last or empty
        sites = [replace(site, inner=self._inner[key].most_common(1)[0][0]) for key, site in self._sites.items()]
        sites.sort(key=lambda s: (-s.total_ms, s.frame.path, s.frame.line))
        worst = [view for _, _, view in sorted(self._worst, key=lambda entry: (-entry[0], entry[1]))]
        return replace(
            like,
            lag=self.lag.stats(like.lag),
            sites=tuple(sites),
            causes=tuple(self._causes.items()),
            worst=tuple(worst),
            wall_s=wall_s,
            most_held=self._most_held,
        )
