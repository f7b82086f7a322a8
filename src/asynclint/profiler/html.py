"""The HTML report: one self-contained page (inline CSS and SVG, nothing fetched) drawn from a
profile report's JSON form, for one run or for two compared runs."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any, TypeGuard

from asynclint.profiler.compare import Comparison, site_change_verdict

#: Sites listed in the page's tables (the JSON report lists them all).
TOP_SITES = 25
CHART_W, CHART_H, CHART_PAD = 1060, 170, 34
#: The plot's top edge: the band above it holds the axis's unit, clear of the top tick's number.
PLOT_TOP = 26
#: Paths longer than this are shortened in the middle (the full path in the tooltip), so that one
#: deep path cannot widen a table past the page.
PATH_CHARS = 64
#: Callers shown under a site; the rest fold into a <details>.
SHOWN_CALLERS = 3
#: The lag axis is logarithmic from this floor up: a 0.1 ms beat and a 1 s stall on one chart.
FLOOR_MS = 0.1
#: pyinstrument's page asks Google Fonts for its typefaces; the report fetches nothing.
_FONT_URL = re.compile(r"https?://fonts\.googleapis\.com/[^\"']*")

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;color:#1d2330;
padding:0 16px;background:#fbfbfd}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #dde;padding-bottom:4px}
.dim{color:#667}.warn{color:#9a5b00}.bad{color:#b3261e;font-weight:600}.good{color:#1b7f3b;font-weight:600}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{padding:4px 8px;border-bottom:1px solid #e6e6ee;
text-align:left;vertical-align:top}td code{overflow-wrap:anywhere}th{background:#f0f1f6;font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code{font:12px ui-monospace,Menlo,Consolas,monospace}
.bar{display:inline-block;height:10px;background:#5b7bd5;vertical-align:middle;margin-right:6px}
td code.loc{overflow-wrap:normal;word-break:normal}
td:first-child{max-width:250px}td:last-child{min-width:130px}.chain{font-size:12px;color:#556}summary{font-size:12px;color:#556;cursor:pointer}.sev-critical{color:#b3261e;font-weight:700}.sev-high{color:#c4421a;font-weight:600}
.sev-medium{color:#9a6a00}.sev-low{color:#2a6f97}.banner{padding:8px 12px;border-radius:6px;margin:10px 0}
.banner.good{background:#e6f4ea}.banner.bad{background:#fce8e6}.banner.warn{background:#fff4e0;font-weight:400}
.stats{display:flex;gap:10px;flex-wrap:wrap}.stat{background:#fff;border:1px solid #e2e4ee;border-radius:6px;
padding:6px 12px}.stat b{display:block;font-size:17px}.cols{display:grid;grid-template-columns:1fr 1fr;gap:20px}
svg{background:#fff;border:1px solid #e2e4ee;border-radius:6px;max-width:100%;height:auto}
iframe{width:100%;height:640px;border:1px solid #e2e4ee;border-radius:6px;background:#fff}
"""


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def _ms(value: float) -> str:
    return f"{value:,.1f} ms" if value < 10_000 else f"{value / 1000:,.2f} s"


def _location(path: str, line: Any) -> str:
    """``path:line`` as code, a long path shortened in the middle: its start says where, its end
    which file; the whole path in the tooltip. A narrow column wraps it only after a ``/``
    (``<wbr>``; the ``loc`` style breaks no name), never inside a file name or before ``:line``."""
    head, tail = PATH_CHARS // 3, PATH_CHARS - PATH_CHARS // 3 - 1
    shown = path if len(path) <= PATH_CHARS else f"{path[:head]}…{path[-tail:]}"
    title = f' title="{_e(path)}:{_e(line)}"' if shown != path else ""
    return f'<code class="loc"{title}>{_e(shown).replace("/", "/<wbr>")}:{_e(line)}</code>'


