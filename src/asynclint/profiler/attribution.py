"""Attribution: turn a Recording into lag statistics and stall sites (file:line, function, chain),
aggregated by site and matched to the static findings of ``asynclint check``."""

from __future__ import annotations

import math
import os
import site
import sys
import sysconfig
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import CodeType

from asynclint.model import Finding
from asynclint.profiler.records import GIL_WAIT, HOST_WAIT, Recording, Sample, StackEntry, Stall, interval_verdict

#: What held the loop, for each site and for the cause totals.
USER, LIBRARY, PROFILER, RUNTIME, GC, UNSEEN = "user", "library", "profiler", "runtime", "gc", "unattributed"
THREAD, HOST = "thread", "host"
CAUSES = (USER, LIBRARY, PROFILER, RUNTIME, THREAD, HOST, GC, UNSEEN)
CAUSE_HELP = {
    USER: "your code (the innermost frame outside the stdlib and installed packages)",
    LIBRARY: "an installed package with no frame of yours below it on the stack",
    PROFILER: "asynclint's own load driver and heartbeat",
    RUNTIME: "only stdlib/asyncio frames: the event loop's own work",
    THREAD: "another thread held the GIL while the loop waited for it (work moved to a thread "
    "that is still pure Python); the site is that thread's code",
    HOST: "the loop thread was ready to run but the machine gave its CPU to other processes",
    GC: "the garbage collector",
    UNSEEN: "a stall no sample landed in (shorter than the sampling period, or the sampler "
    "could not get the GIL in time)",
}

#: Upper edges of the lag histogram buckets, in milliseconds (the last bucket is open).
HISTOGRAM_EDGES_MS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000)
MAX_CHAIN = 8
PACKAGE_DIR = str(Path(__file__).resolve().parent.parent) + os.sep


@dataclass(frozen=True)
class Frame:
    path: str  # relative to the working directory when below it (what reports show)
    line: int
    function: str
    file: str = field(default="", compare=False)  # the real file, to match findings (not reported)

    @property
    def location(self) -> str:
        return self.file or self.path


GC_FRAME = Frame("<gc>", 0, "garbage collection")
OTHER_THREAD = Frame("<thread>", 0, "another thread (not seen)")
MACHINE = Frame("<host>", 0, "other processes on the machine")


@dataclass(frozen=True)
class StaticMatch:
    """The static finding a stall site confirms."""

    code: str
    severity: str
    rule: str
    path: str
    line: int
    via: Frame | None = None  # the caller frame that matched when it was not the site itself


@dataclass(frozen=True)
class SiteStats:
    cause: str  # USER, LIBRARY or RUNTIME
    frame: Frame  # innermost frame of that kind
    chain: tuple[Frame, ...]  # frames of the same kind above it, innermost first
    inner: Frame | None  # the innermost frame most samples saw (in a library or the stdlib), if not the site
    count: int  # stalls this site took part in
    total_ms: float  # stall time attributed to it (a stall's time is shared among its samples)
    max_ms: float  # the most attributed to it in one stall
    finding: StaticMatch | None = None
    suppressed: bool = False  # the line carries an asynclint suppression

    @property
    def blind_spot(self) -> bool:
        """Your code held the loop and ``asynclint check`` said nothing about it (nor was told to)."""
        return self.cause == USER and self.finding is None and not self.suppressed


@dataclass(frozen=True)
class LagStats:
    beats: int
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    mean_ms: float
    stalls: int  # heartbeats at least ``threshold`` late
    blocked_ms: float  # sum of those stalls' lateness
    histogram: tuple[tuple[str, int], ...]  # (bucket label, heartbeats in it)
    timeline_ms: tuple[float | None, ...] = ()  # largest lag per time bucket (None: no heartbeat ran)
    timeline_s: float = 0.0  # each bucket's span


@dataclass(frozen=True)
class StallView:
    """One of the worst stalls, with the sites that shared it."""

    at_s: float  # seconds after the monitor started
    duration_ms: float
    sites: tuple[tuple[Frame, str, float], ...]  # (frame, cause, ms)

    @property
    def held_ms(self) -> float:
        """The part of the stall the loop thread was not kept waiting for a CPU by the machine:
        how long the code (or the garbage collector, or another thread) held the loop."""
        return max(0.0, self.duration_ms - sum(ms for _, cause, ms in self.sites if cause == HOST))


