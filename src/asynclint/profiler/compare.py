"""``asynclint profile --compare BEFORE.json AFTER.json``: two profile reports side by side — lag,
blocked time, throughput, top sites, with ratios — and whether the outputs are the same."""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, JustifyMethod
from rich.table import Table
from rich.text import Text

from asynclint.profiler.report import PROFILE_FORMAT_VERSION, READABLE_VERSIONS, SITE_WIDTH, fill_table, shorten_left

#: A site whose stall time did not at least halve did not get a fix that helped (``not halved``).
HELPED_RATIO = 0.5
TOP_SITES = 10
_REQUIRED = {
    "run": ("rollouts", "wall_s", "throughput_per_s"),
    "lag": ("p50_ms", "p90_ms", "p99_ms", "max_ms", "stalls", "blocked_ms"),
    "outputs": ("count", "sha256", "values"),
}


class CompareError(Exception):
    """A report that cannot be compared (unreadable, not JSON, not a profile report)."""


@dataclass(frozen=True)
class Metric:
    name: str
    before: float
    after: float
    lower_is_better: bool

    @property
    def ratio(self) -> float | None:
        """after / before; None when before is zero."""
        return self.after / self.before if self.before else None

    @property
    def improved(self) -> bool | None:
        if self.before == self.after:
            return None
        return (self.after < self.before) == self.lower_is_better


@dataclass(frozen=True)
class SiteChange:
    cause: str
    path: str
    function: str
    line: int
    before_ms: float
    after_ms: float
    finding: str | None  # "ASL101 critical" from whichever run had it

    @property
    def ratio(self) -> float | None:
        return self.after_ms / self.before_ms if self.before_ms else None

    @property
    def helped(self) -> bool:
        return self.before_ms > 0 and self.after_ms <= self.before_ms * HELPED_RATIO

    @property
    def judged(self) -> bool:
        """Only code can be fixed: GC and the loop's own time get no verdict."""
        return self.cause in ("user", "library")


@dataclass(frozen=True)
class Comparison:
    before: str
    after: str
    metrics: tuple[Metric, ...]
    sites: tuple[SiteChange, ...]
    outputs_identical: bool
    outputs_note: str  # what differs, or how many outputs matched
    settings_note: str | None  # settings that differ between the runs (ratios then mislead)


