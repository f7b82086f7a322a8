"""The profile report: one record of a run (settings, lag, throughput, sites, outputs digest),
its stable JSON form (docs/profiler.md) and the rich terminal view."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console, JustifyMethod
from rich.table import Table
from rich.text import Text

from asynclint.profiler.attribution import CAUSE_HELP, THREAD, USER, Analysis, Frame, SiteStats

#: Bump only on a breaking change to the JSON shape (docs/profiler.md, "JSON format").
PROFILE_FORMAT_VERSION = 3
#: Versions ``--compare`` reads: 2 and 3 only added fields (docs/profiler.md, "JSON format").
READABLE_VERSIONS = (1, 2, 3)
TOP_SITES = 12
SITE_WIDTH = 44  # with the other columns at their widest, the table still fits 128 columns
#: A blind spot is called out below the table when it holds at least this share of the blocked time.
BLIND_SPOT_SHARE = 0.01
SEVERITY_STYLE = {"critical": "bold red", "high": "red", "medium": "yellow", "low": "cyan"}


@dataclass(frozen=True)
class Settings:
    rollouts: int | None
    concurrency: int
    duration_s: float | None
    latency_ms: float
    seed: int
    threshold_ms: float
    interval_ms: float
    method: str
    warmup: int = 0  # unmeasured rollouts run first
    timeout_s: float | None = None  # rollouts still running then were cancelled (timed out)
    loop: str = "asyncio"  # the event loop the target ran on: asyncio's own, or uvloop


@dataclass(frozen=True)
class RunFacts:
    """How the run went, beyond its numbers."""

    concurrency: int  # rollouts in flight at most
    concurrency_note: str | None = None  # why that is not what was asked, when it is not
    timed_out: int = 0  # rollouts cancelled at the timeout
    interrupted: bool = False  # stopped by SIGINT: a partial report
    cancelled: int = 0  # rollouts in flight when it was interrupted
    fake_server: bool = True  # the fake model server ran (its settings mean something)


@dataclass(frozen=True)
class OutputsDigest:
    """The target's outputs in rollout order, and a hash of them, to compare two runs."""

    count: int
    errors: int
    sha256: str
    values: tuple[Any, ...]

    @classmethod
    def of(cls, values: tuple[Any, ...], errors: int) -> OutputsDigest:
        text = json.dumps(list(values), sort_keys=True, separators=(",", ":"))
        return cls(len(values), errors, hashlib.sha256(text.encode()).hexdigest(), values)


@dataclass(frozen=True)
class StaticSummary:
    files: int
    findings: int
    note: str | None = None  # why the static check could not run, if it could not


@dataclass(frozen=True)
class ProfileReport:
    target: str
    kind: str
    settings: Settings
    rollouts: int
    wall_s: float
    analysis: Analysis
    outputs: OutputsDigest
    static: StaticSummary
    first_error: str | None = None
    run: RunFacts | None = None  # None: as asked, nothing cut short

    @property
    def facts(self) -> RunFacts:
        return self.run or RunFacts(self.settings.concurrency)

    @property
    def throughput(self) -> float:
        """Rollouts completed (not cancelled) per second."""
        done = self.rollouts - self.facts.timed_out - self.facts.cancelled
        return done / self.wall_s if self.wall_s > 0 else 0.0


# -- JSON ------------------------------------------------------------------------------------
def _frame(frame: Frame) -> dict[str, Any]:
    return {"path": frame.path, "line": frame.line, "function": frame.function}


def _site(site: SiteStats) -> dict[str, Any]:
    finding = None
    if site.finding is not None:
        f = site.finding
        finding = {
            "code": f.code,
            "severity": f.severity,
            "rule": f.rule,
            "path": f.path,
            "line": f.line,
            "via": _frame(f.via) if f.via else None,
        }
    return {
        "cause": site.cause,
        **_frame(site.frame),
        "chain": [_frame(c) for c in site.chain],
        "inner": _frame(site.inner) if site.inner else None,
        "count": site.count,
        "total_ms": round(site.total_ms, 3),
        "max_ms": round(site.max_ms, 3),
        "finding": finding,
        "blind_spot": site.blind_spot,
        "suppressed": site.suppressed,
    }