def _page(title: str, body: Iterable[str]) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def _table(headers: Sequence[tuple[str, bool]], rows: Iterable[Sequence[str]]) -> str:
    """``headers``: (text, numeric?); cells are already HTML."""
    head = "".join(f'<th class="n">{_e(h)}</th>' if numeric else f"<th>{_e(h)}</th>" for h, numeric in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{cell}</td>' if numeric else f"<td>{cell}</td>"
            for cell, (_, numeric) in zip(row, headers, strict=True)
        )
        + "</tr>\n"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}</tbody></table>"


# -- pieces of one run -----------------------------------------------------------------------
def _header(doc: dict) -> list[str]:
    s, run = doc.get("settings") or {}, doc.get("run") or {}
    parts = [
        (
            f"<h1>asynclint profile <code>{_e(doc.get('target', '?'))}</code> "
            f'<span class="dim">({_e(doc.get("kind", "?"))})</span></h1>'
        ),
        (
            f'<p class="dim">{_e(run.get("rollouts"))} rollouts in {float(run.get("wall_s", 0)):.2f} s, '
            f"concurrency {_e(run.get('concurrency', s.get('concurrency')))} · heartbeat {_e(s.get('interval_ms'))} ms"
            f" · stall threshold {_e(s.get('threshold_ms'))} ms · sampler {_e(s.get('method'))}"
            f" · loop {_e(s.get('loop', 'asyncio'))} · report version {_e(doc.get('asynclint_profile'))}</p>"
        ),
    ]
    if run.get("interrupted"):
        parts.append(
            f'<p class="banner warn">Interrupted: a partial report; {_e(run.get("cancelled", 0))} '
            "rollouts in flight were cancelled.</p>"
        )
    if run.get("errors"):
        parts.append(
            f'<p class="banner warn">{_e(run["errors"])} rollouts raised; first: '
            f"<code>{_e(run.get('first_error'))}</code></p>"
        )
    parts.extend(f'<p class="warn">note: {_e(note)}</p>' for note in doc.get("notes") or [])
    return parts


def _stats(doc: dict) -> str:
    lag, run = doc["lag"], doc["run"]
    wall_ms = float(run["wall_s"]) * 1000
    share = float(lag["blocked_ms"]) / wall_ms if wall_ms else 0.0
    items = [
        ("p50 lag", _ms(lag["p50_ms"])),
        ("p99 lag", _ms(lag["p99_ms"])),
        ("max lag", _ms(lag["max_ms"])),
        ("stalls", str(lag["stalls"])),
        ("blocked", f"{_ms(lag['blocked_ms'])} ({share:.0%} of wall)"),
        ("throughput", f"{float(run['throughput_per_s']):.2f} rollouts/s"),
    ]
    return (
        '<div class="stats">'
        + "".join(f'<div class="stat"><span class="dim">{_e(k)}</span><b>{_e(v)}</b></div>' for k, v in items)
        + "</div>"
    )


def _y(ms: float, top_ms: float) -> float:
    """The chart's vertical position of ``ms`` on a log axis from FLOOR_MS to ``top_ms``."""
    span = math.log10(top_ms / FLOOR_MS)
    fraction = math.log10(max(ms, FLOOR_MS) / FLOOR_MS) / span if span > 0 else 0.0
    bottom = CHART_H - CHART_PAD / 2
    return bottom - min(1.0, fraction) * (bottom - PLOT_TOP)


def _usable(timeline: Any) -> TypeGuard[dict[str, Any]]:
    """A timeline as reports write it (a hand-edited one may not be)."""
    if not isinstance(timeline, dict) or not isinstance(timeline.get("max_ms"), list) or not timeline["max_ms"]:
        return False
    width = timeline.get("bucket_s")
    return (
        isinstance(width, (int, float))
        and math.isfinite(width)
        and width > 0
        and all(v is None or (isinstance(v, (int, float)) and math.isfinite(v)) for v in timeline["max_ms"])
    )