def load_report(path: str | Path) -> dict[str, Any]:
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CompareError(f"{name}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CompareError(f"{name}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CompareError(f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(document, dict) or "asynclint_profile" not in document:
        raise CompareError(
            f"{name}: not an asynclint profile report (write one with `asynclint profile TARGET --format json -o FILE`)"
        )
    if document["asynclint_profile"] not in READABLE_VERSIONS:
        raise CompareError(
            f"{name}: profile report version {document['asynclint_profile']!r} "
            f"(this asynclint reads versions {', '.join(map(str, READABLE_VERSIONS))}; "
            f"it writes {PROFILE_FORMAT_VERSION})"
        )
    for section, keys in _REQUIRED.items():
        block = document.get(section)
        if not isinstance(block, dict) or any(key not in block for key in keys):
            raise CompareError(f"{name}: malformed profile report (section {section!r} is incomplete)")
    problem = _problem(document)
    if problem:
        raise CompareError(f"{name}: malformed profile report ({problem})")
    return document


def _is_number(value: Any) -> bool:
    """A finite, non-negative JSON number (json.loads accepts NaN and Infinity; a report has none)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0


def _problem(document: dict) -> str | None:
    """What makes a report unusable for a comparison, or None."""
    for section in ("run", "lag"):
        for key in _REQUIRED[section]:
            if not _is_number(document[section][key]):
                return f"{section}.{key} is {document[section][key]!r}, not a finite number >= 0"
    outputs = document["outputs"]
    if not isinstance(outputs["count"], int) or isinstance(outputs["count"], bool) or outputs["count"] < 0:
        return f"outputs.count is {outputs['count']!r}, not a count"
    if not isinstance(outputs["sha256"], str):
        return "outputs.sha256 is not a string"
    if not isinstance(outputs["values"], list):
        return "outputs.values is not a list"
    for key in ("settings",):
        if not isinstance(document.get(key, {}), dict):
            return f"{key!r} is not an object"
    for key in ("target", "kind"):
        if not isinstance(document.get(key, ""), str):
            return f"{key!r} is not a string"
    sites = document.get("sites", [])
    if not isinstance(sites, list):
        return "'sites' is not a list"
    for index, site in enumerate(sites):
        if not (
            isinstance(site, dict)
            and all(isinstance(site.get(k), str) for k in ("cause", "path", "function"))
            and isinstance(site.get("line"), int)
            and not isinstance(site.get("line"), bool)
            and _is_number(site.get("total_ms"))
            and (site.get("finding") is None or isinstance(site.get("finding"), dict))
        ):
            return f"site {index} lacks a valid cause, path, function, line, total_ms or finding"
    return None


def _number(document: dict, section: str, key: str) -> float:
    return float(document[section][key])  # checked by load_report


def _sites(document: dict) -> dict[tuple[str, str, str, int], dict]:
    merged: dict[tuple[str, str, str, int], dict] = {}
    for site in document.get("sites", []):
        key = (site["cause"], site["path"], site["function"], site["line"])
        entry = merged.setdefault(key, {"ms": 0.0, "finding": None})
        entry["ms"] += float(site["total_ms"])
        finding = site.get("finding")
        if isinstance(finding, dict) and entry["finding"] is None:
            entry["finding"] = f"{finding.get('code')} {finding.get('severity')}"
    return merged


def pair_sites(first: dict[tuple, dict], second: dict[tuple, dict]) -> list[tuple[tuple | None, tuple | None]]:
    """Pairs (before key, after key). Same file, function and line first; then, within one
    function, the leftover sites in line order when both sides have as many (a fix that adds an
    import or a line shifts the lines below it, not their order); the rest stay unpaired."""
    pairs: list[tuple[tuple | None, tuple | None]] = [(key, key) for key in first if key in second]
    left = {k for k in first if k not in second}
    right = {k for k in second if k not in first}
    by_function: dict[tuple, tuple[list[tuple], list[tuple]]] = {}
    for key in left:
        by_function.setdefault(key[:3], ([], []))[0].append(key)
    for key in right:
        by_function.setdefault(key[:3], ([], []))[1].append(key)
    for before_keys, after_keys in by_function.values():
        if len(before_keys) == len(after_keys):
            before_keys.sort(key=lambda k: k[3])
            after_keys.sort(key=lambda k: k[3])
            pairs.extend(zip(before_keys, after_keys, strict=True))
        else:
            pairs.extend((key, None) for key in before_keys)
            pairs.extend((None, key) for key in after_keys)
    return pairs


def _outputs(before: dict, after: dict) -> tuple[bool, str]:
    a, b = before["outputs"], after["outputs"]
    if a["sha256"] == b["sha256"] and a["count"] == b["count"]:
        return True, f"identical: {a['count']} outputs, sha256 {a['sha256'][:16]}…"
    if a["count"] != b["count"]:
        return False, f"different number of outputs: {a['count']} before, {b['count']} after"
    # Not strict: a hand-edited report may list fewer values than its count says.
    for index, (x, y) in enumerate(zip(a["values"], b["values"], strict=False)):
        if x != y:
            differing = sum(1 for p, q in zip(a["values"], b["values"], strict=False) if p != q)
            return False, (
                f"{differing} of {a['count']} outputs differ; first at rollout {index}: "
                f"{_short(x)} before, {_short(y)} after"
            )
    return False, "outputs differ (their digests differ)"


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _settings_note(before: dict, after: dict) -> str | None:
    """What differs between the two runs besides the code: the target, its kind, the settings
    (the sampler and the loop too: they change what the sites are)."""
    changed = [f"{k} {before.get(k)!r} → {after.get(k)!r}" for k in ("target", "kind") if before.get(k) != after.get(k)]
    # Reports written before --loop existed ran on asyncio's loop.
    first, second = ({"loop": "asyncio", **(report.get("settings") or {})} for report in (before, after))
    keys = (
        "rollouts",
        "concurrency",
        "duration_s",
        "timeout_s",
        "warmup",
        "latency_ms",
        "seed",
        "threshold_ms",
        "interval_ms",
        "method",
        "loop",
    )
    changed += [f"{k} {first.get(k)!r} → {second.get(k)!r}" for k in keys if first.get(k) != second.get(k)]
    return "the runs differ: " + ", ".join(changed) if changed else None


def compare(before: dict, after: dict, before_name: str = "before", after_name: str = "after") -> Comparison:
    metrics = (
        Metric("lag p50 (ms)", _number(before, "lag", "p50_ms"), _number(after, "lag", "p50_ms"), True),
        Metric("lag p90 (ms)", _number(before, "lag", "p90_ms"), _number(after, "lag", "p90_ms"), True),
        Metric("lag p99 (ms)", _number(before, "lag", "p99_ms"), _number(after, "lag", "p99_ms"), True),
        Metric("lag max (ms)", _number(before, "lag", "max_ms"), _number(after, "lag", "max_ms"), True),
        Metric("stalls", _number(before, "lag", "stalls"), _number(after, "lag", "stalls"), True),
        Metric("blocked (ms)", _number(before, "lag", "blocked_ms"), _number(after, "lag", "blocked_ms"), True),
        Metric("wall clock (s)", _number(before, "run", "wall_s"), _number(after, "run", "wall_s"), True),
        Metric(
            "throughput (rollouts/s)",
            _number(before, "run", "throughput_per_s"),
            _number(after, "run", "throughput_per_s"),
            False,
        ),
    )
    first, second = _sites(before), _sites(after)
    changes = []
    for old, new in pair_sites(first, second):
        key = old or new
        assert key is not None
        was = first.get(old, {}) if old is not None else {}
        now = second.get(new, {}) if new is not None else {}
        changes.append(
            SiteChange(
                key[0],
                key[1],
                key[2],
                key[3],
                was.get("ms", 0.0),
                now.get("ms", 0.0),
                was.get("finding") or now.get("finding"),
            )
        )
    changes.sort(key=lambda c: (-max(c.before_ms, c.after_ms), c.path, c.line))
    identical, note = _outputs(before, after)
    return Comparison(before_name, after_name, metrics, tuple(changes), identical, note, _settings_note(before, after))


@dataclass(frozen=True)
class Verdict:
    """What became of a site's stall time, in words that say what was measured ("97% less"), and
    its tone: ``good`` when it at least halved (``SiteChange.helped``), ``bad`` when it did not,
    ``new`` for a site only the second run has, empty for sites that get no verdict."""

    text: str
    tone: str


VERDICT_STYLE = {"good": "green", "bad": "bold red", "new": "yellow"}


def site_change_verdict(change: SiteChange) -> Verdict:
    """The change of a site's stall time from the first run to the second: ``none left``, ``97%
    less``, ``30% less, not halved``, ``40% more``, ``unchanged`` or ``new``; the cause for sites
    that get no verdict. A site paired across a fix may keep some time for the fix's own work
    (``asyncio.to_thread`` starting a worker thread): a few percent left is not "fixed", and a
    third less is not "did not help", so the words give the measured share instead."""
    if not change.judged:
        return Verdict(change.cause, "")
    if change.before_ms == 0:
        return Verdict("new", "new")
    if change.after_ms == 0:
        return Verdict("none left", "good")
    if change.after_ms == change.before_ms:
        return Verdict("unchanged", "bad")
    if change.after_ms > change.before_ms:
        return Verdict(f"{max(1, round((change.after_ms / change.before_ms - 1) * 100))}% more", "bad")
    # Rounded into 1..99: some time is left, and some went.
    less = f"{min(99, max(1, round((1 - change.after_ms / change.before_ms) * 100)))}% less"
    return Verdict(less, "good") if change.helped else Verdict(f"{less}, not halved", "bad")


def _ratio(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.2f}×" if value >= 0.01 or value == 0 else "<0.01×"


def _number_text(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:,.2f}"


def render_comparison(result: Comparison, *, color: bool = True, width: int | None = None) -> str:
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        width=width or 128,
        highlight=False,
    )
    console.print(Text(f"asynclint profile --compare  {result.before}  →  {result.after}", style="bold"))
    if result.settings_note:
        console.print(Text(f"note: {result.settings_note}; the ratios compare different loads", style="yellow"))
    table = Table(box=box.SIMPLE_HEAD)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("", "left"),
        ("before", "right"),
        ("after", "right"),
        ("after / before", "right"),
        ("", "left"),
    )
    for column, justify in columns:
        table.add_column(column, justify=justify)
    verdicts = {True: Text("better", style="green"), False: Text("worse", style="red"), None: Text("")}
    for metric in result.metrics:
        table.add_row(
            metric.name,
            _number_text(metric.before),
            _number_text(metric.after),
            _ratio(metric.ratio),
            verdicts[metric.improved],
        )
    console.print(table)
    if result.sites:
        sites = Table(
            box=box.SIMPLE_HEAD, title="Top sites (stall time, by function)", title_justify="left", title_style="bold"
        )
        rows = []
        for change in result.sites[:TOP_SITES]:
            verdict = site_change_verdict(change)
            rows.append(
                (
                    shorten_left(f"{change.path}:{change.line} {change.function}", SITE_WIDTH),
                    change.finding or "",
                    f"{change.before_ms:,.1f} ms",
                    f"{change.after_ms:,.1f} ms",
                    _ratio(change.ratio),
                    Text(verdict.text, style=VERDICT_STYLE.get(verdict.tone, "dim")),
                )
            )
        fill_table(
            sites,
            (
                ("site", "left"),
                ("static", "left"),
                ("before", "right"),
                ("after", "right"),
                ("after / before", "right"),
                ("stall time", "left"),
            ),
            rows,
        )
        console.print(sites)
        blocked = next(m.before for m in result.metrics if m.name.startswith("blocked"))
        stubborn = [
            c for c in result.sites[:TOP_SITES] if c.judged and c.before_ms > max(blocked * 0.02, 0.0) and not c.helped
        ]
        if stubborn:
            console.print(
                Text(
                    f"{len(stubborn)} site(s) still hold the loop at least half as long as before. If the change moved "
                    "pure-Python work (json, deepcopy) to a thread, the GIL still serialises it: do less work, "
                    "or use a process pool.",
                    style="yellow",
                )
            )
    style = "green" if result.outputs_identical else "bold red"
    console.print(Text(f"outputs: {result.outputs_note}", style=style))
    return buffer.getvalue()


def comparison_to_dict(result: Comparison) -> dict[str, Any]:
    return {
        "before": result.before,
        "after": result.after,
        "outputs_identical": result.outputs_identical,
        "outputs_note": result.outputs_note,
        "settings_note": result.settings_note,
        "metrics": [
            {"name": m.name, "before": m.before, "after": m.after, "ratio": m.ratio, "improved": m.improved}
            for m in result.metrics
        ],
        "sites": [
            {
                "cause": c.cause,
                "path": c.path,
                "line": c.line,
                "function": c.function,
                "finding": c.finding,
                "before_ms": round(c.before_ms, 3),
                "after_ms": round(c.after_ms, 3),
                "ratio": c.ratio,
                "helped": c.helped,
            }
            for c in result.sites
        ],
    }