@dataclass(frozen=True)
class Analysis:
    lag: LagStats
    sites: tuple[SiteStats, ...]  # largest total first
    causes: tuple[tuple[str, float], ...]  # (cause, ms), every cause in CAUSES order
    worst: tuple[StallView, ...]
    method: str
    threshold_ms: float
    interval_ms: float
    wall_s: float
    notes: tuple[str, ...] = ()  # how it was measured, when the reader should know (a sampler switch)
    most_held: StallView | None = None  # the stall with the largest ``held_ms`` (the host's part left out)


# -- where a frame comes from ----------------------------------------------------------------
def _prefixes() -> tuple[tuple[str, ...], tuple[str, ...]]:
    paths = sysconfig.get_paths()
    stdlib = {paths.get("stdlib"), paths.get("platstdlib")}
    packages = {paths.get("purelib"), paths.get("platlib")}
    for getter in (getattr(site, "getsitepackages", None),):
        if getter is not None:
            packages.update(getter())
    if getattr(site, "getusersitepackages", None):
        packages.add(site.getusersitepackages())
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
        stdlib.add(os.path.join(prefix, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}"))

    def norm(values: Iterable[str | None]) -> tuple[str, ...]:
        return tuple(sorted({os.path.realpath(v) + os.sep for v in values if v}, key=len, reverse=True))

    return norm(stdlib), norm(packages)


_STDLIB, _PACKAGES = _prefixes()


def root_prefixes(roots: Iterable[str]) -> tuple[str, ...]:
    """Directories as the path prefixes :func:`file_cause` compares real file names with."""
    # Once per analysis (a watch's exit, on the loop), over the few roots of the target: microseconds.
    real = {os.path.realpath(root) for root in roots}  # asynclint: ignore[blocking-fs-call]
    return tuple(sorted({path.rstrip(os.sep) + os.sep for path in real}))


@lru_cache(maxsize=4096)
def file_cause(filename: str, user_roots: tuple[str, ...] = ()) -> str:
    """USER, LIBRARY, PROFILER (asynclint itself) or RUNTIME (stdlib) for a code object's file.
    Files under ``user_roots`` (the profiled target's own directories, which may be an installed
    environment in site-packages) are the user's wherever they live."""
    if filename.startswith("<"):
        return RUNTIME  # <frozen ...>, <string>: stdlib machinery or generated code
    # Once per file (cached), when a recording is analysed: a few stat calls, not per sample.
    real = os.path.realpath(filename)  # asynclint: ignore[blocking-fs-call] (cached per file)
    if real.startswith(PACKAGE_DIR):
        return PROFILER
    if any(real.startswith(root) for root in user_roots):
        return USER
    if any(real.startswith(p) or "site-packages" in real or "dist-packages" in real for p in _PACKAGES):
        return LIBRARY
    if any(real.startswith(p) for p in _STDLIB):
        return RUNTIME
    return USER


@lru_cache(maxsize=4096)
def shown_path(filename: str) -> str:
    """Relative to the working directory when below it; stdlib and installed files relative to
    their library directory (``json/decoder.py``, ``verifiers/envs/tool_env.py``); asynclint's
    own files as ``asynclint/...``."""
    if filename.startswith("<"):
        return filename
    real = os.path.realpath(filename)  # cached per file  # asynclint: ignore[blocking-fs-call] (cached per file)
    if real.startswith(PACKAGE_DIR):  # asynclint's own frames, wherever it is installed or cloned
        return Path("asynclint", real[len(PACKAGE_DIR) :]).as_posix()
    for prefix in (*_PACKAGES, *_STDLIB):
        if real.startswith(prefix):
            return Path(real[len(prefix) :]).as_posix()
    for marker in ("site-packages", "dist-packages"):
        head, found, tail = real.partition(os.sep + marker + os.sep)
        if found:
            return Path(tail).as_posix()
    try:
        # asynclint: ignore[blocking-path-io] (cached per file)
        return Path(real).relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return Path(real).as_posix()


#: (file, function) where the loop runs a callback, or where a program hands itself to a loop:
#: frames further out started the loop and did not hold it. The runners matter for loops whose
#: callback machinery is not Python (uvloop), where the first two are never on the stack.
_LOOP_BOUNDARIES = frozenset(
    {
        (os.path.join("asyncio", "events.py"), "_run"),
        (os.path.join("asyncio", "base_events.py"), "_run_once"),
        (os.path.join("asyncio", "base_events.py"), "run_until_complete"),
        (os.path.join("asyncio", "base_events.py"), "run_forever"),
        (os.path.join("asyncio", "runners.py"), "run"),
        (os.path.join("uvloop", "__init__.py"), "run"),
    }
)


@lru_cache(maxsize=4096)
def _is_loop_boundary(code: CodeType) -> bool:
    """The loop running one callback: frames outside it belong to whoever started the loop."""
    return any(code.co_name == name and code.co_filename.endswith(suffix) for suffix, name in _LOOP_BOUNDARIES)


def loop_part(stack: Sequence[StackEntry]) -> Sequence[StackEntry]:
    """The frames from the innermost out to the loop running the callback: what is further out
    started the loop (``asyncio.run(main())``) and did not hold it."""
    for index, entry in enumerate(stack):
        if _is_loop_boundary(entry[0]):
            return stack[: index + 1]
    return stack


def _frame(entry: StackEntry) -> Frame:
    code, line = entry
    return Frame(shown_path(code.co_filename), line, getattr(code, "co_qualname", code.co_name), code.co_filename)


Classified = tuple[str, Frame, tuple[Frame, ...], "Frame | None"]


def classify(stack: Sequence[StackEntry], user_roots: tuple[str, ...] = ()) -> Classified | None:
    """(cause, site frame, chain above it, innermost frame) for one sample: the site is the
    innermost frame of the first cause present among USER, LIBRARY, PROFILER, RUNTIME; the
    innermost frame is kept when it is elsewhere (``json/encoder.py`` under a user line). None for
    an empty stack."""
    by_cause: dict[str, list[StackEntry]] = {USER: [], LIBRARY: [], PROFILER: [], RUNTIME: []}
    part = loop_part(stack)
    for entry in part:
        by_cause[file_cause(entry[0].co_filename, user_roots)].append(entry)
    # The innermost frame, not counting asynclint's own (its GC hook can be running when sampled).
    innermost = next(
        (e for e in part if file_cause(e[0].co_filename, user_roots) != PROFILER), part[0] if part else None
    )
    for cause in (USER, LIBRARY, PROFILER, RUNTIME):
        frames = by_cause[cause]
        if frames:
            inner = _frame(innermost) if innermost is not None and innermost is not frames[0] else None
            return cause, _frame(frames[0]), tuple(_frame(f) for f in frames[1:MAX_CHAIN]), inner
    return None


# -- statistics ------------------------------------------------------------------------------
def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (a value that was actually observed)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def histogram_labels() -> tuple[str, ...]:
    labels, low = [], 0
    for edge in HISTOGRAM_EDGES_MS:
        labels.append(f"{low}-{edge} ms")
        low = edge
    labels.append(f">= {low} ms")
    return tuple(labels)


def lag_stats(recording: Recording) -> LagStats:
    lags = sorted(recording.lags)
    counts = [0] * (len(HISTOGRAM_EDGES_MS) + 1)
    for lag in lags:
        ms = lag * 1000
        index = next((i for i, edge in enumerate(HISTOGRAM_EDGES_MS) if ms < edge), len(HISTOGRAM_EDGES_MS))
        counts[index] += 1
    return LagStats(
        beats=len(lags),
        p50_ms=percentile(lags, 0.50) * 1000,
        p90_ms=percentile(lags, 0.90) * 1000,
        p99_ms=percentile(lags, 0.99) * 1000,
        max_ms=(lags[-1] if lags else 0.0) * 1000,
        mean_ms=(sum(lags) / len(lags) if lags else 0.0) * 1000,
        stalls=len(recording.stalls),
        blocked_ms=sum(s.duration for s in recording.stalls) * 1000,
        histogram=tuple(zip(histogram_labels(), counts, strict=True)),
        timeline_ms=tuple(None if lag is None else lag * 1000 for lag in recording.timeline),
        timeline_s=recording.timeline_s,
    )


def _share(stall: Stall, user_roots: tuple[str, ...] = ()) -> tuple[list[tuple[Classified, float]], float]:
    """Split one stall's time: (classified site, ms) parts, and the unattributed rest.

    A sample stands for the time since the look before it (the heartbeat before the stall, for
    the first one), and the last sample also for the rest of the stall: with the signal sampler a
    sample lands when the code it interrupts lets it, so one sample after a 100 ms C call stands
    for those 100 ms, and samples 2.5 ms apart in Python code stand for 2.5 ms each. What the loop
    thread's clocks say about each span decides whom it is charged to: the sampled code when the
    thread ran or waited in a call of its own, the other threads when it waited for the GIL, the
    machine when it waited for a CPU."""
    parts: list[tuple[Classified, float]] = []
    unattributed = 0.0
    for owner, seconds in stall_owners(stall):
        classified = _classified(owner, user_roots)
        if classified is None:
            unattributed += seconds * 1000
        else:
            parts.append((classified, seconds * 1000))
    return parts, unattributed


def sample_spans(stall: Stall) -> list[tuple[Sample, float, str]]:
    """(sample, seconds it stands for, what the loop thread did then) over a stall, in time order:
    each sample stands for the time since the look before it, the last one also for the rest."""
    samples = sorted(stall.samples, key=lambda sample: sample.time)
    if not samples:
        return []
    start, end = stall.due, stall.due + stall.duration
    times = [start, *(min(max(sample.time, start), end) for sample in samples), end]
    clocks = [stall.before, *(sample.clocks for sample in samples), stall.after]
    return [
        (
            samples[min(index, len(samples) - 1)],
            times[index + 1] - times[index],
            interval_verdict(clocks[index], clocks[index + 1]),
        )
        for index in range(len(times) - 1)
    ]


#: Who a span of a stall belongs to: the loop thread's stack, another thread's stack, or no code
#: at all (``HOST``: the machine; ``THREAD`` with an empty stack: a thread that could not be seen).
Owner = tuple[str, tuple[StackEntry, ...]]


def span_owners(sample: Sample, verdict: str) -> list[Owner]:
    """Whom one span of a stall is charged to (evenly, when several): see :func:`_share`."""
    if verdict == HOST_WAIT:
        return [(HOST, ())]
    if verdict == GIL_WAIT:
        return [(THREAD, stack) for stack in sample.others] or [(THREAD, ())]
    return [(USER, sample.stack)]  # the loop thread's own code (classified later)


def stall_owners(stall: Stall) -> list[tuple[Owner | None, float]]:
    """(owner, seconds) for one stall, as the report charges it; ``None`` for garbage collection
    (owner ``(GC, ())``) and for time no sample covered (owner ``None``). The HTML call tree
    draws these stacks; the report classifies them into sites."""
    parts: list[tuple[Owner | None, float]] = []
    if stall.gc_time > 0:
        parts.append(((GC, ()), stall.gc_time))
    rest = max(0.0, stall.duration - stall.gc_time)
    spans = sample_spans(stall)
    if not spans:
        return [*parts, (None, rest)] if rest > 0 else parts
    total = sum(span for _, span, _ in spans)
    for sample, span, verdict in spans:
        if span <= 0 < total:
            continue  # e.g. the last sample came at the very end: no tail to charge
        owners = span_owners(sample, verdict)
        seconds = rest * (span / total if total > 0 else 1 / len(spans)) / len(owners)
        parts.extend((owner, seconds) for owner in owners)
    return parts


def _classified(owner: Owner | None, user_roots: tuple[str, ...]) -> Classified | None:
    if owner is None:
        return None
    kind, stack = owner
    if kind == GC:
        return GC, GC_FRAME, (), None
    if kind == HOST:
        return HOST, MACHINE, (), None
    if kind == THREAD and not stack:
        return THREAD, OTHER_THREAD, (), None
    found = classify(stack, user_roots)
    if found is None:
        return (THREAD, OTHER_THREAD, (), None) if kind == THREAD else None
    return (THREAD, *found[1:]) if kind == THREAD else found


def analyze(
    recording: Recording,
    findings: Sequence[Finding] = (),
    *,
    worst: int = 10,
    user_roots: Sequence[str] = (),
    suppressed: Iterable[tuple[str, int]] = (),
) -> Analysis:
    """Aggregate a recording by site, and match user sites to ``findings`` (from ``run_check``).
    ``user_roots``: directories whose files are the user's wherever they are installed;
    ``suppressed``: (path, line) pairs carrying an asynclint suppression."""
    roots = root_prefixes(user_roots)
    hidden = {(_resolved(path), line) for path, line in suppressed}
    sites: dict[tuple[str, Frame], dict] = {}
    causes = dict.fromkeys(CAUSES, 0.0)
    views: list[StallView] = []
    for stall in recording.stalls:
        parts, unattributed = _share(stall, roots)
        causes[UNSEEN] += unattributed
        in_stall: dict[tuple[str, Frame], float] = {}
        for (cause, frame, chain, inner), ms in parts:
            causes[cause] += ms
            key = (cause, frame)
            entry = sites.setdefault(key, {"chain": chain, "inner": Counter(), "count": 0, "total": 0.0, "max": 0.0})
            entry["inner"][inner] += 1
            in_stall[key] = in_stall.get(key, 0.0) + ms
        for key, ms in in_stall.items():
            entry = sites[key]
            entry["count"] += 1
            entry["total"] += ms
            entry["max"] = max(entry["max"], ms)
        views.append(
            StallView(
                at_s=stall.due - recording.started,
                duration_ms=stall.duration * 1000,
                sites=tuple(
                    (frame, cause, ms) for (cause, frame), ms in sorted(in_stall.items(), key=lambda item: -item[1])
                ),
            )
        )
    index = FindingIndex(findings)
    stats = [
        SiteStats(
            cause,
            frame,
            entry["chain"],
            entry["inner"].most_common(1)[0][0],
            entry["count"],
            entry["total"],
            entry["max"],
            index.match(frame, entry["chain"]) if cause in (USER, THREAD) else None,
            (_resolved(frame.location), frame.line) in hidden,
        )
        for (cause, frame), entry in sites.items()
    ]
    stats.sort(key=lambda s: (-s.total_ms, s.frame.path, s.frame.line))
    ordered = sorted(views, key=lambda view: -view.duration_ms)[:worst]
    return Analysis(
        lag=lag_stats(recording),
        sites=tuple(stats),
        causes=tuple(causes.items()),
        worst=tuple(ordered),
        method=recording.method,
        threshold_ms=recording.threshold * 1000,
        interval_ms=recording.interval * 1000,
        wall_s=recording.wall,
        notes=recording.notes,
        most_held=max(views, key=lambda view: view.held_ms, default=None),
    )


class FindingIndex:
    """Static findings by resolved file, to match a stall frame against a finding's line span."""

    def __init__(self, findings: Iterable[Finding]):
        self.by_file: dict[str, list[Finding]] = {}
        for finding in findings:
            self.by_file.setdefault(_resolved(finding.path), []).append(finding)

    def at(self, frame: Frame) -> Finding | None:
        candidates = [f for f in self.by_file.get(_resolved(frame.location), ()) if f.line <= frame.line <= f.end_line]
        return max(candidates, key=lambda f: (f.severity, -f.line), default=None)

    def match(self, frame: Frame, chain: Sequence[Frame]) -> StaticMatch | None:
        for candidate in (frame, *chain):
            found = self.at(candidate)
            if found is not None:
                return StaticMatch(
                    found.code,
                    found.severity.label,
                    found.rule,
                    found.path,
                    found.line,
                    via=None if candidate is frame else candidate,
                )
        return None


@lru_cache(maxsize=4096)
def _resolved(path: str) -> str:
    try:
        return str(Path(path).resolve())  # cached per file  # asynclint: ignore[blocking-path-io] (cached per file)
    except OSError:
        return path