def lag_chart(doc: dict, top_ms: float | None = None) -> str:
    """An SVG of the largest heartbeat lag per time slice, the stall threshold as a dashed line,
    bars over it in red, and the worst stalls shaded and numbered (hover for details)."""
    timeline = (doc.get("lag") or {}).get("timeline")
    if not _usable(timeline):
        return (
            f'<p class="dim">No lag timeline: this report (version {_e(doc.get("asynclint_profile"))}) '
            "was written before reports kept one.</p>"
        )
    series, width_s = timeline["max_ms"], float(timeline["bucket_s"])
    threshold = float((doc.get("settings") or {}).get("threshold_ms") or 0)
    total_s = max(len(series) * width_s, float(doc["run"]["wall_s"]), 1e-9)
    top = top_ms or max([threshold * 2, *(v for v in series if v is not None)])
    left, plot_w = CHART_PAD + 10, CHART_W - CHART_PAD - 20

    def x(seconds: float) -> float:
        return left + plot_w * seconds / total_s

    step = plot_w * width_s / total_s
    parts = [
        (
            f'<svg viewBox="0 0 {CHART_W} {CHART_H}" width="{CHART_W}" height="{CHART_H}" role="img" '
            'aria-label="heartbeat lag over time">'
        )
    ]
    labelled: list[float] = []  # x of each number drawn: one that would overlap another is left to the tooltip
    for rank, stall in enumerate(doc.get("worst_stalls") or [], 1):
        start, length = float(stall["at_s"]), float(stall["duration_ms"]) / 1000
        number = ""
        if all(abs(x(start) - other) >= 22 for other in labelled):
            labelled.append(x(start))
            number = f'<text x="{x(start) + 1:.1f}" y="14" font-size="10" fill="#b3261e">#{rank}</text>'
        where = ", ".join(f"{site['path']}:{site['line']} {site['function']}" for site in stall.get("sites", [])[:3])
        label = f"stall #{rank}: {_ms(stall['duration_ms'])} at +{start:.3f} s: {where}"
        span = max(2.0, x(start + length) - x(start))
        parts.append(
            f'<g class="stall"><title>{_e(label)}</title><rect x="{x(start):.1f}" y="4" width="{span:.1f}" '
            f'height="{CHART_H - CHART_PAD / 2 - 4:.0f}" fill="#f4b4ae" fill-opacity="0.45"/>{number}</g>'
        )
    base = _y(FLOOR_MS, top)
    for index, value in enumerate(series):
        if value is None:
            continue
        colour = "#d93025" if threshold and value >= threshold else "#7b8bb5"
        y = _y(value, top)
        parts.append(
            f'<rect x="{x(index * width_s):.1f}" y="{y:.1f}" width="{max(step, 1.0):.1f}" '
            f'height="{max(base - y, 0.5):.1f}" fill="{colour}"/>'
        )
    for tick in (0.1, 1, 10, 100, 1000, 10_000):
        if tick <= top:
            y = _y(tick, top)
            parts.append(
                f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eceef4"/>'
                f'<text x="{left - 4}" y="{y + 3:.1f}" font-size="10" text-anchor="end" fill="#667">'
                f"{tick:g}</text>"
            )
    if threshold:
        y = _y(threshold, top)
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#b3261e" '
            f'stroke-dasharray="4 3"><title>stall threshold {threshold:g} ms</title></line>'
        )
    parts.append(
        f'<text x="{left}" y="{CHART_H - 2}" font-size="10" fill="#667">0 s</text>'
        f'<text x="{left + plot_w}" y="{CHART_H - 2}" font-size="10" fill="#667" text-anchor="end">'
        f'{total_s:.2f} s</text><text x="{left - 4}" y="{PLOT_TOP - 14}" font-size="10" text-anchor="end" '
        'fill="#667">ms</text></svg>'
    )
    return "".join(parts) + (
        f'<p class="dim">Largest heartbeat lag per {width_s * 1000:g} ms slice (log scale); '
        "red: a stall, over the dashed threshold; shaded and numbered: the worst stalls.</p>"
    )