def to_dict(report: ProfileReport) -> dict[str, Any]:
    a, s = report.analysis, report.settings
    return {
        "asynclint_profile": PROFILE_FORMAT_VERSION,
        "target": report.target,
        "kind": report.kind,
        "settings": {
            "rollouts": s.rollouts,
            "concurrency": s.concurrency,
            "duration_s": s.duration_s,
            "latency_ms": s.latency_ms,
            "seed": s.seed,
            "threshold_ms": s.threshold_ms,
            "interval_ms": s.interval_ms,
            "method": a.method,
            "warmup": s.warmup,
            "timeout_s": s.timeout_s,
            "loop": s.loop,
        },
        "run": {
            "rollouts": report.rollouts,
            "errors": report.outputs.errors,
            "first_error": report.first_error,
            "wall_s": round(report.wall_s, 4),
            "throughput_per_s": round(report.throughput, 4),
            "concurrency": report.facts.concurrency,
            "timed_out": report.facts.timed_out,
            "interrupted": report.facts.interrupted,
            "cancelled": report.facts.cancelled,
        },
        "lag": {
            "beats": a.lag.beats,
            "p50_ms": round(a.lag.p50_ms, 3),
            "p90_ms": round(a.lag.p90_ms, 3),
            "p99_ms": round(a.lag.p99_ms, 3),
            "max_ms": round(a.lag.max_ms, 3),
            "mean_ms": round(a.lag.mean_ms, 3),
            "stalls": a.lag.stalls,
            "blocked_ms": round(a.lag.blocked_ms, 3),
            "histogram": [{"bucket": label, "count": count} for label, count in a.lag.histogram],
            "timeline": {
                "bucket_s": round(a.lag.timeline_s, 6),
                "max_ms": [None if ms is None else round(ms, 3) for ms in a.lag.timeline_ms],
            },
        },
        "notes": list(a.notes),
        "causes": {cause: round(ms, 3) for cause, ms in a.causes},
        "sites": [_site(site) for site in a.sites],
        "worst_stalls": [
            {
                "at_s": round(v.at_s, 4),
                "duration_ms": round(v.duration_ms, 3),
                "sites": [{**_frame(frame), "cause": cause, "ms": round(ms, 3)} for frame, cause, ms in v.sites],
            }
            for v in a.worst
        ],
        "outputs": {
            "count": report.outputs.count,
            "errors": report.outputs.errors,
            "sha256": report.outputs.sha256,
            "values": list(report.outputs.values),
        },
        "static": {"files": report.static.files, "findings": report.static.findings, "note": report.static.note},
    }


def render_json(report: ProfileReport) -> str:
    return json.dumps(to_dict(report), indent=2) + "\n"