def histogram(doc: dict) -> str:
    buckets = (doc.get("lag") or {}).get("histogram") or []
    peak = max((b["count"] for b in buckets), default=0)
    rows = [
        (
            _e(b["bucket"]),
            f"{b['count']:,}",
            f'<span class="bar" style="width:{240 * b["count"] / peak:.0f}px"></span>' if peak and b["count"] else "",
        )
        for b in buckets
    ]
    return _table((("lag", False), ("heartbeats", True), ("", False)), rows)


def _finding(finding: dict | None, site: dict) -> str:
    if finding:
        text = (
            f'<code>{_e(finding.get("code"))}</code> <span class="sev-{_e(finding.get("severity"))}">'
            f'{_e(finding.get("severity"))}</span> <span class="dim">{_e(finding.get("rule", ""))}</span>'
        )
        via = finding.get("via")
        if via:
            text += f'<div class="chain">at caller {_location(via["path"], via["line"])}</div>'
        return text
    if site.get("suppressed"):
        return '<span class="dim">suppressed</span>'
    if site.get("blind_spot"):
        return '<span class="bad">blind spot</span>'
    return f'<span class="dim">{_e(site.get("cause"))}</span>'


def sites_table(doc: dict) -> str:
    sites = doc.get("sites") or []
    if not sites:
        threshold = (doc.get("settings") or {}).get("threshold_ms")
        return f'<p class="good">No stall of {_e(threshold)} ms or more: nothing held the loop.</p>'
    blocked = float(doc["lag"]["blocked_ms"]) or sum(float(s["total_ms"]) for s in sites) or 1.0
    rows = []
    for site in sites[:TOP_SITES]:
        share = float(site["total_ms"]) / blocked
        where = _location(site["path"], site["line"])
        if site.get("inner"):
            inner = site["inner"]
            inner_at = _location(inner["path"], inner["line"])
            where += f'<div class="chain">inside {_e(inner["function"])}, {inner_at}</div>'
        callers = [
            f'<div class="chain">← {_e(c["function"])} {_location(c["path"], c["line"])}</div>'
            for c in site.get("chain") or []
        ]
        chain = "".join(callers[:SHOWN_CALLERS])
        if len(callers) > SHOWN_CALLERS:
            chain += (
                f"<details><summary>{len(callers) - SHOWN_CALLERS} more caller(s)</summary>"
                + "".join(callers[SHOWN_CALLERS:])
                + "</details>"
            )
        rows.append(
            (
                where,
                f"<code>{_e(site['function'])}</code>{chain}",
                _e(site["cause"]),
                f"{site['count']:,}",
                _ms(site["total_ms"]),
                _ms(site.get("max_ms", 0.0)),
                f'<span class="bar" style="width:{80 * share:.0f}px"></span>{share:.1%}',
                _finding(site.get("finding"), site),
            )
        )
    hidden = len(sites) - TOP_SITES
    more = f'<p class="dim">… and {hidden} more sites (the JSON report lists them all)</p>' if hidden > 0 else ""
    return (
        _table(
            (
                ("site", False),
                ("function and callers", False),
                ("cause", False),
                ("stalls", True),
                ("total", True),
                ("max", True),
                ("share of blocked", True),
                ("static finding", False),
            ),
            rows,
        )
        + more
    )


def _causes(doc: dict) -> str:
    causes = [(cause, ms) for cause, ms in (doc.get("causes") or {}).items() if ms]
    if not causes:
        return ""
    return "<h2>Stall time by cause</h2>" + _table(
        (("cause", False), ("time", True)), [(_e(cause), _ms(ms)) for cause, ms in causes]
    )


def _call_tree(tree: str | None) -> list[str]:
    if tree is None:
        return []
    offline = _FONT_URL.sub("data:text/css,", tree)
    return [
        "<h2>The worst stalls' call trees</h2>",
        (
            '<p class="dim">pyinstrument\'s call tree of the worst stalls: each stall a root, under it the sampled '
            "stacks weighted by their share of the stall.</p>"
        ),
        f'<iframe title="call tree of the worst stalls" sandbox="allow-scripts" srcdoc="{_e(offline)}"></iframe>',
    ]


def render_html(doc: dict, call_tree: str | None = None) -> str:
    """One run's page from its JSON form (``report.to_dict``); ``call_tree``: pyinstrument's page."""
    body = [
        *_header(doc),
        _stats(doc),
        "<h2>Lag over time</h2>",
        lag_chart(doc),
        "<h2>Heartbeats by lag</h2>",
        histogram(doc),
        "<h2>Where the loop was held</h2>",
        sites_table(doc),
        _causes(doc),
        *_call_tree(call_tree),
        (
            f'<p class="dim">outputs: {_e(doc["outputs"]["count"])} rollouts, sha256 '
            f"<code>{_e(doc['outputs']['sha256'])}</code></p>"
        ),
    ]
    return _page(f"asynclint profile {doc.get('target', '')}", body)


# -- two runs ----------------------------------------------------------------------------------
def _ratio(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.2f}×" if value >= 0.01 or value == 0 else "&lt;0.01×"


def render_compare_html(before: dict, after: dict, result: Comparison) -> str:
    """Both runs on one page: the outputs verdict, the metrics and per-site change, each run's
    lag over time (one lag scale for both) and histogram."""
    verdict_class = "good" if result.outputs_identical else "bad"
    body = [
        f"<h1>asynclint profile --compare <code>{_e(result.before)}</code> → <code>{_e(result.after)}</code></h1>",
        f'<p class="banner {verdict_class}">outputs: {_e(result.outputs_note)}</p>',
    ]
    if result.settings_note:
        body.append(f'<p class="banner warn">note: {_e(result.settings_note)}; the ratios compare different loads</p>')
    words = {True: '<span class="good">better</span>', False: '<span class="bad">worse</span>', None: ""}
    body += [
        "<h2>Before and after</h2>",
        _table(
            (("", False), ("before", True), ("after", True), ("after / before", True), ("", False)),
            [
                (_e(m.name), f"{m.before:,.2f}", f"{m.after:,.2f}", _ratio(m.ratio), words[m.improved])
                for m in result.metrics
            ],
        ),
    ]
    styles = {"good": "good", "bad": "bad", "new": "warn"}
    rows = []
    for change in result.sites[:TOP_SITES]:
        verdict = site_change_verdict(change)
        rows.append(
            (
                _location(change.path, change.line),
                f"<code>{_e(change.function)}</code>",
                _e(change.finding or ""),
                _ms(change.before_ms),
                _ms(change.after_ms),
                _ratio(change.ratio),
                f'<span class="{styles.get(verdict.tone, "dim")}">{_e(verdict.text)}</span>',
            )
        )
    body += [
        "<h2>Sites: stall time before and after</h2>",
        _table(
            (
                ("site", False),
                ("function", False),
                ("static finding", False),
                ("before", True),
                ("after", True),
                ("after / before", True),
                ("stall time", False),
            ),
            rows,
        )
        if rows
        else '<p class="good">Neither run stalled.</p>',
    ]
    top = max(
        [float(doc["lag"]["max_ms"]) for doc in (before, after)]
        + [2 * float((doc.get("settings") or {}).get("threshold_ms") or 0) for doc in (before, after)]
    )
    for name, doc in ((result.before, before), (result.after, after)):
        body += [f"<h2>Lag over time: {_e(name)}</h2>", *_header(doc)[1:], _stats(doc), lag_chart(doc, top or None)]
    body += (
        ['<div class="cols">']
        + [
            f"<div><h2>Heartbeats by lag: {_e(name)}</h2>{histogram(doc)}</div>"
            for name, doc in ((result.before, before), (result.after, after))
        ]
        + ["</div>"]
    )
    for name, doc in ((result.before, before), (result.after, after)):
        body += [f"<h2>Where the loop was held: {_e(name)}</h2>", sites_table(doc)]
    return _page(f"asynclint profile --compare {result.before} {result.after}", body)