# -- rich ------------------------------------------------------------------------------------
def _console(buffer: io.StringIO, color: bool, width: int | None) -> Console:
    return Console(
        file=buffer,
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        width=width or 128,
        highlight=False,
        soft_wrap=False,
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _ms(value: float) -> str:
    return f"{value:,.1f} ms" if value < 10_000 else f"{value / 1000:,.2f} s"


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def shorten_left(text: str, width: int) -> str:
    """Keep the end of a ``path:line``: the file name and line matter more than the directories."""
    return text if len(text) <= width else "…" + text[len(text) - width + 1 :]


def fill_table(
    table: Table, columns: Sequence[tuple[str, JustifyMethod]], rows: Sequence[Sequence[str | Text]]
) -> None:
    """Add ``columns`` (header, justify) and ``rows``, every cell at its full width: numbers and
    verdicts are the point of these tables, so rich may never cut or wrap them. Callers shorten
    the one free-text column (a path) beforehand."""
    for index, (header, justify) in enumerate(columns):
        width = max([len(header)] + [len(str(row[index])) for row in rows])
        table.add_column(header, justify=justify, no_wrap=True, min_width=width)
    for row in rows:
        table.add_row(*row)


def _where(frame: Frame) -> str:
    return f"{frame.path}:{frame.line}"


def site_verdict(site: SiteStats) -> Text:
    if site.finding is not None:
        f = site.finding
        text = Text(f"{f.code} ", style="bold")
        text.append(f.severity, style=SEVERITY_STYLE.get(f.severity, ""))
        if f.via is not None:
            text.append(f" (at caller {f.via.path}:{f.via.line})", style="dim")
        return text
    if site.suppressed:
        return Text("suppressed", style="dim")
    if site.cause == USER:
        return Text("blind spot", style="bold magenta")
    if site.cause == THREAD:
        return Text("other thread (GIL)", style="yellow")
    return Text(site.cause, style="dim")


def render_rich(report: ProfileReport, *, color: bool = True, width: int | None = None) -> str:
    buffer = io.StringIO()
    console = _console(buffer, color, width)
    a, s = report.analysis, report.settings
    console.print(Text(f"asynclint profile  {report.target}", style="bold"), Text(f"  ({report.kind})", style="dim"))
    facts = report.facts
    if facts.interrupted:
        console.print(
            Text(
                f"INTERRUPTED after {report.wall_s:.2f} s of measuring: a partial report; "
                f"{facts.cancelled} rollouts in flight were cancelled",
                style="bold yellow",
            )
        )
    concurrency = f"concurrency {facts.concurrency}"
    if facts.concurrency_note:
        concurrency += f" ({s.concurrency} asked: {facts.concurrency_note})"
    console.print(
        Text(
            f"{report.rollouts} rollouts in {report.wall_s:.2f} s = {report.throughput:.2f} rollouts/s, "
            f"{concurrency}, after {s.warmup} unmeasured warm-up rollouts",
            style="dim",
        )
    )
    server = f"model latency {s.latency_ms:g} ms · seed {s.seed} · " if facts.fake_server else ""
    console.print(
        Text(
            f"{server}heartbeat {a.interval_ms:g} ms · stall threshold {a.threshold_ms:g} ms"
            f" · sampler {a.method} · loop {s.loop}",
            style="dim",
        )
    )
    for note in a.notes:
        console.print(Text(f"note: {note}", style="yellow"))
    if facts.timed_out:
        console.print(
            Text(
                f"{facts.timed_out} rollouts timed out: still running at --timeout ({s.timeout_s:g} s), cancelled",
                style="yellow",
            )
        )
    if report.outputs.errors:
        console.print(Text(f"{report.outputs.errors} rollouts raised; first: {report.first_error}", style="yellow"))
    console.print()

    lag = Table(box=box.SIMPLE_HEAD, title="Event-loop lag", title_justify="left", title_style="bold")
    for column in ("p50", "p90", "p99", "max", "stalls", "blocked", "of wall clock"):
        lag.add_column(column, justify="right")
    share = a.lag.blocked_ms / (report.wall_s * 1000) if report.wall_s else 0.0
    lag.add_row(
        _ms(a.lag.p50_ms),
        _ms(a.lag.p90_ms),
        _ms(a.lag.p99_ms),
        _ms(a.lag.max_ms),
        str(a.lag.stalls),
        _ms(a.lag.blocked_ms),
        f"{share:.0%}",
    )
    console.print(lag)

    peak = max((count for _, count in a.lag.histogram), default=0)
    histogram = Table(box=None, show_header=False, padding=(0, 1))
    histogram.add_column(justify="right", style="dim")
    histogram.add_column(justify="right")
    histogram.add_column()
    for label, count in a.lag.histogram:
        if count:
            bar = "█" * max(1, round(30 * count / peak)) if peak else ""
            histogram.add_row(label, str(count), Text(bar, style="cyan"))
    console.print(Text("Heartbeats by lag", style="bold"))
    console.print(histogram)
    console.print()

    if not a.sites:
        console.print(Text(f"No stall of {a.threshold_ms:g} ms or more: nothing held the loop.", style="green"))
    else:
        sites = Table(box=box.SIMPLE_HEAD, title="Where the loop was held", title_justify="left", title_style="bold")
        rows = [
            (
                shorten_left(_where(site.frame), SITE_WIDTH),
                _shorten(site.frame.function, 26),
                str(site.count),
                _ms(site.total_ms),
                _ms(site.max_ms),
                site_verdict(site),
            )
            for site in a.sites[:TOP_SITES]
        ]
        fill_table(
            sites,
            (
                ("site", "left"),
                ("function", "left"),
                ("stalls", "right"),
                ("total", "right"),
                ("max", "right"),
                ("static finding", "left"),
            ),
            rows,
        )
        console.print(sites)
        hidden = len(a.sites) - TOP_SITES
        if hidden > 0:
            console.print(Text(f"… and {hidden} more sites (--format json lists them all)", style="dim"))
        for site in [s for s in a.sites[:TOP_SITES] if (s.chain or s.inner) and s.cause == USER][:6]:
            line = Text(f"{_where(site.frame)} {site.frame.function}", style="bold")
            if site.inner is not None:
                line.append(f"  (inside {site.inner.function}, {_where(site.inner)})", style="dim")
            for frame in site.chain:
                line.append(f"\n  ← {frame.function}  {_where(frame)}", style="dim")
            console.print(line)
        # Only blind spots that matter: a sample that happened to land on an await line is not one.
        blind = [s for s in a.sites if s.blind_spot and s.total_ms >= BLIND_SPOT_SHARE * a.lag.blocked_ms]
        if blind:
            console.print()
            named = ", ".join(f"{_where(s.frame)} ({_ms(s.total_ms)})" for s in blind[:3])
            console.print(
                Text(
                    f"Blind spots: {len(blind)} site(s) of your code held the loop for at least "
                    f"{BLIND_SPOT_SHARE:.0%} of the blocked time with no static finding: {named}. "
                    "Look for third-party calls the linter cannot see into, or a pattern it does not know.",
                    style="magenta",
                )
            )
    console.print()
    causes = Table(box=box.SIMPLE_HEAD, title="Stall time by cause", title_justify="left", title_style="bold")
    causes.add_column("cause")
    causes.add_column("time", justify="right")
    causes.add_column("meaning", style="dim")
    for cause, ms in a.causes:
        if ms > 0:
            causes.add_row(cause, _ms(ms), CAUSE_HELP[cause])
    if any(ms > 0 for _, ms in a.causes):
        console.print(causes)
    outputs = report.outputs
    static = (
        f"static check: {report.static.note}"
        if report.static.note
        else f"static check: {_count(report.static.findings, 'finding')} in {_count(report.static.files, 'file')}"
    )
    console.print(Text(f"outputs: {outputs.count} rollouts, sha256 {outputs.sha256[:16]}…  {static}", style="dim"))
    return buffer.getvalue()
